"""Exact attack odds (issue 4: Exact odds) - hand-computed cases and agreement with a
seeded simulation through the real ``resolve_attack``."""
from __future__ import annotations

from fractions import Fraction

import pytest

from game.rules.board import BattleMap
from game.rules.cards import UnitCard
from game.rules.dice import Dice
from game.rules.hexes import Hex, hexes_within
from game.rules.odds import attack_odds, binomial, simulate_attack
from game.rules.state import GameState, Phase, Unit
from game.rules.terrain import Terrain


def _card(name, type_, defense, soldier, vehicle, nation="United States"):
    return UnitCard(name, nation, 10, 1942, type_, None, 3, defense[0], defense[1],
                    {"Soldier": dict(zip(("short", "medium", "long"), soldier)),
                     "Vehicle": dict(zip(("short", "medium", "long"), vehicle))})


SHERMAN = _card("M4A1 Sherman", "Vehicle", (5, 4), (9, 9, 7), (13, 11, 9))
PANZER = _card("Panzer IV Ausf. G", "Vehicle", (5, 3), (7, 7, 6), (15, 13, 11), "Germany")
RIFLES = _card("Rifles", "Soldier", (4, 4), (8, 7, None), (2, None, None))
MG = _card("MG", "Soldier", (4, 4), (10, 8, 7), (3, 3, 2), "Germany")
ONE = _card("One", "Soldier", (1, 1), (1, 2, 3), (1, 2, 3), "Germany")
SOFT = _card("Soft", "Soldier", (1, 1), (1, 1, 1), (1, 1, 1))

_TERRAIN = {h: Terrain.CLEAR for h in hexes_within(Hex(0, 0), 5)}
_TERRAIN[Hex(3, 0)] = Terrain.TOWN
_TERRAIN[Hex(2, -1)] = Terrain.FOREST
_MAP = BattleMap("odds", _TERRAIN)


def _st(attacker, a_hex, target, t_hex, **tkw):
    st = GameState.blank(_MAP, phase=Phase.ASSAULT_FIRST)
    st.units["a"] = Unit("a", attacker, "Axis", a_hex)
    st.units["t"] = Unit("t", target, "Allies", t_hex, **tkw)
    return st


def _close(odds, none, dis, dam, des, stopped=0.0):
    got = (odds.p_none, odds.p_disrupted, odds.p_damaged, odds.p_destroyed, odds.p_stopped)
    want = tuple(float(x) for x in (none, dis, dam, des, stopped))
    assert got == pytest.approx(want, abs=1e-12), (got, want)


def test_binomial_sums_to_one_and_matches_hand_values():
    """Exact odds are built on the binomial distribution of successes."""
    assert binomial(2, 0.5) == pytest.approx([0.25, 0.5, 0.25])
    assert sum(binomial(15, 1 / 3)) == pytest.approx(1.0)
    assert binomial(3, 0.0) == [1.0, 0.0, 0.0, 0.0]


def test_one_die_against_defense_one():
    """Hand: 1 die at 4+ vs defense 1, no cover - half the time exactly 1 success
    (equal to the defense: 1 hit, Disrupted)."""
    o = attack_odds(_st(ONE, Hex(0, 0), SOFT, Hex(1, 0)), "a", "t")
    _close(o, Fraction(1, 2), Fraction(1, 2), 0, 0)
    assert (o.dice, o.need, o.defense, o.cover_need, o.front) == (1, 4, 1, None, None)


def test_two_dice_against_defense_one_soldier():
    """Hand: 2 dice vs defense 1 - 0 successes 1/4 (none), 1 success 1/2 (1 hit),
    2 successes 1/4 (double the defense: 3 hits, a Soldier is destroyed)."""
    o = attack_odds(_st(ONE, Hex(0, 0), SOFT, Hex(2, 0)), "a", "t")
    _close(o, Fraction(1, 4), Fraction(1, 2), 0, Fraction(1, 4))


def test_cover_in_forest_hand_computed():
    """Hand, rulebook: Effect of a Cover Roll - 2 dice vs defense 1 in a forest (cover
    4+ = 1/2): one hit is Disrupted either way (1/2); two successes (1/4) are Destroyed
    only when the cover roll fails (1/8), else Disrupted (1/8)."""
    o = attack_odds(_st(ONE, Hex(0, 0), SOFT, Hex(2, -1)), "a", "t")
    assert o.cover_need == 4
    _close(o, Fraction(1, 4), Fraction(5, 8), 0, Fraction(1, 8))


def test_existing_face_down_counter_changes_the_outcome():
    """Hand, rulebook: hits add up this phase - with a face-down Disrupted already on the
    Soldier, any hit destroys it (1 die: 1/2), and a miss leaves it disrupted."""
    o = attack_odds(_st(ONE, Hex(0, 0), SOFT, Hex(1, 0), pending=["disrupted"]), "a", "t")
    _close(o, 0, Fraction(1, 2), 0, Fraction(1, 2))


