"""The app shell: App loop, scenes, global keys, settings file, main.py's command line."""
import json
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from game.ui.scene import Scene
from game.ui.settings import ANIMATION_SPEEDS, Settings
from tests.uikit import running_app

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def app(tmp_path, monkeypatch):
    yield from running_app(tmp_path, monkeypatch)


class Recorder(Scene):
    def __init__(self, app):
        super().__init__(app)
        self.calls = []
        self.events = []

    def enter(self):
        self.calls.append("enter")

    def leave(self):
        self.calls.append("leave")

    def handle_event(self, event):
        self.events.append(event)

    def update(self, dt):
        self.calls.append("update")

    def draw(self, surface):
        surface.fill((10, 200, 30))
        self.calls.append("draw")

    def resize(self, size):
        self.calls.append(("resize", size))


def test_importing_the_app_opens_no_window():
    code = "import game.ui.app, game.ui.scenes.menu, pygame; print(pygame.display.get_init())"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         env={"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
                              "PYGAME_HIDE_SUPPORT_PROMPT": "1", "PATH": ""})
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().endswith("False")


def test_window_is_1280x800_and_resizable(app):
    assert app.size == (1280, 800)
    assert pygame.display.get_surface().get_flags() & pygame.RESIZABLE


def test_step_runs_one_frame_and_passes_events_to_the_scene(app):
    scene = Recorder(app)
    app.switch(scene)
    key = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_x, mod=0, unicode="x", scancode=0)
    app.step([key])
    assert scene.calls == ["enter", "update", "draw"]
    assert scene.events[0].key == pygame.K_x
    assert app.frames == 1
    assert app.screen.get_at((5, 5))[:3] == (10, 200, 30)


def test_step_reads_posted_events(app):
    scene = Recorder(app)
    app.switch(scene)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_y, mod=0, unicode="y", scancode=0))
    app.step()
    assert any(getattr(e, "key", None) == pygame.K_y for e in scene.events)


def test_next_scene_switches_with_leave_and_enter(app):
    first, second = Recorder(app), Recorder(app)
    app.switch(first)
    first.next_scene = second
    app.step([])
    assert first.calls[-1] == "leave"
    assert app.scene is second and second.calls == ["enter"]


def test_scene_quit_and_window_close_stop_the_loop(app):
    scene = Recorder(app)
    app.switch(scene)
    scene.quit = True
    app.step([])
    assert app.running is False
    app.running = True
    app.step([pygame.event.Event(pygame.QUIT)])
    assert app.running is False


def test_ctrl_q_quits_from_any_scene(app):
    app.switch(Recorder(app))
    app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_q, mod=pygame.KMOD_LCTRL,
                                 unicode="q", scancode=0)])
    assert app.running is False


def test_resize_reaches_the_scene_and_the_gui(app):
    scene = Recorder(app)
    app.switch(scene)
    app.step([pygame.event.Event(pygame.VIDEORESIZE, w=1024, h=700, size=(1024, 700))])
    assert ("resize", (1024, 700)) in scene.calls
    assert app.ui.window_resolution == (1024, 700)
    assert app.settings.window_size == (1024, 700)


def test_screenshot_writes_a_png_of_the_frame(app, tmp_path):
    app.switch(Recorder(app))
    app.step([])
    out = app.screenshot(tmp_path / "shots" / "frame.png")
    img = pygame.image.load(str(out))
    assert img.get_size() == (1280, 800)
    assert img.get_at((100, 100))[:3] == (10, 200, 30)


def test_f12_saves_a_screenshot_into_the_data_folder(app, tmp_path):
    app.switch(Recorder(app))
    app.step([])
    app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F12, mod=0, unicode="", scancode=0)])
    shots = list((tmp_path / "cfg" / "screenshots").glob("*.png"))
    assert len(shots) == 1


