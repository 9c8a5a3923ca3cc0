"""Map loading: time to read, validate and assemble each configuration.

Each configuration is loaded from its files (four section files and the
configuration itself) with the loader's cache bypassed, several times; the
best and median times are printed, plus the time of a cached load and of
one section file alone.

    python bench/maps_bench.py [--repeat N]
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
    from game.data import maps

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=10, help="loads per configuration (default 10)")
    args = ap.parse_args()

    print(f"{'configuration':<16} {'load+assemble best':>19} {'median':>8}")
    for n, name, path in maps.list_configurations():
        times = []
        for _ in range(args.repeat):
            maps._CACHE.clear()
            maps._LIST_CACHE.clear()
            t0 = time.perf_counter()
            maps.load_configuration(path)
            times.append(time.perf_counter() - t0)
        print(f"{name:<16} {min(times) * 1000:>17.1f}ms {statistics.median(times) * 1000:>6.1f}ms")

    maps.load_configuration(1)
    t0 = time.perf_counter()
    for _ in range(100):
        maps.load_configuration(1)
    print(f"\ncached load (unchanged files): {(time.perf_counter() - t0) * 10:.2f} ms")
    sec = maps.SECTIONS_DIR / "Charlie-1.yaml"
    times = []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        maps.load_section(sec)
        times.append(time.perf_counter() - t0)
    print(f"one section file (Charlie-1): {statistics.median(times) * 1000:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
