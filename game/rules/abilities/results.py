"""Exact odds of attacks whose outcome depends on more than the number of successes."""
from __future__ import annotations

from typing import Any

from dataclasses import replace
from math import comb, factorial

from .. import combat
from ..state import DAMAGED, DESTROYED, DISRUPTED, GameState
from . import register
from .common import FLAMETHROWER_SIXES, HIGHLY_FLAMMABLE_NEED
from .attack_modes import _flamethrower_applies
from .later_aircraft import sixes_count_twice


_RANK = {DISRUPTED: 1, DAMAGED: 2, DESTROYED: 3}


def _faces(need: int) -> tuple[float, float, float, float, bool, bool]:
    """Per-die chances of a 1, a 6, another success (2-5) and another failure (2-5),
    and whether a 1 / a 6 is a success, for dice that succeed on ``need`` or more."""
    mid_ok = sum(1 for f in range(2, 6) if f >= need)
    return 1 / 6, 1 / 6, mid_ok / 6, (4 - mid_ok) / 6, need <= 1, need <= 6


def _sixes_and_successes(n: int, need: int, reroll_one: bool) -> dict[tuple[int, int], float]:
    """P(natural 6s, successes) for ``n`` dice, with Guard Crew's reroll of one failed
    1 when ``reroll_one``."""
    p1, p6, ps, pf, one_ok, six_ok = _faces(need)
    out: dict[tuple[int, int], float] = {}
    fn = factorial(n)
    for a in range(n + 1):                  # 1s
        for b in range(n - a + 1):          # 6s
            for c in range(n - a - b + 1):  # other successes
                d = n - a - b - c
                p = fn / (factorial(a) * factorial(b) * factorial(c) * factorial(d)) * \
                    p1 ** a * p6 ** b * ps ** c * pf ** d
                if p == 0.0:
                    continue
                s = c + (b if six_ok else 0) + (a if one_ok else 0)
                if reroll_one and a and not one_ok:
                    for db, ds, q in ((1, 1 if six_ok else 0, p6), (0, 1, ps),
                                      (0, 0, p1 + pf)):
                        if q:
                            k = (b + db, s + ds)
                            out[k] = out.get(k, 0.0) + p * q
                else:
                    out[(b, s)] = out.get((b, s), 0.0) + p
    return out


def tally_hits(state: GameState, plan: Any, h: int, p: float, base_rank: int,
               out: list[float], burn_q: float | None = None) -> float:
    """Adds the chance ``p`` of scoring ``h`` hits to ``out`` (by the worst counter the
    target ends the phase with: none, disrupted, damaged, destroyed), through the cover
    roll and the counters the hits place (``combat.plan_counters``; a Damaged counter
    burns with ``burn_q``: Highly Flammable).  Returns the part of ``p`` that stops a
    mover (defensive fire)."""
    pc = plan.p_cover
    stopped = 0.0
    branches = ((True, pc), (False, 1 - pc)) if (plan.cover_need is not None
                                                  and h > 0) else ((False, 1.0),)
    for covered, pb in branches:
        if pb == 0.0:
            continue
        if plan.defensive:
            if h > 0 and not covered:
                out[1] += p * pb
                stopped += p * pb
            else:
                out[0] += p * pb
            continue
        new = combat.plan_counters(state, plan, h, covered) if h > 0 else []
        rank = max([base_rank] + [_RANK.get(c, 0) for c in new])
        if burn_q is not None and DAMAGED in new and rank == 2:
            out[3] += p * pb * burn_q
            out[2] += p * pb * (1 - burn_q)
        else:
            out[rank] += p * pb
    return stopped


def odds_from_successes(state: GameState, plan: Any, base: Any, dist: list[float]) -> Any:
    """Odds from a distribution of successes (``dist[s]``: the chance of ``s``): the hits
    table, cover and counters as :mod:`game.rules.odds` counts them.  For abilities that
    change how many successes an attack scores (Lead the Way's reroll)."""
    t = state.units[plan.target]
    base_rank = max((_RANK.get(c, 0) for c in t.pending), default=0)
    out = [0.0, 0.0, 0.0, 0.0]
    stopped = 0.0
    by_hits: dict[int, float] = {}
    for s, p in enumerate(dist):
        if not p:
            continue
        h = combat.plan_hits(state, plan, s)
        by_hits[h] = by_hits.get(h, 0.0) + p
        stopped += tally_hits(state, plan, h, p, base_rank, out)
    if plan.defensive and stopped and not base.p_stopped:
        stopped = 0.0                   # it moves on while disrupted (as the base odds say)
    hits = tuple(by_hits.get(k, 0.0) for k in range(max(4, max(by_hits) + 1)))
    return replace(base, p_none=out[0], p_disrupted=out[1], p_damaged=out[2],
                   p_destroyed=out[3], p_stopped=stopped, p_hits=hits)


def exact_odds(state: GameState, plan: Any, base: Any) -> Any:
    """Exact odds when an outcome depends on more than the number of successes:
    Hull-Mounted Flamethrower (three natural 6s destroy at once, defensive fire
    included), Highly Flammable (a Damaged counter burns on 3+), Guard Crew (one
    failed 1 is rolled again) and the natural 6s that count twice (Vast Experience, a
    Jet against an Aircraft).  Sums over (natural 6s, successes)."""
    a, t = state.units[plan.attacker], state.units[plan.target]
    flame = a.card.has("hull_mounted_flamethrower") and _flamethrower_applies(dict(
        role="attacker", distance=plan.distance, mode=plan.mode, attacker=a,
        attacker_hex=plan.attacker_hex, target_hex=plan.target_hex))
    burn = t.card.has("highly_flammable") and not plan.defensive
    reroll = a.card.has("guard_crew")
    double = plan.need <= 6 and sixes_count_twice(a, t)    # Vast Experience, Jet
    if not flame and not burn and not reroll and not double:
        return base
    joint = _sixes_and_successes(plan.dice, plan.need, reroll)
    base_rank = max((_RANK.get(c, 0) for c in t.pending), default=0)
    out = [0.0, 0.0, 0.0, 0.0]
    stopped = 0.0
    by_hits: dict[int, float] = {}
    cache: dict[Any, Any] = {}
    q_burn = (7 - HIGHLY_FLAMMABLE_NEED) / 6
    for (j, s), p in joint.items():
        if double:
            s += j                          # each natural 6 is a second success
        if s not in cache:
            cache[s] = combat.plan_hits(state, plan, s)
        h = cache[s]
        by_hits[h] = by_hits.get(h, 0.0) + p
        if flame and j >= FLAMETHROWER_SIXES:
            out[3] += p                     # destroyed at once (and stopped if moving)
            if plan.defensive:
                stopped += p
            continue
        stopped += tally_hits(state, plan, h, p, base_rank, out, q_burn if burn else None)
    hits = tuple(by_hits.get(k, 0.0) for k in range(max(4, max(by_hits) + 1)))
    return replace(base, p_none=out[0], p_disrupted=out[1], p_damaged=out[2],
                   p_destroyed=out[3], p_stopped=stopped, p_hits=hits)


@register("odds")
def _odds(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    return exact_odds(ctx["state"], ctx["plan"], value)
