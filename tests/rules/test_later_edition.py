"""The later edition (seed 001) as a rules module: one test (or more) per checklist item
of shared/data/later_edition_facts.yaml (L01..), each naming it, with the rulings of
shared/design/rulings.md ("Later edition", L1-L20) that settle the open points."""
from __future__ import annotations

import pytest

from game.rules.actions import (Attack, DefensiveFire, Deploy, EndPhase, Move,
                                PassDefensiveFire, PlaceAircraft)
from game.rules.army import Army, validate_army
from game.rules.cards import Ability
from game.rules.dice import LoadedDice
from game.rules.errors import IllegalAction
from game.rules.events import AircraftLeft, PhaseBegan
from game.rules.hexes import Hexside
from game.rules.state import DESTROYED, DISRUPTED, AntiairPrompt, Phase
from game.rules.terrain import Terrain
from tests.rules.engine_kit import at, card, officer, position, rect_map, rifles, tank

LATER = {"edition": "later"}


def aircraft(nation="Germany", name=None, *, front=4, soldier=(8, 6, None),
             vehicle=(4, 3, None), abilities=(), cost=14):
    return card(name or f"{nation} fighter", "Aircraft", speed=0, front=front,
                soldier=soldier, vehicle=vehicle, nation=nation, abilities=abilities, cost=cost)


def flak(nation="United States", name=None, **kw):
    base = dict(speed=1, front=3, soldier=(9, 8, 6), vehicle=(3, 3, 3), cost=9,
                abilities=(Ability("antiair", None, "Antiair"),))
    base.update(kw)
    return card(name or f"{nation} flak", "Soldier", nation=nation, **base)


def later_game(bm=None, *, phase=Phase.FLIGHT_FIRST, dice=(), turn=1):
    g = position(bm or rect_map(10, 6), phase=phase, dice=list(dice), turn=turn)
    g.state.options.update(LATER)
    return g


# --- L01 sequence of play ------------------------------------------------------------
def test_L01_turn_order_a_to_k_with_flight_and_airstrike_phases():
    """L01: A initiative; B, C movement; D, E flight; F, G airstrike; H, I assault;
    J casualty; K end of turn - the later edition's own rows of the phase table."""
    g = later_game(phase=Phase.MOVEMENT_FIRST, dice=[6, 6, 1, 1])
    g.add_unit(rifles("Germany"), hex=at(0, 0))
    g.add_unit(rifles("United States"), hex=at(9, 5))
    seen = []
    while g.state.turn == 1:
        side = g.to_act
        ev = g.apply(EndPhase(side))
        seen += [e.phase for e in ev if isinstance(e, PhaseBegan)]
    assert seen == ["movement_second", "flight_first", "flight_second", "airstrike_first",
                    "airstrike_second", "assault_first", "assault_second", "casualty",
                    "end_of_turn", "initiative"]


def test_L01_first_edition_keeps_its_seven_phases():
    """L01 vs seed 000: without the option the turn has no flight or airstrike phase."""
    g = position(rect_map(10, 6), phase=Phase.MOVEMENT_SECOND)
    g.add_unit(rifles("Germany"), hex=at(0, 0))
    g.add_unit(rifles("United States"), hex=at(9, 5))
    ev = g.apply(EndPhase("Allies"))
    assert [e.phase for e in ev if isinstance(e, PhaseBegan)] == ["assault_first"]


# --- L02 initiative --------------------------------------------------------------------
def test_L02_commanders_not_yet_deployed_count_for_initiative():
    """L02: 2d6 + best Commander bonus; Commanders not yet deployed count (later only)."""
    g = later_game(phase=Phase.MOVEMENT_FIRST)
    g.add_unit(officer("Germany", bonus=3))               # not deployed
    g.add_unit(officer("United States", bonus=2), hex=at(5, 5), disrupted=True)
    assert g.initiative_bonus("Axis") == 3
    assert g.initiative_bonus("Allies") == 0              # disrupted: doesn't count
    g.state.options.pop("edition")
    assert g.initiative_bonus("Axis") == 0                # first edition: on the map only


# --- L03, L06, L15 Aircraft as a unit type, not deployed, no movement ---------------------
def test_L03_aircraft_is_a_third_unit_type_read_from_card_files(tmp_path):
    """L03 / L06: a card of type Aircraft prints "A" for speed (game.data.units)."""
    from game.data.units import load_card_file
    from game.rules.errors import DataError
    f = tmp_path / "air.yaml"
    f.write_text("cards:\n  - {name: Test Fighter, nationality: Germany, cost: 14, year: 1942,"
                 " type: Aircraft, speed: A, defense: 4, vs_soldier: [8, 6, '-'],"
                 " vs_vehicle: [4, 3, '-']}\n")
    c = load_card_file(f)[0]
    assert c.is_aircraft and not c.is_soldier and not c.is_vehicle
    f.write_text(f.read_text().replace("speed: A", "speed: 3"))
    with pytest.raises(DataError, match='"A"'):
        load_card_file(f)


