"""The casualty phase's pictures: the current step's unit, the destroyed, the list.

Drawing only: the input is in game.ui.battle.modes."""
from __future__ import annotations


from typing import Any

import pygame

from game.rules.events import UnitDestroyed
from game.rules.queries import plain_text
from game.ui import theme
from game.ui.battle.modes import CasualtyMode
from game.ui.battle.overlays.painter import SELECT_RING, Painter, paints
from game.ui.map_render import outline_hex
from game.ui.widgets import draw_panel, draw_text, wrap

__all__ = ["CasualtyPainter"]


@paints(CasualtyMode)
class CasualtyPainter(Painter):
    mode: CasualtyMode
    _img: pygame.Surface | None = None
    _img_key: Any = None

    def draw_over(self, surface) -> None:
        view = self.ctx.view
        lay = view.layout
        st = self.state
        if 0 < self.mode.shown and not self.mode.done:       # the unit of the current step
            uid = getattr(self.mode.steps[self.mode.shown - 1], "uid", None)
            h = self.mode.where.get(uid) if uid else None
            if h is not None:
                outline_hex(surface, lay, h, SELECT_RING, 4, 0.92)
        for e in self.mode.steps[:self.mode.shown]:
            if isinstance(e, UnitDestroyed):
                h = self.mode.where.get(e.uid)
                if h is not None:
                    c = lay.hex_to_pixel(h)
                    r = lay.size * 0.45
                    col = theme.COUNTER_COLOURS["destroyed"]
                    pygame.draw.line(surface, col, (c[0] - r, c[1] - r), (c[0] + r, c[1] + r), 5)
                    pygame.draw.line(surface, col, (c[0] - r, c[1] + r), (c[0] + r, c[1] - r), 5)
        obj = st.objective
        if obj is not None and self.mode.done:
            c = lay.hex_to_pixel(obj)
            ring = SELECT_RING if self.mode.controller else (200, 200, 200)
            pygame.draw.circle(surface, ring, c, lay.size * 0.9, 3)

    def draw_side(self, surface, rect) -> bool:
        """The list of steps, in the side panel's card area (the map stays clear)."""
        key = (self.mode.shown, self.mode.done, rect.size)
        if key != self._img_key or self._img is None:
            self._img_key = key
            img = pygame.Surface(rect.size)
            img.fill(theme.BG)
            draw_panel(img, img.get_rect(), theme.BG_DARK)
            pygame.draw.rect(img, theme.ACCENT, img.get_rect(), 1, border_radius=8)
            draw_text(img, f"Casualty phase - turn {self.mode.turn}", (12, 8), 20, theme.ACCENT,
                      bold=True)
            n = len(self.mode.steps)
            sub = f"step {self.mode.shown} of {n}" if not self.mode.done else "summary"
            draw_text(img, sub, (rect.w - 12, 12), 16, theme.TEXT_DIM, anchor="topright")
            lines = self.lines(rect.w - 24)
            rows = max(1, (rect.h - 44) // 19)
            if len(lines) > rows:           # the newest lines stay in view
                lines = lines[-rows:]
            f = theme.font(17)
            y = 38
            for text, col in lines:
                img.blit(f.render(text, True, col), (12, y))
                y += 19
            self._img = img
        surface.blit(self._img, rect.topleft)
        return True

    def lines(self, width: int) -> list[tuple[str, tuple[int, int, int]]]:
        """The steps shown so far (the newest bright), then the summary once done."""
        out: list[tuple[str, tuple[int, int, int]]] = []
        f = theme.font(17)
        for i, e in enumerate(self.mode.steps[:self.mode.shown]):
            col = theme.TEXT if i == self.mode.shown - 1 else theme.TEXT_DIM
            if isinstance(e, UnitDestroyed):
                col = theme.BAD
            for line in wrap(plain_text(e.text) or type(e).__name__, f, width):
                out.append((line, col))
        if self.mode.done:
            for line in wrap(self.mode.summary(), theme.font(17, True), width):
                out.append((line, theme.ACCENT))
        if not self.mode.steps:
            out.insert(0, ("No counters to resolve this turn.", theme.TEXT_DIM))
        return out
