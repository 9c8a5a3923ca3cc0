"""One switch for developers and the test suite: ``HEXFRONT_DEBUG=1``.

Where Hexfront catches an unexpected error to show or count it (the crash dialog,
the arena, the soak and fuzz benches), debug mode re-raises it instead, so nothing is
hidden under tests (``tests/conftest.py`` sets it)."""
from __future__ import annotations

import os


def debug_mode() -> bool:
    """``HEXFRONT_DEBUG`` is set to anything but empty, 0, false or no."""
    return os.environ.get("HEXFRONT_DEBUG", "").strip().lower() not in ("", "0", "false", "no")
