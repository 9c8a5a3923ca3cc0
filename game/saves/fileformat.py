"""The save file: what it holds, how it is written, and its full validation.

A save is a complete description of a legal game: the format version, the
scenario, its options (validated: every option known, of the right type and
range; NaN or infinity refused), the map configuration, both armies (card
names in army order; legal for the scenario and options by
:func:`game.rules.army.validate_army`, exactly as the game itself checks
them), the dice seed (a whole number 0 to 2**63 - 1), every action, the hash
of the final position, and (format 2) a battle id, a small readable summary
for the saves list and a ``check`` hash over everything that decides the game
(options included), so an edit anywhere is noticed.

Reading goes through :mod:`game.data.bounded` (size, encoding, depth, number
length, duplicate keys refused) and every problem is collected by the same
:class:`~game.data.yamlio.Checker` the data files use: the message names the
file, the line, the entry and the field of each.

Example (shortened)::

    {
      "format": "hexfront-save",
      "version": 2,
      "saved": "2026-11-29T14:02:11Z",
      "game": "Hexfront",
      "battle_id": "9f3c1a0b7d2e4f61",
      "summary": {"scenario": "Standard", "configuration": "3: High Ground",
                  "sides": "Axis (Germany) vs Allies (United States)", "turn": 2,
                  "phase": "First player's assault phase"},
      "scenario": "standard",
      "configuration": 3,
      "options": {"historical": false, "year": null, "config": 3},
      "armies": {"Axis": ["Panzer IV Ausf. G", "..."], "Allies": ["M4A1 Sherman", "..."]},
      "seed": 52817,
      "coin_winner": null,
      "turn": 2, "phase": "assault_first", "outcome": null,
      "state_hash": "5e0c...",
      "check": "a41b...",
      "actions": [
        {"type": "ChooseOrder", "side": "Allies", "go_first": true},
        ...
      ]
    }
"""
from __future__ import annotations

import hashlib
import json
import math
import os
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game.data.bounded import JsonLimits, decode_text, parse_json, read_limited, short
from game.data.yamlio import Checker
from game.rules.errors import DataError

__all__ = ["FORMAT", "VERSION", "MAX_SAVE_BYTES", "MAX_ACTIONS", "MAX_SEED", "SIDES",
           "TOP_FIELDS", "OPTION_FIELDS", "SaveFile", "game_to_dict", "dumps", "parse_save",
           "parse_save_bytes", "read_save", "content_hash", "summary_of", "battle_id_of",
           "new_battle_id", "check_options", "scenario_text", "configuration_text",
           "sides_text", "phase_text"]

FORMAT = "hexfront-save"
VERSION = 2                       # 2: battle_id, summary and the check hash
MAX_SAVE_BYTES = 4 * 1024 * 1024  # a long game is a few hundred KiB
MAX_ACTIONS = 20_000              # a whole game is a few thousand at most
MAX_ARMY_NAMES = 100              # names listed per side before legality is even asked
MAX_SEED = 2 ** 63 - 1
SIDES = ("Axis", "Allies")
TOP_FIELDS = ("format", "version", "saved", "game", "battle_id", "summary", "scenario",
              "configuration", "options", "armies", "seed", "coin_winner", "turn", "phase",
              "outcome", "state_hash", "check", "actions", "note")
#: every game option a save may hold, with what it is
OPTION_FIELDS = {
    "config": "the map configuration number",
    "turn_limit": "a whole number of turns 1-100 (automated play)",
    "historical": "true or false (historical army limits)",
    "year": "a year 1936-1945 or null (year restriction)",
    "attacker": "Axis or Allies (Assault)",
    "defender": "Axis or Allies (Assault)",
    "budgets": "the points limit of each side",
    "budget": "an explicit points limit",
    "max_units": "an explicit unit limit",
}
SUMMARY_FIELDS = ("scenario", "configuration", "sides", "turn", "phase", "outcome")
_JSON_LIMITS = JsonLimits(max_depth=8, max_nodes=400_000)
_HEX = set("0123456789abcdef")


# --- readable text for the saves list ---------------------------------------------------------------
def scenario_text(scenario: str) -> str:
    return {"standard": "Standard", "assault": "Assault"}.get(scenario, scenario.title())


def configuration_text(number: int, name: str | None = None) -> str:
    if name is None:
        try:
            from game.data.maps import list_configurations
            name = next((n for k, n, _ in list_configurations() if k == number), None)
        except DataError:
            name = None
    return f"{number}: {name}" if name else f"configuration {number}"


