"""Events carry what a client needs to show them (issue 12): a move's start hex
and whole path, the stage and hexes of a defensive shot, who fired at whom - so
no client snapshots or diffs the state."""
from tests.rules.engine_kit import at, position, rect_map, rifles, tank
from game.rules.actions import DefensiveFire, Move, PassDefensiveFire
from game.rules.events import (CounterPlaced, DefensiveFireOffered, DefensiveFirePassed,
                               DiceRolled, HitsScored, UnitMoved, UnitStopped, UnitTurned)
from game.rules.state import Phase

E, NE, NW, W, SW, SE = range(6)
F = at(5, 5)
A = F.neighbor(W)
B = F.neighbor(SW)
C = B.neighbor(SW)
HIT = [6, 6, 6, 6, 1, 1]
MAP = rect_map(12, 11)


def setup(dice=()):
    g = position(MAP, dice=list(dice), phase=Phase.MOVEMENT_FIRST)
    m = g.add_unit(rifles(speed=3), "Axis", A)
    f = g.add_unit(rifles("United States"), "Allies", F)
    return g, m, f


def test_a_move_event_names_its_start_planned_path_and_end():
    g = position(MAP)
    m = g.add_unit(rifles(speed=2), "Axis", at(1, 1))
    path = (at(2, 1), at(3, 1))
    ev = g.apply(Move("Axis", m.uid, path, None))
    moved = [e for e in ev if isinstance(e, UnitMoved)][0]
    assert moved.start == at(1, 1) and moved.path == path and moved.planned == path
    assert moved.route == (at(1, 1),) + path and moved.end == at(3, 1) and not moved.stopped


def test_defensive_fire_offer_and_pass_carry_the_step_and_the_defender():
    g, m, f = setup()
    ev = g.apply(Move("Axis", m.uid, (B,), None))
    off = [e for e in ev if isinstance(e, DefensiveFireOffered)][0]
    assert (off.stage, off.from_hex, off.to_hex, off.at_hex, off.side) == ("leave", A, B, A,
                                                                          "Allies")
    ev = g.apply(PassDefensiveFire("Allies"))
    passed = [e for e in ev if isinstance(e, DefensiveFirePassed)][0]
    assert (passed.mover, passed.stage, passed.at_hex, passed.from_hex, passed.to_hex) == \
        (m.uid, "leave", A, A, B)


def test_a_defensive_shot_names_attacker_target_stage_and_hexes():
    """rulebook: Defensive Fire Causes Immediate Disruption - the stop event says who
    stopped the mover and at which stage."""
    g, m, f = setup(HIT)
    g.apply(Move("Axis", m.uid, (B, C), None))
    ev = g.apply(DefensiveFire("Allies", f.uid))
    rolled = [e for e in ev if isinstance(e, DiceRolled)][0]
    assert (rolled.uid, rolled.target, rolled.defensive, rolled.stage) == (f.uid, m.uid, True,
                                                                           "leave")
    assert rolled.attacker_hex == F and rolled.target_hex == A and rolled.band == "short"
    assert [e.by for e in ev if isinstance(e, HitsScored)] == [f.uid]
    assert [e.by for e in ev if isinstance(e, CounterPlaced)] == [f.uid]
    stop = [e for e in ev if isinstance(e, UnitStopped)][0]
    assert stop.by == f.uid and stop.stage == "leave" and stop.hex == A
    moved = [e for e in ev if isinstance(e, UnitMoved)]
    assert not moved or moved[0].stopped


def test_a_turn_in_place_names_the_old_facing():
    g = position(MAP)
    t = g.add_unit(tank(), "Axis", at(3, 3), facing=E)
    ev = g.apply(Move("Axis", t.uid, (), SW))
    turned = [e for e in ev if isinstance(e, UnitTurned)][0]
    assert turned.from_facing == E and turned.facing == SW
