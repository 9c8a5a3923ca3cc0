"""Hostile-input bench (issue 13): mutated files through ``game.check`` and the
player's own loading path, each under a time and a memory cap.

    python bench/fuzz_inputs.py [--n 10000] [--kinds cards,save] [--jobs 2] [--seed 1]
    python bench/fuzz_inputs.py --speed          # the big-file and largest-map lines only

For every kind of file (cards, section, configuration, army, situation, save,
settings) it takes the project's valid files, mutates each input with one to
three of: truncation, byte flips, inserted or deleted bytes, a line deleted,
duplicated or swapped (duplicate keys), a value swapped for another type, a
huge number (400 / 5,000 digits), deep nesting, an alias bomb, NaN/Infinity,
a negative or float number, another encoding (UTF-16, Latin-1), and for saves
a "resealed" edit (the check hash recomputed, as the project's own API would).
Each input goes through ``game.check.check_file`` and the loading path the
game uses for that kind (the roster folder, the map loader, the army with the
game's legality check, the situation loader and runner, the save loader with
its replay, the settings loader) in a worker process with an address-space
limit (``--mem``, default 1 GiB) and an alarm (``--hard``, default 10 s).

Prints per kind: inputs, clean errors, accepted, tracebacks, over 2 s, long
messages (a problem over 600 characters or on more than one line), peak memory
of a worker, and the slowest input (wall clock, and its CPU time: the machine may be shared).  Goal: 0 tracebacks, 0 over 2 s, peak under 300 MB.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import signal
import sys
import tempfile
import time
import traceback
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from game.debug import counted_errors  # noqa: E402 - after the path is set
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

KINDS = ("cards", "section", "configuration", "army", "situation", "save", "settings")
SLOW = 2.0
LONG_MESSAGE = 600


# --- seeds: the project's valid files -------------------------------------------------------------
def _make_saves() -> list[bytes]:
    from game import saves
    from tests.saves_kit import new, play
    out = [(ROOT / "tests" / "bad_input" / "_good_save.json").read_bytes()]
    for seed, n, scen in ((3, 25, "standard"), (5, 40, "standard"), (8, 30, "assault")):
        g = play(new(seed, scenario=scen), n, seed=seed)
        out.append(saves.dumps(saves.game_to_dict(g)).encode("utf-8"))
    return out


def seeds(kind: str) -> list[bytes]:
    if kind == "cards":
        return [p.read_bytes() for p in sorted((ROOT / "units" / "cards").glob("*.yaml"))]
    if kind == "section":        # (a section's file name must match its name: kept below)
        return [p.read_bytes() for p in sorted((ROOT / "maps" / "sections").glob("*.yaml"))]
    if kind == "configuration":
        return [p.read_bytes() for p in
                sorted((ROOT / "maps" / "configurations").glob("*.yaml"))]
    if kind == "army":
        return [p.read_bytes() for p in sorted((ROOT / "units" / "armies").glob("*.yaml"))]
    if kind == "situation":
        files = sorted((ROOT / "tests" / "situations").rglob("*.yaml"))
        return [p.read_bytes() for p in files if p.stat().st_size < 20_000][:12]
    if kind == "save":
        return _make_saves()
    if kind == "settings":
        return [json.dumps({"window_size": [1280, 800], "fullscreen": False,
                            "animation_speed": "normal", "sound": True}).encode()]
    raise ValueError(kind)


# --- mutations ---------------------------------------------------------------------------------------
BOMB = (b"_x0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" +
        b"".join(f"_x{i}: &a{i} [{', '.join(['*a%d' % (i - 1)] * 9)}]\n".encode()
                 for i in range(1, 9)))
VALUES = [b"[]", b"{}", b"null", b"-1", b"0", b"1.5", b"1e999", b"NaN", b"Infinity", b"-Infinity",
          b".nan", b".inf", b"true", b"\"\"", b"~", b"9" * 400, b"9" * 5000, b"-" + b"7" * 4400,
          b"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]", b"*nope", b"&a x",
          b"!!python/object:os.system", b"\"\\ud800\"", b"0x1F", b"1_000", b"'x' * 3",
          b"{\"a\": 1, \"a\": 2}", b"2.0", b"1e3", b"-0", b"999999999999999999999999"]


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def m_truncate(d: bytes, r: random.Random) -> bytes:
    return d[: r.randrange(len(d) + 1)]


def m_flip(d: bytes, r: random.Random) -> bytes:
    b = bytearray(d)
    for _ in range(r.randint(1, 8)):
        if b:
            b[r.randrange(len(b))] ^= 1 << r.randrange(8)
    return bytes(b)


def m_insert(d: bytes, r: random.Random) -> bytes:
    i = r.randrange(len(d) + 1)
    junk = bytes(r.randrange(256) for _ in range(r.randint(1, 12))) if r.random() < 0.5 \
        else r.choice([b":", b"- ", b"{", b"[", b"]", b"}", b"\"", b"'", b"&", b"*", b"\t",
                       b"\n  ", b"#", b"%", b"@", b"!", b",", b"|", b">"])
    return d[:i] + junk + d[i:]


def m_delete(d: bytes, r: random.Random) -> bytes:
    i = r.randrange(len(d) + 1)
    return d[:i] + d[i + r.randint(1, 40):]


def m_line(d: bytes, r: random.Random) -> bytes:
    ls = _lines(d)
    if len(ls) < 2:
        return d
    i, j = r.randrange(len(ls)), r.randrange(len(ls))
    op = r.randrange(3)
    if op == 0:
        del ls[i]
    elif op == 1:
        ls.insert(j, ls[i])                      # a duplicated key, most of the time
    else:
        ls[i], ls[j] = ls[j], ls[i]
    return b"\n".join(ls)


def m_value(d: bytes, r: random.Random) -> bytes:
    """Replace the value after a ':' (YAML and JSON alike) with another kind of value."""
    spots = [i for i in range(len(d)) if d[i:i + 2] == b": "]
    if not spots:
        return d
    i = r.choice(spots) + 2
    j = i
    while j < len(d) and d[j:j + 1] not in (b"\n", b","):
        j += 1
    return d[:i] + r.choice(VALUES) + d[j:]


def m_number(d: bytes, r: random.Random) -> bytes:
    digits = [i for i in range(len(d)) if d[i:i + 1].isdigit()]
    if not digits:
        return d
    i = r.choice(digits)
    return d[:i] + r.choice([b"9" * 400, b"1" * 5000, b"-", b"0.5", b"-3", b"1e308"]) + d[i:]


def m_nest(d: bytes, r: random.Random) -> bytes:
    depth = r.choice([50, 1000, 20000])
    spots = [i for i in range(len(d)) if d[i:i + 2] == b": "]
    i = (r.choice(spots) + 2) if spots else len(d)
    return d[:i] + b"[" * depth + b"1" + b"]" * depth + d[i:]


def m_alias(d: bytes, r: random.Random) -> bytes:
    if d.lstrip().startswith(b"{"):                  # JSON has no aliases: a deep list
        return m_nest(d, r)
    v = m_value(d, r)
    spots = [i for i in range(len(v)) if v[i:i + 2] == b": "]
    if spots:
        i = r.choice(spots) + 2
        j = v.find(b"\n", i)
        j = len(v) if j < 0 else j
        v = v[:i] + b"*a8" + v[j:]
    return BOMB + v


def m_encoding(d: bytes, r: random.Random) -> bytes:
    text = d.decode("utf-8", "replace")
    enc = r.choice(["utf-16", "utf-16-le", "utf-16-be", "utf-32", "latin-1", "cp1252"])
    return text.encode(enc, "replace")


MUTATIONS: list[Callable[[bytes, random.Random], bytes]] = [
    m_truncate, m_flip, m_insert, m_delete, m_line, m_line, m_value, m_value, m_value,
    m_number, m_nest, m_alias, m_encoding]


def _reseal(d: bytes) -> bytes:
    """A mutated save whose check hash is recomputed: made 'with the project's API'."""
    from game.saves import content_hash, dumps
    try:
        data = json.loads(d)
    except (ValueError, RecursionError):
        return d
    if not isinstance(data, dict):
        return d
    try:
        data["check"] = content_hash(data)
        return dumps(data).encode("utf-8")
    except (TypeError, ValueError, RecursionError):
        return d


