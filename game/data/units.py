"""Unit stat cards: load and validate ``units/cards/*.yaml`` (rulebook: How to Read a Stat Card).

A card file is a mapping with one key, ``cards``, holding a list of cards::

    cards:
      - name: M4A1 Sherman
        nationality: United States      # Germany, Italy, Japan, United States,
                                        # United Kingdom, Soviet Union, France
        cost: 21                        # points (see units/README.md: cost policy)
        year: 1942                      # year it became generally available
        type: Vehicle                   # Soldier or Vehicle
        subtype: Tank                   # optional: Tank, Artillery, Commander, ...
        speed: 4                        # 0-10 (0 only with Relocate)
        defense: {front: 5, rear: 4}    # or one number (always one number for Soldiers)
        vs_soldier: [9, 9, 7]           # attack dice at short / medium / long range,
        vs_vehicle: [13, 11, 9]         # "-" where the card prints a dash
        abilities:                      # ids from game.rules.ability_catalog
          - extended_range: 10          # id: parameter
          - sideskirts                  # id alone (no parameter)
          - {id: coordinated_fire, name: Stars & Stripes}   # printed name differs
        commander: 2                    # commander initiative bonus (commanders only)
        set: Base Set
        number: 18/48                   # collector number
        rarity: Common                  # Common, Uncommon, Rare
        flavor: "..."                   # flavour text
        notes: "..."                    # sources and Hexfront's decisions

Every problem in every file is collected and raised at once as a
:class:`DataError` naming the file, the line, the card and the field.

API: :func:`load_roster` (cached) and :func:`card`.  ``python -m game.data.units``
(or ``python -m game.roster``) prints the roster as a table.
"""
from __future__ import annotations

import argparse
import difflib
import sys
import unicodedata
from pathlib import Path
from typing import Any, Iterable, Sequence

from game.data.bounded import short
from game.data.yamlio import Checker, int_in, one_of, read_yaml, text
from game.rules.ability_catalog import CATALOG, display_name, make_ability
from game.rules.abilities.spec import PENDING, lookup, printed_types
from game.rules.abilities.spec import spec as ability_spec
from game.rules.cards import AIRCRAFT, BANDS, NATIONS, SOLDIER, VEHICLE, Ability, UnitCard, slug
from game.rules.errors import DataError

__all__ = ["CARDS_DIR", "LATER_SETS", "SUBTYPES", "RARITIES", "load_roster", "load_card_file", "card",
           "find_card", "fold_name", "parse_card", "clear_cache", "UnknownCardError", "filter_cards", "nation_from_text",
           "format_table", "roster_markdown", "abilities_markdown", "main"]

ROOT = Path(__file__).resolve().parent.parent.parent
CARDS_DIR = ROOT / "units" / "cards"
#: the set name of the later sets' cards (tools/roster_import.py: which set printed each
#: is not in the facts); every other card is one of the 47 Hexfront shipped first
LATER_SETS = "Later set (unknown)"
#: later edition only (Aircraft, Antiair units): read with ``load_roster(edition="later")``
LATER_CARDS_DIR = CARDS_DIR / "later"

#: Subtypes a card may print, per type (a typo in a card file is an error).
SUBTYPES: dict[str, tuple[str, ...]] = {
    SOLDIER: ("Artillery", "Commander", "Cavalry", "Bicycle", "Motorcycle", "Hero",
              "Hero Commander", "Paratrooper", "Paratrooper Commander", "Sniper", "Spotter",
              "Support"),
    VEHICLE: ("Tank", "Tank Destroyer", "Assault Gun", "Armored Car", "Half-Track",
              "Tank Commander", "Car", "Artillery", "Spotter", "Boat"),
    AIRCRAFT: ("Fighter", "Fighter-Bomber", "Bomber", "Jet"),     # later edition only
}
RARITIES = ("Common", "Uncommon", "Rare")
CARD_FIELDS = ("name", "nationality", "cost", "year", "type", "subtype", "speed", "defense",
               "vs_soldier", "vs_vehicle", "abilities", "commander", "set", "number",
               "rarity", "flavor", "notes")
DASH = ("-", "–", "—")

