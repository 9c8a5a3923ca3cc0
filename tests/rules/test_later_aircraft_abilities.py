"""The later edition's Aircraft abilities (game/rules/abilities/later_aircraft.py) and the
armour abilities some Aircraft carry, each test naming the ability and the ruling of
../shared/design/rulings.md (L21-L26) that reads it: Bombs, Rockets N, Speed Boost,
Jet, Sirens, Vast Experience; Steely Resolve and Superior Armor on an Aircraft."""
from __future__ import annotations

from fractions import Fraction

import pytest

from game.rules.actions import Attack
from game.rules.cards import Ability
from game.rules.dice import Dice
from game.rules.odds import simulate_attack
from game.rules.state import DESTROYED, DISRUPTED, Phase
from tests.rules.engine_kit import at, rect_map, rifles, tank
from tests.rules.test_later_edition import aircraft, flak, later_game


def plane(nation: str = "Germany", *abilities: Ability, **kw):
    return aircraft(nation, abilities=abilities, **kw)


BOMBS = Ability("bombs", None, "Bombs")
ROCKETS = Ability("rockets", 8, "Rockets 8")
SPEED_BOOST = Ability("speed_boost", None, "Speed Boost")
JET = Ability("jet", None, "Jet")
SIRENS = Ability("sirens", None, "Sirens")
VAST = Ability("vast_experience", None, "Vast Experience")


def airstrike(dice=(), bm=None):
    g = later_game(bm, phase=Phase.AIRSTRIKE_FIRST, dice=dice)
    g.state.first_player, g.state.second_player = "Axis", "Allies"
    return g


# --- Bombs (ruling L21) ---------------------------------------------------------------------
def test_L21_bombs_12_dice_at_a_soldier_8_at_a_vehicle_in_its_own_hex_once_per_game():
    """Bombs: once per game, instead of its normal attack, 12 dice at an enemy Soldier
    (8 at a Vehicle) in the Aircraft's own hex; listed as an attack mode."""
    g = airstrike()
    p = g.add_unit(plane("Germany", BOMBS), hex=at(3, 2))
    inf = g.add_unit(rifles("United States"), hex=at(3, 2))
    sherman = g.add_unit(tank("United States"), hex=at(3, 2), facing=0)
    far = g.add_unit(rifles("United States"), hex=at(4, 2))
    legal = g.legal_actions()
    assert Attack("Axis", p.uid, inf.uid, "bombs") in legal
    assert Attack("Axis", p.uid, far.uid, "bombs") not in legal
    assert g.odds(p.uid, inf.uid, mode="bombs").dice == 12
    assert g.odds(p.uid, sherman.uid, mode="bombs").dice == 8
    assert g.odds(p.uid, inf.uid).dice == 8               # its normal attack: the card's 8
    why = g.check(Attack("Axis", p.uid, far.uid, "bombs"))
    assert why is not None and "own hex" in why


def test_L21_bombs_are_used_once_per_game_and_never_dropped_on_an_aircraft():
    g = airstrike(dice=[1] * 12 + [1] * 12)
    p = g.add_unit(plane("Germany", BOMBS), hex=at(3, 2))
    inf = g.add_unit(rifles("United States"), hex=at(3, 2))
    foe = g.add_unit(plane("United States"), hex=at(3, 2))
    why = g.check(Attack("Axis", p.uid, foe.uid, "bombs"))
    assert why is not None and "no attack against Aircraft" in why
    g.apply(Attack("Axis", p.uid, inf.uid, "bombs"))      # twelve 1s: a miss still uses them
    p.acted = False                                       # a later turn's airstrike
    before = g.state_hash()
    why = g.check(Attack("Axis", p.uid, inf.uid, "bombs"))
    assert why is not None and "once per game" in why and g.state_hash() == before
    assert Attack("Axis", p.uid, inf.uid, "bombs") not in g.legal_actions()
    assert g.check(Attack("Axis", p.uid, inf.uid)) is None  # its normal attack remains


