"""Engine benchmark: legal-move computation and full random games.

    python bench/engine_bench.py [--games N] [--seed S]

1. Legal moves per unit on a real 171-hex configuration with 30 units (15 per
   side, roster cards): the time of ``movement.reachable`` (uncached search) and
   of ``Game.reachable`` (the façade, cached per state), p50/p95 over many
   positions taken from random games; plus ``Game.legal_actions`` per position.
2. Full random-vs-random games (sample armies, every configuration in turn):
   time per game and per action, with the invariant checks of the property test
   (tests/rules/engine_kit.check_invariants) - the thousands-of-games version of
   tests/rules/test_property_games.py: ``--games 2000``.

Times are CPU time of this process (``time.process_time``), so a busy machine
does not inflate them.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from game.data.armies import sample_army  # noqa: E402
from game.data.maps import load_configuration  # noqa: E402
from game.data.units import load_roster  # noqa: E402
from game.rules import movement  # noqa: E402
from game.rules.dice import Dice  # noqa: E402
from game.rules.engine import new_game  # noqa: E402
from game.rules.state import Phase  # noqa: E402
from tests.rules.engine_kit import check_invariants, quick_policy  # noqa: E402


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def thirty_units(rng: random.Random):
    roster = list(load_roster().values())
    armies = {}
    for side in ("Axis", "Allies"):
        cards = [c for c in roster if c.side == side]
        armies[side] = [rng.choice(cards) for _ in range(15)]
    return armies


def bench_moves(seed: int, positions: int = 40) -> None:
    rng = random.Random(seed)
    raw, facade, legal = [], [], []
    cfg_times = {}
    for n in range(1, 7):
        bm = load_configuration(n)
        t0 = time.process_time()
        bm.los  # noqa: B018 - build the LOS table outside the timings
        cfg_times[n] = time.process_time() - t0
    taken = 0
    game_no = 0
    while taken < positions:
        bm = load_configuration(1 + game_no % 6)
        g = new_game(bm, thirty_units(rng), dice=Dice(seed + game_no),
                     options={"turn_limit": 12})
        choose = quick_policy(rng, 0.5)
        game_no += 1
        while not g.over and taken < positions:
            g.apply(choose(g))
            st = g.state
            if st.phase in (Phase.MOVEMENT_FIRST, Phase.ASSAULT_FIRST) and st.pending is None \
                    and rng.random() < 0.2:
                taken += 1
                for u in st.live_units(st.active_side):
                    movement._graph(bm).cache.clear()
                    t0 = time.process_time()
                    movement.reachable(st, u.uid)
                    raw.append(time.process_time() - t0)
                    g._reach_cache.clear()
                    t0 = time.process_time()
                    g.reachable(u.uid)
                    facade.append(time.process_time() - t0)
                g._legal_cache = None
                t0 = time.process_time()
                g.legal_actions()
                legal.append(time.process_time() - t0)
    ms = 1000
    print(f"LOS table per configuration (built once per map): "
          f"{min(cfg_times.values()) * ms:.0f}-{max(cfg_times.values()) * ms:.0f} ms")
    print(f"reachable, uncached search, per unit ({len(raw)} samples, 30 units on 171 hexes): "
          f"p50 {pct(raw, 50) * ms:.2f} ms, p95 {pct(raw, 95) * ms:.2f} ms, "
          f"max {max(raw) * ms:.2f} ms")
    print(f"Game.reachable (cached hook-free search) per unit: p50 {pct(facade, 50) * ms:.2f} ms, "
          f"p95 {pct(facade, 95) * ms:.2f} ms")
    print(f"Game.legal_actions per position ({len(legal)} positions): "
          f"p50 {pct(legal, 50) * ms:.1f} ms, p95 {pct(legal, 95) * ms:.1f} ms")


def bench_games(games: int, seed: int, check: bool) -> None:
    armies = {"Axis": sample_army("Axis").cards, "Allies": sample_army("Allies").cards}
    times, actions, turns, winners = [], [], [], {}
    for i in range(games):
        bm = load_configuration(1 + i % 6)
        bm.los  # noqa: B018
        rng = random.Random(seed + i)
        g = new_game(bm, armies, scenario="assault" if i % 7 == 6 else "standard",
                     dice=Dice(seed + i), options={"turn_limit": 20})
        choose = quick_policy(rng, 0.35)
        t0 = time.process_time()
        n = 0
        while not g.over:
            g.apply(choose(g))
            n += 1
            if check:
                check_invariants(g)
        times.append(time.process_time() - t0)
        actions.append(n)
        turns.append(g.state.turn)
        w = g.state.outcome.winner or "draw"
        winners[w] = winners.get(w, 0) + 1
    total = sum(times)
    print(f"random-vs-random games: {games} (sample armies, configurations 1-6"
          f"{', invariants checked' if check else ''})")
    print(f"  time per game: mean {statistics.mean(times):.2f} s, p50 {pct(times, 50):.2f} s, "
          f"max {max(times):.2f} s; per action {total / sum(actions) * 1000:.2f} ms")
    print(f"  actions per game: mean {statistics.mean(actions):.0f}; turns: mean "
          f"{statistics.mean(turns):.1f}, max {max(turns)}; outcomes {winners}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=12)
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-check", action="store_true", help="skip the invariant checks")
    args = ap.parse_args()
    bench_moves(args.seed, args.positions)
    bench_games(args.games, args.seed, not args.no_check)


if __name__ == "__main__":
    main()
