"""Random games with armies from the full roster (issue 5): how many games end
without errors, how long they take, and how often abilities fired.

    .venv/bin/python bench/abilities_bench.py [games] [first_seed]
"""
from __future__ import annotations

import collections
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.rules.engine_kit import check_invariants, quick_policy  # noqa: E402
from tests.rules.test_abilities_property import BOARD, random_armies  # noqa: E402
from game.debug import counted_errors  # noqa: E402
from game.rules.actions import Attack, DefensiveFire, EndPhase, Move  # noqa: E402
from game.rules.dice import Dice  # noqa: E402
from game.rules.engine import new_game  # noqa: E402


def fighting_policy(rng: random.Random):
    """Attacks and fires whenever it can (so abilities fire often), else moves toward
    the enemy now and then, else ends the phase."""
    def choose(game):
        acts = game.legal_actions()
        shots = [a for a in acts if isinstance(a, (Attack, DefensiveFire))]
        if shots and rng.random() < 0.9:
            return rng.choice(shots)
        moves = [a for a in acts if isinstance(a, Move)]
        ends = [a for a in acts if isinstance(a, EndPhase)]
        if moves and (not ends or rng.random() < 0.5):
            return rng.choice(moves)
        if ends:
            return ends[0]
        return rng.choice(acts)
    return choose


def main(argv: list[str]) -> int:
    games = int(argv[0]) if argv else 200
    first = int(argv[1]) if len(argv) > 1 else 1000
    counts: collections.Counter = collections.Counter()
    failures = 0
    actions = 0
    t0 = time.perf_counter()
    for seed in range(first, first + games):
        g = new_game(BOARD, random_armies(seed), scenario="assault" if seed % 5 == 0
                     else "standard", dice=Dice(seed), options={"turn_limit": 8})
        rng = random.Random(seed)
        choose = fighting_policy(rng) if seed % 2 else quick_policy(rng, end_bias=0.3)
        try:
            while not g.over and actions < 10 ** 9:
                a = choose(g)
                was_acted = getattr(g.state.units.get(getattr(a, "uid", ""), None),
                                    "acted", False)
                ev = g.apply(a)
                actions += 1
                if isinstance(a, Attack):
                    counts["attack:" + a.mode] += 1
                    if was_acted:
                        counts["extra attack"] += 1
                for e in ev:
                    if e.kind in ("AbilityUsed", "AbilityRoll"):
                        counts[f"{e.kind}: {e.ability}"] += 1
            check_invariants(g)
        except counted_errors() as exc:                # report and go on (raised in debug mode)
            failures += 1
            print(f"seed {seed}: {type(exc).__name__}: {exc}")
    dt = time.perf_counter() - t0
    print(f"{games} games, {failures} failures, {actions} actions, {dt:.1f} s "
          f"({dt / games * 1000:.0f} ms per game, {actions / dt:.0f} actions/s)")
    for k, v in sorted(counts.items()):
        print(f"  {k:45s} {v}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
