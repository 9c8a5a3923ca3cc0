"""Reading situation files (format: docs/situations.md) into
:class:`game.situations.Situation`.

Everything is validated; every problem is a :class:`DataError` naming the file,
the entry (a unit id, ``step 3``, ``expect``...) and the field, with its line.
Roster cards come from :mod:`game.data.units`, configurations from
:mod:`game.data.maps`; an inline card uses the roster's card fields.
"""
from __future__ import annotations

import os
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable

from game.data.yamlio import Checker, int_in, line_of, one_of, read_yaml, text
from game.rules.actions import (Action, Attack, Board, ChooseEnd, ChooseOrder, DefensiveFire,
                                DemolishBridge, Deploy, Dismount, EndPhase, Move,
                                PassDefensiveFire, PlaceAircraft, PlaceDismounted, Undeploy,
                                EnterReserve, LaySmoke)
from game.rules.board import BattleMap
from game.rules.cards import SIDES, UnitCard
from game.rules.errors import DataError
from game.rules.hexes import DIRECTION_NAMES, Hex, Hexside, hex_label, parse_hex_label
from game.situations import (ODDS_FIELDS, TO_ACT, UNIT_FIELDS, Advance, ArmyCheck, AttackCheck,
                             EventSpec, Expect, OddsCheck, Situation, Step, UnitSpec)
from game.rules.state import COUNTERS, Phase
from game.rules.terrain import Terrain

__all__ = ["load_situation", "parse_situation", "TERRAIN_LETTERS", "ACTION_KEYS"]

#: letters of an inline map's rows
TERRAIN_LETTERS = {".": Terrain.CLEAR, "c": Terrain.CLEAR, "f": Terrain.FOREST,
                   "h": Terrain.HILL, "t": Terrain.TOWN, "m": Terrain.MARSH, "p": Terrain.POND,
                   # later edition (game.rules.later)
                   "s": Terrain.SHELL_HOLES, "w": Terrain.WATER, "b": Terrain.BLUFFS}
NO_HEX = "x"
HALF_HEX = "/"
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

TOP_FIELDS = ("name", "rule", "map", "scenario", "turn", "phase", "first_player", "active",
              "dice", "seed", "options", "units", "actions", "expect", "army", "edition")
ARMY_FIELDS = ("side", "cards", "scenario", "role", "options", "expect")
ARMY_EXPECT_FIELDS = ("legal", "problems", "points")
UNIT_SPEC_FIELDS = ("card", "side", "hex", "facing", "disrupted", "damaged", "pending",
                    "aboard", "acted", "fired_defensively", "reserve")
EXPECT_FIELDS = ("units", "events", "no_events", "phase", "turn", "to_act", "pending",
                 "winner", "dice_left", "sees", "can_attack", "odds", "los")
ACTION_KEYS = ("attack", "move", "turn", "defensive_fire", "hold_fire", "end_phase", "board",
               "dismount", "demolish_bridge", "place_dismounted", "choose_order",
               "choose_end", "deploy", "undeploy", "advance",
               "place_aircraft", "enter_reserve", "lay_smoke")
_HEX_EVENT_FIELDS = ("hex", "at_hex", "from_hex", "to_hex")


class _Bad(ValueError):
    """A value problem inside a nested structure (becomes a Checker problem)."""


def load_situation(path: str | os.PathLike[str]) -> Situation:
    """Read and check one situation file."""
    p = Path(path)
    shown = str(path)
    doc = read_yaml(p, display=shown)
    return parse_situation(doc, shown)


