"""Aircraft on the battle map (later edition): flown *above* the map.

An Aircraft over a hex is drawn as a top-down plane silhouette
(``assets/tokens/aircraft.svg``, tinted with its nation's colour) lifted up and to
the right of the hex centre, with its shadow on the ground at the hex centre and a
ring in its side's colour round the shadow - so it is plainly off the ground, and
the hex it is over stays plain.  Side by shape as well as colour (colour-blind
safe): Axis aircraft carry a cross on each wing, Allied ones a star roundel.  The
counters (face-down "?", Disrupted "D") ride next to the plane.

The ground units in the hex keep their usual places (:func:`aircraft_slots` gives
the planes their own hit areas, checked before the ground tokens), so a plane over
an enemy stack never hides it.

    aircraft_slots(layout, units) -> {uid: Rect}      where each plane is drawn / clicked
    draw_aircraft(surface, unit, rect, ground, ...)    one plane, its shadow and counters
    plane_sprite(card, side, size, heading)            the tinted plane (cached)
"""
from __future__ import annotations

import math
from typing import Any, Iterable

import pygame

from game.ui import theme
from game.ui.assets import load_svg, token_svg

__all__ = ["aircraft_slots", "draw_aircraft", "plane_sprite", "PLANE_LIFT", "is_aircraft"]

#: the plane's centre from the hex centre, in hex sizes (centre to corner): up and right;
#: a second Aircraft in the hex (the other army's) flies up and to the left
PLANE_LIFT = ((0.30, -0.42), (-0.30, -0.42))
PLANE_SIZE = 1.55            # the sprite's side in hex sizes
SHADOW_OFFSET = (-0.06, 0.16)

_SPRITES: dict[tuple, pygame.Surface] = {}
_SHADOWS: dict[tuple, pygame.Surface] = {}


def is_aircraft(unit: Any) -> bool:
    return bool(getattr(getattr(unit, "card", None), "is_aircraft", False))


def aircraft_slots(layout: Any, units: Iterable[Any]) -> dict[str, pygame.Rect]:
    """Hit squares of the Aircraft over the map (at most one per army per hex), in the
    order given: inside the plane's own hex (the sprite drawn round it is larger)."""
    per_hex: dict[Any, int] = {}
    out: dict[str, pygame.Rect] = {}
    size = layout.size
    rad = max(6, int(0.42 * size))      # inside the hex: a click beside it is the neighbour's
    for u in units:
        if u.hex is None:
            continue
        i = per_hex.get(u.hex, 0)
        per_hex[u.hex] = i + 1
        dx, dy = PLANE_LIFT[min(i, len(PLANE_LIFT) - 1)]
        cx, cy = layout.hex_to_pixel(u.hex)
        c = (round(cx + dx * size), round(cy + dy * size))
        out[u.uid] = pygame.Rect(c[0] - rad, c[1] - rad, 2 * rad, 2 * rad)
    return out


