"""Battle screen, play: moving (with a Vehicle's facing), attacking with the exact odds
shown, a defensive-fire prompt answered by the defender, ending a phase (with the
confirm), the casualty phase step by step, and the victory screen - by posted
mouse and key events at hex centres and buttons, each asserting the game state."""

import pygame
import pytest

from game.rules.hexes import hex_label
from game.rules.state import DefensiveFirePrompt, OrderChoice, Phase
from tests.rules.engine_kit import at, position, rect_map, rifles, tank
from tests.uikit import click, hover, key, press, running_app, start, step


@pytest.fixture
def app(tmp_path, monkeypatch):
    yield from running_app(tmp_path, monkeypatch, animations=False)








def token(scene, uid):
    return scene.view.unit_slots(scene.game.state)[uid].center


# --- movement --------------------------------------------------------------------------------
def test_vehicle_moves_and_picks_a_facing(app):
    """Rulebook: Movement - a Vehicle moves up to its speed and may end facing any way."""
    bm = rect_map(16, 11)
    g = position(bm)
    t = g.add_unit(tank(), "Axis", at(3, 5), facing=0)
    g.add_unit(rifles("United States"), "Allies", at(14, 5))
    scene = start(app, g)
    click(app, token(scene, t.uid))
    assert scene.selected == t.uid
    reach = g.reachable(t.uid)
    dest = at(6, 5)
    assert dest in reach and reach[dest].stops
    hover(app, scene.view.center(dest))           # path shown with its cost (no crash, cost known)
    click(app, scene.view.center(dest))
    assert scene.mode.name == "facing"
    click(app, scene.mode.wedge_pos(2))
    assert t.hex == dest and t.facing == 2 and t.acted
    assert any("moves" in line[0] for line in scene.logp.lines[-3:])


def test_soldier_move_and_why_not(app):
    """Rulebook: Movement - a hex out of reach says why, in the rules' words."""
    bm = rect_map(16, 11, {(5, 5): "forest"})
    g = position(bm)
    r = g.add_unit(rifles(), "Axis", at(3, 5))
    scene = start(app, g)
    click(app, token(scene, r.uid))
    far = at(12, 5)
    click(app, scene.view.center(far))
    assert r.hex == at(3, 5)
    assert scene.notice[0] == g.why_not_reach(r.uid, far)
    click(app, scene.view.center(at(4, 5)))      # a soldier needs no facing
    assert r.hex == at(4, 5) and r.acted and scene.mode.name == "play"


def test_turn_in_place_with_key(app):
    """Rulebook: Movement - a Vehicle may change facing without moving."""
    g = position(rect_map(12, 9))
    t = g.add_unit(tank(), "Axis", at(3, 4), facing=0)
    g.add_unit(rifles("United States"), "Allies", at(10, 4))
    scene = start(app, g)
    click(app, token(scene, t.uid))
    key(app, pygame.K_t)
    assert scene.mode.name == "facing"
    click(app, scene.mode.wedge_pos(4))
    assert t.facing == 4 and t.hex == at(3, 4)


# --- assault ------------------------------------------------------------------------------------
def test_attack_shows_exact_odds_and_places_a_face_down_counter(app):
    """Rulebook: Attacking - the odds shown are the rules' exact odds; a hit places a
    face-down counter (ruling 13)."""
    g = position(rect_map(16, 11), phase=Phase.ASSAULT_FIRST, dice=[6] * 20)
    t = g.add_unit(tank(), "Axis", at(3, 5), facing=0)
    e = g.add_unit(rifles("United States"), "Allies", at(6, 5))
    scene = start(app, g)
    click(app, token(scene, t.uid))
    opts = scene.base.attack_options()
    assert e.uid in opts
    shown = opts[e.uid][0].odds
    exact = g.odds(t.uid, e.uid)
    assert (shown.p_none, shown.p_disrupted, shown.p_destroyed) == \
        (exact.p_none, exact.p_disrupted, exact.p_destroyed)
    hover(app, token(scene, e.uid))
    click(app, token(scene, e.uid))
    assert t.acted and e.pending, "the hit is a face-down counter until the casualty phase"
    assert scene.dice.dice and all(d == 6 for d in scene.dice.dice)
    assert scene.dice.successes == len(scene.dice.dice)


# --- defensive fire ------------------------------------------------------------------------------
def _df_position(dice):
    bm = rect_map(16, 11)
    g = position(bm, dice=dice)
    enemy_hex = at(8, 5)
    a, b = enemy_hex.neighbor(3), enemy_hex.neighbor(2)
    mover = g.add_unit(rifles(), "Axis", a)
    firer = g.add_unit(rifles("United States"), "Allies", enemy_hex)
    return g, mover, firer, a, b


