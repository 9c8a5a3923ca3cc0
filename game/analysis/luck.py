"""The luck report (issue 17): were the dice fair to each player?

Everything here is computed from a game's history, with the rules' own exact
odds (:func:`game.rules.odds.attack_odds`); no rule is copied.  The history is
replayed from ``game.origin`` with the origin's dice, so every position and
every roll is exactly the one that was played.  Before each attack and each
defensive shot the odds of that shot are asked of the rules; after it, what
the dice did is read from the rules' events.

Two numbers are compared for every player (the side that rolled):

* **hits**: expected = the sum over shots of the exact expected number of hits
  (``sum(k * p_hits[k])``, before the cover roll, as ``HitsScored`` counts
  them); actual = the hits the dice scored.
* **results** (disruptions or worse): a shot has a result when it leaves its
  target worse off - an attack makes the target's worst face-down counter of the
  phase worse (none -> Disrupted -> Damaged -> Destroyed, as the odds count
  them), defensive fire stops the mover with a face-up Disrupted counter;
  expected = the sum of each shot's exact chance of a result.

How unlikely the difference is: the exact distribution of each total is the
convolution of the shots' own distributions (independent dice), and the
report gives the chance of a total at least as far from the expectation on
the same side (``P(X >= actual)`` when above, ``P(X <= actual)`` when below).

A shot that rolls twice (Double Shot) counts each roll with the odds of its
position; a roll the report can't tie to an attack or defensive fire (an
ability's extra roll) is counted in ``unrated`` and left out.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from game.rules.actions import Attack, DefensiveFire
from game.rules.errors import IllegalAction
from game.rules.events import CounterPlaced, DiceRolled, HitsScored
from game.rules.odds import attack_odds
from game.rules.state import DAMAGED, DESTROYED, DISRUPTED

__all__ = ["Shot", "TurnPoint", "SideLuck", "LuckReport", "shots_of", "luck_report",
           "report_of_shots", "convolve", "tail", "one_in"]

SIDES = ("Axis", "Allies")


@dataclass(frozen=True)
class Shot:
    """One roll of attack dice, with the exact odds of its position."""
    turn: int
    side: str                 # the side that rolled
    attacker: str             # uid
    target: str               # uid
    attacker_name: str
    target_name: str
    defensive: bool
    p_hits: tuple             # chance of 0, 1, 2, ... hits
    p_result: float           # chance the shot leaves its target worse off
    hits: int                 # what the dice scored
    result: bool              # it did

    @property
    def expected_hits(self) -> float:
        return sum(k * p for k, p in enumerate(self.p_hits))


@dataclass(frozen=True)
class TurnPoint:
    turn: int
    expected_hits: float      # cumulative up to and including this turn
    hits: int
    expected_results: float
    results: int


@dataclass
class SideLuck:
    side: str
    shots: int = 0
    expected_hits: float = 0.0
    hits: int = 0
    expected_results: float = 0.0
    results: int = 0
    hits_dist: list = field(default_factory=lambda: [1.0])
    results_dist: list = field(default_factory=lambda: [1.0])
    series: list = field(default_factory=list)      # TurnPoint per turn

    @property
    def hits_tail(self) -> float:
        return tail(self.hits_dist, self.hits, self.expected_hits)

    @property
    def results_tail(self) -> float:
        return tail(self.results_dist, self.results, self.expected_results)

    def lines(self) -> list[str]:
        """Plain sentences for the screen."""
        out = [f"{self.shots} shot{'s' if self.shots != 1 else ''} rolled."]
        if not self.shots:
            return out
        out.append(_line("Hits", self.hits, self.expected_hits, self.hits_tail))
        out.append(_line("Disruptions or worse", self.results, self.expected_results,
                         self.results_tail))
        return out


@dataclass
class LuckReport:
    sides: dict                # side -> SideLuck
    shots: list                # every Shot, in order
    turns: list                # the turns covered, in order
    unrated: int = 0           # rolls the report could not tie to an attack

    def verdict(self) -> str:
        """Who the dice favoured, in one sentence."""
        a, b = self.sides["Axis"], self.sides["Allies"]
        if not a.shots and not b.shots:
            return "No shot has been fired yet."
        da = a.hits - a.expected_hits
        db = b.hits - b.expected_hits
        if abs(da - db) < 1.0:
            return "The dice were about even."
        lucky = "Axis" if da > db else "Allies"
        return f"The dice favoured the {lucky} player (hits against expectation)."


def _line(what: str, actual: float, expected: float, p: float) -> str:
    diff = actual - expected
    if abs(diff) < 0.05:
        how = "exactly as expected"
    else:
        word = "more" if diff > 0 else "fewer"
        how = (f"{abs(diff):.1f} {word} than expected; a result this "
               f"{'good' if diff > 0 else 'bad'} or more: {one_in(p)}")
    return f"{what}: {actual} (expected {expected:.1f}) - {how}."


def one_in(p: float) -> str:
    """'52%' or 'about 1 in 40' for a probability."""
    if p >= 0.095:
        return f"{p * 100:.0f}%"
    if p <= 0:
        return "less than 1 in a million"
    n = 1.0 / p
    if n > 1e6:
        return "less than 1 in a million"
    if n >= 100:
        n = round(n, -1 if n < 1000 else -2)
    return f"about 1 in {n:.0f}"


def convolve(a: list, b: Iterable) -> list:
    """Distribution of the sum of two independent counts."""
    b = list(b)
    out = [0.0] * (len(a) + len(b) - 1)
    for i, pa in enumerate(a):
        if pa:
            for j, pb in enumerate(b):
                out[i + j] += pa * pb
    return out


def tail(dist: list, actual: int, expected: float) -> float:
    """P(total >= actual) when actual is above the expectation, else P(total <= actual)."""
    if actual >= expected:
        return min(1.0, sum(dist[actual:]))
    return min(1.0, sum(dist[:actual + 1]))


def _rank(counter: str) -> int:
    """Order of the face-down counters, as the odds name their outcomes."""
    return {DISRUPTED: 1, DAMAGED: 2, DESTROYED: 3}.get(counter, 0)


def _p_result(state: Any, target: str, defensive: bool, odds: Any) -> tuple[float, int]:
    """(chance the shot leaves its target worse off, the target's rank before)."""
    if defensive:
        return odds.p_stopped, 0
    base = max((_rank(c) for c in state.units[target].pending), default=0)
    outcomes = (odds.p_none, odds.p_disrupted, odds.p_damaged, odds.p_destroyed)
    return sum(outcomes[base + 1:]), base


def shots_of(game: Any) -> tuple[list[Shot], int]:
    """Every attack roll of ``game``'s history with its exact odds, and the number
    of rolls left unrated.  Needs ``game.origin`` (``new_game`` and loaded saves set
    it); raises ``ValueError`` otherwise."""
    from game.rules.engine import Game
    if getattr(game, "origin", None) is None:
        raise ValueError("this battle has no recorded start, so its dice can't be replayed")
    state0, dice0 = game.origin[0], game.origin[1]
    g = Game(state0.copy(), dice0.copy())
    g.origin = game.origin
    shots: list[Shot] = []
    unrated = 0
    for action in game.history:
        st = g.state
        rated = None
        if isinstance(action, (Attack, DefensiveFire)):
            try:
                if isinstance(action, Attack):
                    attacker, target, mode, defensive = (action.uid, action.target,
                                                         action.mode, False)
                    at_hex = facing = None
                    odds = attack_odds(st, attacker, target, mode=mode)
                else:
                    p = st.pending
                    attacker, target, mode, defensive = action.uid, p.mover, "normal", True
                    at_hex, facing = p.at_hex, st.units[p.mover].facing
                    odds = attack_odds(st, attacker, target, defensive=True, at_hex=at_hex,
                                       facing=facing)
                p_res, base = _p_result(st, target, defensive, odds)
                rated = (attacker, target, defensive, tuple(odds.p_hits), p_res, base,
                         st.turn, st.units[attacker].side, st.units[attacker].name,
                         st.units[target].name)
            except IllegalAction:
                rated = None       # an ability's own attack the plain odds can't plan
        events = g.apply(action)
        current: list | None = None      # [hits, result] of the open roll

        def close() -> None:
            if current is not None:
                a, t, d, ph, pr, _, turn, side, an, tn = rated
                shots.append(Shot(turn, side, a, t, an, tn, d, ph, pr, current[0], current[1]))

        for ev in events:
            if isinstance(ev, DiceRolled) and ev.target is not None:
                close()
                current = None
                if rated is not None and ev.uid == rated[0] and ev.target == rated[1]:
                    current = [0, False]
                else:
                    unrated += 1
            elif current is not None and isinstance(ev, HitsScored) and ev.by == rated[0]:
                current[0] = ev.hits
            elif current is not None and isinstance(ev, CounterPlaced) and ev.by == rated[0]:
                # defensive fire: any counter stops the mover; an attack: a worse counter
                if rated[2] or _rank(ev.counter) > rated[5]:
                    current[1] = True
        close()
    return shots, unrated


def report_of_shots(shots: list[Shot], unrated: int = 0) -> LuckReport:
    sides = {s: SideLuck(s) for s in SIDES}
    turns = sorted({s.turn for s in shots})
    for s in shots:
        d = sides[s.side]
        d.shots += 1
        d.expected_hits += s.expected_hits
        d.hits += s.hits
        d.expected_results += s.p_result
        d.results += int(s.result)
        d.hits_dist = convolve(d.hits_dist, s.p_hits)
        d.results_dist = convolve(d.results_dist, (1.0 - s.p_result, s.p_result))
    for side, d in sides.items():
        eh = h = er = r = 0.0
        for turn in turns:
            for s in shots:
                if s.side == side and s.turn == turn:
                    eh += s.expected_hits
                    h += s.hits
                    er += s.p_result
                    r += int(s.result)
            d.series.append(TurnPoint(turn, eh, int(h), er, int(r)))
    return LuckReport(sides, list(shots), turns, unrated)


def luck_report(game: Any) -> LuckReport:
    """The luck report of a game so far (see the module text)."""
    shots, unrated = shots_of(game)
    return report_of_shots(shots, unrated)
