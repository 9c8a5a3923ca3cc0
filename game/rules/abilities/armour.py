"""Abilities of the target: its defense, armour and cover (Sideskirts, Heavy Armor,
Superior Armor, Open Back, Forest Camouflage, Highly Flammable...)."""
from __future__ import annotations

from .. import combat
from ..cards import SOLDIER, VEHICLE
from ..state import DAMAGED, DESTROYED, Unit
from ..terrain import Terrain
from . import register
from .spec import AbilitySpec, define
from .common import AbilityRoll, AbilityUsed, HIGHLY_FLAMMABLE_NEED, _attack_front, _dot, _game_add, _game_set


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
        "An attack on this Vehicle scores two hits only if its successes reach the defense plus"
        " {n} (normally the defense plus 1); successes at least equal to the defense but below"
        " that score one hit. Three hits still need double the defense.",
        value_range=(1, 5), unit_type=VEHICLE),
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
        "Whenever this Vehicle receives a Damaged counter, the attacking player rolls one die:"
        " on 5 or 6 that counter becomes a Destroyed counter instead.", unit_type=VEHICLE),
    AbilitySpec(
        "battlefield_awareness", "Battlefield Awareness", False,
        "Attacks from a unit whose hex centre lies exactly on the line through this Vehicle's"
        " hex centre square to its facing (\"directly to the right or left\", ruling 1) are"
        " against its front defense instead of its rear defense. Attacks from behind that line"
        " or from its own hex are still against the rear.", unit_type=VEHICLE),
)


@register("defense", "sideskirts")
def _sideskirts(value, ab, ctx):
    if ctx.get("role") == "target" and ctx["attacker"].card.has("close_assault"):
        return value + 1
    return value


@register("attack_dice", "open_back")
def _open_back(value, ab, ctx):
    """The attacker rolls the better of its anti-Soldier and anti-Vehicle values
    against the rear (more dice never hurt, so the choice is made for it)."""
    if ctx.get("role") != "target" or ctx.get("mode") not in ("normal",
                                                             "armor_piercing_rounds"):
        return value
    if _attack_front(ctx) is not False:
        return value
    a: Unit = ctx["attacker"]
    alt = a.card.dice(SOLDIER, ctx["band"])
    printed = a.card.dice(VEHICLE, ctx["band"]) or 0
    if alt and alt > printed:
        return (value or 0) - printed + alt
    return value


@register("can_cover", "tall_silhouette")
def _tall_silhouette(value, ab, ctx):
    return False if ctx.get("role") == "target" else value


@register("cover_need")
def _forest_camouflage(value, ab, ctx):
    """Forest Camouflage (a rule hook, so it comes after every +1): automatic
    success against long-range attacks in a forest."""
    t: Unit = ctx["target"]
    if t.card.has("forest_camouflage") and ctx.get("band") == "long" and \
            ctx["state"].battle_map.terrain_at(ctx["target_hex"]) == Terrain.FOREST:
        return 1
    return value


@register("hits", "superior_armor")
def _superior_armor(value, ab, ctx):
    if ctx.get("role") == "target" and value == 2 and \
            ctx["successes"] < ctx["defense"] + ab.value:
        return 1
    return value


@register("hits", "superior_frontal_armor")
def _superior_frontal_armor(value, ab, ctx):
    if ctx.get("role") == "target" and ctx.get("front") is True and value == 2 and \
            ctx["successes"] < ctx["defense"] + ab.value:
        return 1
    return value


@register("front", "battlefield_awareness")
def _battlefield_awareness(value, ab, ctx):
    if ctx.get("role") != "target" or value:
        return value
    th, ah = ctx["target_hex"], ctx["attacker_hex"]
    if th != ah and _dot(th, ctx.get("facing", ctx["target"].facing), ah) == 0:
        return True
    return value


@register("counters", "heavy_armor")
def _heavy_armor(new, ab, ctx):
    t: Unit = ctx["target"]
    if ctx.get("role") != "target" or DAMAGED not in new or \
            t.uid in _game_set(ctx["state"], "heavy_used"):
        return new
    i = new.index(DAMAGED)
    prefix = list(new[:i])
    rest = max(0, ctx["hits"] - i - 1)
    return prefix + combat.counters_for(True, t.damaged, list(t.pending) + prefix, rest)


@register("attack_result", "heavy_armor")
def _heavy_armor_used(new, ab, ctx):
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
def _highly_flammable(new, ab, ctx):
    if ctx.get("role") != "target" or DAMAGED not in new:
        return new
    t: Unit = ctx["target"]
    die = ctx["dice"].d6()
    ok = die >= HIGHLY_FLAMMABLE_NEED
    ctx["events"].append(AbilityRoll(t.uid, ab.name, die, HIGHLY_FLAMMABLE_NEED, ok,
                                     text=f"{t.name} is Highly Flammable: rolls {die} "
                                          f"(5+ burns): "
                                          f"{'the Damaged counter becomes Destroyed' if ok else 'no fire'}."))
    if ok:
        burnt = [DESTROYED if c == DAMAGED else c for c in new]
        return burnt[:burnt.index(DESTROYED) + 1]       # nothing follows a Destroyed
    return new