def parse_situation(doc: Any, file: str = "<situation>") -> Situation:
    """Build a Situation from parsed YAML (``doc``); raise DataError listing every problem."""
    c = Checker(file)
    if not isinstance(doc, dict):
        raise DataError(file, "expected a mapping of fields at the top level", line=1)
    c.unknown_keys(doc, TOP_FIELDS, entry="situation")
    name = c.field(doc, "name", text(120), entry="situation")
    rule = c.field(doc, "rule", text(10 ** 9), entry="situation", required=False, default="")
    if "army" in doc:
        army = _army_check(c, doc["army"], doc)
        c.done()
        army_options = {"edition": army.options["edition"]} if army is not None and \
            army.options.get("edition") else {}
        return Situation(name=name, file=file, battle_map=BattleMap("none", {}), units=[],
                         rule=rule, army=army, options=army_options)
    scenario = c.field(doc, "scenario", one_of("standard", "assault"), entry="situation",
                       required=False, default="standard")
    turn = c.field(doc, "turn", int_in(0, 99), entry="situation", required=False, default=1)
    phase = c.field(doc, "phase", _phase, entry="situation", required=False,
                    default=Phase.ASSAULT_FIRST)
    first = c.field(doc, "first_player", one_of(*SIDES), entry="situation", required=False,
                    default="Axis")
    active = c.field(doc, "active", one_of(*SIDES), entry="situation", required=False)
    if active is not None and phase is not None:
        if phase.is_movement or phase.is_assault or phase.is_deploy or phase.is_flight \
                or phase.is_airstrike:
            wanted = active if phase.is_first else ("Allies" if active == "Axis" else "Axis")
            if "first_player" in doc and first != wanted:
                c.problem(f"{active} can't be the active side in {phase.value} when "
                          f"{first} is the first player", entry="situation", field="active",
                          node=doc, key="active")
            first = wanted
        else:
            c.problem(f"nobody is the active side in the {phase.value} phase",
                      entry="situation", field="active", node=doc, key="active")
    dice = c.field(doc, "dice", _dice_list, entry="situation", required=False)
    seed = c.field(doc, "seed", int_in(0, 2 ** 31), entry="situation", required=False,
                   default=0)
    options = doc.get("options") or {}
    if not isinstance(options, dict):
        c.problem("expected a mapping of options", entry="situation", field="options",
                  node=doc, key="options")
        options = {}
    if doc.get("edition") is not None:     # "edition: later" (game.rules.later)
        from game.rules.later import parse_edition
        edition = c.field(doc, "edition", parse_edition, entry="situation", required=False)
        if edition is not None and edition != "first":
            options = dict(options, edition=edition)
    battle_map = _map(c, doc)
    units = _units(c, doc, battle_map)
    sides = {u.uid: u.side for u in units}
    if isinstance(doc.get("units"), dict):     # units with bad fields: still known ids
        for uid in doc["units"]:
            sides.setdefault(str(uid), "Axis")
    steps = _steps(c, doc, sides, battle_map)
    expect = None
    if doc.get("expect") is not None:
        expect = _expect(c, doc["expect"], "expect", sides, battle_map)
    c.done()
    return Situation(name=name, file=file, battle_map=battle_map, units=units, steps=steps,
                     expect=expect, rule=rule, scenario=scenario, turn=turn, phase=phase,
                     first_player=first, dice=dice, seed=seed, options=dict(options))


def _army_check(c: Checker, node: Any, doc: dict[str, Any]) -> ArmyCheck | None:
    """An army-validation situation: cards, side, scenario/role, options -> legal or
    the reasons, and the points (rulebook: Building an Army; ruling 12)."""
    entry = "army"
    if not isinstance(node, dict):
        c.problem("expected a mapping (side, cards, scenario, role, options, expect)",
                  entry="situation", field="army", node=doc, key="army")
        return None
    for other in ("map", "units", "actions"):
        if other in doc:
            c.problem("an army-validation situation has no map, units or actions",
                      entry="situation", field=other, node=doc, key=other)
    c.unknown_keys(node, ARMY_FIELDS, entry=entry)
    side = _get(c, node, "side", one_of(*SIDES), entry=entry, required=True)
    scenario = _get(c, node, "scenario", one_of("standard", "assault"), entry=entry,
                    default="standard")
    role = _get(c, node, "role", one_of("attacker", "defender"), entry=entry)
    if scenario == "assault" and role is None:
        c.problem("the Assault scenario needs role: attacker or defender", entry=entry,
                  field="role", node=node)
    options = node.get("options") or {}
    if not isinstance(options, dict):
        c.problem("expected a mapping (historical, year, budget, max_units)", entry=entry,
                  field="options", node=node, key="options")
        options = {}
    c.unknown_keys(options, ("historical", "year", "budget", "max_units", "edition"),
                   entry="army options")
    if doc.get("edition") is not None and "edition" not in options:
        from game.rules.later import parse_edition      # "edition: later" (game.rules.later)
        edition = c.field(doc, "edition", parse_edition, entry="situation", required=False)
        if edition is not None and edition != "first":
            options = dict(options, edition=edition)
    cards = []
    raw = node.get("cards")
    if not isinstance(raw, list):
        c.problem("expected a list of cards (roster names or inline cards)", entry=entry,
                  field="cards", node=node, key="cards" if "cards" in node else None)
        raw = []
    for i, item in enumerate(raw, 1):
        card = _card(c, item, f"army card {i}", {"card": item})
        if card is not None:
            cards.append(card)
    want = node.get("expect") or {}
    if not isinstance(want, dict):
        c.problem("expected a mapping (legal, problems, points)", entry=entry,
                  field="expect", node=node, key="expect")
        want = {}
    c.unknown_keys(want, ARMY_EXPECT_FIELDS, entry="army expect")
    legal = _get(c, want, "legal", _bool, entry="army expect")
    problems = want.get("problems") or []
    if not isinstance(problems, list) or not all(isinstance(p, str) for p in problems):
        c.problem("expected a list of texts the problems must contain", entry="army expect",
                  field="problems", node=want, key="problems")
        problems = []
    points = _get(c, want, "points", int_in(0, 100000), entry="army expect")
    return ArmyCheck(side or "Axis", cards, scenario or "standard", role, dict(options),
                     legal, list(problems), points)


