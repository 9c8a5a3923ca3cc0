"""The ability hook registry (game.rules.abilities) and the engine's hook points
("Abilities Trump Rules")."""
import pytest

from tests.rules.engine_kit import at, officer, position, rect_map, rifles, tank
from game.rules import abilities
from game.rules.actions import Move
from game.rules.hexes import Hex
from game.rules.state import Phase

MAP = rect_map(10, 5)


@pytest.fixture
def hook():
    """Register hooks for one test and remove them afterwards."""
    made = []

    def reg(point, ability_id=None, scope="self"):
        def deco(fn):
            abilities.register(point, ability_id, scope=scope)(fn)
            made.append(fn)
            return fn
        return deco
    yield reg
    for fn in made:
        abilities.unregister(fn)


def test_unknown_point_is_refused():
    with pytest.raises(ValueError, match="unknown hook point"):
        abilities.register("no_such_point", "x")


def test_hook_runs_only_for_units_with_the_ability(hook):
    @hook("speed", "fast")
    def fast(value, ability, ctx):
        return value + ability.value

    g = position(MAP)
    quick = g.add_unit(rifles(speed=1, abilities=(("fast", 2),)), "Axis", at(1, 2))
    slow = g.add_unit(rifles(speed=1), "Axis", at(1, 3))
    assert at(4, 2) in g.reachable(quick.uid) and at(5, 2) not in g.reachable(quick.uid)
    assert at(3, 3) not in g.reachable(slow.uid)


def test_move_cost_and_can_enter_hooks(hook):
    @hook("can_enter", "amphibious")
    def swim(value, ability, ctx):
        return True if ctx["terrain"].value == "pond" else value

    @hook("move_cost", "forest_runner")
    def runner(value, ability, ctx):
        return 1 if ctx["terrain"].value == "forest" else value

    bm = rect_map(10, 1, {(2, 0): "pond", (5, 0): "forest"})
    g = position(bm)
    boat = g.add_unit(rifles(speed=2, abilities=("amphibious",)), "Axis", at(1, 0))
    assert at(2, 0) in g.reachable(boat.uid)
    t = g.add_unit(tank(speed=2, abilities=("forest_runner",)), "Axis", at(4, 0))
    assert g.reachable(t.uid)[at(6, 0)].cost == 2


def test_aura_hook_sees_every_source_once(hook):
    """scope='any': commander auras run once per ability id with every source, so
    same-named abilities don't add up (rulebook: Special Abilities of the Same Name)."""
    calls = []

    @hook("initiative_bonus", "inspiring", scope="any")
    def inspiring(value, ability, ctx):
        calls.append(len(ctx["sources"]))
        return value

    g = position(MAP)
    g.add_unit(officer(abilities=("inspiring",)), "Axis", at(1, 1))
    g.add_unit(officer(abilities=("inspiring",)), "Axis", at(1, 2))
    g.initiative_bonus("Axis")
    assert calls and set(calls) == {2}


def test_provokes_defensive_fire_hook(hook):
    @hook("provokes_defensive_fire", "stealthy")
    def stealthy(value, ability, ctx):
        return False if ctx["role"] == "mover" else value

    g = position(MAP)
    f = Hex(4, 2)
    m = g.add_unit(rifles(speed=2, abilities=("stealthy",)), "Axis", f.neighbor(3))
    g.add_unit(rifles("United States"), "Allies", f)
    g.apply(Move("Axis", m.uid, (f.neighbor(4),), None))
    assert g.state.pending is None


def test_activation_options_and_perform_hooks(hook):
    """Extra actions come through activation_options / action_allowed / perform."""
    from game.rules.actions import Attack

    @hook("activation_options", "shout")
    def options(value, ability, ctx):
        u = ctx["unit"]
        return value + [Attack(u.side, u.uid, "allies-1", "shout")]

    @hook("action_allowed", "shout")
    def allow(reason, ability, ctx):
        a = ctx["action"]
        return None if isinstance(a, Attack) and a.mode == "shout" else reason

    @hook("perform", "shout")       # keyed hooks run before rule-level ones
    def perform(value, ability, ctx):
        a = ctx["action"]
        if isinstance(a, Attack) and a.mode == "shout":
            ctx["unit"].acted = True
            return []
        return value

    g = position(MAP, phase=Phase.ASSAULT_FIRST)
    u = g.add_unit(rifles(abilities=("shout",)), "Axis", at(1, 1))
    g.add_unit(rifles("United States"), "Allies", at(8, 1))
    shout = Attack("Axis", u.uid, "allies-1", "shout")
    assert shout in g.legal_actions()
    assert g.apply(shout) == [] and u.acted


def test_needs_movement_roll_and_deployment_zone_hooks(hook):
    @hook("needs_movement_roll", "amphibious")
    def no_stream_roll(value, ability, ctx):
        return False if ctx["kind"] == "stream" else value

    @hook("deployment_zone", "infiltrator")      # runs for the unit being deployed
    def anywhere(value, ability, ctx):
        return frozenset(ctx["state"].battle_map.terrain)

    bm = rect_map(8, 1, streams=[((2, 0), (3, 0))])
    g = position(bm)
    frog = g.add_unit(rifles(speed=2, abilities=("amphibious",)), "Axis", at(2, 0))
    plain = g.add_unit(rifles(speed=2), "Axis", at(2, 0))
    assert g.reachable(frog.uid)[at(3, 0)].rolls == ()
    assert [r.kind for r in g.reachable(plain.uid)[at(3, 0)].rolls] == ["stream"]
    from game.rules.engine import deployment_zone
    spy = g.add_unit(rifles(abilities=("infiltrator",)), "Axis")
    assert at(7, 0) in deployment_zone(g.state, "Axis", spy)
    assert at(7, 0) not in deployment_zone(g.state, "Axis", plain)
