"""issue 12 (speed): ``apply`` skips its check only for an action that *is* one of the
objects ``legal_actions`` listed for the position (game.rules.caches.PositionCaches.listed,
which looks a unit's action up among that unit's listed actions only).  Ruling 7 (one
activation per phase): an equal action built anew is checked, and refused when illegal."""
import copy
import random

import pytest

from tests.golden import golden_kit as gk
from tests.rules.engine_kit import quick_policy
from game.rules.errors import IllegalAction


@pytest.mark.parametrize("seed", [0, 1, 3, 4])
def test_every_listed_object_is_known_and_no_copy_is(seed):
    game, _ = gk.random_game(seed, stop_after=0)
    choose = quick_policy(random.Random(seed), 0.3)
    n = 0
    while not game.over and n < 300:
        acts = game.legal_actions()
        c, st = game._caches, game.state
        assert all(c.listed(st, a) for a in acts), (seed, n)
        for a in acts[:: max(1, len(acts) // 7)]:
            assert not c.listed(st, copy.copy(a)), (seed, n, a)
        game.apply(choose(game))
        n += 1


def test_a_copy_of_a_listed_action_is_checked_and_refused_once_the_unit_has_acted():
    """Ruling 7: after a unit's move, the very same move built anew is checked (not
    taken for a listed object) and refused: the unit has acted."""
    game, _ = gk.random_game(3, stop_after=0)
    choose = quick_policy(random.Random(3), 0.3)
    from game.rules.actions import Move
    for _ in range(2000):
        if game.over:
            break
        a = choose(game)
        if isinstance(a, Move) and a.path:
            again = copy.copy(a)
            game.apply(a)
            if game.state.pending is None and game.state.units[a.uid].acted:
                with pytest.raises(IllegalAction):
                    game.apply(again)
                return
        else:
            game.apply(a)
    pytest.fail("no move was played")