#: Limits that keep loading fast (the shipped roster: 21 files, 230 KiB, 373 cards); a card
#: file at the limit (about 300 cards) loads in well under a second.
MAX_CARD_FILE_BYTES = 160 * 1024
MAX_ROSTER_BYTES = 512 * 1024
#: abilities that let a card print speed 0 (it moves by them, or not at all)
STANDS_STILL = ("relocate", "heavy_rifle", "dug_in")
MAX_CARD_FILES = 64

_cache: dict[str, dict[str, UnitCard]] = {}


class UnknownCardError(DataError, KeyError):
    """No card of that name in the roster (a DataError and a KeyError)."""

    def __str__(self) -> str:           # KeyError would quote the message
        return self._format()


# --- loading -------------------------------------------------------------------------
def clear_cache() -> None:
    _cache.clear()


def load_roster(folder: str | Path | None = None, *, reload: bool = False,
                edition: str = "first") -> dict[str, UnitCard]:
    """Every card in ``folder`` (default ``units/cards``), by name, in file order.
    ``edition="later"`` with the default folder adds the later edition's own cards
    (``units/cards/later``: Aircraft and Antiair units).

    Cached per folder; ``reload=True`` reads the files again.  Raises
    :class:`DataError` listing every problem of every file."""
    if edition == "later" and folder is None:
        both = load_roster(reload=reload)
        both.update(load_roster(LATER_CARDS_DIR, reload=reload))
        return both
    path = Path(folder) if folder is not None else CARDS_DIR
    key = str(path.resolve())
    if reload or key not in _cache:
        _cache[key] = _load_folder(path)
    return dict(_cache[key])


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def _load_folder(path: Path) -> dict[str, UnitCard]:
    name = _display(path)
    if not path.exists():
        raise DataError(name, "folder not found")
    if not path.is_dir():
        raise DataError(name, "is a file, not a folder of card files")
    files = sorted(p for p in path.iterdir() if p.suffix in (".yaml", ".yml") and p.is_file())
    if not files:
        raise DataError(name, "no card files (*.yaml) in this folder")
    total = 0
    for f in files:
        try:
            total += f.stat().st_size
        except OSError:
            continue
    if len(files) > MAX_CARD_FILES or total > MAX_ROSTER_BYTES:
        raise DataError(name, f"{len(files)} card files of {total // 1024:,} KiB in all: more than "
                              f"the {MAX_CARD_FILES} files and {MAX_ROSTER_BYTES // 1024} KiB a "
                              f"roster may have (the shipped one is 21 files, 230 KiB)")
    roster: dict[str, UnitCard] = {}
    where: dict[str, str] = {}
    by_id: dict[str, str] = {}
    problems: list[DataError] = []
    for f in files:
        try:
            cards = load_card_file(f)
        except DataError as exc:
            problems.extend(exc.problems or [exc])
            continue
        for c in cards:
            if c.name in roster:
                problems.append(DataError(_display(f), f"a card of this name is already in "
                                          f"{where[c.name]}", entry=c.name, field="name"))
                continue
            if c.id in by_id:
                problems.append(DataError(_display(f), f"its id '{c.id}' is the same as that of "
                                          f"'{by_id[c.id]}'", entry=c.name, field="name"))
                continue
            roster[c.name] = c
            where[c.name] = _display(f)
            by_id[c.id] = c.name
    if problems:
        first = problems[0]
        raise DataError(first.file, first.detail, entry=first.entry, field=first.field,
                        line=first.line, problems=problems)
    return roster


def load_card_file(path: str | Path) -> list[UnitCard]:
    """Read and validate one card file; every problem in it raised at once."""
    p = Path(path)
    display = _display(p)
    data = read_yaml(p, display=display, max_bytes=MAX_CARD_FILE_BYTES)
    c = Checker(display)
    c.unknown_keys(data, ("cards",))
    items = data.get("cards")
    if not isinstance(items, list):
        c.problem("expected a list of cards under 'cards:'", field="cards", node=data,
                  key="cards" if "cards" in data else None)
        c.done()
        return []
    cards: list[UnitCard] = []
    seen: set[str] = set()
    for i, node in enumerate(items):
        result = _card(c, node, i, items)
        if result is None:
            continue
        if result.name in seen:
            c.problem("this card appears twice in the file", entry=result.name, field="name",
                      node=node, key="name")
            continue
        seen.add(result.name)
        cards.append(result)
    c.done()
    return cards


