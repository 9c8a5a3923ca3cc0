"""Disruption abilities of the whole roster (issue 19): when a Disrupted counter
comes off or what it does to the unit (Green, Hard Charger, Lack of Determination)."""
from __future__ import annotations

from typing import Any

from .. import combat
from ..events import CounterPlaced, Event
from ..state import GameState, Phase, Unit
from . import register
from .spec import AbilitySpec, define
from .common import AbilityRoll, AbilityUsed

#: Green: the roll a disrupted Green unit needs to recover in the casualty phase
GREEN_NEED = 4


SPECS = define(
    AbilitySpec(
        "green", "Green", False,
        "In the casualty phase, when face-up Disrupted counters are removed, this unit rolls a"
        " die if it is disrupted: only on 4 or higher does its Disrupted counter come off; on"
        " 1-3 it stays disrupted through the next turn (and rolls again at the next casualty"
        " phase)."),
    AbilitySpec(
        "hard_charger", "Hard Charger", False,
        "When its own side's movement phase ends, this unit's face-up Disrupted counter is"
        " removed (it is no longer disrupted for the assault phases of that turn)."),
    AbilitySpec(
        "lack_of_determination", "Lack of Determination", False,
        "This unit is destroyed the moment it gets a face-up Disrupted counter: when a"
        " defensive-fire hit or an ability (Overrun) disrupts it, and in the casualty phase"
        " when a Disrupted counter it got is turned face up."),
)


# --- Green -----------------------------------------------------------------------------------
def _green_kept(st: GameState) -> tuple[Any, ...]:
    got = st.marks.get("green_kept")
    if got and got[0] == st.turn:
        return tuple(got[1])
    return ()


@register("phase_begin", "green", scope="any")
def _green_rolls(events: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """At the start of the casualty phase each disrupted Green unit rolls to recover
    (an aura-style hook: it runs once for every Green unit on the map)."""
    if ctx["phase"] != Phase.CASUALTY:
        return events
    st: GameState = ctx["state"]
    kept: list[str] = []
    out = list(events)
    for u, _ in ctx["sources"]:
        if not (u.on_map and u.disrupted):
            continue
        die = ctx["dice"].d6()
        ok = die >= GREEN_NEED
        out.append(AbilityRoll(u.uid, "Green", die, GREEN_NEED, ok,
                               text=f"{u.name} is Green: rolls {die} to recover (needs "
                                    f"{GREEN_NEED}+): "
                                    f"{'the Disrupted counter comes off' if ok else 'it stays disrupted'}."))
        if not ok:
            kept.append(u.uid)
    if kept:
        st.marks["green_kept"] = (st.turn, tuple(sorted(kept)))
    return out


@register("keeps_disruption", "green")
def _green_keeps(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") == "unit" and ctx["unit"].uid in _green_kept(ctx["state"]):
        return True
    return value


# --- Hard Charger ------------------------------------------------------------------------------
@register("phase_end", "hard_charger", scope="any")
def _hard_charger(events: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """Runs once for all the Hard Chargers on the map (``sources``)."""
    st: GameState = ctx["state"]
    phase: Phase = ctx["phase"]
    if not phase.is_movement:
        return events
    out = list(events)
    for u, _ in ctx["sources"]:
        if u.side == st.active_side and u.on_map and u.disrupted:
            u.disrupted = False
            out.append(AbilityUsed(u.uid, "Hard Charger",
                                   text=f"{u.name} is a Hard Charger: its Disrupted counter"
                                        f" is removed as its movement phase ends."))
    return out


# --- Lack of Determination ---------------------------------------------------------------------
def _give_up(st: GameState, u: Unit) -> list[Event]:
    if u.destroyed or not u.disrupted or not u.card.has("lack_of_determination"):
        return []
    out: list[Event] = [AbilityUsed(u.uid, "Lack of Determination",
                                    text=f"{u.name} lacks determination: disrupted, it is "
                                         f"destroyed at once.")]
    return out + combat._destroy(st, u)


def _face_up_targets(events: Any) -> list[str]:
    return [e.target for e in events if isinstance(e, CounterPlaced) and e.face_up]


@register("after_attack", "lack_of_determination")
def _lack_after_fire(events: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    t: Unit = ctx["target"]
    if ctx.get("role") != "target" or t.uid not in _face_up_targets(events):
        return events
    return list(events) + _give_up(ctx["state"], t)


@register("entered_hex", "lack_of_determination", scope="any")
def _lack_after_overrun(events: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """Aura-style (runs while such a unit is on the map): the unit disrupted on
    entering (Overrun) is not in the ctx."""
    if not events:
        return events
    st: GameState = ctx["state"]
    out = list(events)
    for uid in _face_up_targets(events):
        u = st.units.get(uid)
        if u is not None:
            out += _give_up(st, u)
    return out


@register("after_casualty", "lack_of_determination", scope="any")
def _lack_after_casualty(events: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    st: GameState = ctx["state"]
    out = list(events)
    for u, _ in ctx["sources"]:
        if u.on_map:
            out += _give_up(st, u)
    return out
