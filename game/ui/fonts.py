"""Fonts for Hexfront's screens: pygame's bundled font, cached by size.

``pygame.font.Font(None, size)`` is the font shipped inside pygame, so nothing
has to be installed and every machine draws the same text.  The font module
is initialised on first use (never at import time).
"""
from __future__ import annotations

import pygame

__all__ = ["font", "text_surface", "wrap_text"]

_CACHE: dict[tuple[int, bool], pygame.font.Font] = {}


def font(size: int, bold: bool = False) -> pygame.font.Font:
    """The bundled font at ``size`` pixels (``bold`` uses pygame's synthetic bold)."""
    size = max(6, int(size))
    key = (size, bool(bold))
    f = _CACHE.get(key)
    if f is None:
        if not pygame.font.get_init():
            pygame.font.init()
        f = pygame.font.Font(None, size)
        f.set_bold(bool(bold))
        _CACHE[key] = f
    return f


def text_surface(text: str, size: int, color=(20, 20, 20), bold: bool = False) -> pygame.Surface:
    """Antialiased text on a transparent background."""
    return font(size, bold).render(text, True, color)


def wrap_text(text: str, size: int, width: int, bold: bool = False) -> list[str]:
    """Split ``text`` into lines no wider than ``width`` pixels (long words stay whole)."""
    f = font(size, bold)
    lines: list[str] = []
    for paragraph in text.split("\n"):
        words = paragraph.split()
        if not words:
            lines.append("")
            continue
        line = words[0]
        for w in words[1:]:
            trial = f"{line} {w}"
            if f.size(trial)[0] <= width:
                line = trial
            else:
                lines.append(line)
                line = w
        lines.append(line)
    return lines
