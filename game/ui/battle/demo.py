"""``main.py --demo``: the battle screen plays itself with the AI from
``game.ai`` (legal random actions when there is none), and solo practice:
the AI plays its side.

It plays like a person at the table: picks a unit, shows its move overlay for
a moment, then acts; it waits for animations and clicks through the casualty
phase.  Nothing here decides a rule: every action comes from
``game.legal_actions()``.

The AI thinks on a worker thread (game.ui.battle.ai_worker) with a copy of the
game, so the window keeps drawing ("The Expert is thinking...") and answers Esc;
its answer is applied on the real game through the screen's normal send path,
and dropped if the game changed meanwhile.
"""
from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from game.rules.actions import Attack, Deploy, EndPhase, Move, Undeploy
from game.ui.battle.ai_worker import AIWorker

if TYPE_CHECKING:
    from game.ui.scenes.battle import BattleScene

__all__ = ["DemoPlayer", "pick_action", "AIError"]


class AIError(RuntimeError):
    """The AI chose an action the rules refuse (a bug in game.ai)."""

THINK = 0.25           # seconds between actions
SHOW = 0.35            # seconds a selected unit's overlay is shown before it acts


def pick_action(game: Any, rng: random.Random) -> Any | None:
    """A legal action, chosen at random but the way a player would: deploy
    every unit, act with most units before ending a phase, prefer attacks."""
    acts = game.legal_actions()
    if not acts:
        return None
    acts = [a for a in acts if not isinstance(a, Undeploy)] or acts
    deploys = [a for a in acts if isinstance(a, Deploy)]
    if deploys:
        uid = deploys[0].uid
        return rng.choice([a for a in deploys if a.uid == uid])
    ends = [a for a in acts if isinstance(a, EndPhase)]
    others = [a for a in acts if not isinstance(a, EndPhase)]
    if not others:
        return ends[0] if ends else rng.choice(acts)
    if ends and rng.random() < 0.08:
        return ends[0]
    attacks = [a for a in others if isinstance(a, Attack)]
    if attacks and rng.random() < 0.85:
        return rng.choice(attacks)
    by_unit: dict[str, list[Any]] = {}
    for a in others:
        by_unit.setdefault(getattr(a, "uid", ""), []).append(a)
    uid = rng.choice(sorted(by_unit))
    return rng.choice(by_unit[uid])


def make_ai(level: str, seed: int | None) -> Any | None:
    """An AI player from game.ai (``None`` when there is none)."""
    try:
        from game.ai.base import make_player
    except ImportError:        # no AI in this version: legal random actions
        return None
    return make_player(level, seed)


class DemoPlayer:
    """Plays ``sides`` on the battle screen: every side for ``--demo`` (and then
    it also clicks through the casualty phase), the AI's side in solo practice."""

    def __init__(self, scene: BattleScene, rng: random.Random, sides: tuple[str, ...] = ("Axis", "Allies"),
                 level: str | None = "recruit", think: float = THINK,
                 threaded: bool | None = None) -> None:
        self.scene = scene
        self.rng = rng
        self.sides = tuple(sides)
        self.think = think
        self.wait = 0.3
        self.planned: Any = None
        self.actions = 0
        self.fast = False          # the player pressed Space: act without pauses
        seed = rng.randrange(1 << 30)
        self.ai = {s: make_ai(level, seed + i) for i, s in enumerate(self.sides)} if level else {}
        self.level = (level or "AI").split(":")[0]
        self.worker = AIWorker(threaded)     # None: threaded unless HEXFRONT_AI_SYNC=1

    @property
    def everything(self) -> bool:
        return len(self.sides) == 2

    @property
    def waiting_line(self) -> str | None:
        """The prompt bar's line while the AI thinks off the frame loop."""
        if not self.worker.thinking:
            return None
        return f"The {self.level.capitalize()} is thinking..."

    def position(self) -> tuple:
        """What an answer is for: this game, this state, this version, this history."""
        game = self.scene.game
        return (id(game), id(game.state), game.state.version, len(game.log))

    def choose(self) -> tuple[bool, Any | None]:
        """(ready, action): the AI's choice for the side to act; (False, None) while it
        thinks on the worker thread (or its answer was for a position gone meanwhile)."""
        game = self.scene.game
        if not self.worker.busy:
            player = self.ai.get(game.state.to_act)
            if player is None:
                return True, pick_action(game, self.rng)
            copy = game.copy()             # the worker never touches the game on screen

            def think() -> tuple[Any, str]:
                a = player.choose(copy)
                return a, (player.explain() if a is not None and hasattr(player, "explain")
                           else "")
            self.worker.start(self.position(), think)
        ready, answer = self.worker.poll(self.position())   # re-raises an AI error here
        if not ready:
            return False, None
        a, why = answer
        if a is None:
            return True, None
        # an AI error is an error (the crash dialog, or re-raised under tests), never a
        # reason to play on randomly
        why_not = game.check(a)
        if why_not is not None:
            raise AIError(f"the AI chose a refused action ({a}): {why_not}")
        if why and not self.everything:
            self.scene.logp.add(f"AI: {why}", (170, 190, 230))
        return True, a

    def update(self, dt: float) -> None:
        sc = self.scene
        if sc.next_scene is not None:
            return
        self.wait -= dt * (8 if self.fast else 1)
        if self.wait > 0 or sc.anim.busy:
            return
        mode = sc.mode
        if mode.name == "recap" and self.everything:
            mode.on_button("next")      # --demo: a recap opened from the log plays through
            self.wait = 0.25
            return
        if getattr(mode, "pauses_ai", False):      # the in-battle menu is open
            return
        if not self.everything and (mode.name in ("casualty", "game_over") or
                                    sc.game.state.to_act not in self.sides):
            return
        if mode.name == "casualty":
            if not getattr(mode, "done", True):
                mode.on_button("next")
                self.wait = 0.25
            else:
                mode.on_button("continue")
                self.wait = self.think
            return
        if mode.name == "game_over":
            sc.show_victory()
            return
        if sc.stack:                    # nothing of ours is ever stacked; clear it
            sc.stack.clear()
        if self.planned is not None:
            a, self.planned = self.planned, None
            if sc.game.check(a) is None:
                sc.send(a)
                self.actions += 1
            self.wait = self.think
            return
        if sc.game.state.to_act not in self.sides:
            return
        ready, a = self.choose()
        if not ready:
            return                      # thinking: the frames go on
        if a is None:
            self.wait = self.think
            return
        if isinstance(a, (Move, Attack)):
            sc.selected = a.uid        # show the move overlay / targets first
            self.planned = a
            self.wait = 0.05 if getattr(self, "fast", False) else SHOW   # Space/F: fast AI
            return
        if isinstance(a, Deploy):
            sc.selected = a.uid
        sc.send(a)
        self.actions += 1
        self.wait = self.think * (0.4 if isinstance(a, Deploy) else 1.0)
