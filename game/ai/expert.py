"""The Expert: plans the whole phase on copies of the game and keeps the plan
that does best against the opponent's reply.

At every decision of a movement or assault phase (and at every defensive-fire
prompt) the Expert

0. has a plain plan ready first: the Expert policy (``game.ai.tactics``: the
   Veteran's scoring with a better order of fire, and on the turns where control
   of the objective decides, the attacks that clear the objective and the move
   that contests it);
1. lists candidate first actions - the plain plan's choice, the best move or
   attack of each other unit that may still act, ending the phase - each the
   start of a *joint plan* for the whole phase: after it, the rest of the phase
   is played out for all its units (and the opponent's defensive fire) on a
   copy of the game;
2. plays each plan on copies with their own seeded dice (never the game's
   dice: the real rolls are never peeked at), the same seeds for every plan so
   the plans are compared on the same luck; inside a copy its own side plays the
   policy scoring 8 hexes per unit exactly instead of 20 (cheaper rollouts, more of
   them in the budget); the opponent replies inside the
   copy (its defensive fire, and - with time to spare - its next phase: its
   movement and fire);
3. scores the position each copy reaches: material (the face-down counters of
   this phase at their worth), each side's coming fire with each unit firing
   once (:func:`shared_fire`: the rules' exact threat to every unit -
   ``game.rules.threat`` - gives who can attack whom with what odds; attacks are
   given out best first, a target already shot at worth what the earlier shots
   leave of it - in every phase: a position reached as the assault phase begins
   is about to fire), each unit's position as the policy scores a hex (the
   objective's distance, cover), and the objective
   valued by turn (control counts from turn 7 in the Standard scenario, points
   after turn 10 - asked of the rules' victory timing) - once: the policy's
   bonus for sending the only unit that can contest the objective is a reason
   to move, not part of a position's worth (session 11: counted per unit, it
   made a second unit at the objective cost the first one's bonus, and plans
   that kept one unit there replaced the plain one in the deciding turns);
4. rolls a plan out once when its rollout threw no dice (most movement phases: no
   movement roll, no defensive fire): the policies are deterministic, so every
   sample would play the same actions to the same score - such plans are compared
   on their exact scores and need no further samples;
5. keeps playing more dice samples for the best plans while its time budget
   (default 1 s per decision, counted in wall time - or in the thread's CPU time
   with ``clock="cpu"``, the arena's ``--clock cpu``) lasts - anytime: the plain
   plan's choice is ready before the first sample, so there is always a legal
   answer; a plan replaces it only when it wins clearly on the same dice.

It explains itself with the numbers of the plan it picked.

Why the fire is shared in the score (session 11): the policy scores each unit's hex on
its own - every enemy that can reach it counted against it, its best shot counted
whoever else fires there.  A plan scored as the sum of those scores is the plan the
policy already makes unit by unit, so the rollouts mostly confirmed it; scored with each
unit firing once, a plan that spreads the enemy's fire or piles its own on one target
can win.
"""
from __future__ import annotations

import time

from game.rules.actions import (Action, Attack, DefensiveFire, EndPhase, Move,
                                PassDefensiveFire)
from game.rules.dice import Dice
from game.rules.errors import IllegalAction
from game.rules.state import DefensiveFirePrompt, Phase, Unit, other_side
from game.rules.threat import victory_timing
from game.rules.wording import side_player

from game.ai.base import Player, SetupMixin
from game.ai.knowledge import View, control_hexes, outcome_worth, percent, unit_value
from game.ai.tactics import ExpertPolicy, holds_control
from game.ai.veteran import VeteranAI

__all__ = ["ExpertAI", "DEFAULT_BUDGET", "CLOCKS", "evaluate"]

DEFAULT_BUDGET = 1.0        # seconds per decision (a setting: ExpertAI(budget=...), --budget)
CLOCKS = {"wall": time.perf_counter, "cpu": time.thread_time}   # what the budget is counted in
MAX_CANDIDATES = 6          # assault phase: the plain plan's attack and the next best
MOVE_ALTS = 3               # movement: other moves of the unit the plain plan moves
OTHER_UNITS = 4             # ... and of this many other units (in the policy's order),
OTHER_ALTS = 1              # ... this many moves each
MAX_MOVE_PLANS = 7          # at most this many movement plans before "end the phase"
REPLY_BUDGET = 0.5          # with this much time the plans also play out the opponent's next phase
MIN_PAIRS = 4               # samples on the same dice before a plan may replace the plain one
MIN_GAIN = 1.5              # points a plan must win, on average, over the plain plan
PLAN_SHARE = 0.85           # share of the budget the plans' samples may use (the rest: a
                            # policy decision in a rollout started just before the deadline,
                            # scoring it, explaining)
