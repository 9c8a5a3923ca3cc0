"""game/runtime.py: the process-level collector settings main.py applies."""
from __future__ import annotations

import gc

from game.runtime import GEN0_THRESHOLD, tune_gc


def test_tune_gc_raises_the_thresholds_and_freezes_what_is_loaded():
    old = gc.get_threshold()
    try:
        tune_gc()
        assert gc.get_threshold()[0] == GEN0_THRESHOLD
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*old)
