"""Exact attack odds: time per query, and side by side a seeded simulation of the same
attacks through the real ``resolve_attack`` (its time and its largest difference
from the exact answer).

    python bench/odds_bench.py [--rolls 10000] [--queries 2000]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import game.rules.engine  # noqa: E402,F401  (registers the ability hooks, as in a game)
from game.rules.board import BattleMap  # noqa: E402
from game.rules.cards import UnitCard  # noqa: E402
from game.rules.dice import Dice  # noqa: E402
from game.rules.hexes import Hex, hexes_within  # noqa: E402
from game.rules.odds import attack_odds, simulate_attack  # noqa: E402
from game.rules.state import GameState, Phase, Unit  # noqa: E402
from game.rules.terrain import Terrain  # noqa: E402


def _card(name, type_, defense, soldier, vehicle, nation):
    return UnitCard(name, nation, 10, 1942, type_, "Tank" if type_ == "Vehicle" else None, 3,
                    defense[0], defense[1],
                    {"Soldier": dict(zip(("short", "medium", "long"), soldier)),
                     "Vehicle": dict(zip(("short", "medium", "long"), vehicle))})


SHERMAN = _card("M4A1 Sherman", "Vehicle", (5, 4), (9, 9, 7), (13, 11, 9), "United States")
PANZER = _card("Panzer IV Ausf. G", "Vehicle", (5, 3), (7, 7, 6), (15, 13, 11), "Germany")
MG = _card("MG-42", "Soldier", (4, 4), (10, 8, 7), (3, 3, 2), "Germany")
RIFLES = _card("M1 Garand", "Soldier", (4, 4), (8, 7, None), (2, None, None), "United States")

TERRAIN = {h: Terrain.CLEAR for h in hexes_within(Hex(0, 0), 6)}
TERRAIN[Hex(3, 0)] = Terrain.TOWN
TERRAIN[Hex(2, -1)] = Terrain.FOREST
MAP = BattleMap("bench", TERRAIN)

# name, attacker card, hex, target card, hex, target fields, attack options
CASES = [
    ("Sherman -> Panzer in town, front, face-down Disrupted", SHERMAN, Hex(0, 0), PANZER,
     Hex(3, 0), {"facing": 3, "pending": ["disrupted"]}, {}),
    ("MG-42 -> Garand in forest, medium", MG, Hex(0, 0), RIFLES, Hex(2, -1), {}, {}),
    ("Panzer -> Sherman, defensive fire, town, rear", PANZER, Hex(4, 0), SHERMAN, Hex(3, 0),
     {"facing": 3}, {"defensive": True}),
    ("Disrupted Panzer -> damaged Sherman, rear, long", PANZER, Hex(-3, 0), SHERMAN,
     Hex(2, 0), {"facing": 0, "damaged": True}, {}),
]


def state_for(att, ah, tgt, th, tkw, attacker_disrupted=False):
    st = GameState.blank(MAP, phase=Phase.ASSAULT_FIRST)
    st.units["a"] = Unit("a", att, "Axis" if att.side == "Axis" else "Allies", ah,
                         disrupted=attacker_disrupted)
    st.units["t"] = Unit("t", tgt, "Allies" if att.side == "Axis" else "Axis", th, **tkw)
    return st


def simulate(st, n, seed, kw):
    return simulate_attack(st, "a", "t", n, Dice(seed), **kw)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rolls", type=int, default=10_000, help="simulated attacks per case")
    ap.add_argument("--queries", type=int, default=2_000, help="odds queries per case")
    args = ap.parse_args(argv)
    print(f"{'case':55s} {'odds/query':>11s} {'sim time':>9s} {'max diff':>9s}")
    worst = 0.0
    for i, (name, att, ah, tgt, th, tkw, kw) in enumerate(CASES):
        st = state_for(att, ah, tgt, th, tkw, attacker_disrupted=name.startswith("Disrupted"))
        times = []
        for _ in range(5):
            t0 = time.perf_counter()
            for _ in range(args.queries // 5 or 1):
                o = attack_odds(st, "a", "t", **kw)
            times.append((time.perf_counter() - t0) / (args.queries // 5 or 1))
        per_query = statistics.median(times)
        t0 = time.perf_counter()
        freq, stopped = simulate(st, args.rolls, seed=1000 + i, kw=kw)
        sim_time = time.perf_counter() - t0
        exact = [o.p_none, o.p_disrupted, o.p_damaged, o.p_destroyed]
        diff = max([abs(a - b) for a, b in zip(freq, exact)] + [abs(stopped - o.p_stopped)])
        worst = max(worst, diff)
        print(f"{name:55s} {per_query * 1e6:8.1f} us {sim_time:7.2f} s {diff * 100:7.2f} pp")
        print(f"{'':4s}exact  none {o.p_none:.4f}  disrupted {o.p_disrupted:.4f}  damaged "
              f"{o.p_damaged:.4f}  destroyed {o.p_destroyed:.4f}  stopped {o.p_stopped:.4f}")
        print(f"{'':4s}sim    none {freq[0]:.4f}  disrupted {freq[1]:.4f}  damaged "
              f"{freq[2]:.4f}  destroyed {freq[3]:.4f}  stopped {stopped:.4f}  "
              f"({args.rolls} attacks)")
    print(f"largest difference over all cases: {worst * 100:.2f} percentage points")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
