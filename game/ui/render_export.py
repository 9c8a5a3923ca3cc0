"""Headless map export: draw a battle map configuration into a PNG.

``python main.py --render-map N --out FILE.png [--zones] [--labels]`` calls
:func:`main_render`; it works with ``SDL_VIDEODRIVER=dummy`` (no window is
opened: only surfaces and fonts are used).
"""
from __future__ import annotations

import math
import os
import sys
from pathlib import Path

import pygame

from game.rules.board import BattleMap
from game.rules.errors import DataError
from game.rules.hexes import Hex
from game.rules.mapstats import compare_ends
from game.rules.terrain import Terrain
from game.ui.fonts import font
from game.ui.map_render import (STREAM_EDGE, STREAM_FILL, ROAD_EDGE, ROAD_FILL, HEDGE_EDGE,
                                HEDGE_FILL, CLIFF_EDGE, CLIFF_FILL,
                                TABLE_COLOR, WOOD, WOOD_DARK, WOOD_RAIL, ZONE_COLORS,
                                MapRenderer, draw_objective, terrain_swatch)
from game.ui.layout import HexLayout

__all__ = ["render_map_png", "render_map_surface", "main_render", "draw_legend", "legend_size",
           "draw_legend_overlay"]

TITLE_H = 40
LEGEND_W = 200
TEXT = (232, 230, 218)
TEXT_DIM = (170, 172, 160)


def _init() -> None:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    if not pygame.font.get_init():
        pygame.font.init()