ROLLOUT_PRESCREEN = 8       # hexes per unit our side's policy scores exactly inside a
                            # rollout (the plain plan itself: 20): cheaper rollouts, the
                            # same strength within noise (session 12: 67.0% and 61.0% on
                            # seeds 1 and 2; with 20, seed 1 62.0%)
ROLLOUT_ACTIONS = 80        # a phase played out on a copy never takes more actions than this

_RANK = {"disrupted": 1, "damaged": 2, "destroyed": 3}


def _worth_now(st, u: Unit) -> float:
    """A unit's value to its side, less what its face-down counters will take."""
    if not u.on_map:
        return 0.0
    rank = max((_RANK.get(c, 0) for c in u.pending), default=0)
    return unit_value(st, u) * (1.0 - outcome_worth(u, rank))


def objective_weight(st, side: str) -> float:
    """What sole control of the objective is worth now, in points (the rules'
    victory timing: nothing yet far from the deciding turns, the game itself at the
    end of a turn where control wins)."""
    vt = victory_timing(st)
    left = vt.turns_to_control
    if vt.scenario == "assault":
        base = 30.0 if left <= 1 else 14.0 if left <= 3 else 4.0
        return base
    return {0: 60.0, 1: 30.0, 2: 14.0, 3: 6.0}.get(left, 2.0)


SHARED_FIRE = True          # a position's fire counted with each unit firing once (below)
K_FIRE = 1.0                # weight of the expected points each side's next fire wins


def shared_fire(st, threats: dict, last_turn: bool = False) -> float:
    """Expected points one side's next fire wins when each of its units fires once:
    ``threats`` maps each unit of the other side to the rules' threat to it (every
    enemy that could attack it, with exact odds).  Attacks are given out greedily, the
    best expected gain first; a target already shot at is worth only what the earlier
    shots are expected to leave of it (so fire spreads or piles up as it pays).  On the
    turn whose end counts the points only destroying a unit counts."""
    value: dict[str, float] = {}
    options: dict[str, list[tuple[str, float]]] = {}
    for tid in sorted(threats):
        t = st.units[tid]
        value[tid] = _worth_now(st, t)
        for src in threats[tid].sources:
            o = src.odds
            if last_turn:
                frac = o.p_destroyed
            else:
                frac = (o.p_disrupted * outcome_worth(t, 1) + o.p_damaged * outcome_worth(t, 2)
                        + o.p_destroyed * outcome_worth(t, 3))
            if frac > 0:
                options.setdefault(src.attacker, []).append((tid, frac))
    left = {tid: 1.0 for tid in value}
    free = sorted(options)
    total = 0.0
    while free:
        best = None
        for a in free:
            for tid, frac in options[a]:
                g = value[tid] * left[tid] * frac
                if best is None or g > best[0]:
                    best = (g, a, tid, frac)
        if best is None or best[0] <= 0:
            break
        g, a, tid, frac = best
        total += g
        left[tid] *= 1.0 - frac
        free.remove(a)
    return total


