"""Time from starting the game to the first drawn frame of the main menu.

Runs a fresh Python process five times (what a player waits for after typing
`python main.py`: interpreter, imports, window, GUI manager, menu, first frame)
and prints the median and the worst.  Goal: under 1.5 s.
Run: SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy .venv/bin/python bench/startup_bench.py
"""
from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHILD = r"""
import time, sys
t0 = time.perf_counter()
sys.path.insert(0, %r)
from game.ui.app import App
from game.ui.settings import Settings
t1 = time.perf_counter()
app = App(save_settings=False)
t2 = time.perf_counter()
app.switch(app.menu_scene())
app.running = True
app.step([])
t3 = time.perf_counter()
print(f"{t1 - t0:.4f} {t2 - t1:.4f} {t3 - t2:.4f}")
"""


def main(runs: int = 5) -> int:
    env = dict(os.environ)
    env.setdefault("SDL_VIDEODRIVER", "dummy")
    env.setdefault("SDL_AUDIODRIVER", "dummy")
    env["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
    totals, parts = [], []
    with tempfile.TemporaryDirectory() as cfg:
        env["HEXFRONT_CONFIG_DIR"] = cfg
        for _ in range(runs):
            t = time.perf_counter()
            out = subprocess.run([sys.executable, "-c", CHILD % str(ROOT)], env=env,
                                 capture_output=True, text=True, cwd=ROOT)
            totals.append(time.perf_counter() - t)
            if out.returncode != 0:
                print(out.stderr)
                return 1
            parts.append([float(v) for v in out.stdout.split()[-3:]])
    med = statistics.median(totals)
    imports, window, menu = (statistics.median(p[i] for p in parts) for i in range(3))
    print(f"start to first menu frame: median {med:.3f} s, worst {max(totals):.3f} s "
          f"over {runs} runs (goal < 1.5 s)")
    print(f"  inside the process: imports {imports:.3f} s, window + GUI manager {window:.3f} s, "
          f"menu + first frame {menu:.3f} s (rest: interpreter start-up)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
