"""Main menu, settings screen and battle setup, driven by real posted clicks and keys."""
import json

import pygame
import pygame_gui
import pytest

from game.ui.settings import Settings
from tests.uikit import running_app, step


@pytest.fixture
def app(tmp_path, monkeypatch):
    yield from running_app(tmp_path, monkeypatch, save_settings=True)


def click(app, pos, frames=2):
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    for _ in range(frames):
        app.step()


def press(app, scene_button_key, frames=2):
    click(app, app.scene.buttons[scene_button_key].rect.center, frames)


def key(app, k, mod=0, frames=2):
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0))
    for _ in range(frames):
        app.step()


def start_menu(app):
    app.switch(app.menu_scene())
    app.step()
    return app.scene


# --- main menu -----------------------------------------------------------------------------
def test_menu_lists_the_issue_6_entries(app):
    menu = start_menu(app)
    texts = [b.text for b in menu.buttons.values()]
    for t in ("New hotseat battle", "Map layout preview", "Load game", "Settings", "Quit"):
        assert t in texts
    from game.ui.scenes.menu import ai_available
    assert ("Solo practice" in texts) == ai_available()


def test_new_battle_opens_the_setup(app):
    from game.ui.scenes.battle_setup import BattleSetupScene
    start_menu(app)
    press(app, "new")
    assert isinstance(app.scene, BattleSetupScene)


def test_settings_button_and_back(app):
    from game.ui.scenes.menu import MenuScene
    from game.ui.scenes.settings_scene import SettingsScene
    start_menu(app)
    press(app, "settings")
    assert isinstance(app.scene, SettingsScene)
    key(app, pygame.K_ESCAPE)
    assert isinstance(app.scene, MenuScene)


def test_quit_button_and_escape_end_the_app(app):
    start_menu(app)
    press(app, "quit")
    assert app.running is False
    app.running = True
    menu = start_menu(app)
    key(app, pygame.K_ESCAPE)                  # issue 11: Esc asks before quitting
    assert app.running is True and menu.quit_dialog is not None and menu.quit_dialog.alive()
    key(app, pygame.K_ESCAPE)                  # a second Esc closes the question
    assert app.running is True and menu.quit_dialog is None
    key(app, pygame.K_ESCAPE)
    pygame.event.post(pygame.event.Event(pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED,
                                         ui_element=menu.quit_dialog))
    step(app, 2)
    assert app.running is False


def test_preview_button_opens_the_map_preview(app):
    from game.ui.scenes.menu import preview_available
    if not preview_available():
        pytest.skip("map preview scene not in the tree")
    from game.ui.scenes.preview import PreviewScene
    start_menu(app)
    press(app, "preview", frames=2)
    assert isinstance(app.scene, PreviewScene)


def test_load_game_opens_the_saves_list_and_a_bad_save_is_a_message(app, tmp_path, monkeypatch):
    import game.ui.scenes.menu as menu_mod
    from game.ui.scenes.load import LoadScene
    monkeypatch.setattr(menu_mod, "saves_available", lambda: True)
    menu = start_menu(app)
    press(app, "load")
    assert isinstance(app.scene, LoadScene)
    key(app, pygame.K_ESCAPE)
    menu = app.scene
    bad = tmp_path / "broken.save"
    bad.write_text("this is not a save")
    assert menu.load(str(bad)) is False
    assert menu.message and menu.next_scene is None


# --- settings screen ------------------------------------------------------------------------
def test_settings_buttons_change_and_save_the_settings(app, tmp_path):
    from game.ui.scenes.settings_scene import SettingsScene
    app.switch(SettingsScene(app))
    app.step()
    assert app.settings.animation_speed == "normal"
    press(app, "speed")
    assert app.settings.animation_speed == "fast"
    assert "Fast" in app.scene.buttons["speed"].text
    press(app, "sound")
    assert app.settings.sound is True
    press(app, "size")
    assert app.settings.window_size == (1440, 900) and app.size == (1440, 900)
    press(app, "back")
    saved = json.loads((tmp_path / "cfg" / "settings.json").read_text())
    assert saved["animation_speed"] == "fast" and saved["sound"] is True
    assert saved["window_size"] == [1440, 900]
    assert Settings.load(tmp_path / "cfg" / "settings.json").animation_factor < 1


def test_window_sizes_offered_fit_the_screen(app, monkeypatch):
    """QA fix: on a 1280x800 desktop the size button never offers a window larger than
    the screen (it went to 1440x900 off the screen's edge)."""
    from game.ui.scenes import settings_scene
    from game.ui.scenes.settings_scene import SettingsScene
    monkeypatch.setattr(pygame.display, "get_driver", lambda: "x11")
    monkeypatch.setattr(pygame.display, "get_desktop_sizes", lambda: [(1280, 800)])
    assert settings_scene.window_sizes() == [(1280, 800), (1024, 700), (1024, 640)]
    app.switch(SettingsScene(app))
    app.step()
    press(app, "size")
    assert app.settings.window_size == (1024, 700)
    press(app, "size")
    assert app.settings.window_size == (1024, 640)
    press(app, "size")
    assert app.settings.window_size == (1280, 800)


# --- battle setup ---------------------------------------------------------------------------
def setup_scene(app):
    from game.ui.scenes.battle_setup import BattleSetupScene
    app.switch(BattleSetupScene(app))
    app.step()
    return app.scene


