"""A full unit stat card, drawn like the printed card (rulebook: How to Read a
Stat Card): name, nationality, cost, year, type and subtype, speed, defense
(front/rear for Vehicles), attack vs Soldier and vs Vehicle at short, medium
and long range, every special ability with its rule text, the commander's
initiative bonus, flavour text, set, collector number and rarity.

``draw_card(surface, card, rect)`` fits everything into ``rect``: when the
text is long it steps the body text down (never below 12 px) and, only if it
still does not fit, ends the abilities with "…" and returns False.
"""
from __future__ import annotations

from typing import Any

import pygame

from game.rules.queries import plain_text
from game.ui import theme
from game.ui.map_render import band_span
from game.ui.tokens import draw_token
from game.ui.widgets import fit, wrap

__all__ = ["draw_card", "card_lines", "card_height", "CARD_SIZE"]

CARD_SIZE = (300, 440)
# the range bands and their distances, as the rules define them (rulebook: Range and Attack Dice)
BANDS = tuple((b, b.capitalize(), band_span(b)) for b in ("short", "medium", "long"))


def _f(size: int, bold: bool = False, italic: bool = False) -> pygame.font.Font:
    return theme.font(size, bold, italic)


def card_lines(card: Any) -> list[str]:
    """Every fact on the card as plain text lines (also used by tests and tooltips)."""
    lines = [card.name, f"{card.nationality} - {card.side}", f"Cost {card.cost}",
             f"Year {card.year}", card.type_line, f"Speed {card.speed}",
             f"Defense {card.defense_text()}"]
    for t in ("Soldier", "Vehicle"):
        lines.append(f"vs {t}: {card.attack_text(t)}")
    for a in card.abilities:
        lines.append(f"{a.name or a.id}: {plain_text(a.text)}")
    if card.commander_bonus is not None:
        lines.append(f"Initiative bonus +{card.commander_bonus}")
    if card.flavor:
        lines.append(card.flavor)
    foot = [card.set_name]
    if card.collector_number:
        foot.append(str(card.collector_number))
    if card.rarity:
        foot.append(str(card.rarity))
    lines.append(" ".join(foot))
    return lines


_RENDERED: dict[tuple, tuple[pygame.Surface, bool]] = {}


def draw_card(surface: pygame.Surface, card: Any, rect: pygame.Rect, *,
              facing: int = 0, highlight: bool = False, more: str = "") -> bool:
    """Draw the stat card; returns True when every line fit without cutting.  A card cut
    short ends its text in an ellipsis and shows ``more`` (where the whole card is) as its
    footer.  The finished card is cached per (card, size), so drawing it every frame is a blit."""
    rect = pygame.Rect(rect)
    key = (id(card), card.name, rect.size, facing, highlight, more)
    hit = _RENDERED.get(key)
    if hit is None:
        img = pygame.Surface((rect.w + 3, rect.h + 3), pygame.SRCALPHA)
        local = pygame.Rect(0, 0, rect.w, rect.h)
        fits = False
        for body in (19, 18, 17, 16, 15, 14, 13, 12):
            if _layout(None, card, local, body, facing, highlight):
                _layout(img, card, local, body, facing, highlight)
                fits = True
                break
        else:
            _layout(img, card, local, 12, facing, highlight, cut=True, more=more)
        if len(_RENDERED) > 120:
            _RENDERED.clear()
        hit = _RENDERED[key] = (img, fits)
    surface.blit(hit[0], rect.topleft)
    return hit[1]


def card_height(card: Any, width: int, body: int = 16, most: int = 2000) -> int:
    """The least height at which the whole card (every ability's full text) fits at
    ``width`` with ``body``-pixel text."""
    h = 300
    while h < most and not _layout(None, card, pygame.Rect(0, 0, width, h), body, 0, False):
        h += 20
    return h