# --- small value parsers ------------------------------------------------------------------
def _phase(v: Any) -> Phase:
    s = str(v).strip().lower().replace(" ", "_").replace("-", "_")
    try:
        return Phase(s)
    except ValueError:
        raise ValueError(f"unknown phase {v!r} (expected one of: "
                         f"{', '.join(p.value for p in Phase)})") from None


def _dice_list(v: Any) -> list[int]:
    if not isinstance(v, list):
        raise ValueError("expected a list of die faces, e.g. [6, 6, 5, 1]")
    out = []
    for i, x in enumerate(v, 1):
        if isinstance(x, bool) or not isinstance(x, int) or not 1 <= x <= 6:
            raise ValueError(f"die {i}: a die shows 1-6, got {x!r}")
        out.append(x)
    return out


def _hex(v: Any) -> Hex:
    if isinstance(v, str):
        try:
            return parse_hex_label(v)
        except ValueError as exc:
            raise _Bad(str(exc)) from None
    if (isinstance(v, list) and len(v) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in v)):
        return Hex(v[0], v[1])
    raise _Bad(f"expected a hex label like 'H6' or [q, r], got {v!r}")


def _facing(v: Any) -> int:
    if isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 5:
        return v
    if isinstance(v, str) and v.strip().upper() in DIRECTION_NAMES:
        return DIRECTION_NAMES.index(v.strip().upper())
    raise _Bad(f"expected a facing 0-5 or one of {', '.join(DIRECTION_NAMES)}, got {v!r}")


def _bool(v: Any) -> bool:
    if not isinstance(v, bool):
        raise _Bad(f"expected true or false, got {v!r}")
    return v


def _counters(v: Any) -> list[str]:
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise _Bad(f"expected a list of counters ({', '.join(COUNTERS)})")
    out = [x.strip().lower() for x in v]
    bad = [x for x in out if x not in COUNTERS]
    if bad:
        raise _Bad(f"unknown counter '{bad[0]}' (expected {', '.join(COUNTERS)})")
    return out


def _number(v: Any) -> Any:
    """A probability or count: int, float, or a fraction text like '5/8'."""
    if isinstance(v, str) and "/" in v:
        try:
            return float(Fraction(v.replace(" ", "")))
        except (ValueError, ZeroDivisionError):
            raise _Bad(f"expected a number or a fraction like 5/8, got {v!r}") from None
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise _Bad(f"expected a number or a fraction like 5/8, got {v!r}")
    return v


def _odds_value(v: Any) -> Any:
    """An expected odds field: a number, or the text/true/false a field like ``band``
    or ``front`` holds."""
    if v is None or isinstance(v, (bool, str)) and not (isinstance(v, str) and "/" in v):
        return v
    return _number(v)


def _disrupted(v: Any) -> bool:
    """``true``/``false``, or the number of face-up Disrupted counters (rulebook:
    several Disrupted counters are all removed at the next casualty phase, so the
    rules keep one face-up disruption)."""
    if isinstance(v, bool):
        return v
    if isinstance(v, int) and 0 <= v <= 9:
        return v > 0
    raise _Bad(f"expected true, false or a number of face-up Disrupted counters, got {v!r}")


def _refused(v: Any) -> str:
    """``refused: true`` (any refusal) or a text the reason must contain."""
    if v is True:
        return ""
    return text(200)(v)


def _get(c: Checker, node: Any, key: str, parse: Callable[[Any], Any], *, entry: str,
         label: str | None = None, default: Any = None, required: bool = False) -> Any:
    if not isinstance(node, dict) or key not in node:
        if required:
            c.problem("is missing", entry=entry, field=label or key, node=node)
        return default
    try:
        return parse(node[key])
    except (_Bad, ValueError, TypeError) as exc:
        c.problem(str(exc), entry=entry, field=label or key, node=node, key=key)
        return default


