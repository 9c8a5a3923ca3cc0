"""The Vanguard moves before turn 1 (ruling 20) on the battle screen: the phase is named,
only the Vanguard tank's reach is shaded (speed 4), and a click moves it - by posted
clicks."""
import pygame
import pytest

from game.rules.state import FacingChoice, Phase
from tests.rules.engine_kit import at
from tests.rules.test_roster_last import _deployed
from tests.uikit import click, key, running_app, start, step


@pytest.fixture
def app(tmp_path, monkeypatch):
    yield from running_app(tmp_path, monkeypatch, animations=False)


def test_the_allied_player_moves_the_vanguard_tank_before_turn_1(app):
    g = _deployed(("Allies",))
    scene = start(app, g)
    step(app, 2)
    assert g.state.phase == Phase.VANGUARD_SECOND
    tank, rifles = g.state.units_of("Allies")
    click(app, scene.view.unit_slots(g.state)[rifles.uid].center)
    click(app, scene.view.center(at(12, 5)))           # the rifles have no Vanguard
    assert rifles.hex == at(13, 5)
    click(app, scene.view.unit_slots(g.state)[tank.uid].center)
    click(app, scene.view.center(at(8, 3)))            # five hexes: out of its reach
    assert tank.hex == at(13, 3)
    click(app, scene.view.center(at(9, 3)))            # four
    step(app, 2)
    assert tank.hex == at(9, 3)
    if isinstance(g.state.pending, FacingChoice):
        key(app, pygame.K_RETURN)
    key(app, pygame.K_e)
    if scene.mode.name == "confirm":
        key(app, pygame.K_RETURN)
    step(app, 3)
    assert g.state.phase != Phase.VANGUARD_SECOND
