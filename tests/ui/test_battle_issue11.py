"""Issue 11: the battle screen a new player can't break.  Each test drives the real
screen with posted events and asserts on the game state (tests/uikit.py)."""
import pygame
import pytest

from game.rules.actions import Attack, Move
from game.rules.cards import Ability
from game.rules.dice import LoadedDice
from game.rules.state import DefensiveFirePrompt, Phase
from tests.rules.engine_kit import at, card, position, rect_map, rifles, tank
from tests.uikit import click, hover, key, press, running_app, start, step


@pytest.fixture
def app(tmp_path, monkeypatch):
    yield from running_app(tmp_path, monkeypatch, animations=False)


def token(scene, uid):
    return scene.view.unit_slots(scene.game.state)[uid].center


E, NE, NW = 0, 1, 2
F = at(5, 5)


def _howitzer_prompt():
    """A Sherman steps from a hex in front of a sIG 33 (Fixed Howitzer, facing east)
    into one outside its front arc: the defensive-fire prompt of the demo crash."""
    g = position(rect_map(12, 11), dice=[1] * 60, first="Allies")
    mover = g.add_unit(tank("United States", name="Sherman"), "Allies", F.neighbor(NE))
    gun = g.add_unit(tank("Germany", name="sIG 33", front=2, rear=2,
                          abilities=(Ability("fixed_howitzer", None, "Fixed Howitzer",
                                             "front arc only"),)), "Axis", F)
    gun.facing = E
    g.apply(Move("Allies", mover.uid, (F.neighbor(NW),), 3))
    assert isinstance(g.state.pending, DefensiveFirePrompt) and g.state.pending.stage == "leave"
    return g, mover, gun


def test_fixed_howitzer_prompt_does_not_crash_and_says_why_next_hex_is_refused(app):
    """Blocker (ruling 14 + Fixed Howitzer): the prompt asks the rules per stage; the
    'next hex' button is disabled with the rules' reason, N does not pass."""
    g, mover, gun = _howitzer_prompt()
    scene = start(app, g)
    step(app, 3)
    assert scene.mode.name == "defensive_fire"
    b = scene.buttons["wait"]
    assert not b.enabled and "front arc" in b.text
    assert scene.buttons["fire"].enabled
    before = g.state_hash()
    key(app, pygame.K_n)
    assert g.state_hash() == before and g.state.pending.stage == "leave"
    assert "front arc" in scene.notice[0]
    press(app, "fire")
    assert gun.fired_defensively


def test_double_shot_second_attack_is_offered_on_the_bar_and_by_a_click(app):
    """Double Shot: after the first attack the bar offers the second (what legal_actions
    holds), and a click on the ringed enemy makes it (ruling 7: within one activation)."""
    g = position(rect_map(12, 11), phase=Phase.ASSAULT_FIRST, dice=LoadedDice([1] * 80))
    mg = g.add_unit(card("MG-42", speed=1, abilities=(Ability("double_shot", None, "Double Shot",
                                                              "two attacks"),)), "Axis", F)
    t = g.add_unit(rifles("United States", name="GIs"), "Allies", at(7, 5))
    scene = start(app, g)
    click(app, token(scene, mg.uid))
    click(app, token(scene, t.uid))
    assert mg.acted and len([a for a in g.history if isinstance(a, Attack)]) == 1
    step(app, 2)
    assert scene.selected == mg.uid
    text = scene.mode.prompt()
    assert "one more attack (Double Shot)" in text and "has acted" not in text
    assert t.uid in scene.mode.attack_options()
    click(app, token(scene, t.uid))
    assert len([a for a in g.history if isinstance(a, Attack)]) == 2


