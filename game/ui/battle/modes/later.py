"""The later edition's steps on the battle screen (game.rules.later): input only.

- :class:`FlightMode` - a flight phase: pick one of your Aircraft in the side
  panel's tray (or drag it), click the hex it flies over.  Which hexes expose it
  to enemy Antiair, with the exact odds, is the rules' query
  ``game.rules.later.flight.placement_risk``; a refused placement says why in the
  rules' words (``game.check``).
- :class:`AntiairMode` - the defender answers the Antiair prompt like any
  defensive-fire offer: pick the firing unit (map or Tab), Fire [F] or Hold fire [H].
- :class:`AirstrikeMode` - an airstrike phase: as in the assault phase, click an
  Aircraft, then a ringed enemy.

A mode never decides a rule and never draws: its painter is in
game.ui.battle.overlays.later.  Importing this module registers the three as base
modes (``game.ui.battle.modes.register_base_mode``); the battle screen's overlays
package imports it (through its painters, game.ui.battle.overlays.later).
"""
from __future__ import annotations

from typing import Any

import pygame

from game.rules.actions import Attack, DefensiveFire, EndPhase, PassDefensiveFire, PlaceAircraft
from game.rules.hexes import Hex, hex_label
from game.rules.state import AntiairPrompt
from game.ui.battle.aircraft import is_aircraft
from game.ui.battle.context import BattleContext
from game.ui.battle.modes import register_base_mode
from game.ui.battle.modes.base import Mode, TrayMode, side_name
from game.ui.battle.modes.play import PlayMode
from game.ui.battle.modes.stacked import ConfirmMode
from game.ui.battle.panels import Button, pct

__all__ = ["FlightMode", "AntiairMode", "AirstrikeMode", "antiair_risk", "register"]


def antiair_risk(game: Any, uid: str, hexes: list[Hex]) -> dict[Hex, Any]:
    """Hex -> the rules' PlacementRisk (``game.rules.later.flight.placement_risk``: the
    enemy Antiair shots with their exact odds, and the chance that one disrupts it) for
    every hex of ``hexes`` where placing ``uid`` would provoke Antiair fire."""
    from game.rules.later.flight import placement_risk
    out: dict[Hex, Any] = {}
    for h in hexes:
        risk = placement_risk(game, uid, h)
        if risk.shots:
            out[h] = risk
    return out


