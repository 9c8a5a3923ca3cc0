"""Recap of the other side's turn (issue 17): when the seat comes back to a player, the
moves and attacks the other side made are stepped through (arrows, lines, counters, log
lines); skippable; P shows it again later - by posted clicks and keys."""
import os

import pygame
import pytest

from game.rules.actions import Attack, EndPhase, Move
from game.rules.dice import LoadedDice
from game.rules.state import Phase
from game.ui.battle.panels import SIDE_COLOURS
from game.ui.battle.recap import RecapMode, recap_steps
from tests.rules.engine_kit import at, position, rect_map, rifles, tank
from tests.uikit import click, key, press, running_app, start, step


@pytest.fixture
def app(tmp_path, monkeypatch):
    yield from running_app(tmp_path, monkeypatch, animations=False)


def token(scene, uid):
    return scene.view.unit_slots(scene.game.state)[uid].center


def test_recap_steps_come_from_the_rules_events():
    g = position(rect_map(12, 9), phase=Phase.ASSAULT_FIRST, dice=LoadedDice([6] * 12))
    r = g.add_unit(rifles(), "Axis", at(2, 4))
    t = g.add_unit(tank(), "Axis", at(3, 6), facing=0)
    gi = g.add_unit(rifles("United States"), "Allies", at(6, 6))
    start_log = len(g.log)
    g.apply(Move("Axis", r.uid, (at(3, 4),), None))
    g.apply(Attack("Axis", t.uid, gi.uid))
    steps = recap_steps(g.log[start_log:])
    assert [s.kind for s in steps] == ["move", "attack"]
    assert steps[0].uid == r.uid and steps[0].route == (at(2, 4), at(3, 4))
    assert steps[1].from_hex == t.hex and steps[1].to_hex == gi.hex
    assert steps[1].counters and all(not up for _, up in steps[1].counters)   # face-down
    assert any("hit" in ln for ln in steps[1].lines)
    assert all("axis-" not in ln and "allies-" not in ln for s in steps for ln in s.lines)


def test_recap_opens_when_the_seat_comes_back_and_can_be_skipped_and_reopened(app):
    g = position(rect_map(12, 9), phase=Phase.MOVEMENT_FIRST)
    r = g.add_unit(rifles(), "Axis", at(2, 4))
    gi = g.add_unit(rifles("United States"), "Allies", at(9, 4))
    scene = start(app, g)
    scene.recap.auto = True            # a real battle has it on; a hand-built one opts in
    # the Axis player moves and ends the phase
    click(app, token(scene, r.uid))
    click(app, scene.view.center(at(3, 4)))
    assert r.hex == at(3, 4)
    key(app, pygame.K_e)
    if scene.mode.name == "confirm":
        press(app, "yes")
    step(app, 2)
    assert g.state.phase == Phase.MOVEMENT_SECOND and g.state.to_act == "Allies"
    assert scene.mode.name == "recap"
    recap = scene.mode
    assert recap.steps[0].kind == "move" and recap.steps[0].uid == r.uid
    assert recap.steps[0].route[-1] == at(3, 4)
    # found in a play-through: "While you waited (Axis player)" read as if you were the
    # Axis player; the title says whose moves these are
    assert recap.title == "What the Axis player did while you waited", recap.title
    step(app, 2)
    # found in a play-through: the recap's step box covered the top half of the "Allied
    # player: your turn" banner; the banner now goes below the box
    scene.anim.show_banner("Allied player: your turn", SIDE_COLOURS["Allies"])
    step(app, 1)
    box = scene.overlays.painter(recap).top_box_bottom()
    assert box is not None and scene.anim.banner_box is not None
    assert scene.anim.banner_box.top >= box, (scene.anim.banner_box, box)
    if os.environ.get("HEXFRONT_SCREENS"):
        app.screenshot(os.path.join(os.environ["HEXFRONT_SCREENS"], "recap.png"))
    before = g.state_hash()
    click(app, token(scene, gi.uid))               # the battle waits while it is open
    assert g.state_hash() == before and scene.mode is recap
    for _ in range(len(recap.steps)):
        key(app, pygame.K_RIGHT)
    assert scene.mode.name != "recap"
    key(app, pygame.K_p)                           # again, from the recap key
    assert scene.mode.name == "recap" and scene.mode.steps == recap.steps
    key(app, pygame.K_ESCAPE)                      # skip
    assert scene.mode.name != "recap" and scene.mode.name != "menu"
    # play on: the Allied player can move now
    click(app, token(scene, gi.uid))
    click(app, scene.view.center(at(8, 4)))
    assert gi.hex == at(8, 4)


def test_recap_is_not_shown_to_the_ai_and_not_when_nothing_happened(app):
    g = position(rect_map(12, 9), phase=Phase.MOVEMENT_FIRST)
    g.add_unit(rifles(), "Axis", at(2, 4))
    g.add_unit(rifles("United States"), "Allies", at(9, 4))
    scene = start(app, g)
    scene.recap.auto = True
    key(app, pygame.K_e)
    if scene.mode.name == "confirm":
        press(app, "yes")
    step(app, 2)
    assert g.state.to_act == "Allies" and scene.mode.name != "recap"   # nothing was done
    key(app, pygame.K_p)
    assert scene.mode.name != "recap" and "No recap yet" in scene.notice[0]
