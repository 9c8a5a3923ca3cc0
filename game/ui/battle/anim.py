"""Animation of the events the rules send back: units sliding along their path,
flashes where counters land, a banner when the seat changes hands.

The game state is already final when an animation starts; animations only
decide where a token is drawn for a moment.  Every duration is multiplied by
the player's animation speed (0 = no animation at all).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

import pygame

from game.rules.hexes import Hex
from game.ui import theme
from game.ui.widgets import draw_text

__all__ = ["Animator", "STEP_TIME"]

STEP_TIME = 0.14        # seconds per hex of a move at normal speed
FLASH_TIME = 0.9


@dataclass
class _Move:
    uid: str
    hexes: list[Hex]            # start, then every hex entered
    t: float = 0.0
    delay: float = 0.0

    @property
    def duration(self) -> float:
        return STEP_TIME * max(1, len(self.hexes) - 1)


@dataclass
class _Flash:
    hex: Hex
    colour: tuple[int, int, int]
    text: str
    t: float = 0.0
    delay: float = 0.0


class Animator:
    def __init__(self, factor: Callable[[], float]) -> None:
        self.factor = factor
        self.moves: list[_Move] = []
        self.flashes: list[_Flash] = []
        self.banner: tuple[str, tuple[int, int, int], float] | None = None
        self.banner_box: pygame.Rect | None = None     # where the banner was drawn last

    @property
    def busy(self) -> bool:
        return bool(self.moves)

    def _queue_delay(self) -> float:
        f = self.factor()
        return max((m.delay + m.duration * f - m.t for m in self.moves), default=0.0)

    def move(self, uid: str, start: Hex | None, path: Sequence[Hex]) -> None:
        f = self.factor()
        if f <= 0 or start is None or not path:
            return
        self.moves.append(_Move(uid, [start] + list(path), delay=self._queue_delay()))

    def flash(self, h: Hex | None, colour: tuple[int, int, int], text: str = "") -> None:
        if h is None or self.factor() <= 0:
            return
        self.flashes.append(_Flash(h, colour, text, delay=self._queue_delay()))

    def show_banner(self, text: str, colour: tuple[int, int, int] = theme.ACCENT) -> None:
        self.banner = (text, colour, 1.6 * max(0.5, self.factor() or 0.5))

    def skip(self) -> None:
        self.moves.clear()
        self.flashes.clear()

    def update(self, dt: float) -> None:
        f = self.factor()
        for m in list(self.moves):
            if m.delay > 0:
                m.delay -= dt
                continue
            m.t += dt
            if f <= 0 or m.t >= m.duration * f:
                self.moves.remove(m)
        for fl in list(self.flashes):
            if fl.delay > 0:
                fl.delay -= dt
                continue
            fl.t += dt
            if f <= 0 or fl.t >= FLASH_TIME * max(f, 0.3):
                self.flashes.remove(fl)
        if self.banner is not None:
            text, col, left = self.banner
            left -= dt
            self.banner = (text, col, left) if left > 0 else None

    def positions(self, layout: Any) -> dict[str, tuple[float, float]]:
        """Where the moving units are drawn now (window pixels)."""
        f = max(self.factor(), 1e-6)
        out: dict[str, tuple[float, float]] = {}
        for m in self.moves:
            if m.uid in out:
                continue
            if m.delay > 0:
                p = layout.hex_to_pixel(m.hexes[0])
            else:
                steps = len(m.hexes) - 1
                x = min(1.0, m.t / (m.duration * f)) * steps
                i = min(int(x), steps - 1)
                frac = x - i
                a, b = layout.hex_to_pixel(m.hexes[i]), layout.hex_to_pixel(m.hexes[i + 1])
                p = (a[0] + (b[0] - a[0]) * frac, a[1] + (b[1] - a[1]) * frac)
            out[m.uid] = p
        return out

    def draw(self, surface: pygame.Surface, layout: Any, area: pygame.Rect,
             below: int | None = None) -> None:
        """Flashes and the seat-change banner; ``below``: a box's bottom edge at the top
        of ``area`` that the banner must not cover (the recap's step box)."""
        f = max(self.factor(), 0.3)
        for fl in self.flashes:
            if fl.delay > 0:
                continue
            k = fl.t / (FLASH_TIME * f)
            cx, cy = layout.hex_to_pixel(fl.hex)
            r = layout.size * (0.5 + 0.6 * k)
            pygame.draw.circle(surface, fl.colour, (cx, cy), r, max(2, int(4 * (1 - k)) + 1))
            if fl.text:
                draw_text(surface, fl.text, (int(cx), int(cy - layout.size - 8 * k)), 20,
                          fl.colour, bold=True, anchor="midbottom")
        if self.banner is not None:
            text, col, left = self.banner
            f18 = theme.font(30, bold=True)
            img = f18.render(text, True, col)
            box = img.get_rect(center=(area.centerx, area.y + 70)).inflate(36, 16)
            if below is not None and box.top < below + 8:
                box.top = below + 8
            shade = pygame.Surface(box.size, pygame.SRCALPHA)
            shade.fill((16, 18, 16, 210))
            surface.blit(shade, box.topleft)
            pygame.draw.rect(surface, col, box, 2, border_radius=6)
            surface.blit(img, img.get_rect(center=box.center))
            self.banner_box = box
