"""The last ground abilities (game/rules/abilities/roster_final.py) - each test names its
ability and its ruling (docs/rulings.md 26-)."""
from __future__ import annotations

from game.data.units import card as roster_card
from game.data.units import load_roster
from dataclasses import replace

from game.rules.actions import EndPhase
from game.rules.army import playable_editions
from game.rules.events import UnitDestroyed
from game.rules.state import DESTROYED, DISRUPTED, Phase
from tests.rules.engine_kit import at, position, rect_map, rifles


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