def test_L06_L15_aircraft_are_not_deployed_and_do_not_move():
    """L06 / ruling L15: an Aircraft is not deployed at setup (deployment ends without
    it) and never moves."""
    g = later_game(phase=Phase.DEPLOY_FIRST)
    g.state.ends = {"Axis": "left", "Allies": "right"}
    plane = g.add_unit(aircraft())
    inf = g.add_unit(rifles("Germany"))
    assert not any(getattr(a, "uid", None) == plane.uid for a in g.legal_actions())
    assert "flies in during your flight phase" in g.check(Deploy("Axis", plane.uid, at(0, 0), 0))
    g.apply(Deploy("Axis", inf.uid, at(0, 0), 0))
    assert EndPhase("Axis") in g.legal_actions()
    g2 = later_game(phase=Phase.MOVEMENT_FIRST)
    p2 = g2.add_unit(aircraft(), hex=at(3, 3))
    g2.add_unit(rifles("United States"), hex=at(9, 5))
    assert "doesn't move" in g2.check(Move("Axis", p2.uid, (at(4, 3),), None))


# --- L04 flight phase ------------------------------------------------------------------
def test_L04_aircraft_placed_in_any_hex_even_an_enemy_one():
    """L04 / ruling L3: in its flight phase an Aircraft is placed in any whole hex, one
    with enemy units included; once placed it stays (no second placement)."""
    g = later_game()
    plane = g.add_unit(aircraft())
    enemy = g.add_unit(rifles("United States"), hex=at(7, 2))
    g.apply(PlaceAircraft("Axis", plane.uid, enemy.hex))
    assert plane.hex == enemy.hex
    assert "already over the battle map" in g.check(PlaceAircraft("Axis", plane.uid, at(1, 1)))


def test_L04_disrupted_aircraft_cannot_be_placed_and_one_per_army_per_hex():
    """L04: an Aircraft with a face-up Disrupted counter may not be placed; ruling L3:
    at most one Aircraft of each army per hex."""
    g = later_game()
    a1 = g.add_unit(aircraft(name="A1"))
    a2 = g.add_unit(aircraft(name="A2"))
    a3 = g.add_unit(aircraft(name="A3"), disrupted=True)
    g.add_unit(rifles("United States"), hex=at(9, 5))
    assert "disrupted" in g.check(PlaceAircraft("Axis", a3.uid, at(2, 2)))
    assert not any(getattr(a, "uid", None) == a3.uid for a in g.legal_actions())
    g.apply(PlaceAircraft("Axis", a1.uid, at(2, 2)))
    assert "one per army per hex" in g.check(PlaceAircraft("Axis", a2.uid, at(2, 2)))
    g.apply(PlaceAircraft("Axis", a2.uid, at(3, 2)))


def test_L04_aircraft_placed_only_in_own_flight_phase():
    """L04: placement belongs to the flight phase (not movement, not the enemy's)."""
    g = later_game(phase=Phase.MOVEMENT_FIRST)
    plane = g.add_unit(aircraft())
    g.add_unit(rifles("United States"), hex=at(9, 5))
    assert g.check(PlaceAircraft("Axis", plane.uid, at(2, 2))) is not None
    g2 = later_game(phase=Phase.FLIGHT_SECOND)
    p2 = g2.add_unit(aircraft())
    assert g2.check(PlaceAircraft("Axis", p2.uid, at(2, 2))) is not None


def test_L03_aircraft_never_count_against_stacking():
    """Ruling L3: two friendly Soldiers and a friendly Aircraft share a hex."""
    g = later_game(phase=Phase.MOVEMENT_FIRST)
    g.add_unit(aircraft(), hex=at(2, 2))
    g.add_unit(rifles("Germany"), hex=at(2, 2))
    mover = g.add_unit(rifles("Germany"), hex=at(1, 2))
    g.add_unit(rifles("United States"), hex=at(9, 5))
    assert g.check(Move("Axis", mover.uid, (at(2, 2),), None)) is None


# --- L05 airstrike ---------------------------------------------------------------------
def test_L05_airstrike_hits_are_face_down_until_the_casualty_phase():
    """L05: in its airstrike phase each placed Aircraft may attack; its hits are
    face-down counters revealed with the assault's."""
    g = later_game(phase=Phase.AIRSTRIKE_FIRST, dice=[6] * 8)
    plane = g.add_unit(aircraft(), hex=at(3, 2))
    target = g.add_unit(rifles("United States"), hex=at(4, 2))
    g.apply(Attack("Axis", plane.uid, target.uid))
    assert target.pending == [DISRUPTED, DESTROYED] and not target.destroyed


