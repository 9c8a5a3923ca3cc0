"""Units held off the map that enter during play (game/rules/families/reserves.py,
game/rules/abilities/roster_reserves.py): Paratrooper, the nation Heroes, Paratrooper
Commander - each test names its ruling (../shared/design/rulings.md 21-25)."""
from __future__ import annotations

import random

import pytest

from game.data.units import card, load_roster
from game.rules.actions import (ChooseEnd, ChooseOrder, Deploy, EndPhase, EnterReserve, Move,
                                action_from_dict, action_to_dict)
from game.rules.army import playable_editions
from game.rules.dice import Dice
from game.rules.engine import new_game
from game.rules.state import DISRUPTED, Phase
from game.rules.victory import check_victory, victory_points
from tests.rules.engine_kit import at, check_invariants, position, rect_map, rifles

RESERVE_CARDS = ("Fallschirmjager", "Veteran Fallshirmjager", "SNLF Paratroopers",
                 "Defiant paratroopers", "\"Screaming Eagle\" Captain",
                 "\"Screaming Eagle\" Paratroopers", "Grizzled Veteran", "Stalwart Hero",
                 "Honor Bound Hero", "Inspiring Hero", "Hero of the Soviet Union",
                 "Intrepid Hero", "Resourceful Hero")


def test_the_reserve_cards_play_in_both_editions():
    """Rulings 21-25: the Paratrooper and Hero cards whose other abilities Hexfront has
    are playable in both editions (Hero of the Soviet Union, Intrepid Hero and
    Resourceful Hero too: Endurance, Firepower and Improvisation, rulings 26-28)."""
    roster = load_roster()
    for name in RESERVE_CARDS:
        assert playable_editions(roster[name]) == ("first", "later"), name


def _movement(first="Axis"):
    g = position(rect_map(10, 6), phase=Phase.MOVEMENT_FIRST, first=first)
    g.state.ends = {"Axis": "left", "Allies": "right"}
    return g


def test_ruling_22_drop_hexes_keep_away_from_enemies_and_obey_stacking():
    """Paratrooper: any hex with no enemy in it or next to it; a hex with two friendly
    units is full; every listed drop passes check."""
    g = _movement()
    fj = g.add_unit(card("Fallschirmjager"), "Axis")
    g.add_unit(card("M1 Garand Rifle"), "Allies", at(5, 3))
    g.add_unit(card("Mauser Kar 98k"), "Axis", at(1, 1))
    g.add_unit(card("Mauser Kar 98k"), "Axis", at(1, 1))
    drops = {a.hex for a in g.legal_actions() if isinstance(a, EnterReserve)}
    assert at(5, 3) not in drops and not (drops & set(at(5, 3).neighbors()))
    assert at(1, 1) not in drops and at(2, 1) in drops
    assert "stacking limit" in g.check(EnterReserve("Axis", fj.uid, at(1, 1)))
    for a in g.legal_actions():
        if isinstance(a, EnterReserve):
            assert g.check(a) is None


def test_ruling_22_a_drop_ends_the_movement_but_the_paratrooper_acts_in_the_assault_phase():
    g = _movement()
    fj = g.add_unit(card("Fallschirmjager"), "Axis")
    other = g.add_unit(card("Mauser Kar 98k"), "Axis", at(1, 1))
    gi = g.add_unit(card("M1 Garand Rifle"), "Allies", at(6, 3))
    g.state.touch()
    g.apply(EnterReserve("Axis", fj.uid, at(4, 3)))
    assert fj.on_map and fj.acted
    assert not [a for a in g.legal_actions() if isinstance(a, Move)]
    assert "ends your movement phase" in g.check(Move("Axis", other.uid, (at(2, 1),), None))
    # the reach query (the battle screen's hover) gives that reason too, not "" (reachable)
    assert "ends your movement phase" in g.why_not_reach(other.uid, at(2, 1))
    g.apply(EndPhase("Axis"))                     # the Allies' movement phase
    assert g.state.phase == Phase.MOVEMENT_SECOND
    g.apply(EndPhase("Allies"))
    assert g.state.phase == Phase.ASSAULT_FIRST
    acts = g.legal_actions()
    assert any(getattr(a, "uid", None) == fj.uid and getattr(a, "target", None) == gi.uid
               for a in acts)
    assert any(isinstance(a, Move) and a.uid == fj.uid for a in acts)


