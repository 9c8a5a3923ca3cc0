"""Taking moves back (Hexfront house rule for a friendly hotseat table).

What may be taken back: a deployment, a move, a turn in place, boarding or
dismounting that rolled no dice and revealed nothing (no movement roll, no
defensive fire offered), made in the current phase after the last action that
was final.  Anything with a roll is final, and so is every action that handed a
decision to the opponent (defensive fire) or ended a phase.

Undo never edits the state by hand: it rebuilds it by replaying the history
from the last final point without the taken-back actions, so the result is
exactly the state the rules would have produced had those actions never been
made.  An action that no longer works (a Soldier deployed aboard a transport
that is taken back, say) or that would now roll dice is taken back with them.

``Game.undoable()`` / ``Game.undo(uid=None)`` call :func:`undoable` /
:func:`undo`.  A game needs ``game.origin`` (set by ``new_game``); a game built
by hand has nothing to take back.
"""
from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Any, TYPE_CHECKING

from .actions import Action, Board, Deploy, Dismount, EnterReserve, Face, Move, Undeploy
from .errors import IllegalAction
from .events import DefensiveFireOffered, Event

if TYPE_CHECKING:                       # pragma: no cover
    from .engine import Game

__all__ = ["UNDOABLE_TYPES", "undoable", "undo", "undo_problem"]

UNDOABLE_TYPES = (Deploy, Undeploy, Move, Board, Dismount, EnterReserve)


@dataclass
class _Base:
    """The game just after the last final action (or at its origin)."""
    index: int                 # history[:index] is replayed into this snapshot
    state: Any                 # GameState (a private copy)
    dice: object               # Dice state (getstate())
    prefix: tuple[Any, ...]    # history[:index], to notice a changed history


_CACHE: "weakref.WeakKeyDictionary[Any, Any]" = weakref.WeakKeyDictionary()


def _fresh(game: "Game", base: _Base) -> "Game":
    from .engine import Game
    g = Game(base.state.copy(), game.dice.copy())
    g.dice.setstate(base.dice)
    g.origin = game.origin
    return g


def _origin_base(game: "Game") -> _Base | None:
    if game.origin is None:
        return None
    state, dice, _ = game.origin
    return _Base(0, state.copy(), dice.getstate(), ())


def _ends_move(action: Action, previous: Action | None) -> bool:
    """A facing choice that ends the move just before it (the battle screen walks a
    Vehicle's move with ``facing=None``, then sends ``Face``): it goes with that move."""
    return (isinstance(action, Face) and isinstance(previous, Move)
            and previous.uid == action.uid and previous.facing is None)


def _is_final(action: Action, events: list[Event], rolled: int, phase_before: Any,
              phase_after: Any, previous: Action | None = None) -> bool:
    """``previous``: the action just before, if it may itself be taken back."""
    if not isinstance(action, UNDOABLE_TYPES) and not _ends_move(action, previous):
        return True
    if rolled:
        return True
    if phase_before != phase_after:
        return True
    return any(isinstance(e, DefensiveFireOffered) for e in events)


def _analyse(game: "Game") -> tuple[_Base, list[int], list[list[Event]]] | None:
    """(base, indices of undoable actions, events of each action after the base)."""
    hist = game.history
    base = _CACHE.get(game)
    if base is None or base.index > len(hist) or tuple(hist[:base.index]) != base.prefix:
        base = _origin_base(game)
        if base is None:
            return None
    g = _fresh(game, base)
    undoable_idx: list[int] = []
    events_after: list[list[Event]] = []
    new_base = base
    for i in range(base.index, len(hist)):
        a = hist[i]
        before = g.dice.rolls
        phase = g.state.phase
        try:
            ev = g.apply(a)
        except (IllegalAction, ValueError):
            # the history no longer replays (a game changed by hand): nothing to undo
            _CACHE.pop(game, None)
            return None
        events_after.append(ev)
        prev = hist[i - 1] if undoable_idx and undoable_idx[-1] == i - 1 else None
        if _is_final(a, ev, g.dice.rolls - before, phase, g.state.phase, prev):
            undoable_idx.clear()
            new_base = _Base(i + 1, g.state.copy(), g.dice.getstate(), tuple(hist[:i + 1]))
            events_after.clear()
        else:
            undoable_idx.append(i)
    _CACHE[game] = new_base
    return new_base, undoable_idx, events_after


def undoable(game: "Game") -> list[Action]:
    """The actions of the current phase that may be taken back, oldest first."""
    found = _analyse(game)
    if found is None:
        return []
    _, idx, _ = found
    return [game.history[i] for i in idx]


def undo_problem(game: "Game", uid: str | None = None) -> str | None:
    """Why ``undo(game, uid)`` would be refused, or None."""
    acts = undoable(game)
    if not acts:
        return "nothing to take back: dice rolls, defensive fire and ended phases are final"
    if uid is not None and not any(getattr(a, "uid", None) == uid for a in acts):
        name = game.state.units[uid].name if uid in game.state.units else uid
        return f"{name} has nothing to take back this phase (a roll or a reveal is final)"
    return None


def undo(game: "Game", uid: str | None = None) -> list[Action]:
    """Take back ``uid``'s undoable actions this phase (None: all of them).

    Returns every action taken back, oldest first (including later ones that
    depended on them); raises :class:`IllegalAction` when there is nothing to
    take back.  The game is changed in place (same state object)."""
    problem = undo_problem(game, uid)
    if problem is not None:
        raise IllegalAction(problem)
    found = _analyse(game)
    assert found is not None
    base, idx, events_after = found
    tail = game.history[base.index:]
    removed_set = {i for i in idx if uid is None or getattr(game.history[i], "uid", None) == uid}
    g = _fresh(game, base)
    kept: list[Action] = []
    new_events: list[Event] = []
    removed: list[Action] = []
    last_kept: Action | None = None          # the action just before, if it was kept
    for off, a in enumerate(tail):
        i = base.index + off
        prev, last_kept = last_kept, None
        if i in removed_set:
            removed.append(a)
            continue
        if g.check(a) is not None:
            removed.append(a)                   # depended on a taken-back action
            continue
        trial = g.copy()
        before = trial.dice.rolls
        phase = trial.state.phase
        ev = trial.apply(a)
        if _is_final(a, ev, trial.dice.rolls - before, phase, trial.state.phase, prev):
            removed.append(a)                   # would now roll or reveal: not replayed
            continue
        g = trial
        kept.append(a)
        last_kept = a
        new_events.extend(ev)
    old_tail_events = sum(len(e) for e in events_after)
    log_base = len(game.log) - old_tail_events
    version = game.state.version
    game.state.__dict__.update(g.state.__dict__)
    game.state.version = version + g.state.version + 1
    game.dice.setstate(g.dice.getstate())
    game.history[:] = list(game.history[:base.index]) + kept
    game.log[:] = list(game.log[:max(0, log_base)]) + new_events
    game._caches.clear()
    return removed
