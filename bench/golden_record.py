"""Record (or check) the behaviour goldens of the rules engine (tests/golden/).

    python bench/golden_record.py                    record all: 500 random, 200 Veteran, 30 perft
    python bench/golden_record.py --only veteran     re-record the Veteran games (after AI changes)
    python bench/golden_record.py --check            replay every golden, print mismatches (exit 1)
    python bench/golden_record.py --check --random 100 --veteran 20

The suite (tests/golden/test_goldens.py) checks a bounded subset; this script
checks or records everything.  Prints the time per kind.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.golden import golden_kit as gk  # noqa: E402

COUNTS = {"random": 500, "veteran": 200, "perft": gk.PERFT_POSITIONS}
MAKE = {"random": gk.random_entry, "veteran": gk.veteran_entry, "perft": gk.perft_entry}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="random,veteran,perft",
                    help="comma-separated kinds: random, veteran, perft")
    ap.add_argument("--check", action="store_true", help="compare instead of recording")
    ap.add_argument("--random", type=int, default=COUNTS["random"])
    ap.add_argument("--veteran", type=int, default=COUNTS["veteran"])
    ap.add_argument("--note", default="", help="why these goldens were (re-)recorded")
    args = ap.parse_args()
    counts = dict(COUNTS, random=args.random, veteran=args.veteran)
    bad = 0
    for kind in [k.strip() for k in args.only.split(",") if k.strip()]:
        t0 = time.process_time()
        if args.check:
            want = gk.load(kind)[:counts[kind]]
            for entry in want:
                key = "seed" if kind == "random" else "index" if kind == "veteran" else "position"
                got = MAKE[kind](entry[key])
                if got != entry:
                    bad += 1
                    print(f"MISMATCH {kind} {key}={entry[key]}: recorded {entry}, now {got}")
            n = len(want)
        else:
            entries = [MAKE[kind](i) for i in range(counts[kind])]
            gk.save(kind, entries, args.note or f"recorded by bench/golden_record.py "
                                                f"({counts[kind]} {kind})")
            n = len(entries)
        dt = time.process_time() - t0
        print(f"{kind}: {n} {'checked' if args.check else 'recorded'} in {dt:.1f} s CPU "
              f"({dt / max(n, 1) * 1000:.0f} ms each)", flush=True)
    if args.check:
        print("all goldens identical" if not bad else f"{bad} golden(s) differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
