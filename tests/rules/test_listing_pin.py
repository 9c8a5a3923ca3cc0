"""issue 12 (speed): while the rules list a state's actions its abilities entry (which
hooks can run, who holds each ability) is pinned (``abilities.pinned``) instead of
checked against the units dict on every call.  The pin holds only inside the listing
and only for that state's units dict (abilities trump rules: an ability a unit added
by hand brings is seen at the next listing)."""
from dataclasses import replace

from tests.rules.engine_kit import at, position, rect_map, rifles, tank
from game.rules import abilities
from game.rules.cards import Ability
from game.rules.state import Phase

MAP = rect_map(10, 8)


def _game():
    g = position(MAP, phase=Phase.ASSAULT_FIRST)
    g.add_unit(rifles("Germany"), "Axis", at(2, 2))
    g.add_unit(tank("United States"), "Allies", at(4, 4))
    return g


def test_the_pin_holds_only_inside_a_listing():
    g = _game()
    g.legal_actions()
    assert abilities._PIN is None
    with abilities.pinned(g.state):
        assert abilities.cast(g.state) is abilities._PIN[2]
        other = _game()             # another state's dict is checked as usual
        assert abilities.cast(other.state) is not None
        assert abilities._PIN[0] is g.state.units
    assert abilities._PIN is None


def test_a_unit_added_between_listings_is_seen():
    """Abilities trump rules: Double Shot on a unit added after a listing is part of
    the next listing's abilities (present_ids), pinned or not."""
    g = _game()
    g.legal_actions()
    before = abilities.present_ids(g.state)
    assert "double_shot" not in before
    card = rifles("Germany")
    card = replace(card, abilities=tuple(card.abilities) + (Ability("double_shot"),))
    g.add_unit(card, "Axis", at(4, 4))
    g.legal_actions()
    with abilities.pinned(g.state):
        assert abilities.present_ids(g.state) == before | {"double_shot"}
