"""Transports and what may ride them: Large, Transport, Exposed Transport,
Gun Transport, Fighting Platform."""
from __future__ import annotations

from ..cards import VEHICLE
from ..state import GameState, Unit
from . import register
from .spec import AbilitySpec, define
from .common import _is_artillery, _phase_set


SPECS = define(
    AbilitySpec(
        "large", "Large", False,
        "This unit can never be carried by a transport, not even one with Gun Transport."),
    AbilitySpec(
        "transport", "Transport", False,
        "This Vehicle can carry one friendly Soldier that is not Artillery. In the movement"
        " phase a Soldier in the same hex may use its move to board it, and a Soldier that"
        " started its movement phase aboard may use its move to dismount into the carrier's hex;"
        " if that breaks the stacking limit the opponent places the Soldier in one of the"
        " nearest legal hexes. While aboard, the Soldier can't move, attack, fire defensively or"
        " be attacked, and doesn't count for stacking; it is destroyed with its carrier and is"
        " unaffected when the carrier is disrupted or damaged. A Soldier may start the game"
        " aboard.", unit_type=VEHICLE),
    AbilitySpec(
        "exposed_transport", "Exposed Transport", False,
        "Transport, with one difference: the carried Soldier can be attacked. Enemy units may"
        " attack it as if it stood in the carrier's hex (its own defense, and its own cover roll"
        " if that hex gives cover). Otherwise as Transport: one non-Artillery Soldier, boards or"
        " dismounts with its move in the movement phase, can't act while aboard, doesn't count"
        " for stacking, is destroyed with its carrier, may start the game aboard.",
        unit_type=VEHICLE),
    AbilitySpec(
        "gun_transport", "Gun Transport", False,
        "Transport (one Soldier, who can't be attacked while aboard), and the Soldier it carries"
        " may also be Artillery, as long as that Soldier does not have Large. Boarding and"
        " dismounting happen in the movement phase as for any transport.", unit_type=VEHICLE),
    AbilitySpec(
        "fighting_platform", "Fighting Platform", False,
        "A non-Artillery Soldier carried by this Vehicle may attack in its own assault phase"
        " (its activation, from the carrier's hex, with its own values) if the carrier has not"
        " moved in that phase; after such an attack the carrier can't move in that phase. The"
        " carried Soldier may also fire defensively as if it stood in the carrier's hex.",
        unit_type=VEHICLE),
)


@register("can_board", "large")
def _large(value, ab, ctx):
    return f"{ctx['unit'].name} is Large: no transport can carry it" \
        if ctx.get("role") == "unit" else value


@register("can_board", "gun_transport")
def _gun_transport(value, ab, ctx):
    u: Unit = ctx["unit"]
    if ctx.get("role") == "carrier" and _is_artillery(u) and not u.card.has("large"):
        return True
    return value


@register("attackable_aboard", "exposed_transport")
def _exposed_transport(value, ab, ctx):
    return True if ctx.get("role") == "carrier" else value


def _platform_problem(st: GameState, u: Unit, ignore_acted: bool = False) -> str | None:
    """Why boarded ``u`` may not attack from its carrier now (Fighting Platform)."""
    c = st.units.get(u.carrier or "")
    if c is None or not c.card.has("fighting_platform"):
        return f"{u.name} is aboard a transport and can't act for itself"
    if _is_artillery(u):
        return "Artillery can't fire from a Fighting Platform"
    if not st.phase.is_assault or u.side != st.active_side or st.pending is not None:
        return "a Soldier fires from a Fighting Platform in its own assault phase"
    if u.acted and not ignore_acted:
        return f"{u.name} has already acted this phase (ruling 7: one activation per phase)"
    if c.uid in _phase_set(st, "moved"):
        return f"{c.name} has moved this phase: its passenger can't fire from it"
    return None


@register("attack_from_aboard", "fighting_platform")
def _fighting_platform(value, ab, ctx):
    if ctx.get("role") != "carrier":
        return value
    st: GameState = ctx["state"]
    a: Unit = ctx["attacker"]
    if _is_artillery(a):
        return value
    if ctx.get("defensive"):
        return True
    return True if _platform_problem(st, a) is None or a.acted else value


@register("can_move", "fighting_platform")
def _platform_carrier_move(value, ab, ctx):
    st: GameState = ctx["state"]
    u: Unit = ctx["unit"]
    if ctx.get("role") == "unit" and u.uid in _phase_set(st, "platform_fired"):
        return f"its passenger fired from {u.name} this phase, so it can't move"
    return value
