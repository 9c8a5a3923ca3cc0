"""Transport abilities of the whole roster (issue 19): what may ride, how many, and
when a rider may get off (Light Artillery, Large Transport, Light Towing,
Mechanized Tactics)."""
from __future__ import annotations

from typing import Any

from ..actions import Dismount
from ..activation import moved_this_phase
from ..cards import SOLDIER, VEHICLE
from ..state import GameState, Unit
from . import register
from .spec import AbilitySpec, define
from .common import _is_artillery


SPECS = define(
    AbilitySpec(
        "light_artillery", "Light Artillery", False,
        "Although this unit is Artillery, a Vehicle with a transport ability (Transport,"
        " Exposed Transport, Gun Transport, Large Transport, Light Towing) may carry it, by the"
        " usual transport rules.", unit_type=SOLDIER),
    AbilitySpec(
        "large_transport", "Large Transport", False,
        "This Vehicle is a transport for up to two friendly Soldiers at once, and one of them"
        " (not both) may be Artillery that does not have Large. Otherwise the usual transport"
        " rules apply: a Soldier boards or dismounts with its move in the movement phase, can't"
        " act or be attacked while aboard, doesn't count for stacking and is destroyed with"
        " its carrier.", unit_type=VEHICLE),
    AbilitySpec(
        "light_towing", "Light Towing", False,
        "This Vehicle is a transport for one friendly Soldier that has Light Artillery (and"
        " for no other Soldier), by the usual transport rules.", unit_type=VEHICLE),
    AbilitySpec(
        "mechanized_tactics", "Mechanized Tactics", False,
        "In its side's movement phase this Soldier may get off its transport once the"
        " transport has moved, even though it boarded in the same phase (normally boarding is"
        " its whole move): it dismounts into the transport's hex, which ends its move.",
        unit_type=SOLDIER),
)


# --- what may ride -----------------------------------------------------------------------------
@register("can_board", "light_artillery")
def _light_artillery(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") == "unit" and value is False:
        return True
    return value


@register("transport_capacity", "large_transport")
def _large_capacity(cap: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    return max(cap, 2) if ctx.get("role") == "unit" and ctx["unit"].is_vehicle else cap


@register("can_board", "large_transport")
def _large_transport(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """One rider may be Artillery (not Large), not both."""
    if ctx.get("role") != "carrier":
        return value
    st: GameState = ctx["state"]
    u: Unit = ctx["unit"]
    if not _is_artillery(u) or isinstance(value, str):
        return value
    c: Unit = ctx["carrier"]
    if any(_is_artillery(p) for p in st.passengers(c.uid)):
        return f"{c.name} already carries Artillery: only one of its two Soldiers may be"\
               f" Artillery"
    return True if not u.card.has("large") else value


@register("transport_capacity", "light_towing")
def _towing_capacity(cap: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    return max(cap, 1) if ctx.get("role") == "unit" and ctx["unit"].is_vehicle else cap


@register("can_board", "light_towing")
def _light_towing(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") != "carrier":
        return value
    c: Unit = ctx["carrier"]
    u: Unit = ctx["unit"]
    if c.card.has("transport") or c.card.has("gun_transport") or \
            c.card.has("exposed_transport") or c.card.has("large_transport"):
        return value            # another transport ability carries the others
    if not u.card.has("light_artillery"):
        return f"{c.name} tows only units that have Light Artillery"
    return value


# --- getting off -------------------------------------------------------------------------------
def _mechanized_problem(st: GameState, u: Unit) -> str | None:
    """Why ``u`` (aboard, having boarded this phase) may not get off now."""
    if not st.phase.is_movement or u.side != st.active_side or st.pending is not None:
        return "Mechanized Tactics: it gets off in its side's movement phase"
    c = st.units.get(u.carrier or "")
    if c is None or c.hex is None:
        return f"{u.name} is not aboard a transport"
    if c.uid not in moved_this_phase(st):
        return f"Mechanized Tactics: {u.name} gets off after {c.name} has moved"
    if u.disrupted:
        return f"{u.name} is disrupted and can't move"
    return None


@register("activation_options", "mechanized_tactics")
def _mechanized_options(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    st: GameState = ctx["state"]
    u: Unit = ctx["unit"]
    if ctx.get("role") != "unit" or not u.boarded or not u.acted or u.hex is None \
            or _mechanized_problem(st, u) is not None:
        return value
    return list(value) + [Dismount(u.side, u.uid, u.hex)]


@register("action_allowed", "mechanized_tactics")
def _mechanized_dismount(reason: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """Lift "already used its move" for a Soldier that boarded this phase."""
    u: Unit | None = ctx.get("unit")
    a = ctx["action"]
    if reason is None or ctx.get("role") != "unit" or u is None or not isinstance(a, Dismount) \
            or not u.boarded or not u.acted or a.side != u.side:
        return reason
    st: GameState = ctx["state"]
    prob = _mechanized_problem(st, u)
    if prob is not None:
        return f"{reason}; {prob}"
    c = st.units[u.carrier or ""]
    if a.hex != c.hex:
        return reason
    return None