def test_L05_only_aircraft_attack_in_airstrike_and_not_in_assault():
    """L05: the airstrike phases are the Aircraft's; the assault phases the ground's."""
    g = later_game(phase=Phase.AIRSTRIKE_FIRST)
    plane = g.add_unit(aircraft(), hex=at(3, 2))
    inf = g.add_unit(rifles("Germany"), hex=at(3, 3))
    target = g.add_unit(rifles("United States"), hex=at(4, 2))
    assert g.check(Attack("Axis", inf.uid, target.uid)) is not None
    assert Attack("Axis", plane.uid, target.uid) in g.legal_actions()
    g2 = later_game(phase=Phase.ASSAULT_FIRST)
    p2 = g2.add_unit(aircraft(), hex=at(3, 2))
    t2 = g2.add_unit(rifles("United States"), hex=at(4, 2))
    assert "airstrike phase" in g2.check(Attack("Axis", p2.uid, t2.uid))


# --- L07, L14, ruling L2 / L14: attacks on Aircraft -------------------------------------------
def test_L07_attacks_on_aircraft_use_anti_soldier_values_at_minus_one():
    """L07 / ruling L2: anti-Soldier dice at -1 each (5+); Antiair takes no penalty."""
    g = later_game(phase=Phase.ASSAULT_SECOND)
    plane = g.add_unit(aircraft(), hex=at(3, 2))
    gun = g.add_unit(rifles("United States", soldier=(6, 4, 2), vehicle=(1, None, None)),
                     hex=at(4, 2))
    aa = g.add_unit(flak(), hex=at(5, 2))
    o = g.odds(gun.uid, plane.uid)
    assert (o.dice, o.need) == (6, 5)
    o = g.odds(aa.uid, plane.uid)
    assert (o.dice, o.need) == (8, 4)          # medium range, no -1


def test_L14_disrupted_attacker_against_aircraft_needs_six():
    """Ruling L14: the -1 against an Aircraft adds to a disrupted attacker's -1."""
    g = later_game(phase=Phase.ASSAULT_SECOND)
    plane = g.add_unit(aircraft(), hex=at(3, 2))
    gun = g.add_unit(rifles("United States"), hex=at(4, 2), disrupted=True)
    assert g.odds(gun.uid, plane.uid).need == 6


def test_L14_ground_units_attack_aircraft_in_the_assault_phase():
    """L14: Soldiers and Vehicles may attack Aircraft on the map in the assault phase."""
    g = later_game(phase=Phase.ASSAULT_SECOND, dice=[5] * 6)
    plane = g.add_unit(aircraft(), hex=at(3, 2))
    gun = g.add_unit(rifles("United States"), hex=at(4, 2))
    assert Attack("Allies", gun.uid, plane.uid) in g.legal_actions()
    g.apply(Attack("Allies", gun.uid, plane.uid))
    assert plane.pending == [DISRUPTED, DESTROYED]


def test_L2_line_of_sight_to_and_from_aircraft_is_never_blocked():
    """Ruling L2 (U03): a forest between an Aircraft and its target blocks nothing."""
    bm = rect_map(10, 6, {(4, 2): "forest"})
    g = later_game(bm, phase=Phase.AIRSTRIKE_FIRST)
    plane = g.add_unit(aircraft(), hex=at(3, 2))
    target = g.add_unit(rifles("United States"), hex=at(5, 2))
    assert not bm.can_see(at(3, 2), at(5, 2))
    assert g.check(Attack("Axis", plane.uid, target.uid)) is None
    g.state.phase = Phase.ASSAULT_SECOND
    assert g.check(Attack("Allies", target.uid, plane.uid)) is None


# --- L08, L09: hits and cover ----------------------------------------------------------
def test_L08_aircraft_never_damaged_second_hit_destroys():
    """L08 / ruling L5: first counter Disrupted, second Destroyed; never Damaged."""
    g = later_game(phase=Phase.AIRSTRIKE_SECOND, dice=[6, 6, 6, 6, 1, 1, 1, 1])
    plane = g.add_unit(aircraft(), hex=at(3, 2))
    enemy = g.add_unit(aircraft("United States", soldier=(8, 6, None)), hex=at(4, 2))
    g.state.first_player, g.state.second_player = "Allies", "Axis"
    g.apply(Attack("Axis", plane.uid, enemy.uid))     # 4 successes vs 4: 1 hit... 4 >= 4
    assert enemy.pending == [DISRUPTED]


def test_L08_two_simultaneous_hits_destroy_an_aircraft_in_the_casualty_phase():
    """L08: two hits (from any attacks of the phase) destroy; no Damaged counter."""
    g = later_game(phase=Phase.ASSAULT_SECOND, dice=[6] * 5 + [1] + [6, 6, 1, 1])
    plane = g.add_unit(aircraft(), hex=at(3, 2))
    gun = g.add_unit(rifles("United States"), hex=at(4, 2))
    g.apply(Attack("Allies", gun.uid, plane.uid))     # 5 successes vs 4: 2 hits
    assert plane.pending == [DISRUPTED, DESTROYED]
    g.apply(EndPhase("Allies"))                       # casualty phase, end of turn
    assert plane.destroyed and not plane.damaged


def test_L09_aircraft_never_have_cover():
    """L09: an Aircraft over a forest makes no cover roll."""
    bm = rect_map(10, 6, {(3, 2): "forest"})
    g = later_game(bm, phase=Phase.ASSAULT_SECOND)
    plane = g.add_unit(aircraft(), hex=at(3, 2))
    gun = g.add_unit(rifles("United States"), hex=at(4, 2))
    assert g.odds(gun.uid, plane.uid).cover_need is None


