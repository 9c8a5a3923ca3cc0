"""Defensive fire during movement (rulebook: Defensive Fire, Provoking Defensive
Fire, Defensive-Fire Limit, Optional / Multiple Defensive Fire, Movement Rolls and
Defensive Fire; ruling 14)."""
import pytest

from tests.rules.engine_kit import at, position, rect_map, rifles, tank
from game.rules.actions import DefensiveFire, EndPhase, Move, PassDefensiveFire
from game.rules.errors import IllegalAction
from game.rules.hexes import direction_between
from game.rules.state import DefensiveFirePrompt, Phase

E, NE, NW, W, SW, SE = range(6)
F = at(5, 5)                     # the defender's hex
A = F.neighbor(W)                # adjacent to F
B = F.neighbor(SW)               # adjacent to F and to A
C = B.neighbor(SW)               # two hexes from F
HIT = [6, 6, 6, 6, 1, 1]         # 6 dice at short range, 4 successes: one hit on defense 4
MISS = [1, 1, 1, 1, 1, 1]
MAP = rect_map(12, 11)


def setup(dice=(), mover=None, firer=None, phase=Phase.MOVEMENT_FIRST):
    g = position(MAP, dice=list(dice), phase=phase)
    m = g.add_unit(mover or rifles(speed=2), "Axis", A)
    f = g.add_unit(firer or rifles("United States"), "Allies", F)
    return g, m, f


def test_moving_between_two_hexes_adjacent_to_an_enemy_provokes():
    """rulebook: Provoking Defensive Fire - from a hex adjacent to an enemy into
    another hex adjacent to it; ruling 14: the leave stage is offered first."""
    g, m, f = setup()
    g.apply(Move("Axis", m.uid, (B,), None))
    p = g.state.pending
    assert isinstance(p, DefensiveFirePrompt) and p.stage == "leave" and p.eligible == (f.uid,)
    assert g.state.to_act == "Allies" and m.hex == A
    assert set(g.legal_actions()) == {DefensiveFire("Allies", f.uid), PassDefensiveFire("Allies")}
    g.apply(PassDefensiveFire("Allies"))
    p = g.state.pending
    assert p.stage == "enter" and m.hex == B
    g.apply(PassDefensiveFire("Allies"))
    assert g.state.pending is None and m.hex == B and m.acted and not f.fired_defensively


def test_own_hex_counts_as_adjacent():
    """rulebook: The hex a unit is in counts as adjacent to that unit."""
    g = position(MAP)
    m = g.add_unit(rifles(speed=2), "Axis", F)
    g.add_unit(rifles("United States"), "Allies", F)
    g.apply(Move("Axis", m.uid, (A,), None))
    assert isinstance(g.state.pending, DefensiveFirePrompt)


def test_moving_away_does_not_provoke():
    g, m, f = setup()
    away = A.neighbor(W)
    g.apply(Move("Axis", m.uid, (away,), None))
    assert g.state.pending is None and m.hex == away


def test_hit_in_the_first_hex_stops_the_mover_there():
    """rulebook: Defensive Fire Causes Immediate Disruption - the target ends its
    movement in its current hex, face-up Disrupted; it never reaches the next hex."""
    g, m, f = setup(HIT)
    ev = g.apply(Move("Axis", m.uid, (B, C), None))
    assert g.state.pending.stage == "leave"
    ev = g.apply(DefensiveFire("Allies", f.uid))
    assert m.disrupted and m.hex == A and g.state.pending is None and m.acted
    assert f.fired_defensively
    assert any(e.kind == "UnitStopped" for e in ev)


def test_units_that_wait_keep_their_shot():
    """ruling 14 - a unit that waited for the second hex, which the mover never
    reached, has not fired and keeps its defensive fire for the phase."""
    g, m, f = setup(HIT)
    f2 = g.add_unit(rifles("United States"), "Allies", F)
    g.apply(Move("Axis", m.uid, (B,), None))
    assert set(g.state.pending.eligible) == {f.uid, f2.uid}
    g.apply(DefensiveFire("Allies", f.uid))          # hits: stopped in A
    # rulebook: Multiple Defensive Fire - f2 may still fire at this stage; it holds
    p = g.state.pending
    assert isinstance(p, DefensiveFirePrompt) and p.stage == "leave" and p.eligible == (f2.uid,)
    g.apply(PassDefensiveFire("Allies"))
    assert m.hex == A and g.state.pending is None and m.acted
    assert not f2.fired_defensively


