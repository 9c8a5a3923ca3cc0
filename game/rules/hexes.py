r"""Hex geometry: the one coordinate system used everywhere in Hexfront.

Hexes are **pointy-top** and addressed with **axial coordinates** ``(q, r)``
(the third cube coordinate is ``s = -q - r``).  ``r`` is the row, growing
downwards; ``q`` grows to the right along a row, so a line of constant ``q``
runs down and to the right::

           (0,-1)   (1,-1)
              NW  /\  NE
                 /  \
      (-1,0) W  |0,0 |  E (1,0)
                 \  /
              SW  \/  SE
          (-1,1)    (0,1)

Directions are numbered counter-clockwise from east; they are also the six
facings of a Vehicle (the hexside it points at)::

    0 = E (+1, 0)   1 = NE (+1,-1)   2 = NW (0,-1)
    3 = W (-1, 0)   4 = SW (-1,+1)   5 = SE (0,+1)

Distance is the cube distance ``(|dq| + |dr| + |ds|) / 2``.  A hexside is a
value shared by the two hexes it separates (:class:`Hexside`).

Humans see hexes as a column letter and a row number (``"H6"``): rows count
from 1 at the top (``r = -5`` is row 1), columns from ``A`` at the left edge
of the standard 16-hex-wide battle map.  Pixels never appear here; the UI's
layout converts.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, NamedTuple

__all__ = [
    "Hex", "Hexside", "DIRECTIONS", "DIRECTION_NAMES", "direction_between",
    "hex_label", "parse_hex_label", "hexes_within", "range_band",
    "SHORT", "MEDIUM", "LONG", "MAX_RANGE",
]


class Hex(NamedTuple):
    """An axial hex coordinate (pointy-top).

    A tuple ``(q, r)`` underneath (``typing.NamedTuple``): hashing, equality and
    ordering run in C, which the movement search, the caches and the line-of-sight
    tables do millions of times.  The hash, the order and ``repr`` are those of the
    frozen dataclass it used to be (the hash of ``(q, r)``, so sets of hexes iterate in
    the same order); like any tuple it also equals a plain ``(q, r)`` tuple.  It is a
    value, never a container: code that treats tuples as sequences checks ``Hex`` first
    (``event_to_dict`` writes a hex as ``{"q", "r"}``, as it always has)."""

    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    @property
    def x2(self) -> int:
        """Doubled-width column: ``2q + r``.  Hexes in a row step by 2."""
        return 2 * self.q + self.r

    def __add__(self, other: "Hex") -> "Hex":  # type: ignore[override]  # not tuple concatenation
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: "Hex") -> "Hex":
        return Hex(self.q - other.q, self.r - other.r)

    def length(self) -> int:
        return (abs(self.q) + abs(self.r) + abs(self.s)) // 2

    def distance(self, other: "Hex") -> int:
        """Hexes counted from here to ``other``: the target's hex counts, ours doesn't
        (``(self - other).length()``, without building the difference)."""
        dq = self.q - other.q
        dr = self.r - other.r
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def neighbor(self, direction: int) -> "Hex":
        return self + DIRECTIONS[direction % 6]

    def neighbors(self) -> tuple["Hex", ...]:
        return tuple(self + d for d in DIRECTIONS)

    def is_adjacent(self, other: "Hex") -> bool:
        """Glossary 'adjacent': one hex away or in the same hex."""
        return self.distance(other) <= 1

    def side(self, direction: int) -> "Hexside":
        return Hexside.between(self, self.neighbor(direction))

    def rotate_180(self) -> "Hex":
        return Hex(-self.q, -self.r)

    def __repr__(self) -> str:  # compact in test output and logs
        return f"Hex({self.q},{self.r})"

    def as_list(self) -> list[int]:
        return [self.q, self.r]


DIRECTIONS: tuple[Hex, ...] = (
    Hex(1, 0), Hex(1, -1), Hex(0, -1), Hex(-1, 0), Hex(-1, 1), Hex(0, 1),
)
DIRECTION_NAMES: tuple[str, ...] = ("E", "NE", "NW", "W", "SW", "SE")


#: (dq, dr) of each direction -> its index
_DIRECTION_OF: dict[tuple[int, int], int] = {(d.q, d.r): i for i, d in enumerate(DIRECTIONS)}


def direction_between(a: Hex, b: Hex) -> int | None:
    """The direction index from ``a`` to an adjacent ``b``, else ``None``."""
    return _DIRECTION_OF.get((b.q - a.q, b.r - a.r))


@dataclass(frozen=True, order=True, slots=True)
class Hexside:
    """The edge between two adjacent hexes; equal whichever hex names it."""

    a: Hex
    b: Hex

    @staticmethod
    def between(h1: Hex, h2: Hex) -> "Hexside":
        if h1.distance(h2) != 1:
            raise ValueError(f"{h1} and {h2} are not adjacent")
        return Hexside(h1, h2) if h1 < h2 else Hexside(h2, h1)

    def hexes(self) -> tuple[Hex, Hex]:
        return (self.a, self.b)

    def other(self, h: Hex) -> Hex:
        if h == self.a:
            return self.b
        if h == self.b:
            return self.a
        raise ValueError(f"{h} is not on {self}")


def hexes_within(center: Hex, radius: int) -> Iterator[Hex]:
    """Every hex at distance ``<= radius`` of ``center``."""
    for dq in range(-radius, radius + 1):
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
            yield Hex(center.q + dq, center.r + dr)


# --- range bands (rulebook: Range and Attack Dice) -------------------------
SHORT, MEDIUM, LONG = "short", "medium", "long"
MAX_RANGE = 8


def range_band(distance: int) -> str | None:
    """Short 0-1, medium 2-4, long 5-8; ``None`` beyond 8 (no attack)."""
    if distance < 0:
        raise ValueError("negative distance")
    if distance <= 1:
        return SHORT
    if distance <= 4:
        return MEDIUM
    if distance <= MAX_RANGE:
        return LONG
    return None


# --- human labels ------------------------------------------------------------
# Row 1 is r = -5 (the top whole row of the standard map); column A is the
# leftmost whole hex (doubled column x2 = -15 or -14).  Half-hexes of the
# outer edge get row 0 / 12 or column '@' / 'Q' and are still unique.
_ROW_ORIGIN = -6
_X2_ORIGIN = -17
_LETTERS = "@ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def hex_label(h: Hex | None) -> str:
    """A short human label such as ``"H6"`` (column letter, row number)."""
    if h is None:
        return "off the map"
    row = h.r - _ROW_ORIGIN
    col = (h.x2 - _X2_ORIGIN) // 2
    if 0 <= col < len(_LETTERS) and row >= 0:
        return f"{_LETTERS[col]}{row}"
    return f"({h.q},{h.r})"


def parse_hex_label(label: str) -> Hex:
    """Inverse of :func:`hex_label`; raises ``ValueError`` on nonsense."""
    text = label.strip()
    if text.startswith("(") and text.endswith(")"):
        q, r = (int(p) for p in text[1:-1].split(","))
        return Hex(q, r)
    if len(text) < 2 or text[0].upper() not in _LETTERS or not text[1:].isdigit():
        raise ValueError(f"'{label}' is not a hex label like 'H6'")
    col = _LETTERS.index(text[0].upper())
    r = int(text[1:]) + _ROW_ORIGIN
    # col = (x2 - origin) // 2 -> x2 in {2col+origin, 2col+origin+1}; parity of x2 == parity of r
    x2 = 2 * col + _X2_ORIGIN
    if (x2 - r) % 2:
        x2 += 1
    return Hex((x2 - r) // 2, r)
