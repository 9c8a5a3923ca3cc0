"""What the battle screen draws over the map: the board picture, what the input
modes highlight (one painter per mode: game.ui.battle.overlays.painter), the line
of sight view and the legends.  Overlays draw; they take no input and decide
nothing.

Importing the package registers the painters of every mode of the battle screen.
"""
from __future__ import annotations

from importlib import import_module

from game.ui.battle.overlays.board import BattleOverlays
from game.ui.battle.overlays.painter import Painter, painter_class, paints

for _part in ("setup", "deploy", "play", "fire", "stacked", "casualty", "recap", "later"):
    import_module(f"{__name__}.{_part}")       # each registers its painters (@paints)

__all__ = ["BattleOverlays", "Painter", "painter_class", "paints"]
