"""The setup steps: go first or second (coin flip, initiative), pick an end, place the
Assault objective; and the game's end.

Input only: the drawing is in game.ui.battle.overlays."""
from __future__ import annotations


import pygame

from game.rules.actions import ChooseEnd, ChooseObjective, ChooseOrder
from game.rules.hexes import Hex
from game.rules.state import OrderChoice
from game.rules.wording import side_player
from game.ui.battle.context import BattleContext
from game.ui.battle.modes.base import Mode, side_name
from game.ui.battle.panels import Button

__all__ = ["OrderMode", "EndMode", "ObjectiveMode", "GameOverMode"]


class OrderMode(Mode):
    name = "order"

    def prompt(self) -> str:
        p: OrderChoice = self.state.pending
        if p.reason == "coin flip":
            return (f"Coin flip: {p.side} {'win' if p.side == 'Allies' else 'wins'} "
                    f"the toss. Go first or second?")
        rolls = self.state.initiative_rolls
        tot = {s: sum(r) for s, r in rolls.items()}
        other = "Allies" if p.side == "Axis" else "Axis"
        verb = "win" if p.side == "Allies" else "wins"
        return (f"Turn {self.state.turn}: {p.side} {verb} the initiative ({tot.get(p.side, 0)} to "
                f"{tot.get(other, 0)}). Go first or second?")

    def buttons(self) -> list[Button]:
        return [Button("first", "Go first", primary=True, hotkey="1"),
                Button("second", "Go second", hotkey="2")]

    def on_button(self, key: str) -> None:
        side = self.state.pending.side
        self.ctx.send(ChooseOrder(side, key == "first"))

    def on_key(self, key: int, mod: int) -> bool:
        if key in (pygame.K_1, pygame.K_KP1, pygame.K_2, pygame.K_KP2):
            self.on_button("first" if key in (pygame.K_1, pygame.K_KP1) else "second")
            return True
        return False


class EndMode(Mode):
    name = "end"

    def __init__(self, ctx: BattleContext) -> None:
        super().__init__(ctx)
        self.hover_end: str | None = None

    def prompt(self) -> str:
        side = self.state.to_act
        return f"{side_name(side)} player: choose the end of the battle map you start from."

    def buttons(self) -> list[Button]:
        return [Button("left", "Left end", primary=True), Button("right", "Right end")]

    def on_button(self, key: str) -> None:
        self.ctx.send(ChooseEnd(self.state.to_act, key))

    def hovered_end(self) -> str | None:
        mouse = self.ctx.mouse
        end = None
        for key in ("left", "right"):
            b = self.ctx.buttons.get(key)
            if b is not None and b.rect.collidepoint(mouse):
                end = key
        h = self.ctx.hover_hex
        if end is None and h is not None:
            cx = self.ctx.view.center(h)[0]
            end = "left" if cx < self.ctx.view.rect.centerx else "right"
        return end

    def on_click(self, pos, button) -> bool:
        h = self.ctx.hover_hex
        if button == 1 and h is not None:
            cx = self.ctx.view.center(h)[0]
            self.on_button("left" if cx < self.ctx.view.rect.centerx else "right")
            return True
        return False


class ObjectiveMode(Mode):
    name = "objective"

    def legal(self) -> set[Hex]:
        return {a.hex for a in self.ctx.legal() if isinstance(a, ChooseObjective)}

    def prompt(self) -> str:
        return (f"{side_name(self.state.to_act)} player (defender): click the hex for the "
                f"objective (not next to the map edge).")

    def on_click(self, pos, button) -> bool:
        h = self.ctx.hover_hex
        if button == 1 and h is not None and h in self.legal():
            self.ctx.send(ChooseObjective(self.state.to_act, h))
            return True
        return False


class GameOverMode(Mode):
    name = "game_over"

    def prompt(self) -> str:
        o = self.state.outcome
        if o is None:
            return "The game is over."
        who = f"{side_player(o.winner)} wins" if o.winner else "Draw"
        return f"{who}: {o.reason}."

    def buttons(self) -> list[Button]:
        return [Button("result", "See the result", primary=True, hotkey="Enter")]

    def on_button(self, key: str) -> None:
        self.ctx.show_victory()

    def on_key(self, key, mod) -> bool:
        if key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            self.ctx.show_victory()
            return True
        return False
