"""Exact line of sight (rulebook: Line of Sight; Hexfront ruling 2).

The sight line runs from the centre of one hex to the centre of another.  A
hex with blocking terrain (town, hill, forest) blocks only when the line
passes through its *interior*; running exactly along one of its hexsides or
touching a vertex does not block, even with blockers on both sides.  The
attacker's and target's hexes never block.

Everything is decided with integers.  In cube coordinates (x, y, z) with
x + y + z = 0 the hex centred on ``h`` is the set of points ``p`` with
``|dx - dy| <= 1``, ``|dy - dz| <= 1`` and ``|dz - dx| <= 1`` for
``d = p - h`` (its Voronoi cell); the interior is the same with strict
``<``.  Cube coordinates are an affine image of the plane, and affine maps
keep segments, convex cells and interiors, so the test is exact.
"""
from __future__ import annotations

from typing import Iterable

from .hexes import Hex

__all__ = ["segment_enters_hex", "first_blocker", "has_los", "LosTable"]


def segment_enters_hex(a: Hex, b: Hex, h: Hex) -> bool:
    """True when the open segment between the centres of ``a`` and ``b`` enters
    the interior of hex ``h``.  Touching an edge or a vertex is not entering."""
    if h == a or h == b:
        return True
    ax, ay, az = a.q - h.q, a.r - h.r, a.s - h.s
    dx, dy, dz = b.q - a.q, b.r - a.r, b.s - a.s
    # Parameter t in the open interval (lo_n/lo_d, hi_n/hi_d), denominators > 0.
    lo_n, lo_d, hi_n, hi_d = 0, 1, 1, 1
    for u, v in ((ax - ay, dx - dy), (ay - az, dy - dz), (az - ax, dz - dx)):
        # need -1 < u + t*v < 1
        if v == 0:
            if u != 0:          # |u| >= 1 along the whole segment
                return False
            continue
        if v > 0:
            l_n, h_n, den = -1 - u, 1 - u, v
        else:
            l_n, h_n, den = u - 1, u + 1, -v
        if l_n * lo_d > lo_n * den:
            lo_n, lo_d = l_n, den
        if h_n * hi_d < hi_n * den:
            hi_n, hi_d = h_n, den
    return lo_n * hi_d < hi_n * lo_d


def _candidates(a: Hex, b: Hex, blockers: Iterable[Hex]) -> list[Hex]:
    """Blocking hexes the segment might enter, nearest to ``a`` first.

    A point inside a hex's cell is within 2/3 of its centre in the cube
    (max-)norm, so any hex the segment enters satisfies
    ``d(a, h) + d(h, b) <= d(a, b) + 1``."""
    limit = a.distance(b) + 1
    found = [h for h in blockers
             if h != a and h != b and a.distance(h) + h.distance(b) <= limit]
    found.sort(key=lambda h: (a.distance(h), h))   # ties: a fixed order, not set order
    return found


def first_blocker(a: Hex, b: Hex, blockers: Iterable[Hex]) -> Hex | None:
    """The blocking hex nearest ``a`` that the sight line enters, or ``None``."""
    if a == b:
        return None
    for h in _candidates(a, b, blockers):
        if segment_enters_hex(a, b, h):
            return h
    return None


def has_los(a: Hex, b: Hex, blockers: Iterable[Hex]) -> bool:
    """Line of sight between the centres of ``a`` and ``b`` (symmetric)."""
    return first_blocker(a, b, blockers) is None


class LosTable:
    """All-pairs line of sight for one battle map, computed once at load.

    ``visible(a, b)`` is a set lookup; ``blocker(a, b)`` names the hex that
    blocks (for the UI) and is computed on demand."""

    def __init__(self, hexes: Iterable[Hex], blockers: Iterable[Hex]) -> None:
        self.hexes: tuple[Hex, ...] = tuple(sorted(set(hexes)))
        self.blockers: frozenset[Hex] = frozenset(blockers)
        seen: dict[Hex, set[Hex]] = {h: {h} for h in self.hexes}
        blk = [(h, h.q, h.r, h.s) for h in sorted(self.blockers)]
        for i, a in enumerate(self.hexes):
            aq, ar, as_ = a.q, a.r, a.s
            # distance from a to each blocker, once per source hex
            near = [(max(abs(aq - q), abs(ar - r), abs(as_ - s)), h, q, r, s)
                    for h, q, r, s in blk]
            near.sort(key=lambda t: t[0])
            for b in self.hexes[i + 1:]:
                bq, br, bs = b.q, b.r, b.s
                limit = max(abs(aq - bq), abs(ar - br), abs(as_ - bs)) + 1
                blocked = False
                for da, h, q, r, s in near:
                    if da >= limit:
                        break
                    if (da == 0 or h == b
                            or da + max(abs(q - bq), abs(r - br), abs(s - bs)) > limit):
                        continue
                    if segment_enters_hex(a, b, h):
                        blocked = True
                        break
                if not blocked:
                    seen[a].add(b)
                    seen[b].add(a)
        self._seen = {h: frozenset(s) for h, s in seen.items()}

    def visible(self, a: Hex, b: Hex) -> bool:
        s = self._seen.get(a)
        if s is None:
            return has_los(a, b, self.blockers)
        return b in s

    def visible_from(self, a: Hex) -> frozenset[Hex]:
        return self._seen.get(a, frozenset())

    def blocker(self, a: Hex, b: Hex) -> Hex | None:
        return first_blocker(a, b, self.blockers)