def test_defensive_fire_prompt_fire_here_stops_the_mover(app):
    """Rulebook: Provoking Defensive Fire; ruling 14 - the defender is asked while the
    mover leaves its hex; a successful shot disrupts it and ends its move."""
    g, mover, firer, a, b = _df_position([6] * 12)
    scene = start(app, g)
    click(app, token(scene, mover.uid))
    click(app, scene.view.center(b))
    p = g.state.pending
    assert isinstance(p, DefensiveFirePrompt) and p.stage == "leave"
    assert scene.mode.name == "defensive_fire" and g.state.to_act == "Allies"
    assert firer.uid in scene.mode.eligible()
    assert hex_label(a) in scene.mode.prompt()
    press(app, "fire")
    assert firer.fired_defensively and mover.disrupted and mover.hex == a
    assert g.state.pending is None and scene.mode.name == "play"


def test_defensive_fire_wait_then_hold(app):
    """Ruling 14 - waiting for the next hex keeps the shot for the enter stage;
    holding fire there lets the mover through."""
    g, mover, firer, a, b = _df_position([1] * 12)
    scene = start(app, g)
    click(app, token(scene, mover.uid))
    click(app, scene.view.center(b))
    press(app, "wait")                       # fire at the next hex instead
    p = g.state.pending
    assert isinstance(p, DefensiveFirePrompt) and p.stage == "enter"
    assert "wait" not in scene.buttons
    key(app, pygame.K_h)                      # hold fire
    assert g.state.pending is None and mover.hex == b and not mover.disrupted
    assert not firer.fired_defensively


# --- ending phases, casualty phase, victory ------------------------------------------------------
def test_end_phase_asks_when_units_have_not_acted(app):
    """End phase with a key; a confirm when units have not acted (Esc keeps the phase)."""
    g = position(rect_map(12, 9))
    g.add_unit(rifles(), "Axis", at(3, 4))
    g.add_unit(rifles("United States"), "Allies", at(10, 4))
    scene = start(app, g)
    key(app, pygame.K_e)
    assert scene.mode.name == "confirm" and g.state.phase == Phase.MOVEMENT_FIRST
    assert scene.mode.text.startswith("1 unit has not acted (Germany rifles)"), scene.mode.text
    key(app, pygame.K_ESCAPE)
    assert scene.mode.name == "play" and g.state.phase == Phase.MOVEMENT_FIRST
    key(app, pygame.K_e)
    press(app, "yes")
    assert g.state.phase == Phase.MOVEMENT_SECOND and g.state.to_act == "Allies"


def test_casualty_phase_step_by_step_then_next_turn(app):
    """Rulebook: Casualty Phase - face-down counters are flipped and applied, shown step
    by step with a summary naming who holds the objective; then the next turn's
    initiative."""
    bm = rect_map(12, 9, objective=(6, 4))
    g = position(bm, phase=Phase.ASSAULT_SECOND, dice=[5, 5, 2, 2] + [4] * 20)
    hurt = g.add_unit(rifles(), "Axis", at(2, 4), pending=["disrupted"])
    g.add_unit(rifles("United States"), "Allies", at(9, 4), acted=True)
    scene = start(app, g)
    key(app, pygame.K_RETURN)                   # end the Allied assault phase
    assert scene.mode.name == "casualty"
    assert hurt.disrupted and not hurt.pending
    m = scene.mode
    assert not m.done and m.shown == 1
    key(app, pygame.K_SPACE)
    while not m.done:
        key(app, pygame.K_SPACE)
    assert "1 disrupted" in m.summary() and "nobody holds the objective" in m.summary()
    press(app, "continue")
    assert g.state.turn == 2 and isinstance(g.state.pending, OrderChoice)
    assert scene.mode.name == "order"


def test_victory_screen_after_objective_held_at_turn_7(app):
    """Rulebook: How to Win (rulings 9-11) - from the end of turn 7 the only player next
    to the objective wins; the victory screen says who and why."""
    from game.ui.scenes.menu import MenuScene
    from game.ui.scenes.victory import VictoryScene
    bm = rect_map(12, 9, objective=(6, 4))
    g = position(bm, phase=Phase.ASSAULT_SECOND, turn=7)
    g.add_unit(rifles(), "Axis", at(5, 4))
    g.add_unit(rifles("United States"), "Allies", at(11, 8), acted=True)
    lost = g.add_unit(rifles("United States"), "Allies", at(10, 8))
    lost.destroyed = True
    scene = start(app, g)
    key(app, pygame.K_e)
    assert g.state.phase == Phase.GAME_OVER and g.state.outcome.winner == "Axis"
    assert scene.mode.name == "casualty"
    key(app, pygame.K_RETURN)                  # show every step
    key(app, pygame.K_RETURN, frames=3)        # continue -> victory screen
    assert isinstance(app.scene, VictoryScene)
    r = app.scene.result
    assert r["title"] == "Axis victory" and "objective" in r["reason"]
    assert r["sides"]["Allies"]["lost"] == [lost.name] and r["sides"]["Axis"]["points"] == 5
    press(app, "menu")
    assert isinstance(app.scene, MenuScene)