# --- L10, L11: leaving the map, sitting out a turn ----------------------------------------
def test_L11_aircraft_leave_the_map_at_the_end_of_the_turn():
    """L11 / ruling L6: at the start of the end-of-turn phase surviving Aircraft leave
    the map (with their face-up counters)."""
    g = later_game(phase=Phase.ASSAULT_SECOND, dice=[6, 6, 1, 1])
    plane = g.add_unit(aircraft(), hex=at(3, 2))
    g.add_unit(rifles("Germany"), hex=at(0, 0))
    g.add_unit(rifles("United States"), hex=at(9, 5))
    ev = g.apply(EndPhase("Allies"))
    assert any(isinstance(e, AircraftLeft) for e in ev)
    assert plane.hex is None and not plane.destroyed


def test_L10_L11_disrupted_aircraft_sits_out_one_turn():
    """L11: an Aircraft disrupted this turn leaves with its counter, can't be placed
    next turn; L10: the next casualty phase removes the counter off the map."""
    g = later_game(phase=Phase.ASSAULT_SECOND, dice=[6, 6, 6, 6, 1, 1] + [6, 6, 1, 1] * 2)
    plane = g.add_unit(aircraft(), hex=at(3, 2))
    gun = g.add_unit(rifles("United States"), hex=at(4, 2))
    g.add_unit(rifles("Germany"), hex=at(0, 0))
    g.apply(Attack("Allies", gun.uid, plane.uid))     # 4 successes vs 4: 1 hit
    g.apply(EndPhase("Allies"))
    assert plane.hex is None and plane.disrupted
    # turn 2: Axis won the initiative; jump to its flight phase
    g.state.pending = None
    g.state.first_player, g.state.second_player = "Axis", "Allies"
    g.state.phase = Phase.FLIGHT_FIRST
    assert "disrupted" in g.check(PlaceAircraft("Axis", plane.uid, at(2, 2)))
    g.state.phase = Phase.ASSAULT_SECOND
    g.apply(EndPhase("Allies"))                       # turn 2's casualty phase
    assert not plane.disrupted and plane.hex is None


# --- L12 Antiair -------------------------------------------------------------------------
def test_L12_antiair_fires_at_an_aircraft_placed_next_to_it():
    """L12 / ruling L4: placing an Aircraft in or next to an enemy Antiair unit offers
    the defender a defensive-fire shot (with odds); a success disrupts it at once."""
    g = later_game(dice=[6, 6, 6, 6] + [1] * 5)
    plane = g.add_unit(aircraft())
    aa = g.add_unit(flak(), hex=at(5, 2))
    g.apply(PlaceAircraft("Axis", plane.uid, at(4, 2)))
    p = g.state.pending
    assert isinstance(p, AntiairPrompt) and p.eligible == (aa.uid,)
    assert g.to_act == "Allies"
    assert set(g.legal_actions()) == {DefensiveFire("Allies", aa.uid), PassDefensiveFire("Allies")}
    o = g.odds(aa.uid, plane.uid, defensive=True)
    assert (o.dice, o.need, o.cover_need) == (9, 4, None)
    g.apply(DefensiveFire("Allies", aa.uid))
    assert plane.disrupted and g.state.pending is None and aa.fired_defensively


def test_L12_antiair_may_hold_fire_and_out_of_reach_it_gets_no_shot():
    """L12: the defender may hold fire; two hexes away there is no shot at all."""
    g = later_game()
    p1 = g.add_unit(aircraft(name="A1"))
    p2 = g.add_unit(aircraft(name="A2"))
    g.add_unit(flak(), hex=at(5, 2))
    g.apply(PlaceAircraft("Axis", p1.uid, at(5, 2)))           # in its hex
    assert isinstance(g.state.pending, AntiairPrompt)
    g.apply(PassDefensiveFire("Allies"))
    assert g.state.pending is None and not p1.disrupted
    g.apply(PlaceAircraft("Axis", p2.uid, at(7, 2)))           # two hexes away
    assert g.state.pending is None


def test_L12_placement_provokes_only_antiair():
    """Ruling L3: placement is not a move - a plain rifle squad next to it gets no shot."""
    g = later_game()
    plane = g.add_unit(aircraft())
    g.add_unit(rifles("United States"), hex=at(5, 2))
    g.apply(PlaceAircraft("Axis", plane.uid, at(4, 2)))
    assert g.state.pending is None


def test_L12_illegal_antiair_answer_leaves_state_unchanged():
    """A refused answer raises the rules' refusal and changes nothing."""
    g = later_game()
    plane = g.add_unit(aircraft())
    g.add_unit(flak(), hex=at(5, 2))
    other = g.add_unit(rifles("United States"), hex=at(5, 3))
    g.apply(PlaceAircraft("Axis", plane.uid, at(4, 2)))
    before = g.state_hash()
    with pytest.raises(IllegalAction, match="Antiair"):
        g.apply(DefensiveFire("Allies", other.uid))
    assert g.state_hash() == before


