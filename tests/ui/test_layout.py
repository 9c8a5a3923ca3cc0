"""HexLayout: pointy-top pixel <-> hex conversions (the UI side of game.rules.hexes)."""
import math

import pytest
from hypothesis import given, settings, strategies as st

from game.rules.hexes import DIRECTIONS, Hex, Hexside, hexes_within
from game.ui.layout import SQRT3, HexLayout, round_hex


def test_centres_follow_the_pointy_top_formula():
    lay = HexLayout(10.0, (100.0, 50.0))
    assert lay.hex_to_pixel(Hex(0, 0)) == (100.0, 50.0)
    assert lay.hex_to_pixel(Hex(1, 0)) == pytest.approx((100 + SQRT3 * 10, 50))
    # r grows downwards by 1.5 sizes; constant q runs down and to the right
    assert lay.hex_to_pixel(Hex(0, 1)) == pytest.approx((100 + SQRT3 * 5, 65))
    assert lay.hex_to_pixel(Hex(-1, 2)) == pytest.approx((100, 80))


@pytest.mark.parametrize("d", range(6))
def test_direction_d_points_at_minus_60d_degrees_and_its_edge_is_shared(d):
    lay = HexLayout(20.0, (0.0, 0.0))
    x, y = lay.hex_to_pixel(DIRECTIONS[d])
    assert math.degrees(math.atan2(y, x)) % 360 == pytest.approx((-60 * d) % 360)
    assert math.hypot(x, y) == pytest.approx(SQRT3 * 20)
    a, b = lay.edge(Hex(0, 0), d)
    c, e = lay.edge(DIRECTIONS[d], (d + 3) % 6)
    assert {tuple(round(v, 6) for v in p) for p in (a, b)} == \
        {tuple(round(v, 6) for v in p) for p in (c, e)}
    # the edge's midpoint is halfway between the two centres
    assert ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2) == pytest.approx((x / 2, y / 2))


def test_corners_lie_on_the_circle_and_hexside_points_ignore_order():
    lay = HexLayout(12.0, (5.0, 7.0))
    h = Hex(2, -1)
    cx, cy = lay.hex_to_pixel(h)
    for px, py in lay.corners(h):
        assert math.hypot(px - cx, py - cy) == pytest.approx(12.0)
    side = Hexside.between(h, h.neighbor(4))
    assert lay.hexside_points(side) == lay.hexside_points(Hexside.between(h.neighbor(4), h))


@pytest.mark.parametrize("size,origin", [(10.0, (0.0, 0.0)), (37.5, (412.3, -17.9)), (6.0, (3.0, 3.0))])
def test_pixel_to_hex_round_trips_centres_and_points_near_the_corners(size, origin):
    lay = HexLayout(size, origin)
    for h in hexes_within(Hex(0, 0), 7):
        assert lay.pixel_to_hex(*lay.hex_to_pixel(h)) == h
        for px, py in lay.corners(h, 0.93):
            assert lay.pixel_to_hex(px, py) == h
            assert lay.contains(h, px, py)


@settings(max_examples=300, deadline=None)
@given(st.floats(-500, 500), st.floats(-500, 500), st.floats(3, 80))
def test_pixel_to_hex_finds_the_nearest_centre(x, y, size):
    lay = HexLayout(size, (11.0, -4.0))
    h = lay.pixel_to_hex(x, y)
    best = min(math.dist((x, y), lay.hex_to_pixel(n)) for n in hexes_within(h, 2))
    assert math.dist((x, y), lay.hex_to_pixel(h)) <= best + 1e-6


def test_round_hex_picks_the_cube_rounding():
    assert round_hex(0.2, 0.2) == Hex(0, 0)
    assert round_hex(0.45, 0.45) == Hex(0, 1)   # s rounds worst: r is recomputed
    assert round_hex(0.6, 0.1) == Hex(1, 0)
    assert round_hex(-0.1, 0.9) == Hex(0, 1)


def test_zoom_keeps_the_anchor_fixed_and_pan_moves_everything():
    lay = HexLayout(20.0, (300.0, 200.0))
    anchor = (512.0, 333.0)
    before = lay.pixel_to_fractional(*anchor)
    z = lay.zoomed(1.7, anchor)
    assert z.size == pytest.approx(34.0)
    assert z.pixel_to_fractional(*anchor) == pytest.approx(before)
    p = lay.translated(15, -4)
    assert p.hex_to_pixel(Hex(3, 2)) == pytest.approx(
        (lay.hex_to_pixel(Hex(3, 2))[0] + 15, lay.hex_to_pixel(Hex(3, 2))[1] - 4))
    with pytest.raises(ValueError):
        lay.zoomed(0)
    with pytest.raises(ValueError):
        HexLayout(0)


def test_fit_places_the_box_inside_the_rectangle_centred():
    unit = HexLayout(1.0)
    hexes = list(hexes_within(Hex(0, 0), 4))
    box = unit.bounds(hexes)
    lay = HexLayout.fit(box, width=800, height=500, left=10, top=20)
    left, top, right, bottom = lay.bounds(hexes)
    assert left >= 10 - 1e-6 and top >= 20 - 1e-6
    assert right <= 810 + 1e-6 and bottom <= 520 + 1e-6
    # one dimension is filled exactly, the other centred
    assert (right - left == pytest.approx(800)) or (bottom - top == pytest.approx(500))
    assert (left - 10) == pytest.approx(810 - right)
    assert (top - 20) == pytest.approx(520 - bottom)


def test_doubled_units_match_hex_centres():
    lay = HexLayout(9.0, (1.0, 2.0))
    for h in hexes_within(Hex(1, 1), 3):
        assert lay.doubled_to_pixel(h.x2, h.r) == pytest.approx(lay.hex_to_pixel(h))
