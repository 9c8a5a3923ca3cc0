"""Abilities that kept later-set cards out of battles alone (rulings 17-20): Determined
Charge (a Polish cavalry card), SS Hunter (a Soviet sniper), Unreliable (a Chinese light
tank) and Vanguard (British cruiser tanks).

* Determined Charge (ruling 17): a defensive-fire hit still disrupts it (face-up, at
  once) but doesn't stop the move it is making; it finishes the move disrupted.
* SS Hunter (ruling 18): 2 more attack dice against an SS unit - a German card whose
  printed name begins with "SS" (the SS grenadiers, officers and tanks).
* Unreliable (ruling 19): a face-up Disrupted counter on it is not removed at the next
  casualty phase but at the one after: its disruption lasts a turn longer.
* Vanguard (ruling 20): after both deployments, before turn 1, each side's Vanguard
  units move once at speed 4 (the Sequence of Play's Vanguard phases, game.rules.phases:
  movement phases in which only Vanguard units move).
"""
from __future__ import annotations

import re
from typing import Any

from ..cards import UnitCard
from ..state import GameState, Phase, Unit
from . import register
from .common import _game_add, _game_set
from .spec import AbilitySpec, define

SS_HUNTER_DICE = 2
VANGUARD_SPEED = 4
_SS_NAME = re.compile(r"^SS(?![A-Za-z])")
_UNRELIABLE_KEY = "unreliable_kept"      # game mark: units whose disruption stayed once

SPECS = define(
    AbilitySpec(
        "determined_charge", "Determined Charge", False,
        "A defensive-fire hit that disrupts this unit doesn't stop the move it is making: it"
        " gets its face-up Disrupted counter at once and finishes the move (further defensive"
        " fire on the way as usual)."),
    AbilitySpec(
        "ss_hunter", "SS Hunter", False,
        "This unit rolls 2 more attack dice when its target is an SS unit (a German unit whose"
        " name begins with SS)."),
    AbilitySpec(
        "unreliable", "Unreliable", False,
        "A face-up Disrupted counter on this unit is not removed at the start of the next"
        " casualty phase but at the one after: its disruption lasts a turn longer."),
    AbilitySpec(
        "vanguard", "Vanguard", False,
        "Once both armies are deployed, before turn 1 begins, this unit may make one move at"
        " speed 4, following every movement rule (defensive fire included). The first player"
        " moves its Vanguard units first, then the second player; no other unit moves then."),
)


def is_ss(card: UnitCard) -> bool:
    """Ruling 18: an SS unit is a German card whose printed name begins with "SS"."""
    return card.nationality == "Germany" and _SS_NAME.match(card.name) is not None


@register("stopped_by_defensive_fire", "determined_charge")
def _determined_charge(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    return False if ctx.get("role") == "unit" else value


@register("attack_dice", "ss_hunter")
def _ss_hunter(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") == "attacker" and value and is_ss(ctx["target"].card):
        return value + SS_HUNTER_DICE
    return value


@register("keeps_disruption", "unreliable")
def _unreliable(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """Kept at the first casualty phase it meets (marked), removed at the next one."""
    if ctx.get("role") != "unit" or value:
        return value
    st: GameState = ctx["state"]
    u: Unit = ctx["unit"]
    kept = _game_set(st, _UNRELIABLE_KEY)
    if u.uid in kept:
        st.marks[_UNRELIABLE_KEY] = tuple(x for x in kept if x != u.uid)
        return value
    _game_add(st, _UNRELIABLE_KEY, u.uid)
    return True


@register("can_move", requires="vanguard")
def _only_vanguard_moves(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    phase: Phase = ctx.get("phase") or ctx["state"].phase
    u: Unit = ctx["unit"]
    if value is True and phase.is_vanguard and not u.card.has("vanguard"):
        return f"{u.name} has no Vanguard: only Vanguard units move before turn 1"
    return value


@register("speed", "vanguard")
def _vanguard_speed(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    phase: Phase = ctx.get("phase") or ctx["state"].phase
    return VANGUARD_SPEED if ctx.get("role") == "unit" and phase.is_vanguard else value


__all__ = ["SPECS", "is_ss", "SS_HUNTER_DICE", "VANGUARD_SPEED"]
