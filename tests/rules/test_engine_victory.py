"""Victory (rulebook: How to Win, Standard Scenario, Assault Scenario; rulings 9-11)."""
from tests.rules.engine_kit import at, halftrack, position, rect_map, rifles, tank
from game.rules.actions import EndPhase
from game.rules.state import Phase

MAP = rect_map(12, 9, objective=(6, 4))
OBJ = at(6, 4)
NEXT_TURN_DICE = [1, 1, 6, 6]


def end_turn(turn, units, scenario="standard", attacker=None):
    """A position at the end of ``turn``'s second assault phase; returns the game
    after EndPhase (casualty phase and end of turn have run)."""
    g = position(MAP, phase=Phase.ASSAULT_SECOND, turn=turn, dice=NEXT_TURN_DICE,
                 scenario=scenario)
    if attacker:
        g.state.attacker = attacker
    for c, side, h, kw in units:
        g.add_unit(c, side, h, **kw)
    g.apply(EndPhase("Allies"))
    return g


AX = lambda h, **kw: (rifles(), "Axis", h, kw)                      # noqa: E731
AL = lambda h, **kw: (rifles("United States"), "Allies", h, kw)     # noqa: E731


def test_objective_control_wins_from_turn_7_not_before():
    """rulebook: How to Win / ruling 9 - at the end of turn 7 the player who controls
    the objective (the only one with a unit adjacent) wins."""
    g6 = end_turn(6, [AX(OBJ.neighbor(0)), AL(at(1, 1))])
    assert g6.state.outcome is None and g6.state.turn == 7
    g7 = end_turn(7, [AX(OBJ.neighbor(0)), AL(at(1, 1))])
    assert g7.state.outcome.winner == "Axis" and g7.state.phase == Phase.GAME_OVER
    assert g7.log[-1].kind == "GameEnded"


def test_contested_objective_is_not_controlled():
    """rulebook: You control the objective if you are the only player with a unit
    adjacent to it."""
    g = end_turn(8, [AX(OBJ), AL(OBJ.neighbor(3))])
    assert g.state.outcome is None and g.state.turn == 9


def test_disrupted_units_count_for_control():
    """ruling 11 - disrupted units count for control of the objective."""
    g = end_turn(7, [AX(OBJ.neighbor(1), disrupted=True), AL(at(1, 1))])
    assert g.state.outcome.winner == "Axis"


def test_points_decide_at_the_end_of_turn_10():
    """ruling 9/10 - from the end of turn 10, with nobody in control, more points on
    the map wins; full card costs whatever counters; boarded Soldiers count."""
    g = position(MAP, phase=Phase.ASSAULT_SECOND, turn=10, dice=NEXT_TURN_DICE)
    ht = g.add_unit(halftrack(cost=9), "Axis", at(1, 1), damaged=True)
    g.add_unit(rifles(cost=5), "Axis", carrier=ht.uid)
    g.add_unit(tank("United States", cost=13), "Allies", at(10, 1))
    g.apply(EndPhase("Allies"))
    assert g.state.outcome.winner == "Axis"
    assert "14 to 13" in g.state.outcome.reason


def test_points_tie_plays_on():
    """rulebook: still tied - play until a turn ends with control or a points lead."""
    g = end_turn(10, [AX(at(1, 1)), AL(at(10, 1))])
    assert g.state.outcome is None and g.state.turn == 11
    assert any(e.kind == "PointsCounted" for e in g.log)


def test_control_beats_points_after_turn_10():
    """ruling 9 - control is checked first."""
    g = position(MAP, phase=Phase.ASSAULT_SECOND, turn=11, dice=NEXT_TURN_DICE)
    g.add_unit(rifles(cost=5), "Axis", OBJ)
    g.add_unit(tank("United States", cost=30), "Allies", at(10, 1))
    g.apply(EndPhase("Allies"))
    assert g.state.outcome.winner == "Axis"


def test_assault_attacker_must_hold_the_objective_at_the_end_of_turn_10():
    """rulebook: Assault Scenario - the attacker wins if it controls the objective at
    the end of turn 10; otherwise the defender wins."""
    early = end_turn(7, [AX(at(1, 1)), AL(OBJ)], scenario="assault", attacker="Allies")
    assert early.state.outcome is None
    win = end_turn(10, [AX(at(1, 1)), AL(OBJ)], scenario="assault", attacker="Allies")
    assert win.state.outcome.winner == "Allies"
    lose = end_turn(10, [AX(OBJ.neighbor(2)), AL(OBJ)], scenario="assault", attacker="Allies")
    assert lose.state.outcome.winner == "Axis"


def test_both_armies_destroyed_is_a_draw():
    g = end_turn(3, [AX(at(1, 1), pending=["disrupted", "destroyed"]),
                     AL(at(10, 1), pending=["disrupted", "destroyed"])])
    assert g.state.phase == Phase.GAME_OVER and g.state.outcome.winner is None


def test_turn_limit_option_ends_an_undecided_game():
    g = position(MAP, phase=Phase.ASSAULT_SECOND, turn=12, dice=NEXT_TURN_DICE)
    g.state.options["turn_limit"] = 12
    g.add_unit(rifles(), "Axis", at(1, 1))
    g.add_unit(rifles("United States"), "Allies", at(10, 1))
    g.apply(EndPhase("Allies"))
    assert g.state.outcome.winner is None and "turn limit" in g.state.outcome.reason
