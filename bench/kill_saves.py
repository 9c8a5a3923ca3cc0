"""kill -9 while saving and while autosaving (issue 13).

    python bench/kill_saves.py [--n 100] [--seed 1]

``save``: a child process saves two different games over one slot again and
again (each save a real ``save_game`` write: temporary file, fsync, rename);
``autosave``: a child plays two battles and autosaves after every few actions
(retention, the session marker).  The parent kills the child with SIGKILL at a
random moment, ``n`` times each, and then checks, like the next start would:

- the last good save always loads (the slot, or the newest autosave, replays
  to its saved position);
- retention was never over its limit, not even right after the kill (at most
  AUTOSAVE_KEEP per battle, AUTOSAVE_TOTAL in all);
- after ``begin_session()`` (the next start) no ``*.tmp`` file is left anywhere.

Prints one line per mode; exits 1 when any check failed.
"""
from __future__ import annotations

import argparse
import os
import random
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _tmp_files(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.is_file() and p.name.endswith(".tmp")]


def _per_battle(files: list[Path]) -> dict[str, int]:
    out: dict[str, int] = {}
    for p in files:
        key = p.name.split("-")[1] if p.name.count("-") >= 3 else p.name
        out[key] = out.get(key, 0) + 1
    return out


def run(mode: str, n: int, seed: int, data: Path) -> dict[str, Any]:
    from game import saves
    from game.rules.errors import DataError
    from tests.saves_kit import new, play
    rng = random.Random(f"{seed}-{mode}")
    os.environ["HEXFRONT_DATA_DIR"] = str(data)
    os.environ["HEXFRONT_CONFIG_DIR"] = str(data / "conf")
    slot = saves.saves_dir() / "slot.json"
    games = [play(new(11), 40, seed=11), play(new(12), 60, seed=12)]
    hashes = {g.state_hash() for g in games}
    if mode == "save":
        saves.save_game(games[0], slot)
    stats = {"kills": 0, "mid_write": 0, "loads": 0, "orphans_after_start": 0,
             "max_per_battle": 0, "max_total": 0, "failures": []}
    for attempt in range(n):
        battles = []
        if mode == "autosave":
            # the same three battles each time, from another point of each (played here,
            # so the child spends its time autosaving)
            battles = [play(new(20 + (attempt + k) % 3), (attempt * 7 + k) % 50, seed=k)
                       for k in range(2)]
            for g in battles:
                g.battle_id = f"b{g.dice.seed}"
        pid = os.fork()
        if pid == 0:                                        # the child: save until killed
            try:
                if mode == "save":
                    i = attempt
                    while True:
                        saves.save_game(games[i % 2], slot, verify=False)
                        i += 1
                else:
                    i = 0
                    while True:
                        g = battles[i % 2]
                        if i % 6 < 2:                       # a move now and then
                            play(g, 2, seed=i)
                        saves.autosave(g)
                        i += 1
            finally:
                os._exit(0)
        time.sleep(rng.uniform(0.002, 0.06) if mode == "save" else rng.uniform(0.005, 0.15))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        stats["kills"] += 1
        if _tmp_files(data):
            stats["mid_write"] += 1
        autos = saves.list_autosaves()
        per = _per_battle(autos)
        stats["max_per_battle"] = max([stats["max_per_battle"], *per.values()])
        stats["max_total"] = max(stats["max_total"], len(autos))
        if max(per.values(), default=0) > saves.AUTOSAVE_KEEP or \
                len(autos) > saves.AUTOSAVE_TOTAL:
            stats["failures"].append(f"attempt {attempt}: retention over its limit ({per})")
        saves.begin_session()                               # the next start
        left = _tmp_files(data)
        stats["orphans_after_start"] += len(left)
        if left:
            stats["failures"].append(f"attempt {attempt}: left {[p.name for p in left]}")
        try:
            if mode == "save":
                ok = saves.load_game(slot).state_hash() in hashes
            else:
                last = saves.latest_autosave()
                ok = last is None or saves.load_game(last) is not None
        except DataError as exc:
            ok = False
            stats["failures"].append(f"attempt {attempt}: {exc}")
        if ok:
            stats["loads"] += 1
        else:
            stats["failures"].append(f"attempt {attempt}: the last good save did not load")
        saves.end_session()
    return stats


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=100, help="kills per mode (default 100)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    if not hasattr(os, "fork"):
        print("needs fork (Linux, macOS)")
        return 0
    from game import saves
    failed = False
    for mode in ("save", "autosave"):
        with tempfile.TemporaryDirectory(prefix="hexfront-kill-") as d:
            t0 = time.perf_counter()
            s = run(mode, args.n, args.seed, Path(d))
            took = time.perf_counter() - t0
        print(f"{mode:<9} kills {s['kills']:>4}  landed mid-write {s['mid_write']:>4}  "
              f"last good save loads {s['loads']}/{s['kills']}  "
              f"orphans after next start {s['orphans_after_start']}  "
              f"autosaves per battle max {s['max_per_battle']} (limit {saves.AUTOSAVE_KEEP}), "
              f"all max {s['max_total']} (limit {saves.AUTOSAVE_TOTAL})  {took:.0f} s")
        for f in s["failures"][:5]:
            print("   ", f)
        failed = failed or bool(s["failures"])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