def test_ruling_21_entering_is_optional_and_only_in_the_sides_own_movement_phase():
    g = _movement()
    fj = g.add_unit(card("Fallschirmjager"), "Axis")
    g.add_unit(card("Mauser Kar 98k"), "Axis", at(1, 1))
    g.add_unit(card("M1 Garand Rifle"), "Allies", at(8, 3))
    g.state.touch()
    assert EndPhase("Axis") in g.legal_actions()
    g.apply(EndPhase("Axis"))
    assert not [a for a in g.legal_actions() if isinstance(a, EnterReserve)]
    assert "turn to act" in g.check(EnterReserve("Axis", fj.uid, at(2, 2)))
    g.apply(EndPhase("Allies"))
    assert "not in the first player's assault phase" in \
        g.check(EnterReserve("Axis", fj.uid, at(2, 2)))


def test_ruling_23_hero_enters_on_its_nations_soldier_at_the_start_and_may_move():
    g = _movement()
    hero = g.add_unit(card("Stalwart Hero"), "Axis")
    italian = g.add_unit(card("Stalwart Hero"), "Axis")        # a second hero, in reserve
    g.add_unit(card("Mauser Kar 98k"), "Axis", at(2, 2))        # German: not its nation
    g.add_unit(card("M1 Garand Rifle"), "Allies", at(8, 3))
    assert not [a for a in g.legal_actions() if isinstance(a, EnterReserve)]
    assert "Soldier of its nation (Italy)" in g.check(EnterReserve("Axis", hero.uid, at(2, 2)))
    bersa = g.add_unit(_italian_soldier(), "Axis", at(3, 3))
    g.state.touch()
    listed = {(a.uid, a.hex) for a in g.legal_actions() if isinstance(a, EnterReserve)}
    assert listed == {(hero.uid, at(3, 3)), (italian.uid, at(3, 3))}
    g.apply(EnterReserve("Axis", hero.uid, at(3, 3)))
    assert hero.hex == at(3, 3) and not hero.acted
    # the hex now holds two friendly units: the other Hero can't join them
    assert "stacking limit" in g.check(EnterReserve("Axis", italian.uid, at(3, 3)))
    assert any(isinstance(a, Move) and a.uid == hero.uid for a in g.legal_actions())
    g.apply(Move("Axis", bersa.uid, (at(4, 3),), None))
    assert "start of your movement phase" in \
        g.check(EnterReserve("Axis", italian.uid, at(4, 3)))


def _italian_soldier():
    roster = load_roster()
    return next(c for c in roster.values() if c.nationality == "Italy" and c.is_soldier
                and c.speed >= 1 and c.subtype in (None, "") and not c.has("hero"))


def test_ruling_23_hero_disregards_disrupted_counters_like_fanatic():
    from game.rules import phases
    g = position(rect_map(10, 6), phase=Phase.CASUALTY)
    hero = g.add_unit(card("Honor Bound Hero"), "Axis", at(2, 2))
    plain = g.add_unit(card("Mauser Kar 98k"), "Axis", at(3, 2))
    hero.pending, plain.pending = [DISRUPTED], [DISRUPTED]
    ev = phases._casualty(g)
    assert not hero.disrupted and plain.disrupted
    assert any("is a Hero" in e.text for e in ev)


def test_ruling_24_a_reserve_never_entered_scores_nothing_and_is_not_destroyed():
    g = position(rect_map(10, 6), phase=Phase.END_OF_TURN, turn=10)
    g.add_unit(card("Fallschirmjager"), "Axis")                 # cost 8, in reserve
    g.add_unit(card("Mauser Kar 98k"), "Axis", at(1, 1))
    g.add_unit(card("M1 Garand Rifle"), "Allies", at(8, 3))
    assert victory_points(g.state, "Axis") == card("Mauser Kar 98k").cost
    # nothing on the map on either side, but the Axis still has a Paratrooper to drop
    st = position(rect_map(10, 6), phase=Phase.END_OF_TURN, turn=3)
    st.add_unit(card("Fallschirmjager"), "Axis")
    assert check_victory(st.state, []) is None
    hero_only = position(rect_map(10, 6), phase=Phase.END_OF_TURN, turn=3)
    hero_only.add_unit(card("Grizzled Veteran"), "Axis")
    out = check_victory(hero_only.state, [])
    assert out is not None and out.winner is None


def _reserve_armies():
    return {"Axis": [card(n) for n in ("Fallschirmjager", "Grizzled Veteran",
                                       "Mauser Kar 98k", "Panzer IV Ausf. G")],
            "Allies": [card(n) for n in ("\"Screaming Eagle\" Captain",
                                         "\"Screaming Eagle\" Paratroopers",
                                         "M1 Garand Rifle", "M4A1 Sherman")]}


