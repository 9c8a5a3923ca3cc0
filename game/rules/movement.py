"""Movement: what a unit may reach this phase, by which path, at what cost.

Rulebook: Speed and Movement, Stacking, Terrain and Movement, Vehicle Facing,
Double-Cost Terrain, Minimum Movement, Movement Roll, Impassable Terrain,
Roads, Road Bonus; rulings 4, 5, 6, 7, 15.

* A step from ``a`` to adjacent ``b`` is *along the road* when a road links the
  two (ruling 5; a destroyed bridge breaks it).  Along a road a hex costs 1,
  needs no movement roll, and may be impassable terrain; a unit in an
  impassable hex leaves it only along the road.
* Otherwise: Vehicles pay 2 for hill and forest (``TERRAIN_RULES``), can't
  enter marsh or pond; Soldiers can't enter pond.  Crossing a stream needs a 4+
  movement roll; a Vehicle entering a forest needs another one, rolled after
  the stream's (ruling 15).
* Road bonus: the first hex a Vehicle moves along a road in a phase is free.
* Minimum movement (ruling 4): a Vehicle whose current speed is 1 may enter a
  hill or forest in its movement phase (not in the assault phase).
* Half-hexes and off-map hexes are never entered.
* Stacking is checked only where the move ends: two friendly units per hex,
  at most one Vehicle in the hex whatever its side; boarded Soldiers don't count.

The search is a label-setting Dijkstra over (hex, road bonus used) keeping
every Pareto-best (cost, movement rolls) label, so a path that costs more
but needs fewer rolls is kept when it matters.  For each hex the reported path
is the one with the fewest movement rolls, then the lowest cost.
"""
from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Iterable

from . import abilities
from .hexes import Hex, direction_between, hex_label
from .state import GameState, Phase, Unit
from .terrain import TERRAIN_RULES, Terrain

__all__ = ["RollInfo", "Reach", "Step", "step", "reachable", "why_not_reach",
           "walk_cost", "stop_problem", "can_stop", "move_problem", "impassable",
           "movement_speed", "ROLL_NEED"]

ROLL_NEED = 4   # rulebook: Movement Roll - a roll of 4 or higher succeeds


@dataclass(frozen=True)
class RollInfo:
    """One movement roll needed on a path: ``kind`` "stream" or "forest"."""

    kind: str
    from_hex: Hex
    to_hex: Hex
    need: int = ROLL_NEED


@dataclass(frozen=True)
class Reach:
    path: tuple[Hex, ...]         # hexes entered, start excluded
    cost: int                     # hexes of movement spent
    rolls: tuple[RollInfo, ...]   # movement rolls on the way, in order
    road_bonus_used: bool
    stops: bool                   # the unit may end its move here (stacking etc.)


@dataclass(frozen=True)
class Step:
    """One step's price.  ``reason`` is set (and the rest meaningless) when the
    step is not allowed at all."""

    cost: int = 1
    rolls: tuple[RollInfo, ...] = ()
    along_road: bool = False
    free: bool = False            # this step used the road bonus
    reason: str | None = None


def impassable(unit: Unit, terrain: Terrain) -> bool:
    r = TERRAIN_RULES[terrain]
    return not (r.vehicle_can_enter if unit.is_vehicle else r.soldier_can_enter)


def movement_speed(state: GameState, unit: Unit, phase: Phase | None = None) -> int:
    """Current speed (damaged Vehicles -1) after ability hooks."""
    phase = phase or state.phase
    return abilities.apply("speed", unit.current_speed, state=state, unit=unit, phase=phase)


def _type_word(unit: Unit) -> str:
    return "Vehicles" if unit.is_vehicle else "Soldiers"


