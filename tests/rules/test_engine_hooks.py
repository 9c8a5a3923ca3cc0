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

    def reg(point, ability_id=None, scope="self", **kw):
        def deco(fn):
            abilities.register(point, ability_id, scope=scope, **kw)(fn)
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


def test_move_cost_hook(hook):
    @hook("move_cost", "forest_runner")
    def runner(value, ability, ctx):
        return 1 if ctx["terrain"].value == "forest" else value

    bm = rect_map(10, 1, {(5, 0): "forest"})
    g = position(bm)
    t = g.add_unit(tank(speed=2, abilities=("forest_runner",)), "Axis", at(4, 0))
    assert g.reachable(t.uid)[at(6, 0)].cost == 2


def test_aura_hook_sees_every_source_once(hook):
    """scope='any': commander auras run once per ability id with every source, so
    same-named abilities don't add up (rulebook: Special Abilities of the Same Name)."""
    calls = []

    @hook("speed", "inspiring", scope="any")
    def inspiring(value, ability, ctx):
        calls.append(len(ctx["sources"]))
        return value

    g = position(MAP)
    g.add_unit(officer(abilities=("inspiring",)), "Axis", at(1, 1))
    g.add_unit(officer(abilities=("inspiring",)), "Axis", at(1, 2))
    u = g.add_unit(rifles(), "Axis", at(3, 3))
    g.reachable(u.uid)
    assert calls and set(calls) == {2}


def test_can_fire_defensively_hook(hook):
    @hook("can_fire_defensively", "sleepy")
    def sleepy(value, ability, ctx):
        return False if ctx["owner"] is ctx["firer"] else value

    g = position(MAP)
    f = Hex(4, 2)
    m = g.add_unit(rifles(speed=2), "Axis", f.neighbor(3))
    g.add_unit(rifles("United States", abilities=("sleepy",)), "Allies", f)
    g.apply(Move("Axis", m.uid, (f.neighbor(4),), None))
    assert g.state.pending is None


def test_movement_roll_kinds_hook(hook):
    @hook("movement_roll_kinds", "amphibious")
    def no_stream_roll(value, ability, ctx):
        return [k for k in value if k != "stream"]

    bm = rect_map(8, 1, streams=[((2, 0), (3, 0))])
    g = position(bm)
    frog = g.add_unit(rifles(speed=2, abilities=("amphibious",)), "Axis", at(2, 0))
    plain = g.add_unit(rifles(speed=2), "Axis", at(2, 0))
    assert g.reachable(frog.uid)[at(3, 0)].rolls == ()
    assert [r.kind for r in g.reachable(plain.uid)[at(3, 0)].rolls] == ["stream"]


def test_the_registry_lists_only_hook_points_in_use():
    """issue 12: every hook point is used by at least one ability of the roster's
    modules, and every ``abilities.apply`` call in the rules names a listed point."""
    import re
    from pathlib import Path
    import game.rules.engine  # noqa: F401  (loads the abilities)
    used = {p for p, hs in abilities.HOOKS.items()
            if any(h.fn.__module__.startswith("game.rules.abilities.") for h in hs)}
    assert set(abilities.POINTS) == used
    root = Path(game.rules.engine.__file__).parent
    called = set()
    for path in root.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        called |= set(re.findall(r'(?:abilities\.apply|_hook|has_hooks)\(\s*"([a-z_]+)"', text))
    assert called <= set(abilities.POINTS), called - set(abilities.POINTS)


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
