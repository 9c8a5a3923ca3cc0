"""The later edition's pictures: the flight phase (the tray of Aircraft off the map,
the hexes enemy Antiair covers, the plane over the hovered hex with the exact risk),
the Antiair prompt (the firing unit, the plane, the odds table) and the airstrike
(the assault phase's picture plus why an enemy can't be attacked).

Drawing only: the input is in game.ui.battle.modes.later."""
from __future__ import annotations

from types import SimpleNamespace

import pygame

from game.rules.hexes import hex_label
from game.rules.later.flight import ANTIAIR_HIT_TEXT
from game.ui import theme
from game.ui.battle.aircraft import aircraft_slots, draw_aircraft, heading_for
from game.ui.battle.modes.later import AirstrikeMode, AntiairMode, FlightMode
from game.ui.battle.overlays.painter import SELECT_RING, TARGET_RING, Painter, paints
from game.ui.battle.overlays.play import PlayPainter
from game.ui.battle.panels import draw_roster, draw_tooltip, draw_unit_box, pct
from game.ui.battle.view import region_layer
from game.ui.map_render import draw_los_line, outline_hex
from game.ui.widgets import draw_panel, draw_text, fit, wrap

__all__ = ["FlightPainter", "AntiairPainter", "AirstrikePainter", "DANGER_FILL"]

DANGER_FILL = (220, 70, 50, 70)       # hexes where enemy Antiair could fire at the plane


def _ghost(u, h):
    """The Aircraft as it would be over ``h`` (for drawing only)."""
    return SimpleNamespace(uid=u.uid, hex=h, card=u.card, side=u.side, destroyed=False,
                           damaged=False, disrupted=False, pending=())


@paints(FlightMode)
class FlightPainter(Painter):
    mode: FlightMode

    def draw_side(self, surface, rect) -> bool:
        waiting = self.mode.waiting()
        if not waiting:
            return False
        tray = draw_roster(surface, rect, waiting, self.ctx.selected, self.mode.tray_title())
        u = self.mode.selected_waiting()
        if u is not None and not self.mode.placements(u.uid):
            any_hex = next(iter(self.state.battle_map.terrain))
            why = self.mode.why_not_place(u.uid, any_hex)       # the rules' reason
            if why:
                y = max(r.bottom for r in tray.values()) + 8 if tray else rect.y + 30
                draw_text(surface, why[:1].upper() + why[1:] + ".", (rect.x + 10, y), 16,
                          theme.WARN, width=rect.w - 20)
        return True

    def under_key(self):
        return self.ctx.selected

    def draw_under(self, surface) -> None:
        u = self.mode.selected_waiting()
        if u is None:
            return
        danger = self.mode.risk(u.uid)
        if danger:
            self.ctx.view.blit_layer(surface, ("antiair", self.ctx.version, u.uid),
                                     lambda lay: region_layer(lay, danger, lambda h: DANGER_FILL))

    def draw_over(self, surface) -> None:
        u = self.mode.selected_waiting()
        h = self.ctx.hover_hex
        view = self.ctx.view
        mouse = self.ctx.mouse
        if u is None or h is None or self.ctx.hover_button:
            return
        ok = h in self.mode.placements(u.uid)
        outline_hex(surface, view.layout, h, SELECT_RING if ok else TARGET_RING, 3, 0.94)
        if not ok:
            why = self.mode.why_not_place(u.uid, h)
            if why:
                draw_tooltip(surface, mouse, [f"{hex_label(h)}: {why}"], view.rect, theme.WARN)
            return
        if self.mode.dragging and mouse and view.rect.collidepoint(mouse):
            r = int(view.layout.size * 0.42)
            draw_aircraft(surface, u, pygame.Rect(mouse[0] - r, mouse[1] - r, 2 * r, 2 * r),
                          (mouse[0], mouse[1] + r), view.layout.size, selected=True)
        else:                            # where it would fly: the plane over the hex
            ghost = _ghost(u, h)
            slot = aircraft_slots(view.layout, [ghost])[u.uid]
            draw_aircraft(surface, ghost, slot, view.layout.hex_to_pixel(h), view.layout.size,
                          heading=heading_for(u, self.state))
        risk = self.mode.risk(u.uid).get(h)
        lines = [f"{u.name} over {hex_label(h)}"]
        if risk is not None and risk.shots:
            st = self.state
            for e, o in risk.shots:
                lines.append(f"Antiair: {st.units[e].name} disrupts it {pct(o.p_stopped)}")
                draw_los_line(surface, view.layout, st.units[e].hex, h, TARGET_RING)
            if len(risk.shots) > 1:
                lines.append(f"at least one disrupts it: {pct(risk.p_disrupted)}")
        else:
            lines.append("no enemy Antiair can fire at it here")
        strike = self.mode.best_strike(u.uid, h)
        if strike is not None:           # what it could do from here in the airstrike phase
            t, o = strike
            lines.append(f"airstrike from here: {self.state.units[t].name}, "
                         f"{pct(1 - o.p_none)} any effect, {pct(o.p_destroyed)} destroyed")
        else:
            lines.append("airstrike from here: no enemy in reach")
        draw_tooltip(surface, mouse, lines, view.rect, theme.WARN if risk else theme.TEXT)