def _tint(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """The nation's colour brightened a little: the multiply keeps the ink dark."""
    return tuple(min(255, int(v * 1.18 + 18)) for v in colour)  # type: ignore[return-value]


def _cross(surf: pygame.Surface, c: tuple[float, float], r: float) -> None:
    """Axis marking: a black cross edged in white."""
    w = max(2.0, r * 0.55)
    for dx, dy in ((1, 0), (0, 1)):
        outer = pygame.Rect(0, 0, 2 * r + 2 if dx else w + 2, 2 * r + 2 if dy else w + 2)
        outer.center = (round(c[0]), round(c[1]))
        pygame.draw.rect(surf, (245, 245, 240), outer)
    for dx, dy in ((1, 0), (0, 1)):
        inner = pygame.Rect(0, 0, 2 * r - 1 if dx else max(1, w - 2), 2 * r - 1 if dy else max(1, w - 2))
        inner.center = (round(c[0]), round(c[1]))
        pygame.draw.rect(surf, (20, 20, 20), inner)


def _roundel(surf: pygame.Surface, c: tuple[float, float], r: float) -> None:
    """Allied marking: a white star on a dark blue disc."""
    pygame.draw.circle(surf, (245, 245, 240), c, r + 1)
    pygame.draw.circle(surf, (30, 50, 110), c, r)
    pts = []
    for i in range(10):
        rad = r * (0.85 if i % 2 == 0 else 0.36)
        a = math.radians(-90 + 36 * i)
        pts.append((c[0] + rad * math.cos(a), c[1] + rad * math.sin(a)))
    pygame.draw.polygon(surf, (245, 245, 240), pts)


def plane_sprite(card: Any, side: str, size: int, heading: float = 0.0) -> pygame.Surface:
    """The plane in its nation's colour with its side's markings, nose along
    ``heading`` (degrees counter-clockwise from east)."""
    size = max(12, int(size))
    key = (getattr(card, "name", ""), getattr(card, "nationality", ""), side, size, heading)
    got = _SPRITES.get(key)
    if got is not None:
        return got
    art = load_svg(token_svg("aircraft"), size).copy()
    colour = theme.NATION_COLOURS.get(getattr(card, "nationality", ""), (150, 150, 140))
    art.fill(_tint(colour) + (255,), special_flags=pygame.BLEND_RGBA_MULT)
    mark = _cross if side == "Axis" else _roundel
    r = size * 0.075
    for wy in (0.22, 0.78):            # on each wing, between the spar line and the tip
        mark(art, (size * 0.535, size * wy), r)
    if heading:
        art = pygame.transform.rotozoom(art, heading, 1.0)
    art = _haloed(art, max(2, size // 22))
    if len(_SPRITES) > 300:
        _SPRITES.clear()
    _SPRITES[key] = art
    return art


def _haloed(art: pygame.Surface, width: int) -> pygame.Surface:
    """The plane with a pale outline, so it stands out from any terrain under it."""
    pad = width + 1
    out = pygame.Surface((art.get_width() + 2 * pad, art.get_height() + 2 * pad), pygame.SRCALPHA)
    mask = pygame.mask.from_surface(art, 60)
    halo = mask.to_surface(setcolor=(246, 242, 226, 255), unsetcolor=(0, 0, 0, 0))
    for dx in range(-width, width + 1):
        for dy in range(-width, width + 1):
            if dx * dx + dy * dy <= width * width:
                out.blit(halo, (pad + dx, pad + dy))
    out.blit(art, (pad, pad))
    return out


def _shadow(sprite: pygame.Surface, scale: float) -> pygame.Surface:
    key = (id(sprite), sprite.get_size(), scale)
    got = _SHADOWS.get(key)
    if got is None:
        mask = pygame.mask.from_surface(sprite, 60)
        img = mask.to_surface(setcolor=(0, 0, 0, 95), unsetcolor=(0, 0, 0, 0))
        w, h = img.get_size()
        got = pygame.transform.smoothscale(img, (max(1, int(w * scale)), max(1, int(h * scale))))
        if len(_SHADOWS) > 300:
            _SHADOWS.clear()
        _SHADOWS[key] = got
    return got


def heading_for(unit: Any, state: Any) -> float:
    """Aircraft fly toward the enemy's end: east from the left end, west from the right."""
    end = (getattr(state, "ends", None) or {}).get(getattr(unit, "side", ""), "left")
    return 180.0 if end == "right" else 0.0


def draw_aircraft(surface: pygame.Surface, unit: Any, rect: pygame.Rect,
                  ground: tuple[float, float], size: float, *, heading: float = 0.0,
                  selected: bool = False, dimmed: bool = False) -> None:
    """One Aircraft: its shadow and ring on the ground at ``ground`` (the hex centre),
    the plane filling ``rect`` above it, its counters beside it."""
    from game.ui.tokens import counters_of, draw_counter
    side = getattr(unit, "side", "Allies")
    sprite = plane_sprite(unit.card, side, int(size * PLANE_SIZE), heading)
    gx, gy = ground[0] + SHADOW_OFFSET[0] * size, ground[1] + SHADOW_OFFSET[1] * size
    ring = max(4, int(size * 0.50))
    rim = theme.SIDE_RIM.get(side, (200, 200, 200))
    pygame.draw.circle(surface, (0, 0, 0), (round(gx), round(gy)), ring + 1, 3)
    pygame.draw.circle(surface, rim, (round(gx), round(gy)), ring, 2)
    shadow = _shadow(sprite, 0.78)
    surface.blit(shadow, shadow.get_rect(center=(round(gx), round(gy))))
    c = rect.center
    if selected:
        pygame.draw.circle(surface, (0, 0, 0), c, rect.w // 2 + 6, 4)
        pygame.draw.circle(surface, (255, 236, 120), c, rect.w // 2 + 5, 3)
    surface.blit(sprite, sprite.get_rect(center=c))
    if dimmed:
        mask = pygame.mask.from_surface(sprite, 60)
        shade = mask.to_surface(setcolor=(10, 10, 10, 120), unsetcolor=(0, 0, 0, 0))
        surface.blit(shade, shade.get_rect(center=c))
    counters = counters_of(unit)
    if counters:
        cs = max(9, int(size * 0.30))
        x = rect.right + 2
        y = rect.y
        for counter in counters[:3]:
            box = pygame.Rect(x - cs, y, cs, cs)
            draw_counter(surface, counter, box)
            y += cs + 1
