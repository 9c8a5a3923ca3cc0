"""Everything the game loads that is not rules data lives in ``assets/`` (see
assets/README.md): the token silhouettes (one SVG per kind), the window icon,
the sound effects and the bundled font.  This module finds and loads them; a
missing or broken file raises :class:`AssetError` naming the file and what is
wrong with it (``python main.py`` prints it and exits; :func:`check_assets`
looks at every file at start-up)."""
from __future__ import annotations

import os
from pathlib import Path

import pygame

from game.rules.errors import DataError

__all__ = ["ASSETS_DIR", "AssetError", "asset_path", "token_svg", "load_svg", "label_font",
           "sound", "icon", "check_assets", "TOKEN_KINDS", "SOUNDS"]

ASSETS_DIR = Path(os.environ.get("HEXFRONT_ASSETS_DIR") or
                  Path(__file__).resolve().parents[2] / "assets")
TOKEN_KINDS = ("tank", "tank_destroyer", "assault_gun", "armored_car", "transport",
               "infantry", "machine_gun", "antitank_gun", "artillery", "commander", "aircraft")
SOUNDS = ("click", "dice")
LABEL_FONT = "fonts/DejaVuSansMono-Bold.ttf"


class AssetError(DataError):
    """A file of assets/ is missing or can't be read."""

    def __init__(self, path: Path, problem: str) -> None:
        super().__init__(str(path), f"{problem} (the game's own art and sound live in "
                                    f"{ASSETS_DIR}; reinstall or restore that folder)")


def asset_path(rel: str) -> Path:
    p = ASSETS_DIR / rel
    if not p.is_file():
        raise AssetError(p, "asset file is missing")
    return p


_SVG: dict[tuple[str, int], pygame.Surface] = {}


def load_svg(rel: str, size: int) -> pygame.Surface:
    """An SVG of assets/ rendered at ``size`` x ``size`` pixels (cached)."""
    key = (rel, int(size))
    img = _SVG.get(key)
    if img is None:
        p = asset_path(rel)
        try:
            img = pygame.image.load_sized_svg(str(p), (int(size), int(size)))
        except (pygame.error, ValueError, OSError) as exc:
            raise AssetError(p, f"can't be read as an SVG picture ({exc})") from None
        if img.get_width() == 0:
            raise AssetError(p, "the SVG picture is empty")
        if len(_SVG) > 400:
            _SVG.clear()
        _SVG[key] = img = img.convert_alpha() if pygame.display.get_surface() else img
    return img


def token_svg(kind: str) -> str:
    return f"tokens/{kind}.svg"


_FONTS: dict[int, pygame.font.Font] = {}


def label_font(size: int) -> pygame.font.Font:
    """The bundled DejaVu Sans Mono Bold: hex labels whose I, 1 and 0 can't be mistaken."""
    size = max(6, int(size))
    f = _FONTS.get(size)
    if f is None:
        p = asset_path(LABEL_FONT)
        if not pygame.font.get_init():
            pygame.font.init()
        try:
            f = pygame.font.Font(str(p), size)
        except (pygame.error, OSError) as exc:
            raise AssetError(p, f"can't be read as a font ({exc})") from None
        _FONTS[size] = f
    return f


def icon() -> pygame.Surface:
    return load_svg("icon.svg", 64)


def sound(name: str):
    """A pygame Sound of assets/sounds/<name>.wav (the mixer must be running)."""
    p = asset_path(f"sounds/{name}.wav")
    try:
        return pygame.mixer.Sound(str(p))
    except (pygame.error, OSError) as exc:
        raise AssetError(p, f"can't be read as a WAV sound ({exc})") from None


def check_assets() -> None:
    """Load every picture and the font once (sounds: their files exist); the first
    problem raises AssetError."""
    for kind in TOKEN_KINDS:
        load_svg(token_svg(kind), 32)
    load_svg("icon.svg", 32)
    label_font(12)
    for name in SOUNDS:
        asset_path(f"sounds/{name}.wav")
