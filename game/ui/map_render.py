"""Draws a :class:`~game.rules.board.BattleMap` so it looks like the laminated map sheets.

The static map (terrain textures, roads, streams, bridges, hatched edge
half-hexes, grid, section borders and names, the objective counter, and on
request hex labels and both deployment zones) is drawn once into a cached
``Surface``; screens blit it every frame and draw what changes (selections,
lines of sight, units) on top with the overlay helpers at the bottom of this
module, which every screen may use with any :class:`HexLayout`.

Everything except text is painted at ``supersample`` times the final size and
scaled down smoothly, which antialiases hex edges, roads and streams without
per-primitive antialiasing.  Textures are random but seeded from each hex's
coordinates, so a map always looks the same.

Art direction: ``../shared/design/art-direction.md``.
"""
from __future__ import annotations

import math
import random
import zlib
from typing import Iterable, Sequence

import pygame

from game.rules.board import BattleMap, SectionPlacement
from game.rules.hexes import DIRECTIONS, MAX_RANGE, Hex, Hexside, hex_label, range_band
from game.rules.terrain import Terrain
from game.ui.fonts import font
from game.ui.layout import SQRT3, HexLayout

__all__ = [
    "MapRenderer", "PALETTE", "ZONE_COLORS", "BAND_COLORS", "TABLE_COLOR",
    "map_box", "shade_hexes", "outline_hex", "outline_region", "draw_los_line",
    "draw_objective", "terrain_swatch",
]

Color = tuple[int, ...]

TABLE_COLOR = (38, 42, 40)              # the table around the map sheets
SHEET_EDGE = (24, 26, 24)

PALETTE: dict[Terrain, Color] = {       # base ground colour per terrain (legend swatches)
    Terrain.CLEAR: (178, 186, 114),
    Terrain.FOREST: (52, 88, 44),
    Terrain.HILL: (204, 168, 104),
    Terrain.TOWN: (150, 138, 120),
    Terrain.MARSH: (126, 146, 118),
    Terrain.POND: (74, 132, 190),
    # later edition
    Terrain.SHELL_HOLES: (168, 160, 108),
    Terrain.WATER: (64, 120, 184),
    Terrain.BLUFFS: (190, 170, 112),
}
HEDGE_EDGE, HEDGE_FILL = (22, 48, 20), (64, 118, 50)      # later edition: hexside hedges
CLIFF_EDGE, CLIFF_FILL = (58, 40, 24), (132, 96, 58)      # cliffs inside bluffs hexes
ROAD_EDGE, ROAD_FILL = (118, 94, 62), (214, 190, 138)
STREAM_EDGE, STREAM_FILL = (28, 66, 128), (86, 156, 222)
WOOD, WOOD_DARK, WOOD_RAIL = (156, 110, 64), (104, 70, 40), (70, 48, 28)

# Deployment zones: blue for the left end, orange for the right (colour-blind safe pair);
# each zone also gets its own outline so hue is never the only cue.
ZONE_COLORS: dict[str, Color] = {"left": (56, 118, 226), "right": (238, 138, 36)}
# Range bands for line-of-sight views (short / medium / long / beyond range).
BAND_COLORS: dict[str | None, Color] = {
    "short": (64, 200, 96), "medium": (246, 214, 64), "long": (244, 128, 52), None: (200, 200, 200),
}


# the letter each range band is marked with (the preview, the battle's L view, the legend)
BAND_LETTER: dict[str | None, str] = {"short": "S", "medium": "M", "long": "L", None: ""}


def band_span(band: str) -> str:
    """"0-1", "2-4", "5-8": the distances the rules put in ``band`` (asked of range_band)."""
    ds = [d for d in range(MAX_RANGE + 1) if range_band(d) == band]
    return f"{ds[0]}-{ds[-1]}" if ds else "-"


BAND_LEGEND: tuple[tuple[str | None, str], ...] = tuple(
    (b, f"{BAND_LETTER[b]}  {b} range ({band_span(b)})") for b in ("short", "medium", "long")) + (
    (None, f"plain: in sight, beyond {MAX_RANGE} hexes"),)


# --- geometry helpers ---------------------------------------------------------------------
def map_box(bm: BattleMap) -> tuple[float, float, float, float]:
    """The sheet's rectangle ``(left, top, right, bottom)`` for a size-1 layout at origin 0.

    With edge half-hexes the sheet is cut through their centres (they show half);
    whole hexes always lie completely inside."""
    unit = HexLayout(1.0)
    left, top, right, bottom = unit.bounds(bm.terrain)
    if bm.half_hexes:
        xs = [unit.hex_to_pixel(h)[0] for h in bm.half_hexes]
        ys = [unit.hex_to_pixel(h)[1] for h in bm.half_hexes]
        left, right = min(left, min(xs)), max(right, max(xs))
        top, bottom = min(top, min(ys)), max(bottom, max(ys))
    return (left, top, right, bottom)


def _seed(h: Hex, salt: str) -> random.Random:
    return random.Random(zlib.crc32(f"{h.q},{h.r},{salt}".encode()))


def _shade(c: Sequence[int], d: int) -> Color:
    return tuple(max(0, min(255, int(v) + d)) for v in c[:3])


