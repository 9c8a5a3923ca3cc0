"""Fuzz the rules engine with seeded random legal games; replay some from their saves.

    python bench/fuzz_games.py                      10,000 games, 1,000 replays
    python bench/fuzz_games.py --games 200 --replays 20 --jobs 2
    python bench/fuzz_games.py --edition later --games 1000 --replays 100 --jobs 2

Each game: a map configuration (1-6 in turn), Standard or Assault (every fourth),
two random legal armies from the roster, a random legal action at every step (an
end of phase now and then), a turn limit so every game ends.  After every action
the invariants are checked: no exception, stacking never broken (rulebook:
Stacking), no unit in a hex it can't occupy (rulebook: Terrain), counters
consistent, a decision always has someone to make it; at the end the game is
decided (a winner or a declared draw).  Every ``games/replays``-th game is saved
(game.saves), loaded back by replaying its actions, and must reach the same state
hash.  Prints the counts and the time; exits 1 on any failure (with the seed).
``--edition later`` plays the later edition: its three configurations (1-3 in turn),
the later roster (Aircraft and Antiair cards among the random armies), its rules.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.rules.engine_kit import check_invariants  # noqa: E402  (the suite's invariants)

TURN_LIMIT = 12
MAX_ACTIONS = 6000


# --- one game ---------------------------------------------------------------------------------
_MAPS: dict = {}
_ROSTER: list = []
_EDITION = ["first"]


def _setup_worker(edition: str = "first") -> None:
    from game.data.later_maps import load_later_configuration
    from game.data.maps import load_configuration
    from game.data.units import load_roster
    _MAPS.clear()
    _EDITION[0] = edition
    later = edition == "later"
    for n in range(1, 4 if later else 7):
        _MAPS[n] = load_later_configuration(n) if later else load_configuration(n)
        _MAPS[n].los                            # build the LOS table once per process
    from game.rules.army import is_playable
    # the whole roster a battle of this edition can use (a card whose abilities aren't all
    # implemented is refused by the rules, so it never reaches a game)
    _ROSTER[:] = [c for c in load_roster(edition=edition).values() if is_playable(c, edition)]


def random_army(rng: random.Random, side: str, budget: int, max_units: int):
    cards = [c for c in _ROSTER if c.side == side]
    army, spent = [], 0
    if _EDITION[0] == "later":
        # every later-edition army flies one Aircraft (among ~370 cards a random draw
        # would often have none, and the flight and airstrike rules would go untested)
        planes = [c for c in cards if c.is_aircraft and c.cost <= budget]
        if planes:
            c = rng.choice(planes)
            army.append(c)
            spent += c.cost
    while len(army) < max_units:
        fit = [c for c in cards if c.cost <= budget - spent]
        if not fit:
            break
        c = rng.choice(fit)
        army.append(c)
        spent += c.cost
    if not army:
        army.append(min(cards, key=lambda c: c.cost))
    return army


def pick_fast(game, rng: random.Random, end_bias: float):
    """A random legal action of one random unit (movement and assault phases), or
    None to use ``legal_actions``.  Listing one unit's actions instead of every
    unit's makes a game about four times faster; the engine still checks the pick."""
    from game.rules.actions import EndPhase
    st = game.state
    ph = st.phase
    if st.pending is None and ph.is_deploy:
        return _pick_deploy(game, rng)
    if st.pending is not None or not (ph.is_movement or ph.is_assault) \
            or not hasattr(game, "_unit_actions"):
        return None
    side = st.to_act
    if rng.random() < end_bias:
        return EndPhase(side)
    units = [u for u in st.units_of(side) if u.on_map and not u.acted]
    rng.shuffle(units)
    for u in units:
        acts = game._unit_actions(u) + game._ability_actions(u)
        rng.shuffle(acts)
        for a in acts:
            if game.check(a) is None:
                return a
    return EndPhase(side)


def _pick_deploy(game, rng: random.Random):
    """A random unit placed on a random hex of its zone (None: use legal_actions)."""
    from game.rules.actions import Deploy, EndPhase
    from game.rules.engine import deployment_zone
    st = game.state
    side = st.to_act
    waiting = [u for u in st.units_of(side) if u.hex is None and not u.destroyed]
    if not waiting:
        return EndPhase(side)
    u = rng.choice(waiting)
    facing = 0 if st.ends.get(side) == "left" else 3
    zone = list(deployment_zone(st, side, u))
    rng.shuffle(zone)
    for h in zone[:40]:
        a = Deploy(side, u.uid, h, facing)
        if game.check(a) is None:
            return a
    return None


