"""Exact outcome probabilities of one attack (issue 4: Exact odds).

:func:`attack_odds` plans the attack with the same code the real attack uses
(:func:`game.rules.combat.plan_attack`, ``plan_hits``, ``plan_counters``), then
sums over the binomial distribution of successes and the cover roll - no
simulation.  What each probability means:

* Normal attack: the target's worst face-down counter *after* this attack,
  counting the face-down counters it already carries this phase.
  ``p_none`` = it will carry no face-down counter; ``p_disrupted`` = its worst is
  Disrupted; ``p_damaged`` = Damaged; ``p_destroyed`` = Destroyed.  (A target that
  already has a face-down Disrupted has ``p_none == 0``.)
* Defensive fire: ``p_stopped`` = the shot hits and cover doesn't negate it
  (face-up Disrupted at once, the move ends); ``p_disrupted == p_stopped`` and
  ``p_none`` is the rest.  Defensive fire never damages or destroys.

The four outcome probabilities always sum to 1.
"""
from __future__ import annotations

from typing import Any

from dataclasses import dataclass
from math import comb

from . import abilities
from .combat import AttackPlan, hits_for, plan_attack, plan_counters, plan_hits
from .hexes import Hex
from .later.combat import defensive_fire_stops
from .state import DAMAGED, DESTROYED, DISRUPTED, GameState

__all__ = ["Odds", "attack_odds", "odds_for_plan", "binomial", "simulate_attack"]

_RANK = {DISRUPTED: 1, DAMAGED: 2, DESTROYED: 3}


@dataclass(frozen=True)
class Odds:
    p_none: float
    p_disrupted: float
    p_damaged: float
    p_destroyed: float
    p_stopped: float
    dice: int
    need: int                       # face an attack die needs (4 = "4+"; 7 = impossible)
    defense: int                    # defense used (front/rear, -1 disrupted/damaged)
    cover_need: int | None          # cover roll face needed, None = no cover roll
    front: bool | None              # Vehicles: front/rear defense used; Soldiers: None
    band: str = ""
    distance: int = 0
    mode: str = "normal"
    defensive: bool = False
    p_hits: tuple[float, ...] = ()  # chance of 0, 1, 2, 3 hits (before cover)

    @property
    def cover_roll(self) -> int | None:
        """Name used by docs/engine-api.md for ``cover_need``."""
        return self.cover_need

    @property
    def p_hit(self) -> float:
        """Chance of at least one hit before the cover roll."""
        return 1.0 - self.p_hits[0] if self.p_hits else 0.0

    def as_dict(self) -> dict[str, float]:
        return {"none": self.p_none, "disrupted": self.p_disrupted,
                "damaged": self.p_damaged, "destroyed": self.p_destroyed,
                "stopped": self.p_stopped}


@dataclass(frozen=True)
class TargetInfo:
    """One attack ``Game.targets`` offers: target, range, dice, front/rear, cover, odds."""

    target: str
    distance: int
    band: str
    dice: int
    front: bool | None
    cover: bool
    odds: Odds
    mode: str = "normal"


def targets(state: GameState, uid: str, extra_actions: list[Any]) -> list[TargetInfo]:
    """Every enemy ``uid`` may attack from where it is, in every mode its abilities
    offer (``extra_actions``: the abilities' actions for it), with exact odds."""
    from .actions import Attack
    from .errors import IllegalAction
    u = state.units[uid]
    if not u.on_map:
        return []
    modes = ["normal"] + [a.mode for a in extra_actions
                          if isinstance(a, Attack) and a.mode != "normal"]
    out: list[TargetInfo] = []
    for t in state.units.values():
        if not t.on_map or t.side == u.side:
            continue
        for mode in dict.fromkeys(modes):
            try:
                plan = plan_attack(state, uid, t.uid, mode=mode)
            except IllegalAction:
                continue
            out.append(TargetInfo(t.uid, plan.distance, plan.band, plan.dice, plan.front,
                                  plan.cover_need is not None, odds_for_plan(state, plan), mode))
    return out


def binomial(n: int, p: float) -> list[float]:
    """P(exactly k successes) for k = 0..n."""
    if p <= 0.0:
        return [1.0] + [0.0] * n
    if p >= 1.0:
        return [0.0] * n + [1.0]
    q = 1.0 - p
    return [comb(n, k) * p ** k * q ** (n - k) for k in range(n + 1)]


