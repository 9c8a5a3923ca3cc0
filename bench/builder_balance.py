"""Do the AI army builder's armies give either side an edge?  Strength indicators of
the armies the arena builds (issue 14: balanced armies), measured without playing.

    python bench/builder_balance.py --seeds 3,7 --games 200

For each seed, the armies of games 0..games-1 exactly as ``python -m game.ai.arena
--armies builder --seed S`` builds them (Standard, 100 points a side), summed per side:
points, units, printed attack dice against Soldiers and against Vehicles by range band
(short / medium / long), Soldier and Vehicle counts, mean front defense of each, the
riflemen fit to hold the objective (``holds_objective``), commanders, and the themes
(nations) chosen.  Prints the per-army mean of each indicator for both sides and the
Axis/Allies ratio.  No games are played; exits 0.
"""
from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

BANDS = ("short", "medium", "long")


def indicators(cards: list) -> dict[str, float]:
    from game.ai.army_builder import holds_objective, roles
    out: dict[str, float] = Counter()
    out["points"] = sum(c.cost for c in cards)
    out["units"] = len(cards)
    sold = [c for c in cards if c.is_soldier]
    veh = [c for c in cards if c.is_vehicle]
    out["soldiers"] = len(sold)
    out["vehicles"] = len(veh)
    out["soldier def"] = statistics.mean(c.defense_front for c in sold) if sold else 0
    out["vehicle def F"] = statistics.mean(c.defense_front for c in veh) if veh else 0
    out["vehicle def R"] = statistics.mean(c.defense_rear for c in veh) if veh else 0
    out["vehicle pts"] = sum(c.cost for c in veh)
    for target in ("Soldier", "Vehicle"):
        for band in BANDS:
            out[f"vs{target[0]} {band}"] = sum(c.dice(target, band) or 0 for c in cards)
    out["holders"] = sum(holds_objective(c) for c in cards)
    out["commanders"] = sum(c.is_commander for c in cards)
    out["speed"] = statistics.mean(c.speed for c in cards) if cards else 0
    out["armour"] = sum("armour" in roles(c) for c in cards)
    out["antitank"] = sum("antitank" in roles(c) for c in cards)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", default="3,7")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--themes", action="store_true", help="print the themes' counts too")
    args = ap.parse_args(argv)
    from game.ai.arena import _armies
    from game.data.units import load_roster
    roster = list(load_roster().values())
    for seed in (int(s) for s in args.seeds.split(",")):
        sums: dict[str, list[dict[str, float]]] = {"Axis": [], "Allies": []}
        themes: dict[str, Counter] = {"Axis": Counter(), "Allies": Counter()}
        for i in range(args.games):
            armies = _armies(roster, "standard", seed * 100003 + i, None)
            for side, cards in armies.items():
                sums[side].append(indicators(cards))
                themes[side][tuple(sorted({c.nationality for c in cards}))] += 1
        print(f"seed {seed}, {args.games} games: per-army means")
        print(f"  {'indicator':14} {'Axis':>8} {'Allies':>8} {'ratio':>6}")
        for k in sums["Axis"][0]:
            ax = statistics.mean(d[k] for d in sums["Axis"])
            al = statistics.mean(d[k] for d in sums["Allies"])
            ratio = ax / al if al else float("nan")
            print(f"  {k:14} {ax:8.2f} {al:8.2f} {ratio:6.2f}")
        if args.themes:
            for side in ("Axis", "Allies"):
                print(f"  {side} themes: " + "; ".join(
                    f"{'/'.join(t)} {n}" for t, n in themes[side].most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