def _semantic_save(d: bytes, r: random.Random) -> bytes:
    """Edits a hostile player would make to a JSON save, then resealed."""
    try:
        data = json.loads(d)
    except ValueError:
        return d
    pick = r.randrange(10)
    if pick == 0:
        data["armies"]["Axis"] = ["Tiger I"] * r.choice([5, 20, 100])
    elif pick == 1:
        data["armies"]["Axis"], data["armies"]["Allies"] = (data["armies"]["Allies"],
                                                            data["armies"]["Axis"])
    elif pick == 2:
        data["armies"][r.choice(["Axis", "Allies"])] = []
    elif pick == 3:
        data.setdefault("options", {})["turn_limit"] = r.choice([0, -1, 10 ** 30, 2.5, "x"])
    elif pick == 4:
        data["seed"] = r.choice([-1, -(2 ** 70), 2 ** 64, 2 ** 63, 1.0, "7"])
    elif pick == 5 and data.get("actions"):
        a = r.choice(data["actions"])
        a[r.choice(list(a))] = r.choice([None, 1, "axis-1", [0, 0], [[0, 0]] * 300, {"q": 1},
                                         "x" * 10_000, True])
    elif pick == 6 and data.get("actions"):
        i = r.randrange(len(data["actions"]))
        data["actions"].insert(i, dict(data["actions"][i]))
    elif pick == 7:
        data.setdefault("options", {})[r.choice(["historical", "year", "attacker", "budget",
                                                 "max_units", "budgets"])] = \
            r.choice([True, 1939, "Axis", 500, 99, {"Axis": 1000}, None, [1]])
    elif pick == 8:
        data["configuration"] = r.choice([0, 7, 99, 2, -1])
    else:
        data["scenario"] = r.choice(["assault", "standard", "other", 1])
    return _reseal(json.dumps(data).encode("utf-8"))


