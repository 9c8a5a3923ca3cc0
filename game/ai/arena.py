"""Headless AI-vs-AI games with a results table.

    python -m game.ai.arena --a veteran --b recruit --games 200 --seed 1
    python -m game.ai.arena --a veteran --b random --games 200 --seed 1 --jobs 2
    python -m game.ai.arena --a expert --b veteran --games 40 --budget 0.2 --jobs 2 --clock cpu
    python -m game.ai.arena --edition later --a veteran --b random --games 60 --seed 1

Game ``i`` is played on configuration ``1 + i % 6``, with player A on the Axis
side in even-numbered pairs of games and on the Allied side in the others, so
every configuration is played from both sides.  Both armies are built by
``game.ai.army_builder`` from the game's seed; the dice are seeded too, so a
run is reproducible.  ``--edition later`` plays the later edition: its three
configurations (game ``i`` on ``1 + i % 3``), Aircraft and Antiair cards in the
builder's armies.  ``turn_limit`` (default 15) ends a game that is still
undecided as a draw, so every game ends.

The table: wins / losses / draws of A, A's win rate with a 95% Wilson
interval, wins by kind (objective, points, annihilation) for each side and
each player, the average game length in turns, each player's decision time
(p50 / p95 / max, wall and CPU), the wall time of a game (median) and, for an
Expert, how often its plan search replaced the plain plan's choice.  ``--budget`` is the
Expert's thinking time per decision, counted by ``--clock``: ``wall`` (the
default, what a player waits) or ``cpu`` (the Expert thread's CPU time: a
measurement on a machine others share does not depend on their load).

An AI error is never hidden: a player whose ``choose`` raises (anything but the
rules' refusal, which ``choose`` never lets through) loses that game, and the
table counts it as a failure.
"""
from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from game.debug import counted_errors
from dataclasses import dataclass, field
from typing import Sequence

from game.ai.army_builder import build_army
from game.ai.base import LEVELS, make_player
from game.rules.state import other_side

__all__ = ["GameResult", "play_game", "run", "wilson", "format_table", "main"]

MAX_ACTIONS = 20000


@dataclass
class GameResult:
    index: int
    config: int
    a_side: str
    scenario: str
    winner: str | None          # "a", "b" or None (draw)
    reason: str
    turns: int
    actions: int
    seconds: float
    times: dict[str, list[float]] = field(default_factory=dict)   # "a"/"b" -> seconds per decision
    winner_side: str | None = None
    error: str | None = None    # an AI error ended the game ("a: ...")
    annihilated: bool = False   # the loser had no unit left on the map
    cpu: dict[str, list[float]] = field(default_factory=dict)     # seconds per decision, CPU
    plans: dict[str, dict[str, int]] = field(default_factory=dict)  # the Expert's search counts

    @property
    def kind(self) -> str:
        """objective / points / annihilation / draw / error"""
        return ending_kind(self.reason, self.error, self.annihilated and self.winner is not None)


def ending_kind(reason: str, error: str | None = None, annihilated: bool = False) -> str:
    """How a game ended: a win with the loser's army gone is an annihilation
    (the rules then still decide by the objective or points)."""
    if error:
        return "error"
    if annihilated:
        return "annihilation"
    r = reason.lower()
    if "objective" in r:
        return "objective"
    if "points" in r:
        return "points"
    if "destroyed" in r or "no units" in r or "annihilat" in r:
        return "annihilation"
    return "draw"


def _armies(roster, scenario: str, seed: int, attacker: str | None,
            source: str = "builder", edition: str = "first") -> dict:
    """Both armies: built by the AI's army builder from the seed (``"builder"``: one
    nation or a historical pairing of the whole playable roster; ``"whole"``: any
    nations of the side, the whole playable roster; ``"base"``: the builder on the 47
    cards Hexfront shipped first), or ``"sample"``: the shipped sample armies
    (units/armies/sample_*.yaml).  ``edition`` "later": each built army also gets an
    Aircraft (game.ai.later_edition.build_later_army)."""
    if source == "sample":
        from game.data.armies import sample_army
        return {side: list(sample_army(side).cards) for side in ("Axis", "Allies")}
    if source == "base":
        from game.data.units import LATER_SETS
        roster = [c for c in roster if c.set_name != LATER_SETS]
    rng = random.Random(seed * 7919 + 17)
    out = {}
    for side in ("Axis", "Allies"):
        if scenario == "assault":
            budget = 120 if side == attacker else 80
        else:
            budget = 100
        if edition == "later":            # one Aircraft, now and then an Antiair unit
            from game.ai.later_edition import build_later_army
            out[side] = build_later_army(roster, side, budget, rng=rng,
                                         mixed=source == "whole").cards
        else:
            out[side] = build_army(roster, side, budget, rng=rng, mixed=source == "whole").cards
    return out


