"""The last later-set abilities that waited alone (game/rules/abilities/roster_last.py),
each test naming the ability and its ruling (../shared/design/rulings.md 17-19):
Determined Charge, SS Hunter, Unreliable - and that their cards now play."""
from __future__ import annotations

from game.data.units import load_roster
from game.rules.actions import DefensiveFire, Move, PassDefensiveFire
from game.rules.army import playable_editions
from game.rules.cards import Ability
from game.rules.state import DISRUPTED, Phase
from tests.rules.engine_kit import at, position, rect_map, rifles, tank


def _charge(determined: bool):
    abilities = (Ability("determined_charge"),) if determined else ()
    g = position(rect_map(10, 6), phase=Phase.MOVEMENT_FIRST, dice=[6] * 5 + [1] * 3)
    cav = g.add_unit(rifles("Poland", speed=3, abilities=abilities), "Allies", at(2, 2))
    mg = g.add_unit(rifles("Germany", soldier=(8, 6, 4)), "Axis", at(3, 1))
    g.state.first_player, g.state.second_player = "Allies", "Axis"
    return g, cav, mg


def test_ruling_17_determined_charge_is_disrupted_but_not_stopped_by_defensive_fire():
    """Determined Charge: the defensive-fire hit disrupts (face-up, at once) but the move
    goes on to its end; its odds say the shot can't stop it."""
    g, cav, mg = _charge(True)
    g.apply(Move("Allies", cav.uid, (at(3, 2), at(4, 2), at(5, 2)), None))
    assert g.state.pending is not None
    assert g.odds(mg.uid, cav.uid, defensive=True).p_stopped == 0.0
    g.apply(DefensiveFire("Axis", mg.uid))
    while g.state.pending is not None:
        g.apply(PassDefensiveFire("Axis"))
    assert cav.disrupted and cav.hex == at(5, 2)


def test_ruling_17_without_determined_charge_the_hit_stops_the_move():
    g, cav, mg = _charge(False)
    g.apply(Move("Allies", cav.uid, (at(3, 2), at(4, 2), at(5, 2)), None))
    assert g.odds(mg.uid, cav.uid, defensive=True).p_stopped > 0
    g.apply(DefensiveFire("Axis", mg.uid))
    while g.state.pending is not None:
        g.apply(PassDefensiveFire("Axis"))
    assert cav.disrupted and cav.hex != at(5, 2)


def test_ruling_18_ss_hunter_rolls_two_more_dice_at_an_ss_unit_only():
    roster = load_roster()
    ss = roster_card(roster, "SS-Panzergrenadier")
    plain = roster_card(roster, "Mauser Kar 98k")
    g = position(rect_map(10, 6), phase=Phase.ASSAULT_FIRST)
    g.state.first_player, g.state.second_player = "Allies", "Axis"
    sniper = g.add_unit(rifles("Soviet Union", soldier=(6, 4, 2),
                               abilities=(Ability("ss_hunter"),)), "Allies", at(2, 2))
    a = g.add_unit(ss, "Axis", at(3, 2))
    b = g.add_unit(plain, "Axis", at(1, 2))
    assert g.odds(sniper.uid, a.uid).dice == 6 + 2
    assert g.odds(sniper.uid, b.uid).dice == 6


def test_ruling_19_unreliable_stays_disrupted_one_casualty_phase_longer():
    """Unreliable: disrupted at casualty phase 1 (its counter flips); it stays disrupted
    through casualty phase 2 and recovers at casualty phase 3. A plain unit recovers at 2."""
    from game.rules.combat import casualty_phase
    g = position(rect_map(10, 6), phase=Phase.CASUALTY)
    t26 = g.add_unit(tank("China", abilities=(Ability("unreliable"),)), "Allies", at(2, 2))
    other = g.add_unit(tank("China"), "Allies", at(2, 4))
    t26.pending, other.pending = [DISRUPTED], [DISRUPTED]
    seen = []
    for _ in range(3):
        casualty_phase(g.state)
        seen.append((t26.disrupted, other.disrupted))
    assert seen[0] == (True, True)          # flipped at casualty phase 1
    assert seen[1] == (True, False)         # Unreliable: kept at casualty phase 2
    assert seen[2] == (False, False)        # and removed at casualty phase 3