# --- map -------------------------------------------------------------------------------------
def _map(c: Checker, doc: dict[str, Any]) -> BattleMap:
    raw = doc.get("map")
    fallback = BattleMap("empty", {Hex(0, 0): Terrain.CLEAR})
    if raw is None:
        c.problem("is missing (a configuration number, or rows of an inline map)",
                  entry="situation", field="map", node=doc)
        return fallback
    if isinstance(raw, dict) and "configuration" in raw:
        c.unknown_keys(raw, ("configuration",), entry="map")
        raw = raw["configuration"]
    if isinstance(raw, int) and not isinstance(raw, bool):
        from game.data.maps import load_configuration
        loader: Callable[[int], BattleMap] = load_configuration
        if str(doc.get("edition", "")).strip().lower() == "later":
            # the later edition's own configurations 1-3 (game.data.later_maps)
            from game.data.later_maps import load_later_configuration
            loader = load_later_configuration
        try:
            return loader(raw)
        except DataError as exc:
            c.problem(f"configuration {raw}: {exc}", entry="map", field="configuration",
                      node=doc, key="map")
            return fallback
    if not isinstance(raw, dict):
        c.problem("expected a configuration number or an inline map (rows, roads, "
                  "streams, bridges, objective)", entry="situation", field="map", node=doc,
                  key="map")
        return fallback
    c.unknown_keys(raw, ("rows", "roads", "streams", "bridges", "objective", "name",
                         "hedges", "cliffs"), entry="map")
    rows = raw.get("rows")
    if not isinstance(rows, list) or not rows:
        c.problem("expected a list of rows of terrain letters", entry="map", field="rows",
                  node=raw)
        return fallback
    terrain: dict[Hex, Terrain] = {}
    halves: set[Hex] = set()
    for i, row in enumerate(rows, 1):
        if not isinstance(row, str):
            c.problem(f"row {i}: expected text like '. . f h'", entry="map", field="rows",
                      node=rows, key=i - 1)
            continue
        tokens = row.split()
        if len(tokens) > len(_LETTERS):
            c.problem(f"row {i}: at most {len(_LETTERS)} hexes", entry="map", field="rows",
                      node=rows, key=i - 1)
            continue
        for k, tok in enumerate(tokens):
            t = tok.lower()
            if t == NO_HEX:
                continue
            if t == HALF_HEX:
                halves.add(parse_hex_label(f"{_LETTERS[k]}{i}"))
                continue
            if t not in TERRAIN_LETTERS:
                c.problem(f"row {i}, column {_LETTERS[k]}: unknown terrain letter {tok!r} "
                          f"(known: {' '.join(TERRAIN_LETTERS)} and x for no hex)",
                          entry="map", field="rows", node=rows, key=i - 1)
                continue
            terrain[parse_hex_label(f"{_LETTERS[k]}{i}")] = TERRAIN_LETTERS[t]
    if not terrain:
        return fallback

    def sides(key: str, chains: bool) -> frozenset[Hexside]:
        out: set[Hexside] = set()
        items = raw.get(key) or []
        if not isinstance(items, list):
            c.problem("expected a list of hex pairs", entry="map", field=key, node=raw, key=key)
            return frozenset()
        for j, item in enumerate(items, 1):
            try:
                if not isinstance(item, list) or len(item) < 2 or (not chains and len(item) != 2):
                    raise _Bad("expected a pair of adjacent hexes" +
                               (" (or a longer chain)" if chains else ""))
                hexes = [_hex(x) for x in item]
                for a, b in zip(hexes, hexes[1:]):
                    for h in (a, b):
                        if h not in terrain:
                            raise _Bad(f"{h!r} is not a hex of the map")
                    if a.distance(b) != 1:
                        raise _Bad(f"{item[0]} and {item[1]} are not adjacent")
                    out.add(Hexside.between(a, b))
            except _Bad as exc:
                c.problem(f"item {j}: {exc}", entry="map", field=key, node=items, key=j - 1)
        return frozenset(out)

    roads = sides("roads", True)
    streams = sides("streams", False)
    bridges = sides("bridges", False)
    hedges = sides("hedges", False)           # later edition: hexside terrain
    cliffs = sides("cliffs", False)
    objective = _get(c, raw, "objective", _hex, entry="map")
    if objective is not None and objective not in terrain:
        c.problem("the objective is not a hex of the map", entry="map", field="objective",
                  node=raw, key="objective")
        objective = None
    return BattleMap(name=str(raw.get("name") or "situation map"), terrain=terrain,
                     roads=roads | bridges, streams=streams | bridges, bridges=bridges,
                     objective=objective, half_hexes=frozenset(halves),
                     hedges=hedges, cliffs=cliffs)


