"""Map sections and battle map configurations: load, validate, assemble.

A **map section** file (``maps/sections/Charlie-1.yaml``) is one side of a
laminated sheet, drawn as a picture: one text line per row of hexes, a
terrain letter wherever a hex is (``.`` clear, ``F`` forest, ``H`` hill,
``T`` town, ``M`` marsh, ``P`` pond), spaces between.  Section-local
coordinates are doubled-width: ``x`` is the character position in the line
(0-based), ``row`` the line (0-based), and a hex sits wherever ``x`` and
``row`` have the same parity.  The first and last lines and the first and
last character of the even lines are the half-hexes cut by the sheet's edge.
A standard section is 8 hexes wide and 5 whole rows high (x 0..16, rows
0..6).  Roads, streams and bridges name hexes as ``[x, row]``.

A **configuration** file places up to four sections in the quadrants
``TL``, ``TR``, ``BL``, ``BR`` (turned 0 or 180 degrees) and names the
objective hex.  Assembly puts quadrant origins at ``(-2W, -(H+1))`` ...
``(0, 0)`` in map doubled-x / row units (``x2 = 2q + r``), so a standard map
has whole rows ``r = -5..5``; where half-hexes of neighbouring sections meet
they form one whole hex (their terrain must agree), and the half-hexes left
on the outside edge go to ``BattleMap.half_hexes`` (never playable).  Road
links between two playable hexes go to ``BattleMap.roads``; a road piece that
runs into an outer half-hex (the road leaving the sheet) goes to
``BattleMap.edge_roads``, for drawing only.

``maps/README.md`` documents the format for people editing the files.
Everything wrong in a file becomes one :class:`DataError` listing every
problem, each naming the file, the entry and the field.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

from game.rules.board import BattleMap, SectionPlacement
from game.rules.errors import DataError
from game.rules.hexes import Hex, Hexside, hex_label, parse_hex_label
from game.rules.terrain import Terrain

from game.data.bounded import short
from .yamlio import Checker, int_in, line_of, read_yaml, text

__all__ = [
    "Section", "Cell", "load_section", "load_configuration", "list_configurations",
    "load_map_file", "assemble", "MAPS_DIR", "SECTIONS_DIR", "CONFIGURATIONS_DIR",
    "TERRAIN_LETTERS", "QUADRANTS", "MAX_MAP_HEXES",
]

MAPS_DIR = Path(__file__).resolve().parent.parent.parent / "maps"
SECTIONS_DIR = MAPS_DIR / "sections"
CONFIGURATIONS_DIR = MAPS_DIR / "configurations"

TERRAIN_LETTERS: dict[str, Terrain] = {
    ".": Terrain.CLEAR, "F": Terrain.FOREST, "H": Terrain.HILL,
    "T": Terrain.TOWN, "M": Terrain.MARSH, "P": Terrain.POND,
}
LETTER_OF: dict[Terrain, str] = {t: ch for ch, t in TERRAIN_LETTERS.items()}

# quadrant -> (column, row) of the 2 x 2 arrangement
QUADRANTS: dict[str, tuple[int, int]] = {"TL": (0, 0), "TR": (1, 0), "BL": (0, 1), "BR": (1, 1)}

Cell = tuple[int, int]          # section-local (x, row)

_SECTION_FIELDS = ("name", "sheet", "side", "pattern", "description", "terrain",
                   "roads", "streams", "bridges", "notes")
_CONFIG_FIELDS = ("number", "name", "objective", "sections", "description", "notes")
_PLACEMENT_FIELDS = ("section", "quadrant", "rotation")
_MAX_WIDTH = 12                 # hexes across one section (a real one has 8)
_MAX_ROWS = 9                   # whole rows of one section (a real one has 5)
#: hexes of one battle map (the six real ones have 171): the line-of-sight table of the
#: largest map let through builds in well under a second (bench/fuzz_inputs.py --los)
MAX_MAP_HEXES = 200
_SHEET_SIDE = re.compile(r"^(?P<sheet>.+)-(?P<side>[12])$")


@dataclass(frozen=True)
class Section:
    """One map section side, in section-local doubled coordinates."""

    name: str
    path: str
    width: int                          # whole hexes on an odd row (8)
    rows: int                           # whole rows (5, odd)
    cells: dict[Cell, Terrain]          # every hex of the picture, halves included
    roads: frozenset[frozenset[Cell]]   # links between adjacent cells
    streams: frozenset[frozenset[Cell]] # hexsides, each the pair of cells it separates
    bridges: frozenset[frozenset[Cell]]
    description: str = ""
    sheet: str = ""
    side: int | None = None
    pattern: str = ""

    @property
    def x_max(self) -> int:
        return 2 * self.width

    @property
    def row_max(self) -> int:
        return self.rows + 1

    def is_whole(self, cell: Cell) -> bool:
        x, row = cell
        return 0 < x < self.x_max and 0 < row < self.row_max

    @property
    def whole_cells(self) -> list[Cell]:
        return [c for c in self.cells if self.is_whole(c)]

    def picture(self) -> str:
        """The terrain picture as written in a section file."""
        lines = []
        for row in range(self.row_max + 1):
            chars = [" "] * (self.x_max + 1)
            for x in range(row % 2, self.x_max + 1, 2):
                chars[x] = LETTER_OF[self.cells[(x, row)]]
            lines.append("".join(chars).rstrip())
        return "\n".join(lines)


# --- small helpers -------------------------------------------------------------------
def _adjacent(a: Cell, b: Cell) -> bool:
    dx, dr = abs(a[0] - b[0]), abs(a[1] - b[1])
    return (dr == 0 and dx == 2) or (dr == 1 and dx == 1)


def _common_neighbours(a: Cell, b: Cell) -> set[Cell]:
    def nb(c: Cell) -> set[Cell]:
        x, r = c
        return {(x + 2, r), (x - 2, r), (x + 1, r - 1), (x - 1, r - 1), (x + 1, r + 1), (x - 1, r + 1)}
    return nb(a) & nb(b)


def _sides_touch(s1: frozenset[Cell], s2: frozenset[Cell]) -> bool:
    """Two hexsides share a vertex (a stream may run from one to the other)."""
    a, b = tuple(s1)
    for third in _common_neighbours(a, b):
        if s2 <= {a, b, third}:
            return True
    return False


def _show_cell(c: Cell) -> str:
    return f"[{c[0]}, {c[1]}]"


def _display(path: Path) -> str:
    """A short file name for messages: relative to the project when inside it."""
    try:
        return str(path.resolve().relative_to(MAPS_DIR.parent))
    except ValueError:
        return str(path)


# --- section files -------------------------------------------------------------------
def _picture_lines(c: Checker, doc: dict[str, Any]) -> tuple[list[str], list[int | None]] | None:
    raw = doc.get("terrain")
    base = line_of(doc, "terrain")
    if isinstance(raw, str):
        lines = raw.split("\n")
        while lines and not lines[-1].strip():
            lines.pop()
        numbers = [(base + 1 + i) if base else None for i in range(len(lines))]
        return lines, numbers
    if isinstance(raw, list):
        out: list[str] = []
        for i, item in enumerate(raw):
            if not isinstance(item, str):
                c.problem(f"line {i + 1} of the picture is not text", entry=f"row {i}",
                          field="terrain", node=raw, key=i)
                return None
            out.append(item)
        return out, [line_of(raw, i) for i in range(len(out))]
    if raw is None:
        c.problem("is missing (the terrain picture, one line per row of hexes)",
                  field="terrain", node=doc)
    else:
        c.problem("expected the terrain picture as a block of text lines", field="terrain",
                  node=doc, key="terrain")
    return None


def _parse_picture(c: Checker, doc: dict[str, Any]) -> tuple[int, int, dict[Cell, Terrain]] | None:
    got = _picture_lines(c, doc)
    if got is None:
        return None
    lines, numbers = got
    lines = [ln.rstrip() for ln in lines]
    letters = " ".join(TERRAIN_LETTERS)
    n_rows = len(lines)
    if n_rows < 3 or n_rows % 2 == 0 or n_rows > _MAX_ROWS + 2:
        c.problem(f"the picture has {n_rows} lines; a section needs an odd number of lines "
                  f"from 3 to {_MAX_ROWS + 2} (half-hex row, whole rows, half-hex row; "
                  "a standard section has 7)", field="terrain", node=doc, key="terrain")
        return None
    top = lines[0]
    x_max = len(top) - 1
    if x_max < 2 or x_max % 2 or x_max > 2 * _MAX_WIDTH:
        c.problem("the first picture line must be the top half-hex row: a letter at every "
                  f"even position starting at the left margin (got {short(top)})",
                  field="terrain", node=doc, key="terrain")
        return None
    cells: dict[Cell, Terrain] = {}
    ok = True
    for row, line in enumerate(lines):
        entry = f"row {row}"
        def note(msg: str, entry: str = entry) -> None:
            nonlocal ok
            ok = False
            c.problem(msg, entry=entry, field="terrain", line=numbers[row])

        if len(line) > x_max + 1:
            note(f"the line is {len(line)} characters long but the top row sets the width "
                 f"to {x_max + 1} (line: {short(line)})")
            continue
        for x in range(x_max + 1):
            ch = line[x] if x < len(line) else " "
            if (x - row) % 2:
                if ch != " ":
                    note(f"character {short(ch)} at position {x}: hexes of row {row} sit at "
                         f"{'even' if row % 2 == 0 else 'odd'} positions, "
                         "with a space between them (is the line shifted?)")
                    break
            elif ch == " ":
                note(f"no hex at position {x} (expected one of: {letters})")
                break
            elif ch not in TERRAIN_LETTERS:
                note(f"unknown terrain letter {short(ch)} at position {x} (expected one of: {letters})")
                break
            else:
                cells[(x, row)] = TERRAIN_LETTERS[ch]
    if not ok:
        return None
    return x_max // 2, n_rows - 2, cells


def _parse_cell(c: Checker, value: Any, cells: dict[Cell, Terrain], *, entry: str, field: str,
                node: Any, key: Any) -> Cell | None:
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        c.problem(f"expected a hex as [x, row] (two whole numbers), got {short(value)}",
                  entry=entry, field=field, node=node, key=key)
        return None
    cell = (value[0], value[1])
    if cell not in cells:
        if (cell[0] - cell[1]) % 2 and 0 <= cell[0] and 0 <= cell[1]:
            why = "x and row must be both even or both odd"
        else:
            why = "outside the section"
        c.problem(f"{_show_cell(cell)} is not a hex of this section ({why})",
                  entry=entry, field=field, node=node, key=key)
        return None
    return cell



def _optional_list(c: Checker, doc: dict[str, Any], key: str, expected: str) -> list[Any]:
    """``doc[key]`` when it is a list; missing or empty -> []; anything else is a problem."""
    raw = doc.get(key, [])
    if raw is None:
        return []
    if not isinstance(raw, list):
        c.problem(expected, field=key, node=doc, key=key)
        return []
    return raw

def _parse_side(c: Checker, value: Any, cells: dict[Cell, Terrain], *, entry: str, field: str,
                node: Any, key: Any) -> frozenset[Cell] | None:
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(v, list) for v in value)):
        c.problem(f"expected a hexside as a pair of adjacent hexes [[x, row], [x, row]], "
                  f"got {short(value)}", entry=entry, field=field, node=node, key=key)
        return None
    a = _parse_cell(c, value[0], cells, entry=entry, field=field, node=value, key=0)
    b = _parse_cell(c, value[1], cells, entry=entry, field=field, node=value, key=1)
    if a is None or b is None:
        return None
    if not _adjacent(a, b):
        c.problem(f"{_show_cell(a)} and {_show_cell(b)} are not adjacent, so there is no "
                  "hexside between them", entry=entry, field=field, node=node, key=key)
        return None
    return frozenset((a, b))


def load_section(path: str | os.PathLike[str]) -> Section:
    """Read and validate one map section side."""
    p = Path(path)
    name_shown = _display(p)
    doc = read_yaml(p, display=name_shown)
    c = Checker(name_shown)
    c.unknown_keys(doc, _SECTION_FIELDS)
    name = c.field(doc, "name", text(40))
    if name is not None and name != p.stem:
        c.problem(f"'{name}' does not match the file name '{p.name}' (a section is found "
                  f"by its name: save it as '{name}.yaml' or fix the name)",
                  field="name", node=doc, key="name")
    sheet = c.field(doc, "sheet", text(40), required=False, default="")
    side = c.field(doc, "side", int_in(1, 2), required=False)
    pattern = c.field(doc, "pattern", text(20), required=False, default="")
    description = c.field(doc, "description", text(600), required=False, default="")
    c.field(doc, "notes", text(4000), required=False)
    if name and sheet and side and name != f"{sheet}-{side}":
        c.problem(f"sheet '{sheet}' side {side} should be named '{sheet}-{side}', not '{name}'",
                  field="name", node=doc, key="name")

    parsed = _parse_picture(c, doc)
    if parsed is None:
        c.done()                        # the picture's problems are noted: this raises them
        raise DataError(name_shown, "the terrain picture can't be read", field="terrain")
    width, rows, cells = parsed
    x_max, row_max = 2 * width, rows + 1

    def whole(cell: Cell) -> bool:
        return 0 < cell[0] < x_max and 0 < cell[1] < row_max

    # roads: polylines of adjacent hexes
    roads: set[frozenset[Cell]] = set()
    raw_roads = _optional_list(c, doc, "roads", "expected a list of roads, each a list of hexes [x, row]")
    for i, road in enumerate(raw_roads):
        entry = f"road {i + 1}"
        if not isinstance(road, list) or len(road) < 2:
            c.problem("expected a list of at least two hexes [x, row], each adjacent to the "
                      "one before", entry=entry, field="roads", node=raw_roads, key=i)
            continue
        prev: Cell | None = None
        for j, item in enumerate(road):
            cell = _parse_cell(c, item, cells, entry=entry, field="roads", node=road, key=j)
            if cell is None:
                prev = None
                continue
            if prev is not None:
                if not _adjacent(prev, cell):
                    c.problem(f"{_show_cell(prev)} and {_show_cell(cell)} are not adjacent: a "
                              "road links neighbouring hexes only", entry=entry, field="roads",
                              node=road, key=j)
                elif not whole(prev) and not whole(cell):
                    c.problem(f"{_show_cell(prev)} to {_show_cell(cell)} runs between two "
                              "half-hexes along the sheet's edge", entry=entry, field="roads",
                              node=road, key=j)
                else:
                    roads.add(frozenset((prev, cell)))
            prev = cell

    # streams: chains of hexsides, each touching the one before
    streams: set[frozenset[Cell]] = set()
    raw_streams = _optional_list(c, doc, "streams", "expected a list of streams, each a list of hexsides")
    for i, stream in enumerate(raw_streams):
        entry = f"stream {i + 1}"
        if not isinstance(stream, list) or not stream:
            c.problem("expected a list of hexsides [[x, row], [x, row]], each touching the one "
                      "before", entry=entry, field="streams", node=raw_streams, key=i)
            continue
        prev_side: frozenset[Cell] | None = None
        for j, item in enumerate(stream):
            side_ = _parse_side(c, item, cells, entry=entry, field="streams", node=stream, key=j)
            if side_ is None:
                prev_side = None
                continue
            if prev_side is not None and not _sides_touch(prev_side, side_):
                a, b = sorted(side_)
                c.problem(f"hexside {_show_cell(a)}|{_show_cell(b)} does not touch the one "
                          "before it: a stream is a continuous line of hexsides",
                          entry=entry, field="streams", node=stream, key=j)
            streams.add(side_)
            prev_side = side_

    # bridges: exactly where a road crosses a stream
    bridges: set[frozenset[Cell]] = set()
    raw_bridges = _optional_list(c, doc, "bridges", "expected a list of hexsides [[x, row], [x, row]]")
    for i, item in enumerate(raw_bridges):
        entry = f"bridge {i + 1}"
        side_ = _parse_side(c, item, cells, entry=entry, field="bridges", node=raw_bridges, key=i)
        if side_ is None:
            continue
        a, b = sorted(side_)
        shown = f"{_show_cell(a)}|{_show_cell(b)}"
        if side_ not in roads:
            c.problem(f"no road crosses hexside {shown}: a bridge carries a road over a stream",
                      entry=entry, field="bridges", node=raw_bridges, key=i)
        if side_ not in streams:
            c.problem(f"no stream runs along hexside {shown}: a bridge spans a stream",
                      entry=entry, field="bridges", node=raw_bridges, key=i)
        if not (whole(a) and whole(b)):
            c.problem(f"hexside {shown} touches a half-hex: keep bridges off the sheet's edge",
                      entry=entry, field="bridges", node=raw_bridges, key=i)
        bridges.add(side_)
    for side_ in sorted(roads & streams - bridges, key=sorted):
        a, b = sorted(side_)
        c.problem(f"a road crosses the stream at hexside {_show_cell(a)}|{_show_cell(b)}: "
                  "list it under bridges", field="bridges", node=doc,
                  key="bridges" if "bridges" in doc else None)
    c.done()
    return Section(name=name, path=str(p), width=width, rows=rows, cells=cells,
                   roads=frozenset(roads), streams=frozenset(streams), bridges=frozenset(bridges),
                   description=description or "", sheet=sheet or "", side=side,
                   pattern=pattern or "")


# --- assembly ------------------------------------------------------------------------
@dataclass(frozen=True)
class _Placed:
    section: Section
    quadrant: str
    rotation: int
    entry: str                       # for messages: "TL (Charlie-1)"


def _to_map(sec: Section, quadrant: str, rotation: int, cell: Cell) -> Hex:
    col, row_i = QUADRANTS.get(quadrant, (0, 0))
    x0, r0 = (col - 1) * sec.x_max, (row_i - 1) * sec.row_max
    x, row = cell
    if rotation == 180:
        x, row = sec.x_max - x, sec.row_max - row
    big_x, big_r = x0 + x, r0 + row
    return Hex((big_x - big_r) // 2, big_r)


def _touched(value: int, span: int) -> list[int]:
    """Indices of the strips [(i-1)*span, i*span] that a hex centred at ``value`` covers."""
    if value % span == 0:
        k = value // span
        return [k, k + 1]
    return [value // span + 1]


def assemble(placed: Iterable[_Placed] | Iterable[tuple[Section, str, int]], *, name: str,
             file: str, objective: Hex | None = None, number: int | None = None,
             alone: bool = False) -> BattleMap:
    """Build a :class:`BattleMap` from sections placed in quadrants."""
    items: list[_Placed] = []
    for p in placed:
        if isinstance(p, _Placed):
            items.append(p)
        else:
            sec, quad, rot = p
            items.append(_Placed(sec, quad, rot, f"{quad} ({sec.name})"))
    if not items:
        raise DataError(file, "places no map sections", field="sections")
    c = Checker(file)
    first = items[0].section
    for p in items[1:]:
        if (p.section.width, p.section.rows) != (first.width, first.rows):
            c.problem(f"section {p.section.name} is {p.section.width} x {p.section.rows} hexes "
                      f"but {first.name} is {first.width} x {first.rows}: sections of one map "
                      "must be the same size", entry=p.entry, field="section")
    c.done()
    x_span, r_span = first.x_max, first.row_max
    placed_quads = {QUADRANTS.get(p.quadrant, (0, 0)) for p in items}

    pieces: dict[Hex, list[tuple[_Placed, Terrain, bool]]] = {}
    for p in items:
        for cell, terr in p.section.cells.items():
            h = _to_map(p.section, p.quadrant, p.rotation, cell)
            pieces.setdefault(h, []).append((p, terr, p.section.is_whole(cell)))

    terrain: dict[Hex, Terrain] = {}
    half_terrain: dict[Hex, Terrain] = {}
    for h in sorted(pieces, key=lambda h: (h.r, h.x2)):
        bits = pieces[h]
        kinds = {t for _, t, _ in bits}
        if len(kinds) > 1:
            said = ", ".join(f"{p.section.name} says {t.value}" for p, t, _ in bits)
            c.problem(f"the half-hexes of neighbouring sections that form hex {hex_label(h)} "
                      f"disagree: {said}", entry=f"hex {hex_label(h)}", field="terrain")
            continue
        terr = bits[0][1]
        if any(w for _, _, w in bits):
            is_whole = True
        else:
            touched = {(ci, ri) for ci in _touched(h.x2, x_span) for ri in _touched(h.r, r_span)}
            is_whole = touched <= placed_quads
        (terrain if is_whole else half_terrain)[h] = terr
    c.done()
    if len(terrain) > MAX_MAP_HEXES:
        raise DataError(file, f"the map would have {len(terrain):,} hexes, more than the "
                              f"{MAX_MAP_HEXES} a battle map may have (the real ones have 171)",
                        field="sections")

    roads: set[Hexside] = set()
    edge_roads: set[Hexside] = set()
    streams: set[Hexside] = set()
    bridges: set[Hexside] = set()
    for p in items:
        def conv(cell: Cell, p: _Placed = p) -> Hex:
            return _to_map(p.section, p.quadrant, p.rotation, cell)
        for link in p.section.roads:
            a, b = (conv(x) for x in link)
            side_ = Hexside.between(a, b)
            if a in terrain and b in terrain:
                roads.add(side_)
            else:
                edge_roads.add(side_)
        for link in p.section.streams:
            a, b = (conv(x) for x in link)
            streams.add(Hexside.between(a, b))
        for link in p.section.bridges:
            a, b = (conv(x) for x in link)
            bridges.add(Hexside.between(a, b))
    crossing = (roads & streams) - bridges
    for side_ in sorted(crossing):
        c.problem(f"a road crosses a stream between {hex_label(side_.a)} and "
                  f"{hex_label(side_.b)} where the sections meet, with no bridge: add the "
                  "bridge in the section files or move the road", field="sections")

    placements: list[SectionPlacement] = []
    for p in items:
        col, row_i = QUADRANTS.get(p.quadrant, (0, 0))
        x0, r0 = (col - 1) * x_span, (row_i - 1) * r_span
        mine = frozenset(_to_map(p.section, p.quadrant, p.rotation, cell)
                         for cell in p.section.cells) & frozenset(terrain)
        outline = ((x0, r0), (x0 + x_span, r0), (x0 + x_span, r0 + r_span), (x0, r0 + r_span))
        placements.append(SectionPlacement(name=p.section.name,
                                           quadrant="" if alone else p.quadrant,
                                           rotation=p.rotation, hexes=mine, outline=outline))
    if objective is not None and objective not in terrain:
        where = "a half-hex" if objective in half_terrain else "off the map"
        c.problem(f"hex {hex_label(objective)} ({objective.q}, {objective.r}) is {where}; the "
                  "objective must be a whole hex of the assembled map", field="objective")
    c.done()
    return BattleMap(name=name, terrain=terrain, half_hexes=frozenset(half_terrain),
                     roads=frozenset(roads), streams=frozenset(streams),
                     bridges=frozenset(bridges), objective=objective,
                     sections=tuple(placements), half_hex_terrain=half_terrain,
                     number=number, edge_roads=frozenset(edge_roads))


# --- configuration files -------------------------------------------------------------
def _section_path(name: str, config_path: Path) -> Path | None:
    here = config_path.parent
    for folder in (here.parent / "sections", here, SECTIONS_DIR):
        candidate = folder / f"{name}.yaml"
        if candidate.is_file():
            return candidate
    return None


def _parse_objective(value: Any) -> Hex:
    if isinstance(value, str):
        return parse_hex_label(value)
    if (isinstance(value, list) and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        return Hex(value[0], value[1])
    raise ValueError(f"expected a hex label like 'I5' or axial [q, r], got {short(value)}")


def _read_configuration(path: Path) -> BattleMap:
    shown = _display(path)
    doc = read_yaml(path, display=shown)
    c = Checker(shown)
    c.unknown_keys(doc, _CONFIG_FIELDS)
    number = c.field(doc, "number", int_in(1, 99))
    name = c.field(doc, "name", text(60))
    c.field(doc, "description", text(600), required=False)
    c.field(doc, "notes", text(4000), required=False)
    objective = c.field(doc, "objective", _parse_objective, required=False)
    raw = doc.get("sections")
    placed: list[_Placed] = []
    if not isinstance(raw, list) or not raw:
        c.problem("expected a list of placements {section: Able-1, quadrant: TL, rotation: 0}",
                  field="sections", node=doc, key="sections" if "sections" in doc else None)
        raw = []
    if len(raw) > 4:
        c.problem(f"places {len(raw)} sections; a battle map has at most four (TL, TR, BL, BR)",
                  field="sections", node=doc, key="sections")
    used_quadrants: dict[str, str] = {}
    used_sheets: dict[str, str] = {}
    for i, item in enumerate(raw):
        entry = f"section {i + 1}"
        if not isinstance(item, dict):
            c.problem("expected {section: NAME, quadrant: TL|TR|BL|BR, rotation: 0|180}",
                      entry=entry, field="sections", node=raw, key=i)
            continue
        c.unknown_keys(item, _PLACEMENT_FIELDS, entry=entry)
        sec_name = c.field(item, "section", text(40), entry=entry)
        quadrant = c.field(item, "quadrant", _one_of_exact(tuple(QUADRANTS)), entry=entry)
        rotation = c.field(item, "rotation", _rotation, entry=entry, required=False, default=0)
        if sec_name:
            entry = f"section {i + 1} ({sec_name})"
        if quadrant is not None:
            if quadrant in used_quadrants:
                c.problem(f"quadrant {quadrant} is already taken by {used_quadrants[quadrant]}: "
                          "two sections would overlap", entry=entry, field="quadrant",
                          node=item, key="quadrant")
                quadrant = None
            else:
                used_quadrants[quadrant] = sec_name or entry
        if sec_name is None or quadrant is None or rotation is None:
            continue
        m = _SHEET_SIDE.match(sec_name)
        if m:
            sheet = m.group("sheet")
            if sheet in used_sheets:
                c.problem(f"{used_sheets[sheet]} and {sec_name} are the two sides of one sheet "
                          "and can't both lie on the table", entry=entry, field="section",
                          node=item, key="section")
                continue
            used_sheets[sheet] = sec_name
        sec_path = _section_path(sec_name, path)
        if sec_path is None:
            c.problem(f"no section file '{sec_name}.yaml' (looked in "
                      f"{_display(path.parent.parent / 'sections')} and {_display(path.parent)})",
                      entry=entry, field="section", node=item, key="section")
            continue
        try:
            sec = load_section(sec_path)
        except DataError as exc:
            c.problem(f"section file is broken: {exc}", entry=entry, field="section",
                      node=item, key="section")
            continue
        placed.append(_Placed(sec, quadrant, rotation, entry))
    c.done()
    return assemble(placed, name=name, file=shown, objective=objective, number=number)


def _one_of_exact(choices: tuple[str, ...]) -> Callable[[Any], str]:
    def check(v: Any) -> str:
        s = v.strip().upper() if isinstance(v, str) else ""
        if s not in choices:
            raise ValueError(f"expected one of {', '.join(choices)}, got {short(v)}")
        return s
    return check


def _rotation(v: Any) -> int:
    if isinstance(v, bool) or v not in (0, 180):
        raise ValueError(f"expected 0 or 180 (degrees), got {short(v)}")
    return int(v)


_CACHE: dict[tuple[Any, ...], BattleMap] = {}
_LIST_CACHE: dict[tuple[Any, ...], tuple[tuple[int, str, str], ...]] = {}


def _mtime(path: Path) -> int | None:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return None


def _stamp(path: Path) -> tuple[Any, ...]:
    """Modification times of a configuration and every file in the sibling folders it may
    read, so an edited file is never served from the cache."""
    files = [path]
    for folder in (path.parent.parent / "sections", path.parent):
        if folder.is_dir():
            files.extend(sorted(folder.glob("*.yaml")))
    return tuple((str(f), _mtime(f)) for f in files)


def load_configuration(number_or_path: int | str | os.PathLike[str], *,
                       directory: str | os.PathLike[str] | None = None) -> BattleMap:
    """A battle map configuration by its number (1-6, the die roll) or file path.

    Maps are shared and must not be changed; loading the same unchanged file again
    returns the same object (its line-of-sight table is then already built)."""
    if isinstance(number_or_path, bool) or not isinstance(number_or_path, (int, str, os.PathLike)):
        raise DataError(str(number_or_path), "is not a configuration number or file")
    if isinstance(number_or_path, int) or (isinstance(number_or_path, str)
                                           and number_or_path.strip().isdigit()):
        number = int(number_or_path)
        found = [p for n, _, p in list_configurations(directory) if n == number]
        if not found:
            folder = Path(directory) if directory else CONFIGURATIONS_DIR
            have = ", ".join(str(n) for n, _, _ in list_configurations(directory)) or "none"
            raise DataError(_display(folder), f"no configuration number {number} "
                                              f"(available: {have})")
        path = Path(found[0])
    else:
        path = Path(number_or_path)
    key = _stamp(path.resolve()) if path.exists() else None
    if key is not None and key in _CACHE:
        return _CACHE[key]
    battle_map = _read_configuration(path)
    if key is not None:
        _CACHE[key] = battle_map
    return battle_map


def list_configurations(directory: str | os.PathLike[str] | None = None
                        ) -> list[tuple[int, str, str]]:
    """``[(number, name, path), ...]`` of every configuration file, by number."""
    folder = Path(directory) if directory else CONFIGURATIONS_DIR
    files = sorted(folder.glob("*.yaml"))
    key = (str(folder.resolve()),) + tuple((str(f), _mtime(f)) for f in files)
    if key in _LIST_CACHE:
        return list(_LIST_CACHE[key])
    out: list[tuple[int, str, str]] = []
    seen: dict[int, str] = {}
    for p in files:
        shown = _display(p)
        doc = read_yaml(p, display=shown)
        c = Checker(shown)
        number = c.field(doc, "number", int_in(1, 99))
        name = c.field(doc, "name", text(60))
        if number is not None and number in seen:
            c.problem(f"number {number} is also used by {seen[number]}", field="number",
                      node=doc, key="number")
        c.done()
        seen[number] = shown
        out.append((number, name, str(p)))
    out.sort()
    _LIST_CACHE[key] = tuple(out)
    return out


def load_map_file(path: str | os.PathLike[str]) -> BattleMap:
    """Any map file as a BattleMap: a configuration, or a section side shown alone
    (its own edges are all half-hexes, no objective; labels as in the top-left quadrant)."""
    p = Path(path)
    doc = read_yaml(p, display=_display(p))
    if "sections" in doc:
        return load_configuration(p)
    sec = load_section(p)
    return assemble([_Placed(sec, "TL", 0, sec.name)], name=sec.name, file=_display(p),
                    alone=True)