def test_several_defenders_may_fire_at_the_stage_the_mover_was_stopped_in():
    """rulebook: Multiple Defensive Fire - "If the target provokes defensive fire from
    more than one enemy unit, then more than one unit can attack"; the defender decides
    after seeing each shot, and the results don't add (one face-up Disrupted, removed
    at the next casualty phase)."""
    g, m, f = setup(HIT + HIT)
    f2 = g.add_unit(rifles("United States"), "Allies", F)
    g.apply(Move("Axis", m.uid, (B, C), None))
    g.apply(DefensiveFire("Allies", f.uid))          # hits: the mover stops in A
    assert m.disrupted and m.hex == A
    assert g.state.pending.eligible == (f2.uid,) and g.state.to_act == "Allies"
    assert DefensiveFire("Allies", f2.uid) in g.legal_actions()
    ev = g.apply(DefensiveFire("Allies", f2.uid))    # a second hit at the same stage
    assert f2.fired_defensively and any(e.kind == "DiceRolled" for e in ev)
    assert g.state.pending is None and g.state.moving is None
    assert m.hex == A and m.disrupted and m.acted and m.pending == []
    from game.rules.combat import casualty_phase
    casualty_phase(g.state)
    assert not m.disrupted


def test_miss_then_the_next_shooter_may_decide():
    """rulebook: Multiple Defensive Fire - fire one unit, then decide on the next."""
    g, m, f = setup(MISS + HIT)
    f2 = g.add_unit(rifles("United States"), "Allies", F)
    g.apply(Move("Axis", m.uid, (B,), None))
    g.apply(DefensiveFire("Allies", f.uid))
    p = g.state.pending
    assert p.stage == "leave" and p.eligible == (f2.uid,)
    g.apply(PassDefensiveFire("Allies"))
    p = g.state.pending
    assert p.stage == "enter" and p.eligible == (f2.uid,) and m.hex == B
    g.apply(DefensiveFire("Allies", f2.uid))
    assert m.hex == B and m.disrupted and m.acted


def test_one_defensive_fire_attack_per_unit_per_phase():
    """rulebook: Defensive-Fire Limit - only one defensive-fire attack per phase;
    the next phase it may fire again."""
    g, m, f = setup(MISS)
    m2 = g.add_unit(rifles(speed=2), "Axis", A)
    g.apply(Move("Axis", m.uid, (B,), None))
    g.apply(DefensiveFire("Allies", f.uid))
    assert g.state.pending is None and m.hex == B
    g.apply(Move("Axis", m2.uid, (B,), None))
    assert g.state.pending is None and m2.hex == B
    with pytest.raises(IllegalAction):
        g.apply(DefensiveFire("Allies", f.uid))
    g.apply(EndPhase("Axis"))
    assert not f.fired_defensively


def test_soldiers_dont_provoke_vehicles():
    """rulebook: Soldiers and Vehicles - Soldiers don't provoke defensive fire from
    Vehicles; Vehicles do."""
    g, m, f = setup(firer=tank("United States"))
    g.apply(Move("Axis", m.uid, (B,), None))
    assert g.state.pending is None
    g2, m2, f2 = setup(mover=tank(), firer=tank("United States"))
    g2.apply(Move("Axis", m2.uid, (B,), W))
    assert isinstance(g2.state.pending, DefensiveFirePrompt)


def test_disrupted_units_cant_fire_defensively():
    """rulebook: Disrupted - can't make defensive-fire attacks."""
    g, m, f = setup()
    f.disrupted = True
    g.apply(Move("Axis", m.uid, (B,), None))
    assert g.state.pending is None


def test_failed_movement_roll_provokes_nothing():
    """rulebook: Movement Rolls and Defensive Fire - attempting to leave a hex and
    failing doesn't provoke defensive fire."""
    bm = rect_map(12, 11, streams=[(A, B)])
    assert bm.has_stream(A, B)
    g = position(bm, dice=[2])
    m = g.add_unit(rifles(speed=2), "Axis", A)
    g.add_unit(rifles("United States"), "Allies", F)
    g.apply(Move("Axis", m.uid, (B,), None))
    assert g.state.pending is None and m.hex == A and m.acted


def test_vehicle_faces_the_hex_it_enters_during_defensive_fire():
    """rulebook: Vehicle Facing (defensive fire) - face toward the hex it enters."""
    g, m, f = setup(mover=tank(), firer=tank("United States"))
    m.facing = E
    g.apply(Move("Axis", m.uid, (B,), E))
    assert m.facing == direction_between(A, B)
    g.apply(PassDefensiveFire("Allies"))
    assert m.facing == direction_between(A, B)
    g.apply(PassDefensiveFire("Allies"))
    assert m.facing == E                    # the facing it asked for at the end


