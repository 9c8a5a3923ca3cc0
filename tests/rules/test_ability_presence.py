"""The registry's per-state view of the abilities (game.rules.abilities): a hook that
belongs to an ability runs only while a unit with that ability is in the battle
(rulebook: Special Abilities - an ability acts through the unit that has it), and the
speed caches in front of that rule notice every change of the battle's units."""
import pytest

from tests.rules.engine_kit import at, position, rect_map, rifles
from tests.rules.test_engine_hooks import hook  # noqa: F401  (the registry fixture)
from game.rules import abilities, combat
from game.rules.actions import Move
from game.rules.state import Phase, Unit

MAP = rect_map(10, 5)


def test_a_requires_hook_runs_only_while_a_unit_has_the_ability(hook):
    calls = []

    @hook("speed", requires="x_drill")
    def drill(value, ability, ctx):
        calls.append(ctx["unit"].uid)
        return value + 1

    g = position(MAP)
    u = g.add_unit(rifles(speed=1), "Axis", at(1, 2))
    st = g.state
    assert abilities.apply("speed", 1, state=st, unit=u, phase=st.phase) == 1
    assert calls == [] and "speed" not in abilities.live_points(st)
    # a unit with the ability joins the battle (even off the map): the hook runs
    g.add_unit(rifles(abilities=("x_drill",)), "Axis", at(5, 2))
    assert abilities.apply("speed", 1, state=st, unit=u, phase=st.phase) == 2
    assert calls == [u.uid]
    # a call without a state never runs it
    assert abilities.apply("speed", 1, unit=u, phase=st.phase) == 1


def test_a_unit_swapped_in_under_the_same_id_is_noticed(hook):
    """The per-state entry is checked against the unit objects themselves: replacing a
    unit by hand (same dict, same number of units) changes which hooks run."""
    @hook("speed", requires="x_drill")
    def drill(value, ability, ctx):
        return value + 1

    g = position(MAP)
    u = g.add_unit(rifles(speed=1), "Axis", at(1, 2))
    other = g.add_unit(rifles(speed=1), "Allies", at(8, 2))
    st = g.state
    assert abilities.apply("speed", 1, state=st, unit=u, phase=st.phase) == 1
    st.units[other.uid] = Unit(other.uid, rifles(abilities=("x_drill",)), "Allies", at(8, 2))
    assert abilities.apply("speed", 1, state=st, unit=u, phase=st.phase) == 2
    st.units[other.uid] = other
    assert abilities.apply("speed", 1, state=st, unit=u, phase=st.phase) == 1


def test_an_aura_sees_the_unit_objects_now_in_the_state(hook):
    seen = []

    @hook("speed", "x_banner", scope="any")
    def banner(value, ability, ctx):
        seen.append([s[0] for s in ctx["sources"]])
        return value

    g = position(MAP)
    flag = g.add_unit(rifles(abilities=("x_banner",)), "Axis", at(1, 1))
    u = g.add_unit(rifles(), "Axis", at(3, 3))
    st = g.state
    abilities.apply("speed", 1, state=st, unit=u, phase=st.phase)
    twin = Unit(flag.uid, flag.card, "Axis", at(2, 1))     # an equal card, a new object
    st.units[flag.uid] = twin
    abilities.apply("speed", 1, state=st, unit=u, phase=st.phase)
    assert seen[0][0] is flag and seen[1][0] is twin


def test_may_refuse_counts_only_the_hooks_that_can_run_in_the_state(hook):
    @hook("action_allowed", requires="x_veto")
    def veto(reason, ability, ctx):
        return reason if reason is not None else "vetoed"

    g = position(MAP)
    u = g.add_unit(rifles(speed=2), "Axis", at(1, 2))
    st = g.state
    assert abilities.may_refuse("action_allowed", u)            # no state: it might
    assert not abilities.may_refuse("action_allowed", u, st)
    assert any(isinstance(a, Move) for a in g.legal_actions())
    g.add_unit(rifles(abilities=("x_veto",)), "Allies", at(8, 2))
    assert abilities.may_refuse("action_allowed", u, st)
    assert not [a for a in g.legal_actions() if getattr(a, "uid", None) == u.uid]


def test_lifts_only_requires_hooks_never_make_the_listing_filter_run(hook):
    @hook("action_allowed", requires="x_lift", lifts_only=True)
    def lift(reason, ability, ctx):
        return reason

    g = position(MAP)
    u = g.add_unit(rifles(abilities=("x_lift",)), "Axis", at(1, 2))
    assert not abilities.may_refuse("action_allowed", u, g.state)


def test_an_attack_sees_a_defense_aura_once_its_holder_joins(hook):
    """Rulebook: Attack and Defense - the target's defense, here changed by an aura
    that only counts while its holder is in the battle (the attack's hook points are
    cached per pair of cards and set of abilities present)."""
    @hook("defense", requires="x_wall")
    def wall(value, ability, ctx):
        return value + 2

    g = position(MAP, phase=Phase.ASSAULT_FIRST)
    a = g.add_unit(rifles(), "Axis", at(2, 2))
    t = g.add_unit(rifles(), "Allies", at(4, 2))
    st = g.state
    before = combat.plan_attack(st, a.uid, t.uid).defense
    g.add_unit(rifles(abilities=("x_wall",)), "Allies", at(8, 4))
    assert combat.plan_attack(st, a.uid, t.uid).defense == before + 2
    assert "defense" in abilities.live_points(st)


def test_requires_is_for_rule_hooks_only():
    with pytest.raises(ValueError, match="rule-level"):
        abilities.register("speed", "x_drill", requires="x_drill")
