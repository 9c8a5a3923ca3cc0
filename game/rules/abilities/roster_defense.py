"""More defense, cover and aura abilities of the whole roster (issue 19): Elan,
Terrain Expert, Defensive Preparation, Elusive, Subtle, Urban Combat,
Low Silhouette, Intimidation, Stalwart, Tenacity, Improved Accuracy, Command
Leadership, Awareness, Command Awareness, Dismounted Attack."""
from __future__ import annotations

from typing import Any

from ..cards import VEHICLE
from ..state import GameState, Unit
from ..terrain import Terrain
from . import register
from .roster_common import aura
from .spec import AbilitySpec, _COMMANDER_TAIL, define
from .common import _is_artillery

#: Low Silhouette: the cover roll it gets where the terrain gives none
LOW_SILHOUETTE_NEED = 6


def _adjacent_commander(st: GameState, u: Unit, ability_id: str, *, within: int = 1,
                        exclude_self: bool = True) -> Unit | None:
    """A non-disrupted friendly unit with ``ability_id`` within ``within`` hexes of ``u``."""
    if u.hex is None:
        return None
    for c in st.units.values():
        if (c is u and exclude_self) or c.side != u.side or not c.on_map or c.disrupted \
                or c.hex is None or not c.card.has(ability_id):
            continue
        if c.hex.distance(u.hex) <= within:
            return c
    return None


SPECS = define(
    AbilitySpec(
        "elan", "Elan", False,
        "Friendly Soldiers adjacent to this commander (in its hex or the next hex, the"
        " commander itself excluded) have both defense values 1 higher against defensive-fire"
        " attacks." + _COMMANDER_TAIL, commander=True),
    AbilitySpec(
        "terrain_expert", "Terrain Expert", False,
        "Friendly Soldiers adjacent to this commander (in its hex or the next hex, the"
        " commander itself excluded) have both defense values 1 higher against long-range"
        " attacks (5 hexes or more)." + _COMMANDER_TAIL, commander=True),
    AbilitySpec(
        "defensive_preparation", "Defensive Preparation", False,
        "Friendly Artillery adjacent to this commander (in its hex or the next hex) has both"
        " defense values 1 higher." + _COMMANDER_TAIL, commander=True),
    AbilitySpec(
        "elusive", "Elusive", False,
        "Both of this unit's defense values are 1 higher while it is in a forest or marsh"
        " hex."),
    AbilitySpec(
        "subtle", "Subtle", False,
        "This unit gets +1 on its cover rolls against long-range attacks (it needs one less;"
        " only where the terrain gives cover)."),
    AbilitySpec(
        "urban_combat", "Urban Combat", False,
        "This unit gets +1 on its cover rolls while it is in a town hex (a Soldier needs 3+)."),
    AbilitySpec(
        "low_silhouette", "Low Silhouette", False,
        "Where the terrain gives this unit no cover (clear ground, roads...), it still makes a"
        " cover roll, which succeeds only on a 6 (an attacker in its own hex makes that"
        " impossible, as the usual -1 applies). Elsewhere its cover rolls are the terrain's."),
    AbilitySpec(
        "intimidation", "Intimidation", False,
        "Enemy Soldiers adjacent to this commander (in its hex or the next hex) suffer -1 on"
        " each attack die, in their assault phase and with defensive fire." + _COMMANDER_TAIL,
        commander=True),
    AbilitySpec(
        "stalwart", "Stalwart", False,
        "Friendly Soldiers adjacent to this commander (in its hex or the next hex, the"
        " commander itself excluded) get +1 on each die of their defensive-fire attacks."
        + _COMMANDER_TAIL, commander=True),
    AbilitySpec(
        "tenacity", "Tenacity", False,
        "Friendly Soldiers adjacent to this commander (in its hex or the next hex, the"
        " commander itself excluded) roll one extra attack die when they attack a unit in"
        " their own hex." + _COMMANDER_TAIL, commander=True),
    AbilitySpec(
        "improved_accuracy", "Improved Accuracy", False,
        "Friendly Soldiers adjacent to this commander (in its hex or the next hex, the"
        " commander itself excluded) have a medium range of 2 to 6 hexes instead of 2 to 4:"
        " at 5 or 6 hexes they attack with their medium-range values." + _COMMANDER_TAIL,
        commander=True),
    AbilitySpec(
        "command_leadership", "Command Leadership", False,
        "Friendly Vehicles within 2 hexes of this commander (the commander itself included)"
        " roll one extra attack die on their attacks in their own assault phase (not with"
        " defensive fire)." + _COMMANDER_TAIL, commander=True),
    AbilitySpec(
        "awareness", "Awareness", False,
        "This unit may fire defensively at an enemy Soldier that moves into its hex (as it"
        " enters), even though Soldiers don't normally provoke defensive fire from Vehicles."
        " The usual limit of one defensive-fire attack per phase still applies."),
    AbilitySpec(
        "command_awareness", "Command Awareness", False,
        "Friendly Vehicles within 2 hexes of this commander (the commander itself included)"
        " have Awareness: they may fire defensively at an enemy Soldier that moves into their"
        " hex." + _COMMANDER_TAIL, commander=True),
    AbilitySpec(
        "dismounted_attack", "Dismounted Attack", False,
        "While no enemy Soldier is adjacent to this unit (in its hex or the next hex), its"
        " short range against Vehicles reaches 2 hexes: a Vehicle 2 hexes away is attacked"
        " with its short-range anti-Vehicle value.", unit_type=VEHICLE),
)