# --- Rockets N (ruling L22) -----------------------------------------------------------------
def test_L22_rockets_8_dice_at_one_target_up_to_4_hexes_away():
    g = airstrike()
    p = g.add_unit(plane("Germany", ROCKETS), hex=at(0, 2))
    near = g.add_unit(tank("United States"), hex=at(4, 2), facing=3)
    too_far = g.add_unit(rifles("United States"), hex=at(5, 2))
    o = g.odds(p.uid, near.uid, mode="rockets")
    assert o.dice == 8 and o.distance == 4
    assert g.odds(p.uid, near.uid).dice == 3               # the card's medium anti-Vehicle
    why = g.check(Attack("Axis", p.uid, too_far.uid, "rockets"))
    assert why is not None and "4 hexes" in why
    assert Attack("Axis", p.uid, near.uid, "rockets") in g.legal_actions()


def test_L22_rockets_are_not_fired_at_an_aircraft_and_only_once():
    g = airstrike(dice=[1] * 8)
    p = g.add_unit(plane("Germany", ROCKETS), hex=at(0, 2))
    foe = g.add_unit(plane("United States"), hex=at(1, 2))
    inf = g.add_unit(rifles("United States"), hex=at(2, 2))
    assert g.check(Attack("Axis", p.uid, foe.uid, "rockets")) is not None
    g.apply(Attack("Axis", p.uid, inf.uid, "rockets"))
    p.acted = False
    assert "once per game" in g.check(Attack("Axis", p.uid, inf.uid, "rockets"))


# --- Speed Boost (ruling L23) ---------------------------------------------------------------
def test_L23_speed_boost_destroys_an_aircraft_at_once():
    """Speed Boost: the attack's Destroyed result takes effect now - the enemy Aircraft
    is removed before it can make its own airstrike."""
    g = airstrike(dice=[6] * 8)
    p = g.add_unit(plane("Germany", SPEED_BOOST), hex=at(3, 2))
    foe = g.add_unit(plane("United States"), hex=at(4, 2))
    g.apply(Attack("Axis", p.uid, foe.uid, "speed_boost"))
    assert foe.destroyed and not foe.on_map


def test_L23_speed_boost_one_hit_disrupts_at_once_and_is_used_once():
    g = airstrike(dice=[6, 6, 6, 6, 1, 1, 1, 1] + [6] * 8)
    p = g.add_unit(plane("Germany", SPEED_BOOST), hex=at(3, 2))
    foe = g.add_unit(plane("United States"), hex=at(4, 2))
    g.apply(Attack("Axis", p.uid, foe.uid, "speed_boost"))   # 4 successes vs 4: one hit
    assert foe.disrupted and foe.pending == []
    p.acted = False
    assert "once per game" in g.check(Attack("Axis", p.uid, foe.uid, "speed_boost"))


def test_L23_speed_boost_is_only_against_an_aircraft():
    g = airstrike()
    p = g.add_unit(plane("Germany", SPEED_BOOST), hex=at(3, 2))
    inf = g.add_unit(rifles("United States"), hex=at(4, 2))
    why = g.check(Attack("Axis", p.uid, inf.uid, "speed_boost"))
    assert why is not None and "Aircraft" in why
    assert not any(getattr(a, "mode", "") == "speed_boost" for a in g.legal_actions())


def test_L23_a_normal_attack_of_a_speed_boost_aircraft_waits_for_the_casualty_phase():
    g = airstrike(dice=[6] * 8)
    p = g.add_unit(plane("Germany", SPEED_BOOST), hex=at(3, 2))
    foe = g.add_unit(plane("United States"), hex=at(4, 2))
    g.apply(Attack("Axis", p.uid, foe.uid))
    assert not foe.destroyed and DESTROYED in foe.pending


