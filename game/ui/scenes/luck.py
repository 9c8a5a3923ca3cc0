"""The luck report screen (issue 17): expected against actual hits and
disruptions for each player, how unlikely the difference is, and a chart of
both by turn.  The numbers come from :mod:`game.analysis.luck` (the rules'
exact odds of every shot made); this module only draws them.

Opened from the victory screen (button "Luck report", key K) and during a
battle from the in-battle menu (Esc - "Luck report").  "Export PNG" (key E)
writes the same picture to ``<data dir>/luck/``.
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pygame

from game.analysis.luck import LuckReport, luck_report
from game.ui import theme
from game.ui.battle.panels import SIDE_COLOURS
from game.ui.widgets import GuiScene, draw_background, draw_panel, draw_text

__all__ = ["LuckScene", "draw_luck_chart", "draw_luck_report", "render_luck_png"]

SIDES = ("Axis", "Allies")


def _scale(report: LuckReport, what: str) -> float:
    top = 1.0
    for side in SIDES:
        for p in report.sides[side].series:
            top = max(top, getattr(p, "expected_" + what), getattr(p, what))
    return top


def draw_luck_chart(surface: pygame.Surface, rect: pygame.Rect, report: LuckReport,
                    what: str = "hits") -> None:
    """Cumulative expected (thin, dotted markers) and actual (thick) ``what``
    ("hits" or "results") of each side by turn, in the side colours."""
    draw_panel(surface, rect, theme.BG_DARK)
    title = "Hits by turn" if what == "hits" else "Disruptions or worse by turn"
    draw_text(surface, title + " (running totals)", (rect.x + 10, rect.y + 6), 17, theme.TEXT)
    plot = pygame.Rect(rect.x + 44, rect.y + 32, rect.w - 70, rect.h - 84)
    pygame.draw.line(surface, theme.PANEL_EDGE, plot.bottomleft, plot.bottomright)
    pygame.draw.line(surface, theme.PANEL_EDGE, plot.bottomleft, plot.topleft)
    turns = report.turns
    if not turns:
        draw_text(surface, "No shot fired yet.", plot.center, 17, theme.TEXT_DIM,
                  anchor="center")
        return
    top = _scale(report, what)
    step = max(1, int(top // 4) or 1)
    for v in range(0, int(top) + 1, step):
        y = plot.bottom - int(v / top * plot.h)
        pygame.draw.line(surface, (44, 48, 42), (plot.x + 1, y), (plot.right, y))
        draw_text(surface, str(v), (plot.x - 6, y), 14, theme.TEXT_DIM, anchor="midright")

    def xy(i: int, v: float) -> tuple[int, int]:
        x = plot.x + (plot.w * (i + 1)) // len(turns)
        return x, plot.bottom - int(v / top * plot.h)

    for i, t in enumerate(turns):
        x, _ = xy(i, 0)
        draw_text(surface, f"T{t}", (x, plot.bottom + 4), 14, theme.TEXT_DIM, anchor="midtop")
    for side in SIDES:
        col = SIDE_COLOURS[side]
        pts = report.sides[side].series
        exp = [xy(i, getattr(p, "expected_" + what)) for i, p in enumerate(pts)]
        act = [xy(i, getattr(p, what)) for i, p in enumerate(pts)]
        start = (plot.x, plot.bottom)
        pygame.draw.lines(surface, tuple(c // 2 + 40 for c in col), False, [start] + exp, 1)
        for p in exp:
            pygame.draw.circle(surface, col, p, 3, 1)
        pygame.draw.lines(surface, col, False, [start] + act, 3)
        for p in act:
            pygame.draw.circle(surface, col, p, 4)
    ly = rect.bottom - 22
    x = rect.x + 12
    for side in SIDES:
        col = SIDE_COLOURS[side]
        pygame.draw.line(surface, col, (x, ly + 8), (x + 22, ly + 8), 3)
        x = draw_text(surface, f"{theme.SIDE_LABEL[side]} actual", (x + 28, ly), 14,
                      theme.TEXT).right + 14
        pygame.draw.line(surface, tuple(c // 2 + 40 for c in col), (x, ly + 8), (x + 22, ly + 8))
        pygame.draw.circle(surface, col, (x + 11, ly + 8), 3, 1)
        x = draw_text(surface, "expected", (x + 28, ly), 14, theme.TEXT_DIM).right + 24


def draw_luck_report(surface: pygame.Surface, rect: pygame.Rect, report: LuckReport) -> None:
    """The whole report (title, verdict, both sides, two charts) inside ``rect``."""
    draw_text(surface, "Luck report", (rect.centerx, rect.y + 8), 44, theme.ACCENT,
              bold=True, anchor="midtop")
    draw_text(surface, report.verdict(), (rect.centerx, rect.y + 60), 21, theme.TEXT,
              anchor="midtop")
    draw_text(surface, "Expected = the exact odds of every attack and defensive shot made, "
                       "added up; the chance is that of dice at least this lucky (or unlucky).",
              (rect.centerx, rect.y + 88), 15, theme.TEXT_DIM, anchor="midtop")
    col_w = (rect.w - 30) // 2
    top = rect.y + 116
    box_h = 124
    for i, side in enumerate(SIDES):
        box = pygame.Rect(rect.x + i * (col_w + 30), top, col_w, box_h)
        draw_panel(surface, box)
        d = report.sides[side]
        draw_text(surface, f"{theme.SIDE_LABEL[side]} player", (box.x + 12, box.y + 8), 24,
                  SIDE_COLOURS[side], bold=True)
        y = box.y + 42
        for line in d.lines():
            y = draw_text(surface, line, (box.x + 12, y), 16, theme.TEXT,
                          width=box.w - 24).bottom + 6
    chart_top = top + box_h + 14
    ch = max(120, rect.bottom - chart_top)
    for i, what in enumerate(("hits", "results")):
        draw_luck_chart(surface, pygame.Rect(rect.x + i * (col_w + 30), chart_top, col_w, ch),
                        report, what)
    if report.unrated:
        draw_text(surface, f"{report.unrated} extra roll(s) from abilities are not counted.",
                  (rect.x, rect.bottom + 4), 14, theme.TEXT_DIM)


def render_luck_png(report: LuckReport, path: str | Path,
                    size: tuple[int, int] = (1280, 720)) -> Path:
    """Draw the report on its own picture and save it as PNG."""
    surf = pygame.Surface(size)
    surf.fill(theme.BG)
    draw_luck_report(surf, pygame.Rect(20, 10, size[0] - 40, size[1] - 40), report)
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(surf, str(p))
    return p


class LuckScene(GuiScene):
    """The report of ``game`` so far; "Back" returns to ``back`` (the victory
    screen or the battle)."""

    def __init__(self, app: Any, game: Any, back: Any = None) -> None:
        super().__init__(app)
        self.game = game
        self.back = back
        self.exported: Path | None = None
        self.report: LuckReport | None = None
        try:
            self.report = luck_report(game)
        except ValueError as exc:         # a position built by hand has no recorded start
            self.status = f"No luck report: {exc}."

    def build(self, size: tuple[int, int]) -> None:
        w, h = size
        bw = 200
        self.button("back", (w // 2 - bw - 10, h - 64, bw, 44), "Back", object_id="#primary")
        self.button("export", (w // 2 + 10, h - 64, bw, 44), "Export PNG",
                    tooltip="Save this report as a picture", enabled=self.report is not None)

    def on_button(self, key: str) -> None:
        if key == "back":
            self.next_scene = self.back or self.app.menu_scene()
        elif key == "export":
            self.export()

    def export(self, path: str | Path | None = None) -> Path | None:
        from game.saves.paths import data_dir
        if self.report is None:
            return None
        if path is None:
            path = data_dir() / "luck" / time.strftime("luck-%Y%m%d-%H%M%S.png")
        try:
            self.exported = render_luck_png(self.report, path)
            self.status = f"Saved {self.exported}"
        except (OSError, pygame.error) as exc:
            self.status = f"Could not save the picture: {exc}"
        return self.exported

    def on_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_ESCAPE, pygame.K_BACKSPACE, pygame.K_k):
                self.on_button("back")
            elif event.key == pygame.K_e:
                self.on_button("export")

    def draw(self, surface: pygame.Surface) -> None:
        draw_background(surface)
        w, h = surface.get_size()
        if self.report is not None:
            draw_luck_report(surface, pygame.Rect(30, 10, w - 60, h - 110), self.report)
        else:
            draw_text(surface, "Luck report", (w // 2, 18), 44, theme.ACCENT, bold=True,
                      anchor="midtop")
        if self.status:
            draw_text(surface, self.status, (w // 2, h - 96), 15, theme.GOOD, anchor="midtop")
