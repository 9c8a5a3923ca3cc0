"""Panels of the battle screen: buttons, the side panel, the odds box, tooltips.

Buttons here are drawn by the battle screen itself (not pygame_gui): the set
of buttons changes with every input mode, and drawing them ourselves keeps a
frame cheap.  Tests click ``scene.buttons[key].rect.center``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

import pygame

from game.rules.hexes import hex_label
from game.rules.queries import unit_speed
from game.rules.state import Phase
from game.ui import theme
from game.ui.cardview import draw_card
from game.ui.tokens import draw_counter, draw_unit
from game.ui.widgets import LogPanel, draw_panel, draw_text, fit, wrap

__all__ = ["Button", "CachedLog", "layout_buttons", "draw_buttons", "draw_side_header", "draw_unit_box", "unit_notes", "odds_box_height", "draw_odds_stack", "roster_layout",
           "draw_odds_box", "draw_tooltip", "odds_rows", "pct", "SIDE_COLOURS"]

SIDE_COLOURS = {"Axis": (200, 202, 208), "Allies": (130, 206, 120), None: theme.TEXT}


def pct(p: float) -> str:
    """A probability as a percentage that never shows 0% or 100% for a possible outcome."""
    if p <= 0:
        return "0%"
    if p >= 1:
        return "100%"
    v = p * 100
    if v < 1:
        return "<1%"
    if v > 99:
        return ">99%"
    return f"{v:.0f}%"


_LABELS: dict[tuple, pygame.Surface] = {}


class CachedLog(LogPanel):
    """The game log, wrapping each line once (not on every redraw).  Each line may
    carry the rules' event it tells (``refs``), so a click on it can open the recap of
    its phase; ``marked`` is the line drawn highlighted (under the mouse, or the oldest
    line in view while the log is scrolled back)."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self._wrap_cache: dict[tuple[str, int], list[str]] = {}
        self.refs: list[Any] = []          # per line: the event it tells, or None (a note)
        self.marked: int | None = None

    def add(self, text: str, colour: tuple[int, int, int] = theme.TEXT,
            ref: Any = None) -> None:
        self.lines.append((text, colour))
        self.refs.append(ref)
        del self.lines[:-self.limit]
        del self.refs[:-self.limit]
        self.scroll = 0

    def _rows(self) -> list[tuple[str, tuple[int, int, int], int]]:
        """Every wrapped row: (text, colour, index of its line)."""
        f = theme.font(self.size)
        width = self.rect.w - 24
        out: list[tuple[str, tuple[int, int, int], int]] = []
        if len(self._wrap_cache) > 2000:
            self._wrap_cache.clear()
        for n, (text, colour) in enumerate(self.lines):
            key = (text, width)
            lines = self._wrap_cache.get(key)
            if lines is None:
                lines = self._wrap_cache[key] = wrap(text, f, width)
            for i, line in enumerate(lines):
                out.append(((" " * 3 if i else "") + line, colour, n))
        return out

    def _wrapped(self) -> list[tuple[str, tuple[int, int, int]]]:
        return [(t, c) for t, c, _ in self._rows()]

    def _shown(self) -> tuple[list[tuple[str, tuple[int, int, int], int]], int, int]:
        """(the rows in view, the first row's y, the line height)."""
        lh = theme.font(self.size).get_linesize()
        rows = max(1, (self.rect.h - 8) // lh)
        every = self._rows()
        self.scroll = min(self.scroll, max(0, len(every) - rows))
        end = len(every) - self.scroll
        shown = every[max(0, end - rows):end]
        return shown, self.rect.bottom - 4 - lh * len(shown), lh

    def line_at(self, pos: tuple[int, int]) -> int | None:
        """The log line (index into ``lines``) drawn at ``pos`` (the log's coordinates)."""
        if not self.rect.collidepoint(pos):
            return None
        shown, y0, lh = self._shown()
        row = (pos[1] - y0) // lh
        return shown[row][2] if 0 <= row < len(shown) else None

    def first_told_in_view(self) -> int | None:
        """The oldest line in view that tells an event (the one Enter opens while the
        log is scrolled back)."""
        shown, _, _ = self._shown()
        return next((n for _, _, n in shown if self.refs[n] is not None), None)

    def draw(self, surface: pygame.Surface) -> None:
        draw_panel(surface, self.rect, theme.BG_DARK)
        f = theme.font(self.size)
        shown, y, lh = self._shown()
        clip = surface.get_clip()
        surface.set_clip(self.rect.inflate(-4, -4))
        for text, colour, n in shown:
            if n == self.marked:
                pygame.draw.rect(surface, (58, 62, 50), (self.rect.x + 4, y, self.rect.w - 8, lh))
            surface.blit(f.render(text, True, colour), (self.rect.x + 8, y))
            y += lh
        surface.set_clip(clip)
        if self.scroll:
            draw_text(surface, f"^ {self.scroll} more", (self.rect.right - 8, self.rect.y + 4),
                      14, theme.TEXT_DIM, anchor="topright")


@dataclass
class Button:
    key: str
    text: str
    rect: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 0, 0))
    enabled: bool = True
    primary: bool = False
    hotkey: str = ""            # shown on the button ("E", "Enter")
    tip: str = ""               # shown while the mouse is over it (why it is disabled...)

    def draw(self, surface: pygame.Surface, hover: bool) -> None:
        if not self.enabled:
            bg, edge, fg = (52, 54, 50), (70, 72, 66), (120, 122, 112)
        elif self.primary:
            bg = (146, 122, 56) if hover else (110, 92, 40)
            edge, fg = theme.ACCENT, (255, 255, 255)
        else:
            bg = (94, 104, 82) if hover else (70, 78, 64)
            edge, fg = (theme.ACCENT if hover else theme.PANEL_EDGE), theme.TEXT
        pygame.draw.rect(surface, bg, self.rect, border_radius=5)
        pygame.draw.rect(surface, edge, self.rect, 1, border_radius=5)
        key = (self.text, self.hotkey, self.rect.w, fg, self.primary)
        img = _LABELS.get(key)
        if img is None:
            f = theme.font(18, bold=self.primary)
            label = self.text + (f"  [{self.hotkey}]" if self.hotkey else "")
            img = f.render(fit(label, f, self.rect.w - 10), True, fg)
            if len(_LABELS) > 300:
                _LABELS.clear()
            _LABELS[key] = img
        surface.blit(img, img.get_rect(center=self.rect.center))


