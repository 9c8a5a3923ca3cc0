"""What the battle screen draws over the map: the board picture (map, the modes'
under-layers, the line-of-sight view, the units) cached while nothing it shows
changes, the top mode's over-layer, the line-of-sight hover and legend, the terrain
legend (G).  What each input mode highlights is drawn by its painter (one per mode:
game.ui.battle.overlays.painter; the modules here register them).  Overlays draw
what a mode or a tool highlights; they take no input and decide nothing."""
from __future__ import annotations

from importlib import import_module

from typing import TYPE_CHECKING, Any

import pygame

from game.rules.hexes import hex_label, range_band
from game.rules.state import Phase
from game.ui import theme
from game.ui.battle.overlays.painter import Painter, painter_class, paints
from game.ui.battle.panels import draw_tooltip
from game.ui.battle.view import region_layer
from game.ui.map_render import BAND_COLORS, BAND_LEGEND, BAND_LETTER, draw_los_line
from game.ui.widgets import draw_panel, draw_text

if TYPE_CHECKING:
    from game.ui.scenes.battle import BattleScene

__all__ = ["BattleOverlays", "Painter", "painter_class", "paints"]


class BattleOverlays:
    def __init__(self, scene: BattleScene) -> None:
        self.sc = scene
        self._frame: pygame.Surface | None = None
        self._frame_key: Any = None
        self._painters: dict[int, Painter] = {}

    def painter(self, mode: Any) -> Painter:
        """The painter of ``mode`` (one per mode, kept while the mode is shown)."""
        p = self._painters.get(id(mode))
        if p is None or p.mode is not mode:
            p = self._painters[id(mode)] = painter_class(mode)(mode, self.sc)
        return p

    def _forget_gone(self, modes: list) -> None:
        live = {id(m) for m in modes}
        for k in [k for k in self._painters if k not in live]:
            del self._painters[k]

    def invalidate(self) -> None:
        self._frame_key = None

    def draw(self, surface: pygame.Surface) -> None:
        """The map area: the cached board picture, animations, the top mode's over-layer,
        the line of sight and legend overlays; then the HUD."""
        clip = surface.get_clip()
        try:
            self._draw(surface, clip)
        finally:
            surface.set_clip(clip)      # also when a painter raised (the crash dialog follows)

    def _draw(self, surface: pygame.Surface, clip: pygame.Rect) -> None:
        surface.set_clip(self.sc.map_rect)
        modes = [self.sc.base] + self.sc.stack
        self._forget_gone(modes)
        moving = self.sc.anim.positions(self.sc.view.layout)
        # the map, the state-only overlays and the units change rarely: keep them as
        # one picture and rebuild it only when something they show has changed
        key = (self.sc.version, self.sc.view.hex_size, self.sc.view.offset, self.sc.view.zoom_waiting,
               self.sc.selected, self.sc.los_from, tuple(self.painter(m).under_key() for m in modes),
               tuple(type(m) for m in modes), self.sc.map_rect.size)
        if moving:
            self._frame_key = None
            self.draw_board(surface, modes, moving)
        else:
            if key != self._frame_key or self._frame is None:
                if self._frame is None or self._frame.get_size() != self.sc.map_rect.size:
                    self._frame = pygame.Surface(self.sc.map_rect.size).convert()
                self._frame.set_clip(self.sc.view.rect)
                self.draw_board(self._frame, modes, {})
                self._frame_key = key
            surface.blit(self._frame, self.sc.map_rect.topleft)
        self.sc.anim.draw(surface, self.sc.view.layout, self.sc.view.rect,
                          below=self.painter(modes[-1]).top_box_bottom())
        surface.set_clip(self.sc.view.rect)
        self.painter(modes[-1]).draw_over(surface)
        threat = getattr(self.sc, "threat", None)
        if threat is not None:
            threat.draw(surface)            # X: the threat map (game/ui/battle/threat_map.py)
            self.sc.standing.draw(surface)  # O: standing orders on the units
        if self.sc.los_from is not None:
            self.draw_los_hover(surface)
            self.draw_los_legend(surface)
        if self.sc.show_legend:
            from game.ui.render_export import draw_legend_overlay
            draw_legend_overlay(surface, self.sc.view_rect, bm=self.sc.state.battle_map)
        surface.set_clip(self.sc.map_rect)
        self.sc.hud.draw_prompt(surface)
        surface.set_clip(clip)
        self.sc.hud.draw_panel(surface)
        for m in modes:
            self.painter(m).draw_side(surface, self.sc.card_rect)
        seat_draw = getattr(self.sc.ai, "draw", None)     # a network seat's chat line
        if seat_draw is not None:
            seat_draw(surface)

    def objective_hex(self):
        """Where the objective counter is drawn: the state's objective (the Assault
        defender's choice), none while the defender has still to place it."""
        st = self.sc.state
        return None if st.phase == Phase.SETUP_OBJECTIVE else st.objective

    def draw_board(self, surface: pygame.Surface, modes: list, moving: dict) -> None:
        self.sc.view.draw_map(surface, self.objective_hex())
        for m in modes:
            self.painter(m).draw_under(surface)
        if self.sc.los_from is not None:
            self.draw_los(surface)
        active = self.sc.state.active_side
        can_act = self.sc.cached("can_act", lambda: {getattr(a, "uid", None) for a in self.sc.legal()})
        self.sc.view.draw_units(surface, self.sc.state, selected=self.sc.selected, moving=moving,
                             dim=lambda u: u.acted and u.side == active and u.uid not in can_act)
        self.draw_smoke(surface)

    def draw_smoke(self, surface: pygame.Surface) -> None:
        """Smoke Screen (ruling 30): grey smoke over each smoke-filled hex."""
        from game.rules.abilities.roster_final import smoke_hexes
        smoke = smoke_hexes(self.sc.state)
        if not smoke:
            return
        size = self.sc.view.hex_size
        for h in sorted(smoke):
            cx, cy = self.sc.view.center(h)
            r = max(4, int(size * 1.3))
            puff = pygame.Surface((2 * r, 2 * r), pygame.SRCALPHA)
            blobs = ((-0.62, -0.10, 0.36), (0.62, -0.12, 0.34), (-0.34, 0.52, 0.36),
                     (0.36, 0.50, 0.36), (-0.30, -0.55, 0.34), (0.32, -0.56, 0.34),
                     (0, 0, 0.46))
            for dx, dy, k in blobs:        # a darker rim, then the cloud
                pygame.draw.circle(puff, (150, 150, 146, 200),
                                   (int(r + dx * r), int(r + dy * r)), int(k * r) + 2)
            for dx, dy, k in blobs:
                pygame.draw.circle(puff, (232, 232, 226, 175),
                                   (int(r + dx * r), int(r + dy * r)), int(k * r))
            # the hex stays readable: a unit under the smoke shows through
            surface.blit(puff, (cx - r, cy - r))

    # --- line of sight tool (hold L) ---------------------------------------------------
    def draw_los(self, surface: pygame.Surface) -> None:
        """Hold L: every hex in sight, coloured and lettered by range band (S / M / L, as
        in the preview); hexes out of sight darkened (not the movement shading's blue)."""
        src = self.sc.los_from
        vis = self.sc.game.visible_from(src)
        hexes = set(self.sc.state.battle_map.terrain)

        def fill(h):
            if h == src:
                return None
            if h not in vis:
                return (0, 0, 0, 140)
            band = range_band(src.distance(h))
            return BAND_COLORS.get(band, BAND_COLORS[None]) + ((105,) if band else (40,))

        def letter(h):
            return BAND_LETTER[range_band(src.distance(h))] if h in vis and h != src else None
        self.sc.view.blit_layer(surface, ("los", src), lambda lay: region_layer(
            lay, hexes, fill, text=letter, text_pos="centre"))

    def draw_los_legend(self, surface: pygame.Surface) -> None:
        f = theme.font(16)
        rows = BAND_LEGEND + (("dark", "dark: no line of sight"),)
        h = 30 + 20 * len(rows)
        r = pygame.Rect(self.sc.view_rect.x + 10, self.sc.view_rect.bottom - h - 10, 250, h)
        draw_panel(surface, r, theme.BG_DARK)
        draw_text(surface, "Line of sight (hold L)", (r.x + 10, r.y + 6), 16, theme.ACCENT,
                  bold=True)
        y = r.y + 28
        for band, text in rows:
            col = (24, 24, 24) if band == "dark" else BAND_COLORS[band]
            pygame.draw.rect(surface, col, (r.x + 10, y + 2, 16, 14), border_radius=3)
            surface.blit(f.render(text, True, theme.TEXT), (r.x + 34, y))
            y += 20

    def draw_los_hover(self, surface: pygame.Surface) -> None:
        src, h = self.sc.los_from, self.sc.hover_hex
        if src is None or h is None or h == src:
            return
        lay = self.sc.view.layout
        los = self.sc.state.battle_map.los
        d = src.distance(h)
        band = range_band(d)
        from game.rules.abilities.roster_final import smoke_blocks, smoke_hexes
        smoke = smoke_hexes(self.sc.state)
        if los.visible(src, h) and smoke_blocks(src, h, smoke):
            draw_los_line(surface, lay, src, h, (255, 255, 255))
            draw_tooltip(surface, self.sc.mouse,
                         [f"{hex_label(h)}: out of sight, blocked by smoke"],
                         self.sc.map_rect, theme.WARN)
        elif los.visible(src, h):
            draw_los_line(surface, lay, src, h, BAND_COLORS.get(band, (220, 220, 220)))
            text = f"{hex_label(h)}: in sight, " + (f"{band} range ({d})" if band else
                                                    f"out of range ({d})")
            draw_tooltip(surface, self.sc.mouse, [text], self.sc.map_rect)
        else:
            blk = los.blocker(src, h)
            draw_los_line(surface, lay, src, h, (255, 255, 255), blocked_at=blk)
            what = ""
            if blk is not None:
                terr = self.sc.state.battle_map.terrain.get(blk)
                what = f" by {getattr(terr, 'value', terr)} in {hex_label(blk)}"
            draw_tooltip(surface, self.sc.mouse, [f"{hex_label(h)}: out of sight, blocked{what}"],
                         self.sc.map_rect, theme.WARN)


for _part in ("setup", "deploy", "play", "fire", "stacked", "casualty", "recap", "later",
              "reserves"):
    import_module(f"{__name__}.{_part}")       # each registers its painters (@paints)