def test_scenario_buttons_set_standard_or_assault_budgets(app):
    """rulebook: Assault Scenario - attacker 120 points, defender 80."""
    s = setup_scene(app)
    assert s.setup.scenario == "standard" and s.setup.budget("Axis") == 100
    press(app, "assault")
    s = app.scene
    assert s.setup.scenario == "assault"
    assert s.setup.budget("Axis") == 120 and s.setup.budget("Allies") == 80
    press(app, "attacker")
    assert app.scene.setup.attacker == "Allies" and app.scene.setup.budget("Allies") == 120
    press(app, "standard")
    assert app.scene.setup.scenario == "standard" and app.scene.setup.attacker is None


def test_options_historical_and_year(app):
    """ruling 12: historical limits and year limits are options, off by default."""
    s = setup_scene(app)
    assert s.setup.historical is False and s.setup.year is None
    press(app, "historical")
    press(app, "year")
    assert s.setup.historical is True and s.setup.year == 1939
    assert "On" in s.buttons["historical"].text and "1939" in s.buttons["year"].text


def test_pick_a_configuration_by_button_key_or_thumbnail(app):
    s = setup_scene(app)
    press(app, "config3")
    assert s.setup.config == 3 and s.setup.config_roll is None
    key(app, pygame.K_5)
    assert s.setup.config == 5
    click(app, s.thumb_rects[2].center)
    assert s.setup.config == 2


def test_roll_a_die_for_the_configuration(app):
    s = setup_scene(app)
    app.rng.seed(3)
    press(app, "roll")
    assert s.setup.config_roll in range(1, 7)
    assert s.setup.config == s.setup.config_roll
    for _ in range(40):
        app.step(dt=0.05)
    assert s.shown_face == s.setup.config_roll


def test_thumbnails_are_drawn_with_the_map_renderer(app):
    from game.ui.scenes.battle_setup import config_thumbnail
    s = setup_scene(app)
    r = s.thumb_rects[1]
    thumb = config_thumbnail(1, r.size)
    assert thumb is not None and thumb.get_width() <= r.w and thumb.get_height() <= r.h


def test_build_armies_hands_the_seat_to_the_allied_player(app):
    from game.ui.scenes.army_builder import HandOverScene
    setup_scene(app)
    press(app, "build")
    assert isinstance(app.scene, HandOverScene) and app.scene.side == "Allies"


def test_back_returns_to_the_menu(app):
    from game.ui.scenes.menu import MenuScene
    setup_scene(app)
    press(app, "back")
    assert isinstance(app.scene, MenuScene)


def test_menu_to_battle_with_the_quick_start(app):
    """New hotseat battle -> setup -> quick start with the sample armies -> the battle screen."""
    pytest.importorskip("game.ui.scenes.battle")
    from game.ui.scenes.battle import BattleScene
    start_menu(app)
    press(app, "new")
    press(app, "config4")
    press(app, "quick", frames=2)
    assert isinstance(app.scene, BattleScene)
    setup = app.scene.setup
    assert setup.config == 4 and set(setup.armies) == {"Axis", "Allies"}


def test_load_game_from_the_menu_continues_the_saved_battle(app, tmp_path):
    pytest.importorskip("game.saves")
    pytest.importorskip("game.ui.scenes.battle")
    from game.saves import save_game
    from game.ui.scenes.battle import BattleScene, new_battle_game
    from game.ui.scenes.battle_setup import make_setup
    game = new_battle_game(make_setup(config=3, seed=11))
    for action in game.legal_actions()[:1]:
        game.apply(action)
    path = save_game(game, tmp_path / "saves" / "mine.json")
    menu = start_menu(app)
    assert menu.load(str(path)) is True
    app.step()
    assert isinstance(app.scene, BattleScene)
    assert app.scene.setup.save_path == str(path) and app.scene.setup.config == 3
    assert app.scene.setup.saved_game.state_hash() == game.state_hash()


def test_load_list_shows_saves_newest_first_and_loads_one(app, tmp_path):
    """Issue 11: the Load list names each save by scenario, configuration, sides, turn,
    phase and date (game.saves.list_saves), and a click opens it in the battle screen."""
    import time
    from game import saves
    from game.ui.scenes.battle import BattleScene, new_battle_game
    from game.ui.scenes.battle_setup import make_setup
    from game.ui.scenes.load import LoadScene
    older = new_battle_game(make_setup(config=2, seed=5))
    saves.save_game(older, saves.saves_dir() / "older.json")
    time.sleep(1.1)
    newer = new_battle_game(make_setup(scenario="assault", config=4, seed=6))
    saves.save_game(newer, saves.saves_dir() / "newer.json")
    menu = start_menu(app)
    press(app, "load")
    scene = app.scene
    assert isinstance(scene, LoadScene)
    assert [i.path.name for i in scene.infos][:2] == ["newer.json", "older.json"]
    from game.ui.scenes.load import describe_save, save_title
    title = save_title(scene.infos[0])
    assert "Assault" in title and "4" in title and "Axis" in title and "Allies" in title
    step(app, 1)
    lr = scene.list_rect()
    click(app, (lr.x + 40, lr.y + 20 + 54))        # the second row: the older battle
    assert isinstance(app.scene, BattleScene)
    assert app.scene.game.state.scenario == "standard"