def play_one(index: int, seed: int, budget: int, max_units: int, save_dir: str | None,
             fast: bool = True):
    """(stats dict) for game ``index``; raises on a broken invariant."""
    from game.rules.actions import EndPhase
    from game.rules.dice import Dice
    from game.rules.engine import new_game
    game_seed = seed * 1_000_003 + index
    rng = random.Random(game_seed)
    config = 1 + index % len(_MAPS)
    scenario = "assault" if index % 4 == 3 else "standard"
    options: dict = {"config": config, "turn_limit": TURN_LIMIT}
    if _EDITION[0] == "later":
        options["edition"] = "later"
    budgets = {"Axis": budget, "Allies": budget}
    if scenario == "assault":
        attacker = rng.choice(("Axis", "Allies"))
        options["attacker"] = attacker
        budgets = {s: (budget * 6 // 5 if s == attacker else budget * 4 // 5)
                   for s in ("Axis", "Allies")}
    armies = {s: random_army(rng, s, budgets[s], max_units) for s in ("Axis", "Allies")}
    game = new_game(_MAPS[config], armies, scenario=scenario, dice=Dice(game_seed),
                    options=options)
    end_bias = rng.uniform(0.1, 0.4)
    n = placed = antiair = 0
    check_invariants(game)
    while not game.over and n < MAX_ACTIONS:
        a = pick_fast(game, rng, end_bias) if fast else None
        if a is None:
            acts = game.legal_actions()
            assert acts, f"no legal action in {game.state.phase.value}"
            ends = [x for x in acts if isinstance(x, EndPhase)]
            others = [x for x in acts if not isinstance(x, EndPhase)]
            a = ends[0] if ends and (not others or rng.random() < end_bias) \
                else rng.choice(others)
        placed += type(a).__name__ == "PlaceAircraft"
        antiair += type(game.state.pending).__name__ == "AntiairPrompt"
        game.apply(a)                 # the engine checks it: an illegal pick would raise
        n += 1
        check_invariants(game)
    assert game.over, f"not decided after {n} actions ({game.state.phase.value})"
    out = game.state.outcome
    stats = {"actions": n, "turns": game.state.turn, "scenario": scenario,
             "result": "draw" if out.winner is None else "win",
             "reason": out.reason.split(" (")[0], "replayed": False, "replay_s": 0.0,
             "placed": placed, "antiair": antiair}
    if save_dir is not None:
        from game import saves
        p = saves.save_game(game, Path(save_dir) / f"fuzz-{index}.json", verify=False)
        t0 = time.perf_counter()
        back = saves.load_game(p)                # replays and checks the hash itself
        stats["replay_s"] = time.perf_counter() - t0
        assert back.state_hash() == game.state_hash(), "replay reached another position"
        stats["replayed"] = True
        p.unlink()
    return stats


def _work(args: tuple) -> tuple[int, dict | None, str | None]:
    index, seed, budget, max_units, save_dir, fast, edition = args
    if not _MAPS or _EDITION[0] != edition:
        _setup_worker(edition)
    try:
        return index, play_one(index, seed, budget, max_units, save_dir, fast), None
    except BaseException as exc:          # report, never stop the run
        import traceback
        return index, None, f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=6)}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--replays", type=int, default=1_000, help="games saved and replayed")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--budget", type=int, default=60,
                    help="army points (Assault: +20%% attacker, -20%% defender)")
    ap.add_argument("--max-units", type=int, default=8)
    ap.add_argument("--uniform", action="store_true",
                    help="pick uniformly from legal_actions() (slower) instead of one "
                         "random unit's actions")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--edition", default="first", choices=("first", "later"),
                    help="rules edition (later: its three maps, Aircraft and Antiair)")
    args = ap.parse_args(argv)
    every = max(1, args.games // args.replays) if args.replays else 0
    save_dir = tempfile.mkdtemp(prefix="hexfront-fuzz-")
    jobs = [(i, args.seed, args.budget, args.max_units,
             save_dir if every and i % every == 0 else None, not args.uniform, args.edition)
            for i in range(args.games)]
    t0 = time.perf_counter()
    results: list[dict] = []
    failures: list[tuple[int, str]] = []
    done = 0

    def take(item) -> None:
        nonlocal done
        index, stats, err = item
        done += 1
        if err is not None:
            failures.append((index, err))
            print(f"  game {index} failed: {err.splitlines()[0]}", flush=True)
        else:
            results.append(stats)
        if done % max(1, args.games // 20) == 0:
            print(f"  {done}/{args.games} games, {len(failures)} failures, "
                  f"{time.perf_counter() - t0:.0f} s", flush=True)

    if args.jobs > 1:
        with Pool(args.jobs) as pool:
            for item in pool.imap_unordered(_work, jobs, chunksize=4):
                take(item)
    else:
        for j in jobs:
            take(_work(j))
    secs = time.perf_counter() - t0
    actions = sum(r["actions"] for r in results)
    replayed = [r for r in results if r["replayed"]]
    res = Counter(r["result"] for r in results)
    reasons = Counter(r["reason"] for r in results)
    scen = Counter(r["scenario"] for r in results)
    print(f"games played:      {len(results) + len(failures)} {args.edition}-edition "
          f"({scen['standard']} standard, {scen['assault']} assault), seed {args.seed}, "
          f"{args.jobs} process(es)")
    print(f"failures:          {len(failures)}")
    print(f"decided:           {res['win']} won, {res['draw']} draws (turn limit {TURN_LIMIT})")
    print(f"actions applied:   {actions} (invariants checked after each), "
          f"{actions / max(1, len(results)):.0f} per game")
    if args.edition == "later":
        print(f"later edition:     {sum(r['placed'] for r in results)} Aircraft placed, "
              f"{sum(r['antiair'] for r in results)} Antiair prompts answered")
    print(f"replayed from save: {len(replayed)}, all to the same state hash"
          + (f", {sum(r['replay_s'] for r in replayed) / max(1, len(replayed)) * 1000:.0f} "
             f"ms per load" if replayed else ""))
    print(f"time:              {secs:.1f} s ({secs / max(1, args.games) * 1000:.0f} ms per game "
          f"wall clock)")
    print("outcomes:          " + "; ".join(f"{k}: {v}" for k, v in reasons.most_common(6)))
    for index, err in failures[:5]:
        print(f"\nFAILED game {index} (seed {args.seed}):\n{err}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
