"""issue 12: ``Game`` is the thin façade of the rules - its query methods give exactly
what game.rules.queries and game.rules.threat give (the UI and AI may call either),
and its caches (game.rules.caches and the rule modules' own) only ever remember what
the one rule of each family said: a changed position is never answered from an old
one."""
import pytest

from tests.golden import golden_kit as gk
from tests.rules.engine_kit import at, position, rect_map, rifles, tank
from game.rules import abilities, combat, movement, queries, threat
from game.rules.actions import Attack, EndPhase, Move
from game.rules.errors import IllegalAction
from game.rules.families import moving
from game.rules.state import Phase

E, NE, NW, W, SW, SE = range(6)
MAP = rect_map(12, 8)


def _df_prompt():
    """Ruling 14: a tank stepping past an enemy gun provokes defensive fire."""
    g = position(MAP, dice=[1] * 40, first="Allies")
    mover = g.add_unit(tank("United States", name="Sherman"), "Allies", at(5, 4).neighbor(NE))
    gun = g.add_unit(tank("Germany", name="Panzer"), "Axis", at(5, 4), facing=E)
    g.apply(Move("Allies", mover.uid, (at(5, 4).neighbor(NW),), W))
    assert g.state.pending is not None
    return g, mover, gun


def test_facade_defensive_fire_options_are_the_queries_answer():
    """Ruling 14 (defensive fire at the leave / enter stage): the façade's options at
    the prompt equal queries.defensive_fire_options, and asking changes nothing."""
    g, mover, gun = _df_prompt()
    before = g.state_hash()
    opts = g.defensive_fire_options()
    assert opts == queries.defensive_fire_options(g)
    assert [o.uid for o in opts] == [gun.uid] and opts[0].here.legal
    assert g.state_hash() == before


def test_facade_unit_options_and_odds_queries_delegate():
    """Ruling 7 (one activation per phase) for unit_options; the hypothetical odds,
    best attack, threat and path risk are threat.py's answers, abilities included."""
    g = position(MAP, phase=Phase.ASSAULT_FIRST)
    pz = g.add_unit(tank("Germany"), "Axis", at(3, 4), facing=E)
    us = g.add_unit(rifles("United States"), "Allies", at(6, 4))
    assert g.unit_options(pz.uid) == queries.unit_options(g, pz.uid)
    assert any(isinstance(a, Attack) for a in g.unit_options(pz.uid).actions)
    o = g.hypothetical_odds(pz.uid, us.uid, from_hex=at(5, 4))
    assert o == threat.hypothetical_odds(g, pz.uid, us.uid, from_hex=at(5, 4))
    assert g.best_attack(pz.uid, us.uid) == threat.best_attack(g, pz.uid, us.uid)
    assert g.threat_to(us.uid) == threat.threat_to(g, us.uid)
    with pytest.raises(IllegalAction):
        g.hypothetical_odds(pz.uid, us.uid, from_hex=at(3, 4), target_hex=at(3, 4).neighbor(E),
                            mode="close_assault")
    g2 = position(MAP)
    t = g2.add_unit(tank("Germany"), "Axis", at(2, 2))
    g2.add_unit(tank("United States"), "Allies", at(5, 2), facing=W)
    mv = next(a for a in g2.legal_actions() if isinstance(a, Move) and a.uid == t.uid and a.path)
    assert g2.path_risk(mv) == threat.path_risk(g2, mv)


def test_a_hand_changed_position_is_listed_afresh():
    """Rulebook: Stacking (two friendly units per hex): a unit put next to a hex by hand
    (no apply) changes the listing at once - the caches key on the position."""
    g = position(MAP)
    a = g.add_unit(rifles("Germany"), "Axis", at(2, 2))
    b = g.add_unit(rifles("Germany"), "Axis", at(2, 4))
    c = g.add_unit(rifles("Germany"), "Axis", at(8, 2))
    ends = {m.path[-1] for m in g.legal_actions() if isinstance(m, Move) and m.uid == a.uid}
    target = min(ends)
    b.hex = target                      # by hand: the state's version is not bumped
    c.hex = target
    ends = {m.path[-1] for m in g.legal_actions() if isinstance(m, Move) and m.uid == a.uid}
    assert target not in ends
    assert "stacking" in g.check(Move("Axis", a.uid, (target,)))


def test_only_the_listed_objects_skip_the_check():
    """Ruling 7: an action listed for this very position is applied as listed; the same
    action after the position changed (its unit already acted) is checked and refused."""
    g = position(MAP)
    a = g.add_unit(rifles("Germany"), "Axis", at(2, 2))
    mv = next(m for m in g.legal_actions() if isinstance(m, Move) and m.uid == a.uid)
    g.apply(mv)
    assert a.acted
    again = Move("Axis", a.uid, (at(2, 2),))
    with pytest.raises(IllegalAction, match="already acted"):
        g.apply(again)
    stale = next(m for m in g.legal_actions() if isinstance(m, EndPhase))
    a.acted = False                     # by hand: a new position; the old list is stale
    assert g._caches.listed(g.state, stale) is False


def test_an_action_allowed_hook_refuses_unless_declared_lifts_only():
    """Abilities trump rules: an action_allowed hook that refuses is asked for every
    listed action; one declared lifts_only (never refuses a legal action) is skipped
    for them, and the registry re-indexes on every (un)registration."""
    g = position(MAP)
    g.add_unit(rifles("Germany"), "Axis", at(2, 2))
    plain = g.legal_actions()
    assert any(isinstance(a, Move) for a in plain)

    def no_moves(reason, ability, ctx):
        return reason or ("no moving today" if isinstance(ctx["action"], Move) else None)

    abilities.register("action_allowed")(no_moves)
    try:
        assert not any(isinstance(a, Move) for a in g.copy().legal_actions())
    finally:
        abilities.unregister(no_moves)

    def lifts(reason, ability, ctx):
        return reason

    abilities.register("action_allowed", lifts_only=True)(lifts)
    try:
        assert g.copy().legal_actions() == plain
        assert not abilities.may_refuse("action_allowed", g.state.units["axis-1"]) or \
            any(not h.lifts_only for h in abilities.HOOKS["action_allowed"])
    finally:
        abilities.unregister(lifts)
    assert g.copy().legal_actions() == plain


@pytest.mark.parametrize("i", [3, 11, 19, 27])
def test_the_caches_agree_with_the_rules_in_real_positions(i):
    """Rulebook: Stacking, Attack and Defense: in positions of real games, the cached
    stacking view, attack_allowed and the listing all equal the rules asked afresh
    (every movement-search and listing cache emptied)."""
    g = gk.perft_position(i)
    st = g.state
    table = movement.stacking_table(st)
    for u in st.units.values():
        friends, vehicles = movement.occupancy(st, u)
        assert movement.blocked_hexes(st, u, table) - {u.hex} == \
            frozenset(movement.stacking_blocked(u, friends, vehicles)) - {u.hex}
        for t in st.units.values():
            if u.on_map and t.on_map and t.uid != u.uid:
                assert combat.attack_allowed(st, u.uid, t.uid) == \
                    (combat.why_not_attack(st, u.uid, t.uid) is None)
    listed = g.legal_actions()
    graph = movement._graph(st.battle_map)
    for memo in (graph.cache, graph.prices, moving._LISTS, moving._MEMOS):
        memo.clear()
    fresh = g.copy()
    assert fresh.legal_actions() == listed
    for a in listed[:40]:
        assert fresh.check(a) is None, a
