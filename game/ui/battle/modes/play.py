"""Movement and assault phases: select a unit, move it, attack with it.

Input only: the drawing is in game.ui.battle.overlays."""
from __future__ import annotations

from typing import Any

import pygame

from game.rules.actions import Attack, Board, EndPhase, Move, describe_action
from game.rules.hexes import Hex, hex_label
from game.rules.queries import unit_options
from game.ui import theme
from game.ui.battle.modes.base import ChoiceMode, ConfirmMode, FacingMode, Mode, side_name
from game.ui.battle.panels import Button, pct

__all__ = ["PlayMode"]


class PlayMode(Mode):
    """Movement and assault phases: select a unit, move it, attack with it."""

    name = "play"

    @property
    def side(self) -> str:
        return self.state.active_side

    def my_unit(self) -> Any | None:
        sel = self.ctx.selected
        u = self.state.units.get(sel) if sel else None
        if u is not None and u.side == self.side and u.on_map:
            return u
        return None

    def unit_actions(self, uid: str) -> list[Any]:
        by_uid = self.ctx.cached("by_uid", self._by_uid)
        return by_uid.get(uid, [])

    def _by_uid(self) -> dict[str, list[Any]]:
        out: dict[str, list[Any]] = {}
        for a in self.ctx.legal():
            out.setdefault(getattr(a, "uid", None), []).append(a)
        return out

    def options(self, uid: str | None = None) -> Any:
        """What the unit may still do (game.rules.queries.unit_options), extra actions
        of its abilities included: the bar, the highlights and the rings show this."""
        uid = uid or self.ctx.selected
        if uid is None or uid not in self.state.units:
            return None
        return self.ctx.cached(("options", uid),
                                 lambda: unit_options(self.game, uid, self.ctx.legal()))

    def reach(self) -> dict:
        u = self.my_unit()
        if u is None:
            return {}
        o = self.options(u.uid)
        return o.reach if o is not None else {}

    def attack_options(self) -> dict[str, list[Any]]:
        """target uid -> [TargetInfo...] for the selected unit's legal attacks."""
        u = self.my_unit()
        if u is None or not self.state.phase.is_assault:
            return {}
        legal = {(a.target, a.mode) for a in self.unit_actions(u.uid) if isinstance(a, Attack)}
        if not legal:
            return {}
        return self.ctx.cached(("targets", u.uid), lambda: self._targets(u.uid, legal))

    def _targets(self, uid, legal) -> dict[str, list[Any]]:
        out: dict[str, list[Any]] = {}
        for t in self.game.targets(uid):
            if (t.target, t.mode) in legal:
                out.setdefault(t.target, []).append(t)
        return out

    def extra_actions(self) -> list[Any]:
        u = self.my_unit()
        if u is None:
            return []
        return self.ctx.cached(("extra", u.uid), lambda: [
            a for a in self.unit_actions(u.uid) if not isinstance(a, (Move, Attack))])

    def can_turn(self) -> bool:
        u = self.my_unit()
        return bool(u and self.ctx.cached(("turn", u.uid), lambda: any(
            isinstance(a, Move) and not a.path for a in self.unit_actions(u.uid))))

    def why_not_attack(self, target: str) -> str | None:
        """Why the selected unit may not attack ``target`` (the rules' words), None if it may."""
        me = self.my_unit()
        if me is None:
            return None
        return self.ctx.cached(("why_attack", me.uid, target), lambda: self.game.check(
            Attack(self.side, me.uid, target)))

    def why_not_reach(self, h: Hex) -> str:
        """Why the selected unit can't get to ``h`` (the rules' words)."""
        me = self.my_unit()
        if me is None:
            return ""
        return self.ctx.cached(("why", me.uid, h), lambda: self.game.why_not_reach(me.uid, h))

    def prompt(self) -> str:
        phase = "movement" if self.state.phase.is_movement else "assault"
        u = self.my_unit()
        who = side_name(self.side)
        if u is None:
            return f"{who} {phase}: click one of your units."
        return self.options(u.uid).summary

    def buttons(self) -> list[Button]:
        return self.ctx.cached(("play_buttons", self.ctx.selected), self._buttons)

    def undoable(self) -> list[Any]:
        """The selected unit's actions of this phase that the rules let us take back."""
        sel = self.ctx.selected
        if sel is None or not hasattr(self.game, "undoable"):
            return []
        acts = self.ctx.cached("undoable", self.game.undoable)
        return [a for a in acts if getattr(a, "uid", None) == sel]

    def take_back(self) -> None:
        sel = self.ctx.selected
        if sel is None or not self.undoable():
            return
        name = self.state.units[sel].name
        taken = self.game.undo(sel)
        self.state.touch()
        self.ctx.logp.add(f"{name}: {len(taken)} action(s) taken back.", theme.TEXT_DIM)
        self.ctx.refresh()

    def _buttons(self) -> list[Button]:
        out = []
        if self.undoable():
            out.append(Button("undo", "Take back", hotkey="Ctrl+Z"))
        for i, a in enumerate(self.extra_actions()[:3]):
            out.append(Button(f"extra{i}", self._label(a)))
        if self.can_turn():
            out.append(Button("turn", "Turn in place", hotkey="T"))
        if self.my_unit() is not None:        # issue 17: the Veteran's choice, for learning
            out.append(Button("suggest", "Suggest", hotkey="A",
                              tip="What the Veteran would do with this unit, and why"))
        out.append(Button("end", "End phase", primary=True, hotkey="E"))
        return out

    def _label(self, a: Any) -> str:
        st = self.state
        if isinstance(a, Board):
            return f"Board {st.units[a.carrier].name}"
        if type(a).__name__ == "Dismount":
            return "Dismount"
        if type(a).__name__ == "DemolishBridge":
            return "Blow the bridge"
        return describe_action(a).split(": ", 1)[-1].capitalize()

    def on_button(self, key: str) -> None:
        if key == "end":
            self.end_phase()
        elif key == "undo":
            self.take_back()
        elif key == "turn":
            self.turn_in_place()
        elif key == "suggest":
            self.ctx.suggest()
        elif key.startswith("extra"):
            acts = self.extra_actions()
            i = int(key[5:])
            if i < len(acts):
                self.ctx.send(acts[i])

    def end_phase(self) -> None:
        st = self.state
        idle = [u for u in st.live_units(self.side)
                if not u.acted and not u.boarded and
                any(not isinstance(a, EndPhase) for a in self.unit_actions(u.uid))]
        if idle:
            names = ", ".join(u.name for u in idle[:3]) + ("..." if len(idle) > 3 else "")
            count = "1 unit has" if len(idle) == 1 else f"{len(idle)} units have"
            self.ctx.push(ConfirmMode(self.ctx, f"{count} not acted ({names}). "
                                                    f"End the phase anyway?",
                                        lambda: self.ctx.send(EndPhase(self.side))))
        else:
            self.ctx.send(EndPhase(self.side))

    def turn_in_place(self) -> None:
        u = self.my_unit()
        if u is None or not self.can_turn():
            return
        self.ctx.push(FacingMode(self.ctx, u.hex, u.facing,
                                   lambda f, u=u: f is not None and f != u.facing and
                                   self.ctx.send(Move(self.side, u.uid, (), f)),
                                   keep_label="Keep facing", unit=u))

    def on_key(self, key, mod) -> bool:
        if key in (pygame.K_e, pygame.K_RETURN, pygame.K_KP_ENTER):
            self.end_phase()
            return True
        if key == pygame.K_t:
            self.turn_in_place()
            return True
        if key == pygame.K_a and self.my_unit() is not None:
            self.ctx.suggest()
            return True
        if key == pygame.K_z and mod & pygame.KMOD_CTRL:
            self.take_back()
            return True
        if key == pygame.K_TAB:
            mine = [u.uid for u in self.state.live_units(self.side)
                    if self.unit_actions(u.uid)]
            if mine:
                cur = self.ctx.selected
                i = (mine.index(cur) + 1) % len(mine) if cur in mine else 0
                self.ctx.selected = mine[i]
            return True
        return False

    def on_click(self, pos, button) -> bool:
        st = self.state
        uid = self.ctx.view.unit_at(st, pos)
        me = self.my_unit()
        if button == 3:
            self.ctx.selected = None
            return True
        if uid is not None and me is not None and uid in self.attack_options():
            self.attack(me, uid)
            return True
        h = self.ctx.hover_hex
        reach = self.reach()
        if me is not None and h is not None and h in reach and reach[h].stops and h != me.hex:
            other = st.units[uid] if uid is not None else None
            if other is None:
                self.move(me, h, reach[h])
                return True
            if other.side == self.side:
                # a friendly token in a hex the selected unit may enter: ask which was meant
                self.ctx.push(ChoiceMode(self.ctx, f"Move {me.name} into {hex_label(h)}, "
                                                       f"or select {other.name}?",
                                           [(f"Move {me.name} here",
                                             lambda: self.move(me, h, reach[h])),
                                            (f"Select {other.name}",
                                             lambda: setattr(self.ctx, "selected", other.uid))]))
                return True
        if uid is not None:
            self.ctx.selected = uid
            return True
        if h is not None:
            mine = [u for u in st.units_at(h, include_boarded=False) if u.side == self.side]
            if mine:
                self.ctx.selected = mine[0].uid
                return True
            if me is not None and h != me.hex:
                self.ctx.note(self.game.why_not_reach(me.uid, h))
                return True
        return False

    def move(self, u: Any, h: Hex, r: Any) -> None:
        # A Vehicle's facing is asked where the move actually ends (after its rolls and
        # defensive fire): the rules answer with a FacingChoice -> FacingChoiceMode.
        self.ctx.send(Move(self.side, u.uid, tuple(r.path), None))

    def attack(self, u: Any, target: str) -> None:
        infos = self.attack_options().get(target, [])
        if len(infos) == 1:
            self.ctx.send(Attack(self.side, u.uid, target, infos[0].mode))
            return
        t = self.state.units[target]
        opts = []
        for info in infos:
            label = "Attack" if info.mode == "normal" else info.mode.replace("_", " ").capitalize()
            opts.append((f"{label} ({pct(1 - info.odds.p_none)} any effect)",
                         lambda m=info.mode: self.ctx.send(Attack(self.side, u.uid, target, m))))
        self.ctx.push(ChoiceMode(self.ctx, f"{u.name} attacks {t.name}: how?", opts))

    # --- drawing ----------------------------------------------------------------------------