# --- defense auras and defense ------------------------------------------------------------------
@aura("defense", "elan")
def _elan(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    t: Unit = ctx["target"]
    if ctx.get("defensive") and t.is_soldier and _adjacent_commander(ctx["state"], t, "elan"):
        return value + 1
    return value


@aura("defense", "terrain_expert")
def _terrain_expert(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    t: Unit = ctx["target"]
    if ctx.get("band") == "long" and t.is_soldier and \
            _adjacent_commander(ctx["state"], t, "terrain_expert"):
        return value + 1
    return value


@aura("defense", "defensive_preparation")
def _defensive_preparation(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    t: Unit = ctx["target"]
    if _is_artillery(t) and _adjacent_commander(ctx["state"], t, "defensive_preparation"):
        return value + 1
    return value


@register("defense", "elusive")
def _elusive(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") == "target" and ctx["state"].battle_map.terrain_at(
            ctx["target_hex"]) in (Terrain.FOREST, Terrain.MARSH):
        return value + 1
    return value


# --- cover ---------------------------------------------------------------------------------
@register("cover_need", "subtle")
def _subtle(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    return value - 1 if ctx.get("role") == "target" and ctx.get("band") == "long" else value


@register("cover_need", "urban_combat")
def _urban_combat(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") == "target" and \
            ctx["state"].battle_map.terrain_at(ctx["target_hex"]) == Terrain.TOWN:
        return value - 1
    return value


@register("terrain_cover", "low_silhouette")
def _low_silhouette(cover: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """No cover from the terrain: a cover roll on 6 all the same (abilities that ignore
    cover still take it away at ``can_cover``)."""
    if ctx.get("role") == "target" and cover is None:
        return LOW_SILHOUETTE_NEED
    return cover


# --- attack auras -----------------------------------------------------------------------------
@aura("die_modifier", "intimidation")
def _intimidation(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    a: Unit = ctx["attacker"]
    here = ctx["attacker_hex"]
    if not a.is_soldier:
        return value
    for c, _ in ctx["sources"]:
        if c.side != a.side and not c.disrupted and c.hex is not None and \
                c.hex.distance(here) <= 1:
            return value - 1
    return value


@aura("die_modifier", "stalwart")
def _stalwart(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    a: Unit = ctx["attacker"]
    if ctx.get("defensive") and a.is_soldier and \
            _adjacent_commander(ctx["state"], a, "stalwart"):
        return value + 1
    return value


@aura("attack_dice", "tenacity")
def _tenacity(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    a: Unit = ctx["attacker"]
    if value and ctx["distance"] == 0 and a.is_soldier and \
            _adjacent_commander(ctx["state"], a, "tenacity"):
        return value + 1
    return value


@aura("range_band", "improved_accuracy")
def _improved_accuracy(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    a: Unit = ctx["attacker"]
    if value == "long" and ctx["distance"] <= 6 and a.is_soldier and \
            _adjacent_commander(ctx["state"], a, "improved_accuracy"):
        return "medium"
    return value


@aura("attack_dice", "command_leadership")
def _command_leadership(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    a: Unit = ctx["attacker"]
    if value and a.is_vehicle and not ctx.get("defensive") and \
            _adjacent_commander(ctx["state"], a, "command_leadership", within=2,
                                exclude_self=False):
        return value + 1
    return value


# --- Awareness --------------------------------------------------------------------------------
def _aware_provoked(ctx: dict[str, Any]) -> bool:
    e: Unit = ctx["firer"]
    m: Unit = ctx["mover"]
    return m.is_soldier and e.hex is not None and ctx["stage"] == "enter" and \
        ctx["to_hex"] == e.hex


@register("provokes_defensive_fire", "awareness")
def _awareness(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") != "firer" or value is True:
        return value
    return True if _aware_provoked(ctx) else value


@aura("provokes_defensive_fire", "command_awareness")
def _command_awareness(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    e: Unit = ctx["firer"]
    if value is True or not e.is_vehicle or not _aware_provoked(ctx):
        return value
    if _adjacent_commander(ctx["state"], e, "command_awareness", within=2, exclude_self=False):
        return True
    return value


# --- Dismounted Attack ------------------------------------------------------------------------
@register("range_band", "dismounted_attack")
def _dismounted_attack(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") != "attacker" or ctx["distance"] != 2 or not ctx["target"].is_vehicle:
        return value
    st: GameState = ctx["state"]
    a: Unit = ctx["attacker"]
    here = ctx["attacker_hex"]
    if any(o.side != a.side and o.on_map and o.is_soldier and not o.boarded and
           o.hex is not None and o.hex.distance(here) <= 1 for o in st.units.values()):
        return value
    return "short"
