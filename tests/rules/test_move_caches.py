"""issue 12 (speed): the movement listing's caches key on everything the rule they
serve reads - each test changes one input and checks the cached answer follows the
rules asked afresh (rulebook: Stacking; Speed and Movement; Vehicle Facing)."""
import itertools

import pytest

from tests.golden import golden_kit as gk
from tests.rules.engine_kit import at, position, rect_map, rifles, tank
from game.rules import abilities, movement
from game.rules.actions import Attack, Move
from game.rules.families import moving
from game.rules.hexes import Hex
from game.rules.state import Phase

MAP = rect_map(12, 8)


def _forget_everything():
    """Empty every movement and listing cache that outlives a position."""
    for bm in [MAP] + [gk.battle_map(n) for n in range(1, 7)]:
        g = movement._graph(bm)
        for memo in (g.cache, g.prices, g.rolls):
            memo.clear()
    for memo in (moving._LISTS, moving._MEMOS, moving._MOVES, moving._TOWARD,
                 movement._HOOK_POINTS, movement._PLAIN_TABLES):
        memo.clear()


def _fresh_listing(g):
    _forget_everything()
    return g.copy().legal_actions()


def _stacking_game():
    """Rulebook: Stacking - two friendly units per hex, one Vehicle per hex."""
    g = position(MAP)
    a = g.add_unit(rifles("Germany"), "Axis", at(2, 2))
    b = g.add_unit(rifles("Germany"), "Axis", at(4, 2))
    t = g.add_unit(tank("Germany"), "Axis", at(2, 5))
    e = g.add_unit(tank("United States"), "Allies", at(4, 4))
    s = g.add_unit(rifles("United States"), "Allies", at(9, 2))
    return g, a, b, t, e, s


@pytest.mark.parametrize("change", ["hex", "destroyed", "carrier", "side", "card"])
def test_the_kept_stacking_table_follows_each_field_it_reads(change):
    """Rulebook: Stacking: the façade keeps the last stacking table across positions
    only while no unit's uid, side, card, hex, destroyed or carrier changed; changing
    any one of them by hand gives a new table equal to the rule's, and the listing
    equals the one built with every cache emptied."""
    g, a, b, t, e, s = _stacking_game()
    st = g.state
    g.legal_actions()
    before = g._caches.stacking_table(st)
    if change == "hex":
        b.hex = at(3, 2)
    elif change == "destroyed":
        e.destroyed = True
    elif change == "carrier":
        a.hex, a.carrier = t.hex, t.uid          # boarded passengers don't count
    elif change == "side":
        s.side = "Axis"
    else:
        e.card = tank("United States", name="Sherman", speed=3)
    after = g._caches.stacking_table(st)
    assert after is not before
    fresh = movement.stacking_table(st)
    assert (after.friends, after.vehicles, after.counted) == \
        (fresh.friends, fresh.vehicles, fresh.counted)
    assert g.legal_actions() == _fresh_listing(g)


def test_the_stacking_table_is_kept_while_nothing_it_reads_changes():
    """Rulebook: Stacking depends on where units are, not on their facing, counters
    or the phase: a new position that changed only those keeps the same table."""
    g, a, b, t, e, s = _stacking_game()
    st = g.state
    g.legal_actions()
    before = g._caches.stacking_table(st)
    t.facing = 3
    a.disrupted = True
    st.touch()
    assert g._caches.stacking_table(st) is before
    assert g.legal_actions() == _fresh_listing(g)
    st.units = dict(st.units)                   # a restored state: another units dict
    assert g._caches.stacking_table(st) is not before