def step(state: GameState, unit: Unit, a: Hex, b: Hex, *, bonus_left: bool,
         speed_one: bool, phase: Phase | None = None) -> Step:
    """Price of moving ``unit`` from ``a`` into adjacent ``b`` (see module doc)."""
    bm = state.battle_map
    if b not in bm.terrain:
        if b in bm.half_hexes:
            return Step(reason=f"{hex_label(b)} is a half-hex: half-hexes are impassable")
        return Step(reason=f"{hex_label(b)} is off the battle map")
    t_to = bm.terrain[b]
    along = bm.is_road(a, b, state.destroyed_bridges)
    phase = phase or state.phase
    ctx_base = None
    if abilities.has_hooks("can_enter") or abilities.has_hooks("move_cost") \
            or abilities.has_hooks("needs_movement_roll") or abilities.has_hooks("movement_roll_need"):
        ctx_base = dict(state=state, unit=unit, from_hex=a, to_hex=b, terrain=t_to,
                        along_road=along, phase=phase)
    if along:
        ok = True
        if ctx_base is not None:
            ok = abilities.apply("can_enter", True, **ctx_base)
        if ok is not True:
            return Step(reason=ok if isinstance(ok, str) else
                        f"{unit.name} can't enter {hex_label(b)}")
        free = bool(bonus_left)
        cost = 0 if free else 1
        if ctx_base is not None:
            cost = abilities.apply("move_cost", cost, **ctx_base)
        return Step(cost=cost, along_road=True, free=free)
    t_from = bm.terrain.get(a)
    if t_from is not None and impassable(unit, t_from):
        return Step(reason=f"{unit.name} can leave the {t_from.value} in {hex_label(a)} "
                           f"only along the road")
    can = not impassable(unit, t_to)
    if ctx_base is not None:
        can = abilities.apply("can_enter", can, **ctx_base)
    if can is not True:
        if isinstance(can, str) and can:
            return Step(reason=can)
        return Step(reason=f"{_type_word(unit)} can't enter {t_to.value}")
    rules = TERRAIN_RULES[t_to]
    cost = rules.vehicle_cost if unit.is_vehicle else 1
    if speed_one and cost > 1:
        cost = 1        # ruling 4: minimum movement (movement phase, current speed 1)
    if ctx_base is not None:
        cost = abilities.apply("move_cost", cost, **ctx_base)
    rolls: list[RollInfo] = []
    kinds = []
    if bm.has_stream(a, b):
        kinds.append("stream")
    if unit.is_vehicle and rules.vehicle_roll:
        kinds.append("forest")
    for kind in kinds:      # ruling 15: the stream first, then the forest
        need_roll = True
        need = ROLL_NEED
        if ctx_base is not None:
            need_roll = abilities.apply("needs_movement_roll", True, kind=kind, **ctx_base)
            need = abilities.apply("movement_roll_need", ROLL_NEED, kind=kind, **ctx_base)
        if need_roll:
            rolls.append(RollInfo(kind, a, b, need))
    return Step(cost=cost, rolls=tuple(rolls))


def _speed_one(state: GameState, unit: Unit, speed: int, phase: Phase) -> bool:
    return unit.is_vehicle and speed == 1 and phase in (Phase.MOVEMENT_FIRST, Phase.MOVEMENT_SECOND)


def _road_bonus(state: GameState, unit: Unit, phase: Phase) -> bool:
    return bool(abilities.apply("road_bonus", unit.is_vehicle, state=state, unit=unit, phase=phase))


def move_problem(state: GameState, unit: Unit, phase: Phase | None = None) -> str | None:
    """Why ``unit`` can't move (or turn) at all now, else None."""
    phase = phase or state.phase
    if not unit.on_map:
        return f"{unit.name} is not on the battle map"
    if unit.boarded:
        return f"{unit.name} is aboard a transport (dismount it in the movement phase)"
    if unit.disrupted:
        return f"{unit.name} is disrupted: disrupted units can't move or change facing"
    ok = abilities.apply("can_move", True, state=state, unit=unit, phase=phase)
    if ok is not True:
        return ok if isinstance(ok, str) and ok else f"{unit.name} can't move now"
    return None


