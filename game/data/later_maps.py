"""The later edition's battle maps (maps/later/; game.rules.later): two double-sided
sections of 3-inch hexes (faces Map 1-Map 4, 7 x 10 whole hexes each) laid side by side
into a 14 x 10 battlefield, and its three configurations (River Line, Village
Skirmish, Hill 203), picked by a die (ruling L13: 1-2, 3-4, 5-6).  The layouts are
Hexfront's own (no source shows them hex by hex): see maps/README.md.

Section file (``maps/later/sections/Map-N.yaml``)::

    name: Map-1
    sheet: A                     # the two faces of one sheet share it
    terrain: |                   # 10 lines of 7 letters: . clear f forest h hill t town
      . . f . . . .              #   m marsh p pond s shell holes w water b bluffs
      ...
    roads:   [[[0, 4], [1, 4], ...]]      # chains of [col, row], each step adjacent
    streams: [[[5, 0], [6, 0]], ...]      # hexsides: pairs of adjacent [col, row]
    bridges: [[[5, 4], [6, 4]]]           # a road over a stream (in both lists by itself)
    hedges:  [[[2, 3], [3, 3]], ...]      # hexside terrain
    cliffs:  [[[1, 5], [1, 4]], ...]      # [bluffs hex, neighbour]: that side is a cliff

Rows are offset like every Hexfront map (odd rows half a hex to the right); column c of
row r is ``Hex(c - r // 2, r)`` once placed.  Configuration file
(``maps/later/configurations/N_name.yaml``): ``number``, ``name``, ``left`` and
``right`` (``{section: Map-1, rotation: 0|180}``) and ``objective: [col, row]`` in the
14 x 10 battlefield.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from game.data.yamlio import Checker, int_in, one_of, read_yaml, text
from game.rules.board import BattleMap, SectionPlacement
from game.rules.errors import DataError
from game.rules.hexes import Hex, Hexside
from game.rules.terrain import Terrain

__all__ = ["LATER_MAPS_DIR", "COLS", "ROWS", "LETTERS", "LaterSection", "load_later_section",
           "load_later_configuration", "list_later_configurations", "configuration_for_roll"]

ROOT = Path(__file__).resolve().parent.parent.parent
LATER_MAPS_DIR = ROOT / "maps" / "later"
COLS, ROWS = 7, 10
LETTERS = {".": Terrain.CLEAR, "f": Terrain.FOREST, "h": Terrain.HILL, "t": Terrain.TOWN,
           "m": Terrain.MARSH, "p": Terrain.POND, "s": Terrain.SHELL_HOLES,
           "w": Terrain.WATER, "b": Terrain.BLUFFS}
Cell = tuple[int, int]


def configuration_for_roll(die: int) -> int:
    """Ruling L13: 1-2 River Line (1), 3-4 Village Skirmish (2), 5-6 Hill 203 (3)."""
    if not 1 <= die <= 6:
        raise ValueError(f"a die shows 1-6, not {die}")
    return (die + 1) // 2


@dataclass(frozen=True)
class LaterSection:
    name: str
    sheet: str
    description: str
    terrain: dict[Cell, Terrain]
    roads: frozenset[tuple[Cell, Cell]]
    streams: frozenset[tuple[Cell, Cell]]
    bridges: frozenset[tuple[Cell, Cell]]
    hedges: frozenset[tuple[Cell, Cell]]
    cliffs: frozenset[tuple[Cell, Cell]]


def _adjacent(a: Cell, b: Cell) -> bool:
    return _hex(a, 0).distance(_hex(b, 0)) == 1


def _hex(c: Cell, offset: int) -> Hex:
    col, row = c[0] + offset, c[1]
    return Hex(col - row // 2, row)


def _cell(c: Checker, v: Any, entry: str, field: str) -> Cell | None:
    if (isinstance(v, list) and len(v) == 2 and all(isinstance(x, int) and not isinstance(x, bool)
                                                    for x in v)
            and 0 <= v[0] < COLS and 0 <= v[1] < ROWS):
        return (v[0], v[1])
    c.problem(f"expected a hex [col, row] with col 0-{COLS - 1} and row 0-{ROWS - 1}, got {v!r}",
              entry=entry, field=field)
    return None


def _pairs(c: Checker, doc: dict[str, Any], key: str, entry: str, chains: bool = False
           ) -> frozenset[tuple[Cell, Cell]]:
    out: set[tuple[Cell, Cell]] = set()
    items = doc.get(key) or []
    if not isinstance(items, list):
        c.problem("expected a list", entry=entry, field=key)
        return frozenset()
    for i, item in enumerate(items, 1):
        if not isinstance(item, list) or len(item) < 2 or (not chains and len(item) != 2):
            c.problem(f"item {i}: expected a pair of adjacent hexes"
                      + (" (or a longer chain)" if chains else ""), entry=entry, field=key)
            continue
        cells = [_cell(c, x, entry, f"{key}[{i}]") for x in item]
        if None in cells:
            continue
        for a, b in zip(cells, cells[1:]):
            assert a is not None and b is not None
            if not _adjacent(a, b):
                c.problem(f"item {i}: {list(a)} and {list(b)} are not adjacent", entry=entry,
                          field=key)
                continue
            out.add((a, b))
    return frozenset(out)


def load_later_section(path: str | os.PathLike[str]) -> LaterSection:
    p = Path(path)
    doc = read_yaml(p)
    file = str(p)
    c = Checker(file)
    entry = str(doc.get("name") or p.stem)
    c.unknown_keys(doc, ("name", "sheet", "side", "description", "terrain", "roads", "streams",
                         "bridges", "hedges", "cliffs", "notes"), entry=entry)
    name = c.field(doc, "name", text(40), entry=entry)
    sheet = c.field(doc, "sheet", text(10), entry=entry)
    description = c.field(doc, "description", text(600), entry=entry, required=False,
                          default="")
    pic = doc.get("terrain")
    terrain: dict[Cell, Terrain] = {}
    lines = [ln.split() for ln in pic.strip("\n").splitlines()] if isinstance(pic, str) else []
    if len(lines) != ROWS or any(len(ln) != COLS for ln in lines):
        c.problem(f"expected {ROWS} lines of {COLS} terrain letters", entry=entry, field="terrain")
    else:
        for r, ln in enumerate(lines):
            for col, letter in enumerate(ln):
                t = LETTERS.get(letter.lower())
                if t is None:
                    c.problem(f"row {r}, column {col}: unknown letter {letter!r} (known: "
                              f"{' '.join(LETTERS)})", entry=entry, field="terrain")
                    continue
                terrain[(col, r)] = t
    roads = _pairs(c, doc, "roads", entry, chains=True)
    streams = _pairs(c, doc, "streams", entry)
    bridges = _pairs(c, doc, "bridges", entry)
    hedges = _pairs(c, doc, "hedges", entry)
    cliffs = _pairs(c, doc, "cliffs", entry)
    for a, b in cliffs:
        if terrain and terrain.get(a) is not Terrain.BLUFFS:
            c.problem(f"cliff {list(a)}-{list(b)}: its first hex must be a bluffs hex",
                      entry=entry, field="cliffs")
    c.done()
    return LaterSection(name, sheet, description, terrain, roads, streams, bridges, hedges,
                        cliffs)


def _rotate(cell: Cell, rotation: int) -> Cell:
    if rotation == 180:
        return (COLS - 1 - cell[0], ROWS - 1 - cell[1])
    return cell


def _section_file(name: str) -> Path:
    return LATER_MAPS_DIR / "sections" / f"{name}.yaml"


def _config_files(directory: Path | None = None) -> list[Path]:
    d = directory or LATER_MAPS_DIR / "configurations"
    return sorted(p for p in d.glob("*.yaml") if p.is_file())


def load_later_configuration(number_or_path: int | str | os.PathLike[str]) -> BattleMap:
    """The battlefield of configuration 1-3 (or of a configuration file)."""
    if isinstance(number_or_path, int):
        found = [p for p in _config_files() if p.name.split("_", 1)[0] == str(number_or_path)]
        if not found:
            raise DataError(str(LATER_MAPS_DIR / "configurations"),
                            f"no later-edition configuration {number_or_path} (1-3)")
        path = found[0]
    else:
        path = Path(number_or_path)
    doc = read_yaml(path)
    c = Checker(str(path))
    c.unknown_keys(doc, ("number", "name", "description", "left", "right", "objective", "notes"),
                   entry="configuration")
    number = c.field(doc, "number", int_in(1, 3), entry="configuration")
    name = c.field(doc, "name", text(60), entry="configuration")
    placed = []
    for slot in ("left", "right"):
        raw = doc.get(slot)
        if not isinstance(raw, dict):
            c.problem("expected {section: Map-N, rotation: 0 or 180}", entry="configuration",
                      field=slot)
            continue
        sec_name = c.field(raw, "section", one_of("Map-1", "Map-2", "Map-3", "Map-4"),
                           entry=slot)
        rotation = raw.get("rotation", 0)
        if rotation not in (0, 180):
            c.problem(f"rotation is 0 or 180, not {rotation!r}", entry=slot, field="rotation")
            rotation = 0
        if sec_name:
            placed.append((slot, load_later_section(_section_file(sec_name)), rotation))
    obj = doc.get("objective")
    c.done()
    if len(placed) == 2 and placed[0][1].sheet == placed[1][1].sheet:
        raise DataError(str(path), "the two sections are faces of the same sheet")
    terrain: dict[Hex, Terrain] = {}
    roads: set[Hexside] = set()
    streams: set[Hexside] = set()
    bridges: set[Hexside] = set()
    hedges: set[Hexside] = set()
    cliffs: set[Hexside] = set()
    sections = []
    for slot, sec, rotation in placed:
        off = 0 if slot == "left" else COLS

        def hx(cell: Cell) -> Hex:
            return _hex(_rotate(cell, rotation), off)

        mine = frozenset(hx(cell) for cell in sec.terrain)
        for cell, t in sec.terrain.items():
            terrain[hx(cell)] = t
        for target, pairs in ((roads, sec.roads | sec.bridges), (streams, sec.streams | sec.bridges),
                              (bridges, sec.bridges), (hedges, sec.hedges),
                              (cliffs, sec.cliffs)):
            target.update(Hexside.between(hx(a), hx(b)) for a, b in pairs)
        sections.append(SectionPlacement(sec.name,
                                         "TL" if slot == "left" else "TR", rotation, mine))
    if not (isinstance(obj, list) and len(obj) == 2 and all(isinstance(x, int) for x in obj)):
        raise DataError(str(path), "objective: expected [col, row] of the battlefield")
    objective = Hex(obj[0] - obj[1] // 2, obj[1])
    if objective not in terrain:
        raise DataError(str(path), f"objective {obj} is not a hex of the battlefield")
    halves = set()
    for r in range(ROWS):
        halves.add(_hex((-1, r), 0))
        halves.add(_hex((2 * COLS, r), 0))
    return BattleMap(name=str(name), terrain=terrain, half_hexes=frozenset(halves),
                     roads=frozenset(roads), streams=frozenset(streams),
                     bridges=frozenset(bridges), objective=objective,
                     sections=tuple(sections), number=number,
                     hedges=frozenset(hedges), cliffs=frozenset(cliffs))


def list_later_configurations() -> list[tuple[int, str]]:
    out = []
    for p in _config_files():
        doc = read_yaml(p)
        out.append((int(doc.get("number", 0)), str(doc.get("name", p.stem))))
    return sorted(out)