# --- units -------------------------------------------------------------------------------------
def _card(c: Checker, raw: Any, entry: str, node: Any) -> UnitCard | None:
    if isinstance(raw, str):
        from game.data.units import card
        try:
            return card(raw)
        except DataError as exc:
            c.problem(exc.detail, entry=entry, field="card", node=node, key="card")
            return None
    if isinstance(raw, dict):
        # an inline card: the roster's card fields (units/README.md), checked the same way
        from game.data import units as roster
        sub = Checker(c.file)
        made = roster._card(sub, raw, 0, [raw])
        for p in sub.problems:
            c.problem(p.detail, entry=f"{entry}: inline card", field=p.field, node=raw,
                      key=p.field if p.field in raw else None)
        return made
    c.problem("expected a roster card name or an inline card (a mapping)", entry=entry,
              field="card", node=node, key="card")
    return None


def _units(c: Checker, doc: dict[str, Any], battle_map: BattleMap) -> list[UnitSpec]:
    raw = doc.get("units")
    if not isinstance(raw, dict) or not raw:
        c.problem("expected a mapping of unit ids to units", entry="situation", field="units",
                  node=doc, key="units" if "units" in doc else None)
        return []
    out: list[UnitSpec] = []
    for uid, node in raw.items():
        entry = f"unit {uid}"
        if not isinstance(node, dict):
            c.problem("expected a mapping of fields (card, side, hex, ...)", entry=entry,
                      node=raw, key=uid)
            continue
        c.unknown_keys(node, UNIT_SPEC_FIELDS, entry=entry)
        card = _card(c, node.get("card"), entry, node) if "card" in node else None
        if "card" not in node:
            c.problem("is missing", entry=entry, field="card", node=node)
        side = _get(c, node, "side", one_of(*SIDES), entry=entry)
        if card is not None and side is None:
            side = card.side
        aboard = _get(c, node, "aboard", lambda v: text(40)(v), entry=entry)
        reserve = _get(c, node, "reserve", _bool, entry=entry, default=False)
        if reserve and ("hex" in node or aboard is not None):
            c.problem("a unit in reserve (not yet deployed) has no hex and is aboard nothing",
                      entry=entry, field="reserve", node=node, key="reserve")
        # an Aircraft (later edition) may be off the map: it is placed in a flight phase
        hx = _get(c, node, "hex", _hex, entry=entry,
                  required=aboard is None and not reserve
                  and not (card is not None and card.is_aircraft))
        if hx is not None and hx not in battle_map.terrain:
            c.problem(f"{node['hex']} is not a hex of the map", entry=entry, field="hex",
                      node=node, key="hex")
        # every field is checked (and its problems reported) even when the unit is dropped
        facing = _get(c, node, "facing", _facing, entry=entry, default=0)
        disrupted = _get(c, node, "disrupted", _disrupted, entry=entry, default=False)
        damaged = _get(c, node, "damaged", _bool, entry=entry, default=False)
        pending = _get(c, node, "pending", _counters, entry=entry, default=[])
        acted = _get(c, node, "acted", _bool, entry=entry, default=False)
        fired = _get(c, node, "fired_defensively", _bool, entry=entry, default=False)
        if card is not None and side is not None:
            out.append(UnitSpec(
                uid=str(uid), card=card, side=side, hex=hx, facing=facing,
                disrupted=disrupted, damaged=damaged, pending=pending, carrier=aboard,
                acted=acted, fired_defensively=fired))
    by_id = {u.uid: u for u in out}
    for u in out:
        if u.carrier is None:
            continue
        where = dict(entry=f"unit {u.uid}", field="aboard", node=raw[u.uid], key="aboard")
        if u.carrier == u.uid:
            c.problem("a unit can't be aboard itself", **where)
        elif u.carrier not in raw:
            c.problem(f"no unit '{u.carrier}' to be aboard", **where)
        elif by_id.get(u.carrier) is not None and by_id[u.carrier].carrier is not None:
            other = by_id[u.carrier]
            if other.carrier == u.uid:
                c.problem(f"{u.uid} and {other.uid} can't be aboard each other", **where)
            else:
                c.problem(f"'{u.carrier}' is itself aboard '{other.carrier}': a transport "
                          f"aboard a transport can't carry", **where)
    # rulebook: Stacking - at most two units of a side, and one Vehicle, per hex
    friends: dict[tuple[Hex, str], int] = {}
    vehicles: dict[Hex, str] = {}
    for u in out:
        if u.hex is None or u.carrier is not None:
            continue
        n = friends[(u.hex, u.side)] = friends.get((u.hex, u.side), 0) + 1
        where = dict(entry=f"unit {u.uid}", field="hex", node=raw[u.uid], key="hex")
        if n == 3:
            c.problem(f"{hex_label(u.hex)} already holds two {u.side} units (stacking limit)",
                      **where)
        if u.card.is_vehicle:
            if u.hex in vehicles:
                c.problem(f"{hex_label(u.hex)} already holds a Vehicle ({vehicles[u.hex]}): "
                          f"one Vehicle per hex", **where)
            else:
                vehicles[u.hex] = u.uid
    return out