def _hex_points(cx: float, cy: float, size: float, scale: float = 1.0) -> list[tuple[float, float]]:
    pts = []
    for i in range(6):
        a = math.radians(-30.0 - 60.0 * i)
        pts.append((cx + size * scale * math.cos(a), cy + size * scale * math.sin(a)))
    return pts


def _section_outline(sec: SectionPlacement, box: tuple[float, float, float, float]
                     ) -> list[tuple[float, float]]:
    """The section's outline in doubled-x / row units (from the data, else from its hexes,
    snapped to the sheet edge where it is within one hex of it)."""
    if sec.outline:
        return [(float(x), float(r)) for x, r in sec.outline]
    if not sec.hexes:
        return []
    xs = [h.x2 for h in sec.hexes]
    rs = [h.r for h in sec.hexes]
    x0, x1, r0, r1 = min(xs), max(xs), min(rs), max(rs)
    bl, bt, br, bb = box                   # size-1 pixels -> doubled units
    ex0, ex1 = bl / (SQRT3 / 2.0), br / (SQRT3 / 2.0)
    er0, er1 = bt / 1.5, bb / 1.5
    if x0 - ex0 <= 1.01:
        x0 = ex0
    if ex1 - x1 <= 1.01:
        x1 = ex1
    if r0 - er0 <= 1.01:
        r0 = er0
    if er1 - r1 <= 1.01:
        r1 = er1
    return [(x0, r0), (x1, r0), (x1, r1), (x0, r1)]


