"""Line of sight (rulebook: Line of Sight; Hexfront ruling 2).

The rules module decides LOS in cube coordinates.  These tests check it
against golden cases worked out on paper and against an independent exact
oracle: the Euclidean Voronoi cell of a hex in doubled coordinates
``(x2, r)``, where the squared pixel distance is proportional to
``dx2**2 + 3 * dr**2``.  A point is inside hex ``h`` when it is nearer to
``h``'s centre than to each of its six neighbours' centres; along the sight
line each of those six conditions is linear in the line parameter ``t``, so
the oracle is a handful of Fractions and shares no code with game.rules.los.
"""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings, strategies as st

from game.rules.hexes import DIRECTIONS, Hex
from game.rules.los import LosTable, first_blocker, has_los, segment_enters_hex

SOURCE = Path(__file__).resolve().parent.parent / "fixtures" / "source" / "configurations_1st_edition.yaml"
BLOCKING = {"TOWN", "HILL", "FOREST"}


# --- the independent oracle ----------------------------------------------------------------
def _q(x: Fraction, y: Fraction) -> Fraction:
    return x * x + 3 * y * y


def oracle_interval(a: Hex, b: Hex, h: Hex, *, strict: bool):
    """Parameters t in [0, 1] where the point a + t (b - a) lies in hex h's cell
    (open cell when strict).  Returns (lo, hi) or None when empty."""
    ax, ay = Fraction(a.x2), Fraction(a.r)
    dx, dy = b.x2 - a.x2, b.r - a.r
    lo, hi = Fraction(0), Fraction(1)
    for d in DIRECTIONS:
        n = h + d

        def f(t: Fraction) -> Fraction:
            px, py = ax + t * dx, ay + t * dy
            return _q(px - h.x2, py - h.r) - _q(px - n.x2, py - n.r)
        c0 = f(Fraction(0))
        c1 = f(Fraction(1)) - c0          # f is linear in t
        if c1 == 0:
            if c0 > 0 or (strict and c0 == 0):
                return None
            continue
        t = -c0 / c1
        if c1 > 0:
            hi = min(hi, t)
        else:
            lo = max(lo, t)
    if strict:
        return (lo, hi) if lo < hi else None
    return (lo, hi) if lo <= hi else None


def oracle_blocks(a: Hex, b: Hex, h: Hex) -> bool:
    """The open segment between the centres enters h's interior (h not a or b)."""
    return h not in (a, b) and oracle_interval(a, b, h, strict=True) is not None


def oracle_los(a: Hex, b: Hex, blockers) -> bool:
    return not any(oracle_blocks(a, b, h) for h in blockers)


def _source_maps():
    data = yaml.safe_load(SOURCE.read_text(encoding="utf-8"))
    out = {}
    for c in data["configurations"]:
        terr = {Hex(q, r): t for t, cells in c["terrain"].items() for q, r in cells}
        out[c["name"]] = terr
    return out


MAPS = _source_maps()


# --- golden cases ----------------------------------------------------------------------------
def test_same_hex_always_sees_itself():
    """rulebook: the attacker's and target's hexes never block (same hex: range 0)."""
    h = Hex(2, -1)
    assert has_los(h, h, {h})
    assert first_blocker(h, h, {h}) is None


@pytest.mark.parametrize("d", range(6))
def test_adjacent_hexes_always_see_each_other(d):
    """Adjacent hexes: nothing lies between them, even when both block."""
    a = Hex(0, 0)
    b = a.neighbor(d)
    around = set(Hex(0, 0).neighbors()) | set(b.neighbors()) | {a, b}
    assert has_los(a, b, around)
    assert has_los(b, a, around)


def test_attacker_and_target_blocking_hexes_are_ignored():
    """rulebook: a unit in a forest/town/hill sees out and can be seen; only hexes
    between the two count."""
    a, b = Hex(-3, 0), Hex(3, 0)
    assert has_los(a, b, {a, b})
    assert has_los(a, b, {a, b, Hex(-3, 1), Hex(3, -1)})
    assert not has_los(a, b, {a, b, Hex(0, 0)})


