"""Movement rules (rulebook: Speed and Movement, Stacking, Terrain and Movement,
Double-Cost Terrain, Minimum Movement, Movement Roll, Impassable Terrain, Roads,
Road Bonus, Vehicle Facing; rulings 4, 5, 6, 7, 15)."""
import pytest

from tests.rules.engine_kit import at, halftrack, position, rect_map, rifles, tank
from game.rules import movement
from game.rules.actions import Move
from game.rules.errors import IllegalAction
from game.rules.state import Phase

E, NE, NW, W, SW, SE = range(6)


def line(c0, c1, r=5):
    step = 1 if c1 >= c0 else -1
    return tuple(at(c, r) for c in range(c0 + step, c1 + step, step))


def test_speed_limits_the_distance():
    """rulebook: Speed and Movement - a unit moves up to its speed in hexes."""
    g = position(rect_map())
    t = g.add_unit(tank(speed=4), "Axis", at(2, 5))
    reach = g.reachable(t.uid)
    assert at(6, 5) in reach and reach[at(6, 5)].cost == 4
    assert at(7, 5) not in reach
    assert "too far (needs 5, speed 4)" == g.why_not_reach(t.uid, at(7, 5))


def test_damaged_vehicle_moves_one_less():
    """rulebook: Damaged - a damaged Vehicle suffers -1 speed."""
    g = position(rect_map())
    t = g.add_unit(tank(speed=4), "Axis", at(2, 5), damaged=True)
    assert t.current_speed == 3
    assert at(5, 5) in g.reachable(t.uid) and at(6, 5) not in g.reachable(t.uid)


def test_vehicles_pay_two_for_hill_and_forest_soldiers_one():
    """rulebook: Double-Cost Terrain - a Vehicle entering a hill or forest pays 2."""
    bm = rect_map(terrain={(3, 5): "hill", (4, 5): "hill"})
    g = position(bm)
    t = g.add_unit(tank(speed=4), "Axis", at(2, 5))
    s = g.add_unit(rifles(speed=2), "Axis", at(2, 5))
    r = g.reachable(t.uid)
    assert r[at(3, 5)].cost == 2 and r[at(4, 5)].cost == 4
    sr = g.reachable(s.uid)
    assert sr[at(3, 5)].cost == 1 and sr[at(4, 5)].cost == 2
    # a Vehicle with only 1 hex of movement left can't enter a hill
    t2 = g.add_unit(tank(speed=3), "Axis", at(0, 5))
    assert at(2, 5) in g.reachable(t2.uid) and at(3, 5) not in g.reachable(t2.uid)


def test_minimum_movement_speed_one_vehicle_in_movement_phase_only():
    """ruling 4 / rulebook: Minimum Movement - current speed 1 may enter a hill or
    forest in its movement phase, not in the assault phase."""
    bm = rect_map(terrain={(3, 5): "hill"})
    g = position(bm)
    slow = g.add_unit(tank(speed=2), "Axis", at(2, 5), damaged=True)   # current speed 1
    assert at(3, 5) in g.reachable(slow.uid)
    g2 = position(bm, phase=Phase.ASSAULT_FIRST)
    slow2 = g2.add_unit(tank(speed=2), "Axis", at(2, 5), damaged=True)
    assert at(3, 5) not in g2.reachable(slow2.uid)
    assert "too far" in g2.why_not_reach(slow2.uid, at(3, 5))


def test_impassable_terrain():
    """rulebook: Impassable Terrain - Vehicles can't enter marsh or pond; Soldiers
    can't enter pond."""
    bm = rect_map(terrain={(3, 5): "marsh", (3, 4): "pond"})
    g = position(bm)
    t = g.add_unit(tank(), "Axis", at(2, 5))
    s = g.add_unit(rifles(speed=2), "Axis", at(2, 4))
    assert at(3, 5) not in g.reachable(t.uid)
    assert g.why_not_reach(t.uid, at(3, 5)) == "Vehicles can't enter marsh"
    assert at(3, 5) in g.reachable(s.uid)
    assert g.why_not_reach(s.uid, at(3, 4)) == "Soldiers can't enter pond"


