"""Undo (game.rules.undo, brief H / issue 8): moves that rolled no dice and
revealed nothing may be taken back, per unit or all at once for the current
phase; a roll, a defensive-fire offer or an ended phase is final."""
import random

import pytest

from tests.rules.engine_kit import at, halftrack, rect_map, rifles, tank
from game.rules.actions import Deploy, EndPhase, Face, Move
from game.rules.dice import Dice
from game.rules.engine import Game, new_game
from game.rules.errors import IllegalAction
from game.rules.events import DefensiveFireOffered, MovementRoll
from game.rules.state import GameState, Phase

# forest everywhere in the middle columns: Vehicles entering it roll (rulebook: Movement)
MAP = rect_map(12, 7, {(c, r): "forest" for c in (5, 6) for r in range(0, 7, 2)},
               objective=(6, 3))
AXIS = [tank("Germany", name="Panzer"), rifles("Germany", name="Grenadiers", speed=2),
        halftrack("Germany", name="SdKfz 251"), rifles("Germany", name="Pioneers", speed=2)]
ALLIES = [tank("United States", name="Sherman"), rifles("United States", name="GIs", speed=2),
          rifles("United States", name="Rangers", speed=2)]


def to_movement(seed=3):
    g = new_game(MAP, {"Axis": AXIS, "Allies": ALLIES}, dice=Dice(seed))
    rng = random.Random(seed)
    while not g.state.phase.is_movement:
        acts = g.legal_actions()
        ends = [a for a in acts if isinstance(a, EndPhase)]
        g.apply(ends[0] if ends else rng.choice(acts))
    return g


def quiet_moves(g):
    """Moves of the side to act that roll nothing and provoke no defensive fire."""
    out = []
    for a in g.legal_actions():
        if isinstance(a, Move) and a.path:
            trial = g.copy()
            rolls = trial.dice.rolls
            ev = trial.apply(a)
            if trial.dice.rolls == rolls and not any(isinstance(e, DefensiveFireOffered)
                                                      for e in ev):
                out.append(a)
    return out


def test_a_quiet_move_can_be_taken_back_exactly():
    """brief H: a move that rolled no dice and revealed nothing can be taken back."""
    g = to_movement()
    before = g.state_hash()
    n_hist, n_log = len(g.history), len(g.log)
    a = quiet_moves(g)[0]
    g.apply(a)
    assert g.undoable() == [a]
    assert g.undo(a.uid) == [a]
    assert g.state_hash() == before
    assert len(g.history) == n_hist and len(g.log) == n_log
    assert g.undoable() == []
    g.apply(a)                                  # and the unit may move again
    assert g.state.units[a.uid].hex == a.path[-1]


def test_per_unit_undo_keeps_the_other_moves_and_undo_all_clears_the_phase():
    """brief H: per-unit undo and undo-all for the current phase."""
    g = to_movement()
    start = g.state_hash()
    first = quiet_moves(g)[0]
    g.apply(first)
    second = next(a for a in quiet_moves(g) if a.uid != first.uid)
    g.apply(second)
    assert [a.uid for a in g.undoable()] == [first.uid, second.uid]
    g.undo(first.uid)
    assert g.history[-1] == second and first.uid not in [a.uid for a in g.undoable()]
    assert g.state.units[second.uid].hex == second.path[-1]
    assert not g.state.units[first.uid].acted
    g.apply(first)
    assert g.undo() == [second, first]
    assert g.state_hash() == start


def _first_move_with(g, event_type):
    for a in g.legal_actions():
        if isinstance(a, Move) and a.path:
            trial = g.copy()
            if any(isinstance(e, event_type) for e in trial.apply(a)):
                return a
    return None


def test_a_move_that_rolled_is_final():
    """brief H: anything with a roll is final (here a Vehicle's forest roll)."""
    for seed in range(1, 40):
        g = to_movement(seed)
        a = _first_move_with(g, MovementRoll)
        if a is not None:
            break
    else:
        pytest.fail("no forest roll found")
    g.apply(a)
    assert a not in g.undoable()
    with pytest.raises(IllegalAction, match="final|nothing to take back"):
        g.undo(a.uid)
    with pytest.raises(IllegalAction):
        g.undo()


