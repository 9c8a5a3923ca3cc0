"""Write the later sets' cards and the catalogue of not-yet-implemented abilities from
the gathered facts (a one-off import; the committed YAML and module are the source).

    python tools/roster_import.py [--facts ../shared/data] [--check]

- ``units/cards/<nation>.yaml``: every ground unit of ``units_facts_full.yaml`` except
  the Antiair ones (``units/cards/later/antiair.yaml`` holds those), the three neutral
  Soldier Support rows (no nationality) and a row that repeats a Base Set card.  The
  cards go after a marker line at the end of an existing nation's file (the Base Set
  cards above it are left exactly as they are); new nations get new files.
- ``game/rules/abilities/not_yet.py``: one pending spec per ability id the cards carry
  that the rules' catalogue doesn't implement.
Re-running replaces only what it wrote before.  ``--check``: write nothing, exit 1 if
a file would change.
"""
from __future__ import annotations

import argparse
import re
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from game.rules.ability_catalog import CATALOG  # noqa: E402
from game.rules.abilities.spec import lookup  # noqa: E402
from game.rules.cards import NATIONS, side_of, slug  # noqa: E402

MARKER = "# --- later sets (written by tools/roster_import.py from shared/data/units_facts_full.yaml) ---"
NATION = {"USA": "United States", "UK": "United Kingdom", "USSR": "Soviet Union"}
SET_NAME = "Later set (unknown)"
ADJ = {"Germany": "German", "Italy": "Italian", "Japan": "Japanese", "United States": "US",
       "United Kingdom": "British", "Soviet Union": "Soviet", "France": "French",
       "Romania": "Romanian", "Hungary": "Hungarian", "Finland": "Finnish",
       "Slovakia": "Slovak", "Croatia": "Croatian", "Poland": "Polish", "Canada": "Canadian",
       "Australia": "Australian", "Belgium": "Belgian", "China": "Chinese",
       "Greece": "Greek", "New Zealand": "New Zealand", "South Africa": "South African",
       "Yugoslavia": "Yugoslav"}


NUMBERS = ("year", "type", "subtype", "cost", "speed", "defense", "attack_vs_soldier",
           "attack_vs_vehicle", "special_abilities", "commander_initiative")
#: rows left out because another row of the same unit disagrees and looks right
CONFLICTING = {"SdKfz 2 Motorcycle Half-Track": "the same unit as 'Sd Kfz 2 Motorcycle "
               "Half-Track' with speed 1 instead of 4 (speed 1 looks wrong; the speed-4 row "
               "is kept)"}