# --- Jet (ruling L24) -----------------------------------------------------------------------
@pytest.mark.parametrize("terrain", ["forest", "town", "marsh"])
def test_L24_a_jet_cant_attack_soldiers_in_forest_town_or_marsh(terrain):
    bm = rect_map(10, 6, {(4, 2): terrain, (5, 2): terrain})
    g = airstrike(bm=bm)
    jet = g.add_unit(plane("Germany", JET), hex=at(3, 2))
    hidden = g.add_unit(rifles("United States"), hex=at(4, 2))
    armour = g.add_unit(tank("United States"), hex=at(5, 2), facing=3)
    open_ground = g.add_unit(rifles("United States"), hex=at(3, 3))
    why = g.check(Attack("Axis", jet.uid, hidden.uid))
    assert why is not None and "Jet" in why and terrain in why
    assert g.check(Attack("Axis", jet.uid, armour.uid)) is None     # Vehicles there: yes
    assert g.check(Attack("Axis", jet.uid, open_ground.uid)) is None


def test_L24_a_jets_sixes_count_twice_against_an_aircraft_only():
    """Jet: 6, 6, 1, 1 against an Aircraft (defense 4) is four successes - one hit; the
    same dice against a Soldier are two successes - no hit."""
    g = airstrike(dice=[6, 6, 1, 1, 1, 1, 1, 1] + [6, 6, 1, 1, 1, 1, 1, 1])
    jet = g.add_unit(plane("Germany", JET, soldier=(8, 6, None)), hex=at(3, 2))
    foe = g.add_unit(plane("United States"), hex=at(4, 2))
    g.apply(Attack("Axis", jet.uid, foe.uid))
    assert foe.pending == [DISRUPTED]
    g2 = airstrike(dice=[6, 6, 1, 1, 1, 1, 1, 1])
    jet2 = g2.add_unit(plane("Germany", JET, soldier=(8, 6, None)), hex=at(3, 2))
    inf = g2.add_unit(rifles("United States"), hex=at(4, 2))
    g2.apply(Attack("Axis", jet2.uid, inf.uid))
    assert inf.pending == []


# --- Vast Experience (ruling L26) -----------------------------------------------------------
def test_L26_vast_experience_each_six_is_two_successes():
    """Vast Experience: 6, 6, 1, 1, 1, 1 at a Soldier of defense 4 is four successes."""
    g = later_game(phase=Phase.ASSAULT_FIRST, dice=[6, 6, 1, 1, 1, 1])
    vet = g.add_unit(rifles("Germany", soldier=(6, 4, 2), abilities=(VAST,)), hex=at(3, 2))
    inf = g.add_unit(rifles("United States"), hex=at(4, 2))
    ev = g.apply(Attack("Axis", vet.uid, inf.uid))
    assert inf.pending == [DISRUPTED]
    rolled = next(e for e in ev if type(e).__name__ == "DiceRolled")
    assert rolled.successes == 4


def test_L26_the_exact_odds_count_the_doubled_sixes():
    """The exact odds agree with the real attack (40,000 simulated attacks, same code):
    Vast Experience at a Soldier, a Jet at an Aircraft."""
    g = later_game(phase=Phase.ASSAULT_FIRST)
    vet = g.add_unit(rifles("Germany", soldier=(6, 4, 2), abilities=(VAST,)), hex=at(3, 2))
    inf = g.add_unit(rifles("United States", front=5), hex=at(4, 2))
    plain = g.add_unit(rifles("Germany", soldier=(6, 4, 2)), hex=at(3, 3))
    o = g.odds(vet.uid, inf.uid)
    assert o.p_none < g.odds(plain.uid, inf.uid).p_none
    dist, _ = simulate_attack(g.state, vet.uid, inf.uid, 40_000, Dice(5))
    for got, want in zip(dist, (o.p_none, o.p_disrupted, o.p_damaged, o.p_destroyed)):
        assert abs(got - want) < 0.01
    # 6 dice at defense 5, each 6 worth two: P(no hit) by hand = P(successes + sixes < 5)
    p = {0: Fraction(1, 2), 1: Fraction(1, 3), 2: Fraction(1, 6)}   # a die's worth
    dist_worth = {0: Fraction(1)}
    for _ in range(6):
        nxt: dict[int, Fraction] = {}
        for k, q in dist_worth.items():
            for w, r in p.items():
                nxt[k + w] = nxt.get(k + w, Fraction(0)) + q * r
        dist_worth = nxt
    none = sum(q for k, q in dist_worth.items() if k < 5)
    assert abs(o.p_none - float(none)) < 1e-12