# --- flight phase ----------------------------------------------------------------------------
class FlightMode(TrayMode):
    """Place your Aircraft: tray -> hex (later edition: the flight phase)."""

    name = "flight"

    @property
    def side(self) -> str:
        return self.state.active_side

    def waiting(self) -> list[Any]:
        """Your Aircraft off the map (a disrupted one is shown too: it sits this turn out)."""
        return [u for u in self.state.units_of(self.side)
                if is_aircraft(u) and u.hex is None and not u.destroyed]

    def placements(self, uid: str | None) -> set[Hex]:
        if uid is None:
            return set()
        return self.ctx.cached(("place_hexes", uid), lambda: {
            a.hex for a in self.ctx.legal() if isinstance(a, PlaceAircraft) and a.uid == uid})

    def can_place(self) -> list[Any]:
        return [u for u in self.waiting() if self.placements(u.uid)]

    def risk(self, uid: str | None) -> dict[Hex, Any]:
        if uid is None or not self.placements(uid):
            return {}
        return self.ctx.cached(("antiair_risk", uid), lambda: antiair_risk(
            self.game, uid, sorted(self.placements(uid), key=lambda h: (h.r, h.q))))

    def best_strike(self, uid: str, h: Hex) -> tuple[str, Any] | None:
        """The enemy the Aircraft would hit hardest from ``h`` in the airstrike phase and
        the rules' exact odds (game.rules.threat.best_attack, asked on a copy of the game
        with the Aircraft over ``h``), or None when nothing is in reach."""
        def find() -> tuple[str, Any] | None:
            from game.rules.threat import Probe, best_attack, severity
            probe = self.ctx.cached(("strike_probe", uid), lambda: Probe(self.game))
            best: tuple[str, Any] | None = None
            for e in self.state.units.values():
                if e.side == self.side or not e.on_map or e.boarded:
                    continue
                got = best_attack(self.game, uid, e.uid, probe=probe, from_hex=h)
                if got is not None and (best is None or severity(got[1]) > severity(best[1])):
                    best = (e.uid, got[1])
            return best
        return self.ctx.cached(("best_strike", uid, h), find)

    def why_not_place(self, uid: str, h: Hex) -> str | None:
        return self.ctx.cached(("why_place", uid, h), lambda: self.game.check(
            PlaceAircraft(self.side, uid, h)))

    def ensure_selection(self) -> None:
        if getattr(self.ctx, "ai_turn", False):
            return
        sel = self.ctx.selected
        if sel in self.state.units and self.state.units[sel].side == self.side and \
                is_aircraft(self.state.units[sel]):
            return
        ready = self.can_place()
        self.ctx.selected = ready[0].uid if ready else None

    def update(self, dt: float) -> None:
        self.ensure_selection()

    def selected_waiting(self) -> Any | None:
        sel = self.ctx.selected
        u = self.state.units.get(sel) if sel else None
        if u is not None and u.side == self.side and is_aircraft(u) and u.hex is None:
            return u
        return None

    def prompt(self) -> str:
        self.ensure_selection()
        who = side_name(self.side)
        ready = self.can_place()
        u = self.selected_waiting()
        if u is not None and self.placements(u.uid):
            return (f"{who} flight phase: click the hex {u.name} flies over (any hex, enemy "
                    f"units too; red: enemy Antiair can fire at it there). {len(ready)} to place.")
        if ready:
            return f"{who} flight phase: pick an Aircraft in the side panel. {len(ready)} to place."
        if self.waiting():
            return f"{who} flight phase: no Aircraft can fly now. End the phase."
        return f"{who} flight phase: every Aircraft is placed (or you have none). End the phase."

    def buttons(self) -> list[Button]:
        return [Button("end", "End phase", primary=True, hotkey="E")]

    def on_button(self, key: str) -> None:
        if key == "end":
            self.end_phase()

    def end_phase(self) -> None:
        left = self.can_place()
        side = self.side
        if left:
            names = ", ".join(u.name for u in left[:3])
            self.ctx.push(ConfirmMode(
                self.ctx, f"{len(left)} Aircraft not placed ({names}): they stay off the map "
                          f"this turn. End the flight phase?",
                lambda: self.ctx.send(EndPhase(side))))
        else:
            self.ctx.send(EndPhase(side))

    def on_key(self, key: int, mod: int) -> bool:
        if key in (pygame.K_e, pygame.K_RETURN, pygame.K_KP_ENTER):
            self.end_phase()
            return True
        if key == pygame.K_TAB:
            ready = [u.uid for u in self.can_place()]
            if ready:
                cur = self.ctx.selected
                self.ctx.selected = ready[(ready.index(cur) + 1) % len(ready)] \
                    if cur in ready else ready[0]
            return True
        return False

    def tray_title(self) -> str:
        return f"{side_name(self.side)} Aircraft off the map ({len(self.waiting())})"

    def place(self, uid: str, h: Hex) -> bool:
        if h not in self.placements(uid):
            u = self.state.units[uid]
            why = self.game.check(PlaceAircraft(self.side, uid, h)) or \
                "not a hex it can fly over now"
            self.ctx.note(f"{u.name} can't fly over {hex_label(h)}: {why}")
            return False
        if self.ctx.send(PlaceAircraft(self.side, uid, h)):
            ready = self.can_place()
            if ready and self.ctx.selected == uid:
                self.ctx.selected = ready[0].uid
        return True

    def on_click(self, pos, button) -> bool:
        if button == 3:
            self.ctx.selected = None
            return True
        uid = self.ctx.view.unit_at(self.state, pos)
        sel = self.selected_waiting()
        h = self.ctx.hover_hex
        if button == 1 and sel is not None and h is not None:
            return self.place(sel.uid, h)
        if uid is not None:
            self.ctx.selected = uid
            return True
        return False


