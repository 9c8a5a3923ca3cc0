"""Sequence of play, activations, transports, bridges, and the façade's contract
(rulebook: Sequence of Play, Movement/Assault Phases, Casualty Phase, transport,
Bridge Demolition; ruling 7; docs/engine-api.md)."""
import random

import pytest

from tests.rules.engine_kit import (ALLIED_ARMY, AXIS_ARMY, at, halftrack, play_random,
                                    position, rect_map, rifles, tank)
from game.rules.actions import (Attack, Board, DemolishBridge, Dismount, EndPhase, Move,
                                PlaceDismounted, action_from_dict, action_to_dict)
from game.rules.dice import Dice, LoadedDice
from game.rules.engine import Game, new_game
from game.rules.errors import IllegalAction, MalformedAction
from game.rules.state import DismountPlacement, GameState, Phase

MAP = rect_map(12, 9, objective=(6, 4))


def two_sides(phase=Phase.MOVEMENT_FIRST, dice=()):
    g = position(MAP, phase=phase, dice=list(dice))
    a = g.add_unit(rifles(speed=2), "Axis", at(2, 4))
    b = g.add_unit(rifles("United States", speed=2), "Allies", at(9, 4))
    return g, a, b


def test_phases_follow_the_sequence_of_play():
    """rulebook: Sequence of Play - initiative, first/second movement, first/second
    assault, casualty, end of turn."""
    g, a, b = two_sides(dice=[1, 1, 6, 6])
    seen = [g.state.phase]
    for side in ("Axis", "Allies", "Axis"):
        g.apply(EndPhase(side))
        seen.append(g.state.phase)
    g.apply(EndPhase("Allies"))            # -> casualty -> end of turn -> initiative
    assert seen == [Phase.MOVEMENT_FIRST, Phase.MOVEMENT_SECOND, Phase.ASSAULT_FIRST,
                    Phase.ASSAULT_SECOND]
    kinds = [e.phase for e in g.log if e.kind == "PhaseBegan"]
    assert kinds[-3:] == ["casualty", "end_of_turn", "initiative"]
    assert g.state.turn == 2 and g.state.pending.side == "Allies"


def test_one_activation_per_unit_per_phase():
    """ruling 7 - each unit moves at most once in a movement phase; in an assault
    phase it either moves once or attacks once."""
    g, a, b = two_sides()
    g.apply(Move("Axis", a.uid, (at(3, 4),), None))
    with pytest.raises(IllegalAction, match="ruling 7"):
        g.apply(Move("Axis", a.uid, (at(4, 4),), None))
    g.apply(EndPhase("Axis"))
    g.apply(EndPhase("Allies"))
    assert not a.acted                                    # a new phase
    b.hex = at(5, 4)
    g.state.touch()
    assert g.check(Attack("Axis", a.uid, b.uid)) is None
    g.dice = LoadedDice([1] * 6)
    g.apply(Attack("Axis", a.uid, b.uid))
    assert g.check(Move("Axis", a.uid, (at(2, 4),), None)) is not None


def test_no_attacks_in_the_movement_phase_and_only_own_units():
    g, a, b = two_sides()
    b.hex = at(3, 4)
    assert "assault phase" in g.check(Attack("Axis", a.uid, b.uid))
    assert g.check(Move("Axis", b.uid, (at(4, 4),), None)) is not None
    with pytest.raises(IllegalAction):
        g.apply(Move("Allies", b.uid, (at(4, 4),), None))


def test_attack_hits_take_effect_in_the_casualty_phase():
    """rulebook: Scoring Hits / Casualty Phase - face-down counters, flipped in the
    casualty phase."""
    g, a, b = two_sides(phase=Phase.ASSAULT_SECOND, dice=[6] * 6 + [1, 1, 2, 2])
    b.hex = at(3, 4)
    g.state.first_player, g.state.second_player = "Allies", "Axis"
    g.apply(Attack("Axis", a.uid, b.uid))
    assert b.pending and not b.destroyed and b.on_map
    g.apply(EndPhase("Axis"))
    assert b.destroyed and not b.on_map


def test_illegal_action_leaves_state_untouched():
    g, a, b = two_sides()
    before = g.state_hash()
    for bad in (Move("Axis", a.uid, (at(9, 4),), None), EndPhase("Allies"),
                Attack("Axis", a.uid, b.uid)):
        with pytest.raises(IllegalAction):
            g.apply(bad)
    with pytest.raises(IllegalAction):
        g.apply(Move("Axis", "nobody", (), 0))
    assert g.state_hash() == before and g.history == []


