"""Abilities only the later edition's cards have (units/cards/later/).

* Antiair: the defensive-fire shot when an enemy Aircraft is placed in or next to it
  (game.rules.later.flight) and no -1 on its attacks against Aircraft
  (game.rules.later.combat); the effects live there, this is its spec.
* Antiair Support: counts as having Antiair while it shares a hex with a friendly
  Antiair unit (game.rules.later.combat.has_antiair, asked by both places above).
* Gun Shield (88 w/Gun Shield): +1 defense, front and rear, against Soldiers attacking
  it at long range.
* Open Crew (Sd Kfz 7/1): -1 on each of its attack dice while an enemy Soldier is within
  two hexes of it.
* Aircraft abilities: Ace (no -1 against Aircraft - game.rules.later.combat - and a
  defensive-fire shot at an enemy Aircraft placed up to 4 hexes away -
  game.rules.later.flight), Agility (against Aircraft: short range 0-2, medium 3-5),
  Slow (enemy Aircraft attack it at +1 per die), Steady Firing (2 more dice against
  Soldiers).
"""
from __future__ import annotations

from typing import Any

from ..hexes import MEDIUM, SHORT
from ..state import GameState, Unit
from . import register
from .spec import AbilitySpec, define

SPECS = define(
    AbilitySpec(
        "antiair", "Antiair", False,
        "Later edition. When an enemy Aircraft is placed in this unit's hex or next to it,"
        " this unit may make its one defensive-fire attack of the phase against it at once"
        " (a success disrupts the Aircraft). Its attacks against Aircraft don't take the"
        " usual -1 on each die."),
    AbilitySpec(
        "antiair_support", "Antiair Support", False,
        "Later edition. While this unit is in the same hex as a friendly unit with Antiair,"
        " it has Antiair too: a shot at an enemy Aircraft placed in or next to its hex, and"
        " no -1 on its attacks against Aircraft.",
        unit_type="Soldier", editions=("later",)),
    AbilitySpec(
        "gun_shield", "Gun Shield", False,
        "Enemy Soldiers attacking this unit from long range face a defense one higher, front"
        " and rear."),
    AbilitySpec(
        "open_crew", "Open Crew", False,
        "While any enemy Soldier is within two hexes of this unit, every one of its attack"
        " dice is at -1.", unit_type="Vehicle"),
    AbilitySpec(
        "ace", "Ace", False,
        "Later edition. Its attacks on Aircraft don't take the usual -1 on each die, and when"
        " an enemy Aircraft is placed up to 4 hexes from it, it may make its one defensive-fire"
        " attack of the phase against it at once (a success disrupts it).",
        unit_type="Aircraft", editions=("later",)),
    AbilitySpec(
        "agility", "Agility", False,
        "Later edition. When it attacks an Aircraft, its short range is 0 to 2 hexes and its"
        " medium range 3 to 5.", unit_type="Aircraft", editions=("later",)),
    AbilitySpec(
        "slow", "Slow", False,
        "Later edition. Enemy Aircraft attacking it get +1 on each die.",
        unit_type="Aircraft", editions=("later",)),
    AbilitySpec(
        "steady_firing", "Steady Firing", False,
        "When this Aircraft attacks a Soldier, it rolls 2 more attack dice than its card shows."),
)


@register("range_band", "agility")
def _agility(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") != "attacker" or not ctx["target"].card.is_aircraft:
        return value
    d = ctx["distance"]
    if d <= 2:
        return SHORT
    if d <= 5:
        return MEDIUM
    return value


@register("die_modifier", "slow")
def _slow(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") == "target" and ctx["attacker"].card.is_aircraft:
        return value + 1
    return value


@register("attack_dice", "steady_firing")
def _steady_firing(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") == "attacker" and value and ctx["target"].is_soldier:
        return value + 2
    return value


@register("defense", "gun_shield")
def _gun_shield(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") == "target" and ctx["attacker"].is_soldier and ctx.get("band") == "long":
        return value + 1
    return value


@register("die_modifier", "open_crew")
def _open_crew(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") != "attacker":
        return value
    st: GameState = ctx["state"]
    a: Unit = ctx["attacker"]
    here = ctx.get("attacker_hex") or a.hex
    if here is None:
        return value
    for e in st.units.values():
        if e.side != a.side and e.is_soldier and e.on_map and e.hex is not None \
                and e.hex.distance(here) <= 2:
            return value - 1
    return value