def render_map_surface(bm: BattleMap, zones: bool = False, labels: bool = False,
                       size: tuple[int, int] = (1280, 800), legend: bool = True) -> pygame.Surface:
    """The picture of a battle map: a title line, the map, and a legend at the right."""
    _init()
    w, h = int(size[0]), int(size[1])
    if w < 200 or h < 150:
        raise ValueError(f"picture size {w}x{h} is too small (at least 200x150)")
    legend = legend and w >= 900
    out = pygame.Surface((w, h))
    out.fill(TABLE_COLOR)
    map_w = w - (LEGEND_W if legend else 0) - 16
    map_h = h - TITLE_H - 8
    r = MapRenderer.fit(bm, map_w, map_h, zones=zones, labels=labels,
                        zone_depth=_depth(bm))
    mw, mh = r.pixel_size
    pos = (8 + (map_w - mw) // 2, TITLE_H + (map_h - mh) // 2)
    r.draw(out, pos)
    title = (f"Configuration {bm.number}: {bm.name}" if bm.number is not None else bm.name)
    out.blit(font(30, bold=True).render(title, True, (214, 176, 84)), (12, 9))
    if bm.sections:
        secs = "   ".join(f"{s.quadrant} {s.name}{' (turned)' if s.rotation == 180 else ''}"
                          for s in bm.sections)
        img = font(18).render(secs, True, TEXT_DIM)
        out.blit(img, (w - img.get_width() - 12, 14))
    if legend:
        _legend(out, pygame.Rect(w - LEGEND_W - 4, TITLE_H, LEGEND_W, h - TITLE_H - 8), bm, zones)
    return out


def _is_later(bm: BattleMap) -> bool:
    """A later-edition battlefield (its terrain or hexside terrain)."""
    return bool(getattr(bm, "hedges", None) or getattr(bm, "cliffs", None)) or any(
        t.later_only for t in bm.terrain.values())


def _depth(bm: BattleMap) -> int:
    """Deployment depth: three whole hexes in the later edition (ruling L13), else five."""
    return 3 if _is_later(bm) else 5


def legend_size(zones: bool = False, later: bool = False) -> tuple[int, int]:
    """The width and height :func:`draw_legend` needs."""
    kinds = sum(1 for t in Terrain if later or not t.later_only)
    return (LEGEND_W, 10 + 28 + 32 * kinds + 4 + 26 + 26 + 28 + (26 * 2 if later else 0)
            + 30 + 28 + ((24 * 2 + 30) if zones else 0) + 6)


def draw_legend(out: pygame.Surface, rect: pygame.Rect, zones: bool = False,
                later: bool = False) -> int:
    """The terrain legend (every terrain, road, stream, bridge, objective, edge; the
    later edition's terrain, hedges and cliffs when ``later``; the deployment zones
    when ``zones``) in ``rect``; returns the y below it.  The exported PNG, the
    interactive preview and the battle screen all draw this one."""
    pygame.draw.rect(out, (50, 55, 48), rect, border_radius=8)
    pygame.draw.rect(out, (92, 100, 84), rect, 1, border_radius=8)
    x, y = rect.x + 12, rect.y + 10
    f, fs = font(20), font(16)
    out.blit(font(22, bold=True).render("Legend", True, TEXT), (x, y))
    y += 28
    for t in Terrain:
        if t.later_only and not later:       # the later edition's terrain on its maps only
            continue
        sw = terrain_swatch(t, 14)
        out.blit(sw, (x, y))
        out.blit(f.render(t.title, True, TEXT), (x + 34, y + 7))
        y += 32
    y += 4
    # road
    pygame.draw.line(out, ROAD_EDGE, (x, y + 10), (x + 26, y + 10), 9)
    pygame.draw.line(out, ROAD_FILL, (x, y + 10), (x + 26, y + 10), 6)
    out.blit(f.render("Road", True, TEXT), (x + 34, y + 3))
    y += 26
    pts = [(x + i, y + 10 + 2.5 * math.sin(i / 26 * 6.283)) for i in range(27)]
    pygame.draw.lines(out, STREAM_EDGE, False, pts, 6)
    pygame.draw.lines(out, STREAM_FILL, False, pts, 3)
    out.blit(f.render("Stream (hexside)", True, TEXT), (x + 34, y + 3))
    y += 26
    deck = pygame.Rect(x + 4, y + 3, 18, 14)
    pygame.draw.rect(out, WOOD, deck)
    for i in range(1, 4):
        pygame.draw.line(out, WOOD_DARK, (deck.x + i * 4.5, deck.top), (deck.x + i * 4.5, deck.bottom), 1)
    pygame.draw.line(out, WOOD_RAIL, deck.topleft, deck.topright, 2)
    pygame.draw.line(out, WOOD_RAIL, deck.bottomleft, deck.bottomright, 2)
    out.blit(f.render("Bridge", True, TEXT), (x + 34, y + 3))
    y += 28
    if later:
        pygame.draw.line(out, HEDGE_EDGE, (x, y + 10), (x + 26, y + 10), 8)
        pygame.draw.line(out, HEDGE_FILL, (x, y + 10), (x + 26, y + 10), 5)
        out.blit(f.render("Hedge (hexside)", True, TEXT), (x + 34, y + 3))
        y += 26
        pygame.draw.line(out, CLIFF_EDGE, (x, y + 6), (x + 26, y + 6), 5)
        for i in range(4):
            pygame.draw.polygon(out, CLIFF_EDGE, ((x + i * 6.5, y + 6), (x + i * 6.5 + 3, y + 13),
                                                  (x + i * 6.5 + 6.5, y + 6)))
        out.blit(f.render("Cliff (bluffs side)", True, TEXT), (x + 34, y + 3))
        y += 26
    draw_objective(out, HexLayout(22, (x + 13, y + 12)), Hex(0, 0))
    out.blit(f.render("Objective", True, TEXT), (x + 34, y + 4))
    y += 30
    hatch = pygame.Surface((26, 18))
    hatch.fill((110, 112, 110))
    for k in range(-18, 26, 5):
        pygame.draw.line(hatch, (60, 62, 64), (k, 0), (k + 18, 18), 1)
    out.blit(hatch, (x, y))
    out.blit(f.render("Edge: out of play", True, TEXT), (x + 34, y + 2))
    y += 28
    if zones:
        for end in ("left", "right"):
            pygame.draw.rect(out, ZONE_COLORS[end], (x, y + 2, 26, 16), border_radius=3)
            out.blit(f.render(f"{end.capitalize()} deploy zone", True, TEXT), (x + 34, y + 2))
            y += 24
        words = "3 whole hexes" if later else "5 whole hexes"
        out.blit(fs.render(f"{words} from each end", True, TEXT_DIM), (x, y + 2))
        y += 30
    return y


_LEGEND_IMG: dict = {}


def draw_legend_overlay(surface: pygame.Surface, area: pygame.Rect, zones: bool = False,
                        bm: BattleMap | None = None) -> pygame.Rect:
    """The terrain legend as a toggled overlay in the top-left of ``area`` (the map),
    shrunk to fit a small window; drawn once, then blitted."""
    later = bm is not None and _is_later(bm)
    key = (zones, area.h, later)
    img = _LEGEND_IMG.get(key)
    if img is None:
        w, h = legend_size(zones, later)
        full = pygame.Surface((w, h), pygame.SRCALPHA)
        draw_legend(full, full.get_rect(), zones, later)
        room = max(60, area.h - 20)
        if h > room:
            full = pygame.transform.smoothscale(full, (max(40, int(w * room / h)), room))
        img = _LEGEND_IMG[key] = full
    r = img.get_rect(topleft=(area.x + 10, area.y + 10))
    surface.blit(img, r)
    return r


def _legend(out: pygame.Surface, rect: pygame.Rect, bm: BattleMap, zones: bool) -> None:
    y = draw_legend(out, rect, zones, _is_later(bm))
    x = rect.x + 12
    if zones and y + 146 <= rect.bottom:     # only when it fits below the legend
        _ends(out, x, y, rect.right - 12, bm)


def _ends(out: pygame.Surface, x: int, y: int, right: int, bm: BattleMap) -> None:
    """The two ends compared (as the preview's side panel, shorter)."""
    stats = compare_ends(bm, depth=_depth(bm))
    f, fb = font(17), font(18, bold=True)
    out.blit(font(20, bold=True).render("Ends compared", True, TEXT), (x, y))
    y += 24
    cl, cr = right - 70, right - 26
    out.blit(fb.render("L", True, ZONE_COLORS["left"]), (cl, y))
    out.blit(fb.render("R", True, ZONE_COLORS["right"]), (cr, y))
    y += 20
    left, rgt = stats["left"], stats["right"]
    rows = (("Cover hexes", len(left.soldier_cover), len(rgt.soldier_cover)),
            ("See objective", len(left.zone_sees_objective), len(rgt.zone_sees_objective)),
            ("To objective", left.objective_distance, rgt.objective_distance),
            ("Longest sight", left.longest_line[2] if left.longest_line else "-",
             rgt.longest_line[2] if rgt.longest_line else "-"))
    for label, a, b in rows:
        out.blit(f.render(label, True, TEXT_DIM), (x, y))
        out.blit(fb.render(str(a), True, TEXT), (cl, y))
        out.blit(fb.render(str(b), True, TEXT), (cr, y))
        y += 20
    out.blit(font(15).render("in each deployment zone", True, TEXT_DIM), (x, y + 2))


def render_map_png(number: int, out: str | os.PathLike[str], zones: bool = False,
                   labels: bool = False, size: tuple[int, int] = (1280, 800),
                   edition: str = "first") -> Path:
    """Load configuration ``number`` (of the later edition's three with
    ``edition="later"``) and save its picture as a PNG; returns the path."""
    if edition == "later":
        from game.data.later_maps import load_later_configuration
        bm = load_later_configuration(number)
    else:
        from game.data.maps import load_configuration
        bm = load_configuration(number)
    surf = render_map_surface(bm, zones=zones, labels=labels, size=size)
    path = Path(out)
    pygame.image.save(surf, str(path))
    return path


def main_render(number: int, out: str | os.PathLike[str], zones: bool = False,
                labels: bool = False, edition: str = "first") -> int:
    """Command-line entry: 0 when the PNG is written, 2 with one clear sentence otherwise."""
    try:
        path = render_map_png(number, out, zones=zones, labels=labels, edition=edition)
    except DataError as exc:
        print(f"hexfront: {exc.report()}", file=sys.stderr)
        return 2
    except (OSError, pygame.error, ValueError) as exc:
        print(f"hexfront: can't write {out}: {exc}", file=sys.stderr)
        return 2
    print(f"hexfront: configuration {number} drawn to {path}")
    return 0