def test_half_hexes_and_off_map_are_never_entered():
    """rulebook: half-hexes are completely impassable; no way off the battle map."""
    bm = rect_map()
    g = position(bm)
    t = g.add_unit(tank(), "Axis", at(0, 5))
    assert all(h in bm.terrain for h in g.reachable(t.uid))
    assert "half-hex" in g.why_not_reach(t.uid, at(-1, 5))
    assert "off the battle map" in g.why_not_reach(t.uid, at(0, 20))
    with pytest.raises(IllegalAction, match="half-hex"):
        g.apply(Move("Axis", t.uid, (at(-1, 5),), 0))


def test_stream_crossing_needs_a_movement_roll():
    """rulebook: Movement Roll - crossing a stream needs 4+; a failure stops the unit
    in the hex it tried to leave, facing the hex it tried to enter."""
    bm = rect_map(12, 1, streams=[((3, 0), (4, 0))])     # one row: no way around
    g = position(bm, dice=[3])
    t = g.add_unit(tank(), "Axis", at(2, 0), facing=W)
    r = g.reachable(t.uid)[at(5, 0)]
    assert [x.kind for x in r.rolls] == ["stream"]
    ev = g.apply(Move("Axis", t.uid, line(2, 5, r=0), W))
    kinds = [e.kind for e in ev]
    assert "MovementRoll" in kinds and "UnitStopped" in kinds
    assert t.hex == at(3, 0) and t.facing == E and t.acted
    g2 = position(bm, dice=[4])
    t2 = g2.add_unit(tank(), "Axis", at(2, 0))
    g2.apply(Move("Axis", t2.uid, line(2, 5, r=0), W))
    assert t2.hex == at(5, 0) and t2.facing == W


def test_soldiers_roll_for_streams_but_not_forests():
    """rulebook: Movement Roll - any unit crossing a stream rolls; only Vehicles roll
    to enter a forest."""
    bm = rect_map(terrain={(3, 5): "forest"}, streams=[((4, 5), (5, 5))])
    g = position(bm)
    s = g.add_unit(rifles(speed=3), "Axis", at(2, 5))
    r = g.reachable(s.uid)
    assert r[at(3, 5)].rolls == ()
    assert [x.kind for x in r[at(5, 5)].rolls] == ["stream"]


def test_stream_into_forest_rolls_stream_first_then_forest():
    """ruling 15 - a Vehicle crossing a stream into a forest rolls for the stream
    first and only if that succeeds for the forest."""
    bm = rect_map(8, 1, terrain={(3, 0): "forest"}, streams=[((2, 0), (3, 0))])
    g = position(bm, dice=[2])
    t = g.add_unit(tank(), "Axis", at(2, 0))
    assert [x.kind for x in g.reachable(t.uid)[at(3, 0)].rolls] == ["stream", "forest"]
    ev = g.apply(Move("Axis", t.uid, (at(3, 0),), E))
    rolls = [e for e in ev if e.kind == "MovementRoll"]
    assert [(e.roll_kind, e.ok) for e in rolls] == [("stream", False)]
    assert t.hex == at(2, 0)
    g2 = position(bm, dice=[5, 3])
    t2 = g2.add_unit(tank(), "Axis", at(2, 0))
    ev = g2.apply(Move("Axis", t2.uid, (at(3, 0),), E))
    assert [(e.roll_kind, e.ok) for e in ev if e.kind == "MovementRoll"] == [
        ("stream", True), ("forest", False)]
    assert t2.hex == at(2, 0)


