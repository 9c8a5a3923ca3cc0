"""Issue 19: the whole roster stays fast.

    python bench/roster_bench.py [--repeat N]

Prints (best and median of N runs, milliseconds):
- load: every card file read and validated (``load_roster(edition="later")`` with the
  cache cleared: YAML parsing, every field checked), then every card's playability
  asked in both editions (``card_refusal``); goal under 1 s;
- the army builder (headless, dummy video): opening it (scene, widgets, the list filled,
  the first frame) and each filter step / a search (the list refilled and a frame
  drawn); goal under 100 ms each.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def _ms(samples: list[float]) -> str:
    return f"best {min(samples) * 1000:7.1f} ms   median {statistics.median(samples) * 1000:7.1f} ms"


def bench_load(repeat: int) -> tuple[list[float], int]:
    from game.data import units
    from game.rules.army import card_refusal
    import game.rules.engine  # noqa: F401  (the imports are not part of loading)
    times = []
    n = 0
    for _ in range(repeat):
        units.clear_cache()
        t0 = time.perf_counter()
        roster = units.load_roster(edition="later")
        for c in roster.values():
            card_refusal(c, "first")
            card_refusal(c, "later")
        times.append(time.perf_counter() - t0)
        n = len(roster)
    return times, n


def bench_builder(repeat: int) -> dict[str, list[float]]:
    import tempfile

    import pygame
    from game.ui.app import App
    from game.ui.battle_setup_data import BattleSetup
    from game.ui.scenes.army_builder import ArmyBuilderScene
    from game.ui.settings import Settings
    os.environ["HEXFRONT_CONFIG_DIR"] = tempfile.mkdtemp()
    app = App(size=(1280, 800), settings=Settings(sound=False), save_settings=False)
    app.running = True
    out: dict[str, list[float]] = {"open": []}
    app.switch(ArmyBuilderScene(app, BattleSetup(), "Allies"))     # warm: fonts, roster
    app.step()
    for _ in range(repeat):
        t0 = time.perf_counter()
        app.switch(ArmyBuilderScene(app, BattleSetup(), "Allies"))
        app.step()
        out["open"].append(time.perf_counter() - t0)
        s = app.scene
        for key in ("f_show", "f_nation", "f_type", "f_year", "f_cost", "f_sort"):
            t0 = time.perf_counter()
            s.on_button(key)
            app.step()
            out.setdefault(key[2:], []).append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        s.set_search("sherman")
        app.step()
        out.setdefault("search", []).append(time.perf_counter() - t0)
    pygame.quit()
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    load, n = bench_load(args.repeat)
    print(f"roster: {n} cards (both editions' folders)")
    print(f"  load and validate every card, playability in both editions: {_ms(load)}"
          f"   goal < 1000 ms")
    for k, v in bench_builder(args.repeat).items():
        print(f"  army builder {k:8s}: {_ms(v)}   goal < 100 ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
