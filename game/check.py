"""Check any Hexfront file and say what is wrong with it, in one clear message.

    python -m game.check FILE...                  guess each file's kind
    python -m game.check --kind army FILE...      cards, section, configuration,
                                                  army, situation or save

Prints ``ok   FILE (kind)`` or, for a bad file, every problem in it, one per
line: ``FILE:LINE: entry '...': field '...': what is wrong``; exits 2 when any
file is bad.  The checks are the game's own: an army must be legal for a
Standard battle (points, unit count, sides), a save must hold legal armies and
replay to its saved position.  Nothing is ever run from
the file: YAML is read with the safe loader, saves are JSON.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Callable, Sequence

from game.rules.errors import DataError

__all__ = ["KINDS", "check_file", "guess_kind", "main"]


def _cards(path: str) -> Any:
    from game.data.units import load_card_file
    return load_card_file(path)


def _section(path: str) -> Any:
    from game.data.maps import load_section
    return load_section(path)


def _configuration(path: str) -> Any:
    from game.data.maps import load_configuration
    return load_configuration(Path(path))


def _army(path: str) -> Any:
    """Shape, cards, and whether it can play (the game's own legality check)."""
    from game.data.armies import _display, check_army, load_army
    army = load_army(path)
    check_army(army, _display(Path(path)))
    return army


def _situation(path: str) -> Any:
    from game.data.situations import load_situation
    return load_situation(path)


def _save(path: str) -> Any:
    from game.saves import load_game
    return load_game(path)


KINDS: dict[str, Callable[[str], Any]] = {
    "cards": _cards, "section": _section, "configuration": _configuration,
    "army": _army, "situation": _situation, "save": _save}


def guess_kind(path: str) -> str:
    """The kind of a file from its name and top-level fields."""
    if Path(path).suffix.lower() == ".json":
        return "save"
    from game.data.yamlio import read_yaml
    doc = read_yaml(path)                   # a file that can't be read says so here
    keys = set(doc)
    if "cards" in keys:
        return "cards"
    if "sections" in keys:
        return "configuration"
    if {"terrain", "sheet", "pattern", "roads", "streams", "bridges"} & keys:
        return "section"
    if {"map", "actions", "expect", "dice"} & keys:
        return "situation"
    if "units" in keys or "side" in keys:
        return "army"
    raise DataError(path, "can't tell what kind of Hexfront file this is (expected unit "
                          "cards, a map section or configuration, an army, a situation or "
                          "a save); use --kind")


def check_file(path: str, kind: str | None = None) -> str:
    """The kind of a good file; raises DataError (one message) for a bad one."""
    kind = kind or guess_kind(path)
    try:
        KINDS[kind](path)
    except DataError:
        raise
    except OSError as exc:
        raise DataError(path, f"can't read the file ({exc.strerror or type(exc).__name__})") \
            from None
    return kind


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m game.check",
                                 description="Check Hexfront data files and saves.")
    ap.add_argument("--kind", choices=sorted(KINDS), help="the kind of every file given")
    ap.add_argument("files", nargs="+", metavar="FILE")
    args = ap.parse_args(argv)
    bad = 0
    for f in args.files:
        try:
            kind = check_file(f, args.kind)
        except DataError as exc:
            bad += 1
            print(exc.report(), file=sys.stderr)
            continue
        print(f"ok   {f} ({kind})")
    return 2 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
