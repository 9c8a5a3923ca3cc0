"""Hex geometry: neighbours, directions, distance, hexsides, labels, range bands.

Golden values are worked out by hand on the diagram in game/rules/hexes.py
(pointy-top, axial (q, r), r grows downwards)."""
import pytest
from hypothesis import given, strategies as st

from game.rules.hexes import (
    DIRECTION_NAMES, DIRECTIONS, LONG, MAX_RANGE, MEDIUM, SHORT, Hex, Hexside,
    direction_between, hex_label, hexes_within, parse_hex_label, range_band,
)

coords = st.integers(min_value=-30, max_value=30)
hexes = st.builds(Hex, coords, coords)


# --- neighbours and directions ---------------------------------------------------------
def test_neighbours_of_origin_in_direction_order():
    assert Hex(0, 0).neighbors() == (Hex(1, 0), Hex(1, -1), Hex(0, -1),
                                     Hex(-1, 0), Hex(-1, 1), Hex(0, 1))


def test_neighbours_of_an_off_centre_hex():
    assert set(Hex(2, -3).neighbors()) == {Hex(3, -3), Hex(3, -4), Hex(2, -4),
                                           Hex(1, -3), Hex(1, -2), Hex(2, -2)}


def test_direction_names_and_doubled_columns():
    """E/W stay in the row (x2 +-2); the other four change row by one and x2 by one."""
    assert DIRECTION_NAMES == ("E", "NE", "NW", "W", "SW", "SE")
    steps = [(d.x2, d.r) for d in DIRECTIONS]
    assert steps == [(2, 0), (1, -1), (-1, -1), (-2, 0), (-1, 1), (1, 1)]


@given(hexes, st.integers(0, 5))
def test_direction_between_and_opposite_direction(h, d):
    n = h.neighbor(d)
    assert direction_between(h, n) == d
    assert direction_between(n, h) == (d + 3) % 6
    assert n.neighbor(d + 3) == h


def test_direction_between_non_adjacent_is_none():
    assert direction_between(Hex(0, 0), Hex(2, 0)) is None
    assert direction_between(Hex(0, 0), Hex(0, 0)) is None


# --- distance ------------------------------------------------------------------------
@pytest.mark.parametrize("a, b, d", [
    (Hex(0, 0), Hex(0, 0), 0),
    (Hex(0, 0), Hex(1, 0), 1),
    (Hex(0, 0), Hex(1, 1), 2),       # two steps: E then SE
    (Hex(0, 0), Hex(3, -3), 3),      # straight NE
    (Hex(0, 0), Hex(-4, -1), 5),
    (Hex(-5, -5), Hex(10, -5), 15),  # the whole top row of a battle map
    (Hex(-5, -5), Hex(5, 5), 20),    # corner to corner of a battle map
    (Hex(-10, 5), Hex(10, -5), 20),
])
def test_distance_golden(a, b, d):
    assert a.distance(b) == d == b.distance(a)


@given(hexes, hexes, hexes)
def test_distance_is_a_metric(a, b, c):
    assert a.distance(b) == b.distance(a) >= 0
    assert (a.distance(b) == 0) == (a == b)
    assert a.distance(c) <= a.distance(b) + b.distance(c)


def test_hexes_within_counts_and_adjacency():
    """'Adjacent' (glossary) is one hex away or the same hex."""
    for r in range(5):
        ring = list(hexes_within(Hex(2, -1), r))
        assert len(ring) == len(set(ring)) == 1 + 3 * r * (r + 1)
        assert all(Hex(2, -1).distance(h) <= r for h in ring)
    assert Hex(0, 0).is_adjacent(Hex(0, 0))
    assert Hex(0, 0).is_adjacent(Hex(-1, 1))
    assert not Hex(0, 0).is_adjacent(Hex(1, 1))


def test_rotate_180_turns_the_map_about_its_centre():
    assert Hex(3, -2).rotate_180() == Hex(-3, 2)
    assert Hex(0, 0).rotate_180() == Hex(0, 0)


# --- hexsides ------------------------------------------------------------------------
@given(hexes, st.integers(0, 5))
def test_hexside_is_shared_by_the_two_hexes(h, d):
    n = h.neighbor(d)
    side = h.side(d)
    assert side == n.side(d + 3) == Hexside.between(n, h) == Hexside.between(h, n)
    assert set(side.hexes()) == {h, n}
    assert side.other(h) == n and side.other(n) == h


def test_a_hex_has_six_distinct_hexsides():
    sides = {Hex(1, 1).side(d) for d in range(6)}
    assert len(sides) == 6


def test_hexside_between_non_adjacent_hexes_is_refused():
    with pytest.raises(ValueError):
        Hexside.between(Hex(0, 0), Hex(2, -1))
    with pytest.raises(ValueError):
        Hexside.between(Hex(0, 0), Hex(0, 0))
    with pytest.raises(ValueError):
        Hexside.between(Hex(0, 0), Hex(1, 0)).other(Hex(5, 5))


