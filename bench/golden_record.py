"""Record (or check) the behaviour goldens of the rules engine (tests/golden/).

    python bench/golden_record.py                    check: replay every golden (exit 1 on a mismatch)
    python bench/golden_record.py --random 100 --veteran 20     check a subset
    python bench/golden_record.py --record           record all: 500 random, 200 Veteran, 30 perft
    python bench/golden_record.py --record --only veteran   re-record the Veteran games (AI changes)
    python bench/golden_record.py --update --note "why"   re-record only the entries that differ

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
    ap.add_argument("--check", action="store_true", help="compare (the default)")
    ap.add_argument("--record", action="store_true", help="record instead of comparing")
    ap.add_argument("--update", action="store_true",
                    help="compare, and re-record only the entries that differ (say why: --note)")
    ap.add_argument("--random", type=int, default=COUNTS["random"])
    ap.add_argument("--veteran", type=int, default=COUNTS["veteran"])
    ap.add_argument("--note", default="", help="why these goldens were (re-)recorded")
    args = ap.parse_args()
    counts = dict(COUNTS, random=args.random, veteran=args.veteran)
    bad = 0
    for kind in [k.strip() for k in args.only.split(",") if k.strip()]:
        t0 = time.process_time()
        if not args.record or args.update:
            everything = gk.load(kind)
            want = everything[:counts[kind]]
            changed = []
            for i, entry in enumerate(want):
                key = "seed" if kind == "random" else "index" if kind == "veteran" else "position"
                got = MAKE[kind](entry[key])
                if got != entry:
                    bad += 1
                    changed.append(entry[key])
                    print(f"MISMATCH {kind} {key}={entry[key]}: recorded {entry}, now {got}",
                          flush=True)
                    everything[i] = got
            if args.update and changed:
                note = gk.note(kind) + f" | re-recorded {kind} {changed}: {args.note}"
                gk.save(kind, everything, note)
                print(f"{kind}: re-recorded {len(changed)}: {changed}")
            n = len(want)
        else:
            entries = [MAKE[kind](i) for i in range(counts[kind])]
            gk.save(kind, entries, args.note or f"recorded by bench/golden_record.py "
                                                f"({counts[kind]} {kind})")
            n = len(entries)
        dt = time.process_time() - t0
        print(f"{kind}: {n} {'recorded' if args.record else 'checked'} in {dt:.1f} s CPU "
              f"({dt / max(n, 1) * 1000:.0f} ms each)", flush=True)
    if args.update:
        return 0
    if not args.record:
        print("all goldens identical" if not bad else f"{bad} golden(s) differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
