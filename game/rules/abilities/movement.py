"""Abilities of movement: speed, costs, movement rolls (Relocate, High Gear,
suspensions, Forest Runner, Trench Crossing) and Bridge Demolition's spec."""
from __future__ import annotations

from .. import movement as rules_movement
from ..cards import SOLDIER, VEHICLE
from ..hexes import Hex
from ..movement import Reach
from ..state import GameState, Phase, Unit
from ..terrain import Terrain
from . import register
from .spec import AbilitySpec, define


SPECS = define(
    AbilitySpec(
        "relocate", "Relocate {n}", True,
        "This unit's printed speed is 0, so it can't move in the movement phase. In its own"
        " assault phase it has speed {n}; moving uses its activation, so in that phase it"
        " either moves or attacks, never both. Terrain, movement rolls and defensive fire"
        " apply to that move as usual.", value_range=(1, 5)),
    AbilitySpec(
        "high_gear", "High Gear {n}", True,
        "When every hex of a move is entered along a road (ruling 5), this Vehicle has +{n}"
        " speed for that move, in the movement or the assault phase, on top of the road bonus.",
        value_range=(1, 5), unit_type=VEHICLE),
    AbilitySpec(
        "weak_suspension", "Weak Suspension", False,
        "This Vehicle must succeed at a movement roll (4 or higher) to enter a hill hex, unless"
        " it enters it along a road. A failed roll stops it in the hex it was leaving; a stream"
        " crossing into the hill needs its own roll as well.", unit_type=VEHICLE),
    AbilitySpec(
        "excellent_suspension", "Excellent Suspension", False,
        "Entering a hill hex costs this Vehicle one hex of movement instead of two. Cover and"
        " line of sight of hills are unchanged.", unit_type=VEHICLE),
    AbilitySpec(
        "forest_runner", "Forest Runner", False,
        "This Vehicle needs no movement roll to enter a forest hex. Entering a forest still"
        " costs it two hexes of movement, and crossing a stream still needs its roll.",
        unit_type=VEHICLE),
    AbilitySpec(
        "trench_crossing", "Trench Crossing", False,
        "This Vehicle crosses streams without a movement roll (it still needs the forest roll"
        " to enter a forest).", unit_type=VEHICLE,
        not_in_first_edition="The printed card's part about trenches does not apply: first"
                             " edition has no trenches."),
    AbilitySpec(
        "bridge_demolition", "Bridge Demolition", False,
        "Instead of moving or attacking in its own assault phase, this Soldier may try to"
        " destroy a bridge on a side of its hex: roll one die, on 4 or higher the bridge is"
        " destroyed for the rest of the game. The road is then broken there, and units must make"
        " movement rolls to cross that stream.", unit_type=SOLDIER,
        not_in_first_edition="The printed card's part about Obstacles does not apply: first"
                             " edition has no Obstacles."),
)


@register("speed", "relocate")
def _relocate(value, ab, ctx):
    if ctx.get("role") != "unit":
        return value
    return ab.value if ctx["phase"] in (Phase.ASSAULT_FIRST, Phase.ASSAULT_SECOND) else 0


@register("movement_roll_kinds", "weak_suspension")
def _weak_suspension(kinds, ab, ctx):
    if ctx["terrain"] == Terrain.HILL and not ctx["along_road"]:
        return list(kinds) + ["hill"]
    return kinds


@register("movement_roll_kinds", "forest_runner")
def _forest_runner(kinds, ab, ctx):
    return [k for k in kinds if k != "forest"]


@register("movement_roll_kinds", "trench_crossing")
def _trench_crossing(kinds, ab, ctx):
    return [k for k in kinds if k != "stream"]


@register("move_cost", "excellent_suspension")
def _excellent_suspension(cost, ab, ctx):
    if ctx["terrain"] == Terrain.HILL and not ctx["along_road"] and ctx["unit"].is_vehicle:
        return min(cost, 1)
    return cost


def _all_road(st: GameState, start: Hex, path) -> bool:
    bm = st.battle_map
    h = start
    for n in path:
        if not bm.is_road(h, n, st.destroyed_bridges):
            return False
        h = n
    return True


@register("path_speed", "high_gear")
def _high_gear_speed(speed, ab, ctx):
    path = ctx["path"]
    if path and _all_road(ctx["state"], ctx["start"], path):
        return speed + ab.value
    return speed


@register("reach", "high_gear")
def _high_gear_reach(result, ab, ctx):
    """High Gear: hexes reachable by a move made entirely along roads with the extra
    speed (the ordinary search can't know the whole path is on the road)."""
    st: GameState = ctx["state"]
    u: Unit = ctx["unit"]
    phase = ctx["phase"]
    speed = rules_movement.movement_speed(st, u, phase) + ab.value
    bonus0 = rules_movement._road_bonus(st, u, phase)
    bm = st.battle_map
    start = ctx["start"]
    out = dict(result)
    frontier = [(start, (), 0, False)]
    seen = {(start, False): 0}
    while frontier:
        nxt = []
        for h, path, cost, used in frontier:
            for n in bm.neighbors(h):
                if n not in bm.terrain or not bm.is_road(h, n, st.destroyed_bridges):
                    continue
                stp = rules_movement.step(st, u, h, n, bonus_left=bonus0 and not used,
                                    speed_one=False, phase=phase)
                if stp.reason is not None or not stp.along_road:
                    continue
                c = cost + stp.cost
                if c > speed:
                    continue
                nu = used or stp.free
                if seen.get((n, nu), 1 << 30) <= c:
                    continue
                seen[(n, nu)] = c
                npath = path + (n,)
                nxt.append((n, npath, c, nu))
                if n != start and n not in out:
                    out[n] = Reach(path=npath, cost=c, rolls=(), road_bonus_used=nu,
                                   stops=rules_movement.stop_problem(st, u, n) is None)
        frontier = nxt
    return out
