"""Property test (issue 19): random armies drawn from the WHOLE playable roster (the
later sets' cards and the minor nations included) play random legal games to the end
without errors, keeping the engine's invariants.  Only cards the rules accept for a
first-edition battle are drawn (game.rules.army.is_playable), and every drawn army is
legal.  The long version: ``python bench/fuzz_games.py --games 1000`` (the same roster)."""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from game.data.units import LATER_SETS, load_roster
from game.rules.army import Army, is_playable, validate_army
from game.rules.dice import Dice
from game.rules.engine import new_game
from game.rules.state import Phase
from tests.rules.engine_kit import check_invariants, play_game, quick_policy
from tests.rules.test_abilities_property import BOARD

PLAYABLE = [c for c in load_roster().values() if is_playable(c, "first")]
NEW = [c for c in PLAYABLE if c.set_name == LATER_SETS]


def whole_roster_armies(seed: int, size: int = 6) -> dict:
    """Two random legal armies (at most 70 points each): half of each from the later
    sets' cards, the rest from the whole playable roster of the side."""
    rng = random.Random(seed)
    out = {}
    for side in ("Axis", "Allies"):
        new = [c for c in NEW if c.side == side]
        every = [c for c in PLAYABLE if c.side == side]
        picked: list = []
        for pool in [new] * (size // 2) + [every] * (size - size // 2):
            fit = [c for c in pool if c.cost <= 70 - sum(p.cost for p in picked)]
            if fit:
                picked.append(rng.choice(fit))
        out[side] = picked
        assert validate_army(Army("random", side, picked), budget=70) == []
    return out


def test_the_playable_roster_is_the_whole_one_less_the_refused_cards():
    roster = load_roster()
    assert len(PLAYABLE) >= 140 and len(NEW) >= 90
    assert {c.nationality for c in NEW} >= {"Romania", "Hungary", "Finland", "Canada",
                                             "Poland", "Australia"}
    assert all(not is_playable(c, "first") for c in roster.values() if c not in PLAYABLE)


@settings(max_examples=4, deadline=None, derandomize=True)
@given(st.integers(min_value=0, max_value=2**31 - 1))
def test_whole_roster_random_games_play_to_the_end(seed):
    armies = whole_roster_armies(seed)
    scenario = "assault" if seed % 4 == 0 else "standard"
    g = new_game(BOARD, armies, scenario=scenario, dice=Dice(seed),
                 options={"turn_limit": 4})
    n = play_game(g, quick_policy(random.Random(seed), end_bias=0.3), max_actions=4000,
                  check=check_invariants if seed % 2 == 0 else None)
    assert g.over, f"seed {seed}: not over after {n} actions ({g.state.phase})"
    assert g.state.outcome is not None and g.state.phase == Phase.GAME_OVER
    check_invariants(g)
