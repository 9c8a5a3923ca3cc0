"""More attack abilities of the whole roster (issue 19): extra dice and per-die
modifiers by target or situation, rerolls, who can't fire, once-per-game rounds
(Tank Hunter, Quick Swivel, Commander Hunter, Gun Crew Hunter, Shock Troop,
Limited Ammo, Limited Covering Fire, Turret Lock, Collapsible Screen,
Backblast, Hardened Veteran, Veteran Guard, Overheat, HE Round)."""
from __future__ import annotations

from typing import Any

from .. import activation, combat
from ..actions import Attack
from ..cards import VEHICLE
from ..events import CounterPlaced
from ..state import DISRUPTED, GameState, Unit
from ..terrain import Terrain
from . import register
from .roster_common import aura
from .spec import AbilitySpec, define
from .common import AbilityRoll, AbilityUsed, _game_add, _game_set, _is_artillery
from .roster_combat import _covering_fire_silences, silence_for_the_turn

#: HE Round: its dice against the Soldier
HE_ROUND_DICE = 15
#: Overheat: this many 1s in one attack roll disrupt it
OVERHEAT_ONES = 3


SPECS = define(
    AbilitySpec(
        "tank_hunter", "Tank Hunter", False,
        "This unit gets +1 on each attack die against Vehicles, defensive fire included."),
    AbilitySpec(
        "quick_swivel", "Quick Swivel", False,
        "This unit rolls one extra attack die on its defensive-fire attacks."),
    AbilitySpec(
        "commander_hunter", "Commander Hunter", False,
        "This unit rolls two extra attack dice when it attacks a commander."),
    AbilitySpec(
        "gun_crew_hunter", "Gun Crew Hunter", False,
        "This unit rolls two extra attack dice when it attacks Artillery."),
    AbilitySpec(
        "shock_troop", "Shock Troop", False,
        "This unit gets +1 on each attack die of its first attack in the game (in its"
        " assault phase or with defensive fire), whether or not it hits."),
    AbilitySpec(
        "limited_ammo", "Limited Ammo", False,
        "This unit never makes defensive-fire attacks; it attacks only in its own assault"
        " phase."),
    AbilitySpec(
        "limited_covering_fire", "Limited Covering Fire", False,
        "Each enemy Soldier this unit attacks at short range (its own hex or the next one, in"
        " its assault phase or with defensive fire, hit or not) can't make defensive-fire"
        " attacks for the rest of the turn."),
    AbilitySpec(
        "turret_lock", "Turret Lock", False,
        "This unit can't attack while it is in a hill hex (in its assault phase or with"
        " defensive fire); elsewhere it attacks normally.", unit_type=VEHICLE),
    AbilitySpec(
        "collapsible_screen", "Collapsible Screen", False,
        "This unit can't attack while it is in a water hex (later edition; the first edition"
        " has no water hexes, so there it always may).", unit_type=VEHICLE),
    AbilitySpec(
        "backblast", "Backblast", False,
        "Once this unit has attacked (in its assault phase or with defensive fire), it makes"
        " no cover rolls until the end of the turn: they fail without a die."),
    AbilitySpec(
        "hardened_veteran", "Hardened Veteran", False,
        "This unit may move (and turn) while it is disrupted; it is still disrupted for"
        " everything else. Once each turn, after it rolls an attack, one die that is not a"
        " success may be rolled again (Hexfront always rerolls the lowest one); the new"
        " result counts."),
    AbilitySpec(
        "veteran_guard", "Veteran Guard", False,
        "After this unit rolls its attack dice, up to two dice that came up 1 (and are not"
        " successes) are rolled again; the new results count. While disrupted it may still move"
        " and its attack dice have no -1 for the disruption (a damaged Vehicle keeps its -1);"
        " its defense is still 1 lower and it can't fire defensively."),
    AbilitySpec(
        "overheat", "Overheat", False,
        "When one of its attack rolls shows three or more 1s, this unit gets a face-up"
        " Disrupted counter at once, which is not removed at the next casualty phase (it"
        " comes off at the one after)."),
    AbilitySpec(
        "he_round", "HE Round", False,
        "Once per game, in its own assault phase, instead of a normal attack on an enemy"
        " Soldier at medium or long range, this unit may fire an HE round: it rolls 15 dice at"
        " that Soldier (line of sight and cover as usual). Not with defensive fire. Hexfront"
        " fires it as an attack mode: choose HE Round when attacking.", attack_mode=True),
)


