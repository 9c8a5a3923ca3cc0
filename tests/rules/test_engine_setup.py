"""Setup and initiative (rulebook: Getting Started, Standard Scenario setup,
Assault Scenario setup, Initiative Phase; ruling 8)."""
import pytest

from tests.rules.engine_kit import ALLIED_ARMY, AXIS_ARMY, at, officer, position, rect_map, rifles
from game.rules.actions import (ChooseEnd, ChooseObjective, ChooseOrder, Deploy, EndPhase,
                                Undeploy)
from game.rules.dice import LoadedDice
from game.rules.engine import deployment_zone, new_game
from game.rules.errors import IllegalAction
from game.rules.state import OrderChoice, Phase

MAP = rect_map(16, 11, {(2, 3): "marsh", (3, 3): "pond", (1, 1): "forest"}, objective=(8, 5))


def standard(dice, coin=None):
    return new_game(MAP, {"Axis": AXIS_ARMY, "Allies": ALLIED_ARMY}, dice=LoadedDice(dice),
                    coin_winner=coin)


def test_coin_flip_winner_chooses_first_or_second():
    """rulebook: Setup - flip a coin; the winner decides first or second player."""
    g = standard([2])                     # 1-3: Axis wins the flip
    assert g.state.pending == OrderChoice("Axis", "coin flip")
    assert g.log[0].kind == "CoinFlipped"
    g2 = standard([5])
    assert g2.state.pending.side == "Allies"
    g.apply(ChooseOrder("Axis", False))
    assert g.state.first_player == "Allies" and g.state.phase == Phase.SETUP_END
    assert g.state.to_act == "Allies"


def test_first_player_picks_an_end_and_deploys_first():
    """rulebook: First Player Deployment - the first player picks an end and deploys."""
    g = standard([], coin="Allies")
    g.apply(ChooseOrder("Allies", True))
    with pytest.raises(IllegalAction):
        g.apply(ChooseEnd("Axis", "left"))
    g.apply(ChooseEnd("Allies", "right"))
    assert g.state.ends == {"Allies": "right", "Axis": "left"}
    assert g.state.phase == Phase.DEPLOY_FIRST and g.state.to_act == "Allies"


def deploying(first="Axis", end="left"):
    g = standard([], coin=first)
    g.apply(ChooseOrder(first, True))
    g.apply(ChooseEnd(first, end))
    return g


def test_deployment_zone_is_first_five_whole_hexes_of_each_row():
    """ruling 8 - within five hexes of your end: the first five whole hexes of each
    row; half-hexes don't count."""
    g = deploying()
    zone = deployment_zone(g.state, "Axis")
    assert len(zone) == 5 * 11
    assert at(4, 0) in zone and at(5, 0) not in zone
    u = g.state.units["axis-2"]
    with pytest.raises(IllegalAction, match="five hexes"):
        g.apply(Deploy("Axis", u.uid, at(5, 0)))
    with pytest.raises(IllegalAction, match="half-hex"):
        g.apply(Deploy("Axis", u.uid, at(-1, 0)))
    g.apply(Deploy("Axis", u.uid, at(4, 0)))
    assert u.hex == at(4, 0)


def test_end_zone_is_the_zone_a_side_would_deploy_in_from_an_end():
    """ruling 8 (and L-edition depth 3): ``families.setup.end_zone`` answers, before the
    end is chosen, where a side would deploy from either end - what a player (or the AI)
    weighs when picking the end; once ends are chosen it is the deployment zone."""
    from game.rules.families.setup import end_zone
    g = standard([], coin="Axis")
    st = g.state
    left, right = end_zone(st, "Axis", "left"), end_zone(st, "Axis", "right")
    assert len(left) == len(right) == 5 * 11 and not left & right
    assert at(4, 0) in left and at(5, 0) not in left
    g.apply(ChooseOrder("Axis", True))
    g.apply(ChooseEnd("Axis", "right"))
    assert deployment_zone(g.state, "Axis") == right
    assert deployment_zone(g.state, "Allies") == end_zone(g.state, "Allies", "left")
    st.options["edition"] = "later"            # the later edition deploys 3 hexes deep
    assert len(end_zone(st, "Axis", "left")) == 3 * 11


def test_no_deployment_where_the_unit_cant_enter():
    """rulebook: you may not deploy units in hexes they can't enter (Vehicles in
    marsh; anyone in a pond); difficult terrain is fine."""
    g = deploying()
    tank_uid, soldier_uid = "axis-1", "axis-2"
    with pytest.raises(IllegalAction, match="marsh"):
        g.apply(Deploy("Axis", tank_uid, at(2, 3)))
    with pytest.raises(IllegalAction, match="pond"):
        g.apply(Deploy("Axis", soldier_uid, at(3, 3)))
    g.apply(Deploy("Axis", soldier_uid, at(2, 3)))
    g.apply(Deploy("Axis", tank_uid, at(1, 1)))     # forest: allowed


def test_stacking_limits_apply_during_deployment():
    """ruling 8 - stacking limits apply during deployment."""
    g = deploying()
    g.apply(Deploy("Axis", "axis-1", at(0, 0)))          # Panzer
    with pytest.raises(IllegalAction, match="one Vehicle"):
        g.apply(Deploy("Axis", "axis-5", at(0, 0)))      # halftrack
    g.apply(Deploy("Axis", "axis-2", at(0, 0)))
    with pytest.raises(IllegalAction, match="two friendly"):
        g.apply(Deploy("Axis", "axis-3", at(0, 0)))