def sides_text(nations: dict[str, list[str]]) -> str:
    """``'Axis (Germany) vs Allies (United States, United Kingdom)'``."""
    parts = []
    for side in SIDES:
        ns = nations.get(side) or []
        parts.append(f"{side} ({', '.join(ns)})" if ns else side)
    return " vs ".join(parts)


def phase_text(phase: str | None, outcome: Any = None) -> str:
    if phase is None:
        return "unknown phase"
    from game.rules.state import Phase
    try:
        return Phase(phase).title
    except ValueError:
        return phase.replace("_", " ")


def _nations_of_cards(cards_by_side: dict[str, list[Any]]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for side, cards in cards_by_side.items():
        seen: list[str] = []
        for c in cards:
            n = getattr(c, "nationality", None)
            if isinstance(n, str) and n not in seen:
                seen.append(n)
        out[side] = seen
    return out


# --- battle ids -----------------------------------------------------------------------------------
def new_battle_id() -> str:
    """A fresh random id for a battle (16 hex digits): not a die roll, never replayed."""
    return secrets.token_hex(8)


def battle_id_of(game: Any) -> str:
    """The battle id of ``game``: the one it was loaded with, or a new one kept on it,
    so every save and autosave of one battle shares it."""
    bid = getattr(game, "battle_id", None)
    if isinstance(bid, str) and _is_battle_id(bid):
        return bid
    bid = new_battle_id()
    try:
        game.battle_id = bid
    except AttributeError:
        pass
    return bid


def _is_battle_id(s: str) -> bool:
    return 1 <= len(s) <= 40 and all(ch.isascii() and (ch.isalnum() or ch in "-_") for ch in s)


# --- writing ---------------------------------------------------------------------------------------
def _initial(game: Any) -> tuple[Any, Any, int]:
    origin = getattr(game, "origin", None)
    if origin is None:
        raise DataError("<game>", "this game was not started with new_game, so it can't be "
                                  "saved (no starting position to replay from)")
    state0, dice0, log0 = origin
    return state0, dice0, log0


def content_hash(data: dict[str, Any]) -> str:
    """sha256 over everything that decides the game (format 2's ``check`` field)."""
    body = {k: data.get(k) for k in ("format", "version", "battle_id", "scenario",
                                     "configuration", "options", "armies", "seed",
                                     "coin_winner", "state_hash", "actions")}
    blob = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True,
                      allow_nan=False)
    return hashlib.sha256(blob.encode("ascii")).hexdigest()


def summary_of(game: Any, config: int) -> dict[str, Any]:
    st = game.state
    state0 = _initial(game)[0]
    cards: dict[str, list[Any]] = {s: [] for s in SIDES}
    for u in state0.units.values():
        cards.setdefault(u.side, []).append(u.card)
    out = st.outcome
    return {"scenario": scenario_text(st.scenario),
            "configuration": configuration_text(config, getattr(st.battle_map, "name", None)),
            "sides": sides_text(_nations_of_cards(cards)),
            "turn": st.turn, "phase": st.phase.title,
            "outcome": None if out is None else str(out.reason)[:200]}


