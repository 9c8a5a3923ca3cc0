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
from dataclasses import dataclass, field
from typing import Any, Iterable, NamedTuple

from . import abilities
from .hexes import DIRECTIONS, Hex, Hexside, direction_between, hex_label
from .state import GameState, Phase, Unit
from .terrain import TERRAIN_RULES, Terrain

__all__ = ["RollInfo", "Reach", "Step", "step", "reachable", "StackingTable", "stacking_table",
           "occupancy", "why_not_reach",
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


class Reach(NamedTuple):
    """How a unit gets to one hex (a NamedTuple: built by the thousand per search)."""

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
    return not (r.vehicle_can_enter if unit.card.is_vehicle else r.soldier_can_enter)


_SPEED_POINT = ("speed",)
_CAN_MOVE_POINT = ("can_move",)
_SPEED_OR_CAN_MOVE = ("speed", "can_move")


def movement_speed(state: GameState, unit: Unit, phase: Phase | None = None) -> int:
    """Current speed (damaged Vehicles -1) after ability hooks."""
    if not abilities.relevant(_SPEED_POINT, unit, state):
        # no hook in this battle can change it (what ``apply`` would return unchanged)
        return unit.current_speed
    phase = phase or state.phase
    speed: int = abilities.apply("speed", unit.current_speed, state=state, unit=unit,
                                 phase=phase)
    return speed


def _type_word(unit: Unit) -> str:
    return "Vehicles" if unit.is_vehicle else "Soldiers"


def _edge_table(bm: Any) -> dict[Hex, dict[Hex, tuple[Hexside, bool, bool]]]:
    """Per map: for each playable hex, its playable neighbours with (hexside, road
    link, stream), computed once and kept on the (immutable) map, like its cached
    properties."""
    table: dict[Hex, dict[Hex, tuple[Hexside, bool, bool]]] | None = \
        bm.__dict__.get("_movement_edges")
    if table is None:
        table = {}
        # built on (q, r) pairs (hashed in C) rather than Hex / Hexside objects: the
        # same neighbours in the same order (Hex.neighbors), the same hexsides
        at = {(h.q, h.r): h for h in bm.terrain}
        roads = {((s.a.q, s.a.r), (s.b.q, s.b.r)) for s in bm.roads}
        streams = {((s.a.q, s.a.r), (s.b.q, s.b.r)) for s in bm.streams}
        done: dict[tuple[Any, ...], tuple[Hexside, bool, bool]] = {}
        steps = [(d.q, d.r) for d in DIRECTIONS]
        for h in bm.terrain:
            row = {}
            hk = (h.q, h.r)
            for dq, dr in steps:
                nk = (hk[0] + dq, hk[1] + dr)
                n = at.get(nk)
                if n is None:
                    continue
                pair = (hk, nk) if hk < nk else (nk, hk)      # Hexside.between's order
                edge = done.get(pair)
                if edge is None:
                    side = Hexside(h, n) if hk < nk else Hexside(n, h)
                    edge = done[pair] = (side, pair in roads, pair in streams)
                row[n] = edge
            table[h] = row
        bm.__dict__["_movement_edges"] = table
    return table


@dataclass
class _Graph:
    hexes: list[Any]
    index: dict[Any, Any]
    terrain: list[Any]
    adj: list[Any]     # per index: tuple of (j, hexside, road link, stream)
    # hook-free search results: (hex -> Reach, their bits, each one's bit, the answers
    # with stacking applied: the bits of the hexes it closes -> the answer)
    cache: dict[Any, Any] = field(default_factory=dict)
    prices: dict[Any, Any] = field(default_factory=dict)   # hook-free step prices
    rolls: dict[Any, Any] = field(default_factory=dict)    # (kind, i, j) -> RollInfo


def _graph(bm: Any) -> _Graph:
    """The map as an int-indexed graph (built once per map, kept on the map) for the
    fast search."""
    g: _Graph | None = bm.__dict__.get("_movement_graph")
    if g is None:
        hexes = list(bm.hexes)
        index = {h: i for i, h in enumerate(hexes)}
        table = _edge_table(bm)
        adj = [tuple([(index[n], side, road, stream)
                      for n, (side, road, stream) in table[h].items()]) for h in hexes]
        g = _Graph(hexes, index, [bm.terrain[h] for h in hexes], adj)
        bm.__dict__["_movement_graph"] = g
    return g


_MOVEMENT = (Phase.MOVEMENT_FIRST, Phase.MOVEMENT_SECOND)
_MOVE_POINTS = ("move_cost", "movement_roll_kinds", "movement_roll_need", "can_enter")


def step(state: GameState, unit: Unit, a: Hex, b: Hex, *, bonus_left: bool,
         speed_one: bool, phase: Phase | None = None) -> Step:
    """Price of moving ``unit`` from ``a`` into adjacent ``b`` (see module doc)."""
    bm = state.battle_map
    edge = _edge_table(bm).get(a, {}).get(b)
    if edge is None:
        if b in bm.half_hexes:
            return Step(reason=f"{hex_label(b)} is a half-hex: half-hexes are impassable")
        if b not in bm.terrain:
            return Step(reason=f"{hex_label(b)} is off the battle map")
        return Step(reason=f"{hex_label(b)} is not next to {hex_label(a)}")
    side, road, stream = edge
    t_to = bm.terrain[b]
    along = road and side not in state.destroyed_bridges
    ctx_base = None
    if abilities.relevant(_MOVE_POINTS, unit):
        ctx_base = dict(state=state, unit=unit, from_hex=a, to_hex=b, terrain=t_to,
                        along_road=along, phase=phase or state.phase)
    if along:
        free = bool(bonus_left)
        cost = 0 if free else 1
        if ctx_base is not None:
            cost = abilities.apply("move_cost", cost, **ctx_base)
        return Step(cost=cost, along_road=True, free=free)
    t_from = bm.terrain[a]
    refusal: str | None = None
    if impassable(unit, t_from):
        refusal = (f"{unit.name} can leave the {t_from.value} in {hex_label(a)} "
                   f"only along the road")
    elif impassable(unit, t_to):
        refusal = f"{_type_word(unit)} can't enter {t_to.value}"
    if ctx_base is not None:
        # an ability may forbid the step (Thin Wheels) or lift the refusal (Amphibious)
        refusal = abilities.apply("can_enter", refusal, stream=stream, from_terrain=t_from,
                                  **ctx_base)
    if refusal is not None:
        return Step(reason=str(refusal))
    rules = TERRAIN_RULES[t_to]
    cost = rules.vehicle_cost if unit.is_vehicle else 1
    if speed_one and cost > 1:
        cost = 1        # ruling 4: minimum movement (movement phase, current speed 1)
    if ctx_base is not None:
        cost = abilities.apply("move_cost", cost, **ctx_base)
    kinds = []
    if stream:
        kinds.append("stream")
    if unit.is_vehicle and rules.vehicle_roll:
        kinds.append("forest")
    if ctx_base is not None:
        kinds = list(abilities.apply("movement_roll_kinds", kinds, **ctx_base))
    if bm.has_sides:
        from .later.terrain import side_rolls
        extra = side_rolls(bm, unit, side)
        if isinstance(extra, str):
            return Step(reason=extra)
        if extra:
            # ruling L18: the hexside's rolls first (hedge, stream, cliff), then the hex's
            side_kinds = [k for k in kinds if k == "stream"]
            rest = [k for k in kinds if k != "stream"]
            rolls = [RollInfo(k, a, b, n) for k, n in extra if k == "hedge"]
            rolls += [RollInfo(k, a, b, ROLL_NEED) for k in side_kinds]
            rolls += [RollInfo(k, a, b, n) for k, n in extra if k != "hedge"]
            rolls += [RollInfo(k, a, b, ROLL_NEED) for k in rest]
            return Step(cost=cost, rolls=_roll_needs(tuple(rolls), ctx_base))
    if not kinds:
        return Step(cost=cost)
    # ruling 15: the stream first, then the forest
    return Step(cost=cost, rolls=_roll_needs(tuple(RollInfo(kind, a, b, ROLL_NEED)
                                                   for kind in kinds), ctx_base))


def _roll_needs(rolls: tuple[RollInfo, ...], ctx_base: dict[str, Any] | None
                ) -> tuple[RollInfo, ...]:
    """The ``movement_roll_need`` hook point: an ability may change the face each
    movement roll of a step needs (Robust, Mountaineering: +1 on the roll)."""
    if ctx_base is None or not rolls or not abilities.has_hooks("movement_roll_need"):
        return rolls
    return tuple(RollInfo(r.kind, r.from_hex, r.to_hex,
                          int(abilities.apply("movement_roll_need", r.need, kind=r.kind,
                                              **ctx_base)))
                 for r in rolls)


def _speed_one(state: GameState, unit: Unit, speed: int, phase: Phase) -> bool:
    return unit.is_vehicle and speed == 1 and phase in (Phase.MOVEMENT_FIRST, Phase.MOVEMENT_SECOND)


def _road_bonus(state: GameState, unit: Unit, phase: Phase) -> bool:
    """Rulebook: Road Bonus - each phase, a Vehicle's first hex along a road is free
    (once per phase, even if an ability lets it move twice)."""
    return unit.is_vehicle and unit.uid not in state.road_bonus_used


def move_problem(state: GameState, unit: Unit, phase: Phase | None = None) -> str | None:
    """Why ``unit`` can't move (or turn) at all now, else None."""
    return _move_problem(state, unit, phase or state.phase,
                         abilities.relevant(_CAN_MOVE_POINT, unit, state))


def _move_problem(state: GameState, unit: Unit, phase: Phase, hooked: bool) -> str | None:
    """:func:`move_problem`; ``hooked``: whether a hook at ``can_move`` can run for
    ``unit`` in this battle (``abilities.relevant``) - if not, ``apply`` would give True,
    so it isn't asked."""
    if unit.hex is None or unit.destroyed:
        return f"{unit.name} is not on the battle map"
    if unit.card.is_aircraft:
        return f"{unit.name} is an Aircraft: it doesn't move, it is placed in the flight phase"
    if unit.carrier is not None:
        return f"{unit.name} is aboard a transport (dismount it in the movement phase)"
    if unit.disrupted and not moves_while_disrupted(state, unit, phase):
        return f"{unit.name} is disrupted: disrupted units can't move or change facing"
    if not hooked:
        return None
    ok = abilities.apply("can_move", True, state=state, unit=unit, phase=phase)
    if ok is not True:
        return ok if isinstance(ok, str) and ok else f"{unit.name} can't move now"
    return None


def moves_while_disrupted(state: GameState, unit: Unit, phase: Phase | None = None) -> bool:
    """Whether an ability lets ``unit`` move (and turn) although it is disrupted
    (SS Determination); the ``moves_while_disrupted`` hook point."""
    if not abilities.has_hooks("moves_while_disrupted"):
        return False
    return abilities.apply("moves_while_disrupted", False, state=state, unit=unit,
                           phase=phase or state.phase) is True


# --- stacking -----------------------------------------------------------------------------
_STACKS_AS_VEHICLE: dict[tuple[int, int], bool] = {}


def counts_as_vehicle(unit: Unit) -> bool:
    """For stacking: a Vehicle, or a unit an ability makes count as one (Large).  The
    ``stacks_as_vehicle`` hook depends only on the card, so this is cached per card."""
    if unit.card.is_vehicle:
        return True
    key = (id(unit.card), abilities.GENERATION)
    got = _STACKS_AS_VEHICLE.get(key)
    if got is None:
        if len(_STACKS_AS_VEHICLE) > 4096:
            _STACKS_AS_VEHICLE.clear()
        got = bool(abilities.has_hooks("stacks_as_vehicle") and abilities.apply(
            "stacks_as_vehicle", False, unit=unit) is True)
        _STACKS_AS_VEHICLE[key] = got
    return got


class StackingTable(NamedTuple):
    """Who counts for stacking where (rulebook: Stacking), for every unit at once:
    friendly units per hex for each side, and the units counting as Vehicles per hex
    (in state order).  Passengers, destroyed units and Aircraft (ruling L3) don't
    count.  Built once per position (the engine caches it on its fingerprint) and
    turned into one unit's view by :func:`occupancy`."""

    friends: dict[str, dict[Hex, int]]
    vehicles: dict[Hex, list[Unit]]
    counted: dict[str, Hex]       # uid -> its hex, for every unit that counts
    blocked: dict[tuple[Any, ...], frozenset[Hex]]   # memo of blocked_hexes()
    masks: dict[tuple[Any, ...], int]                # ... as bit masks (the map's graph)


def stacking_table(state: GameState) -> StackingTable:
    friends: dict[str, dict[Hex, int]] = {"Axis": {}, "Allies": {}}
    vehicles: dict[Hex, list[Unit]] = {}
    counted: dict[str, Hex] = {}
    gen = abilities.GENERATION
    for other in state.units.values():
        h = other.hex
        if h is None or other.destroyed or other.carrier is not None:
            continue
        card = other.card
        if card.is_aircraft:            # ruling L3: Aircraft never count against stacking
            continue
        counted[other.uid] = h
        per = friends.get(other.side)
        if per is None:
            per = friends[other.side] = {}
        per[h] = per.get(h, 0) + 1
        cav = card.is_vehicle or _STACKS_AS_VEHICLE.get((id(card), gen))
        if cav is None:
            cav = counts_as_vehicle(other)
        if cav:
            vehicles.setdefault(h, []).append(other)
    return StackingTable(friends, vehicles, counted, {}, {})


def occupancy(state: GameState, unit: Unit, table: StackingTable | None = None
              ) -> tuple[dict[Hex, int], dict[Hex, Unit]]:
    """For stacking (rulebook: Stacking) as seen by ``unit``: friendly units per hex and
    the Vehicle in each hex, passengers and ``unit`` itself left out (``table``: the
    position's :func:`stacking_table`, when the caller has it).  Read-only dicts."""
    if table is None:
        table = stacking_table(state)
    friends = table.friends.get(unit.side, {})
    own = table.counted.get(unit.uid) if state.units.get(unit.uid) is unit else None
    if own is not None:
        friends = dict(friends)
        n = friends[own] - 1
        if n:
            friends[own] = n
        else:
            del friends[own]
    vehicles: dict[Hex, Unit] = {}
    for h, vs in table.vehicles.items():
        if own == h:
            others = [v for v in vs if v.uid != unit.uid]
            if others:
                vehicles[h] = others[-1]
        else:
            vehicles[h] = vs[-1]
    return friends, vehicles


def _blocked_base(table: StackingTable, side: str, cav: bool) -> frozenset[Hex]:
    """The hexes stacking closes to a unit of ``side`` (counting as a Vehicle or not)
    that counts nowhere itself (memoized in the position's table)."""
    key = (side, cav)
    base = table.blocked.get(key)
    if base is None:
        friends = table.friends.get(side, {})
        closed = {h for h, n in friends.items() if n >= 2}
        if cav:
            closed.update(table.vehicles)
        base = table.blocked[key] = frozenset(closed)
    return base


def _own_open(state: GameState, unit: Unit, table: StackingTable, cav: bool,
              base: frozenset[Hex]) -> Hex | None:
    """``unit``'s own hex when it is in ``base`` only because ``unit`` itself counts
    there (without it the hex is open to it), else None."""
    own = table.counted.get(unit.uid) if state.units.get(unit.uid) is unit else None
    if own is None or own not in base:
        return None
    uid = unit.uid
    if table.friends.get(unit.side, {}).get(own, 0) - 1 >= 2 or (
            cav and any(v.uid != uid for v in table.vehicles.get(own, ()))):
        return None
    return own


def blocked_hexes(state: GameState, unit: Unit, table: StackingTable) -> frozenset[Hex]:
    """:func:`stacking_blocked` for ``unit`` from the position's table (it depends only
    on the unit's side, whether it counts as a Vehicle and where it counts itself)."""
    cav = counts_as_vehicle(unit)
    base = _blocked_base(table, unit.side, cav)
    own = _own_open(state, unit, table, cav, base)
    return base if own is None else base - {own}


def _base_mask(table: StackingTable, side: str, cav: bool, g: _Graph) -> int:
    """:func:`_blocked_base` as a bit mask over the map graph's hex indices (bit ``i``:
    ``g.hexes[i]`` is closed), memoized in the table."""
    key = (side, cav)
    mask = table.masks.get(key)
    if mask is None:
        mask = 0
        index = g.index
        for h in _blocked_base(table, side, cav):
            k = index.get(h)
            if k is not None:
                mask |= 1 << k
        table.masks[key] = mask
    return mask


def _blocked_mask(state: GameState, unit: Unit, table: StackingTable, g: _Graph) -> int:
    """:func:`blocked_hexes` as a bit mask over the map graph's hex indices."""
    cav = counts_as_vehicle(unit)
    mask = _base_mask(table, unit.side, cav, g)
    own = _own_open(state, unit, table, cav, _blocked_base(table, unit.side, cav))
    if own is not None:
        k = g.index.get(own)
        if k is not None:
            mask &= ~(1 << k)
    return mask


def stacking_problem(unit: Unit, h: Hex, friends: dict[Hex, int],
                     vehicles: dict[Hex, Unit]) -> str | None:
    """The stacking rule: at most two friendly units, and one Vehicle, per hex."""
    if friends.get(h, 0) >= 2:
        return f"{hex_label(h)} already holds two friendly units (stacking limit)"
    if counts_as_vehicle(unit):
        vehicle = vehicles.get(h)
        if vehicle is not None:
            whose = "a friendly" if vehicle.side == unit.side else "an enemy"
            what = "Vehicle" if vehicle.is_vehicle else \
                f"{vehicle.name}, which counts as a Vehicle for stacking"
            mine = "" if unit.is_vehicle else f", and {unit.name} counts as a Vehicle too"
            return f"{hex_label(h)} already holds {whose} {what}{mine} (one Vehicle per hex)"
    return None


def stacking_blocked(unit: Unit, friends: dict[Hex, int],
                     vehicles: dict[Hex, Unit]) -> set[Hex]:
    """The hexes where :func:`stacking_problem` refuses ``unit`` (for whole searches)."""
    out = {h for h, n in friends.items() if n >= 2}
    if counts_as_vehicle(unit):
        out.update(vehicles)
    return out


def stop_problem(state: GameState, unit: Unit, h: Hex) -> str | None:
    """Why ``unit`` may not end a move in ``h`` (rulebook: Stacking), else None."""
    friends, vehicles = occupancy(state, unit)
    return stacking_problem(unit, h, friends, vehicles)


def can_stop(state: GameState, unit: Unit, h: Hex) -> bool:
    return stop_problem(state, unit, h) is None


# --- the search ------------------------------------------------------------------------------
def reachable(state: GameState, uid: str, phase: Phase | None = None,
              start: Hex | None = None, table: StackingTable | None = None
              ) -> dict[Hex, Reach]:
    """Every hex ``uid`` can move into this phase (start hex excluded), with the
    best path.  Hexes it can pass through but not stop in have ``stops=False``.
    Empty when the unit can't move (disrupted, boarded, off the map).  ``table``:
    the position's :func:`stacking_table`, when the caller has it."""
    unit = state.units[uid]
    phase = phase or state.phase
    card = unit.card
    hp = _HOOK_POINTS.get(id(card))        # _hook_points(unit), its cache read here
    if hp is None or hp[0] is not card or hp[1] != abilities.GENERATION:
        _hook_points(unit)
        hp = _HOOK_POINTS[id(card)]
    move_hooked, reach_hooked, speed_hooked = hp[2], hp[3], hp[4]
    # one relevance test for both hook points (no hook at either: neither is asked):
    # ``abilities.relevant(_SPEED_OR_CAN_MOVE, unit, state)``, its card's part cached
    if speed_hooked or not abilities.cast(state).live.isdisjoint(_SPEED_OR_CAN_MOVE):
        if move_problem(state, unit, phase) is not None:
            return {}
        speed = movement_speed(state, unit, phase)
    else:
        if _move_problem(state, unit, phase, False) is not None:
            return {}
        speed = unit.current_speed     # what movement_speed gives without a speed hook
    origin = start or unit.hex
    assert origin is not None
    veh = card.is_vehicle
    speed_one = veh and speed == 1 and phase in _MOVEMENT      # _speed_one
    bonus0 = veh and uid not in state.road_bonus_used           # _road_bonus
    bm = state.battle_map
    g: _Graph | None = bm.__dict__.get("_movement_graph")
    if g is None:
        g = _graph(bm)
    o = g.index.get(origin)
    if o is None:
        return {}
    # later edition: hedges and cliffs are priced by step() (game.rules.later.terrain)
    hooked = move_hooked or bm.has_sides
    # Without movement hooks the search depends only on these: cache it per map.
    # Hooks keyed on the unit's own abilities depend only on the unit and the step
    # (see game.rules.abilities), so their searches are cached per card as well;
    # rule-level or aura hooks at these points turn the cache off.
    ckey: tuple[Any, ...] | None
    if not hooked:
        ckey = (o, veh, speed, speed_one, bonus0, state.destroyed_bridges)
    elif not abilities.shared_hooks(_MOVE_POINTS):
        ckey = (o, veh, speed, speed_one, bonus0, state.destroyed_bridges, unit.card.id,
                unit.card.abilities, unit.damaged, unit.disrupted, phase in _MOVEMENT,
                abilities.GENERATION)
    else:
        ckey = None
    got: Any = g.cache.get(ckey) if ckey is not None else None
    if got is None:
        no_answers: dict[int, dict[Hex, Reach]] = {}
        got = _search(state, unit, phase, g, o, speed, speed_one, bonus0, hooked) + (no_answers,)
        if ckey is not None:
            if len(g.cache) > 4096:
                g.cache.clear()
            g.cache[ckey] = got
    out, out_mask, bits, answers = got
    # the hexes stacking closes to this unit, as a bit mask over the map graph's indices
    if table is None:
        friends, vehicles = occupancy(state, unit)
        index = g.index
        bmask = 0
        for h in stacking_blocked(unit, friends, vehicles):
            k = index.get(h)
            if k is not None:
                bmask |= 1 << k
    elif origin is unit.hex or origin == unit.hex:
        # the unit's own hex is never in ``out`` (the search leaves it out), so whether
        # it counts there itself changes nothing below: the side's and kind's mask
        bmask = _base_mask(table, unit.side, counts_as_vehicle(unit), g)
    else:
        bmask = _blocked_mask(state, unit, table, g)
    # the same search with the same hexes closed by stacking: the same answer (kept
    # with the cached search, per those hexes' bits)
    closed = bmask & out_mask
    result: dict[Hex, Reach] | None = answers.get(closed)
    if result is None:
        # the search's Reach (stops) where stacking leaves the hex open, else the same
        # path with stops=False (Reach is immutable: shared by every answer)
        if closed:
            new_reach = tuple.__new__
            result = {h: new_reach(Reach, (r[0], r[1], r[2], r[3], False)) if bmask & b else r
                      for (h, r), b in zip(out.items(), bits)}
        else:
            result = dict(out)
        if ckey is not None:
            if len(answers) > 256:
                answers.clear()
            answers[closed] = result
    if reach_hooked:
        result = abilities.apply("reach", result, state=state, unit=unit, phase=phase,
                                 start=origin)
    return result


# id(card) -> (card, registry generation, movement points relevant, reach relevant,
# a hook keyed on the card's abilities at speed or can_move)
_HOOK_POINTS: dict[int, tuple[Any, int, bool, bool, bool]] = {}


def _hook_points(unit: Unit) -> tuple[bool, bool, bool]:
    """``abilities.relevant`` for ``unit`` at the movement search's points and at
    ``reach``, and whether a hook keyed on its card's abilities is at ``speed`` or
    ``can_move``.  They read only the card and the registry, so they are cached per
    card and registry generation."""
    card = unit.card
    got = _HOOK_POINTS.get(id(card))
    if got is None or got[0] is not card or got[1] != abilities.GENERATION:
        if len(_HOOK_POINTS) > 4096:
            _HOOK_POINTS.clear()
        own = abilities.card_points(card)
        got = _HOOK_POINTS[id(card)] = (card, abilities.GENERATION,
                                        abilities.relevant(_MOVE_POINTS, unit),
                                        abilities.relevant(("reach",), unit),
                                        not own.isdisjoint(_SPEED_OR_CAN_MOVE))
    return got[2], got[3], got[4]


# the search's queue keys: ((cost, rolls, bonus used) then the push's number) as one int
_PUSH_BITS = 24
_PUSH_MASK = (1 << _PUSH_BITS) - 1
_ROLLS_BITS = 16
_ROLLS_MAX = (1 << _ROLLS_BITS) - 1

_PLAIN_TABLES: dict[tuple[bool, bool], tuple[dict[Any, bool], dict[Any, int], dict[Any, bool]]] = {}


def _plain_tables(unit: Unit, veh: bool, speed_one: bool
                  ) -> tuple[dict[Any, bool], dict[Any, int], dict[Any, bool]]:
    """Per terrain, for a unit no movement hook touches: may it enter, what it pays
    (ruling 4 applied), does a Vehicle roll to enter.  They read only the terrain
    table, Vehicle or not and minimum movement: cached on exactly those."""
    key = (veh, speed_one)
    got = _PLAIN_TABLES.get(key)
    if got is None:
        enter = {t: not impassable(unit, t) for t in Terrain}
        tcost = {t: (TERRAIN_RULES[t].vehicle_cost if veh else 1) for t in Terrain}
        if speed_one:
            tcost = {t: min(c, 1) for t, c in tcost.items()}
        froll = {t: veh and TERRAIN_RULES[t].vehicle_roll for t in Terrain}
        got = _PLAIN_TABLES[key] = (enter, tcost, froll)
    return got


def _search(state: GameState, unit: Unit, phase: Phase, g: _Graph, o: int, speed: int,
            speed_one: bool, bonus0: bool, hooked: bool
            ) -> tuple[dict[Hex, Reach], int, tuple[int, ...]]:
    """The search itself (see the module doc): hex -> its Reach if the unit may stop
    there, the bits of every hex found in the map graph, and each found hex's bit (in
    the dict's order).  (Few objects per hex: the per-map cache keeps thousands of
    searches, and every object it keeps is walked by each full garbage collection.)"""
    hexes, terr_of, adj = g.hexes, g.terrain, g.adj
    veh = unit.is_vehicle
    if hooked:
        def price(i: int, j: int, side: Any, road: bool, stream: bool,
                  bonus_left: bool) -> Any:
            st = step(state, unit, hexes[i], hexes[j], bonus_left=bonus_left,
                      speed_one=speed_one, phase=phase)
            if st.reason is not None:
                return None
            return st.cost, st.rolls, st.free
    else:
        broken = state.destroyed_bridges
        enter, tcost, froll = _plain_tables(unit, veh, speed_one)

        def price(i: int, j: int, side: Any, road: bool, stream: bool,
                  bonus_left: bool) -> Any:
            if road and side not in broken:
                return (0, (), True) if bonus_left else (1, (), False)
            tj = terr_of[j]
            if not enter[terr_of[i]] or not enter[tj]:
                return None
            rolls: tuple[Any, ...]
            if stream:
                rolls = (("stream", i, j), ("forest", i, j)) if froll[tj] else (("stream", i, j),)
            elif froll[tj]:
                rolls = (("forest", i, j),)
            else:
                rolls = ()
            return tcost[tj], rolls, False
    # the priced steps out of each node, per road bonus left or not: node * 2 + bonus ->
    # ((j, cost, rolls, bonus used by the step), ...) for the allowed steps only
    rows: list[Any]
    if hooked:
        rows = [None] * (2 * len(hexes))
    else:
        # hook-free prices depend only on these: shared by every such search
        pkey = (veh, speed_one, state.destroyed_bridges)
        rows = g.prices.get(pkey)  # type: ignore[assignment]
        if rows is None:
            if len(g.prices) > 64:
                g.prices.clear()
            rows = g.prices[pkey] = [None] * (2 * len(hexes))
    # labels per node: (cost, nrolls, bonus_used), Pareto-minimal.  A label's path and
    # rolls are kept as a chain of steps (the previous step, this node, this step's
    # rolls), unwound only for each hex's best label at the end (no tuple per push)
    best: dict[int, list[tuple[int, int, bool]]] = {o: [(0, 0, False)]}
    found: dict[int, tuple[int, int, Any, bool]] = {}
    # the queue: labels in order of (cost, rolls, bonus used, push order), each a single
    # int (_order_key) whose low bits are its index in ``labels_at`` (int comparisons
    # in the heap, not tuple ones)
    labels_at: list[tuple[int, int, bool, int, Any]] = [(0, 0, False, o, None)]
    heap: list[int] = [0]
    counter = 1
    heappop, heappush = heapq.heappop, heapq.heappush
    push_mask, push_bits, rolls_bits, rolls_max = _PUSH_MASK, _PUSH_BITS, _ROLLS_BITS, _ROLLS_MAX
    add_label = labels_at.append
    while heap:
        cost, nrolls, used, i, chain = labels_at[heappop(heap) & push_mask]
        bl = bonus0 and not used
        k = 2 * i + 1 if bl else 2 * i
        row = rows[k]
        if row is None:
            priced = []
            for j, side, road, stream in adj[i]:
                pr = price(i, j, side, road, stream, bl)
                if pr is not None:
                    priced.append((j, pr[0], pr[1], pr[2]))
            row = rows[k] = tuple(priced)
        for j, pcost, prolls, pfree in row:
            ncost = cost + pcost
            if ncost > speed:
                continue
            nused = used or pfree
            nr = nrolls + len(prolls)
            labels = best.get(j)
            if labels is None:
                best[j] = [(ncost, nr, nused)]
            else:
                dominated = prune = False
                for c, r, u in labels:
                    if c <= ncost and r <= nr and u <= nused:
                        dominated = True
                        break
                    if ncost <= c and nr <= r and nused <= u:
                        prune = True
                if dominated:
                    continue
                if prune:
                    labels[:] = [(c, r, u) for c, r, u in labels
                                 if not (ncost <= c and nr <= r and nused <= u)]
                labels.append((ncost, nr, nused))
            nchain = (chain, j, prolls)
            if j != o:
                cur = found.get(j)
                if cur is None or nr < cur[1] or (nr == cur[1] and ncost < cur[0]):
                    found[j] = (ncost, nr, nchain, nused)
            if counter > push_mask or nr > rolls_max:
                raise ValueError("movement search: too many labels for its queue")
            heappush(heap, (((((ncost << rolls_bits) + nr) << 1) + nused) << push_bits)
                     + counter)
            add_label((ncost, nr, nused, j, nchain))
            counter += 1

    infos = g.rolls

    def roll_info(r: Any) -> RollInfo:
        if isinstance(r, RollInfo):
            return r
        got = infos.get(r)
        if got is None:
            got = infos[r] = RollInfo(r[0], hexes[r[1]], hexes[r[2]])
        return got
    # each found hex's path and rolls, walked up its chain of steps (a few steps each)
    new_reach = tuple.__new__       # Reach(...) without its Python-level __new__
    out = {}
    for j, (c, n, ch, u) in found.items():
        nodes: list[Hex] = []
        step_rolls: list[Any] = []
        while ch is not None:
            ch, node, prl = ch
            nodes.append(hexes[node])
            if prl:
                step_rolls.append(prl)
        nodes.reverse()
        if step_rolls:
            step_rolls.reverse()
            rolls = tuple([roll_info(r) for prl in step_rolls for r in prl])
        else:
            rolls = ()
        out[hexes[j]] = new_reach(Reach, (tuple(nodes), c, rolls, u, True))
    bits = tuple([1 << j for j in found])
    mask = 0
    for b in bits:
        mask |= b
    return out, mask, bits


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
    if abilities.has_hooks("path_speed"):
        speed = abilities.apply("path_speed", speed, state=state, unit=unit, path=path,
                                phase=phase, start=h)
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
    assert origin is not None
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
        for n in _edge_table(state.battle_map).get(h, ()):
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
