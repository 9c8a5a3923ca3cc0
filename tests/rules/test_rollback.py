"""The engine's rollback (Game.apply: an action that fails half-way leaves the state and
the dice as they were) and the snapshot it uses (GameState.snapshot / restore)."""
from __future__ import annotations

import random

import pytest

from game.data.armies import sample_army
from game.data.maps import load_configuration
from game.rules import phases
from game.rules.dice import Dice
from game.rules.engine import new_game
from game.rules.state import DefensiveFirePrompt
from tests.rules.engine_kit import quick_policy


def _plain(d):
    """A dict of fields with its mutable values copied (so later changes don't show)."""
    return {k: (type(v)(v) if isinstance(v, (dict, list)) else v) for k, v in d.items()}


def _fields(st):
    """Every field of the state and of each unit, as plain values (to compare)."""
    return (st.hash_blob(), _plain({k: v for k, v in st.__dict__.items()
                                    if k not in ("units", "moving")}),
            {uid: _plain(u.__dict__) for uid, u in st.units.items()},
            None if st.moving is None else _plain(st.moving.__dict__))


def _games(n: int = 2):
    armies = {s: sample_army(s).cards for s in ("Axis", "Allies")}
    for i in range(n):
        g = new_game(load_configuration(1 + i), armies, dice=Dice(40 + i),
                     options={"turn_limit": 4})
        yield g, quick_policy(random.Random(40 + i), 0.3)


def test_restore_undoes_every_change_an_action_makes():
    """snapshot + restore round trip at every position of random games (moves paused
    for defensive fire included): the same unit objects, every field as it was."""
    seen_moving = 0
    for g, choose in _games():
        while not g.over:
            st = g.state
            a = choose(g)
            before = _fields(st)
            objs = dict(st.units)
            snap = st.snapshot()
            dice = g.dice.getstate()
            # perform it for real (mutating the state), then put everything back
            g._perform(a)
            phases.advance(g)
            st.restore(snap)
            g.dice.setstate(dice)
            g._caches.clear()
            assert _fields(st) == before
            assert all(st.units[uid] is u for uid, u in objs.items())
            seen_moving += st.moving is not None
            g.apply(a)
    assert seen_moving, "no position with a move paused for defensive fire was tried"


def test_failure_half_way_through_a_move_restores_everything(monkeypatch):
    """A bug half-way (here: the defensive-fire step raises after the mover has stepped)
    is rolled back completely: state fields, the unit objects, the move in progress, the
    dice, and the caches don't answer for the half-changed position."""
    from game.rules.families import walk
    tried = 0
    for g, choose in _games():
        while not g.over and tried < 20:
            a = choose(g)
            if type(a).__name__ == "Move" and a.path:
                st = g.state
                before = _fields(st)
                dice = g.dice.getstate()
                legal = g.legal_actions()
                raised = []

                def broken(game, mover, a_hex, b_hex, stage, *rest):
                    if stage == "enter":         # the mover has stepped into b_hex
                        raised.append(stage)
                        raise RuntimeError("a bug half-way")
                    return real(game, mover, a_hex, b_hex, stage, *rest)
                real = walk.eligible
                monkeypatch.setattr(walk, "eligible", broken)
                try:
                    g.apply(a)
                except RuntimeError as exc:
                    assert "half-way" in str(exc)
                finally:
                    monkeypatch.setattr(walk, "eligible", real)
                if not raised:           # stopped before stepping (a roll, a prompt)
                    continue
                assert _fields(g.state) == before and g.dice.getstate() == dice
                assert g.legal_actions() == legal
                tried += 1
            g.apply(a)
    assert tried


def test_rollback_of_a_paused_move_keeps_the_prompt():
    """While a move waits for a defensive-fire answer, an answer that fails after being
    performed (the shot rolled, the move went on) leaves the move in progress (its walked
    hexes, its stage), the prompt and the dice exactly as they were."""
    for g, choose in _games(4):
        while not g.over:
            st = g.state
            if isinstance(st.pending, DefensiveFirePrompt):
                before = _fields(st)
                dice = g.dice.getstate()
                a = choose(g)
                real = phases.advance

                def broken(game):
                    real(game)
                    raise RuntimeError("after performing")
                phases.advance = broken
                try:
                    with pytest.raises(RuntimeError):
                        g.apply(a)
                finally:
                    phases.advance = real
                assert _fields(g.state) == before and g.dice.getstate() == dice
                return
            g.apply(choose(g))
    pytest.skip("no defensive-fire prompt came up")      # pragma: no cover