def test_a_move_that_offered_defensive_fire_is_final():
    """brief H: a move that revealed something (a defensive-fire offer to the
    opponent, ruling 14) can't be taken back."""
    for seed in range(1, 60):
        g = to_movement(seed)
        a = _first_move_with(g, DefensiveFireOffered)
        if a is not None:
            break
    else:
        pytest.skip("no defensive-fire offer found on this map")
    g.apply(a)
    assert g.undoable() == []


def _as_move_then_face(a):
    """A Vehicle's move as the battle screen plays it: walked with ``facing=None``, then
    the facing choice the rules wait for (rulebook: Vehicle Facing)."""
    return Move(a.side, a.uid, a.path, None), Face(a.side, a.uid, a.facing)


def test_a_quiet_vehicle_move_and_its_facing_choice_are_taken_back_together():
    """brief H: a Vehicle move that rolled no dice may be taken back also when its
    facing was chosen after the move (a Face action): the facing choice rolls nothing
    and reveals nothing, so it is no more final than the move it ends."""
    g = to_movement()
    before = g.state_hash()
    a = next(a for a in quiet_moves(g) if g.state.units[a.uid].is_vehicle)
    move, face = _as_move_then_face(a)
    g.apply(move)
    assert g.state.pending is not None          # the rules wait for the facing
    g.apply(face)
    assert g.undoable() == [move, face]
    assert g.undo(a.uid) == [move, face]
    assert g.state_hash() == before and g.state.pending is None
    g.apply(move)                               # and undo-all takes both back too
    g.apply(face)
    assert g.undo() == [move, face]
    assert g.state_hash() == before


def test_the_facing_choice_after_a_move_that_rolled_is_final():
    """brief H: anything with a roll is final - and so is the facing choice that ends
    such a move (taking back only the facing would let the move stand re-faced)."""
    for seed in range(1, 40):
        g = to_movement(seed)
        a = _first_move_with(g, MovementRoll)
        if a is not None and g.state.units[a.uid].is_vehicle:
            break
    else:
        pytest.fail("no Vehicle forest roll found")
    move, face = _as_move_then_face(a)
    g.apply(move)
    if g.state.pending is None:                 # the roll failed: no facing to choose
        assert g.undoable() == []
        return
    g.apply(face)
    assert g.undoable() == []


def test_an_ended_phase_is_final():
    g = to_movement()
    g.apply(quiet_moves(g)[0])
    g.apply(EndPhase(g.state.to_act))
    assert g.undoable() == []


def test_deployment_can_be_taken_back_and_a_passenger_goes_with_its_carrier():
    """Undo during deployment; a Soldier deployed aboard a taken-back transport
    is taken back with it (its deployment no longer works)."""
    g = new_game(MAP, {"Axis": AXIS, "Allies": ALLIES}, dice=Dice(1), coin_winner="Axis")
    from game.rules.actions import ChooseEnd, ChooseOrder
    g.apply(ChooseOrder("Axis", True))
    g.apply(ChooseEnd("Axis", "left"))
    assert g.state.phase == Phase.DEPLOY_FIRST
    before = g.state_hash()
    g.apply(Deploy("Axis", "axis-3", at(1, 3), 0))                 # the halftrack
    g.apply(Deploy("Axis", "axis-2", at(1, 3), 0, "axis-3"))       # rifles aboard
    g.apply(Deploy("Axis", "axis-1", at(0, 1), 0))                 # the tank
    assert [a.uid for a in g.undoable()] == ["axis-3", "axis-2", "axis-1"]
    taken = g.undo("axis-3")
    assert [a.uid for a in taken] == ["axis-3", "axis-2"]
    assert g.state.units["axis-2"].hex is None and g.state.units["axis-2"].carrier is None
    assert g.state.units["axis-1"].hex == at(0, 1)
    g.undo()
    assert g.state_hash() == before


def test_a_game_built_by_hand_has_nothing_to_take_back():
    g = Game(GameState.blank(MAP), Dice(1))
    g.add_unit(AXIS[1], "Axis", at(1, 1))
    assert g.undoable() == []
    with pytest.raises(IllegalAction, match="nothing to take back"):
        g.undo()


def test_copies_and_undo_do_not_disturb_each_other():
    g = to_movement()
    a = quiet_moves(g)[0]
    g.apply(a)
    c = g.copy()
    c.undo()
    assert g.history[-1] == a and c.history[-1] != a
    assert g.state.units[a.uid].hex == a.path[-1]
