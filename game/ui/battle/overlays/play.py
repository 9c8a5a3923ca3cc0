"""Movement and assault pictures: the reach, the path and its rolls, the ringed
targets, the odds and the reasons a hex or a target is out.

Drawing only: the input is in game.ui.battle.modes."""
from __future__ import annotations


import pygame

from game.rules.hexes import hex_label
from game.rules.queries import reach_chance, sight_note, unit_speed
from game.ui import theme
from game.ui.battle.modes import PlayMode
from game.ui.battle.overlays.painter import PASS_FILL, REACH_FILL, TARGET_RING, Painter, paints
from game.ui.battle.panels import draw_odds_stack, draw_tooltip, pct
from game.ui.battle.view import region_layer
from game.ui.map_render import BAND_COLORS, draw_los_line

__all__ = ["PlayPainter"]


@paints(PlayMode)
class PlayPainter(Painter):
    mode: PlayMode

    def draw_under(self, surface) -> None:
        me = self.mode.my_unit()
        view = self.ctx.view
        if me is None:
            return
        reach = self.mode.reach()
        if reach:
            view.blit_layer(surface, ("reach", self.ctx.version, me.uid),
                            lambda lay: region_layer(
                                lay, reach, lambda h: REACH_FILL if reach[h].stops else PASS_FILL,
                                text=lambda h: str(reach[h].cost) if reach[h].stops else None))

    def draw_path(self, surface, me, r) -> None:
        lay = self.ctx.view.layout
        pts = [lay.hex_to_pixel(me.hex)] + [lay.hex_to_pixel(x) for x in r.path]
        width = max(3, int(lay.size * 0.12))
        pygame.draw.lines(surface, (0, 0, 0), False, [(x + 1, y + 1) for x, y in pts], width + 2)
        bm = self.state.battle_map
        prev = me.hex
        for a, b, x in zip(pts, pts[1:], r.path):
            road = bm.is_road(prev, x, self.state.destroyed_bridges)
            pygame.draw.line(surface, theme.ACCENT if road else (250, 250, 250), a, b, width)
            prev = x
        pygame.draw.circle(surface, (250, 250, 250), pts[-1], width + 3)
        f = theme.font(max(14, int(lay.size * 0.42)), bold=True)
        for roll in r.rolls:
            cx, cy = lay.hex_to_pixel(roll.to_hex)
            box = pygame.Rect(0, 0, int(lay.size * 0.8), int(lay.size * 0.5))
            box.center = (int(cx), int(cy - lay.size * 0.45))
            pygame.draw.rect(surface, (250, 248, 240), box, border_radius=4)
            pygame.draw.rect(surface, (40, 40, 40), box, 1, border_radius=4)
            img = f.render(f"{roll.need}+", True, (20, 20, 20))
            surface.blit(img, img.get_rect(center=box.center))

    def suggested_hex(self):
        """Where Suggest (A) would send the selected unit - its move's end or its
        target's hex - while the suggestion still fits the game (else None)."""
        tip, me = self.ctx.suggestion, self.mode.my_unit()
        if tip is None or me is None or tip.uid != me.uid or tip.action is None or \
                self.ctx.suggestion_version != self.ctx.version:
            return None
        path = getattr(tip.action, "path", None)
        if path:
            return path[-1]
        target = self.state.units.get(getattr(tip.action, "target", None) or "")
        return target.hex if target is not None else None

    def suggestion_radius(self) -> int:
        return int(self.ctx.view.layout.size * 0.78)

    def draw_suggestion(self, surface) -> None:
        h = self.suggested_hex()
        if h is None:
            return
        c = self.ctx.view.center(h)
        r = self.suggestion_radius()
        pygame.draw.circle(surface, (0, 0, 0), c, r + 2, 6)
        pygame.draw.circle(surface, theme.ACCENT, c, r, 3)
        f = theme.font(max(13, int(self.ctx.view.layout.size * 0.32)), bold=True)
        img = f.render("suggested", True, (0, 0, 0), theme.ACCENT)
        surface.blit(img, img.get_rect(midbottom=(c[0], c[1] - r - 2)))

    def draw_over(self, surface) -> None:
        self.draw_suggestion(surface)
        me = self.mode.my_unit()
        st = self.state
        view = self.ctx.view
        h = self.ctx.hover_hex
        if me is not None and h is not None and not self.ctx.hover_button:
            reach = self.mode.reach()
            if h in reach:
                self.draw_path(surface, me, reach[h])
        slots = view.unit_slots(st)
        targets = self.mode.attack_options()
        lay = view.layout
        f = theme.font(max(14, int(lay.size * 0.36)), bold=True)
        for uid, infos in targets.items():
            r = slots.get(uid)
            if r is None:
                continue
            info = infos[0]
            col = BAND_COLORS.get(info.band, TARGET_RING)
            pygame.draw.circle(surface, (0, 0, 0), r.center, r.w // 2 + 5, 4)
            pygame.draw.circle(surface, col, r.center, r.w // 2 + 4, 3)
            tag = info.band[:1].upper() + ("" if info.front is None else
                                           (" F" if info.front else " R"))
            img = f.render(tag, True, (0, 0, 0), col)
            surface.blit(img, img.get_rect(midtop=(r.centerx, r.bottom + 1)))
        mouse = self.ctx.mouse
        hover_uid = view.unit_at(st, mouse) if mouse else None
        if me is not None and hover_uid in targets:
            t = st.units[hover_uid]
            draw_los_line(surface, lay, me.hex, t.hex, (255, 255, 255))
            draw_odds_stack(surface, mouse, [
                (f"{me.name} -> {t.name}" + ("" if info.mode == "normal"
                                             else f" ({info.mode.replace('_', ' ')})"), info.odds)
                for info in targets[hover_uid]], view.rect,
                note=sight_note(self.game, me.uid, hover_uid))
            return
        if me is not None and hover_uid is not None and hover_uid not in targets and \
                st.phase.is_assault and not me.acted and not self.ctx.hover_button and \
                st.units[hover_uid].side != me.side:
            # an enemy that can't be attacked: why not, in the rules' words
            t = st.units[hover_uid]
            why = self.mode.why_not_attack(hover_uid)
            if why:
                blk = st.battle_map.los.blocker(me.hex, t.hex) \
                    if not st.battle_map.can_see(me.hex, t.hex) else None
                draw_los_line(surface, lay, me.hex, t.hex, (255, 255, 255), blocked_at=blk)
                draw_tooltip(surface, mouse, [why], view.rect, theme.WARN)
                return
        h = self.ctx.hover_hex
        if me is None or h is None or self.ctx.hover_button:
            return
        reach = self.mode.reach()
        if h in reach:
            r = reach[h]
            lines = [f"{hex_label(h)}: costs {r.cost} of {unit_speed(st, me.uid)}"
                     + (" (road bonus used)" if r.road_bonus_used else "")]
            each, chance = reach_chance(r)           # the rules' dice odds
            for roll, p in zip(r.rolls, each):
                lines.append(f"{roll.kind} roll entering {hex_label(roll.to_hex)}: "
                             f"needs {roll.need}+ ({pct(p)})")
            if r.rolls:
                lines.append(f"chance to get there: {pct(chance)}")
            if not r.stops:
                lines.append("can pass through but not stop here")
            draw_tooltip(surface, mouse, lines, view.rect)
        elif h != me.hex and not me.acted and (st.phase.is_movement or st.phase.is_assault):
            occupied = view.unit_at(st, mouse)
            if occupied is None:
                why = self.mode.why_not_reach(h)
                draw_tooltip(surface, mouse, [f"{hex_label(h)}: {why}"], view.rect, theme.WARN)
