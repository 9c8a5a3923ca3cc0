"""Property test (issue 5): random armies drawn from the full 47-card roster play
random legal games to the end - every ability in play - without errors, keeping the
engine's invariants.  The long version is bench/abilities_bench.py."""
from __future__ import annotations

import random

import pytest

from tests.rules.engine_kit import check_invariants, play_game, quick_policy, rect_map
from game.data.units import load_roster
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

ROSTER = list(load_roster().values())
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


GAMES = 24


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
