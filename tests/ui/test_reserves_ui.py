"""Reserves on the battle screen (rulings 21-23), by posted clicks and keys: the side
panel's tray lists the units in reserve with when they may enter, a picked one's legal
hexes are the rules' EnterReserve actions, a click on a shaded hex brings it in, a
click elsewhere says why not in the rules' words - and the drop that would end the
movement phase asks first."""
import os

import pygame
import pytest

from game.rules.actions import ChooseEnd, ChooseOrder, Deploy, EndPhase
from game.rules.state import Phase
from tests.rules.engine_kit import at, rect_map
from tests.uikit import click, hover, key, running_app, start, step

SHOTS = os.environ.get("HEXFRONT_SHOTS")       # a folder: save the screenshots there


@pytest.fixture
def app(tmp_path, monkeypatch):
    yield from running_app(tmp_path, monkeypatch, animations=False)


def _battle():
    """Axis (left, first) with a Fallschirmjager and a German Hero in reserve, two
    Mauser rifles on the map; Allies with GIs; turn 1, the Axis movement phase."""
    from game.data.units import card
    from game.rules.dice import LoadedDice
    from game.rules.engine import new_game
    armies = {"Axis": [card("Fallschirmjager"), card("Grizzled Veteran"),
                       card("Mauser Kar 98k"), card("Mauser Kar 98k")],
              "Allies": [card("M1 Garand Rifle"), card("M1 Garand Rifle")]}
    g = new_game(rect_map(16, 11, objective=(8, 5)), armies,
                 dice=LoadedDice([6, 6, 1, 1]), coin_winner="Axis")
    g.apply(ChooseOrder("Axis", True))
    g.apply(ChooseEnd("Axis", "left"))
    for side, col in (("Axis", 2), ("Allies", 13)):
        i = 0
        for u in g.state.units_of(side):
            if u.hex is None and g.check(Deploy(side, u.uid, at(col, 3 + 2 * i), 0)) is None:
                g.apply(Deploy(side, u.uid, at(col, 3 + 2 * i), 0 if side == "Axis" else 3))
                i += 1
        g.apply(EndPhase(side))
    while g.state.phase != Phase.MOVEMENT_FIRST:
        acts = g.legal_actions()
        g.apply(next((a for a in acts if isinstance(a, ChooseOrder) and a.go_first),
                      acts[0]))
    assert g.state.active_side == "Axis"
    return g


def _tray_click(app, scene, uid):
    step(app, 1)
    tray = scene.mode.tray
    assert uid in tray, f"{uid} is not in the tray"
    click(app, tray[uid].center)


def _shot(app, name):
    if SHOTS:
        step(app, 2)
        pygame.image.save(app.screen, os.path.join(SHOTS, name))


