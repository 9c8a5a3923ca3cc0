"""Property test: random legal games never raise, never break stacking or terrain
rules, keep counters consistent, and always end decided (win or declared draw).
The thousands-of-games version is bench/engine_bench.py."""
import random

import pytest

from tests.rules.engine_kit import (check_invariants, halftrack, officer, play_game,
                                    quick_policy, rect_map, rifles, tank)
from game.rules.dice import Dice
from game.rules.engine import new_game
from game.rules.state import Phase

SMALL = rect_map(10, 7, {(4, 2): "forest", (5, 3): "hill", (3, 4): "marsh", (6, 5): "pond",
                         (4, 4): "town", (6, 1): "forest"},
                 roads=[((c, 3), (c + 1, 3)) for c in range(0, 9)],
                 streams=[((5, 0), (6, 0)), ((5, 1), (6, 1)), ((6, 4), (7, 4))],
                 bridges=[((5, 3), (6, 3))], objective=(5, 3))

AXIS = [tank("Germany", name="Panzer", speed=3), rifles("Germany"),
        halftrack("Germany"), officer("Germany")]
ALLIES = [tank("United States", name="Sherman", speed=3), rifles("United States"),
          rifles("United States", speed=2, name="Rangers"),
          rifles("United States", abilities=("bridge_demolition",), name="Engineers")]

GAMES = 200


@pytest.mark.parametrize("block", range(4))
def test_random_games_keep_the_invariants(block):
    per = GAMES // 4
    for seed in range(block * per, (block + 1) * per):
        scenario = "assault" if seed % 5 == 0 else "standard"
        g = new_game(SMALL, {"Axis": AXIS, "Allies": ALLIES}, scenario=scenario,
                     dice=Dice(seed), options={"turn_limit": 14})
        rng = random.Random(seed)
        play_game(g, quick_policy(rng, end_bias=0.6), max_actions=5000, check=check_invariants)
        assert g.over, f"seed {seed}: not over after 5000 actions ({g.state.phase})"
        assert g.state.outcome is not None and g.state.phase == Phase.GAME_OVER
        check_invariants(g)


@pytest.mark.parametrize("config,scenario", [(1, "standard"), (4, "assault")])
def test_random_game_on_a_real_configuration_with_the_sample_armies(config, scenario):
    """The same invariants with the real roster (every sample-army ability) on a real
    171-hex configuration."""
    from game.data.armies import sample_army
    from game.data.maps import load_configuration
    bm = load_configuration(config)
    armies = {s: sample_army(s).cards for s in ("Axis", "Allies")}
    g = new_game(bm, armies, scenario=scenario, dice=Dice(config), options={"turn_limit": 12})
    play_game(g, quick_policy(random.Random(config), end_bias=0.5), max_actions=5000,
              check=check_invariants)
    assert g.over and g.state.outcome is not None