# --- tools ------------------------------------------------------------------------------------------
def test_line_of_sight_tool_zoom_and_pan(app):
    """Rulebook: Line of Sight - hold L to see what the selected unit sees; the
    blocking hex is named on hover.  Wheel zooms, arrows pan."""
    bm = rect_map(12, 9, {(5, 4): "forest"})
    g = position(bm)
    r = g.add_unit(rifles(), "Axis", at(3, 4))
    scene = start(app, g)
    click(app, token(scene, r.uid))
    key(app, pygame.K_l, up=False)
    assert scene.los_from == r.hex
    behind = at(8, 4)
    assert not bm.los.visible(r.hex, behind) and bm.los.blocker(r.hex, behind) == at(5, 4)
    hover(app, scene.view.center(behind), frames=2)
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_l, mod=0, unicode="", scancode=0))
    step(app)
    assert scene.los_from is None
    size = scene.view.hex_size
    pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1, flipped=False))
    step(app)
    assert scene.view.hex_size > size
    off = scene.view.offset
    key(app, pygame.K_LEFT)
    assert scene.view.offset[0] > off[0]
    key(app, pygame.K_HOME)
    assert scene.view.hex_size == size


def test_ctrl_s_saves_through_game_saves(app, monkeypatch, tmp_path):
    """Ctrl+S saves the battle (game.saves); a position that can't be saved says why."""
    from game import saves
    from game.ui.scenes.battle import BattleScene
    from game.ui.scenes.battle_setup import make_setup
    scene = BattleScene(app, make_setup(config=2, seed=5))
    app.switch(scene)
    step(app, 2)
    key(app, pygame.K_s, mod=pygame.KMOD_CTRL)
    assert scene.notice[0].startswith("Game saved")
    assert saves.default_save_path(scene.game).is_file()
    g = position(rect_map(10, 7))                # built by hand: no start to replay from
    g.add_unit(rifles(), "Axis", at(3, 3))
    scene = start(app, g)
    key(app, pygame.K_s, mod=pygame.KMOD_CTRL)
    assert scene.notice[0].startswith("Saving failed") and "saved" in scene.notice[0]


def test_board_a_transport_with_the_panel_button(app):
    """Rulebook: Transports - a Soldier in its transport's hex boards it in the movement
    phase (the action is offered as a button)."""
    from tests.rules.engine_kit import halftrack
    g = position(rect_map(12, 9))
    ht = g.add_unit(halftrack(), "Axis", at(3, 4))
    inf = g.add_unit(rifles(), "Axis", at(3, 4))
    g.add_unit(rifles("United States"), "Allies", at(10, 4))
    scene = start(app, g)
    click(app, token(scene, inf.uid))
    assert scene.selected == inf.uid
    step(app)
    labels = {k: b.text for k, b in scene.buttons.items()}
    key_ = next(k for k, t in labels.items() if t.startswith("Board"))
    press(app, key_)
    assert inf.carrier == ht.uid and inf.acted


def test_clicking_a_friendly_unit_in_reach_asks_move_or_select(app):
    g = position(rect_map(12, 9))
    a = g.add_unit(tank(), "Axis", at(3, 4))
    b = g.add_unit(rifles(), "Axis", at(5, 4))
    g.add_unit(rifles("United States"), "Allies", at(10, 4))
    scene = start(app, g)
    click(app, token(scene, a.uid))
    click(app, token(scene, b.uid))
    assert scene.mode.name == "choice"
    press(app, "opt1")                           # select it
    assert scene.selected == b.uid and a.hex == at(3, 4)


def test_assault_setup_defender_picks_end_and_objective(app):
    """Rulebook: Assault Scenario - the defender chooses an end and places the objective
    (not next to the map edge), then deploys first."""
    from game.rules.actions import ChooseObjective
    from game.rules.engine import new_game
    bm = rect_map(14, 9)
    g = new_game(bm, {"Axis": [tank()], "Allies": [rifles("United States")]},
                 scenario="assault", options={"attacker": "Axis"})
    scene = start(app, g)
    assert scene.mode.name == "end" and g.state.to_act == "Allies"
    press(app, "right")
    assert g.state.phase == Phase.SETUP_OBJECTIVE and scene.mode.name == "objective"
    edge = at(0, 4)
    click(app, scene.view.center(edge))
    assert g.state.phase == Phase.SETUP_OBJECTIVE      # next to the edge: not offered
    legal = [a.hex for a in g.legal_actions() if isinstance(a, ChooseObjective)]
    click(app, scene.view.center(at(7, 4)))
    assert at(7, 4) in legal and g.state.objective == at(7, 4)
    assert g.state.phase == Phase.DEPLOY_FIRST and g.state.to_act == "Allies"