def _card(c: Checker, node: Any, index: int, items: list[Any]) -> UnitCard | None:
    if not isinstance(node, dict):
        c.problem(f"card #{index + 1}: expected a mapping of fields", node=items, key=index)
        return None
    before = len(c.problems)
    name = c.field(node, "name", text(60), entry=f"card #{index + 1}")
    entry = name or f"card #{index + 1}"
    c.unknown_keys(node, CARD_FIELDS, entry=entry)
    nationality = c.field(node, "nationality", _nation, entry=entry)
    cost = c.field(node, "cost", int_in(1, 150), entry=entry)
    year = c.field(node, "year", int_in(1930, 1945), entry=entry)
    utype = c.field(node, "type", one_of(SOLDIER, VEHICLE, AIRCRAFT), entry=entry)
    subtype = None
    if node.get("subtype") is not None and utype is not None:
        subtype = c.field(node, "subtype", one_of(*SUBTYPES[utype]), entry=entry,
                          required=False)
    if utype == AIRCRAFT:       # later edition: the card prints "A" where the speed goes
        speed = c.field(node, "speed", _aircraft_speed, entry=entry)
    else:
        speed = c.field(node, "speed", int_in(0, 10), entry=entry)
    front, rear = _defense(c, node, entry, utype)
    attack = {SOLDIER: _attack(c, node, "vs_soldier", entry),
              VEHICLE: _attack(c, node, "vs_vehicle", entry)}
    abilities = _abilities(c, node, entry, utype)
    def optional(key: str, check: Any, default: Any = None) -> Any:
        if node.get(key) is None:          # absent or written as null
            return default
        return c.field(node, key, check, entry=entry, required=False, default=default)

    commander = optional("commander", int_in(0, 5))
    set_name = optional("set", text(60), "Base Set")
    number = optional("number", _collector_number)
    rarity = optional("rarity", one_of(*RARITIES))
    flavor = optional("flavor", text(400), "")
    notes = optional("notes", text(800), "")

    # cross-field rules
    ids = {a.id for a in abilities}
    # later edition: emplaced Antiair guns (88mm Flak 36, 85mm AA Gun...) print speed 0
    # and no Relocate: they never move (units_facts_aircraft.yaml, S1)
    if speed == 0 and not ids & set(STANDS_STILL) and "speed" in node and utype != AIRCRAFT \
            and "antiair" not in ids:
        c.problem("speed 0 needs the Relocate ability (or Heavy Rifle, Dug In: otherwise "
                  "the unit can never move)",
                  entry=entry, field="speed", node=node, key="speed")
    if speed and "relocate" in ids:
        c.problem(f"a unit with Relocate prints speed 0, got {speed}", entry=entry,
                  field="speed", node=node, key="speed")
    is_cmd_subtype = subtype is not None and "Commander" in subtype
    if commander is not None and subtype is not None and not is_cmd_subtype:
        c.problem(f"only commanders have an initiative bonus, and the subtype is '{subtype}'",
                  entry=entry, field="commander", node=node, key="commander")
    if commander is not None and subtype is None and utype is not None:
        c.problem("only commanders have an initiative bonus: set subtype Commander",
                  entry=entry, field="commander", node=node, key="commander")
    if is_cmd_subtype and commander is None:
        c.problem("a commander needs its initiative bonus (commander: N)", entry=entry,
                  field="commander", node=node, key="subtype")
    carries = any("transport" in i for i in ids)      # an unarmed truck or jeep
    if not carries and all(t is not None and all(v is None for v in t.values())
                           for t in attack.values()):
        c.problem("the card can't attack at all (every attack value is a dash)",
                  entry=entry, field="vs_soldier", node=node, key="vs_soldier")
    if len(c.problems) > before or None in (name, nationality, cost, year, utype, speed,
                                            front, rear) or None in attack.values():
        return None
    assert front is not None and rear is not None
    attacks = {k: v for k, v in attack.items() if v is not None}
    return UnitCard(name=name, nationality=nationality, cost=cost, year=year, type=utype,
                    subtype=subtype, speed=speed, defense_front=front, defense_rear=rear,
                    attack=attacks, abilities=tuple(abilities), commander_bonus=commander,
                    set_name=set_name, collector_number=number, rarity=rarity,
                    flavor=flavor, notes=notes)


