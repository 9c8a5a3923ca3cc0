"""The base input mode: a prompt line, buttons, and handlers that turn clicks and
keys into actions or rules queries.  A mode draws nothing: what it highlights is
drawn by its painter (game.ui.battle.overlays)."""
from __future__ import annotations

from typing import Any

from game.ui import theme
from game.ui.battle.context import BattleContext
from game.ui.battle.panels import Button

__all__ = ["Mode", "side_name"]


def side_name(side: str | None) -> str:
    return theme.SIDE_LABEL.get(side, str(side)) if side else ""


class Mode:
    """Base: a prompt line, buttons, and input handlers that return True when used."""

    name = "mode"
    modal = False            # True: the map below takes no clicks while it is shown
    pauses_ai = False        # True: the AI (and a network seat) waits while it is shown

    def __init__(self, ctx: BattleContext) -> None:
        self.ctx = ctx

    @property
    def game(self) -> Any:
        return self.ctx.game

    @property
    def state(self) -> Any:
        return self.ctx.game.state

    def prompt(self) -> str:
        return ""

    def buttons(self) -> list[Button]:
        return []

    def on_button(self, key: str) -> None:
        pass

    def on_click(self, pos: tuple[int, int], button: int) -> bool:
        return False

    def on_release(self, pos: tuple[int, int], button: int) -> bool:
        return False

    def on_key(self, key: int, mod: int) -> bool:
        return False

    def on_side_click(self, pos: tuple[int, int], button: int) -> bool:
        """A click in the side panel's card area (the deployment tray)."""
        return False

    def update(self, dt: float) -> None:
        pass

    def same_as(self, other: "Mode") -> bool:
        return type(self) is type(other)