def test_selecting_a_disrupted_unit_says_why_it_cannot_move(app):
    """Rulebook: a disrupted unit can't move; the bar says so as soon as it is picked."""
    g = position(rect_map(12, 11))
    r = g.add_unit(rifles(name="Grenadiers"), "Axis", F)
    r.disrupted = True
    g.add_unit(rifles("United States"), "Allies", at(10, 5))
    scene = start(app, g)
    click(app, token(scene, r.uid))
    assert scene.selected == r.uid
    assert "disrupted" in scene.mode.prompt()


# --- no exception closes the window -------------------------------------------------------------
def _hotseat(app):
    from game.ui.scenes.battle import BattleScene
    from game.ui.scenes.battle_setup import make_setup
    scene = BattleScene(app, make_setup(config=2, seed=5))
    app.switch(scene)
    step(app, 2)
    return scene


def test_an_error_in_the_battle_screen_shows_the_crash_dialog_and_writes_the_log(
        app, monkeypatch, tmp_path):
    """Issue 11 blocker: the window stays open, the battle is saved as crash-*.json,
    the traceback goes to crashes/crash-*.log; Continue resumes from the last autosave."""
    from game.ui.crash import CrashScene
    from game.ui.scenes.battle import BattleScene
    from game.ui.settings import data_dir
    scene = _hotseat(app)
    scene.autosave()
    monkeypatch.setenv("HEXFRONT_DEBUG", "0")

    def boom(self, surface):
        raise RuntimeError("boom in the prompt bar")
    from game.ui.battle.hud import BattleHUD
    monkeypatch.setattr(BattleHUD, "draw_prompt", boom)
    step(app, 1)
    crash = app.scene
    assert isinstance(crash, CrashScene) and app.crashes
    # the frame died inside the map's clip: the dialog (and every later frame) draws on
    # the whole window again
    screen = pygame.display.get_surface()
    assert screen.get_clip() == screen.get_rect()
    logs = list((data_dir() / "crashes").glob("crash-*.log"))
    assert len(logs) == 1
    text = logs[0].read_text()
    assert "RuntimeError: boom in the prompt bar" in text and "Traceback" in text
    assert crash.report.save is not None and crash.report.save.is_file()
    assert crash.report.save.name.startswith("crash-") and crash.report.save.suffix == ".json"
    assert any("saved as crash-" in line for line in crash.lines())
    monkeypatch.undo()
    monkeypatch.setenv("HEXFRONT_CONFIG_DIR", str(tmp_path / "cfg"))
    step(app, 1)
    press(app, "continue")
    assert isinstance(app.scene, BattleScene) and app.scene is not scene


def test_crash_dialog_main_menu(app, monkeypatch):
    from game.ui.crash import CrashScene
    from game.ui.scenes.battle import BattleScene
    from game.ui.scenes.menu import MenuScene
    _hotseat(app)
    monkeypatch.setenv("HEXFRONT_DEBUG", "0")
    monkeypatch.setattr(BattleScene, "update", lambda self, dt: 1 / 0)
    step(app, 1)
    assert isinstance(app.scene, CrashScene)
    key(app, pygame.K_ESCAPE)
    assert isinstance(app.scene, MenuScene)


