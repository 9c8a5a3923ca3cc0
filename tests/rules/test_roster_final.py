"""The last ground abilities (game/rules/abilities/roster_final.py) - each test names its
ability and its ruling (docs/rulings.md 26-)."""
from __future__ import annotations

from game.data.units import card as roster_card
from game.data.units import load_roster
from dataclasses import replace

from game.rules.actions import Attack, EndPhase, Move, PassDefensiveFire
from game.rules.army import playable_editions
from game.rules.events import UnitDestroyed
from game.rules.hexes import Hex
from game.rules.state import DAMAGED, DESTROYED, DISRUPTED, Phase
from tests.rules.engine_kit import at, position, rect_map, rifles, tank


# --- Endurance (ruling 26) ---------------------------------------------------------------------
def _hero_in_assault(dice):
    g = position(rect_map(10, 6), phase=Phase.ASSAULT_SECOND, dice=list(dice) + [6, 6, 1, 1])
    hero = g.add_unit(roster_card("Hero of the Soviet Union"), "Allies", at(3, 3))
    plain = g.add_unit(rifles("Soviet Union", name="Rifles"), "Allies", at(3, 4))
    g.add_unit(rifles("Germany", name="Grenadiers"), "Axis", at(6, 3))
    return g, hero, plain


def test_endurance_card_plays_in_both_editions():
    """Endurance (ruling 26): Hero of the Soviet Union is no longer refused."""
    roster = load_roster()
    assert playable_editions(roster["Hero of the Soviet Union"]) == ("first", "later")


def test_ruling_26_endurance_throws_the_destroyed_counter_away_on_5_or_6():
    """Endurance, ruling 26: in the casualty phase the Hero's Destroyed counter turns face
    up; it rolls a 5 and the counter is thrown away: the Hero stays (its Disrupted counter
    is disregarded, ruling 23). A plain Soldier's Destroyed counter destroys it."""
    g, hero, plain = _hero_in_assault([5])
    hero.pending = [DISRUPTED, DESTROYED]
    plain.pending = [DISRUPTED, DESTROYED]
    ev = g.apply(EndPhase(g.state.to_act))
    assert not hero.destroyed and hero.on_map and not hero.disrupted
    assert plain.destroyed
    texts = [e.text for e in ev]
    assert any("Endurance" in t and "thrown away" in t for t in texts)
    assert not any(isinstance(e, UnitDestroyed) and e.uid == hero.uid for e in ev)


def test_ruling_26_endurance_fails_on_1_to_4():
    """Endurance, ruling 26: a roll of 4 keeps the counter: the Hero is destroyed."""
    g, hero, _ = _hero_in_assault([4])
    hero.pending = [DISRUPTED, DESTROYED]
    ev = g.apply(EndPhase(g.state.to_act))
    assert hero.destroyed
    assert any("Endurance" in e.text and "stays" in e.text for e in ev)


def test_ruling_26_no_roll_without_a_destroyed_counter():
    """Endurance, ruling 26: only a Destroyed counter is rolled for (no die is drawn for
    a Disrupted counter: the loaded dice are empty)."""
    g, hero, _ = _hero_in_assault([])
    hero.pending = [DISRUPTED]
    g.apply(EndPhase(g.state.to_act))
    assert hero.on_map


def test_ruling_26_endurance_in_the_exact_odds():
    """Endurance, ruling 26: the odds of destroying the Hero are 4/6 of a plain Soldier's
    with the same defense; the saved part shows as disrupted; the total stays 1."""
    g = position(rect_map(10, 6), phase=Phase.ASSAULT_FIRST)
    a = g.add_unit(rifles("Germany", name="Grenadiers"), "Axis", at(3, 3))
    hero = g.add_unit(roster_card("Hero of the Soviet Union"), "Allies", at(4, 3))
    o = g.odds(a.uid, hero.uid)
    twin = g.add_unit(replace(hero.card, abilities=tuple(
        ab for ab in hero.card.abilities if ab.id != "endurance")), "Allies", at(4, 2))
    base = g.odds(a.uid, twin.uid)
    assert base.p_destroyed > 0
    assert abs(o.p_destroyed - base.p_destroyed * 4 / 6) < 1e-12
    assert abs(o.p_disrupted - (base.p_disrupted + base.p_destroyed * 2 / 6)) < 1e-12
    assert abs(o.p_none + o.p_disrupted + o.p_damaged + o.p_destroyed - 1) < 1e-9


