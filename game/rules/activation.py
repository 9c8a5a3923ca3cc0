"""Activations (ruling 7) and the window for the extra actions abilities grant.

Ruling 7: in a movement phase each unit moves at most once (changing facing alone
counts as its move); in an assault phase each unit either moves once or attacks
once.  ``Unit.acted`` records it; :func:`problem` is the check every unit action
goes through.

The activation under way: what the unit being activated has done so far
(``tags``), kept in ``state.marks["act"]`` so that copies, saves and rollbacks
keep it.  It ends as soon as another unit acts or the phase ends, which is what
makes the extra actions of abilities (Double Shot, All Guns Blazing, the hull
cannon, Strike and Fade, Overrun, No Turret) impossible to save for later:
``game.rules.abilities.extra_actions`` lists them only while the window is open.
The engine calls :func:`before` and :func:`after` around every action it performs.
Tags: ``attack:<mode>``, ``move`` (a move began), ``moved`` (it ended where it
wanted), ``stopped``, ``turn``, ``other``.
"""
from __future__ import annotations

from typing import Any

from .actions import (Action, Attack, DefensiveFire, EndPhase, Face, Move, PassDefensiveFire,
                      PlaceDismounted)
from .events import Event, UnitPutBack, UnitStopped
from .state import ASSAULT_PHASES, MOVEMENT_PHASES, GameState, Unit

__all__ = ["problem", "tags", "tag", "before", "after", "phase_key", "moved_this_phase"]

#: answers to a decision: they belong to the activation that asked for them
_ANSWERS = (DefensiveFire, PassDefensiveFire, PlaceDismounted, Face)


def problem(state: GameState, u: Unit) -> str | None:
    """Why ``u`` can't start an activation now (ruling 7), else None."""
    st = state
    ph = st.phase
    if not (ph in MOVEMENT_PHASES or ph in ASSAULT_PHASES or ph.is_airstrike):
        return "units act only in movement and assault phases"
    if u.side != st.active_side:
        return f"it is not {u.side}'s phase"
    if st.pending is not None:
        return "a decision is pending"
    if u.hex is None or u.destroyed:
        return f"{u.name} is not on the battle map"
    if u.acted:
        return f"{u.name} has already acted this phase (ruling 7: one activation per phase)"
    if u.carrier is not None:
        return f"{u.name} is aboard a transport and can't act for itself"
    return None


def phase_key(state: GameState) -> tuple[Any, ...]:
    # ``_value_``: what ``.value`` gives, without the enum property's Python call (this
    # runs several times per action)
    return (state.turn, state.phase._value_)


def tags(state: GameState, uid: str) -> tuple[str, ...] | None:
    """What ``uid`` has done in its current activation (None: it is not the unit
    being activated now)."""
    act = state.marks.get("act")
    if not act or act[0] != phase_key(state) or act[1] != uid:
        return None
    return tuple(act[2])


def tag(state: GameState, uid: str, *new: str) -> None:
    key = phase_key(state)
    act = state.marks.get("act")
    cur = tuple(act[2]) if act and act[0] == key and act[1] == uid else ()
    state.marks["act"] = (key, uid, cur + new)


def moved_this_phase(state: GameState) -> tuple[str, ...]:
    got = state.marks.get("moved")
    if got and got[0] == phase_key(state):
        return tuple(got[1])
    return ()


def _note_moved(state: GameState, uid: str) -> None:
    cur = moved_this_phase(state)
    if uid not in cur:
        state.marks["moved"] = (phase_key(state), tuple(sorted(cur + (uid,), key=repr)))


def before(state: GameState, action: Action) -> None:
    """Close the activation window when another unit acts or the phase ends."""
    if isinstance(action, _ANSWERS):
        return
    act = state.marks.get("act")
    uid: Any = getattr(action, "uid", None)
    if act and (act[1] != uid or act[0] != phase_key(state) or isinstance(action, EndPhase)):
        state.marks.pop("act", None)


def after(state: GameState, action: Action, events: list[Event]) -> None:
    """Record what the action did in the activation under way."""
    st = state
    uid: Any = getattr(action, "uid", None)
    if not isinstance(action, _ANSWERS) and isinstance(uid, str) and uid in st.units and \
            (st.phase.is_assault or st.phase.is_movement):
        if isinstance(action, Attack):
            tag(st, uid, "attack:" + action.mode)
        elif isinstance(action, Move):
            if action.path:
                tag(st, uid, "move")
                _note_moved(st, uid)
            else:
                tag(st, uid, "turn")
        elif not isinstance(action, EndPhase):
            tag(st, uid, "other")
    _move_finished(st, events)


def _move_finished(st: GameState, events: list[Event]) -> None:
    act = st.marks.get("act")
    if not act or act[0] != phase_key(st) or st.moving is not None:
        return
    done = act[2]
    if "move" not in done or "moved" in done or "stopped" in done:
        return
    stopped = any(isinstance(e, (UnitStopped, UnitPutBack)) and e.uid == act[1]
                  for e in events)
    tag(st, act[1], "stopped" if stopped else "moved")