def test_defensive_fire_in_the_assault_phase_too():
    """rulebook: Defensive-Fire Limit - moves in the assault phase provoke as well."""
    g, m, f = setup(phase=Phase.ASSAULT_FIRST)
    g.apply(Move("Axis", m.uid, (B,), None))
    assert isinstance(g.state.pending, DefensiveFirePrompt)


def test_stopped_where_it_cant_stop_goes_back_ruling_6():
    """ruling 6 - a forced stop by defensive fire in a hex where the unit may not
    stop sends it back along its path to the last hex where it may."""
    g = position(MAP, dice=[6] * 11)
    start = A.neighbor(NW)
    m = g.add_unit(tank(speed=4), "Axis", start, facing=E)
    g.add_unit(tank(), "Axis", A)                    # A holds a Vehicle: no stop there
    f = g.add_unit(tank("United States"), "Allies", F)
    g.apply(Move("Axis", m.uid, (A, B), W))
    # start -> A: start is not adjacent to F, no fire; A -> B provokes
    assert g.state.pending.stage == "leave" and m.hex == A
    ev = g.apply(DefensiveFire("Allies", f.uid))
    assert m.disrupted and m.hex == start
    assert m.facing == direction_between(start, A)
    assert any(e.kind == "UnitPutBack" for e in ev)


def test_only_the_defender_may_answer_the_prompt():
    g, m, f = setup()
    g.apply(Move("Axis", m.uid, (B,), None))
    with pytest.raises(IllegalAction, match="Allied player"):
        g.apply(PassDefensiveFire("Axis"))
    with pytest.raises(IllegalAction):
        g.apply(EndPhase("Axis"))


def test_a_vehicle_moved_without_a_facing_is_faced_where_it_ends():
    """rulebook: Vehicle Facing - "At the end of a Vehicle's movement, position it so
    that it faces one of the six hex sides": after the defensive fire along the way has
    been resolved (here: a miss), the owner chooses the facing (Face)."""
    from game.rules.actions import Face, action_from_dict, action_to_dict
    from game.rules.state import FacingChoice
    g, m, f = setup(MISS + [1] * 8, mover=tank(speed=3))
    g.apply(Move("Axis", m.uid, (B, C), None))
    assert g.state.pending.stage == "leave"
    g.apply(DefensiveFire("Allies", f.uid))                # misses
    while isinstance(g.state.pending, DefensiveFirePrompt):
        g.apply(PassDefensiveFire("Allies"))
    p = g.state.pending
    assert isinstance(p, FacingChoice) and p.uid == m.uid and p.hex == C and m.hex == C
    assert g.state.to_act == "Axis"
    assert g.legal_actions() == [Face("Axis", m.uid, d) for d in range(6)]
    assert g.check(EndPhase("Axis")) is not None
    assert g.check(Face("Axis", "allies-1", 2)) is not None
    face = Face("Axis", m.uid, NW)
    assert action_from_dict(action_to_dict(face)) == face
    ev = g.apply(face)
    assert m.facing == NW and g.state.pending is None and m.acted
    assert [e.kind for e in ev] == ["FacingChosen"] and ev[0].from_facing is not None


def test_a_stopped_vehicle_gets_no_facing_choice():
    """rulebook: Facing and Stopped Movement - a Vehicle stopped by defensive fire faces
    the hex it tried to enter; nothing is left to choose."""
    g, m, f = setup([6] * 10 + [1] * 8, mover=tank(speed=3, front=4, rear=4),
                    firer=tank("United States"))
    g.apply(Move("Axis", m.uid, (B,), None))
    g.apply(DefensiveFire("Allies", f.uid))
    assert m.disrupted and g.state.pending is None
    assert m.facing == direction_between(A, B)


def test_a_move_with_a_facing_is_still_accepted():
    """Old saves and AI code: Move(..., facing=f) faces the Vehicle at the end at once."""
    g, m, f = setup([1] * 8, mover=tank(speed=3))
    w1 = A.neighbor(W)
    g.apply(Move("Axis", m.uid, (w1, w1.neighbor(W)), NE))
    while isinstance(g.state.pending, DefensiveFirePrompt):
        g.apply(PassDefensiveFire("Allies"))
    assert g.state.pending is None and m.facing == NE
