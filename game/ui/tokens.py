"""Top-down miniature tokens (art-direction.md: "Miniatures").

A token is a miniature on a round base in the nation's colour whose rim tells
the side by colour and shape (Axis: grey, notched; Allies: green, smooth - so
colour-blind players can tell the armies apart), a top-down silhouette of the
unit's kind (assets/tokens/<kind>.svg; a Vehicle's gun points along its
facing), a short name plate, a facing wedge for Vehicles, counters
(face-down grey "?", face-up Disrupted yellow "D", Damaged orange "DM",
Destroyed red "X") and a badge for a boarded Soldier.

Bodies are cached per (card, side, size, facing), so a frame with 30 units
only blits.  Public API:

    kind_of(card) -> str                      one of KINDS
    short_name(card) -> str                   "Sherman", "Pz IV G", "PAK 38"...
    token_rects(hex_center, n, size)          where 1-4 tokens sit in a hex
    draw_token(surface, card, rect, ...)      a card's token (army builder, panels)
    draw_unit(surface, unit, rect, ...)       a game-state Unit with its counters
    counters_of(unit) -> list[str]            what draw_unit shows, in order
    token_at(rects, pos) -> int | None        which token a click hit
"""
from __future__ import annotations

import math
from typing import Any, Iterable, Sequence

import pygame

from game.ui import theme
from game.ui.assets import load_svg, token_svg

__all__ = ["KINDS", "kind_of", "short_name", "token_rects", "token_at", "draw_token",
           "draw_unit", "token_label", "counters_of", "draw_counter", "draw_sample_row", "clear_cache",
           "facing_angle"]

KINDS = ("tank", "tank_destroyer", "assault_gun", "armored_car", "transport",
         "infantry", "machine_gun", "antitank_gun", "artillery", "commander", "aircraft")
VEHICLE_KINDS = frozenset(KINDS[:5])

INK = (30, 31, 28)
INK_LIGHT = (70, 72, 66)
HIGHLIGHT = (236, 232, 214)

COUNTER_STYLE = {   # counter -> (fill, text colour, mark)
    "pending": (theme.COUNTER_COLOURS["pending"], (40, 40, 40), "?"),
    "disrupted": (theme.COUNTER_COLOURS["disrupted"], (40, 34, 0), "D"),
    "damaged": (theme.COUNTER_COLOURS["damaged"], (40, 16, 0), "DM"),
    "destroyed": (theme.COUNTER_COLOURS["destroyed"], (255, 255, 255), "X"),
}


# --- what a card looks like ------------------------------------------------------------
def _abilities(card: Any) -> set[str]:
    return {getattr(a, "id", "") for a in getattr(card, "abilities", ())}


def kind_of(card: Any) -> str:
    """The silhouette for a card, from its type, subtype, abilities and name."""
    name = (getattr(card, "name", "") or "").lower()
    sub = (getattr(card, "subtype", None) or "").lower()
    abil = _abilities(card)
    if getattr(card, "is_aircraft", False):     # later edition: drawn above the map there
        return "aircraft"
    if getattr(card, "is_vehicle", False) or getattr(card, "type", "") == "Vehicle":
        if "destroyer" in sub or "destroyer" in name:
            return "tank_destroyer"
        if "assault gun" in sub or "sig 33" in name or "stug" in name:
            return "assault_gun"
        if "armored car" in sub or "armoured car" in sub or "sd kfz 222" in name:
            return "armored_car"
        if "half" in sub or "truck" in sub or "transport" in sub:
            return "transport"
        if "tank" in sub:                  # a tank that carries riders is still a tank
            return "assault_gun" if "no_turret" in abil else "tank"
        if "transport" in abil or "gun_transport" in abil:
            return "transport"
        return "assault_gun" if "no_turret" in abil else "tank"
    if getattr(card, "commander_bonus", None) is not None or "commander" in sub:
        return "commander"
    if any(w in name for w in ("machine-gun", "machine gun", "mg-", "mg 42", "mg42", "vickers")):
        return "machine_gun"
    if any(w in name for w in ("antitank gun", "anti-tank gun", "pak ", "pounder", "zis-2",
                               "at gun", "antitank")) and "rifle" not in name:
        return "antitank_gun"
    if "artillery" in sub or any(w in name for w in ("mortar", "howitzer", "sig 33", "infantry gun")):
        return "artillery"
    return "infantry"


