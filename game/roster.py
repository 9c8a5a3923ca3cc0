"""The roster on the command line (the cards live in units/, their loading in
game.data.units)::

    python -m game.roster [--nation Germany] [--type Vehicle] [--year 1942] [--side Axis]
    python -m game.roster --markdown | head        # ends quietly when the reader stops

(formerly ``python -m game.rules.cards``: the rules import nothing outside game.rules).
"""
from __future__ import annotations

import os
import sys
from typing import Sequence

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    from game.data.units import main as roster_main
    try:
        rc = roster_main(argv, prog="python -m game.roster")
        sys.stdout.flush()
    except BrokenPipeError:
        # the reader (``| head``) has gone: nothing more to say, and no traceback at exit
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    return rc


if __name__ == "__main__":
    sys.exit(main())