def _layout(surface: pygame.Surface | None, card: Any, rect: pygame.Rect, body: int,
            facing: int, highlight: bool, cut: bool = False, more: str = "") -> bool:
    """Lay out (and draw when ``surface`` is given); False if it overflows."""
    draw = surface is not None
    side = card.side
    rim = theme.SIDE_RIM.get(side, theme.PANEL_EDGE)
    nation = theme.NATION_COLOURS.get(card.nationality, (140, 140, 130))
    pad = 10
    if draw:
        pygame.draw.rect(surface, (20, 20, 18), rect.move(3, 3), border_radius=10)
        pygame.draw.rect(surface, rim, rect, border_radius=10)
        inner = rect.inflate(-10, -10)
        pygame.draw.rect(surface, theme.PAPER, inner, border_radius=7)
        if highlight:
            pygame.draw.rect(surface, theme.ACCENT, rect, 3, border_radius=10)
    x0, x1 = rect.x + pad, rect.right - pad
    width = x1 - x0
    y = rect.y + pad

    # --- header: token, name, cost ---------------------------------------------------------
    tok = 46
    cost_r = 19
    name_w = width - tok - 2 * cost_r - 14
    if draw:
        band = pygame.Rect(rect.x + 5, rect.y + 5, rect.w - 10, tok + 10)
        pygame.draw.rect(surface, nation, band, border_top_left_radius=7, border_top_right_radius=7)
        draw_token(surface, card, pygame.Rect(x0, y, tok, tok), side=side, facing=facing,
                   label=False)
        cc = (x1 - cost_r, y + tok // 2)
        pygame.draw.circle(surface, (250, 246, 230), cc, cost_r)
        pygame.draw.circle(surface, theme.INK, cc, cost_r, 2)
        img = _f(24, True).render(str(card.cost), True, theme.INK)
        surface.blit(img, img.get_rect(center=cc))
    name_size = 24
    while _f(name_size, True).size(card.name)[0] > name_w and name_size > 15:
        name_size -= 1
    header_ink = (255, 255, 255) if sum(nation) < 420 else theme.INK
    if draw:
        nm = fit(card.name, _f(name_size, True), name_w)
        surface.blit(_f(name_size, True).render(nm, True, header_ink), (x0 + tok + 8, y + 2))
        sub = f"{card.nationality} · {theme.SIDE_LABEL.get(side, side)} · {card.year}"
        surface.blit(_f(16).render(fit(sub, _f(16), name_w), True, header_ink),
                     (x0 + tok + 8, y + 4 + _f(name_size, True).get_linesize()))
    y += tok + 12

    # --- type, speed, defense ---------------------------------------------------------------
    if draw:
        surface.blit(_f(17, True).render(card.type_line, True, theme.INK), (x0, y))
    y += 20
    boxes = [("SPEED", str(card.speed))]
    if card.is_vehicle:
        boxes.append(("DEFENSE front/rear", card.defense_text()))
    else:
        boxes.append(("DEFENSE", card.defense_text()))
    if card.commander_bonus is not None:
        boxes.append(("INITIATIVE", f"+{card.commander_bonus}"))
    bw = (width - 6 * (len(boxes) - 1)) // len(boxes)
    if draw:
        for i, (label, value) in enumerate(boxes):
            b = pygame.Rect(x0 + i * (bw + 6), y, bw, 40)
            pygame.draw.rect(surface, theme.PAPER_DARK, b, border_radius=4)
            lf = _f(12, True)
            surface.blit(lf.render(fit(label, lf, bw - 6), True, theme.INK_SOFT), (b.x + 4, b.y + 3))
            vi = _f(24, True).render(value, True, theme.INK)
            surface.blit(vi, vi.get_rect(midbottom=(b.centerx, b.bottom - 1)))
    y += 46

    # --- attack table ----------------------------------------------------------------------
    col0 = 70
    cw = (width - col0) // 3
    if draw:
        hf = _f(13, True)
        for i, (_, label, rng) in enumerate(BANDS):
            cx = x0 + col0 + i * cw + cw // 2
            t = hf.render(f"{label} {rng}", True, theme.INK_SOFT)
            surface.blit(t, t.get_rect(midtop=(cx, y)))
    y += 16
    for target in ("Soldier", "Vehicle"):
        if draw:
            row = pygame.Rect(x0, y, width, 24)
            pygame.draw.rect(surface, theme.PAPER_DARK if target == "Soldier" else (224, 214, 190),
                             row, border_radius=3)
            surface.blit(_f(15, True).render(f"vs {target}", True, theme.INK), (x0 + 4, y + 4))
            for i, (band, _, _) in enumerate(BANDS):
                v = card.dice(target, band)
                t = _f(20, True).render("–" if v is None else str(v), True,
                                        theme.INK if v is not None else theme.INK_SOFT)
                surface.blit(t, t.get_rect(center=(x0 + col0 + i * cw + cw // 2, y + 12)))
        y += 27
    y += 4

    # --- abilities, flavour, footer ---------------------------------------------------------
    foot_h = 18
    bottom = rect.bottom - pad - foot_h
    f_body = _f(body)
    f_name = _f(body + 1, True)
    f_flav = _f(body, italic=True)
    ok = True
    blocks: list[tuple[pygame.font.Font, str, tuple[int, int, int], int]] = []
    for a in card.abilities:
        title = a.name or a.id.replace("_", " ").title()
        blocks.append((f_name, title, theme.INK, 0))
        for line in wrap(plain_text(a.text), f_body, width - 8):
            blocks.append((f_body, line, theme.INK, 8))
    if card.notes and not card.abilities and not card.flavor:
        pass
    if card.flavor:
        blocks.append((f_body, "", theme.INK, 0))
        for line in wrap(f"“{card.flavor}”", f_flav, width):
            blocks.append((f_flav, line, theme.INK_SOFT, 0))
    if not card.abilities and not card.flavor:
        blocks.append((f_flav, "No special abilities.", theme.INK_SOFT, 0))
    for font, line, colour, indent in blocks:
        h = font.get_linesize()
        if y + h > bottom:
            ok = False
            if draw and cut:
                surface.blit(f_body.render("…", True, theme.INK), (x0, y - 4))
            break
        if draw:
            surface.blit(font.render(line, True, colour), (x0 + indent, y))
        y += h
    if draw and not ok and more:
        ff = _f(14, True)
        surface.blit(ff.render(fit(more, ff, width), True, theme.INK), (x0, rect.bottom - pad - 15))
    elif draw:
        foot = [card.set_name]
        if card.collector_number:
            foot.append(f"#{card.collector_number}")
        if card.rarity:
            foot.append(str(card.rarity))
        ff = _f(13)
        surface.blit(ff.render(fit("  ·  ".join(foot), ff, width), True, theme.INK_SOFT),
                     (x0, rect.bottom - pad - 14))
    return ok