def _setup(game):
    """Through set-up and deployment with the first legal choices."""
    while game.state.phase.is_deploy or game.state.turn == 0:
        acts = game.legal_actions()
        pick = next((a for a in acts if isinstance(a, (ChooseOrder, ChooseEnd, Deploy))), None)
        game.apply(pick or next(a for a in acts if isinstance(a, EndPhase)))


def test_ruling_21_reserves_are_not_deployed_and_deployment_ends_without_them():
    from game.data.maps import load_configuration
    g = new_game(load_configuration(1), _reserve_armies(), dice=Dice(3))
    _setup(g)
    for u in g.state.units.values():
        assert (u.hex is None) == (u.card.has("paratrooper") or u.card.has("hero")), u.name
    g2 = new_game(load_configuration(1), _reserve_armies(), dice=Dice(3))
    while not g2.state.phase.is_deploy:
        g2.apply(g2.legal_actions()[0])
    side = g2.state.to_act
    fj = next(u for u in g2.state.units_of(side) if u.card.has("paratrooper"))
    assert not [a for a in g2.legal_actions() if getattr(a, "uid", None) == fj.uid]
    why = g2.check(Deploy(side, fj.uid, next(iter(g2.state.battle_map.terrain))))
    assert "waits off the map" in why


@pytest.mark.parametrize("edition,scenario", [("first", "standard"), ("later", "standard"),
                                              ("first", "assault")])
def test_random_games_with_reserves_keep_the_invariants(edition, scenario):
    """Rulings 21-24 in whole games (both editions, Assault too): random legal actions,
    the invariants after each; some reserve enters."""
    from game.data.maps import load_configuration
    entered = 0
    for seed in range(3):
        opts = {"turn_limit": 4, "edition": edition}
        if scenario == "assault":
            opts["attacker"] = "Allies"
        g = new_game(load_configuration(1), _reserve_armies(), scenario=scenario,
                     dice=Dice(seed), options=opts)
        rng = random.Random(seed)
        while not g.over:
            acts = g.legal_actions()
            enters = [a for a in acts if isinstance(a, EnterReserve)]
            ends = [a for a in acts if isinstance(a, EndPhase)]
            if enters and rng.random() < 0.5:
                act = rng.choice(enters)
            elif ends and rng.random() < 0.3:
                act = ends[0]
            else:
                act = rng.choice(acts)
            g.apply(act)
            entered += isinstance(act, EnterReserve)
            check_invariants(g)
    assert entered > 0


def test_enter_reserve_round_trips_through_the_codec_and_undo():
    a = EnterReserve("Allies", "allies-2", at(3, 4))
    assert action_from_dict(action_to_dict(a)) == a
    from game.data.maps import load_configuration
    g = new_game(load_configuration(1), _reserve_armies(), dice=Dice(5),
                 options={"turn_limit": 3})
    _setup(g)
    while g.state.phase != Phase.MOVEMENT_FIRST:
        g.apply(next(a for a in g.legal_actions() if isinstance(a, (ChooseOrder, EndPhase))))
    drop = next(a for a in g.legal_actions() if isinstance(a, EnterReserve)
                and g.state.units[a.uid].card.has("paratrooper"))
    before = g.state_hash()
    g.apply(drop)
    assert drop in g.undoable()
    g.undo(drop.uid)
    assert g.state_hash() == before


def test_ruling_25_paratrooper_commander_adds_a_die_to_paratroopers_next_to_it_only():
    """Paratrooper Commander: +1 die for friendly Paratroopers in or next to its hex, on
    defensive fire too; not itself, not other Soldiers, not while it is disrupted."""
    g = position(rect_map(10, 6), phase=Phase.ASSAULT_FIRST, first="Allies")
    cap = g.add_unit(card("\"Screaming Eagle\" Captain"), "Allies", at(2, 2))
    para = g.add_unit(card("\"Screaming Eagle\" Paratroopers"), "Allies", at(3, 2))
    gi = g.add_unit(rifles("United States"), "Allies", at(2, 3))      # no ability of its own
    foe = g.add_unit(card("Mauser Kar 98k"), "Axis", at(4, 2))
    plain = card("\"Screaming Eagle\" Paratroopers").dice("Soldier", "short")
    assert g.odds(para.uid, foe.uid).dice == plain + 1
    assert g.odds(para.uid, foe.uid, defensive=True).dice == plain + 1
    from game.rules.hexes import range_band

    def printed(u):
        return u.card.dice("Soldier", range_band(u.hex.distance(foe.hex)))
    assert g.odds(gi.uid, foe.uid).dice == printed(gi)
    assert g.odds(cap.uid, foe.uid).dice == printed(cap)
    cap.disrupted = True
    g.state.touch()
    assert g.odds(para.uid, foe.uid).dice == plain
