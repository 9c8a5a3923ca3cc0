"""Battle-screen frame time: p50 / p95 at 1280x800 and 1920x1080.

The largest configuration (all six are 171 hexes; the first is used), 30
units deployed (15 a side), in a movement phase with a unit selected (the
move overlay on) and the mouse over a reachable hex (the path and its rolls
drawn).  Each frame is a full ``App.step``: events, update, draw, flip.
Goal (issue 6): p95 under 8 ms.

    SDL_VIDEODRIVER=dummy python bench/frame_bench.py [--frames N]
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


def army(side: str, n: int = 15) -> list:
    from game.data.units import load_roster
    cards = sorted((c for c in load_roster().values() if c.side == side), key=lambda c: c.name)
    return [cards[i % len(cards)] for i in range(n)]


def battle_game(seed: int = 5):
    """A game on configuration 1 with 30 units deployed, first movement phase."""
    from game.data.maps import load_configuration
    from game.rules.dice import Dice
    from game.rules.engine import new_game
    from game.rules.state import OrderChoice, Phase
    from game.ui.battle.demo import pick_action
    bm = load_configuration(1)
    game = new_game(bm, {"Axis": army("Axis"), "Allies": army("Allies")}, dice=Dice(seed))
    rng = random.Random(seed)
    while not game.state.phase.is_movement or isinstance(game.state.pending, OrderChoice):
        game.apply(pick_action(game, rng))
    assert game.state.phase == Phase.MOVEMENT_FIRST
    return game


def measure(size: tuple[int, int], frames: int) -> tuple[float, float, int]:
    import pygame
    from game.ui.app import App
    from game.ui.scenes.battle import BattleScene
    from game.ui.settings import Settings
    app = App(size=size, settings=Settings(sound=False), save_settings=False)
    app.running = True
    game = battle_game()
    scene = BattleScene(app, None, game=game)
    app.switch(scene)
    side = game.state.active_side
    best = max((u for u in game.state.live_units(side) if not u.boarded),
               key=lambda u: len(game.reachable(u.uid)))
    scene.selected = best.uid
    reach = game.reachable(best.uid)
    far = max(reach, key=lambda h: reach[h].cost)
    pos = scene.view.center(far)
    scene.view.ready()
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    for _ in range(20):                      # warm the caches
        app.step(dt=1 / 60)
    times, cpu = [], []
    for i in range(frames):
        # wiggle the mouse between two reachable hexes so hover work is included
        if i % 30 == 0:
            h = list(reach)[i // 30 % len(reach)]
            pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=scene.view.center(h),
                                                 rel=(0, 0), buttons=(0, 0, 0)))
        t, c = time.perf_counter(), time.process_time()
        app.step(dt=1 / 60)
        times.append((time.perf_counter() - t) * 1000)
        cpu.append((time.process_time() - c) * 1000)
    times.sort()
    cpu.sort()
    app.close()
    pygame.display.quit()
    p95 = int(len(times) * 0.95) - 1
    return (statistics.median(times), times[p95], statistics.median(cpu), cpu[p95],
            len(game.state.live_units()))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=300)
    args = ap.parse_args(argv)
    ok = True
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"load average {load:.1f} on {os.cpu_count()} CPUs (wall times suffer from other work)")
    for size in ((1280, 800), (1920, 1080)):
        p50, p95, c50, c95, n = measure(size, args.frames)
        flag = "ok" if p95 < 8.0 else "OVER GOAL"
        ok &= p95 < 8.0
        print(f"battle screen {size[0]}x{size[1]}, {n} units, move overlay on: "
              f"wall p50 {p50:.2f} ms, p95 {p95:.2f} ms ({flag}: p95 < 8 ms); "
              f"CPU p50 {c50:.2f} ms, p95 {c95:.2f} ms")
    if not ok:
        print("note: the goal is judged on an idle machine; CPU times show the frame's own cost")
    return 0


if __name__ == "__main__":
    sys.exit(main())