# --- actions -----------------------------------------------------------------------------------
def _steps(c: Checker, doc: dict[str, Any], sides: dict[str, str], battle_map: BattleMap) -> list[Step]:
    raw = doc.get("actions") or []
    if not isinstance(raw, list):
        c.problem("expected a list of actions", entry="situation", field="actions", node=doc,
                  key="actions")
        return []
    out = []
    for i, node in enumerate(raw, 1):
        entry = f"step {i}"
        if not isinstance(node, dict):
            c.problem("expected a mapping such as {attack: {unit: a, target: b}}", entry=entry,
                      node=raw, key=i - 1)
            continue
        keys = [k for k in node if k in ACTION_KEYS]
        c.unknown_keys(node, ACTION_KEYS + ("side", "refused", "expect"), entry=entry)
        if len(keys) != 1:
            c.problem(f"expected exactly one action ({', '.join(ACTION_KEYS)}), got "
                      f"{len(keys)}", entry=entry, node=raw, key=i - 1)
            continue
        try:
            action = _action(keys[0], node[keys[0]], node.get("side"), sides)
        except _Bad as exc:
            c.problem(str(exc), entry=entry, field=keys[0], node=node, key=keys[0])
            continue
        refused = _get(c, node, "refused", _refused, entry=entry)
        exp = _expect(c, node["expect"], f"{entry} expect", sides, battle_map) \
            if node.get("expect") is not None else None
        out.append(Step(action=action, refused=refused, expect=exp, line=line_of(raw, i - 1)))
    return out


def _action(kind: str, v: Any, side: Any, sides: dict[str, str]) -> Action:
    if side is not None and side not in SIDES:
        raise _Bad(f"side: expected Axis or Allies, got {side!r}")
    if v is None:
        v = {}
    if kind == "advance":
        if v not in ({}, True):
            raise _Bad("advance takes no fields (it runs the automatic steps)")
        return Advance(TO_ACT)
    if isinstance(v, str) and kind in ("defensive_fire", "demolish_bridge", "undeploy"):
        v = {"unit": v}
    if not isinstance(v, dict):
        raise _Bad("expected a mapping of the action's fields")

    def need(key: str) -> Any:
        if key not in v:
            raise _Bad(f"'{key}' is missing")
        return v[key]

    def unit(key: str = "unit") -> str:
        uid = str(need(key))
        if uid not in sides:
            raise _Bad(f"{key}: no unit '{uid}' in this situation")
        return uid

    def who(uid: str | None = None) -> str:
        return side or (sides[uid] if uid else TO_ACT)

    allowed = {
        "attack": ("unit", "target", "mode"), "move": ("unit", "path", "facing"),
        "turn": ("unit", "facing"), "defensive_fire": ("unit",), "hold_fire": (),
        "end_phase": (), "board": ("unit", "carrier"), "dismount": ("unit", "hex"),
        "demolish_bridge": ("unit",), "place_dismounted": ("unit", "hex"),
        "choose_order": ("go_first",), "choose_end": ("end",),
        "deploy": ("unit", "hex", "facing", "carrier"), "undeploy": ("unit",),
        "place_aircraft": ("unit", "hex"), "enter_reserve": ("unit", "hex"),
        "lay_smoke": ("unit",),
    }[kind]
    extra = [k for k in v if k not in allowed]
    if extra:
        raise _Bad(f"unknown field(s) {', '.join(map(str, extra))} (known: "
                   f"{', '.join(allowed) or 'none'})")
    if kind == "attack":
        u = unit()
        return Attack(who(u), u, unit("target"), str(v.get("mode", "normal")))
    if kind == "move":
        u = unit()
        path = need("path")
        if not isinstance(path, list):
            raise _Bad("path: expected a list of hexes (the start hex excluded)")
        f = _facing(v["facing"]) if v.get("facing") is not None else None
        return Move(who(u), u, tuple(_hex(h) for h in path), f)
    if kind == "turn":
        u = unit()
        return Move(who(u), u, (), _facing(need("facing")))
    if kind == "defensive_fire":
        u = unit()
        return DefensiveFire(who(u), u)
    if kind == "hold_fire":
        return PassDefensiveFire(who())
    if kind == "end_phase":
        return EndPhase(who())
    if kind == "board":
        u = unit()
        return Board(who(u), u, unit("carrier"))
    if kind == "dismount":
        u = unit()
        return Dismount(who(u), u, _hex(need("hex")))
    if kind == "demolish_bridge":
        u = unit()
        return DemolishBridge(who(u), u)
    if kind == "place_dismounted":
        return PlaceDismounted(who(), unit(), _hex(need("hex")))
    if kind == "choose_order":
        return ChooseOrder(who(), _bool(need("go_first")))
    if kind == "choose_end":
        return ChooseEnd(who(), str(need("end")))
    if kind == "deploy":
        u = unit()
        carrier = unit("carrier") if v.get("carrier") is not None else None
        return Deploy(who(u), u, _hex(need("hex")), _facing(v.get("facing", 0)), carrier)
    if kind == "place_aircraft":         # later edition (game.rules.later.flight)
        u = unit()
        return PlaceAircraft(who(u), u, _hex(need("hex")))
    if kind == "enter_reserve":          # rulings 21-23 (game.rules.families.reserves)
        u = unit()
        return EnterReserve(who(u), u, _hex(need("hex")))
    if kind == "lay_smoke":              # Smoke Screen, ruling 30 (game.rules.families.smoke)
        u = unit()
        return LaySmoke(who(u), u)
    u = unit()
    return Undeploy(who(u), u)


