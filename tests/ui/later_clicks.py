"""Plays a battle on the battle screen with real pygame events (issue 15 UI tests):
a policy picks a legal action, and the driver performs it the way a player would -
clicks on tray tokens, hexes, unit tokens and prompt-bar buttons, keys E / F / H /
1 / 2.  Only the action kinds a player makes with clicks are chosen; each action
must change the state (a click that does nothing fails the test)."""
from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pygame

from game.rules.actions import (Attack, ChooseEnd, ChooseOrder, DefensiveFire, Deploy, EndPhase,
                                Move, PassDefensiveFire, PlaceAircraft)
from game.rules.state import AntiairPrompt, DefensiveFirePrompt
from tests.uikit import click, key, step

CLICKABLE = (ChooseOrder, ChooseEnd, Deploy, Move, Attack, EndPhase, DefensiveFire,
             PassDefensiveFire, PlaceAircraft)


def press_button(app, name: str, frames: int = 2) -> None:
    step(app, 1)                     # the prompt bar lays its buttons out while updating
    b = app.scene.buttons[name]
    click(app, b.rect.center, frames=frames)


def _near_antiair(game, a: PlaceAircraft) -> bool:
    st = game.state
    return any(u.side != a.side and u.on_map and u.card.has("antiair") and
               u.hex.distance(a.hex) <= 1 for u in st.units.values())


def choose(game, rng: random.Random) -> Any:
    """A legal action a player would click: deploy everything, fly the Aircraft next to
    enemy Antiair when possible (so the prompt comes up), attack when it can, move
    now and then, end the phase otherwise."""
    acts = [a for a in game.legal_actions() if isinstance(a, CLICKABLE)]
    acts = [a for a in acts if not (isinstance(a, Move) and not a.path)]      # no turning
    st = game.state
    if isinstance(st.pending, (DefensiveFirePrompt, AntiairPrompt)):
        fire = [a for a in acts if isinstance(a, DefensiveFire)]
        return fire[0] if fire and rng.random() < 0.7 else PassDefensiveFire(st.to_act)
    for kind in (ChooseOrder, ChooseEnd):
        got = [a for a in acts if isinstance(a, kind)]
        if got:
            return rng.choice(got)
    deploys = [a for a in acts if isinstance(a, Deploy) and a.carrier is None]
    if deploys:                      # an empty hex (a click on a token selects that unit)
        uid = deploys[0].uid
        free = [a for a in deploys if a.uid == uid and not st.units_at(a.hex)]
        return rng.choice(free or [a for a in deploys if a.uid == uid])
    places = [a for a in acts if isinstance(a, PlaceAircraft)]
    if places:
        near = [a for a in places if _near_antiair(game, a)]
        return rng.choice(near or places)
    attacks = [a for a in acts if isinstance(a, Attack)]
    if attacks:
        return rng.choice(attacks)
    moves = [a for a in acts if isinstance(a, Move)]
    if moves and rng.random() < 0.5:
        return rng.choice(moves)
    return EndPhase(st.to_act)


def _tray_click(app, scene, uid: str) -> None:
    step(app, 1)                     # the side panel draws the tray
    tray = getattr(scene.mode, "tray", {})
    assert uid in tray, f"{uid} is not in the tray"
    click(app, tray[uid].center)


def _unit_click(app, scene, uid: str) -> None:
    slots = scene.view.unit_slots(scene.state)
    click(app, slots[uid].center)


def perform(app, scene, a: Any) -> None:
    """Do ``a`` with the events a player would make."""
    if isinstance(a, ChooseOrder):
        key(app, pygame.K_1 if a.go_first else pygame.K_2)
    elif isinstance(a, ChooseEnd):
        press_button(app, a.end)
    elif isinstance(a, (Deploy, PlaceAircraft)):
        if scene.selected != a.uid:
            _tray_click(app, scene, a.uid)
        click(app, scene.view.center(a.hex), frames=3)
    elif isinstance(a, Move):
        if scene.selected != a.uid:
            _unit_click(app, scene, a.uid)
        click(app, scene.view.center(a.path[-1]), frames=3)
    elif isinstance(a, Attack):
        if scene.selected != a.uid:
            _unit_click(app, scene, a.uid)
        _unit_click(app, scene, a.target)
    elif isinstance(a, EndPhase):
        if scene.mode.name == "deploy":
            press_button(app, "done")           # the deployment's Done button
        else:
            key(app, pygame.K_e)
    elif isinstance(a, DefensiveFire):
        if scene.selected != a.uid:
            _unit_click(app, scene, a.uid)
        key(app, pygame.K_f, frames=3)
    elif isinstance(a, PassDefensiveFire):
        key(app, pygame.K_h, frames=3)
    else:
        raise AssertionError(f"no click for {a}")


def play(app, scene, sides: tuple[str, ...], *, seed: int = 1, max_steps: int = 4000) -> Counter:
    """Play ``sides`` by events until the victory screen; returns what was done, by kind
    (``modal:<name>`` for the stacked steps answered: facings, confirmations...)."""
    from game.ui.scenes.battle import BattleScene
    rng = random.Random(seed)
    done: Counter = Counter()
    game = scene.game
    for _ in range(max_steps):
        if not isinstance(app.scene, BattleScene):
            return done
        st = game.state
        mode = scene.mode
        if scene.anim.busy:
            step(app, 2)
            continue
        if mode.name == "casualty":
            press_button(app, "next" if not getattr(mode, "done", True) else "continue")
            done["casualty"] += 1
            continue
        if mode.name == "game_over":
            press_button(app, "result")
            continue
        if scene.ai is not None and scene.ai_turn:
            step(app, 3)
            continue
        if st.to_act not in sides:
            step(app, 2)
            continue
        if scene.stack or mode.name == "facing":   # facing, confirmation, choice: button one
            first = {"facing": "keep", "facing_choice": "keep", "confirm": "yes",
                     "choice": "opt0", "recap": "skip"}.get(mode.name)
            step(app, 1)
            name = first if first in scene.buttons else next(iter(scene.buttons))
            press_button(app, name)
            done[f"modal:{mode.name}"] += 1
            continue
        a = choose(game, rng)
        before = (len(game.history), st.version)
        perform(app, scene, a)
        after = (len(game.history), game.state.version)
        assert after != before or scene.stack, f"the clicks for {a} changed nothing " \
                                               f"(mode {scene.mode.name})"
        done[type(a).__name__] += 1
    raise AssertionError(f"no victory screen after {max_steps} steps: {game.state.phase}")