_NATION_ALIASES = {
    "germany": "Germany", "german": "Germany",
    "italy": "Italy", "italian": "Italy",
    "japan": "Japan", "japanese": "Japan",
    "united states": "United States", "us": "United States", "usa": "United States",
    "american": "United States",
    "united kingdom": "United Kingdom", "uk": "United Kingdom", "britain": "United Kingdom",
    "british": "United Kingdom", "gb": "United Kingdom",
    "soviet union": "Soviet Union", "soviet": "Soviet Union", "ussr": "Soviet Union",
    "france": "France", "french": "France",
}


def _aircraft_speed(v: Any) -> int:
    if v != "A":
        raise ValueError(f'an Aircraft card prints "A" for its speed, got {v!r}')
    return 0


def nation_from_text(value: str) -> str | None:
    """A nationality from a loose spelling ("US", "soviet", "Ger"), or None."""
    s = value.strip().lower()
    if s in _NATION_ALIASES:
        return _NATION_ALIASES[s]
    matches = {n for n in NATIONS if n.lower().startswith(s)} if s else set()
    return matches.pop() if len(matches) == 1 else None


def _nation(v: Any) -> str:
    if isinstance(v, str):
        for n in NATIONS:
            if v.strip() == n:
                return n
    raise ValueError(f"expected one of {', '.join(NATIONS)}, got {short(v)}")


def _collector_number(v: Any) -> str:
    if not isinstance(v, str):
        raise ValueError(f"expected a collector number like 18/48, got {short(v)}")
    s = v.strip()
    parts = s.split("/")
    if len(parts) != 2 or not all(p.isdigit() for p in parts) or int(parts[0]) < 1 \
            or int(parts[0]) > int(parts[1]):
        raise ValueError(f"expected a collector number like 18/48, got {short(v)}")
    return s


def _defense(c: Checker, node: dict[str, Any], entry: str, utype: str | None) -> tuple[int | None, int | None]:
    if "defense" not in node or node["defense"] is None:
        c.problem("is missing", entry=entry, field="defense", node=node)
        return None, None
    v = node["defense"]
    check = int_in(1, 12)
    if isinstance(v, dict):
        c.unknown_keys(v, ("front", "rear"), entry=entry)
        front = c.field(v, "front", check, entry=entry, label="defense.front")
        rear = c.field(v, "rear", check, entry=entry, label="defense.rear")
        if utype == SOLDIER and front is not None and rear is not None:
            c.problem("Soldiers have one defense number, not front/rear", entry=entry,
                      field="defense", node=node, key="defense")
            return None, None
        if front is not None and rear is not None and rear > front:
            c.problem(f"rear defense {rear} is higher than front defense {front}",
                      entry=entry, field="defense", node=node, key="defense")
            return None, None
        return front, rear
    try:
        d = check(v)
    except ValueError as exc:
        c.problem(f"{exc} (or front/rear for a Vehicle)", entry=entry, field="defense",
                  node=node, key="defense")
        return None, None
    return d, d


def _attack(c: Checker, node: dict[str, Any], key: str, entry: str) -> dict[str, int | None] | None:
    if key not in node:
        c.problem("is missing (three values: short, medium, long; '-' for a dash)",
                  entry=entry, field=key, node=node)
        return None
    v = node[key]
    if isinstance(v, dict):
        c.unknown_keys(v, BANDS, entry=entry)
        values = [v.get(b, "missing") for b in BANDS]
    elif isinstance(v, list):
        values = list(v)
    else:
        c.problem(f"expected three values [short, medium, long], got {short(v)}", entry=entry,
                  field=key, node=node, key=key)
        return None
    if len(values) != 3:
        c.problem(f"expected three values (short, medium, long), got {len(values)}",
                  entry=entry, field=key, node=node, key=key)
        return None
    out: dict[str, int | None] = {}
    for band, x in zip(BANDS, values):
        if x is None or (isinstance(x, str) and x.strip() in DASH):
            out[band] = None
        elif isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= 30:
            out[band] = x
        else:
            c.problem(f"{band} range: expected a number of dice 0-30 or '-', got {short(x)}",
                      entry=entry, field=key, node=node, key=key)
            return None
    return out


