"""Saved games: a human-readable JSON file that replays to the exact position.

A save holds what is needed to play the game again from its start - the format
version, scenario and options, the map configuration, both armies (card names
in army order), the dice seed and the full action list - plus the hash of the
position it ends in.  Loading rebuilds the game from the seed, replays every
action through the rules and checks the hash: an unknown version, a damaged
file, an action the rules refuse or a different final position is refused with
one clear :class:`~game.rules.errors.DataError` (file, entry, field), never a
traceback and never a half-loaded game.

Writes are atomic (temporary file, flush, fsync, rename), so a crash or a kill
at any moment leaves the previous save intact.  ``autosave`` keeps the last few
autosaves in the user's data folder; ``begin_session`` / ``end_session`` notice
a game that ended in a crash so the next start can offer to resume it.

Example (shortened)::

    {
      "format": "hexfront-save",
      "version": 1,
      "saved": "2026-11-29T14:02:11Z",
      "scenario": "standard",
      "configuration": 3,
      "options": {"historical": false, "year": null, "config": 3},
      "armies": {"Axis": ["Panzer IV Ausf. G", "..."], "Allies": ["M4A1 Sherman", "..."]},
      "seed": 52817,
      "coin_winner": null,
      "turn": 2, "phase": "assault_first", "outcome": null,
      "state_hash": "5e0c...",
      "actions": [
        {"type": "ChooseOrder", "side": "Allies", "go_first": true},
        ...
      ]
    }
"""
from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from game.rules.errors import DataError, RulesError

__all__ = ["FORMAT", "VERSION", "AUTOSAVE_KEEP", "MAX_SAVE_BYTES", "SaveFile", "saves_dir",
           "autosave_dir", "default_save_path", "game_to_dict", "dumps", "write_atomic",
           "save_game", "read_save", "parse_save", "start_game", "replay", "load_game",
           "autosave", "list_autosaves", "latest_autosave", "begin_session", "end_session",
           "session_path", "Replay", "ReplayStep", "rolls_of"]

FORMAT = "hexfront-save"
VERSION = 1
AUTOSAVE_KEEP = 5
MAX_SAVE_BYTES = 16 * 1024 * 1024      # a long game is a few hundred KiB
MAX_ACTIONS = 100_000
SIDES = ("Axis", "Allies")
TOP_FIELDS = ("format", "version", "saved", "game", "scenario", "configuration", "options",
              "armies", "seed", "coin_winner", "turn", "phase", "outcome", "state_hash",
              "actions", "note")


# --- where saves live ------------------------------------------------------------------------
def _data_dir() -> Path:
    from game.ui.settings import data_dir       # no pygame there
    return data_dir()


def saves_dir() -> Path:
    """``<user data dir>/saves`` (platformdirs; HEXFRONT_DATA_DIR overrides)."""
    return _data_dir() / "saves"


def autosave_dir() -> Path:
    return saves_dir() / "autosave"


def session_path() -> Path:
    return _data_dir() / "session.json"


def default_save_path(game: Any = None) -> Path:
    """``saves/battle-<seed>.json``: one file per game, so saving again overwrites it."""
    seed = getattr(getattr(game, "dice", None), "seed", None)
    name = f"battle-{seed}.json" if isinstance(seed, int) else \
        time.strftime("battle-%Y%m%d-%H%M%S.json", time.gmtime())
    return saves_dir() / name


# --- writing ---------------------------------------------------------------------------------
def _initial(game: Any) -> tuple[Any, Any, int]:
    origin = getattr(game, "origin", None)
    if origin is None:
        raise DataError("<game>", "this game was not started with new_game, so it can't be "
                                  "saved (no starting position to replay from)")
    return origin