# --- Firepower (ruling 27) ---------------------------------------------------------------------
def _firepower(dice=()):
    g = position(rect_map(10, 6), phase=Phase.ASSAULT_FIRST, first="Allies", dice=list(dice))
    hero = g.add_unit(roster_card("Intrepid Hero"), "Allies", at(3, 3))
    near = g.add_unit(rifles("Germany", name="Grenadiers"), "Axis", at(4, 3))
    far = g.add_unit(rifles("Germany", name="Grenadiers 2"), "Axis", at(6, 3))
    return g, hero, near, far


def _move(g, action):
    """Apply a move; the defender holds its defensive fire."""
    g.apply(action)
    while g.state.pending is not None:
        g.apply(PassDefensiveFire(g.state.to_act))


def _listed(g, uid):
    return [a for a in g.legal_actions() if isinstance(a, Attack) and a.uid == uid]


def test_firepower_card_plays_in_both_editions():
    """Firepower (ruling 27): Intrepid Hero is no longer refused."""
    assert playable_editions(load_roster()["Intrepid Hero"]) == ("first", "later")


def test_ruling_27_firepower_attacks_once_more_after_moving_into_the_enemy_hex():
    """Firepower, ruling 27: in its own assault phase the Hero moves into the enemy's hex;
    its move ended, it may attack that enemy (normal or Hand to Hand) - once."""
    g, hero, near, far = _firepower([1] * 30)
    _move(g, Move("Allies", hero.uid, (at(4, 3),), None))
    listed = _listed(g, hero.uid)
    assert {(a.target, a.mode) for a in listed} >= {(near.uid, "normal"),
                                                     (near.uid, "hand_to_hand")}
    assert all(a.target == near.uid for a in listed)
    why = g.check(Attack("Allies", hero.uid, far.uid))
    assert why is not None and "own hex" in why
    g.apply(Attack("Allies", hero.uid, near.uid, "hand_to_hand"))
    assert _listed(g, hero.uid) == []
    assert g.check(Attack("Allies", hero.uid, near.uid)) is not None


def test_ruling_27_firepower_after_an_attack_only_in_its_own_hex():
    """Firepower, ruling 27: after its first attack (here at a unit next to it) it may
    attack once more only an enemy in its own hex; with none there, nothing is offered."""
    g, hero, near, far = _firepower([1] * 40)
    g.apply(Attack("Allies", hero.uid, near.uid))
    assert _listed(g, hero.uid) == []
    g2, hero2, near2, _ = _firepower([1] * 40)
    inside = g2.add_unit(rifles("Germany", name="Grenadiers 3"), "Axis", at(3, 3))
    g2.apply(Attack("Allies", hero2.uid, near2.uid))
    assert {a.target for a in _listed(g2, hero2.uid)} == {inside.uid}
    g2.apply(Attack("Allies", hero2.uid, inside.uid))
    assert _listed(g2, hero2.uid) == []


def test_ruling_27_firepower_lapses_when_another_unit_acts():
    """Firepower, ruling 27: the extra attack can't be saved for later."""
    g, hero, near, _ = _firepower([1] * 40)
    other = g.add_unit(rifles("Canada", name="Canadians"), "Allies", at(2, 2))
    _move(g, Move("Allies", hero.uid, (at(4, 3),), None))
    _move(g, Move("Allies", other.uid, (at(2, 3),), None))
    assert _listed(g, hero.uid) == []
    assert g.check(Attack("Allies", hero.uid, near.uid)) is not None


def test_ruling_27_no_firepower_without_the_ability():
    """Firepower, ruling 27: a plain Soldier that moved into the enemy's hex can't attack."""
    g, hero, near, _ = _firepower([1] * 40)
    plain = g.add_unit(rifles("Canada", name="Canadians"), "Allies", at(5, 2))
    _move(g, Move("Allies", plain.uid, (at(4, 3),), None))
    assert _listed(g, plain.uid) == []


# --- Improvisation (ruling 28) -----------------------------------------------------------------
def _improvised():
    """The Resourceful Hero shares M9 with a German tank that has a face-down Destroyed
    counter; the casualty phase destroys the tank."""
    g = position(rect_map(12, 6), phase=Phase.ASSAULT_SECOND, dice=[6, 6, 1, 1] + [3] * 40)
    hero = g.add_unit(roster_card("Resourceful Hero"), "Allies", at(4, 3))
    tank_ = g.add_unit(tank("Germany", name="Panzer"), "Axis", at(4, 3))
    far = g.add_unit(rifles("Germany", name="Grenadiers"), "Axis", at(9, 3))
    near = g.add_unit(rifles("Germany", name="Grenadiers 2"), "Axis", at(5, 3))
    armour = g.add_unit(tank("Germany", name="Panzer 2"), "Axis", at(7, 3))
    tank_.pending = [DISRUPTED, DAMAGED, DESTROYED]
    ev = g.apply(EndPhase(g.state.to_act))
    assert tank_.destroyed
    return g, hero, ev, far, near, armour


