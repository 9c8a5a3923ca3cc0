"""The rules help screen (issue 17): F1 in the battle, or the in-battle menu's Rules.

Left: the contents, chapter by chapter like the rulebook (or the matches of the
search); right: the open section, with its chart when it has one.  Typing
searches (Backspace deletes, Enter opens the first match, Up/Down move through
the list); Esc or F1 goes back.  ``topic`` opens one section directly (the
"Why?" of a refusal); ``only`` limits the list to some sections (a unit's
ability texts).
"""
from __future__ import annotations

from typing import Any

import pygame

from game.ui import theme
from game.ui.help.rules_text import Section, search, section, sections
from game.ui.widgets import GuiScene, draw_background, draw_panel, draw_text, fit, wrap

__all__ = ["RulesHelpScene"]

ROW_H = 24


class RulesHelpScene(GuiScene):
    def __init__(self, app: Any, back: Any = None, topic: str | None = None,
                 only: list[str] | None = None, title: str = "", edition: str = "first") -> None:
        super().__init__(app)
        self.back = back
        self.edition = edition              # "later": its own chapters come first
        self.query = ""
        self.only = list(only) if only else None
        self.list_title = title
        self.scroll = 0                   # first list row shown
        self.text_scroll = 0
        self._rows: list[tuple[pygame.Rect, str]] = []
        first = self.results()
        self.current: Section = (section(topic) if topic else None) or (
            first[0] if first else sections(edition)[0])

    # --- what is listed ---------------------------------------------------------------------
    def results(self) -> list[Section]:
        found = search(self.query, self.edition)
        if self.only is not None:
            keep = set(self.only)
            found = [s for s in found if s.id in keep]
        return found

    def open(self, sid: str) -> None:
        s = section(sid)
        if s is not None:
            self.current = s
            self.text_scroll = 0

    # --- widgets and input ------------------------------------------------------------------
    def build(self, size: tuple[int, int]) -> None:
        w, h = size
        self.button("back", (w - 190, h - 60, 160, 42), "Back", object_id="#primary",
                    tooltip="Back to the battle (Esc or F1)")
        if self.only is not None:
            self.button("all", (w - 360, h - 60, 160, 42), "All rules",
                        tooltip="Show every rule, not only this unit's abilities")

    def on_button(self, key: str) -> None:
        if key == "back":
            self.next_scene = self.back or self.app.menu_scene()
        elif key == "all":
            self.only = None
            self.list_title = ""
            self.scroll = 0

    def _move(self, step: int) -> None:
        found = self.results()
        if not found:
            return
        ids = [s.id for s in found]
        i = ids.index(self.current.id) if self.current.id in ids else -1
        self.open(ids[max(0, min(len(ids) - 1, i + step))])

    def on_event(self, event: pygame.event.Event) -> None:
        t = event.type
        if t == pygame.TEXTINPUT:
            self.query += event.text
            self.scroll = 0
            found = self.results()
            if found:
                self.open(found[0].id)
        elif t == pygame.KEYDOWN:
            k = event.key
            if k in (pygame.K_ESCAPE, pygame.K_F1):
                self.on_button("back")
            elif k == pygame.K_BACKSPACE:
                self.query = self.query[:-1]
                self.scroll = 0
            elif k in (pygame.K_RETURN, pygame.K_KP_ENTER):
                found = self.results()
                if found:
                    self.open(found[0].id)
            elif k == pygame.K_DOWN:
                self._move(1)
            elif k == pygame.K_UP:
                self._move(-1)
            elif k == pygame.K_PAGEDOWN:
                self.text_scroll += 10
            elif k == pygame.K_PAGEUP:
                self.text_scroll = max(0, self.text_scroll - 10)
        elif t == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for rect, sid in self._rows:
                if rect.collidepoint(event.pos):
                    self.open(sid)
                    return
        elif t == pygame.MOUSEWHEEL:
            pos = pygame.mouse.get_pos()
            if pos[0] < self._list_rect().right:
                self.scroll = max(0, self.scroll - event.y * 3)
            else:
                self.text_scroll = max(0, self.text_scroll - event.y * 3)

    # --- drawing ----------------------------------------------------------------------------
    def _list_rect(self) -> pygame.Rect:
        w, h = self.app.size
        return pygame.Rect(20, 96, min(360, w // 3), h - 176)

    def draw(self, surface: pygame.Surface) -> None:
        draw_background(surface)
        w, h = surface.get_size()
        draw_text(surface, "Rules", (20, 12), 40, theme.ACCENT, bold=True)
        draw_text(surface, "Axis & Allies Miniatures, later edition (and the first edition's "
                           "rules it keeps) - in Hexfront's words" if self.edition == "later"
                  else "Axis & Allies Miniatures, first edition - in Hexfront's words",
                  (150, 28), 18, theme.TEXT_DIM)
        box = pygame.Rect(20, 58, min(360, w // 3), 32)
        pygame.draw.rect(surface, theme.BG_DARK, box, border_radius=6)
        pygame.draw.rect(surface, theme.ACCENT if self.query else theme.PANEL_EDGE, box, 1,
                         border_radius=6)
        shown = self.query or "Type to search the rules..."
        draw_text(surface, fit(shown, theme.font(17), box.w - 16), (box.x + 8, box.y + 6), 17,
                  theme.TEXT if self.query else theme.TEXT_DIM)
        self._draw_list(surface)
        self._draw_section(surface, pygame.Rect(box.right + 20, 58, w - box.right - 40,
                                                h - 138))
        draw_text(surface, "Type: search - Up/Down: next rule - Enter: open the first match - "
                           "Esc/F1: back", (20, h - 46), 15, theme.TEXT_DIM)

    def _draw_list(self, surface: pygame.Surface) -> None:
        r = self._list_rect()
        draw_panel(surface, r)
        found = self.results()
        lines: list[tuple[str, str | None]] = []        # (text, section id or None: a heading)
        if self.list_title:
            lines.append((self.list_title, None))
        chapter = None
        for s in found:
            if not self.query and self.only is None and s.chapter != chapter:
                chapter = s.chapter
                lines.append((chapter, None))
            lines.append((s.title, s.id))
        if not found:
            lines.append(("No rule matches the search.", None))
        per_page = max(1, (r.h - 12) // ROW_H)
        self.scroll = max(0, min(self.scroll, max(0, len(lines) - per_page)))
        if self.current.id in [sid for _, sid in lines]:
            idx = [sid for _, sid in lines].index(self.current.id)
            if idx < self.scroll:
                self.scroll = idx
            elif idx >= self.scroll + per_page:
                self.scroll = idx - per_page + 1
        self._rows = []
        y = r.y + 6
        f = theme.font(16)
        for text, sid in lines[self.scroll:self.scroll + per_page]:
            row = pygame.Rect(r.x + 4, y, r.w - 8, ROW_H - 2)
            if sid is None:
                draw_text(surface, fit(text, theme.font(16, bold=True), row.w - 8),
                          (row.x + 6, y + 3), 16, theme.ACCENT, bold=True)
            else:
                if sid == self.current.id:
                    pygame.draw.rect(surface, (74, 82, 66), row, border_radius=4)
                draw_text(surface, fit(text, f, row.w - 24), (row.x + 18, y + 3), 16,
                          theme.TEXT)
                self._rows.append((row, sid))
            y += ROW_H

    def _draw_section(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        draw_panel(surface, rect)
        s = self.current
        x, y = rect.x + 18, rect.y + 12
        draw_text(surface, s.chapter, (x, y), 16, theme.TEXT_DIM)
        y += 22
        draw_text(surface, s.title, (x, y), 30, theme.ACCENT, bold=True)
        y += 44
        f = theme.font(18)
        body: list[tuple[str, int]] = []
        for p in s.paragraphs:
            for line in wrap(p, f, rect.w - 36):
                body.append((line, 24))
            body.append(("", 10))
        self.text_scroll = max(0, min(self.text_scroll, max(0, len(body) - 3)))
        for line, dy in body[self.text_scroll:]:
            if y + dy > rect.bottom - 8:
                break
            if line:
                draw_text(surface, line, (x, y), 18, theme.TEXT)
            y += dy
        if s.table:
            self._draw_table(surface, s.table, pygame.Rect(x, y + 4, rect.w - 36,
                                                          rect.bottom - y - 12))

    def _draw_table(self, surface: pygame.Surface, rows: tuple, rect: pygame.Rect) -> None:
        cols = len(rows[0])
        f = theme.font(15)
        widths = [max(f.size(str(r[c]))[0] for r in rows) + 16 for c in range(cols)]
        scale = min(1.0, rect.w / max(1, sum(widths)))
        widths = [int(wd * scale) for wd in widths]
        row_h = 22
        y = rect.y
        for i, row in enumerate(rows):
            if y + row_h > rect.bottom:
                break
            x = rect.x
            bg = (70, 64, 44) if i == 0 else ((46, 50, 44) if i % 2 else (38, 42, 37))
            pygame.draw.rect(surface, bg, (x, y, sum(widths), row_h))
            for c, cell in enumerate(row):
                draw_text(surface, fit(str(cell), f, widths[c] - 8), (x + 6, y + 3), 15,
                          theme.ACCENT if i == 0 else theme.TEXT, bold=i == 0)
                x += widths[c]
            y += row_h