def evaluate(game, side: str, me: VeteranAI | None = None, foe: VeteranAI | None = None) -> float:
    """How good the position is for ``side`` (points): material (face-down counters
    at their worth), each unit's position as the policy scores a hex (the objective's
    distance, cover) for both sides, each side's coming fire with every unit firing
    once (:func:`shared_fire`, the rules' exact threat; with both policies given -
    otherwise each hex score's own threat and next shot), and sole control of the
    objective valued by turn."""
    st = game.state
    if st.outcome is not None:
        if st.outcome.winner == side:
            return 1000.0
        if st.outcome.winner is None:
            return 0.0
        return -1000.0
    foe_side = other_side(side)
    mine = [u for u in st.units.values() if u.side == side and u.on_map]
    theirs = [u for u in st.units.values() if u.side == foe_side and u.on_map]
    score = sum(_worth_now(st, u) for u in mine) - sum(_worth_now(st, u) for u in theirs)
    threats: dict[str, dict] = {}
    for pol, units, sign, who in ((me, mine, 1.0, side), (foe, theirs, -0.7, foe_side)):
        if pol is None:
            continue
        pol.view = View(game, who)
        shared = SHARED_FIRE and me is not None and foe is not None
        for u in units:
            if u.boarded or any(c == "destroyed" for c in u.pending):
                continue
            # the unit's next shot from where it stands counts in every phase (the hex
            # score leaves it out only when choosing an assault move, after which the
            # unit can't fire; a position reached as the assault phase begins is about to
            # fire); the bonus a move gets for sending the only unit that can contest the
            # objective is a reason to move, not a position's worth: counted per unit it
            # made a second unit there cost the first one's bonus (control is valued
            # below, by turn)
            parts: dict = {}
            v = pol.hex_score(game, u, u.hex, assault=False, facing=u.facing, parts=parts,
                              contest=False)
            if shared:
                # the fire of both sides is counted below, each unit firing once
                v -= parts.get("threat", 0.0) + parts.get("shot", 0.0)
                threats.setdefault(who, {})[u.uid] = pol.view.threat(u, u.hex, u.facing)
            score += sign * v
    if threats:
        last = victory_timing(st).points_count_now
        score += K_FIRE * (shared_fire(st, threats.get(foe_side, {}), last)
                           - shared_fire(st, threats.get(side, {}), last))
    obj = st.objective
    if obj is not None:
        near = control_hexes(game)
        w = objective_weight(st, side)
        # a unit whose face-down counters destroy it at the casualty step holds nothing
        here = any(holds_control(u, near) for u in mine)
        there = any(holds_control(u, near) for u in theirs)
        if here and not there:
            score += w
        elif there and not here:
            score -= w
    return score


class _Plan:
    """A joint plan for the phase: its first action (``None``: the Veteran's plan
    with the units in ``hold`` kept where they are) and its sampled scores."""
    __slots__ = ("action", "prior", "scores", "why", "hold", "exact")

    def __init__(self, action: Action | None, prior: float, why: str) -> None:
        self.hold: frozenset = frozenset()
        self.action = action
        self.prior = prior
        self.scores: list[float] = []
        self.why = why
        # True once a rollout of the plan threw no dice: the policies are deterministic,
        # so every sample would play the same actions to the same score (most movement
        # phases); its first score is its exact worth and it needs no more rollouts
        self.exact = False

    @property
    def mean(self) -> float:
        xs = [x for x in self.scores if x is not None]
        return sum(xs) / len(xs) if xs else float("-inf")


def _paired(pl: "_Plan", base: "_Plan") -> tuple[int, float, float]:
    """Samples both plans have on the same dice: (count, mean difference, its standard error)."""
    d = [a - b for a, b in zip(pl.scores, base.scores) if a is not None and b is not None]
    n = len(d)
    if n == 0:
        return 0, float("-inf"), float("inf")
    m = sum(d) / n
    if pl.exact and base.exact:
        return n, m, 0.0               # both scores exact: the difference is known
    if n == 1:
        return 1, m, float("inf")
    var = sum((x - m) ** 2 for x in d) / (n - 1)
    return n, m, (var / n) ** 0.5