def layout_buttons(buttons: Sequence[Button], area: pygame.Rect, height: int = 34,
                   gap: int = 8, align: str = "center") -> None:
    """Place buttons in one row inside ``area`` (each as wide as its text needs)."""
    f = theme.font(18, bold=True)
    widths = [min(area.w, max(90, f.size(b.text + (f"  [{b.hotkey}]" if b.hotkey else ""))[0] + 26))
              for b in buttons]
    total = sum(widths) + gap * (len(widths) - 1)
    if total > area.w and buttons:
        scale = (area.w - gap * (len(widths) - 1)) / sum(widths)
        widths = [max(40, int(w * scale)) for w in widths]
        total = sum(widths) + gap * (len(widths) - 1)
    x = area.x if align == "left" else area.right - total if align == "right" else \
        area.centerx - total // 2
    y = area.centery - height // 2
    for b, w in zip(buttons, widths):
        b.rect = pygame.Rect(x, y, w, height)
        x += w + gap


def draw_buttons(surface: pygame.Surface, buttons: Sequence[Button], mouse: tuple[int, int]) -> None:
    for b in buttons:
        b.draw(surface, b.enabled and b.rect.collidepoint(mouse))


# --- side panel pieces ------------------------------------------------------------------
def draw_side_header(surface: pygame.Surface, rect: pygame.Rect, state: Any) -> int:
    """Turn, phase, first/second player, initiative rolls, who acts; returns the bottom y."""
    x, y, w = rect.x + 12, rect.y + 8, rect.w - 24
    st = state
    turn = f"Turn {st.turn}" if st.turn else "Setup"
    if st.scenario == "assault":
        turn += f"  -  Assault ({st.attacker} attacks)"
    draw_text(surface, turn, (x, y), 26, theme.ACCENT, bold=True)
    y += 26
    title = st.phase.title
    if st.phase.is_movement or st.phase.is_assault or st.phase.is_deploy or \
            st.phase.is_flight or st.phase.is_airstrike:
        who = st.active_side
        if who:
            title = title.replace("First player's", f"{theme.SIDE_LABEL[who]}").replace(
                "Second player's", f"{theme.SIDE_LABEL[who]}")
    draw_text(surface, fit(title, theme.font(20, True), w), (x, y), 20, theme.TEXT, bold=True)
    y += 22
    if st.first_player:
        draw_text(surface, f"First: {st.first_player}   Second: {st.second_player}", (x, y), 17,
                  theme.TEXT_DIM)
        y += 18
    if st.initiative_rolls:
        parts = []
        for side in ("Axis", "Allies"):
            r = st.initiative_rolls.get(side)
            if r:
                d1, d2, b = r
                parts.append(f"{side} {d1}+{d2}" + (f"+{b}" if b else "") + f"={d1 + d2 + b}")
        draw_text(surface, fit("Initiative: " + ", ".join(parts), theme.font(17), w), (x, y), 17,
                  theme.TEXT_DIM)
        y += 18
    to_act = st.to_act
    if st.phase == Phase.GAME_OVER:
        line, col = "Game over", theme.ACCENT
    elif to_act:
        line, col = f"{theme.SIDE_LABEL[to_act]} player to act", SIDE_COLOURS[to_act]
    else:
        line, col = "", theme.TEXT
    if line:
        draw_text(surface, line, (x, y), 18, col, bold=True)
        y += 20
    return y + 4


