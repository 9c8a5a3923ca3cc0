"""Defensive fire's pictures (the mover's step, the firers, the odds table) and the
hexes a dismounted Soldier may go to.

Drawing only: the input is in game.ui.battle.modes."""
from __future__ import annotations


import pygame

from game.rules.hexes import hex_label
from game.ui import theme
from game.ui.battle.modes import DefensiveFireMode, DismountMode
from game.ui.battle.overlays.painter import LEGAL_FILL, SELECT_RING, TARGET_RING, Painter, paints
from game.ui.battle.panels import draw_unit_box, pct
from game.ui.battle.view import region_layer
from game.ui.map_render import draw_los_line, outline_hex
from game.ui.widgets import draw_panel, draw_text, fit

__all__ = ["DefensiveFirePainter", "DismountPainter"]


@paints(DefensiveFireMode)
class DefensiveFirePainter(Painter):
    mode: DefensiveFireMode

    def draw_over(self, surface) -> None:
        p = self.mode.prompt_obj
        st = self.state
        view = self.ctx.view
        lay = view.layout
        outline_hex(surface, lay, p.from_hex, (255, 255, 255), 2, 0.92)
        outline_hex(surface, lay, p.to_hex, TARGET_RING, 3, 0.92)
        a, b = lay.hex_to_pixel(p.from_hex), lay.hex_to_pixel(p.to_hex)
        pygame.draw.line(surface, TARGET_RING, a, b, max(3, int(lay.size * 0.1)))
        slots = view.unit_slots(st)
        cur = self.mode.current()
        for uid in self.mode.eligible():
            r = slots.get(uid)
            if r is None:
                continue
            pygame.draw.circle(surface, SELECT_RING if uid == cur else (200, 200, 200), r.center,
                               r.w // 2 + 4, 3 if uid == cur else 1)
        firer = st.units[cur]
        draw_los_line(surface, lay, firer.hex, p.at_hex, SELECT_RING)

    def draw_side(self, surface, rect) -> bool:
        """The odds table at the top of the side panel's card area (never over the map:
        the mover and the firers stay visible), the chosen firer's card under it."""
        p = self.mode.prompt_obj
        cur = self.mode.current()
        key = (self.ctx.version, cur, rect.size)
        if key != getattr(self, "_img_key", None):
            self._img_key = key
            img = pygame.Surface(rect.size)
            img.fill(theme.BG)
            rows = self.mode.rows()
            why = {uid: " - ".join(x for x in (
                None if o.here.legal else f"here: {o.here.reason}",
                None if o.next is None or o.next.legal else f"next hex: {o.next.reason}") if x)
                for uid, o in self.mode.options().items()}
            n_why = sum(1 for v in why.values() if v)
            box = pygame.Rect(0, 0, rect.w, min(rect.h, 54 + 22 * len(rows) + 19 * n_why))
            draw_panel(img, box, theme.BG_DARK)
            pygame.draw.rect(img, theme.ACCENT, box, 1, border_radius=8)
            draw_text(img, "Defensive fire: chance to stop the mover", (10, 6), 18,
                      theme.ACCENT, bold=True)
            head = f"in {hex_label(p.at_hex)}" + (f"   /   in {hex_label(p.to_hex)}"
                                                  if p.stage == "leave" else "")
            draw_text(img, head, (box.right - 10, 28), 16, theme.TEXT_DIM, anchor="topright")
            y = 48
            for uid, name, here, nxt in rows:
                if y + 20 > box.bottom:
                    break
                col = SELECT_RING if uid == cur else theme.TEXT
                draw_text(img, fit(name, theme.font(17, uid == cur), box.w - 150), (10, y), 17,
                          col, bold=uid == cur)
                def cell(x):
                    return "-" if x is None else pct(x)
                txt = cell(here) + (f"   /   {cell(nxt)}" if p.stage == "leave" else "")
                draw_text(img, txt, (box.right - 10, y), 17, col, anchor="topright")
                y += 22
                if why.get(uid) and y + 18 <= box.bottom:
                    draw_text(img, fit(why[uid], theme.font(15), box.w - 30), (20, y - 2), 15,
                              theme.WARN)
                    y += 19
            rest = pygame.Rect(0, box.bottom + 6, rect.w, rect.h - box.bottom - 6)
            firer = self.state.units[cur]
            if rest.h >= 330:              # room for the whole stat card
                draw_unit_box(img, rest, firer, self.state)
            elif rest.h >= 60:             # the firer named, with its state
                draw_panel(img, rest, theme.BG_DARK)
                draw_text(img, fit(f"Firing: {firer.name}", theme.font(18, True), rest.w - 20),
                          (rest.x + 10, rest.y + 8), 18, theme.TEXT, bold=True)
                draw_unit_box(img, pygame.Rect(rest.x + 6, rest.y + 32 - 52, rest.w - 12, 100),
                              firer, self.state)
                mover = self.state.units[p.mover]
                where = (f"leaving {hex_label(p.from_hex)} for {hex_label(p.to_hex)}"
                         if p.stage == "leave" else f"entering {hex_label(p.to_hex)}")
                draw_text(img, f"At: {mover.name}, {where}", (rest.x + 10, rest.y + 70), 16,
                          theme.TEXT_DIM, width=rest.w - 20)
            self._img = img
        surface.blit(self._img, rect.topleft)
        return True


@paints(DismountMode)
class DismountPainter(Painter):
    mode: DismountMode

    def draw_under(self, surface) -> None:
        cands = set(self.state.pending.candidates)
        self.ctx.view.blit_layer(surface, ("dismount", self.ctx.version),
                                   lambda lay: region_layer(lay, cands, lambda h: LEGAL_FILL))
