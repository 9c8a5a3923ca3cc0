"""Battle screen, setup: coin flip, first/second, ends, deployment (click, drag, facing
picker, boarding, take back, Done), then initiative - all by posted clicks and keys.

Rulebook: Getting Started (coin flip, first player picks an end, deployment within
five hexes of your end - ruling 8), Transports (boarding at deployment)."""
import pygame
import pytest

from game.rules.dice import Dice
from game.rules.state import OrderChoice, Phase
from tests.rules.engine_kit import halftrack, rifles, tank
from tests.uikit import click, key, press, running_app, start, step


@pytest.fixture
def app(tmp_path, monkeypatch):
    yield from running_app(tmp_path, monkeypatch, animations=False)







def new_game_on_config1(coin="Axis"):
    from game.data.maps import load_configuration
    from game.rules.engine import new_game
    armies = {"Axis": [tank("Germany", name="Panzer"), halftrack("Germany", name="SdKfz 251"),
                       rifles("Germany", name="Grenadiers")],
              "Allies": [tank("United States", name="Sherman"),
                         rifles("United States", name="GIs")]}
    return new_game(load_configuration(1), armies, dice=Dice(4), coin_winner=coin)


def free_legal_hexes(game, uid):
    from game.rules.actions import Deploy
    st = game.state
    return [a.hex for a in game.legal_actions()
            if isinstance(a, Deploy) and a.uid == uid and a.carrier is None
            and not st.units_at(a.hex)]


def test_coin_flip_order_and_end_by_buttons(app):
    """Rulebook: Getting Started - the coin-flip winner chooses first or second; the
    first player picks an end."""
    game = new_game_on_config1(coin="Allies")
    scene = start(app, game)
    assert isinstance(game.state.pending, OrderChoice) and scene.mode.name == "order"
    assert "Allies win the toss" in scene.mode.prompt()
    press(app, "second")                       # Allies choose to go second
    assert game.state.first_player == "Axis" and game.state.second_player == "Allies"
    assert game.state.phase == Phase.SETUP_END and scene.mode.name == "end"
    press(app, "right")
    assert game.state.ends == {"Axis": "right", "Allies": "left"}
    assert game.state.phase == Phase.DEPLOY_FIRST and scene.mode.name == "deploy"


def test_deploy_click_facing_board_take_back_and_done(app):
    """Rulebook: deployment within five hexes of your end (ruling 8); a Vehicle is
    placed with a facing; a Soldier may start aboard its transport; a placement can
    be taken back until Done."""
    game = new_game_on_config1()
    scene = start(app, game)
    press(app, "first")
    press(app, "left")
    st = game.state
    tank_u, ht, gren = (st.units[u] for u in ("axis-1", "axis-2", "axis-3"))

    # the tank: selected in the roster, clicked onto a legal hex, facing picked
    click(app, scene.base.tray["axis-1"].center)
    assert scene.selected == "axis-1"
    legal = free_legal_hexes(game, "axis-1")
    target = legal[len(legal) // 2]
    click(app, scene.view.center(target))
    assert scene.mode.name == "facing" and tank_u.hex is None
    click(app, scene.mode.wedge_pos(1))
    assert tank_u.hex == target and tank_u.facing == 1

    # an illegal hex (the far end) is refused with the rules' reason
    scene.selected = "axis-2"
    far = max(st.battle_map.hexes, key=lambda h: h.x2)
    click(app, scene.view.center(far))
    assert ht.hex is None and "five hexes" in scene.notice[0]

    # the halftrack by dragging it from the roster, keeping the offered facing (Enter)
    legal = [h for h in free_legal_hexes(game, "axis-2") if h.distance(target) > 2]
    dest = legal[0]
    src = scene.base.tray["axis-2"].center
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=src, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=scene.view.center(dest),
                                         rel=(0, 0), buttons=(1, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=scene.view.center(dest),
                                         button=1))
    step(app, 2)
    assert scene.mode.name == "facing"
    key(app, pygame.K_RETURN)
    assert ht.hex == dest and ht.facing == 0          # toward the enemy end (left end: east)

    # the grenadiers onto the halftrack: board it (first choice)
    scene.selected = "axis-3"
    click(app, scene.view.center(dest))
    assert scene.mode.name == "choice"
    press(app, "opt0")
    assert gren.carrier == "axis-2" and gren.hex == dest

    # Done is refused while a unit is missing; take one back, put it back, Done
    scene.selected = "axis-1"
    key(app, pygame.K_BACKSPACE)
    assert tank_u.hex is None
    assert scene.buttons["done"].enabled is False
    click(app, scene.view.center(target))
    click(app, scene.mode.wedge_pos(0))
    assert tank_u.hex == target and tank_u.facing == 0
    press(app, "done")
    assert st.phase == Phase.DEPLOY_SECOND and st.to_act == "Allies"


