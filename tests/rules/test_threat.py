"""game.rules.threat (issue 14): the threat to a hex and hypothetical attack odds,
asked of the rules on a copy of the game, abilities included.  Each test names
the rule it relies on."""
import pytest

from tests.rules.engine_kit import at, card, halftrack, position, rect_map, rifles, tank
from game.rules.actions import Move
from game.rules.errors import IllegalAction
from game.rules.state import Phase
from game.rules.threat import (Probe, best_attack, counts_for_control, hypothetical_odds,
                               path_risk, threat_to, victory_timing)

MAP = rect_map(12, 8, {(6, 1): "forest", (6, 2): "forest", (6, 3): "forest"}, objective=(8, 4))


def close_assault_rifles(nation="United States", value=7):
    """Soldiers with printed 1 die against Vehicles at short range and Close Assault."""
    return rifles(nation, name=f"{nation} close-assault rifles", speed=2,
                  abilities=(("close_assault", value),))


def hand_to_hand_rifles(nation="Japan", value=12):
    return rifles(nation, name=f"{nation} hand-to-hand rifles", speed=2,
                  abilities=(("hand_to_hand", value),))


def test_threat_counts_close_assault_in_the_tanks_hex():
    """Close Assault (ability): the Soldiers in the tank's own hex attack it with the
    ability's dice, not the printed 1 - the threat uses the rules' odds for that mode."""
    g = position(MAP)
    pz = g.add_unit(tank("Germany"), "Axis", at(4, 4), facing=0)
    ca = g.add_unit(close_assault_rifles(), "Allies", at(4, 4))
    th = threat_to(g, pz.uid)
    (src,) = th.sources
    assert src.attacker == ca.uid and src.mode == "close_assault" and not src.moves
    printed = g.odds(ca.uid, pz.uid)               # the printed die only
    assert th.p_loss > printed.p_damaged + printed.p_destroyed + 0.2
    assert th.p_loss == pytest.approx(src.odds.p_damaged + src.odds.p_destroyed)


def test_threat_sees_close_assault_infantry_that_can_walk_in():
    """Close Assault needs the target's hex: Soldiers two hexes away that can move
    into it in their movement phase count as attacking from there."""
    g = position(MAP)
    pz = g.add_unit(tank("Germany"), "Axis", at(4, 4), facing=0)
    ca = g.add_unit(close_assault_rifles(), "Allies", at(6, 4))
    th = threat_to(g, pz.uid)
    src = {s.attacker: s for s in th.sources}[ca.uid]
    assert src.moves and src.mode == "close_assault" and src.from_hex == at(4, 4)
    still = threat_to(g, pz.uid, movers=False)
    assert still.p_loss < th.p_loss


def test_threat_in_a_hypothetical_hex_and_facing():
    """Front and rear (ruling 1): the same tank is safer facing the gun than showing
    its rear; cover (forest) lowers the threat - all from the rules' odds."""
    g = position(MAP)
    pz = g.add_unit(tank("Germany"), "Axis", at(2, 6), facing=0)
    us = g.add_unit(tank("United States"), "Allies", at(9, 6), facing=3)
    toward = threat_to(g, pz.uid, at(7, 6), facing=0)
    away = threat_to(g, pz.uid, at(7, 6), facing=3)
    assert toward.p_loss < away.p_loss
    assert toward.sources[0].odds.front is True and away.sources[0].odds.front is False
    g.state.units[us.uid].hex = at(9, 2)
    g.state.touch()
    woods = threat_to(g, pz.uid, at(6, 2), facing=0)
    assert woods.sources and woods.sources[0].odds.cover_need is not None
    assert woods.p_loss < threat_to(g, pz.uid, at(7, 2), facing=0).p_loss
    assert pz.hex == at(2, 6) and pz.facing == 0      # the caller's game is untouched


def test_hits_add_up_across_attackers():
    """Ruling 13: hits of several attackers add up (second hit destroys a Soldier):
    two attackers together destroy more often than either alone."""
    g = position(MAP)
    gi = g.add_unit(rifles("Germany"), "Axis", at(4, 4))
    a = g.add_unit(rifles("United States"), "Allies", at(5, 4))
    b = g.add_unit(rifles("United States"), "Allies", at(5, 3))
    both = threat_to(g, gi.uid)
    one = threat_to(g, gi.uid, attackers=[a.uid])
    assert len(both.sources) == 2 and len(one.sources) == 1
    assert both.p_destroyed > one.p_destroyed + 0.01
    assert both.p_none == pytest.approx(one.p_none * threat_to(g, gi.uid, attackers=[b.uid]).p_none)
    assert sum((both.p_none, both.p_disrupted, both.p_damaged, both.p_destroyed)) == pytest.approx(1)


