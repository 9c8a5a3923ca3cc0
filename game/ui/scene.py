"""The scene protocol shared by every screen of the desktop game.

A scene handles input, updates, draws, and asks for the next scene by
setting ``self.next_scene`` (a Scene instance) or ``self.quit = True``.
Nothing happens at import time: pygame is initialised by the App.
"""
from __future__ import annotations

from typing import Any

import pygame


class Scene:
    """Base class: override what you need."""

    def __init__(self, app: Any) -> None:
        self.app = app                 # game.ui.app.App (window, clock, settings, fonts)
        self.next_scene: "Scene | None" = None
        self.quit = False

    def enter(self) -> None:
        """Called when the scene becomes current."""

    def leave(self) -> None:
        """Called when another scene replaces this one."""

    def handle_event(self, event: pygame.event.Event) -> None:
        """One pygame event (already passed through pygame_gui if the app uses it)."""

    def update(self, dt: float) -> None:
        """Advance animations; ``dt`` in seconds."""

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the whole frame."""

    def resize(self, size: tuple[int, int]) -> None:
        """The window changed size."""