def test_transports_may_start_loaded_and_undeploy_takes_back():
    """rulebook glossary: transport - you can start with a Soldier aboard."""
    g = deploying()
    g.apply(Deploy("Axis", "axis-5", at(1, 0)))          # halftrack
    g.apply(Deploy("Axis", "axis-2", at(1, 0), carrier="axis-5"))
    s = g.state.units["axis-2"]
    assert s.carrier == "axis-5" and s.hex == at(1, 0)
    with pytest.raises(IllegalAction, match="already carries"):
        g.apply(Deploy("Axis", "axis-3", at(1, 0), carrier="axis-5"))
    g.apply(Undeploy("Axis", "axis-5"))
    assert s.hex is None and s.carrier is None


def test_all_units_deploy_before_ending_then_second_player():
    g = deploying()
    with pytest.raises(IllegalAction, match="deploy every unit"):
        g.apply(EndPhase("Axis"))
    for i, uid in enumerate(u.uid for u in g.state.units_of("Axis")):
        g.apply(Deploy("Axis", uid, at(i % 2, 2 * i)))
    g.apply(EndPhase("Axis"))
    assert g.state.phase == Phase.DEPLOY_SECOND and g.state.to_act == "Allies"
    zone = deployment_zone(g.state, "Allies")
    assert at(15, 0) in zone and at(10, 0) not in zone


def test_legal_deployments_all_pass_check():
    g = deploying()
    acts = g.legal_actions()
    assert acts and all(g.check(a) is None for a in acts)
    assert not any(isinstance(a, EndPhase) for a in acts)


def full_deploy(g):
    for side in (g.state.first_player, g.state.second_player):
        end_col = 0 if g.state.ends[side] == "left" else 15
        for i, u in enumerate(g.state.units_of(side)):
            c = end_col + (i % 3 if end_col == 0 else -(i % 3))
            g.apply(Deploy(side, u.uid, at(c, 2 * (i // 3) + 1)))
        g.apply(EndPhase(side))


def test_initiative_roll_two_dice_plus_best_commander_bonus():
    """rulebook: Initiative Phase - 2d6 + best commander bonus; the winner chooses."""
    g = deploying()
    g.dice = LoadedDice([3, 3, 4, 4])        # Axis 6 + 2 = 8, Allies 8 + 1 = 9
    full_deploy(g)
    assert g.state.turn == 1 and g.state.phase == Phase.INITIATIVE
    assert g.state.pending == OrderChoice("Allies", "initiative")
    assert g.state.initiative_rolls == {"Axis": (3, 3, 2), "Allies": (4, 4, 1)}
    g.apply(ChooseOrder("Allies", False))
    assert g.state.first_player == "Axis" and g.state.phase == Phase.MOVEMENT_FIRST


def test_initiative_tie_goes_to_better_bonus():
    """rulebook: Initiative - equal totals: the better initiative bonus wins."""
    g = deploying()
    g.dice = LoadedDice([3, 3, 4, 3])        # Axis 6 + 2 = 8, Allies 7 + 1 = 8
    full_deploy(g)
    assert g.state.pending.side == "Axis"


def test_initiative_full_tie_is_rerolled():
    """rulebook: Initiative - same total and same bonus: reroll."""
    g = position(MAP, phase=Phase.ASSAULT_SECOND, dice=[4, 4, 4, 4, 1, 1, 6, 6])
    g.add_unit(rifles(), "Axis", at(1, 1))
    g.add_unit(rifles("United States"), "Allies", at(14, 1))
    g.apply(EndPhase("Allies"))
    rolls = [e for e in g.log if e.kind == "InitiativeRolled"]
    assert [e.winner for e in rolls] == [None, "Allies"]
    assert g.state.turn == 2


def test_disrupted_commander_adds_nothing():
    """rulebook: Initiative - disrupted commanders don't count."""
    g = position(MAP)
    g.add_unit(officer(bonus=3), "Axis", at(1, 1), disrupted=True)
    g.add_unit(officer(bonus=1), "Axis", at(1, 2))
    g.add_unit(rifles("United States"), "Allies", at(14, 1))
    assert g.initiative_bonus("Axis") == 1 and g.initiative_bonus("Allies") == 0


def test_assault_setup_defender_end_objective_and_halves():
    """rulebook: Assault Scenario - the defender chooses the end and an objective hex
    not adjacent to the edge or a half-hex, deploys first on its two sections; the
    attacker deploys within five hexes of its end."""
    g = new_game(MAP, {"Axis": AXIS_ARMY, "Allies": ALLIED_ARMY}, scenario="assault",
                 dice=LoadedDice([]), options={"attacker": "Allies"})
    st = g.state
    assert st.phase == Phase.SETUP_END and st.to_act == "Axis"
    g.apply(ChooseEnd("Axis", "right"))
    assert st.phase == Phase.SETUP_OBJECTIVE
    with pytest.raises(IllegalAction, match="edge"):
        g.apply(ChooseObjective("Axis", at(0, 5)))
    g.apply(ChooseObjective("Axis", at(12, 5)))
    assert st.objective == at(12, 5) and st.phase == Phase.DEPLOY_FIRST and st.to_act == "Axis"
    zone = deployment_zone(st, "Axis")
    assert at(8, 5) in zone and at(15, 5) in zone and at(6, 5) not in zone
    g.apply(Deploy("Axis", "axis-2", at(8, 5)))
    for i, u in enumerate(st.units_of("Axis")):
        if u.hex is None:
            g.apply(Deploy("Axis", u.uid, at(9 + i, 2)))
    g.apply(EndPhase("Axis"))
    assert st.to_act == "Allies"
    with pytest.raises(IllegalAction, match="five hexes"):
        g.apply(Deploy("Allies", "allies-2", at(6, 5)))
    g.apply(Deploy("Allies", "allies-2", at(4, 5)))