def test_path_with_fewer_rolls_is_preferred():
    """Reachable reports the path with the fewest movement rolls when several fit."""
    bm = rect_map(streams=[((3, 5), (4, 5))])
    g = position(bm)
    s = g.add_unit(rifles(speed=3), "Axis", at(3, 5))
    # straight across the stream: 1 hex, 1 roll; around via row 4 avoids it? the
    # stream is only on that one hexside, so (3,5)->(4,4)->(4,5) costs 2, no roll.
    r = g.reachable(s.uid)[at(4, 5)]
    assert r.rolls == () and r.cost == 2


def test_road_costs_one_and_needs_no_roll_and_crosses_impassable():
    """ruling 5 / rulebook: Roads - along a road each hex costs 1, no movement rolls,
    impassable terrain may be entered along the road and left only along it."""
    bm = rect_map(terrain={(3, 5): "forest", (4, 5): "marsh", (5, 5): "hill"},
                  roads=[((2, 5), (3, 5)), ((3, 5), (4, 5)), ((4, 5), (5, 5))],
                  streams=[((3, 5), (4, 5))], bridges=[])
    g = position(bm, phase=Phase.ASSAULT_FIRST)
    t = g.add_unit(tank(speed=3), "Axis", at(1, 5))
    r = g.reachable(t.uid)
    # (1,5)->(2,5) clear, then road: forest, marsh, (hill costs the bonus? no - bonus on
    # the first road hex): 1 + 0 + 1 + 1 = 3 reaches the hill at (5,5)
    assert r[at(5, 5)].cost == 3 and r[at(5, 5)].rolls == () and r[at(5, 5)].road_bonus_used
    assert at(4, 5) in r                      # into the marsh along the road
    # leaving the marsh off the road is impossible
    t.hex = at(4, 5)
    assert all(bm.is_road(at(4, 5), p.path[0]) for p in movement_paths(g, t.uid))


def movement_paths(g, uid):
    g.state.touch()
    return list(g.reachable(uid).values())


def test_entering_a_road_hex_off_the_road_is_ordinary_terrain():
    """ruling 5 - entering a road hex from a hex the road does not connect is an
    ordinary move into that terrain."""
    bm = rect_map(terrain={(3, 5): "forest"}, roads=[((3, 4), (3, 5))])
    g = position(bm)
    t = g.add_unit(tank(), "Axis", at(2, 5))
    r = movement.walk_cost(g.state, t.uid, (at(3, 5),))
    assert r.cost == 2 and [x.kind for x in r.rolls] == ["forest"]
    # the best path goes round by the road: (3,4) then along it, bonus hex free
    best = g.reachable(t.uid)[at(3, 5)]
    assert best.path == (at(3, 4), at(3, 5)) and best.cost == 1 and best.rolls == ()


def test_road_bonus_first_road_hex_free_for_vehicles_only():
    """rulebook: Road Bonus - each phase the first hex a Vehicle moves along a road
    is free; Soldiers get no bonus."""
    roads = [((c, 5), (c + 1, 5)) for c in range(0, 12)]
    bm = rect_map(roads=roads)
    g = position(bm)
    t = g.add_unit(tank(speed=4), "Axis", at(0, 5))
    s = g.add_unit(rifles(speed=2), "Axis", at(0, 5))
    assert at(5, 5) in g.reachable(t.uid) and at(6, 5) not in g.reachable(t.uid)
    assert at(2, 5) in g.reachable(s.uid) and at(3, 5) not in g.reachable(s.uid)


def test_destroyed_bridge_breaks_the_road():
    """rulebook: Bridge Demolition - a destroyed bridge breaks the road; crossing the
    stream there needs a movement roll."""
    bm = rect_map(8, 1, roads=[((2, 0), (3, 0))], bridges=[((3, 0), (4, 0))])
    g = position(bm)
    t = g.add_unit(tank(), "Axis", at(3, 0))
    assert g.reachable(t.uid)[at(4, 0)].rolls == ()
    from game.rules.hexes import Hexside
    g.state.destroyed_bridges = frozenset({Hexside.between(at(3, 0), at(4, 0))})
    g.state.touch()
    assert [x.kind for x in g.reachable(t.uid)[at(4, 0)].rolls] == ["stream"]


