"""Later-edition hexside terrain in movement (called from game.rules.movement.step).

- Hedge: crossing it needs a movement roll at -1, so 5+ (checklist L23; ruling L8);
  Brushcutters gives +1 (3+).  Along a road no roll (the road step returns first).
- Cliff (a side of a bluffs hex that is a cliff): a Soldier entering or leaving
  through it rolls 4+ (L27; ruling L9), a Vehicle can't cross it (L28); a side that
  is a cliff of two bluffs hexes is one roll (ruling L17).
Order of several rolls into one hex: hedge, stream, cliff, then the hex's forest
(ruling L18).
"""
from __future__ import annotations

from ..board import BattleMap
from ..hexes import Hexside
from ..movement import ROLL_NEED
from ..state import Unit

__all__ = ["side_rolls", "HEDGE_NEED", "BRUSHCUTTERS_NEED", "CLIFF_NEED"]

HEDGE_NEED = ROLL_NEED + 1          # a movement roll at -1
BRUSHCUTTERS_NEED = HEDGE_NEED - 2  # ... at +1 instead (seed 001: Brushcutters, 3+)
CLIFF_NEED = ROLL_NEED


def side_rolls(bm: BattleMap, unit: Unit, side: Hexside) -> list[tuple[str, int]] | str:
    """The hexside's own movement rolls (kind, face needed), or the reason it can't be
    crossed at all."""
    out: list[tuple[str, int]] = []
    if side in bm.hedges:
        out.append(("hedge", BRUSHCUTTERS_NEED if unit.card.has("brushcutters")
                    else HEDGE_NEED))
    if side in bm.cliffs:
        if unit.is_vehicle:
            return "Vehicles can't cross a cliff"
        out.append(("cliff", CLIFF_NEED))
    return out
