"""Issue 17: the recap is always available later from the log.  A click on a line of
the battle log opens the step-through of the phase that line belongs to; scrolling
the log back and Enter opens the marked line's (the oldest in view); a turn's first or last line opens
the whole turn - by posted clicks, wheel and keys."""
import pygame
import pytest

from game.rules.actions import EndPhase
from game.rules.events import PhaseBegan, TurnEnded, UnitMoved
from game.rules.state import Phase
from game.ui.battle.recap import log_stretch
from tests.rules.engine_kit import at, position, rect_map, rifles
from tests.uikit import click, hover, key, running_app, start, step


@pytest.fixture
def app(tmp_path, monkeypatch):
    yield from running_app(tmp_path, monkeypatch, animations=False)


def token(scene, uid):
    return scene.view.unit_slots(scene.game.state)[uid].center


def log_pos(scene, pred):
    """Where the log line whose event matches ``pred`` is drawn (screen coordinates)."""
    lp = scene.logp
    n = max(i for i, e in enumerate(lp.refs) if e is not None and pred(e))
    shown, y0, lh = lp._shown()
    row = next(k for k, r in enumerate(shown) if r[2] == n)
    return (scene.panel_rect.x + lp.rect.x + 30, scene.panel_rect.y + y0 + row * lh + lh // 2)


def _two_movement_phases(app, dice=None):
    """Axis moves (turn 1, first movement), then the Allies move (second movement)."""
    g = position(rect_map(12, 9), phase=Phase.MOVEMENT_FIRST, dice=dice)
    r = g.add_unit(rifles(), "Axis", at(2, 4))
    gi = g.add_unit(rifles("United States"), "Allies", at(9, 4))
    scene = start(app, g)
    click(app, token(scene, r.uid))
    click(app, scene.view.center(at(3, 4)))
    scene.send(EndPhase("Axis"))
    step(app, 2)
    click(app, token(scene, gi.uid))
    click(app, scene.view.center(at(8, 4)))
    assert r.hex == at(3, 4) and gi.hex == at(8, 4) and g.state.to_act == "Allies"
    return scene, g, r, gi


def test_recap_from_a_log_line_steps_through_its_phase(app):
    scene, g, r, gi = _two_movement_phases(app)
    pos = log_pos(scene, lambda e: isinstance(e, UnitMoved) and e.uid == gi.uid)
    hover(app, pos)
    assert scene.logp.marked is not None                 # the line under the mouse is marked
    click(app, pos)
    assert scene.mode.name == "recap"
    recap = scene.mode
    assert recap.title.startswith("Recap: Turn 1: ") and "movement" in recap.title
    assert [(s.kind, s.uid) for s in recap.steps] == [("move", gi.uid)]    # that phase only
    before = g.state_hash()
    key(app, pygame.K_RIGHT)                             # Done
    assert scene.mode.name == "play" and g.state_hash() == before
    # the phase header opens the same phase
    click(app, log_pos(scene, lambda e: isinstance(e, PhaseBegan)
                       and e.phase == Phase.MOVEMENT_SECOND.value))
    assert scene.mode.name == "recap" and [s.uid for s in scene.mode.steps] == [gi.uid]
    key(app, pygame.K_ESCAPE)
    # the Axis move, before the first header of a hand-built battle
    click(app, log_pos(scene, lambda e: isinstance(e, UnitMoved) and e.uid == r.uid))
    assert scene.mode.name == "recap" and [s.uid for s in scene.mode.steps] == [r.uid]
    key(app, pygame.K_ESCAPE)
    assert scene.mode.name == "play"


def test_recap_from_the_log_by_scrolling_back_and_enter(app):
    scene, g, r, gi = _two_movement_phases(app)
    for i in range(30):                                  # a long log: notes after the moves
        scene.note(f"note {i}")
    step(app, 1)
    lp = scene.logp
    wheel_at = (scene.panel_rect.x + lp.rect.centerx, scene.panel_rect.y + lp.rect.centery)
    hover(app, wheel_at)
    for _ in range(40):
        pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1))
        step(app, 1)
        hover(app, (5, 5), frames=1)                     # the mouse off the log: the oldest
        if lp.marked is not None and isinstance(lp.refs[lp.marked], UnitMoved):
            break                                        # line in view is a move
        hover(app, wheel_at, frames=0)
    assert lp.scroll > 0 and lp.marked is not None
    assert isinstance(lp.refs[lp.marked], UnitMoved)
    uid = lp.refs[lp.marked].uid
    phase = g.state.phase
    key(app, pygame.K_RETURN)                            # opens the recap, ends nothing
    assert scene.mode.name == "recap" and [s.uid for s in scene.mode.steps] == [uid]
    assert g.state.phase == phase


def test_recap_log_stretch_of_a_turn_header_is_the_whole_turn():
    """The initiative header and "End of turn" stand for the whole turn."""
    log = [PhaseBegan(Phase.INITIATIVE.value, 1), PhaseBegan(Phase.MOVEMENT_FIRST.value, 1, "Axis"),
           TurnEnded(1), PhaseBegan(Phase.INITIATIVE.value, 2),
           PhaseBegan(Phase.MOVEMENT_FIRST.value, 2, "Allies"),
           PhaseBegan(Phase.ASSAULT_FIRST.value, 2, "Allies"), TurnEnded(2),
           PhaseBegan(Phase.INITIATIVE.value, 3)]
    assert log_stretch(log, 6) == ("Turn 2", log[3:7])
    assert log_stretch(log, 3) == ("Turn 2", log[3:7])
    title, events = log_stretch(log, 4)                  # a phase header: that phase
    assert events == log[4:5] and title.startswith("Turn 2: ")


def test_recap_from_the_log_in_the_demo_plays_through(app):
    """--demo plays both sides: a recap opened from the log steps through by itself
    (the demo never waits behind it)."""
    import random

    from game.rules.dice import Dice
    from game.ui.battle.demo import DemoPlayer
    scene, g, r, gi = _two_movement_phases(app, dice=Dice(3))
    scene.demo = DemoPlayer(scene, random.Random(2), level=None, think=0.05)
    click(app, log_pos(scene, lambda e: isinstance(e, UnitMoved) and e.uid == gi.uid))
    assert scene.mode.name == "recap"
    for _ in range(120):
        step(app, 1)
        if scene.mode.name != "recap":
            break
    assert scene.mode.name != "recap"
    n = len(g.history)
    step(app, 120)
    assert len(g.history) > n                       # the demo plays on
