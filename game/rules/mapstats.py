"""Facts about a battle map that help players compare the two ends (map preview).

Pure functions of a :class:`~game.rules.board.BattleMap`; no drawing, no I/O.

* cover hexes: hexes whose terrain gives a cover roll (rulebook: Terrain Effects
  table; ``TERRAIN_RULES[...].soldier_cover`` / ``vehicle_cover``);
* objective viewers: hexes with line of sight to the objective (rulebook: Line of
  Sight; ruling 2 for sight lines along hexsides);
* the longest open line: the two hexes farthest apart that see each other.

The deployment zone of an end is ruling 8 (5 hexes deep; the later edition's 3 hexes
are ruling L13) (``BattleMap.deployment_zone``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from .board import ENDS, BattleMap
from .hexes import DIRECTION_NAMES, DIRECTIONS, Hex, Hexside, MAX_RANGE, hex_label, range_band
from .terrain import TERRAIN_RULES

__all__ = ["EndStats", "cover_hexes", "objective_viewers", "longest_open_line",
           "end_stats", "compare_ends", "hex_notes", "sight_note"]


def cover_hexes(bm: BattleMap, hexes: Iterable[Hex] | None = None,
                kind: str = "soldier") -> frozenset[Hex]:
    """Hexes (of ``hexes``, default all) whose terrain gives ``kind`` ("soldier",
    "vehicle" or "any") a cover roll."""
    if kind not in ("soldier", "vehicle", "any"):
        raise ValueError(f"unknown unit kind '{kind}' (soldier, vehicle or any)")
    pool = bm.terrain if hexes is None else [h for h in hexes if h in bm.terrain]
    out = set()
    for h in pool:
        rules = TERRAIN_RULES[bm.terrain[h]]
        soldier, vehicle = rules.soldier_cover is not None, rules.vehicle_cover is not None
        if (kind == "soldier" and soldier) or (kind == "vehicle" and vehicle) or \
                (kind == "any" and (soldier or vehicle)):
            out.add(h)
    return frozenset(out)


def objective_viewers(bm: BattleMap, hexes: Iterable[Hex] | None = None,
                      max_distance: int | None = None) -> frozenset[Hex]:
    """Hexes (of ``hexes``, default all) other than the objective that have line of
    sight to it, optionally no farther than ``max_distance``."""
    obj = bm.objective
    if obj is None or obj not in bm.terrain:
        return frozenset()
    seen = bm.los.visible_from(obj)
    pool = seen if hexes is None else set(hexes) & seen
    return frozenset(h for h in pool if h != obj
                     and (max_distance is None or h.distance(obj) <= max_distance))


def longest_open_line(bm: BattleMap, sources: Iterable[Hex] | None = None,
                      targets: Iterable[Hex] | None = None) -> tuple[Hex, Hex, int] | None:
    """``(a, b, distance)`` for the farthest-apart pair with line of sight, ``a`` from
    ``sources`` and ``b`` from ``targets`` (default: every hex).  Ties go to the
    smallest ``(a, b)`` so the answer is stable."""
    src = sorted(bm.terrain if sources is None else (h for h in set(sources) if h in bm.terrain))
    tgt = None if targets is None else frozenset(targets)
    best: tuple[int, Hex, Hex] | None = None
    for a in src:
        for b in bm.los.visible_from(a):
            if b == a or (tgt is not None and b not in tgt):
                continue
            d = a.distance(b)
            if best is None or d > best[0] or (d == best[0] and (a, b) < (best[1], best[2])):
                best = (d, a, b)
    return None if best is None else (best[1], best[2], best[0])


@dataclass(frozen=True)
class EndStats:
    """What one end offers (zone = ruling 8 deployment zone of that end)."""

    end: str
    zone: frozenset[Hex]
    soldier_cover: frozenset[Hex]           # zone hexes where Soldiers get a cover roll
    vehicle_cover: frozenset[Hex]           # zone hexes where Vehicles get a cover roll
    cover_by_terrain: dict[str, int]        # terrain name -> zone hexes giving Soldiers cover
    zone_sees_objective: frozenset[Hex]     # zone hexes with line of sight to the objective
    half_sees_objective: frozenset[Hex]     # hexes of this end's half with sight of it
    half_sees_objective_in_range: frozenset[Hex]   # ... and within 8 hexes (attack range)
    objective_distance: int | None          # nearest zone hex to the objective
    longest_line: tuple[Hex, Hex, int] | None      # longest line of sight out of the zone


def end_stats(bm: BattleMap, end: str, depth: int = 5) -> EndStats:
    zone = bm.deployment_zone(end, depth)
    half = bm.half_of(end)
    soldier = cover_hexes(bm, zone, "soldier")
    by_terrain: dict[str, int] = {}
    for h in sorted(soldier):
        name = bm.terrain[h].value
        by_terrain[name] = by_terrain.get(name, 0) + 1
    obj = bm.objective
    return EndStats(
        end=end,
        zone=zone,
        soldier_cover=soldier,
        vehicle_cover=cover_hexes(bm, zone, "vehicle"),
        cover_by_terrain=by_terrain,
        zone_sees_objective=objective_viewers(bm, zone),
        half_sees_objective=objective_viewers(bm, half),
        half_sees_objective_in_range=objective_viewers(bm, half, MAX_RANGE),
        objective_distance=(min(h.distance(obj) for h in zone) if obj is not None and zone else None),
        longest_line=longest_open_line(bm, zone),
    )


def compare_ends(bm: BattleMap, depth: int = 5) -> dict[str, EndStats]:
    """Both ends' :class:`EndStats`, keyed "left" and "right"."""
    return {end: end_stats(bm, end, depth) for end in ENDS}


