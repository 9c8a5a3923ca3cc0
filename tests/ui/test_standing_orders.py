"""Standing orders for defensive fire (issue 17): set per unit with O before handing over,
shown on the unit; a later defensive-fire prompt is answered by the orders from the rules'
own options and odds (game.rules.queries.defensive_fire_options) without a seat swap -
by posted clicks and keys."""
import pygame
import pytest

from game.rules.actions import DefensiveFire, Move, PassDefensiveFire
from game.rules.dice import LoadedDice
from game.rules.queries import defensive_fire_options
from game.rules.state import DefensiveFirePrompt, Phase
from game.ui.battle.standing import BY_KEY, decide
from tests.rules.engine_kit import at, position, rect_map, rifles, tank
from tests.uikit import click, key, press, running_app, start, step


@pytest.fixture
def app(tmp_path, monkeypatch):
    yield from running_app(tmp_path, monkeypatch, animations=False)


def token(scene, uid):
    return scene.view.unit_slots(scene.game.state)[uid].center


def mg():
    return rifles("Germany", name="MG-42 team", soldier=(10, 6, 4))


def _prompt(mover_card):
    """The Allied mover steps from one hex next to the MG into another: the rulebook's
    Provoking Defensive Fire."""
    g = position(rect_map(10, 8), dice=[6] * 40, first="Allies")
    gun = g.add_unit(mg(), "Axis", at(5, 4))
    mover = g.add_unit(mover_card, "Allies", at(4, 4), facing=1)
    g.apply(Move("Allies", mover.uid, (at(4, 3),), 1 if mover.is_vehicle else None))
    assert isinstance(g.state.pending, DefensiveFirePrompt)
    return g, gun, mover


def test_standing_orders_decide_from_the_rules_options():
    g, gun, mover = _prompt(rifles("United States", name="GIs"))
    opts = defensive_fire_options(g)
    chance = opts[0].here.p_stopped
    assert chance is not None and chance >= 0.5
    assert decide(g, {}) is None                                   # always ask
    act, line = decide(g, {gun.uid: BY_KEY["any50"]})
    assert act == DefensiveFire("Axis", gun.uid) and f"{chance * 100:.0f}%" in line
    assert "axis-" not in line and "allies-" not in line
    assert decide(g, {gun.uid: BY_KEY["hold"]})[0] == PassDefensiveFire("Axis")
    # a Soldier mover: the Vehicle-only orders hold fire
    assert decide(g, {gun.uid: BY_KEY["vehicles25"]})[0] == PassDefensiveFire("Axis")
    assert decide(g, {gun.uid: BY_KEY["tanks"]})[0] == PassDefensiveFire("Axis")
    # nothing was changed by asking
    assert isinstance(g.state.pending, DefensiveFirePrompt) and not gun.fired_defensively


def test_standing_orders_for_tanks_fire_at_a_tank():
    g, gun, mover = _prompt(tank("United States", name="Sherman", front=2, rear=2))
    got = decide(g, {gun.uid: BY_KEY["tanks"]})
    opts = defensive_fire_options(g)[0]
    best_here = opts.here.legal and opts.here.p_stopped > 0 and not (
        opts.next is not None and opts.next.legal and opts.next.p_stopped > opts.here.p_stopped)
    assert got[0] == (DefensiveFire("Axis", gun.uid) if best_here else PassDefensiveFire("Axis"))


def test_standing_orders_answer_the_prompt_in_hotseat_without_a_seat_swap(app):
    g = position(rect_map(10, 8), phase=Phase.MOVEMENT_FIRST, dice=LoadedDice([6] * 40))
    gun = g.add_unit(mg(), "Axis", at(5, 4))
    gi = g.add_unit(rifles("United States", name="GIs"), "Allies", at(4, 4))
    scene = start(app, g)
    # the Axis player gives the MG its order before handing over
    click(app, token(scene, gun.uid))
    assert scene.selected == gun.uid
    for _ in range(3):
        key(app, pygame.K_o)
    assert scene.standing.orders[gun.uid].key == "any50"
    assert "at least 50%" in scene.notice[0]
    key(app, pygame.K_e)
    if scene.mode.name == "confirm":
        press(app, "yes")
    step(app, 2)
    assert g.state.phase == Phase.MOVEMENT_SECOND and g.state.to_act == "Allies"
    # the Allied player moves past the MG: the order fires, the Allies keep the seat
    click(app, token(scene, gi.uid))
    click(app, scene.view.center(at(4, 3)))
    step(app, 2)
    assert gun.fired_defensively and gi.disrupted
    assert g.state.pending is None and g.state.to_act == "Allies"
    assert any(isinstance(a, DefensiveFire) for a in g.history)
    assert any(t.startswith("Standing orders: MG-42 team fires") for t, _ in scene.logp.lines)
