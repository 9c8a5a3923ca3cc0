"""The AI thinks off the frame loop.

``AIWorker.start(key, think)`` runs ``think()`` (an AI's ``choose`` on a *copy* of
the game) on a worker thread while the battle screen keeps drawing and answering
Esc; ``poll(key)`` hands the answer back on the main thread.  An answer for a
position that is no longer on the screen (``key`` changed: an undo, a load, a
network move) is dropped.  An exception raised while thinking is re-raised on the
main thread by ``poll`` (so the crash dialog, or under tests the re-raise, sees it).

``HEXFRONT_AI_SYNC=1`` (set by the test suite and the UI soak) or
``AIWorker(threaded=False)`` thinks at once inside ``start``: the same answers,
frame for frame reproducible.
"""
from __future__ import annotations

import os
import threading
from typing import Any, Callable, Hashable

__all__ = ["AIWorker", "sync_requested", "SYNC_ENV"]

SYNC_ENV = "HEXFRONT_AI_SYNC"


def sync_requested() -> bool:
    """``HEXFRONT_AI_SYNC`` is set to anything but empty, 0, false or no."""
    return os.environ.get(SYNC_ENV, "").strip().lower() not in ("", "0", "false", "no")


class AIWorker:
    """One choice at a time (an AI player object is never asked twice at once)."""

    def __init__(self, threaded: bool | None = None) -> None:
        self.threaded = (not sync_requested()) if threaded is None else threaded
        self._key: Hashable | None = None
        self._thread: threading.Thread | None = None
        self._done = threading.Event()
        self._answer: Any = None
        self._error: BaseException | None = None

    @property
    def busy(self) -> bool:
        """A choice was started and its answer not yet taken (or dropped)."""
        return self._key is not None

    @property
    def thinking(self) -> bool:
        """The worker thread is still at it."""
        return self._key is not None and not self._done.is_set()

    def start(self, key: Hashable, think: Callable[[], Any]) -> None:
        """Begin answering ``think()`` for the position ``key``."""
        if self.busy:
            raise RuntimeError("the AI is already thinking")
        self._key, self._answer, self._error = key, None, None
        self._done.clear()
        if not self.threaded:
            self._run(think)
            return
        self._thread = threading.Thread(target=self._run, args=(think,),
                                        name="hexfront-ai", daemon=True)
        self._thread.start()

    def _run(self, think: Callable[[], Any]) -> None:
        try:
            self._answer = think()
        except BaseException as exc:   # handed to the main thread by poll(), never swallowed
            self._error = exc
        finally:
            self._done.set()

    def poll(self, key: Hashable) -> tuple[bool, Any]:
        """(True, answer) once the answer for ``key`` is in; (False, None) while thinking
        or when the answer was for another position (it is dropped; start again).
        Re-raises here what the AI raised while thinking."""
        if self._key is None or not self._done.is_set():
            return False, None
        asked, answer, error = self._key, self._answer, self._error
        self._key, self._answer, self._error, self._thread = None, None, None, None
        if error is not None:
            raise error
        if asked != key:
            return False, None          # stale: the game changed while the AI thought
        return True, answer

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the answer is in (tests, shutting down); True if it is."""
        return self._done.wait(timeout) if self._key is not None else True
