"""The base input mode: a prompt line, buttons, and handlers that turn clicks and
keys into actions or rules queries; and the building blocks other modes stack on
top (a facing, a confirm, a choice).  A mode draws nothing: what it highlights is
drawn by its painter (game.ui.battle.overlays)."""
from __future__ import annotations

from typing import Any, Callable, Sequence

import pygame

from game.rules.hexes import DIRECTION_NAMES, Hex, hex_label
from game.ui import theme
from game.ui.battle.context import BattleContext
from game.ui.battle.panels import Button, roster_layout

__all__ = ["Mode", "FacingMode", "ConfirmMode", "ChoiceMode", "side_name"]


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


# --- the building blocks other modes stack (a facing, a confirm, a choice) ------------
class FacingMode(Mode):
    """Pick a facing for a Vehicle in ``hex``: click one of six arrows, or keep."""

    name = "facing"

    def __init__(self, ctx: BattleContext, hex: Hex, default: int,
                 on_pick: Callable[[int | None], Any], keep_label: str = "Keep",
                 unit: Any = None) -> None:
        super().__init__(ctx)
        self.hex = hex
        self.unit = unit            # shown in the hex, turned to the arrow under the mouse
        self.default = default % 6
        self.on_pick = on_pick
        self.keep_label = keep_label

    def wedge_pos(self, facing: int) -> tuple[int, int]:
        lay = self.ctx.view.layout
        c = lay.hex_to_pixel(self.hex)
        n = lay.hex_to_pixel(self.hex.neighbor(facing))
        return (round(c[0] + (n[0] - c[0]) * 0.72), round(c[1] + (n[1] - c[1]) * 0.72))

    def wedge_at(self, pos) -> int | None:
        r = max(10, self.ctx.view.layout.size * 0.34)
        for f in range(6):
            x, y = self.wedge_pos(f)
            if (pos[0] - x) ** 2 + (pos[1] - y) ** 2 <= r * r:
                return f
        return None

    def prompt(self) -> str:
        return (f"Choose the facing in {hex_label(self.hex)}: click an arrow "
                f"(now {DIRECTION_NAMES[self.default]}).")

    def buttons(self) -> list[Button]:
        return [Button("keep", self.keep_label, primary=True, hotkey="Enter"),
                Button("cancel", "Cancel", hotkey="Esc")]

    def pick(self, f: int | None) -> None:
        self.ctx.pop(self)
        self.on_pick(f)

    def on_button(self, key: str) -> None:
        if key == "keep":
            self.pick(None)
        else:
            self.ctx.pop(self)

    def on_click(self, pos, button) -> bool:
        f = self.wedge_at(pos)
        if f is not None:
            self.pick(f)
        elif button == 3:
            self.ctx.pop(self)
        return True

    def on_key(self, key, mod) -> bool:
        if key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.pick(None)
            return True
        if key == pygame.K_ESCAPE:
            self.ctx.pop(self)
            return True
        if pygame.K_1 <= key <= pygame.K_6:
            self.pick(key - pygame.K_1)
            return True
        return False


class ConfirmMode(Mode):
    name = "confirm"
    modal = True

    def __init__(self, ctx: BattleContext, text: str, on_yes: Callable[[], Any],
                 yes: str = "Yes", no: str = "No", enter_confirms: bool = True) -> None:
        super().__init__(ctx)
        self.text = text
        self.on_yes = on_yes
        self.yes, self.no = yes, no
        self.enter_confirms = enter_confirms    # False: only Y or a click says yes

    def prompt(self) -> str:
        return self.text

    def buttons(self) -> list[Button]:
        return [Button("yes", self.yes, primary=True,
                       hotkey="Enter" if self.enter_confirms else "Y"),
                Button("no", self.no, hotkey="Esc")]

    def on_button(self, key: str) -> None:
        self.ctx.pop(self)
        if key == "yes":
            self.on_yes()

    def on_key(self, key, mod) -> bool:
        yes = (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_e, pygame.K_y) \
            if self.enter_confirms else (pygame.K_y,)
        if key in yes:
            self.on_button("yes")
            return True
        if key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            return True
        if key in (pygame.K_ESCAPE, pygame.K_n):
            self.on_button("no")
            return True
        return False

    def on_click(self, pos, button) -> bool:
        return True


class ChoiceMode(Mode):
    name = "choice"
    modal = True

    def __init__(self, ctx: BattleContext, text: str, options: Sequence[tuple[str, Callable[[], Any]]]) -> None:
        super().__init__(ctx)
        self.text = text
        self.options = list(options)

    def prompt(self) -> str:
        return self.text

    def buttons(self) -> list[Button]:
        out = [Button(f"opt{i}", label, primary=i == 0, hotkey=str(i + 1))
               for i, (label, _) in enumerate(self.options)]
        return out + [Button("cancel", "Cancel", hotkey="Esc")]

    def on_button(self, key: str) -> None:
        self.ctx.pop(self)
        if key.startswith("opt"):
            self.options[int(key[3:])][1]()

    def on_key(self, key, mod) -> bool:
        if key == pygame.K_ESCAPE:
            self.ctx.pop(self)
            return True
        if pygame.K_1 <= key < pygame.K_1 + len(self.options):
            self.on_button(f"opt{key - pygame.K_1}")
            return True
        return False

    def on_click(self, pos, button) -> bool:
        return True


# --- a tray of units to put on the map (deployment, the later edition's flight phase) ---
class TrayMode(Mode):
    """A mode whose side panel is a tray of units to put on the map; subclasses say
    which units wait (``waiting``) and the tray's title."""

    def __init__(self, ctx: BattleContext) -> None:
        super().__init__(ctx)
        self.dragging: str | None = None      # the tray unit being dragged to a hex

    def waiting(self) -> list[Any]:
        raise NotImplementedError

    def tray_title(self) -> str:
        raise NotImplementedError

    @property
    def tray(self) -> dict[str, pygame.Rect]:
        """uid -> the clickable rect of each unit in the tray (the painter draws the
        tray with the same layout)."""
        w = self.waiting()
        if not w:
            return {}
        return {uid: hit for uid, (_, hit) in
                roster_layout(self.ctx.card_rect, w, self.tray_title()).items()}

    def on_side_click(self, pos: Any, button: int) -> bool:
        for uid, r in self.tray.items():
            if r.collidepoint(pos):
                self.ctx.selected = uid
                self.dragging = uid
                return True
        return False

    def place(self, uid: str, h: Hex) -> bool:
        raise NotImplementedError

    def on_release(self, pos: Any, button: int) -> bool:
        """A tray unit dragged onto a hex of the map is put there."""
        uid, self.dragging = self.dragging, None
        if uid is None or not self.ctx.view.rect.collidepoint(pos):
            return False
        h = self.ctx.view.hex_at(pos)
        if h is not None and self.state.units[uid].hex is None:
            self.place(uid, h)
            return True
        return False