def test_disrupted_units_cant_move_or_turn():
    """rulebook: Disrupted - can't move; Facing and Disruption - can't change facing."""
    g = position(rect_map())
    t = g.add_unit(tank(), "Axis", at(2, 5), disrupted=True)
    assert g.reachable(t.uid) == {}
    assert "disrupted" in g.why_not_reach(t.uid, at(3, 5))
    with pytest.raises(IllegalAction, match="disrupted"):
        g.apply(Move("Axis", t.uid, (), 3))
    assert not any(isinstance(a, Move) and a.uid == t.uid for a in g.legal_actions())


def test_stacking_checked_only_at_the_end():
    """rulebook: Stacking While Moving - move through full hexes, end only where
    there is room: two friendly units, one Vehicle per hex whatever its side."""
    g = position(rect_map())
    t = g.add_unit(tank(), "Axis", at(2, 5))
    g.add_unit(rifles(), "Axis", at(3, 5))
    g.add_unit(rifles(), "Axis", at(3, 5))
    g.add_unit(tank("United States"), "Allies", at(5, 5))
    r = g.reachable(t.uid)
    assert r[at(3, 5)].stops is False and r[at(4, 5)].stops is True
    assert r[at(5, 5)].stops is False          # enemy Vehicle there
    assert "two friendly units" in g.why_not_reach(t.uid, at(3, 5))
    assert "enemy Vehicle" in g.why_not_reach(t.uid, at(5, 5))
    g.apply(Move("Axis", t.uid, line(2, 4), E))   # through the full hex
    assert t.hex == at(4, 5)


def test_enemy_soldiers_share_a_hex():
    """rulebook: Stacking with Enemy Units - two units of each army per hex."""
    g = position(rect_map())
    s = g.add_unit(rifles(speed=2), "Axis", at(2, 5))
    g.add_unit(rifles("United States"), "Allies", at(3, 5))
    g.add_unit(rifles("United States"), "Allies", at(3, 5))
    assert g.reachable(s.uid)[at(3, 5)].stops


def test_boarded_soldiers_dont_count_for_stacking():
    """rulebook glossary: transport - a Soldier aboard doesn't count against stacking."""
    g = position(rect_map())
    ht = g.add_unit(halftrack(), "Axis", at(4, 5))
    g.add_unit(rifles(), "Axis", carrier=ht.uid)
    s = g.add_unit(rifles(speed=2), "Axis", at(2, 5))
    assert g.reachable(s.uid)[at(4, 5)].stops      # halftrack + passenger + s: fine
    g.add_unit(rifles(), "Axis", at(4, 5))
    assert not g.reachable(s.uid)[at(4, 5)].stops  # now two friendly units count


def test_passenger_moves_with_its_transport():
    g = position(rect_map())
    ht = g.add_unit(halftrack(), "Axis", at(2, 5))
    p = g.add_unit(rifles(), "Axis", carrier=ht.uid)
    g.apply(Move("Axis", ht.uid, line(2, 4), E))
    assert p.hex == at(4, 5)


def test_vehicle_ends_facing_chosen_side_and_turning_in_place_is_its_move():
    """rulebook: Vehicle Facing, Moving Zero Hexes; ruling 7 (turning counts as the move)."""
    g = position(rect_map())
    t = g.add_unit(tank(), "Axis", at(2, 5), facing=E)
    g.apply(Move("Axis", t.uid, (), SW))
    assert t.facing == SW and t.acted
    with pytest.raises(IllegalAction, match="ruling 7"):
        g.apply(Move("Axis", t.uid, (at(3, 5),), E))
    t2 = g.add_unit(tank(), "Axis", at(2, 7), facing=E)
    g.apply(Move("Axis", t2.uid, line(2, 4, r=7), NW))
    assert t2.facing == NW