# --- plain words for one hex (map preview hover) ------------------------------------------
ROAD_NOTE = ("Road: moving along it (between two hexes it connects, ruling 5) costs 1 hex "
             "whatever the terrain and needs no movement rolls, even across a stream or into "
             "forest; a unit on the road may enter impassable terrain but leaves it only along "
             "the road. A Vehicle's first road hex each phase is free. No effect on cover or "
             "line of sight.")


def _sides(h: Hex, edges: frozenset[Any]) -> list[str]:
    names = []
    for d, step in enumerate(DIRECTIONS):
        n = h + step
        if Hexside.between(h, n) in edges:
            names.append(DIRECTION_NAMES[d])
    return names


def _later_side_notes(bm: BattleMap, h: Hex) -> list[str]:
    """Later edition: the hedges and cliffs on ``h``'s sides (checklist L23, L27, L28;
    rulings L8, L9), in the words of game.rules.later's movement and cover rules."""
    if not (bm.hedges or bm.cliffs):
        return []
    from .later.combat import SOLDIER_SIDE_COVER, VEHICLE_SIDE_COVER
    from .later.terrain import BRUSHCUTTERS_NEED, CLIFF_NEED, HEDGE_NEED
    out = []
    cover = f"(Soldiers {SOLDIER_SIDE_COVER}+, Vehicles {VEHICLE_SIDE_COVER}+)"
    hedges = _sides(h, bm.hedges)
    if hedges:
        out.append(f"Hedge on the {', '.join(hedges)} hexside{'s' if len(hedges) > 1 else ''}: "
                   f"crossing it needs a movement roll of {HEDGE_NEED}+ ({BRUSHCUTTERS_NEED}+ "
                   "with Brushcutters; none along a road); a unit here attacked across it has "
                   f"cover {cover}.")
    cliffs = _sides(h, bm.cliffs)
    if cliffs:
        out.append(f"Cliff on the {', '.join(cliffs)} hexside{'s' if len(cliffs) > 1 else ''}: "
                   f"a Soldier crossing it rolls {CLIFF_NEED}+, a Vehicle can't cross it; a unit "
                   f"on the bluffs attacked across it from below has cover {cover}.")
    return out


def _later_depth() -> int:
    from .families.setup import DEPLOY_DEPTH
    return DEPLOY_DEPTH["later"]


def hex_notes(bm: BattleMap, h: Hex, depth: int = 5, zones: bool = True) -> list[str]:
    """What a hex is and does under the rules, one sentence per line (rulebook: Terrain
    Effects table, Roads, Movement Roll; rulings 5 and 8).  ``zones=False`` leaves out
    the deployment zones (a map section shown alone has none)."""
    if h in bm.half_hexes and h not in bm.terrain:
        return [f"{hex_label(h)}: edge half-hex - out of play, no unit may enter it."]
    if h not in bm.terrain:
        return []
    t = bm.terrain[h]
    summary = TERRAIN_RULES[t].summary
    head = summary if summary.startswith(t.title) else f"{t.title}. {summary}"
    notes = [f"{hex_label(h)}: {head}"]
    if h == bm.objective:
        notes.append("Objective hex.")
    if h in bm.road_hexes():
        notes.append(ROAD_NOTE)
    streams = _sides(h, bm.streams)
    if streams:
        which = ", ".join(streams)
        notes.append(f"Stream on the {which} hexside{'s' if len(streams) > 1 else ''}: any unit "
                     "must roll 4+ to cross it (not needed along a road over a bridge). No "
                     "effect on cover or line of sight.")
    notes.extend(_later_side_notes(bm, h))
    bridges = _sides(h, bm.bridges)
    if bridges:
        notes.append(f"Bridge on the {', '.join(bridges)} hexside: the road crosses the stream "
                     "here. Bridge Demolition can destroy it; then crossing needs a movement roll.")
    for end in ENDS if zones else ():
        if h in bm.deployment_zone(end, depth):
            ruling = "ruling L13" if depth == _later_depth() else "ruling 8"
            notes.append(f"In the {end} end's deployment zone (first {depth} whole hexes of "
                         f"the row, {ruling}).")
    return notes


def sight_note(bm: BattleMap, a: Hex, b: Hex) -> str:
    """"From E5 to H6: 3 hexes, medium range, clear line of sight" (or what blocks it)."""
    if a not in bm.terrain or b not in bm.terrain:
        return ""
    d = a.distance(b)
    band = range_band(d)
    rng = f"{band} range" if band else "beyond range (more than 8)"
    head = f"From {hex_label(a)} to {hex_label(b)}: {d} hex{'es' if d != 1 else ''}, {rng}"
    if a == b:
        return head + ", same hex."
    if bm.can_see(a, b):
        return head + ", clear line of sight."
    blocker = bm.los.blocker(a, b)
    what = f" by {hex_label(blocker)} ({bm.terrain[blocker].value})" if blocker else ""
    return head + f", line of sight blocked{what}."