def play_game(level_a: str, level_b: str, *, index: int = 0, seed: int = 1,
              config: int | None = None, a_side: str | None = None,
              scenario: str = "standard", turn_limit: int = 15, roster=None,
              battle_map=None, budget: float | None = None,
              armies: str = "builder", edition: str = "first",
              clock: str = "wall", make=None) -> GameResult:
    """Play one headless game between two AI levels; A plays ``a_side``
    (``edition`` "later": the later edition's roster, its three maps and rules;
    ``clock``: what the Expert's budget counts, "wall" or "cpu" - its thread's CPU time;
    ``make``: the players' factory, ``make(level, seed, budget=...)``, default
    :func:`game.ai.base.make_player`)."""
    from game.data.later_maps import load_later_configuration
    from game.data.maps import load_configuration
    from game.data.units import load_roster
    from game.rules.dice import Dice
    from game.rules.engine import new_game

    later = edition == "later"
    n_maps = 3 if later else 6
    if not isinstance(roster, list):
        roster = list((roster or load_roster(edition=edition)).values())
    config = config if config is not None else 1 + index % n_maps
    a_side = a_side or ("Axis" if (index // n_maps) % 2 == 0 else "Allies")
    game_seed = seed * 100003 + index
    if battle_map is not None:
        bm = battle_map
    else:
        bm = load_later_configuration(config) if later else load_configuration(config)
    bm.los          # the line-of-sight table is built once per map, outside the timings
    attacker = None
    options: dict = {"turn_limit": turn_limit}
    if later:
        options["edition"] = "later"
    if scenario == "assault":
        attacker = "Axis" if random.Random(game_seed).random() < 0.5 else "Allies"
        options["attacker"] = attacker
    built = _armies(roster, scenario, game_seed, attacker, armies, edition)
    game = new_game(bm, built, scenario=scenario, dice=Dice(game_seed), options=options)
    mk = make if make is not None else make_player
    players = {a_side: mk(level_a, game_seed + 1, budget=budget),
               other_side(a_side): mk(level_b, game_seed + 2, budget=budget)}
    for p in players.values():
        if hasattr(p, "set_clock"):          # the Expert: its budget in this clock
            p.set_clock(clock)
    label = {a_side: "a", other_side(a_side): "b"}
    times: dict[str, list[float]] = {"a": [], "b": []}
    cpu: dict[str, list[float]] = {"a": [], "b": []}
    n = 0
    t_start = time.perf_counter()
    error = None
    while not game.over and n < MAX_ACTIONS:
        side = game.state.to_act
        t0 = time.perf_counter()
        c0 = time.process_time()
        try:
            action = players[side].choose(game)
            game.apply(action)
        except counted_errors() as exc:   # an AI bug: counted as a failure (raised in debug mode)
            error = f"{label[side]}: {type(exc).__name__}: {exc}"
            times[label[side]].append(time.perf_counter() - t0)
            cpu[label[side]].append(time.process_time() - c0)
            break
        times[label[side]].append(time.perf_counter() - t0)
        cpu[label[side]].append(time.process_time() - c0)
        n += 1
    seconds = time.perf_counter() - t_start
    out = game.state.outcome
    win_side = None
    if error is not None:
        loser = error[0]
        winner = "b" if loser == "a" else "a"
        reason = f"AI error ({error})"
        win_side = a_side if winner == "a" else other_side(a_side)
    elif out is None:
        winner, reason = None, f"stopped after {n} actions"
    else:
        winner = label.get(out.winner) if out.winner else None
        reason = out.reason
        win_side = out.winner
    wiped = bool(win_side) and not game.state.live_units(other_side(win_side))
    plans = {label[s]: dict(p.plan_stats) for s, p in players.items()
             if isinstance(getattr(p, "plan_stats", None), dict)}
    return GameResult(index, config, a_side, scenario, winner, reason, game.state.turn, n,
                      seconds, times, win_side, error, wiped, cpu, plans)


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion k/n."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, centre - half), min(1.0, centre + half)


def _pct(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    s = sorted(xs)
    i = min(len(s) - 1, max(0, int(math.ceil(q * len(s))) - 1))
    return s[i]


def _one(args: tuple) -> GameResult:
    level_a, level_b, i, seed, scenario, turn_limit, budget, armies, edition, clock, make = args
    return play_game(level_a, level_b, index=i, seed=seed, scenario=scenario,
                     turn_limit=turn_limit, budget=budget, armies=armies, edition=edition,
                     clock=clock, make=make)


def run(level_a: str, level_b: str, games: int, seed: int = 1, *, scenario: str = "standard",
        turn_limit: int = 15, jobs: int = 1, progress=None,
        budget: float | None = None, armies: str = "builder",
        edition: str = "first", clock: str = "wall", make=None) -> list[GameResult]:
    """Play ``games`` games; ``scenario`` "standard", "assault" or "mixed" (alternating)."""
    tasks = []
    for i in range(games):
        sc = scenario if scenario != "mixed" else ("standard" if i % 2 == 0 else "assault")
        tasks.append((level_a, level_b, i, seed, sc, turn_limit, budget, armies, edition, clock,
                      make))
    results: list[GameResult] = []
    if jobs > 1:
        import multiprocessing as mp
        with mp.get_context("fork").Pool(jobs) as pool:
            for r in pool.imap_unordered(_one, tasks):
                results.append(r)
                if progress:
                    progress(r)
    else:
        for t in tasks:
            r = _one(t)
            results.append(r)
            if progress:
                progress(r)
    results.sort(key=lambda r: r.index)
    return results


def format_table(level_a: str, level_b: str, results: list[GameResult]) -> str:
    n = len(results)
    w = sum(1 for r in results if r.winner == "a")
    lo_ = sum(1 for r in results if r.winner == "b")
    d = n - w - lo_
    lo, hi = wilson(w, n)
    lines = [f"A = {level_a}, B = {level_b}: {n} games "
             f"({', '.join(sorted({r.scenario for r in results}))}; configurations "
             f"1-{max(r.config for r in results)}, both sides)",
             "",
             f"{'':10} {'wins':>5} {'losses':>6} {'draws':>5}  {'win rate':>8}  {'95% interval':>15}",
             f"{'A ' + level_a:10} {w:5d} {lo_:6d} {d:5d}  {100 * w / max(1, n):7.1f}%  "
             f"{100 * lo:6.1f}%-{100 * hi:5.1f}%", ""]
    lines.extend(wins_by_kind(level_a, level_b, results))
    errors = [r for r in results if r.error]
    lines.append(f"AI errors (counted as losses of the failing player): {len(errors)}")
    for r in errors[:5]:
        lines.append(f"  game {r.index}: {r.error}")
    turns = [r.turns for r in results]
    lines.append(f"average game length: {statistics.mean(turns):.2f} turns, "
                 f"{statistics.mean(r.actions for r in results):.0f} actions")
    secs = [r.seconds for r in results]
    lines.append(f"game wall time: median {statistics.median(secs):.2f} s, "
                 f"max {max(secs):.2f} s")
    for key, lvl in (("a", level_a), ("b", level_b)):
        xs = [t for r in results for t in r.times.get(key, [])]
        lines.append(f"decision time {key.upper()} {lvl:8}: p50 {1000 * _pct(xs, .5):6.1f} ms  "
                     f"p95 {1000 * _pct(xs, .95):6.1f} ms  max {1000 * max(xs or [0]):7.1f} ms  "
                     f"({len(xs)} decisions)")
    for key, lvl in (("a", level_a), ("b", level_b)):
        xs = [t for r in results for t in r.cpu.get(key, [])]
        if xs:        # CPU time: what a decision costs on a machine others share too
            lines.append(f"decision CPU  {key.upper()} {lvl:8}: p50 {1000 * _pct(xs, .5):6.1f} ms  "
                         f"p95 {1000 * _pct(xs, .95):6.1f} ms  max {1000 * max(xs):7.1f} ms")
    lines.extend(plan_lines(level_a, level_b, results))
    by_cfg: dict[int, list[int]] = {}
    for r in results:
        by_cfg.setdefault(r.config, [0, 0])
        by_cfg[r.config][0] += r.winner == "a"
        by_cfg[r.config][1] += 1
    lines.append("A wins by configuration: " + ", ".join(
        f"{c}: {v[0]}/{v[1]}" for c, v in sorted(by_cfg.items())))
    reasons: dict[str, int] = {}
    for r in results:
        key = r.reason.split(" (")[0]
        key = "".join(ch for ch in key if not ch.isdigit()).strip()
        reasons[key] = reasons.get(key, 0) + 1
    lines.append("endings: " + "; ".join(f"{k} x{v}" for k, v in
                                         sorted(reasons.items(), key=lambda x: -x[1])))
    return "\n".join(lines)


KINDS = ("objective", "points", "annihilation")


def plan_lines(level_a: str, level_b: str, results: list[GameResult]) -> list[str]:
    """How often the Expert's plan search changed its decision (per Expert player)."""
    out = []
    for key, lvl in (("a", level_a), ("b", level_b)):
        tot: dict[str, int] = {}
        for r in results:
            for k, v in r.plans.get(key, {}).items():
                tot[k] = tot.get(k, 0) + v
        if not tot:
            continue
        planned = tot.get("planned", 0)
        out.append(f"plan search {key.upper()} {lvl:8}: {planned} decisions planned, a plan "
                   f"replaced the plain one in {tot.get('replaced', 0)} "
                   f"({100 * tot.get('replaced', 0) / max(1, planned):.1f}%); "
                   f"{tot.get('rollouts', 0) / max(1, planned):.1f} rollouts per planned "
                   f"decision; {tot.get('alone', 0)} decisions with one candidate (instant); "
                   f"search stopped early in {tot.get('cut', 0)} (no plan could still get "
                   f"enough samples to replace the plain one); every plan exact (no dice "
                   f"in its rollout, one rollout each) in {tot.get('exact', 0)}")
    return out


def wins_by_kind(level_a: str, level_b: str, results: list[GameResult]) -> list[str]:
    """Wins by kind for each player and for each side (a side bias shows here)."""
    out = [f"{'wins by kind':22} {'objective':>9} {'points':>7} {'annihil.':>8} {'total':>6}"]

    def row(name: str, pred) -> str:
        ks = [sum(1 for r in results if pred(r) and r.kind == k) for k in KINDS]
        return f"{name:22} {ks[0]:9d} {ks[1]:7d} {ks[2]:8d} {sum(ks):6d}"
    out.append(row(f"A {level_a}", lambda r: r.winner == "a"))
    out.append(row(f"B {level_b}", lambda r: r.winner == "b"))
    for side in ("Axis", "Allies"):
        out.append(row(f"{side} (either player)", lambda r, s=side: r.winner_side == s))
    for side in ("Axis", "Allies"):
        n = sum(1 for r in results if r.a_side == side)
        w = sum(1 for r in results if r.a_side == side and r.winner == "a")
        lo, hi = wilson(w, n)
        out.append(f"A as {side:6}: {w}/{n} = {100 * w / max(1, n):.1f}% "
                   f"({100 * lo:.1f}-{100 * hi:.1f}%)")
    n = len(results)
    ax = sum(1 for r in results if r.winner_side == "Axis")
    lo, hi = wilson(ax, n)
    out.append(f"Axis side wins {ax}/{n} = {100 * ax / max(1, n):.1f}% ({100 * lo:.1f}-{100 * hi:.1f}%)")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m game.ai.arena",
                                 description="Seeded headless AI-vs-AI games and a results table.")
    ap.add_argument("--a", default="veteran", choices=LEVELS, help="player A's level")
    ap.add_argument("--b", default="recruit", choices=LEVELS, help="player B's level")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--scenario", default="standard", choices=("standard", "assault", "mixed"))
    ap.add_argument("--turn-limit", type=int, default=15,
                    help="a game undecided after this turn is a draw (default 15)")
    ap.add_argument("--jobs", type=int, default=1, help="games played in parallel")
    ap.add_argument("--armies", default="builder", choices=("builder", "whole", "base", "sample"),
                    help="the AI army builder's armies from the whole playable roster (default:"
                         " one nation or a historical pairing; whole: any nations of the side),"
                         " from the 47 first cards only (base), or the sample armies")
    ap.add_argument("--budget", type=float, default=None,
                    help="the Expert's thinking time per decision in seconds (default 1.0)")
    ap.add_argument("--clock", default="wall", choices=("wall", "cpu"),
                    help="what the Expert's budget counts: wall time (default; what a player"
                         " waits) or cpu - its thread's CPU time, so results do not depend on"
                         " what else the machine runs")
    ap.add_argument("--edition", default="first", choices=("first", "later"),
                    help="rules edition: the later edition plays its own three maps, with "
                         "Aircraft and Antiair in the armies (default first)")
    ap.add_argument("--quiet", action="store_true", help="no line per game")
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.error("--games must be at least 1")
    if args.budget is not None and args.budget <= 0:
        ap.error("--budget must be more than 0 seconds")

    def progress(r: GameResult) -> None:
        if not args.quiet:
            who = {"a": f"A ({args.a})", "b": f"B ({args.b})", None: "draw"}[r.winner]
            print(f"game {r.index:4d}  config {r.config}  A={r.a_side:6}  {r.scenario:8}  "
                  f"{who:16} turn {r.turns:2d}  {r.seconds:5.2f} s  {r.reason}", flush=True)
    from game.rules.errors import DataError
    try:
        results = run(args.a, args.b, args.games, args.seed, scenario=args.scenario,
                      turn_limit=args.turn_limit, jobs=args.jobs, progress=progress,
                      budget=args.budget, armies=args.armies, edition=args.edition,
                      clock=args.clock)
    except DataError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print()
    print(format_table(args.a, args.b, results))
    if args.budget is not None:
        print(f"Expert budget: {args.budget:g} s per decision ({args.clock} clock)")
    elif "expert" in (args.a, args.b):
        print(f"Expert budget: the default 1 s per decision ({args.clock} clock)")
    return 1 if any(r.error for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