def test_hypothetical_odds_from_another_hex():
    """Range bands and line of sight: odds from a hex the attacker is not in, and the
    rules' refusal (with its reason) where the attack is not allowed."""
    g = position(MAP)
    us = g.add_unit(tank("United States"), "Allies", at(1, 2), facing=0)
    pz = g.add_unit(tank("Germany"), "Axis", at(9, 2), facing=3)
    near = hypothetical_odds(g, us.uid, pz.uid, from_hex=at(8, 2))
    assert near.band == "short" and near.distance == 1
    with pytest.raises(IllegalAction, match="line of sight|range"):
        hypothetical_odds(g, us.uid, pz.uid, from_hex=at(5, 2), target_hex=at(7, 2))
    assert us.hex == at(1, 2)


def test_best_attack_picks_close_assault_mode():
    """Close Assault: from the tank's hex the ability's mode beats the printed die."""
    g = position(MAP)
    pz = g.add_unit(tank("Germany"), "Axis", at(4, 4), facing=0)
    ca = g.add_unit(close_assault_rifles(), "Allies", at(7, 4))
    mode, o = best_attack(g, ca.uid, pz.uid, from_hex=at(4, 4))
    assert mode == "close_assault" and o.dice == 7


def test_path_risk_sees_hand_to_hand_defensive_fire():
    """Hand to Hand (ability) in defensive fire: Soldiers walking into a hex next to
    (and then into) Hand-to-Hand infantry face its 12 dice, used automatically when at
    least as good as the printed value (Provoking Defensive Fire, ruling 14)."""
    g = position(MAP, first="Allies")
    gi = g.add_unit(rifles("United States", speed=2), "Allies", at(2, 4))
    jp = g.add_unit(hand_to_hand_rifles(), "Axis", at(4, 4))
    mv = Move("Allies", gi.uid, (at(3, 4), at(4, 4)), None)
    assert g.check(mv) is None
    risk = path_risk(g, mv)
    shots = [s for s in risk.shots if s.firer == jp.uid]
    assert shots, risk
    assert max(s.odds.p_stopped for s in shots) > 0.9
    assert risk.p_stopped > 0.9 and risk.p_rolls_ok == 1.0
    assert gi.hex == at(2, 4)


def test_path_risk_forest_roll_failure_ends_short():
    """Movement roll (forest, Vehicles): a failed roll ends the move before the forest;
    the risk names that hex and its chance (a roll succeeds on 4+)."""
    g = position(MAP)
    pz = g.add_unit(tank("Germany"), "Axis", at(4, 2), facing=0)
    g.add_unit(rifles("United States"), "Allies", at(11, 7))
    reach = g.reachable(pz.uid)
    r = reach[at(6, 2)]
    assert r.rolls
    risk = path_risk(g, Move("Axis", pz.uid, r.path, 0))
    assert risk.p_rolls_ok == pytest.approx(0.5)
    (fail_hex, _facing, p), = risk.fail_ends
    assert fail_hex == r.rolls[0].from_hex and p == pytest.approx(0.5)
    assert risk.end_hex == at(6, 2)


def test_victory_timing_and_control():
    """Rulings 9-11: control wins from the end of turn 7 (Standard), points at turn 10;
    a unit adjacent to the objective counts for control."""
    g = position(MAP, turn=3)
    t = victory_timing(g.state)
    assert (t.control_from, t.last_turn, t.turns_to_control) == (7, 10, 4)
    gi = g.add_unit(rifles("Germany"), "Axis", at(2, 2))
    obj = g.state.objective
    assert counts_for_control(g, gi.uid, obj)
    assert counts_for_control(g, gi.uid, obj.neighbors()[0])
    assert not counts_for_control(g, gi.uid, at(2, 2))


def test_ruling_10_points_count_on_the_last_turn_and_a_transport_takes_its_passengers():
    """Ruling 10: the points on the map decide from the end of turn 10 (Standard only);
    a destroyed transport's passengers go with it (Casualty Phase step 3), so its
    side's points lose both cards' costs."""
    from game.rules.victory import points_lost_if_destroyed
    assert not victory_timing(position(MAP, turn=9).state).points_count_now
    assert victory_timing(position(MAP, turn=10).state).points_count_now
    g = position(MAP, turn=10)
    g.state.scenario = "assault"
    assert not victory_timing(g.state).points_count_now
    g = position(MAP)
    gi = g.add_unit(rifles("Germany", cost=7), "Axis", at(2, 2))
    assert points_lost_if_destroyed(g.state, gi.uid) == 7
    ht = g.add_unit(halftrack("Germany", cost=12), "Axis", at(4, 2))
    g.add_unit(rifles("Germany", cost=7), "Axis", carrier=ht.uid)
    assert points_lost_if_destroyed(g.state, ht.uid) == 19


def test_combine_limits_the_sources_counted_together():
    """Ruling 13 chain over the strongest sources only; every source is still listed."""
    g = position(MAP)
    gi = g.add_unit(rifles("Germany"), "Axis", at(4, 4))
    for c, r in ((5, 4), (5, 3), (3, 3)):
        g.add_unit(rifles("United States"), "Allies", at(c, r))
    full = threat_to(g, gi.uid)
    two = threat_to(g, gi.uid, combine=2)
    assert len(two.sources) == len(full.sources) == 3
    assert two.p_none > full.p_none
