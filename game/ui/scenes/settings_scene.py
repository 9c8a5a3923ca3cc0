"""Settings: window size, fullscreen, animation speed, sound.  Saved when you
leave the screen (JSON in the user's config folder)."""
from __future__ import annotations

from typing import Any

import pygame

from game.ui import theme
from game.ui.settings import ANIMATION_SPEEDS, WINDOW_SIZES
from game.ui.widgets import GuiScene, draw_background, draw_panel, draw_text

__all__ = ["SettingsScene"]

SPEED_NAMES = {"slow": "Slow", "normal": "Normal", "fast": "Fast", "off": "Off (no animation)"}


def window_sizes() -> list[tuple[int, int]]:
    """The window sizes offered: those that fit on the screen (all of them headless)."""
    sizes = list(WINDOW_SIZES)
    try:
        if pygame.display.get_driver() in ("dummy", "offscreen"):
            return sizes
        dw, dh = pygame.display.get_desktop_sizes()[0]
    except (pygame.error, IndexError, ValueError):
        return sizes
    fits = [z for z in sizes if z[0] <= dw and z[1] <= dh]
    return fits or [min(sizes, key=lambda z: z[0] * z[1])]


class SettingsScene(GuiScene):
    def __init__(self, app: Any, back: Any = None) -> None:
        super().__init__(app)
        self.back = back
        self.saved_message = ""

    # --- values shown on the buttons -----------------------------------------------------
    def _text(self, key: str) -> str:
        s = self.app.settings
        if key == "size":
            w, h = s.window_size
            return f"Window size: {w} x {h}"
        if key == "fullscreen":
            return f"Fullscreen: {'On' if self.app.fullscreen else 'Off'}"
        if key == "speed":
            return f"Animation speed: {SPEED_NAMES[s.animation_speed]}"
        if key == "sound":
            state = "On" if s.sound else "Off"
            if s.sound and not self.app.audio:
                state += " (no sound device found)"
            return f"Sound: {state}"
        return key

    def build(self, size: tuple[int, int]) -> None:
        w, h = size
        bw, bh, gap = 440, 48, 14
        top = max(170, h // 2 - 150)
        for i, key in enumerate(("size", "fullscreen", "speed", "sound")):
            self.button(key, (w // 2 - bw // 2, top + i * (bh + gap), bw, bh), self._text(key),
                        object_id="#menu_button")
        self.button("back", (w // 2 - 110, top + 4 * (bh + gap) + 24, 220, bh), "Save and go back",
                    object_id="#primary")

    def _refresh(self) -> None:
        for key in ("size", "fullscreen", "speed", "sound"):
            if key in self.buttons:
                self.buttons[key].set_text(self._text(key))

    def on_button(self, key: str) -> None:
        s = self.app.settings
        if key == "size":
            sizes = window_sizes()
            cur = tuple(s.window_size)
            nxt = sizes[(sizes.index(cur) + 1) % len(sizes)] if cur in sizes else sizes[0]
            self.app.set_window_size(nxt)          # rebuilds this screen through resize()
        elif key == "fullscreen":
            self.app.set_fullscreen(not self.app.fullscreen)
        elif key == "speed":
            names = list(ANIMATION_SPEEDS)
            s.animation_speed = names[(names.index(s.animation_speed) + 1) % len(names)]
        elif key == "sound":
            self.app.set_sound(not s.sound)
        elif key == "back":
            self.leave_screen()
            return
        self._refresh()

    def leave_screen(self) -> None:
        err = self.app.settings.save() if self.app.save_settings else None
        if err:
            self.app.messages.append(err)
        self.next_scene = self.back or self.app.menu_scene()

    def on_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.leave_screen()

    def draw(self, surface: pygame.Surface) -> None:
        draw_background(surface)
        w, h = surface.get_size()
        top = max(170, h // 2 - 150)
        panel = pygame.Rect(0, 0, 520, 4 * 62 + 196)
        panel.midtop = (w // 2, top - 90)
        draw_panel(surface, panel)
        draw_text(surface, "Settings", (w // 2, top - 74), 48, theme.ACCENT, bold=True,
                  anchor="midtop")
        draw_text(surface, "F11 switches fullscreen on any screen. Settings are kept for next time.",
                  (w // 2, panel.bottom + 14), 20, theme.TEXT_DIM, anchor="midtop")