def test_the_hero_enters_on_a_german_soldier_and_the_paratrooper_drops_last(app):
    g = _battle()
    scene = start(app, g)
    fj, hero = g.state.units["axis-1"], g.state.units["axis-2"]
    assert scene.mode.name == "reserves" and scene.mode.shows_tray()
    assert set(scene.mode.tray) == {fj.uid, hero.uid}
    # the Hero: shaded hexes are its nation's Soldiers' hexes
    _tray_click(app, scene, hero.uid)
    assert scene.selected == hero.uid
    assert scene.mode.entries(hero.uid) == {at(2, 3), at(2, 5)}
    assert "may enter now" in scene.mode.prompt()
    hover(app, scene.view.center(at(2, 5)), 2)
    _shot(app, "reserves_hero_entry.png")
    click(app, scene.view.center(at(4, 4)))                  # no German Soldier there
    assert hero.hex is None
    assert "Soldier of its nation" in scene.mode.why_not_enter(hero.uid, at(4, 4))
    click(app, scene.view.center(at(2, 5)))
    assert hero.hex == at(2, 5)
    # nothing else is picked for the player: a click on a Mauser selects it (no drop there)
    assert scene.selected is None and scene.mode.shows_tray()
    click(app, scene.view.center(at(2, 3)))
    assert scene.mode.name == "reserves" and scene.selected == g.state.units_at(at(2, 3))[0].uid
    assert fj.hex is None
    click(app, scene.view.center(at(6, 8)), button=3)        # right-click away: the tray again
    assert scene.selected is None and scene.mode.shows_tray()
    # the Paratrooper: its tray note says dropping ends the movement phase
    _tray_click(app, scene, fj.uid)
    assert "ends your movement phase" in scene.mode.prompt()
    hexes = scene.mode.entries(fj.uid)
    assert at(12, 3) not in hexes and at(8, 5) in hexes       # next to the GIs / open
    hover(app, scene.view.center(at(12, 3)), 2)
    assert scene.mode.why_not_enter(fj.uid, at(12, 3)) is not None
    hover(app, scene.view.center(at(8, 5)), 2)
    _shot(app, "reserves_paratrooper_drop.png")
    click(app, scene.view.center(at(8, 5)))
    # the Mausers have not moved: the drop asks first
    assert scene.mode.name == "confirm" and "ends your movement phase" in scene.mode.prompt()
    key(app, pygame.K_RETURN)
    step(app, 2)
    assert fj.hex == at(8, 5) and fj.acted
    assert g.state.phase == Phase.MOVEMENT_FIRST


def test_a_hero_that_comes_too_late_says_why_in_the_side_panel(app):
    from game.rules.actions import Move
    g = _battle()
    mauser = g.state.units["axis-3"]
    g.apply(Move("Axis", mauser.uid, (at(3, 3),), None))
    scene = start(app, g)
    hero = g.state.units["axis-2"]
    key(app, pygame.K_r)
    key(app, pygame.K_r)
    assert scene.selected == hero.uid
    assert not scene.mode.entries(hero.uid)
    note = scene.mode.when_note(hero)
    assert "only at the start of your movement phase" in note
    assert "start of your movement phase" in scene.mode.prompt()
    _shot(app, "reserves_hero_too_late.png")
    click(app, scene.view.center(at(2, 5)))
    assert hero.hex is None


def test_ending_the_phase_with_a_reserve_that_could_enter_asks_first(app):
    """Ruling 21: entering is optional - ending the phase says who waits, and ends it."""
    g = _battle()
    scene = start(app, g)
    _shot(app, "reserves_tray.png")
    key(app, pygame.K_e)
    assert scene.mode.name == "confirm"
    text = scene.mode.prompt()
    assert "in reserve could enter now" in text and "Fallschirmjager" in text
    key(app, pygame.K_RETURN)
    step(app, 3)
    assert g.state.phase != Phase.MOVEMENT_FIRST
    assert g.state.units["axis-1"].hex is None


def test_the_deployment_tray_leaves_the_reserves_out_and_says_they_wait(app):
    """Ruling 21: Paratroopers and Heroes are not deployed."""
    from game.data.units import card
    from game.rules.dice import LoadedDice
    from game.rules.engine import new_game
    armies = {"Axis": [card("Fallschirmjager"), card("Mauser Kar 98k")],
              "Allies": [card("M1 Garand Rifle")]}
    g = new_game(rect_map(16, 11, objective=(8, 5)), armies, dice=LoadedDice([]),
                 coin_winner="Axis")
    g.apply(ChooseOrder("Axis", True))
    g.apply(ChooseEnd("Axis", "left"))
    scene = start(app, g)
    assert scene.mode.name == "deploy"
    step(app, 1)
    assert set(scene.mode.tray) == {"axis-2"}
    assert "1 wait in reserve" in scene.mode.prompt()
    _tray_click(app, scene, "axis-2")
    click(app, scene.view.center(at(2, 3)))
    assert g.state.units["axis-2"].hex == at(2, 3)
    assert any(isinstance(a, EndPhase) for a in g.legal_actions())