def test_improvisation_card_plays_in_both_editions():
    """Improvisation (ruling 28): Resourceful Hero is no longer refused."""
    assert playable_editions(load_roster()["Resourceful Hero"]) == ("first", "later")


def test_ruling_28_improvisation_picks_up_the_attack_values_of_a_unit_destroyed_in_its_hex():
    """Improvisation, ruling 28: the tank destroyed in its hex lends the Hero its printed
    values; each attack rolls the most dice among its own and the tank's (long range vs
    a Soldier: its own is a dash, the tank's 4; short: its own 10 beats the tank's 8;
    medium vs a Vehicle: the tank's 8), and the odds say so."""
    g, hero, ev, far, near, armour = _improvised()
    assert any("improvises" in e.text for e in ev)
    assert g.odds(hero.uid, far.uid).dice == 4
    assert g.odds(hero.uid, near.uid).dice == 10
    assert g.odds(hero.uid, armour.uid).dice == 8
    plain = g.add_unit(roster_card("Intrepid Hero"), "Allies", at(4, 3))
    from game.rules.combat import why_not_attack
    assert "no attack" in why_not_attack(g.state, plain.uid, far.uid)


def test_ruling_28_improvisation_is_lost_when_it_leaves_the_hex():
    """Improvisation, ruling 28: moved out of the hex it loses the values (and coming
    back doesn't bring them back); from another hex the hypothetical odds don't use them."""
    from game.rules.abilities.roster_final import picked_up
    g, hero, _, far, _, armour = _improvised()
    assert [u.name for u in picked_up(g.state, hero)] == ["Panzer"]
    assert picked_up(g.state, hero, at(3, 3)) == []
    st = g.state
    st.phase, st.first_player, st.second_player, st.pending = \
        Phase.MOVEMENT_SECOND, "Axis", "Allies", None
    for u in st.units.values():
        u.acted = False
    _move(g, Move("Allies", hero.uid, (at(3, 3),), None))
    assert picked_up(g.state, hero) == []
    hero.hex = at(4, 3)
    assert picked_up(g.state, hero) == []


def test_ruling_28_a_friendly_unit_destroyed_in_its_hex_counts_too():
    """Improvisation, ruling 28: a Soldier or Vehicle of either side."""
    from game.rules.abilities.roster_final import picked_up
    g = position(rect_map(12, 6), phase=Phase.ASSAULT_SECOND, dice=[6, 6, 1, 1])
    hero = g.add_unit(roster_card("Resourceful Hero"), "Allies", at(4, 3))
    gis = g.add_unit(rifles("United States", name="GIs", soldier=(7, 5, 3)), "Allies", at(4, 3))
    g.add_unit(rifles("Germany", name="Grenadiers"), "Axis", at(9, 3))
    gis.pending = [DISRUPTED, DESTROYED]
    g.apply(EndPhase(g.state.to_act))
    assert [u.uid for u in picked_up(g.state, hero)] == [gis.uid]


# --- Lead the Way (ruling 29) ------------------------------------------------------------------
def _rangers(dice):
    g = position(rect_map(10, 6), phase=Phase.ASSAULT_FIRST, first="Allies", dice=list(dice))
    rangers = g.add_unit(roster_card("Rangers"), "Allies", at(3, 3))
    target = g.add_unit(rifles("Germany", name="Grenadiers"), "Axis", at(4, 3))
    other = g.add_unit(rifles("Germany", name="Grenadiers 2"), "Axis", at(4, 2))
    return g, rangers, target, other


def test_lead_the_way_card_plays_in_both_editions():
    """Lead the Way (ruling 29): Rangers are no longer refused."""
    assert playable_editions(load_roster()["Rangers"]) == ("first", "later")


