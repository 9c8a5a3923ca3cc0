"""Exact odds of attacks whose outcome depends on more than the number of successes."""
from __future__ import annotations

from dataclasses import replace
from math import comb

from .. import combat
from ..state import DAMAGED, DESTROYED, DISRUPTED, GameState
from . import register
from .common import FLAMETHROWER_SIXES, HIGHLY_FLAMMABLE_NEED
from .attack_modes import _flamethrower_applies


_RANK = {DISRUPTED: 1, DAMAGED: 2, DESTROYED: 3}


def exact_odds(state: GameState, plan, base):
    """Exact odds when an outcome depends on more than the number of successes:
    Hull-Mounted Flamethrower (three natural 6s destroy) and Highly Flammable
    (a Damaged counter burns on 5+).  Sums over (natural 6s, other successes)."""
    a, t = state.units[plan.attacker], state.units[plan.target]
    if plan.defensive:
        return base
    flame = a.card.has("hull_mounted_flamethrower") and _flamethrower_applies(dict(
        role="attacker", distance=plan.distance, mode=plan.mode, attacker=a,
        attacker_hex=plan.attacker_hex, target_hex=plan.target_hex))
    burn = t.card.has("highly_flammable")
    if not flame and not burn:
        return base
    n = plan.dice
    six_ok = plan.need <= 6
    p6 = 1 / 6
    po = max(0, 6 - plan.need) / 6 if six_ok else 0.0     # a success that is not a 6
    pf = 1 - p6 - po
    base_rank = max((_RANK.get(c, 0) for c in t.pending), default=0)
    out = [0.0, 0.0, 0.0, 0.0]
    pc = plan.p_cover
    cache: dict = {}
    for j in range(n + 1):
        for k in range(n - j + 1):
            p = comb(n, j) * comb(n - j, k) * p6 ** j * po ** k * pf ** (n - j - k)
            if p == 0.0:
                continue
            s = k + (j if six_ok else 0)
            if s not in cache:
                cache[s] = combat.plan_hits(state, plan, s)
            h = cache[s]
            branches = ((True, pc), (False, 1 - pc)) if (plan.cover_need is not None
                                                          and h > 0) else ((False, 1.0),)
            for covered, pb in branches:
                if pb == 0.0:
                    continue
                new = combat.plan_counters(state, plan, h, covered) if h > 0 else []
                if flame and j >= FLAMETHROWER_SIXES and DESTROYED not in t.pending:
                    new = list(new) + [DESTROYED]
                rank = max([base_rank] + [_RANK.get(c, 0) for c in new])
                if burn and DAMAGED in new and rank == 2:
                    q = (7 - HIGHLY_FLAMMABLE_NEED) / 6
                    out[3] += p * pb * q
                    out[2] += p * pb * (1 - q)
                else:
                    out[rank] += p * pb
    return replace(base, p_none=out[0], p_disrupted=out[1], p_damaged=out[2],
                   p_destroyed=out[3])


@register("odds")
def _odds(value, ab, ctx):
    return exact_odds(ctx["state"], ctx["plan"], value)
