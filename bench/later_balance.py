"""Are the later edition's three maps fair to both ends?  The preview's comparison of the
two ends (game.rules.mapstats.compare_ends, three-hex zones) and AI self-play.

    python bench/later_balance.py --games 12 --jobs 2

For each configuration: the end comparison (zone hexes with Soldier / Vehicle cover,
zone hexes that see the objective, hexes of the half that see it, nearest zone hex to
it), then ``--games`` Veteran-vs-Veteran games (the same level on both sides; the
Axis/Allies roles, armies and dice change from game to game) with the winner counted
by the end it deployed at and by side.  Prints a table; exits 0.
"""
from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def end_table(config: int) -> list[str]:
    from game.data.later_maps import load_later_configuration
    from game.rules.mapstats import compare_ends
    bm = load_later_configuration(config)
    out = []
    for end, s in compare_ends(bm, depth=3).items():
        out.append(f"  {end:5}: zone cover {len(s.soldier_cover):2d} Soldier / "
                   f"{len(s.vehicle_cover):2d} Vehicle; zone hexes seeing the objective "
                   f"{len(s.zone_sees_objective):2d}; half seeing it {len(s.half_sees_objective):2d}"
                   f"; nearest zone hex {s.objective_distance} hexes away")
    return out


def one(args: tuple) -> tuple[int, str | None, str | None, str]:
    """(config, winning end, winning side, reason) of one Veteran-vs-Veteran game."""
    config, index, seed, level = args
    from game.ai.arena import _armies
    from game.ai.base import make_player
    from game.data.later_maps import load_later_configuration
    from game.data.units import load_roster
    from game.rules.dice import Dice
    from game.rules.engine import new_game
    roster = list(load_roster(edition="later").values())
    game_seed = seed * 100003 + config * 1000 + index
    armies = _armies(roster, "standard", game_seed, None, edition="later")
    g = new_game(load_later_configuration(config), armies, dice=Dice(game_seed),
                 options={"edition": "later", "turn_limit": 12})
    players = {"Axis": make_player(level, game_seed + 1),
               "Allies": make_player(level, game_seed + 2)}
    n = 0
    while not g.over and n < 20000:
        g.apply(players[g.state.to_act].choose(g))
        n += 1
    out = g.state.outcome
    if out is None or out.winner is None:
        return config, None, None, "draw"
    return config, g.state.ends.get(out.winner), out.winner, out.reason.split(" (")[0]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=12, help="games per configuration")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--level", default="veteran")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--configs", default="1,2,3", help="configurations to play (default 1,2,3)")
    args = ap.parse_args(argv)
    configs = [int(x) for x in args.configs.split(",")]
    tasks = [(c, i, args.seed, args.level) for c in configs for i in range(args.games)]
    if args.jobs > 1:
        with Pool(args.jobs) as pool:
            results = pool.map(one, tasks)
    else:
        results = [one(t) for t in tasks]
    from game.data.later_maps import list_later_configurations
    names = dict(list_later_configurations())
    for c in configs:
        rs = [r for r in results if r[0] == c]
        ends = Counter(r[1] for r in rs)
        sides = Counter(r[2] for r in rs)
        print(f"configuration {c}: {names.get(c, '?')}")
        print("\n".join(end_table(c)))
        print(f"  {args.level} vs {args.level}, {len(rs)} games: left end won {ends['left']}, "
              f"right end won {ends['right']}, draws {ends[None]}; Axis {sides['Axis']}, "
              f"Allies {sides['Allies']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
