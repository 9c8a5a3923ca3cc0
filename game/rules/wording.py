"""How player-facing sentences name a side: "the Axis player", "the Allied player".

The sides' ids ("Axis", "Allies") are not English subjects ("Allies wins" reads
wrong); every sentence of the log that starts with a side says its player
instead, singular whichever side it is.
"""
from __future__ import annotations

__all__ = ["SIDE_ADJECTIVE", "side_player"]

SIDE_ADJECTIVE: dict[str, str] = {"Axis": "Axis", "Allies": "Allied"}


def side_player(side: str, *, capital: bool = True) -> str:
    """``"The Allied player"`` (``capital=False``: ``"the Allied player"``); a side
    this table doesn't know is named as it is."""
    article = "The" if capital else "the"
    return f"{article} {SIDE_ADJECTIVE.get(side, side)} player"
