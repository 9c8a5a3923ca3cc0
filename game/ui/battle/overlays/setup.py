"""The setup steps' pictures: the coin flip or initiative dice, the map ends, the
legal objective hexes.

Drawing only: the input is in game.ui.battle.modes."""
from __future__ import annotations

from typing import Any

import pygame

from game.rules.state import OrderChoice
from game.ui import theme
from game.ui.battle.modes import EndMode, ObjectiveMode, OrderMode
from game.ui.battle.overlays.painter import LEGAL_FILL, Painter, paints
from game.ui.battle.view import region_layer
from game.ui.map_render import ZONE_COLORS
from game.ui.widgets import draw_panel, draw_text

__all__ = ["OrderPainter", "EndPainter", "ObjectivePainter"]


@paints(OrderMode)
class OrderPainter(Painter):
    mode: OrderMode

    def draw_side(self, surface: pygame.Surface, rect: pygame.Rect) -> bool:
        """The coin flip or the initiative dice, in the side panel (the map stays clear)."""
        p: OrderChoice = self.state.pending
        surface.fill(theme.BG, rect)
        box = pygame.Rect(rect.x, rect.y, rect.w, min(rect.h, 190))
        draw_panel(surface, box, theme.BG_DARK, theme.ACCENT)
        col = theme.SIDE_RIM.get(p.side, theme.ACCENT)
        if p.reason == "coin flip":
            pygame.draw.circle(surface, (40, 36, 20), (box.x + 70, box.centery + 3), 48)
            pygame.draw.circle(surface, (222, 184, 92), (box.x + 68, box.centery), 48)
            pygame.draw.circle(surface, col, (box.x + 68, box.centery), 38)
            draw_text(surface, p.side[:2].upper(), (box.x + 68, box.centery), 30, (250, 250, 240),
                      bold=True, anchor="center")
            draw_text(surface, "Coin flip", (box.x + 136, box.y + 40), 26, theme.ACCENT, bold=True)
            verb = "win" if p.side == "Allies" else "wins"
            draw_text(surface, f"{p.side} {verb} the toss and choose"
                               f"{'' if verb == 'win' else 's'} to be first or second player.", (box.x + 136, box.y + 76), 18, theme.TEXT,
                      width=box.w - 150)
        else:
            rolls = self.state.initiative_rolls
            draw_text(surface, f"Initiative, turn {self.state.turn}", (box.x + 20, box.y + 16),
                      26, theme.ACCENT, bold=True)
            y = box.y + 56
            from game.ui.widgets import draw_die
            for side in ("Axis", "Allies"):
                r = rolls.get(side)
                if not r:
                    continue
                draw_text(surface, side, (box.x + 20, y + 8), 20, theme.SIDE_RIM.get(side, theme.TEXT)
                          if side == "Allies" else (200, 202, 208), bold=True)
                for i in range(2):
                    draw_die(surface, pygame.Rect(box.x + 100 + 40 * i, y, 32, 32), r[i],
                             "hit" if side == p.side else "plain")
                extra = f"+{r[2]}" if r[2] else ""
                draw_text(surface, f"{extra} = {sum(r)}", (box.x + 186, y + 8), 20, theme.TEXT)
                y += 44
            draw_text(surface, f"{p.side} choose{'' if p.side == 'Allies' else 's'} "
                               f"first or second.", (box.x + 20, box.bottom - 32),
                      18, theme.TEXT)
        return True


@paints(EndMode)
class EndPainter(Painter):
    mode: EndMode

    def under_key(self) -> Any:
        return self.mode.hovered_end()

    def draw_under(self, surface: pygame.Surface) -> None:
        end = self.mode.hovered_end()
        for e in ("left", "right"):
            zone = self.state.battle_map.deployment_zone(e)
            col = ZONE_COLORS[e]
            alpha = 120 if e == end else 45
            self.ctx.view.blit_layer(surface, ("zone", e, alpha), lambda lay, z=zone, c=col, a=alpha:
                                       region_layer(lay, z, lambda h: c + (a,)))


@paints(ObjectiveMode)
class ObjectivePainter(Painter):
    mode: ObjectiveMode

    def draw_under(self, surface) -> None:
        legal = self.mode.legal()
        self.ctx.view.blit_layer(surface, ("objective", self.ctx.version),
                                   lambda lay: region_layer(lay, legal, lambda h: LEGAL_FILL))
