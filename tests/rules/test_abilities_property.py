"""Property test (issue 5): random armies drawn from the full 47-card roster play
random legal games to the end - every ability in play - without errors, keeping the
engine's invariants.  The long version is bench/abilities_bench.py."""
from __future__ import annotations

import random

import pytest

from tests.rules.engine_kit import check_invariants, play_game, quick_policy, rect_map
from game.data.units import LATER_SETS, load_roster
from game.rules.dice import Dice
from game.rules.engine import new_game
from game.rules.state import Phase

BOARD = rect_map(12, 8, {(4, 2): "forest", (5, 3): "hill", (3, 5): "marsh", (7, 5): "pond",
                         (4, 4): "town", (6, 1): "forest", (8, 3): "hill", (2, 2): "forest",
                         (9, 6): "forest", (6, 6): "hill"},
                 roads=[((c, 3), (c + 1, 3)) for c in range(0, 11)],
                 streams=[((5, 0), (6, 0)), ((5, 1), (6, 1)), ((6, 4), (7, 4)),
                          ((5, 5), (6, 5))],
                 bridges=[((5, 3), (6, 3))], objective=(5, 3))

#: the 47 cards Hexfront shipped first (the whole roster's random games:
#: tests/rules/test_roster_property.py)
ROSTER = [c for c in load_roster().values() if c.set_name != LATER_SETS]
AXIS = [c for c in ROSTER if c.side == "Axis"]
ALLIES = [c for c in ROSTER if c.side == "Allies"]


def random_armies(seed: int, size: int = 6) -> dict:
    """Two random armies; seed-ordered slices make consecutive seeds cover the roster."""
    rng = random.Random(seed)
    out = {}
    for side, pool in (("Axis", AXIS), ("Allies", ALLIES)):
        start = (seed * (size - 2)) % len(pool)
        picked = [pool[(start + i) % len(pool)] for i in range(size - 2)]
        picked += rng.sample(pool, 2)
        out[side] = picked
    return out


GAMES = 20


def play_one(seed: int, check=None) -> int:
    armies = random_armies(seed)
    scenario = "assault" if seed % 5 == 0 else "standard"
    g = new_game(BOARD, armies, scenario=scenario, dice=Dice(seed),
                 options={"turn_limit": 8})
    n = play_game(g, quick_policy(random.Random(seed), end_bias=0.3), max_actions=6000,
                  check=check)
    assert g.over, f"seed {seed}: not over after {n} actions ({g.state.phase})"
    assert g.state.outcome is not None and g.state.phase == Phase.GAME_OVER
    check_invariants(g)
    return n


def test_random_armies_cover_the_roster():
    seen = {c.name for s in range(GAMES) for cards in random_armies(s).values() for c in cards}
    assert seen == {c.name for c in ROSTER}


@pytest.mark.parametrize("block", range(4))
def test_random_roster_games_play_to_the_end(block):
    """Random legal games with every roster ability end without errors."""
    per = GAMES // 4
    for seed in range(block * per, (block + 1) * per):
        play_one(seed, check=check_invariants if seed % 3 == 0 else None)


MODES = ("normal", "close_assault", "hand_to_hand", "armor_piercing_rounds",
         "additional_hull_mounted_cannon")


@pytest.mark.parametrize("seed", [7001, 7004])
def test_legal_actions_match_check_with_abilities(seed):
    """With every ability in play (extra actions, attack modes, passengers), every
    legal action passes check, and every attack check accepts is listed."""
    from game.rules.actions import Attack, DefensiveFire, EndPhase, Move
    rng = random.Random(seed)
    g = new_game(BOARD, random_armies(seed), dice=Dice(seed), options={"turn_limit": 4})
    while not g.over:
        acts = g.legal_actions()
        assert all(g.check(a) is None for a in acts)
        st = g.state
        if st.phase.is_assault and st.pending is None:
            legal = set(acts)
            for u in st.units_of(st.to_act):
                for t in st.units.values():
                    if t.side != u.side:
                        for m in MODES:
                            x = Attack(u.side, u.uid, t.uid, m)
                            assert g.check(x) is not None or x in legal, x
        shots = [a for a in acts if isinstance(a, (Attack, DefensiveFire))]
        moves = [a for a in acts if isinstance(a, Move)]
        ends = [a for a in acts if isinstance(a, EndPhase)]
        if shots and rng.random() < 0.9:
            g.apply(rng.choice(shots))
        elif moves and (not ends or rng.random() < 0.5):
            g.apply(rng.choice(moves))
        else:
            g.apply(ends[0] if ends else rng.choice(acts))
    check_invariants(g)
