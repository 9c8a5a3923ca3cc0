"""The casualty phase played back step by step, then a summary.

Input only: the drawing is in game.ui.battle.overlays."""
from __future__ import annotations

import types
from typing import Any, Sequence

import pygame

from game.rules.events import (CountersFlipped, DisruptionRemoved, GameEnded, ObjectiveControl,
                               PhaseBegan, PointsCounted, TurnEnded, UnitDamaged, UnitDestroyed,
                               UnitDisrupted)
from game.rules.hexes import Hex
from game.rules.state import Phase
from game.ui import theme
from game.ui.battle.context import BattleContext
from game.ui.battle.modes.base import Mode
from game.ui.battle.panels import Button

__all__ = ["CasualtyMode"]


_CASUALTY_KINDS = (CountersFlipped, UnitDestroyed, UnitDamaged, UnitDisrupted, DisruptionRemoved,
                   ObjectiveControl, PointsCounted, TurnEnded, GameEnded)


class CasualtyMode(Mode):
    """The casualty phase played back step by step, then a summary with objective control.

    ``events`` are the events from the casualty phase's beginning on.  Those of the
    turn that is ending are logged one step at a time, as the map shows them; the
    next turn's (initiative and after) are held back until the player continues, and
    meanwhile the side panel shows the ending turn (``header_state``).  The steps are
    listed in the side panel, never over the map (art direction: never hide the units).
    """

    name = "casualty"
    modal = True
    holds_turn_banner = True      # the next turn's banner waits until this is seen
    STEP = 0.7

    def __init__(self, ctx: BattleContext, events: Sequence[Any], where: dict[str, Hex],
                 turn: int, controller: str | None, before: Any = None) -> None:
        super().__init__(ctx)
        events = list(events)
        cut = next((i for i, e in enumerate(events)
                    if isinstance(e, PhaseBegan) and e.phase == Phase.INITIATIVE.value), len(events))
        self.during = events[:cut]          # this turn's casualty and end phases
        self.after = events[cut:]           # the next turn's: shown on Continue
        self.logged = 0                     # how many of ``during`` are in the log
        self.steps = [e for e in self.during if isinstance(e, _CASUALTY_KINDS)]
        self.where = where
        self.turn = turn
        self.controller = controller
        self.finished = False
        st = ctx.game.state
        first, second, rolls = before if before is not None else (
            st.first_player, st.second_player, st.initiative_rolls)
        self.header_state = types.SimpleNamespace(
            turn=turn, scenario=st.scenario, attacker=getattr(st, "attacker", None),
            phase=Phase.CASUALTY, active_side=None, to_act=None, first_player=first,
            second_player=second, initiative_rolls=dict(rolls or {}))
        self.shown = 0
        self.timer = 0.0
        self.counts = {"destroyed": 0, "damaged": 0, "disrupted": 0, "recovered": 0}
        for e in self.steps:
            if isinstance(e, UnitDestroyed):
                self.counts["destroyed"] += 1
            elif isinstance(e, UnitDamaged):
                self.counts["damaged"] += 1
            elif isinstance(e, UnitDisrupted):
                self.counts["disrupted"] += 1
            elif isinstance(e, DisruptionRemoved):
                self.counts["recovered"] += 1
        self.next_step()

    @property
    def done(self) -> bool:
        return self.shown >= len(self.steps)

    def _log_until(self, step: Any | None) -> None:
        """Log the events of this turn up to ``step`` (all of them when None)."""
        while self.logged < len(self.during):
            e = self.during[self.logged]
            self.logged += 1
            self.ctx.show_events([e])
            if step is not None and e is step:
                return

    def flush(self) -> None:
        """Everything held back goes to the log (the mode is leaving)."""
        self._log_until(None)
        after, self.after = self.after, []
        if after:
            self.ctx.show_events(after)

    def next_step(self) -> None:
        if self.shown < len(self.steps):
            self.shown += 1
            e = self.steps[self.shown - 1]
            self._log_until(e)
            uid = getattr(e, "uid", None)
            h = self.where.get(uid) if uid else None
            col = {UnitDestroyed: theme.COUNTER_COLOURS["destroyed"],
                   UnitDamaged: theme.COUNTER_COLOURS["damaged"],
                   UnitDisrupted: theme.COUNTER_COLOURS["disrupted"]}.get(type(e), (250, 250, 250))
            self.ctx.anim.flash(h, col)
        if self.done:
            self._log_until(None)
        f = self.ctx.anim_factor()
        # with animations off the player steps through with Space (nothing runs away)
        self.timer = self.STEP * f if f > 0 else float("inf")

    def prompt(self) -> str:
        if not self.done:
            return f"Casualty phase, turn {self.turn}: step {self.shown} of {len(self.steps)}."
        return self.summary()

    def summary(self) -> str:
        c = self.counts
        parts = [f"{c['destroyed']} destroyed", f"{c['damaged']} damaged",
                 f"{c['disrupted']} disrupted"]
        if c["recovered"]:
            parts.append(f"{c['recovered']} recovered")
        ctrl = self.controller
        obj = f"objective held by {ctrl}" if ctrl else "nobody holds the objective"
        return f"End of turn {self.turn}: " + ", ".join(parts) + f"; {obj}."

    def buttons(self) -> list[Button]:
        out = []
        if not self.done:
            out.append(Button("next", "Next step", hotkey="Space"))
        out.append(Button("continue", "Continue", primary=True, hotkey="Enter"))
        return out

    def finish(self) -> None:
        if self.finished:
            return
        self.finished = True
        self.ctx.pop(self)
        self.flush()
        self.ctx.refresh()
        if self.state.phase == Phase.GAME_OVER:
            self.ctx.show_victory()

    def on_button(self, key: str) -> None:
        if key == "next":
            self.next_step()
        elif self.done:
            self.finish()
        else:
            while not self.done:
                self.next_step()

    def on_key(self, key, mod) -> bool:
        if key == pygame.K_SPACE:
            self.on_button("next" if not self.done else "continue")
            return True
        if key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.on_button("continue")
            return True
        return False

    def on_click(self, pos, button) -> bool:
        return True

    def update(self, dt: float) -> None:
        if self.done:
            return
        self.timer -= dt
        if self.timer <= 0:
            self.next_step()
