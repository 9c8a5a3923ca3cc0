"""Shared set-up for the headless UI tests: a real App in a temporary config folder."""
from __future__ import annotations

from typing import Iterator

import pygame

from game.ui.settings import Settings


def running_app(tmp_path, monkeypatch, *, animations: bool = True,
                save_settings: bool = False) -> Iterator["object"]:
    """Yield a 1280x800 App (no sound; settings in tmp_path) with the event queue clear.
    Use as ``yield from running_app(tmp_path, monkeypatch)`` inside a fixture."""
    monkeypatch.setenv("HEXFRONT_CONFIG_DIR", str(tmp_path / "cfg"))
    from game.ui.app import App
    settings = Settings(sound=False)
    if not animations:
        settings.animation_speed = "off"
    app = App(size=(1280, 800), settings=settings, save_settings=save_settings)
    app.running = True
    pygame.event.clear()
    yield app
    pygame.event.clear()