# --- expectations ------------------------------------------------------------------------------
def _expect(c: Checker, node: Any, entry: str, sides: dict[str, str],
            battle_map: BattleMap) -> Expect:
    exp = Expect()
    if not isinstance(node, dict):
        c.problem("expected a mapping (units, events, phase, ...)", entry=entry)
        return exp
    c.unknown_keys(node, EXPECT_FIELDS, entry=entry)
    units = node.get("units") or {}
    if not isinstance(units, dict):
        c.problem("expected a mapping of unit ids", entry=entry, field="units", node=node,
                  key="units")
        units = {}
    for uid, want in units.items():
        where = f"{entry}: unit {uid}"
        if uid not in sides:
            c.problem(f"no unit '{uid}' in this situation", entry=entry, field="units",
                      node=units, key=uid)
            continue
        if not isinstance(want, dict):
            c.problem("expected a mapping of fields", entry=where, node=units, key=uid)
            continue
        c.unknown_keys(want, UNIT_FIELDS + ("aboard",), entry=where)
        parsers: dict[str, Callable[[Any], Any]] = {
            "hex": _hex, "facing": _facing, "pending": _counters, "carrier": _opt_text,
            "aboard": _opt_text}
        checks = {}
        for key in want:
            if key not in UNIT_FIELDS + ("aboard",):
                continue
            val = _get(c, want, key, parsers.get(key, _bool), entry=where)
            checks["carrier" if key == "aboard" else key] = val
        exp.units[str(uid)] = checks
    exp.events = _event_specs(c, node, "events", entry)
    exp.no_events = _event_specs(c, node, "no_events", entry)
    exp.phase = _get(c, node, "phase", _phase, entry=entry)
    exp.turn = _get(c, node, "turn", int_in(0, 99), entry=entry)
    exp.to_act = _get(c, node, "to_act", one_of(*SIDES, "None"), entry=entry)
    exp.pending = _get(c, node, "pending", text(40), entry=entry)
    exp.winner = _get(c, node, "winner", one_of(*SIDES, "none"), entry=entry)
    exp.dice_left = _get(c, node, "dice_left", int_in(0, 10000), entry=entry)
    for key in ("sees", "can_attack"):
        table = node.get(key)
        if table is None:
            continue
        if not isinstance(table, dict):
            c.problem("expected {unit: {other unit: value}}", entry=entry, field=key,
                      node=node, key=key)
            continue
        for a, row in table.items():
            if not isinstance(row, dict):
                c.problem(f"{a}: expected a mapping of other units", entry=entry, field=key,
                          node=table, key=a)
                continue
            for b, val in row.items():
                bad = [x for x in (a, b) if x not in sides]
                if bad:
                    c.problem(f"no unit '{bad[0]}' in this situation", entry=entry, field=key,
                              node=row, key=b)
                    continue
                if key == "sees":
                    if not isinstance(val, bool):
                        c.problem(f"{a} -> {b}: expected true or false", entry=entry,
                                  field=key, node=row, key=b)
                        continue
                    exp.sees.append((str(a), str(b), val))
                else:
                    exp.attacks.append(_attack_check(c, str(a), str(b), val, entry, row))
    los = node.get("los") or []
    if not isinstance(los, list):
        c.problem("expected a list of [hex, hex, true/false]", entry=entry, field="los",
                  node=node, key="los")
        los = []
    for j, item in enumerate(los, 1):
        try:
            if not isinstance(item, list) or len(item) != 3 or not isinstance(item[2], bool):
                raise _Bad("expected [hex, hex, true/false]")
            a, b = _hex(item[0]), _hex(item[1])
            for h in (a, b):
                if h not in battle_map.terrain:
                    raise _Bad(f"{hex_label(h)} is not a hex of the map")
            exp.los.append((a, b, item[2]))
        except _Bad as exc:
            c.problem(f"item {j}: {exc}", entry=entry, field="los", node=los, key=j - 1)
    odds = node.get("odds") or []
    if not isinstance(odds, list):
        c.problem("expected a list of odds checks", entry=entry, field="odds", node=node,
                  key="odds")
        odds = []
    for j, o in enumerate(odds, 1):
        chk = _odds_check(c, o, f"{entry}: odds {j}", sides)
        if chk is not None:
            exp.odds.append(chk)
    return exp