def test_forced_stop_where_it_cant_stop_goes_back(monkeypatch):
    """ruling 6 / rulebook: Breaking Stacking Rules - a failed roll in a hex where it
    may not stop sends it back to the last hex where it may, keeping the facing it
    had when it left that hex."""
    bm = rect_map(8, 1, streams=[((4, 0), (5, 0))])
    g = position(bm, dice=[1])
    t = g.add_unit(tank(), "Axis", at(2, 0), facing=W)
    g.add_unit(tank(), "Axis", at(4, 0))               # another Vehicle: can't stop there
    # path (3) -> (4) -> (5): fails the stream roll in (4)
    ev = g.apply(Move("Axis", t.uid, line(2, 5, r=0), W))
    assert t.hex == at(3, 0) and t.facing == E
    assert any(e.kind == "UnitPutBack" for e in ev)


def test_explicit_path_must_be_contiguous_and_within_speed():
    g = position(rect_map())
    t = g.add_unit(tank(speed=2), "Axis", at(2, 5))
    with pytest.raises(IllegalAction, match="hex by hex"):
        g.apply(Move("Axis", t.uid, (at(4, 5),), E))
    with pytest.raises(IllegalAction, match="too far"):
        g.apply(Move("Axis", t.uid, line(2, 5), E))
    assert t.hex == at(2, 5) and not t.acted


def test_speed_zero_units_dont_move_but_vehicles_may_turn():
    g = position(rect_map())
    gun = g.add_unit(rifles(speed=0), "Axis", at(2, 5))
    assert g.reachable(gun.uid) == {}


def test_legal_moves_agree_with_check():
    bm = rect_map(terrain={(4, 5): "forest", (5, 4): "marsh"}, streams=[((3, 6), (4, 6))])
    g = position(bm)
    g.add_unit(tank(), "Axis", at(2, 5))
    g.add_unit(rifles(speed=2), "Axis", at(3, 5))
    g.add_unit(tank("United States"), "Allies", at(9, 5))
    acts = g.legal_actions()
    assert len(acts) > 20
    assert all(g.check(a) is None for a in acts)


def test_road_bonus_once_per_phase():
    """rulebook: Road Bonus - each phase the first road hex is free; a second move in
    the same phase (an ability's extra move) doesn't get it again."""
    roads = [((c, 0), (c + 1, 0)) for c in range(0, 11)]
    bm = rect_map(12, 1, roads=roads)
    g = position(bm)
    t = g.add_unit(tank(speed=2), "Axis", at(0, 0))
    g.apply(Move("Axis", t.uid, (at(1, 0), at(2, 0), at(3, 0)), E))
    assert g.state.road_bonus_used == {t.uid}
    t.acted = False                      # as if an ability allowed another move
    g.state.touch()
    assert at(5, 0) in g.reachable(t.uid) and at(6, 0) not in g.reachable(t.uid)
    from game.rules.actions import EndPhase
    g.apply(EndPhase("Axis"))
    assert g.state.road_bonus_used == frozenset()


def test_legal_moves_list_each_hex_once_or_every_facing_on_request():
    """Move actions: one per reachable hex (a Vehicle faces the nearest enemy);
    all_facings=True lists the six facings (rulebook: Vehicle Facing)."""
    g = position(rect_map(10, 5))
    t = g.add_unit(tank(speed=2), "Axis", at(2, 2))
    g.add_unit(rifles("United States"), "Allies", at(8, 2))
    moves = [a for a in g.legal_actions() if isinstance(a, Move) and a.path]
    dests = [a.path[-1] for a in moves]
    assert len(dests) == len(set(dests)) == len([r for r in g.reachable(t.uid).values() if r.stops])
    assert all(a.facing == E for a in moves if a.path[-1].r == at(2, 2).r)
    every = [a for a in g.legal_actions(all_facings=True) if isinstance(a, Move) and a.path]
    assert len(every) == 6 * len(moves) and all(g.check(a) is None for a in every[:30])
