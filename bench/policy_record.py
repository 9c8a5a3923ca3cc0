"""Record a player's games against another on seeded arena games, and compare
records game by game (a throwaway-grade helper for policy experiments).

    python bench/policy_record.py --a expert-policy --b veteran --games 200 --seed 1 \
        --out /tmp/base.json [--set k_threat=0.9] [--jobs 2]
    python bench/policy_record.py --compare /tmp/new.json /tmp/base.json

``--set NAME=VALUE`` sets a class attribute of :class:`game.ai.tactics.ExpertPolicy`
(or a module constant of game.ai.tactics when the class has none) before the games
start (the workers are forked, so they inherit it): a way to try one constant
without a code change.  Levels are those of ``game.ai.expert_paired``.  A record
holds each game's winner ("a"/"b"/None), how it ended and A's side.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.ai.arena import run, wilson  # noqa: E402
from game.ai.expert_paired import make, sign_test  # noqa: E402


def _apply_sets(sets: list[str]) -> None:
    from game.ai import tactics
    for s in sets:
        name, _, raw = s.partition("=")
        val = json.loads(raw)
        if hasattr(tactics.ExpertPolicy, name):
            setattr(tactics.ExpertPolicy, name, val)
        elif hasattr(tactics, name):
            setattr(tactics, name, val)
        else:
            raise SystemExit(f"no attribute {name}")


def _summary(rec: list[dict]) -> str:
    n = len(rec)
    w = sum(1 for r in rec if r["winner"] == "a")
    lo, hi = wilson(w, n)
    kinds: dict[str, int] = {}
    for r in rec:
        if r["winner"] == "a":
            kinds[r["kind"]] = kinds.get(r["kind"], 0) + 1
    return f"{w}/{n} = {100 * w / n:.1f}% ({100 * lo:.1f}-{100 * hi:.1f}%) wins by kind {kinds}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--a", default="expert-policy")
    ap.add_argument("--b", default="veteran")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--budget", type=float, default=None)
    ap.add_argument("--clock", default="cpu")
    ap.add_argument("--set", action="append", default=[])
    ap.add_argument("--out")
    ap.add_argument("--compare", nargs=2)
    args = ap.parse_args(argv)
    if args.compare:
        r1, r2 = (json.load(open(p)) for p in args.compare)
        n = min(len(r1), len(r2))
        r1, r2 = r1[:n], r2[:n]
        up = sum(1 for x, y in zip(r1, r2) if x["winner"] == "a" and y["winner"] != "a")
        down = sum(1 for x, y in zip(r1, r2) if x["winner"] != "a" and y["winner"] == "a")
        print(f"{args.compare[0]}: {_summary(r1)}")
        print(f"{args.compare[1]}: {_summary(r2)}")
        print(f"only first won {up}, only second won {down}, sign test p = "
              f"{sign_test(up, down):.3f}")
        return 0
    _apply_sets(args.set)
    rs = run(args.a, args.b, args.games, args.seed, jobs=args.jobs, budget=args.budget,
             clock=args.clock, make=make)
    rec = [{"winner": r.winner, "kind": r.kind, "side": r.a_side, "turns": r.turns,
            "error": r.error} for r in rs]
    print(_summary(rec), flush=True)
    if args.out:
        with open(args.out, "w") as f:
            json.dump(rec, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
