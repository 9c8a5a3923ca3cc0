"""Pixels <-> hexes for pointy-top axial hexes (the only place the UI does hex maths).

A :class:`HexLayout` is a small immutable value: the hex ``size`` (centre to
corner, in pixels) and the pixel ``origin`` where the centre of ``Hex(0, 0)``
lies.  Zooming and panning return new layouts (``zoomed``, ``panned``,
``translated``), so a screen can keep one for its map surface and derive the
one it draws with.

Geometry (pointy-top, y grows downwards)::

    x = origin.x + sqrt(3) * size * (q + r / 2)
    y = origin.y + 1.5 * size * r

Direction ``d`` of :data:`game.rules.hexes.DIRECTIONS` points at screen angle
``-60 * d`` degrees; the hexside it crosses runs between the corners at
``-60 * d - 30`` and ``-60 * d + 30`` degrees.  Nothing here imports pygame.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Iterable

from game.rules.hexes import Hex, Hexside, direction_between

__all__ = ["HexLayout", "SQRT3", "round_hex"]

SQRT3 = math.sqrt(3.0)
Point = tuple[float, float]


def round_hex(fq: float, fr: float) -> Hex:
    """The hex containing fractional axial coordinates ``(fq, fr)`` (cube rounding)."""
    fs = -fq - fr
    q, r, s = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return Hex(int(q), int(r))


@dataclass(frozen=True)
class HexLayout:
    """Pointy-top layout: ``size`` in pixels (centre to corner), ``origin`` = centre of Hex(0,0)."""

    size: float
    origin: Point = (0.0, 0.0)

    def __post_init__(self) -> None:
        if not self.size > 0:
            raise ValueError(f"hex size must be positive, got {self.size}")

    # --- measures ---------------------------------------------------------------
    @property
    def width(self) -> float:
        """Width of one hex (flat side to flat side)."""
        return SQRT3 * self.size

    @property
    def row_height(self) -> float:
        """Vertical distance between two rows of hexes."""
        return 1.5 * self.size

    # --- conversions ----------------------------------------------------------------
    def hex_to_pixel(self, h: Hex) -> Point:
        ox, oy = self.origin
        return (ox + SQRT3 * self.size * (h.q + h.r / 2.0), oy + 1.5 * self.size * h.r)

    def center_int(self, h: Hex) -> tuple[int, int]:
        x, y = self.hex_to_pixel(h)
        return (round(x), round(y))

    def doubled_to_pixel(self, x2: float, row: float) -> Point:
        """A point given in doubled-column / row units (``x2 = 2q + r``), as in
        :attr:`SectionPlacement.outline`."""
        ox, oy = self.origin
        return (ox + SQRT3 * self.size * x2 / 2.0, oy + 1.5 * self.size * row)

    def pixel_to_fractional(self, x: float, y: float) -> tuple[float, float]:
        ox, oy = self.origin
        px, py = (x - ox) / self.size, (y - oy) / self.size
        fq = SQRT3 / 3.0 * px - py / 3.0
        fr = 2.0 / 3.0 * py
        return fq, fr

    def pixel_to_hex(self, x: float, y: float) -> Hex:
        """The hex whose cell contains the pixel (ties on an edge go to either side)."""
        return round_hex(*self.pixel_to_fractional(x, y))

    # --- shapes ------------------------------------------------------------------------
    def corner_offset(self, i: int, scale: float = 1.0) -> Point:
        """Offset of corner ``i`` (0 = upper right at -30 degrees, counter-clockwise on
        screen: 1 = top, 2 = upper left, 3 = lower left, 4 = bottom, 5 = lower right)."""
        ang = math.radians(-30.0 - 60.0 * i)
        return (self.size * scale * math.cos(ang), self.size * scale * math.sin(ang))

    def corners(self, h: Hex, scale: float = 1.0) -> list[Point]:
        """The six corners of ``h`` (``scale`` < 1 shrinks the hex around its centre)."""
        cx, cy = self.hex_to_pixel(h)
        return [(cx + dx, cy + dy) for dx, dy in (self.corner_offset(i, scale) for i in range(6))]

    def edge(self, h: Hex, direction: int) -> tuple[Point, Point]:
        """The two ends of the hexside of ``h`` that faces ``direction``."""
        cx, cy = self.hex_to_pixel(h)
        d = direction % 6
        a = self.corner_offset((d - 1) % 6)   # corner at -60d + 30 degrees
        b = self.corner_offset(d)             # corner at -60d - 30 degrees
        return ((cx + a[0], cy + a[1]), (cx + b[0], cy + b[1]))

    def hexside_points(self, side: Hexside) -> tuple[Point, Point]:
        """The two ends of a hexside on screen."""
        d = direction_between(side.a, side.b)
        if d is None:   # Hexside guarantees adjacency; keep the message clear anyway
            raise ValueError(f"{side} does not join adjacent hexes")
        return self.edge(side.a, d)

    def bounds(self, hexes: Iterable[Hex]) -> tuple[float, float, float, float]:
        """``(left, top, right, bottom)`` of the union of the hexes' shapes."""
        xs: list[float] = []
        ys: list[float] = []
        half_w, for_y = self.width / 2.0, self.size
        for h in hexes:
            x, y = self.hex_to_pixel(h)
            xs += (x - half_w, x + half_w)
            ys += (y - for_y, y + for_y)
        if not xs:
            raise ValueError("no hexes to measure")
        return (min(xs), min(ys), max(xs), max(ys))

    def contains(self, h: Hex, x: float, y: float) -> bool:
        """True when the pixel lies inside (or on the edge of) hex ``h``."""
        cx, cy = self.hex_to_pixel(h)
        dx, dy = abs(x - cx), abs(y - cy)
        half_w = self.width / 2.0
        if dx > half_w + 1e-9 or dy > self.size + 1e-9:
            return False
        # the slanted edges: dy <= size - dx / sqrt(3)
        return dy <= self.size - dx / SQRT3 + 1e-9

    # --- zoom and pan ---------------------------------------------------------------------
    def translated(self, dx: float, dy: float) -> "HexLayout":
        return replace(self, origin=(self.origin[0] + dx, self.origin[1] + dy))

    panned = translated

    def zoomed(self, factor: float, anchor: Point | None = None) -> "HexLayout":
        """Scale by ``factor`` keeping the map point under ``anchor`` (a pixel) fixed."""
        if not factor > 0:
            raise ValueError("zoom factor must be positive")
        ax, ay = anchor if anchor is not None else self.origin
        ox, oy = self.origin
        return HexLayout(self.size * factor, (ax + (ox - ax) * factor, ay + (oy - ay) * factor))

    def with_size(self, size: float) -> "HexLayout":
        return replace(self, size=size)

    @classmethod
    def fit(cls, box: tuple[float, float, float, float], *, width: float, height: float,
            left: float = 0.0, top: float = 0.0, max_size: float | None = None) -> "HexLayout":
        """The layout that fits ``box`` (left, top, right, bottom, measured with a
        size-1 layout at origin 0) into the rectangle ``(left, top, width, height)``,
        centred."""
        bl, bt, br, bb = box
        bw, bh = br - bl, bb - bt
        if bw <= 0 or bh <= 0 or width <= 0 or height <= 0:
            raise ValueError("nothing to fit")
        size = min(width / bw, height / bh)
        if max_size is not None:
            size = min(size, max_size)
        ox = left + (width - bw * size) / 2.0 - bl * size
        oy = top + (height - bh * size) / 2.0 - bt * size
        return cls(size, (ox, oy))