def test_ruling_29_lead_the_way_rerolls_a_failed_die_when_one_more_success_scores_a_hit():
    """Lead the Way, ruling 29: 9 dice, 3 successes against defense 4 (no hit); one more
    would be a hit, so a failed die (the lowest, a 1) is rolled again - a 5: 4 successes,
    a Disrupted counter. Once per turn: the next attack (another unit's target, a new
    activation in a later phase of the same turn) gets no reroll."""
    g, rangers, target, other = _rangers([6, 5, 4, 3, 3, 2, 2, 1, 1, 5])
    ev = g.apply(Attack("Allies", rangers.uid, target.uid))
    rolled = [e for e in ev if e.kind == "DiceRolled"][0]
    assert rolled.successes == 4 and sorted(rolled.dice) == [1, 2, 2, 3, 3, 4, 5, 5, 6]
    assert any("leads the way" in e.text for e in ev)
    assert target.pending == [DISRUPTED]
    from game.rules.combat import resolve_attack
    g.dice.values += [6, 5, 4, 3, 3, 2, 2, 1, 1]
    ev2 = resolve_attack(g.state, rangers.uid, other.uid, g.dice)
    assert not any("leads the way" in e.text for e in ev2) and other.pending == []


def test_ruling_29_no_reroll_when_one_more_success_changes_nothing():
    """Lead the Way, ruling 29: 4 successes vs defense 4 is one hit; a fifth success would
    be two hits, so it rerolls; with 9 successes nothing can improve: no reroll, the
    reroll is kept for later in the turn."""
    from game.rules.abilities.roster_final import lead_the_way_ready
    g, rangers, target, _ = _rangers([6] * 9)
    ev = g.apply(Attack("Allies", rangers.uid, target.uid))
    assert not any("leads the way" in e.text for e in ev)
    assert lead_the_way_ready(g.state, rangers)


def test_ruling_29_lead_the_way_rerolls_a_failed_movement_roll_once_per_turn():
    """Lead the Way, ruling 29: a failed roll to cross a stream (a 1, needs 4+) is rolled
    again (a 6: the Rangers cross); the reroll is then spent for the turn."""
    from game.rules.abilities.roster_final import lead_the_way_ready
    g = position(rect_map(10, 6, streams=[((3, 3), (4, 3))]),
                 phase=Phase.MOVEMENT_FIRST, first="Allies", dice=[1, 6])
    rangers = g.add_unit(roster_card("Rangers"), "Allies", at(3, 3))
    g.add_unit(rifles("Germany", name="Grenadiers"), "Axis", at(9, 5))
    assert g.reachable(rangers.uid)[at(4, 3)].rolls
    ev = g.apply(Move("Allies", rangers.uid, (at(4, 3),), None))
    assert any("leads the way" in e.text for e in ev)
    assert rangers.hex == at(4, 3)
    assert not lead_the_way_ready(g.state, rangers)


def test_ruling_29_lead_the_way_in_the_exact_odds():
    """Lead the Way, ruling 29: the exact odds match the real attack code (reroll state
    reset before each of 6000 seeded attacks), and are better than without it."""
    from game.rules.combat import resolve_attack
    from game.rules.dice import Dice
    g, rangers, target, _ = _rangers([])
    o = g.odds(rangers.uid, target.uid)
    twin = g.add_unit(replace(rangers.card, abilities=tuple(
        ab for ab in rangers.card.abilities if ab.id != "lead_the_way")), "Allies", at(3, 4))
    base = g.odds(twin.uid, target.uid)
    assert o.p_none < base.p_none
    dice = Dice(7)
    n = 6000
    freq = [0, 0, 0, 0]
    rank = {DISRUPTED: 1, "damaged": 2, DESTROYED: 3}
    for _ in range(n):
        g.state.marks.pop("lead_the_way_used", None)
        target.pending = []
        resolve_attack(g.state, rangers.uid, target.uid, dice)
        freq[max([0] + [rank[c] for c in target.pending])] += 1
    exact = [o.p_none, o.p_disrupted, o.p_damaged, o.p_destroyed]
    for f, p in zip(freq, exact):
        assert abs(f / n - p) < 0.025, (freq, exact)


def test_ruling_29_lead_the_way_in_the_path_risk():
    """Lead the Way, ruling 29: the AI's path risk counts the reroll - a stream crossing
    (4+) is made 3/4 of the time instead of 1/2, and fails 1/4."""
    g = position(rect_map(10, 6, streams=[((3, 3), (4, 3))]),
                 phase=Phase.MOVEMENT_FIRST, first="Allies")
    rangers = g.add_unit(roster_card("Rangers"), "Allies", at(3, 3))
    g.add_unit(rifles("Germany", name="Grenadiers"), "Axis", at(9, 5))
    risk = g.path_risk(Move("Allies", rangers.uid, (at(4, 3),), None))
    assert abs(risk.p_rolls_ok - 0.75) < 1e-12
    assert abs(sum(p for _, _, p in risk.fail_ends) - 0.25) < 1e-12
    assert [h for h, _, _ in risk.fail_ends] == [at(3, 3)]