# --- L13 Aircraft don't fire defensively at ground units --------------------------------------
def test_L13_aircraft_make_no_defensive_fire_at_ground_movers():
    """L13 / ruling L7: a Soldier moving next to an enemy Aircraft provokes nothing from it."""
    g = later_game(phase=Phase.MOVEMENT_FIRST)
    e = at(4, 2)
    mover = g.add_unit(rifles("Germany", speed=2), hex=e.neighbor(3))
    plane = g.add_unit(aircraft("United States"), hex=e)
    g.apply(Move("Axis", mover.uid, (e.neighbor(2),), None))
    assert g.state.pending is None and mover.hex == e.neighbor(2)
    # the same move next to a Soldier is offered to it (so the rule is what stops it)
    g2 = later_game(phase=Phase.MOVEMENT_FIRST)
    m2 = g2.add_unit(rifles("Germany", speed=2), hex=e.neighbor(3))
    g2.add_unit(rifles("United States"), hex=e)
    g2.apply(Move("Axis", m2.uid, (e.neighbor(2),), None))
    assert g2.state.pending is not None


# --- L15 front/rear, L16 / rulings L12, L19 defense 0 -------------------------------------------
def test_L16_defense_zero_is_destroyed_by_a_single_hit():
    """L16 / rulings L12, L19: a disrupted defense-1 unit (defense 0) is destroyed by one
    success; no success still misses."""
    g = later_game(phase=Phase.ASSAULT_FIRST, dice=[6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    a = g.add_unit(rifles("Germany"), hex=at(3, 2))
    b = g.add_unit(rifles("Germany", name="rifles 2"), hex=at(3, 3))
    t = g.add_unit(rifles("United States", front=1), hex=at(4, 2), disrupted=True)
    assert g.odds(a.uid, t.uid).defense == 0
    g.apply(Attack("Axis", a.uid, t.uid))
    assert DESTROYED in t.pending
    t2 = g.add_unit(rifles("United States", front=1, name="r2"), hex=at(4, 3), disrupted=True)
    g.apply(Attack("Axis", b.uid, t2.uid))           # six 1s: no success, no hit
    assert t2.pending == []


def test_L19_defense_zero_with_cover_only_disrupts_and_first_edition_floors_at_one():
    """Ruling L19: a successful cover roll limits it to disruption as usual; first
    edition: a defense never drops below 1 (unchanged)."""
    bm = rect_map(10, 6, {(4, 2): "forest"})
    g = later_game(bm, phase=Phase.ASSAULT_FIRST, dice=[6, 1, 1, 1, 1, 1, 6])
    a = g.add_unit(rifles("Germany"), hex=at(3, 2))
    t = g.add_unit(rifles("United States", front=1), hex=at(4, 2), disrupted=True)
    g.apply(Attack("Axis", a.uid, t.uid))
    assert t.pending == [DISRUPTED]
    g.state.options.pop("edition")
    assert g.odds(a.uid, t.uid).defense == 1


def test_L19_defensive_fire_at_defense_zero_only_disrupts():
    """Ruling L19: defensive fire never destroys, even at defense 0."""
    g = later_game(phase=Phase.MOVEMENT_FIRST, dice=[6, 6, 6, 6, 6, 6])
    e = at(4, 2)
    mover = g.add_unit(rifles("Germany", front=1, speed=2), hex=e.neighbor(3))
    g.add_unit(rifles("United States"), hex=e)
    g.apply(Move("Axis", mover.uid, (e.neighbor(2),), None))
    p = g.state.pending
    assert p is not None
    g.apply(DefensiveFire("Allies", p.eligible[0]))
    assert mover.disrupted and not mover.destroyed


def test_L15_every_unit_has_front_and_rear_defense_numbers():
    """L15: front/rear defense per card (one-number Soldiers print the same twice)."""
    c = rifles("Germany", front=4)
    assert (c.defense(True), c.defense(False)) == (4, 4)
    t = tank("Germany")
    assert (t.defense(True), t.defense(False)) == (5, 3)


# --- L17 Damaged from two simultaneous hits, airstrike + assault --------------------------------
def test_L17_airstrike_and_assault_hits_add_up_to_damaged():
    """L17: a Vehicle's Damaged counter from two simultaneous hits, one in the airstrike
    and one in the assault phase."""
    g = later_game(phase=Phase.AIRSTRIKE_SECOND, dice=[6] * 5 + [6] * 5)
    g.state.first_player, g.state.second_player = "Allies", "Axis"
    plane = g.add_unit(aircraft(vehicle=(5, 3, None)), hex=at(3, 2))
    veh = g.add_unit(tank("United States", front=5, rear=5), hex=at(4, 2), facing=3)
    g.apply(Attack("Axis", plane.uid, veh.uid))       # 5 successes vs 5: 1 hit
    assert veh.pending == [DISRUPTED]
    g.apply(EndPhase("Axis"))                         # -> first assault (Allies)
    g.apply(EndPhase("Allies"))                       # -> second assault (Axis)
    gun = g.add_unit(tank("Germany", vehicle=(5, 3, 2)), hex=at(4, 3), facing=0)
    g.apply(Attack("Axis", gun.uid, veh.uid))
    assert veh.pending[:2] == [DISRUPTED, "damaged"]


# --- L19, L20 setup -------------------------------------------------------------------------
def test_L19_deploy_within_three_hexes_of_your_end():
    """L19 / ruling L13: three whole hexes from your end (five in the first edition)."""
    from game.rules.families.setup import deployment_zone
    g = later_game(rect_map(14, 10), phase=Phase.DEPLOY_FIRST)
    g.state.ends = {"Axis": "left", "Allies": "right"}
    inf = g.add_unit(rifles("Germany"))
    zone = deployment_zone(g.state, "Axis")
    assert at(2, 0) in zone and at(3, 0) not in zone
    assert "within three hexes" in g.check(Deploy("Axis", inf.uid, at(3, 0), 0))
    g.state.options.pop("edition")
    assert at(4, 0) in deployment_zone(g.state, "Axis")


def test_L20_army_limits_and_aircraft_only_in_later_battles():
    """L20: up to 100 points and 15 units (as before); Aircraft and Antiair cards are
    allowed only in later-edition battles (game.rules.army)."""
    plane, aa = aircraft(), flak("Germany")
    army = Army("Air", "Axis", [plane, aa, rifles("Germany")])
    probs = validate_army(army)
    assert any("Aircraft" in p and "later-edition" in p for p in probs)
    assert any("Antiair" in p for p in probs)
    assert validate_army(army, edition="later") == []
    big = Army("Big", "Axis", [rifles("Germany", cost=7)] * 16)
    assert any("16 units" in p for p in validate_army(big, edition="later"))


# --- terrain: hedges, bluffs, shell holes, water ----------------------------------------------
def _step(g, unit, a, b):
    from game.rules import movement
    return movement.step(g.state, unit, at(*a), at(*b), bonus_left=False, speed_one=False)


def _with_sides(bm, hedges=(), cliffs=()):
    from dataclasses import replace
    side = lambda p: Hexside.between(at(*p[0]), at(*p[1]))   # noqa: E731
    return replace(bm, hedges=frozenset(map(side, hedges)), cliffs=frozenset(map(side, cliffs)))


def test_L23_crossing_a_hedge_needs_five_and_brushcutters_three():
    """L23 / ruling L8: a hedge crossing is a movement roll at -1 (5+); Brushcutters
    +1 (3+); a failed roll stops the unit in the hex it was leaving."""
    bm = _with_sides(rect_map(10, 6), hedges=[((3, 2), (4, 2))])
    g = later_game(bm, phase=Phase.MOVEMENT_FIRST, dice=[4])
    inf = g.add_unit(rifles("Germany", speed=2), hex=at(3, 2))
    g.add_unit(rifles("United States"), hex=at(9, 5))
    assert [(r.kind, r.need) for r in _step(g, inf, (3, 2), (4, 2)).rolls] == [("hedge", 5)]
    g.apply(Move("Axis", inf.uid, (at(4, 2),), None))
    assert inf.hex == at(3, 2)
    from game.rules.later.terrain import side_rolls
    bc = g.add_unit(rifles("Germany", abilities=(Ability("brushcutters"),)), hex=at(3, 3))
    assert side_rolls(bm, bc, Hexside.between(at(3, 2), at(4, 2))) == [("hedge", 3)]


def test_L8_road_across_a_hedge_needs_no_roll():
    """Ruling L8: moving along a road across a hedge needs no roll (L36)."""
    bm = _with_sides(rect_map(10, 6, roads=[((3, 2), (4, 2))]), hedges=[((3, 2), (4, 2))])
    g = later_game(bm, phase=Phase.MOVEMENT_FIRST)
    inf = g.add_unit(rifles("Germany", speed=2), hex=at(3, 2))
    g.add_unit(rifles("United States"), hex=at(9, 5))
    assert _step(g, inf, (3, 2), (4, 2)).rolls == ()


def test_L24_hedge_gives_cover_through_it_and_does_not_block_sight():
    """L24 / rulings L8, L16: a target behind a hedge the sight line crosses has cover
    (Soldier 4+, Vehicle 5+); the hedge blocks no sight (U05); an Aircraft's attack
    gets no hedge cover."""
    bm = _with_sides(rect_map(10, 6), hedges=[((4, 2), (5, 2))])
    g = later_game(bm, phase=Phase.ASSAULT_FIRST)
    a = g.add_unit(rifles("Germany", vehicle=(4, 3, 2)), hex=at(3, 2))
    side_on = g.add_unit(rifles("Germany", name="flank"), hex=at(5, 4))
    t = g.add_unit(rifles("United States"), hex=at(5, 2))
    v = g.add_unit(tank("United States"), hex=at(5, 2))
    plane = g.add_unit(aircraft(), hex=at(2, 2))
    assert bm.can_see(at(3, 2), at(5, 2))
    assert g.odds(a.uid, t.uid).cover_need == 4
    assert g.odds(a.uid, v.uid).cover_need == 5
    assert g.odds(side_on.uid, t.uid).cover_need is None    # line doesn't cross it
    g.state.phase = Phase.AIRSTRIKE_FIRST
    assert g.odds(plane.uid, t.uid).cover_need is None


def test_L16_hedge_cover_through_an_end_point():
    """Ruling L16: a sight line through the corner where a hedge side ends gives cover."""
    from game.rules.later.combat import sides_crossed
    t = at(5, 2)
    corner_attacker = t.neighbor(0).neighbor(1)       # exactly between sides 0 and 1
    assert sides_crossed(t, corner_attacker) == (0, 1)
    assert sides_crossed(t, t.neighbor(0).neighbor(0)) == (0,)


def test_L27_L28_cliff_soldiers_climb_on_four_vehicles_barred():
    """L27 / L28 / ruling L9: Soldiers roll 4+ through a cliff side; Vehicles can't."""
    bm = _with_sides(rect_map(10, 6, {(4, 2): "bluffs"}), cliffs=[((3, 2), (4, 2))])
    g = later_game(bm, phase=Phase.MOVEMENT_FIRST)
    inf = g.add_unit(rifles("Germany", speed=2), hex=at(3, 2))
    veh = g.add_unit(tank("Germany"), hex=at(3, 3))
    g.add_unit(rifles("United States"), hex=at(9, 5))
    assert [(r.kind, r.need) for r in _step(g, inf, (3, 2), (4, 2)).rolls] == [("cliff", 4)]
    assert _step(g, veh, (3, 2), (4, 2)).reason == "Vehicles can't cross a cliff"
    assert at(4, 2) in g.reachable(veh.uid)        # around, through an open side


def test_L26_L18_bluffs_hex_is_open_ground_costing_one():
    """L26 / ruling L18: a bluffs hex costs 1 to a unit that may enter it."""
    bm = rect_map(10, 6, {(4, 2): "bluffs"})
    g = later_game(bm, phase=Phase.MOVEMENT_FIRST)
    veh = g.add_unit(tank("Germany"), hex=at(3, 2))
    g.add_unit(rifles("United States"), hex=at(9, 5))
    assert g.reachable(veh.uid)[at(4, 2)].cost == 1


def test_L29_L30_L31_bluffs_sight_and_cliff_cover():
    """L31 / ruling L9: a bluffs hex between blocks sight; L29: a target in a bluffs hex
    seen through a cliff side has cover; L30: bluff to bluff, neither."""
    bm = _with_sides(rect_map(10, 6, {(4, 2): "bluffs", (6, 2): "bluffs", (2, 2): "bluffs"}),
                     cliffs=[((5, 2), (6, 2)), ((3, 2), (4, 2))])
    assert not bm.can_see(at(3, 2), at(5, 2))           # (4, 2) in between blocks
    assert bm.can_see(at(2, 2), at(6, 2))               # bluff to bluff over (4, 2)
    g = later_game(bm, phase=Phase.ASSAULT_FIRST)
    a = g.add_unit(rifles("Germany"), hex=at(5, 2))
    b = g.add_unit(rifles("Germany", name="on bluff"), hex=at(2, 2))
    t = g.add_unit(rifles("United States"), hex=at(6, 2))
    assert g.odds(a.uid, t.uid).cover_need == 4          # through the cliff side
    assert g.odds(b.uid, t.uid).cover_need is None       # bluff to bluff: no cover


def test_L32_L38_shell_holes_cover_soldiers_only():
    """L32 / L38 / ruling L10: shell holes give Soldiers cover 4+; Vehicles get none
    and may enter (cost 1)."""
    bm = rect_map(10, 6, {(4, 2): "shell holes", (4, 3): "shell holes"})
    g = later_game(bm, phase=Phase.ASSAULT_FIRST)
    a = g.add_unit(rifles("Germany", vehicle=(4, 3, 2)), hex=at(3, 2))
    s = g.add_unit(rifles("United States"), hex=at(4, 2))
    v = g.add_unit(tank("United States"), hex=at(4, 3))
    assert g.odds(a.uid, s.uid).cover_need == 4
    assert g.odds(a.uid, v.uid).cover_need is None
    assert bm.can_see(at(3, 2), at(5, 2))


def test_L33_L34_water_is_impassable():
    """L33 / L34 / ruling L11: no Soldier or Vehicle enters water; sight passes."""
    bm = rect_map(10, 6, {(4, 2): "water"})
    g = later_game(bm, phase=Phase.MOVEMENT_FIRST)
    inf = g.add_unit(rifles("Germany", speed=2), hex=at(3, 2))
    g.add_unit(rifles("United States"), hex=at(9, 5))
    assert at(4, 2) not in g.reachable(inf.uid)
    assert bm.can_see(at(3, 2), at(5, 2))
    assert Terrain.WATER.later_only


def test_L35_stream_and_forest_rolls_as_in_the_first_edition():
    """L35 (same as seed 000): stream 4+ for all, forest 4+ for Vehicles, both in order."""
    bm = rect_map(10, 6, {(4, 2): "forest"}, streams=[((3, 2), (4, 2))])
    g = later_game(bm, phase=Phase.MOVEMENT_FIRST)
    veh = g.add_unit(tank("Germany"), hex=at(3, 2))
    g.add_unit(rifles("United States"), hex=at(9, 5))
    assert [r.kind for r in _step(g, veh, (3, 2), (4, 2)).rolls] == ["stream", "forest"]


def test_L18_rolls_order_hedge_stream_cliff_forest():
    """Ruling L18: the hexside's rolls first (hedge, stream, cliff), then the hex's."""
    bm = _with_sides(rect_map(10, 6, {(4, 2): "bluffs"}, streams=[((3, 2), (4, 2))]),
                     hedges=[((3, 2), (4, 2))], cliffs=[((3, 2), (4, 2))])
    g = later_game(bm, phase=Phase.MOVEMENT_FIRST)
    inf = g.add_unit(rifles("Germany", speed=2), hex=at(3, 2))
    g.add_unit(rifles("United States"), hex=at(9, 5))
    assert [r.kind for r in _step(g, inf, (3, 2), (4, 2)).rolls] == ["hedge", "stream", "cliff"]


# --- L43 victory ------------------------------------------------------------------------------
def test_L43_aircraft_never_count_for_the_objective():
    """L43 / ruling L7: at the end of turn 7 Aircraft have left; an Aircraft never counts
    for control of the objective."""
    bm = rect_map(10, 6, objective=(5, 2))
    g = later_game(bm, phase=Phase.ASSAULT_SECOND, turn=7, dice=[1] * 10)
    g.add_unit(aircraft(), hex=at(5, 2))
    g.add_unit(rifles("United States"), hex=at(6, 2))
    g.add_unit(rifles("Germany"), hex=at(0, 0))
    assert g.state.objective_controller() == "Allies"
    g.apply(EndPhase("Allies"))
    assert g.state.outcome is not None and g.state.outcome.winner == "Allies"


# --- the edition as an option: saves, replays, random play ------------------------------------
def test_later_game_plays_to_the_end_and_replays_to_the_same_hash():
    """A later-edition game with Aircraft and Antiair plays start to finish under random
    play; its history replays to the same state hash (new_game options record it)."""
    import random
    from game.data.maps import load_configuration
    from game.data.units import load_roster
    from game.rules.dice import Dice
    from game.rules.engine import new_game
    roster = load_roster(edition="later")
    rng = random.Random(4)
    def army(side):
        cards = [c for c in roster.values() if c.side == side]
        return (rng.sample([c for c in cards if c.is_aircraft], 2)
                + [c for c in cards if c.has("antiair") and not c.is_aircraft][:1]
                + rng.sample([c for c in cards if not c.is_aircraft and not c.has("antiair")], 4))
    armies = {"Axis": army("Axis"), "Allies": army("Allies")}
    g = new_game(load_configuration(1), armies, dice=Dice(11), options={"edition": "later"})
    phases = set()
    n = 0
    while not g.over and n < 4000:
        a = rng.choice(g.legal_actions())
        phases.add(g.state.phase)
        g.apply(a)
        n += 1
    assert g.over
    assert {Phase.FLIGHT_FIRST, Phase.AIRSTRIKE_SECOND} <= phases
    g2 = new_game(load_configuration(1), armies, dice=Dice(11), options={"edition": "later"})
    for a in g.history:
        g2.apply(a)
    assert g2.state_hash() == g.state_hash()


# --- L18 units that move while disrupted ----------------------------------------------------------
def test_L18_first_edition_still_stops_the_mover():
    """L18: the later edition lets a unit that may move while disrupted (SS Determination)
    go on after a defensive-fire hit (tests/situations/later_edition/L18_*); the first
    edition still stops it where it was hit, and its odds say so."""
    from game.rules.actions import DefensiveFire
    for edition, stopped in (("first", True), ("later", False)):
        g = position(rect_map(10, 6), phase=Phase.MOVEMENT_FIRST, dice=[6] * 5 + [1] * 3)
        if edition == "later":
            g.state.options.update(LATER)
        ss = g.add_unit(rifles("Germany", speed=3, abilities=(Ability("ss_determination"),)),
                        hex=at(2, 2))
        mg = g.add_unit(rifles("United States", soldier=(8, 6, 4)), hex=at(3, 1))
        g.apply(Move("Axis", ss.uid, (at(3, 2), at(4, 2), at(5, 2)), None))
        assert isinstance(g.state.pending, type(g.state.pending)) and g.state.pending is not None
        o = g.odds(mg.uid, ss.uid, defensive=True)
        assert (o.p_stopped > 0) is stopped
        g.apply(DefensiveFire("Allies", mg.uid))
        while g.state.pending is not None:
            g.apply(PassDefensiveFire("Allies"))
        assert ss.disrupted
        assert (ss.hex != at(5, 2)) is stopped