MORE_TIP = "more: right-click or hold the unit for its whole card"


def unit_notes(unit: Any, state: Any) -> list[str]:
    """The words under the selected unit's card: where it is, what it carries, what it
    has done, and a Vehicle's speed in the phase under way (the rules' own answer:
    a Vanguard tank moves 4 before turn 1, a damaged one 1 less...)."""
    notes = []
    if unit.destroyed:
        notes.append("destroyed")
    else:
        if unit.hex is not None:
            notes.append(hex_label(unit.hex))
        if unit.carrier:
            c = state.units.get(unit.carrier)
            notes.append(f"aboard {c.name}" if c else "aboard a transport")
        if unit.acted:
            notes.append("has acted")
        if unit.fired_defensively:
            notes.append("fired defensively")
        if unit.is_vehicle:
            notes.append(f"speed {unit_speed(state, unit.uid)}")
        if unit.card.has("improvisation"):          # ruling 28: the values it picked up
            from game.rules.abilities.roster_final import picked_up
            caps = picked_up(state, unit)
            if caps:
                notes.append("improvising with the attack values of "
                             + ", ".join(c.name for c in caps))
    return notes


def draw_unit_box(surface: pygame.Surface, rect: pygame.Rect, unit: Any, state: Any) -> None:
    """The selected unit: its stat card and, under it, its counters and state."""
    card_h = rect.h - 46
    if card_h >= 150:
        # a short side panel cuts the card: its footer says where the whole card is
        draw_card(surface, unit.card, pygame.Rect(rect.x, rect.y, rect.w, card_h),
                  facing=unit.facing if unit.is_vehicle else 0, more=MORE_TIP)
    y = rect.y + max(0, card_h) + 6
    x = rect.x + 4
    notes = unit_notes(unit, state)
    shown = ([("damaged", "Damaged")] if unit.damaged else []) + \
            ([("disrupted", "Disrupted")] if unit.disrupted else []) + \
            [("pending", "face-down") for _ in unit.pending]
    for counter, _ in shown[:4]:
        w = 26 if counter == "damaged" else 18
        draw_counter(surface, counter, pygame.Rect(x, y, w, 18))
        x += w + 4
    desc = ", ".join(notes)
    if shown:
        kinds = []
        if unit.damaged:
            kinds.append("Damaged")
        if unit.disrupted:
            kinds.append("Disrupted")
        if unit.pending:
            kinds.append(f"{len(unit.pending)} face-down")
        desc = " / ".join(kinds) + ("  -  " + desc if desc else "")
    lines = wrap(desc, theme.font(16), rect.right - x - 4)
    for i, line in enumerate(lines[:2]):
        draw_text(surface, line, (x + 2, y + 1 + i * 17), 16, theme.TEXT)


def odds_rows(odds: Any, defensive: bool = False) -> list[tuple[str, float, tuple[int, int, int]]]:
    if defensive:
        return [("Stopped (disrupted)", odds.p_stopped, theme.COUNTER_COLOURS["disrupted"]),
                ("No effect", 1.0 - odds.p_stopped, (150, 160, 150))]
    return [("No effect", odds.p_none, (150, 160, 150)),
            ("Disrupted", odds.p_disrupted, theme.COUNTER_COLOURS["disrupted"]),
            ("Damaged", odds.p_damaged, theme.COUNTER_COLOURS["damaged"]),
            ("Destroyed", odds.p_destroyed, theme.COUNTER_COLOURS["destroyed"])]


