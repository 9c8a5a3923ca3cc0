"""The main menu: New hotseat battle, Solo practice (when the AI exists), Map
layout preview, Load game, Settings, Quit."""
from __future__ import annotations

import importlib.util
import pkgutil
from pathlib import Path
from typing import Any

import pygame
import pygame_gui

from game.ui import theme
from game.ui.settings import data_dir
from game.ui.widgets import GuiScene, draw_background, draw_text

__all__ = ["MenuScene", "ai_available", "preview_available", "saves_available", "saves_folder",
           "solo_scene"]


def _has_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def ai_available() -> bool:
    """The solo mode appears once game.ai holds an AI module."""
    try:
        import game.ai as ai_pkg
    except ImportError:
        return False
    return any(True for _ in pkgutil.iter_modules(ai_pkg.__path__))


def preview_available() -> bool:
    return _has_module("game.ui.scenes.preview")


def solo_scene(app: Any, seed: int | None = None, edition: str = "first") -> Any:
    """The solo practice set-up: the AI's own screen (game.ui.scenes.solo_setup) when
    it is installed, else the battle setup with the AI playing the Axis."""
    from game.ui.battle_setup_data import BattleSetup
    setup = BattleSetup(solo="Axis", seed=seed, edition=edition)
    if _has_module("game.ui.scenes.solo_setup"):
        from game.ui.scenes.solo_setup import SoloSetupScene
        return SoloSetupScene(app, setup)
    from game.ui.scenes.battle_setup import BattleSetupScene
    return BattleSetupScene(app, setup)


def saves_available() -> bool:
    return _has_module("game.saves")


def saves_folder() -> Path:
    return data_dir() / "saves"