def test_under_tests_an_error_is_re_raised(app, monkeypatch):
    from game.ui.scenes.battle import BattleScene
    _hotseat(app)
    monkeypatch.setattr(BattleScene, "update", lambda self, dt: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        step(app, 1)


def test_an_ai_error_is_an_error_not_random_play(app, monkeypatch):
    """The demo must not fall back to random play when the AI fails."""
    from game.ui.scenes.battle import BattleScene
    from game.ui.scenes.battle_setup import make_setup
    setup = make_setup(config=2, seed=5)
    setup.demo_frames = 100
    scene = BattleScene(app, setup)
    app.switch(scene)

    class Broken:
        def choose(self, game):
            raise KeyError("the AI's bug")
    scene.demo.ai = {"Axis": Broken(), "Allies": Broken()}
    with pytest.raises(KeyError):
        step(app, 120)


# --- Esc ------------------------------------------------------------------------------------
def test_esc_opens_the_battle_menu_in_deployment_play_and_defensive_fire(app):
    """Issue 11: one press of Esc opens the in-battle menu in every state of the screen."""
    from game.ui.scenes.battle import BattleScene
    from game.ui.scenes.battle_setup import make_setup
    scene = BattleScene(app, make_setup(config=2, seed=5))
    app.switch(scene)
    step(app, 2)
    while not scene.game.state.phase.is_deploy:        # coin flip, ends
        b = scene.buttons
        press(app, next(iter(k for k in ("first", "left") if k in b)))
    assert scene.mode.name == "deploy"
    key(app, pygame.K_ESCAPE)
    assert scene.mode.name == "menu"
    assert set(scene.buttons) == {"resume", "save", "load", "settings", "keys", "rules", "luck",
                                 "leave"}
    before = scene.game.state_hash()
    key(app, pygame.K_RETURN)                           # the battle behind waits
    assert scene.game.state_hash() == before and scene.mode.name == "menu"
    press(app, "keys")
    assert scene.mode.show_keys
    key(app, pygame.K_ESCAPE)
    assert scene.mode.name == "deploy"
    g, mover, gun = _howitzer_prompt()
    scene2 = start(app, g)
    key(app, pygame.K_ESCAPE)
    assert scene2.mode.name == "menu"
    press(app, "resume")
    assert scene2.mode.name == "defensive_fire"
    key(app, pygame.K_ESCAPE)
    press(app, "leave")
    assert scene2.mode.name == "confirm"
    press(app, "yes")
    from game.ui.scenes.menu import MenuScene
    assert isinstance(app.scene, MenuScene)


def test_battle_menu_settings_come_back_to_the_same_battle(app):
    from game.ui.scenes.settings_scene import SettingsScene
    g, mover, gun = _howitzer_prompt()
    scene = start(app, g)
    key(app, pygame.K_ESCAPE)
    press(app, "settings")
    assert isinstance(app.scene, SettingsScene)
    key(app, pygame.K_ESCAPE)
    assert app.scene is scene and scene.game is g


# --- Assault objective ------------------------------------------------------------------------
def test_assault_objective_is_drawn_where_the_defender_placed_it(app, monkeypatch):
    """Rulebook: Assault Scenario - the defender places the objective; the battle map and
    the side panel show it there, not on the configuration's own objective hex."""
    import game.ui.battle.view as view_mod
    from game.rules.engine import new_game
    drawn = []
    real = view_mod.draw_objective
    monkeypatch.setattr(view_mod, "draw_objective",
                        lambda surf, lay, h: (drawn.append(h), real(surf, lay, h)))
    bm = rect_map(14, 9, objective=(4, 4))
    g = new_game(bm, {"Axis": [tank()], "Allies": [rifles("United States")]},
                 scenario="assault", options={"attacker": "Axis"})
    scene = start(app, g)
    press(app, "right")
    assert scene.mode.name == "objective"
    drawn.clear()
    step(app, 2)
    assert bm.objective not in drawn                 # not placed yet: no counter
    click(app, scene.view.center(at(9, 4)))
    assert g.state.objective == at(9, 4) != bm.objective
    drawn.clear()
    scene.view.pan(1, 0)                             # the board picture is drawn again
    step(app, 2)
    assert drawn and set(drawn) == {at(9, 4)}
    assert scene.objective_hex() == at(9, 4)


# --- the whole stat card --------------------------------------------------------------------
def test_right_click_or_hold_on_any_unit_opens_its_whole_card(app):
    """Issue 11: every ability's full text is readable during play - right-click or hold
    on any unit, friend or enemy, opens its whole stat card."""
    from game.data.units import load_roster
    roster = load_roster()
    captain = next(c for c in roster.values() if c.has("pinpointer"))
    g = position(rect_map(12, 11))
    mine = g.add_unit(rifles(name="Grenadiers"), "Axis", F)
    enemy = g.add_unit(captain, "Allies", at(9, 5))
    scene = start(app, g)
    click(app, token(scene, enemy.uid), button=3)
    assert scene.mode.name == "card" and scene.mode.uid == enemy.uid
    step(app, 1)
    assert scene.overlays.painter(scene.mode).fits  # nothing cut with an ellipsis
    key(app, pygame.K_ESCAPE)
    assert scene.mode.name == "play"
    pos = token(scene, mine.uid)                   # hold: press, wait, release
    hover(app, pos, 0)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    step(app, 45)
    assert scene.mode.name == "card" and scene.mode.uid == mine.uid
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    step(app, 2)
    assert scene.mode.name == "card"               # the release does not close it
    click(app, pos)
    assert scene.mode.name == "play" and g.state.units[mine.uid].hex == F


def test_card_text_never_shows_ruling_numbers():
    from game.data.units import load_roster
    from game.ui.cardview import card_lines
    for c in load_roster().values():
        for line in card_lines(c):
            assert "ruling" not in line.lower(), (c.name, line)


# --- minor items ---------------------------------------------------------------------------------
def _deploying(app):
    from game.rules.engine import new_game
    g = new_game(rect_map(14, 9), {"Axis": [rifles(name="Grenadiers"), rifles(name="Grenadiers 2")],
                                   "Allies": [rifles("United States")]},
                 coin_winner="Axis")
    scene = start(app, g)
    press(app, "first")
    press(app, "left")
    assert scene.mode.name == "deploy"
    return g, scene


def test_clicking_the_hex_of_an_own_unit_stacks_the_tray_unit_there(app):
    """Rulebook: Stacking (two Soldiers may share a hex) - in deployment a click on the
    hex of an own unit (beside its token) places the tray unit there too; a click on
    the token itself selects that unit."""
    g, scene = _deploying(app)
    a, b = "axis-1", "axis-2"
    h = next(x.hex for x in g.legal_actions() if getattr(x, "uid", None) == a)
    scene.selected = a
    step(app, 1)
    click(app, scene.view.center(h))
    assert g.state.units[a].hex == h
    assert scene.selected == b                       # the next tray unit is picked
    cx, cy = scene.view.center(h)
    size = scene.view.layout.size
    tok = scene.view.unit_slots(g.state)[a]
    off = (int(cx), int(cy + size * 0.8))           # inside the hex, beside the token
    assert not tok.collidepoint(off) or ((off[1] - tok.centery) > tok.h / 2)
    assert scene.view.hex_at(off) == h
    click(app, off)
    assert g.state.units[b].hex == h


def test_clicking_the_token_of_a_placed_unit_selects_it(app):
    g, scene = _deploying(app)
    h = next(x.hex for x in g.legal_actions() if getattr(x, "uid", None) == "axis-1")
    scene.selected = "axis-1"
    step(app, 1)
    click(app, scene.view.center(h))
    assert scene.selected == "axis-2"
    click(app, token(scene, "axis-1"))
    assert scene.selected == "axis-1" and g.state.units["axis-2"].hex is None


def test_a_stray_enter_does_not_commit_the_deployment(app):
    g, scene = _deploying(app)
    for uid in ("axis-1", "axis-2"):
        scene.selected = uid
        step(app, 1)
        h = next(x.hex for x in g.legal_actions() if getattr(x, "uid", None) == uid
                 and all(u.hex != x.hex for u in g.state.units.values()))
        click(app, scene.view.center(h))
    assert all(g.state.units[u].hex for u in ("axis-1", "axis-2"))
    key(app, pygame.K_RETURN)
    key(app, pygame.K_RETURN)
    assert g.state.phase == Phase.DEPLOY_FIRST and scene.mode.name == "confirm"
    assert "Done deploying?" in scene.mode.prompt()
    press(app, "yes")
    assert g.state.phase == Phase.DEPLOY_SECOND


def test_turn_in_place_offers_keep_facing_and_cancel(app):
    g = position(rect_map(12, 9))
    t = g.add_unit(tank(), "Axis", at(3, 4), facing=0)
    g.add_unit(rifles("United States"), "Allies", at(10, 4))
    scene = start(app, g)
    click(app, token(scene, t.uid))
    key(app, pygame.K_t)
    step(app, 1)
    labels = [(b.text, b.hotkey) for b in scene.buttons.values()]
    assert labels == [("Keep facing", "Enter"), ("Cancel", "Esc")]


def test_dice_say_successes_and_movement_rolls_say_needs(app):
    """One vocabulary: dice score successes, outcomes are hits."""
    from game.ui.battle.panels import odds_summary
    g = position(rect_map(12, 11), phase=Phase.ASSAULT_FIRST, dice=LoadedDice([6, 6, 1, 1, 1, 1] * 5))
    r = g.add_unit(rifles(), "Axis", F)
    t = g.add_unit(rifles("United States"), "Allies", at(7, 5))
    scene = start(app, g)
    o = g.odds(r.uid, t.uid)
    assert "success on" in odds_summary(o) and "hit on" not in odds_summary(o)
    click(app, token(scene, r.uid))
    click(app, token(scene, t.uid))
    assert scene.dice.need is not None
    scene.dice.tumble = 0
    step(app, 30)
    head = scene.dice.headline()
    assert "successes of" in head and "success on" in head and " hit" not in head


def test_coin_flip_says_allies_win_the_toss(app):
    from game.rules.engine import new_game
    g = new_game(rect_map(14, 9), {"Axis": [rifles()], "Allies": [rifles("United States")]},
                 coin_winner="Allies")
    scene = start(app, g)
    assert "Allies win the toss" in scene.mode.prompt()


def test_line_of_sight_view_letters_bands_and_shows_a_legend(app, monkeypatch):
    """Hold L: the range-band letters of the preview (S / M / L) and a legend."""
    import game.ui.battle.overlays as battle_mod
    g = position(rect_map(14, 9))
    r = g.add_unit(rifles(), "Axis", at(3, 4))
    scene = start(app, g)
    click(app, token(scene, r.uid))
    legends = []
    real = battle_mod.BattleOverlays.draw_los_legend
    monkeypatch.setattr(battle_mod.BattleOverlays, "draw_los_legend",
                        lambda self, s: (legends.append(1), real(self, s)))
    letters = []
    import game.ui.battle.view as view_mod
    real_layer = view_mod.region_layer
    monkeypatch.setattr(battle_mod, "region_layer", lambda lay, hexes, fill, text=None, **k: (
        letters.extend(t for t in (text(h) for h in hexes) if t) if text else None,
        real_layer(lay, hexes, fill, text=text, **k))[1])
    key(app, pygame.K_l, up=False)
    assert scene.los_from == r.hex and legends
    assert {"S", "M", "L"} <= set(letters)
    key(app, pygame.K_l)


def test_terrain_legend_toggles_with_g_in_battle_and_preview(app, monkeypatch):
    import game.ui.render_export as rx
    calls = []
    real = rx.draw_legend_overlay
    monkeypatch.setattr(rx, "draw_legend_overlay", lambda *a, **k: (calls.append(1), real(*a, **k))[1])
    g = position(rect_map(14, 9))
    g.add_unit(rifles(), "Axis", at(3, 4))
    scene = start(app, g)
    key(app, pygame.K_g)
    assert scene.show_legend and calls
    key(app, pygame.K_g)
    calls.clear()
    step(app, 2)
    assert not scene.show_legend and not calls
    from game.ui.scenes.preview import PreviewScene
    app.switch(PreviewScene(app, config=1))
    step(app, 2)
    key(app, pygame.K_g)
    assert app.scene.show_legend and calls


def test_hex_labels_use_the_bundled_monospaced_font_at_a_readable_size(app, monkeypatch):
    """'I10' must not read as 'H0', 'A11' not as 'Af1': the labels use the bundled
    DejaVu Sans Mono Bold (distinct I, 1, l, 0, O), never below 11 px."""
    import game.ui.assets as assets
    from game.data.maps import load_configuration
    from game.ui.map_render import MapRenderer
    sizes = []
    real = assets.label_font
    monkeypatch.setattr(assets, "label_font", lambda px: (sizes.append(px), real(px))[1])
    MapRenderer(load_configuration(1), 20.0, labels=True).render()
    assert sizes and min(sizes) >= 11
    f = real(12)
    assert f.size("I")[0] == f.size("1")[0] == f.size("H")[0]      # one width per glyph
    assert f.render("I10", True, (0, 0, 0)).get_width() > f.render("H0", True, (0, 0, 0)).get_width()


def test_quick_start_in_assault_uses_armies_built_for_the_assault_budgets():
    """Rulebook: Assault Scenario - 120 points for the attacker, 80 for the defender;
    the quick start armies are built for those budgets and pass game.rules.army."""
    from game.rules.army import budget_for
    from game.ui.scenes.battle_setup import army_problems, make_setup
    for attacker in ("Axis", "Allies"):
        setup = make_setup(scenario="assault", config=3, seed=1, attacker=attacker)
        for side in ("Axis", "Allies"):
            role = "attacker" if side == attacker else "defender"
            army = setup.armies[side]
            assert army_problems(setup, side) == []
            assert budget_for("assault", role) - 5 <= army.points <= budget_for("assault", role)
            assert "cut to" not in army.name


def test_a_network_seat_keeps_its_hook_points(app):
    """net16's remote seat (game.net) plugs into the rebuilt screen: attach, forward,
    waiting_line, save_net, update - like the solo AI."""
    from game.ui.scenes.battle import BattleScene
    from game.ui.scenes.battle_setup import make_setup

    class Seat:
        sides = ("Allies",)

        def __init__(self):
            self.sent, self.saved, self.scene = [], 0, None
            self.waiting_line = "Waiting for the other player..."

        def attach(self, scene):
            self.scene = scene

        def forward(self, action):
            self.sent.append(action)
            return None               # None: the screen applies it itself

        def save_net(self):
            self.saved += 1

        def update(self, dt):
            pass
    setup = make_setup(config=2, seed=5)
    seat = setup.remote = Seat()
    scene = BattleScene(app, setup)
    app.switch(scene)
    step(app, 2)
    assert seat.scene is scene
    first = scene.legal()[0]
    assert scene.send(first) and seat.sent == [first] and scene.game.history == [first]
    if scene.ai_turn:
        assert seat.waiting_line in scene.hud._prompt_text()
    key(app, pygame.K_s, mod=pygame.KMOD_CTRL)
    assert seat.saved == 1


def test_vehicle_facing_is_chosen_where_the_move_actually_ends(app):
    """Rulebook: Vehicle Facing, Movement Rolls - the facing is picked after the rolls:
    a tank whose forest roll fails stops short and is never asked to face the forest
    hex; one whose roll succeeds is asked there (rules: FacingChoice -> Face)."""
    for die, ends_in_forest in ((1, False), (6, True)):
        bm = rect_map(12, 9, {(6, 4): "forest"})
        g = position(bm, dice=LoadedDice([die] * 10))
        t = g.add_unit(tank(), "Axis", at(4, 4), facing=0)
        g.add_unit(rifles("United States"), "Allies", at(11, 8))
        scene = start(app, g)
        click(app, token(scene, t.uid))
        forest = at(6, 4)
        assert forest in g.reachable(t.uid)
        click(app, scene.view.center(forest))
        if ends_in_forest:
            assert scene.mode.name == "facing" and scene.mode.hex == forest
            click(app, scene.mode.wedge_pos(3))
            assert t.hex == forest and t.facing == 3 and g.state.pending is None
        else:
            assert t.hex != forest and scene.mode.name == "play" and g.state.pending is None