_SHORT = {
    "M4A1 Sherman": "Sherman", "6-Pounder Antitank Gun": "6-pdr", '"Red Devil" Captain': "Red Devil",
    "Bazooka": "Bazooka", "M1 Garand Rifle": "Garand", "Vickers Machine-Gun Team": "Vickers",
    "KV-1": "KV-1", "M3 Stuart": "Stuart", "Panzer IV Ausf. G": "Pz IV G",
    "PAK 38 Antitank Gun": "PAK 38", "MG-42 Machine-Gun Team": "MG-42", "sIG 33": "sIG 33",
    "Type 95 Ha-Go": "Ha-Go", "ZIS-2 57mm Antitank Gun": "ZIS-2", "M3 Lee": "Lee",
    'M4A3E8 Sherman "Easy Eight"': "Easy 8", "Inspiring Lieutenant": "Lieut.",
    "Royal Engineers": "Engineers", "Churchill Crocodile": "Crocodile", "MAS 7.5mm Rifle": "MAS",
    "Renault R-35": "R-35", "SS-Panzergrenadier": "SS-PzGr", "Mauser Kar 98k": "Kar 98k",
    "SS-Hauptsturmführer": "SS-Hstf.", "Sd Kfz 222": "SdKfz222", "Sd Kfz 251": "SdKfz251",
    "Fucile Modello 1891": "Fucile", "Type 89 Mortar": "Type 89",
    "SS-Panzer IV Ausf. F2": "SS Pz IV", "Panzer IV Ausf. F2": "Pz IV F2",
    "Panzer IV Ausf. H Commander": "Pz IV H", "Carro Armato M13/40": "M13/40",
    "Type 97 Chi-Ha": "Chi-Ha", "Mosin-Nagant 1891/30": "Mosin", "Guards T-34/85": "Gds T-34",
    "Sherman VC Firefly": "Firefly", "Matilda II": "Matilda", "Panther Ausf. A": "Panther",
    "SNLF Captain": "SNLF Capt", "StuG III Ausf. G": "StuG III", "Tiger I": "Tiger I",
}
_DROP = {"team", "antitank", "anti-tank", "gun", "rifle", "ausf.", "the", "machine-gun", "tank"}


def short_name(card: Any, limit: int = 9) -> str:
    """A name that fits on a token (a known short form, else the first telling words)."""
    name = getattr(card, "name", str(card))
    if name in _SHORT:
        return _SHORT[name]
    words = [w.strip('"\'()') for w in name.split()]
    keep = [w for w in words if w.lower() not in _DROP] or words
    out = keep[0]
    for w in keep[1:]:
        if len(out) + 1 + len(w) > limit:
            break
        out += " " + w
    return out if len(out) <= limit else out[:limit - 1] + "."


# --- geometry ------------------------------------------------------------------------------
# (offset x, offset y, radius) in hex sizes (centre-to-corner) for 1..4 tokens;
# the circles never overlap and stay inside the hex, so every token can be clicked.
_LAYOUTS = {
    1: ((0.0, 0.0, 0.70),),
    2: ((-0.42, 0.0, 0.40), (0.42, 0.0, 0.40)),
    3: ((0.0, -0.42, 0.36), (-0.42, 0.30, 0.36), (0.42, 0.30, 0.36)),
    4: ((-0.36, -0.36, 0.33), (0.36, -0.36, 0.33), (-0.36, 0.36, 0.33), (0.36, 0.36, 0.33)),
}


def token_rects(hex_center: tuple[float, float], n: int, size: float) -> list[pygame.Rect]:
    """Rects (squares around each token) for ``n`` units in a hex of ``size``
    (pixels, centre to corner).  More than four use the four-unit layout again,
    shifted, so nothing is lost even in an illegal stack shown for a moment."""
    if n <= 0:
        return []
    cx, cy = hex_center
    spots = list(_LAYOUTS[min(n, 4)])
    while len(spots) < n:
        x, y, r = _LAYOUTS[4][len(spots) % 4]
        spots.append((x * 0.5, y * 0.5, r * 0.8))
    rects = []
    for x, y, r in spots[:n]:
        rad = max(4, int(r * size))
        rects.append(pygame.Rect(round(cx + x * size) - rad, round(cy + y * size) - rad,
                                 2 * rad, 2 * rad))
    return rects


