"""The printed cards' Aircraft clauses, which the first edition voids (it has no Aircraft)
and the later edition keeps (shared/data/abilities_facts.yaml, abilities_facts_full.yaml):
Bombardment and Top-Mounted Rockets can't attack Aircraft; Blast does not attack an
Aircraft in the target's hex (Aircraft are exempt); the flamethrowers have no effect on
Aircraft (no outright kill from three 6s)."""
from __future__ import annotations

from game.rules.actions import Attack
from game.rules.abilities.spec import make_ability
from game.rules.state import DESTROYED, Phase
from tests.rules.engine_kit import at, rifles, tank
from tests.rules.test_later_edition import aircraft, later_game


def gun(*names: str, **kw):
    return tank("United States", abilities=tuple(make_ability(n) for n in names), **kw)


def test_bombardment_cant_attack_aircraft_in_the_later_edition():
    """Bombardment (printed): 'can't target Aircraft' - refused with the reason; the
    same unit still attacks Soldiers."""
    g = later_game(phase=Phase.ASSAULT_SECOND)
    g.state.first_player, g.state.second_player = "Axis", "Allies"
    plane = g.add_unit(aircraft(), hex=at(3, 2))
    inf = g.add_unit(rifles("Germany"), hex=at(3, 3))
    art = g.add_unit(gun("bombardment", soldier=(6, 6, 6)), hex=at(5, 2), facing=3)
    before = g.state_hash()
    why = g.check(Attack("Allies", art.uid, plane.uid))
    assert why is not None and "can't attack Aircraft" in why and "Bombardment" in why
    assert g.state_hash() == before
    assert Attack("Allies", art.uid, plane.uid) not in g.legal_actions()
    assert g.check(Attack("Allies", art.uid, inf.uid)) is None


def test_top_mounted_rockets_cant_attack_aircraft():
    """Top-Mounted Rockets (printed): its attacks can't target Aircraft."""
    g = later_game(phase=Phase.ASSAULT_SECOND)
    g.state.first_player, g.state.second_player = "Axis", "Allies"
    plane = g.add_unit(aircraft(), hex=at(3, 2))
    calliope = g.add_unit(gun("top_mounted_rockets", soldier=(6, 6, 6)), hex=at(5, 2),
                          facing=3)
    why = g.check(Attack("Allies", calliope.uid, plane.uid))
    assert why is not None and "can't attack Aircraft" in why


def test_blast_does_not_attack_an_aircraft_in_the_target_hex():
    """Blast (printed): every other unit in the target's hex is attacked, Aircraft
    exempt - the Soldier below the Aircraft is attacked once, the Aircraft not at all."""
    g = later_game(phase=Phase.ASSAULT_SECOND, dice=[6] * 40)
    g.state.first_player, g.state.second_player = "Axis", "Allies"
    plane = g.add_unit(aircraft(), hex=at(3, 2))
    a = g.add_unit(rifles("Germany"), hex=at(3, 2))
    b = g.add_unit(rifles("Germany"), hex=at(3, 2))
    mortar = g.add_unit(gun("blast", soldier=(4, 4, 4)), hex=at(5, 2), facing=3)
    g.apply(Attack("Allies", mortar.uid, a.uid))
    assert a.pending and b.pending                     # the target and the other Soldier
    assert plane.pending == []                         # the Aircraft is exempt


def test_blast_on_an_aircraft_does_not_spread_to_the_units_below():
    g = later_game(phase=Phase.ASSAULT_SECOND, dice=[6] * 40)
    g.state.first_player, g.state.second_player = "Axis", "Allies"
    plane = g.add_unit(aircraft(front=3), hex=at(3, 2))
    below = g.add_unit(rifles("Germany"), hex=at(3, 2))
    aa = g.add_unit(gun("blast", soldier=(6, 6, 6)), hex=at(5, 2), facing=3)
    g.apply(Attack("Allies", aa.uid, plane.uid))
    assert plane.pending and below.pending == []


def test_flamethrower_has_no_effect_on_aircraft():
    """Flamethrower / Hull-Mounted Flamethrower (printed): no effect on Aircraft - three
    natural 6s at short range do not destroy an Aircraft outright; it takes the ordinary
    hits of the attack (here 3 successes at 5+ against defense 4: none)."""
    for name in ("flamethrower", "hull_mounted_flamethrower"):
        g = later_game(phase=Phase.ASSAULT_SECOND, dice=[6, 6, 6, 1, 1, 1])
        g.state.first_player, g.state.second_player = "Axis", "Allies"
        plane = g.add_unit(aircraft(front=4), hex=at(4, 2))
        flame = g.add_unit(gun(name, soldier=(6, 4, 2)), hex=at(5, 2), facing=3)
        g.apply(Attack("Allies", flame.uid, plane.uid))
        assert DESTROYED not in plane.pending and not plane.destroyed, name


def test_first_edition_cards_say_the_aircraft_clause_is_the_later_editions():
    """The card text names the clause as the later edition's (the first has no Aircraft)."""
    from game.rules.abilities.spec import rule_text
    assert "can't attack Aircraft (later edition" in rule_text("bombardment")
    assert "Aircraft are exempt (later edition)" in rule_text("blast")
