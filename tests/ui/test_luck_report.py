"""Luck report (issue 17), the computation: game/analysis/luck.py replays a game's
history and adds up the rules' exact odds of every attack and defensive shot.
Checked here against a simulation of the same shots (expected hits = the sum of the
exact expectations), against the log (actual hits), and on small exact cases."""
import math
import random

import pytest

from game.analysis.luck import Shot, convolve, luck_report, one_in, report_of_shots, tail
from game.rules.actions import Attack, DefensiveFire
from game.rules.combat import resolve_attack
from game.rules.dice import Dice
from game.rules.engine import Game
from game.rules.events import HitsScored


def played_game(seed=5, turns=3, config=1):
    """A short Recruit-against-Recruit battle, played to its end."""
    from game.ai.arena import _armies
    from game.ai.base import make_player
    from game.data.maps import load_configuration
    from game.data.units import load_roster
    from game.rules.engine import new_game
    roster = list(load_roster().values())
    game = new_game(load_configuration(config), _armies(roster, "standard", seed, None),
                    dice=Dice(seed), options={"turn_limit": turns})
    players = {"Axis": make_player("recruit", seed + 1), "Allies": make_player("recruit", seed + 2)}
    while not game.over:
        game.apply(players[game.state.to_act].choose(game))
    return game


@pytest.fixture(scope="module")
def game():
    return played_game()


def test_luck_expected_hits_match_a_simulation_of_the_same_shots(game):
    """Expected hits = sum over the shots of the exact expectations: rolling every shot
    of the battle again 200 times from its own position (the rules' real attack code,
    other dice) gives the same totals per side within 4 standard errors."""
    report = luck_report(game)
    assert report.shots and report.unrated == 0
    n = 200
    sim = {"Axis": 0.0, "Allies": 0.0}
    var = {"Axis": 0.0, "Allies": 0.0}
    state0, dice0 = game.origin[0], game.origin[1]
    g = Game(state0.copy(), dice0.copy())
    dice = Dice(99)
    i = 0
    for action in game.history:
        if isinstance(action, (Attack, DefensiveFire)):
            st = g.state.copy()
            kw = {"mode": action.mode} if isinstance(action, Attack) else {}
            target = action.target if isinstance(action, Attack) else st.pending.mover
            if isinstance(action, DefensiveFire):
                p = st.pending
                kw = {"defensive": True, "at_hex": p.at_hex, "facing": st.units[p.mover].facing}
            # one shot per roll (Double Shot rolls twice from the same position)
            while i < len(report.shots) and (report.shots[i].attacker,
                                             report.shots[i].target) == (action.uid, target):
                shot = report.shots[i]
                i += 1
                total = 0
                for _ in range(n):      # each roll on its own copy (a result may remove a unit)
                    ev = resolve_attack(st.copy(), action.uid, target, dice, **kw)
                    total += sum(e.hits for e in ev if isinstance(e, HitsScored))
                side = st.units[action.uid].side
                sim[side] += total / n
                mean = shot.expected_hits
                var[side] += sum((k - mean) ** 2 * p for k, p in enumerate(shot.p_hits)) / n
        g.apply(action)
    assert i == len(report.shots)
    for side in ("Axis", "Allies"):
        d = report.sides[side]
        assert d.shots > 0
        assert abs(sim[side] - d.expected_hits) < 4 * math.sqrt(var[side]) + 1e-9, side
        # the per-turn series ends at the totals
        assert d.series[-1].expected_hits == pytest.approx(d.expected_hits)
        assert d.series[-1].hits == d.hits


def test_luck_actual_hits_are_the_hits_in_the_log(game):
    report = luck_report(game)
    logged = {"Axis": 0, "Allies": 0}
    for e in game.log:
        if isinstance(e, HitsScored) and e.by is not None:
            logged[game.state.units[e.by].side] += e.hits
    assert {s: report.sides[s].hits for s in logged} == logged
    assert sum(d.shots for d in report.sides.values()) == len(report.shots)


def test_luck_differences_average_out_over_many_games():
    """Over several battles, actual minus expected (hits and disruptions) is centred on
    zero: within 4 standard deviations of the exact distributions."""
    diff_h = var_h = diff_r = var_r = 0.0
    for seed in (11, 12, 13):
        r = luck_report(played_game(seed=seed, turns=2, config=1 + seed % 6))
        for s in r.shots:
            m = s.expected_hits
            diff_h += s.hits - m
            var_h += sum((k - m) ** 2 * p for k, p in enumerate(s.p_hits))
            diff_r += int(s.result) - s.p_result
            var_r += s.p_result * (1 - s.p_result)
    assert abs(diff_h) < 4 * math.sqrt(var_h)
    assert abs(diff_r) < 4 * math.sqrt(var_r)


def _shot(side, p_hits, hits, p_result, result, turn=1):
    return Shot(turn, side, "a", "b", "A", "B", False, tuple(p_hits), p_result, hits, result)


def test_luck_exact_distribution_and_how_unlikely():
    assert convolve([0.5, 0.5], [0.5, 0.5]) == [0.25, 0.5, 0.25]
    shots = [_shot("Axis", (0.5, 0.5), 1, 0.5, True),
             _shot("Axis", (0.5, 0.5), 1, 0.5, True, turn=2),
             _shot("Allies", (0.0, 0.0, 1.0), 2, 0.25, False, turn=2)]
    r = report_of_shots(shots)
    ax, al = r.sides["Axis"], r.sides["Allies"]
    assert (ax.expected_hits, ax.hits, ax.shots) == (1.0, 2, 2)
    assert ax.hits_tail == pytest.approx(0.25)          # both hit: 1 in 4
    assert ax.results_tail == pytest.approx(0.25)
    assert al.hits_tail == pytest.approx(1.0)           # a sure thing is not luck
    assert al.results_tail == pytest.approx(0.75)       # below: P(X <= 0)
    assert r.turns == [1, 2]
    assert [(p.turn, p.expected_hits, p.hits) for p in ax.series] == [(1, 0.5, 1), (2, 1.0, 2)]
    assert [(p.turn, p.hits) for p in al.series] == [(1, 0), (2, 2)]
    assert tail([0.1, 0.2, 0.7], 0, 1.6) == pytest.approx(0.1)
    assert one_in(0.5) == "50%" and one_in(0.01) == "about 1 in 100"
    assert "fewer than expected" in al.lines()[2]


def test_luck_needs_a_recorded_start():
    from tests.rules.engine_kit import position, rect_map
    g = position(rect_map(6, 6))
    with pytest.raises(ValueError):
        luck_report(g)