def _abilities(c: Checker, node: dict[str, Any], entry: str, utype: str | None) -> list[Ability]:
    raw = node.get("abilities")
    if raw is None:
        return []
    if not isinstance(raw, list):
        c.problem("expected a list of abilities", entry=entry, field="abilities", node=node,
                  key="abilities")
        return []
    out: list[Ability] = []
    for i, item in enumerate(raw):
        where = f"abilities[{i + 1}]"
        name_override = None
        if isinstance(item, str):
            aid, value = item.strip(), None
        elif isinstance(item, dict) and "id" in item:
            extra = set(item) - {"id", "value", "name"}
            if extra:
                c.problem(f"unknown key(s) {', '.join(sorted(map(str, extra)))} "
                          f"(known: id, value, name)", entry=entry, field=where,
                          node=raw, key=i)
                continue
            if not isinstance(item["id"], str):
                c.problem(f"id: expected an ability id, got {short(item['id'])}", entry=entry,
                          field=where, node=raw, key=i)
                continue
            aid, value, name_override = item["id"].strip(), item.get("value"), item.get("name")
            if name_override is not None and (not isinstance(name_override, str)
                                              or not name_override.strip()):
                c.problem("name: expected the printed ability name as text", entry=entry,
                          field=where, node=raw, key=i)
                continue
        elif isinstance(item, dict) and len(item) == 1:
            aid, value = next(iter(item.items()))
            if not isinstance(aid, str):
                c.problem(f"expected an ability id, got {short(aid)}", entry=entry, field=where,
                          node=raw, key=i)
                continue
            aid = aid.strip()
        else:
            c.problem("expected an ability id, 'id: value', or {id: ..., value: ..., name: ...}",
                      entry=entry, field=where, node=raw, key=i)
            continue
        spec = lookup(aid)
        if spec is None:
            known = list(CATALOG) + list(PENDING)
            close = difflib.get_close_matches(aid, known, n=1) if len(aid) <= 60 else []
            hint = f"; did you mean '{close[0]}'?" if close else ""
            c.problem(f"unknown ability id {short(aid)}{hint} (the known ids are in "
                      f"game/rules/abilities/: spec.py explains)", entry=entry, field=where,
                      node=raw, key=i)
            continue
        if spec.takes_value:
            lo, hi = spec.value_range or (1, 30)
            if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
                c.problem(f"{display_name(aid, 'N')} needs a whole number {lo}-{hi}, "
                          f"got {short(value)}", entry=entry, field=where, node=raw, key=i)
                continue
        elif value is not None:
            c.problem(f"{spec.name} takes no value, got {short(value)}", entry=entry, field=where,
                      node=raw, key=i)
            continue
        types = printed_types(aid)
        if types and utype and utype not in types:
            c.problem(f"{spec.name.replace(' {n}', '')} is an ability of "
                      f"{' and '.join(t + 's' for t in types)} only, "
                      f"and this card is a {utype}", entry=entry, field=where, node=raw, key=i)
            continue
        if any(a.id == aid for a in out):
            c.problem(f"'{aid}' is listed twice", entry=entry, field=where, node=raw, key=i)
            continue
        out.append(make_ability(aid, value, name=name_override.strip() if name_override else None))
    return out


# --- lookup --------------------------------------------------------------------------
def _fold(name: str) -> str:
    """Lower case, accents dropped, punctuation runs as '-': 'SS-Hauptsturmfuhrer'
    finds 'SS-Hauptsturmführer', 'pak 38 antitank gun' finds 'PAK 38 Antitank Gun'."""
    plain = "".join(ch for ch in unicodedata.normalize("NFKD", name)
                    if not unicodedata.combining(ch))
    return slug(plain)


fold_name = _fold          # public: the army builder's search folds names the same way


def find_card(name: str, folder: str | Path | None = None) -> UnitCard | None:
    """The card called ``name`` (exact, then ignoring case, accents and punctuation), or None.
    The default folder includes the later edition's cards (a later battle's saves name them)."""
    roster = load_roster(folder, edition="later" if folder is None and LATER_CARDS_DIR.is_dir()
                         else "first")
    if name in roster:
        return roster[name]
    wanted = _fold(name)
    for c in roster.values():
        if _fold(c.name) == wanted:
            return c
    return None


def parse_card(checker: Checker, node: Any, index: int = 0,
               items: list[Any] | None = None) -> UnitCard | None:
    """Validate one card mapping (an inline card in a situation file, say) with
    the roster's rules; problems go to ``checker``, None when there were any."""
    return _card(checker, node, index, items if items is not None else [node])


