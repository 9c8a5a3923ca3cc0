"""Shared steps for driving a network battle screen in the tests and the two-screen bench."""
from __future__ import annotations

import time

from tests.uikit import press, step


def until(app, cond, seconds=90.0):
    """Step the app until ``cond()``; the bound only matters when something hangs."""
    t_end = time.monotonic() + seconds
    while time.monotonic() < t_end:
        step(app, 1)
        if cond():
            return True
        time.sleep(0.002)
    return False


def read_on(app, battle) -> bool:
    """The player reads the recap of the other side's moves (skips it) or clicks on
    through the casualty phase, with real clicks; True when an overlay was in the way
    (the caller's loop goes round again)."""
    if not battle.stack:
        return False
    name = battle.mode.name
    if name == "recap" and "skip" in battle.buttons:
        press(app, "skip")
        return True
    if name == "casualty":
        k = "next" if not getattr(battle.mode, "done", True) else "continue"
        if k in battle.buttons:
            press(app, k)
        return True
    return False
