"""Issue 11: at every window size the settings offer, no text overlaps a button and
nothing leaves its panel - every scene is rendered at each size and its rectangles
checked (buttons inside the window and their panel, no two buttons overlapping, the
battle prompt's text above its row of buttons)."""
import pygame
import pytest

from game.ui.settings import WINDOW_SIZES, Settings
from tests.rules.engine_kit import at, position, rect_map, rifles, tank
from tests.uikit import key, step


@pytest.fixture(params=sorted(set(WINDOW_SIZES)), ids=lambda s: f"{s[0]}x{s[1]}")
def app(request, tmp_path, monkeypatch):
    monkeypatch.setenv("HEXFRONT_CONFIG_DIR", str(tmp_path / "cfg"))
    from game.ui.app import App
    s = Settings(sound=False, animation_speed="off")
    a = App(size=request.param, settings=s, save_settings=False)
    a.running = True
    pygame.event.clear()
    yield a
    pygame.event.clear()


def _no_overlaps(rects, what):
    for i, a in enumerate(rects):
        for b in rects[i + 1:]:
            assert not a.colliderect(b), f"{what}: {a} overlaps {b}"


def _gui_buttons_ok(app):
    win = pygame.Rect((0, 0), app.size)
    rects = [b.rect for b in app.scene.buttons.values() if b.visible]
    for r in rects:
        assert win.contains(r), f"{type(app.scene).__name__}: button {r} leaves the window {win}"
    _no_overlaps(rects, type(app.scene).__name__)


def test_menu_settings_setup_and_load_fit(app):
    from game.ui.scenes.battle_setup import BattleSetupScene
    from game.ui.scenes.load import LoadScene
    from game.ui.scenes.settings_scene import SettingsScene
    for scene in (app.menu_scene(), SettingsScene(app), BattleSetupScene(app)):
        app.switch(scene)
        step(app, 2)
        _gui_buttons_ok(app)
    app.switch(LoadScene(app))
    step(app, 2)
    sc = app.scene
    inside = sc.panel()
    assert pygame.Rect((0, 0), app.size).contains(inside)
    for b in sc.buttons.values():
        assert inside.contains(b.rect)
        assert not sc.list_rect().colliderect(b.rect)


def _battle_checks(scene, what):
    win = pygame.Rect((0, 0), scene.app.size)
    bar = scene.prompt_rect
    rects = [b.rect for b in scene.buttons.values()]
    _no_overlaps(rects, what)
    panel = scene.mode.panel() if hasattr(scene.mode, "place_buttons") else bar
    for r in rects:
        assert win.contains(r) and panel.contains(r), f"{what}: button {r} outside {panel}"
    if panel is bar and rects:
        # the prompt's two lines of text end above the buttons
        f = pygame.font.Font(None, 19)
        text_bottom = bar.y + 6 + 20 + f.get_linesize()
        assert min(r.top for r in rects) >= text_bottom, what
    assert scene.map_rect.right == scene.panel_rect.x and scene.panel_rect.right == win.right
    assert scene.card_rect.bottom <= scene.panel_rect.bottom
    log = scene.logp.rect.move(scene.panel_rect.topleft)
    assert log.bottom <= win.bottom and log.h > 40, what


def test_battle_screen_fits_in_every_mode(app):
    from game.rules.actions import Move
    from game.rules.cards import Ability
    from tests.uikit import start
    F = at(5, 5)
    g = position(rect_map(12, 11), dice=[1] * 60, first="Allies")
    mover = g.add_unit(tank("United States", name="Sherman"), "Allies", F.neighbor(1))
    gun = g.add_unit(tank("Germany", name="sIG 33", abilities=(
        Ability("fixed_howitzer", None, "Fixed Howitzer", "front arc only"),)), "Axis", F)
    gun.facing = 0
    g.add_unit(rifles("United States"), "Allies", at(9, 8))
    g.apply(Move("Allies", mover.uid, (F.neighbor(2),), 3))
    scene = start(app, g)
    step(app, 2)
    _battle_checks(scene, "defensive fire")
    key(app, pygame.K_ESCAPE)
    assert scene.mode.name == "menu"
    _battle_checks(scene, "battle menu")
    scene.mode.on_button("keys")
    step(app, 2)
    _battle_checks(scene, "battle menu with keys")
    key(app, pygame.K_ESCAPE)
    g2 = position(rect_map(12, 11))
    t = g2.add_unit(tank(), "Axis", at(3, 5))
    g2.add_unit(rifles("United States"), "Allies", at(9, 5))
    scene = start(app, g2)
    scene.selected = t.uid
    step(app, 2)
    _battle_checks(scene, "play")
    key(app, pygame.K_t)
    _battle_checks(scene, "turn in place")
