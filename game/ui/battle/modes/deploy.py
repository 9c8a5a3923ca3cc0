"""Deployment: pick a unit in the tray, click or drag it to a legal hex.

Input only: the drawing is in game.ui.battle.overlays."""
from __future__ import annotations

from typing import Any

import pygame

from game.rules.actions import Deploy, EndPhase, Undeploy
from game.rules.families.setup import held_in_reserve
from game.rules.hexes import Hex, hex_label
from game.ui.battle.modes.base import ChoiceMode, ConfirmMode, FacingMode, TrayMode, side_name
from game.ui.battle.panels import Button

__all__ = ["DeployMode"]


class DeployMode(TrayMode):
    name = "deploy"

    @property
    def side(self) -> str:
        return self.state.to_act

    def waiting(self) -> list[Any]:
        # Aircraft (later edition) are not deployed: they fly in during the flight phase
        # nor are Paratroopers and Heroes: they wait in reserve (ruling 21)
        return [u for u in self.state.units_of(self.side) if u.hex is None and not u.destroyed
                and not u.card.is_aircraft and held_in_reserve(u) is None]

    def held(self) -> list[Any]:
        """The side's units that wait in reserve instead (ruling 21)."""
        return [u for u in self.state.units_of(self.side) if u.hex is None
                and not u.destroyed and held_in_reserve(u) is not None]

    def deploys(self, uid: str) -> list[Deploy]:
        return self.ctx.cached(("deploys", uid), lambda: [
            a for a in self.ctx.legal() if isinstance(a, Deploy) and a.uid == uid])

    def ensure_selection(self) -> None:
        if getattr(self.ctx, "ai_turn", False):
            return          # solo: the AI's units are not picked for the player to look at
        sel = self.ctx.selected
        st = self.state
        if sel in st.units and st.units[sel].side == self.side:
            return
        w = self.waiting()
        self.ctx.selected = w[0].uid if w else None

    def update(self, dt: float) -> None:
        self.ensure_selection()

    def prompt(self) -> str:
        self.ensure_selection()
        n = len(self.waiting())
        end = self.state.ends.get(self.side, "?")
        held = self.held()
        later = (f" {len(held)} wait in reserve (Paratroopers, Heroes): they enter during "
                 f"your movement phases.") if held else ""
        if n:
            return (f"{side_name(self.side)} deployment ({end} end): pick a unit in the side panel, then "
                    f"click or drag it to a highlighted hex. {n} to place.{later}")
        return (f"{side_name(self.side)} deployment: every unit is placed. Done, or take one "
                f"back.{later}")

    def buttons(self) -> list[Button]:
        sel = self.ctx.selected
        placed = sel in self.state.units and self.state.units[sel].hex is not None
        done = any(isinstance(a, EndPhase) for a in self.ctx.legal())
        return [Button("takeback", "Take back", enabled=placed, hotkey="Bksp"),
                Button("done", "Done", enabled=done, primary=True, hotkey="Enter")]

    def on_button(self, key: str) -> None:
        if key == "takeback":
            self.take_back(self.ctx.selected)
        elif key == "done":
            self.ctx.send(EndPhase(self.side))

    def take_back(self, uid: str | None) -> None:
        if uid is None:
            return
        if self.ctx.send(Undeploy(self.side, uid)):
            self.ctx.selected = uid

    def on_key(self, key, mod) -> bool:
        if key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            # a stray Enter never commits the whole deployment: it asks first
            if any(isinstance(a, EndPhase) for a in self.ctx.legal()):
                side = self.side
                self.ctx.push(ConfirmMode(
                    self.ctx, f"Done deploying? The {side_name(side)} units stay where "
                                f"they are for the battle.",
                    lambda: self.ctx.send(EndPhase(side)), yes="Done deploying",
                    no="Keep deploying", enter_confirms=False))
            return True
        if key in (pygame.K_BACKSPACE, pygame.K_DELETE):
            sel = self.ctx.selected
            if sel in self.state.units and self.state.units[sel].hex is not None:
                self.take_back(sel)
            return True
        return False

    def tray_title(self) -> str:
        return f"{side_name(self.side)} units to place ({len(self.waiting())})"

    def place(self, uid: str, h: Hex) -> bool:
        u = self.state.units[uid]
        acts = self.deploys(uid)
        here = [a for a in acts if a.hex == h and a.carrier is None]
        board = [a for a in acts if a.hex == h and a.carrier is not None]
        if not here and not board:
            self.ctx.note(f"{u.name} can't be placed in {hex_label(h)}: "
                            f"{self.game.check(Deploy(self.side, uid, h, 0)) or 'not a legal hex'}")
            return False

        def send(a: Deploy) -> None:
            # placed: the next unit waiting is picked, so the next click places it
            if self.ctx.send(a) and self.ctx.selected == a.uid:
                w = self.waiting()
                if w:
                    self.ctx.selected = w[0].uid

        def put(a: Deploy) -> None:
            if u.is_vehicle:
                self.ctx.push(FacingMode(self.ctx, h, a.facing,
                                           lambda f, a=a: send(
                                               Deploy(a.side, a.uid, a.hex,
                                                      a.facing if f is None else f, a.carrier)),
                                           keep_label="Keep facing", unit=u))
            else:
                send(a)

        if board and here:
            carrier = self.state.units[board[0].carrier]
            self.ctx.push(ChoiceMode(self.ctx, f"{u.name}: board {carrier.name} or stand in "
                                                   f"{hex_label(h)}?",
                                       [(f"Board {carrier.name}", lambda: put(board[0])),
                                        ("Place in the hex", lambda: put(here[0]))]))
        else:
            put((here or board)[0])
        return True

    def on_click(self, pos, button) -> bool:
        st = self.state
        uid = self.ctx.view.unit_at(st, pos)
        if uid is not None and st.units[uid].side == self.side:
            sel = self.ctx.selected
            if button == 3:
                self.take_back(uid)
                return True
            u = st.units[sel] if sel in st.units else None
            # a Soldier may be dropped onto its own transport
            if u is not None and u.hex is None and u.is_soldier and st.units[uid].is_vehicle:
                return self.place(sel, st.units[uid].hex)
            self.ctx.selected = uid
            return True
        h = self.ctx.hover_hex
        sel = self.ctx.selected
        if button == 1 and h is not None and sel in st.units and st.units[sel].hex is None:
            self.place(sel, h)
            return True
        return False
