"""A painter draws what one input mode highlights (the mode itself draws nothing):
under the units (cached with the board picture while :meth:`Painter.under_key`
and the state are unchanged), over the units (only the top mode's), and in the
side panel's card area.  A painter reads its mode and the context; it decides
nothing and takes no input.

``@paints(ModeClass)`` registers a painter; :func:`painter_class` finds the one
for a mode (a subclass of a mode uses its parent's painter unless it has one).
"""
from __future__ import annotations

from typing import Any, Callable, TypeVar

import pygame

from game.ui.battle.context import BattleContext

__all__ = ["Painter", "paints", "painter_class", "REACH_FILL", "PASS_FILL", "LEGAL_FILL",
           "SELECT_RING", "TARGET_RING"]

REACH_FILL = (70, 150, 230, 92)
PASS_FILL = (70, 150, 230, 40)
LEGAL_FILL = (255, 236, 120, 105)
SELECT_RING = (255, 236, 120)
TARGET_RING = (236, 70, 56)


class Painter:
    """Draws nothing: the painter of a mode that highlights nothing."""

    def __init__(self, mode: Any, ctx: BattleContext) -> None:
        self.mode = mode
        self.ctx = ctx

    @property
    def game(self) -> Any:
        return self.ctx.game

    @property
    def state(self) -> Any:
        return self.ctx.game.state

    def under_key(self) -> Any:
        """What, besides the game state, :meth:`draw_under` depends on."""
        return None

    def draw_under(self, surface: pygame.Surface) -> None:
        """Map overlays drawn below the units.  They may depend only on the state and
        on :meth:`under_key` (the screen caches the map, these overlays and the units
        as one picture while nothing changes)."""

    def draw_over(self, surface: pygame.Surface) -> None:
        """Drawn above the units (tooltips, boxes); only the top mode's is drawn."""

    def draw_side(self, surface: pygame.Surface, rect: pygame.Rect) -> bool:
        """Draw into the side panel's card area instead of the card (True if it did)."""
        return False

    def top_box_bottom(self) -> int | None:
        """The bottom edge (window pixels) of a box :meth:`draw_over` puts at the top of
        the map, or None: the seat-change banner is drawn below it, not under it."""
        return None


_PAINTERS: dict[type, type[Painter]] = {}
P = TypeVar("P", bound=type[Painter])


def paints(mode_cls: type) -> Callable[[P], P]:
    """Class decorator: the painter of ``mode_cls`` (and of its subclasses)."""
    def register(cls: P) -> P:
        _PAINTERS[mode_cls] = cls
        return cls
    return register


def painter_class(mode: Any) -> type[Painter]:
    for cls in type(mode).__mro__:
        found = _PAINTERS.get(cls)
        if found is not None:
            return found
    return Painter