# --- stacking -----------------------------------------------------------------------------
def stop_problem(state: GameState, unit: Unit, h: Hex) -> str | None:
    """Why ``unit`` may not end a move in ``h`` (rulebook: Stacking), else None."""
    friends = 0
    vehicle = None
    for other in state.units.values():
        if other is unit or other.hex != h or other.destroyed or other.carrier is not None:
            continue
        if other.carrier == unit.uid:
            continue
        counts = abilities.apply("stacking_counts", True, state=state, unit=other, hex=h) \
            if abilities.has_hooks("stacking_counts") else True
        if not counts:
            continue
        if other.side == unit.side:
            friends += 1
        if other.is_vehicle:
            vehicle = other
    if friends >= 2:
        return f"{hex_label(h)} already holds two friendly units (stacking limit)"
    if unit.is_vehicle and vehicle is not None:
        whose = "a friendly" if vehicle.side == unit.side else "an enemy"
        return f"{hex_label(h)} already holds {whose} Vehicle (one Vehicle per hex)"
    if abilities.has_hooks("can_stop"):
        ok = abilities.apply("can_stop", True, state=state, unit=unit, hex=h)
        if ok is not True:
            return ok if isinstance(ok, str) and ok else f"{unit.name} can't stop in {hex_label(h)}"
    return None


def can_stop(state: GameState, unit: Unit, h: Hex) -> bool:
    return stop_problem(state, unit, h) is None


# --- the search ------------------------------------------------------------------------------
def reachable(state: GameState, uid: str, phase: Phase | None = None,
              start: Hex | None = None) -> dict[Hex, Reach]:
    """Every hex ``uid`` can move into this phase (start hex excluded), with the
    best path.  Hexes it can pass through but not stop in have ``stops=False``.
    Empty when the unit can't move (disrupted, boarded, off the map)."""
    unit = state.units[uid]
    phase = phase or state.phase
    if move_problem(state, unit, phase) is not None:
        return {}
    origin = start or unit.hex
    assert origin is not None
    speed = movement_speed(state, unit, phase)
    speed_one = _speed_one(state, unit, speed, phase)
    bonus0 = _road_bonus(state, unit, phase)
    # labels: (cost, nrolls, bonus_used, path tuple, rolls tuple)
    best: dict[Hex, list[tuple[int, int, bool]]] = {origin: [(0, 0, False)]}
    out: dict[Hex, tuple[int, int, tuple, tuple, bool]] = {}
    heap: list = [(0, 0, False, 0, origin, (), ())]
    counter = 1
    step_cache: dict[tuple[Hex, Hex, bool], Step] = {}
    while heap:
        cost, nrolls, used, _, h, path, rolls = heapq.heappop(heap)
        for n in h.neighbors():
            key = (h, n, not used and bonus0)
            st = step_cache.get(key)
            if st is None:
                st = step(state, unit, h, n, bonus_left=not used and bonus0,
                          speed_one=speed_one, phase=phase)
                step_cache[key] = st
            if st.reason is not None:
                continue
            ncost = cost + st.cost
            if ncost > speed:
                continue
            nused = used or st.free
            nr = nrolls + len(st.rolls)
            labels = best.setdefault(n, [])
            if any(c <= ncost and r <= nr and (u <= nused) for c, r, u in labels):
                continue
            labels[:] = [(c, r, u) for c, r, u in labels
                         if not (ncost <= c and nr <= r and nused <= u)]
            labels.append((ncost, nr, nused))
            npath = path + (n,)
            nrolls_t = rolls + st.rolls
            if n != origin:
                cur = out.get(n)
                if cur is None or (nr, ncost) < (cur[1], cur[0]):
                    out[n] = (ncost, nr, npath, nrolls_t, nused)
            heapq.heappush(heap, (ncost, nr, nused, counter, n, npath, nrolls_t))
            counter += 1
    return {h: Reach(path=p, cost=c, rolls=r, road_bonus_used=u,
                     stops=stop_problem(state, unit, h) is None)
            for h, (c, _, p, r, u) in out.items()}