class ExpertAI(SetupMixin, Player):
    level = "expert"

    def __init__(self, seed: int | None = None, budget: float | None = None,
                 samples: int | None = None, clock: str = "wall") -> None:
        """``budget``: seconds per decision; ``samples``: at most this many dice samples
        per plan (None: as many as the budget allows) - with a budget that is never
        reached, a fixed count makes the Expert's choices reproducible (tests).
        ``clock``: what the budget counts - ``"wall"`` (what a player waits: the game's
        UI) or ``"cpu"`` (this thread's CPU time: the arena's ``--clock cpu``, so a
        measurement does not depend on what else the machine runs)."""
        super().__init__(seed)
        self.budget = DEFAULT_BUDGET if budget is None else float(budget)
        self.set_clock(clock)
        self.max_samples = samples
        self.seed = seed if seed is not None else 0
        # candidates and the plain plan: the Veteran's scoring with the Expert's order of
        # fire and deciding-turn tactics (game.ai.tactics); the opponent is modelled as a
        # Veteran
        self.vet: VeteranAI = ExpertPolicy(seed)
        self.me_policy: VeteranAI = ExpertPolicy(self.seed + 11)
        self.me_policy.prescreen = ROLLOUT_PRESCREEN
        self.foe_policy = VeteranAI(self.seed + 13)
        self.decisions = 0
        self.last_samples = 0
        self.deviated = False
        # how the search went (the arena prints it): decisions with one candidate only,
        # decisions planned, those where a plan replaced the plain one, rollouts played,
        # decisions whose search stopped early because no plan could get enough samples
        # in the time left to replace the plain one, and decisions whose every plan was
        # exact (no dice in its rollout)
        self.plan_stats = {"alone": 0, "planned": 0, "replaced": 0, "rollouts": 0, "cut": 0,
                           "exact": 0}
        self.debug = False
        self._deciding = False
        self._last_rolls = 0          # dice the last rollout threw

    def set_clock(self, clock: str) -> None:
        if clock not in CLOCKS:
            raise ValueError(f"unknown clock '{clock}' (expected one of: {', '.join(CLOCKS)})")
        self.clock_name = clock
        self.clock = CLOCKS[clock]

    # --- dispatch --------------------------------------------------------------------------------
    def pick(self, game) -> Action | None:
        st = game.state
        side = st.to_act
        if side is None:
            return None
        self.decisions += 1
        if isinstance(st.pending, DefensiveFirePrompt):
            return self.plan(game, side)
        if st.pending is not None or not (st.phase.is_movement or st.phase.is_assault):
            a = self.vet.pick(game)          # setup, deployment, placements: the Veteran's way
            self.last_explanation = self.vet.last_explanation
            return a
        return self.plan(game, side)

    # --- candidates ------------------------------------------------------------------------------
    def candidates(self, game, side: str, deadline: float) -> list[_Plan]:
        st = game.state
        vet = self.vet
        first = vet.pick(game)
        why = vet.last_explanation
        plans: list[_Plan] = []
        seen: set = set()

        def add(a: Action | None, prior: float, text: str) -> None:
            if a is None or a in seen or game.check(a) is not None:
                return
            seen.add(a)
            plans.append(_Plan(a, prior, text))

        add(first, 1.0, why)
        p = st.pending
        if isinstance(p, DefensiveFirePrompt):
            add(PassDefensiveFire(side), 0.5, f"{side_player(side)} holds fire.")
            mover = st.units[p.mover]
            shots = []
            for uid in p.eligible:
                try:
                    o = game.odds(uid, mover.uid, defensive=True, at_hex=p.at_hex)
                except IllegalAction:
                    continue
                shots.append((o.p_stopped, uid))
            shots.sort(reverse=True)
            for ps, uid in shots[:2]:
                add(DefensiveFire(side, uid), ps,
                    f"{st.units[uid].name} fires defensively at {mover.name}: "
                    f"{percent(ps)} to stop it.")
            return plans
        if st.phase.is_assault and self.clock() < deadline:
            done = set(getattr(vet, "_done", set()))
            for g, a, odds, t in vet.attack_candidates(game, side)[:8]:
                if g <= 0.05:
                    break
                add(a, g, f"{st.units[a.uid].name} attacks {t.name}.")
                if len(plans) >= MAX_CANDIDATES - 1:
                    break
            vet._done = done
        if st.phase.is_movement and self.clock() < deadline:
            # the same unit elsewhere, or held back; then other units' best moves
            u = st.units.get(getattr(first, "uid", "")) if isinstance(first, Move) else None
            if u is not None:
                for sc, a, text in (vet.move_options(game, u, assault=False, k=MOVE_ALTS)
                                if self.clock() < deadline else []):
                    add(a, 0.6, text)
                hold = _Plan(None, 0.4, f"{u.name} stays where it is.")
                hold.hold = frozenset(set(getattr(vet, "_done", set())) | {u.uid})
                plans.append(hold)
            order = vet._order(game, side)
            for o in order[:OTHER_UNITS]:
                if self.clock() > deadline or len(plans) >= MAX_MOVE_PLANS:
                    break
                if o.boarded or o is u:
                    continue
                for sc, a, text in vet.move_options(game, o, assault=False, k=OTHER_ALTS):
                    add(a, 0.5, text)
        add(EndPhase(side), 0.1, f"{side_player(side)} ends the "
            f"{'assault' if st.phase.is_assault else 'movement'} phase.")
        self.vet.last_explanation = why
        return plans

    # --- planning ------------------------------------------------------------------------------------
    def plan(self, game, side: str) -> Action | None:
        t0 = self.clock()
        # the rest of the budget: a Veteran decision inside a rollout that started just
        # before the deadline, the plain plan's own choice, explaining
        deadline = t0 + PLAN_SHARE * self.budget
        plans = self.candidates(game, side, t0 + 0.3 * self.budget)
        if not plans:
            return None
        if len(plans) == 1:
            self.plan_stats["alone"] += 1
            self.deviated = False
            self.say(plans[0].why)
            return plans[0].action
        key = (game.state.turn, game.state.phase)
        self._deciding = game.state.objective is not None and \
            victory_timing(game.state).control_counts_now
        sample = 0
        vet_plan = plans[0]
        live = list(plans)
        fastest = float("inf")        # the quickest rollout so far (CPU or wall: the clock's)
        while live and self.clock() < deadline:
            seed = self.seed * 7919 + self.decisions * 131 + sample
            for pl in live:
                if pl.exact:                           # the same actions on any dice
                    pl.scores.append(next(x for x in pl.scores if x is not None))
                    continue
                c0 = self.clock()
                if c0 > deadline:
                    break
                v = self.rollout(game, side, pl, seed, key, deadline)
                pl.scores.append(v)
                if v is not None:
                    fastest = min(fastest, self.clock() - c0)
                    pl.exact = self._last_rolls == 0
                self.plan_stats["rollouts"] += 1
                if self._hopeless(vet_plan, live, fastest, deadline):
                    break
            sample += 1
            if all(pl.exact for pl in live):
                break                   # every plan's worth is known
            if self._hopeless(vet_plan, live, fastest, deadline):
                self.plan_stats["cut"] += 1
                break
            # successive halving: keep the better half (the Veteran's plan always stays)
            if sample >= 2 and len(live) > 2:
                rest = sorted((pl for pl in live if pl is not vet_plan),
                              key=lambda pl: -_paired(pl, vet_plan)[1])
                live = [vet_plan] + rest[:max(1, len(rest) // 2)]
            if sample >= (self.max_samples or 24) or len(live) == 1:
                break
        self.last_samples = sample
        # a plan replaces the Veteran's only when it is clearly better on the same dice
        best, best_gain = vet_plan, 0.0
        for pl in plans:
            if pl is vet_plan:
                continue
            n, mean, se = _paired(pl, vet_plan)
            enough = n >= MIN_PAIRS or (n >= 1 and pl.exact and vet_plan.exact)
            if enough and mean > max(MIN_GAIN, 2.5 * se) and mean > best_gain:
                best, best_gain = pl, mean
        rated = [pl for pl in plans if pl.scores and any(x is not None for x in pl.scores)]
        if best.action is None:
            vet = self.vet
            saved = set(getattr(vet, "_done", set()))
            vet._done = set(best.hold)
            a = vet.pick(game)
            if vet._phase_key != (game.state.turn, game.state.phase, side):
                vet._phase_key = (game.state.turn, game.state.phase, side)
                vet._done = set(best.hold)
                a = vet.pick(game)
            vet._done |= saved
            best.action = a if a is not None and game.check(a) is None else EndPhase(side)
            best.why = best.why.rstrip(".") + "; " + vet.last_explanation
        tries = min(sample, max((len(pl.scores) for pl in rated), default=0))
        rolls = f"{tries} roll{'s' if tries != 1 else ''} of the dice"
        if len(rated) < 2 or tries == 0:
            tail = " It had no time to try other plans for this phase."
        elif all(pl.exact for pl in rated):
            self.plan_stats["exact"] += 1
            tail = (f" It played out {len(rated)} plans for this phase (no dice in them): "
                    + ("none did clearly better." if best is vet_plan else
                       f"this one came out {best_gain:.0f} points ahead of the obvious move."))
        elif best is vet_plan:
            tail = f" It tried {len(rated)} plans for this phase on {rolls}; none did clearly better."
        else:
            tail = (f" It tried {len(rated)} plans for this phase on {rolls}: this one came out "
                    f"{best_gain:.0f} points ahead of the obvious move.")
        self.say(self._explain(game, best) + tail)
        self.deviated = best is not vet_plan
        self.plan_stats["planned"] += 1
        self.plan_stats["replaced"] += self.deviated
        if self.deviated and self.debug:
            print("DEVIATE", game.state.turn, game.state.phase.value, round(best_gain, 1),
                  best.why[:60], "| instead of", vet_plan.why[:60])
        return best.action

    def _hopeless(self, vet_plan: "_Plan", live: list["_Plan"], fastest: float,
                  deadline: float) -> bool:
        """No plan can still replace the plain one: even at the quickest rollout time
        seen, the samples a challenger lacks (``MIN_PAIRS`` on the same dice as the
        plain plan) do not fit in the time left (anytime: the search may stop)."""
        if fastest == float("inf"):
            return False
        def lacks(pl: "_Plan") -> int:
            """Rollouts ``pl`` still needs (none once its worth is known exactly)."""
            if pl.exact:
                return 0
            return max(0, MIN_PAIRS - sum(1 for x in pl.scores if x is not None))
        need = min((lacks(pl) + lacks(vet_plan) for pl in live if pl is not vet_plan),
                   default=None)
        if need is None:
            return True
        return need * fastest > deadline - self.clock()

    def _explain(self, game, pl: _Plan) -> str:
        st = game.state
        a = pl.action
        p = st.pending
        if isinstance(a, PassDefensiveFire) and isinstance(p, DefensiveFirePrompt):
            mover = st.units[p.mover]
            mv = unit_value(st, mover)
            bigger = [u for u in st.units.values() if u.side == mover.side and u.on_map
                      and not u.acted and u.uid != mover.uid and not u.boarded
                      and unit_value(st, u) >= 2 * mv]
            if bigger and p.eligible:
                big = max(bigger, key=lambda u: unit_value(st, u))
                firer = st.units[p.eligible[0]]
                ratio = unit_value(st, big) / max(1.0, mv)
                return (f"Holds {firer.name}'s defensive fire: {big.name} behind "
                        f"{mover.name} is {ratio:.0f}x the target.")
            return f"Holds fire at {mover.name}."
        return pl.why.rstrip(".") + "."

    def rollout(self, game, side: str, plan: "_Plan", seed: int, key: tuple,
                deadline: float) -> float | None:
        """Play the plan and the rest of the phase on a copy with its own dice;
        score the position for ``side``.  None when time ran out on the way."""
        g = game.copy()
        g.dice = Dice(seed)
        for pol in (self.me_policy, self.foe_policy):
            pol._phase_key = None
            pol._done = set()
        if plan.action is not None:
            try:
                g.apply(plan.action)
            except IllegalAction:
                return None
        else:
            pol = self.me_policy
            pol._phase_key = (g.state.turn, g.state.phase, side)
            pol._done = set(plan.hold)
        n = 0
        phases = 0
        last = key
        # with time to spare, or on a turn where control of the objective decides, the
        # opponent's next phase is played out too (it is what decides the turn)
        horizon = 2 if self.budget >= REPLY_BUDGET or self._deciding else 1
        at_end = None                 # the score where the phase ends (the rules' threat
        while not g.over and n < ROLLOUT_ACTIONS:   # stands for every reply there)
            now = (g.state.turn, g.state.phase)
            if now != last:
                phases += 1
                last = now
                if phases >= horizon or not (g.state.phase.is_movement or
                                             g.state.phase.is_assault):
                    break
                at_end = evaluate(g, side, self.me_policy, self.foe_policy)
            if self.clock() > deadline:
                return None
            who = g.state.to_act
            pol = self.me_policy if who == side else self.foe_policy
            a = pol.choose(g)
            g.apply(a)
            n += 1
        if self.clock() > deadline:
            return None               # no time left to score it: the sample is dropped
        self._last_rolls = g.dice.rolls
        final = evaluate(g, side, self.me_policy, self.foe_policy)
        # the opponent played like the Veteran in the copy; a real one may find the
        # replies the threat counts: both views count half
        return final if at_end is None else 0.5 * (final + at_end)