def q(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def ability_index(afacts: list[dict[str, Any]]) -> dict[str, str]:
    out = {a["card_name"].lower(): a["id"] for a in afacts}
    for s in CATALOG.values():
        out[s.name.replace(" {n}", "").lower()] = s.id
    return out


def parse_ability(name: str, index: dict[str, str]) -> tuple[str, int | None]:
    m = re.match(r"^(.*?)\s+(\d+)$", name)
    if m and m.group(1).lower() in index:
        return index[m.group(1).lower()], int(m.group(2))
    if name.lower() in index:
        return index[name.lower()], int(m.group(2)) if m else None
    raise SystemExit(f"unknown ability name {name!r}")


def dice(v: dict[str, Any]) -> str:
    return "[" + ", ".join('"-"' if v[b] in ("-", None) else str(v[b])
                           for b in ("short", "medium", "long")) + "]"


def card_yaml(u: dict[str, Any], name: str, nation: str, index: dict[str, str],
              extra_note: str) -> list[str]:
    out = [f"  - name: {q(name)}", f"    nationality: {nation}", f"    cost: {u['cost']}",
           f"    year: {u['year']}", f"    type: {u['type']}"]
    subtype = u.get("subtype")
    if subtype and "Commander" in subtype and u.get("commander_initiative") is None:
        # a commander prints its initiative bonus; a row without one is read as no commander
        subtype = subtype.replace("Commander", "").strip() or None
        extra_note = (extra_note + " Hexfront reads it as no commander: the row gives "
                      "no initiative bonus.").strip()
    if subtype:
        out.append(f"    subtype: {subtype}")
    out.append(f"    speed: {u['speed']}")
    d = u["defense"]
    if u["type"] == "Soldier":
        assert d["front"] == d["rear"], name
        out.append(f"    defense: {d['front']}")
    else:
        out.append(f"    defense: {{front: {d['front']}, rear: {d['rear']}}}")
    out.append(f"    vs_soldier: {dice(u['attack_vs_soldier'])}")
    out.append(f"    vs_vehicle: {dice(u['attack_vs_vehicle'])}")
    abil = u.get("special_abilities") or []
    if abil:
        out.append("    abilities:")
        for a in abil:
            aid, val = parse_ability(a, index)
            printed = a
            spec = lookup(aid)
            natural = (spec.name.replace("{n}", str(val)).strip() if spec else None)
            if spec is not None and natural == printed:
                out.append(f"      - {aid}" + (f": {val}" if val is not None else ""))
            else:
                parts = [f"id: {aid}"] + ([f"value: {val}"] if val is not None else []) \
                    + [f"name: {q(printed)}"]
                out.append("      - {" + ", ".join(parts) + "}")
    if u.get("commander_initiative") is not None:
        out.append(f"    commander: {u['commander_initiative']}")
    out.append(f"    set: {q(SET_NAME)}")
    note = (u.get("notes") or "").strip()
    src = ", ".join(u.get("source") or ["S1"])
    tail = f"Source {src} (Unit_Stats.csv of najusten/axis-allies-agent); confidence {u['confidence']}."
    text = " ".join(x for x in (extra_note, note, tail) if x)
    out.append(f"    notes: {q(text)}")
    return out


def pending_module(units: list[dict[str, Any]], afacts: list[dict[str, Any]],
                   index: dict[str, str]) -> str:
    by_id = {}
    for a in afacts:
        by_id.setdefault(a["id"], a)
    types: dict[str, set[str]] = defaultdict(set)
    valued: dict[str, set[int | None]] = defaultdict(set)
    for u in units:
        for a in u.get("special_abilities") or []:
            aid, val = parse_ability(a, index)
            types[aid].add(u["type"])
            valued[aid].add(val)
    lines = ['"""Abilities printed on the later sets\' cards that Hexfront does not implement yet',
             "(written by tools/roster_import.py from shared/data/abilities_facts_full.yaml).",
             "",
             "Each is known by name so its cards load; a card carrying one is refused in every",
             "battle with the reason (``game.rules.army.card_refusal``).  The description is what",
             "the card does, paraphrased, for the roster listing and the army builder; it is",
             "not a rule Hexfront plays.  Implementing one means defining its real spec in an",
             "ability module (``define``), which shadows the entry here.",
             '"""',
             "from __future__ import annotations",
             "",
             "from .spec import AbilitySpec",
             "",
             "_NOT_YET = \"Not in Hexfront yet. \"",
             "",
             "PENDING_SPECS: tuple[AbilitySpec, ...] = ("]
    for aid in sorted(types):
        if aid in CATALOG:
            continue
        f = by_id[aid]
        base = re.sub(r"\s+\d+$", "", f["card_name"]).strip()
        takes = any(v is not None for v in valued[aid])
        name = base + (" {n}" if takes else "")
        text = f["summary"].strip()
        if f.get("first_edition"):
            text += " (" + f["first_edition"].strip().rstrip(".") + ".)"
        utype = next(iter(types[aid])) if len(types[aid]) == 1 else None
        args = [repr(aid), repr(name), repr(takes), "_NOT_YET + " + repr(text)]
        if takes:
            args.append("value_range=(1, 30)")
        if utype:
            args.append(f"unit_type={utype!r}")
        args.append("implemented=False")
        lines.append("    AbilitySpec(" + ", ".join(args) + "),")
    lines.append(")")
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--facts", default=str(ROOT.parent / "shared" / "data"))
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    facts = Path(args.facts)
    units = yaml.safe_load((facts / "units_facts_full.yaml").read_text(encoding="utf-8"))
    afacts = yaml.safe_load((facts / "abilities_facts_full.yaml").read_text(encoding="utf-8"))["abilities"]
    index = ability_index(afacts)
    cards_dir = ROOT / "units" / "cards"
    base = {}
    for f in sorted(cards_dir.glob("*.yaml")):
        text = f.read_text(encoding="utf-8").split(MARKER)[0]
        for c in (yaml.safe_load(text) or {}).get("cards") or []:
            base[c["name"]] = c
    later = set()
    for f in sorted((cards_dir / "later").glob("*.yaml")):
        for c in (yaml.safe_load(f.read_text(encoding="utf-8")) or {}).get("cards") or []:
            later.add(c["name"])
    per_nation: dict[str, list[list[str]]] = defaultdict(list)
    skipped: list[str] = []
    names: set[str] = set(base) | later
    ids = {slug(n) for n in names}
    kept = []
    kept_by_slug: dict[str, dict[str, Any]] = {}
    for u in units:
        abil = u.get("special_abilities") or []
        if "Antiair" in abil:
            skipped.append(f"{u['name']}: Antiair (units/cards/later/antiair.yaml)")
            continue
        if u.get("nationality") is None:
            skipped.append(f"{u['name']}: no nationality (neutral Soldier Support)")
            continue
        nation = NATION.get(u["nationality"], u["nationality"])
        assert nation in NATIONS, nation
        name, extra = u["name"], ""
        if name in base and base[name]["nationality"] == nation:
            skipped.append(f"{name}: the Base Set card of that name")
            continue
        same = kept_by_slug.get(slug(name))
        if same is not None and same["nationality"] == u["nationality"] and \
                all(same[k] == u[k] for k in NUMBERS):
            skipped.append(f"{name}: a second row of '{same['name']}' (same numbers)")
            continue
        if name in CONFLICTING:
            skipped.append(f"{name}: {CONFLICTING[name]}")
            continue
        if name in names or slug(name) in ids:
            name = f"{u['name']} ({ADJ[nation]})"
            extra = f"Printed as '{u['name']}'; Hexfront adds the nationality to tell the cards apart."
        names.add(name)
        ids.add(slug(name))
        kept_by_slug.setdefault(slug(u["name"]), u)
        kept.append(u)
        per_nation[nation].append(card_yaml(u, name, nation, index, extra))
    changed = []
    for nation, cards in per_nation.items():
        path = cards_dir / (slug(nation).replace("-", "_") + ".yaml")
        body = "\n\n".join("\n".join(c) for c in cards) + "\n"
        if path.exists():
            head = path.read_text(encoding="utf-8").split(MARKER)[0].rstrip("\n") + "\n\n"
        else:
            head = (f"# Hexfront unit cards - {nation} ({side_of(nation)}).\n"
                    "# Cost policy, nations and every decision on unknown or conflicting facts:"
                    " units/README.md.\ncards:\n")
        new = head + MARKER + "\n" + body
        if not path.exists() or path.read_text(encoding="utf-8") != new:
            changed.append(path)
            if not args.check:
                path.write_text(new, encoding="utf-8")
    mod = ROOT / "game" / "rules" / "abilities" / "not_yet.py"
    text = pending_module(kept, afacts, index)
    if not mod.exists() or mod.read_text(encoding="utf-8") != text:
        changed.append(mod)
        if not args.check:
            mod.write_text(text, encoding="utf-8")
    print(f"{len(kept)} cards in {len(per_nation)} nation files; left out {len(skipped)}:")
    for s in skipped:
        print("  " + s)
    for p in changed:
        print(("would change " if args.check else "wrote ") + str(p.relative_to(ROOT)))
    return 1 if args.check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