def mutate(kind: str, base: bytes, r: random.Random) -> bytes:
    if kind == "save" and r.random() < 0.35:
        return _semantic_save(base, r)
    d = base
    for _ in range(r.choice([1, 1, 1, 2, 3])):
        d = r.choice(MUTATIONS)(d, r)
    if kind == "save" and r.random() < 0.4:
        d = _reseal(d)
    return d


# --- one input, in a worker -------------------------------------------------------------------------
_TMP: Path | None = None


class _Hard(BaseException):
    """The alarm: an input ran past the hard limit."""


def _on_alarm(signum: int, frame: Any) -> None:
    raise _Hard()


def _worker_init(mem_bytes: int) -> None:
    global _TMP
    resource.setrlimit(resource.RLIMIT_AS, (mem_bytes, mem_bytes))
    signal.signal(signal.SIGALRM, _on_alarm)
    _TMP = Path(tempfile.mkdtemp(prefix="hexfront-fuzz-"))
    os.environ["HEXFRONT_CONFIG_DIR"] = str(_TMP / "conf")
    os.environ["HEXFRONT_DATA_DIR"] = str(_TMP / "data")
    # warm the caches the game would have warm (roster, maps)
    from game.data.maps import load_configuration
    from game.data.units import load_roster
    load_roster()
    for n in range(1, 7):
        load_configuration(n)


def _load_path(kind: str, path: Path) -> None:
    """The loading path the game itself uses for this kind of file."""
    if kind == "cards":
        from game.data.units import load_roster
        load_roster(path.parent, reload=True)
    elif kind == "section":
        from game.data.maps import load_map_file
        load_map_file(path)
    elif kind == "configuration":
        from game.data.maps import load_configuration
        load_configuration(path)
    elif kind == "army":
        from game.data.armies import check_army, load_army
        check_army(load_army(path), str(path))
    elif kind == "situation":
        from game.data.situations import load_situation
        from game.situations import run_situation
        run_situation(load_situation(path))
    elif kind == "save":
        from game.saves import Replay, load_game, read_save
        load_game(path)
        Replay(read_save(path))
    elif kind == "settings":
        from game.ui.settings import Settings
        s = Settings.load(path)
        if s.problem is not None:
            from game.rules.errors import DataError
            raise DataError(str(path), s.problem)


