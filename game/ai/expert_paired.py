"""Two A players against the same B on the same seeded games: which A is better.

    python -m game.ai.expert_paired --a1 expert-policy --a2 veteran --b veteran --games 100

Most arena games are decided by the armies and the dice whatever A does (the
builder's armies give one side a large edge): two A players on the same seeds
(same maps, armies, sides and game dice) agree on most outcomes.  What tells
them apart is the games where only one of them won; this prints both records,
those discordant games and the two-sided sign-test chance of a split at least
that uneven if the two were equally strong.

Levels: the arena's (``random``, ``recruit``, ``veteran``, ``expert``,
``expert:0.2``) and ``expert-policy`` - the Expert's plain plan alone
(:class:`game.ai.tactics.ExpertPolicy`, no plan search: Veteran speed), the
fast way to try a change to that policy.
"""
from __future__ import annotations

import argparse
import math
import sys
from typing import Sequence

from game.ai.arena import GameResult, run, wilson
from game.ai.base import LEVELS, Player, make_player

__all__ = ["make", "sign_test", "compare", "main"]

POLICY = "expert-policy"


def make(level: str, seed: int | None = None, budget: float | None = None) -> Player:
    """The arena's players, and ``expert-policy``: the Expert's plain plan alone."""
    if level == POLICY:
        from game.ai.tactics import ExpertPolicy
        return ExpertPolicy(seed)
    return make_player(level, seed, budget=budget)


def sign_test(up: int, down: int) -> float:
    """Two-sided exact sign test: the chance of a split of ``up + down`` discordant
    games at least this uneven when both players are equally strong."""
    n = up + down
    if n == 0:
        return 1.0
    k = min(up, down)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def _record(results: list[GameResult]) -> str:
    return "".join({"a": "W", "b": "L", None: "D"}[r.winner] for r in results)


def compare(r1: list[GameResult], r2: list[GameResult]) -> tuple[int, int]:
    """(games only A1 won, games only A2 won), game by game."""
    up = sum(1 for x, y in zip(r1, r2) if x.winner == "a" and y.winner != "a")
    down = sum(1 for x, y in zip(r1, r2) if x.winner != "a" and y.winner == "a")
    return up, down


def main(argv: Sequence[str] | None = None) -> int:
    levels = list(LEVELS) + [POLICY]
    ap = argparse.ArgumentParser(prog="python -m game.ai.expert_paired",
                                 description="Two A players against the same B on the same "
                                             "seeded games, compared game by game.")
    ap.add_argument("--a1", default=POLICY, help=f"first A player ({', '.join(levels)})")
    ap.add_argument("--a2", default="veteran", help="second A player")
    ap.add_argument("--b", default="veteran", help="the opponent of both")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--turn-limit", type=int, default=15,
                    help="a game undecided after this turn is a draw (default 15)")
    ap.add_argument("--budget", type=float, default=None, help="an Expert's budget (seconds)")
    ap.add_argument("--clock", default="cpu", choices=("wall", "cpu"),
                    help="what an Expert's budget counts (default cpu)")
    args = ap.parse_args(argv)
    for lv in (args.a1, args.a2, args.b):
        if lv.split(":")[0] not in levels:
            ap.error(f"unknown level '{lv}' (expected one of: {', '.join(levels)})")
    if args.games < 1:
        ap.error("--games must be at least 1")
    out = []
    for a in (args.a1, args.a2):
        rs = run(a, args.b, args.games, args.seed, jobs=args.jobs, budget=args.budget,
                 clock=args.clock, make=make, turn_limit=args.turn_limit)
        w = sum(1 for r in rs if r.winner == "a")
        lo, hi = wilson(w, len(rs))
        print(f"{a:14} vs {args.b}: {_record(rs)}  {w}/{len(rs)} = "
              f"{100 * w / len(rs):.1f}% ({100 * lo:.1f}-{100 * hi:.1f}%)", flush=True)
        out.append(rs)
    up, down = compare(out[0], out[1])
    same = len(out[0]) - up - down
    print(f"same outcome in {same} of {len(out[0])} games; only {args.a1} won {up}, "
          f"only {args.a2} won {down}; sign test p = {sign_test(up, down):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
