"""Answering the rules' pending questions: defensive fire (ruling 14), where a
dismounted Soldier goes.

Input only: the drawing is in game.ui.battle.overlays."""
from __future__ import annotations

from typing import Any

import pygame

from game.rules.actions import PassDefensiveFire, PlaceDismounted
from game.rules.hexes import hex_label
from game.rules.state import DefensiveFirePrompt, DismountPlacement
from game.rules.queries import defensive_fire_options
from game.ui.battle.context import BattleContext
from game.ui.battle.modes.base import Mode, side_name
from game.ui.battle.panels import Button, pct

__all__ = ["DefensiveFireMode", "DismountMode"]


class DefensiveFireMode(Mode):
    """The defender answers a defensive-fire offer unit by unit (ruling 14)."""

    name = "defensive_fire"

    def __init__(self, ctx: BattleContext) -> None:
        super().__init__(ctx)
        self.choice: str | None = None

    @property
    def prompt_obj(self) -> DefensiveFirePrompt:
        return self.state.pending

    def same_as(self, other: Mode) -> bool:
        return False      # a new prompt each time (new stage / fewer eligible units)

    def eligible(self) -> list[str]:
        return list(self.prompt_obj.eligible)

    def current(self) -> str:
        el = self.eligible()
        if self.choice not in el:
            self.choice = el[0]
        return self.choice

    def options(self) -> dict[str, Any]:
        """uid -> DefenderOptions: the rules' answer per defender and stage
        (game.rules.queries.defensive_fire_options); never a hypothetical of our own."""
        return self.ctx.cached("df_options", lambda: {
            o.uid: o for o in defensive_fire_options(self.game)})

    def option(self, uid: str | None = None) -> Any:
        return self.options().get(uid or self.current())

    def prompt(self) -> str:
        p = self.prompt_obj
        mover = self.state.units[p.mover]
        side = self.state.to_act
        where = f"leaving {hex_label(p.from_hex)}" if p.stage == "leave" else \
            f"entering {hex_label(p.to_hex)}"
        text = (f"{side_name(side)} player: defensive fire at {mover.name} {where}? "
                f"Choose the firing unit on the map or with Tab.")
        o = self.option()
        if o is not None and o.next is not None and not o.next.legal:
            text += f" Next hex: {o.next.reason}."
        return text

    def buttons(self) -> list[Button]:
        o = self.option()
        here, nxt = o.here, o.next
        out = [Button("fire", f"Fire here ({pct(here.p_stopped)})" if here.legal
                      else "Fire here: not possible", primary=here.legal, hotkey="F",
                      enabled=here.legal, tip=here.reason or "")]
        if nxt is not None:
            out.append(Button("wait", f"Fire at the next hex ({pct(nxt.p_stopped)})" if nxt.legal
                              else f"Next hex: {nxt.reason}", hotkey="N", enabled=nxt.legal,
                              tip=nxt.reason or ""))
        out.append(Button("hold", "Hold fire", hotkey="H"))
        return out

    def on_button(self, key: str) -> None:
        p = self.prompt_obj
        side = self.state.to_act
        o = self.option()
        if key == "fire" and o.here.legal:
            self.ctx.send(o.here.action)
        elif key == "wait" and o.next is not None and o.next.legal:
            self.ctx.send(o.next.action)
        elif key == "hold":
            self.ctx.hold_fire = (p.mover, p.to_hex)
            self.ctx.send(PassDefensiveFire(side))

    def on_key(self, key, mod) -> bool:
        keys = {pygame.K_f: "fire", pygame.K_n: "wait", pygame.K_h: "hold"}
        if key in keys:
            b = self.ctx.buttons.get(keys[key])
            if b is not None and not b.enabled:
                self.ctx.note(b.tip or "not possible now")
            elif b is not None or keys[key] == "hold":
                self.on_button(keys[key])
            return True
        if key == pygame.K_TAB:
            el = self.eligible()
            self.choice = el[(el.index(self.current()) + 1) % len(el)]
            return True
        return False

    def on_click(self, pos, button) -> bool:
        uid = self.ctx.view.unit_at(self.state, pos)
        if uid in self.eligible():
            self.choice = uid
            self.ctx.selected = uid
            return True
        return True         # nothing else may be done now

    def rows(self) -> list[tuple[str, str, float | None, float | None]]:
        """Every eligible unit with its chance to stop the mover here and at the next
        hex (None where the rules refuse that shot: see options() for why)."""
        return [(uid, o.name, o.here.p_stopped, None if o.next is None else o.next.p_stopped)
                for uid, o in self.options().items()]


class DismountMode(Mode):
    name = "dismount"

    def prompt(self) -> str:
        p: DismountPlacement = self.state.pending
        u = self.state.units[p.uid]
        return f"{side_name(self.state.to_act)} player: choose where {u.name} goes (a highlighted hex)."

    def on_click(self, pos, button) -> bool:
        p: DismountPlacement = self.state.pending
        h = self.ctx.hover_hex
        if h in p.candidates:
            self.ctx.send(PlaceDismounted(self.state.to_act, p.uid, h))
        return True
