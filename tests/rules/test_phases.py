"""The Sequence of Play as a table (game.rules.phases; rulebook: Sequence of Play):
the engine advances only from it, and each action kind has one rule object
(game.rules.families)."""
import random

from tests.rules.engine_kit import AXIS_ARMY, ALLIED_ARMY, quick_policy, rect_map
from game.rules import families, phases
from game.rules.actions import ACTION_TYPES
from game.rules.dice import Dice
from game.rules.engine import new_game
from game.rules.events import PhaseBegan
from game.rules.state import Phase


def test_every_phase_has_a_row_and_every_action_kind_a_rule():
    assert set(phases.PHASES) | set(phases.TABLES["later"]) == set(Phase)
    assert set(families.RULES) == set(ACTION_TYPES.values())
    for sp in phases.PHASES.values():
        for k in sp.kinds:
            assert k in families.RULES, (sp.phase, k)


def test_a_game_walks_the_phase_table():
    """rulebook: Sequence of Play - every phase a game enters is what the table says
    comes after the previous one (initiative, both movement phases, both assault
    phases, casualty, end of turn, next turn)."""
    g = new_game(rect_map(10, 7), {"Axis": AXIS_ARMY, "Allies": ALLIED_ARMY},
                 dice=Dice(3), options={"turn_limit": 3})
    rng = random.Random(3)
    choose = quick_policy(rng, 0.7)
    seen = [g.state.phase]
    while not g.over:
        for e in g.apply(choose(g)):
            if isinstance(e, PhaseBegan):
                seen.append(Phase(e.phase))
    seen.append(Phase.GAME_OVER)
    for a, b in zip(seen, seen[1:]):
        if b == Phase.GAME_OVER:
            assert a == Phase.END_OF_TURN or a == Phase.INITIATIVE
            continue
        st = g.state
        st.scenario = "standard"
        assert phases.PHASES[a].next(st) == b, (a, b)
    assert Phase.ASSAULT_SECOND in seen and Phase.CASUALTY in seen


def test_the_facade_stays_thin():
    """issue 12: Game is a façade of about 300 lines; the rules live in their modules."""
    from pathlib import Path
    import game.rules.engine as engine
    assert len(Path(engine.__file__).read_text(encoding="utf-8").splitlines()) <= 330
    src = Path(engine.__file__).read_text(encoding="utf-8")
    assert "Phase.MOVEMENT_SECOND" not in src and "def _do_" not in src
