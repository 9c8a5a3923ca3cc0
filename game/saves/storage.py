"""Where saves go and how they get there: atomic writes, autosaves kept per
battle, the saves list, leftovers of interrupted writes and the session marker.

- Every write is atomic (:func:`game.data.bounded.write_text_atomic`): a
  temporary ``.<name>.<pid>.tmp`` beside the file, fsync, rename.  A kill at any
  moment leaves the previous file intact; a temporary file a kill left behind
  is removed at the next start (:func:`begin_session`).
- Autosaves are kept per battle (each save carries a ``battle_id``): the last
  :data:`AUTOSAVE_KEEP` of each battle and at most :data:`AUTOSAVE_TOTAL` in all,
  so one game never pushes out another's.  Old autosaves are removed *before*
  the new one is written, so even a kill mid-write never leaves more than the
  limit.
- :func:`list_saves` describes every save in a few milliseconds from the small
  summary written at the top of each save (older saves: from their fields).
"""
from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from game.data.bounded import (clean_leftovers, decode_text, parse_json, read_limited,
                               write_text_atomic)
from game.rules.errors import DataError

from . import paths
from .fileformat import (FORMAT, MAX_SAVE_BYTES, SIDES, VERSION, configuration_text, dumps,
                         game_to_dict, parse_save, phase_text, scenario_text, sides_text)

__all__ = ["AUTOSAVE_KEEP", "AUTOSAVE_TOTAL", "SaveInfo", "write_atomic", "save_game",
           "default_save_path", "autosave", "list_autosaves", "latest_autosave", "list_saves",
           "save_info", "prune_autosaves", "clean_interrupted_writes", "begin_session",
           "end_session"]

AUTOSAVE_KEEP = 5            # per battle
AUTOSAVE_TOTAL = 30          # all battles together
HEADER_BYTES = 64 * 1024     # the summary lines of a save are well inside this
_AUTOSAVE_NAME = re.compile(r"^autosave-([A-Za-z0-9_]{1,40})-t(\d{1,4})-(\d{1,6})\.json$")