# --- labels --------------------------------------------------------------------------
@pytest.mark.parametrize("h, label", [
    (Hex(-5, -5), "A1"),     # top-left whole hex of the standard map
    (Hex(10, -5), "P1"),     # top-right
    (Hex(-5, -4), "A2"),     # an even row starts half a hex further right
    (Hex(1, -1), "I5"),
    (Hex(0, 0), "H6"),       # the centre of the map
    (Hex(-10, 5), "A11"),
    (Hex(5, 5), "P11"),
])
def test_labels_golden(h, label):
    assert hex_label(h) == label
    assert parse_hex_label(label) == h
    assert parse_hex_label(label.lower()) == h


def test_labels_round_trip_over_the_whole_map_and_its_half_hexes():
    """Every hex of a standard map and its surrounding half-hexes gets a unique label."""
    seen = {}
    for r in range(-6, 7):
        for x2 in range(-16, 17):
            if (x2 - r) % 2:
                continue
            h = Hex((x2 - r) // 2, r)
            text = hex_label(h)
            assert parse_hex_label(text) == h
            assert text not in seen, (text, h, seen.get(text))
            seen[text] = h
    assert len(seen) == 13 * 17 - 6        # 7 rows of 17 and 6 rows of 16


@given(hexes)
def test_labels_round_trip_anywhere(h):
    assert parse_hex_label(hex_label(h)) == h


@pytest.mark.parametrize("bad", ["", "H", "6", "HH", "H-1", "Z1x", "(1;2)", "!3"])
def test_bad_labels_are_refused(bad):
    with pytest.raises(ValueError):
        parse_hex_label(bad)


# --- range bands (rulebook: Range and Attack Dice) ----------------------------------
@pytest.mark.parametrize("distance, band", [
    (0, SHORT), (1, SHORT), (2, MEDIUM), (3, MEDIUM), (4, MEDIUM),
    (5, LONG), (6, LONG), (8, LONG), (9, None), (20, None),
])
def test_range_bands_short_medium_long_and_out_of_range(distance, band):
    """rulebook: short 0-1, medium 2-4, long 5-8, no attack beyond 8."""
    assert range_band(distance) == band
    assert MAX_RANGE == 8


def test_range_counts_the_targets_hex_not_the_attackers():
    """rulebook: count the target's hex but not the attacker's; same hex is range 0.
    A target with one empty hex between it and the attacker is at range 2 (medium),
    an adjacent one at range 1 (short)."""
    attacker = Hex(0, 0)
    assert range_band(attacker.distance(attacker)) == SHORT
    assert attacker.distance(Hex(1, 0)) == 1 and range_band(1) == SHORT
    assert attacker.distance(Hex(2, 0)) == 2 and range_band(2) == MEDIUM
    # eight hexes east is the last hex in range, nine is out of range
    assert range_band(attacker.distance(attacker + Hex(8, 0))) == LONG
    assert range_band(attacker.distance(attacker + Hex(9, 0))) is None
    # the same holds along a diagonal of the grid
    assert range_band(attacker.distance(Hex(4, -8))) == LONG
    assert range_band(attacker.distance(Hex(5, -9))) is None


def test_negative_distance_is_an_error():
    with pytest.raises(ValueError):
        range_band(-1)


# --- Hex as a value (a NamedTuple since issue 12; it was a frozen dataclass) -----------
@given(st.integers(-20, 20), st.integers(-20, 20))
def test_a_hex_hashes_orders_and_prints_as_the_dataclass_did(q, r):
    """The dataclass hashed ``(q, r)`` and ordered by (q, r): sets and dicts of hexes
    iterate in the same order as before, so event logs and goldens don't change."""
    h = Hex(q, r)
    assert hash(h) == hash((q, r)) and repr(h) == f"Hex({q},{r})" == str(h)
    assert h == Hex(q, r) and h.q == q and h.r == r
    assert (Hex(q, r) < Hex(q, r + 1)) and (Hex(q, r) < Hex(q + 1, r - 5))
    assert h + Hex(1, 0) == Hex(q + 1, r)          # addition of coordinates, not tuples


def test_sets_of_hexes_iterate_as_sets_of_coordinate_pairs():
    pairs = [(q, r) for q in range(-9, 9) for r in range(-7, 7)]
    assert [(h.q, h.r) for h in set(Hex(*p) for p in pairs)] == list(set(pairs))


def test_events_write_a_hex_as_q_and_r():
    from game.rules.events import UnitMoved, event_to_dict
    d = event_to_dict(UnitMoved("axis-1", (Hex(1, 2),), 3, Hex(0, 2), (Hex(1, 2),), False,
                                Hex(1, 2)))
    assert d["path"] == [{"q": 1, "r": 2}] and d["start"] == {"q": 0, "r": 2}
