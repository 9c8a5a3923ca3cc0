"""The AI thinks off the frame loop (game.ui.battle.ai_worker): while a slow AI
thinks on its worker thread with a copy of the game, frames keep flowing, the bar
says who is thinking and Esc opens the battle menu; the answer is applied on the
real game through the normal send path; a stale answer is dropped; an error in
the worker is re-raised on the main thread."""
import random
import threading

import pygame
import pytest

from game.rules.actions import EndPhase, Move
from tests.rules.engine_kit import at, position, rect_map, rifles
from tests.uikit import key, running_app, start, step


@pytest.fixture
def app(tmp_path, monkeypatch):
    yield from running_app(tmp_path, monkeypatch, animations=False)


class SlowAI:
    """Blocks in choose() until released; remembers the thread and the game it got."""

    def __init__(self, fail: bool = False) -> None:
        self.go = threading.Event()
        self.asked = threading.Event()      # set when choose() has begun
        self.calls = []          # (thread name, the game object it was asked about)
        self.fail = fail

    def choose(self, game):
        self.calls.append((threading.current_thread().name, game))
        self.asked.set()
        assert self.go.wait(20), "the test never released the AI"
        if self.fail:
            raise ValueError("the AI broke while thinking")
        return next(a for a in game.legal_actions() if isinstance(a, Move) and a.path)

    def explain(self) -> str:
        return "moving up"


def _solo(app, ai):
    """Allies to act (their movement phase), played by ``ai`` on a worker thread."""
    from game.ui.battle.demo import DemoPlayer
    g = position(rect_map(10, 8), first="Allies")
    g.add_unit(rifles(), "Axis", at(8, 4))
    mover = g.add_unit(rifles(name="Airborne"), "Allies", at(2, 4))
    scene = start(app, g)
    seat = DemoPlayer(scene, random.Random(1), sides=("Allies",), level=None, think=0.0,
                      threaded=True)
    seat.ai = {"Allies": ai}
    seat.level = "expert"
    seat.wait = 0.0
    scene.ai = seat
    return scene, g, mover


def test_ai_thread_keeps_frames_flowing_while_a_slow_ai_thinks(app):
    ai = SlowAI()
    scene, g, mover = _solo(app, ai)
    step(app, 1)
    assert ai.asked.wait(10)
    frames = app.frames
    step(app, 30)                                   # the AI is thinking all along
    assert app.frames == frames + 30
    assert len(ai.calls) == 1
    thread, seen = ai.calls[0]
    assert thread != threading.main_thread().name and seen is not g   # a copy, off the loop
    assert scene.hud._prompt_text() == "The Expert is thinking..."
    assert g.state.units[mover.uid].hex == at(2, 4)                     # nothing applied yet
    key(app, pygame.K_ESCAPE)                       # the window still answers Esc
    assert scene.mode.name == "menu"
    key(app, pygame.K_ESCAPE)
    assert scene.mode.name == "play"
    ai.go.set()
    assert scene.ai.worker.wait(10)
    for _ in range(200):
        step(app, 1)
        if g.state.units[mover.uid].hex != at(2, 4):
            break
    assert g.state.units[mover.uid].hex != at(2, 4)  # applied on the real game
    assert any("AI: moving up" in t for t, _ in scene.logp.lines)


def test_ai_thread_drops_a_stale_answer(app):
    """The game changed while the AI thought: its answer is dropped and it thinks again."""
    ai = SlowAI()
    scene, g, mover = _solo(app, ai)
    step(app, 1)
    assert ai.asked.wait(10)
    ai.asked.clear()
    assert len(ai.calls) == 1
    g.state.units[mover.uid].facing = 3     # the position changes under the AI (a load, an undo)
    g.state.touch()
    ai.go.set()
    assert scene.ai.worker.wait(10)
    step(app, 1)                                     # the stale answer is dropped...
    assert g.state.units[mover.uid].hex == at(2, 4)
    step(app, 1)
    assert ai.asked.wait(10)                         # ...and the AI is asked again
    assert len(ai.calls) == 2 and ai.calls[1][1] is not ai.calls[0][1]
    assert ai.calls[1][1].state.units[mover.uid].facing == 3      # about the new position
    assert scene.ai.worker.wait(10)
    for _ in range(50):
        step(app, 1)
        if g.state.units[mover.uid].hex != at(2, 4):
            break
    assert g.state.units[mover.uid].hex != at(2, 4)    # the fresh answer is applied


def test_ai_thread_error_is_reraised_on_the_main_thread(app):
    ai = SlowAI(fail=True)
    scene, g, _ = _solo(app, ai)
    step(app, 1)
    assert ai.asked.wait(10)
    ai.go.set()
    assert scene.ai.worker.wait(10)
    with pytest.raises(ValueError, match="broke while thinking"):
        step(app, 2)                      # under tests (HEXFRONT_DEBUG) it reaches us
    assert not any(isinstance(a, EndPhase) and a.side == "Allies" for a in g.history)
