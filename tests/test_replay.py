"""Replay viewer (game.saves.Replay, game/ui/scenes/replay.py), continue from here,
the crash-resume offer in the menu and the battle screen's undo-all key (brief H)."""
import json
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from tests.saves_kit import play, played, resealed
from game import saves
from game.rules.actions import EndPhase
from game.rules.events import DiceRolled
from game.ui.settings import Settings

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("HEXFRONT_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("HEXFRONT_CONFIG_DIR", str(tmp_path / "cfg"))
    return tmp_path / "data"


@pytest.fixture(scope="module")
def fought():
    """A game played on until well after its first attack with dice."""
    g = played(60, seed=4)
    for chunk in range(40):
        if any(isinstance(e, DiceRolled) for e in g.log) or g.over:
            break
        play(g, 20, seed=chunk, end_bias=0.1)
    assert any(isinstance(e, DiceRolled) for e in g.log)
    play(g, 10, seed=9)
    return g


@pytest.fixture
def save_path(fought, tmp_path):
    return saves.save_game(fought, tmp_path / "fought.json")


def test_replay_steps_through_every_action_to_the_saved_position(fought, save_path):
    r = saves.Replay.open(save_path)
    assert r.problem is None
    assert r.last == len(fought.history) and r.index == 0
    assert r.step.action is None and r.state.phase.value == "setup_order"
    r.go(r.last)
    from game.rules.engine import Game
    assert Game(r.state).state_hash() == fought.state_hash()
    assert r.forward() == r.last                       # clamped at the end
    r.go(0)
    assert r.back() == 0
    assert r.forward() == 1 and r.step.action == fought.history[0]


def test_steps_by_phase_and_turn(save_path):
    r = saves.Replay.open(save_path)
    seen = []
    while r.index < r.last:
        before = (r.step.turn, r.step.phase)
        r.next_phase()
        if r.index < r.last:
            assert (r.step.turn, r.step.phase) != before
            prev = r.steps[r.index - 1]
            assert (prev.turn, prev.phase) == before        # the first step of the new phase
        seen.append(r.step.phase)
    assert "movement_first" in seen and "assault_first" in seen
    r.go(0)
    r.next_turn()
    assert r.step.turn == 1 and r.steps[r.index - 1].turn == 0
    here = r.index
    r.next_phase()
    r.prev_phase()                     # back to the start of the phase we were in
    assert r.index == here
    r.prev_turn()
    assert r.step.turn == 0 and r.index == 0


def test_the_dice_of_each_roll_are_shown(save_path):
    r = saves.Replay.open(save_path)
    attack_steps = [s.index for s in r.steps if any(isinstance(e, DiceRolled) for e in s.events)]
    assert attack_steps
    rolls = r.rolls(attack_steps[0])
    ev = next(e for e in r.steps[attack_steps[0]].events if isinstance(e, DiceRolled))
    assert (ev.text, tuple(ev.dice), ev.need) in rolls
    init = next(s.index for s in r.steps if s.phase == "initiative" or
                any(type(e).__name__ == "InitiativeRolled" for e in s.events))
    assert any(len(d) == 4 for _, d, _ in r.rolls(init))   # two dice per side


def test_continue_from_here_is_a_new_game_with_the_first_actions(fought, save_path, tmp_path):
    r = saves.Replay.open(save_path)
    r.go(r.last // 2)
    g = r.continue_game()
    assert g.history == fought.history[:r.index]
    assert g.origin is not None
    play(g, 5, seed=77)                               # it plays on...
    back = saves.load_game(saves.save_game(g, tmp_path / "branch.json"))   # ...and saves
    assert back.state_hash() == g.state_hash()


def test_a_broken_save_can_still_be_watched_up_to_the_problem(save_path, tmp_path):
    data = json.loads(Path(save_path).read_text())
    data["state_hash"] = "f" * 64
    p = tmp_path / "mismatch.json"
    p.write_text(json.dumps(resealed(data)))
    r = saves.Replay.open(p)
    assert "different position" in r.problem and r.last == len(data["actions"])
    data["actions"].insert(5, {"type": "EndPhase", "side": "Allies"})
    p.write_text(json.dumps(resealed(data)))
    r = saves.Replay.open(p)
    assert "entry 'action 6'" in r.problem and r.last == 5


# --- the screen ---------------------------------------------------------------------------------
@pytest.fixture
def app():
    from game.ui.app import App
    s = Settings(sound=False)
    s.animation_speed = "off"
    a = App(size=(1280, 800), settings=s, save_settings=False)
    a.running = True
    pygame.event.clear()
    yield a
    pygame.event.clear()


def key(app, k, mod=0, frames=1):
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0))
    for _ in range(frames):
        app.step(dt=1 / 60)


