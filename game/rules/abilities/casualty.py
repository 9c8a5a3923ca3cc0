"""Abilities that resist disruption (Fanatic), after an attack and in the casualty
phase; and the attack memory other abilities keep (Armor-Piercing Rounds, Fighting
Platform)."""
from __future__ import annotations

from typing import Any

from ..events import CounterPlaced, Event
from ..state import GameState, Unit
from . import register
from .spec import AbilitySpec, define
from .common import AbilityUsed, _game_add, _phase_add


SPECS = define(
    AbilitySpec(
        "fanatic", "Fanatic", False,
        "This unit ignores face-up Disrupted counters: while it has one it still moves, attacks"
        " and fires defensively, without the -1 penalties on attack dice and defense, and it"
        " counts as not disrupted (its commander abilities keep working). A defensive-fire hit"
        " still ends the move it is making."),
)


@register("after_attack")
def _after_attack(events: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """Memory for Armor-Piercing Rounds and Fighting Platform; Fanatic on a
    defensive-fire hit."""
    st: GameState = ctx["state"]
    a: Unit = ctx["attacker"]
    t: Unit = ctx["target"]
    if not ctx.get("defensive") and not ctx.get("secondary") and st.phase.is_assault:
        if ctx.get("mode") == "armor_piercing_rounds":
            _game_add(st, "apr_used", a.uid)
        if a.boarded:
            _phase_add(st, "platform_fired", a.carrier)
    if ctx.get("defensive") and t.disrupted and any(
            isinstance(e, CounterPlaced) and e.target == t.uid and e.face_up for e in events):
        events = list(events) + resist_disruption(st, t)
    return events


def resist_disruption(st: GameState, u: Unit) -> list[Event]:
    """Fanatic: a face-up Disrupted counter the unit has just got is ignored (a nation
    Hero disregards them too: ruling 23)."""
    if u.disrupted and u.card.has("fanatic"):
        u.disrupted = False
        return [AbilityUsed(u.uid, "Fanatic", text=f"{u.name} is Fanatic: it ignores the "
                                                    f"Disrupted counter.")]
    if u.disrupted and u.card.has("hero"):
        u.disrupted = False
        return [AbilityUsed(u.uid, "Hero", text=f"{u.name} is a Hero: it disregards the "
                                                 f"Disrupted counter.")]
    return []


@register("after_casualty")
def _after_casualty(events: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """Fanatic ignores the Disrupted counters the casualty phase has just turned face
    up."""
    st: GameState = ctx["state"]
    out = list(events)
    for u in st.units.values():
        if u.on_map and u.disrupted:
            out += resist_disruption(st, u)
    return out