# --- Sirens (ruling L25) --------------------------------------------------------------------
def test_L25_sirens_one_short_of_the_defense_disrupts_a_soldier():
    g = airstrike(dice=[6, 6, 6, 1, 1, 1, 1, 1, 1])
    stuka = g.add_unit(plane("Germany", SIRENS, soldier=(8, 6, None)), hex=at(3, 2))
    inf = g.add_unit(rifles("United States"), hex=at(4, 2))      # defense 4, 3 successes
    g.apply(Attack("Axis", stuka.uid, inf.uid))
    assert inf.pending == [DISRUPTED]


def test_L25_the_sirens_success_never_makes_a_second_hit():
    """Four successes at defense 4 are one hit, with or without Sirens (the extra success
    can only disrupt); five are two hits as usual; a Vehicle gets no extra success."""
    g = airstrike(dice=[6, 6, 6, 6, 1, 1, 1, 1])
    stuka = g.add_unit(plane("Germany", SIRENS, soldier=(8, 6, None)), hex=at(3, 2))
    inf = g.add_unit(rifles("United States"), hex=at(4, 2))
    o = g.odds(stuka.uid, inf.uid)
    plain = g.add_unit(plane("Germany", soldier=(8, 6, None)), hex=at(3, 3))
    p = g.odds(plain.uid, inf.uid)
    assert o.p_destroyed == pytest.approx(p.p_destroyed)     # no second hit from Sirens
    assert o.p_none < p.p_none                               # but one more disruption
    g.apply(Attack("Axis", stuka.uid, inf.uid))
    assert inf.pending == [DISRUPTED]
    g3 = airstrike(dice=[6, 6, 1, 1])
    s3 = g3.add_unit(plane("Germany", SIRENS, vehicle=(4, 3, None)), hex=at(3, 2))
    t3 = g3.add_unit(tank("United States", front=3, rear=3), hex=at(4, 2), facing=3)
    g3.apply(Attack("Axis", s3.uid, t3.uid))        # 2 successes vs 3: nothing
    assert t3.pending == []


# --- Steely Resolve and Superior Armor on an Aircraft (rulings L5, L21-L26 text) -----------
@pytest.mark.parametrize("ability", [Ability("steely_resolve", 2, "Steely Resolve 2"),
                                     Ability("superior_armor", 2, "Superior Armor 2")])
def test_steely_resolve_and_superior_armor_on_an_aircraft_delay_the_second_hit(ability):
    """An Aircraft's second hit (Destroyed) needs successes of its defense plus 2: five
    successes at defense 4 only disrupt it, six destroy it."""
    g = airstrike(dice=[6] * 5 + [1] * 3)
    p = g.add_unit(plane("Germany", soldier=(8, 6, None)), hex=at(3, 2))
    ace = g.add_unit(plane("United States", ability), hex=at(4, 2))
    g.apply(Attack("Axis", p.uid, ace.uid))
    assert ace.pending == [DISRUPTED]
    g2 = airstrike(dice=[6] * 6 + [1] * 2)
    p2 = g2.add_unit(plane("Germany", soldier=(8, 6, None)), hex=at(3, 2))
    ace2 = g2.add_unit(plane("United States", ability), hex=at(4, 2))
    g2.apply(Attack("Axis", p2.uid, ace2.uid))
    assert DESTROYED in ace2.pending


# --- the AI sees the modes (the rules say which abilities are attack modes) --------------------
def test_the_rules_list_the_aircraft_modes_for_the_ai_and_the_ai_drops_its_bombs():
    """game.rules.threat.attack_modes names Bombs, Rockets and Speed Boost (so the AI and
    the threat query weigh them); the Veteran's airstrike takes 12 bomb dice over its
    card's 8 at the Soldier below it."""
    from game.ai.later_edition import airstrike_candidates
    from game.ai.veteran import VeteranAI
    from game.rules.threat import attack_modes
    g = airstrike()
    p = g.add_unit(plane("Germany", BOMBS, ROCKETS, SPEED_BOOST), hex=at(3, 2))
    inf = g.add_unit(rifles("United States"), hex=at(3, 2))
    assert attack_modes(p.card) == ("normal", "bombs", "rockets", "speed_boost")
    best = airstrike_candidates(VeteranAI(1), g, "Axis")[0][1]
    assert best == Attack("Axis", p.uid, inf.uid, "bombs")


