"""Seeing and being seen (issue 19): Indirect Fire and its Spotters (Spotter,
Chatting on the Radio), and what keeps a unit from being shot at from afar
(Camouflaged, Concealed, Experienced Recon)."""
from __future__ import annotations

from typing import Any

from ..actions import Move
from ..hexes import Hex
from ..state import GameState, Unit
from ..terrain import TERRAIN_RULES
from . import register
from .spec import AbilitySpec, define
from .common import _game_add, _game_set, _phase_add, _phase_set

#: how far from the target a Spotter may be (Indirect Fire, Spotter)
SPOTTER_RANGE = 8


SPECS = define(
    AbilitySpec(
        "indirect_fire", "Indirect Fire", False,
        "This unit's attack on an enemy Soldier needs no line of sight of its own when a"
        " friendly Spotter (a unit with the Spotter ability, on the battle map and not aboard"
        " a transport) is within 8 hexes of that Soldier and has line of sight to it. Range"
        " and everything else about the attack are as usual; attacks on Vehicles still need"
        " line of sight."),
    AbilitySpec(
        "spotter", "Spotter", False,
        "This unit spots for friendly units with Indirect Fire: an enemy Soldier it can see"
        " within 8 hexes may be attacked by them without their own line of sight. In the later"
        " edition friendly Aircraft also roll one extra attack die against an enemy unit this"
        " unit can see within 8 hexes (several Spotters still give one die)."),
    AbilitySpec(
        "chatting_on_the_radio", "Chatting on the Radio", False,
        "This unit works as a Spotter only while it has not moved in the current assault"
        " phase (in a movement phase it always may)."),
    AbilitySpec(
        "concealed", "Concealed", False,
        "While this unit is in a hex whose terrain gives it cover, enemies can't attack it at"
        " long range (5 hexes or more); medium and short range attacks are normal."),
    AbilitySpec(
        "camouflaged", "Camouflaged", False,
        "Until this unit first moves or attacks in the game (a move of any length, turning in"
        " place, or any attack, defensive fire included), enemies can't attack it at medium or"
        " long range (2 hexes or more); units with Experienced Recon still may at medium"
        " range."),
    AbilitySpec(
        "experienced_recon", "Experienced Recon", False,
        "This unit may attack Camouflaged units at medium range (2-4 hexes), which Camouflaged"
        " otherwise forbids; at long range they stay out of its reach too."),
)


# --- Spotters and Indirect Fire -----------------------------------------------------------------
def spots(st: GameState, spotter: Unit, h: Hex) -> bool:
    """Whether ``spotter`` spots hex ``h`` now (Spotter; Chatting on the Radio)."""
    if not spotter.card.has("spotter") or not spotter.on_map or spotter.boarded \
            or spotter.hex is None or spotter.hex.distance(h) > SPOTTER_RANGE:
        return False
    if spotter.uid in _phase_set(st, _RADIO_KEY):
        return False                 # Chatting on the Radio: it moved this assault phase
    return bool(st.battle_map.can_see(spotter.hex, h))


_RADIO_KEY = "radio_off"


@register("perform", "chatting_on_the_radio")
def _radio_moves(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """A move in an assault phase ends its spotting for that phase."""
    u: Unit | None = ctx.get("unit")
    a = ctx["action"]
    st: GameState = ctx["state"]
    if ctx.get("role") == "unit" and u is not None and isinstance(a, Move) and \
            a.uid == u.uid and a.path and st.phase.is_assault:
        _phase_add(st, _RADIO_KEY, u.uid)
    return value


def spotter_for(st: GameState, side: str, h: Hex) -> Unit | None:
    for u in st.units.values():
        if u.side == side and spots(st, u, h):
            return u
    return None


@register("line_of_sight", "indirect_fire")
def _indirect_fire(sees: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if sees or ctx.get("role") != "attacker" or not ctx["target"].is_soldier:
        return sees
    a: Unit = ctx["attacker"]
    return spotter_for(ctx["state"], a.side, ctx["target_hex"]) is not None


@register("attack_dice", "spotter", scope="any")
def _spotter_for_aircraft(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """Later edition: +1 die for a friendly Aircraft's attack on a spotted unit."""
    a: Unit = ctx["attacker"]
    if not value or not a.card.is_aircraft or ctx["target"].card.is_aircraft:
        return value
    st: GameState = ctx["state"]
    if any(u.side == a.side and spots(st, u, ctx["target_hex"]) for u, _ in ctx["sources"]):
        return value + 1
    return value


# --- out of reach from afar -----------------------------------------------------------------
def _has_cover_here(st: GameState, t: Unit, h: Hex) -> bool:
    rules = TERRAIN_RULES[st.battle_map.terrain_at(h)]
    return (rules.vehicle_cover if t.is_vehicle else rules.soldier_cover) is not None


@register("can_attack", "concealed")
def _concealed(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    t: Unit = ctx["target"]
    if ctx.get("role") != "target" or value is not True or ctx["band"] != "long":
        return value
    if _has_cover_here(ctx["state"], t, ctx["target_hex"]):
        return f"{t.name} is Concealed in cover: it can't be attacked at long range"
    return value


_CAMO_KEY = "camouflage_lost"


@register("can_attack", "camouflaged")
def _camouflaged(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    t: Unit = ctx["target"]
    if ctx.get("role") != "target" or value is not True or ctx["band"] == "short" or \
            t.uid in _game_set(ctx["state"], _CAMO_KEY):
        return value
    if ctx["band"] == "medium" and ctx.get("experienced_recon"):
        return value
    return (f"{t.name} is Camouflaged: until it moves or attacks it can't be attacked from"
            f" {ctx['distance']} hexes (only from its own or a next hex)")


@register("perform", "camouflaged")
def _camouflage_moves(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    u: Unit | None = ctx.get("unit")
    a = ctx["action"]
    if ctx.get("role") == "unit" and u is not None and isinstance(a, Move) and a.uid == u.uid:
        _game_add(ctx["state"], _CAMO_KEY, u.uid)
    return value


@register("after_attack", "camouflaged")
def _camouflage_fires(events: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") == "attacker":
        _game_add(ctx["state"], _CAMO_KEY, ctx["attacker"].uid)
    return events


@register("can_attack", "experienced_recon")
def _experienced_recon(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """The attacker's hooks run before the target's: tell Camouflaged (above) that this
    attacker sees through it at medium range."""
    if ctx.get("role") == "attacker":
        ctx["experienced_recon"] = True
    return value
