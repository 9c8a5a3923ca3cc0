"""The last abilities of the ground roster (session 8, rulings 26-): Endurance.

* Endurance (ruling 26, Hero of the Soviet Union): each time the unit gets a face-up
  Destroyed counter it rolls a die; on 5 or 6 the counter is thrown away.  A Destroyed
  counter becomes face-up only in the casualty phase, when the face-down counters are
  turned over: the roll is made there, for the Destroyed counter whatever attack (and
  whatever ability) placed it.  A unit destroyed at once without a counter (three
  natural 6s of a flamethrower, a Soldier aboard a transport that is destroyed) gets no
  roll.  The other counters turned up with it stay (a Disrupted counter, which a nation
  Hero disregards: ruling 23).
"""
from __future__ import annotations

from dataclasses import replace
from math import comb
from typing import Any

from ..state import DESTROYED, GameState, Phase
from . import register
from .attack_modes import _flamethrower_applies
from .common import FLAMETHROWER_SIXES, AbilityRoll
from .spec import AbilitySpec, define

#: Endurance: the roll that throws a face-up Destroyed counter away
ENDURANCE_NEED = 5

SPECS = define(
    AbilitySpec(
        "endurance", "Endurance", False,
        "Each time this unit gets a face-up Destroyed counter (in the casualty phase, when its"
        " face-down counters are turned over) it rolls a die: on 5 or 6 the Destroyed counter"
        " is thrown away and the unit stays in play. A unit destroyed at once without a"
        " counter (a flamethrower's three 6s, aboard a destroyed transport) gets no roll.",
        unit_type="Soldier"),
)


# --- Endurance (ruling 26) ---------------------------------------------------------------------
@register("phase_begin", "endurance", scope="any")
def _endurance(events: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """At the casualty phase, before the face-down counters are turned over (the same
    automatic step): each unit with Endurance and a face-down Destroyed counter rolls;
    on 5+ that counter is thrown away, so it never destroys the unit."""
    if ctx["phase"] != Phase.CASUALTY:
        return events
    out = list(events)
    for u, _ in ctx["sources"]:
        if not u.on_map or DESTROYED not in u.pending:
            continue
        die = ctx["dice"].d6()
        ok = die >= ENDURANCE_NEED
        if ok:
            u.pending = [c for c in u.pending if c != DESTROYED]
        out.append(AbilityRoll(
            u.uid, "Endurance", die, ENDURANCE_NEED, ok,
            text=f"{u.name} turns up a Destroyed counter and has Endurance: rolls {die} "
                 f"(needs {ENDURANCE_NEED}+): "
                 f"{'the counter is thrown away' if ok else 'the counter stays'}."))
    if len(out) != len(events):
        ctx["state"].touch()
    return out


def _p_sixes_at_least(n: int, k: int) -> float:
    """Chance of at least ``k`` natural 6s among ``n`` dice."""
    return sum(comb(n, i) * (1 / 6) ** i * (5 / 6) ** (n - i) for i in range(k, n + 1))


def _at_once(state: GameState, plan: Any) -> float:
    """The part of an attack's ``p_destroyed`` that destroys at once, without a counter:
    the Hull-Mounted Flamethrower's natural 6s (the part ``results.exact_odds`` puts in
    ``p_destroyed``)."""
    a = state.units[plan.attacker]
    if not (a.card.has("hull_mounted_flamethrower") and _flamethrower_applies(dict(
            role="attacker", distance=plan.distance, mode=plan.mode, attacker=a,
            attacker_hex=plan.attacker_hex, target_hex=plan.target_hex))):
        return 0.0
    if a.card.has("guard_crew"):
        from .results import _sixes_and_successes
        joint = _sixes_and_successes(plan.dice, plan.need, True)
        return sum(p for (j, _s), p in joint.items() if j >= FLAMETHROWER_SIXES)
    return _p_sixes_at_least(plan.dice, FLAMETHROWER_SIXES)


@register("odds", requires="endurance")
def _endurance_odds(odds: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """Ruling 26 in the exact odds (after every other odds hook: a rule hook registered
    last): a Destroyed counter on a unit with Endurance destroys it only 4 times in 6;
    otherwise the unit keeps its other counter (the Disrupted one placed by the first
    hit)."""
    plan = ctx["plan"]
    t = ctx["target"]
    if plan.defensive or not t.card.has("endurance"):
        return odds
    now = min(odds.p_destroyed, _at_once(ctx["state"], plan))
    counter = odds.p_destroyed - now
    if counter <= 0.0:
        return odds
    saved = counter * (7 - ENDURANCE_NEED) / 6
    return replace(odds, p_destroyed=odds.p_destroyed - saved,
                   p_disrupted=odds.p_disrupted + saved)
