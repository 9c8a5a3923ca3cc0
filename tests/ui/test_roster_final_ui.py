"""The last ground abilities on the battle screen, by posted clicks: Firepower's one more
attack (ruling 27) is offered as an attack on the enemy in the Hero's own hex."""
import os

import pygame
import pytest

from game.rules.actions import Attack, Move
from game.rules import activation
from tests.rules.engine_kit import at
from tests.rules.test_roster_final import _firepower, _move
from tests.uikit import click, hover, press, running_app, start, step
from tests.uikit import key as key_

SHOTS = "/tmp/shots_abilities"


@pytest.fixture
def app(tmp_path, monkeypatch):
    yield from running_app(tmp_path, monkeypatch, animations=False)


def test_firepower_attack_after_the_move_is_offered_and_made_by_clicks(app):
    """Firepower, ruling 27: the Intrepid Hero moved into the Grenadiers' hex in its
    assault phase; selected again, the Grenadiers are its target (a click attacks), the
    Grenadiers next door are not."""
    g, hero, near, far = _firepower([1] * 60)
    _move(g, Move("Allies", hero.uid, (at(4, 3),), None))
    scene = start(app, g)
    click(app, scene.view.unit_slots(g.state)[hero.uid].center)
    assert scene.mode.attack_options().keys() == {near.uid}
    hover(app, scene.view.unit_slots(g.state)[near.uid].center, frames=2)
    os.makedirs(SHOTS, exist_ok=True)
    pygame.image.save(app.screen, f"{SHOTS}/firepower_target.png")
    click(app, scene.view.unit_slots(g.state)[far.uid].center)
    assert activation.tags(g.state, hero.uid) == ("move", "moved")
    click(app, scene.view.unit_slots(g.state)[hero.uid].center)
    click(app, scene.view.unit_slots(g.state)[near.uid].center)
    assert scene.mode.name == "choice"                  # normal or Hand to Hand
    pygame.image.save(app.screen, f"{SHOTS}/firepower_choice.png")
    labels = [b.text for b in scene.mode.buttons()]
    assert any(lbl.startswith("Hand to hand") for lbl in labels)
    i = next(i for i, lbl in enumerate(labels) if lbl.startswith("Hand to hand"))
    press(app, f"opt{i}")
    step(app, 3)
    tags = activation.tags(g.state, hero.uid)
    assert tags is not None and any(t.startswith("attack:") for t in tags)
    assert g.history[-1] == Attack("Allies", hero.uid, near.uid, "hand_to_hand")


def test_improvisation_is_named_under_the_heros_card(app):
    """Improvisation, ruling 28: once a tank is destroyed in its hex, the Resourceful
    Hero's panel says whose attack values it may use, and the target tooltip's dice
    are the improvised ones (the rules' odds)."""
    from game.rules.state import Phase
    from game.ui.battle.panels import unit_notes
    from tests.rules.test_roster_final import _improvised
    g, hero, _, far, _, _ = _improvised()
    st = g.state
    st.phase, st.first_player, st.second_player, st.pending = \
        Phase.ASSAULT_SECOND, "Axis", "Allies", None
    assert "improvising with the attack values of Panzer" in unit_notes(hero, st)
    scene = start(app, g)
    click(app, scene.view.unit_slots(st)[hero.uid].center)
    assert [t.dice for t in scene.mode.attack_options()[far.uid]] == [4]
    hover(app, scene.view.unit_slots(st)[far.uid].center, frames=2)
    os.makedirs(SHOTS, exist_ok=True)
    pygame.image.save(app.screen, f"{SHOTS}/improvisation_panel.png")


def test_smoke_screen_button_lays_smoke_and_the_map_shows_it(app):
    """Smoke Screen, ruling 30: the selected Panzer III's bar has a "Lay smoke" button in
    its movement phase; pressed, then the phase ended, its hex is drawn full of smoke and
    the GIs' line of sight to it is refused on the screen (hover: the rules' reason)."""
    from game.rules.abilities.roster_final import smoke_hexes
    from game.rules.actions import EndPhase, LaySmoke
    from tests.rules.test_roster_final import _smoke
    g, panzer, gis, _ = _smoke()
    scene = start(app, g)
    click(app, scene.view.unit_slots(g.state)[panzer.uid].center)
    step(app, 1)
    labels = {k: b.text for k, b in app.scene.buttons.items()}
    key = next(k for k, t in labels.items() if t == "Lay smoke")
    press(app, key)
    assert g.history[-1] == LaySmoke("Axis", panzer.uid)
    key_(app, pygame.K_e)                               # end the Axis movement phase
    if scene.mode.name == "confirm":
        key_(app, pygame.K_RETURN)
    step(app, 3)
    assert g.history[-1] == EndPhase("Axis")
    assert smoke_hexes(g.state) == {panzer.hex}
    os.makedirs(SHOTS, exist_ok=True)
    pygame.image.save(app.screen, f"{SHOTS}/smoke_screen.png")


def test_indirect_fire_attack_over_a_spotter_is_offered_and_made_by_clicks(app):
    """Ability: Indirect Fire - the mortar has no line of sight of its own to the GI (a
    forest is in the way) but the Spotter sees it: the GI is among the mortar's targets
    on the battle screen (the listing used to leave the attack out, so no click could
    make it), the Sherman (a Vehicle) is not; a click on the GI attacks it."""
    from game.data.situations import load_situation
    from game.situations import build_game
    from game.rules.dice import LoadedDice
    g = build_game(load_situation("tests/situations/abilities/indirect_fire_spotter.yaml"))
    g.dice = LoadedDice([6] * 12)
    scene = start(app, g)
    slots = scene.view.unit_slots(g.state)
    click(app, slots["mortar"].center)
    assert set(scene.mode.attack_options()) == {"gi"}
    hover(app, slots["gi"].center, frames=2)
    os.makedirs(SHOTS, exist_ok=True)
    pygame.image.save(app.screen, f"{SHOTS}/indirect_fire_target.png")
    click(app, slots["gi"].center)
    step(app, 3)
    assert g.history[-1] == Attack("Axis", "mortar", "gi")