def test_failure_half_way_restores_state_and_dice():
    """A move that runs out of loaded dice mid-way is rolled back completely."""
    bm = rect_map(8, 1, streams=[((2, 0), (3, 0))])
    g = position(bm, dice=[])
    t = g.add_unit(tank(), "Axis", at(2, 0))
    before = g.state_hash()
    with pytest.raises(Exception):
        g.apply(Move("Axis", t.uid, (at(3, 0),), 0))
    assert g.state_hash() == before and t.hex == at(2, 0) and not t.acted


def test_board_and_dismount_in_the_movement_phase():
    """rulebook glossary: transport - a Soldier in the transport's hex boards with its
    move; one that starts its movement phase aboard dismounts with its move; Artillery
    can't board."""
    g = position(MAP)
    ht = g.add_unit(halftrack(), "Axis", at(3, 4))
    s = g.add_unit(rifles(), "Axis", at(3, 4))
    gun = g.add_unit(rifles(subtype="Artillery", name="gun"), "Axis", at(3, 4))
    assert Board("Axis", s.uid, ht.uid) in g.legal_actions()
    assert "Artillery" in g.check(Board("Axis", gun.uid, ht.uid))
    g.apply(Board("Axis", s.uid, ht.uid))
    assert s.carrier == ht.uid and s.acted
    assert "already used its move" in g.check(Dismount("Axis", s.uid, at(3, 4)))
    g.apply(Move("Axis", ht.uid, (at(4, 4), at(5, 4)), 0))
    assert s.hex == at(5, 4)
    # next movement phase: it started the phase aboard, so it may dismount
    g2 = position(MAP)
    ht2 = g2.add_unit(halftrack(), "Axis", at(5, 4))
    s2 = g2.add_unit(rifles(), "Axis", carrier=ht2.uid)
    assert "transport's hex" in g2.check(Dismount("Axis", s2.uid, at(6, 4)))
    assert g2.reachable(s2.uid) == {}
    g2.apply(Dismount("Axis", s2.uid, at(5, 4)))
    assert s2.carrier is None and s2.hex == at(5, 4) and s2.acted
    g3 = position(MAP, phase=Phase.ASSAULT_FIRST)
    ht3 = g3.add_unit(halftrack(), "Axis", at(5, 4))
    s3 = g3.add_unit(rifles(), "Axis", carrier=ht3.uid)
    assert "movement phase" in g3.check(Dismount("Axis", s3.uid, at(5, 4)))


def test_overstacked_dismount_lets_the_opponent_place_the_soldier():
    """rulebook glossary: transport - if dismounting breaks the stacking limit, the
    opponent chooses among the nearest legal hexes."""
    g = position(MAP)
    ht = g.add_unit(halftrack(), "Axis", at(3, 4))
    s = g.add_unit(rifles(), "Axis", carrier=ht.uid)
    g.add_unit(rifles(), "Axis", at(3, 4))
    g.apply(Dismount("Axis", s.uid, at(3, 4)))
    p = g.state.pending
    assert isinstance(p, DismountPlacement) and g.state.to_act == "Allies"
    assert all(h.distance(at(3, 4)) == 1 for h in p.candidates) and len(p.candidates) == 6
    g.apply(PlaceDismounted("Allies", s.uid, p.candidates[2]))
    assert s.hex == p.candidates[2] and g.state.pending is None and g.state.to_act == "Axis"


def test_bridge_demolition_breaks_the_road():
    """rulebook glossary: Bridge Demolition - instead of moving or attacking in its
    assault phase; a destroyed bridge breaks the road (4+ on a die)."""
    bm = rect_map(8, 1, roads=[((1, 0), (2, 0))], bridges=[((2, 0), (3, 0))])
    g = position(bm, phase=Phase.ASSAULT_FIRST, dice=[3, 5])
    eng = g.add_unit(rifles(abilities=("bridge_demolition",), name="Pioneers"), "Axis", at(2, 0))
    other = g.add_unit(rifles(abilities=("bridge_demolition",)), "Axis", at(2, 0))
    plain = g.add_unit(rifles(), "Axis", at(3, 0))
    assert "no Bridge Demolition" in g.check(DemolishBridge("Axis", plain.uid))
    g.apply(DemolishBridge("Axis", eng.uid))
    assert not g.state.destroyed_bridges and eng.acted
    ev = g.apply(DemolishBridge("Axis", other.uid))
    assert len(g.state.destroyed_bridges) == 1 and any(e.kind == "BridgeDestroyed" for e in ev)
    assert not bm.is_road(at(2, 0), at(3, 0), g.state.destroyed_bridges)