# --- the Antiair prompt ------------------------------------------------------------------------
class AntiairMode(Mode):
    """The defender answers an Antiair prompt unit by unit (later edition: placing an
    Aircraft in or next to an enemy Antiair unit provokes its defensive fire)."""

    name = "antiair"

    def __init__(self, ctx: BattleContext) -> None:
        super().__init__(ctx)
        self.choice: str | None = None

    @property
    def prompt_obj(self) -> AntiairPrompt:
        return self.state.pending

    def same_as(self, other: Mode) -> bool:
        return False            # a new offer after each shot (fewer eligible units)

    def eligible(self) -> list[str]:
        legal = {a.uid for a in self.ctx.legal() if isinstance(a, DefensiveFire)}
        return [uid for uid in self.prompt_obj.eligible if uid in legal]

    def current(self) -> str | None:
        el = self.eligible()
        if not el:
            return None
        if self.choice not in el:
            self.choice = el[0]
        return self.choice

    def odds(self) -> dict[str, Any]:
        """uid -> the rules' exact odds of its shot at the Aircraft."""
        p = self.prompt_obj
        return self.ctx.cached("antiair_odds", lambda: {
            uid: self.game.odds(uid, p.aircraft, defensive=True) for uid in self.eligible()})

    def risk(self) -> Any:
        """The rules' PlacementRisk of the Aircraft where it is (all remaining shots)."""
        from game.rules.later.flight import placement_risk
        p = self.prompt_obj
        return self.ctx.cached("antiair_now", lambda: placement_risk(self.game, p.aircraft, p.hex))

    def prompt(self) -> str:
        p = self.prompt_obj
        plane = self.state.units[p.aircraft]
        return (f"{side_name(self.state.to_act)} player: Antiair fire at {plane.name} over "
                f"{hex_label(p.hex)}? Choose the firing unit on the map or with Tab.")

    def buttons(self) -> list[Button]:
        cur = self.current()
        out = []
        if cur is not None:
            o = self.odds()[cur]
            out.append(Button("fire", f"Fire ({pct(o.p_stopped)} to disrupt)", primary=True,
                              hotkey="F"))
        out.append(Button("hold", "Hold fire", hotkey="H"))
        return out

    def on_button(self, key: str) -> None:
        side = self.state.to_act
        cur = self.current()
        if key == "fire" and cur is not None:
            self.ctx.send(DefensiveFire(side, cur))
        elif key == "hold":
            self.ctx.send(PassDefensiveFire(side))

    def on_key(self, key: int, mod: int) -> bool:
        if key == pygame.K_f:
            self.on_button("fire")
            return True
        if key == pygame.K_h:
            self.on_button("hold")
            return True
        if key == pygame.K_TAB:
            el = self.eligible()
            cur = self.current()
            if el and cur is not None:
                self.choice = el[(el.index(cur) + 1) % len(el)]
            return True
        return False

    def on_click(self, pos, button) -> bool:
        uid = self.ctx.view.unit_at(self.state, pos)
        if uid in self.eligible():
            self.choice = uid
            self.ctx.selected = uid
        return True             # nothing else may be done now


# --- airstrike phase ---------------------------------------------------------------------------
class AirstrikeMode(PlayMode):
    """Attack with each Aircraft over the map (hits are face down, resolved with the
    assault's in the casualty phase) - picked and shown as in the assault phase."""

    name = "airstrike"

    def attack_options(self) -> dict[str, list[Any]]:
        u = self.my_unit()
        if u is None or not self.state.phase.is_airstrike:
            return {}
        legal = {(a.target, a.mode) for a in self.unit_actions(u.uid) if isinstance(a, Attack)}
        if not legal:
            return {}
        return self.ctx.cached(("targets", u.uid), lambda: self._targets(u.uid, legal))

    def planes(self) -> list[Any]:
        return [x for x in self.state.live_units(self.side) if is_aircraft(x) and x.on_map]

    def prompt(self) -> str:
        who = side_name(self.side)
        u = self.my_unit()
        if u is None or not is_aircraft(u):
            if not self.planes():
                return f"{who} airstrike phase: none of your Aircraft is over the map. End the phase."
            return f"{who} airstrike phase: click one of your Aircraft over the map."
        if self.attack_options():
            return (f"{who} airstrike: {u.name} - click a ringed enemy to attack it (hover for "
                    f"the exact odds). Its hits count with the assault's.")
        return self.options(u.uid).summary or f"{who} airstrike: {u.name} can't attack now."

    def _buttons(self) -> list[Button]:
        # Aircraft never turn
        return [b for b in super()._buttons() if b.key != "turn"]

    def on_key(self, key, mod) -> bool:
        if key == pygame.K_TAB:
            planes = [x.uid for x in self.planes() if self.unit_actions(x.uid)]
            if planes:
                cur = self.ctx.selected
                self.ctx.selected = planes[(planes.index(cur) + 1) % len(planes)] \
                    if cur in planes else planes[0]
            return True
        return super().on_key(key, mod)


def register() -> None:
    """Make these the base modes of the later edition's states (asked first)."""
    def pending(ctx: BattleContext) -> Any:
        return ctx.game.state.pending

    register_base_mode(lambda ctx: isinstance(pending(ctx), AntiairPrompt), AntiairMode)
    register_base_mode(lambda ctx: pending(ctx) is None and ctx.game.state.phase.is_flight,
                       FlightMode)
    register_base_mode(lambda ctx: pending(ctx) is None and ctx.game.state.phase.is_airstrike,
                       AirstrikeMode)


register()
