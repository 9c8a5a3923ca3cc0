"""Movement abilities of the whole roster (issue 19): movement rolls, terrain a unit
may or may not enter, who may move (Robust, Mountaineering, Amphibious, Thin Wheels,
Prone to Breakdown, Charge)."""
from __future__ import annotations

from typing import Any

from ..actions import Move
from ..cards import VEHICLE
from ..hexes import Hex
from ..movement import Reach
from ..state import GameState, Unit
from ..terrain import Terrain
from . import register
from .spec import AbilitySpec, define


#: Amphibious: hexes of movement a water hex costs (later edition)
WATER_COST = 2


SPECS = define(
    AbilitySpec(
        "robust", "Robust", False,
        "This unit gets +1 on its movement rolls (a stream or forest roll succeeds on 3 or"
        " higher instead of 4). While it is disrupted it may still move, at speed 1 (turning"
        " in place included); it is still disrupted for everything else: -1 on each attack"
        " die, -1 defense, no defensive fire."),
    AbilitySpec(
        "mountaineering", "Mountaineering", False,
        "This unit gets +1 on its movement rolls (a roll succeeds on 3 or higher instead of"
        " 4). In the first edition only stream crossings (and, for Vehicles, entering a"
        " forest) call for movement rolls."),
    AbilitySpec(
        "amphibious", "Amphibious", False,
        "This Vehicle crosses streams without a movement roll. In the later edition it may also"
        " enter (and leave) water hexes, each costing it two hexes of movement; it gets no"
        " cover there.", unit_type=VEHICLE,
        not_in_first_edition="The first edition has no water hexes: its ponds stay closed to"
                             " this Vehicle as to every unit."),
    AbilitySpec(
        "thin_wheels", "Thin Wheels", False,
        "This unit can't cross a stream or enter a marsh hex, except along a road (a bridge"
        " carries the road over a stream)."),
    AbilitySpec(
        "prone_to_breakdown", "Prone to Breakdown", False,
        "This unit can't move (or turn in place) while it is damaged."),
    AbilitySpec(
        "charge", "Charge", False,
        "This unit may move while it is disrupted, but only a move that ends closer to an"
        " enemy Soldier than it started (the distance to the nearest enemy Soldier on the"
        " battle map gets smaller). It is still disrupted for everything else: -1 on each"
        " attack die, -1 defense, no defensive fire."),
)


# --- movement rolls ----------------------------------------------------------------------------
@register("movement_roll_need", "robust")
@register("movement_roll_need", "mountaineering")
def _plus_one_roll(need: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    return need - 1 if ctx.get("role") == "unit" else need


@register("moves_while_disrupted", "robust")
def _robust_moves(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    return True if ctx.get("role") == "unit" else value


@register("speed", "robust")
def _robust_speed(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    u: Unit = ctx["unit"]
    if ctx.get("role") == "unit" and u.disrupted:
        return min(value, 1)
    return value


# --- terrain -------------------------------------------------------------------------------
@register("movement_roll_kinds", "amphibious")
def _amphibious_stream(kinds: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    return [k for k in kinds if k != "stream"]


@register("can_enter", "amphibious")
def _amphibious_water(refusal: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """Water hexes (later edition) are open to it: into, out of and between them."""
    if refusal is None or ctx.get("role") != "unit":
        return refusal
    t_from, t_to = ctx["from_terrain"], ctx["terrain"]
    from ..movement import impassable
    u: Unit = ctx["unit"]
    from_ok = t_from == Terrain.WATER or not impassable(u, t_from)
    to_ok = t_to == Terrain.WATER or not impassable(u, t_to)
    return None if from_ok and to_ok else refusal


@register("move_cost", "amphibious")
def _amphibious_cost(cost: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx["terrain"] == Terrain.WATER and not ctx["along_road"]:
        return WATER_COST
    return cost


@register("can_enter", "thin_wheels")
def _thin_wheels(refusal: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if refusal is not None or ctx.get("role") != "unit":
        return refusal
    u: Unit = ctx["unit"]
    if ctx["stream"]:
        return f"{u.name} has Thin Wheels: it crosses a stream only along a road"
    if ctx["terrain"] == Terrain.MARSH:
        return f"{u.name} has Thin Wheels: it enters a marsh only along a road"
    return refusal


# --- who may move ------------------------------------------------------------------------------
@register("can_move", "prone_to_breakdown")
def _prone_to_breakdown(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    u: Unit = ctx["unit"]
    if ctx.get("role") == "unit" and value is True and u.damaged:
        return f"{u.name} is Prone to Breakdown: it can't move while it is damaged"
    return value


def _enemy_soldier_distance(st: GameState, u: Unit, h: Hex) -> int | None:
    best: int | None = None
    for o in st.units.values():
        if o.side != u.side and o.on_map and o.is_soldier and not o.boarded \
                and o.hex is not None:
            d = o.hex.distance(h)
            if best is None or d < best:
                best = d
    return best


def _charge_closer(st: GameState, u: Unit, start: Hex, end: Hex) -> bool:
    before = _enemy_soldier_distance(st, u, start)
    after = _enemy_soldier_distance(st, u, end)
    return before is not None and after is not None and after < before


@register("moves_while_disrupted", "charge")
def _charge_moves(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    return True if ctx.get("role") == "unit" else value


@register("reach", "charge")
def _charge_reach(result: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """Disrupted: only the hexes closer to an enemy Soldier."""
    u: Unit = ctx["unit"]
    if ctx.get("role") != "unit" or not u.disrupted:
        return result
    st: GameState = ctx["state"]
    start: Hex = ctx["start"]
    out: dict[Hex, Reach] = {}
    for h, r in result.items():
        if _charge_closer(st, u, start, h):
            out[h] = r
        elif r.stops:
            out[h] = r._replace(stops=False)     # it may pass through, not stop there
    return out


@register("action_allowed", "charge")
def _charge_move(reason: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    u: Unit | None = ctx.get("unit")
    a = ctx["action"]
    if reason is not None or ctx.get("role") != "unit" or u is None or not u.disrupted \
            or not isinstance(a, Move) or u.hex is None:
        return reason
    st: GameState = ctx["state"]
    end = a.path[-1] if a.path else u.hex
    if not _charge_closer(st, u, u.hex, end):
        return (f"{u.name} is disrupted: with Charge it moves only toward an enemy Soldier"
                f" (the move must end closer to one)")
    return reason