def _run_one(kind: str, data: bytes, hard: float) -> tuple[str, float, str, float]:
    """('clean' | 'accepted' | 'traceback' | 'long' | ..., seconds, note, cpu seconds)."""
    from game.check import check_file
    from game.rules.errors import DataError
    assert _TMP is not None
    folder = _TMP / "in" / kind
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.iterdir():
        old.unlink()
    suffix = ".json" if kind in ("save", "settings") else ".yaml"
    stem = "input"
    if kind == "section":                    # a section is found by its name
        for line in data[:2000].split(b"\n"):
            if line.startswith(b"name: "):
                name = line[6:].strip().decode("ascii", "replace")
                if name.replace("-", "").isalnum() and len(name) < 40:
                    stem = name
                break
    path = folder / f"{stem}{suffix}"
    path.write_bytes(data)
    t0 = time.perf_counter()
    c0 = time.process_time()
    outcome, note = "accepted", ""
    signal.setitimer(signal.ITIMER_REAL, hard)
    try:
        steps: list[Callable[[], Any]] = [lambda: _load_path(kind, path)]
        if kind != "settings":
            steps.insert(0, lambda: check_file(str(path), kind))
        for step in steps:
            try:
                step()
            except DataError as exc:
                outcome = "clean"
                lines = [str(p) for p in exc.problems] or [str(exc)]
                if any(len(x) > LONG_MESSAGE or "\n" in x for x in lines):
                    outcome, note = "long", exc.report()[:300]
    except _Hard:
        outcome, note = "hard", f"over the {hard:g} s hard limit"
    except MemoryError:
        outcome, note = "memory", "MemoryError (over the memory cap)"
    except counted_errors() as exc:   # the bench counts these (raised in debug mode)
        outcome = "traceback"
        note = "".join(traceback.format_exception_only(type(exc), exc)).strip()[:300]
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    return outcome, time.perf_counter() - t0, note, time.process_time() - c0


def _run_batch(kind: str, batch: list[bytes], hard: float
               ) -> tuple[list[tuple[str, float, str, float]], int]:
    out = [_run_one(kind, d, hard) for d in batch]
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return out, peak_kib


# --- the bench ---------------------------------------------------------------------------------------
def fuzz_kind(kind: str, n: int, seed: int, jobs: int, mem: int, hard: float,
              quiet: bool = False, keep: Path | None = None) -> dict[str, Any]:
    r = random.Random(f"{seed}-{kind}")
    bases = seeds(kind)
    inputs = [mutate(kind, r.choice(bases), r) for _ in range(n)]
    batch = 25
    batches = [inputs[i:i + batch] for i in range(0, len(inputs), batch)]
    counts = {"clean": 0, "accepted": 0, "traceback": 0, "long": 0, "hard": 0, "memory": 0,
              "crash": 0}
    slow, peak, slowest = 0, 0, (0.0, "")
    slowest_input = b""
    slowest_cpu = 0.0
    notes: dict[str, int] = {}
    t0 = time.perf_counter()
    todo = list(enumerate(batches))
    while todo:
        with ProcessPoolExecutor(jobs, initializer=_worker_init, initargs=(mem,)) as ex:
            futs = {i: ex.submit(_run_batch, kind, b, hard) for i, b in todo}
            done_now = []
            try:
                for i, f in futs.items():
                    results, peak_kib = f.result()
                    done_now.append(i)
                    peak = max(peak, peak_kib)
                    for k, (outcome, secs, note, cpu) in enumerate(results):
                        slowest_cpu = max(slowest_cpu, cpu)
                        counts[outcome] += 1
                        if secs > SLOW:
                            slow += 1
                        if secs > slowest[0]:
                            slowest = (secs, note or outcome)
                            slowest_input = batches[i][k]
                        if outcome not in ("clean", "accepted"):
                            notes[note] = notes.get(note, 0) + 1
                            if keep is not None and notes[note] == 1:
                                keep.mkdir(parents=True, exist_ok=True)
                                (keep / f"{kind}-{outcome}-{len(notes)}.bin").write_bytes(
                                    batches[i][k])
            except BrokenProcessPool:
                # a worker died (killed by the memory cap, or worse): count its batch
                bad = next(i for i in futs if i not in done_now)
                counts["crash"] += len(batches[bad])
                done_now.append(bad)
        todo = [(i, b) for i, b in todo if i not in done_now]
    took = time.perf_counter() - t0
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
        (keep / f"slowest-{kind}.bin").write_bytes(slowest_input)
    row = {"kind": kind, "inputs": n, **counts, "over_2s": slow, "peak_mb": peak / 1024,
           "slowest_s": slowest[0], "slowest_cpu_s": slowest_cpu, "seconds": took,
           "notes": notes}
    if not quiet:
        print(f"{kind:<14}{n:>8}{counts['clean']:>8}{counts['accepted']:>9}"
              f"{counts['traceback'] + counts['crash'] + counts['memory'] + counts['hard']:>11}"
              f"{slow:>8}{counts['long']:>7}{peak / 1024:>9.0f}{slowest[0]:>9.2f}"
              f"{slowest_cpu:>9.2f}{took:>8.0f}",
              flush=True)
        for note, k in sorted(notes.items(), key=lambda t: -t[1])[:5]:
            print(f"    {k} x {note}")
    return row


