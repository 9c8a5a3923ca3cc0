"""Reserves' pictures (rulings 21-23): the tray of units waiting off the map with when
and where each may enter (or the rules' reason it can't now), the shaded hexes the
selected one may enter, and over the hovered hex the unit as it would stand there -
or, in red, why not.

Drawing only: the input is in game.ui.battle.modes.reserves."""
from __future__ import annotations

from types import SimpleNamespace

import pygame

from game.rules.hexes import hex_label
from game.ui import theme
from game.ui.battle.modes.reserves import ReserveMode
from game.ui.battle.overlays.painter import LEGAL_FILL, SELECT_RING, TARGET_RING, paints
from game.ui.battle.overlays.play import PlayPainter
from game.ui.battle.panels import draw_roster, draw_tooltip
from game.ui.tokens import draw_unit
from game.ui.battle.view import region_layer
from game.ui.map_render import outline_hex
from game.ui.widgets import draw_text

__all__ = ["ReservePainter"]


@paints(ReserveMode)
class ReservePainter(PlayPainter):
    mode: ReserveMode

    def draw_side(self, surface, rect) -> bool:
        waiting = self.mode.waiting()
        if not waiting or not self.mode.shows_tray():
            return False
        tray = draw_roster(surface, rect, waiting, self.ctx.selected, self.mode.tray_title())
        y = (max(r.bottom for r in tray.values()) + 10) if tray else rect.y + 30
        u = self.mode.selected_reserve()
        notes = [u] if u is not None else waiting
        for w in notes:
            note = self.mode.when_note(w)
            ok = bool(self.mode.entries(w.uid))
            y = draw_text(surface, note, (rect.x + 10, y), 16,
                          theme.TEXT if ok else theme.WARN, width=rect.w - 20).bottom + 6
            if y > rect.bottom - 20:
                break
        if u is None:
            draw_text(surface, "Click a unit above (or press R) to bring it in.",
                      (rect.x + 10, min(y, rect.bottom - 22)), 15, theme.TEXT_DIM,
                      width=rect.w - 20)
        return True

    def under_key(self):
        u = self.mode.selected_reserve()
        return None if u is None else ("reserve", u.uid)

    def draw_under(self, surface) -> None:
        u = self.mode.selected_reserve()
        if u is None:
            super().draw_under(surface)
            return
        hexes = self.mode.entries(u.uid)
        if hexes:
            self.ctx.view.blit_layer(surface, ("entries", self.ctx.version, u.uid),
                                     lambda lay: region_layer(lay, hexes, lambda h: LEGAL_FILL))

    def draw_over(self, surface) -> None:
        u = self.mode.selected_reserve()
        if u is None:
            super().draw_over(surface)
            return
        h = self.ctx.hover_hex
        view = self.ctx.view
        mouse = self.ctx.mouse
        if h is None or self.ctx.hover_button or mouse is None:
            return
        ok = h in self.mode.entries(u.uid)
        outline_hex(surface, view.layout, h, SELECT_RING if ok else TARGET_RING, 3, 0.94)
        if not ok:
            why = self.mode.why_not_enter(u.uid, h)
            if why:
                draw_tooltip(surface, mouse, [f"{hex_label(h)}: {why}"], view.rect, theme.WARN)
            return
        c = view.layout.hex_to_pixel(h)
        r = int(view.layout.size * 0.42)
        ghost = SimpleNamespace(uid=u.uid, hex=h, card=u.card, side=u.side, destroyed=False,
                                damaged=False, disrupted=False, pending=(), facing=u.facing,
                                carrier=None, acted=False)
        draw_unit(surface, ghost, pygame.Rect(int(c[0]) - r, int(c[1]) - r, 2 * r, 2 * r),
                  selected=True, label=False)
        verb = "drops into" if u.card.has("paratrooper") else "enters in"
        draw_tooltip(surface, mouse, [f"{u.name} {verb} {hex_label(h)} (click)"], view.rect)