# --- Smoke Screen (ruling 30) ------------------------------------------------------------------
def _smoke():
    """Axis moves first: a Panzer III, Allied rifles 5 hexes east of it and more rifles
    to the north-east (too far for defensive fire at the Panzer's step)."""
    g = position(rect_map(12, 7), phase=Phase.MOVEMENT_FIRST, first="Axis",
                 dice=[6, 6, 1, 1] * 4)
    panzer = g.add_unit(roster_card("Panzer III Ausf. F"), "Axis", at(3, 4))
    rifles_ = g.add_unit(rifles("United States", name="GIs"), "Allies", at(8, 4))
    other = g.add_unit(rifles("United States", name="GIs 2"), "Allies", at(8, 1))
    return g, panzer, rifles_, other


def test_smoke_screen_cards_play_in_both_editions():
    """Smoke Screen (ruling 30): both Panzer III cards are no longer refused."""
    roster = load_roster()
    for name in ("Panzer III Ausf. F", "Veteran Panzer III Ausf. L"):
        assert playable_editions(roster[name]) == ("first", "later"), name


def test_ruling_30_smoke_fills_the_hex_at_the_end_of_the_movement_phase_until_the_turn_ends():
    """Smoke Screen, ruling 30: declared in its movement phase (listed with the legal
    actions), the smoke fills the Panzer's hex only when the phase ends; then no line
    of sight into or out of it (the GIs can't attack it, it can't attack them), until
    the turn ends. Once per game."""
    from game.rules.abilities.roster_final import smoke_hexes
    from game.rules.actions import LaySmoke
    from game.rules.combat import why_not_attack
    g, panzer, gis, _ = _smoke()
    lay = LaySmoke("Axis", panzer.uid)
    assert lay in g.legal_actions()
    g.apply(lay)
    assert smoke_hexes(g.state) == frozenset()          # not yet: at the phase's end
    assert "once per game" in g.check(lay)
    _move(g, Move("Axis", panzer.uid, (at(4, 4),), 0))
    g.apply(EndPhase("Axis"))
    assert smoke_hexes(g.state) == {at(4, 4)}
    assert "no line of sight" in why_not_attack(g.state, gis.uid, panzer.uid)
    assert "no line of sight" in why_not_attack(g.state, panzer.uid, gis.uid)
    assert LaySmoke("Allies", panzer.uid) not in g.legal_actions()
    while g.state.turn == 1:
        acts = g.legal_actions()
        g.apply(next((a for a in acts if isinstance(a, EndPhase)), acts[0]))
    assert smoke_hexes(g.state) == frozenset()
    assert why_not_attack(g.state, panzer.uid, gis.uid) is None
    assert LaySmoke(panzer.side, panzer.uid) not in g.legal_actions()


def test_ruling_30_smoke_blocks_lines_through_the_hex_but_not_along_its_side():
    """Smoke Screen, ruling 30 (ruling 2's geometry): a line through the smoke-filled
    hex's interior is blocked, one that runs along its hexside or misses it is not."""
    from game.rules.abilities.roster_final import smoke_blocks
    smoke = frozenset({at(5, 4)})
    assert smoke_blocks(at(3, 4), at(8, 4), smoke)        # straight through
    assert smoke_blocks(at(5, 4), at(8, 4), smoke)        # out of it
    assert not smoke_blocks(at(3, 1), at(8, 1), smoke)    # far from it
    assert not smoke_blocks(at(5, 4), at(5, 4), smoke)    # inside the hex
    a, b = Hex(0, 0), Hex(2, -1)                          # along the side of (1,0)/(1,-1)
    assert not smoke_blocks(a, b, frozenset({Hex(1, 0)}))
    assert not smoke_blocks(a, b, frozenset({Hex(1, -1)}))


def test_ruling_30_the_line_of_sight_query_hides_what_the_smoke_hides():
    """Smoke Screen, ruling 30: Game.visible_from (the battle screen's line-of-sight
    tool) leaves out the smoke-filled hex and the hexes behind it, until the turn ends."""
    from game.rules.actions import LaySmoke
    g, panzer, gis, _ = _smoke()
    before = g.visible_from(gis.hex)
    assert panzer.hex in before and at(1, 4) in before
    g.apply(LaySmoke("Axis", panzer.uid))
    g.apply(EndPhase("Axis"))
    after = g.visible_from(gis.hex)
    assert panzer.hex not in after and at(1, 4) not in after
    assert at(8, 1) in after and at(1, 1) in after
