"""The rules' answers where the map's line of sight or the longest range don't settle an
attack: Indirect Fire over a Spotter, bluff to bluff (ruling L9), Extended Range.
The legal-action listing, the threat query and the AI's attack options must agree
with the rules' own check (``Game.check``): a legal attack is listed, counted as a
threat and considered by the AI."""
from __future__ import annotations

import random

from game.ai.knowledge import attack_options
from game.data.situations import load_situation
from game.rules.actions import Attack
from game.rules.cards import Ability
from game.rules.combat import within_reach
from game.rules.state import Phase
from game.rules.queries import sight_note
from game.rules.threat import attack_modes, threat_to
from game.situations import build_game
from tests.rules.engine_kit import at, position, rect_map, rifles, tank
from tests.rules.test_later_edition import _with_sides, later_game

SITUATIONS = "tests/situations/abilities/"


def _attacks(game) -> set[tuple[str, str]]:
    return {(a.uid, a.target) for a in game.legal_actions() if isinstance(a, Attack)}


def _mode_attacks(game) -> set[tuple[str, str, str]]:
    return {(a.uid, a.target, a.mode) for a in game.legal_actions() if isinstance(a, Attack)}


def _builder_positions(games: list[tuple[int, int]], max_steps: int):
    """Random games (turn limit 6) with the AI builder's armies, one per (seed,
    configuration): yields ``(game, step)`` at each position before its action is
    played."""
    from game.ai.arena import _armies
    from game.data.maps import load_configuration
    from game.data.units import load_roster
    from game.rules.dice import Dice
    from game.rules.engine import new_game
    from tests.rules.engine_kit import quick_policy
    roster = list(load_roster().values())
    for seed, config in games:
        game = new_game(load_configuration(config),
                        _armies(roster, "standard", seed, None, "builder", "first"),
                        dice=Dice(seed), options={"turn_limit": 6})
        choose = quick_policy(random.Random(seed), 0.3)
        steps = 0
        while not game.over and steps < max_steps:
            yield game, steps
            game.apply(choose(game))
            steps += 1


def test_indirect_fire_attack_over_a_spotter_is_listed_and_threatens():
    """Ability: Indirect Fire - the mortar has no line of sight of its own to the GI
    (the forest is in the way) but the Spotter sees it: the rules allow the attack, so
    the listing offers it and the threat query counts the mortar against the GI."""
    g = build_game(load_situation(SITUATIONS + "indirect_fire_spotter.yaml"))
    st = g.state
    gi = st.units["gi"]
    assert gi.hex not in g.visible_from(st.units["mortar"].hex)     # no sight of its own
    assert g.check(Attack("Axis", "mortar", "gi")) is None
    assert ("mortar", "gi") in _attacks(g)
    assert ("mortar", "sherman") not in _attacks(g)     # a Vehicle still needs sight
    sources = {s.attacker: s for s in threat_to(g, "gi").sources}
    assert "mortar" in sources and 1 - sources["mortar"].odds.p_none > 0.3
    assert "mortar" not in {s.attacker for s in threat_to(g, "sherman").sources}
    # the odds box says why no sight of its own is needed, naming the Spotter
    note = sight_note(g, "mortar", "gi")
    assert "Indirect Fire" in note and "Test Observer sees Test GI" in note
    assert sight_note(g, "observer", "gi") == ""           # it sees the GI itself


def test_indirect_fire_attack_is_among_the_ai_attack_options():
    """Ability: Indirect Fire - the AI's attack options (game.ai.knowledge) ask the rules
    whether sight is needed, so the mortar's spotted attack is one of them."""
    g = build_game(load_situation(SITUATIONS + "indirect_fire_spotter.yaml"))
    mortar = g.state.units["mortar"]
    assert "gi" in {t for t, _, _ in attack_options(g, mortar)}


