"""Recap of the other side's turn (issue 17).

When the seat comes back to a player (a hand-over in hotseat, the end of an AI
phase in solo), the battle screen steps through what the other side did since
that player last acted: an arrow for each move, a line for each attack (and
defensive shot) with the counters it placed, and the log lines of each step.
Right / Space / Enter: next step; Left: back; Esc or "Skip": close.  P opens the
last recap again at any time, and the log keeps every recap: a click on a line of
the log (or scrolling the log back and Enter) steps through the phase that line
belongs to; a click on a turn's first or last line ("Turn 2: Initiative",
"End of turn 2") through the whole turn (:func:`log_stretch`).

Everything comes from the rules' events (``game.log``): :func:`recap_steps` is
pure (no pygame) and tested on its own.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pygame

from game.rules.events import (BridgeDestroyed, PhaseBegan, TurnEnded, CounterPlaced, CountersFlipped, CoverRolled,
                               DefensiveFirePassed, DiceRolled, HitsScored, MovementRoll,
                               ReserveEntered, UnitBoarded, UnitDamaged, UnitDeployed, UnitDestroyed,
                               UnitDismounted, UnitDisrupted, UnitMoved, UnitPutBack,
                               UnitStopped, UnitTurned)
from game.rules.queries import plain_text
from game.rules.state import Phase
from game.ui import theme
from game.ui.battle.context import BattleContext
from game.ui.battle.modes import Mode
from game.ui.battle.panels import Button

if TYPE_CHECKING:
    from game.ui.scenes.battle import BattleScene

__all__ = ["RecapStep", "recap_steps", "log_stretch", "RecapMode", "RecapTracker"]



@dataclass
class RecapStep:
    kind: str                          # "move" / "attack" / "turn" / "other"
    uid: str | None = None
    route: tuple = ()                  # move: the hexes walked, start first
    from_hex: Any = None               # attack: where the attacker was
    to_hex: Any = None                 # attack: where the target counted as standing
    counters: list = field(default_factory=list)   # (counter, face_up) placed
    lines: list = field(default_factory=list)      # the log lines of the step


_ROLL_DETAILS = (HitsScored, CoverRolled, CounterPlaced, UnitStopped, UnitPutBack)
_OTHER = (UnitDeployed, UnitBoarded, UnitDismounted, UnitDestroyed, UnitDamaged, UnitDisrupted,
          BridgeDestroyed, CountersFlipped, DefensiveFirePassed, ReserveEntered)


def recap_steps(events: list) -> list[RecapStep]:
    """The steps of a stretch of play, from its events in order."""
    steps: list[RecapStep] = []
    waiting: list[str] = []            # movement rolls come before the move they belong to
    last_attack: RecapStep | None = None
    for e in events:
        text = plain_text(e.text)
        if isinstance(e, DiceRolled):
            last_attack = RecapStep("attack", e.uid, from_hex=e.attacker_hex, to_hex=e.target_hex,
                                    lines=[text])
            steps.append(last_attack)
        elif isinstance(e, _ROLL_DETAILS) and last_attack is not None:
            last_attack.lines.append(text)
            if isinstance(e, CounterPlaced):
                last_attack.counters.append((e.counter, e.face_up))
            if isinstance(e, UnitStopped):
                last_attack = None      # the move goes on / ends: a new step follows
        elif isinstance(e, MovementRoll):
            waiting.append(text)
        elif isinstance(e, UnitMoved):
            route = e.route if e.start is not None else tuple(e.path)
            steps.append(RecapStep("move", e.uid, route=route, lines=[text] + waiting))
            waiting = []
            last_attack = None
        elif isinstance(e, UnitTurned):
            steps.append(RecapStep("turn", e.uid, route=(e.hex,), lines=[text]))
        elif isinstance(e, _OTHER):
            hx = getattr(e, "hex", None)
            steps.append(RecapStep("other", getattr(e, "uid", None),
                                   route=(hx,) if hx is not None else (), lines=[text]))
            last_attack = None
    if waiting:                         # a failed roll that ended a move with no step
        steps.append(RecapStep("other", lines=waiting))
    return steps


def log_stretch(log: list, i: int) -> tuple[str, list]:
    """(title, events) of the stretch of play ``log[i]`` belongs to: its phase, or the
    whole turn for the turn's first phase header (initiative) and its "End of turn"."""
    e = log[i]
    whole_turn = isinstance(e, TurnEnded) or (
        isinstance(e, PhaseBegan) and e.phase == Phase.INITIATIVE.value)
    if whole_turn:
        turn = e.turn
        begin = next((k for k, x in enumerate(log) if isinstance(x, PhaseBegan) and
                      x.turn == turn), i)
        end = next((k + 1 for k in range(begin, len(log)) if isinstance(log[k], TurnEnded) and
                    log[k].turn == turn), len(log))
        return f"Turn {turn}", list(log[begin:end])
    begin = next((k for k in range(i, -1, -1) if isinstance(log[k], PhaseBegan)), 0)
    end = next((k for k in range(begin + 1, len(log)) if isinstance(log[k], PhaseBegan)),
               len(log))
    head = log[begin]
    title = plain_text(head.text).rstrip(".") if isinstance(head, PhaseBegan) \
        else "The start of the battle"
    return title, list(log[begin:end])


