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


# --- posting real events -------------------------------------------------------------------
def step(app, n=2) -> None:
    """Run ``n`` frames of the app (60 fps time step, no sleeping)."""
    for _ in range(n):
        app.step(dt=1 / 60)


def hover(app, pos, frames=1) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    step(app, frames)


def click(app, pos, button=1, frames=2) -> None:
    """Move the pointer to ``pos``, press and release ``button`` there."""
    hover(app, pos, 0)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))
    step(app, frames)


def press(app, name, frames=2) -> None:
    """Click the current scene's button ``name`` (buttons are laid out during update)."""
    step(app, 1)
    click(app, app.scene.buttons[name].rect.center, frames=frames)


def key(app, k, mod=0, frames=2, up=True) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0))
    if up:
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=mod, unicode="", scancode=0))
    step(app, frames)


def start(app, game):
    """Open the battle screen on ``game`` and let it settle."""
    from game.ui.scenes.battle import BattleScene
    scene = BattleScene(app, None, game=game)
    app.switch(scene)
    scene.view.ready()
    step(app, 2)
    return scene
