"""Engine benchmark: today's engine and the one before issue 12, side by side.

    python bench/engine_bench.py [--games N] [--seed S] [--old PATH] [--gc default|tuned]

``--old`` is a checkout of the engine to compare with (default /tmp/hexfront_old;
make it with ``git worktree add /tmp/hexfront_old 658b9db``); without one only the
current engine is measured.  Each engine runs in its own process (so their modules
don't mix) on the same seeded games with the SAME armies (``ARMIES`` below: the first-edition
sample armies as shipped at 56c0d87, passed to both processes as card lists, so a checkout's own
sample army files don't matter): random-vs-random games (the six configurations in turn, every
seventh an Assault), in three sets of games on different seeds, so that no game replays one
already played (whose positions every cache that outlives a game would know): first in the fresh
process (``COLD_SEEDS`` on: those caches start empty), then with per-call timings (``PROBE_SEEDS``
on), then the game times the goal is about (``--seed`` on) - at every position of the second set,
``legal_actions`` (the first call in that position), ``apply``, and at every tenth
position ``copy`` and ``reachable`` (per unit of the side to act, its cache cleared).
Times are CPU time of the measuring process (``time.process_time``); the game time is also
given per action (the two engines' random players need not make the same number of moves).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OLD = Path("/tmp/hexfront_old")
PROBE_SEEDS = 10_000     # the per-call timings' games: seeds PROBE_SEEDS + seed + i
COLD_SEEDS = 20_000      # the fresh process's games: seeds COLD_SEEDS + seed + i

# The armies both engines play: the first-edition sample armies as they were at 56c0d87
# (units/armies/sample_axis.yaml, sample_allies.yaml), fixed here so that a later change to
# the shipped sample armies doesn't change what the bench compares.
ARMIES: dict[str, list[object]] = {
    "Axis": ["Panzer IV Ausf. G", "Panzer IV Ausf. F2", "PaK 40 Antitank Gun",
             "MG-42 Machine-Gun Team", "SS-Hauptsturmführer", "SS-Panzergrenadier",
             {"name": "Mauser Kar 98k", "count": 5}],
    "Allies": ["M4A1 Sherman", "6-Pounder Antitank Gun", '"Red Devil" Captain', "Bazooka",
               "M1 Garand Rifle", "Vickers Machine-Gun Team", "KV-1", "M3 Stuart"],
}


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))] if xs else 0.0


def measure(games: int, seed: int, army_units: dict[str, list[object]] | None = None) -> dict:
    """Runs inside the engine's own checkout (sys.path[0] is that checkout)."""
    import random
    from game.data.armies import parse_army
    from game.data.maps import load_configuration
    from game.rules.dice import Dice
    from game.rules.engine import new_game
    from tests.rules.engine_kit import quick_policy
    units = ARMIES if army_units is None else army_units
    armies = {s: parse_army({"name": f"Bench {s}", "side": s, "units": units[s]}).cards
              for s in ("Axis", "Allies")}
    maps = {n: load_configuration(n) for n in range(1, 7)}
    for bm in maps.values():
        bm.los  # noqa: B018 - the LOS table is built once per map, outside the timings

    def play(first_seed: int) -> tuple[list[float], int]:
        """Game times (CPU) of ``games`` random games from ``first_seed`` on, and their actions."""
        times, n = [], 0
        for i in range(games):
            g = new_game(maps[1 + i % 6], armies,
                         scenario="assault" if i % 7 == 6 else "standard",
                         dice=Dice(first_seed + i), options={"turn_limit": 12})
            choose = quick_policy(random.Random(first_seed + i), 0.35)
            t0 = time.process_time()
            while not g.over:
                g.apply(choose(g))
                n += 1
            times.append(time.process_time() - t0)
        return times, n

    # first: games in a fresh process (every cache that outlives a game - per map, per
    # card... - starts empty: what a new process pays)
    cold, cold_n = play(COLD_SEEDS + seed)
    # the per-call timings, on games of their own
    game_t, legal_t, apply_t, copy_t, reach_t = [], [], [], [], []
    for i in range(games):
        g = new_game(maps[1 + i % 6], armies, scenario="assault" if i % 7 == 6 else "standard",
                     dice=Dice(PROBE_SEEDS + seed + i), options={"turn_limit": 12})
        rng = random.Random(PROBE_SEEDS + seed + i)
        choose = quick_policy(rng, 0.35)
        t_game = time.process_time()
        n = 0
        while not g.over:
            t0 = time.process_time()
            g.legal_actions()
            legal_t.append(time.process_time() - t0)
            a = choose(g)
            t0 = time.process_time()
            g.apply(a)
            apply_t.append(time.process_time() - t0)
            n += 1
            if n % 10 == 0:
                t0 = time.process_time()
                g.copy()
                copy_t.append(time.process_time() - t0)
                st = g.state
                if st.pending is None and (st.phase.value.startswith("movement")
                                           or st.phase.value.startswith("assault")):
                    for u in st.units_of(st.to_act):
                        if hasattr(g, "_caches"):     # this engine (game.rules.caches)
                            g._caches.reach.clear()
                        else:                           # the engine before issue 12
                            g._reach_cache.clear()
                        t0 = time.process_time()
                        g.reachable(u.uid)
                        reach_t.append(time.process_time() - t0)
        game_t.append(time.process_time() - t_game)
    # the game times the goal is about: other games again (never a replay of a game
    # already played, whose positions every cache would know), in a process that has
    # played the games above on the same maps
    plain, plain_n = play(seed)
    ms, us = 1000.0, 1e6
    return {"game_ms": statistics.mean(plain) * ms, "actions": plain_n / games,
            "action_us": sum(plain) / max(1, plain_n) * us,
            "cold_ms": statistics.mean(cold) * ms, "cold_action_us": sum(cold) / max(1, cold_n) * us,
            "legal_p50_ms": pct(legal_t, 50) * ms, "legal_p95_ms": pct(legal_t, 95) * ms,
            "apply_us": statistics.mean(apply_t) * us, "copy_us": statistics.mean(copy_t) * us,
            "reach_p50_us": pct(reach_t, 50) * us, "reach_p95_us": pct(reach_t, 95) * us}