# --- the threat query counts the enemy's Aircraft (ruling L3: placed anywhere) ---------------
def test_L3_the_threat_to_a_hex_counts_an_enemy_aircraft_off_the_map():
    """game.rules.threat.threat_to: in the Allied movement phase, the Axis fighter off the
    map will be placed where it likes - it threatens the rifles from their own hex; a Jet
    can't threaten them in a forest; a disrupted Aircraft (it can't be placed) none."""
    from game.rules.threat import threat_to
    bm = rect_map(10, 6, {(6, 4): "forest"})
    g = later_game(bm, phase=Phase.MOVEMENT_SECOND)
    g.state.first_player, g.state.second_player = "Axis", "Allies"
    fighter = g.add_unit(plane("Germany"), hex=None)
    jet = g.add_unit(plane("Germany", JET), hex=None)
    inf = g.add_unit(rifles("United States"), hex=at(2, 2))
    g.add_unit(rifles("Germany"), hex=at(9, 5))
    t = threat_to(g, inf.uid)
    by = {s.attacker: s for s in t.sources}
    assert fighter.uid in by and by[fighter.uid].from_hex == at(2, 2) and by[fighter.uid].moves
    assert by[fighter.uid].odds.dice == 8 and t.p_none < 1.0
    in_forest = {s.attacker for s in threat_to(g, inf.uid, at(6, 4)).sources}
    assert fighter.uid in in_forest and jet.uid not in in_forest
    fighter.disrupted = jet.disrupted = True
    assert not threat_to(g, inf.uid).sources


def test_L4_the_threat_of_an_enemy_aircraft_weighs_the_antiair_it_flies_into():
    """game.rules.threat.threat_to (rulings L3, L4): the Axis fighter strikes the rifles from
    their own hex.  With an Allied flak in their hex every hex it could strike from at
    short range draws the flak's fire first, and a disrupted Aircraft strikes with the
    disruption penalty: the source says the chance (the rules' own placement risk) and its
    odds mix the two strikes.  With the flak next to them instead, the fighter strikes from
    a neighbouring hex the flak doesn't reach, as hard as with no flak at all."""
    from game.rules.later.flight import placement_risk
    from game.rules.threat import threat_to
    bm = rect_map(10, 6)
    g = later_game(bm, phase=Phase.MOVEMENT_SECOND)
    g.state.first_player, g.state.second_player = "Axis", "Allies"
    fighter = g.add_unit(plane("Germany"), hex=None)
    inf = g.add_unit(rifles("United States"), hex=at(2, 2))
    g.add_unit(rifles("Germany"), hex=at(9, 5))

    def source(hex=None):
        return next(s for s in threat_to(g, inf.uid, hex).sources if s.attacker == fighter.uid)
    bare = source()
    assert bare.p_antiair == 0.0 and bare.from_hex == at(2, 2)
    aa = g.add_unit(flak(), hex=at(2, 2))
    src = source()
    p_aa = placement_risk(g, fighter.uid, src.from_hex).p_disrupted
    assert 0.0 < p_aa < 1.0 and src.p_antiair == pytest.approx(p_aa)
    fighter.hex = src.from_hex
    clear = g.odds(fighter.uid, inf.uid)
    fighter.disrupted = True
    hurt = g.odds(fighter.uid, inf.uid)
    fighter.hex, fighter.disrupted = None, False
    assert hurt.p_none > clear.p_none            # the disruption penalty is real
    assert src.odds.p_none == pytest.approx((1 - p_aa) * clear.p_none + p_aa * hurt.p_none)
    assert src.odds.p_none > bare.odds.p_none
    # the flak next to the rifles: a neighbour out of its reach serves the fighter
    aa.hex = at(3, 2)
    g.state.touch()
    side = source()
    assert side.p_antiair == 0.0 and side.from_hex in set(at(2, 2).neighbors())
    assert side.from_hex.distance(at(3, 2)) >= 2
    assert side.odds.p_none == pytest.approx(bare.odds.p_none)
    # far from the flak the fighter strikes from the unit's own hex, as before
    far = source(at(8, 2))
    assert far.p_antiair == 0.0 and far.from_hex == at(8, 2)
    assert fighter.hex is None


