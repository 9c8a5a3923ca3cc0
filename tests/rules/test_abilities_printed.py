"""Abilities as the cards print them (issue 18): the points the situation files in
tests/situations/abilities/ don't reach - defensive fire with the flamethrower, an
assault-phase Overrun, Overrun against Fanatic, Command Dependent boarding, Large at
deployment, and the exact odds of Guard Crew's reroll and the flamethrower's kill."""
from __future__ import annotations

import itertools

import pytest

from tests.rules.engine_kit import at, officer, position, rect_map, rifles, tank
from game.data.units import load_roster
from game.rules.actions import Attack, Board, DefensiveFire, Deploy, Move, PassDefensiveFire
from game.rules.ability_catalog import make_ability
from game.rules.dice import LoadedDice
from game.rules.events import UnitDestroyed
from game.rules.odds import attack_odds
from game.rules.state import Phase

ROSTER = {c.id: c for c in load_roster().values()}
MAP = rect_map(10, 6)


def _hold_all(g):
    while g.state.pending is not None:
        g.apply(PassDefensiveFire(g.state.to_act))


def test_flamethrower_kills_a_mover_with_defensive_fire_and_ends_its_move():
    """ability: Hull-Mounted Flamethrower - three natural 6s destroy at once with
    defensive fire too (the card doesn't exclude it); the move ends there."""
    from game.rules.hexes import DIRECTIONS, Hex
    g = position(MAP, phase=Phase.MOVEMENT_FIRST, dice=[6, 6, 6] + [1] * 10)
    croc = g.add_unit(ROSTER["churchill-crocodile"], "Allies", at(4, 2), facing=3)
    pz = g.add_unit(tank("Germany", front=9, rear=9), "Axis", at(3, 2), facing=0)
    start = pz.hex
    b = next(Hex(start.q + d.q, start.r + d.r) for d in DIRECTIONS
             if Hex(start.q + d.q, start.r + d.r).distance(croc.hex) == 1
             and Hex(start.q + d.q, start.r + d.r) in MAP.terrain)
    far = next(Hex(b.q + d.q, b.r + d.r) for d in DIRECTIONS
               if Hex(b.q + d.q, b.r + d.r).distance(croc.hex) == 2
               and Hex(b.q + d.q, b.r + d.r) in MAP.terrain)
    g.apply(Move("Axis", pz.uid, (b, far), None))
    assert g.state.pending is not None and croc.uid in g.state.pending.eligible
    ev = g.apply(DefensiveFire("Allies", croc.uid))
    assert pz.destroyed and any(isinstance(e, UnitDestroyed) and e.uid == pz.uid for e in ev)
    assert g.state.pending is None and g.state.moving is None
    assert pz.hex == start                        # shot in the hex it was leaving


def test_flamethrower_defensive_fire_odds_count_the_kill():
    """ability: Hull-Mounted Flamethrower - the defensive-fire odds include the kill
    (checked against every roll of 4 dice)."""
    g = position(MAP, phase=Phase.MOVEMENT_FIRST)
    croc = g.add_unit(tank("United Kingdom", soldier=(4, 2, 1),
                           abilities=(make_ability("hull_mounted_flamethrower"),)),
                      "Allies", at(4, 2), facing=3)
    gren = g.add_unit(rifles("Germany", front=5), "Axis", at(3, 2))
    odds = attack_odds(g.state, croc.uid, gren.uid, defensive=True)
    kills = sum(1 for f in itertools.product(range(1, 7), repeat=4)
                if sum(1 for x in f if x == 6) >= 3) / 6 ** 4
    assert odds.p_destroyed == pytest.approx(kills)
    assert odds.p_stopped == pytest.approx(kills)        # 4 successes can't reach 5
    assert odds.p_none == pytest.approx(1 - kills)