# the collector settings of game/runtime.py, written out here: the old checkout has no
# game.runtime, and both engines must run under the same settings
TUNED_GC = "import gc; gc.collect(); gc.freeze(); gc.set_threshold(20000, 20, 20); "


def run_child(root: Path, games: int, seed: int, tuned: bool = False) -> dict:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", PYTHONPATH=str(root))
    code = ((TUNED_GC if tuned else "") +
            f"import sys, json; sys.path.insert(0, {str(root)!r}); "
            f"sys.path.insert(1, {str(ROOT / 'bench')!r}); import engine_bench as b; "
            f"print(json.dumps(b.measure({games}, {seed}, {ARMIES!r})))")
    out = subprocess.run([sys.executable, "-c", code], cwd=str(root), env=env,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


ROWS = [("random game (ms)", "game_ms", "{:.0f}"), ("actions per game", "actions", "{:.0f}"),
        ("per action in a game (us)", "action_us", "{:.0f}"),
        ("game, fresh process (ms)", "cold_ms", "{:.0f}"),
        ("per action, fresh (us)", "cold_action_us", "{:.0f}"),
        ("legal_actions p50 (ms)", "legal_p50_ms", "{:.2f}"),
        ("legal_actions p95 (ms)", "legal_p95_ms", "{:.2f}"),
        ("apply (us)", "apply_us", "{:.0f}"), ("copy (us)", "copy_us", "{:.0f}"),
        ("reachable p50 (us)", "reach_p50_us", "{:.0f}"),
        ("reachable p95 (us)", "reach_p95_us", "{:.0f}")]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--old", default=str(DEFAULT_OLD))
    ap.add_argument("--gc", default="default", choices=("default", "tuned"),
                    help="the garbage collector's settings in BOTH processes: Python's defaults,"
                         " or game/runtime.py's tune_gc (what main.py and the arena use)")
    args = ap.parse_args()
    tuned = args.gc == "tuned"
    new = run_child(ROOT, args.games, args.seed, tuned)
    old_root = Path(args.old)
    old = run_child(old_root, args.games, args.seed, tuned) if (old_root / "game").is_dir() else None
    print(f"engine bench: {args.games} random games (1st-edition sample armies of 56c0d87, configurations 1-6, "
          f"seed {args.seed}); CPU time; collector: {args.gc}")
    head = f"{'':26}{'new':>10}" + (f"{'old':>10}{'old/new':>10}" if old else "")
    print(head)
    for label, key, fmt in ROWS:
        line = f"{label:26}{fmt.format(new[key]):>10}"
        if old:
            ratio = old[key] / new[key] if new[key] else float("inf")
            line += f"{fmt.format(old[key]):>10}{ratio:>9.1f}x"
        print(line)
    if old is None:
        print(f"(no old engine at {old_root}: git worktree add {old_root} 658b9db)")


if __name__ == "__main__":
    main()
