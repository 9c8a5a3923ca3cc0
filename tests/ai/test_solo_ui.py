"""Solo practice in the desktop game (issue 7), headless: menu -> solo setup ->
battle with the AI playing its side -> victory screen.  The player's side is
played here by sending actions to the battle screen, as clicks would."""
import pygame
import pytest

from tests.uikit import running_app


@pytest.fixture
def app(tmp_path, monkeypatch):
    yield from running_app(tmp_path, monkeypatch)


def press(app, key, frames=2):
    b = app.scene.buttons[key]
    pos = b.rect.center
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    for _ in range(frames):
        app.step(dt=0.05)


def test_solo_setup_choices_reach_the_battle(app):
    """Side, level, scenario, configuration and the AI's army from its builder."""
    from game.ui.scenes.solo_setup import SoloSetupScene
    from game.rules.army import validate_army
    scene = SoloSetupScene(app)
    app.switch(scene)
    app.step(dt=0.05)
    press(app, "side_Axis")
    assert scene.player_side == "Axis" and scene.setup.solo == "Allies"
    press(app, "level_recruit")
    press(app, "assault")
    press(app, "config4")
    assert scene.setup.scenario == "assault" and scene.setup.config == 4
    scene.start(own_sample=True)
    s = scene.setup
    assert s.ai_level == "recruit"
    ai = s.armies["Allies"]
    budget = s.budget("Allies")
    assert ai.points <= budget and not validate_army(ai, budget)
    assert {c.side for c in ai.cards} == {"Allies"}
    mine = s.armies["Axis"]
    assert mine.points <= s.budget("Axis")      # the sample, cut to the Assault budget


def test_build_my_army_opens_the_builder_for_my_side(app):
    from game.ui.scenes.army_builder import ArmyBuilderScene
    from game.ui.scenes.solo_setup import SoloSetupScene
    app.switch(SoloSetupScene(app))
    app.step(dt=0.05)
    press(app, "build")
    assert isinstance(app.scene, ArmyBuilderScene) and app.scene.side == "Allies"


def test_a_short_solo_game_plays_to_the_victory_screen(app):
    """Menu -> Solo practice -> Veteran AI as the Axis -> battle played to the end
    (a two-turn limit keeps it short) -> victory screen; the AI explains its moves
    in the log and Space speeds it up."""
    from game.ai.recruit import RecruitAI
    from game.ui.scenes.battle import BattleScene
    from game.ui.scenes.solo_setup import SoloSetupScene
    from game.ui.scenes.victory import VictoryScene
    app.switch(app.menu_scene())
    app.step(dt=0.05)
    press(app, "solo")
    assert isinstance(app.scene, SoloSetupScene)
    press(app, "level_veteran")
    press(app, "config1")
    press(app, "sample")
    battle = app.scene
    assert isinstance(battle, BattleScene)
    assert battle.ai is not None and battle.ai.sides == ("Axis",)
    game = battle.game
    game.state.options["turn_limit"] = 2
    me = RecruitAI(5)
    sped = False
    for frame in range(6000):
        if not isinstance(app.scene, BattleScene):
            break
        st = game.state
        mode = battle.mode
        if mode.name == "casualty":
            mode.on_button("next" if not getattr(mode, "done", True) else "continue")
        elif mode.name == "game_over":
            mode.on_button("result")
        elif st.to_act == "Allies" and not battle.ai_turn and not battle.anim.busy:
            battle.stack.clear()
            battle.send(me.choose(game))
        elif battle.ai_turn and not sped and st.phase.is_movement:
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0,
                                                 unicode=" ", scancode=0))
            sped = True
        app.step(dt=0.1)
    assert isinstance(app.scene, VictoryScene), (frame, game.state.phase)
    assert game.over
    assert sped and battle.ai.fast
    lines = " ".join(str(x) for x in battle.logp.lines)
    assert "AI:" in lines
    axis_moves = [a for a in game.history if getattr(a, "side", "") == "Axis"]
    assert len(axis_moves) > 10


def test_solo_setup_offers_three_levels_with_one_line_each(app):
    """Solo practice offers Recruit / Veteran / Expert, each with a one-line
    description; the Expert's thinking time is a setting (default 1 s)."""
    from game.ui.scenes.solo_setup import LEVEL_TEXT, LEVELS, SoloSetupScene
    assert LEVELS == ("recruit", "veteran", "expert")
    for lv in LEVELS:
        text = LEVEL_TEXT[lv]
        assert text.lower().startswith(lv) and "\n" not in text and len(text) < 120
    scene = SoloSetupScene(app)
    app.switch(scene)
    app.step(dt=0.05)
    for lv in LEVELS:
        assert f"level_{lv}" in scene.buttons
    press(app, "level_expert")
    assert scene.level == "expert" and scene.level_name == "expert"
    press(app, "thinking")
    assert scene.level_name == "expert:2"
    press(app, "ai_mixed")
    assert scene.ai_source == "builder" and scene.ai_mixed
    press(app, "ai_builder")
    scene.start(own_sample=True)
    ai = scene.setup.armies[scene.ai_side]
    from game.ai.army_builder import THEMES
    # one nation or a historical pairing: the army's nations all come from one theme
    # (a pairing's army need not use every nation of it: Germany alone is a legal draw
    # from Germany + Hungary + Romania, so the test must not depend on the seed's luck)
    nations = {c.nationality for c in ai.cards}
    assert any(nations <= set(g) for g in THEMES[scene.ai_side]), nations


def test_an_expert_solo_game_plays_to_the_victory_screen(app):
    """Menu -> Solo practice -> Expert AI (tiny thinking time) -> battle played to the
    end (a one-turn limit keeps it short) -> victory screen; the Expert explains."""
    from game.ai.expert import ExpertAI
    from game.ai.recruit import RecruitAI
    from game.ui.scenes.battle import BattleScene
    from game.ui.scenes.solo_setup import SoloSetupScene
    from game.ui.scenes.victory import VictoryScene
    app.switch(app.menu_scene())
    app.step(dt=0.05)
    press(app, "solo")
    scene = app.scene
    assert isinstance(scene, SoloSetupScene)
    press(app, "level_expert")
    scene.thinking = 0.02
    press(app, "config2")
    press(app, "sample")
    battle = app.scene
    assert isinstance(battle, BattleScene)
    assert battle.ai is not None and battle.ai.sides == ("Axis",)
    expert = battle.ai.ai["Axis"]
    assert isinstance(expert, ExpertAI) and expert.budget == 0.02
    game = battle.game
    game.state.options["turn_limit"] = 1
    me = RecruitAI(5)
    battle.ai.fast = True
    for frame in range(6000):
        if not isinstance(app.scene, BattleScene):
            break
        st = game.state
        mode = battle.mode
        if mode.name == "casualty":
            mode.on_button("next" if not getattr(mode, "done", True) else "continue")
        elif mode.name == "game_over":
            mode.on_button("result")
        elif st.to_act == "Allies" and not battle.ai_turn and not battle.anim.busy:
            battle.stack.clear()
            battle.send(me.choose(game))
        app.step(dt=0.1)
    assert isinstance(app.scene, VictoryScene), (frame, game.state.phase)
    assert game.over
    lines = " ".join(str(x) for x in battle.logp.lines)
    assert "AI:" in lines and "plans for this phase" in lines
    assert sum(1 for a in game.history if getattr(a, "side", "") == "Axis") > 10
