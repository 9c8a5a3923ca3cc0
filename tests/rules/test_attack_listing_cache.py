"""issue 12 (speed): the attack listing's verdict cache (game.rules.families.attack) is a
cache in front of combat's allow check, per map, keyed on the two cards and their hexes;
it is used only while every hook the allow check can run reads nothing else
(``attack._pair_pure``).  Each test compares the cached listing with the rules asked
afresh (rulebook: Attack and Defense - Range, Line of Sight; Close Assault)."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.golden import golden_kit as gk
from tests.rules.engine_kit import at, position, quick_policy, rect_map, rifles, tank
from game.rules import abilities
from game.rules.actions import Attack
from game.rules.families import attack
from game.rules.state import Phase

MAP = rect_map(12, 8)


def _uncached_listing(g, monkeypatch):
    """The listing of a copy (fresh position caches) with the verdict cache off: the
    allow check asked for every target, as before the cache."""
    with monkeypatch.context() as m:
        m.setattr(attack, "_pair_pure", lambda state: False)
        return g.copy().legal_actions()


def _assault_game():
    g = position(MAP, phase=Phase.ASSAULT_FIRST)
    a = g.add_unit(rifles("Germany"), "Axis", at(2, 2))
    t = g.add_unit(tank("Germany"), "Axis", at(2, 5))
    e = g.add_unit(tank("United States"), "Allies", at(4, 4))
    s = g.add_unit(rifles("United States"), "Allies", at(5, 2))
    return g, a, t, e, s


def test_the_verdicts_follow_each_hex_they_key_on(monkeypatch):
    """Rulebook: Range - moving the attacker or the target (by hand, between two
    listings) out of range gives the answer of the rules asked afresh, and back."""
    g, a, t, e, s = _assault_game()
    assert attack._pair_pure(g.state)
    first = g.legal_actions()
    assert Attack("Axis", a.uid, s.uid) in first
    s.hex = at(11, 7)                   # far away: out of a rifle's range
    moved = g.legal_actions()
    assert Attack("Axis", a.uid, s.uid) not in moved
    assert moved == _uncached_listing(g, monkeypatch)
    s.hex = at(5, 2)
    assert g.legal_actions() == first
    a.hex = at(11, 0)
    assert g.legal_actions() == _uncached_listing(g, monkeypatch)


def test_a_hook_that_reads_the_state_turns_the_cache_off(monkeypatch):
    """Abilities trump rules: a hook at ``can_attack`` the cache knows nothing of (here
    one that reads a state option) makes the listing ask the allow check every time,
    so it follows the option."""
    g, a, t, e, s = _assault_game()
    g.legal_actions()                   # the verdicts are cached now

    def _no_attacks(value, ab, ctx):
        return "held fire" if ctx["state"].options.get("hold_fire") else value

    abilities.register("can_attack", None)(_no_attacks)
    try:
        assert not attack._pair_pure(g.state)
        g.state.options["hold_fire"] = True
        g.state.touch()
        assert not [x for x in g.legal_actions() if isinstance(x, Attack)]
        g.state.options["hold_fire"] = False
        g.state.touch()
        assert g.legal_actions() == _uncached_listing(g, monkeypatch)
        assert [x for x in g.legal_actions() if isinstance(x, Attack)]
    finally:
        abilities.unregister(_no_attacks)
    assert attack._pair_pure(g.state)


def _compare_game(seed, mp, *, pure=None):
    import random
    game, _ = gk.random_game(seed, stop_after=0)
    if pure is not None:
        assert attack._pair_pure(game.state) is pure
    choose = quick_policy(random.Random(seed), 0.3)
    n = 0
    while not game.over and n < 400:
        if game.state.phase.is_assault and game.state.pending is None:
            assert game.legal_actions() == _uncached_listing(game, mp), (seed, n)
        game.apply(choose(game))
        n += 1


@pytest.mark.parametrize("seed", [0, 3, 10, 11])
def test_games_where_the_cache_is_on_list_the_same_attacks_cached_and_afresh(seed, monkeypatch):
    """The golden seeds whose armies have only hooks the cache covers (the sample
    armies and some random ones): at every assault-phase position the cached listing
    equals, in order and content, the listing with every allow check asked afresh."""
    _compare_game(seed, monkeypatch, pure=True)


@settings(max_examples=8, deadline=None, derandomize=True)
@given(st.integers(min_value=0, max_value=10**6))
def test_random_games_list_the_same_attacks_cached_and_afresh(seed):
    """Any golden-style game (the sample armies or random ones from the whole roster,
    the cache on or off): the same listing cached and afresh."""
    mp = pytest.MonkeyPatch()
    try:
        _compare_game(seed, mp)
    finally:
        mp.undo()
