"""Abilities that change an attack: its modes (Close Assault, Hand to Hand,
Armor-Piercing Rounds, the hull cannon), its dice, range, success faces, cover and
special results (Flamethrower, Blast, Shrapnel...)."""
from __future__ import annotations

from .. import combat
from ..cards import SOLDIER, VEHICLE
from ..errors import IllegalAction
from ..events import UnitStopped
from ..hexes import hex_label
from ..state import DESTROYED, GameState, Unit
from . import register
from .spec import AbilitySpec, define
from .common import AbilityUsed, FLAMETHROWER_SIXES, HULL_CANNON_DICE, _game_set, _in_front_arc, _phase_set, _target_impaired
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
        "When this Vehicle attacks a unit at short range (its own hex or an adjacent hex) whose"
        " hex centre lies in its front arc (ruling 1; a unit in its own hex is behind it), the"
        " attack ignores cover, and if three or more of its attack dice show a natural 6 the"
        " target gets a Destroyed counter whatever the successes. With defensive fire only the"
        " ignoring of cover applies (defensive fire can only disrupt). Units behind it get an"
        " ordinary attack.",
        unit_type=VEHICLE,
        not_in_first_edition="The printed card's lines about Aircraft and Obstacles do not"
                             " apply: first edition has neither."),
    AbilitySpec(
        "blast", "Blast", False,
        "When this unit attacks (in its assault phase or with defensive fire) it also attacks"
        " every other unit in the target's hex, friendly units included: roll a separate attack"
        " for each unit with this unit's value against that unit's type at that range, each unit"
        " makes its own cover roll and takes its own hits. Soldiers aboard a transport are"
        " attacked only if the transport has Exposed Transport. With defensive fire the other"
        " units in the hex can only be disrupted (face-up, at once) and only the mover is"
        " stopped.",
        not_in_first_edition="The printed card's exception for Aircraft does not apply: first"
                             " edition has no Aircraft."),
    AbilitySpec(
        "bombardment", "Bombardment", False,
        "This unit's attacks ignore cover: its targets never make cover rolls, even when another"
        " ability (Forest Camouflage) would let them succeed automatically (\"can't\" beats"
        " \"can\").",
        not_in_first_edition="The printed card's rule that it can't attack Aircraft does not"
                             " apply: first edition has no Aircraft."),
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
        "While a friendly commander that is not disrupted is adjacent to this Soldier (in its"
        " hex or the next hex), this Soldier rolls one extra attack die on each attack, in its"
        " assault phase and with defensive fire. Several commanders still give one die.",
        unit_type=SOLDIER),
    AbilitySpec(
        "overlapping_fire", "Overlapping Fire", False,
        "In its own assault phase, when this unit attacks an enemy unit that another friendly"
        " unit has already attacked earlier in the same phase, it gets +1 on each attack die."),
    AbilitySpec(
        "surprise_fire", "Surprise Fire", False,
        "The first attack this unit makes in the game (in its assault phase or with defensive"
        " fire) gets +1 on each attack die. Later attacks are normal."),
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
        "This Vehicle can only attack units whose hex centre lies in its front arc (ruling 1)."
        " In its own assault phase, when it is activated to attack, it may first turn to any"
        " facing in its hex; that turn is part of the attack, is not a move and provokes no"
        " defensive fire. With defensive fire it can't turn first.", unit_type=VEHICLE),
    AbilitySpec(
        "command_dependent", "Command Dependent", False,
        "Unless a friendly commander that is not disrupted is adjacent to this unit (in its hex"
        " or the next hex), this unit suffers -1 on each attack die."),
    AbilitySpec(
        "guard_crew", "Guard Crew", False,
        "Being damaged does not give this Vehicle the -1 penalty on attack dice (it still loses"
        " 1 speed and 1 defense). Being disrupted still gives -1 on attack dice.",
        unit_type=VEHICLE),
)


def _printed(ctx: dict) -> int | None:
    a: Unit = ctx["attacker"]
    return a.card.dice(ctx["target"].card.type, ctx["band"])


def _mode_used(ab, ctx, target_type: str) -> bool:
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
def _close_assault_dice(value, ab, ctx):
    return ab.value if _mode_used(ab, ctx, VEHICLE) else value


@register("attack_dice", "hand_to_hand")
def _hand_to_hand_dice(value, ab, ctx):
    return ab.value if _mode_used(ab, ctx, SOLDIER) else value


@register("can_cover", "close_assault")
@register("can_cover", "hand_to_hand")
def _close_combat_cover(value, ab, ctx):
    tt = VEHICLE if ab.id == "close_assault" else SOLDIER
    return False if _mode_used(ab, ctx, tt) else value


@register("can_attack", "close_assault")
@register("can_attack", "hand_to_hand")
def _close_combat_allowed(value, ab, ctx):
    if ctx.get("role") != "attacker" or ctx.get("mode") != ab.id:
        return value
    tt = VEHICLE if ab.id == "close_assault" else SOLDIER
    if ctx["target"].card.type != tt or ctx["distance"] != 0:
        return (f"{ab.name.rsplit(' ', 1)[0]} attacks an enemy {tt} in the unit's own hex")
    return value


@register("range_band", "extended_range")
def _extended_range(value, ab, ctx):
    if ctx.get("role") == "attacker" and value is None and ctx["target"].is_vehicle \
            and ctx["distance"] <= ab.value:
        return "long"
    return value


@register("range_band", "enhanced_range")
def _enhanced_range(value, ab, ctx):
    if ctx.get("role") == "attacker" and value is None and ctx["distance"] <= ab.value:
        return "long"
    return value