def card(name: str, folder: str | Path | None = None) -> UnitCard:
    """The roster card called ``name``; :class:`UnknownCardError` (with a suggestion) if none."""
    found = find_card(name, folder)
    if found is not None:
        return found
    raise UnknownCardError(_display(Path(folder) if folder else CARDS_DIR),
                           unknown_card_message(name, load_roster(folder)))


def unknown_card_message(name: str, roster: dict[str, UnitCard]) -> str:
    if not isinstance(name, str) or len(name) > 80:
        return f"no unit card named {short(name)}"
    close = difflib.get_close_matches(name, list(roster), n=2, cutoff=0.5)
    if not close:
        low = {n.lower(): n for n in roster}
        close = [low[m] for m in difflib.get_close_matches(name.lower(), list(low), n=2,
                                                           cutoff=0.5)]
    hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    return f"no unit card named '{name}'{hint}"


__all__ += ["unknown_card_message"]


# --- listing ---------------------------------------------------------------------------
def filter_cards(cards: Iterable[UnitCard], *, nation: str | None = None,
                 type: str | None = None, year: int | None = None,
                 side: str | None = None, edition: str | None = None) -> list[UnitCard]:
    """Cards of a nationality (loose spelling), a type or subtype ("Vehicle",
    "Tank", "Artillery"), available by ``year``, of a side ("Axis"/"Allies"),
    playable in a battle of ``edition``."""
    from game.rules.army import is_playable
    want_nation = None
    if nation:
        want_nation = nation_from_text(nation)
        if want_nation is None:
            raise ValueError(f"unknown nationality '{nation}' (choose from {', '.join(NATIONS)})")
    out = []
    for c in cards:
        if want_nation and c.nationality != want_nation:
            continue
        if type and type.lower() not in (c.type.lower(), (c.subtype or "").lower()):
            continue
        if year is not None and c.year > year:
            continue
        if side and c.side.lower() != side.lower():
            continue
        if edition and not is_playable(c, edition):
            continue
        out.append(c)
    return out


def _dice(c: UnitCard, t: str) -> str:
    return "-".join("–" if c.dice(t, b) is None else str(c.dice(t, b)) for b in BANDS)


def editions_text(c: UnitCard) -> str:
    """Which battles a card can be chosen for: "both", "later", "not yet"."""
    from game.rules.army import playable_editions
    e = playable_editions(c)
    return "both" if len(e) == 2 else (e[0] if e else "not yet")


def _row(c: UnitCard) -> list[str]:
    return [c.name, c.nationality, c.side, str(c.cost), str(c.year), c.type_line,
            str(c.speed), c.defense_text(), _dice(c, SOLDIER), _dice(c, VEHICLE),
            "" if c.commander_bonus is None else f"+{c.commander_bonus}",
            editions_text(c), ", ".join(a.name for a in c.abilities)]


_HEAD = ["Name", "Nation", "Side", "Cost", "Year", "Type", "Spd", "Def", "vs Soldier",
         "vs Vehicle", "Cmd", "Play", "Abilities"]


def format_table(cards: Sequence[UnitCard]) -> str:
    """A plain-text table, one card per line."""
    rows = [_HEAD] + [_row(c) for c in cards]
    widths = [max(len(r[i]) for r in rows) for i in range(len(_HEAD))]
    right = {3, 4, 6}
    lines = []
    for k, r in enumerate(rows):
        cells = [(x.rjust(w) if i in right else x.ljust(w)) for i, (x, w) in enumerate(zip(r, widths))]
        lines.append("  ".join(cells).rstrip())
        if k == 0:
            lines.append("  ".join("-" * w for w in widths))
    lines.append(f"{len(cards)} unit(s)")
    return "\n".join(lines)


def roster_markdown(cards: Sequence[UnitCard]) -> str:
    """The roster as a Markdown table (the README's roster section)."""
    out = ["| " + " | ".join(_HEAD) + " |", "|" + "---|" * len(_HEAD)]
    for c in cards:
        out.append("| " + " | ".join(x.replace("|", "/") for x in _row(c)) + " |")
    return "\n".join(out)


