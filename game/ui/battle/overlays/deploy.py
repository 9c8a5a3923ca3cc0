"""Deployment's pictures: the legal hexes, the tray, the unit being dragged.

Drawing only: the input is in game.ui.battle.modes."""
from __future__ import annotations


import pygame

from game.rules.actions import Deploy
from game.ui.battle.modes import DeployMode
from game.ui.battle.overlays.painter import LEGAL_FILL, SELECT_RING, TARGET_RING, Painter, paints
from game.ui.battle.panels import draw_roster
from game.ui.battle.view import region_layer
from game.ui.map_render import ZONE_COLORS, outline_hex

__all__ = ["DeployPainter"]


@paints(DeployMode)
class DeployPainter(Painter):
    mode: DeployMode

    def draw_side(self, surface, rect) -> bool:
        waiting = self.mode.waiting()
        if not waiting:
            return False
        draw_roster(surface, rect, waiting, self.ctx.selected, self.mode.tray_title())
        return True

    def draw_under(self, surface) -> None:
        legal_all = self.ctx.cached("deploy_hexes", lambda: {
            a.hex for a in self.ctx.legal() if isinstance(a, Deploy)})
        sel = self.ctx.selected
        mine = {a.hex for a in self.mode.deploys(sel)} if sel else set()
        end = self.state.ends.get(self.mode.side, "left")
        col = ZONE_COLORS.get(end, (90, 140, 220))
        view = self.ctx.view
        view.blit_layer(surface, ("deploy", self.ctx.version, sel),
                        lambda lay: region_layer(lay, legal_all | mine,
                                                 lambda h: LEGAL_FILL if h in mine else col + (50,)))

    def draw_over(self, surface) -> None:
        h = self.ctx.hover_hex
        sel = self.ctx.selected
        if h is not None and sel in self.state.units and self.state.units[sel].hex is None:
            ok = any(a.hex == h for a in self.mode.deploys(sel))
            outline_hex(surface, self.ctx.view.layout, h,
                        SELECT_RING if ok else TARGET_RING, 3, 0.94)
        if self.mode.dragging and self.ctx.mouse and self.ctx.view.rect.collidepoint(self.ctx.mouse):
            from game.ui.tokens import draw_unit
            u = self.state.units[self.mode.dragging]
            r = int(self.ctx.view.layout.size * 0.62)
            mx, my = self.ctx.mouse
            draw_unit(surface, u, pygame.Rect(mx - r, my - r, 2 * r, 2 * r), selected=True)
