"""Process-level settings for a long-running Hexfront process (the game, the arena,
the benches): not rules, not UI.

The engine keeps bounded caches that outlive a position and a game (per map, per card,
the listings); with CPython's default collector thresholds every full collection walks
them all, which cost 15-20% of a random game's time (bench/engine_bench.py).  A larger
first-generation threshold and ``gc.freeze()`` of what was loaded at start keep the
collector for real garbage without walking the long-lived tables each time.  Nothing
in the rules depends on this: a process that doesn't call it plays the same games,
only slower.
"""
from __future__ import annotations

import gc

GEN0_THRESHOLD = 20_000
OLDER_THRESHOLDS = (20, 20)


def tune_gc() -> None:
    """Raise the collector's thresholds and freeze the objects alive now (loaded data)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(GEN0_THRESHOLD, *OLDER_THRESHOLDS)