@register("attack_dice", "coordinated_fire")
def _coordinated_fire(value, ab, ctx):
    if ctx.get("role") == "attacker" and value and commander_near(ctx["state"], ctx["attacker"],
                                                                  include_self=False):
        return value + 1
    return value


@register("attack_dice", "additional_hull_mounted_cannon")
def _hull_cannon_dice(value, ab, ctx):
    if ctx.get("role") == "attacker" and ctx.get("mode") == ab.id:
        return HULL_CANNON_DICE.get(ctx["band"]) if ctx["target"].is_vehicle else None
    return value


@register("can_attack", "additional_hull_mounted_cannon")
def _hull_cannon_allowed(value, ab, ctx):
    if ctx.get("role") != "attacker" or ctx.get("mode") != ab.id:
        return value
    if ctx.get("defensive"):
        return "the hull-mounted cannon does not fire defensively"
    a = ctx["attacker"]
    if not _in_front_arc(ctx["attacker_hex"], a.facing, ctx["target_hex"]):
        return "the hull-mounted cannon fires only at Vehicles in the front arc"
    return value


@register("can_attack", "armor_piercing_rounds")
def _apr_allowed(value, ab, ctx):
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
def _apr_hits(value, ab, ctx):
    """Armor-Piercing Rounds (a rule hook so it sees the hits after the target's
    armor abilities): exactly two hits become three."""
    if ctx.get("mode") == "armor_piercing_rounds" and value == 2 and not ctx.get("defensive"):
        return 3
    return value


@register("can_attack", "fixed_howitzer")
@register("can_attack", "no_turret")
def _front_arc_only(value, ab, ctx):
    if ctx.get("role") != "attacker":
        return value
    a = ctx["attacker"]
    if not _in_front_arc(ctx["attacker_hex"], a.facing, ctx["target_hex"]):
        return f"{a.name} can only attack units in its front arc ({ab.name})"
    return value


@register("can_cover", "bombardment")
def _bombardment(value, ab, ctx):
    return False if ctx.get("role") == "attacker" else value


def _flamethrower_applies(ctx) -> bool:
    return (ctx.get("role") == "attacker" and ctx["distance"] == 1
            and ctx.get("mode") == "normal"
            and _in_front_arc(ctx["attacker_hex"], ctx["attacker"].facing, ctx["target_hex"]))


@register("can_cover", "hull_mounted_flamethrower")
def _flamethrower_cover(value, ab, ctx):
    return False if _flamethrower_applies(ctx) else value


@register("attack_result", "hull_mounted_flamethrower")
def _flamethrower_result(new, ab, ctx):
    if ctx.get("defensive") or not _flamethrower_applies(ctx):
        return new
    sixes = sum(1 for r in ctx["rolls"] if r == 6)
    t = ctx["target"]
    if sixes >= FLAMETHROWER_SIXES and DESTROYED not in new and DESTROYED not in t.pending:
        ctx["events"].append(AbilityUsed(ctx["attacker"].uid, ab.name,
                                         text=f"{sixes} natural 6s: the flamethrower "
                                              f"destroys {t.name}."))
        return list(new) + [DESTROYED]
    return new


@register("cover_need", "seasoned_crew")
def _seasoned_crew(value, ab, ctx):
    return value + 1 if ctx.get("role") == "attacker" else value


@register("die_modifier", "inaccurate")
def _inaccurate(value, ab, ctx):
    return value - ab.value if ctx.get("role") == "attacker" else value


@register("die_modifier", "ruthless")
def _ruthless(value, ab, ctx):
    return value + 1 if ctx.get("role") == "attacker" and _target_impaired(ctx) else value


@register("die_modifier", "guard_crew")
def _guard_crew(value, ab, ctx):
    a: Unit = ctx["attacker"]
    if ctx.get("role") == "attacker" and a.damaged and not a.disrupted:
        return value + 1
    return value


@register("die_modifier", "command_dependent")
def _command_dependent(value, ab, ctx):
    if ctx.get("role") == "attacker" and not commander_near(ctx["state"], ctx["attacker"],
                                                            include_self=False):
        return value - 1
    return value


@register("die_modifier", "overlapping_fire")
def _overlapping_fire(value, ab, ctx):
    if ctx.get("role") != "attacker" or ctx.get("defensive"):
        return value
    st: GameState = ctx["state"]
    a, t = ctx["attacker"], ctx["target"]
    if not st.phase.is_assault or a.side != st.active_side:
        return value
    if any(tg == t.uid and att != a.uid for att, tg in _phase_set(st, "attacked")):
        return value + 1
    return value


@register("die_modifier", "surprise_fire")
def _surprise_fire(value, ab, ctx):
    if ctx.get("role") == "attacker" and ctx["attacker"].uid not in \
            _game_set(ctx["state"], "fired"):
        return value + 1
    return value


@register("hits", "shrapnel")
def _shrapnel(value, ab, ctx):
    if ctx.get("role") == "attacker" and ctx["target"].is_soldier:
        return combat.hits_for(ctx["successes"] * ab.value, ctx["defense"])
    return value


@register("after_attack", "blast")
def _blast(events, ab, ctx):
    """Blast: a separate attack on every other unit in the target's hex, friendly
    units included (defensive fire: they can only be disrupted; only the mover stops)."""
    if ctx.get("role") != "attacker" or ctx.get("secondary"):
        return events
    st: GameState = ctx["state"]
    a: Unit = ctx["attacker"]
    t: Unit = ctx["target"]
    plan = ctx["plan"]
    out = list(events)
    for o in list(st.units.values()):
        if o is a or o is t or o.destroyed or o.hex != plan.target_hex:
            continue
        if o.boarded:
            c = st.units.get(o.carrier)
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
