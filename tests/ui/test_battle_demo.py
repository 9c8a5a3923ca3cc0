"""``main.py --demo`` plays legal actions headless and saves a screenshot; solo
practice lets the AI play its side until the player must act; play again from
the victory screen starts a new battle with the same armies."""
import pygame
import pytest

from tests.uikit import running_app


@pytest.fixture
def app(tmp_path, monkeypatch):
    yield from running_app(tmp_path, monkeypatch, animations=False)


def test_demo_command_line_plays_and_saves_a_screenshot(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("HEXFRONT_CONFIG_DIR", str(tmp_path / "cfg"))
    import main
    out = tmp_path / "demo.png"
    assert main.main(["--demo", "--frames", "150", "--screenshot", str(out), "--seed", "2"]) == 0
    assert out.is_file() and out.stat().st_size > 10_000
    assert "demo played 150 frames" in capsys.readouterr().out
    img = pygame.image.load(str(out))
    assert img.get_size() == (1280, 800)


def test_demo_player_only_sends_legal_actions_and_progresses(app):
    """The demo is a client of the rules: every action it sends is accepted."""
    from game.ui.scenes.battle import BattleScene
    from game.ui.scenes.battle_setup import make_setup
    setup = make_setup(config=2, seed=5)
    setup.demo_frames = 240
    scene = BattleScene(app, setup)
    app.switch(scene)
    refused = []
    orig = scene.note
    scene.note = lambda text: (refused.append(text), orig(text))
    for _ in range(240):
        app.step(dt=1 / 60)
    assert not refused
    assert scene.demo.actions > 10
    assert scene.game.state.turn >= 1 or scene.game.state.phase.is_deploy


def test_solo_ai_plays_its_side_until_the_player_must_act(app):
    from game.ui.scenes.battle import BattleScene
    from game.ui.scenes.battle_setup import make_setup
    setup = make_setup(config=3, seed=11, solo="Axis")
    scene = BattleScene(app, setup)
    app.switch(scene)
    st = scene.game.state
    for _ in range(2000):
        if st.to_act == "Allies":
            break
        assert not scene.buttons, "the player has no buttons while the AI acts"
        app.step(dt=1 / 30)
    assert st.to_act == "Allies"
    app.step(dt=1 / 60)
    assert scene.buttons and not scene.ai_turn


def test_play_again_starts_a_fresh_battle_with_the_same_armies(app):
    from game.rules.state import Outcome, Phase
    from game.ui.scenes.battle import BattleScene
    from game.ui.scenes.battle_setup import make_setup
    from game.ui.scenes.victory import VictoryScene
    setup = make_setup(config=1, seed=3)
    scene = BattleScene(app, setup)
    g = scene.game
    g.state.phase = Phase.GAME_OVER
    g.state.outcome = Outcome("Allies", "more points on the battle map at the end of turn 10 "
                                        "(60 to 40)")
    app.switch(VictoryScene(app, g, setup))
    app.step()
    assert app.scene.result["title"] == "Allied victory"
    assert app.scene.result["reason"].startswith("The Allied player has more points")
    pos = app.scene.buttons["again"].rect.center
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    for _ in range(3):
        app.step()
    assert isinstance(app.scene, BattleScene) and app.scene.game is not g
    names = lambda game, side: [u.name for u in game.state.units_of(side)]  # noqa: E731
    assert names(app.scene.game, "Axis") == names(g, "Axis")
    assert app.scene.game.state.phase == Phase.SETUP_ORDER
