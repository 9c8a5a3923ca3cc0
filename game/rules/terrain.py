"""Terrain types and what they do under the rules (rulebook: Terrain Effects table)."""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

__all__ = ["Terrain", "TerrainRules", "TERRAIN_RULES"]


class Terrain(str, Enum):
    CLEAR = "clear"
    FOREST = "forest"
    HILL = "hill"
    TOWN = "town"
    MARSH = "marsh"
    POND = "pond"
    # later edition (game.rules.later; rulings L9-L11)
    SHELL_HOLES = "shell holes"
    WATER = "water"
    BLUFFS = "bluffs"

    @classmethod
    def parse(cls, text: str) -> "Terrain":
        try:
            return cls(str(text).strip().lower())
        except ValueError:
            names = ", ".join(t.value for t in cls)
            raise ValueError(f"unknown terrain '{text}' (expected one of: {names})") from None

    @property
    def title(self) -> str:  # type: ignore[override]  # a label, not str.title()
        return self.value.capitalize()

    @property
    def later_only(self) -> bool:
        """Terrain only the later edition's maps have."""
        return self in (Terrain.SHELL_HOLES, Terrain.WATER, Terrain.BLUFFS)


@dataclass(frozen=True)
class TerrainRules:
    blocks_los: bool
    vehicle_cost: int          # hexes of movement to enter (Soldiers always pay 1)
    vehicle_roll: bool         # Vehicles need a 4+ movement roll to enter
    vehicle_can_enter: bool
    soldier_can_enter: bool
    vehicle_cover: int | None  # cover roll needed (5 = "5+"), None = no cover
    soldier_cover: int | None
    summary: str               # plain words for players


TERRAIN_RULES: dict[Terrain, TerrainRules] = {
    Terrain.CLEAR: TerrainRules(False, 1, False, True, True, None, None,
                                "Open ground: normal movement, no cover, does not block line of sight."),
    Terrain.FOREST: TerrainRules(True, 2, True, True, True, 5, 4,
                                 "Forest: Vehicles pay 2 hexes and need a 4+ movement roll to enter; "
                                 "cover 4+ for Soldiers, 5+ for Vehicles; blocks line of sight."),
    Terrain.HILL: TerrainRules(True, 2, False, True, True, 5, 4,
                               "Hill: Vehicles pay 2 hexes to enter; cover 4+ for Soldiers, 5+ for "
                               "Vehicles; blocks line of sight."),
    Terrain.TOWN: TerrainRules(True, 1, False, True, True, 5, 4,
                               "Town: normal movement; cover 4+ for Soldiers, 5+ for Vehicles; "
                               "blocks line of sight."),
    Terrain.MARSH: TerrainRules(False, 1, False, False, True, None, 4,
                                "Marsh: Vehicles can't enter; Soldiers move normally and get cover "
                                "on 4+; does not block line of sight."),
    Terrain.POND: TerrainRules(False, 1, False, False, False, None, None,
                               "Pond: no unit can enter (except along a road); does not block line "
                               "of sight."),
    Terrain.SHELL_HOLES: TerrainRules(False, 1, False, True, True, None, 4,
                                      "Shell holes: open ground, but Soldiers in them get cover "
                                      "on 4+; does not block line of sight."),
    Terrain.WATER: TerrainRules(False, 1, False, False, False, None, None,
                                "Water: no unit can enter (except along a road); does not block "
                                "line of sight."),
    Terrain.BLUFFS: TerrainRules(True, 1, False, True, True, None, None,
                                 "Bluffs: open ground with cliffs along some sides (Soldiers climb "
                                 "on 4+, Vehicles can't cross a cliff); cover through a cliff; "
                                 "blocks line of sight, except between two bluffs hexes."),
}