def game_to_dict(game: Any, *, note: str | None = None) -> dict[str, Any]:
    """The save as plain JSON-able data."""
    from game.rules.actions import action_to_dict
    from game.rules.events import CoinFlipped
    state0, dice0, log0 = _initial(game)
    seed = game.dice.seed
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise DataError("<game>", "this game's dice have no seed a save can hold (a whole "
                                  f"number 0-{MAX_SEED}), so it can't be replayed from a save")
    st = game.state
    config = getattr(st.battle_map, "number", None) or st.options.get("config")
    if isinstance(config, bool) or not isinstance(config, int):
        raise DataError("<game>", f"the map {short(st.battle_map.name)} is not a numbered "
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
        json.dumps(options, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise DataError("<game>", f"the game options can't be written to a save "
                                  f"({short(str(exc), 80)})") from None
    out = st.outcome
    d: dict[str, Any] = {
        "format": FORMAT, "version": VERSION,
        "saved": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "game": "Hexfront",
        "battle_id": battle_id_of(game),
        "summary": summary_of(game, config),
        "scenario": st.scenario, "configuration": config, "options": options,
        "armies": armies, "seed": seed, "coin_winner": coin,
        "turn": st.turn, "phase": st.phase.value,
        "outcome": None if out is None else {"winner": out.winner, "reason": out.reason},
        "state_hash": game.state_hash(),
        "actions": [action_to_dict(a) for a in game.history],
    }
    d["check"] = content_hash(d)
    if note:
        d["note"] = str(note)[:2000]
    # "actions" last: the saves list reads only the lines before it
    d["actions"] = d.pop("actions")
    return d


def dumps(data: dict[str, Any]) -> str:
    """Readable JSON: one field per line, one action per line, the actions last."""
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
                lines.append("    " + json.dumps(a, ensure_ascii=False, allow_nan=False)
                             + ("," if i < len(acts) - 1 else ""))
            lines.append("  ]" + comma)
        else:
            lines.append(f"  {json.dumps(k)}: "
                         f"{json.dumps(data[k], ensure_ascii=False, allow_nan=False)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


# --- reading ---------------------------------------------------------------------------------------
@dataclass
class SaveFile:
    file: str
    version: int
    scenario: str
    configuration: int
    options: dict[str, Any]
    armies: dict[str, list[str]]
    seed: int
    coin_winner: str | None
    actions: list[Any]               # game.rules.actions.Action
    state_hash: str
    turn: int | None = None
    phase: str | None = None
    saved: str | None = None
    note: str | None = None
    battle_id: str | None = None
    summary: dict[str, Any] | None = None
    cards: dict[str, list[Any]] = field(default_factory=dict)   # side -> UnitCard, army order
    extra: dict[str, Any] = field(default_factory=dict)


class _Lines(dict):  # type: ignore[type-arg]
    """The top-level object with the line of each field (Checker's line_of)."""
    line: int | None = 1
    lines: dict[str, int]


def _with_lines(data: dict[str, Any], text: str) -> dict[str, Any]:
    """``data`` as a dict that knows each top-level field's line (the writer puts one
    field per line) and, through ``actions_line``, where the action list starts."""
    out = _Lines(data)
    out.lines = {}
    if len(text) > 64 * 1024 * 1024:
        return out
    for n, line in enumerate(text.split("\n"), start=1):
        if line.startswith('  "') and '":' in line[:40]:
            key = line[3:line.index('":')]
            if key in data and key not in out.lines:
                out.lines[key] = n
    return out


def read_save(path: str | os.PathLike[str]) -> SaveFile:
    """Read and check one save file (everything but its replay)."""
    name = str(path)
    raw = read_limited(path, name, MAX_SAVE_BYTES, "save")
    return parse_save_bytes(raw, name)


def parse_save_bytes(raw: bytes, name: str) -> SaveFile:
    if not raw.strip():
        raise DataError(name, "the file is empty, not a Hexfront save")
    if b"\x00" in raw[:2] or raw[:2] in (b"\xff\xfe", b"\xfe\xff"):
        text = decode_text(raw, name, "a Hexfront save (saves are JSON text)")
    else:
        text = decode_text(raw, name, "a Hexfront save (saves are JSON text)")
    data = parse_json(text, name, _JSON_LIMITS)
    if isinstance(data, dict):
        data = _with_lines(data, text)
    return parse_save(data, name)


def _kind(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true/false"
    if isinstance(v, float):
        return "a number with a decimal point"
    return {int: "a number", str: "text", list: "a list", dict: "an object",
            _Lines: "an object"}.get(type(v), type(v).__name__)


def _whole(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def check_options(options: Any, scenario: str | None, config: int | None, c: Checker,
                  node: Any = None) -> dict[str, Any]:
    """Validate a save's options into ``c``; returns the options (a plain dict)."""
    if options is None:
        return {}
    if not isinstance(options, dict):
        c.problem(f"expected an object, got {_kind(options)}", field="options", node=node,
                  key="options")
        return {}

    def bad(key: str, msg: str) -> None:
        c.problem(msg, entry="options", field=str(key)[:40], node=node, key="options")

    from game.rules.army import MAX_UNITS, budget_for
    for key, v in options.items():
        if key not in OPTION_FIELDS:
            bad(key, f"unknown option (known options: {', '.join(OPTION_FIELDS)})")
        elif isinstance(v, float) and not math.isfinite(v):
            bad(key, f"{v} is not a value an option can have")
        elif key == "config":
            if not _whole(v) or (config is not None and v != config):
                bad(key, f"expected the configuration number {config}, got {short(v)}")
        elif key == "turn_limit":
            if v is not None and (not _whole(v) or not 1 <= v <= 100):
                bad(key, f"expected a whole number of turns 1-100 or null, got {short(v)}")
        elif key == "historical":
            if not isinstance(v, bool):
                bad(key, f"expected true or false, got {short(v)}")
        elif key == "year":
            if v is not None and (not _whole(v) or not 1936 <= v <= 1945):
                bad(key, f"expected a year 1936-1945 or null, got {short(v)}")
        elif key in ("attacker", "defender"):
            if v is None and scenario != "assault":
                continue
            if v not in SIDES:
                bad(key, f"expected Axis or Allies, got {short(v)}")
            elif scenario != "assault":
                bad(key, "only an Assault battle has an attacker and a defender")
        elif key == "budgets":
            if not isinstance(v, dict) or set(v) - set(SIDES):
                bad(key, "expected the points limit of Axis and Allies")
                continue
            for side, b in v.items():
                if not _whole(b) or not 1 <= b <= 1000:
                    bad(key, f"{side}: expected a whole number of points, got {short(b)}")
        elif key == "budget":
            if v is not None and (not _whole(v) or not 1 <= v <= 1000):
                bad(key, f"expected a whole number of points or null, got {short(v)}")
        elif key == "max_units":
            if v is not None and (not _whole(v) or not 1 <= v <= MAX_UNITS):
                bad(key, f"expected a whole number 1-{MAX_UNITS} or null, got {short(v)}")
    if scenario == "assault":
        att, dfn = options.get("attacker"), options.get("defender")
        if att in SIDES and dfn in SIDES and att == dfn:
            bad("defender", "the defender must be the other side from the attacker")
    # a points limit above the scenario's is not a legal game (rulebook: Building an Army)
    if scenario in ("standard", "assault"):
        limit = max(budget_for(scenario, None if scenario == "standard" else "attacker"), 0)
        b = options.get("budget")
        if _whole(b) and b > limit:
            bad("budget", f"{b} points is more than the {limit} the scenario allows")
        bs = options.get("budgets")
        if isinstance(bs, dict):
            for side, val in bs.items():
                if _whole(val) and side in SIDES and val > _side_budget(scenario, side, options):
                    bad("budgets", f"{side}: {val} points is more than the "
                                   f"{_side_budget(scenario, side, options)} the scenario allows")
    return dict(options)


def _role(scenario: str, side: str, options: dict[str, Any], cards: dict[str, list[Any]]
          ) -> str | None:
    if scenario != "assault":
        return None
    att = options.get("attacker")
    if att not in SIDES:
        pts = {s: sum(getattr(c, "cost", 0) for c in cards.get(s, [])) for s in SIDES}
        att = "Allies" if pts["Allies"] > pts["Axis"] else "Axis"
    return "attacker" if side == att else "defender"


def _side_budget(scenario: str, side: str, options: dict[str, Any],
                 cards: dict[str, list[Any]] | None = None) -> int:
    from game.rules.army import budget_for
    return budget_for(scenario, _role(scenario, side, options, cards or {}))


def _check_armies(sf_armies: dict[str, list[str]], scenario: str, options: dict[str, Any],
                  c: Checker, node: Any) -> dict[str, list[Any]]:
    """Every card known and each army legal for the scenario and options (the same
    :func:`game.rules.army.validate_army` the army builder and battle setup use)."""
    from game.data.units import find_card, load_roster, unknown_card_message
    from game.rules.army import Army, limits_for, validate_army
    cards: dict[str, list[Any]] = {}
    known = True
    for side in SIDES:
        found: list[Any] = []
        for i, n in enumerate(sf_armies.get(side, [])):
            card = find_card(n)
            if card is None:
                known = False
                c.problem(unknown_card_message(n, load_roster()), entry=f"armies.{side}[{i + 1}]",
                          field="name", node=node, key="armies")
            else:
                found.append(card)
        cards[side] = found
    if not known:
        return cards
    for side in SIDES:
        role = _role(scenario, side, options, cards)
        limits = limits_for(scenario, role, options)
        b = options.get("budgets")
        if isinstance(b, dict) and _whole(b.get(side)):
            limits["budget"] = min(int(b[side]), limits["budget"])
        year = limits.get("year")
        if not (year is None or _whole(year)):
            limits["year"] = None
        army = Army(name=f"{side} army", side=side, cards=cards[side])
        for p in validate_army(army, **limits):
            c.problem(f"not a legal army for this battle: {p}", entry=f"armies.{side}",
                      node=node, key="armies")
    return cards


def parse_save(data: Any, file: str = "<save>", *, check_armies: bool = True) -> SaveFile:
    """Check already-parsed save data; DataError lists every problem (file, line,
    entry, field), the first one in its message."""
    from game.rules.actions import action_from_dict
    from game.rules.errors import MalformedAction
    c = Checker(file)

    def bad(msg: str, *, entry: str | None = None, fld: str | None = None) -> None:
        c.problem(msg, entry=entry, field=fld, node=data if fld else None, key=fld)

    if not isinstance(data, dict):
        bad(f"expected a JSON object at the top level, got {_kind(data)}: this is not a "
            f"Hexfront save")
        c.done()
    if data.get("format") != FORMAT:
        if "format" not in data:
            bad(f"is missing: this is not a Hexfront save (expected \"{FORMAT}\")", fld="format")
        else:
            bad(f"expected \"{FORMAT}\", got {short(data['format'])}: this is not a Hexfront "
                f"save", fld="format")
        c.done()
    version = data.get("version")
    if "version" not in data:
        bad("is missing", fld="version")
    elif not _whole(version):
        bad(f"expected a whole number, got {_kind(version)} ({short(version)})", fld="version")
    elif version > VERSION:
        bad(f"save format {short(version)} comes from a newer Hexfront; this version reads "
            f"format {VERSION}. Update Hexfront to open it", fld="version")
    elif version < 1:
        bad(f"save format {short(version)} is unknown (this version reads format {VERSION})",
            fld="version")
    c.done()
    for k in data:
        if k not in TOP_FIELDS:
            bad(f"unknown field (known fields: {', '.join(TOP_FIELDS)})", fld=str(k)[:40])
    missing = [k for k in ("scenario", "configuration", "armies", "seed", "state_hash",
                           "actions") if k not in data]
    if version >= 2:
        missing += [k for k in ("battle_id", "check") if k not in data]
    for k in missing:
        bad("is missing", fld=k)

    scenario = data.get("scenario")
    if "scenario" in data and scenario not in ("standard", "assault"):
        bad(f"expected standard or assault, got {short(scenario)}", fld="scenario")
        scenario = None
    config = data.get("configuration")
    if "configuration" in data:
        if not _whole(config) or not 1 <= config <= 99:
            bad(f"expected a configuration number 1-6, got {short(config)}", fld="configuration")
            config = None
        else:
            from game.data.maps import load_configuration
            try:
                load_configuration(config)
            except DataError as exc:
                bad(f"map configuration {config} can't be loaded ({short(exc.detail, 160)[1:-1]})",
                    fld="configuration")
                config = None
    options = check_options(data.get("options", {}), scenario, config, c, data)

    army_lists: dict[str, list[str]] = {}
    armies = data.get("armies")
    if "armies" in data:
        if not isinstance(armies, dict):
            bad(f"expected an object with Axis and Allies, got {_kind(armies)}", fld="armies")
        else:
            for k in armies:
                if k not in SIDES:
                    bad("unknown side (Axis or Allies)", entry="armies", fld=str(k)[:40])
            for side in SIDES:
                names = armies.get(side)
                if names is None:
                    bad("is missing", entry="armies", fld=side)
                elif not isinstance(names, list):
                    bad(f"expected a list of card names, got {_kind(names)}", entry="armies",
                        fld=side)
                elif len(names) > MAX_ARMY_NAMES:
                    bad(f"{len(names):,} units: far too many for an army", entry="armies",
                        fld=side)
                else:
                    ok = True
                    for i, n in enumerate(names):
                        if not isinstance(n, str) or not n.strip() or len(n) > 80:
                            ok = False
                            c.problem(f"expected a card name, got {short(n)}",
                                      entry=f"armies.{side}[{i + 1}]", field="name", node=data,
                                      key="armies")
                    if ok:
                        army_lists[side] = list(names)
    seed = data.get("seed")
    if "seed" in data and (not _whole(seed) or not 0 <= seed <= MAX_SEED):
        bad(f"expected a whole number 0-{MAX_SEED}, got {_kind(seed)} ({short(seed)})"
            if not _whole(seed) else
            f"expected a whole number 0-{MAX_SEED}, got {short(seed)}", fld="seed")
    coin = data.get("coin_winner")
    if coin is not None and coin not in SIDES:
        bad(f"expected Axis, Allies or null, got {short(coin)}", fld="coin_winner")
    state_hash = data.get("state_hash")
    if "state_hash" in data and not _is_hash(state_hash):
        bad("expected the 64-character position hash", fld="state_hash")
    battle_id = data.get("battle_id")
    if battle_id is not None and not (isinstance(battle_id, str) and _is_battle_id(battle_id)):
        bad(f"expected a battle id (letters and digits), got {short(battle_id)}", fld="battle_id")
        battle_id = None
    if "check" in data and not _is_hash(data.get("check")):
        bad("expected the 64-character check hash", fld="check")
    summary = data.get("summary")
    if summary is not None and not (isinstance(summary, dict) and
                                    all(k in SUMMARY_FIELDS for k in summary)):
        bad("expected the short description of the battle", fld="summary")
        summary = None
    for k, want in (("turn", int), ("phase", str), ("saved", str), ("note", str)):
        v = data.get(k)
        if v is not None and (not isinstance(v, want) or isinstance(v, bool)):
            bad(f"expected {'a whole number' if want is int else 'text'}, got {_kind(v)}", fld=k)
    actions: list[Any] = []
    acts = data.get("actions")
    if "actions" in data:
        if not isinstance(acts, list):
            bad(f"expected a list of actions, got {_kind(acts)}", fld="actions")
        elif len(acts) > MAX_ACTIONS:
            bad(f"{len(acts):,} actions, more than any game has (at most {MAX_ACTIONS:,})",
                fld="actions")
        else:
            first_line = getattr(data, "lines", {}).get("actions")
            for i, a in enumerate(acts):
                entry = f"action {i + 1}"
                line = first_line + i + 1 if first_line else None
                try:
                    act = action_from_dict(_bounded_action(a))
                except MalformedAction as exc:
                    msg = str(exc)[:300]
                    fld = None
                    head = msg.split(":", 1)[0]
                    if "." in head and " " not in head:
                        fld = head.split(".", 1)[1].split("[", 1)[0]
                        msg = msg.split(":", 1)[1].strip()
                    c.problems.append(DataError(file, msg, entry=entry, field=fld, line=line))
                    if len(c.problems) > 50:
                        break
                    continue
                if act.side not in SIDES:
                    c.problems.append(DataError(file, f"expected Axis or Allies, got "
                                                      f"{short(act.side)}", entry=entry,
                                                field="side", line=line))
                    continue
                actions.append(act)
    c.done()
    if version >= 2 and data.get("check") != content_hash(dict(data)):
        bad("the save's contents don't match its check hash: the file was edited or damaged "
            "after it was written", fld="check")
    cards: dict[str, list[Any]] = {}
    if check_armies:
        assert scenario is not None
        cards = _check_armies(army_lists, scenario, options, c, data)
    c.done()
    assert isinstance(scenario, str) and _whole(config) and _whole(seed)
    assert isinstance(state_hash, str) and _whole(version)
    return SaveFile(file=file, version=version, scenario=scenario, configuration=config,
                    options=options, armies=army_lists, seed=seed, coin_winner=coin,
                    actions=actions, state_hash=state_hash,
                    turn=data.get("turn") if _whole(data.get("turn")) else None,
                    phase=data.get("phase") if isinstance(data.get("phase"), str) else None,
                    saved=data.get("saved") if isinstance(data.get("saved"), str) else None,
                    note=data.get("note") if isinstance(data.get("note"), str) else None,
                    battle_id=battle_id if isinstance(battle_id, str) else None,
                    summary=dict(summary) if isinstance(summary, dict) else None,
                    cards=cards)


def _is_hash(v: Any) -> bool:
    return isinstance(v, str) and len(v) == 64 and all(ch in _HEX for ch in v)


def _bounded_action(a: Any) -> Any:
    """Refuse (as MalformedAction) an action whose values are too big to be real,
    before the rules' parser renders any of them in a message."""
    from game.rules.errors import MalformedAction
    if not isinstance(a, dict):
        raise MalformedAction(f"an action must be an object, got {_kind(a)}")
    if len(a) > 12:
        raise MalformedAction(f"an action has at most a dozen fields, this one {len(a):,}")
    for k, v in a.items():
        where = f"{short(a.get('type'), 30)[1:-1] if isinstance(a.get('type'), str) else 'action'}" \
                f".{str(k)[:30]}"
        if isinstance(v, str) and len(v) > 60:
            raise MalformedAction(f"{where}: {short(v)} is too long to be a real value")
        if isinstance(v, list):
            if len(v) > 200:
                raise MalformedAction(f"{where}: a list of {len(v):,} items is too long")
            for x in v:
                if isinstance(x, (list, dict)) and len(x) > 3:
                    raise MalformedAction(f"{where}: expected a list of hexes")
        if isinstance(v, dict):
            raise MalformedAction(f"{where}: expected a plain value, got an object")
    return a
