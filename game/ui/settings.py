"""Player settings, kept as JSON in the user's config folder (platformdirs).

Nothing here imports pygame: the settings can be read and tested without a
window.  A missing, unreadable or damaged file never stops the game: the
defaults are used and ``Settings.load`` notes why in ``settings.problem``.
Set ``HEXFRONT_CONFIG_DIR`` to keep settings somewhere else (tests do).
"""
from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

# the folders and the bounded reading/atomic writing live outside the UI (game.saves.paths,
# game.data.bounded), shared with the saves
from game.data.bounded import read_json, write_text_atomic
from game.rules.errors import DataError
from game.saves.paths import APP_NAME, config_dir, data_dir

__all__ = ["Settings", "config_dir", "data_dir", "settings_path",
           "ANIMATION_SPEEDS", "WINDOW_SIZES", "MIN_WINDOW"]

MIN_WINDOW = (960, 640)
WINDOW_SIZES = ((1280, 800), (1440, 900), (1600, 1000), (1920, 1080), (1024, 700), (1024, 640))
# name -> multiplier on animation durations (0 = no animation at all)
ANIMATION_SPEEDS = {"slow": 1.6, "normal": 1.0, "fast": 0.5, "off": 0.0}


def settings_path() -> Path:
    return config_dir() / "settings.json"


@dataclass
class Settings:
    window_size: tuple[int, int] = (1280, 800)
    fullscreen: bool = False
    animation_speed: str = "normal"
    sound: bool = True
    problem: str | None = field(default=None, compare=False, repr=False)

    # --- derived ---------------------------------------------------------------------
    @property
    def animation_factor(self) -> float:
        return ANIMATION_SPEEDS.get(self.animation_speed, 1.0)

    # --- validation ------------------------------------------------------------------
    def cleaned(self) -> "Settings":
        """A copy with every field forced into its allowed range."""
        w, h = _size(self.window_size)
        speed = self.animation_speed if self.animation_speed in ANIMATION_SPEEDS else "normal"
        return Settings(window_size=(w, h), fullscreen=bool(self.fullscreen),
                        animation_speed=speed, sound=bool(self.sound), problem=self.problem)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d.pop("problem", None)
        d["window_size"] = list(self.window_size)
        return d

    @classmethod
    def from_dict(cls, data: Any) -> "Settings":
        if not isinstance(data, dict):
            raise ValueError("expected a JSON object")
        known = {f.name for f in fields(cls)} - {"problem"}
        kwargs = {k: v for k, v in data.items() if k in known}
        s = cls(**kwargs)
        if not isinstance(s.fullscreen, bool) or not isinstance(s.sound, bool):
            raise ValueError("fullscreen and sound must be true or false")
        if not isinstance(s.animation_speed, str) or s.animation_speed not in ANIMATION_SPEEDS:
            raise ValueError(f"animation_speed must be one of {', '.join(ANIMATION_SPEEDS)}")
        s.window_size = _size(s.window_size, strict=True)
        return s

    # --- files -----------------------------------------------------------------------
    @classmethod
    def load(cls, path: str | os.PathLike[str] | None = None) -> "Settings":
        p = Path(path) if path is not None else settings_path()
        try:
            data = read_json(p, str(p), max_bytes=64 * 1024, what="settings file")
        except DataError as exc:
            if not p.exists():
                return cls()
            return cls(problem=f"{p}: damaged settings ({exc.detail}); using defaults")
        try:
            return cls.from_dict(data)
        except (ValueError, TypeError) as exc:
            return cls(problem=f"{p}: damaged settings ({exc}); using defaults")

    def save(self, path: str | os.PathLike[str] | None = None) -> str | None:
        """Write the settings; returns an error sentence instead of raising."""
        p = Path(path) if path is not None else settings_path()
        try:
            write_text_atomic(p, json.dumps(self.cleaned().to_dict(), indent=2))
        except OSError as exc:
            return f"could not save the settings to {p}: {exc.strerror or exc}"
        return None


def _size(value: Any, strict: bool = False) -> tuple[int, int]:
    ok = (isinstance(value, (list, tuple)) and len(value) == 2
          and all(isinstance(v, int) and not isinstance(v, bool) for v in value))
    if not ok:
        if strict:
            raise ValueError("window_size must be [width, height] in pixels")
        return (1280, 800)
    w, h = value
    if strict and (w < MIN_WINDOW[0] or h < MIN_WINDOW[1] or w > 8192 or h > 8192):
        raise ValueError(f"window_size {w}x{h} is outside "
                         f"{MIN_WINDOW[0]}x{MIN_WINDOW[1]} .. 8192x8192")
    return (max(MIN_WINDOW[0], min(8192, w)), max(MIN_WINDOW[1], min(8192, h)))