@paints(AntiairMode)
class AntiairPainter(Painter):
    mode: AntiairMode

    def draw_over(self, surface) -> None:
        p = self.mode.prompt_obj
        st = self.state
        view = self.ctx.view
        lay = view.layout
        outline_hex(surface, lay, p.hex, TARGET_RING, 3, 0.92)
        slots = view.unit_slots(st)
        cur = self.mode.current()
        plane = slots.get(p.aircraft)
        for uid in self.mode.eligible():
            r = slots.get(uid)
            if r is None:
                continue
            pygame.draw.circle(surface, SELECT_RING if uid == cur else (200, 200, 200), r.center,
                               r.w // 2 + 4, 3 if uid == cur else 1)
            if uid == cur and plane is not None:
                pygame.draw.line(surface, (0, 0, 0), r.center, plane.center, 5)
                pygame.draw.line(surface, SELECT_RING, r.center, plane.center, 3)
        if plane is not None:            # round the whole plane, not through its wings
            rad = int(plane.w / 2 + lay.size * 0.40)
            pygame.draw.circle(surface, (0, 0, 0), plane.center, rad + 1, 4)
            pygame.draw.circle(surface, TARGET_RING, plane.center, rad, 3)

    def draw_side(self, surface, rect) -> bool:
        p = self.mode.prompt_obj
        cur = self.mode.current()
        key = (self.ctx.version, cur, rect.size)
        if key != getattr(self, "_img_key", None):
            self._img_key = key
            img = pygame.Surface(rect.size)
            img.fill(theme.BG)
            odds = self.mode.odds()
            plane = self.state.units[p.aircraft]
            box = pygame.Rect(0, 0, rect.w, min(rect.h, 74 + 22 * len(odds)))
            draw_panel(img, box, theme.BG_DARK)
            pygame.draw.rect(img, theme.ACCENT, box, 1, border_radius=8)
            draw_text(img, "Antiair fire: chance to disrupt", (10, 6), 18, theme.ACCENT, bold=True)
            draw_text(img, fit(f"{plane.name} over {hex_label(p.hex)}", theme.font(16),
                               box.w - 20), (10, 28), 16, theme.TEXT_DIM)
            y = 50
            for uid, o in odds.items():
                if y + 20 > box.bottom:
                    break
                col = SELECT_RING if uid == cur else theme.TEXT
                name = self.state.units[uid].name
                draw_text(img, fit(name, theme.font(17, uid == cur), box.w - 90), (10, y), 17,
                          col, bold=uid == cur)
                draw_text(img, pct(o.p_stopped), (box.right - 10, y), 17, col, anchor="topright")
                y += 22
            if len(odds) > 1 and y + 18 <= box.bottom:
                draw_text(img, f"If all fire, at least one disrupts it: "
                               f"{pct(self.mode.risk().p_disrupted)}", (10, y), 15,
                          theme.TEXT_DIM)
            rest = pygame.Rect(0, box.bottom + 6, rect.w, rect.h - box.bottom - 6)
            if cur is not None and rest.h >= 330:
                draw_unit_box(img, rest, self.state.units[cur], self.state)
            elif rest.h >= 60:
                draw_panel(img, rest, theme.BG_DARK)
                yy = rest.y + 8
                for line in wrap(ANTIAIR_HIT_TEXT, theme.font(16),
                                 rest.w - 20):
                    draw_text(img, line, (rest.x + 10, yy), 16, theme.TEXT_DIM)
                    yy += 18
            self._img = img
        surface.blit(self._img, rect.topleft)
        return True


@paints(AirstrikeMode)
class AirstrikePainter(PlayPainter):
    mode: AirstrikeMode

    def draw_over(self, surface) -> None:
        super().draw_over(surface)
        me = self.mode.my_unit()
        st = self.state
        mouse = self.ctx.mouse
        view = self.ctx.view
        if me is None or mouse is None or self.ctx.hover_button or me.acted:
            return
        hover = view.unit_at(st, mouse)
        if hover is None or hover in self.mode.attack_options() or \
                st.units[hover].side == me.side:
            return
        why = self.mode.why_not_attack(hover)     # the rules' words
        if why:
            draw_tooltip(surface, mouse, [why], view.rect, theme.WARN)
