"""Reserves on the battle screen (rulings 21-23): input only.

:class:`ReserveMode` is the movement phase's :class:`PlayMode` for a side that still
has units waiting off the map (Paratroopers, Heroes).  Everything of the movement
phase works as usual; besides, the side panel's tray shows the units in reserve
(when no unit on the map is selected: right-click, or R, brings it back).  Pick one
there (click, or R to cycle), then click a shaded hex - or drag it there - to bring
it in.  Which hexes, when, and why not are the rules' answers:
``game.legal_actions()`` (the ``EnterReserve`` actions), ``game.check`` and
``game.rules.families.reserves.timing_problem``.  Its painter is in
game.ui.battle.overlays.reserves.
"""
from __future__ import annotations

from typing import Any

import pygame

from game.rules.actions import EndPhase, EnterReserve, Move
from game.rules.families.reserves import timing_problem, waiting
from game.rules.abilities.roster_reserves import reserve_kind
from game.rules.hexes import Hex, hex_label
from game.ui.battle.context import BattleContext
from game.ui.battle.modes import register_base_mode
from game.ui.battle.modes.base import ConfirmMode, TrayMode, side_name
from game.ui.battle.modes.play import PlayMode

__all__ = ["ReserveMode", "applies"]


class ReserveMode(PlayMode, TrayMode):
    """The movement phase with units in reserve: the tray, the shaded entry hexes."""

    name = "reserves"

    def waiting(self) -> list[Any]:
        return list(waiting(self.state, self.side))

    def tray_title(self) -> str:
        return f"{side_name(self.side)} units in reserve ({len(self.waiting())})"

    def selected_reserve(self) -> Any | None:
        sel = self.ctx.selected
        u = self.state.units.get(sel) if sel else None
        if u is not None and u.side == self.side and u in self.waiting():
            return u
        return None

    def shows_tray(self) -> bool:
        """The tray is in the side panel unless a unit on the map is selected."""
        return self.my_unit() is None

    def entries(self, uid: str | None) -> set[Hex]:
        if uid is None:
            return set()
        return self.ctx.cached(("entry_hexes", uid), lambda: {
            a.hex for a in self.ctx.legal() if isinstance(a, EnterReserve) and a.uid == uid})

    def when_note(self, u: Any) -> str:
        """When and how ``u`` may enter, or the rules' reason it can't now."""
        why = self.ctx.cached(("reserve_when", u.uid), lambda: timing_problem(self.state, u))
        kind = reserve_kind(u.card) or ""
        if why is not None:
            return why[:1].upper() + why[1:] + "."
        if not self.entries(u.uid):
            if kind == "hero":
                return (f"{u.name} may enter now, but no hex holding a Soldier of its "
                        f"nation ({u.card.nationality}) has room for it.")
            return f"{u.name} may drop now, but no hex is open to it."
        n = len(self.entries(u.uid))
        if kind == "paratrooper":
            return (f"{u.name} may drop now: click one of the {n} shaded hexes (none next to "
                    f"an enemy). Dropping ends your movement phase (ruling 22).")
        return (f"{u.name} may enter now: click a shaded hex, where a Soldier of its nation "
                f"({u.card.nationality}) is. It may still move this phase (ruling 23).")

    def why_not_enter(self, uid: str, h: Hex) -> str | None:
        return self.ctx.cached(("why_enter", uid, h), lambda: self.game.check(
            EnterReserve(self.side, uid, h)))

    def prompt(self) -> str:
        u = self.selected_reserve()
        who = side_name(self.side)
        if u is not None:
            return f"{who} movement: {self.when_note(u)}"
        if self.my_unit() is None:
            n = len(self.waiting())
            return (f"{who} movement: click one of your units, or one of the {n} in reserve "
                    f"in the side panel (R).")
        return super().prompt()

    def end_phase(self) -> None:
        """Ending the phase with units that could enter now: say they wait, once."""
        ready = [u for u in self.waiting() if self.entries(u.uid)]
        if not ready:
            super().end_phase()
            return
        side = self.side
        names = ", ".join(u.name for u in ready[:3]) + ("..." if len(ready) > 3 else "")
        idle = [u for u in self.state.live_units(side)
                if not u.acted and not u.boarded and
                any(not isinstance(a, EndPhase) for a in self.unit_actions(u.uid))]
        more = f" {len(idle)} unit(s) on the map have not acted either." if idle else ""
        self.ctx.push(ConfirmMode(
            self.ctx, f"{len(ready)} unit(s) in reserve could enter now ({names}): they wait "
                      f"off the map.{more} End the movement phase?",
            lambda: self.ctx.send(EndPhase(side))))

    def on_key(self, key: int, mod: int) -> bool:
        if key == pygame.K_r:
            w = [u.uid for u in self.waiting()]
            if w:
                cur = self.ctx.selected
                self.ctx.selected = w[(w.index(cur) + 1) % len(w)] if cur in w else w[0]
            return True
        return super().on_key(key, mod)

    def place(self, uid: str, h: Hex) -> bool:
        u = self.state.units[uid]
        if h not in self.entries(uid):
            why = self.why_not_enter(uid, h) or "not a hex it may enter now"
            self.ctx.note(f"{u.name} can't enter in {hex_label(h)}: {why}")
            return False
        idle = [x for x in self.state.live_units(self.side)
                if not x.acted and not x.boarded and any(
                    isinstance(a, Move) for a in self.unit_actions(x.uid))]
        if reserve_kind(u.card) == "paratrooper" and idle:
            names = ", ".join(x.name for x in idle[:3]) + ("..." if len(idle) > 3 else "")
            self.ctx.push(ConfirmMode(
                self.ctx, f"Dropping {u.name} ends your movement phase: {len(idle)} unit(s) "
                          f"have not moved ({names}). Drop now?",
                lambda: self._send(uid, h)))
            return True
        self._send(uid, h)
        return True

    def _send(self, uid: str, h: Hex) -> None:
        if self.ctx.send(EnterReserve(self.side, uid, h)):
            # nothing stays picked: a click on a unit of the map selects it as usual (a
            # next reserve picked for the player would turn that click into a drop)
            self.ctx.selected = None

    def on_click(self, pos, button) -> bool:
        sel = self.selected_reserve()
        if sel is not None:
            if button == 3:
                self.ctx.selected = None
                return True
            h = self.ctx.hover_hex
            if button == 1 and h is not None:
                uid = self.ctx.view.unit_at(self.state, pos)
                if h in self.entries(sel.uid) or uid is None:
                    return self.place(sel.uid, h)
        return super().on_click(pos, button)


def applies(ctx: BattleContext) -> bool:
    st = ctx.game.state
    return (st.pending is None and st.phase.is_movement and not st.phase.is_vanguard
            and st.active_side is not None and bool(waiting(st, st.active_side)))


register_base_mode(applies, ReserveMode)
