"""Scripted positions for the blunders issue 14 found in the old Veteran, where
the right choice is clear; the Veteran and the Expert (tiny budget) both take
it.  Each names the rule the danger comes from."""
import pytest

from tests.rules.engine_kit import at, card, position, rect_map, rifles, tank
from game.ai.expert import ExpertAI
from game.ai.veteran import VeteranAI
from game.rules.actions import Attack, EndPhase, Move
from game.rules.state import Phase
from game.rules.threat import path_risk, threat_to

MAP = rect_map(12, 9, {(5, 1): "forest", (5, 2): "forest", (6, 6): "forest",
                       (7, 6): "forest"}, objective=(9, 4))


def players():
    # the Expert with a fixed number of dice samples (and a budget it never reaches):
    # reproducible choices
    return [VeteranAI(1), ExpertAI(1, budget=20.0, samples=4)]


def ca_rifles(nation="United States"):
    return rifles(nation, name="Close-assault GIs", speed=2, abilities=(("close_assault", 8),))


def h2h_rifles():
    return rifles("Japan", name="Hand-to-hand riflemen", speed=1, abilities=(("hand_to_hand", 12),))


def _choose(ai, g):
    a = ai.choose(g)
    assert g.check(a) is None, a
    return a


@pytest.mark.parametrize("ai", players(), ids=lambda p: p.level)
def test_tank_does_not_stop_where_close_assault_infantry_can_reach_it(ai):
    """Close Assault (ability): enemy infantry that can walk into the tank's hex
    attacks it there with 8 dice instead of its printed 1; the tank advances but
    does not end its move within their reach."""
    g = position(MAP, first="Axis", turn=2)
    pz = g.add_unit(tank("Germany"), "Axis", at(2, 4), facing=0)
    ca = g.add_unit(ca_rifles(), "Allies", at(7, 4))
    g.add_unit(rifles("United States"), "Allies", at(11, 8))
    a = _choose(ai, g)
    end = a.path[-1] if isinstance(a, Move) and a.path else pz.hex
    th = threat_to(g, pz.uid, end, getattr(a, "facing", None))
    assert not any(s.attacker == ca.uid and s.mode == "close_assault" for s in th.sources), \
        (a, ai.explain())
    # the trap is real: next to the infantry the rules' threat counts Close Assault
    near = threat_to(g, pz.uid, at(6, 4), 0)
    assert any(s.attacker == ca.uid and s.mode == "close_assault" for s in near.sources)


@pytest.mark.parametrize("ai", players(), ids=lambda p: p.level)
def test_soldiers_do_not_walk_into_hand_to_hand_defensive_fire(ai):
    """Hand to Hand (ability) in defensive fire (Provoking Defensive Fire, ruling 14):
    on turn 7 the hex toward the objective holds Hand-to-Hand riflemen whose 12 dice
    stop a Soldier entering it 93% of the time (and then destroy it); the Soldiers
    don't walk in."""
    g = position(MAP, first="Allies", turn=7)
    gi = g.add_unit(rifles("United States", speed=2), "Allies", at(5, 4))
    jp = g.add_unit(h2h_rifles(), "Axis", at(7, 4))
    g.add_unit(rifles("Germany"), "Axis", at(0, 8))
    walk_in = Move("Allies", gi.uid, g.reachable(gi.uid)[jp.hex].path, None)
    assert path_risk(g, walk_in).p_stopped > 0.9          # the trap is real
    a = _choose(ai, g)
    if isinstance(a, Move) and a.uid == gi.uid and a.path:
        assert path_risk(g, a).p_stopped < 0.5, ai.explain()
        assert a.path[-1] != jp.hex


@pytest.mark.parametrize("ai", players(), ids=lambda p: p.level)
def test_no_turn_one_rush_into_the_guns(ai):
    """Timing (control counts from turn 7, rulings 9-11) and front/rear (ruling 1):
    on turn 1 a fragile armoured car does not rush next to the objective into the
    fire of three enemy guns.  (It already stands at their long range; a step that
    keeps it there, no more in danger than where it stands, is no rush.)"""
    g = position(MAP, first="Axis", turn=1)
    car = g.add_unit(tank("Germany", name="Armoured car", speed=6, front=2, rear=2, cost=10,
                          vehicle=(2, 1, None)), "Axis", at(4, 4), facing=0)
    for r in (2, 4, 6):
        g.add_unit(tank("United States", name=f"Gun {r}", speed=0, front=4, rear=4,
                        soldier=(2, 2, 1), vehicle=(8, 7, 4), cost=12), "Allies", at(11, r),
                   facing=3)
    here = threat_to(g, car.uid).p_loss
    a = _choose(ai, g)
    if isinstance(a, Move) and a.uid == car.uid and a.path:
        th = threat_to(g, car.uid, a.path[-1], a.facing)
        assert th.p_loss < max(0.5, here + 1e-9), (a, ai.explain())
        assert a.path[-1].distance(g.state.objective) > 1, ai.explain()


@pytest.mark.parametrize("ai", players(), ids=lambda p: p.level)
def test_no_forest_roll_that_leaves_the_rear_to_a_tank(ai):
    """Movement roll (forest) and front/rear (ruling 1): the tank does not gamble on
    a forest roll next to an enemy tank when a failed roll would leave it beside the
    enemy; it takes a move without a roll."""
    g = position(MAP, first="Axis", turn=3)
    pz = g.add_unit(tank("Germany"), "Axis", at(3, 2), facing=0)
    g.add_unit(tank("United States"), "Allies", at(6, 2), facing=3)
    g.add_unit(rifles("United States"), "Allies", at(11, 8))
    a = _choose(ai, g)
    if isinstance(a, Move) and a.uid == pz.uid and a.path:
        r = g.reachable(pz.uid)[a.path[-1]]
        if r.rolls:
            risk = path_risk(g, a)
            for h, f, p in risk.fail_ends:
                assert threat_to(g, pz.uid, h, f).p_loss < 0.3, ai.explain()


@pytest.mark.parametrize("ai", players(), ids=lambda p: p.level)
def test_no_hopeless_attack_when_a_better_use_exists(ai):
    """Attack odds (hits table): the riflemen's only attack on the heavy tank has
    under 10% to do anything; they use the activation to move toward the objective
    instead."""
    g = position(MAP, phase=Phase.ASSAULT_FIRST, first="Allies", turn=6,
                 dice=[1] * 200)
    gi = g.add_unit(rifles("United States", speed=2, vehicle=(2, 1, None)), "Allies", at(6, 4))
    hv = g.add_unit(tank("Germany", name="Heavy tank", front=7, rear=6, speed=0,
                         soldier=(1, 1, None), vehicle=(1, 1, None)), "Axis", at(7, 4), facing=3)
    o = g.odds(gi.uid, hv.uid)
    assert o.p_none > 0.9
    a = _choose(ai, g)
    assert not (isinstance(a, Attack) and a.target == hv.uid), ai.explain()
    assert isinstance(a, Move) and a.uid == gi.uid, (a, ai.explain())