def test_a_moved_friend_changes_only_the_listings_it_reaches():
    """Rulebook: Stacking (checked where a move ends): the bit-mask key of the search
    results follows the closed hexes - two friends in a hex close it to a third."""
    g, a, b, t, e, s = _stacking_game()
    ends = {m.path[-1] for m in g.legal_actions() if isinstance(m, Move) and m.uid == a.uid}
    assert at(3, 2) in ends
    c = g.add_unit(rifles("Germany"), "Axis", at(3, 2))
    g.state.touch()
    ends = {m.path[-1] for m in g.legal_actions() if isinstance(m, Move) and m.uid == a.uid}
    assert at(3, 2) in ends                      # one friend: still open
    b.hex = at(3, 2)
    g.state.touch()
    listing = g.legal_actions()
    ends = {m.path[-1] for m in listing if isinstance(m, Move) and m.uid == a.uid}
    assert at(3, 2) not in ends                  # two friends: closed
    assert listing == _fresh_listing(g)
    del c


@pytest.mark.parametrize("i", [2, 9, 16, 23])
def test_the_bit_mask_search_answers_equal_the_closed_hexes(i):
    """Rulebook: Stacking: in positions of real games every hex of every unit's
    search may be stopped in exactly when it is not among the hexes stacking closes
    to it (blocked_hexes), with or without the position's table."""
    g = gk.perft_position(i)
    st = g.state
    table = movement.stacking_table(st)
    for u in st.units.values():
        if not u.on_map:
            continue
        with_table = movement.reachable(st, u.uid, table=table)
        assert with_table == movement.reachable(st, u.uid)
        closed = movement.blocked_hexes(st, u, table)
        for h, r in with_table.items():
            assert r.stops == (h not in closed), (u.uid, h)


def test_facing_toward_reads_only_the_difference_of_the_hexes():
    """Rulebook: Vehicle Facing (the listed facing points most nearly at the nearest
    enemy): the memo on (dq, dr) gives the formula's answer from any hex."""
    moving._TOWARD.clear()
    for dq, dr in itertools.product(range(-12, 13), repeat=2):
        want = moving._toward(dq, dr)
        for a in (Hex(0, 0), Hex(5, -3), Hex(-7, 9)):
            assert moving.facing_toward(a, Hex(a.q + dq, a.r + dr)) == want


def test_enemy_tokens_follow_the_enemies_hexes():
    """Rulebook: Vehicle Facing: a Vehicle's listed facings are remembered per set of
    enemy hexes; the same hexes give the same token, a moved enemy a new one, and a
    moved enemy changes the listed facings as the rules say."""
    g, a, b, t, e, s = _stacking_game()
    hexes, tok = moving.enemy_hexes(g, "Axis")
    assert hexes == (e.hex, s.hex)
    g.state.touch()
    assert moving.enemy_hexes(g, "Axis")[1] == tok
    e.hex = at(1, 7)
    g.state.touch()
    hexes2, tok2 = moving.enemy_hexes(g, "Axis")
    assert hexes2 == (at(1, 7), s.hex) and tok2 != tok
    assert g.legal_actions() == _fresh_listing(g)


def test_hook_relevance_follows_the_registry():
    """Abilities trump rules: the per-card relevance of movement hooks is cached per
    registry generation, so a hook registered later is asked at once."""
    g = position(MAP)
    u = g.add_unit(rifles("Germany", abilities=("test_sprint",)), "Axis", at(2, 2))
    plain = g.reachable(u.uid)
    assert at(5, 2) not in plain

    def sprint(value, ability, ctx):
        return value + 3

    abilities.register("speed", "test_sprint")(sprint)
    try:
        assert at(5, 2) in g.copy().reachable(u.uid)

        def shrink(result, ability, ctx):
            return {h: r for h, r in result.items() if h != at(3, 2)}

        abilities.register("reach", "test_sprint")(shrink)
        try:
            got = g.copy().reachable(u.uid)
            assert at(3, 2) not in got and at(5, 2) in got
        finally:
            abilities.unregister(shrink)
    finally:
        abilities.unregister(sprint)
    assert g.copy().reachable(u.uid) == plain


