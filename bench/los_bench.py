"""Line of sight: time to build the all-pairs LosTable and time per lookup.

Builds the table for each of the six starter configurations (171 whole
hexes each, 14,535 pairs) several times and reports the best and median
build time (wall clock, and CPU time, which a busy machine disturbs less),
then times ``visible(a, b)`` over every ordered pair and
``visible_from(a)`` over every hex of the slowest map, plus the exact
``has_los`` computation the table saves the game from doing.

    python bench/los_bench.py [--repeat N]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> int:
    from game.data.maps import load_configuration
    from game.rules.los import LosTable, has_los

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5, help="builds per map (default 5)")
    args = ap.parse_args()

    worst = None
    print(f"{'configuration':<16} {'hexes':>5} {'blockers':>8} {'build best':>11} {'median':>8}"
          f" {'CPU best':>9} {'visible pairs':>13}")
    for n in range(1, 7):
        m = load_configuration(n)
        times, cpu = [], []
        table = None
        for _ in range(args.repeat):
            t0, c0 = time.perf_counter(), time.process_time()
            table = LosTable(m.terrain, m.blockers)
            times.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
        visible = sum(len(table.visible_from(h)) - 1 for h in table.hexes) // 2
        best, med = min(times), statistics.median(times)
        print(f"{m.name:<16} {len(m.terrain):>5} {len(m.blockers):>8} {best * 1000:>9.1f}ms"
              f" {med * 1000:>6.1f}ms {min(cpu) * 1000:>7.1f}ms {visible:>13}")
        if worst is None or med > worst[1]:
            worst = (m, med, table)

    m, med, table = worst
    hexes = table.hexes
    pairs = [(a, b) for a in hexes for b in hexes]
    t0 = time.perf_counter()
    for a, b in pairs:
        table.visible(a, b)
    per_lookup = (time.perf_counter() - t0) / len(pairs)
    t0 = time.perf_counter()
    for a in hexes:
        table.visible_from(a)
    per_from = (time.perf_counter() - t0) / len(hexes)
    sample = pairs[::97]
    t0 = time.perf_counter()
    for a, b in sample:
        has_los(a, b, m.blockers)
    per_exact = (time.perf_counter() - t0) / len(sample)
    print(f"\nslowest map to build: {m.name} (median {med * 1000:.1f} ms)")
    print(f"table lookup visible(a, b): {per_lookup * 1e9:.0f} ns over {len(pairs)} ordered pairs")
    print(f"table lookup visible_from(a): {per_from * 1e9:.0f} ns per hex")
    print(f"exact has_los without the table: {per_exact * 1e6:.1f} us per pair "
          f"({len(sample)} pairs sampled)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
