"""Suggest (issue 17): the Veteran's choice for the selected unit with its reason, shown
and never played - by a posted click on the button and the A key."""
import pytest

from game.rules.state import Phase
from tests.rules.engine_kit import at, position, rect_map, rifles, tank
from tests.uikit import click, key, press, running_app, start, step


@pytest.fixture
def app(tmp_path, monkeypatch):
    yield from running_app(tmp_path, monkeypatch, animations=False)


def token(scene, uid):
    return scene.view.unit_slots(scene.game.state)[uid].center


def test_suggest_shows_the_veterans_choice_for_the_selected_unit(app):
    import pygame
    g = position(rect_map(12, 9), phase=Phase.ASSAULT_FIRST)
    me = g.add_unit(tank(), "Axis", at(3, 4), facing=0)
    other = g.add_unit(rifles(), "Axis", at(1, 1))
    gi = g.add_unit(rifles("United States", name="GIs"), "Allies", at(5, 4))
    scene = start(app, g)
    click(app, token(scene, me.uid))
    assert scene.selected == me.uid and "suggest" in scene.buttons
    before = g.state_hash()
    press(app, "suggest")
    tip = scene.suggestion
    assert g.state_hash() == before                      # shown, not played
    assert tip.uid == me.uid and tip.text.startswith("Veteran:")
    assert scene.notice[0] == tip.text
    assert "axis-" not in tip.text and "allies-" not in tip.text
    if tip.action is not None:
        assert tip.action.uid == me.uid and g.check(tip.action) is None
    assert "GIs" in tip.text                              # the rifles in reach: attack them
    key(app, pygame.K_a)
    assert scene.suggestion.uid == me.uid and g.state_hash() == before
