"""Shared pieces of the screens: a scene base class that builds pygame_gui
widgets (and rebuilds them when the window changes size), text helpers, the
dice tray and the log panel.
"""
from __future__ import annotations

import math
import random
from typing import Any, Callable, Sequence

import pygame
import pygame_gui

from game.ui import theme
from game.ui.scene import Scene

__all__ = ["GuiScene", "wrap", "draw_text", "draw_panel", "DiceTray", "LogPanel",
           "draw_die", "draw_background"]


# --- text ------------------------------------------------------------------------------
def wrap(text: str, font: pygame.font.Font, width: int) -> list[str]:
    """Split ``text`` into lines that fit ``width`` pixels (words never cut unless
    a single word is wider than the line)."""
    lines: list[str] = []
    for para in str(text).split("\n"):
        words = para.split()
        if not words:
            lines.append("")
            continue
        line = ""
        for w in words:
            trial = f"{line} {w}" if line else w
            if font.size(trial)[0] <= width:
                line = trial
                continue
            if line:
                lines.append(line)
            while font.size(w)[0] > width and len(w) > 1:
                cut = len(w)
                while cut > 1 and font.size(w[:cut])[0] > width:
                    cut -= 1
                lines.append(w[:cut])
                w = w[cut:]
            line = w
        lines.append(line)
    return lines


def fit(text: str, font: pygame.font.Font, width: int) -> str:
    """``text`` shortened with an ellipsis to fit ``width`` pixels."""
    if font.size(text)[0] <= width:
        return text
    while text and font.size(text + "…")[0] > width:
        text = text[:-1]
    return text.rstrip() + "…"


def draw_text(surface: pygame.Surface, text: str, pos: tuple[int, int], size: int = 18,
              colour: tuple[int, int, int] = theme.TEXT, *, bold: bool = False,
              italic: bool = False, anchor: str = "topleft", width: int | None = None,
              line_gap: int = 2) -> pygame.Rect:
    """Draw text (wrapped to ``width`` when given); returns the rect it covered."""
    f = theme.font(size, bold, italic)
    lines = wrap(text, f, width) if width else [text]
    x, y = pos
    covered = pygame.Rect(x, y, 0, 0)
    for i, line in enumerate(lines):
        img = f.render(line, True, colour)
        r = img.get_rect(**{anchor: (x, y)})
        surface.blit(img, r)
        covered = r if i == 0 else covered.union(r)
        y += f.get_linesize() + line_gap
    return covered


def draw_panel(surface: pygame.Surface, rect: pygame.Rect, colour=theme.PANEL,
               edge=theme.PANEL_EDGE, radius: int = 8) -> None:
    pygame.draw.rect(surface, colour, rect, border_radius=radius)
    pygame.draw.rect(surface, edge, rect, 1, border_radius=radius)


_BG_CACHE: dict[tuple[int, int], pygame.Surface] = {}


def draw_background(surface: pygame.Surface) -> None:
    """The table: dark green-grey with a faint hex pattern (cached per size)."""
    size = surface.get_size()
    bg = _BG_CACHE.get(size)
    if bg is None:
        bg = pygame.Surface(size)
        bg.fill(theme.BG)
        r = 36
        w, h = math.sqrt(3) * r, 1.5 * r
        line = (44, 49, 43)
        for row in range(int(size[1] / h) + 2):
            for col in range(int(size[0] / w) + 2):
                cx = col * w + (w / 2 if row % 2 else 0)
                cy = row * h
                pts = [(cx + r * math.cos(math.radians(60 * i - 30)),
                        cy + r * math.sin(math.radians(60 * i - 30))) for i in range(6)]
                pygame.draw.polygon(bg, line, pts, 1)
        if len(_BG_CACHE) > 4:
            _BG_CACHE.clear()
        _BG_CACHE[size] = bg
    surface.blit(bg, (0, 0))


