"""Army files: load and save ``units/armies/*.yaml`` (rulebook: Building an Army).

An army file names the army, its side and its units by card name; a card is
repeated by listing it again or with ``count``::

    name: Rulebook sample army
    side: Allies                 # Axis or Allies
    description: optional text
    units:
      - M4A1 Sherman
      - Bazooka
      - {name: M1 Garand Rifle, count: 2}

Loading checks the file's shape and that every name is a roster card (with a
"did you mean" hint); whether the army is *legal* (points, count, sides,
historical limits, year) is :func:`game.rules.army.validate_army`'s job.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from game.data.units import ROOT, find_card, load_roster, unknown_card_message
from game.data.bounded import short, write_text_atomic
from game.data.yamlio import Checker, int_in, one_of, read_yaml, text
from game.rules.army import Army, MAX_UNITS
from game.rules.cards import SIDES, UnitCard
from game.rules.errors import DataError

__all__ = ["ARMIES_DIR", "load_army", "parse_army", "save_army", "army_to_dict",
           "dump_army", "list_armies", "sample_army", "check_army", "MAX_ENTRIES"]

ARMIES_DIR = ROOT / "units" / "armies"
ARMY_FIELDS = ("name", "side", "description", "units")
MAX_COUNT = 30          # a single entry's count (the army limit itself is validate_army's)
MAX_ENTRIES = 500       # entries listed in one file before the cards are even looked up


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def load_army(path: str | Path, roster_folder: str | Path | None = None) -> Army:
    """Read one army file; :class:`DataError` lists every problem in it."""
    p = Path(path)
    data = read_yaml(p, display=_display(p))
    return parse_army(data, _display(p), roster_folder)


def parse_army(data: Any, file: str = "<army>", roster_folder: str | Path | None = None) -> Army:
    """Build an :class:`Army` from already-parsed YAML data (a mapping)."""
    c = Checker(file)
    if not isinstance(data, dict):
        c.problem("expected a mapping with name, side and units")
        c.done()
    roster = load_roster(roster_folder)
    name = c.field(data, "name", text(80))
    entry = name or "army"
    c.unknown_keys(data, ARMY_FIELDS, entry=entry)
    side = c.field(data, "side", one_of(*SIDES), entry=entry)
    description = c.field(data, "description", text(600), entry=entry, required=False,
                          default="")
    units = data.get("units")
    cards: list[UnitCard] = []
    if units is None:
        c.problem("is missing (a list of card names)", entry=entry, field="units", node=data)
    elif not isinstance(units, list):
        c.problem("expected a list of card names", entry=entry, field="units", node=data,
                  key="units")
    elif len(units) > MAX_ENTRIES:
        c.problem(f"{len(units):,} entries: far more than any army (at most "
                  f"{MAX_ENTRIES} entries are read; an army has at most {MAX_UNITS} units)",
                  entry=entry, field="units", node=data, key="units")
    else:
        for i, item in enumerate(units):
            where = f"units[{i + 1}]"
            count = 1
            if isinstance(item, str):
                card_name = item
            elif isinstance(item, dict):
                extra = set(item) - {"name", "count"}
                if extra:
                    c.problem(f"unknown key(s) {', '.join(sorted(map(str, extra)))} "
                              f"(known: name, count)", entry=entry, field=where, node=units, key=i)
                    continue
                named = item.get("name")
                if not isinstance(named, str) or not named.strip():
                    c.problem("needs the card's name (name: ...)", entry=entry, field=where,
                              node=units, key=i)
                    continue
                card_name = named
                try:
                    count = int_in(1, MAX_COUNT)(item.get("count", 1))
                except ValueError as exc:
                    c.problem(f"count: {exc}", entry=entry, field=where, node=units, key=i)
                    continue
            else:
                c.problem("expected a card name or {name: ..., count: N}", entry=entry,
                          field=where, node=units, key=i)
                continue
            found = find_card(card_name, roster_folder)
            if found is None:
                c.problem(unknown_card_message(card_name, roster), entry=entry, field=where,
                          node=units, key=i)
                continue
            cards.extend([found] * count)
    c.done()
    return Army(name=name, side=side, cards=cards, description=description or "")


def check_army(army: Army, file: str, *, scenario: str = "standard",
               role: str | None = None, options: dict[str, Any] | None = None,
               node: Any = None) -> None:
    """The same legality check the game makes before a battle (points, unit count,
    sides, and the historical / year options): DataError listing every problem.

    Used by ``python -m game.check`` so an army that can't play is an error there
    too (a Standard battle unless told otherwise)."""
    from game.rules.army import limits_for, validate_army
    c = Checker(file)
    limits = limits_for(scenario, role, options)
    label = {"standard": "a Standard battle", "assault": f"an Assault battle ({role})"}.get(
        scenario, scenario)
    for p in validate_army(army, **limits):
        fld = "side" if " unit: only " in p else "units"
        c.problem(f"can't play in {label}: {p}", entry=army.name or "army", field=fld,
                  node=node, key=fld if isinstance(node, dict) and fld in node else None)
    c.done()


def army_to_dict(army: Army) -> dict[str, Any]:
    """The file form: runs of the same card become ``{name, count}``."""
    units: list[Any] = []
    for card in army.cards:
        last = units[-1] if units else None
        last_name = last if isinstance(last, str) else (last or {}).get("name")
        if last_name == card.name:
            if isinstance(last, str):
                units[-1] = {"name": card.name, "count": 2}
            elif isinstance(last, dict):
                last["count"] += 1
        else:
            units.append(card.name)
    out: dict[str, Any] = {"name": army.name, "side": army.side}
    if army.description:
        out["description"] = army.description
    out["units"] = units
    return out


def dump_army(army: Army) -> str:
    """YAML text of an army, with a header comment giving its points and size."""
    head = (f"# Hexfront army: {army.points} points, {army.size} unit(s) "
            f"(limits: 100 points / {MAX_UNITS} units in a Standard battle)\n")
    return head + yaml.safe_dump(army_to_dict(army), sort_keys=False, allow_unicode=True,
                                 width=100)


def save_army(army: Army, path: str | Path) -> Path:
    """Write ``army`` to ``path`` (folders created); returns the path."""
    p = Path(path)
    if army.side not in SIDES:
        raise DataError(_display(p), f"side '{army.side}' is neither Axis nor Allies",
                        entry=army.name, field="side")
    if not army.name.strip():
        raise DataError(_display(p), "the army needs a name", field="name")
    return write_text_atomic(p, dump_army(army))


def list_armies(side: str | None = None, folder: str | Path | None = None) -> list[tuple[Path, Army]]:
    """The army files in ``folder`` (default ``units/armies``), optionally one side's."""
    d = Path(folder) if folder is not None else ARMIES_DIR
    out = []
    for p in sorted(d.glob("*.yaml")):
        army = load_army(p)
        if side is None or army.side == side:
            out.append((p, army))
    return out


def sample_army(side: str) -> Army:
    """The shipped sample army of a side (the rulebook's for the Allies)."""
    if side not in SIDES:
        raise ValueError(f"side must be Axis or Allies, got {short(side)}")
    return load_army(ARMIES_DIR / ("sample_allies.yaml" if side == "Allies" else "sample_axis.yaml"))
