"""The stacked modes' pictures: the six facing arrows, the whole card, the menu.

Drawing only: the input is in game.ui.battle.modes."""
from __future__ import annotations


import pygame

from game.ui import theme
from game.ui.battle.modes import BattleMenuMode, CardMode, FacingMode, KEY_HELP
from game.ui.battle.overlays.painter import SELECT_RING, Painter, paints
from game.ui.map_render import outline_hex
from game.ui.widgets import draw_panel, draw_text, fit

__all__ = ["FacingPainter", "CardPainter", "BattleMenuPainter"]


@paints(FacingMode)
class FacingPainter(Painter):
    mode: FacingMode

    def draw_over(self, surface) -> None:
        lay = self.ctx.view.layout
        outline_hex(surface, lay, self.mode.hex, SELECT_RING, 3, 0.95)
        hover = self.mode.wedge_at(self.ctx.mouse) if self.ctx.mouse else None
        r = max(10, lay.size * 0.34)
        c = lay.hex_to_pixel(self.mode.hex)
        if self.mode.unit is not None:
            # the unit where it will stand (it is still drawn where it was until it is sent)
            from game.ui.tokens import counters_of, draw_token
            side = max(8, int(lay.size * 1.24))
            img = pygame.Surface((side, side), pygame.SRCALPHA)
            draw_token(img, self.mode.unit.card, img.get_rect(), side=self.mode.unit.side,
                       facing=hover if hover is not None else self.mode.default,
                       counters=counters_of(self.mode.unit), selected=True)
            img.set_alpha(220)
            surface.blit(img, img.get_rect(center=(round(c[0]), round(c[1]))))
        for f in range(6):
            x, y = self.mode.wedge_pos(f)
            dx, dy = x - c[0], y - c[1]
            d = (dx * dx + dy * dy) ** 0.5 or 1
            ux, uy = dx / d, dy / d
            tip = (x + ux * r, y + uy * r)
            back = (x - ux * r * 0.6, y - uy * r * 0.6)
            left = (back[0] - uy * r * 0.8, back[1] + ux * r * 0.8)
            right = (back[0] + uy * r * 0.8, back[1] - ux * r * 0.8)
            col = SELECT_RING if f == hover else ((250, 250, 250) if f == self.mode.default
                                                  else (190, 190, 190))
            pygame.draw.polygon(surface, (0, 0, 0), [(p[0] + 1, p[1] + 2) for p in (tip, left, right)])
            pygame.draw.polygon(surface, col, [tip, left, right])
            pygame.draw.polygon(surface, (30, 30, 30), [tip, left, right], 1)


@paints(CardMode)
class CardPainter(Painter):
    mode: CardMode
    fits = True                # False: the card had to cut a text

    def card_rect(self) -> pygame.Rect:
        from game.ui.cardview import card_height
        v = self.ctx.view_rect
        u = self.state.units[self.mode.uid]
        w = min(430, v.w - 24)
        for body in (17, 16, 15, 14, 13):
            h = card_height(u.card, w, body)
            if h <= v.h - 24:
                break
        r = pygame.Rect(0, 0, w, min(h, v.h - 24))
        r.center = v.center
        return r

    def draw_over(self, surface) -> None:
        from game.ui.cardview import draw_card
        u = self.state.units[self.mode.uid]
        shade = pygame.Surface(self.ctx.view_rect.size, pygame.SRCALPHA)
        shade.fill((0, 0, 0, 120))
        surface.blit(shade, self.ctx.view_rect.topleft)
        self.fits = draw_card(surface, u.card, self.card_rect(),
                              facing=u.facing if u.is_vehicle else 0)


@paints(BattleMenuMode)
class BattleMenuPainter(Painter):
    mode: BattleMenuMode

    def draw_over(self, surface) -> None:
        r = self.mode.panel()
        shade = pygame.Surface(self.ctx.view_rect.size, pygame.SRCALPHA)
        shade.fill((0, 0, 0, 110))
        surface.blit(shade, self.ctx.view_rect.topleft)
        draw_panel(surface, r, theme.BG_DARK, theme.ACCENT)
        draw_text(surface, "Battle menu", (r.x + 20, r.y + 12), 26, theme.ACCENT, bold=True)
        if self.mode.show_keys:
            x = r.x + 220
            y = r.y + 52
            f = theme.font(16)
            for k, what in KEY_HELP:
                if y + 30 > r.bottom:
                    break
                draw_text(surface, fit(k, theme.font(16, True), r.right - x - 14), (x, y), 16,
                          theme.TEXT, bold=True)
                draw_text(surface, fit(what, f, r.right - x - 24), (x + 10, y + 16), 15,
                          theme.TEXT_DIM)
                y += 32
