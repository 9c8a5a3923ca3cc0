"""Abilities of the later sets' cards, positions 43 and on of the issue-19 order (helper
roster19): simple modifiers, each changing one number or one yes/no the rules already
decide.  Rule texts are Hexfront's own wording.

==========================  ===================================================
ability                     point
==========================  ===================================================
Tank Hunter                 die_modifier (+1 against Vehicles)
Quick Swivel                attack_dice (+1 die with defensive fire)
Limited Ammo                can_fire_defensively (never)
Turret Lock                 can_attack (not from a hill hex)
Urban Combat                cover_need (+1 on cover rolls in a town)
Subtle                      cover_need (+1 on cover rolls against long range)
Elusive                     defense (+1 in a forest or marsh hex)
Brushcutters                movement_roll_kinds (no forest roll)
==========================  ===================================================
"""
from __future__ import annotations

from typing import Any

from ..cards import VEHICLE
from ..terrain import Terrain
from . import register
from .spec import AbilitySpec, define

__all__ = ["SPECS"]

SPECS = define(
    AbilitySpec(
        "tank_hunter", "Tank Hunter", False,
        "This unit gets +1 on each attack die when it attacks an enemy Vehicle, in its"
        " assault phase and with defensive fire alike. Its attacks on Soldiers are"
        " normal."),
    AbilitySpec(
        "quick_swivel", "Quick Swivel", False,
        "Whenever this unit fires defensively it rolls one extra attack die. Its attacks in"
        " its own assault phase are normal."),
    AbilitySpec(
        "limited_ammo", "Limited Ammo", False,
        "This unit never fires defensively: an enemy moving next to it or away from it does"
        " not draw its fire. It attacks normally in its own assault phase."),
    AbilitySpec(
        "turret_lock", "Turret Lock", False,
        "While this unit stands in a hill hex it can't attack at all (neither in its"
        " assault phase nor with defensive fire). From any other hex it attacks normally.",
        unit_type=VEHICLE),
    AbilitySpec(
        "urban_combat", "Urban Combat", False,
        "While this unit is in a town hex it gets +1 on its cover rolls (a roll one lower"
        " than usual succeeds). An attack that ignores cover still ignores it."),
    AbilitySpec(
        "subtle", "Subtle", False,
        "Against attacks from long range this unit gets +1 on its cover rolls, wherever it"
        " has cover (a roll one lower than usual succeeds). It gets no cover where the"
        " terrain gives none."),
    AbilitySpec(
        "elusive", "Elusive", False,
        "While this unit stands in a forest or marsh hex its defense is 1 higher against"
        " every attack."),
    AbilitySpec(
        "brushcutters", "Brushcutters", False,
        "This Vehicle enters forest hexes without a movement roll. Entering a forest still"
        " costs it two hexes of movement, and a stream crossing still needs its own roll.",
        unit_type=VEHICLE,
        not_in_first_edition="The later edition's card lets it cross hedges instead; that"
                             " part is not used."),
)


def _terrain(ctx: dict[str, Any], key: str) -> Terrain:
    return ctx["state"].battle_map.terrain_at(ctx[key])      # type: ignore[no-any-return]


@register("die_modifier", "tank_hunter")
def _tank_hunter(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") == "attacker" and ctx["target"].card.type == VEHICLE:
        return value + 1
    return value


@register("attack_dice", "quick_swivel")
def _quick_swivel(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") == "attacker" and ctx.get("defensive") and value:
        return value + 1
    return value


@register("can_fire_defensively", "limited_ammo")
def _limited_ammo(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    return False if ctx.get("role") in ("firer", "unit") else value


@register("can_attack", "turret_lock")
def _turret_lock(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") == "attacker" and _terrain(ctx, "attacker_hex") == Terrain.HILL:
        return f"{ctx['attacker'].name} can't attack from a hill hex (Turret Lock)"
    return value


@register("cover_need", "urban_combat")
def _urban_combat(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") == "target" and _terrain(ctx, "target_hex") == Terrain.TOWN:
        return value - 1
    return value


@register("cover_need", "subtle")
def _subtle(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") == "target" and ctx.get("band") == "long":
        return value - 1
    return value


@register("defense", "elusive")
def _elusive(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") == "target" and \
            _terrain(ctx, "target_hex") in (Terrain.FOREST, Terrain.MARSH):
        return value + 1
    return value


@register("movement_roll_kinds", "brushcutters")
def _brushcutters(kinds: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    return [k for k in kinds if k != "forest"]