def _opt_text(v: Any) -> str | None:
    return None if v is None else str(v)


def _attack_check(c: Checker, a: str, b: str, val: Any, entry: str, row: Any) -> AttackCheck:
    if isinstance(val, bool):
        return AttackCheck(a, b, val)
    if isinstance(val, str):
        return AttackCheck(a, b, False, val)
    if isinstance(val, dict):
        c.unknown_keys(val, ("allowed", "reason", "mode", "defensive"), entry=f"{entry}: {a}")
        allowed = bool(val.get("allowed", val.get("reason") is None))
        return AttackCheck(a, b, allowed, val.get("reason"), str(val.get("mode", "normal")),
                           bool(val.get("defensive", False)))
    c.problem(f"{a} -> {b}: expected true, false, a refusal reason, or a mapping",
              entry=entry, field="can_attack", node=row, key=b)
    return AttackCheck(a, b, True)


def _odds_check(c: Checker, o: Any, entry: str, sides: dict[str, str]) -> OddsCheck | None:
    if not isinstance(o, dict):
        c.problem("expected a mapping (attacker, target, and odds fields)", entry=entry)
        return None
    c.unknown_keys(o, ("attacker", "target", "mode", "defensive", "at_hex", "facing",
                       "tolerance") + ODDS_FIELDS, entry=entry)
    a, t = o.get("attacker"), o.get("target")
    if not isinstance(a, str) or not isinstance(t, str) or a not in sides or t not in sides:
        c.problem("attacker and target must be unit ids of this situation", entry=entry,
                  node=o)
        return None
    values = {}
    for key in ODDS_FIELDS:
        if key in o:
            values[key] = _get(c, o, key, _odds_value, entry=entry)
    tol = _get(c, o, "tolerance", _number, entry=entry, default=1e-9)
    return OddsCheck(str(a), str(t), values, str(o.get("mode", "normal")),
                     bool(o.get("defensive", False)), _get(c, o, "at_hex", _hex, entry=entry),
                     _get(c, o, "facing", _facing, entry=entry), float(tol))


def _event_specs(c: Checker, node: dict[str, Any], key: str, entry: str) -> list[EventSpec]:
    raw = node.get(key)
    if raw is None:
        return []
    if not isinstance(raw, list):
        c.problem("expected a list of events", entry=entry, field=key, node=node, key=key)
        return []
    out = []
    for j, item in enumerate(raw):
        if isinstance(item, str):
            out.append(EventSpec(item.strip()))
            continue
        if not isinstance(item, dict):
            c.problem(f"item {j + 1}: expected an event kind or a mapping", entry=entry,
                      field=key, node=raw, key=j)
            continue
        fields: dict[str, Any] = {}
        try:
            for k, v in item.items():
                if not isinstance(k, str):
                    raise _Bad(f"an event field name must be text, got {k!r}")
                if k in ("kind", "text"):
                    continue
                if k in _HEX_EVENT_FIELDS:
                    fields[k] = _hex(v)
                elif k == "path":
                    fields[k] = [_hex(x) for x in v]
                else:
                    fields[k] = v
        except (_Bad, TypeError) as exc:
            c.problem(f"item {j + 1}: {exc}", entry=entry, field=key, node=raw, key=j)
            continue
        kind = item.get("kind")
        out.append(EventSpec(str(kind) if kind is not None else None, fields,
                             str(item["text"]) if "text" in item else None))
    return out

