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


def test_the_side_panel_gives_the_vanguard_speed_before_turn_1_and_the_card_speed_after():
    """Ruling 20: the selected tank's panel says the speed it moves at in the phase under way,
    asked of the rules (4 in its Vanguard move, its printed 5 in turn 1's movement phase)."""
    from game.rules.actions import EndPhase
    from game.rules.queries import unit_speed
    from game.ui.battle.panels import unit_notes
    g = _deployed(("Allies",))
    assert g.state.phase == Phase.VANGUARD_SECOND
    tank, _ = g.state.units_of("Allies")
    assert unit_speed(g.state, tank.uid) == 4
    assert "speed 4" in unit_notes(tank, g.state)
    g.apply(EndPhase("Allies"))
    while not g.state.phase.is_movement or g.state.phase.is_vanguard:
        acts = g.legal_actions()          # the initiative choice, if the rules ask for one
        g.apply(next((a for a in acts if isinstance(a, EndPhase)), acts[0]))
    assert unit_speed(g.state, tank.uid) == 5
    assert "speed 5" in unit_notes(tank, g.state)
