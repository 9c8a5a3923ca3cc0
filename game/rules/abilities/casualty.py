"""Abilities that resist disruption (Fanatic, SS Determination), after an attack
and in the casualty phase."""
from __future__ import annotations

from ..events import CounterPlaced, Event
from ..state import GameState, Unit
from . import register
from .spec import AbilitySpec, define
from .common import AbilityRoll, AbilityUsed, SS_DETERMINATION_NEED, _game_add, _phase_add


SPECS = define(
    AbilitySpec(
        "fanatic", "Fanatic", False,
        "This unit ignores face-up Disrupted counters: while it has one it still moves, attacks"
        " and fires defensively, without the -1 penalties on attack dice and defense, and it"
        " counts as not disrupted (its commander abilities keep working). A defensive-fire hit"
        " still ends the move it is making."),
    AbilitySpec(
        "ss_determination", "SS Determination", False,
        "Whenever this unit would get a face-up Disrupted counter (from defensive fire, or when"
        " its face-down Disrupted counter is flipped in the casualty phase), roll one die: on 4"
        " or higher that Disrupted counter is removed. A defensive-fire hit still ends the move"
        " it is making. Damaged and Destroyed counters are not affected."),
)


@register("after_attack")
def _after_attack(events, ab, ctx):
    """Memory for Surprise Fire, Overlapping Fire, Armor-Piercing Rounds and
    Fighting Platform; Fanatic and SS Determination on a defensive-fire hit."""
    st: GameState = ctx["state"]
    a: Unit = ctx["attacker"]
    t: Unit = ctx["target"]
    if ctx.get("secondary"):
        pass
    elif a.card.has("surprise_fire"):
        _game_add(st, "fired", a.uid)
    if not ctx.get("defensive") and not ctx.get("secondary") and st.phase.is_assault:
        if any(u.card.has("overlapping_fire") for u in st.live_units(a.side)):
            _phase_add(st, "attacked", (a.uid, t.uid))
        if ctx.get("mode") == "armor_piercing_rounds":
            _game_add(st, "apr_used", a.uid)
        if a.boarded:
            _phase_add(st, "platform_fired", a.carrier)
    if ctx.get("defensive") and t.disrupted and any(
            isinstance(e, CounterPlaced) and e.target == t.uid and e.face_up for e in events):
        events = list(events) + _resist_disruption(st, t, ctx["dice"])
    return events


def _resist_disruption(st: GameState, u: Unit, dice) -> list[Event]:
    if u.card.has("fanatic"):
        u.disrupted = False
        return [AbilityUsed(u.uid, "Fanatic", text=f"{u.name} is Fanatic: it ignores the "
                                                    f"Disrupted counter.")]
    if u.card.has("ss_determination"):
        die = dice.d6()
        ok = die >= SS_DETERMINATION_NEED
        if ok:
            u.disrupted = False
        return [AbilityRoll(u.uid, "SS Determination", die, SS_DETERMINATION_NEED, ok,
                            text=f"{u.name} rolls {die} for SS Determination (needs "
                                 f"{SS_DETERMINATION_NEED}+): "
                                 f"{'the Disrupted counter is removed' if ok else 'stays disrupted'}.")]
    return []


@register("after_casualty")
def _after_casualty(events, ab, ctx):
    """Fanatic ignores, SS Determination may shake off, the Disrupted counters the
    casualty phase has just turned face up."""
    st: GameState = ctx["state"]
    out = list(events)
    for u in st.units.values():
        if u.on_map and u.disrupted:
            out += _resist_disruption(st, u, ctx["dice"])
    return out