def token_at(rects: Sequence[pygame.Rect], pos: tuple[int, int]) -> int | None:
    """The index of the token under ``pos`` (round hit test), topmost first."""
    for i in range(len(rects) - 1, -1, -1):
        r = rects[i]
        if math.hypot(pos[0] - r.centerx, pos[1] - r.centery) <= r.w / 2 + 1:
            return i
    return None


def facing_angle(facing: int) -> float:
    """Screen angle (degrees, counter-clockwise from east) of a facing 0-5."""
    return 60.0 * (facing % 6)


# --- drawing the pieces ---------------------------------------------------------------------
_CACHE: dict[tuple, pygame.Surface] = {}


def clear_cache() -> None:
    _CACHE.clear()


def _nation_colour(card: Any) -> tuple[int, int, int]:
    return theme.NATION_COLOURS.get(getattr(card, "nationality", ""), (140, 140, 130))


def _side_of(card: Any, side: str | None) -> str:
    if side:
        return side
    try:
        return card.side
    except (AttributeError, ValueError):
        return "Allies"


def _base(surf: pygame.Surface, c: int, r: int, side: str, colour) -> None:
    """A round miniature base for both armies; the rim tells the side by colour *and*
    shape (colour-blind safe): Axis a grey rim cut by twelve notches, Allies a smooth
    green rim with a light inner line."""
    rim_w = max(2, r // 6)
    pygame.draw.circle(surf, (0, 0, 0, 90), (c + 2, c + 2), r)
    if side == "Axis":
        pygame.draw.circle(surf, (40, 41, 44), (c, c), r)
        pygame.draw.circle(surf, theme.AXIS_RIM, (c, c), r - 1)
        for k in range(12):                      # the notches
            a = math.radians(30 * k + 15)
            p0 = (c + (r - rim_w) * math.cos(a), c + (r - rim_w) * math.sin(a))
            p1 = (c + r * math.cos(a), c + r * math.sin(a))
            pygame.draw.line(surf, (40, 41, 44), p0, p1, max(1, r // 9))
        pygame.draw.circle(surf, colour, (c, c), r - rim_w)
        pygame.draw.circle(surf, _field(colour), (c, c), r - rim_w - max(2, int(r * 0.18)))
        pygame.draw.circle(surf, (190, 192, 196), (c, c), r - rim_w, 1)
    else:
        pygame.draw.circle(surf, (24, 40, 24), (c, c), r)
        pygame.draw.circle(surf, theme.ALLIES_RIM, (c, c), r - 1)
        pygame.draw.circle(surf, colour, (c, c), r - rim_w)
        pygame.draw.circle(surf, _field(colour), (c, c), r - rim_w - max(2, int(r * 0.18)))
        pygame.draw.circle(surf, (170, 214, 160), (c, c), r - rim_w, 1)


def _field(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """The light ground inside the base (the nation's colour, paled) where the
    dark silhouette reads well; the nation's full colour stays as a thick band."""
    return tuple(int(v + (236 - v) * 0.55) for v in colour)  # type: ignore[return-value]


def _star(surf, centre, r, colour) -> None:
    pts = []
    for i in range(10):
        rad = r if i % 2 == 0 else r * 0.45
        a = math.radians(-90 + 36 * i)
        pts.append((centre[0] + rad * math.cos(a), centre[1] + rad * math.sin(a)))
    pygame.draw.polygon(surf, colour, pts)
    pygame.draw.polygon(surf, INK, pts, 1)


def _body(card: Any, side: str, r: int, facing: int | None, label: bool) -> pygame.Surface:
    key = (getattr(card, "id", None) or getattr(card, "name", ""), getattr(card, "nationality", ""),
           side, r, facing if facing is not None else -1, label)
    surf = _CACHE.get(key)
    if surf is not None:
        return surf
    pad = 3
    size = 2 * r + 2 * pad
    surf = pygame.Surface((size, size), pygame.SRCALPHA)
    c = (size // 2, size // 2)
    _base(surf, c[0], r, side, _nation_colour(card))
    kind = kind_of(card)
    inner = r * 0.8
    art_c = (c[0], c[1] - int(r * 0.12)) if label and r >= 14 else c
    if kind in VEHICLE_KINDS:
        # the silhouette (assets/tokens/<kind>.svg) drawn pointing east, turned so the
        # gun points along the facing
        ang = math.radians(facing_angle(facing or 0))
        art = load_svg(token_svg(kind), max(8, int(inner * 1.9)))
        art = pygame.transform.rotate(art, facing_angle(facing or 0))
        surf.blit(art, art.get_rect(center=c))
        # facing wedge on the rim
        wr = r - max(2, r // 6) / 2
        tip = (c[0] + (r + 1) * math.cos(ang), c[1] - (r + 1) * math.sin(ang))
        left = (c[0] + wr * 0.78 * math.cos(ang + 0.32), c[1] - wr * 0.78 * math.sin(ang + 0.32))
        right = (c[0] + wr * 0.78 * math.cos(ang - 0.32), c[1] - wr * 0.78 * math.sin(ang - 0.32))
        pygame.draw.polygon(surf, HIGHLIGHT, [tip, left, right])
        pygame.draw.polygon(surf, INK, [tip, left, right], 1)
        if getattr(card, "is_commander", False):        # a command tank: star on the hull
            _star(surf, (c[0] - int(r * 0.45), c[1] - int(r * 0.45)), r * 0.24, theme.ACCENT)
    else:
        art = load_svg(token_svg(kind), max(8, int(inner * 1.55)))
        surf.blit(art, art.get_rect(center=art_c))
    if label and r >= 14:
        text, f = token_label(card, r)
        img = f.render(text, True, (250, 248, 236))
        plate = img.get_rect(midbottom=(c[0], c[1] + r - max(2, r // 7)))
        plate.inflate_ip(6, 0)
        bg = pygame.Surface(plate.size, pygame.SRCALPHA)
        bg.fill((20, 20, 18, 200))
        surf.blit(bg, plate)
        surf.blit(img, img.get_rect(center=plate.center))
    if len(_CACHE) > 2000:
        _CACHE.clear()
    _CACHE[key] = surf
    return surf


def token_label(card: Any, r: int) -> tuple[str, pygame.font.Font]:
    """The name plate's text and font for a token of radius ``r``: the short name, in a
    smaller font, then shortened, until the plate (text + 6 px) fits the token's width -
    two tokens sharing a hex never have their names run into each other."""
    text = short_name(card)
    room = r * 1.9 - 6
    fsize = max(11, int(r * 0.62))
    f = theme.font(fsize, bold=True)
    while f.size(text)[0] > room and fsize > 10:
        fsize -= 1
        f = theme.font(fsize, bold=True)
    while f.size(text)[0] > room and len(text) > 3:
        text = text.rstrip(".")[:-1].rstrip() + "."
    return text, f


def draw_counter(surface: pygame.Surface, counter: str, rect: pygame.Rect) -> None:
    """One cardboard counter: a square with its colour and mark."""
    fill, ink, mark = COUNTER_STYLE[counter]
    pygame.draw.rect(surface, (20, 20, 20), rect.move(1, 1), border_radius=2)
    pygame.draw.rect(surface, fill, rect, border_radius=2)
    pygame.draw.rect(surface, (24, 24, 24), rect, 1, border_radius=2)
    f = theme.font(max(10, int(rect.h * 0.95)), bold=True)
    img = f.render(mark, True, ink)
    if img.get_width() > rect.w - 2:
        img = pygame.transform.smoothscale(img, (rect.w - 2, img.get_height()))
    surface.blit(img, img.get_rect(center=(rect.centerx, rect.centery + 1)))


def counters_of(unit: Any) -> list[str]:
    """The counters a unit shows: face-up ones first (damaged, disrupted), then
    each face-down pending hit as a grey "?"; "destroyed" when it is marked so."""
    out: list[str] = []
    if getattr(unit, "destroyed", False):
        out.append("destroyed")
    if getattr(unit, "damaged", False):
        out.append("damaged")
    if getattr(unit, "disrupted", False):
        out.append("disrupted")
    out.extend("pending" for _ in getattr(unit, "pending", ()) or ())
    return out


def draw_token(surface: pygame.Surface, card: Any, rect: pygame.Rect, *, side: str | None = None,
               facing: int | None = None, counters: Iterable[str] = (), selected: bool = False,
               dimmed: bool = False, label: bool = True, boarded: Sequence[Any] = ()) -> None:
    """Draw one miniature filling ``rect`` (a square; its width is the base's diameter)."""
    r = max(6, rect.w // 2)
    side = _side_of(card, side)
    vehicle = kind_of(card) in VEHICLE_KINDS
    body = _body(card, side, r, (facing or 0) if vehicle else None, label)
    c = rect.center
    if selected:
        pygame.draw.circle(surface, (255, 236, 120), c, r + 5, 3)
    surface.blit(body, body.get_rect(center=c))
    if dimmed:
        shade = pygame.Surface((2 * r, 2 * r), pygame.SRCALPHA)
        pygame.draw.circle(shade, (10, 10, 10, 110), (r, r), r)
        surface.blit(shade, (c[0] - r, c[1] - r))
    counters = list(counters)
    if counters:
        # a row of counters along the top edge, right to left, each fully visible
        cs = max(9, int(r * 0.55))
        x = c[0] + int(r * 1.0)
        y = c[1] - r - 2
        shown = counters[:3] if len(counters) > 3 else counters
        for counter in shown:
            w = int(cs * 1.45) if COUNTER_STYLE[counter][2] == "DM" else cs
            box = pygame.Rect(x - w, y, w, cs)
            draw_counter(surface, counter, box)
            x -= w + 1
        if len(counters) > 3:
            f = theme.font(max(10, cs), bold=True)
            img = f.render(f"+{len(counters) - 3}", True, (255, 255, 255), (20, 20, 20))
            surface.blit(img, img.get_rect(topright=(x, y)))
    if boarded:
        br = max(5, int(r * 0.42))
        bc = (c[0] - int(r * 0.8), c[1] - int(r * 0.68))
        passenger = boarded[0]
        pcard = getattr(passenger, "card", passenger)
        pside = getattr(passenger, "side", None) or side
        pygame.draw.circle(surface, (250, 248, 236), bc, br + 2)
        draw_token(surface, pcard, pygame.Rect(bc[0] - br, bc[1] - br, 2 * br, 2 * br),
                   side=pside, label=False,
                   counters=counters_of(passenger) if hasattr(passenger, "card") else ())
        if len(boarded) > 1:
            f = theme.font(max(10, br), bold=True)
            surface.blit(f.render(f"x{len(boarded)}", True, (255, 255, 255)),
                         (bc[0] + br, bc[1] - br // 2))


def draw_unit(surface: pygame.Surface, unit: Any, rect: pygame.Rect, *, selected: bool = False,
              dimmed: bool = False, label: bool = True, passengers: Sequence[Any] = ()) -> None:
    """Draw a game-state Unit: its token, facing (Vehicles), counters, passengers."""
    draw_token(surface, unit.card, rect, side=unit.side,
               facing=unit.facing if unit.card.is_vehicle else None,
               counters=counters_of(unit), selected=selected, dimmed=dimmed, label=label,
               boarded=passengers)


def draw_sample_row(size: int = 44) -> pygame.Surface:
    """A showcase of every kind of token (title screen, docs)."""
    from game.rules.cards import UnitCard
    samples = [
        ("Panzer IV Ausf. G", "Germany", "Vehicle", "Tank", 1),
        ("M4A1 Sherman", "United States", "Vehicle", "Tank", 4),
        ("Jagdpanzer", "Germany", "Vehicle", "Tank Destroyer", 2),
        ("KV-1", "Soviet Union", "Vehicle", "Tank", 3),
        ("Sd Kfz 251", "Germany", "Vehicle", "Half-Track", 0),
        ("M1 Garand Rifle", "United States", "Soldier", None, 0),
        ("MG-42 Machine-Gun Team", "Germany", "Soldier", None, 0),
        ("6-Pounder Antitank Gun", "United Kingdom", "Soldier", "Artillery", 0),
        ("Type 89 Mortar", "Japan", "Soldier", None, 0),
        ('"Red Devil" Captain', "United Kingdom", "Soldier", "Commander", 0),
        ("Renault R-35", "France", "Vehicle", "Tank", 5),
        ("Fucile Modello 1891", "Italy", "Soldier", None, 0),
    ]
    gap = 8
    surf = pygame.Surface((len(samples) * (size + gap), size + 8), pygame.SRCALPHA)
    for i, (name, nation, typ, sub, facing) in enumerate(samples):
        card = UnitCard(name=name, nationality=nation, cost=10, year=1942, type=typ,
                        subtype=sub, speed=3, defense_front=4, defense_rear=4, attack={})
        draw_token(surf, card, pygame.Rect(i * (size + gap) + gap // 2, 4, size, size),
                   facing=facing)
    return surf


# --- a reference sheet of every token (docs/screens/tokens.png) ------------------------------
def render_sheet(path: str) -> None:
    """Draw every kind for both sides, the six facings, the counters and 1-4 unit
    stacks on real map hexes, and save it as a PNG."""
    from types import SimpleNamespace

    from game.data.units import load_roster
    from game.ui.widgets import draw_text
    roster = load_roster()
    sheet = pygame.Surface((1280, 800))
    sheet.fill(theme.BG)
    by_kind: dict[tuple[str, str], Any] = {}
    for card in roster.values():
        by_kind.setdefault((card.side, kind_of(card)), card)
    draw_text(sheet, "Hexfront miniatures", (20, 14), 40, theme.ACCENT, bold=True)
    y = 70
    for side in ("Axis", "Allies"):
        draw_text(sheet, f"{theme.SIDE_LABEL[side]}: " + ("round base, grey notched rim" if side == "Axis"
                  else "round base, smooth green rim"), (20, y), 22, theme.TEXT)
        x = 20
        for kind in KINDS:
            card = by_kind.get((side, kind))
            if card is None:
                continue
            draw_token(sheet, card, pygame.Rect(x, y + 26, 64, 64), facing=1)
            draw_text(sheet, kind.replace("_", " "), (x + 32, y + 96), 16, theme.TEXT_DIM,
                      anchor="midtop")
            x += 110
        y += 130
    tank = roster.get("Panzer IV Ausf. G") or next(c for c in roster.values() if c.is_vehicle)
    draw_text(sheet, "Vehicle facings 0-5 (E, NE, NW, W, SW, SE): gun and rim wedge", (20, y), 22)
    for f in range(6):
        draw_token(sheet, tank, pygame.Rect(20 + f * 90, y + 28, 64, 64), facing=f)
    draw_text(sheet, "Counters: face-down hit, Disrupted, Damaged, Destroyed", (640, y), 22)
    for i, state in enumerate(({"pending": ["x"]}, {"disrupted": True}, {"damaged": True},
                               {"destroyed": True})):
        unit = SimpleNamespace(card=tank, side="Axis", facing=0, disrupted=False, damaged=False,
                               pending=[], destroyed=False)
        for k, v in state.items():
            setattr(unit, k, v)
        draw_unit(sheet, unit, pygame.Rect(640 + i * 100, y + 28, 64, 64))
    y += 130
    draw_text(sheet, "One to four units in a hex (each stays clickable); a boarded Soldier "
                     "rides as a badge", (20, y), 22)
    size = 58
    allies = [c for c in roster.values() if c.side == "Allies"]
    axis = [c for c in roster.values() if c.side == "Axis"]
    carrier = roster.get("Sd Kfz 251")
    rider = roster.get("Mauser Kar 98k")
    for n in range(1, 5):
        cx, cy = 90 + (n - 1) * 170, y + 110
        pts = [(cx + size * math.cos(math.radians(60 * i - 30)),
                cy + size * math.sin(math.radians(60 * i - 30))) for i in range(6)]
        pygame.draw.polygon(sheet, (156, 166, 104), pts)
        pygame.draw.polygon(sheet, (90, 96, 60), pts, 1)
        for j, r in enumerate(token_rects((cx, cy), n, size)):
            card = (axis if j % 2 == 0 else allies)[(3 * j + n) % 10]
            unit = SimpleNamespace(card=card, side=card.side, facing=(j + 4) % 6,
                                   disrupted=j == 1, damaged=False,
                                   pending=["disrupted"] if j == 2 else [], destroyed=False)
            draw_unit(sheet, unit, r)
    if carrier and rider:
        cx, cy = 90 + 4 * 170, y + 110
        pts = [(cx + size * math.cos(math.radians(60 * i - 30)),
                cy + size * math.sin(math.radians(60 * i - 30))) for i in range(6)]
        pygame.draw.polygon(sheet, (156, 166, 104), pts)
        pygame.draw.polygon(sheet, (90, 96, 60), pts, 1)
        draw_token(sheet, carrier, token_rects((cx, cy), 1, size)[0], facing=5, boarded=[rider])
    pygame.image.save(sheet, path)


if __name__ == "__main__":
    import os
    import sys
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    pygame.display.init()
    pygame.font.init()
    out = sys.argv[1] if len(sys.argv) > 1 else "docs/screens/tokens.png"
    render_sheet(out)
    print(out)
