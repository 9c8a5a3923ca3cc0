"""The battle map model: terrain per hex, roads, streams, bridges, ends, objective.

A :class:`BattleMap` is immutable and shared; what changes during a game
(destroyed bridges) lives in the game state and is passed in where it
matters (``broken`` below).  Map *files* are read by ``game.data.maps``.

Ends: the two short edges, ``"left"`` and ``"right"``, are where players
deploy.  Rows run left to right in increasing doubled column ``x2 = 2q + r``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Iterable

from .hexes import Hex, Hexside
from .los import LosTable
from .terrain import TERRAIN_RULES, Terrain

__all__ = ["BattleMap", "SectionPlacement", "ENDS", "other_end"]

ENDS = ("left", "right")


def other_end(end: str) -> str:
    return "right" if end == "left" else "left"


@dataclass(frozen=True)
class SectionPlacement:
    """Where one map section side lies in an assembled battle map (for drawing
    section borders and names, and for the Assault scenario's halves)."""

    name: str                      # "Charlie-2"
    quadrant: str                  # "TL", "TR", "BL", "BR" (or "" for fixtures)
    rotation: int                  # 0 or 180
    hexes: frozenset[Hex]          # whole hexes of the map that lie (wholly or half) on it
    outline: tuple[tuple[int, int], ...] = ()   # corners in doubled-x / row units, for drawing


@dataclass(frozen=True, eq=False)
class BattleMap:
    name: str
    terrain: dict[Hex, Terrain]                       # every whole, playable hex
    half_hexes: frozenset[Hex] = frozenset()           # outer edge half-hexes: never entered
    roads: frozenset[Hexside] = frozenset()            # road links between adjacent hexes
    streams: frozenset[Hexside] = frozenset()          # streams along hexsides
    bridges: frozenset[Hexside] = frozenset()          # streams a road crosses (subset of both)
    objective: Hex | None = None
    sections: tuple[SectionPlacement, ...] = ()
    half_hex_terrain: dict[Hex, Terrain] = field(default_factory=dict)   # for drawing only
    number: int | None = None                          # configuration number (die roll)
    # Road pieces that run from a whole hex into an outer half-hex (the road leaves
    # the sheet there).  Drawing only: never part of ``roads``, never traversable.
    edge_roads: frozenset[Hexside] = frozenset()
    # Later edition (game.rules.later): hedges lie on hexsides (ruling L8); cliffs are
    # the sides of bluffs hexes that are cliffs (ruling L9; a side between two bluffs
    # hexes that is a cliff of either is one cliff, ruling L17).
    hedges: frozenset[Hexside] = frozenset()
    cliffs: frozenset[Hexside] = frozenset()

    # --- hexes -------------------------------------------------------------------
    def is_playable(self, h: Hex) -> bool:
        return h in self.terrain

    def terrain_at(self, h: Hex) -> Terrain:
        try:
            return self.terrain[h]
        except KeyError:
            raise KeyError(f"{h} is not a playable hex of {self.name}") from None

    def neighbors(self, h: Hex) -> list[Hex]:
        """Playable neighbours (half-hexes and off-map excluded)."""
        return [n for n in h.neighbors() if n in self.terrain]

    @cached_property
    def hexes(self) -> tuple[Hex, ...]:
        return tuple(sorted(self.terrain, key=lambda h: (h.r, h.x2)))

    @cached_property
    def rows(self) -> dict[int, tuple[Hex, ...]]:
        """Whole hexes per row, left to right."""
        out: dict[int, list[Hex]] = {}
        for h in self.hexes:
            out.setdefault(h.r, []).append(h)
        return {r: tuple(v) for r, v in sorted(out.items())}

    # --- roads, streams, bridges ---------------------------------------------------
    def is_road(self, a: Hex, b: Hex, broken: Iterable[Hexside] = ()) -> bool:
        """True when a road links adjacent ``a`` and ``b`` (ruling 5); a road over a
        destroyed bridge (``broken``) is broken there."""
        if a.distance(b) != 1:
            return False
        side = Hexside.between(a, b)
        return side in self.roads and side not in broken

    def has_stream(self, a: Hex, b: Hex) -> bool:
        return a.distance(b) == 1 and Hexside.between(a, b) in self.streams

    def has_bridge(self, a: Hex, b: Hex) -> bool:
        return a.distance(b) == 1 and Hexside.between(a, b) in self.bridges

    def road_hexes(self) -> frozenset[Hex]:
        return frozenset(h for s in self.roads for h in s.hexes())

    # --- ends and deployment ---------------------------------------------------------
    def deployment_zone(self, end: str, depth: int = 5) -> frozenset[Hex]:
        """Ruling 8: the first ``depth`` whole hexes of each row counted from ``end``
        (half-hexes are not counted)."""
        if end not in ENDS:
            raise ValueError(f"unknown end '{end}'")
        zone: set[Hex] = set()
        for row in self.rows.values():
            zone.update(row[:depth] if end == "left" else row[-depth:])
        return frozenset(zone)

    def half_of(self, end: str) -> frozenset[Hex]:
        """Whole hexes on the two map sections of one half (Assault scenario).
        With no section data, the hexes left / right of the centre line."""
        left = [s for s in self.sections if s.quadrant in ("TL", "BL")]
        right = [s for s in self.sections if s.quadrant in ("TR", "BR")]
        chosen = left if end == "left" else right
        if chosen:
            return frozenset().union(*(s.hexes for s in chosen)) & frozenset(self.terrain)
        xs = sorted(h.x2 for h in self.terrain)
        mid = (xs[0] + xs[-1]) / 2
        return frozenset(h for h in self.terrain
                         if (h.x2 <= mid if end == "left" else h.x2 >= mid))

    def is_edge_adjacent(self, h: Hex) -> bool:
        """Adjacent to the map edge or to a half-hex (Assault objective rule)."""
        return any(n not in self.terrain for n in h.neighbors())

    # --- line of sight ------------------------------------------------------------------
    @cached_property
    def blockers(self) -> frozenset[Hex]:
        return frozenset(h for h, t in self.terrain.items() if TERRAIN_RULES[t].blocks_los)

    @cached_property
    def los(self) -> LosTable:
        """All-pairs line of sight, computed on first use and then cached."""
        return LosTable(self.terrain, self.blockers)

    def can_see(self, a: Hex, b: Hex) -> bool:
        if self.bluff_hexes and a in self.bluff_hexes and b in self.bluff_hexes:
            return self.bluff_los.visible(a, b)          # ruling L9: bluff to bluff
        return self.los.visible(a, b)

    def visible_from(self, a: Hex) -> frozenset[Hex]:
        """Every hex :meth:`can_see` sees from ``a``: the line-of-sight table's, and from
        a bluffs hex the other bluffs hexes by ruling L9 (bluff to bluff)."""
        if self.bluff_hexes and a in self.bluff_hexes:
            return self._bluff_sight[a]
        return self.los.visible_from(a)

    @cached_property
    def _bluff_sight(self) -> dict[Hex, frozenset[Hex]]:
        """Per bluffs hex: what it sees (ruling L9 for the bluffs hexes, the table for
        the rest), as :meth:`can_see` answers pair by pair."""
        bluffs = self.bluff_hexes
        return {a: frozenset({b for b in self.los.visible_from(a) if b not in bluffs}
                             | {b for b in self.bluff_los.visible_from(a) if b in bluffs})
                for a in bluffs}

    @cached_property
    def has_sides(self) -> bool:
        """The map has hexside terrain of the later edition (hedges, cliffs)."""
        return bool(self.hedges or self.cliffs)

    @cached_property
    def bluff_hexes(self) -> frozenset[Hex]:
        return frozenset(h for h, t in self.terrain.items() if t is Terrain.BLUFFS)

    @cached_property
    def bluff_los(self) -> LosTable:
        """Ruling L9: between two bluffs hexes, bluffs hexes on the line don't block."""
        return LosTable(self.terrain, self.blockers - self.bluff_hexes)

    def section_at(self, h: Hex) -> SectionPlacement | None:
        for s in self.sections:
            if h in s.hexes:
                return s
        return None