def test_actions_round_trip_through_dicts():
    g = new_game(MAP, {"Axis": AXIS_ARMY, "Allies": ALLIED_ARMY}, dice=Dice(3))
    rng = random.Random(3)
    for _ in range(150):
        acts = g.legal_actions()
        for a in acts[:50]:
            assert action_from_dict(action_to_dict(a)) == a
        g.apply(rng.choice(acts))
    with pytest.raises(MalformedAction):
        action_from_dict({"type": "Move", "side": "Axis", "uid": "x", "path": [[1]]})
    with pytest.raises(MalformedAction):
        action_from_dict({"type": "Nuke", "side": "Axis"})


def test_replaying_history_gives_the_same_state_and_copy_is_independent():
    """Saves/replays: seed + actions reproduce the game; copy() shares nothing mutable."""
    g = new_game(MAP, {"Axis": AXIS_ARMY, "Allies": ALLIED_ARMY}, dice=Dice(11),
                 options={"turn_limit": 20})
    play_random(g, random.Random(5), max_actions=400)
    h = g.state_hash()
    g2 = new_game(MAP, {"Axis": AXIS_ARMY, "Allies": ALLIED_ARMY}, dice=Dice(11),
                  options={"turn_limit": 20})
    for a in g.history:
        g2.apply(a)
    assert g2.state_hash() == h
    c = g.copy()
    if not c.over:
        c.apply(c.legal_actions()[-1])
        assert c.state_hash() != h
    assert g.state_hash() == h


def test_game_works_on_a_hand_built_state_in_any_phase():
    st = GameState.blank(MAP, phase=Phase.ASSAULT_SECOND, turn=4, first_player="Allies")
    g = Game(st, Dice(1))
    a = g.add_unit(rifles(), "Axis", at(3, 3))
    g.add_unit(rifles("United States"), "Allies", at(4, 3))
    assert st.to_act == "Axis" and a.uid == "axis-1"
    assert any(isinstance(x, Attack) for x in g.legal_actions())
    assert all(g.check(x) is None for x in g.legal_actions())


def test_legal_actions_are_exactly_what_check_accepts_in_a_real_game():
    g = new_game(MAP, {"Axis": AXIS_ARMY, "Allies": ALLIED_ARMY}, dice=Dice(8))
    rng = random.Random(8)
    for _ in range(120):
        acts = g.legal_actions()
        assert all(g.check(a) is None for a in acts)
        if g.over:
            break
        g.apply(rng.choice(acts))


def test_targets_and_odds_through_the_facade():
    """Game.targets lists what a unit may attack with exact odds; Game.odds agrees."""
    g = position(MAP, phase=Phase.ASSAULT_FIRST)
    a = g.add_unit(rifles(), "Axis", at(3, 4))
    near = g.add_unit(rifles("United States"), "Allies", at(4, 4))
    g.add_unit(rifles("United States"), "Allies", at(11, 0))       # out of range
    ts = {t.target: t for t in g.targets(a.uid)}
    assert set(ts) == {near.uid}
    t = ts[near.uid]
    assert t.distance == 1 and t.band == "short" and t.dice == 6 and t.cover is False
    o = g.odds(a.uid, near.uid)
    assert abs(o.p_none + o.p_disrupted + o.p_damaged + o.p_destroyed - 1) < 1e-9
    assert t.odds.p_destroyed == o.p_destroyed
    assert g.visible_from(at(3, 4)) >= {at(4, 4), at(11, 0)}


def test_state_hash_is_stable_and_sensitive():
    g, a, b = two_sides()
    h = g.state_hash()
    assert h == g.copy().state_hash() and len(h) == 64
    a.facing = 3
    assert g.state_hash() != h


def test_advance_runs_the_automatic_steps_of_a_hand_built_state():
    """A position built at the initiative phase rolls initiative on advance()."""
    g = position(MAP, phase=Phase.INITIATIVE, dice=[6, 6, 1, 1])
    g.add_unit(rifles(), "Axis", at(1, 1))
    g.add_unit(rifles("United States"), "Allies", at(10, 1))
    assert g.state.to_act is None and g.legal_actions() == []
    ev = g.advance()
    assert ev[0].kind == "InitiativeRolled" and g.state.pending.side == "Axis"


def test_garbage_actions_are_refused_with_a_reason():
    g, a, b = two_sides()
    before = g.state_hash()
    for bad in (Move("Axis", a.uid, ("H6", None), 0), Move("Axis", a.uid, (at(3, 4),), 9),
                Attack("Axis", a.uid, 42), EndPhase(None), "EndPhase"):
        reason = g.check(bad)
        assert isinstance(reason, str) and reason
        with pytest.raises(IllegalAction):
            g.apply(bad)
    assert g.state_hash() == before