def test_bluff_to_bluff_sight_in_visible_from_listing_and_threat():
    """Ruling L9 (checklist L30): from one bluffs hex another is seen over the bluffs
    between. ``Game.visible_from`` (the UI's sight overlay, the threat query, the AI)
    says so as ``BattleMap.can_see`` does, and the threat query counts the attacker."""
    bm = _with_sides(rect_map(10, 6, {(4, 2): "bluffs", (6, 2): "bluffs", (2, 2): "bluffs"}),
                     cliffs=[((5, 2), (6, 2)), ((3, 2), (4, 2))])
    g = later_game(bm, phase=Phase.ASSAULT_FIRST)
    b = g.add_unit(rifles("Germany", name="on bluff"), hex=at(2, 2))
    t = g.add_unit(rifles("United States"), hex=at(6, 2))
    assert bm.can_see(at(2, 2), at(6, 2))
    assert at(6, 2) in g.visible_from(at(2, 2)) and at(2, 2) in g.visible_from(at(6, 2))
    assert at(5, 2) not in g.visible_from(at(3, 2))          # L31: not from below
    assert (b.uid, t.uid) in _attacks(g)
    assert b.uid in {s.attacker for s in threat_to(g, t.uid).sources}


def test_extended_range_attack_beyond_eight_hexes_in_ai_options_and_threat():
    """Ability: Extended Range - a gun may attack a Vehicle up to N hexes away, past the
    longest printed range (8). The AI's attack options and the threat query ask the
    rules instead of stopping at 8 hexes (the Veteran's long guns used to hold fire)."""
    bm = rect_map(14, 5)
    g = position(bm, phase=Phase.ASSAULT_FIRST)
    gun = g.add_unit(tank("Germany", name="long gun",
                          abilities=[Ability("extended_range", 12)]), hex=at(0, 2))
    target = g.add_unit(tank("United States"), hex=at(10, 2))
    assert gun.hex.distance(target.hex) == 10
    assert g.check(Attack("Axis", gun.uid, target.uid)) is None
    assert (gun.uid, target.uid) in _attacks(g)
    assert target.uid in {t for t, _, _ in attack_options(g, gun)}
    assert gun.uid in {s.attacker for s in threat_to(g, target.uid).sources}
    # without the ability the same shot is out of range, and the quick filter says so
    plain = g.add_unit(tank("Germany", name="short gun"), hex=at(0, 3))
    assert not within_reach(g.state, plain, target, plain.hex, target.hex,
                            target.hex in g.visible_from(plain.hex))


def test_every_attack_the_rules_allow_is_listed_in_builder_games():
    """The legal-action listing and the check agree on attacks: in assault phases of
    random games with the AI builder's armies (the whole roster's abilities), every
    (unit, enemy, attack mode) attack ``Game.check`` allows is in ``legal_actions``."""
    checked = 0
    for game, _ in _builder_positions([(900 + i, 1 + i % 6) for i in range(10)], 400):
        st = game.state
        if st.phase.is_assault and st.pending is None:
            listed = _mode_attacks(game)
            side = st.to_act
            for u in st.units_of(side):
                if not u.on_map or u.boarded:
                    continue
                for t in st.units.values():
                    if t.side == side or not t.on_map or t.boarded:
                        continue
                    for mode in attack_modes(u.card):
                        if game.check(Attack(side, u.uid, t.uid, mode)) is None:
                            assert (u.uid, t.uid, mode) in listed, (u.name, t.name, mode)
                            checked += 1
    assert checked > 300, checked


def test_listed_moves_and_the_reach_query_agree_in_builder_games():
    """The reach query (``Game.why_not_reach``: what the battle screen says when a hex
    can't be reached) and the listing agree: a hex near a unit is a listed Move's
    destination exactly when the query finds no reason - an extra move of an
    activation (Strike and Fade after its attack) included.  (Assault phases, where
    those windows open; a hex within 5.)"""
    from game.rules.actions import Move
    checked = 0
    # both sides of seed 702 and the Axis of 708 have Strike and Fade
    for game, steps in _builder_positions([(702, 3), (708, 3)], 500):
        st = game.state
        if st.phase.is_assault and st.pending is None and st.moving is None:
            acts = game.legal_actions()
            for u in st.units_of(st.to_act):
                # every unit in an extra-move window; the others at every 6th position
                if not u.on_map or u.boarded or not (u.acted or steps % 6 == 0):
                    continue
                listed = {a.path[-1] for a in acts
                          if isinstance(a, Move) and a.uid == u.uid and a.path}
                for h in st.battle_map.terrain:
                    if h != u.hex and h.distance(u.hex) <= 5:
                        why = game.why_not_reach(u.uid, h)
                        assert (not why) == (h in listed), (u.name, h, why)
                        checked += 1
    assert checked > 2000, checked