def _took(t: float, c: float) -> str:
    return f"{time.perf_counter() - t:.3f} s ({time.process_time() - c:.3f} s CPU)"


def speed_lines() -> list[str]:
    """The 5,200-card file (~800 KB) and the largest map the loader accepts."""
    from game.data.maps import MAX_MAP_HEXES, load_configuration
    from game.data.units import load_card_file
    from game.rules.errors import DataError
    from game.rules.hexes import Hex
    from game.rules.los import LosTable
    import yaml
    out = []
    tmp = Path(tempfile.mkdtemp(prefix="hexfront-speed-"))
    cards = []
    for p in sorted((ROOT / "units" / "cards").glob("*.yaml")):
        cards += yaml.safe_load(p.read_text(encoding="utf-8"))["cards"]
    many = []
    for i in range(5200):
        c = {k: v for k, v in cards[i % len(cards)].items()
             if k not in ("flavor", "notes", "set", "number", "rarity")}
        c["name"] = f"{c['name']} {i}"
        many.append(c)
    big = tmp / "big.yaml"
    big.write_text(yaml.safe_dump({"cards": many}, sort_keys=False, allow_unicode=True),
                   encoding="utf-8")
    t, c = time.perf_counter(), time.process_time()
    try:
        load_card_file(big)
        said = "loaded"
    except DataError as exc:
        said = f"refused: {exc.detail}"
    out.append(f"5,200-card file ({big.stat().st_size / 1024:,.0f} KiB): "
               f"{_took(t, c)}, {said}")
    # the largest card file the limit lets through
    from game.data.units import MAX_CARD_FILE_BYTES
    k = 5200
    while True:
        text = yaml.safe_dump({"cards": many[:k]}, sort_keys=False, allow_unicode=True)
        if len(text.encode("utf-8")) <= MAX_CARD_FILE_BYTES:
            break
        k = int(k * 0.95)
    big.write_text(text, encoding="utf-8")
    t, c = time.perf_counter(), time.process_time()
    got = load_card_file(big)
    out.append(f"largest card file accepted ({len(got):,} cards, "
               f"{big.stat().st_size / 1024:,.0f} KiB): {_took(t, c)}")
    # line of sight: a real map, and the largest map the loader accepts (by hex count)
    bm = load_configuration(3)
    t, c = time.perf_counter(), time.process_time()
    LosTable(bm.terrain, bm.blockers)
    out.append(f"line-of-sight table, real map ({len(bm.terrain)} hexes, "
               f"{len(bm.blockers)} blocking): {_took(t, c)}")
    rng = random.Random(1)
    frac = len(bm.blockers) / len(bm.terrain)
    w = 20
    h = MAX_MAP_HEXES // w
    hexes = [Hex(q - r // 2, r) for r in range(h) for q in range(w)][:MAX_MAP_HEXES]
    blockers = [x for x in hexes if rng.random() < frac]
    t, c = time.perf_counter(), time.process_time()
    LosTable(hexes, blockers)
    out.append(f"line-of-sight table, largest map the loader accepts ({len(hexes)} hexes, "
               f"{len(blockers)} blocking): {_took(t, c)}")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=10_000, help="inputs per kind (default 10,000)")
    ap.add_argument("--kinds", default=",".join(KINDS))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--mem", type=int, default=1024, help="worker memory cap, MiB")
    ap.add_argument("--hard", type=float, default=10.0, help="hard time limit per input, s")
    ap.add_argument("--speed", action="store_true", help="only the speed lines")
    ap.add_argument("--keep", type=Path, help="write each kind's slowest input here")
    args = ap.parse_args(argv)
    if not args.speed:
        print(f"{'kind':<14}{'inputs':>8}{'clean':>8}{'accepted':>9}{'tracebacks':>11}"
              f"{'>2 s':>8}{'long':>7}{'peak MB':>9}{'slowest':>9}{'cpu':>9}{'secs':>8}")
        bad = 0
        for kind in args.kinds.split(","):
            row = fuzz_kind(kind, args.n, args.seed, args.jobs, args.mem * 1024 * 1024,
                            args.hard, keep=args.keep)
            bad += row["traceback"] + row["crash"] + row["memory"] + row["hard"] + \
                row["over_2s"] + row["long"]
    for line in speed_lines():
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