def game_to_dict(game: Any, *, note: str | None = None) -> dict:
    """The save as plain JSON-able data."""
    from game.rules.actions import action_to_dict
    from game.rules.events import CoinFlipped
    state0, dice0, log0 = _initial(game)
    seed = game.dice.seed
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise DataError("<game>", "this game's dice have no seed, so it can't be replayed "
                                  "from a save")
    st = game.state
    config = getattr(st.battle_map, "number", None) or st.options.get("config")
    if isinstance(config, bool) or not isinstance(config, int):
        raise DataError("<game>", f"the map '{st.battle_map.name}' is not a numbered "
                                  f"configuration, so the save could not rebuild it")
    armies: dict[str, list[str]] = {s: [] for s in SIDES}
    for u in state0.units.values():
        armies[u.side].append(u.card.name)
    coin = None
    if st.scenario != "assault" and dice0.rolls == 0:
        # the coin winner was given, not rolled: record it so the replay does the same
        coin = next((e.winner for e in game.log[:log0] if isinstance(e, CoinFlipped)), None)
    options = dict(state0.options)
    try:
        json.dumps(options)
    except (TypeError, ValueError) as exc:
        raise DataError("<game>", f"the game options can't be written to a save ({exc})") from None
    out = st.outcome
    d: dict[str, Any] = {
        "format": FORMAT, "version": VERSION,
        "saved": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "game": "Hexfront",
        "scenario": st.scenario, "configuration": config, "options": options,
        "armies": armies, "seed": seed, "coin_winner": coin,
        "turn": st.turn, "phase": st.phase.value,
        "outcome": None if out is None else {"winner": out.winner, "reason": out.reason},
        "state_hash": game.state_hash(),
        "actions": [action_to_dict(a) for a in game.history],
    }
    if note:
        d["note"] = str(note)
    return d