def test_a_machine_without_sound_still_runs(tmp_path, monkeypatch):
    """Mixer start-up is wrapped: a failing mixer means silence, not a crash."""
    monkeypatch.setenv("HEXFRONT_CONFIG_DIR", str(tmp_path))

    def broken(*a, **k):
        raise pygame.error("no audio device")
    monkeypatch.setattr(pygame.mixer, "init", broken)
    from game.ui.app import App
    a = App(size=(1280, 800), settings=Settings(sound=True), save_settings=False)
    assert a.audio is False
    a.play("dice")          # silently nothing
    a.switch(Recorder(a))
    a.step([])
    assert a.frames == 1


def test_every_asset_loads_from_assets_and_has_a_readme_line():
    """Issue 11: token art, icon, sounds and the font come from assets/, each named in
    assets/README.md with how it was made and its licence."""
    import wave
    from game.ui.assets import ASSETS_DIR, SOUNDS, TOKEN_KINDS, check_assets, load_svg, token_svg
    check_assets()
    readme = (ASSETS_DIR / "README.md").read_text()
    for kind in TOKEN_KINDS:
        img = load_svg(token_svg(kind), 48)
        assert img.get_size() == (48, 48) and img.get_bounding_rect().w > 20
        assert f"tokens/{kind}.svg" in readme
    for name in SOUNDS:
        with wave.open(str(ASSETS_DIR / "sounds" / f"{name}.wav")) as w:
            assert w.getnframes() > 100
        assert f"sounds/{name}.wav" in readme
    assert "icon.svg" in readme and "DejaVuSansMono-Bold.ttf" in readme and "licen" in readme.lower()


