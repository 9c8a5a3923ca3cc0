"""The battle map on screen: zoom, pan, hit tests, units and cached overlays.

The static map comes from :class:`game.ui.map_render.MapRenderer`, one
renderer per zoom level, drawn once and cached.  While a new zoom level is
being waited for, the nearest finished one is shown scaled (cheap), and the
crisp one is drawn when the wheel has been still for a moment - so zooming
never stalls the frame.

Overlays that depend only on the game state (reachable hexes with their
costs, deployment hexes, line-of-sight views) are drawn once into a small
alpha surface in *map-surface* coordinates and cached by a key, so a frame
only blits them.  Units are drawn every frame from cached token bodies.
"""
from __future__ import annotations

import math
from typing import Any, Callable, Iterable, Sequence

import pygame

from game.rules.hexes import Hex
from game.ui import theme
from game.ui.layout import HexLayout
from game.ui.map_render import TABLE_COLOR, MapRenderer, draw_objective, map_box
from game.ui.battle.aircraft import aircraft_slots, draw_aircraft, heading_for, is_aircraft
from game.ui.tokens import draw_unit, token_at, token_rects

__all__ = ["MapView", "ZOOMS", "OverlayCache"]

ZOOMS = (0.6, 0.75, 0.9, 1.0, 1.2, 1.45, 1.75, 2.1, 2.5)
HOME_ZOOM = ZOOMS.index(1.0)
CRISP_DELAY = 0.25          # seconds the wheel must be still before a new zoom is drawn crisp


class OverlayCache:
    """Alpha layers in map-surface coordinates, cached by a key."""

    def __init__(self, limit: int = 24) -> None:
        self.limit = limit
        self._layers: dict[Any, tuple[pygame.Surface, tuple[int, int]] | None] = {}

    def get(self, key: Any, make: Callable[[], tuple[pygame.Surface, tuple[int, int]] | None]):
        if key in self._layers:
            return self._layers[key]
        if len(self._layers) >= self.limit:
            self._layers.pop(next(iter(self._layers)))
        made = self._layers[key] = make()
        return made

    def clear(self) -> None:
        self._layers.clear()


def region_layer(layout: HexLayout, hexes: Iterable[Hex],
                 fill: Callable[[Hex], Sequence[int] | None],
                 text: Callable[[Hex], str | None] | None = None,
                 outline: Sequence[int] | None = None,
                 text_pos: str = "corner") -> tuple[pygame.Surface, tuple[int, int]] | None:
    """A layer with each hex filled with ``fill(h)`` (RGBA), optional centred text
    and an outline per hex.  Returns (surface, topleft) in ``layout`` pixels."""
    hs = list(hexes)
    if not hs:
        return None
    left, top, right, bottom = layout.bounds(hs)
    x0, y0 = int(math.floor(left)) - 2, int(math.floor(top)) - 2
    layer = pygame.Surface((int(math.ceil(right)) - x0 + 4, int(math.ceil(bottom)) - y0 + 4),
                           pygame.SRCALPHA)
    sub = layout.translated(-x0, -y0)
    f = theme.font(max(12, int(layout.size * 0.5)), bold=True) if text else None
    for h in hs:
        col = fill(h)
        if col is None:
            continue
        pts = sub.corners(h, 0.96)
        pygame.draw.polygon(layer, col, pts)
        if outline is not None:
            pygame.draw.polygon(layer, outline, pts, max(1, int(layout.size / 18)))
        if f is not None:
            t = text(h)
            if t:
                cx, cy = sub.hex_to_pixel(h)
                img = f.render(t, True, (255, 255, 255))
                sh = f.render(t, True, (0, 0, 0))
                pos = (cx + layout.size * 0.42 - img.get_width(), cy + layout.size * 0.3) \
                    if text_pos == "corner" else (cx - img.get_width() / 2,
                                                  cy + layout.size * 0.55 - img.get_height())
                layer.blit(sh, (pos[0] + 1, pos[1] + 1))
                layer.blit(img, pos)
    return layer, (x0, y0)


