"""Which units a player handles worse than another: each seeded arena game is played
twice, the same map, armies and dice, once with ``--a`` in the seat and once with
``--ref`` in it (the opponent ``--b`` both times), and each unit of the seat's army is
compared between the two games: the card cost it lost (destroyed: all of it; a
damaged Vehicle: 30%), the points its attacks won (the cost of what it destroyed, 30%
of a Vehicle it damaged) and when it was destroyed.  Printed per card name and per
kind, sorted by how much worse the net (won - lost) is under ``--a``.

    python bench/unit_ledger.py --a expert-policy --ref veteran --b veteran --games 120 --jobs 2

A diagnostic for the Expert's policy (session 13), not a measure of strength: a unit
the Expert keeps safe may be one the Veteran used to win the game.
"""
from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from material_trace import _RANK, _kind, _start  # noqa: E402

from game.rules.events import CounterPlaced, UnitDamaged, UnitDestroyed  # noqa: E402

DAMAGED_SHARE = 0.3    # a damaged Vehicle's cost lost (the AI's unit value keeps 70% of it)


def ledger(level_a: str, level_b: str, index: int, seed: int) -> dict:
    """One game: per unit of A's side, (card name, kind, lost, won, turn destroyed);
    the winner's label and A's side."""
    game, players, label = _start(level_a, level_b, index, seed)
    for p in players.values():
        if hasattr(p, "set_clock"):
            p.set_clock("cpu")        # an Expert's budget in its own CPU time (the arena's --clock cpu)
    a_side = next(s for s, lab in label.items() if lab == "a")
    won: dict[str, float] = defaultdict(float)
    died: dict[str, int] = {}
    # the attacker of the worst counter placed on each target since its last flip
    credit: dict[str, tuple[int, str]] = {}
    n = 0
    while not game.over and n < 3000:
        side = game.state.to_act
        events = game.apply(players[side].choose(game))
        n += 1
        for e in events:
            if isinstance(e, CounterPlaced) and e.by:
                r = _RANK.get(e.counter, 0)
                if r >= credit.get(e.target, (0, ""))[0]:
                    credit[e.target] = (r, e.by)
            elif isinstance(e, (UnitDestroyed, UnitDamaged)):
                u = game.state.units[e.uid]
                if isinstance(e, UnitDestroyed):
                    died[e.uid] = game.state.turn
                by = credit.pop(e.uid, (0, None))[1]
                if by is not None:
                    frac = 1.0 if isinstance(e, UnitDestroyed) else DAMAGED_SHARE
                    won[by] += frac * u.card.cost
    st = game.state
    rows = []
    for u in st.units.values():
        if u.side != a_side:
            continue
        lost = (float(u.card.cost) if u.destroyed else
                DAMAGED_SHARE * u.card.cost if u.damaged else 0.0)
        rows.append((u.card.name, _kind(u), lost, won.get(u.uid, 0.0), died.get(u.uid)))
    out = st.outcome
    return {"rows": rows, "winner": label.get(out.winner) if out and out.winner else None,
            "side": a_side}


def _one(args):
    return ledger(*args)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--a", default="expert-policy")
    ap.add_argument("--ref", default="veteran")
    ap.add_argument("--b", default="veteran")
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--min", type=int, default=3, help="least appearances to print a card")
    args = ap.parse_args()
    import multiprocessing as mp
    tasks = [(lv, args.b, i, args.seed) for i in range(args.games) for lv in (args.a, args.ref)]
    with mp.get_context("fork").Pool(max(1, args.jobs)) as pool:
        res = pool.map(_one, tasks)
    pairs = [(res[2 * i], res[2 * i + 1]) for i in range(args.games)]
    wa = sum(1 for a, _ in pairs if a["winner"] == "a")
    wr = sum(1 for _, r in pairs if r["winner"] == "a")
    print(f"{args.games} games: {args.a} won {wa}, {args.ref} won {wr} in the same seat")
    for title, key in (("card", lambda r: r[0]), ("kind", lambda r: r[1]),
                       ("kind and side", None)):
        agg = defaultdict(lambda: [0, 0.0, 0.0, 0.0, 0.0, 0, 0])
        for a, r in pairs:
            for ra, rr in zip(sorted(a["rows"]), sorted(r["rows"])):
                k = key(ra) if key else (ra[1], a["side"])
                s = agg[k]
                s[0] += 1
                s[1] += ra[2]
                s[2] += ra[3]
                s[3] += rr[2]
                s[4] += rr[3]
                s[5] += ra[4] is not None
                s[6] += rr[4] is not None
        print(f"-- per {title}: n, lost / won / died% under {args.a} | under {args.ref} | "
              f"net difference per unit")
        items = [(k, s) for k, s in agg.items() if s[0] >= args.min]
        items.sort(key=lambda kv: ((kv[1][2] - kv[1][1]) - (kv[1][4] - kv[1][3])) / kv[1][0])
        for k, s in items[:40]:
            n = s[0]
            d = ((s[2] - s[1]) - (s[4] - s[3])) / n
            print(f"  {str(k)[:44]:44} {n:4d}  {s[1] / n:5.1f} {s[2] / n:5.1f} "
                  f"{100 * s[5] / n:4.0f}% | {s[3] / n:5.1f} {s[4] / n:5.1f} "
                  f"{100 * s[6] / n:4.0f}% | {d:+6.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
