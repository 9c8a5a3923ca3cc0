"""The recap's picture (issue 17): an arrow for each move, a line for each attack
with the counters it placed, and the step's log lines in a box over the map.

Drawing only: the step-through's input is game.ui.battle.recap.RecapMode."""
from __future__ import annotations

import math

import pygame

from game.ui import theme
from game.ui.battle.overlays.painter import Painter, paints
from game.ui.battle.recap import RecapMode
from game.ui.map_render import draw_los_line
from game.ui.widgets import draw_panel, draw_text, wrap

__all__ = ["RecapPainter", "MOVE_COLOUR", "ATTACK_COLOUR"]

MOVE_COLOUR = (120, 190, 255)
ATTACK_COLOUR = (240, 90, 70)


@paints(RecapMode)
class RecapPainter(Painter):
    mode: RecapMode

    def draw_over(self, surface: pygame.Surface) -> None:
        view = self.ctx.view
        lay = view.layout
        for i, s in enumerate(self.mode.steps[:self.mode.index + 1]):
            faded = i < self.mode.index
            if s.kind == "move" and len(s.route) >= 2:
                col = tuple(c // 2 for c in MOVE_COLOUR) if faded else MOVE_COLOUR
                pts = [view.center(h) for h in s.route]
                pygame.draw.lines(surface, col, False, pts, 2 if faded else 4)
                if not faded:
                    _arrow_head(surface, pts[-2], pts[-1], col)
            elif s.kind == "attack" and s.from_hex is not None and s.to_hex is not None:
                col = tuple(c // 2 for c in ATTACK_COLOUR) if faded else ATTACK_COLOUR
                draw_los_line(surface, lay, s.from_hex, s.to_hex, col, width=2 if faded else 3)
                if not faded:
                    c = view.center(s.to_hex)
                    pygame.draw.circle(surface, col, c, max(8, int(view.hex_size * 0.55)), 3)
                    for k, (counter, up) in enumerate(s.counters):
                        box = pygame.Rect(c[0] - 30 + 22 * k, c[1] - int(view.hex_size) - 4, 20, 20)
                        colour = theme.COUNTER_COLOURS.get(counter, theme.WARN)
                        pygame.draw.rect(surface, colour if up else (70, 70, 70), box,
                                         border_radius=3)
                        pygame.draw.rect(surface, (20, 20, 20), box, 1, border_radius=3)
            elif s.route and not faded:
                pygame.draw.circle(surface, theme.WARN, view.center(s.route[-1]),
                                   max(8, int(view.hex_size * 0.6)), 3)
        r, lines = self._box()
        draw_panel(surface, r, theme.BG_DARK)
        draw_text(surface, f"{self.mode.title} - {self.mode.index + 1}/{len(self.mode.steps)}", (r.x + 10, r.y + 8),
                  17, theme.ACCENT, bold=True)
        y = r.y + 32
        for ln in lines:
            draw_text(surface, ln, (r.x + 10, y), 16, theme.TEXT)
            y += 20

    def _box(self) -> tuple[pygame.Rect, list[str]]:
        """The step's box at the top left of the map, and its wrapped lines."""
        v = self.ctx.view_rect
        f = theme.font(16)
        w = min(v.w - 20, 520)
        lines: list[str] = []
        for ln in self.mode.step.lines:
            lines.extend(wrap(ln, f, w - 20))
        return pygame.Rect(v.x + 10, v.y + 10, w, 40 + 20 * len(lines)), lines

    def top_box_bottom(self) -> int | None:
        return self._box()[0].bottom


def _arrow_head(surface, a, b, col) -> None:
    ang = math.atan2(b[1] - a[1], b[0] - a[0])
    size = 12
    left = (b[0] - size * math.cos(ang - 0.45), b[1] - size * math.sin(ang - 0.45))
    right = (b[0] - size * math.cos(ang + 0.45), b[1] - size * math.sin(ang + 0.45))
    pygame.draw.polygon(surface, col, [b, left, right])
