"""One switch for developers and the test suite: ``HEXFRONT_DEBUG=1``.

Where Hexfront catches an unexpected error to show or count it (the crash dialog,
the arena, the soak and fuzz benches), debug mode re-raises it instead, so nothing is
hidden under tests (``tests/conftest.py`` sets it)."""
from __future__ import annotations

import os


def debug_mode() -> bool:
    """``HEXFRONT_DEBUG`` is set to anything but empty, 0, false or no."""
    return os.environ.get("HEXFRONT_DEBUG", "").strip().lower() not in ("", "0", "false", "no")


def counted_errors() -> "type[Exception] | tuple[()]":
    """What a bench that counts unexpected errors may catch: ``Exception`` normally
    (the soak, fuzz and arena count a bug as a failure and go on), nothing at all in
    debug mode (an empty tuple catches nothing), so under tests the error propagates
    with its traceback instead of being counted.  Use as ``except counted_errors():``."""
    return () if debug_mode() else Exception