def odds_summary(odds: Any) -> str:
    parts = [f"{odds.dice} dice", f"success on {odds.need}+" if odds.need <= 6 else "no success possible",
             f"defense {odds.defense}" + ("" if odds.front is None else
                                           (" (front)" if odds.front else " (rear)"))]
    if odds.band:
        parts.append(f"{odds.band} range ({odds.distance})")
    parts.append(f"cover {odds.cover_need}+" if odds.cover_need else "no cover")
    return ", ".join(parts)


ODDS_BOX_W = 330


def odds_box_height(odds: Any, *, defensive: bool = False, note: str = "") -> int:
    """How tall :func:`draw_odds_box` draws the box for ``odds`` (to stack several)."""
    w = ODDS_BOX_W
    summary = wrap(odds_summary(odds), theme.font(16), w - 20)
    extra = wrap(note, theme.font(16), w - 20) if note else []
    return 30 + 17 * len(summary) + 22 * len(odds_rows(odds, defensive)) + 17 * len(extra) + 10


def draw_odds_stack(surface: pygame.Surface, mouse: tuple[int, int],
                    boxes: Sequence[tuple[str, Any]], bounds: pygame.Rect,
                    note: str = "") -> list[pygame.Rect]:
    """One odds box per (title, odds), stacked 6 pixels apart as a whole below the
    pointer, or above it when the stack doesn't fit there, so that none covers another
    (a target attacked in several ways: a normal attack, Hand to Hand, HE Round...).
    ``note`` (the rules' words on the attack, e.g. why it needs no sight of its own)
    closes each box."""
    heights = [odds_box_height(o, note=note) for _, o in boxes]
    total = sum(heights) + 6 * max(0, len(heights) - 1)
    x, y = mouse
    if y + 18 + total > bounds.bottom:
        y = max(bounds.top - 18, y - 36 - total)
    drawn = []
    for title, odds in boxes:
        box = draw_odds_box(surface, (x, y), title, odds, bounds=bounds, note=note)
        drawn.append(box)
        y = box.bottom + 6 - 18          # draw_odds_box puts a box 18 pixels below its pos
    return drawn


def draw_odds_box(surface: pygame.Surface, pos: tuple[int, int], title: str, odds: Any, *,
                  defensive: bool = False, bounds: pygame.Rect | None = None,
                  note: str = "") -> pygame.Rect:
    """The exact odds of an attack as bars, near ``pos`` and inside ``bounds``."""
    w = ODDS_BOX_W
    rows = odds_rows(odds, defensive)
    summary = wrap(odds_summary(odds), theme.font(16), w - 20)
    extra = wrap(note, theme.font(16), w - 20) if note else []
    h = odds_box_height(odds, defensive=defensive, note=note)
    box = pygame.Rect(pos[0] + 18, pos[1] + 18, w, h)
    if bounds is not None:
        if box.right > bounds.right:
            box.right = pos[0] - 18
        if box.bottom > bounds.bottom:
            box.bottom = pos[1] - 18
        box.clamp_ip(bounds)
    shade = pygame.Surface(box.size, pygame.SRCALPHA)
    shade.fill((20, 22, 20, 228))
    surface.blit(shade, box.topleft)
    pygame.draw.rect(surface, theme.ACCENT, box, 1, border_radius=4)
    x, y = box.x + 10, box.y + 6
    draw_text(surface, fit(title, theme.font(18, True), w - 20), (x, y), 18, theme.ACCENT, bold=True)
    y += 21
    for line in summary:
        draw_text(surface, line, (x, y), 16, theme.TEXT_DIM)
        y += 17
    bar_x, bar_w = x + 150, w - 170 - 40
    for label, p, col in rows:
        draw_text(surface, label, (x, y + 2), 17, theme.TEXT)
        pygame.draw.rect(surface, (50, 52, 48), (bar_x, y + 3, bar_w, 14))
        pygame.draw.rect(surface, col, (bar_x, y + 3, int(bar_w * max(0.0, min(1.0, p))), 14))
        draw_text(surface, pct(p), (box.right - 10, y + 2), 17, theme.TEXT, anchor="topright")
        y += 22
    for line in extra:
        draw_text(surface, line, (x, y), 16, theme.WARN)
        y += 17
    return box


