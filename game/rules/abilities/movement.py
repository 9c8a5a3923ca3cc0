"""Abilities of movement: speed, costs, movement rolls (Relocate, High Gear,
suspensions, Forest Runner, Trench Crossing), who may move (Command Dependent, SS
Determination), what happens on the way (Overrun) and Bridge Demolition's spec."""
from __future__ import annotations

from typing import Any

from .. import movement as rules_movement
from ..actions import Board
from ..cards import SOLDIER, VEHICLE
from ..events import CounterPlaced
from ..hexes import Hex, hex_label
from ..movement import Reach
from ..state import DISRUPTED, GameState, Phase, Unit
from ..terrain import Terrain
from . import register
from .spec import AbilitySpec, define
from .casualty import resist_disruption
from .commanders import commander_near
from .common import AbilityUsed, _phase_add, _phase_set


SPECS = define(
    AbilitySpec(
        "relocate", "Relocate {n}", True,
        "This unit's printed speed is 0, so it can't move in the movement phase. In its own"
        " assault phase it has speed {n}; moving uses its activation, so in that phase it"
        " either moves or attacks, never both. Terrain, movement rolls and defensive fire"
        " apply to that move as usual.", value_range=(1, 5)),
    AbilitySpec(
        "high_gear", "High Gear {n}", True,
        "When every hex of a move is entered along a road (ruling 5), this unit has +{n}"
        " speed for that move, in the movement or the assault phase (a Vehicle gets it on top"
        " of the road bonus; Soldiers on bicycles and motorcycles have no road bonus).",
        value_range=(1, 5)),
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
        " costs it two hexes of movement, and crossing a stream still needs its roll."
        " (No printed text of this ability is known: this is Hexfront's reading of its name.)",
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
    AbilitySpec(
        "command_dependent", "Command Dependent", False,
        "In its side's movement phase this unit may move (or board or dismount) only if it"
        " starts that move in the same hex as, or next to, a friendly commander; a disrupted"
        " commander counts too (this is the unit's own ability, not a commander ability). Its"
        " assault-phase moves and all its attacks are not limited."),
    AbilitySpec(
        "ss_determination", "SS Determination", False,
        "This unit may move, and turn, even while it is disrupted. It is still disrupted for"
        " everything else: -1 on each attack die, -1 defense, and no defensive fire. A"
        " defensive-fire hit still ends the move it is making."),
    AbilitySpec(
        "overrun", "Overrun", False,
        "Once per phase, in its side's movement or assault phase, when this Vehicle enters a"
        " hex holding enemy Soldiers during a move, one of those Soldiers that is not yet"
        " disrupted is disrupted at once: it gets a face-up Disrupted counter, as from"
        " defensive fire, with no attack and no roll. This happens as the Vehicle enters the"
        " hex, before any defensive fire there, so the disrupted Soldier can't fire"
        " defensively at it. Overrun is not an attack: in the assault phase the Vehicle has"
        " still used its activation by moving, and after a movement-phase Overrun it may"
        " attack normally in its assault phase. Hexfront disrupts the costliest such Soldier"
        " (the first one listed on a tie) and uses Overrun in the first hex where it can.",
        unit_type=VEHICLE),
)


@register("speed", "relocate")
def _relocate(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") != "unit":
        return value
    return ab.value if ctx["phase"] in (Phase.ASSAULT_FIRST, Phase.ASSAULT_SECOND) else 0


@register("movement_roll_kinds", "weak_suspension")
def _weak_suspension(kinds: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx["terrain"] == Terrain.HILL and not ctx["along_road"]:
        return list(kinds) + ["hill"]
    return kinds


@register("movement_roll_kinds", "forest_runner")
def _forest_runner(kinds: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    return [k for k in kinds if k != "forest"]


@register("movement_roll_kinds", "trench_crossing")
def _trench_crossing(kinds: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    return [k for k in kinds if k != "stream"]


@register("move_cost", "excellent_suspension")
def _excellent_suspension(cost: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx["terrain"] == Terrain.HILL and not ctx["along_road"] and ctx["unit"].is_vehicle:
        return min(cost, 1)
    return cost


def _all_road(st: GameState, start: Hex, path: Any) -> bool:
    bm = st.battle_map
    h = start
    for n in path:
        if not bm.is_road(h, n, st.destroyed_bridges):
            return False
        h = n
    return True


@register("path_speed", "high_gear")
def _high_gear_speed(speed: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    path = ctx["path"]
    if path and _all_road(ctx["state"], ctx["start"], path):
        return speed + ab.value
    return speed


@register("reach", "high_gear")
def _high_gear_reach(result: Any, ab: Any, ctx: dict[str, Any]) -> Any:
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
    frontier: list[tuple[Any, tuple[Any, ...], int, bool]] = [(start, (), 0, False)]
    seen = {(start, False): 0}
    while frontier:
        nxt: list[tuple[Any, tuple[Any, ...], int, bool]] = []
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


# --- who may move ------------------------------------------------------------------------------
def _command_dependent_problem(st: GameState, u: Unit, phase: Phase) -> str | None:
    if phase not in (Phase.MOVEMENT_FIRST, Phase.MOVEMENT_SECOND):
        return None
    start = st.moving.start if st.moving is not None and st.moving.uid == u.uid else u.hex
    if start is None or commander_near(st, u, include_self=False, undisrupted=False,
                                       at=start):
        return None
    return (f"{u.name} is Command Dependent: in the movement phase it moves only from a hex"
            f" next to a friendly commander")


@register("can_move", "command_dependent")
def _command_dependent(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") != "unit" or value is not True:
        return value
    prob = _command_dependent_problem(ctx["state"], ctx["unit"], ctx["phase"])
    return value if prob is None else prob


@register("action_allowed", "command_dependent")
def _command_dependent_board(reason: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """Boarding is the Soldier's movement-phase move, so it needs the commander too."""
    if reason is not None or ctx.get("role") != "unit" or not isinstance(ctx["action"], Board):
        return reason
    st: GameState = ctx["state"]
    return _command_dependent_problem(st, ctx["unit"], st.phase)


@register("moves_while_disrupted", "ss_determination")
def _ss_determination(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    return True if ctx.get("role") == "unit" else value


# --- on the way ----------------------------------------------------------------------------------
@register("entered_hex", "overrun")
def _overrun(events: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """Overrun: entering a hex with enemy Soldiers disrupts one of them at once (face
    up, like defensive fire), once per phase, no roll."""
    st: GameState = ctx["state"]
    u: Unit = ctx["unit"]
    if ctx.get("role") != "unit" or u.side != st.active_side or \
            not (st.phase.is_movement or st.phase.is_assault) or \
            u.uid in _phase_set(st, "overrun_used"):
        return events
    here: Hex = ctx["to_hex"]
    victims = [o for o in st.units_at(here, include_boarded=False)
               if o.side != u.side and o.is_soldier and not o.disrupted]
    if not victims:
        return events
    v = max(victims, key=lambda o: o.card.cost)
    v.disrupted = True
    _phase_add(st, "overrun_used", u.uid)
    out = list(events)
    out.append(AbilityUsed(u.uid, ab.name, text=f"{u.name} overruns {v.name} in "
                                                f"{hex_label(here)}."))
    out.append(CounterPlaced(v.uid, DISRUPTED, True, u.uid,
                             text=f"{v.name} is overrun: face-up Disrupted counter."))
    out.extend(resist_disruption(st, v))
    return out
