"""Bad input (issue 8): every malformed file in tests/bad_input/ gives one clear
message naming the file, the entry and the field - from its loader, from the
command line (non-zero exit) and in the desktop game (a dialog; it keeps running)."""
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from game.check import KINDS, check_file, guess_kind, main as check_main
from game.rules.errors import DataError

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "bad_input"
EXPECTED = yaml.safe_load((CORPUS / "expected.yaml").read_text(encoding="utf-8"))
FILES = sorted(EXPECTED)
ENV = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
           PYGAME_HIDE_SUPPORT_PROMPT="1")


def rel(name: str) -> str:
    return f"tests/bad_input/{name}"


def message_of(name: str) -> str:
    exp = EXPECTED[name]
    with pytest.raises(DataError) as e:
        KINDS[exp["kind"]](str(CORPUS / name))
    return str(e.value)


def test_the_corpus_has_at_least_30_files_all_described():
    files = {p.name for p in CORPUS.iterdir() if p.name != "expected.yaml"
             and not p.name.startswith("_")}
    assert files == set(EXPECTED), "every corpus file needs its expected message, and back"
    assert len(files) >= 30
    kinds = {e["kind"] for e in EXPECTED.values()}
    assert kinds == set(KINDS)                     # every kind of file is covered


@pytest.mark.parametrize("name", FILES)
def test_each_bad_file_gives_one_clear_message(name):
    exp = EXPECTED[name]
    msg = message_of(name)
    assert msg.startswith(rel(name)) or msg.startswith(str(CORPUS / name)), msg
    assert "\n" not in msg and "Traceback" not in msg
    assert exp["says"] in msg, msg
    if exp["entry"] is None:
        assert "entry '" not in msg, msg
    else:
        assert f"entry '{exp['entry']}'" in msg, msg
    if exp["field"] is None:
        assert "field '" not in msg, msg
    else:
        assert f"field '{exp['field']}'" in msg, msg
    if exp.get("line"):
        assert msg.startswith(f"{rel(name)}:{exp['line']}:"), msg


def test_the_good_save_the_bad_ones_came_from_loads():
    from game.saves import load_game
    assert load_game(CORPUS / "_good_save.json").state.phase.value == "deploy_first"


@pytest.mark.parametrize("name", FILES)
def test_the_checker_command_reports_it_and_fails(name, capsys):
    exp = EXPECTED[name]
    code = check_main(["--kind", exp["kind"], str(CORPUS / name)])
    err = capsys.readouterr().err
    assert code == 2 and exp["says"] in err


def test_kinds_are_guessed_from_the_files():
    for name, exp in EXPECTED.items():
        try:
            kind = guess_kind(str(CORPUS / name))
        except DataError:
            continue                      # unreadable: the reading error is the message
        assert kind == exp["kind"], name
    assert check_file(str(ROOT / "units" / "armies" / "sample_axis.yaml")) == "army"
    assert check_file(str(ROOT / "maps" / "configurations" / "1_half_and_half.yaml")) == \
        "configuration"
    assert check_file(str(ROOT / "maps" / "sections" / "Able-1.yaml")) == "section"


# --- the command lines, in real processes --------------------------------------------------
def run(*args):
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=ENV, capture_output=True,
                          text=True, timeout=120)


def test_command_line_checker_names_every_file():
    r = run("-m", "game.check", *[rel(n) for n in FILES])
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == len(FILES)
    for name in FILES:
        hit = [line for line in lines if line.startswith(rel(name))]
        assert len(hit) == 1 and EXPECTED[name]["says"] in hit[0], name
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize("name", ["save_from_a_newer_version.json", "save_truncated.json",
                                  "save_binary.json", "save_hash_mismatch.json"])
def test_main_load_exits_non_zero_with_the_message(name, tmp_path):
    env_dir = tmp_path / "data"
    r = subprocess.run([sys.executable, "main.py", "--load", rel(name)], cwd=ROOT,
                       env=dict(ENV, HEXFRONT_CONFIG_DIR=str(env_dir)), capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 2
    assert EXPECTED[name]["says"] in r.stderr and rel(name) in r.stderr
    assert "Traceback" not in r.stderr


def test_main_hotseat_with_a_bad_army_exits_non_zero(tmp_path):
    r = subprocess.run([sys.executable, "main.py", "--hotseat", "--axis",
                        rel("army_unknown_unit.yaml")], cwd=ROOT,
                       env=dict(ENV, HEXFRONT_CONFIG_DIR=str(tmp_path)), capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 2 and "Panzer IV Ausf. Z" in r.stderr and "Traceback" not in r.stderr


def test_situation_runner_exits_non_zero_with_the_message():
    r = run("-m", "game.situations", rel("situation_hex_outside_the_map.yaml"))
    assert r.returncode != 0
    assert "Q9 is not a hex of the map" in r.stdout + r.stderr and "Traceback" not in r.stderr


def test_roster_command_with_a_bad_card_folder_exits_non_zero(tmp_path):
    (tmp_path / "bad.yaml").write_bytes((CORPUS / "card_unknown_ability.yaml").read_bytes())
    r = run("-m", "game.data.units", "--folder", str(tmp_path))
    assert r.returncode != 0 and "laser_beam" in r.stderr and "Traceback" not in r.stderr


# --- the desktop game ------------------------------------------------------------------------
def test_the_menu_shows_a_bad_save_in_a_dialog_and_keeps_running(tmp_path, monkeypatch):
    import pygame
    import pygame_gui
    monkeypatch.setenv("HEXFRONT_CONFIG_DIR", str(tmp_path))
    from game.ui.app import App
    from game.ui.settings import Settings
    from game.ui.scenes.menu import MenuScene
    app = App(size=(1280, 800), settings=Settings(sound=False), save_settings=False)
    app.running = True
    app.switch(app.menu_scene())
    app.step()
    menu = app.scene
    for name in ("save_from_a_newer_version.json", "save_truncated.json", "save_binary.json"):
        assert menu.load(str(CORPUS / name)) is False
        assert EXPECTED[name]["says"] in menu.message
        assert isinstance(menu.error_window, pygame_gui.windows.UIMessageWindow)
        assert menu.error_window.alive()
        for _ in range(3):
            app.step()
        assert app.running and app.scene is menu
        menu.error_window.kill()
    pygame.event.clear()
