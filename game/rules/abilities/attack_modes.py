"""Abilities that change an attack: its modes (Close Assault, Hand to Hand,
Armor-Piercing Rounds, the hull cannon), its dice, range, success faces, cover and
special results (Flamethrower, Blast, Shrapnel...)."""
from __future__ import annotations

from typing import Any

from .. import combat
from ..cards import SOLDIER, VEHICLE
from ..errors import IllegalAction
from ..events import UnitStopped
from ..hexes import hex_label
from ..state import GameState, Unit
from ..terrain import Terrain
from . import register
from .spec import AbilitySpec, define
from .common import (AbilityRoll, AbilityUsed, FLAMETHROWER_SIXES, HULL_CANNON_DICE, _dot,
                     _game_set, _in_front_arc, _target_impaired)
from .commanders import commander_near


SPECS = define(
    AbilitySpec(
        "close_assault", "Close Assault {n}", True,
        "When this Soldier attacks an enemy Vehicle in its own hex (in its assault phase or"
        " with defensive fire), it may roll {n} attack dice instead of its printed short-range"
        " anti-Vehicle value. That attack ignores cover: the target makes no cover roll."
        " Against Vehicles in other hexes it uses its printed values. Defensive fire has no"
        " choice to make: it uses Close Assault whenever {n} is at least the printed value.",
        value_range=(1, 30), unit_type=SOLDIER),
    AbilitySpec(
        "hand_to_hand", "Hand to Hand {n}", True,
        "When this Soldier attacks an enemy Soldier in its own hex (in its assault phase or"
        " with defensive fire), it may roll {n} attack dice instead of its printed short-range"
        " anti-Soldier value. That attack ignores cover: the target makes no cover roll."
        " Defensive fire uses Hand to Hand whenever {n} is at least the printed value.",
        value_range=(1, 30), unit_type=SOLDIER),
    AbilitySpec(
        "additional_hull_mounted_cannon", "Additional Hull-Mounted Cannon", False,
        "In its own assault phase, as part of the same activation as its normal attack (before"
        " or after it), this Vehicle may make one extra attack with 12 dice at short range,"
        " 10 at medium and 8 at long range. The extra attack may only target an enemy Vehicle"
        " in this Vehicle's front arc (ruling 1); the usual penalties (disrupted, damaged)"
        " apply to it. Not with defensive fire.", unit_type=VEHICLE),
    AbilitySpec(
        "hull_mounted_flamethrower", "Hull-Mounted Flamethrower", False,
        "When this Vehicle attacks a unit at short range (its own hex or an adjacent hex) that"
        " is not behind it, in its assault phase or with defensive fire, the target makes no"
        " cover roll, and if three or more of the attack dice show a natural 6 the target is"
        " destroyed at once, whatever the successes (it is removed right away, not at the"
        " casualty phase, and a moving target's move ends). Behind means the target's hex"
        " centre lies behind the line through this Vehicle's centre square to its facing;"
        " units exactly to its side or in its own hex are not behind it. Units behind it, and"
        " units further away, get an ordinary attack.",
        unit_type=VEHICLE,
        not_in_first_edition="It has no effect on Aircraft (later edition). The printed card's"
                             " lines about Obstacles are not part of Hexfront's rules."),
    AbilitySpec(
        "blast", "Blast", False,
        "When this unit attacks (in its assault phase or with defensive fire) it also attacks"
        " every other unit in the target's hex, friendly units included: roll a separate attack"
        " for each unit with this unit's value against that unit's type at that range, each unit"
        " makes its own cover roll and takes its own hits. Soldiers aboard a transport are"
        " attacked only if the transport has Exposed Transport. With defensive fire the other"
        " units in the hex can only be disrupted (face-up, at once) and only the mover is"
        " stopped.",
        not_in_first_edition="Aircraft are exempt (later edition): an Aircraft in the hex is"
                             " not attacked, and an attack on an Aircraft does not spread."),
    AbilitySpec(
        "bombardment", "Bombardment", False,
        "This unit's attacks ignore cover: its targets never make cover rolls, even when another"
        " ability (Forest Camouflage) would let them succeed automatically (\"can't\" beats"
        " \"can\").",
        not_in_first_edition="It can't attack Aircraft (later edition; the first edition has"
                             " none)."),
    AbilitySpec(
        "extended_range", "Extended Range {n}", True,
        "Against Vehicles, this unit's long range is 5 to {n} hexes instead of 5 to 8, with its"
        " long-range anti-Vehicle value (line of sight still needed). Against Soldiers its long"
        " range stays 5 to 8.", value_range=(9, 20)),
    AbilitySpec(
        "enhanced_range", "Enhanced Range {n}", True,
        "This unit's long range is 5 to {n} hexes instead of 5 to 8, against Soldiers and"
        " Vehicles alike, with its long-range values (line of sight still needed).",
        value_range=(9, 20)),
    AbilitySpec(
        "seasoned_crew", "Seasoned Crew", False,
        "Units this unit attacks suffer -1 on their cover rolls (added to the -1 for an attacker"
        " in the same hex). It applies to defensive fire too."),
    AbilitySpec(
        "inaccurate", "Inaccurate {n}", True,
        "This unit suffers -{n} on each attack die on every attack, defensive fire included.",
        value_range=(1, 3)),
    AbilitySpec(
        "shrapnel", "Shrapnel {n}", True,
        "When this unit attacks a Soldier, each success it rolls counts as {n} successes.",
        value_range=(2, 4)),
    AbilitySpec(
        "ruthless", "Ruthless", False,
        "This unit gets +1 on each attack die when it attacks a unit that is disrupted or"
        " damaged (a face-up Disrupted or Damaged counter), in its assault phase or with"
        " defensive fire."),
    AbilitySpec(
        "coordinated_fire", "Coordinated Fire", False,
        "While a friendly commander is adjacent to this Soldier (in its hex or the next hex),"
        " this Soldier rolls one extra attack die on each attack, in its assault phase and with"
        " defensive fire. A disrupted commander counts too: this is the Soldier's own ability,"
        " not a commander ability. Several commanders still give one die.",
        unit_type=SOLDIER),
    AbilitySpec(
        "surprise_fire", "Surprise Fire", False,
        "Whenever this unit attacks from a forest hex (in its assault phase or with defensive"
        " fire), it rolls one extra attack die. From any other hex its attacks are normal."),
    AbilitySpec(
        "armor_piercing_rounds", "Armor-Piercing Rounds", False,
        "Once per game, in its own assault phase, before rolling an attack against an enemy"
        " Vehicle, this unit may declare Armor-Piercing Rounds: if that attack scores exactly"
        " two hits it scores three instead. The ability is used up when declared, whatever the"
        " result. Not with defensive fire (which can only disrupt)."),
    AbilitySpec(
        "fixed_howitzer", "Fixed Howitzer", False,
        "This Vehicle can only attack units whose hex centre lies in its front arc (ruling 1),"
        " in its assault phase and with defensive fire. A unit in its own hex is never in its"
        " front arc.", unit_type=VEHICLE),
    AbilitySpec(
        "no_turret", "No Turret", False,
        "This Vehicle can attack an enemy Vehicle only when that Vehicle's hex centre lies in"
        " its front arc (ruling 1: not exactly to its side, not in its own hex), in its assault"
        " phase and with defensive fire. Its attacks on Soldiers are not limited. Nothing lets"
        " it turn before attacking: a unit that attacks instead of moving keeps its facing."
        , unit_type=VEHICLE),
    AbilitySpec(
        "guard_crew", "Guard Crew", False,
        "After this Vehicle rolls its attack dice (in its assault phase or with defensive"
        " fire), one die that came up 1 may be rolled again; the new result counts. Only one"
        " die is rolled again per attack. Hexfront always rerolls a 1 that is not a success.",
        unit_type=VEHICLE),
)