def write_atomic(path: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` so that ``path`` holds either the old or the new file, never a
    mix (temporary file, flush, fsync, rename, fsync the folder); a failed write
    (a full disk) leaves no temporary file."""
    return write_text_atomic(path, text)


def default_save_path(game: Any = None) -> Path:
    """``saves/battle-<seed>.json``: one file per game, so saving again overwrites it."""
    seed = getattr(getattr(game, "dice", None), "seed", None)
    name = f"battle-{seed}.json" if isinstance(seed, int) and not isinstance(seed, bool) else \
        time.strftime("battle-%Y%m%d-%H%M%S.json", time.gmtime())
    return paths.saves_dir() / name


def save_game(game: Any, path: str | os.PathLike[str] | None = None, *, verify: bool = True,
              note: str | None = None) -> Path:
    """Save ``game`` (atomically) to ``path`` (default :func:`default_save_path`).

    ``verify`` checks the save as loading will (armies, options, every action)
    and replays it before writing, and refuses (DataError, nothing written) a
    game whose save would not load."""
    from .replaying import replay
    data = game_to_dict(game, note=note)
    p = Path(path) if path is not None else default_save_path(game)
    if verify:
        save = parse_save(data, str(p))
        replay(save, check_hash=True)
    return write_atomic(p, dumps(data))


# --- autosaves ---------------------------------------------------------------------------------
def _battle_key(p: Path) -> str:
    m = _AUTOSAVE_NAME.match(p.name)
    return m.group(1) if m else p.name


def _mtime_key(p: Path) -> tuple[int, str]:
    try:
        return (p.stat().st_mtime_ns, p.name)
    except OSError:
        return (0, p.name)


def list_autosaves(folder: str | os.PathLike[str] | None = None) -> list[Path]:
    """Autosave files, newest first."""
    d = Path(folder) if folder is not None else paths.autosave_dir()
    if not d.is_dir():
        return []
    files = [p for p in d.glob("autosave-*.json") if p.is_file()]
    return sorted(files, key=_mtime_key, reverse=True)


def latest_autosave(folder: str | os.PathLike[str] | None = None) -> Path | None:
    found = list_autosaves(folder)
    return found[0] if found else None


def prune_autosaves(folder: str | os.PathLike[str] | None = None, *, keep: int = AUTOSAVE_KEEP,
                    total: int = AUTOSAVE_TOTAL, room_for: str | None = None) -> list[Path]:
    """Remove old autosaves: at most ``keep`` per battle and ``total`` in all.
    ``room_for``: a battle about to get a new autosave keeps ``keep - 1`` (and the
    total ``total - 1``), so the folder never holds more than the limits."""
    files = list_autosaves(folder)
    by_battle: dict[str, list[Path]] = {}
    for p in files:
        by_battle.setdefault(_battle_key(p), []).append(p)
    doomed: list[Path] = []
    kept: list[Path] = []
    for key, group in by_battle.items():
        limit = max(0, keep - 1) if key == room_for else max(1, keep)
        doomed += group[limit:]
        kept += group[:limit]
    kept.sort(key=_mtime_key, reverse=True)
    overall = max(0, total - 1) if room_for is not None else max(1, total)
    doomed += kept[overall:]
    removed = []
    for p in doomed:
        try:
            p.unlink()
            removed.append(p)
        except OSError:
            pass
    return removed


def autosave(game: Any, folder: str | os.PathLike[str] | None = None, *,
             keep: int = AUTOSAVE_KEEP) -> Path | None:
    """Write an autosave (atomic, not re-verified); each battle keeps its newest
    ``keep``.  A position built by hand (no ``game.origin``: tests, previews) is
    not saved: None."""
    if getattr(game, "origin", None) is None:
        return None
    d = Path(folder) if folder is not None else paths.autosave_dir()
    data = game_to_dict(game)
    name = f"autosave-{data['battle_id']}-t{data['turn']:02d}-{len(data['actions']):05d}.json"
    p = d / name
    text = dumps(data)
    prune_autosaves(d, keep=keep, room_for=data["battle_id"] if not p.exists() else None)
    write_atomic(p, text)
    if folder is None:
        _mark_session(p, over=bool(getattr(game, "over", False)))
    return p


# --- the saves list -----------------------------------------------------------------------------
@dataclass(frozen=True)
class SaveInfo:
    """One save as the saves list shows it (player-readable text throughout).

    ``problem`` is None, or why the save can't be loaded as far as a quick look
    can tell (not a save, from a newer Hexfront, cut off, damaged header);
    loading it still checks everything."""
    path: Path
    scenario: str
    configuration: str
    sides: str
    turn: int | None
    phase: str
    saved_at: datetime | None
    battle_id: str | None
    autosave: bool
    problem: str | None = None


def _header(path: Path) -> tuple[dict[str, Any] | None, str | None]:
    """The fields before ``"actions"`` (read from the first HEADER_BYTES only), and a
    problem; a save of another shape is read whole (it is at most MAX_SAVE_BYTES)."""
    name = path.name
    try:
        with open(path, "rb") as f:
            head = f.read(HEADER_BYTES)
            size = os.fstat(f.fileno()).st_size
            f.seek(max(0, size - 16))
            tail = f.read(16)
    except OSError as exc:
        return None, f"can't be read ({exc.strerror or type(exc).__name__})"
    if not head.strip():
        return None, "the file is empty"
    if size > MAX_SAVE_BYTES:
        return None, "the file is too big to be a Hexfront save"
    try:
        text = decode_text(head, name, "a Hexfront save") if len(head) < HEADER_BYTES else \
            decode_text(head[:head.rfind(b"\n") + 1] or head, name, "a Hexfront save")
    except DataError as exc:
        return None, exc.detail
    lines = text.split("\n")
    cut = next((i for i, ln in enumerate(lines) if ln.startswith('  "actions"')), None)
    try:
        if cut is not None and lines and lines[0].strip() == "{":
            body = "\n".join(lines[1:cut]).rstrip().rstrip(",")
            data = parse_json("{" + body + "}", name)
        else:
            raw = read_limited(path, name, MAX_SAVE_BYTES, "save")
            data = parse_json(decode_text(raw, name, "a Hexfront save"), name)
    except DataError as exc:
        return None, f"the file is damaged ({exc.detail})"
    if not isinstance(data, dict):
        return None, "not a Hexfront save"
    if not tail.rstrip().endswith(b"}"):
        return data, "the file was cut off (truncated) while it was written"
    return data, None


def save_info(path: str | os.PathLike[str], *, autosave: bool | None = None) -> SaveInfo:
    """What the saves list shows for one file (never raises for a bad file)."""
    p = Path(path)
    is_auto = autosave if autosave is not None else p.name.startswith("autosave-")
    data, problem = _header(p)
    d = data or {}
    if data is not None and problem is None:
        if d.get("format") != FORMAT:
            problem = "not a Hexfront save"
        elif not isinstance(d.get("version"), int) or isinstance(d.get("version"), bool):
            problem = "its format version is damaged"
        elif d["version"] > VERSION:
            problem = "it comes from a newer Hexfront: update Hexfront to open it"
    summary = d.get("summary") if isinstance(d.get("summary"), dict) else {}

    def text_of(key: str, fallback: str) -> str:
        v = summary.get(key)
        return v[:120] if isinstance(v, str) and v else fallback
    sc = d.get("scenario")
    scenario = text_of("scenario", scenario_text(sc) if isinstance(sc, str) and len(sc) < 20
                       else "unknown scenario")
    cfg = d.get("configuration")
    configuration = text_of("configuration",
                            configuration_text(cfg) if isinstance(cfg, int)
                            and not isinstance(cfg, bool) and 0 < cfg < 100
                            else "unknown map")
    sides = text_of("sides", _sides_of_old(d.get("armies")))
    turn = d.get("turn") if isinstance(d.get("turn"), int) and \
        not isinstance(d.get("turn"), bool) and 0 <= d["turn"] < 10_000 else None
    ph = d.get("phase")
    phase = text_of("phase", phase_text(ph) if isinstance(ph, str) and len(ph) < 40
                    else "unknown phase")
    saved_at = _time_of(d.get("saved"))
    if saved_at is None:
        try:
            saved_at = datetime.fromtimestamp(p.stat().st_mtime, tz=timezone.utc)
        except OSError:
            saved_at = None
    bid = d.get("battle_id")
    if not (isinstance(bid, str) and 0 < len(bid) <= 40):
        seed = d.get("seed")
        bid = f"seed-{seed}" if isinstance(seed, int) and not isinstance(seed, bool) \
            and 0 <= seed < 2 ** 63 else None
    return SaveInfo(path=p, scenario=scenario, configuration=configuration, sides=sides,
                    turn=turn, phase=phase, saved_at=saved_at, battle_id=bid,
                    autosave=is_auto, problem=problem)


def _sides_of_old(armies: Any) -> str:
    """'Axis (Germany) vs Allies (United States)' from card names (saves before format 2)."""
    if not isinstance(armies, dict):
        return "Axis vs Allies"
    from game.data.units import find_card
    nations: dict[str, list[str]] = {}
    for side in SIDES:
        seen: list[str] = []
        names = armies.get(side)
        for n in names[:40] if isinstance(names, list) else []:
            if not isinstance(n, str) or len(n) > 80:
                continue
            try:
                c = find_card(n)
            except DataError:
                c = None
            if c is not None and c.nationality not in seen:
                seen.append(c.nationality)
        nations[side] = seen
    return sides_text(nations)


def _time_of(v: Any) -> datetime | None:
    if not isinstance(v, str) or len(v) > 40:
        return None
    try:
        return datetime.strptime(v, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)
    except ValueError:
        return None


def list_saves(folder: Path | None = None) -> list[SaveInfo]:
    """Every save in ``folder`` (default the saves folder) and its ``autosave/``
    folder, newest first.  Cheap: only the summary at the top of each file is read."""
    d = Path(folder) if folder is not None else paths.saves_dir()
    found: list[tuple[Path, bool]] = []
    for sub, auto in ((d, False), (d / "autosave", True)):
        try:
            found += [(p, auto) for p in sub.glob("*.json") if p.is_file()]
        except OSError:
            continue
    infos = [save_info(p, autosave=auto) for p, auto in found]
    epoch = datetime.fromtimestamp(0, tz=timezone.utc)
    infos.sort(key=lambda i: (i.saved_at or epoch, _mtime_key(i.path)), reverse=True)
    return infos


# --- leftovers and the session marker ----------------------------------------------------------
def clean_interrupted_writes() -> list[Path]:
    """Remove the temporary files of writes a kill interrupted (saves, autosaves,
    the session marker, settings) and bring the autosaves within their limits."""
    removed: list[Path] = []
    for d in (paths.data_dir(), paths.saves_dir(), paths.autosave_dir(), paths.config_dir()):
        removed += clean_leftovers(d)
    removed += prune_autosaves()
    return removed


def _read_session() -> dict[str, Any] | None:
    try:
        raw = read_limited(paths.session_path(), "session", 64 * 1024)
        data = parse_json(decode_text(raw, "session"), "session")
    except DataError:
        return None
    return data if isinstance(data, dict) else None


def _mark_session(save: Path | None, over: bool = False) -> None:
    import json
    data = _read_session() or {"pid": os.getpid(), "started": time.time()}
    data["autosave"] = None if save is None else str(save)
    data["over"] = over
    try:
        write_atomic(paths.session_path(), json.dumps(data))
    except OSError:
        pass


def begin_session() -> Path | None:
    """Call once at start-up.  Cleans up after interrupted writes; when the last
    run ended without :func:`end_session` (a crash, a kill, a power cut) in the
    middle of a battle, returns the autosave to offer; marks this run as running."""
    import json
    clean_interrupted_writes()
    offer = None
    old = _read_session()
    if old is not None and isinstance(old.get("autosave"), str) and not old.get("over"):
        p = Path(old["autosave"][:4096])
        if p.is_file():
            offer = p
    try:
        write_atomic(paths.session_path(), json.dumps({"pid": os.getpid(), "started": time.time(),
                                                       "autosave": None, "over": False}))
    except OSError:
        pass
    return offer


def end_session() -> None:
    """Call at a clean exit: the next start offers nothing."""
    try:
        paths.session_path().unlink()
    except OSError:
        pass
