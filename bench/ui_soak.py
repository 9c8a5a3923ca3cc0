"""Soak the real battle screen: seeded AI-vs-AI battles played headless through
``BattleScene`` (both scenarios, all six configurations in turn, the demo's
animations at their top speed), with random clicks and key presses injected
between the AI's moves.  Every exception counts (an AI error too: the demo never
falls back to random play), and the battle is abandoned for the next one.

    SDL_VIDEODRIVER=dummy python bench/ui_soak.py --battles N --seed S [--inject P]
                                                  [--max-minutes M]

Ends with the line ``battles: N, frames: F, exceptions: E``.  Battle ``i`` uses
the scenario ``("standard", "assault")[i % 2]``, configuration ``(i // 2) % 6 + 1``
and the dice seed ``S + i``.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from game.debug import counted_errors  # noqa: E402 - after the path is set
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ["HEXFRONT_DEBUG"] = "1"          # errors reach us instead of the crash dialog
os.environ.setdefault("HEXFRONT_AI_SYNC", "1")   # the AI thinks in the frame: a seed replays exactly

SCENARIOS = ("standard", "assault")


def _keys():
    import pygame
    return [pygame.K_t, pygame.K_TAB, pygame.K_f, pygame.K_n, pygame.K_h, pygame.K_l,
            pygame.K_u, pygame.K_SPACE, pygame.K_e, pygame.K_RETURN, pygame.K_1, pygame.K_2,
            pygame.K_3, pygame.K_6, pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN,
            pygame.K_PLUS, pygame.K_MINUS, pygame.K_HOME, pygame.K_BACKSPACE, pygame.K_z,
            pygame.K_g, pygame.K_c]


def inject(app, rng: random.Random, keys: list[int]) -> None:
    """One random player input: a click (left or right) anywhere but the window's
    menus, a held-and-released key, or a wheel turn."""
    import pygame
    w, h = app.size
    r = rng.random()
    if r < 0.55:
        pos = (rng.randrange(w), rng.randrange(h))
        button = 1 if rng.random() < 0.8 else 3
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0),
                                             buttons=(0, 0, 0)))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))
    elif r < 0.95:
        k = rng.choice(keys)
        mod = pygame.KMOD_CTRL if k == pygame.K_z else 0
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="",
                                             scancode=0))
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=mod, unicode="",
                                             scancode=0))
    else:
        pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=rng.choice((-1, 1)),
                                             flipped=False))


def soak(battles: int, seed: int, *, p_inject: float = 0.05, max_frames: int = 60000,
         size: tuple[int, int] = (1024, 640), quiet: bool = False,
         max_seconds: float | None = None) -> dict:
    """Play ``battles`` battles (fewer if ``max_seconds`` runs out first: the battles
    played are counted); returns the counts (and prints every exception)."""
    tmp = tempfile.TemporaryDirectory(prefix="hexfront-soak-")
    os.environ["HEXFRONT_CONFIG_DIR"] = tmp.name
    os.environ["HEXFRONT_DATA_DIR"] = tmp.name
    import pygame
    from game.ui.app import App
    from game.ui.scenes.battle import BattleScene
    from game.ui.scenes.battle_setup import make_setup
    from game.ui.settings import Settings
    settings = Settings(sound=False)
    settings.animation_speed = "fast"
    app = App(size=size, settings=settings, save_settings=False)
    app.running = True
    keys = _keys()
    out = {"battles": 0, "frames": 0, "exceptions": 0, "finished": 0, "unfinished": 0}
    t0 = time.perf_counter()
    try:
        for i in range(battles):
            if max_seconds is not None and time.perf_counter() - t0 > max_seconds:
                break
            scenario = SCENARIOS[i % 2]
            config = (i // 2) % 6 + 1
            rng = random.Random(seed * 7919 + i)
            setup = make_setup(scenario=scenario, config=config, seed=seed + i)
            setup.demo_frames = max_frames
            pygame.event.clear()
            try:
                scene = BattleScene(app, setup)
                app.switch(scene)
                scene.demo.fast = True
                frames = 0
                while app.scene is scene and frames < max_frames:
                    # the player's hands between the AI's moves
                    if scene.demo.wait > 0 and rng.random() < p_inject:
                        inject(app, rng, keys)
                    app.step(dt=1 / 30)
                    frames += 1
                    if not app.running:         # nothing we inject quits; be safe
                        app.running = True
                out["frames"] += frames
                if app.scene is not scene and scene.game.over:
                    out["finished"] += 1
                else:
                    out["unfinished"] += 1
                    if not quiet:
                        st = scene.game.state
                        print(f"battle {i} ({scenario}, configuration {config}, seed {seed + i}):"
                              f" not over after {frames} frames (turn {st.turn}, "
                              f"{st.phase.value})", file=sys.stderr)
            except counted_errors():            # counted and printed (raised in debug mode)
                out["exceptions"] += 1
                print(f"battle {i} ({scenario}, configuration {config}, seed {seed + i}):",
                      file=sys.stderr)
                traceback.print_exc()
                app.scene = None
            out["battles"] += 1
            if not quiet and (i + 1) % 5 == 0:
                print(f"  {i + 1} battles, {out['frames']} frames, {out['exceptions']} "
                      f"exceptions, {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    finally:
        app.scene = None
        app.close()
        tmp.cleanup()
    out["seconds"] = time.perf_counter() - t0
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--battles", type=int, default=12)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--inject", type=float, default=0.05,
                    help="chance per frame of a random click or key while the AI waits")
    ap.add_argument("--max-frames", type=int, default=60000, help="per battle")
    ap.add_argument("--max-minutes", type=float, default=None,
                    help="stop starting new battles after this long (the line says how many ran)")
    args = ap.parse_args(argv)
    r = soak(args.battles, args.seed, p_inject=args.inject, max_frames=args.max_frames,
             max_seconds=None if args.max_minutes is None else args.max_minutes * 60)
    print(f"finished: {r['finished']}, unfinished: {r['unfinished']}, "
          f"seconds: {r['seconds']:.0f}")
    print(f"battles: {r['battles']}, frames: {r['frames']}, exceptions: {r['exceptions']}")
    return 1 if r["exceptions"] else 0


if __name__ == "__main__":
    sys.exit(main())