# --- scene with pygame_gui widgets ----------------------------------------------------------
class GuiScene(Scene):
    """A scene whose widgets are made in ``build(size)``; they are rebuilt from
    scratch when the window changes size.  Buttons are named: ``self.buttons[key]``
    (tests click ``self.buttons[key].rect.center``) and a press calls
    ``self.on_button(key)``."""

    title = ""

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.buttons: dict[str, pygame_gui.elements.UIButton] = {}
        self._keys: dict[Any, str] = {}
        self.status = ""                 # one line shown at the bottom by some scenes

    def enter(self) -> None:
        self.rebuild()

    def resize(self, size: tuple[int, int]) -> None:
        self.rebuild()

    def rebuild(self) -> None:
        self.app.ui.clear_and_reset()
        self.buttons.clear()
        self._keys.clear()
        self.build(self.app.size)

    def build(self, size: tuple[int, int]) -> None:
        """Create the widgets for a window of ``size``."""

    def button(self, key: str, rect: pygame.Rect | tuple, text: str, *,
               object_id: str | None = None, tooltip: str | None = None,
               container: Any = None, enabled: bool = True) -> pygame_gui.elements.UIButton:
        kw: dict[str, Any] = {}
        if object_id:
            kw["object_id"] = pygame_gui.core.ObjectID(object_id=object_id)
        if tooltip:
            kw["tool_tip_text"] = tooltip
        if container is not None:
            kw["container"] = container
        b = pygame_gui.elements.UIButton(pygame.Rect(rect), text, self.app.ui, **kw)
        if not enabled:
            b.disable()
        self.buttons[key] = b
        self._keys[b] = key
        return b

    def label(self, rect: pygame.Rect | tuple, text: str, object_id: str | None = None,
              container: Any = None) -> pygame_gui.elements.UILabel:
        kw: dict[str, Any] = {}
        if object_id:
            kw["object_id"] = pygame_gui.core.ObjectID(object_id=object_id)
        if container is not None:
            kw["container"] = container
        return pygame_gui.elements.UILabel(pygame.Rect(rect), text, self.app.ui, **kw)

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element in self._keys:
            self.app.play("click")
            self.on_button(self._keys[event.ui_element])
            return
        self.on_event(event)

    def on_button(self, key: str) -> None:
        """A named button was pressed."""

    def on_event(self, event: pygame.event.Event) -> None:
        """Any other event (keys, mouse, pygame_gui lists and menus)."""

    def draw(self, surface: pygame.Surface) -> None:
        draw_background(surface)


# --- dice ------------------------------------------------------------------------------------
_PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
         4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
         5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
         6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}