def test_second_player_deploys_then_initiative(app):
    """Rulebook: Sequence of Play - after both deployments the first turn's initiative
    is rolled and the winner chooses first or second."""
    game = new_game_on_config1()
    scene = start(app, game)
    press(app, "first")
    press(app, "left")
    for uid in ("axis-1", "axis-2", "axis-3"):
        scene.selected = uid
        step(app, 1)
        click(app, scene.view.center(free_legal_hexes(game, uid)[0]))
        if scene.mode.name == "facing":
            key(app, pygame.K_RETURN)
    key(app, pygame.K_RETURN)                   # Done? (issue 11: a stray Enter only asks)
    assert scene.mode.name == "confirm" and game.state.phase == Phase.DEPLOY_FIRST
    key(app, pygame.K_RETURN)
    assert scene.mode.name == "confirm" and game.state.phase == Phase.DEPLOY_FIRST
    key(app, pygame.K_y)
    st = game.state
    assert st.phase == Phase.DEPLOY_SECOND
    for uid in ("allies-1", "allies-2"):
        scene.selected = uid
        step(app, 1)
        h = free_legal_hexes(game, uid)[0]
        assert st.battle_map.deployment_zone("right").__contains__(h)
        click(app, scene.view.center(h))
        if scene.mode.name == "facing":
            key(app, pygame.K_RETURN)
    assert all(u.hex is not None for u in st.units.values())
    press(app, "done")
    assert st.turn == 1 and isinstance(st.pending, OrderChoice)
    assert scene.mode.name == "order" and st.initiative_rolls
    winner = st.pending.side
    key(app, pygame.K_1)                        # go first
    assert st.first_player == winner and st.phase == Phase.MOVEMENT_FIRST
    assert scene.mode.name == "play"


def test_after_a_placement_the_next_unit_is_picked(app):
    """QA fix: after placing a unit the next one waiting is selected, so clicking legal
    hexes one after another deploys the whole army (rulebook: Getting Started,
    deployment within five hexes of your end - ruling 8)."""
    game = new_game_on_config1()
    scene = start(app, game)
    press(app, "first")
    press(app, "left")
    st = game.state
    assert scene.selected == "axis-1"
    used = set()
    for _ in range(3):
        sel = scene.selected
        h = next(h for h in free_legal_hexes(game, sel) if h not in used)
        used.add(h)
        click(app, scene.view.center(h))
        if scene.mode.name == "facing":
            key(app, pygame.K_RETURN)
        assert st.units[sel].hex == h
    assert all(st.units[u].hex is not None for u in ("axis-1", "axis-2", "axis-3"))
    assert scene.buttons["done"].enabled or (step(app, 1) or scene.buttons["done"].enabled)


def test_facing_picker_shows_the_vehicle_in_its_new_hex(app):
    """QA fix: while a Vehicle's facing is picked (rulebook: Vehicle facing) the unit is
    drawn in the hex it goes to, turned toward the arrow under the mouse."""
    game = new_game_on_config1()
    scene = start(app, game)
    press(app, "first")
    press(app, "left")
    h = free_legal_hexes(game, "axis-1")[3]
    click(app, scene.view.center(h))
    assert scene.mode.name == "facing" and scene.mode.unit is game.state.units["axis-1"]
    surf = pygame.Surface(app.size)
    surf.fill((0, 0, 0))
    scene.overlays.painter(scene.mode).draw_over(surf)
    c = scene.view.center(h)
    # the token's face fills the hex centre (the arrows alone leave it black)
    assert surf.get_at(c)[:3] != (0, 0, 0)
    scene.mode.unit = None
    surf.fill((0, 0, 0))
    scene.overlays.painter(scene.mode).draw_over(surf)
    assert surf.get_at(c)[:3] == (0, 0, 0)


def test_solo_ai_deployment_leaves_the_players_selection_alone(app):
    """QA fix (solo practice): while the AI deploys its side (rulebook: Getting Started)
    the screen does not pick the AI's units, so the player's first turn does not open
    with an enemy card selected."""
    import types
    game = new_game_on_config1()
    scene = start(app, game)
    press(app, "second")                 # Axis (the coin winner here) goes second
    press(app, "left")                   # Allies (first player) choose an end
    assert game.state.to_act == "Allies"
    scene.ai = types.SimpleNamespace(sides=("Allies",), update=lambda dt: None, fast=False)
    scene.selected = None
    step(app, 3)
    assert scene.ai_turn and scene.selected is None
    scene.ai = None
    step(app, 1)
    assert scene.selected == "allies-1"          # the player's own turn picks as before