def test_the_waiting_cards_now_play():
    roster = load_roster()
    for name in ("Cavalrymen", "Fanatical Sniper", "T-26 Series 1933", "Cromwell IV",
                 "Cruiser Mk III A13", "Crusader II"):
        assert playable_editions(roster_card(roster, name)) == ("first", "later"), name


def roster_card(roster, name):
    return next(c for c in roster.values() if c.name == name)


# --- Vanguard (ruling 20) ---------------------------------------------------------------------
def _deployed(vanguard_sides=("Allies",), dice=(6, 6, 1, 1)):
    """A Standard battle on a 16x11 map, both sides deployed: Axis first (left end),
    Allies second; a cruiser tank with Vanguard on each side in ``vanguard_sides``."""
    from game.rules.actions import ChooseEnd, ChooseOrder, Deploy, EndPhase
    from game.rules.dice import LoadedDice
    from game.rules.engine import new_game
    from tests.rules.engine_kit import card
    vg = (Ability("vanguard"),)
    armies = {side: [card(f"{side} cruiser", "Vehicle", speed=5, front=4, rear=3,
                          soldier=(6, 4, 2), vehicle=(8, 6, 4), cost=20,
                          nation="Germany" if side == "Axis" else "United Kingdom",
                          abilities=vg if side in vanguard_sides else ()),
                     rifles("Germany" if side == "Axis" else "United Kingdom")]
              for side in ("Axis", "Allies")}
    g = new_game(rect_map(16, 11, objective=(8, 5)), armies, dice=LoadedDice(list(dice)),
                 coin_winner="Axis")
    g.apply(ChooseOrder("Axis", True))
    g.apply(ChooseEnd("Axis", "left"))
    for side, col in (("Axis", 2), ("Allies", 13)):
        for i, u in enumerate(g.state.units_of(side)):
            g.apply(Deploy(side, u.uid, at(col, 3 + 2 * i), 0 if side == "Axis" else 3))
        g.apply(EndPhase(side))
    return g


def test_ruling_20_vanguard_units_move_once_at_speed_4_before_turn_1():
    """Vanguard: after both deployments the Allied Vanguard tank (the only one) moves
    once, at speed 4 whatever its card's 5; no other unit may move; then turn 1's
    initiative."""
    g = _deployed(("Allies",))
    st = g.state
    assert st.phase == Phase.VANGUARD_SECOND and g.to_act == "Allies" and st.turn == 1
    tank_, inf = g.state.units_of("Allies")
    reach = g.reachable(tank_.uid)
    assert reach and max(r.cost for r in reach.values()) <= 4 and at(9, 3) in reach
    assert at(8, 3) not in reach                        # five hexes: the card's speed
    why = g.check(Move("Allies", inf.uid, (at(12, 5),), None))
    assert why is not None and "Vanguard" in why
    g.apply(Move("Allies", tank_.uid, (at(12, 3), at(11, 3), at(10, 3), at(9, 3)), 3))
    assert tank_.hex == at(9, 3)
    why = g.check(Move("Allies", tank_.uid, (at(8, 3),), 3))
    assert why is not None                               # one move only
    from game.rules.actions import EndPhase
    g.apply(EndPhase("Allies"))
    assert st.phase in (Phase.INITIATIVE, Phase.MOVEMENT_FIRST) or st.pending is not None
    assert st.turn == 1


def test_ruling_20_the_first_player_moves_its_vanguard_first_and_no_step_without_one():
    from game.rules.actions import EndPhase
    g = _deployed(("Axis", "Allies"))
    assert g.state.phase == Phase.VANGUARD_FIRST and g.to_act == "Axis"
    g.apply(EndPhase("Axis"))                            # it may also keep it where it is
    assert g.state.phase == Phase.VANGUARD_SECOND and g.to_act == "Allies"
    plain = _deployed(())
    assert plain.state.phase not in (Phase.VANGUARD_FIRST, Phase.VANGUARD_SECOND)
    assert not any(getattr(e, "phase", "").startswith("vanguard") for e in plain.log)