def draw_die(surface: pygame.Surface, rect: pygame.Rect, value: int,
             state: str = "plain") -> None:
    """A white d6 face. ``state``: "hit" (success, brass ring), "miss" (dimmed), "plain"."""
    face = {"hit": (250, 248, 240), "miss": (150, 148, 140), "plain": (240, 238, 230)}[state]
    pip = {"hit": (20, 20, 20), "miss": (86, 84, 80), "plain": (28, 28, 28)}[state]
    pygame.draw.rect(surface, face, rect, border_radius=max(2, rect.w // 6))
    edge = theme.ACCENT if state == "hit" else (60, 60, 58)
    pygame.draw.rect(surface, edge, rect, 3 if state == "hit" else 1,
                     border_radius=max(2, rect.w // 6))
    step = rect.w * 0.26
    rad = max(1, int(rect.w * 0.09))
    for dx, dy in _PIPS.get(value, []):
        pygame.draw.circle(surface, pip, (rect.centerx + dx * step, rect.centery + dy * step), rad)


class DiceTray:
    """Shows every die of the last roll; successes (>= need) ringed, failures dimmed.

    ``roll(dice, need, label)`` starts a short tumble (its length scaled by the
    animation setting; 0 = no tumble), ``skip()`` ends it at once."""

    def __init__(self, rect: pygame.Rect, die_size: int = 26,
                 speed_factor: Callable[[], float] = lambda: 1.0) -> None:
        self.rect = pygame.Rect(rect)
        self.die_size = die_size
        self.speed_factor = speed_factor
        self.dice: list[int] = []
        self.need: int | None = None
        self.label = ""
        self.tumble = 0.0
        self._rng = random.Random(1)

    def roll(self, dice: Sequence[int], need: int | None = None, label: str = "") -> None:
        self.dice = list(dice)
        self.need = need
        self.label = label
        self.tumble = 0.4 * self.speed_factor()

    def skip(self) -> None:
        self.tumble = 0.0

    @property
    def rolling(self) -> bool:
        return self.tumble > 0

    @property
    def successes(self) -> int:
        return 0 if self.need is None else sum(1 for d in self.dice if d >= self.need)

    def update(self, dt: float) -> None:
        self.tumble = max(0.0, self.tumble - dt)

    def headline(self) -> str:
        """The tray's title: who rolled, and once the dice stop, the successes."""
        head = self.label or "Dice"
        if self.need is not None and self.dice and not self.rolling:
            n = self.successes
            head += (f"  -  {n} success{'es' if n != 1 else ''} of {len(self.dice)} "
                     f"(success on {self.need}+)")
        return head

    def draw(self, surface: pygame.Surface) -> None:
        draw_panel(surface, self.rect, theme.BG_DARK)
        x, y = self.rect.x + 8, self.rect.y + 6
        head = self.headline()
        draw_text(surface, fit(head, theme.font(16), self.rect.w - 16), (x, y), 16, theme.TEXT_DIM)
        y += 20
        s, gap = self.die_size, 5
        per_row = max(1, (self.rect.w - 16 + gap) // (s + gap))
        for i, d in enumerate(self.dice):
            row, col = divmod(i, per_row)
            r = pygame.Rect(x + col * (s + gap), y + row * (s + gap), s, s)
            if r.bottom > self.rect.bottom - 2:
                draw_text(surface, f"+{len(self.dice) - i}", (r.x, r.y), 16, theme.TEXT_DIM)
                break
            if self.rolling:
                draw_die(surface, r, self._rng.randint(1, 6), "plain")
            else:
                state = "plain" if self.need is None else ("hit" if d >= self.need else "miss")
                draw_die(surface, r, d, state)


class LogPanel:
    """The game log: newest line at the bottom, wheel to scroll back."""

    def __init__(self, rect: pygame.Rect, size: int = 16, limit: int = 500) -> None:
        self.rect = pygame.Rect(rect)
        self.size = size
        self.limit = limit
        self.lines: list[tuple[str, tuple[int, int, int]]] = []
        self.scroll = 0                     # wrapped lines scrolled up from the bottom

    def add(self, text: str, colour: tuple[int, int, int] = theme.TEXT) -> None:
        self.lines.append((text, colour))
        del self.lines[:-self.limit]
        self.scroll = 0

    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.MOUSEWHEEL and self.rect.collidepoint(pygame.mouse.get_pos()):
            self.scroll = max(0, self.scroll + event.y * 2)
            return True
        return False

    def _wrapped(self) -> list[tuple[str, tuple[int, int, int]]]:
        f = theme.font(self.size)
        out: list[tuple[str, tuple[int, int, int]]] = []
        for text, colour in self.lines:
            for i, line in enumerate(wrap(text, f, self.rect.w - 24)):
                out.append(((" " * 3 if i else "") + line, colour))
        return out

    def draw(self, surface: pygame.Surface) -> None:
        draw_panel(surface, self.rect, theme.BG_DARK)
        f = theme.font(self.size)
        lh = f.get_linesize()
        rows = max(1, (self.rect.h - 8) // lh)
        lines = self._wrapped()
        self.scroll = min(self.scroll, max(0, len(lines) - rows))
        end = len(lines) - self.scroll
        shown = lines[max(0, end - rows):end]
        y = self.rect.bottom - 4 - lh * len(shown)
        clip = surface.get_clip()
        surface.set_clip(self.rect.inflate(-4, -4))
        for text, colour in shown:
            surface.blit(f.render(text, True, colour), (self.rect.x + 8, y))
            y += lh
        surface.set_clip(clip)
        if self.scroll:
            draw_text(surface, f"^ {self.scroll} more", (self.rect.right - 8, self.rect.y + 4),
                      14, theme.TEXT_DIM, anchor="topright")