def test_line_along_a_hexside_between_two_blockers_is_not_blocked():
    """ruling 2: the line from (0,0) to (1,1) runs exactly along the hexside shared by
    (1,0) and (0,1); blocking terrain on both sides does not block it."""
    a, b = Hex(0, 0), Hex(1, 1)
    side_hexes = {Hex(1, 0), Hex(0, 1)}
    for h in side_hexes:
        assert not segment_enters_hex(a, b, h)
        # the oracle agrees the line touches them along a whole side (an interval)
        lo, hi = oracle_interval(a, b, h, strict=False)
        assert lo < hi
        assert oracle_interval(a, b, h, strict=True) is None
    assert has_los(a, b, side_hexes)
    assert has_los(b, a, side_hexes)


def test_long_line_along_hexsides_between_rows_of_blockers():
    """ruling 2, over a distance of 8: (0,0) to (4,4) runs along four hexsides with
    blockers on both sides all the way; a blocker on the line itself blocks."""
    a, b = Hex(0, 0), Hex(4, 4)
    walls = {Hex(k + 1, k) for k in range(4)} | {Hex(k, k + 1) for k in range(4)}
    assert has_los(a, b, walls)
    assert has_los(b, a, walls)
    assert not has_los(a, b, walls | {Hex(2, 2)})
    assert first_blocker(a, b, walls | {Hex(2, 2), Hex(3, 3)}) == Hex(2, 2)
    assert first_blocker(b, a, walls | {Hex(2, 2), Hex(3, 3)}) == Hex(3, 3)


def test_line_through_a_vertex_is_not_blocked_by_the_hexes_it_touches():
    """ruling 2: (0,0) to (-4,-1) passes exactly through one corner of (-3,0) and one of
    (-1,-1) without entering either (found and confirmed with the oracle)."""
    a, b = Hex(0, 0), Hex(-4, -1)
    for h in (Hex(-3, 0), Hex(-1, -1)):
        lo, hi = oracle_interval(a, b, h, strict=False)
        assert lo == hi                       # a single point: a vertex
        assert not segment_enters_hex(a, b, h)
    assert has_los(a, b, {Hex(-3, 0), Hex(-1, -1)})
    # the hexes on the far side of those vertices are entered, and block
    entered = [h for h in (Hex(-2, 0), Hex(-2, -1), Hex(-1, 0), Hex(-3, -1))
               if segment_enters_hex(a, b, h)]
    assert entered and all(oracle_blocks(a, b, h) for h in entered)
    assert not has_los(a, b, {entered[0]})


def test_a_blocker_just_off_a_long_line_does_not_block_but_one_on_it_does():
    """A straight line along a row: the row's hexes block, the rows above and below don't."""
    a, b = Hex(-5, 0), Hex(5, 0)
    beside = {Hex(q, -1) for q in range(-5, 6)} | {Hex(q, 1) for q in range(-6, 5)}
    assert has_los(a, b, beside)
    assert not has_los(a, b, beside | {Hex(1, 0)})


def test_long_diagonals_across_a_real_map():
    """Tiger Heaven: the longest clear line of the six maps, 19 hexes from A9 to P1;
    Half and Half's corner-to-corner diagonal (20 hexes) is blocked, and the first
    blocker is the town hex nearest the attacker."""
    terr = MAPS["Tiger Heaven"]
    blockers = {h for h, t in terr.items() if t in BLOCKING}
    a, b = Hex(-9, 3), Hex(10, -5)
    assert a.distance(b) == 19
    assert has_los(a, b, blockers) and has_los(b, a, blockers)
    assert oracle_los(a, b, blockers)
    terr1 = MAPS["Half and Half"]
    blockers1 = {h for h, t in terr1.items() if t in BLOCKING}
    c, d = Hex(-10, 5), Hex(10, -5)
    assert c.distance(d) == 20
    first = first_blocker(c, d, blockers1)
    assert first is not None and oracle_blocks(c, d, first)
    nearer = [h for h in blockers1 if oracle_blocks(c, d, h) and c.distance(h) < c.distance(first)]
    assert nearer == []


