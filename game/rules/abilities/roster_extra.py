"""The last passive abilities of the later sets (issue 19): Fixed Rear Gun, Heavy
Rifle, Improved Indirect Fire, Superior Optics, Fury, Tides of War and
Coordinated Fire (C. A.) - the commander's version."""
from __future__ import annotations

from typing import Any

from ..hexes import Hex
from ..los import segment_enters_hex
from ..state import GameState, Phase, Unit
from ..terrain import Terrain
from . import register
from .roster_common import aura
from .spec import AbilitySpec, _COMMANDER_TAIL, define
from .common import _in_front_arc
from .roster_spotting import spotter_for

#: Improved Indirect Fire: how far from the target the U.S. commander may be
COMMANDER_SPOTTING_RANGE = 4


SPECS = define(
    AbilitySpec(
        "fixed_rear_gun", "Fixed Rear Gun", False,
        "This Vehicle can attack an enemy Vehicle only when that Vehicle's hex centre is not"
        " in its front arc (ruling 1: behind it or exactly to its side; not in its own hex)."
        " Its attacks on Soldiers are not limited.", unit_type="Vehicle"),
    AbilitySpec(
        "heavy_rifle", "Heavy Rifle", False,
        "This unit's speed is 1 while it is in the same hex as, or next to, a friendly Soldier"
        " whose printed speed is 1 (the start of its move counts); otherwise its speed is its"
        " printed 0 and it can't move."),
    AbilitySpec(
        "improved_indirect_fire", "Improved Indirect Fire", False,
        "Indirect Fire (an attack on an enemy Soldier needs no line of sight of its own when a"
        " friendly Spotter within 8 hexes sees that Soldier), and a friendly U.S. commander"
        " within 4 hexes of the Soldier that sees it may spot for it too."),
    AbilitySpec(
        "superior_optics", "Superior Optics", False,
        "While this unit is in a hill hex, one hex that would block its line of sight (one"
        " only, not its own hex or the target's) is disregarded, in its attacks and defensive"
        " fire."),
    AbilitySpec(
        "fury", "Fury {n}", True,
        "This unit rolls {n} extra attack dice if at least one enemy unit was destroyed during"
        " the previous turn (from one initiative phase to the next).", value_range=(1, 4)),
    AbilitySpec(
        "tides_of_war", "Tides of War", False,
        "Friendly Soldiers adjacent to this commander (in its hex or the next hex, the"
        " commander itself excluded) roll one extra attack die if at least one enemy unit was"
        " destroyed during the previous turn." + _COMMANDER_TAIL, commander=True),
    AbilitySpec(
        "coordinated_fire_commander", "Coordinated Fire (C. A.)", False,
        "Friendly Soldiers adjacent to this commander (in its hex or the next hex, the"
        " commander itself excluded) roll one extra attack die against a unit this commander"
        " has already attacked this turn." + _COMMANDER_TAIL, commander=True),
)