def test_speed_and_can_move_hooks_are_skipped_only_while_none_can_run():
    """Rulebook: Speed and Movement (abilities trump rules): a unit's speed and whether
    it may move skip the hook calls only while no hook at ``speed`` / ``can_move`` can
    run in this battle - a rule hook that ``requires`` an ability runs as soon as a
    holder joins, for every unit."""
    g = position(MAP)
    u = g.add_unit(rifles("Germany"), "Axis", at(2, 2))
    base = g.state.units[u.uid].current_speed
    assert movement.movement_speed(g.state, g.state.units[u.uid]) == base
    assert movement.move_problem(g.state, g.state.units[u.uid]) is None

    def sprint(value, ability, ctx):
        return value + 3

    def halt(value, ability, ctx):
        return "held by the test rule"

    abilities.register("speed", requires="test_rule_holder")(sprint)
    abilities.register("can_move", requires="test_rule_holder")(halt)
    try:
        st = g.state
        assert movement.movement_speed(st, st.units[u.uid]) == base
        assert movement.move_problem(st, st.units[u.uid]) is None
        g.add_unit(rifles("United States", abilities=("test_rule_holder",)), "Allies", at(9, 2))
        st = g.state
        assert movement.movement_speed(st, st.units[u.uid]) == base + 3
        assert movement.move_problem(st, st.units[u.uid]) == "held by the test rule"
        assert g.copy().reachable(u.uid) == {}
    finally:
        abilities.unregister(sprint)
        abilities.unregister(halt)
    assert movement.movement_speed(g.state, g.state.units[u.uid]) == base


def test_moves_are_shared_only_between_equal_answers():
    """Ruling 7 (one activation, one listed move per hex): the Move objects a listing
    reuses are equal to the ones the rule builds, unit by unit."""
    g, a, b, t, e, s = _stacking_game()
    listed = [m for m in g.legal_actions() if isinstance(m, Move)]
    for m in listed:
        u = g.state.units[m.uid]
        if m.path:
            r = g.reachable(m.uid)[m.path[-1]]
            assert m == Move(u.side, u.uid, r.path, m.facing)
    assert listed == [m for m in _fresh_listing(g) if isinstance(m, Move)]


def test_an_attack_keeps_the_stacking_table():
    """Rulebook: Attack (no unit moves): the assault phase's positions after an
    attack share the stacking table; the listing still equals the fresh one."""
    g = position(MAP, phase=Phase.ASSAULT_FIRST, dice=[6] * 60)
    pz = g.add_unit(tank("Germany"), "Axis", at(3, 4), facing=0)
    g.add_unit(tank("Germany", name="Panzer II"), "Axis", at(3, 6), facing=0)
    g.add_unit(rifles("United States"), "Allies", at(6, 4))
    g.legal_actions()
    before = g._caches.stacking_table(g.state)
    attack = next(a for a in g.legal_actions() if isinstance(a, Attack) and a.uid == pz.uid)
    g.apply(attack)
    if not g.state.units[attack.target].destroyed:
        assert g._caches.stacking_table(g.state) is before
    assert g.legal_actions() == _fresh_listing(g)


def test_a_vehicle_ending_in_the_only_enemys_hex_faces_along_its_own_last_step():
    """Rulebook: Vehicle Facing (the listed facing points at the nearest enemy; with
    no enemy outside the end hex, along the move's last step): the answer is each
    Vehicle's own, not one remembered from another Vehicle's path to that hex (the
    facing memo keys on the hex and the enemies only, so it keeps only the
    enemy-based answer)."""
    g = position(MAP)
    a = g.add_unit(tank("Germany"), "Axis", at(2, 4), facing=0)      # comes from the W
    b = g.add_unit(tank("Germany", name="Panzer II"), "Axis", at(4, 6), facing=0)
    g.add_unit(rifles("United States"), "Allies", at(4, 4))             # the only enemy
    target = at(4, 4)

    def listed(g, uid):
        return next(m for m in g.legal_actions()
                    if isinstance(m, Move) and m.uid == uid and m.path and m.path[-1] == target)

    first_a, first_b = listed(g, a.uid), listed(g, b.uid)
    for m in (first_a, first_b):
        last = m.path[-2] if len(m.path) > 1 else g.state.units[m.uid].hex
        assert m.facing == next(d for d in range(6) if last.neighbor(d) == target)
    a.acted = True                              # only b is listed now
    assert listed(g, b.uid).facing == first_b.facing