def abilities_markdown(cards: Sequence[UnitCard], include_unused: bool = False) -> str:
    """Every ability the cards use (or every catalog entry), with its rule text and
    the cards that carry it."""
    used: dict[str, list[tuple[UnitCard, Ability]]] = {}
    if include_unused:
        used = {aid: [] for aid in CATALOG}
    for c in cards:
        for a in c.abilities:
            used.setdefault(a.id, []).append((c, a))
    out = []
    for aid in sorted(used, key=lambda x: ability_spec(x).name.lower()):
        spec = ability_spec(aid)
        holders = used[aid]
        title = spec.name.replace("{n}", "N")
        printed = sorted({a.name for _, a in holders if a.name != display_name(aid, a.value)})
        also = f" (printed as {', '.join(printed)})" if printed else ""
        kind = " - commander ability" if spec.commander else ""
        if not spec.implemented:
            kind += " - not in Hexfront yet"
        out.append(f"- **{title}** (`{aid}`{kind}){also}: "
                   + spec.text.replace("{n}", "N").replace("Not in Hexfront yet. ", "")
                   + (" " + spec.not_in_first_edition if spec.not_in_first_edition else ""))
        out.append("  Cards: " + (", ".join(
            f"{c.name}" + (f" ({a.value})" if a.value is not None else "") for c, a in holders)
            or "none in the roster") + ".")
    return "\n".join(out)


README = ROOT / "units" / "README.md"


def readme_text(text: str, cards: Sequence[UnitCard]) -> str:
    """``text`` (units/README.md) with its generated parts current: the table of the
    Roster section and the list of the Abilities section."""
    def replace_block(text: str, heading: str, starts: str, new: str) -> str:
        head = text.index(heading)
        end = text.find("\n## ", head + len(heading))
        end = len(text) if end < 0 else end + 1
        section = text[head:end]
        lines = section.split("\n")
        first = next(i for i, ln in enumerate(lines) if ln.startswith(starts))
        last = first
        while last + 1 < len(lines) and lines[last + 1].strip() and not lines[last + 1].startswith("#"):
            last += 1
        lines[first:last + 1] = new.split("\n")
        return text[:head] + "\n".join(lines) + text[end:]

    text = replace_block(text, "## Roster\n", "| Name |", roster_markdown(cards))
    return replace_block(text, "## Abilities and their rule texts\n", "- **",
                         abilities_markdown(cards, include_unused=True))


def main(argv: Sequence[str] | None = None, *, prog: str = "python -m game.data.units") -> int:
    """Print the roster as a table; filters by nation, type, year, side."""
    ap = argparse.ArgumentParser(prog=prog, description="Print Hexfront's unit roster.")
    ap.add_argument("--nation", help="nationality, e.g. Germany, US, UK, Soviet")
    ap.add_argument("--type", help="Soldier, Vehicle or a subtype (Tank, Artillery, ...)")
    ap.add_argument("--year", type=int, help="only units available by this year")
    ap.add_argument("--side", choices=["Axis", "Allies"], help="only this side's units")
    ap.add_argument("--folder", help="card folder (default units/cards)")
    ap.add_argument("--markdown", action="store_true", help="Markdown table (for the README)")
    ap.add_argument("--abilities", action="store_true",
                    help="list the abilities the shown cards use, with their rule texts")
    ap.add_argument("--edition", choices=["first", "later"],
                    help="only the cards playable in a battle of this edition")
    ap.add_argument("--write-readme", action="store_true",
                    help="rewrite the generated roster table and ability list of units/README.md")
    args = ap.parse_args(argv)
    try:
        if args.write_readme:
            roster = load_roster()
            README.write_text(readme_text(README.read_text(encoding="utf-8"),
                                          list(roster.values())), encoding="utf-8")
            print(f"{_display(README)}: roster table and ability list rewritten")
            return 0
        # every card (the later edition's own ones too) unless a folder is named
        roster = load_roster(args.folder, edition="first" if args.folder else "later")
    except DataError as exc:
        print(exc.report(), file=sys.stderr)
        return 2
    try:
        cards = filter_cards(roster.values(), nation=args.nation, type=args.type,
                             year=args.year, side=args.side, edition=args.edition)
    except ValueError as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return 2
    if args.abilities:
        unfiltered = not (args.nation or args.type or args.year or args.side or args.edition)
        print(abilities_markdown(cards, include_unused=unfiltered))
    elif args.markdown:
        print(roster_markdown(cards))
    else:
        print(format_table(cards))
    return 0


if __name__ == "__main__":
    sys.exit(main())
