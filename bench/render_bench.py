"""Map renderer timings: assemble a configuration, build its line-of-sight table, draw
the cached map picture, and blit it per frame (what the preview pays each frame).

    SDL_VIDEODRIVER=dummy python bench/render_bench.py
"""
from __future__ import annotations

import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from game.data.maps import CONFIGURATIONS_DIR, list_configurations, load_configuration  # noqa: E402
from game.ui.map_render import MapRenderer  # noqa: E402


def ms(seconds: float) -> str:
    return f"{seconds * 1000:7.1f} ms"


def main() -> int:
    pygame.display.init()
    pygame.font.init()
    screen = pygame.display.set_mode((1280, 800))
    configs = list_configurations()
    print(f"{'configuration':<18} {'assemble':>10} {'LOS table':>10} {'draw map':>10} "
          f"{'+zones+labels':>14} {'blit/frame':>11}")
    totals = {"assemble": [], "los": [], "draw": [], "draw_all": [], "blit": []}
    with tempfile.TemporaryDirectory() as tmp:
        # copies in a fresh folder: the loader's cache can't answer, so this times assembly
        conf_dir = Path(tmp) / "configurations"
        conf_dir.mkdir()
        shutil.copytree(CONFIGURATIONS_DIR.parent / "sections", Path(tmp) / "sections")
        for number, name, path in configs:
            copy = conf_dir / Path(path).name
            shutil.copy(path, copy)
            t0 = time.perf_counter()
            bm = load_configuration(copy)
            t1 = time.perf_counter()
            bm.los
            t2 = time.perf_counter()
            r = MapRenderer.fit(bm, 940, 650)
            r.surface
            t3 = time.perf_counter()
            MapRenderer.fit(bm, 940, 650, zones=True, labels=True).surface
            t4 = time.perf_counter()
            surf = r.surface.convert()
            frames = []
            for _ in range(200):
                f0 = time.perf_counter()
                screen.blit(surf, (8, 52))
                frames.append(time.perf_counter() - f0)
            blit = statistics.median(frames)
            for k, v in (("assemble", t1 - t0), ("los", t2 - t1), ("draw", t3 - t2),
                         ("draw_all", t4 - t3), ("blit", blit)):
                totals[k].append(v)
            print(f"{number} {name:<16} {ms(t1 - t0):>10} {ms(t2 - t1):>10} {ms(t3 - t2):>10} "
                  f"{ms(t4 - t3):>14} {ms(blit):>11}")
    print("mean               " + " ".join(
        f"{ms(statistics.mean(totals[k])):>{w}}" for k, w in
        (("assemble", 10), ("los", 10), ("draw", 10), ("draw_all", 14), ("blit", 11))))
    big = load_configuration(configs[0][0])
    t0 = time.perf_counter()
    MapRenderer.fit(big, 1880, 1000).surface
    print(f"configuration {configs[0][0]} drawn for a 1920x1080 window: {ms(time.perf_counter() - t0)}")
    preview_frames()
    pygame.quit()
    return 0


def preview_frames() -> None:
    """Whole preview frames (map, selection overlay, hover line of sight, panels)."""
    from game.ui.app import App
    from game.ui.settings import Settings
    from game.ui.scenes.preview import PreviewScene
    settings = Settings()
    settings.sound = False
    app = App(size=(1280, 800), settings=settings, save_settings=False)
    scene = PreviewScene(app, config=1)
    app.switch(scene)
    app.running = True
    app.step([])
    bm = scene.battle_map
    scene.select_hex(bm.hexes[80])
    times = []
    for i in range(120):
        h = bm.hexes[(i * 7) % len(bm.hexes)]
        ev = pygame.event.Event(pygame.MOUSEMOTION, pos=scene.hex_center(h), rel=(0, 0), buttons=(0, 0, 0))
        t0 = time.perf_counter()
        app.step([ev], dt=1 / 60)
        times.append(time.perf_counter() - t0)
    print(f"preview frame with a hex selected and the mouse moving: median {ms(statistics.median(times))}, "
          f"worst {ms(max(times[1:]))}")
    app.close()


if __name__ == "__main__":
    sys.exit(main())
