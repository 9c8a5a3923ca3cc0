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


def test_a_long_suggestion_fits_the_prompt_bar_and_names_the_move_once(app):
    """Found in a play-through (movement phase, a Stuart): the bar showed "Veteran: M3
    Stuart: move to H5. Why: M3 Stuart moves to H5: to hold the" - the reason repeated
    the move and was cut mid-word with no sign that more followed (the log had it all)."""
    import pygame
    g = position(rect_map(16, 11, objective=(8, 5)), phase=Phase.MOVEMENT_FIRST)
    me = g.add_unit(tank(name="Stuart"), "Axis", at(2, 5), facing=0)
    g.add_unit(rifles("United States", name="GIs"), "Allies", at(14, 5))
    scene = start(app, g)
    click(app, token(scene, me.uid))
    key(app, pygame.K_a)
    tip = scene.suggestion
    assert tip.text.count("Stuart") == 1, tip.text
    width = 300                                          # a narrow bar (buttons beside it)
    line = scene.hud.notice_line(width)
    from game.ui import theme
    assert theme.font(16).size(line)[0] <= width
    shown = line.split("  F1: why?")[0]
    assert shown == tip.text or shown.endswith("…")


def test_the_f1_hint_survives_a_long_refusal(app):
    """A refusal with a rule behind it ends in "F1: why?" however long it is (it was cut
    off with the end of a long refusal)."""
    import pygame
    from game.ui.help.links import rule_for
    g = position(rect_map(12, 9), phase=Phase.MOVEMENT_FIRST)
    me = g.add_unit(rifles(), "Axis", at(3, 4))
    g.add_unit(rifles("United States"), "Allies", at(10, 4))
    scene = start(app, g)
    click(app, token(scene, me.uid))
    click(app, scene.view.center(at(9, 4)))               # far out of reach: refused
    note = scene.notice[0]
    assert note and rule_for(note)
    line = scene.hud.notice_line(260)
    assert line.endswith("F1: why?"), line


def test_the_suggested_hex_is_marked_on_the_map_until_the_game_moves_on(app):
    """Found in a play-through: "Veteran: M3 Stuart: move to H5" - the map shows no hex
    labels, so a new player could not find H5. The suggested destination (or target) is
    ringed on the map while the suggestion still fits the game."""
    import pygame
    from game.rules.actions import Move
    from game.ui import theme
    g = position(rect_map(16, 11, objective=(8, 5)), phase=Phase.MOVEMENT_FIRST)
    me = g.add_unit(rifles(name="Grenadiers", speed=2), "Axis", at(2, 5))
    g.add_unit(rifles("United States", name="GIs"), "Allies", at(14, 5))
    scene = start(app, g)
    click(app, token(scene, me.uid))
    key(app, pygame.K_a)
    tip = scene.suggestion
    assert isinstance(tip.action, Move), tip.text
    dest = tip.action.path[-1]
    painter = scene.overlays.painter(scene.mode)
    assert painter.suggested_hex() == dest
    step(app, 2)
    cx, cy = scene.view.center(dest)
    radius = painter.suggestion_radius() - 1           # inside the 3-pixel ring
    ring = [scene.app.screen.get_at((int(cx + dx), int(cy + dy)))[:3]
            for dx, dy in ((radius, 0), (-radius, 0), (0, radius), (0, -radius))]
    assert sum(c == theme.ACCENT for c in ring) >= 3, ring
    g.apply(tip.action)                                  # the game moved on: no mark
    scene.refresh()
    step(app, 2)
    assert scene.overlays.painter(scene.mode).suggested_hex() is None