# --- symmetry and the table --------------------------------------------------------------------
def test_symmetry_and_table_over_all_pairs_of_a_real_configuration():
    """rulebook: if you can see a unit, it can see you.  Exhaustive over all 14,535
    pairs of Urban Combat (the map with the most blocking hexes): for every pair and
    every blocking hex near the line, the line enters the hex going one way exactly
    when it does going the other way; the precomputed LosTable agrees with that
    for every pair, and with has_los (both ways) on every 20th pair."""
    terr = MAPS["Urban Combat"]
    blockers = sorted(h for h, t in terr.items() if t in BLOCKING)
    table = LosTable(terr, blockers)
    cells = sorted(terr)
    assert len(cells) == 171

    to_blockers = {c: [c.distance(h) for h in blockers] for c in cells}
    pairs = 0
    for i, a in enumerate(cells):
        da = to_blockers[a]
        for b in cells[i + 1:]:
            db, limit = to_blockers[b], a.distance(b) + 1
            # a hex the open segment enters has d(a, h) + d(h, b) <= d(a, b) + 1
            lens = [h for h, x, y in zip(blockers, da, db) if x and y and x + y <= limit]
            forward = [segment_enters_hex(a, b, h) for h in lens]
            assert forward == [segment_enters_hex(b, a, h) for h in lens], (a, b)
            visible = not any(forward)
            assert table.visible(a, b) == table.visible(b, a) == visible, (a, b)
            if pairs % 20 == 0:
                assert has_los(a, b, blockers) == has_los(b, a, blockers) == visible, (a, b)
            pairs += 1
    assert pairs == 171 * 170 // 2
    for a in cells[::17]:
        assert table.visible_from(a) == frozenset(b for b in cells if has_los(a, b, blockers))


small = st.integers(min_value=-4, max_value=4)
small_hexes = st.builds(Hex, small, small)


@settings(max_examples=150, deadline=None)
@given(a=small_hexes, b=small_hexes, blockers=st.sets(small_hexes, max_size=25))
def test_has_los_matches_the_oracle_and_is_symmetric(a, b, blockers):
    """Random blockers: exact LOS equals the independent oracle, both ways round."""
    expected = oracle_los(a, b, blockers)
    assert has_los(a, b, blockers) == expected
    assert has_los(b, a, blockers) == expected


@settings(max_examples=20, deadline=None)
@given(a=small_hexes, b=small_hexes)
def test_segment_enters_hex_matches_the_oracle_for_every_nearby_hex(a, b):
    for q in range(-5, 6):
        for r in range(-5, 6):
            h = Hex(q, r)
            if h in (a, b):
                continue
            assert segment_enters_hex(a, b, h) == oracle_blocks(a, b, h), (a, b, h)


@settings(max_examples=6, deadline=None)
@given(blockers=st.sets(small_hexes, max_size=20))
def test_los_table_equals_has_los_with_random_blockers(blockers):
    cells = [Hex(q, r) for q in range(-3, 4) for r in range(-3, 4) if abs(q + r) <= 3]
    table = LosTable(cells, blockers)
    for i, a in enumerate(cells):
        for b in cells[i:]:
            assert table.visible(a, b) == has_los(a, b, blockers), (a, b)
            if table.visible(a, b):
                assert table.blocker(a, b) is None
            else:
                assert table.blocker(a, b) == first_blocker(a, b, blockers)


def test_table_answers_for_hexes_it_was_not_built_for():
    """A hex outside the table (say a half-hex) falls back to the exact computation."""
    table = LosTable([Hex(0, 0), Hex(1, 0)], {Hex(2, 0)})
    assert table.visible(Hex(0, 0), Hex(3, 0)) is False
    assert table.visible(Hex(5, 5), Hex(5, 6)) is True
    assert table.visible_from(Hex(9, 9)) == frozenset()