# --- Fixed Rear Gun ------------------------------------------------------------------------------
@register("can_attack", "fixed_rear_gun")
def _fixed_rear_gun(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") != "attacker" or not ctx["target"].is_vehicle or value is not True:
        return value
    a: Unit = ctx["attacker"]
    ah, th = ctx["attacker_hex"], ctx["target_hex"]
    if ah == th or _in_front_arc(ah, a.facing, th):
        return f"{a.name} can only attack Vehicles behind it ({ab.name})"
    return value


# --- Heavy Rifle -------------------------------------------------------------------------------
@register("speed", "heavy_rifle")
def _heavy_rifle(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    st: GameState = ctx["state"]
    u: Unit = ctx["unit"]
    if ctx.get("role") != "unit" or value >= 1:
        return value
    here = st.moving.start if st.moving is not None and st.moving.uid == u.uid else u.hex
    if here is None:
        return value
    for o in st.units.values():
        if o is not u and o.side == u.side and o.on_map and o.is_soldier and \
                not o.boarded and o.card.speed == 1 and o.hex is not None and \
                o.hex.distance(here) <= 1:
            return 1
    return value


# --- seeing ------------------------------------------------------------------------------
@register("line_of_sight", "improved_indirect_fire")
def _improved_indirect_fire(sees: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if sees or ctx.get("role") != "attacker" or not ctx["target"].is_soldier:
        return sees
    st: GameState = ctx["state"]
    a: Unit = ctx["attacker"]
    th: Hex = ctx["target_hex"]
    if spotter_for(st, a.side, th) is not None:
        return True
    for c in st.units.values():
        if c.side == a.side and c.on_map and not c.boarded and c.card.is_commander and \
                c.card.nationality == "United States" and c.hex is not None and \
                c.hex.distance(th) <= COMMANDER_SPOTTING_RANGE and \
                st.battle_map.can_see(c.hex, th):
            return True
    return sees


@register("line_of_sight", "superior_optics")
def _superior_optics(sees: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if sees or ctx.get("role") != "attacker":
        return sees
    st: GameState = ctx["state"]
    bm = st.battle_map
    a_hex, t_hex = ctx["attacker_hex"], ctx["target_hex"]
    if bm.terrain_at(a_hex) != Terrain.HILL or bm.has_sides:
        return sees
    in_way = [h for h in bm.blockers if h not in (a_hex, t_hex)
              and segment_enters_hex(a_hex, t_hex, h)]
    return len(in_way) <= 1


# --- last turn's losses ------------------------------------------------------------------
_LOSS_KEY = "losses_by_turn"


def _destroyed_counts(st: GameState) -> tuple[int, int]:
    ax = sum(1 for u in st.units.values() if u.side == "Axis" and u.destroyed)
    al = sum(1 for u in st.units.values() if u.side == "Allies" and u.destroyed)
    return ax, al


def _snapshot(st: GameState) -> None:
    """At each initiative phase: the destroyed counts now and at the last one."""
    got = st.marks.get(_LOSS_KEY)
    if got and got[0] == st.turn:
        return
    prev = tuple(got[2]) if got else (0, 0)
    st.marks[_LOSS_KEY] = (st.turn, prev, _destroyed_counts(st))


def enemy_lost_last_turn(st: GameState, side: str) -> bool:
    """Whether a unit of ``side``'s enemy was destroyed during the previous turn."""
    got = st.marks.get(_LOSS_KEY)
    if not got or got[0] != st.turn:
        return False
    before, now = got[1], got[2]
    i = 1 if side == "Axis" else 0
    return bool(now[i] > before[i])


@register("phase_begin", "fury", scope="any")
@register("phase_begin", "tides_of_war", scope="any")
def _losses_snapshot(events: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx["phase"] == Phase.INITIATIVE:
        _snapshot(ctx["state"])
    return events


@register("attack_dice", "fury")
def _fury(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") == "attacker" and value and \
            enemy_lost_last_turn(ctx["state"], ctx["attacker"].side):
        return value + ab.value
    return value


def _commander_next(st: GameState, u: Unit, ability_id: str) -> Unit | None:
    if u.hex is None:
        return None
    for c in st.units.values():
        if c is not u and c.side == u.side and c.on_map and not c.disrupted and \
                c.hex is not None and c.card.has(ability_id) and c.hex.distance(u.hex) <= 1:
            return c
    return None


@aura("attack_dice", "tides_of_war")
def _tides_of_war(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    a: Unit = ctx["attacker"]
    st: GameState = ctx["state"]
    if value and a.is_soldier and enemy_lost_last_turn(st, a.side) and \
            _commander_next(st, a, "tides_of_war"):
        return value + 1
    return value


# --- Coordinated Fire (C. A.) -------------------------------------------------------------
def _attacked_by(st: GameState, uid: str) -> tuple[Any, ...]:
    got = st.marks.get("cfc_targets")
    if got and got[0] == st.turn:
        return tuple(t for a, t in got[1] if a == uid)
    return ()


@register("after_attack", "coordinated_fire_commander")
def _cfc_remember(events: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") != "attacker":
        return events
    st: GameState = ctx["state"]
    got = st.marks.get("cfc_targets")
    cur = tuple(got[1]) if got and got[0] == st.turn else ()
    pair = (ctx["attacker"].uid, ctx["target"].uid)
    if pair not in cur:
        st.marks["cfc_targets"] = (st.turn, tuple(sorted(cur + (pair,))))
    return events


@aura("attack_dice", "coordinated_fire_commander")
def _cfc(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    a: Unit = ctx["attacker"]
    t: Unit = ctx["target"]
    st: GameState = ctx["state"]
    if not value or not a.is_soldier or a.hex is None:
        return value
    for c, _ in ctx["sources"]:
        if c is not a and c.side == a.side and not c.disrupted and c.hex is not None and \
                c.hex.distance(a.hex) <= 1 and t.uid in _attacked_by(st, c.uid):
            return value + 1
    return value