def test_a_missing_or_broken_asset_gives_a_clear_message(tmp_path, monkeypatch, capsys):
    import shutil
    import game.ui.assets as assets
    from game.ui.assets import ASSETS_DIR, AssetError
    copy = tmp_path / "assets"
    shutil.copytree(ASSETS_DIR, copy)
    (copy / "tokens" / "tank.svg").unlink()
    (copy / "tokens" / "infantry.svg").write_text("this is not a picture")
    monkeypatch.setattr(assets, "ASSETS_DIR", copy)
    monkeypatch.setattr(assets, "_SVG", {})
    with pytest.raises(AssetError) as e:
        assets.load_svg("tokens/tank.svg", 40)
    assert "tank.svg" in str(e.value) and "missing" in str(e.value)
    with pytest.raises(AssetError) as e:
        assets.load_svg("tokens/infantry.svg", 40)
    assert "infantry.svg" in str(e.value)
    import main
    monkeypatch.setenv("HEXFRONT_CONFIG_DIR", str(tmp_path / "cfg"))
    assert main.main(["--demo", "--frames", "2", "--screenshot", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert "tank.svg" in err and "missing" in err


# --- settings file -----------------------------------------------------------------------
def test_settings_round_trip_as_json(tmp_path):
    path = tmp_path / "settings.json"
    s = Settings(window_size=(1600, 1000), fullscreen=True, animation_speed="fast", sound=False)
    assert s.save(path) is None
    data = json.loads(path.read_text())
    assert data == {"window_size": [1600, 1000], "fullscreen": True,
                    "animation_speed": "fast", "sound": False}
    assert Settings.load(path) == s
    assert Settings.load(path).animation_factor == ANIMATION_SPEEDS["fast"]


def test_settings_go_to_the_config_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("HEXFRONT_CONFIG_DIR", str(tmp_path / "conf"))
    Settings(sound=False).save()
    assert json.loads((tmp_path / "conf" / "settings.json").read_text())["sound"] is False


@pytest.mark.parametrize("text", ["{not json", "[1, 2]", '{"window_size": "big"}',
                                  '{"animation_speed": "warp"}', '{"sound": "yes"}',
                                  '{"window_size": [10, 10]}'])
def test_damaged_settings_fall_back_to_defaults_with_a_note(tmp_path, text):
    path = tmp_path / "settings.json"
    path.write_text(text)
    s = Settings.load(path)
    assert s == Settings()
    assert "damaged settings" in s.problem and str(path) in s.problem


def test_missing_settings_are_the_defaults(tmp_path):
    s = Settings.load(tmp_path / "none.json")
    assert s == Settings() and s.problem is None
    assert s.window_size == (1280, 800)


def test_settings_save_reports_an_unwritable_place(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    err = Settings().save(blocker / "settings.json")
    assert err and "could not save" in err


# --- main.py -----------------------------------------------------------------------------
def _main(args, capsys):
    import main
    code = main.main(args)
    return code, capsys.readouterr().err


def test_cli_missing_army_file_is_a_clear_error(capsys, tmp_path):
    code, err = _main(["--hotseat", "--axis", str(tmp_path / "nope.yaml")], capsys)
    assert code == 2 and "no such file" in err and "Traceback" not in err


def test_cli_bad_army_file_names_the_file(capsys, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: Broken\nside: Axis\nunits: [King Tiger Deluxe]\n")
    code, err = _main(["--hotseat", "--axis", str(bad)], capsys)
    assert code == 2 and "bad.yaml" in err and "Traceback" not in err


def test_cli_army_of_the_wrong_side_is_refused(capsys):
    code, err = _main(["--hotseat", "--axis", str(ROOT / "units/armies/sample_allies.yaml")], capsys)
    assert code == 2 and "Allies army" in err


def test_cli_bad_options_exit_2(capsys, tmp_path):
    import main
    for args in (["--render-map", "7", "--out", "x.png"], ["--config", "0"], ["--frames", "-3"],
                 ["--scenario", "siege"]):
        with pytest.raises(SystemExit) as exc:
            main.main(args)
        assert exc.value.code == 2
    assert _main(["--demo", "--screenshot", str(tmp_path / "x.jpg")], capsys)[0] == 2
    assert _main(["--render-map", "2"], capsys)[0] == 2
    assert _main(["--load", str(tmp_path / "missing.save")], capsys)[0] == 2
    assert _main(["--allies", "a.yaml"], capsys)[0] == 2


def test_cli_solo_without_an_ai_says_so(capsys, monkeypatch):
    import game.ui.scenes.menu as menu
    monkeypatch.setattr(menu, "ai_available", lambda: False)
    code, err = _main(["--solo"], capsys)
    assert code == 2 and "AI" in err


def test_cli_hotseat_setup_uses_samples_and_rolls_the_configuration():
    from game.ui.scenes.battle_setup import make_setup
    a = make_setup(seed=5)
    b = make_setup(seed=5)
    assert a.config == b.config == a.config_roll and 1 <= a.config <= 6
    assert a.armies["Axis"].side == "Axis" and a.armies["Allies"].side == "Allies"
    assert make_setup(config=4, seed=5).config == 4
    assert make_setup(scenario="assault", config=2).budget("Axis") == 120  # attacker


class QuitAfter(Scene):
    """Stands in for the battle screen: records its setup, quits after n frames."""
    made = []

    def __init__(self, app, setup, frames=1):
        super().__init__(app)
        self.setup = setup
        self.left = frames
        QuitAfter.made.append(self)

    def update(self, dt):
        self.left -= 1
        if self.left <= 0:
            self.quit = True

    def draw(self, surface):
        surface.fill((200, 30, 30))


def test_cli_hotseat_opens_the_battle_with_its_setup(monkeypatch, tmp_path, capsys):
    import game.ui.scenes.battle_setup as bs
    monkeypatch.setenv("HEXFRONT_CONFIG_DIR", str(tmp_path))
    monkeypatch.setattr(bs, "battle_scene", lambda app, setup: (QuitAfter(app, setup), None))
    QuitAfter.made.clear()
    code, err = _main(["--hotseat", "--config", "2", "--seed", "4", "--scenario", "assault",
                       "--axis", str(ROOT / "units/armies/tiger_heaven.yaml")], capsys)
    assert code == 0, err
    setup = QuitAfter.made[0].setup
    assert (setup.config, setup.seed, setup.scenario) == (2, 4, "assault")
    assert setup.armies["Axis"].name == "Tiger Heaven"
    assert setup.armies["Allies"].points <= 80


def test_cli_demo_plays_frames_and_saves_a_screenshot(monkeypatch, tmp_path, capsys):
    import game.ui.scenes.battle_setup as bs
    monkeypatch.setenv("HEXFRONT_CONFIG_DIR", str(tmp_path / "cfg"))
    monkeypatch.setattr(bs, "battle_scene", lambda app, setup: (QuitAfter(app, setup, 10 ** 6), None))
    QuitAfter.made.clear()
    out = tmp_path / "demo.png"
    code, err = _main(["--demo", "--frames", "12", "--screenshot", str(out), "--seed", "9"], capsys)
    assert code == 0, err
    assert QuitAfter.made[0].setup.demo_frames == 12 and QuitAfter.made[0].setup.seed == 9
    img = pygame.image.load(str(out))
    assert img.get_size() == (1280, 800) and img.get_at((10, 10))[:3] == (200, 30, 30)
    assert not (tmp_path / "cfg" / "settings.json").exists()     # a demo leaves settings alone


def test_cli_without_a_battle_screen_says_so(monkeypatch, tmp_path, capsys):
    import game.ui.scenes.battle_setup as bs
    monkeypatch.setenv("HEXFRONT_CONFIG_DIR", str(tmp_path))
    monkeypatch.setattr(bs, "battle_scene",
                        lambda app, setup: (None, "The battle screen is not available in this version yet."))
    code, err = _main(["--hotseat"], capsys)
    assert code == 2 and "battle screen" in err


def test_cli_preview_and_render_map_call_the_map_tools(monkeypatch, capsys):
    calls = []
    import game.ui.render_export as rx
    import game.ui.scenes.preview as pv
    monkeypatch.setattr(pv, "run_preview", lambda config=None: calls.append(("preview", config)) or 0)
    monkeypatch.setattr(rx, "main_render", lambda n, out, zones, labels:
                        calls.append(("render", n, out, zones, labels)) or 0)
    assert _main(["--preview", "--config", "3"], capsys)[0] == 0
    assert _main(["--render-map", "5", "--out", "m.png", "--zones"], capsys)[0] == 0
    assert calls == [("preview", 3), ("render", 5, "m.png", True, False)]


def test_cli_render_map_really_writes_a_png(tmp_path, capsys):
    out = tmp_path / "map.png"
    code, err = _main(["--render-map", "1", "--out", str(out), "--labels"], capsys)
    assert code == 0, err
    assert pygame.image.load(str(out)).get_width() > 100


def test_cli_army_that_breaks_the_rules_is_refused(capsys, tmp_path):
    """rulebook: Building Your Army - an army over 100 points can't play."""
    big = tmp_path / "big.yaml"
    big.write_text("name: Big Cats\nside: Axis\nunits:\n" + "  - Tiger I\n" * 5)
    code, err = _main(["--hotseat", "--axis", str(big)], capsys)
    assert code == 2 and "big.yaml" in err and "the limit is 100" in err
    assert _main(["--hotseat", "--scenario", "assault", "--allies",
                  str(ROOT / "units/armies/sample_allies.yaml")], capsys)[0] == 2   # 100 > 80


def test_mixer_start_up_does_not_spray_the_terminal(capfd, tmp_path, monkeypatch):
    monkeypatch.setenv("HEXFRONT_CONFIG_DIR", str(tmp_path))

    def noisy(*a, **k):
        import os
        os.write(2, b"ALSA lib pcm.c: Unknown PCM default\n")
        raise pygame.error("no audio device")
    monkeypatch.setattr(pygame.mixer, "init", noisy)
    from game.ui.app import App
    App(size=(1280, 800), settings=Settings(sound=True), save_settings=False)
    assert "ALSA" not in capfd.readouterr().err


def test_default_armies_fit_the_assault_budgets():
    """rulebook: Assault Scenario - quick-start armies fit 120 / 80 points."""
    from game.ui.scenes.battle_setup import army_problems, make_setup
    setup = make_setup(scenario="assault", attacker="Axis", config=1)
    assert setup.armies["Allies"].points <= 80 and setup.armies["Axis"].points <= 120
    assert army_problems(setup, "Allies") == [] and army_problems(setup, "Axis") == []
    assert setup.armies["Allies"].name == "Assault Defence (Allies)"      # built for 80, not cut