class MapView:
    """The map area of the battle screen.  ``rect`` is where it is on the window."""

    def __init__(self, battle_map: Any, rect: pygame.Rect) -> None:
        self.map = battle_map
        self.rect = pygame.Rect(rect)
        self._box = map_box(battle_map)
        self.zoom_index = HOME_ZOOM
        self._renderers: dict[float, MapRenderer] = {}
        self._scaled: dict[float, pygame.Surface] = {}
        self._crisp_wait = 0.0
        self.overlays = OverlayCache()
        self._slots: dict[str, pygame.Rect] = {}
        self._slots_key: Any = None
        self.base_size = self._fit_size()
        self.offset = (0.0, 0.0)
        self.home()

    # --- sizes -----------------------------------------------------------------------------
    def _fit_size(self) -> float:
        left, top, right, bottom = self._box
        margin = 16
        s = min((self.rect.w - 2 * margin) / (right - left), (self.rect.h - 2 * margin) / (bottom - top))
        return max(8.0, math.floor(s * 4) / 4)

    @property
    def hex_size(self) -> float:
        return round(self.base_size * ZOOMS[self.zoom_index] * 4) / 4

    def renderer(self, size: float | None = None) -> MapRenderer:
        size = self.hex_size if size is None else size
        r = self._renderers.get(size)
        if r is None:
            # supersampling doubles the work and the memory; big hexes don't need it
            r = MapRenderer(self.map, size, supersample=2 if size <= 48 else 1, objective=False)
            if len(self._renderers) > 4:
                for k in list(self._renderers):
                    if k != self.hex_size and k != self.base_size:
                        self._renderers.pop(k)
                        self._scaled.pop(k, None)
                        break
            self._renderers[size] = r
        return r

    def surface_size(self, size: float | None = None) -> tuple[int, int]:
        return self.renderer(size).pixel_size

    @property
    def layout(self) -> HexLayout:
        """Hexes to window pixels."""
        return self.renderer().layout_at(self.offset)

    @property
    def map_layout(self) -> HexLayout:
        """Hexes to map-surface pixels (for cached overlays)."""
        return self.renderer().layout

    def resize(self, rect: pygame.Rect) -> None:
        self.rect = pygame.Rect(rect)
        self.base_size = self._fit_size()
        self._renderers.clear()
        self._scaled.clear()
        self.overlays.clear()
        self.home()

    def home(self) -> None:
        """Whole map in view at the fitting size."""
        self.zoom_index = HOME_ZOOM
        w, h = self.surface_size()
        self.offset = (self.rect.x + (self.rect.w - w) / 2.0, self.rect.y + (self.rect.h - h) / 2.0)
        self._crisp_wait = 0.0

    def ready(self) -> None:
        """Draw the current zoom level crisp now (tests, screenshots, benchmarks)."""
        self.renderer().surface
        self._crisp_wait = 0.0

    # --- zoom and pan -------------------------------------------------------------------------
    def zoom(self, steps: int, anchor: tuple[float, float] | None = None) -> bool:
        new = max(0, min(len(ZOOMS) - 1, self.zoom_index + steps))
        if new == self.zoom_index:
            return False
        ax, ay = anchor if anchor is not None else self.rect.center
        old = self.hex_size
        self.zoom_index = new
        k = self.hex_size / old
        # keep the map point under the anchor fixed (map origin scales about the anchor)
        lo = self.renderer(old).layout_at(self.offset)
        lay = lo.zoomed(k, (ax, ay))
        base = self.renderer().layout
        self.offset = (lay.origin[0] - base.origin[0], lay.origin[1] - base.origin[1])
        self._clamp()
        if self.renderer()._surface is None:
            self._crisp_wait = CRISP_DELAY
        return True

    def pan(self, dx: float, dy: float) -> None:
        self.offset = (self.offset[0] + dx, self.offset[1] + dy)
        self._clamp()

    def _clamp(self) -> None:
        w, h = self.surface_size()
        keep = 120      # always keep this much of the map on screen
        x = min(max(self.offset[0], self.rect.x + keep - w), self.rect.right - keep)
        y = min(max(self.offset[1], self.rect.y + keep - h), self.rect.bottom - keep)
        self.offset = (x, y)

    @property
    def zoom_waiting(self) -> bool:
        """True while a scaled stand-in is shown for the current zoom level."""
        return self._crisp_wait > 0

    def update(self, dt: float) -> None:
        if self._crisp_wait > 0:
            self._crisp_wait -= dt
            if self._crisp_wait <= 0:
                self.renderer().surface

    # --- hit tests ------------------------------------------------------------------------------
    def hex_at(self, pos: tuple[float, float]) -> Hex | None:
        if not self.rect.collidepoint(pos):
            return None
        return self.renderer().hex_at(pos[0], pos[1], self.offset)

    def center(self, h: Hex) -> tuple[int, int]:
        return self.layout.center_int(h)

    # --- units -------------------------------------------------------------------------------------
    def unit_slots(self, state: Any, hide: Iterable[str] = ()) -> dict[str, pygame.Rect]:
        """Where each unit on the map is drawn (boarded Soldiers ride on their carrier)."""
        hidden = frozenset(hide)
        key = (id(state), state.version, self.hex_size, self.offset, hidden)
        if self._slots_key == key:
            return self._slots
        self._slots = self._unit_slots(state, hidden)
        self._slots_key = key
        return self._slots

    def _unit_slots(self, state: Any, hidden: frozenset) -> dict[str, pygame.Rect]:
        groups: dict[Hex, list[Any]] = {}
        flying: list[Any] = []          # later edition: Aircraft fly above, hit first
        for u in state.units.values():
            if u.hex is None or u.destroyed or u.carrier is not None or u.uid in hidden:
                continue
            (flying if is_aircraft(u) else groups.setdefault(u.hex, [])).append(u)
        lay = self.layout
        out: dict[str, pygame.Rect] = {}
        for h, us in groups.items():
            rects = token_rects(lay.hex_to_pixel(h), len(us), lay.size)
            for u, r in zip(us, rects):
                out[u.uid] = r
        out.update(aircraft_slots(lay, flying))
        return out

    def unit_at(self, state: Any, pos: tuple[int, int]) -> str | None:
        if not self.rect.collidepoint(pos):
            return None
        slots = self.unit_slots(state)
        uids = list(slots)
        i = token_at([slots[u] for u in uids], pos)
        return uids[i] if i is not None else None

    def draw_units(self, surface: pygame.Surface, state: Any, *, selected: str | None = None,
                   dim: Callable[[Any], bool] | None = None,
                   moving: dict[str, tuple[float, float]] | None = None) -> None:
        moving = moving or {}
        slots = self.unit_slots(state, hide=moving)
        passengers: dict[str, list[Any]] = {}
        for u in state.units.values():
            if u.carrier is not None and not u.destroyed:
                passengers.setdefault(u.carrier, []).append(u)
        for uid, rect in slots.items():
            u = state.units[uid]
            if is_aircraft(u):          # above the map, its shadow on the ground
                draw_aircraft(surface, u, rect, self.layout.hex_to_pixel(u.hex), self.layout.size,
                              heading=heading_for(u, state), selected=uid == selected,
                              dimmed=bool(dim and dim(u)))
                continue
            draw_unit(surface, u, rect, selected=uid == selected,
                      dimmed=bool(dim and dim(u)), passengers=passengers.get(uid, ()))
        size = self.layout.size
        rad = max(6, int(0.62 * size))
        for uid, (x, y) in moving.items():
            u = state.units[uid]
            draw_unit(surface, u, pygame.Rect(int(x) - rad, int(y) - rad, 2 * rad, 2 * rad),
                      selected=uid == selected, passengers=passengers.get(uid, ()))

    # --- drawing -----------------------------------------------------------------------------------
    def draw_map(self, surface: pygame.Surface, objective: Any = None) -> None:
        """The map, and the objective counter where the *state* has it (``objective``:
        ``state.objective``; the Assault defender places it, so the map's own hex is
        never drawn here)."""
        self._draw_sheet(surface)
        if objective is not None:
            draw_objective(surface, self.layout, objective)

    def _draw_sheet(self, surface: pygame.Surface) -> None:
        r = self.renderer()
        ox, oy = int(round(self.offset[0])), int(round(self.offset[1]))
        w, h = r.pixel_size
        area = self.rect
        # only the table around the map needs filling (filling under it costs a full blit)
        for strip in (pygame.Rect(area.x, area.y, area.w, max(0, oy - area.y)),
                      pygame.Rect(area.x, oy + h, area.w, max(0, area.bottom - oy - h)),
                      pygame.Rect(area.x, area.y, max(0, ox - area.x), area.h),
                      pygame.Rect(ox + w, area.y, max(0, area.right - ox - w), area.h)):
            if strip.w > 0 and strip.h > 0:
                surface.fill(TABLE_COLOR, strip.clip(area))
        if r._surface is not None or self._crisp_wait <= 0:
            surface.blit(r.surface, (ox, oy))
            return
        # a crisp map for this zoom is not drawn yet: scale the nearest finished one
        size = self.hex_size
        img = self._scaled.get(size)
        if img is None:
            done = [s for s, rr in self._renderers.items() if rr._surface is not None]
            if not done:
                surface.blit(r.surface, (ox, oy))
                return
            src = min(done, key=lambda s: abs(s - size))
            img = pygame.transform.scale(self._renderers[src].surface, r.pixel_size)
            self._scaled[size] = img
        surface.blit(img, (ox, oy))

    def blit_layer(self, surface: pygame.Surface, key: Any,
                   make: Callable[[HexLayout], tuple[pygame.Surface, tuple[int, int]] | None]) -> None:
        """Blit a cached overlay made by ``make(map_layout)`` (cached per key and zoom)."""
        full = (key, self.hex_size)
        made = self.overlays.get(full, lambda: make(self.map_layout))
        if made is None:
            return
        layer, (x, y) = made
        surface.blit(layer, (int(round(self.offset[0])) + x, int(round(self.offset[1])) + y))
