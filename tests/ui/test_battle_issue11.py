"""Issue 11: the battle screen a new player can't break.  Each test drives the real
screen with posted events and asserts on the game state (tests/uikit.py)."""
import pygame
import pytest

from game.rules.actions import Attack, Move
from game.rules.cards import Ability
from game.rules.dice import LoadedDice
from game.rules.state import DefensiveFirePrompt, Phase
from tests.rules.engine_kit import at, card, position, rect_map, rifles, tank
from tests.uikit import click, hover, key, press, running_app, start, step


@pytest.fixture
def app(tmp_path, monkeypatch):
    yield from running_app(tmp_path, monkeypatch, animations=False)


def token(scene, uid):
    return scene.view.unit_slots(scene.game.state)[uid].center


E, NE, NW = 0, 1, 2
F = at(5, 5)


def _howitzer_prompt():
    """A Sherman steps from a hex in front of a sIG 33 (Fixed Howitzer, facing east)
    into one outside its front arc: the defensive-fire prompt of the demo crash."""
    g = position(rect_map(12, 11), dice=[1] * 60, first="Allies")
    mover = g.add_unit(tank("United States", name="Sherman"), "Allies", F.neighbor(NE))
    gun = g.add_unit(tank("Germany", name="sIG 33", front=2, rear=2,
                          abilities=(Ability("fixed_howitzer", None, "Fixed Howitzer",
                                             "front arc only"),)), "Axis", F)
    gun.facing = E
    g.apply(Move("Allies", mover.uid, (F.neighbor(NW),), 3))
    assert isinstance(g.state.pending, DefensiveFirePrompt) and g.state.pending.stage == "leave"
    return g, mover, gun


def test_fixed_howitzer_prompt_does_not_crash_and_says_why_next_hex_is_refused(app):
    """Blocker (ruling 14 + Fixed Howitzer): the prompt asks the rules per stage; the
    'next hex' button is disabled with the rules' reason, N does not pass."""
    g, mover, gun = _howitzer_prompt()
    scene = start(app, g)
    step(app, 3)
    assert scene.mode.name == "defensive_fire"
    b = scene.buttons["wait"]
    assert not b.enabled and "front arc" in b.text
    assert scene.buttons["fire"].enabled
    before = g.state_hash()
    key(app, pygame.K_n)
    assert g.state_hash() == before and g.state.pending.stage == "leave"
    assert "front arc" in scene.notice[0]
    press(app, "fire")
    assert gun.fired_defensively


def test_double_shot_second_attack_is_offered_on_the_bar_and_by_a_click(app):
    """Double Shot: after the first attack the bar offers the second (what legal_actions
    holds), and a click on the ringed enemy makes it (ruling 7: within one activation)."""
    g = position(rect_map(12, 11), phase=Phase.ASSAULT_FIRST, dice=LoadedDice([1] * 80))
    mg = g.add_unit(card("MG-42", speed=1, abilities=(Ability("double_shot", None, "Double Shot",
                                                              "two attacks"),)), "Axis", F)
    t = g.add_unit(rifles("United States", name="GIs"), "Allies", at(7, 5))
    scene = start(app, g)
    click(app, token(scene, mg.uid))
    click(app, token(scene, t.uid))
    assert mg.acted and len([a for a in g.history if isinstance(a, Attack)]) == 1
    step(app, 2)
    assert scene.selected == mg.uid
    text = scene.mode.prompt()
    assert "one more attack (Double Shot)" in text and "has acted" not in text
    assert t.uid in scene.mode.attack_options()
    click(app, token(scene, t.uid))
    assert len([a for a in g.history if isinstance(a, Attack)]) == 2


def test_selecting_a_disrupted_unit_says_why_it_cannot_move(app):
    """Rulebook: a disrupted unit can't move; the bar says so as soon as it is picked."""
    g = position(rect_map(12, 11))
    r = g.add_unit(rifles(name="Grenadiers"), "Axis", F)
    r.disrupted = True
    g.add_unit(rifles("United States"), "Allies", at(10, 5))
    scene = start(app, g)
    click(app, token(scene, r.uid))
    assert scene.selected == r.uid
    assert "disrupted" in scene.mode.prompt()
