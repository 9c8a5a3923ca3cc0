"""Where Hexfront keeps its files: the one place both the saves and the UI ask.

``config_dir()`` holds the settings, ``data_dir()`` the saves, autosaves and the
session marker (platformdirs; ``HEXFRONT_CONFIG_DIR`` / ``HEXFRONT_DATA_DIR``
override).  Nothing here imports pygame or game.ui.
"""
from __future__ import annotations

import os
from pathlib import Path

__all__ = ["APP_NAME", "config_dir", "data_dir", "saves_dir", "autosave_dir", "session_path",
           "settings_path"]

APP_NAME = "hexfront"


def config_dir() -> Path:
    env = os.environ.get("HEXFRONT_CONFIG_DIR")
    if env:
        return Path(env)
    import platformdirs
    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))


def data_dir() -> Path:
    """Where saved armies and games go (next to the settings when overridden)."""
    env = os.environ.get("HEXFRONT_DATA_DIR") or os.environ.get("HEXFRONT_CONFIG_DIR")
    if env:
        return Path(env)
    import platformdirs
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def settings_path() -> Path:
    return config_dir() / "settings.json"


def saves_dir() -> Path:
    """``<user data dir>/saves`` (platformdirs; HEXFRONT_DATA_DIR overrides)."""
    return data_dir() / "saves"


def autosave_dir() -> Path:
    return saves_dir() / "autosave"


def session_path() -> Path:
    return data_dir() / "session.json"
