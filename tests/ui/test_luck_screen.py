"""Luck report (issue 17), the screen: from the victory screen (button, K) and during a
battle from the in-battle menu (Esc - Luck report), with the chart exported as PNG -
by posted clicks and keys."""
import os

import pygame
import pytest

from game.analysis.luck import luck_report
from tests.uikit import key, press, running_app, start, step
from tests.ui.test_luck_report import played_game


@pytest.fixture
def app(tmp_path, monkeypatch):
    yield from running_app(tmp_path, monkeypatch, animations=False)


@pytest.fixture(scope="module")
def finished():
    return played_game(seed=5, turns=3)


def test_luck_report_opens_from_the_victory_screen_and_exports_a_png(app, tmp_path, finished):
    from game.ui.scenes.luck import LuckScene
    from game.ui.scenes.victory import VictoryScene
    victory = VictoryScene(app, finished)
    app.switch(victory)
    step(app, 2)
    press(app, "luck")
    scene = app.scene
    assert isinstance(scene, LuckScene)
    expected = luck_report(finished)
    for side in ("Axis", "Allies"):
        mine, theirs = scene.report.sides[side], expected.sides[side]
        assert (mine.hits, mine.results, mine.shots) == (theirs.hits, theirs.results, theirs.shots)
        assert mine.expected_hits == pytest.approx(theirs.expected_hits)
    step(app, 2)
    if os.environ.get("HEXFRONT_SCREENS"):
        app.screenshot(os.path.join(os.environ["HEXFRONT_SCREENS"], "luck_report.png"))
    press(app, "export")
    out = scene.exported
    assert out is not None and out.exists() and out.parent == tmp_path / "cfg" / "luck"
    pic = pygame.image.load(str(out))
    assert pic.get_size() == (1280, 720)
    # the chart is drawn: the Axis line colour appears on the picture
    from game.ui.battle.panels import SIDE_COLOURS
    colours = {tuple(pic.get_at((x, y)))[:3] for x in range(0, 1280, 3) for y in range(300, 700, 3)}
    assert SIDE_COLOURS["Allies"] in colours
    key(app, pygame.K_ESCAPE)
    assert app.scene is victory
    key(app, pygame.K_k)                     # K opens it too
    assert isinstance(app.scene, LuckScene)


def test_luck_report_on_demand_from_the_battle_menu(app):
    """During a battle: Esc - Luck report shows the dice so far; Back returns to the
    same battle."""
    from game.ai.base import make_player
    from game.ui.scenes.luck import LuckScene
    game = played_game(seed=7, turns=2)
    # a battle still going: replay the first half of a finished one
    from game.rules.engine import Game
    half = Game(game.origin[0].copy(), game.origin[1].copy())
    half.origin = game.origin
    for a in game.history[: len(game.history) // 2]:
        half.apply(a)
    assert not half.over
    scene = start(app, half)
    key(app, pygame.K_ESCAPE)
    assert scene.mode.name == "menu"
    press(app, "luck")
    assert isinstance(app.scene, LuckScene)
    assert app.scene.report.shots == luck_report(half).shots
    key(app, pygame.K_k)
    assert app.scene is scene and scene.game is half


def test_luck_report_of_a_position_without_a_recorded_start(app):
    from tests.rules.engine_kit import at, position, rect_map, rifles
    from game.ui.scenes.luck import LuckScene
    g = position(rect_map(8, 6))
    g.add_unit(rifles("United States"), "Allies", at(2, 2))
    scene = start(app, g)
    key(app, pygame.K_ESCAPE)
    press(app, "luck")
    luck = app.scene
    assert isinstance(luck, LuckScene) and luck.report is None
    assert "No luck report" in luck.status
    press(app, "back")
    assert app.scene is scene
