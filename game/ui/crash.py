"""No exception closes the window: the crash dialog and the crash log.

When a scene raises, :class:`game.ui.app.App` calls :func:`report_crash`, which

- saves the battle (if the scene has one) as ``saves/crash-<time>.json``, a normal
  save that loads and replays like any other, and
- writes ``crashes/crash-<time>.log`` in the user data folder: the traceback, the
  scene, the version, the save's path,

and then shows :class:`CrashScene`: "Something went wrong: the game is saved as
crash-....json", with *Continue from the last autosave* and *Main menu*.

Under tests and with ``HEXFRONT_DEBUG=1`` the error is re-raised instead
(:func:`debug_mode`), so nothing is hidden.
"""
from __future__ import annotations

import platform
import sys
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pygame

from game.ui import theme
from game.debug import debug_mode
from game.ui.battle.panels import Button, draw_buttons, layout_buttons
from game.ui.scene import Scene
from game.ui.settings import data_dir
from game.ui.widgets import draw_background, draw_panel, draw_text

__all__ = ["debug_mode", "report_crash", "CrashReport", "CrashScene", "crash_dir"]


def crash_dir() -> Path:
    return data_dir() / "crashes"


@dataclass
class CrashReport:
    log: Path | None
    save: Path | None
    error: str                     # one line: the exception type and message
    problem: str | None = None     # why the save or the log could not be written


def _scene_game(scene: Any) -> Any:
    game = getattr(scene, "game", None)
    return game if getattr(game, "origin", None) is not None else None


def report_crash(exc: BaseException, scene: Any) -> CrashReport:
    """Save the battle and write the crash log; never raises an OSError."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    problems: list[str] = []
    save_path: Path | None = None
    game = _scene_game(scene)
    if game is not None:
        try:
            from game import saves
            save_path = saves.save_game(game, saves.saves_dir() / f"crash-{stamp}.json",
                                        verify=False) or saves.saves_dir() / f"crash-{stamp}.json"
        except (OSError, ValueError, TypeError) as e:   # a full disk, an odd state
            problems.append(f"the battle could not be saved ({e})")
            save_path = None
        except Exception as e:       # noqa: BLE001 - reported in the log and on screen
            problems.append(f"the battle could not be saved ({type(e).__name__}: {e})")
            save_path = None
    tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    lines = [f"Hexfront crash log, {time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime())}",
             f"python {sys.version.split()[0]}, pygame {pygame.version.ver}, "
             f"{platform.system()} {platform.release()}",
             f"scene: {type(scene).__name__}",
             f"save: {save_path if save_path else 'none'}"]
    if game is not None:
        st = game.state
        lines.append(f"turn {st.turn}, phase {st.phase.value}, {len(game.history)} actions")
    lines += problems + ["", tb]
    log_path: Path | None = crash_dir() / f"crash-{stamp}.log"
    try:
        log_path.parent.mkdir(parents=True, exist_ok=True)
        log_path.write_text("\n".join(lines), encoding="utf-8")
    except OSError as e:
        problems.append(f"the crash log could not be written ({e})")
        log_path = None
    print(tb, file=sys.stderr)
    return CrashReport(log_path, save_path, f"{type(exc).__name__}: {exc}",
                       "; ".join(problems) or None)


def _last_autosave() -> Path | None:
    try:
        from game.saves import latest_autosave
    except ImportError:
        return None
    try:
        return latest_autosave()
    except OSError:
        return None


class CrashScene(Scene):
    """Something went wrong: what was saved where, and two ways on."""

    def __init__(self, app: Any, report: CrashReport) -> None:
        super().__init__(app)
        self.report = report
        self.autosave = _last_autosave()
        self.buttons: dict[str, Button] = {}
        self.message = ""
        self.mouse = (-1, -1)

    def _buttons(self) -> list[Button]:
        return [Button("continue", "Continue from the last autosave", primary=True,
                       hotkey="Enter", enabled=self.autosave is not None,
                       tip="" if self.autosave else "There is no autosave yet."),
                Button("menu", "Main menu", hotkey="Esc")]

    def box(self) -> pygame.Rect:
        w, h = self.app.size
        r = pygame.Rect(0, 0, min(820, w - 40), min(420, h - 40))
        r.center = (w // 2, h // 2)
        return r

    def update(self, dt: float) -> None:
        bs = self._buttons()
        r = self.box()
        layout_buttons(bs, pygame.Rect(r.x + 20, r.bottom - 60, r.w - 40, 44))
        self.buttons = {b.key: b for b in bs}

    def on_button(self, key: str) -> None:
        if key == "menu":
            self.next_scene = self.app.menu_scene()
        elif key == "continue" and self.autosave is not None:
            from game.ui.scenes.battle_setup import battle_scene, load_setup
            setup, error = load_setup(str(self.autosave))
            scene = None
            if not error:
                scene, error = battle_scene(self.app, setup)
            if error:
                self.message = error
                return
            self.next_scene = scene

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for b in self.buttons.values():
                if b.enabled and b.rect.collidepoint(event.pos):
                    self.on_button(b.key)
                    return
        elif event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.autosave is not None:
                self.on_button("continue")
            elif event.key == pygame.K_ESCAPE:
                self.on_button("menu")

    def lines(self) -> list[str]:
        rep = self.report
        out = []
        if rep.save is not None:
            out.append(f"Something went wrong: the game is saved as {rep.save.name}.")
        else:
            out.append("Something went wrong.")
        if rep.log is not None:
            out.append(f"The details are in the crash log {rep.log}.")
        out.append("Please attach the crash log and the save to a bug report.")
        if rep.problem:
            out.append(f"Note: {rep.problem}.")
        if self.autosave is not None:
            out.append(f"The last autosave is {self.autosave.name}.")
        return out

    def draw(self, surface: pygame.Surface) -> None:
        draw_background(surface)
        r = self.box()
        draw_panel(surface, r, theme.BG_DARK, theme.WARN)
        draw_text(surface, "Something went wrong", (r.x + 24, r.y + 18), 30, theme.WARN, bold=True)
        y = r.y + 64
        for line in self.lines():
            y = draw_text(surface, line, (r.x + 24, y), 19, theme.TEXT, width=r.w - 48).bottom + 8
        draw_text(surface, self.report.error, (r.x + 24, y + 4), 16, theme.TEXT_DIM,
                  width=r.w - 48)
        if self.message:
            draw_text(surface, self.message, (r.x + 24, r.bottom - 96), 17, theme.BAD,
                      width=r.w - 48)
        draw_buttons(surface, list(self.buttons.values()), self.mouse)