def test_take_back_a_move_without_dice(app):
    """Hexfront house rule (game.rules.undo): a move that rolled nothing may be taken
    back in the same phase - the screen offers it for the selected unit."""
    from game.rules.dice import Dice
    from game.rules.engine import new_game
    from game.rules.actions import ChooseEnd, ChooseOrder, Deploy, EndPhase
    bm = rect_map(16, 11)
    g = new_game(bm, {"Axis": [rifles()], "Allies": [rifles("United States")]},
                 dice=Dice(3), coin_winner="Axis")
    g.apply(ChooseOrder("Axis", True))
    g.apply(ChooseEnd("Axis", "left"))
    g.apply(Deploy("Axis", "axis-1", at(2, 5)))
    g.apply(EndPhase("Axis"))
    g.apply(Deploy("Allies", "allies-1", at(14, 5)))
    g.apply(EndPhase("Allies"))
    g.apply(ChooseOrder(g.state.pending.side, g.state.pending.side == "Axis"))
    scene = start(app, g)
    u = g.state.units["axis-1"]
    assert g.state.active_side == "Axis"
    click(app, token(scene, "axis-1"))
    click(app, scene.view.center(at(3, 5)))
    u = g.state.units["axis-1"]
    assert u.hex == at(3, 5) and u.acted
    step(app)
    assert "undo" in scene.buttons
    key(app, pygame.K_z, mod=pygame.KMOD_CTRL)
    u = g.state.units["axis-1"]
    assert u.hex == at(2, 5) and not u.acted


def test_take_back_a_vehicle_move_after_its_facing_choice(app):
    """Hexfront house rule (game.rules.undo): a Vehicle's move that rolled nothing may be
    taken back too, although the screen plays it as a move and then a facing choice
    (rulebook: Vehicle Facing) - found in a real play-through: Ctrl+Z and U refused it."""
    from game.rules.dice import Dice
    from game.rules.engine import new_game
    from game.rules.actions import ChooseEnd, ChooseOrder, Deploy, EndPhase
    bm = rect_map(16, 11)
    g = new_game(bm, {"Axis": [tank()], "Allies": [rifles("United States")]},
                 dice=Dice(3), coin_winner="Axis")
    g.apply(ChooseOrder("Axis", True))
    g.apply(ChooseEnd("Axis", "left"))
    g.apply(Deploy("Axis", "axis-1", at(2, 5), facing=0))
    g.apply(EndPhase("Axis"))
    g.apply(Deploy("Allies", "allies-1", at(14, 5)))
    g.apply(EndPhase("Allies"))
    g.apply(ChooseOrder(g.state.pending.side, g.state.pending.side == "Axis"))
    scene = start(app, g)
    assert g.state.active_side == "Axis"
    before = g.state_hash()
    for undo_key, mod in ((pygame.K_z, pygame.KMOD_CTRL), (pygame.K_u, 0)):
        click(app, token(scene, "axis-1"))
        click(app, scene.view.center(at(4, 5)))
        assert scene.mode.name == "facing"
        click(app, scene.mode.wedge_pos(2))
        u = g.state.units["axis-1"]
        assert u.hex == at(4, 5) and u.facing == 2 and u.acted
        step(app)
        key(app, undo_key, mod=mod)
        u = g.state.units["axis-1"]
        assert u.hex == at(2, 5) and u.facing == 0 and not u.acted
        assert g.state_hash() == before and g.state.pending is None


def test_every_unit_of_a_stack_is_selectable_and_the_window_can_resize(app):
    """Rulebook: Stacking - up to four units share a hex; each token stays clickable,
    also after the window changes size."""
    g = position(rect_map(12, 9))
    h = at(4, 4)
    stack = [g.add_unit(rifles(), "Axis", h), g.add_unit(tank(), "Axis", h),
             g.add_unit(rifles(), "Axis", h)]
    g.add_unit(rifles("United States"), "Allies", at(10, 4))
    scene = start(app, g)
    for u in stack:
        click(app, token(scene, u.uid))
        assert scene.selected == u.uid
    app.set_window_size((1920, 1080))
    step(app)
    assert scene.panel_rect.right == 1920 and scene.view.rect.w == 1920 - scene.panel_rect.w
    for u in reversed(stack):
        click(app, token(scene, u.uid))
        assert scene.selected == u.uid