_TIPS: dict[tuple, pygame.Surface] = {}


def draw_tooltip(surface: pygame.Surface, pos: tuple[int, int], lines: Sequence[str],
                 bounds: pygame.Rect, colour=theme.TEXT, width: int = 340) -> pygame.Rect:
    """A small dark box of text near ``pos`` (rendered once per text, then blitted)."""
    key = (tuple(lines), colour, width)
    img = _TIPS.get(key)
    if img is None:
        img = _tooltip_image(lines, colour, width)
        if len(_TIPS) > 200:
            _TIPS.clear()
        _TIPS[key] = img
    if img is None:
        return pygame.Rect(pos, (0, 0))
    box = img.get_rect(topleft=(pos[0] + 16, pos[1] + 16))
    if box.right > bounds.right:
        box.right = pos[0] - 12
    if box.bottom > bounds.bottom:
        box.bottom = pos[1] - 12
    box.clamp_ip(bounds)
    surface.blit(img, box.topleft)
    return box


def _tooltip_image(lines: Sequence[str], colour, width: int) -> pygame.Surface | None:
    f = theme.font(17)
    wrapped: list[str] = []
    for line in lines:
        wrapped.extend(wrap(line, f, width - 16))
    if not wrapped:
        return None
    w = min(width, max(f.size(t)[0] for t in wrapped) + 16)
    h = len(wrapped) * 18 + 10
    img = pygame.Surface((w, h), pygame.SRCALPHA)
    img.fill((18, 20, 18, 225))
    pygame.draw.rect(img, theme.PANEL_EDGE, img.get_rect(), 1, border_radius=4)
    y = 5
    for t in wrapped:
        img.blit(f.render(t, True, colour), (8, y))
        y += 18
    return img


def roster_layout(rect: pygame.Rect, units: Sequence[Any],
                  title: str = "") -> dict[str, tuple[pygame.Rect, pygame.Rect]]:
    """Where the deployment tray puts each unit still to place: uid -> (token rect,
    clickable rect).  Geometry only (the tray's clicks and its drawing share it)."""
    out: dict[str, tuple[pygame.Rect, pygame.Rect]] = {}
    x0, y = rect.x + 8, rect.y + 6
    if title:
        y += 22
    cols = 4
    cell_w = (rect.w - 16) // cols
    rows = max(1, (len(units) + cols - 1) // cols)
    cell_h = max(44, min(84, (rect.bottom - y - 4) // rows))
    size = max(26, min(54, cell_h - 22, cell_w - 12))
    for i, u in enumerate(units):
        row, col = divmod(i, cols)
        cx = x0 + col * cell_w + cell_w // 2
        top = y + row * cell_h
        if top + size > rect.bottom:
            break
        r = pygame.Rect(cx - size // 2, top, size, size)
        out[u.uid] = (r, r.inflate(8, 18).move(0, 7))
    return out


def draw_roster(surface: pygame.Surface, rect: pygame.Rect, units: Sequence[Any],
                selected: str | None, title: str = "") -> dict[str, pygame.Rect]:
    """The deployment tray: every unit still to place as a token with its name,
    in a grid that fits ``rect`` (:func:`roster_layout`).  Returns each unit's
    clickable rect."""
    draw_panel(surface, rect, theme.BG_DARK)
    if title:
        draw_text(surface, fit(title, theme.font(17, True), rect.w - 16), (rect.x + 8, rect.y + 6),
                  17, theme.ACCENT, bold=True)
    cell_w = (rect.w - 16) // 4
    f = theme.font(14)
    out: dict[str, pygame.Rect] = {}
    by_uid = {u.uid: u for u in units}
    for uid, (r, hit) in roster_layout(rect, units, title).items():
        u = by_uid[uid]
        draw_unit(surface, u, r, selected=uid == selected, label=False)
        img = f.render(fit(u.name, f, cell_w - 4), True,
                       theme.ACCENT if uid == selected else theme.TEXT)
        surface.blit(img, img.get_rect(midtop=(r.centerx, r.bottom + 3)))
        out[uid] = hit
    return out