def dumps(data: dict) -> str:
    """Readable JSON: one field per line, one action per line."""
    lines = ["{"]
    keys = [k for k in data if k != "actions"] + (["actions"] if "actions" in data else [])
    for n, k in enumerate(keys):
        comma = "," if n < len(keys) - 1 else ""
        if k == "actions":
            acts = data[k]
            if not acts:
                lines.append(f'  "actions": []{comma}')
                continue
            lines.append('  "actions": [')
            for i, a in enumerate(acts):
                lines.append("    " + json.dumps(a, ensure_ascii=False)
                             + ("," if i < len(acts) - 1 else ""))
            lines.append("  ]" + comma)
        else:
            lines.append(f"  {json.dumps(k)}: {json.dumps(data[k], ensure_ascii=False)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def write_atomic(path: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` so that ``path`` holds either the old or the new file, never a
    mix: temporary file in the same folder, flush, fsync, rename, fsync the folder."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_name(f".{p.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, p)
    except BaseException:
        try:
            tmp.unlink()
        except OSError:
            pass
        raise
    if hasattr(os, "O_DIRECTORY"):
        try:
            fd = os.open(p.parent, os.O_RDONLY | os.O_DIRECTORY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError:
            pass
    return p


def save_game(game: Any, path: str | os.PathLike[str] | None = None, *, verify: bool = True,
              note: str | None = None) -> Path:
    """Save ``game`` (atomically) to ``path`` (default :func:`default_save_path`).

    ``verify`` replays the save before writing it and refuses (DataError, nothing
    written) a game whose replay would not reach the same position."""
    data = game_to_dict(game, note=note)
    p = Path(path) if path is not None else default_save_path(game)
    if verify:
        save = parse_save(data, str(p))
        replay(save, check_hash=True)
    return write_atomic(p, dumps(data))


# --- reading ---------------------------------------------------------------------------------
@dataclass
class SaveFile:
    file: str
    version: int
    scenario: str
    configuration: int
    options: dict
    armies: dict[str, list[str]]
    seed: int
    coin_winner: str | None
    actions: list                    # game.rules.actions.Action
    state_hash: str
    turn: int | None = None
    phase: str | None = None
    saved: str | None = None
    note: str | None = None
    extra: dict = field(default_factory=dict)


def read_save(path: str | os.PathLike[str]) -> SaveFile:
    """Read and check one save file (its shape; not yet its replay)."""
    p = Path(path)
    name = str(path)
    try:
        if p.is_dir():
            raise DataError(name, "is a folder, not a save file")
        size = p.stat().st_size
    except FileNotFoundError:
        raise DataError(name, "file not found") from None
    except OSError as exc:
        raise DataError(name, f"can't read the file ({exc.strerror or exc})") from None
    if size > MAX_SAVE_BYTES:
        raise DataError(name, f"file is {size // 1024} KiB, more than the "
                              f"{MAX_SAVE_BYTES // (1024 * 1024)} MiB a save may have")
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise DataError(name, f"can't read the file ({exc.strerror or exc})") from None
    return parse_save_bytes(raw, name)


def parse_save_bytes(raw: bytes, name: str) -> SaveFile:
    if not raw.strip():
        raise DataError(name, "the file is empty, not a Hexfront save")
    if b"\x00" in raw:
        raise DataError(name, "this is a binary file, not a Hexfront save (saves are JSON text)")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DataError(name, f"not UTF-8 text (bad byte at offset {exc.start}), "
                              f"so not a Hexfront save") from None
    try:
        data = json.loads(text)
    except RecursionError:
        raise DataError(name, "the JSON is nested too deeply to be a Hexfront save") from None
    except json.JSONDecodeError as exc:
        body = text.strip()
        if body.startswith("{") and not body.endswith("}"):
            what = f"the file ends too early: it was cut off (truncated), {exc.msg.lower()}"
        elif not body.startswith(("{", "[")):
            what = "not JSON text (Hexfront saves are JSON files that start with '{')"
        else:
            what = f"not valid JSON: {exc.msg}"
        raise DataError(name, f"{what} (column {exc.colno})", line=exc.lineno) from None
    return parse_save(data, name)


def _kind(v: Any) -> str:
    if v is None:
        return "null"
    return {bool: "true/false", int: "a number", float: "a number", str: "text",
            list: "a list", dict: "an object"}.get(type(v), type(v).__name__)


def parse_save(data: Any, file: str = "<save>") -> SaveFile:
    """Check the shape of already-parsed save data; DataError names the field."""
    from game.rules.actions import action_from_dict
    from game.rules.errors import MalformedAction

    def bad(msg: str, *, entry: str | None = None, fld: str | None = None) -> DataError:
        return DataError(file, msg, entry=entry, field=fld)

    if not isinstance(data, dict):
        raise bad(f"expected a JSON object at the top level, got {_kind(data)}: "
                  f"this is not a Hexfront save")
    if data.get("format") != FORMAT:
        if "format" not in data:
            raise bad(f"is missing: this is not a Hexfront save (expected \"{FORMAT}\")",
                      fld="format")
        raise bad(f"expected \"{FORMAT}\", got {json.dumps(data['format'])[:40]}: "
                  f"this is not a Hexfront save", fld="format")
    version = data.get("version")
    if "version" not in data:
        raise bad("is missing", fld="version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise bad(f"expected a whole number, got {_kind(version)}", fld="version")
    if version > VERSION:
        raise bad(f"save format {version} comes from a newer Hexfront; this version reads "
                  f"format {VERSION}. Update Hexfront to open it", fld="version")
    if version < 1:
        raise bad(f"save format {version} is unknown (this version reads format {VERSION})",
                  fld="version")
    unknown = [k for k in data if k not in TOP_FIELDS]
    if unknown:
        raise bad(f"unknown field (known fields: {', '.join(TOP_FIELDS)})", fld=str(unknown[0]))

    def need(key: str) -> Any:
        if key not in data:
            raise bad("is missing", fld=key)
        return data[key]

    scenario = need("scenario")
    if scenario not in ("standard", "assault"):
        raise bad(f"expected standard or assault, got {json.dumps(scenario)[:40]}", fld="scenario")
    config = need("configuration")
    if isinstance(config, bool) or not isinstance(config, int) or not 1 <= config <= 99:
        raise bad(f"expected a configuration number 1-6, got {json.dumps(config)[:40]}",
                  fld="configuration")
    options = data.get("options", {})
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise bad(f"expected an object, got {_kind(options)}", fld="options")
    armies = need("armies")
    if not isinstance(armies, dict):
        raise bad(f"expected an object with Axis and Allies, got {_kind(armies)}", fld="armies")
    for k in armies:
        if k not in SIDES:
            raise bad("unknown side (Axis or Allies)", entry="armies", fld=str(k))
    army_lists: dict[str, list[str]] = {}
    for side in SIDES:
        names = armies.get(side)
        if names is None:
            raise bad("is missing", entry="armies", fld=side)
        if not isinstance(names, list):
            raise bad(f"expected a list of card names, got {_kind(names)}", entry="armies", fld=side)
        if len(names) > 100:
            raise bad(f"{len(names)} units: too many for an army", entry="armies", fld=side)
        for i, n in enumerate(names):
            if not isinstance(n, str) or not n.strip():
                raise bad(f"expected a card name, got {json.dumps(n)[:40]}",
                          entry=f"armies.{side}[{i + 1}]", fld="name")
        army_lists[side] = list(names)
    seed = need("seed")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise bad(f"expected a whole number, got {_kind(seed)}", fld="seed")
    coin = data.get("coin_winner")
    if coin is not None and coin not in SIDES:
        raise bad(f"expected Axis, Allies or null, got {json.dumps(coin)[:40]}", fld="coin_winner")
    state_hash = need("state_hash")
    if not isinstance(state_hash, str) or len(state_hash) != 64 or \
            any(ch not in "0123456789abcdef" for ch in state_hash):
        raise bad("expected the 64-character position hash", fld="state_hash")
    acts = need("actions")
    if not isinstance(acts, list):
        raise bad(f"expected a list of actions, got {_kind(acts)}", fld="actions")
    if len(acts) > MAX_ACTIONS:
        raise bad(f"{len(acts)} actions, more than any game has", fld="actions")
    actions = []
    for i, a in enumerate(acts):
        entry = f"action {i + 1}"
        try:
            act = action_from_dict(a)
        except MalformedAction as exc:
            msg = str(exc)
            fld = None
            head = msg.split(":", 1)[0]
            if "." in head and " " not in head:
                fld = head.split(".", 1)[1].split("[", 1)[0]
                msg = msg.split(":", 1)[1].strip()
            raise bad(msg, entry=entry, fld=fld) from None
        if act.side not in SIDES:
            raise bad(f"expected Axis or Allies, got {json.dumps(act.side)[:40]}",
                      entry=entry, fld="side")
        actions.append(act)
    turn = data.get("turn")
    phase = data.get("phase")
    return SaveFile(file=file, version=version, scenario=scenario, configuration=config,
                    options=dict(options), armies=army_lists, seed=seed, coin_winner=coin,
                    actions=actions, state_hash=state_hash,
                    turn=turn if isinstance(turn, int) else None,
                    phase=phase if isinstance(phase, str) else None,
                    saved=data.get("saved") if isinstance(data.get("saved"), str) else None,
                    note=data.get("note") if isinstance(data.get("note"), str) else None)


# --- replaying --------------------------------------------------------------------------------
def start_game(save: SaveFile):
    """The game at its start (after the coin flip), exactly as new_game made it."""
    from game.data.maps import load_configuration
    from game.data.units import find_card, load_roster, unknown_card_message
    from game.rules.dice import Dice
    from game.rules.engine import new_game
    try:
        bm = load_configuration(save.configuration)
    except DataError as exc:
        raise DataError(save.file, f"map configuration {save.configuration} can't be loaded "
                                   f"({exc.detail})", field="configuration") from None
    armies: dict[str, list] = {}
    for side in SIDES:
        cards = []
        for i, n in enumerate(save.armies[side]):
            c = find_card(n)
            if c is None:
                raise DataError(save.file, unknown_card_message(n, load_roster()),
                                entry=f"armies.{side}[{i + 1}]", field="name")
            cards.append(c)
        armies[side] = cards
    try:
        return new_game(bm, armies, scenario=save.scenario, dice=Dice(save.seed),
                        options=save.options, coin_winner=save.coin_winner)
    except RulesError as exc:
        raise DataError(save.file, f"the game can't be set up: {exc}", field="options") from None


def replay(save: SaveFile, *, upto: int | None = None, check_hash: bool = True,
           on_step: Callable[[int, Any, list], None] | None = None):
    """Replay ``save`` (the first ``upto`` actions) and return the Game.

    Every action goes through the rules; one they refuse, or a final position
    whose hash differs from the save's, is a DataError naming the action.
    ``on_step(i, game, events)`` is called after each action (replay viewer)."""
    from game.rules.actions import describe_action
    game = start_game(save)
    acts = save.actions if upto is None else save.actions[:upto]
    for i, a in enumerate(acts):
        entry = f"action {i + 1}"
        if game.over:
            raise DataError(save.file, f"the game was already over ({game.state.outcome.reason}) "
                                       f"before this action", entry=entry)
        reason = game.check(a)
        if reason is not None:
            raise DataError(save.file, f"the rules refuse this {a.side} action "
                                       f"('{describe_action(a)}') here: {reason}. The save does "
                                       f"not match this version's rules or unit cards, or it "
                                       f"was edited", entry=entry)
        try:
            events = game.apply(a)
        except RulesError as exc:
            raise DataError(save.file, f"the rules refuse '{describe_action(a)}': {exc}",
                            entry=entry) from None
        except Exception as exc:       # an engine bug must still not become a traceback
            raise DataError(save.file, f"replaying '{describe_action(a)}' failed inside the "
                                       f"rules ({type(exc).__name__}: {exc}); please report "
                                       f"this with the save file", entry=entry) from None
        if on_step is not None:
            on_step(i, game, events)
    if check_hash and upto is None:
        got = game.state_hash()
        if got != save.state_hash:
            where = f"turn {game.state.turn}, {game.state.phase.value}"
            said = f"turn {save.turn}, {save.phase}"
            if save.turn is None or said == where:
                how = f"a different position ({where}) from the one saved"
            else:
                how = f"a different position ({where}) from the one saved ({said})"
            raise DataError(save.file, f"replaying the {len(save.actions)} actions gives "
                                       f"{how}: the rules or unit cards changed since it was "
                                       f"saved, or the file was edited", field="state_hash")
    return game


def load_game(path: str | os.PathLike[str]):
    """Read, replay and check a save; the Game, or DataError (one clear message)."""
    save = read_save(path)
    try:
        return replay(save)
    except DataError:
        raise
    except RecursionError:
        raise DataError(save.file, "the save is too deeply nested to replay") from None


# --- autosave and crash detection -------------------------------------------------------------
def list_autosaves(folder: str | os.PathLike[str] | None = None) -> list[Path]:
    """Autosave files, newest first."""
    d = Path(folder) if folder is not None else autosave_dir()
    if not d.is_dir():
        return []
    files = [p for p in d.glob("autosave-*.json") if p.is_file()]

    def key(p: Path) -> tuple:
        try:
            return (p.stat().st_mtime_ns, p.name)
        except OSError:
            return (0, p.name)
    return sorted(files, key=key, reverse=True)


def latest_autosave(folder: str | os.PathLike[str] | None = None) -> Path | None:
    found = list_autosaves(folder)
    return found[0] if found else None


def autosave(game: Any, folder: str | os.PathLike[str] | None = None, *,
             keep: int = AUTOSAVE_KEEP) -> Path | None:
    """Write an autosave (atomic, not re-verified) and keep only the newest ``keep``.
    A position built by hand (no ``game.origin``: tests, previews) is not saved: None."""
    if getattr(game, "origin", None) is None:
        return None
    d = Path(folder) if folder is not None else autosave_dir()
    data = game_to_dict(game)
    name = (f"autosave-{data['seed']}-t{data['turn']:02d}-{len(data['actions']):05d}.json")
    p = write_atomic(d / name, dumps(data))
    for old in list_autosaves(d)[max(1, keep):]:
        try:
            old.unlink()
        except OSError:
            pass
    if folder is None:
        _mark_session(p, over=bool(getattr(game, "over", False)))
    return p


def _read_session() -> dict | None:
    try:
        data = json.loads(session_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _mark_session(save: Path | None, over: bool = False) -> None:
    data = _read_session() or {"pid": os.getpid(), "started": time.time()}
    data["autosave"] = None if save is None else str(save)
    data["over"] = over
    try:
        write_atomic(session_path(), json.dumps(data))
    except OSError:
        pass


def begin_session() -> Path | None:
    """Call once at start-up.  When the last run ended without :func:`end_session`
    (a crash, a kill, a power cut) in the middle of a battle, return the autosave
    to offer; then mark this run as running."""
    offer = None
    old = _read_session()
    if old is not None and old.get("autosave") and not old.get("over"):
        p = Path(str(old["autosave"]))
        if p.is_file():
            offer = p
    try:
        write_atomic(session_path(), json.dumps({"pid": os.getpid(), "started": time.time(),
                                                 "autosave": None, "over": False}))
    except OSError:
        pass
    return offer


def end_session() -> None:
    """Call at a clean exit: the next start offers nothing."""
    try:
        session_path().unlink()
    except OSError:
        pass


# --- replays (the replay viewer's model; no pygame here) ---------------------------------------
@dataclass
class ReplayStep:
    """The game after one action (``action`` None: the start)."""
    index: int
    action: Any
    events: list
    state: Any                       # GameState (a private copy)
    turn: int
    phase: str


def rolls_of(events: list) -> list[tuple[str, tuple, int | None]]:
    """Every roll among ``events``: (sentence, dice, need or None)."""
    from game.rules.events import InitiativeRolled
    out: list[tuple[str, tuple, int | None]] = []
    for e in events:
        text = getattr(e, "text", "") or type(e).__name__
        if isinstance(e, InitiativeRolled):
            dice = tuple(d for side in SIDES for d in tuple(e.rolls.get(side, ()))[:2])
            out.append((text, dice, None))
        elif isinstance(getattr(e, "dice", None), (tuple, list)):
            out.append((text, tuple(e.dice), getattr(e, "need", None)))
        elif isinstance(getattr(e, "die", None), int):
            need = getattr(e, "need", getattr(e, "needed", None))
            out.append((text, (e.die,), need if isinstance(need, int) else None))
    return out


class Replay:
    """A save played back step by step: ``go(i)``, ``forward()``/``back()``,
    ``next_phase()``/``prev_phase()``, ``next_turn()``/``prev_turn()``, the
    position (``state``), the events and dice of the step, and
    ``continue_game()`` - a new Game from the current step on.

    A save whose replay stops (an action refused) or ends elsewhere (hash) can
    still be watched up to where it works; ``problem`` says what went wrong."""

    def __init__(self, save: SaveFile) -> None:
        self.save = save
        self.problem: str | None = None
        game = start_game(save)
        self.steps: list[ReplayStep] = [ReplayStep(0, None, list(game.log), game.state.copy(),
                                                   game.state.turn, game.state.phase.value)]

        def keep(i: int, g: Any, events: list) -> None:
            self.steps.append(ReplayStep(i + 1, save.actions[i], list(events), g.state.copy(),
                                         g.state.turn, g.state.phase.value))
        try:
            replay(save, check_hash=True, on_step=keep)
        except DataError as exc:
            self.problem = str(exc)
        self.index = 0

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> "Replay":
        return cls(read_save(path))

    # --- where we are ------------------------------------------------------------------------
    @property
    def last(self) -> int:
        return len(self.steps) - 1

    @property
    def step(self) -> ReplayStep:
        return self.steps[self.index]

    @property
    def state(self) -> Any:
        return self.step.state

    def rolls(self, index: int | None = None) -> list[tuple[str, tuple, int | None]]:
        return rolls_of(self.steps[self.index if index is None else index].events)

    # --- moving -------------------------------------------------------------------------------
    def go(self, index: int) -> int:
        self.index = max(0, min(self.last, index))
        return self.index

    def forward(self, n: int = 1) -> int:
        return self.go(self.index + n)

    def back(self, n: int = 1) -> int:
        return self.go(self.index - n)

    def _next(self, key: Callable[[ReplayStep], Any]) -> int:
        here = key(self.step)
        for i in range(self.index + 1, len(self.steps)):
            if key(self.steps[i]) != here:
                return self.go(i)
        return self.go(self.last)

    def _prev(self, key: Callable[[ReplayStep], Any]) -> int:
        i = self.index
        start = self._start_of(i, key)
        if start < i:
            return self.go(start)
        if i == 0:
            return 0
        return self.go(self._start_of(i - 1, key))

    def _start_of(self, i: int, key: Callable[[ReplayStep], Any]) -> int:
        here = key(self.steps[i])
        while i > 0 and key(self.steps[i - 1]) == here:
            i -= 1
        return i

    def next_phase(self) -> int:
        return self._next(lambda s: (s.turn, s.phase))

    def prev_phase(self) -> int:
        return self._prev(lambda s: (s.turn, s.phase))

    def next_turn(self) -> int:
        return self._next(lambda s: s.turn)

    def prev_turn(self) -> int:
        return self._prev(lambda s: s.turn)

    # --- branching off ----------------------------------------------------------------------
    def continue_game(self):
        """A new Game that has played the first ``index`` actions (it can be saved,
        undone and played on like any other)."""
        return replay(self.save, upto=self.index, check_hash=False)