def test_guard_crew_odds_match_every_roll():
    """ability: Guard Crew - one failed 1 rolled again; the odds sum over every roll of
    the attack dice and the reroll, resolved by the real attack code."""
    g = position(MAP, phase=Phase.ASSAULT_FIRST)
    a = g.add_unit(tank("Soviet Union", soldier=(3, 2, 1),
                        abilities=(make_ability("guard_crew"),)), "Allies", at(2, 2))
    t = g.add_unit(rifles("Germany", front=2), "Axis", at(3, 2))
    g.state.phase = Phase.ASSAULT_SECOND
    g.state.touch()
    odds = attack_odds(g.state, a.uid, t.uid)
    rank = {"disrupted": 1, "destroyed": 3}
    counts = [0, 0, 0, 0]
    for faces in itertools.product(range(1, 7), repeat=4):
        c = g.copy()
        c.dice = LoadedDice(list(faces))
        c.apply(Attack("Allies", a.uid, t.uid))
        counts[max([0] + [rank[p] for p in c.state.units[t.uid].pending])] += 1
    total = 6 ** 4
    for k, p in zip(("none", "disrupted", "damaged", "destroyed"), counts):
        assert getattr(odds, "p_" + k) == pytest.approx(p / total), k


def test_overrun_in_the_assault_phase_is_the_move_and_no_attack():
    """ability: Overrun - in the assault phase too; the Vehicle's activation is the move,
    so it can't attack afterwards; a Soldier already disrupted is skipped."""
    g = position(MAP, phase=Phase.ASSAULT_FIRST)
    tiger = g.add_unit(ROSTER["tiger-i"], "Axis", at(1, 2), facing=0)
    old = g.add_unit(rifles("United States", cost=9), "Allies", at(2, 2), disrupted=True)
    gi = g.add_unit(rifles("United States", cost=3), "Allies", at(2, 2))
    g.apply(Move("Axis", tiger.uid, (at(2, 2),), 0))
    _hold_all(g)
    assert gi.disrupted and old.disrupted and tiger.acted
    assert g.check(Attack("Axis", tiger.uid, gi.uid)) is not None


def test_overrun_is_ignored_by_a_fanatic():
    """ability: Overrun; Fanatic - a Fanatic Soldier disregards the face-up Disrupted
    counter Overrun gives it."""
    g = position(MAP, phase=Phase.MOVEMENT_FIRST, first="Allies")
    sherman = g.add_unit(tank("United States", abilities=(make_ability("overrun"),)),
                         "Allies", at(1, 2), facing=0)
    ssh = g.add_unit(ROSTER["ss-hauptsturmfuhrer"] if "ss-hauptsturmfuhrer" in ROSTER else
                     next(c for c in ROSTER.values() if c.name.startswith("SS-Haupt")),
                     "Axis", at(2, 2))
    g.apply(Move("Allies", sherman.uid, (at(2, 2),), 0))
    _hold_all(g)
    assert not ssh.disrupted
    assert any(e.kind == "AbilityUsed" and getattr(e, "ability", "") == "Fanatic"
               for e in g.log)


def test_command_dependent_limits_boarding_too():
    """ability: Command Dependent - boarding replaces the movement-phase move, so it
    needs a commander next to the rifleman as well."""
    g = position(MAP, phase=Phase.MOVEMENT_FIRST, first="Allies")
    kv = g.add_unit(ROSTER["kv-1"], "Allies", at(5, 2))
    mosin = g.add_unit(ROSTER["mosin-nagant-1891-30"], "Allies", at(5, 2))
    assert "Command Dependent" in g.check(Board("Allies", mosin.uid, kv.uid))
    assert Board("Allies", mosin.uid, kv.uid) not in g.legal_actions()
    g.add_unit(officer("Soviet Union"), "Allies", at(6, 2))
    assert g.check(Board("Allies", mosin.uid, kv.uid)) is None


def test_large_counts_as_a_vehicle_at_deployment():
    """ability: Large - the PaK 40 can't deploy in a hex with a Vehicle (stacking)."""
    from game.rules.state import GameState
    from game.rules.engine import Game
    st = GameState.blank(MAP, "standard", phase=Phase.DEPLOY_FIRST, turn=0,
                         first_player="Axis")
    st.ends = {"Axis": "left", "Allies": "right"}
    g = Game(st, LoadedDice([]))
    pz = g.add_unit(ROSTER["panzer-iv-ausf-f2"], "Axis")
    pak = g.add_unit(ROSTER["pak-40-antitank-gun"], "Axis")
    g.apply(Deploy("Axis", pz.uid, at(1, 2), 0))
    assert "counts as a Vehicle" in g.check(Deploy("Axis", pak.uid, at(1, 2), 0))
    assert Deploy("Axis", pak.uid, at(1, 2), 0) not in g.legal_actions()
    assert g.check(Deploy("Axis", pak.uid, at(1, 3), 0)) is None
