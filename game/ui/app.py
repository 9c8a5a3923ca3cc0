"""The desktop application: window, clock, settings, one pygame_gui manager,
scene switching and the keys that work on every screen.

Importing this module does nothing; ``App()`` opens the window.

Global keys: F11 fullscreen on/off, F12 screenshot (into the data folder),
Ctrl+Q quit.  Everything else goes to the current scene.

Tests drive the app with ``App.step(events)``: one frame, no sleeping.
"""
from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path
from typing import Any, Iterable

import pygame
import pygame_gui

from game.ui import theme
from game.ui.scene import Scene
from game.ui.settings import MIN_WINDOW, Settings, data_dir

__all__ = ["App"]

CAPTION = "Hexfront"
FPS = 60
_WIDGET_INPUT = (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.KEYDOWN, pygame.KEYUP,
                 pygame.TEXTINPUT, pygame.MOUSEWHEEL)


class App:
    def __init__(self, size: tuple[int, int] | None = None, settings: Settings | None = None,
                 *, save_settings: bool = True) -> None:
        self.started = time.perf_counter()
        self.settings = (settings or Settings.load()).cleaned()
        self.save_settings = save_settings
        self.messages: list[str] = []           # notes for the player (settings problems...)
        if self.settings.problem:
            self.messages.append(self.settings.problem)

        pygame.display.init()
        pygame.font.init()
        from game.ui.assets import check_assets
        check_assets()                          # a missing or broken asset: one clear message
        pygame.key.set_repeat(350, 40)
        self.audio = self._start_audio()
        self.sounds: dict[str, Any] = {}

        self.fullscreen = False
        want = tuple(size) if size else self.settings.window_size
        self.screen = self._set_mode(want, self.settings.fullscreen and size is None)
        pygame.display.set_caption(CAPTION)
        try:
            pygame.display.set_icon(_icon())
        except pygame.error:
            pass

        self.clock = pygame.time.Clock()
        self.ui = pygame_gui.UIManager(self.size, theme.gui_theme(),
                                       enable_live_theme_updates=False)
        self.scene: Scene | None = None
        self.running = False
        self.frames = 0
        self.crashes: list[Exception] = []     # errors shown in the crash dialog this run
        self.rng = random.Random()              # cosmetic randomness only (die shown in setup)

    # --- window ------------------------------------------------------------------------
    @property
    def size(self) -> tuple[int, int]:
        return self.screen.get_size()

    def _set_mode(self, size: tuple[int, int], fullscreen: bool) -> pygame.Surface:
        if fullscreen:
            try:
                screen = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
                self.fullscreen = True
                return screen
            except pygame.error as exc:
                self.messages.append(f"fullscreen is not available ({exc})")
        self.fullscreen = False
        w = max(MIN_WINDOW[0] if size[0] >= MIN_WINDOW[0] else 320, size[0])
        h = max(MIN_WINDOW[1] if size[1] >= MIN_WINDOW[1] else 240, size[1])
        return pygame.display.set_mode((w, h), pygame.RESIZABLE)

    def set_fullscreen(self, on: bool) -> None:
        if on == self.fullscreen:
            return
        self.screen = self._set_mode(self.settings.window_size, on)
        self.settings.fullscreen = self.fullscreen
        self._resized()

    def set_window_size(self, size: tuple[int, int]) -> None:
        self.settings.window_size = (int(size[0]), int(size[1]))
        if not self.fullscreen:
            self.screen = self._set_mode(self.settings.window_size, False)
            self._resized()

    def _resized(self) -> None:
        self.ui.set_window_resolution(self.size)
        if self.scene is not None:
            self.scene.resize(self.size)

    # --- sound -------------------------------------------------------------------------
    def _start_audio(self) -> bool:
        """Start the mixer if it can be started; a silent machine just plays silently."""
        if not self.settings.sound:
            return False
        with _quiet_stderr():          # a machine with no sound card makes ALSA chatter
            try:
                pygame.mixer.pre_init(22050, -16, 1, 512)
                pygame.mixer.init()
                return pygame.mixer.get_init() is not None
            except (pygame.error, NotImplementedError, OSError):
                return False

    def play(self, name: str) -> None:
        """Play a short effect ("click", "dice") if sound is on and a device exists."""
        if not (self.audio and self.settings.sound):
            return
        snd = self.sounds.get(name)
        if snd is None:
            from game.ui.assets import sound
            snd = self.sounds[name] = sound(name)      # assets/sounds/<name>.wav
        try:
            snd.play()
        except pygame.error:
            pass

    def set_sound(self, on: bool) -> None:
        self.settings.sound = on
        if on and not self.audio:
            self.audio = self._start_audio()

    # --- scenes ------------------------------------------------------------------------
    def switch(self, scene: Scene) -> None:
        if self.scene is not None:
            self.scene.leave()
        self.ui.clear_and_reset()
        self.scene = scene
        scene.next_scene = None
        scene.enter()

    def menu_scene(self) -> Scene:
        from game.ui.scenes.menu import MenuScene
        return MenuScene(self)

    # --- loop --------------------------------------------------------------------------
    def run(self, first_scene: Scene) -> int:
        """Run until the player quits; returns an exit code."""
        self.switch(first_scene)
        self.running = True
        try:
            while self.running:
                self.step(dt=self.clock.tick(FPS) / 1000.0)
        finally:
            self.close()
        return 0

    def step(self, events: Iterable[pygame.event.Event] | None = None,
             dt: float | None = None) -> None:
        """One frame: events, update, draw, flip.  Never sleeps."""
        if dt is None:
            self.clock.tick()
            dt = 1.0 / FPS
        evs = list(pygame.event.get()) if events is None else list(events)
        scene = self.scene
        try:
            for ev in evs:
                self._handle(ev)
                if not self.running and self.scene is None:
                    return
            scene = self.scene
            if scene is None:
                return
            self.ui.update(dt)
            scene.update(dt)
            scene.draw(self.screen)
        except Exception as exc:       # noqa: BLE001 - shown, logged and saved, never hidden
            self.crashed(exc, scene)
            return
        self.ui.draw_ui(self.screen)
        pygame.display.flip()
        self.frames += 1
        self._follow(scene)

    def crashed(self, exc: Exception, scene: Scene | None) -> None:
        """A scene raised: under tests and HEXFRONT_DEBUG=1 re-raise; otherwise save the
        battle, write the crash log and show the crash dialog (game.ui.crash)."""
        from game.ui.crash import CrashScene, debug_mode, report_crash
        if debug_mode() or isinstance(scene, CrashScene):
            raise exc
        self.crashes.append(exc)
        report = report_crash(exc, scene)
        surface = pygame.display.get_surface()
        if surface is not None:
            surface.set_clip(None)      # a drawing step may have died with its clip set
        self.switch(CrashScene(self, report))

    def _follow(self, scene: Scene) -> None:
        if scene.quit:
            self.running = False
            scene.quit = False
        elif scene.next_scene is not None:
            nxt = scene.next_scene
            scene.next_scene = None
            self.switch(nxt)

    def _handle(self, ev: pygame.event.Event) -> None:
        if ev.type == pygame.QUIT:
            self.running = False
            return
        if ev.type == pygame.VIDEORESIZE and not self.fullscreen:
            w, h = max(ev.w, 320), max(ev.h, 240)
            if self.screen.get_size() != (w, h):
                self.screen = pygame.display.set_mode((w, h), pygame.RESIZABLE)
            self.settings.window_size = (max(w, MIN_WINDOW[0]), max(h, MIN_WINDOW[1]))
            self._resized()
            return
        if ev.type == pygame.WINDOWSIZECHANGED:
            if self.ui.window_resolution != self.size:
                self._resized()
            return
        if ev.type == pygame.KEYDOWN:
            mods = getattr(ev, "mod", 0)
            if ev.key == pygame.K_F11:
                self.set_fullscreen(not self.fullscreen)
                return
            if ev.key == pygame.K_F12:
                self.messages.append(f"screenshot saved: {self.screenshot()}")
                return
            if ev.key == pygame.K_q and mods & pygame.KMOD_CTRL:
                self.running = False
                return
        consumed = self.ui.process_events(ev)
        # a click on a widget, typing into a text field or scrolling a list is the
        # widget's alone; everything else (and pygame_gui's own events) goes to the scene
        if self.scene is not None and not (consumed and ev.type in _WIDGET_INPUT):
            self.scene.handle_event(ev)

    # --- output ------------------------------------------------------------------------
    def screenshot(self, path: str | os.PathLike[str] | None = None) -> Path:
        if path is None:
            folder = data_dir() / "screenshots"
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / time.strftime("hexfront-%Y%m%d-%H%M%S.png")
        p = Path(path)
        if p.parent and not p.parent.exists():
            p.parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(self.screen, str(p))
        return p

    def close(self) -> None:
        if self.scene is not None:
            self.scene.leave()
        if self.save_settings:
            err = self.settings.save()
            if err:
                print(f"hexfront: {err}")


class _quiet_stderr:
    """Silence C-level stderr (fd 2) for a moment; does nothing if fds can't be swapped."""

    def __enter__(self) -> None:
        self.saved = None
        try:
            sys.stderr.flush()
            self.saved = os.dup(2)
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 2)
            os.close(devnull)
        except (OSError, ValueError, AttributeError):
            self.saved = None

    def __exit__(self, *exc: object) -> None:
        if self.saved is not None:
            os.dup2(self.saved, 2)
            os.close(self.saved)


# --- the window icon (assets/icon.svg) -----------------------------------------------------
def _icon() -> pygame.Surface:
    from game.ui.assets import icon
    return icon()
