"""Load a game: the list of saves (newest first) with scenario, configuration,
sides, turn, phase and date, from ``game.saves.list_saves`` - not a bare file
browser.  A click (or Enter) opens the save in the battle screen, or in the
replay viewer when the list was opened for watching.  Esc goes back."""
from __future__ import annotations

from typing import Any

import pygame

from game.ui import theme
from game.ui.battle.panels import Button, draw_buttons, layout_buttons
from game.ui.scene import Scene
from game.ui.widgets import draw_background, draw_panel, draw_text, fit

__all__ = ["LoadScene", "describe_save", "save_title"]

ROW_H = 54


def save_title(info: Any) -> str:
    """"Standard, configuration 3 (High Ground): Axis (Germany) vs Allies (...)" - how
    every screen names a battle."""
    scen = str(info.scenario or "?").capitalize()
    conf = str(info.configuration)
    num, _, name = conf.partition(":")
    if num.strip().isdigit():
        conf = f"configuration {num.strip()}" + (f" ({name.strip()})" if name.strip() else "")
    return f"{scen}, {conf}: {info.sides}"


def describe_save(info: Any) -> str:
    """The second line: turn, phase, date, and whether it is an autosave."""
    parts = []
    if info.turn:
        parts.append(f"turn {info.turn}")
    if info.phase:
        parts.append(str(info.phase))
    if info.saved_at is not None:
        parts.append(info.saved_at.strftime("%Y-%m-%d %H:%M UTC"))
    if info.autosave:
        parts.append("autosave")
    return ", ".join(parts) or info.path.name


class LoadScene(Scene):
    def __init__(self, app: Any, back: Any = None, *, replay: bool = False) -> None:
        super().__init__(app)
        self.back = back
        self.replay = replay
        self.mouse = (-1, -1)
        self.scroll = 0
        self.selected = 0
        self.error = ""
        self.buttons: dict[str, Button] = {}
        self.infos = self._list()

    @staticmethod
    def _list() -> list[Any]:
        from game.saves import list_saves
        try:
            return list_saves()
        except OSError:
            return []

    # --- geometry ------------------------------------------------------------------------
    def panel(self) -> pygame.Rect:
        w, h = self.app.size
        r = pygame.Rect(0, 0, min(900, w - 40), h - 80)
        r.midtop = (w // 2, 40)
        return r

    def list_rect(self) -> pygame.Rect:
        r = self.panel()
        return pygame.Rect(r.x + 16, r.y + 64, r.w - 32, r.h - 64 - 70)

    def rows_visible(self) -> int:
        return max(1, self.list_rect().h // ROW_H)

    def row_at(self, pos) -> int | None:
        lr = self.list_rect()
        if not lr.collidepoint(pos):
            return None
        i = self.scroll + (pos[1] - lr.y) // ROW_H
        return i if 0 <= i < len(self.infos) else None

    # --- actions -------------------------------------------------------------------------
    def go_back(self) -> None:
        self.next_scene = self.back or self.app.menu_scene()

    def open(self, i: int) -> None:
        info = self.infos[i]
        if info.problem:
            self.error = f"{info.path.name}: {info.problem}"
            return
        if self.replay:
            from game.ui.scenes.replay import open_replay_scene
            scene, error = open_replay_scene(self.app, str(info.path))
        else:
            from game.ui.scenes.battle_setup import battle_scene, load_setup
            setup, error = load_setup(str(info.path))
            scene = None
            if not error:
                scene, error = battle_scene(self.app, setup)
        if error:
            self.error = error
            return
        self.next_scene = scene

    def update(self, dt: float) -> None:
        r = self.panel()
        bs = [Button("open", "Watch" if self.replay else "Load", primary=True, hotkey="Enter",
                     enabled=bool(self.infos)),
              Button("back", "Back", hotkey="Esc")]
        layout_buttons(bs, pygame.Rect(r.x + 16, r.bottom - 56, r.w - 32, 44), align="right")
        self.buttons = {b.key: b for b in bs}

    def handle_event(self, event: pygame.event.Event) -> None:
        t = event.type
        if t == pygame.MOUSEMOTION:
            self.mouse = event.pos
        elif t == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.mouse = event.pos
            for b in self.buttons.values():
                if b.enabled and b.rect.collidepoint(event.pos):
                    if b.key == "back":
                        self.go_back()
                    elif self.infos:
                        self.open(self.selected)
                    return
            i = self.row_at(event.pos)
            if i is not None:
                self.selected = i
                self.open(i)
        elif t == pygame.MOUSEWHEEL:
            self.scroll_by(-event.y)
        elif t == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self.go_back()
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.infos:
                self.open(self.selected)
            elif event.key in (pygame.K_DOWN, pygame.K_UP) and self.infos:
                d = 1 if event.key == pygame.K_DOWN else -1
                self.selected = max(0, min(len(self.infos) - 1, self.selected + d))
                if self.selected < self.scroll:
                    self.scroll = self.selected
                elif self.selected >= self.scroll + self.rows_visible():
                    self.scroll = self.selected - self.rows_visible() + 1

    def scroll_by(self, n: int) -> None:
        top = max(0, len(self.infos) - self.rows_visible())
        self.scroll = max(0, min(top, self.scroll + n))

    # --- drawing -------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        draw_background(surface)
        r = self.panel()
        draw_panel(surface, r, theme.BG_DARK)
        title = "Watch a saved game" if self.replay else "Load a saved game"
        draw_text(surface, title, (r.x + 16, r.y + 14), 30, theme.ACCENT, bold=True)
        draw_text(surface, "newest first", (r.right - 16, r.y + 24), 17, theme.TEXT_DIM,
                  anchor="topright")
        lr = self.list_rect()
        if not self.infos:
            draw_text(surface, "No saved games yet. Ctrl+S saves during a battle; the game also "
                               "autosaves after every phase.", (lr.x + 8, lr.y + 8), 19,
                      theme.TEXT_DIM, width=lr.w - 16)
        f1, f2 = theme.font(19, True), theme.font(16)
        hover = self.row_at(self.mouse)
        for n in range(self.rows_visible()):
            i = self.scroll + n
            if i >= len(self.infos):
                break
            info = self.infos[i]
            row = pygame.Rect(lr.x, lr.y + n * ROW_H, lr.w, ROW_H - 4)
            bg = (70, 78, 64) if i == self.selected else (52, 58, 48) if i == hover else theme.BG
            pygame.draw.rect(surface, bg, row, border_radius=5)
            col = theme.TEXT if not info.problem else theme.TEXT_DIM
            surface.blit(f1.render(fit(save_title(info), f1, row.w - 20), True, col),
                         (row.x + 10, row.y + 4))
            second = describe_save(info) if not info.problem else f"can't be loaded: {info.problem}"
            surface.blit(f2.render(fit(second, f2, row.w - 20), True,
                                   theme.WARN if info.problem else theme.TEXT_DIM),
                         (row.x + 10, row.y + 28))
        if len(self.infos) > self.rows_visible():
            draw_text(surface, f"{self.scroll + 1}-{min(len(self.infos), self.scroll + self.rows_visible())}"
                               f" of {len(self.infos)} (wheel or arrows)",
                      (r.x + 16, r.bottom - 46), 16, theme.TEXT_DIM)
        if self.error:
            draw_text(surface, fit(self.error, theme.font(17), r.w - 300), (r.x + 16, r.bottom - 24),
                      17, theme.BAD)
        draw_buttons(surface, list(self.buttons.values()), self.mouse)