# --- Strafe (ruling L27) --------------------------------------------------------------------
STRAFE = Ability("strafe", None, "Strafe")


def test_L27_strafe_a_second_soldier_next_to_the_first_after_an_airstrike():
    """Strafe: after its attack on an enemy Soldier it may attack a second enemy Soldier in
    that one's hex or next to it - listed, allowed once; not a third, not farther away."""
    g = airstrike(dice=[1] * 40)
    p = g.add_unit(plane("Germany", STRAFE), hex=at(3, 2))
    first = g.add_unit(rifles("United States"), hex=at(4, 2))
    beside = g.add_unit(rifles("United States"), hex=at(5, 2))
    far = g.add_unit(rifles("United States"), hex=at(7, 2))
    g.apply(Attack("Axis", p.uid, first.uid))
    assert p.acted
    legal = g.legal_actions()
    assert Attack("Axis", p.uid, beside.uid) in legal
    assert Attack("Axis", p.uid, far.uid) not in legal
    assert Attack("Axis", p.uid, first.uid) not in legal
    why = g.check(Attack("Axis", p.uid, far.uid))
    assert why is not None and "next to it" in why
    g.apply(Attack("Axis", p.uid, beside.uid))
    assert g.check(Attack("Axis", p.uid, far.uid)) is not None
    assert not any(isinstance(a, Attack) and a.uid == p.uid for a in g.legal_actions())


def test_L27_no_strafe_after_an_attack_on_a_vehicle_or_without_the_ability():
    g = airstrike(dice=[1] * 40)
    p = g.add_unit(plane("Germany", STRAFE), hex=at(3, 2))
    t = g.add_unit(tank("United States"), hex=at(4, 2), facing=3)
    inf = g.add_unit(rifles("United States"), hex=at(4, 3))
    g.apply(Attack("Axis", p.uid, t.uid))
    assert g.check(Attack("Axis", p.uid, inf.uid)) is not None
    g2 = airstrike(dice=[1] * 40)
    q = g2.add_unit(plane("Germany"), hex=at(3, 2))
    a = g2.add_unit(rifles("United States"), hex=at(4, 2))
    b = g2.add_unit(rifles("United States"), hex=at(5, 2))
    g2.apply(Attack("Axis", q.uid, a.uid))
    assert "acted" in g2.check(Attack("Axis", q.uid, b.uid))


def test_L27_the_ai_strafes_the_second_soldier():
    from game.ai.later_edition import airstrike_candidates
    from game.ai.veteran import VeteranAI
    g = airstrike(dice=[1] * 40)
    p = g.add_unit(plane("Germany", STRAFE), hex=at(3, 2))
    first = g.add_unit(rifles("United States"), hex=at(4, 2))
    beside = g.add_unit(rifles("United States"), hex=at(5, 2))
    g.apply(Attack("Axis", p.uid, first.uid))
    best = airstrike_candidates(VeteranAI(1), g, "Axis")
    assert best and best[0][1] == Attack("Axis", p.uid, beside.uid)


def test_the_he_round_is_an_attack_mode_the_ai_is_told_of():
    """HE Round (a later-set tank's once-per-game 15 dice at a Soldier at medium or long
    range): game.rules.threat.attack_modes names it, so the AI's attack options weigh it;
    the modes that also hit friendly units (Rocket Salvo, Top-Mounted Rockets) or destroy
    the attacker (Remote Control) are not offered to it that way."""
    from game.data.units import load_roster
    from game.rules.threat import attack_modes
    roster = load_roster()
    is3 = next(c for c in roster.values() if c.has("he_round"))
    assert "he_round" in attack_modes(is3)
    for mode in ("rocket_salvo", "top_mounted_rockets", "remote_control"):
        card = next(c for c in roster.values() if c.has(mode))
        assert mode not in attack_modes(card)