def click(app, pos, frames=1):
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    for _ in range(frames):
        app.step(dt=1 / 60)


def test_replay_screen_keys_buttons_and_continue(app, save_path):
    from game.ui.scenes.battle import BattleScene
    from game.ui.scenes.replay import ReplayScene
    scene = ReplayScene.from_file(app, save_path)
    app.switch(scene)
    app.step()
    r = scene.replay
    key(app, pygame.K_RIGHT)
    assert r.index == 1
    key(app, pygame.K_RIGHT, pygame.KMOD_SHIFT)
    assert r.step.phase != r.steps[0].phase
    key(app, pygame.K_RIGHT, pygame.KMOD_CTRL)
    assert r.step.turn == 1
    key(app, pygame.K_END)
    assert r.index == r.last
    b = {b.key: b for b in scene.buttons}
    assert not b["forward"].enabled and b["back"].enabled
    click(app, b["back"].rect.center)
    assert r.index == r.last - 1
    key(app, pygame.K_HOME)
    assert r.index == 0
    click(app, b["turn_forward"].rect.center)
    target = r.index
    app.step()
    surf = app.screen if hasattr(app, "screen") else pygame.display.get_surface()
    assert surf is not None
    key(app, pygame.K_c, frames=2)
    assert isinstance(app.scene, BattleScene)
    assert len(app.scene.game.history) == target


def test_main_replay_refuses_a_bad_save(tmp_path):
    r = subprocess.run([sys.executable, "main.py", "--replay",
                        "tests/bad_input/save_from_a_newer_version.json"], cwd=ROOT,
                       capture_output=True, text=True, timeout=120,
                       env={**__import__("os").environ, "SDL_VIDEODRIVER": "dummy",
                            "SDL_AUDIODRIVER": "dummy", "HEXFRONT_CONFIG_DIR": str(tmp_path)})
    assert r.returncode == 2 and "newer Hexfront" in r.stderr and "Traceback" not in r.stderr


def test_menu_replay_button_opens_the_viewer_and_a_bad_file_a_dialog(app, save_path):
    from game.ui.scenes.replay import ReplayScene
    app.switch(app.menu_scene())
    app.step()
    menu = app.scene
    assert "replay" in menu.buttons
    assert menu.watch("tests/bad_input/save_binary.json") is False
    assert menu.error_window.alive() and "binary" in menu.message
    assert menu.watch(str(save_path)) is True
    app.step()
    assert isinstance(app.scene, ReplayScene)


def test_menu_offers_to_resume_after_a_crash(app, data_dir):
    import pygame_gui
    from game.ui.scenes.battle import BattleScene
    assert saves.begin_session() is None
    g = played(30, seed=8)
    saves.autosave(g)                       # ... and the game crashes here
    app.resume_offer = saves.begin_session()
    assert app.resume_offer is not None
    app.switch(app.menu_scene())
    app.step()
    menu = app.scene
    assert isinstance(menu.resume_dialog, pygame_gui.windows.UIConfirmationDialog)
    menu.on_event(pygame.event.Event(pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED,
                                     ui_element=menu.resume_dialog))
    app.step()
    assert isinstance(app.scene, BattleScene)
    assert app.scene.game.state_hash() == g.state_hash()
    assert app.resume_offer is None


def test_battle_screen_u_takes_back_the_whole_phase(app):
    """brief H: undo-all for the current phase, wired to U."""
    from game.rules.actions import Move
    from game.ui.scenes.battle import BattleScene
    from tests.saves_kit import new
    g = new(3)
    while not g.state.phase.is_movement:
        acts = [a for a in g.legal_actions() if type(a).__name__ != "Undeploy"]
        ends = [a for a in acts if isinstance(a, EndPhase)]
        g.apply(ends[0] if ends else acts[0])
    start = g.state_hash()
    scene = BattleScene(app, game=g)
    app.switch(scene)
    app.step()
    moved = 0
    for _ in range(2):
        for a in g.legal_actions():
            if not (isinstance(a, Move) and a.path):
                continue
            trial = g.copy()
            rolls = trial.dice.rolls
            ev = trial.apply(a)
            if trial.dice.rolls == rolls and not any(
                    type(e).__name__ == "DefensiveFireOffered" for e in ev):
                g.apply(a)
                moved += 1
                break
    assert moved and len(g.undoable()) == moved
    key(app, pygame.K_u)
    assert g.state_hash() == start and g.undoable() == []
    key(app, pygame.K_u)                    # nothing left: a note, no change
    assert g.state_hash() == start
