"""Rules audit (brief R): edge cases a player would hit, one test per rule or ruling,
each naming it.  These complement the engine's own tests (see docs/rules-coverage.md,
which maps every rule of issue 4 and every ruling to the tests that check it).

Positions are built in code on small maps (tests/rules/engine_kit.py) with loaded
dice; the situation files in tests/situations/audit/ run at the bottom."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.rules.engine_kit import (ALLIED_ARMY, AXIS_ARMY, at, halftrack, officer,
                                    position, rect_map, rifles, tank)
from game.data.situations import load_situation
from game.rules.actions import (Attack, ChooseEnd, ChooseObjective, ChooseOrder, DefensiveFire,
                                Deploy, EndPhase, Move, PassDefensiveFire)
from game.rules.dice import LoadedDice
from game.rules.engine import new_game
from game.rules.errors import IllegalAction
from game.rules.hexes import direction_between
from game.situations import run_situation
from game.rules.state import DefensiveFirePrompt, Phase

E, NE, NW, W, SW, SE = range(6)


def kinds(events):
    return [e.kind for e in events]


def line(c0, c1, r=0):
    step = 1 if c1 >= c0 else -1
    return tuple(at(c, r) for c in range(c0 + step, c1 + step, step))


# --------------------------------------------------------------------------- movement

def test_speed_one_vehicle_into_forest_movement_phase_rolls_assault_phase_refused():
    """rulebook: Minimum Movement - a speed-1 Vehicle may enter a forest in its movement
    phase (it still needs the 4+ forest movement roll), never in the assault phase
    (ruling 4)."""
    bm = rect_map(6, 1, {(2, 0): "forest"})
    g = position(bm, dice=[4])
    t = g.add_unit(tank(speed=1), "Axis", at(1, 0))
    reach = g.reachable(t.uid)[at(2, 0)]
    assert [r.kind for r in reach.rolls] == ["forest"]
    ev = g.apply(Move("Axis", t.uid, (at(2, 0),), E))
    assert t.hex == at(2, 0)
    assert [(e.roll_kind, e.ok) for e in ev if e.kind == "MovementRoll"] == [("forest", True)]

    g2 = position(bm, phase=Phase.ASSAULT_FIRST, dice=[6])
    t2 = g2.add_unit(tank(speed=1), "Axis", at(1, 0))
    assert at(2, 0) not in g2.reachable(t2.uid)
    with pytest.raises(IllegalAction, match="too far"):
        g2.apply(Move("Axis", t2.uid, (at(2, 0),), E))
    assert t2.hex == at(1, 0) and not t2.acted


def test_speed_one_vehicle_failed_forest_roll_stays_and_faces_the_forest():
    """rulebook: Movement Roll / Facing and Stopped Movement - a failed forest roll stops
    the Vehicle in the hex it tried to leave, facing the hex it tried to enter."""
    bm = rect_map(6, 1, {(2, 0): "forest"})
    g = position(bm, dice=[3])
    t = g.add_unit(tank(speed=1), "Axis", at(1, 0), facing=W)
    ev = g.apply(Move("Axis", t.uid, (at(2, 0),), W))
    assert t.hex == at(1, 0) and t.facing == E and t.acted
    assert "UnitStopped" in kinds(ev)


def test_road_into_a_pond_and_out_only_along_the_road():
    """rulebook: Roads - a unit moving along a road may enter impassable terrain (a pond)
    and can leave it only along the road (ruling 5)."""
    # road (1,0)-(2,0)-(3,0); (2,0) is a pond
    bm = rect_map(6, 3, {(2, 0): "pond"}, roads=[((1, 0), (2, 0)), ((2, 0), (3, 0))])
    g = position(bm)
    s = g.add_unit(rifles(speed=1), "Axis", at(1, 0))
    assert at(2, 0) in g.reachable(s.uid)             # Soldier into the pond along the road
    v = g.add_unit(tank(speed=4), "Axis", at(1, 0).neighbor(SE))
    # straight in from a hex the road doesn't connect, the pond is impassable
    assert "pond" in (g.check(Move("Axis", v.uid, (at(2, 0),), NW)) or "")
    g.apply(Move("Axis", s.uid, (at(2, 0),), None))
    assert s.hex == at(2, 0)
    # next phase (assault) the Soldier may leave only along the road
    g.state.phase = Phase.ASSAULT_FIRST
    s.acted = False
    g.state.touch()
    first_steps = {r.path[0] for r in g.reachable(s.uid).values()}
    assert first_steps == {at(1, 0), at(3, 0)}
    off_road = [n for n in at(2, 0).neighbors() if n in bm.terrain and n not in first_steps]
    assert off_road
    for n in off_road:
        with pytest.raises(IllegalAction):
            g.apply(Move("Axis", s.uid, (n,), None))


def test_vehicle_road_through_pond_is_passable_and_stops_only_where_legal():
    """rulebook: Roads - a Vehicle may drive through a pond along a road; leaving the
    road there is refused (Vehicles can't enter ponds)."""
    bm = rect_map(7, 3, {(2, 1): "pond"},
                  roads=[((1, 1), (2, 1)), ((2, 1), (3, 1)), ((3, 1), (4, 1))])
    g = position(bm)
    t = g.add_unit(tank(speed=3), "Axis", at(1, 1))
    r = g.reachable(t.uid)
    assert r[at(4, 1)].path == (at(2, 1), at(3, 1), at(4, 1)) and r[at(4, 1)].rolls == ()
    # every path through the pond comes in and goes out along the road
    pond = at(2, 1)
    for reach in r.values():
        path = (at(1, 1),) + tuple(reach.path)
        for i, h in enumerate(path[1:-1], 1):
            if h == pond:
                assert bm.is_road(path[i - 1], h) and bm.is_road(h, path[i + 1]), path
    assert g.check(Move("Axis", t.uid, (pond, pond.neighbor(SE)), SE)) is not None


def test_road_bonus_is_only_the_first_road_hex():
    """rulebook: Road Bonus - each phase only the first hex a Vehicle moves along a road
    is free: speed 2 along a long road goes 3 hexes, not 4."""
    roads = [((c, 0), (c + 1, 0)) for c in range(0, 9)]
    g = position(rect_map(10, 1, roads=roads))
    t = g.add_unit(tank(speed=2), "Axis", at(0, 0))
    r = g.reachable(t.uid)
    assert r[at(3, 0)].cost == 2 and r[at(3, 0)].road_bonus_used
    assert at(4, 0) not in r


def test_road_bonus_applies_to_the_first_road_hex_even_after_open_ground():
    """rulebook: Road Bonus - the free hex is the first hex moved along a road this phase,
    wherever on the path it comes."""
    roads = [((c, 0), (c + 1, 0)) for c in range(2, 9)]
    g = position(rect_map(10, 1, roads=roads))
    t = g.add_unit(tank(speed=3), "Axis", at(0, 0))
    r = g.reachable(t.uid)
    # (0)->(1)->(2) open ground (2 hexes), (2)->(3) first road hex free, (3)->(4) 1
    assert r[at(4, 0)].cost == 3 and at(5, 0) not in r


def test_stream_then_forest_two_rolls_second_fails():
    """rulebook: Multiple Movement Rolls - a Vehicle crossing a stream into a forest must
    succeed at both rolls; ruling 15: stream first.  A failed forest roll after a good
    stream roll stops it in the hex it tried to leave."""
    bm = rect_map(6, 1, {(3, 0): "forest"}, streams=[((2, 0), (3, 0))])
    g = position(bm, dice=[5, 2])
    t = g.add_unit(tank(speed=4), "Axis", at(1, 0))
    ev = g.apply(Move("Axis", t.uid, line(1, 3), E))
    rolls = [(e.roll_kind, e.die, e.ok) for e in ev if e.kind == "MovementRoll"]
    assert rolls == [("stream", 5, True), ("forest", 2, False)]
    assert t.hex == at(2, 0) and t.facing == E


def test_stream_failure_into_forest_skips_the_forest_roll():
    """ruling 15 - only when the stream roll succeeds is the forest rolled: a failed
    stream roll uses one die only."""
    bm = rect_map(6, 1, {(3, 0): "forest"}, streams=[((2, 0), (3, 0))])
    g = position(bm, dice=[1, 6])
    t = g.add_unit(tank(speed=4), "Axis", at(1, 0))
    g.apply(Move("Axis", t.uid, line(1, 3), E))
    assert t.hex == at(2, 0)
    assert g.dice.remaining == 1


def test_soldier_crossing_stream_into_forest_rolls_only_for_the_stream():
    """rulebook: Movement Roll - Soldiers roll to cross streams but not to enter forests."""
    bm = rect_map(6, 1, {(3, 0): "forest"}, streams=[((2, 0), (3, 0))])
    g = position(bm)
    s = g.add_unit(rifles(speed=2), "Axis", at(2, 0))
    assert [r.kind for r in g.reachable(s.uid)[at(3, 0)].rolls] == ["stream"]


def test_forced_stop_by_defensive_fire_in_a_full_hex_goes_back_keeping_facing():
    """ruling 6 / rulebook: Breaking Stacking Rules - a Vehicle disrupted by defensive
    fire in a hex holding another friendly Vehicle is put back along its path to the last
    hex where it may stop, with the facing it had when it left that hex."""
    bm = rect_map(10, 5)
    g = position(bm, dice=[6] * 6)
    start = at(2, 2)
    full = start.neighbor(E)                 # friendly Vehicle here: can't stop
    nxt = full.neighbor(NE)
    g.add_unit(tank(), "Axis", full)
    t = g.add_unit(tank(speed=4), "Axis", start, facing=W)
    # an enemy Soldier adjacent to `full` and to `nxt`, two hexes from `start`
    f = g.add_unit(rifles("United States", soldier=(6, 4, 2), vehicle=(6, 4, 2)),
                   "Allies", full.neighbor(E))
    # path start -> full -> nxt; leaving `full` for `nxt` provokes f (both adjacent)
    g.apply(Move("Axis", t.uid, (full, nxt), NE))
    p = g.state.pending
    assert isinstance(p, DefensiveFirePrompt) and p.stage == "leave" and p.eligible == (f.uid,)
    ev = g.apply(DefensiveFire("Allies", f.uid))
    assert t.disrupted
    assert t.hex == start and t.facing == E            # left `start` facing E
    assert "UnitPutBack" in kinds(ev)


def test_forced_stop_of_a_soldier_in_a_hex_with_two_friendly_soldiers_goes_back():
    """ruling 6 / rulebook: Breaking Stacking Rules - also for Soldiers: a hex with two
    friendly units is full."""
    bm = rect_map(10, 5)
    g = position(bm, dice=[6] * 6)
    start = at(2, 2)
    full = start.neighbor(E)
    g.add_unit(rifles(), "Axis", full)
    g.add_unit(rifles(), "Axis", full)
    s = g.add_unit(rifles(speed=2), "Axis", start)
    f = g.add_unit(rifles("United States"), "Allies", full.neighbor(NE))
    g.apply(Move("Axis", s.uid, (full, full.neighbor(E)), None))
    assert g.state.pending.stage == "leave"
    g.apply(DefensiveFire("Allies", f.uid))
    assert s.disrupted and s.hex == start


def test_road_bonus_is_given_again_in_the_next_phase():
    """rulebook: Road Bonus - each phase: a Vehicle that used it in its movement phase gets
    it again in its assault phase."""
    roads = [((c, 0), (c + 1, 0)) for c in range(0, 11)]
    g = position(rect_map(12, 1, roads=roads), first="Axis")
    t = g.add_unit(tank(speed=2), "Axis", at(0, 0))
    g.apply(Move("Axis", t.uid, line(0, 3), E))
    assert t.hex == at(3, 0)
    g.apply(EndPhase("Axis"))
    g.apply(EndPhase("Allies"))
    assert g.state.phase == Phase.ASSAULT_FIRST
    r = g.reachable(t.uid)
    assert r[at(6, 0)].cost == 2 and r[at(6, 0)].road_bonus_used and at(7, 0) not in r


def test_turning_in_place_in_the_assault_phase_is_the_units_activation():
    """rulebook: Moving Zero Hexes / Assault Phases - changing facing is a move, so the
    unit can't also attack that phase (ruling 7)."""
    g = position(rect_map(8, 3), phase=Phase.ASSAULT_FIRST, dice=[6] * 10)
    t = g.add_unit(tank(), "Axis", at(1, 1), facing=W)
    e = g.add_unit(rifles("United States"), "Allies", at(3, 1))
    g.apply(Move("Axis", t.uid, (), E))
    assert t.facing == E and t.acted
    with pytest.raises(IllegalAction):
        g.apply(Attack("Axis", t.uid, e.uid))
    assert e.pending == []


# ----------------------------------------------------------------------- defensive fire

def test_soldiers_moving_past_a_tank_provoke_nothing_from_it():
    """rulebook: Soldiers and Vehicles - Soldiers may move around an enemy tank, and even
    into and out of its hex, without defensive fire from that Vehicle."""
    bm = rect_map(10, 5)
    g = position(bm)
    tk = at(5, 2)
    g.add_unit(tank("United States"), "Allies", tk)
    s = g.add_unit(rifles(speed=3), "Axis", tk.neighbor(W))
    path = (tk, tk.neighbor(E), tk.neighbor(E).neighbor(E))
    ev = g.apply(Move("Axis", s.uid, path, None))
    assert g.state.pending is None and s.hex == path[-1]
    assert "DefensiveFireOffered" not in kinds(ev)


def test_leaving_one_enemy_for_another_enemy_provokes_nothing():
    """rulebook: Provoking Defensive Fire - the move must go from a hex adjacent to an
    enemy unit into another hex adjacent to that same unit: leaving enemy X's side for
    enemy Y's side provokes neither."""
    g = position(rect_map(12, 5))
    A = at(4, 2)
    B = A.neighbor(E)
    g.add_unit(rifles("United States"), "Allies", A.neighbor(W))      # next to A only
    g.add_unit(rifles("United States"), "Allies", B.neighbor(E))      # next to B only
    m = g.add_unit(rifles(speed=2), "Axis", A)
    ev = g.apply(Move("Axis", m.uid, (B,), None))
    assert g.state.pending is None and m.hex == B
    assert "DefensiveFireOffered" not in kinds(ev)


def test_soldier_past_a_tank_and_a_soldier_only_the_soldier_may_fire():
    """rulebook: Soldiers and Vehicles - enemy Soldiers see them just fine: with a tank
    and a Soldier in the same hex, only the Soldier is offered the shot."""
    bm = rect_map(10, 5)
    g = position(bm)
    tk = at(5, 2)
    g.add_unit(tank("United States"), "Allies", tk)
    gi = g.add_unit(rifles("United States"), "Allies", tk)
    s = g.add_unit(rifles(speed=2), "Axis", tk.neighbor(W))
    g.apply(Move("Axis", s.uid, (tk.neighbor(SW),), None))
    assert g.state.pending.eligible == (gi.uid,)


def test_defensive_fire_by_a_disrupted_unit_is_refused():
    """rulebook: Disrupted - a disrupted unit can't make defensive-fire attacks: it is not
    offered the shot and a DefensiveFire action naming it is refused."""
    bm = rect_map(10, 5)
    g = position(bm)
    F = at(5, 2)
    dis = g.add_unit(rifles("United States"), "Allies", F, disrupted=True)
    ok = g.add_unit(rifles("United States"), "Allies", F)
    m = g.add_unit(rifles(speed=2), "Axis", F.neighbor(W))
    g.apply(Move("Axis", m.uid, (F.neighbor(SW),), None))
    p = g.state.pending
    assert p.eligible == (ok.uid,)
    with pytest.raises(IllegalAction):
        g.apply(DefensiveFire("Allies", dis.uid))
    assert not dis.fired_defensively and g.state.pending == p


def test_vehicle_stopped_by_defensive_fire_faces_the_hex_it_tried_to_enter():
    """rulebook: Facing and Stopped Movement - a Vehicle stopped (here by defensive fire
    before it leaves its hex) ends facing the hex it tried to enter, not the facing the
    player asked for at the end of the path."""
    g = position(rect_map(10, 5), dice=[6] * 6)
    F = at(5, 2)
    f = g.add_unit(rifles("United States", vehicle=(6, 4, 2)), "Allies", F)
    A = F.neighbor(W)
    B = F.neighbor(SW)
    t = g.add_unit(tank(speed=3, front=4, rear=4), "Axis", A, facing=NE)
    g.apply(Move("Axis", t.uid, (B, B.neighbor(W)), W))
    g.apply(DefensiveFire("Allies", f.uid))
    assert t.hex == A and t.disrupted and t.facing == direction_between(A, B)


def test_no_defensive_fire_without_an_attack_value_against_the_mover():
    """rulebook: Attack and Defense - a unit attacks only what it has an attack value
    against: a commander with a dash against Vehicles is not offered defensive fire at a
    passing tank, the rifles beside it are."""
    g = position(rect_map(10, 5))
    F = at(5, 2)
    g.add_unit(officer("United States"), "Allies", F)          # vs Vehicles: all dashes
    gi = g.add_unit(rifles("United States"), "Allies", F)      # vs Vehicles: 1 at short
    t = g.add_unit(tank(speed=3), "Axis", F.neighbor(W))
    g.apply(Move("Axis", t.uid, (F.neighbor(SW),), E))
    assert g.state.pending.eligible == (gi.uid,)


def test_unit_with_face_down_counters_still_fires_defensively_this_phase():
    """rulebook: Scoring Hits - hits don't take effect until the casualty phase: a Soldier
    that already carries a face-down Destroyed counter this assault phase still makes its
    defensive-fire attack at full strength."""
    F = at(5, 2)
    g = position(rect_map(10, 5), phase=Phase.ASSAULT_FIRST, dice=[6] * 6 + [6, 6, 6, 6, 1, 1])
    f = g.add_unit(rifles("United States"), "Allies", F)
    a = g.add_unit(rifles(), "Axis", F.neighbor(E))
    m = g.add_unit(rifles(speed=2), "Axis", F.neighbor(W))
    g.apply(Attack("Axis", a.uid, f.uid))
    assert f.pending == ["disrupted", "destroyed"] and not f.disrupted
    g.apply(Move("Axis", m.uid, (F.neighbor(SW),), None))
    assert g.state.pending.eligible == (f.uid,)
    ev = g.apply(DefensiveFire("Allies", f.uid))
    rolled = [e for e in ev if e.kind == "DiceRolled"][0]
    assert rolled.need == 4 and rolled.successes == 4 and m.disrupted


def test_defensive_fire_best_result_is_disruption():
    """rulebook: Defensive-Fire Attacks - the best result is disruption: even double the
    defense in successes places a single face-up Disrupted, no Damaged or Destroyed."""
    bm = rect_map(10, 5)
    g = position(bm, dice=[6] * 8)
    F = at(5, 2)
    f = g.add_unit(rifles("United States", soldier=(8, 4, 2), vehicle=(8, 4, 2)), "Allies", F)
    m = g.add_unit(tank(speed=3, front=2, rear=2), "Axis", F.neighbor(W))
    g.apply(Move("Axis", m.uid, (F.neighbor(SW),), SW))
    g.apply(DefensiveFire("Allies", f.uid))
    assert m.disrupted and m.pending == [] and not m.damaged and not m.destroyed


def test_vehicle_disrupted_by_defensive_fire_cannot_move_in_its_assault_phase_but_attacks():
    """rulebook: Disrupted / glossary: disrupted - hit by defensive fire in its movement
    phase, the unit is disrupted at once: it can't move in its own assault phase, but may
    still attack (with -1 on each die)."""
    bm = rect_map(10, 5)
    g = position(bm, dice=[6] * 6 + [5, 5, 4, 4, 4, 4, 4, 4, 4, 4])
    F = at(5, 2)
    f = g.add_unit(rifles("United States", vehicle=(6, 4, 2)), "Allies", F)
    t = g.add_unit(tank(speed=3, front=4, rear=4), "Axis", F.neighbor(W))
    g.apply(Move("Axis", t.uid, (F.neighbor(SW),), E))
    g.apply(DefensiveFire("Allies", f.uid))
    assert t.disrupted
    g.apply(EndPhase("Axis"))          # Axis movement ends
    g.apply(EndPhase("Allies"))        # Allied movement ends
    assert g.state.phase == Phase.ASSAULT_FIRST
    with pytest.raises(IllegalAction, match="disrupted"):
        g.apply(Move("Axis", t.uid, (t.hex.neighbor(W),), W))
    ev = g.apply(Attack("Axis", t.uid, f.uid))
    rolled = [e for e in ev if e.kind == "DiceRolled"][0]
    assert rolled.need == 5 and rolled.successes == 2      # 8 dice, only the two 5s count


def test_defensive_fire_disruption_ends_at_the_next_casualty_phase():
    """rulebook: Defensive Fire Causes Immediate Disruption - the face-up Disrupted
    counter is removed at the start of the next casualty phase, as normal."""
    bm = rect_map(10, 5)
    g = position(bm, dice=[6] * 6 + [1, 1, 6, 6])
    F = at(5, 2)
    f = g.add_unit(rifles("United States"), "Allies", F)
    m = g.add_unit(rifles(speed=2), "Axis", F.neighbor(W))
    g.apply(Move("Axis", m.uid, (F.neighbor(SW),), None))
    g.apply(DefensiveFire("Allies", f.uid))
    assert m.disrupted
    for side in ("Axis", "Allies", "Axis", "Allies"):
        g.apply(EndPhase(side))
    assert g.state.turn == 2 and not m.disrupted


def test_moving_vehicle_faces_the_hex_it_enters_for_both_defensive_fire_stages():
    """rulebook: Defensive Fire / Vehicle Facing - the mover faces toward the hex it is
    entering (away from the hex it leaves); that facing picks front or rear defense: the
    same shooter hits the front in the hex it leaves and the rear in the hex it enters
    (the rulebook's Sherman and PAK 38 example, in the open)."""
    bm = rect_map(12, 5)
    g = position(bm)
    A = at(4, 2)
    B = A.neighbor(E)
    t = g.add_unit(tank(speed=3, front=5, rear=3), "Axis", A, facing=W)
    sh = g.add_unit(rifles("United States"), "Allies", A.neighbor(NE))   # adjacent to A and B
    g.apply(Move("Axis", t.uid, (B,), SE))
    p = g.state.pending
    assert p.stage == "leave" and p.eligible == (sh.uid,)
    assert t.hex == A and t.facing == E             # faces the hex it enters
    assert g.odds(sh.uid, t.uid, defensive=True).defense == 5      # ahead of it: front
    g.apply(PassDefensiveFire("Allies"))
    p = g.state.pending
    assert p.stage == "enter" and t.hex == B and t.facing == E     # away from A
    assert g.odds(sh.uid, t.uid, defensive=True).defense == 3      # behind it now: rear
    g.apply(PassDefensiveFire("Allies"))
    assert t.facing == SE                           # then the chosen final facing


# ------------------------------------------------------------------------- combat/cover

def test_cover_in_marsh_for_a_soldier_but_not_for_a_vehicle_on_a_road():
    """rulebook: Cover / Terrain Effects - marsh gives cover to Soldiers only; a Vehicle in
    a marsh (there only along a road) makes no cover roll; roads don't change cover."""
    bm = rect_map(8, 3, {(3, 1): "marsh"}, roads=[((2, 1), (3, 1)), ((3, 1), (4, 1))])
    g = position(bm, phase=Phase.ASSAULT_FIRST)
    a = g.add_unit(rifles("United States", vehicle=(6, 4, 2)), "Allies", at(1, 1))
    sv = g.add_unit(tank(), "Axis", at(3, 1))
    ss = g.add_unit(rifles(), "Axis", at(3, 1))
    g.state.first_player, g.state.second_player = "Allies", "Axis"
    g.state.touch()
    assert g.odds(a.uid, ss.uid).cover_roll == 4
    assert g.odds(a.uid, sv.uid).cover_roll is None


def test_cover_in_same_hex_is_one_worse():
    """rulebook: Target in the Same Hex - -1 on the cover roll: a Soldier in a forest needs
    5+ against an attacker in its own hex, 4+ against one next door."""
    bm = rect_map(8, 3, {(3, 1): "forest"})
    g = position(bm)
    t = g.add_unit(rifles(), "Axis", at(3, 1))
    near = g.add_unit(rifles("United States"), "Allies", at(3, 1))
    far = g.add_unit(rifles("United States"), "Allies", at(4, 1))
    assert g.odds(near.uid, t.uid).cover_roll == 5
    assert g.odds(far.uid, t.uid).cover_roll == 4


def test_damaged_vehicle_single_hit_is_only_disrupted():
    """rulebook: Hits - the first hit on a damaged Vehicle this phase is still a
    Disrupted counter; only a second hit (a would-be Damaged) becomes Destroyed."""
    bm = rect_map(8, 3)
    g = position(bm, phase=Phase.ASSAULT_FIRST, first="Allies",
                 dice=[6, 6, 6, 6, 1, 1, 1, 1, 1, 1])
    a = g.add_unit(rifles("United States", vehicle=(10, 8, 6)), "Allies", at(1, 1))
    v = g.add_unit(tank(front=5, rear=5), "Axis", at(2, 1), damaged=True, facing=W)
    ev = g.apply(Attack("Allies", a.uid, v.uid))
    assert [e.hits for e in ev if e.kind == "HitsScored"] == [1]   # 4 successes vs 4
    assert v.pending == ["disrupted"]


def test_damaged_vehicle_second_damaged_from_a_second_attacker_is_destroyed():
    """rulebook: Damaged / ruling 13 - a damaged Vehicle that would get a Damaged counter
    gets Destroyed instead, also when the second hit comes from another attacker."""
    bm = rect_map(8, 3)
    g = position(bm, phase=Phase.ASSAULT_FIRST, first="Allies",
                 dice=[6, 6, 6, 6, 1, 1, 1, 1, 1, 1] * 2)
    a1 = g.add_unit(rifles("United States", vehicle=(10, 8, 6)), "Allies", at(1, 1))
    a2 = g.add_unit(rifles("United States", vehicle=(10, 8, 6)), "Allies", at(1, 1))
    v = g.add_unit(tank(front=5, rear=5), "Axis", at(2, 1), damaged=True, facing=W)
    g.apply(Attack("Allies", a1.uid, v.uid))
    g.apply(Attack("Allies", a2.uid, v.uid))
    assert v.pending == ["disrupted", "destroyed"]


def test_face_up_disrupted_from_earlier_is_not_a_hit_this_phase_ruling_13():
    """ruling 13 - a Soldier disrupted (face up) from an earlier turn: one hit this phase
    is a face-down Disrupted, not Destroyed; its defense is 1 lower meanwhile."""
    bm = rect_map(8, 3)
    g = position(bm, phase=Phase.ASSAULT_FIRST, first="Allies", dice=[6, 6, 6, 1, 1, 1])
    a = g.add_unit(rifles("United States"), "Allies", at(1, 1))
    s = g.add_unit(rifles(front=4), "Axis", at(2, 1), disrupted=True)
    ev = g.apply(Attack("Allies", a.uid, s.uid))
    assert [e.hits for e in ev if e.kind == "HitsScored"] == [1]   # 3 successes vs 4 - 1
    assert s.pending == ["disrupted"] and s.disrupted


def test_two_attackers_second_attack_uses_the_undisrupted_defense():
    """rulebook glossary: simultaneous hits - a face-down Disrupted from the first
    attacker doesn't lower the defense for the second; two single hits make Destroyed."""
    bm = rect_map(8, 3)
    dice = [6, 6, 6, 6, 1, 1] + [6, 6, 6, 1, 1, 1] + [6, 6, 6, 6, 1, 1]
    g = position(bm, phase=Phase.ASSAULT_FIRST, first="Allies", dice=dice)
    a1, a2, a3 = (g.add_unit(rifles("United States"), "Allies", at(1, 1 + (i > 1)))
                  for i in range(3))
    s = g.add_unit(rifles(front=4), "Axis", at(2, 1))
    g.apply(Attack("Allies", a1.uid, s.uid))
    assert s.pending == ["disrupted"]
    ev = g.apply(Attack("Allies", a2.uid, s.uid))        # 3 successes vs 4: still a miss
    assert [e.hits for e in ev if e.kind == "HitsScored"] in ([], [0])
    g.apply(Attack("Allies", a3.uid, s.uid))
    assert s.pending == ["disrupted", "destroyed"] and not s.destroyed


def test_attacker_cannot_change_facing_after_attacking():
    """rulebook: Facing and Attacking - a unit that attacks in the assault phase can't
    change facing that phase (ruling 7: it has used its activation)."""
    bm = rect_map(8, 3)
    g = position(bm, phase=Phase.ASSAULT_FIRST, dice=[1] * 10)
    t = g.add_unit(tank(), "Axis", at(1, 1), facing=E)
    e = g.add_unit(rifles("United States"), "Allies", at(3, 1))
    g.apply(Attack("Axis", t.uid, e.uid))
    with pytest.raises(IllegalAction):
        g.apply(Move("Axis", t.uid, (), W))
    assert t.facing == E


def test_no_firing_arc_ruling_16():
    """ruling 16 - units fire in any direction: a Vehicle facing away from its target
    (target directly behind it) may attack it with full dice."""
    bm = rect_map(8, 3)
    g = position(bm, phase=Phase.ASSAULT_FIRST)
    t = g.add_unit(tank(soldier=(8, 6, 4)), "Axis", at(3, 1), facing=E)
    e = g.add_unit(rifles("United States"), "Allies", at(1, 1))       # two hexes behind
    info = {ti.target: ti for ti in g.targets(t.uid)}
    assert e.uid in info and info[e.uid].dice == 6
    assert g.check(Attack("Axis", t.uid, e.uid)) is None


def test_acting_player_activates_units_in_any_order():
    """rulebook: Multiple Actions - the acting player decides the order: every unit that
    hasn't acted is offered, and either order is legal."""
    for order in ((0, 1), (1, 0)):
        g = position(rect_map(8, 3), phase=Phase.ASSAULT_FIRST, dice=[1] * 20)
        us = [g.add_unit(rifles(), "Axis", at(1, r)) for r in (0, 1)]
        e = g.add_unit(rifles("United States"), "Allies", at(3, 1))
        offered = {a.uid for a in g.legal_actions() if isinstance(a, Attack)}
        assert offered == {us[0].uid, us[1].uid}
        for i in order:
            g.apply(Attack("Axis", us[i].uid, e.uid))
        assert all(u.acted for u in us)


# -------------------------------------------------------------------- initiative/setup

def test_initiative_tie_with_equal_commander_bonus_rerolls():
    """rulebook: Initiative Phase - same total and same commander bonus: reroll the tie
    (both sides with a +2 commander)."""
    bm = rect_map(16, 5, objective=(8, 2))
    g = position(bm, phase=Phase.ASSAULT_SECOND, dice=[3, 4, 5, 2, 6, 6, 1, 1])
    g.add_unit(officer(bonus=2), "Axis", at(1, 1))
    g.add_unit(officer("United States", bonus=2), "Allies", at(14, 1))
    g.apply(EndPhase("Allies"))
    rolls = [e for e in g.log if e.kind == "InitiativeRolled"]
    assert [e.winner for e in rolls] == [None, "Axis"]


def test_initiative_only_the_best_commander_bonus_counts():
    """rulebook: Initiative Phase / Commander abilities - add the best bonus of any
    commander, not the sum (duplicate bonuses never stack)."""
    bm = rect_map(16, 5)
    g = position(bm)
    g.add_unit(officer(bonus=2), "Axis", at(1, 1))
    g.add_unit(officer(bonus=1), "Axis", at(1, 2))
    g.add_unit(officer("United States", bonus=1), "Allies", at(14, 1))
    assert g.initiative_bonus("Axis") == 2 and g.initiative_bonus("Allies") == 1


def test_initiative_all_commanders_disrupted_adds_zero():
    """rulebook: Initiative Phase - if all your commanders are disrupted, add zero."""
    bm = rect_map(16, 5)
    g = position(bm)
    g.add_unit(officer(bonus=3), "Axis", at(1, 1), disrupted=True)
    assert g.initiative_bonus("Axis") == 0


def test_assault_objective_not_on_the_top_or_bottom_edge():
    """rulebook: Assault Scenario - the objective hex may not be adjacent to the edge of
    the battle map: a hex in the top or bottom row is refused, an inner hex accepted."""
    bm = rect_map(16, 11, objective=(8, 5))
    g = new_game(bm, {"Axis": AXIS_ARMY, "Allies": ALLIED_ARMY}, scenario="assault",
                 dice=LoadedDice([]), options={"attacker": "Allies"})
    g.apply(ChooseEnd("Axis", "right"))
    for bad in (at(12, 0), at(12, 10)):
        with pytest.raises(IllegalAction):
            g.apply(ChooseObjective("Axis", bad))
    g.apply(ChooseObjective("Axis", at(12, 1)))
    assert g.state.objective == at(12, 1)


def test_standard_deployment_not_beyond_five_hexes_and_not_in_marsh_for_vehicles():
    """rulebook: First Player Deployment / ruling 8 - within five whole hexes of your end;
    Vehicles not in hexes they can't enter."""
    bm = rect_map(16, 11, {(2, 3): "marsh"}, objective=(8, 5))
    g = new_game(bm, {"Axis": AXIS_ARMY, "Allies": ALLIED_ARMY}, dice=LoadedDice([]),
                 coin_winner="Axis")
    g.apply(ChooseOrder("Axis", True))
    g.apply(ChooseEnd("Axis", "left"))
    panzer = next(u for u in g.state.units_of("Axis") if u.is_vehicle)
    assert g.check(Deploy("Axis", panzer.uid, at(4, 5))) is None
    assert g.check(Deploy("Axis", panzer.uid, at(5, 5))) is not None
    assert g.check(Deploy("Axis", panzer.uid, at(2, 3))) is not None


# --------------------------------------------------------------------------- victory

MAP_V = rect_map(12, 9, objective=(6, 4))
OBJ = at(6, 4)


def end_turn(turn, units, scenario="standard", attacker=None, dice=(1, 1, 6, 6)):
    g = position(MAP_V, phase=Phase.ASSAULT_SECOND, turn=turn, dice=list(dice),
                 scenario=scenario)
    if attacker:
        g.state.attacker = attacker
    for c, side, h, kw in units:
        g.add_unit(c, side, h, **kw)
    g.apply(EndPhase("Allies"))
    return g


def AX(h, **kw):
    return (rifles(), "Axis", h, kw)


def AL(h, **kw):
    return (rifles("United States"), "Allies", h, kw)


@pytest.mark.parametrize("turn", [8, 9, 10])
def test_control_at_the_end_of_turns_8_to_10_wins(turn):
    """rulebook: How to Win - if nobody won on turn 7, a player controlling the objective
    at the end of any later turn wins (ruling 9)."""
    g = end_turn(turn, [AL(OBJ), AX(at(0, 0))])
    assert g.state.outcome is not None and g.state.outcome.winner == "Allies"


def test_a_unit_destroyed_in_this_casualty_phase_does_not_control():
    """rulebook: Casualty Phase then End of Turn - control is checked after destroyed
    units leave the map: the only unit next to the objective, destroyed this turn,
    controls nothing."""
    g = end_turn(7, [AX(OBJ.neighbor(W), pending=["disrupted", "destroyed"]),
                     AL(at(11, 8))])
    assert g.state.outcome is None and g.state.turn == 8


def test_control_on_turn_6_does_not_win_and_unit_in_the_objective_hex_counts():
    """rulebook: How to Win - nobody wins before the end of turn 7; a unit in the
    objective hex itself is adjacent (glossary: adjacent)."""
    g = end_turn(6, [AL(OBJ), AX(at(0, 0))])
    assert g.state.outcome is None
    g = end_turn(7, [AL(OBJ), AX(at(0, 0))])
    assert g.state.outcome.winner == "Allies"


def test_points_tie_after_turn_10_then_a_points_lead_wins_on_turn_11():
    """ruling 9 / rulebook: still tied - play on; at the end of turn 11 a points lead
    (nobody in control) wins."""
    g = end_turn(10, [AX(at(0, 0)), AL(at(11, 8))])
    assert g.state.outcome is None and g.state.turn == 11
    g2 = end_turn(11, [AX(at(0, 0)), AX(at(0, 1)), AL(at(11, 8))])
    assert g2.state.outcome.winner == "Axis"


def test_destroyed_units_do_not_count_for_points():
    """rulebook: count the point values of the units on the battle map - a unit destroyed
    in this casualty phase no longer counts."""
    g = end_turn(10, [AX(at(0, 0), pending=["disrupted", "destroyed"]),
                      AX(at(0, 1)), AL(at(11, 8)), AL(at(11, 7))])
    assert g.state.outcome.winner == "Allies"


def test_boarded_soldier_counts_for_points_ruling_10():
    """ruling 10 - boarded Soldiers count for victory points (a transport of 9 with a
    passenger of 5 beats a 13-point tank)."""
    g = position(MAP_V, phase=Phase.ASSAULT_SECOND, turn=10, dice=[1, 1, 6, 6])
    ht = g.add_unit(halftrack(cost=9), "Axis", at(0, 0))
    g.add_unit(rifles(cost=5), "Axis", carrier=ht.uid)
    g.add_unit(tank("United States", cost=13), "Allies", at(11, 8))
    g.apply(EndPhase("Allies"))
    assert g.state.outcome.winner == "Axis"


def test_disrupted_units_contest_the_objective_ruling_11():
    """ruling 11 - a disrupted enemy next to the objective still denies control."""
    g = end_turn(8, [AL(OBJ), AX(OBJ.neighbor(E), disrupted=True)])
    assert g.state.outcome is None


def test_assault_scenario_control_before_turn_10_does_not_win():
    """rulebook: Assault Scenario - the attacker wins only by controlling the objective
    at the end of turn 10; control at the end of turn 7 decides nothing."""
    g = end_turn(7, [AL(OBJ), AX(at(0, 0))], scenario="assault", attacker="Allies")
    assert g.state.outcome is None
    g = end_turn(10, [AL(OBJ), AX(at(0, 0))], scenario="assault", attacker="Allies")
    assert g.state.outcome.winner == "Allies"


def test_assault_scenario_defender_wins_at_turn_10_even_behind_on_points():
    """rulebook: Assault Scenario - without control at the end of turn 10 the attacker
    has lost, however many points it has left."""
    g = end_turn(10, [AL(at(11, 8)), AL(at(11, 7)), AX(at(0, 0))], scenario="assault",
                 attacker="Allies")
    assert g.state.outcome.winner == "Axis"


# ---------------------------------------------------------------------- situation files

AUDIT = Path(__file__).resolve().parent.parent / "situations" / "audit"
AUDIT_FILES = sorted(AUDIT.glob("*.yaml"))


@pytest.mark.parametrize("path", AUDIT_FILES, ids=[p.stem for p in AUDIT_FILES])
def test_audit_situation(path):
    """Each audit situation file names its rule and passes."""
    sit = load_situation(path)
    result = run_situation(sit)
    assert result.ok, "\n".join(result.problems)