def _printed(ctx: dict[Any, Any]) -> int | None:
    a: Unit = ctx["attacker"]
    return a.card.dice(ctx["target"].card.type, ctx["band"])


def _mode_used(ab: Any, ctx: dict[str, Any], target_type: str) -> bool:
    """Close Assault / Hand to Hand applies to this attack: chosen as the mode, or,
    with defensive fire (which has no mode), automatically when it is at least as
    good as the printed value."""
    if ctx.get("role") != "attacker" or ctx["target"].card.type != target_type \
            or ctx["distance"] != 0:
        return False
    if ctx.get("mode") == ab.id:
        return True
    if ctx.get("defensive"):
        printed = _printed(ctx)
        return printed is None or ab.value >= printed
    return False


@register("attack_dice", "close_assault")
def _close_assault_dice(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    return ab.value if _mode_used(ab, ctx, VEHICLE) else value


@register("attack_dice", "hand_to_hand")
def _hand_to_hand_dice(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    return ab.value if _mode_used(ab, ctx, SOLDIER) else value


@register("can_cover", "close_assault")
@register("can_cover", "hand_to_hand")
def _close_combat_cover(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    tt = VEHICLE if ab.id == "close_assault" else SOLDIER
    return False if _mode_used(ab, ctx, tt) else value


@register("can_attack", "close_assault")
@register("can_attack", "hand_to_hand")
def _close_combat_allowed(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") != "attacker" or ctx.get("mode") != ab.id:
        return value
    tt = VEHICLE if ab.id == "close_assault" else SOLDIER
    if ctx["target"].card.type != tt or ctx["distance"] != 0:
        return (f"{ab.name.rsplit(' ', 1)[0]} attacks an enemy {tt} in the unit's own hex")
    return value


@register("range_band", "extended_range")
def _extended_range(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") == "attacker" and value is None and ctx["target"].is_vehicle \
            and ctx["distance"] <= ab.value:
        return "long"
    return value


@register("range_band", "enhanced_range")
def _enhanced_range(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") == "attacker" and value is None and ctx["distance"] <= ab.value:
        return "long"
    return value


@register("attack_dice", "coordinated_fire")
def _coordinated_fire(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") == "attacker" and value and commander_near(
            ctx["state"], ctx["attacker"], include_self=False, undisrupted=False):
        return value + 1
    return value


@register("attack_dice", "surprise_fire")
def _surprise_fire(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """Surprise Fire: one extra die on an attack made from a forest hex."""
    if ctx.get("role") == "attacker" and value and \
            ctx["state"].battle_map.terrain_at(ctx["attacker_hex"]) == Terrain.FOREST:
        return value + 1
    return value


@register("attack_dice", "additional_hull_mounted_cannon")
def _hull_cannon_dice(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") == "attacker" and ctx.get("mode") == ab.id:
        return HULL_CANNON_DICE.get(ctx["band"]) if ctx["target"].is_vehicle else None
    return value


@register("can_attack", "additional_hull_mounted_cannon")
def _hull_cannon_allowed(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") != "attacker" or ctx.get("mode") != ab.id:
        return value
    if ctx.get("defensive"):
        return "the hull-mounted cannon does not fire defensively"
    a = ctx["attacker"]
    if not _in_front_arc(ctx["attacker_hex"], a.facing, ctx["target_hex"]):
        return "the hull-mounted cannon fires only at Vehicles in the front arc"
    return value


@register("can_attack", "armor_piercing_rounds")
def _apr_allowed(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") != "attacker" or ctx.get("mode") != ab.id:
        return value
    if ctx.get("defensive"):
        return "Armor-Piercing Rounds are not used with defensive fire"
    if not ctx["target"].is_vehicle:
        return "Armor-Piercing Rounds are fired only at Vehicles"
    if ctx["attacker"].uid in _game_set(ctx["state"], "apr_used"):
        return "Armor-Piercing Rounds are already used up"
    return value


@register("hits")
def _apr_hits(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """Armor-Piercing Rounds (a rule hook so it sees the hits after the target's
    armor abilities): exactly two hits become three."""
    if ctx.get("mode") == "armor_piercing_rounds" and value == 2 and not ctx.get("defensive"):
        return 3
    return value


@register("can_attack", "fixed_howitzer")
def _front_arc_only(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") != "attacker":
        return value
    a = ctx["attacker"]
    if not _in_front_arc(ctx["attacker_hex"], a.facing, ctx["target_hex"]):
        return f"{a.name} can only attack units in its front arc ({ab.name})"
    return value


@register("can_attack", "no_turret")
def _no_turret(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """No Turret: enemy Vehicles only in the front arc; Soldiers anywhere."""
    if ctx.get("role") != "attacker" or not ctx["target"].is_vehicle:
        return value
    a = ctx["attacker"]
    if not _in_front_arc(ctx["attacker_hex"], a.facing, ctx["target_hex"]):
        return f"{a.name} can only attack Vehicles in its front arc ({ab.name})"
    return value


@register("can_cover", "bombardment")
def _bombardment(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    return False if ctx.get("role") == "attacker" else value


@register("can_attack", "bombardment")
def _bombardment_not_aircraft(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """The printed card: a unit with Bombardment can't attack Aircraft (later edition;
    the first edition has none)."""
    if ctx.get("role") == "attacker" and ctx["target"].card.is_aircraft:
        return f"{ctx['attacker'].name} can't attack Aircraft ({ab.name})"
    return value


def _flamethrower_applies(ctx: dict[str, Any]) -> bool:
    """Short range (0 or 1 hex) and the target not behind the Vehicle (its hex centre
    not in the rear half-plane; exactly side-on and the same hex are not behind)."""
    if ctx.get("role") != "attacker" or ctx["distance"] > 1 or ctx.get("mode") != "normal":
        return False
    t = ctx.get("target")
    if t is not None and t.card.is_aircraft:   # the printed card: no effect on Aircraft
        return False
    ah, th = ctx["attacker_hex"], ctx["target_hex"]
    return ah == th or _dot(ah, ctx["attacker"].facing, th) >= 0


@register("can_cover", "hull_mounted_flamethrower")
def _flamethrower_cover(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    return False if _flamethrower_applies(ctx) else value


@register("after_attack", "hull_mounted_flamethrower")
def _flamethrower_kill(events: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """Three natural 6s at short range: the target is destroyed at once (also with
    defensive fire, which then ends the move)."""
    if ctx.get("secondary") or not _flamethrower_applies(ctx):
        return events
    return flame_sixes_destroy(events, ab, ctx)


def flame_sixes_destroy(events: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """A flamethrower's natural 6s (FLAMETHROWER_SIXES of them): the target is destroyed
    at once, and a defensive shot's target is stopped where it is (the hull-mounted
    flamethrower here, the Flamethrower of the later sets in roster_combat)."""
    t: Unit = ctx["target"]
    sixes = sum(1 for r in ctx["rolls"] if r == 6)
    if sixes < FLAMETHROWER_SIXES or t.destroyed:
        return events
    out = list(events)
    out.append(AbilityUsed(ctx["attacker"].uid, ab.name,
                           text=f"{sixes} natural 6s: the flamethrower destroys {t.name} "
                                f"at once."))
    out.extend(combat._destroy(ctx["state"], t))
    if ctx.get("defensive") and not any(isinstance(e, UnitStopped) and e.uid == t.uid
                                        for e in out):
        out.append(UnitStopped(t.uid, ctx["target_hex"], "destroyed by the flamethrower",
                               ctx["attacker"].uid, ctx.get("stage"),
                               text=f"{t.name} is destroyed in {hex_label(ctx['target_hex'])}."))
    return out


@register("attack_rolls", "guard_crew")
def _guard_crew(rolls: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """Guard Crew: one die that came up 1 (and is not a success) is rolled again."""
    if ctx.get("role") != "attacker":
        return rolls
    plan = ctx["plan"]
    rolls = tuple(rolls)
    if plan.need <= 1 or 1 not in rolls:
        return rolls
    a: Unit = ctx["attacker"]
    die = ctx["dice"].d6()
    ok = die >= plan.need
    ctx["events"].append(AbilityRoll(a.uid, ab.name, die, plan.need, ok,
                                     text=f"{a.name}'s Guard Crew rolls a 1 again: {die} "
                                          f"({'a success' if ok else 'no success'})."))
    i = rolls.index(1)
    return rolls[:i] + (die,) + rolls[i + 1:]


@register("cover_need", "seasoned_crew")
def _seasoned_crew(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    return value + 1 if ctx.get("role") == "attacker" else value


@register("die_modifier", "inaccurate")
def _inaccurate(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    return value - ab.value if ctx.get("role") == "attacker" else value


@register("die_modifier", "ruthless")
def _ruthless(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    return value + 1 if ctx.get("role") == "attacker" and _target_impaired(ctx) else value


@register("hits", "shrapnel")
def _shrapnel(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") == "attacker" and ctx["target"].is_soldier:
        return combat.hits_for(ctx["successes"] * ab.value, ctx["defense"])
    return value


@register("after_attack", "blast")
def _blast(events: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """Blast: a separate attack on every other unit in the target's hex, friendly
    units included (defensive fire: they can only be disrupted; only the mover stops).
    Aircraft are exempt (the printed card; later edition): an Aircraft in the hex is not
    attacked, and an attack on an Aircraft does not spread to the units below it."""
    if ctx.get("role") != "attacker" or ctx.get("secondary") or ctx["target"].card.is_aircraft:
        return events
    st: GameState = ctx["state"]
    a: Unit = ctx["attacker"]
    t: Unit = ctx["target"]
    plan = ctx["plan"]
    out = list(events)
    for o in list(st.units.values()):
        if o is a or o is t or o.destroyed or o.hex != plan.target_hex or o.card.is_aircraft:
            continue
        if o.boarded:
            c = st.units.get(o.carrier or "")
            if c is None or not c.card.has("exposed_transport"):
                continue
        try:
            sub = combat.resolve_attack(st, a.uid, o.uid, ctx["dice"], defensive=plan.defensive,
                                        secondary=True)
        except IllegalAction:
            continue
        out.append(AbilityUsed(a.uid, ab.name, text=f"Blast: {a.name} also attacks "
                                                    f"{o.name} in {hex_label(o.hex)}."))
        out.extend(e for e in sub if not (isinstance(e, UnitStopped) and e.uid == o.uid))
    return out