# --- terrain textures ---------------------------------------------------------------------
class _Tiles:
    """Paints one hex-shaped terrain tile at a given size (pixels, centre to corner)."""

    def __init__(self, size: float) -> None:
        self.size = size
        self.w = int(math.ceil(SQRT3 * size)) + 4
        self.h = int(math.ceil(2 * size)) + 4
        self.c = (self.w / 2.0, self.h / 2.0)
        self._grains: dict[tuple, pygame.Surface] = {}
        self.mask = pygame.Surface((self.w, self.h), pygame.SRCALPHA)
        # a hair larger than the hex so neighbouring tiles leave no seam
        pygame.draw.polygon(self.mask, (255, 255, 255, 255),
                            _hex_points(self.c[0], self.c[1], size + 0.8))
        self.hatch = self._make_hatch()

    def _make_hatch(self) -> pygame.Surface:
        s = self.size
        hatch = pygame.Surface((self.w, self.h), pygame.SRCALPHA)
        hatch.fill((96, 98, 100, 150))
        step = max(4, int(s / 4.5))
        lw = max(1, int(s / 22))
        for k in range(-self.h, self.w + self.h, step):
            pygame.draw.line(hatch, (52, 54, 56, 210), (k, 0), (k + self.h, self.h), lw)
        hatch.blit(self.mask, (0, 0), special_flags=pygame.BLEND_RGBA_MULT)
        return hatch

    def tile(self, terrain: Terrain, h: Hex) -> pygame.Surface:
        surf = pygame.Surface((self.w, self.h), pygame.SRCALPHA)
        rng = _seed(h, terrain.value)
        getattr(self, "_" + terrain.value.replace(" ", "_"))(surf, rng)
        surf.blit(self.mask, (0, 0), special_flags=pygame.BLEND_RGBA_MULT)
        return surf

    # each painter fills the whole tile; the mask cuts it to a hex afterwards
    def _grain(self, surf: pygame.Surface, rng: random.Random, base: Color, n: int, spread: int) -> None:
        """Speckle the tile: a window at a random place of a grain sheet made once per
        colour (four tiles big, so neighbouring hexes don't repeat visibly)."""
        key = (tuple(base), n, spread)
        sheet = self._grains.get(key)
        if sheet is None:
            sheet = pygame.Surface((self.w * 2, self.h * 2), pygame.SRCALPHA)
            r = max(1, int(self.size / 26))
            g = random.Random(zlib.crc32(repr(key).encode()))
            for _ in range(n * 4):
                x, y = g.uniform(0, self.w * 2), g.uniform(0, self.h * 2)
                pygame.draw.circle(sheet, _shade(base, g.randint(-spread, spread)) + (255,), (x, y), r)
            self._grains[key] = sheet
        surf.blit(sheet, (-rng.randint(0, self.w), -rng.randint(0, self.h)))

    def _clear(self, surf: pygame.Surface, rng: random.Random) -> None:
        s, (cx, cy) = self.size, self.c
        base = PALETTE[Terrain.CLEAR]
        surf.fill(base)
        self._grain(surf, rng, base, int(s * 2.2), 12)
        lw = max(1, int(s / 30))
        for _ in range(5):                           # grass tufts
            x, y = cx + rng.uniform(-0.6, 0.6) * s, cy + rng.uniform(-0.55, 0.55) * s
            for dx in (-0.07, 0.0, 0.07):
                pygame.draw.line(surf, _shade(base, -38), (x, y),
                                 (x + dx * s * 1.4, y - 0.12 * s), lw)

    def _forest(self, surf: pygame.Surface, rng: random.Random) -> None:
        s, (cx, cy) = self.size, self.c
        base = PALETTE[Terrain.FOREST]
        surf.fill(base)
        crowns = []
        for _ in range(rng.randint(11, 14)):
            ang, dist = rng.uniform(0, 2 * math.pi), s * math.sqrt(rng.random()) * 0.78
            crowns.append((cx + dist * math.cos(ang), cy + dist * math.sin(ang) * 0.95,
                           s * rng.uniform(0.2, 0.3)))
        crowns.sort(key=lambda c: c[1])
        for x, y, r in crowns:                      # shadows first, then crowns top to bottom
            pygame.draw.circle(surf, (28, 52, 26), (x + r * 0.22, y + r * 0.28), r)
        for x, y, r in crowns:
            g = rng.randint(-12, 12)
            pygame.draw.circle(surf, (62 + g, 112 + g, 52 + g // 2), (x, y), r)
            pygame.draw.circle(surf, (92 + g, 142 + g, 70), (x - r * 0.28, y - r * 0.3), r * 0.45)

    def _hill(self, surf: pygame.Surface, rng: random.Random) -> None:
        s, (cx, cy) = self.size, self.c
        base = PALETTE[Terrain.HILL]
        surf.fill(base)
        self._grain(surf, rng, base, int(s * 1.2), 8)
        line = (140, 102, 60)
        lw = max(1, int(s / 30))
        jx, jy = rng.uniform(-0.08, 0.08) * s, rng.uniform(-0.06, 0.06) * s
        p1, p2, p3 = (rng.uniform(0, 2 * math.pi) for _ in range(3))
        a1, a2 = rng.uniform(0.08, 0.14), rng.uniform(0.05, 0.1)

        def contour(radius: float, lift: float, dx: float = 0.0, dy: float = 0.0) -> list:
            pts = []
            for i in range(36):
                t = 2 * math.pi * i / 36
                rr = radius * s * (1 + a1 * math.sin(2 * t + p1) + a2 * math.sin(3 * t + p2)
                                   + 0.04 * math.sin(5 * t + p3))
                pts.append((cx + jx - lift * s + dx + rr * math.cos(t),
                            cy + jy - lift * s + dy + rr * math.sin(t) * 0.86))
            return pts

        # the slope in shadow on the lower right, lit towards the upper left
        pygame.draw.polygon(surf, _shade(base, -30), contour(0.86, 0.0, 0.09 * s, 0.1 * s))
        for k, (radius, lift) in enumerate(((0.84, 0.0), (0.58, 0.07), (0.32, 0.13))):
            pts = contour(radius, lift)
            pygame.draw.polygon(surf, _shade(base, 8 + 11 * k), pts)
            pygame.draw.lines(surf, line, True, pts, lw)

    def _town(self, surf: pygame.Surface, rng: random.Random) -> None:
        s, (cx, cy) = self.size, self.c
        base = PALETTE[Terrain.TOWN]
        surf.fill(base)
        self._grain(surf, rng, base, int(s * 1.2), 10)
        lane = _shade(base, 22)                      # a lane through the block
        lw = max(2, int(s * 0.14))
        ang = rng.choice((0.0, math.pi / 3, -math.pi / 3))
        dx, dy = math.cos(ang) * s, math.sin(ang) * s
        pygame.draw.line(surf, lane, (cx - dx, cy - dy), (cx + dx, cy + dy), lw)
        roofs = [(160, 74, 52), (128, 62, 48), (108, 108, 116), (170, 128, 74), (140, 90, 60)]
        slots = [(-0.36, -0.38), (0.3, -0.42), (-0.52, 0.12), (0.06, 0.02), (0.48, 0.2),
                 (-0.22, 0.5), (0.26, 0.56)]
        rng.shuffle(slots)
        for sx, sy in slots[:rng.randint(5, 6)]:
            w, h = s * rng.uniform(0.26, 0.4), s * rng.uniform(0.22, 0.32)
            if rng.random() < 0.5:
                w, h = h, w
            x = cx + sx * s - w / 2 + rng.uniform(-0.04, 0.04) * s
            y = cy + sy * s - h / 2 + rng.uniform(-0.04, 0.04) * s
            pygame.draw.rect(surf, (70, 62, 54), pygame.Rect(x + s * 0.06, y + s * 0.07, w, h))
            roof = rng.choice(roofs)
            r = pygame.Rect(x, y, w, h)
            pygame.draw.rect(surf, roof, r)
            pygame.draw.rect(surf, _shade(roof, -45), r, max(1, int(s / 30)))
            if w >= h:   # ridge line
                pygame.draw.line(surf, _shade(roof, 30), (r.left + 2, r.centery), (r.right - 3, r.centery),
                                 max(1, int(s / 36)))
            else:
                pygame.draw.line(surf, _shade(roof, 30), (r.centerx, r.top + 2), (r.centerx, r.bottom - 3),
                                 max(1, int(s / 36)))

    def _marsh(self, surf: pygame.Surface, rng: random.Random) -> None:
        s, (cx, cy) = self.size, self.c
        base = PALETTE[Terrain.MARSH]
        surf.fill(base)
        self._grain(surf, rng, base, int(s * 1.5), 10)
        for _ in range(rng.randint(3, 4)):          # puddles
            w, h = s * rng.uniform(0.34, 0.56), s * rng.uniform(0.14, 0.22)
            rect = pygame.Rect(0, 0, w, h)
            rect.center = (int(cx + rng.uniform(-0.5, 0.5) * s), int(cy + rng.uniform(-0.5, 0.5) * s))
            pygame.draw.ellipse(surf, (96, 132, 150), rect)
            pygame.draw.ellipse(surf, (148, 180, 190), rect.inflate(-w * 0.4, -h * 0.5))
        reed = (58, 82, 44)
        lw = max(1, int(s / 26))
        for _ in range(rng.randint(9, 12)):         # reed tufts
            x, y = cx + rng.uniform(-0.65, 0.65) * s, cy + rng.uniform(-0.6, 0.65) * s
            for dx in (-0.1, -0.03, 0.04, 0.1):
                pygame.draw.line(surf, reed, (x, y), (x + dx * s, y - rng.uniform(0.14, 0.22) * s), lw)

    def _pond(self, surf: pygame.Surface, rng: random.Random) -> None:
        s, (cx, cy) = self.size, self.c
        surf.fill(PALETTE[Terrain.MARSH])
        self._grain(surf, rng, PALETTE[Terrain.MARSH], int(s), 10)
        water = PALETTE[Terrain.POND]
        pygame.draw.polygon(surf, (40, 84, 138), _hex_points(cx, cy, s, 0.9))
        pygame.draw.polygon(surf, water, _hex_points(cx, cy, s, 0.78))
        lw = max(1, int(s / 24))
        for _ in range(3):                           # ripples
            rect = pygame.Rect(0, 0, s * rng.uniform(0.3, 0.5), s * rng.uniform(0.12, 0.18))
            rect.center = (int(cx + rng.uniform(-0.35, 0.35) * s), int(cy + rng.uniform(-0.4, 0.4) * s))
            pygame.draw.arc(surf, (168, 206, 236), rect, math.radians(20), math.radians(160), lw)


    # later edition (game.rules.later)
    def _shell_holes(self, surf: pygame.Surface, rng: random.Random) -> None:
        s, (cx, cy) = self.size, self.c
        self._clear(surf, rng)
        for _ in range(4):                           # craters: a dark pit with a lit rim
            r = s * rng.uniform(0.12, 0.2)
            p = (cx + rng.uniform(-0.45, 0.45) * s, cy + rng.uniform(-0.45, 0.45) * s)
            pygame.draw.circle(surf, (196, 184, 140), p, r * 1.35)
            pygame.draw.circle(surf, (86, 72, 48), p, r)

    def _water(self, surf: pygame.Surface, rng: random.Random) -> None:
        s, (cx, cy) = self.size, self.c
        surf.fill(PALETTE[Terrain.WATER])
        lw = max(1, int(s / 24))
        for _ in range(4):
            rect = pygame.Rect(0, 0, s * rng.uniform(0.3, 0.5), s * rng.uniform(0.12, 0.18))
            rect.center = (int(cx + rng.uniform(-0.45, 0.45) * s), int(cy + rng.uniform(-0.5, 0.5) * s))
            pygame.draw.arc(surf, (160, 200, 236), rect, math.radians(20), math.radians(160), lw)

    def _bluffs(self, surf: pygame.Surface, rng: random.Random) -> None:
        base = PALETTE[Terrain.BLUFFS]
        surf.fill(base)
        self._grain(surf, rng, base, int(self.size), 14)


# --- the renderer -------------------------------------------------------------------------
class MapRenderer:
    """Draws ``battle_map`` at ``hex_size`` pixels into a cached surface.

    ``renderer.surface`` is the map (the sheet plus ``margin`` pixels of table);
    ``renderer.layout`` maps hexes to pixels *on that surface*;
    ``renderer.layout_at(topleft)`` is the layout once blitted at ``topleft``."""

    def __init__(self, battle_map: BattleMap, hex_size: float = 36.0, *, labels: bool = False,
                 zones: bool = False, sections: bool = True, grid: bool = True,
                 margin: int = 0, supersample: int = 2, zone_depth: int = 5,
                 objective: bool = True) -> None:
        if not hex_size > 0:
            raise ValueError("hex size must be positive")
        self.map = battle_map
        self.hex_size = float(hex_size)
        self.labels = labels
        self.zones = zones
        self.sections = sections
        self.grid = grid
        self.margin = int(margin)
        self.supersample = max(1, int(supersample))
        self.zone_depth = zone_depth
        self.objective = objective               # False: the caller draws it (from the state)
        self._box = map_box(battle_map)
        self._surface: pygame.Surface | None = None
        self.renders = 0                         # how many times the static map was drawn

    # --- sizing ------------------------------------------------------------------------
    @classmethod
    def fit(cls, battle_map: BattleMap, width: int, height: int, **options) -> "MapRenderer":
        """A renderer whose map (plus margin) fits into ``width`` x ``height`` pixels."""
        margin = int(options.get("margin", 0))
        left, top, right, bottom = map_box(battle_map)
        size = min((width - 2 * margin) / (right - left), (height - 2 * margin) / (bottom - top))
        return cls(battle_map, max(4.0, math.floor(size * 4) / 4), **options)

    @property
    def layout(self) -> HexLayout:
        left, top, _, _ = self._box
        return HexLayout(self.hex_size, (self.margin - left * self.hex_size,
                                         self.margin - top * self.hex_size))

    def layout_at(self, topleft: tuple[float, float]) -> HexLayout:
        return self.layout.translated(topleft[0], topleft[1])

    @property
    def sheet_rect(self) -> pygame.Rect:
        """The map sheet on the surface (without the margin)."""
        left, top, right, bottom = self._box
        s = self.hex_size
        return pygame.Rect(self.margin, self.margin, math.ceil((right - left) * s),
                           math.ceil((bottom - top) * s))

    @property
    def pixel_size(self) -> tuple[int, int]:
        r = self.sheet_rect
        return (r.width + 2 * self.margin, r.height + 2 * self.margin)

    def set_options(self, **options) -> None:
        """Change ``labels``, ``zones``, ``sections``, ``grid`` or ``hex_size``; redraws lazily."""
        for key, value in options.items():
            if key not in ("labels", "zones", "sections", "grid", "hex_size"):
                raise TypeError(f"unknown map renderer option '{key}'")
            if key == "hex_size":
                value = float(value)
            if getattr(self, key) != value:
                setattr(self, key, value)
                self._surface = None

    # --- hit testing --------------------------------------------------------------------
    def hex_at(self, x: float, y: float, topleft: tuple[float, float] = (0, 0),
               include_half: bool = False) -> Hex | None:
        """The playable hex under a pixel (``None`` off the map or on a half-hex)."""
        h = self.layout_at(topleft).pixel_to_hex(x, y)
        if h in self.map.terrain or (include_half and h in self.map.half_hexes):
            r = self.sheet_rect.move(topleft)
            if r.collidepoint(x, y):
                return h
        return None

    # --- drawing -------------------------------------------------------------------------
    @property
    def surface(self) -> pygame.Surface:
        if self._surface is None:
            self._surface = self.render()
        return self._surface

    def draw(self, target: pygame.Surface, topleft: tuple[int, int] = (0, 0)) -> None:
        target.blit(self.surface, topleft)

    def render(self) -> pygame.Surface:
        """Draw the whole static map now (normally through the cached ``surface``)."""
        self.renders += 1
        k = self.supersample
        out_w, out_h = self.pixel_size
        big = pygame.Surface((out_w * k, out_h * k))
        big.fill(TABLE_COLOR)
        lay = HexLayout(self.hex_size * k, (self.layout.origin[0] * k, self.layout.origin[1] * k))
        sheet = self.sheet_rect
        sheet_big = pygame.Rect(sheet.x * k, sheet.y * k, sheet.w * k, sheet.h * k)
        big.set_clip(sheet_big)
        self._paint_terrain(big, lay)
        self._paint_roads(big, lay)
        self._paint_streams(big, lay)
        self._paint_bridges(big, lay)
        self._paint_sides(big, lay)
        if self.zones:
            self._paint_zones(big, lay)
        if self.grid:
            self._paint_grid(big, lay)
        if self.sections:
            self._paint_section_borders(big, lay)
        if self.objective and self.map.objective is not None:
            draw_objective(big, lay, self.map.objective)
        big.set_clip(None)
        pygame.draw.rect(big, SHEET_EDGE, sheet_big, max(2, int(k * 2)))
        if k > 1:
            surf = pygame.transform.smoothscale(big, (out_w, out_h))
        else:
            surf = big
        if self.sections:
            self._paint_section_names(surf)
        if self.labels:
            self._paint_labels(surf)
        return surf

    def _paint_terrain(self, big: pygame.Surface, lay: HexLayout) -> None:
        tiles = _Tiles(lay.size)
        ox, oy = tiles.c
        bm = self.map
        for h in bm.half_hexes:
            if h in bm.terrain:
                continue
            cx, cy = lay.hex_to_pixel(h)
            t = bm.half_hex_terrain.get(h, Terrain.CLEAR)
            big.blit(tiles.tile(t, h), (cx - ox, cy - oy))
        for h in bm.hexes:
            cx, cy = lay.hex_to_pixel(h)
            big.blit(tiles.tile(bm.terrain[h], h), (cx - ox, cy - oy))
        for h in bm.half_hexes:     # out of play: greyed and hatched
            if h in bm.terrain:
                continue
            cx, cy = lay.hex_to_pixel(h)
            big.blit(tiles.hatch, (cx - ox, cy - oy))

    def _paint_roads(self, big: pygame.Surface, lay: HexLayout) -> None:
        edge = getattr(self.map, "edge_roads", frozenset())   # roads leaving the sheet
        roads = sorted(self.map.roads | edge)
        if not roads:
            return
        s = lay.size
        ends = {h for side in roads for h in side.hexes()}
        for color, width in ((ROAD_EDGE, 0.36 * s), (ROAD_FILL, 0.25 * s)):
            for side in roads:
                a, b = (lay.hex_to_pixel(h) for h in side.hexes())
                pygame.draw.line(big, color, a, b, max(1, int(width)))
            for h in ends:
                pygame.draw.circle(big, color, lay.hex_to_pixel(h), width / 2.0)

    def _stream_points(self, lay: HexLayout, side: Hexside, n: int = 14) -> list[tuple[float, float]]:
        (x0, y0), (x1, y1) = lay.hexside_points(side)
        dx, dy = x1 - x0, y1 - y0
        length = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / length, dx / length
        amp = 0.05 * lay.size
        pts = []
        for i in range(n + 1):
            t = i / n
            off = amp * math.sin(2 * math.pi * t)
            pts.append((x0 + dx * t + nx * off, y0 + dy * t + ny * off))
        return pts

    def _paint_streams(self, big: pygame.Surface, lay: HexLayout) -> None:
        streams = self.map.streams
        if not streams:
            return
        s = lay.size
        lines = [self._stream_points(lay, side) for side in sorted(streams)]
        for color, width in ((STREAM_EDGE, 0.24 * s), (STREAM_FILL, 0.14 * s)):
            w = max(1, int(width))
            for pts in lines:
                pygame.draw.lines(big, color, False, pts, w)
                for p in pts:       # round joints along the wave and at the vertices
                    pygame.draw.circle(big, color, p, width / 2.0)

    def _paint_sides(self, big: pygame.Surface, lay: HexLayout) -> None:
        """Later edition: hedges as thick green hexside bands with leafy knots; cliffs as
        a dark jagged band just inside the bluffs hex, teeth pointing down-slope."""
        bm = self.map
        hedges, cliffs = getattr(bm, "hedges", ()), getattr(bm, "cliffs", ())
        s = lay.size
        for side in sorted(hedges):
            a, b = lay.hexside_points(side)
            for color, width in ((HEDGE_EDGE, 0.26 * s), (HEDGE_FILL, 0.17 * s)):
                pygame.draw.line(big, color, a, b, max(1, int(width)))
                for t in (0.0, 0.25, 0.5, 0.75, 1.0):
                    p = (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
                    pygame.draw.circle(big, color, p, width * 0.62)
        for side in sorted(cliffs):
            h1, h2 = side.hexes()
            inner = h1 if bm.terrain.get(h1) is Terrain.BLUFFS else h2
            (x0, y0), (x1, y1) = lay.hexside_points(side)
            cx, cy = lay.hex_to_pixel(inner)
            pull = 0.14                             # just inside the bluffs hex
            x0, y0 = x0 + (cx - x0) * pull, y0 + (cy - y0) * pull
            x1, y1 = x1 + (cx - x1) * pull, y1 + (cy - y1) * pull
            dx, dy = x1 - x0, y1 - y0
            ox, oy = (x0 + x1) / 2 - cx, (y0 + y1) / 2 - cy       # outward normal
            on = math.hypot(ox, oy) or 1.0
            ox, oy = ox / on, oy / on
            pygame.draw.line(big, CLIFF_EDGE, (x0, y0), (x1, y1), max(2, int(0.16 * s)))
            pygame.draw.line(big, CLIFF_FILL, (x0, y0), (x1, y1), max(1, int(0.08 * s)))
            n = 5
            for i in range(n):
                t0, t1 = i / n, (i + 0.5) / n
                p0 = (x0 + dx * t0, y0 + dy * t0)
                p2 = (x0 + dx * (i + 1) / n, y0 + dy * (i + 1) / n)
                tip = (x0 + dx * t1 + ox * 0.16 * s, y0 + dy * t1 + oy * 0.16 * s)
                pygame.draw.polygon(big, CLIFF_EDGE, (p0, tip, p2))

    def _paint_bridges(self, big: pygame.Surface, lay: HexLayout) -> None:
        s = lay.size
        for side in sorted(self.map.bridges):
            (ax, ay), (bx, by) = (lay.hex_to_pixel(h) for h in side.hexes())
            mx, my = (ax + bx) / 2.0, (ay + by) / 2.0
            dist = math.hypot(bx - ax, by - ay) or 1.0
            ux, uy = (bx - ax) / dist, (by - ay) / dist       # along the road
            vx, vy = -uy, ux                                  # across the road
            half_l, half_w = 0.36 * s, 0.24 * s

            def pt(a: float, b: float) -> tuple[float, float]:
                return (mx + ux * a + vx * b, my + uy * a + vy * b)

            pygame.draw.polygon(big, (40, 34, 26), [pt(-half_l + 0.04 * s, -half_w + 0.06 * s),
                                                    pt(half_l + 0.04 * s, -half_w + 0.06 * s),
                                                    pt(half_l + 0.04 * s, half_w + 0.06 * s),
                                                    pt(-half_l + 0.04 * s, half_w + 0.06 * s)])
            deck = [pt(-half_l, -half_w), pt(half_l, -half_w), pt(half_l, half_w), pt(-half_l, half_w)]
            pygame.draw.polygon(big, WOOD, deck)
            lw = max(1, int(s / 34))
            for i in range(1, 7):                             # planks across the road
                a = -half_l + 2 * half_l * i / 7
                pygame.draw.line(big, WOOD_DARK, pt(a, -half_w), pt(a, half_w), lw)
            rw = max(2, int(s / 14))
            pygame.draw.line(big, WOOD_RAIL, pt(-half_l, -half_w), pt(half_l, -half_w), rw)
            pygame.draw.line(big, WOOD_RAIL, pt(-half_l, half_w), pt(half_l, half_w), rw)

    def _paint_zones(self, big: pygame.Surface, lay: HexLayout) -> None:
        for end, color in ZONE_COLORS.items():
            zone = self.map.deployment_zone(end, self.zone_depth)
            shade_hexes(big, lay, zone, color + (36,))
            outline_region(big, lay, zone, color, max(3, int(lay.size * 0.15)),
                           only_towards=self.map.terrain, dashes=3)

    def _paint_grid(self, big: pygame.Surface, lay: HexLayout) -> None:
        layer = pygame.Surface(big.get_size(), pygame.SRCALPHA)
        lw = max(1, int(round(lay.size / 26)))
        for h in list(self.map.terrain) + [h for h in self.map.half_hexes if h not in self.map.terrain]:
            pygame.draw.polygon(layer, (20, 26, 16, 255), lay.corners(h), lw)
        layer.set_alpha(88)
        big.blit(layer, (0, 0))

    def _paint_section_borders(self, big: pygame.Surface, lay: HexLayout) -> None:
        if not self.map.sections:
            return
        layer = pygame.Surface(big.get_size(), pygame.SRCALPHA)
        lw = max(2, int(lay.size * 0.07))
        for sec in self.map.sections:
            outline = _section_outline(sec, self._box)
            if len(outline) >= 3:
                pts = [lay.doubled_to_pixel(x, r) for x, r in outline]
                pygame.draw.lines(layer, (20, 16, 12, 255), True, pts, lw)
        layer.set_alpha(120)
        big.blit(layer, (0, 0))

    def _paint_section_names(self, surf: pygame.Surface) -> None:
        lay = self.layout
        sheet = self.sheet_rect
        px = int(max(11, min(20, self.hex_size * 0.42)))
        f = font(px, bold=True)
        for sec in self.map.sections:
            outline = _section_outline(sec, self._box)
            if not outline:
                continue
            pts = [lay.doubled_to_pixel(x, r) for x, r in outline]
            left, right = min(p[0] for p in pts), max(p[0] for p in pts)
            top, bottom = min(p[1] for p in pts), max(p[1] for p in pts)
            name = sec.name + (" (turned)" if sec.rotation == 180 else "")
            text = f.render(name, True, (32, 28, 22))
            box = pygame.Rect(0, 0, text.get_width() + 8, text.get_height() + 2)
            corner = sec.quadrant or "TL"
            pad = 3
            box.left = int(left + pad) if corner[1] == "L" else int(right - pad - box.width)
            box.top = int(top + pad) if corner[0] == "T" else int(bottom - pad - box.height)
            box.clamp_ip(sheet)
            plate = pygame.Surface(box.size, pygame.SRCALPHA)
            plate.fill((238, 230, 204, 200))
            surf.blit(plate, box.topleft)
            pygame.draw.rect(surf, (70, 62, 50), box, 1)
            surf.blit(text, (box.x + 4, box.y + 1))

    def _paint_labels(self, surf: pygame.Surface) -> None:
        lay = self.layout
        # the bundled monospaced font (assets/fonts): "I10" never reads as "H0" nor
        # "A11" as "Af1"; never below 11 px
        px = int(max(11, min(17, self.hex_size * 0.36)))
        from game.ui.assets import label_font
        f = label_font(px)
        for h in self.map.hexes:
            cx, cy = lay.hex_to_pixel(h)
            label = hex_label(h)
            text = f.render(label, True, (16, 16, 16))
            halo = f.render(label, True, (236, 232, 214))    # readable on dark forest too
            halo.set_alpha(170)
            x, y = cx - text.get_width() / 2, cy - self.hex_size * 0.86
            for dx, dy in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                surf.blit(halo, (x + dx, y + dy))
            surf.blit(text, (x, y))


# --- pieces shared with other screens -----------------------------------------------------------
def draw_objective(surface: pygame.Surface, layout: HexLayout, h: Hex) -> None:
    """The objective counter: a round cream counter with a red star and rim."""
    s = layout.size
    cx, cy = layout.hex_to_pixel(h)
    r = 0.5 * s
    pygame.draw.circle(surface, (30, 26, 20), (cx + 0.05 * s, cy + 0.07 * s), r)
    pygame.draw.circle(surface, (240, 228, 184), (cx, cy), r)
    pygame.draw.circle(surface, (156, 36, 28), (cx, cy), r, max(2, int(0.08 * s)))
    pygame.draw.circle(surface, (156, 36, 28), (cx, cy), r * 0.78, max(1, int(0.025 * s)))
    star = []
    for i in range(10):
        rad = r * (0.62 if i % 2 == 0 else 0.26)
        a = math.radians(-90 + 36 * i)
        star.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
    pygame.draw.polygon(surface, (180, 38, 30), star)


def terrain_swatch(terrain: Terrain, size: int) -> pygame.Surface:
    """A small hex of textured terrain for legends (``size`` = centre to corner)."""
    tiles = _Tiles(size * 2)
    big = tiles.tile(terrain, Hex(3, 7))
    pygame.draw.polygon(big, (20, 26, 16), _hex_points(tiles.c[0], tiles.c[1], size * 2), 2)
    return pygame.transform.smoothscale(big, (big.get_width() // 2, big.get_height() // 2))


_STAMPS: dict[tuple[int, Color], pygame.Surface] = {}


def _region_layer(layout: HexLayout, hexes: Iterable[Hex], color: Color
                  ) -> tuple[pygame.Surface, tuple[int, int]] | None:
    hs = list(hexes)
    if not hs:
        return None
    left, top, right, bottom = layout.bounds(hs)
    x0, y0 = int(math.floor(left)) - 1, int(math.floor(top)) - 1
    layer = pygame.Surface((int(math.ceil(right)) - x0 + 2, int(math.ceil(bottom)) - y0 + 2),
                           pygame.SRCALPHA)
    sub = layout.translated(-x0, -y0)
    opaque = tuple(color[:3]) + (255,)
    for h in hs:
        pygame.draw.polygon(layer, opaque, sub.corners(h))
    return layer, (x0, y0)


def shade_hexes(surface: pygame.Surface, layout: HexLayout, hexes: Iterable[Hex],
                color: Sequence[int]) -> None:
    """Tint every hex of ``hexes`` with ``color`` (RGBA; alpha = strength), no double
    tint where hexes touch."""
    made = _region_layer(layout, hexes, tuple(color))
    if made is None:
        return
    layer, pos = made
    layer.set_alpha(color[3] if len(color) > 3 else 110)
    surface.blit(layer, pos)


def outline_hex(surface: pygame.Surface, layout: HexLayout, h: Hex,
                color: Sequence[int] = (255, 255, 255), width: int = 3, scale: float = 1.0) -> None:
    """Draw the border of one hex (``scale`` < 1 draws it inside the hex)."""
    pts = layout.corners(h, scale)
    pygame.draw.polygon(surface, color, pts, width)
    for p in pts:   # fill the notches at the corners of thick outlines
        pygame.draw.circle(surface, color, p, max(1, width // 2))


def outline_region(surface: pygame.Surface, layout: HexLayout, hexes: Iterable[Hex],
                   color: Sequence[int], width: int = 3,
                   only_towards: Iterable[Hex] | None = None, dashes: int = 0) -> None:
    """Draw the perimeter of a set of hexes (the hexsides with a hex outside the set on
    the other side; with ``only_towards``, only sides facing those hexes).  ``dashes`` > 0
    draws each hexside as that many dashes (a line that can't be taken for a stream)."""
    region = set(hexes)
    toward = set(only_towards) if only_towards is not None else None
    for h in region:
        for d, step in enumerate(DIRECTIONS):
            n = h + step
            if n in region or (toward is not None and n not in toward):
                continue
            a, b = layout.edge(h, d)
            if dashes > 0:
                n_parts = 2 * dashes - 1
                for i in range(0, n_parts, 2):
                    p0 = (a[0] + (b[0] - a[0]) * i / n_parts, a[1] + (b[1] - a[1]) * i / n_parts)
                    p1 = (a[0] + (b[0] - a[0]) * (i + 1) / n_parts,
                          a[1] + (b[1] - a[1]) * (i + 1) / n_parts)
                    pygame.draw.line(surface, color, p0, p1, width)
                continue
            pygame.draw.line(surface, color, a, b, width)
            pygame.draw.circle(surface, color, a, width / 2.0)
            pygame.draw.circle(surface, color, b, width / 2.0)


def draw_los_line(surface: pygame.Surface, layout: HexLayout, a: Hex, b: Hex,
                  color: Sequence[int] = (255, 255, 255), blocked_at: Hex | None = None,
                  blocked_color: Sequence[int] = (220, 40, 40), width: int = 3) -> None:
    """A sight line from the centre of ``a`` to the centre of ``b``.  With ``blocked_at``
    the part beyond the blocking hex's centre is drawn dashed in ``blocked_color`` and the
    blocking hex gets a cross."""
    pa, pb = layout.hex_to_pixel(a), layout.hex_to_pixel(b)
    shadow = (0, 0, 0)
    if blocked_at is None:
        pygame.draw.line(surface, shadow, (pa[0] + 1, pa[1] + 1), (pb[0] + 1, pb[1] + 1), width + 2)
        pygame.draw.line(surface, color, pa, pb, width)
    else:
        pc = layout.hex_to_pixel(blocked_at)
        # the point of the line nearest the blocker's centre
        dx, dy = pb[0] - pa[0], pb[1] - pa[1]
        t = ((pc[0] - pa[0]) * dx + (pc[1] - pa[1]) * dy) / ((dx * dx + dy * dy) or 1.0)
        t = max(0.0, min(1.0, t))
        pm = (pa[0] + dx * t, pa[1] + dy * t)
        pygame.draw.line(surface, shadow, (pa[0] + 1, pa[1] + 1), (pm[0] + 1, pm[1] + 1), width + 2)
        pygame.draw.line(surface, color, pa, pm, width)
        length = math.hypot(pb[0] - pm[0], pb[1] - pm[1])
        dash = max(4.0, layout.size * 0.22)
        n = int(length // dash)
        for i in range(0, n, 2):
            p0 = (pm[0] + (pb[0] - pm[0]) * i / max(n, 1), pm[1] + (pb[1] - pm[1]) * i / max(n, 1))
            p1 = (pm[0] + (pb[0] - pm[0]) * (i + 1) / max(n, 1),
                  pm[1] + (pb[1] - pm[1]) * (i + 1) / max(n, 1))
            pygame.draw.line(surface, blocked_color, p0, p1, width)
        r = layout.size * 0.28
        for sx in (-1, 1):
            pygame.draw.line(surface, shadow, (pm[0] - r + 1, pm[1] - sx * r + 1),
                             (pm[0] + r + 1, pm[1] + sx * r + 1), width + 3)
            pygame.draw.line(surface, blocked_color, (pm[0] - r, pm[1] - sx * r),
                             (pm[0] + r, pm[1] + sx * r), width + 1)
    for p in (pa, pb):
        pygame.draw.circle(surface, shadow, p, width + 2)
        pygame.draw.circle(surface, color, p, width + 1)