# --- dice and per-die modifiers ---------------------------------------------------------------
@register("die_modifier", "tank_hunter")
def _tank_hunter(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    return value + 1 if ctx.get("role") == "attacker" and ctx["target"].is_vehicle else value


@register("attack_dice", "quick_swivel")
def _quick_swivel(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    return value + 1 if ctx.get("role") == "attacker" and value and ctx.get("defensive") \
        else value


@register("attack_dice", "commander_hunter")
def _commander_hunter(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") == "attacker" and value and ctx["target"].card.is_commander:
        return value + 2
    return value


@register("attack_dice", "gun_crew_hunter")
def _gun_crew_hunter(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") == "attacker" and value and _is_artillery(ctx["target"]):
        return value + 2
    return value


_SHOCK_KEY = "shock_troop_used"


@register("die_modifier", "shock_troop")
def _shock_troop(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") == "attacker" and \
            ctx["attacker"].uid not in _game_set(ctx["state"], _SHOCK_KEY):
        return value + 1
    return value


@register("after_attack", "shock_troop")
def _shock_troop_used(events: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") == "attacker" and not ctx.get("secondary"):
        _game_add(ctx["state"], _SHOCK_KEY, ctx["attacker"].uid)
    return events


# --- who can't fire ------------------------------------------------------------------------------
@register("can_fire_defensively", "limited_ammo")
def _limited_ammo(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    return False if ctx.get("role") in ("unit", "firer") else value


@register("can_attack", "turret_lock")
def _turret_lock(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    a: Unit = ctx["attacker"]
    if ctx.get("role") == "attacker" and value is True and \
            ctx["state"].battle_map.terrain_at(ctx["attacker_hex"]) == Terrain.HILL:
        return f"{a.name} has Turret Lock: it can't attack from a hill hex"
    return value


@register("can_attack", "collapsible_screen")
def _collapsible_screen(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    a: Unit = ctx["attacker"]
    if ctx.get("role") == "attacker" and value is True and \
            ctx["state"].battle_map.terrain_at(ctx["attacker_hex"]) == Terrain.WATER:
        return f"{a.name} has a Collapsible Screen: it can't attack from a water hex"
    return value


# --- Limited Covering Fire (Covering Fire's memory, short range only) -----------------------
@register("after_attack", "limited_covering_fire")
def _limited_covering_fire(events: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    t: Unit = ctx["target"]
    if ctx.get("role") != "attacker" or not t.is_soldier or ctx["distance"] > 1 or \
            t.side == ctx["attacker"].side:
        return events
    return silence_for_the_turn(events, ab, ctx)


@aura("can_fire_defensively", "limited_covering_fire")
def _limited_covering_silences(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """The silenced Soldiers (the memory Covering Fire keeps too)."""
    return _covering_fire_silences(value, ab, ctx)


# --- Backblast -------------------------------------------------------------------------------
def _turn_set(st: GameState, key: str) -> tuple[Any, ...]:
    got = st.marks.get(key)
    return tuple(got[1]) if got and got[0] == st.turn else ()


def _turn_add(st: GameState, key: str, uid: str) -> None:
    cur = _turn_set(st, key)
    if uid not in cur:
        st.marks[key] = (st.turn, tuple(sorted(cur + (uid,))))


@register("after_attack", "backblast")
def _backblast_fired(events: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") == "attacker" and not ctx.get("secondary"):
        _turn_add(ctx["state"], "backblast", ctx["attacker"].uid)
    return events


@register("can_cover", "backblast")
def _backblast_cover(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") == "target" and \
            ctx["target"].uid in _turn_set(ctx["state"], "backblast"):
        return False
    return value


# --- rerolls ---------------------------------------------------------------------------------
def _reroll(ctx: dict[str, Any], ab: Any, rolls: tuple[int, ...], index: int) -> tuple[int, ...]:
    plan = ctx["plan"]
    a: Unit = ctx["attacker"]
    die = ctx["dice"].d6()
    ok = die >= plan.need
    ctx["events"].append(AbilityRoll(a.uid, ab.name, die, plan.need, ok,
                                     text=f"{a.name}'s {ab.name} rolls a {rolls[index]} again:"
                                          f" {die} ({'a success' if ok else 'no success'})."))
    return rolls[:index] + (die,) + rolls[index + 1:]


@register("attack_rolls", "hardened_veteran")
def _hardened_reroll(rolls: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") != "attacker":
        return rolls
    st: GameState = ctx["state"]
    a: Unit = ctx["attacker"]
    rolls = tuple(rolls)
    need = ctx["plan"].need
    fails = [i for i, r in enumerate(rolls) if r < need]
    if need > 6 or not fails or a.uid in _turn_set(st, "hardened_reroll"):
        return rolls
    _turn_add(st, "hardened_reroll", a.uid)
    return _reroll(ctx, ab, rolls, min(fails, key=lambda i: rolls[i]))


@register("moves_while_disrupted", "hardened_veteran")
@register("moves_while_disrupted", "veteran_guard")
def _moves_disrupted(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    return True if ctx.get("role") == "unit" else value


@register("attack_rolls", "veteran_guard")
def _veteran_guard(rolls: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") != "attacker":
        return rolls
    rolls = tuple(rolls)
    need = ctx["plan"].need
    if need <= 1:
        return rolls
    for _ in range(2):
        if 1 not in rolls:
            break
        rolls = _reroll(ctx, ab, rolls, rolls.index(1))
    return rolls


@register("die_modifier", "veteran_guard")
def _veteran_guard_dice(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    a: Unit = ctx["attacker"]
    if ctx.get("role") == "attacker" and a.disrupted and not (a.is_vehicle and a.damaged):
        return value + 1
    return value


# --- Overheat --------------------------------------------------------------------------------
@register("after_attack", "overheat")
def _overheat(events: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    a: Unit = ctx["attacker"]
    if ctx.get("role") != "attacker" or ctx.get("secondary") or a.destroyed or \
            sum(1 for r in ctx["rolls"] if r == 1) < OVERHEAT_ONES:
        return events
    st: GameState = ctx["state"]
    a.disrupted = True
    _turn_add(st, "overheat", a.uid)
    return list(events) + [
        AbilityUsed(a.uid, ab.name, text=f"{a.name} overheats: three 1s."),
        CounterPlaced(a.uid, DISRUPTED, True, a.uid,
                      text=f"{a.name} gets a face-up Disrupted counter (Overheat: it stays"
                           f" through the next casualty phase).")]


@register("keeps_disruption", "overheat")
def _overheat_keeps(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") == "unit" and ctx["unit"].uid in _turn_set(ctx["state"], "overheat"):
        return True
    return value


# --- HE Round ------------------------------------------------------------------------------
@register("attack_dice", "he_round")
def _he_dice(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") == "attacker" and ctx.get("mode") == ab.id:
        return HE_ROUND_DICE if ctx["target"].is_soldier else None
    return value


@register("can_attack", "he_round")
def _he_allowed(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") != "attacker" or ctx.get("mode") != ab.id or value is not True:
        return value
    if ctx.get("defensive"):
        return "an HE round is not fired defensively"
    if ctx["band"] == "short":
        return "an HE round is fired at medium or long range"
    if ctx["attacker"].uid in _game_set(ctx["state"], "he_round_used"):
        return f"{ctx['attacker'].name} has already fired its HE round (once per game)"
    return value


@register("after_attack", "he_round")
def _he_used(events: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") == "attacker" and ctx.get("mode") == ab.id:
        _game_add(ctx["state"], "he_round_used", ctx["attacker"].uid)
    return events


@register("activation_options", "he_round")
def _he_options(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    st: GameState = ctx["state"]
    u: Unit = ctx["unit"]
    if ctx.get("role") != "unit" or u.acted or not st.phase.is_assault or \
            u.side != st.active_side or st.pending is not None or \
            u.uid in _game_set(st, "he_round_used") or activation.problem(st, u):
        return value
    out = list(value)
    for t in st.units.values():
        if t.on_map and t.side != u.side and t.is_soldier and \
                combat.why_not_attack(st, u.uid, t.uid, mode=ab.id) is None:
            out.append(Attack(u.side, u.uid, t.uid, ab.id))
    return out