def test_disrupted_attacker_needs_fives():
    """Hand, rulebook: Disrupted attacker - successes only on 5+: 1 die hits 1/3."""
    st = _st(ONE, Hex(0, 0), SOFT, Hex(1, 0))
    st.units["a"].disrupted = True
    o = attack_odds(st, "a", "t")
    assert o.need == 5
    _close(o, Fraction(2, 3), Fraction(1, 3), 0, 0)


def test_defensive_fire_odds_with_cover():
    """Hand, rulebook: Cover and Defensive Fire - 2 dice vs defense 1 in a town (Soldier
    cover 4+): P(hit) = 3/4, negated half the time -> stopped 3/8."""
    o = attack_odds(_st(_card("Two", "Soldier", (1, 1), (2, 2, 2), (2, 2, 2), "Germany"),
                        Hex(0, 0), SOFT, Hex(3, 0)), "a", "t", defensive=True)
    _close(o, Fraction(5, 8), Fraction(3, 8), 0, 0, stopped=Fraction(3, 8))


def test_damaged_vehicle_second_damaged_is_destroyed_in_odds():
    """ruling 13 in the odds: a damaged Vehicle (defense -1) hit twice is destroyed."""
    st = _st(SHERMAN, Hex(0, 1), PANZER, Hex(4, 1), facing=3, damaged=True)
    o = attack_odds(st, "a", "t")
    assert o.defense == 4 and o.front is True
    assert o.p_damaged == 0.0
    pmf = binomial(11, 0.5)
    assert o.p_destroyed == pytest.approx(sum(pmf[5:]))
    assert o.p_disrupted == pytest.approx(pmf[4])


def test_outcomes_sum_to_one():
    """The four outcome probabilities always sum to 1."""
    for kw in ({}, {"pending": ["disrupted"]}, {"damaged": True}, {"disrupted": True}):
        st = _st(SHERMAN, Hex(0, 1), PANZER, Hex(3, 0), facing=0, **kw)
        for defensive in (False, True):
            o = attack_odds(st, "a", "t", defensive=defensive)
            assert o.p_none + o.p_disrupted + o.p_damaged + o.p_destroyed == pytest.approx(1.0)


# --- agreement with the real attack code ---------------------------------------------------------
def _simulate(st, n, seed, **kw):
    """Run the real resolve_attack n times from the same position; tally outcomes."""
    return simulate_attack(st, "a", "t", n, Dice(seed), **kw)


def test_exact_odds_agree_with_100000_real_attacks():
    """issue 4: exact odds agree within 0.5 percentage points with a 100,000-roll seeded
    simulation through the real attack code.  The case exercises front armour, the cover
    roll (town, Vehicle 5+) and a face-down Disrupted already on the target.  With
    n = 100,000 a frequency's standard error is at most 0.16 points: 0.5 is over 3 of them."""
    st = _st(SHERMAN, Hex(0, 0), PANZER, Hex(3, 0), facing=3, pending=["disrupted"])
    o = attack_odds(st, "a", "t")
    assert (o.dice, o.defense, o.front, o.cover_need) == (11, 5, True, 5)
    freq, _ = _simulate(st, 100_000, seed=1234)
    exact = [o.p_none, o.p_disrupted, o.p_damaged, o.p_destroyed]
    assert max(abs(a - b) for a, b in zip(freq, exact)) < 0.005, (freq, exact)


SMALL_CASES = [
    # MG at riflemen in a forest two hexes away (Soldier cover 4+, 2 hits = Destroyed)
    ("mg_rifles_forest", MG, Hex(0, 0), RIFLES, Hex(2, -1), {}, {}),
    # Panzer firing defensively at a Sherman in a town: rear armour, cover negates
    ("defensive_panzer_sherman", PANZER, Hex(4, 0), SHERMAN, Hex(3, 0), {"facing": 3},
     {"defensive": True}),
]


@pytest.mark.parametrize("name,att,ah,tgt,th,tkw,kw", SMALL_CASES,
                         ids=[c[0] for c in SMALL_CASES])
def test_exact_odds_agree_with_simulation_more_cases(name, att, ah, tgt, th, tkw, kw):
    """issue 4: more cases (Soldier cover, defensive fire and p_stopped) with 10,000 real
    attacks each, to keep the suite fast.  Tolerance: 4 standard errors of each outcome's
    frequency, sqrt(p(1-p)/n) (at most 2 points, usually less); the 0.5-point check on
    100,000 attacks is the test above."""
    n = 10_000
    st = _st(att, ah, tgt, th, **tkw)
    o = attack_odds(st, "a", "t", **kw)
    freq, stopped = _simulate(st, n, seed=99, **kw)
    exact = [o.p_none, o.p_disrupted, o.p_damaged, o.p_destroyed]
    for f, p in zip(freq, exact):
        assert abs(f - p) <= 4 * (p * (1 - p) / n) ** 0.5 + 1e-12, (freq, exact)
    if kw.get("defensive"):
        assert o.p_stopped == o.p_disrupted > 0
        assert abs(stopped - o.p_stopped) <= 4 * (o.p_stopped * (1 - o.p_stopped) / n) ** 0.5
