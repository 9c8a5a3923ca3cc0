"""Suggest (issue 17): what the Veteran (or the Expert) would do with the selected
unit, and why - for learning.

The AI is asked on a private copy of the game in which the side's other units
have already acted, so its choice is about this unit alone; its own explanation
(``Player.explain``) is the reason.  The suggestion is shown, never played: the
player decides.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from game.rules.actions import Action, EndPhase, describe_action
from game.rules.queries import plain_text

__all__ = ["Suggestion", "suggest"]


@dataclass(frozen=True)
class Suggestion:
    uid: str
    action: Action | None       # None: the AI would leave this unit where it is
    text: str                   # one line for the player


def suggest(game: Any, uid: str, level: str = "veteran", seed: int = 17) -> Suggestion:
    from game.ai.base import make_player
    st = game.state
    u = st.units[uid]
    g = game.copy()
    for other in g.state.units.values():
        if other.side == u.side and other.uid != uid and not other.acted:
            other.acted = True          # on the copy only: the AI may use just this unit
    g.state.touch()
    player = make_player(level, seed)
    action = player.choose(g)
    why = plain_text(player.explain(g, action) or "")
    label = level.split(":")[0].capitalize()
    if isinstance(action, EndPhase) or getattr(action, "uid", None) != uid:
        text = f"{label}: leave {u.name} as it is this phase." + (f" ({why})" if why else "")
        return Suggestion(uid, None, text)
    if why.startswith(u.name) and ": " in why:     # "X moves to H5: to hold..." - the move is said
        why = why.split(": ", 1)[1]
    text = f"{label}: {_named(st, describe_action(action))}." + (f" Why: {why}" if why else "")
    return Suggestion(uid, action, text)


def _named(st: Any, text: str) -> str:
    """The rules' short description with unit names instead of ids."""
    for k in sorted(st.units, key=len, reverse=True):
        text = text.replace(k, st.units[k].name)
    return plain_text(text)