class MenuScene(GuiScene):
    ITEMS = (("new", "New hotseat battle"), ("solo", "Solo practice"),
             ("host", "Host a battle"), ("preview", "Map layout preview"), ("load", "Load game"),
             ("settings", "Settings"), ("quit", "Quit"))

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.file_dialog: pygame_gui.windows.UIFileDialog | None = None
        self.message = ""
        self._showcase: pygame.Surface | None = None

    def build(self, size: tuple[int, int]) -> None:
        w, h = size
        bw, bh, gap = 340, 50, 12
        items = [(k, t) for k, t in self.ITEMS if k != "solo" or ai_available()]
        room = h - 250 - 16                   # below the title, above the window's edge
        if len(items) * (bh + gap) > room:    # a small window: shorter rows, all of them shown
            gap = 8
            bh = max(34, room // len(items) - gap)
        total = len(items) * (bh + gap)
        top = max(250, min((h - total) // 2 + 70, h - total - 8))
        for i, (key, text) in enumerate(items):
            tip = None
            enabled = True
            if key == "preview" and not preview_available():
                enabled, tip = False, "The map preview is not installed in this build."
            if key == "load" and not saves_available():
                enabled, tip = False, "Saving and loading games is not in this build yet."
            width = bw
            if key == "host":                 # Join a battle shares the network row
                width = bw // 2 - 4
                self.button("join", (w // 2 + 4, top + i * (bh + gap), bw // 2 - 4, bh),
                            "Join a battle", object_id="#menu_button",
                            tooltip="Play someone on another computer")
            if key == "load":                 # the replay viewer shares the Load row
                width = bw - 118
                self.button("replay", (w // 2 + bw // 2 - 110, top + i * (bh + gap), 110, bh),
                            "Replay", object_id="#menu_button", enabled=enabled,
                            tooltip=tip or "Watch a saved game step by step")
            self.button(key, (w // 2 - bw // 2, top + i * (bh + gap), width, bh), text,
                        object_id="#menu_button", tooltip=tip, enabled=enabled)
        # issue 17: the guided first battle, in the corner (the column is full at 1024x640)
        self.button("learn", (w - 230, 24, 200, 46), "Learn to play", object_id="#menu_button",
                    tooltip="A guided first battle: the rules step by step")
        self.file_dialog = None
        self.offer_resume()

    # --- actions ---------------------------------------------------------------------------
    def on_button(self, key: str) -> None:
        if key == "learn":                      # issue 17: the guided first battle
            from game.ui.scenes.tutorial import TutorialScene
            self.next_scene = TutorialScene(self.app)
        elif key == "new":
            from game.ui.scenes.battle_setup import BattleSetupScene
            self.next_scene = BattleSetupScene(self.app)
        elif key == "solo":
            self.next_scene = solo_scene(self.app)
        elif key == "host":
            from game.ui.scenes.net_host import NetHostScene
            self.next_scene = NetHostScene(self.app)
        elif key == "join":
            from game.ui.scenes.net_join import NetJoinScene
            self.next_scene = NetJoinScene(self.app)
        elif key == "preview":
            from game.ui.scenes.preview import PreviewScene
            self.next_scene = PreviewScene(self.app)
        elif key == "load":
            from game.ui.scenes.load import LoadScene
            self.next_scene = LoadScene(self.app)
        elif key == "replay":
            from game.ui.scenes.load import LoadScene
            self.next_scene = LoadScene(self.app, replay=True)
        elif key == "settings":
            from game.ui.scenes.settings_scene import SettingsScene
            self.next_scene = SettingsScene(self.app)
        elif key == "quit":
            self.quit = True

    def open_load_dialog(self, replay: bool = False) -> None:
        self.dialog_for_replay = replay
        folder = saves_folder()
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError:
            folder = Path.cwd()
        w, h = self.app.size
        rect = pygame.Rect(0, 0, min(640, w - 40), min(480, h - 40))
        rect.center = (w // 2, h // 2)
        self.file_dialog = pygame_gui.windows.UIFileDialog(
            rect, self.app.ui, window_title="Watch a saved game" if replay else "Load a saved game",
            initial_file_path=str(folder), allow_existing_files_only=True)

    def load(self, path: str) -> bool:
        """Open a save and go to the battle; a bad file gives a message, not a crash."""
        from game.ui.scenes.battle_setup import battle_scene, load_setup
        setup, error = load_setup(path)
        if error:
            self.show_error(error)
            return False
        scene, error = battle_scene(self.app, setup)
        if error:
            self.show_error(error)
            return False
        self.next_scene = scene
        return True

    def watch(self, path: str) -> bool:
        """Open a save in the replay viewer; a bad file gives a dialog, not a crash."""
        from game.ui.scenes.replay import open_replay_scene
        scene, error = open_replay_scene(self.app, path)
        if error:
            self.show_error(error)
            return False
        self.next_scene = scene
        return True

    def show_error(self, text: str) -> None:
        """A file that can't be opened: its one message in a dialog; the menu runs on."""
        import html
        self.message = text
        w, h = self.app.size
        rect = pygame.Rect(0, 0, min(640, w - 40), min(320, h - 40))
        rect.center = (w // 2, h // 2)
        self.error_window = pygame_gui.windows.UIMessageWindow(
            rect, html.escape(text), self.app.ui, window_title="This file can't be opened")

    def ask_quit(self) -> None:
        """Esc on the main menu asks before quitting (a second Esc, or Quit, closes it)."""
        dialog = getattr(self, "quit_dialog", None)
        if dialog is not None and dialog.alive():
            dialog.kill()
            self.quit_dialog = None
            return
        w, h = self.app.size
        rect = pygame.Rect(0, 0, min(420, w - 40), min(200, h - 40))
        rect.center = (w // 2, h // 2)
        self.quit_dialog = pygame_gui.windows.UIConfirmationDialog(
            rect, "Quit Hexfront?", self.app.ui, window_title="Quit?",
            action_short_name="Quit")

    def offer_resume(self) -> None:
        """After a crash (game.saves.begin_session): offer the last autosave."""
        import html
        path = getattr(self.app, "resume_offer", None)
        self.resume_dialog = None
        if path is None:
            return
        w, h = self.app.size
        rect = pygame.Rect(0, 0, min(560, w - 40), min(260, h - 40))
        rect.center = (w // 2, h // 2)
        self.resume_dialog = pygame_gui.windows.UIConfirmationDialog(
            rect, html.escape("Hexfront did not close properly last time. Resume the battle "
                              f"from its last autosave ({resume_name(path)})?"),
            self.app.ui, window_title="Resume the interrupted battle?",
            action_short_name="Resume")

    def on_event(self, event: pygame.event.Event) -> None:
        dialog = getattr(self, "resume_dialog", None)
        if dialog is not None and event.type == pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED \
                and event.ui_element is dialog:
            path, self.app.resume_offer, self.resume_dialog = self.app.resume_offer, None, None
            self.load(str(path))
            return
        if dialog is not None and event.type == pygame_gui.UI_WINDOW_CLOSE \
                and event.ui_element is dialog:
            self.app.resume_offer, self.resume_dialog = None, None
            return
        if event.type == pygame_gui.UI_FILE_DIALOG_PATH_PICKED and event.ui_element is self.file_dialog:
            self.file_dialog = None
            if getattr(self, "dialog_for_replay", False):
                self.watch(event.text)
            else:
                self.load(event.text)
        elif event.type == pygame_gui.UI_WINDOW_CLOSE and event.ui_element is self.file_dialog:
            self.file_dialog = None
        elif event.type == pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED and \
                event.ui_element is getattr(self, "quit_dialog", None):
            self.quit = True
        elif event.type == pygame_gui.UI_WINDOW_CLOSE and \
                event.ui_element is getattr(self, "quit_dialog", None):
            self.quit_dialog = None
        elif event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE and self.file_dialog is None:
                self.ask_quit()
            elif event.key == pygame.K_n:
                self.on_button("new")
            elif event.key == pygame.K_p and "preview" in self.buttons and preview_available():
                self.on_button("preview")

    # --- drawing ------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        draw_background(surface)
        w, h = surface.get_size()
        top = max(250, (h - len(self.buttons) * 62) // 2 + 70)
        title_y = max(40, top - 210)
        draw_text(surface, "HEXFRONT", (w // 2, title_y), 96, theme.ACCENT, bold=True,
                  anchor="midtop")
        draw_text(surface, "Tactical battles of the Second World War on a hex map",
                  (w // 2, title_y + 80), 26, theme.TEXT_DIM, italic=True, anchor="midtop")
        if self._showcase is None:
            self._showcase = _showcase()
        if self._showcase is not None:
            surface.blit(self._showcase, self._showcase.get_rect(midtop=(w // 2, title_y + 112)))
        if self.message:
            draw_text(surface, self.message, (w // 2, h - 64), 22, theme.WARN, anchor="midtop",
                      width=min(900, w - 40))
        for note in self.app.messages[-1:]:
            draw_text(surface, note, (12, h - 26), 18, theme.TEXT_DIM)
        draw_text(surface, "F11 fullscreen  -  F12 screenshot  -  Esc quit",
                  (w - 12, h - 26), 18, theme.TEXT_DIM, anchor="topright")


def resume_name(path: Any) -> str:
    """The interrupted battle named as the Load list names it."""
    try:
        from game.saves import save_info
        from game.ui.scenes.load import describe_save, save_title
        info = save_info(Path(path), autosave=True)
    except (ImportError, OSError):
        return Path(path).name
    if info.problem:
        return Path(path).name
    return f"{save_title(info)}; {describe_save(info)}"


def _showcase() -> pygame.Surface | None:
    """A row of miniatures under the title (the kinds of units in the game)."""
    try:
        from game.ui.tokens import draw_sample_row
    except ImportError:
        return None
    return draw_sample_row(44)