class RecapMode(Mode):
    """The step-through, on top of the battle (the game waits while it is open)."""

    name = "recap"
    modal = True
    pauses_ai = True

    def __init__(self, ctx: BattleContext, title: str, steps: list[RecapStep]) -> None:
        super().__init__(ctx)
        self.title = title
        self.steps = steps
        self.index = 0

    @property
    def step(self) -> RecapStep:
        return self.steps[self.index]

    def prompt(self) -> str:
        return (f"{self.title}: step {self.index + 1} of {len(self.steps)} "
                f"(Right: next, Left: back, Esc: skip).")

    def buttons(self) -> list[Button]:
        last = self.index >= len(self.steps) - 1
        return [Button("back", "Back", enabled=self.index > 0, hotkey="Left"),
                Button("next", "Done" if last else "Next", primary=True, hotkey="Right"),
                Button("skip", "Skip", hotkey="Esc")]

    def on_button(self, key: str) -> None:
        if key == "next":
            if self.index >= len(self.steps) - 1:
                self.ctx.pop(self)
            else:
                self.index += 1
        elif key == "back":
            self.index = max(0, self.index - 1)
        elif key == "skip":
            self.ctx.pop(self)

    def on_key(self, key, mod) -> bool:
        if key in (pygame.K_RIGHT, pygame.K_SPACE, pygame.K_RETURN, pygame.K_KP_ENTER):
            self.on_button("next")
        elif key == pygame.K_LEFT:
            self.on_button("back")
        elif key == pygame.K_ESCAPE:
            self.on_button("skip")
        return True                   # the battle behind waits

    def on_click(self, pos, button) -> bool:
        return True


class RecapTracker:
    """Remembers, per side, where in the log that side last gave up the seat; when the
    seat comes back to a player it opens the recap of what happened since."""

    def __init__(self, scene: BattleScene, auto: bool = True) -> None:
        self.sc = scene
        self.auto = auto
        n = len(scene.game.log)
        self.since = {"Axis": n, "Allies": n}
        self.prev: str | None = None        # the last side that had the seat
        self.last: tuple[str, list[RecapStep]] | None = None

    def seat_changed(self, now: str | None) -> None:
        """Called by the battle screen whenever it looks at who is to act."""
        log = self.sc.game.log
        before = self.prev
        if now is None or now == before:
            return
        self.prev = now
        if before in self.since:
            self.since[before] = len(log)
        if now not in self.since or before is None:
            return
        ai = self.sc.ai
        if self.sc.demo is not None or (ai is not None and now in getattr(ai, "sides", ())):
            return
        steps = recap_steps(list(log[self.since[now]:]))
        if not steps:
            return
        other = "Axis" if now == "Allies" else "Allies"
        title = f"What the {theme.SIDE_LABEL[other]} player did while you waited"
        self.last = (title, steps)
        if self.auto:
            self.sc.push(RecapMode(self.sc, title, steps))

    def open_event(self, event: Any) -> bool:
        """A log line: the recap of its phase (or of its whole turn) from the game log."""
        log = self.sc.game.log
        i = next((k for k in range(len(log) - 1, -1, -1) if log[k] is event), None)
        if i is None:
            self.sc.note("That line was taken back: it is no longer in the game.")
            return False
        title, events = log_stretch(log, i)
        steps = recap_steps(events)
        if not steps:
            self.sc.note(f"{title}: no moves, attacks or counters to step through.")
            return False
        self.sc.push(RecapMode(self.sc, f"Recap: {title}", steps))
        return True

    def open_last(self) -> bool:
        """P: the last recap again (False: nothing to show yet)."""
        if self.last is None:
            self.sc.note("No recap yet: it appears when the other side has played.")
            return False
        title, steps = self.last
        self.sc.push(RecapMode(self.sc, title, steps))
        return True