def walk_cost(state: GameState, uid: str, path: Iterable[Hex],
              phase: Phase | None = None, start: Hex | None = None) -> Reach | str:
    """Check one explicit path step by step: a :class:`Reach` or the reason it
    is illegal (a path may repeat hexes; only the end is checked for stacking)."""
    unit = state.units[uid]
    phase = phase or state.phase
    prob = move_problem(state, unit, phase)
    if prob:
        return prob
    path = tuple(path)
    h = start or unit.hex
    assert h is not None
    speed = movement_speed(state, unit, phase)
    speed_one = _speed_one(state, unit, speed, phase)
    bonus_left = _road_bonus(state, unit, phase)
    used = False
    cost = 0
    rolls: list[RollInfo] = []
    for n in path:
        if direction_between(h, n) is None:
            return f"{hex_label(n)} is not next to {hex_label(h)}: a path goes hex by hex"
        st = step(state, unit, h, n, bonus_left=bonus_left and not used, speed_one=speed_one,
                  phase=phase)
        if st.reason:
            return st.reason
        cost += st.cost
        used = used or st.free
        rolls.extend(st.rolls)
        if cost > speed:
            return f"too far (needs {cost}, speed {speed})"
        h = n
    if not path:
        return Reach((), 0, (), False, True)
    sp = stop_problem(state, unit, h)
    return Reach(path, cost, tuple(rolls), used, sp is None)


def why_not_reach(state: GameState, uid: str, target: Hex, phase: Phase | None = None) -> str:
    """The rules' reason, in words, why ``uid`` can't end its move in ``target``
    now; ``""`` when it can."""
    unit = state.units[uid]
    phase = phase or state.phase
    prob = move_problem(state, unit, phase)
    if prob:
        return prob
    bm = state.battle_map
    if target == unit.hex:
        return f"{unit.name} is already in {hex_label(target)}"
    if target not in bm.terrain:
        if target in bm.half_hexes:
            return f"{hex_label(target)} is a half-hex: half-hexes are impassable"
        return f"{hex_label(target)} is off the battle map"
    reach = reachable(state, uid, phase)
    r = reach.get(target)
    if r is not None:
        if r.stops:
            return ""
        return stop_problem(state, unit, target) or f"{unit.name} can't stop there"
    # terrain of the target itself
    t = bm.terrain[target]
    roads_in = [n for n in bm.neighbors(target) if bm.is_road(n, target, state.destroyed_bridges)]
    if impassable(unit, t) and not roads_in:
        return f"{_type_word(unit)} can't enter {t.value}"
    # how far is it, ignoring the speed limit?
    speed = movement_speed(state, unit, phase)
    cheapest = _unbounded_cost(state, unit, target, phase, speed)
    if cheapest is None:
        if impassable(unit, t):
            return (f"{_type_word(unit)} can't enter {t.value} except along a road, "
                    f"and no road leads there")
        return f"{unit.name} has no way into {hex_label(target)}"
    return f"too far (needs {cheapest}, speed {speed})"


def _unbounded_cost(state: GameState, unit: Unit, target: Hex, phase: Phase,
                    speed: int) -> int | None:
    origin = unit.hex
    speed_one = _speed_one(state, unit, speed, phase)
    bonus0 = _road_bonus(state, unit, phase)
    dist = {(origin, False): 0}
    heap = [(0, False, 0, origin)]
    c = 1
    while heap:
        cost, used, _, h = heapq.heappop(heap)
        if h == target:
            return cost
        if dist.get((h, used), 1 << 30) < cost:
            continue
        for n in h.neighbors():
            st = step(state, unit, h, n, bonus_left=bonus0 and not used, speed_one=speed_one,
                      phase=phase)
            if st.reason:
                continue
            key = (n, used or st.free)
            nc = cost + st.cost
            if nc < dist.get(key, 1 << 30):
                dist[key] = nc
                heapq.heappush(heap, (nc, key[1], c, n))
                c += 1
    return None
