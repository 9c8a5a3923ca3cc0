"""Abilities of the target: its defense, armour and cover (Sideskirts, Heavy Armor,
Superior Armor, Open Back, Forest Camouflage, Tall Silhouette, Highly Flammable)."""
from __future__ import annotations

from typing import Any

from .. import combat
from ..cards import SOLDIER, VEHICLE
from ..state import DAMAGED, DESTROYED, Unit
from ..terrain import Terrain
from . import register
from .spec import AbilitySpec, define
from .common import AbilityRoll, AbilityUsed, HIGHLY_FLAMMABLE_NEED, _attack_front, _game_add, _game_set


SPECS = define(
    AbilitySpec(
        "sideskirts", "Sideskirts", False,
        "Both of this Vehicle's defense values are 1 higher against any attack made by a unit"
        " that has Close Assault, whichever attack values that unit uses.", unit_type=VEHICLE),
    AbilitySpec(
        "heavy_armor", "Heavy Armor", False,
        "The first Damaged counter this Vehicle would receive in the game is not placed (a"
        " Disrupted counter from the same attack still is); count further hits as if it had"
        " never been there, so the next one is a Damaged counter again. Later Damaged counters"
        " work normally; Destroyed counters are never ignored.", unit_type=VEHICLE),
    AbilitySpec(
        "superior_armor", "Superior Armor {n}", True,
        "An attack on this Vehicle (or, in the later edition, Aircraft) scores two hits only if"
        " its successes reach the defense plus {n} (normally the defense plus 1); successes at"
        " least equal to the defense but below that score one hit. Three hits still need"
        " double the defense.",
        value_range=(1, 5)),
    AbilitySpec(
        "superior_frontal_armor", "Superior Frontal Armor {n}", True,
        "Like Superior Armor {n}, but only against attacks on this Vehicle's front defense: such"
        " an attack scores two hits only if its successes reach the front defense plus {n}."
        " Attacks on its rear defense are normal.", value_range=(1, 5), unit_type=VEHICLE),
    AbilitySpec(
        "open_back", "Open Back", False,
        "When an enemy attacks this Vehicle's rear defense, the attacker may roll its anti-Soldier"
        " value for that range instead of its anti-Vehicle value (its choice, before rolling;"
        " Hexfront always takes the larger, since more dice are never worse)."
        " The attack is still against the rear defense and the target is still a Vehicle.",
        unit_type=VEHICLE),
    AbilitySpec(
        "forest_camouflage", "Forest Camouflage", False,
        "While this unit is in a forest hex it automatically succeeds at its cover rolls against"
        " long-range attacks (no die is rolled). Attacks that ignore cover still ignore it."),
    AbilitySpec(
        "tall_silhouette", "Tall Silhouette", False,
        "This Vehicle always fails its cover rolls (none is rolled), in every terrain.",
        unit_type=VEHICLE),
    AbilitySpec(
        "highly_flammable", "Highly Flammable", False,
        "Each time an attack gives this Vehicle a Damaged counter, roll one die: on 3 or"
        " higher the Vehicle is destroyed at once (removed right away, so it makes no attack"
        " later in that phase). On 1 or 2 the Damaged counter stays. No die is rolled when the"
        " same attack destroys it anyway.", unit_type=VEHICLE),
)


@register("defense", "sideskirts")
def _sideskirts(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") == "target" and ctx["attacker"].card.has("close_assault"):
        return value + 1
    return value


@register("attack_dice", "open_back")
def _open_back(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """The attacker rolls the better of its anti-Soldier and anti-Vehicle values
    against the rear (more dice never hurt, so the choice is made for it)."""
    if ctx.get("role") != "target" or ctx.get("mode") not in ("normal",
                                                             "armor_piercing_rounds"):
        return value
    if _attack_front(ctx) is not False:
        return value
    return better_of_printed_dice(value, ctx)


def better_of_printed_dice(value: Any, ctx: dict[str, Any]) -> Any:
    """The attack's dice with the attacker's anti-Soldier value in place of its
    anti-Vehicle one at this range, when that is more (Open Back, Open/Exposed Crew)."""
    a: Unit = ctx["attacker"]
    alt = a.card.dice(SOLDIER, ctx["band"])
    printed = a.card.dice(VEHICLE, ctx["band"]) or 0
    if alt and alt > printed:
        return (value or 0) - printed + alt
    return value


@register("can_cover", "tall_silhouette")
def _tall_silhouette(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    return False if ctx.get("role") == "target" else value


@register("cover_need")
def _forest_camouflage(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """Forest Camouflage (a rule hook, so it comes after every +1): automatic
    success against long-range attacks in a forest."""
    t: Unit = ctx["target"]
    if t.card.has("forest_camouflage") and ctx.get("band") == "long" and \
            ctx["state"].battle_map.terrain_at(ctx["target_hex"]) == Terrain.FOREST:
        return 1
    return value


@register("hits", "superior_armor")
def _superior_armor(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") == "target" and value == 2 and \
            ctx["successes"] < ctx["defense"] + ab.value:
        return 1
    return value


@register("hits", "superior_frontal_armor")
def _superior_frontal_armor(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") == "target" and ctx.get("front") is True and value == 2 and \
            ctx["successes"] < ctx["defense"] + ab.value:
        return 1
    return value


@register("counters", "heavy_armor")
def _heavy_armor(new: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    t: Unit = ctx["target"]
    if ctx.get("role") != "target" or DAMAGED not in new or \
            t.uid in _game_set(ctx["state"], "heavy_used"):
        return new
    i = new.index(DAMAGED)
    prefix = list(new[:i])
    rest = max(0, ctx["hits"] - i - 1)
    return prefix + combat.counters_for(True, t.damaged, list(t.pending) + prefix, rest)


@register("attack_result", "heavy_armor")
def _heavy_armor_used(new: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    t: Unit = ctx["target"]
    if ctx.get("role") != "target" or t.uid in _game_set(ctx["state"], "heavy_used"):
        return new
    base = [] if ctx["hits"] <= 0 else (combat.cover_limited_counters(t.pending)
                                        if ctx["covered"] else
                                        combat.counters_for(True, t.damaged, t.pending,
                                                            ctx["hits"]))
    if DAMAGED in base:
        _game_add(ctx["state"], "heavy_used", t.uid)
        ctx["events"].append(AbilityUsed(t.uid, ab.name,
                                         text=f"{t.name}'s Heavy Armor ignores its first "
                                              f"Damaged counter."))
    return new


@register("attack_result", "highly_flammable")
def _highly_flammable(new: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """A Damaged counter: roll; on 3+ the Vehicle is destroyed at once (no counters
    are placed: it is gone)."""
    t: Unit = ctx["target"]
    if ctx.get("role") != "target" or DAMAGED not in new or DESTROYED in new \
            or DESTROYED in t.pending or t.destroyed:
        return new
    die = ctx["dice"].d6()
    ok = die >= HIGHLY_FLAMMABLE_NEED
    ctx["events"].append(AbilityRoll(
        t.uid, ab.name, die, HIGHLY_FLAMMABLE_NEED, ok,
        text=f"{t.name} takes a Damaged counter and is Highly Flammable: rolls {die} "
             f"({HIGHLY_FLAMMABLE_NEED}+ burns): "
             f"{'it is destroyed at once' if ok else 'no fire'}."))
    if ok:
        ctx["events"].extend(combat._destroy(ctx["state"], t))
        return []
    return new