def attack_odds(state: GameState, attacker_uid: str, target_uid: str, *,
                mode: str = "normal", defensive: bool = False, at_hex: Hex | None = None,
                facing: int | None = None) -> Odds:
    """Exact odds of an attack the rules allow (raises ``IllegalAction`` otherwise)."""
    plan = plan_attack(state, attacker_uid, target_uid, mode=mode, defensive=defensive,
                       at_hex=at_hex, facing=facing)
    return odds_for_plan(state, plan)


def odds_for_plan(state: GameState, plan: AttackPlan) -> Odds:
    target = state.units[plan.target]
    pmf = binomial(plan.dice, plan.p_success)
    by_hits: dict[int, float] = {}
    hooked = "hits" in plan.hot if plan.hot is not None else abilities.has_hooks("hits")
    for s, p in enumerate(pmf):
        if p:
            h = plan_hits(state, plan, s) if hooked else hits_for(s, plan.defense)
            by_hits[h] = by_hits.get(h, 0.0) + p
    pc = plan.p_cover
    out = [0.0, 0.0, 0.0, 0.0]          # worst face-down counter: none, dis, dam, des
    stopped = 0.0
    base_rank = max((_RANK.get(c, 0) for c in target.pending), default=0)
    for h, p in by_hits.items():
        if h <= 0:
            if plan.defensive:
                out[0] += p
            else:
                out[base_rank] += p
            continue
        branches = ((True, p * pc), (False, p * (1.0 - pc))) if plan.cover_need is not None else (
            (False, p),)
        for covered, pb in branches:
            if not pb:
                continue
            if plan.defensive:
                if covered:
                    out[0] += pb
                else:
                    out[1] += pb
                    stopped += pb
                continue
            new = plan_counters(state, plan, h, covered)
            rank = max([base_rank] + [_RANK.get(c, 0) for c in new])
            out[rank] += pb
    if plan.defensive and stopped and not defensive_fire_stops(state, target):
        stopped = 0.0                   # checklist L18: it moves on while disrupted
    hits_dist = tuple(by_hits.get(k, 0.0) for k in range(max(4, max(by_hits) + 1)))
    odds = Odds(p_none=out[0], p_disrupted=out[1], p_damaged=out[2], p_destroyed=out[3],
                p_stopped=stopped, dice=plan.dice, need=plan.need, defense=plan.defense,
                cover_need=plan.cover_need, front=plan.front, band=plan.band,
                distance=plan.distance, mode=plan.mode, defensive=plan.defensive,
                p_hits=hits_dist)
    if abilities.HOOKS.get("odds"):
        # abilities whose effect depends on more than the successes (natural 6s, a
        # roll on a Damaged counter) recompute the distribution exactly
        odds = abilities.apply("odds", odds, state=state, attacker=state.units[plan.attacker],
                               target=target, plan=plan)
    return odds


def simulate_attack(state: GameState, attacker_uid: str, target_uid: str, n: int, dice: Any,
                    **kw: Any) -> tuple[list[float], float]:
    """Check the exact odds against the real attack code: run ``resolve_attack`` ``n``
    times from the same position (the target's counters restored before each roll) and
    return the frequencies of [none, disrupted, damaged, destroyed] (the target's worst
    face-down counter after the attack; for defensive fire: not stopped / stopped) and the
    frequency of a stopped mover.  Used by the odds tests and bench/odds_bench.py."""
    from .combat import resolve_attack
    from .events import UnitStopped
    target = state.units[target_uid]
    start_pending, start_disrupted = list(target.pending), target.disrupted
    rank = {DISRUPTED: 1, DAMAGED: 2, DESTROYED: 3}
    tally = [0, 0, 0, 0]
    stopped = 0
    try:
        for _ in range(n):
            target.pending, target.disrupted = list(start_pending), start_disrupted
            events = resolve_attack(state, attacker_uid, target_uid, dice, **kw)
            if kw.get("defensive"):
                hit = any(isinstance(e, UnitStopped) for e in events)
                stopped += hit
                tally[1 if hit else 0] += 1
            else:
                tally[max([0] + [rank[c] for c in target.pending])] += 1
    finally:
        target.pending, target.disrupted = start_pending, start_disrupted
    return [x / n for x in tally], stopped / n
