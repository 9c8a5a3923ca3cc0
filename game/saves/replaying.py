"""Replaying a save: the game from its start, every action through the rules,
the final position checked against the saved hash; and the replay viewer's
model (:class:`Replay`, no pygame here)."""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Callable

from game.data.bounded import short
from game.rules.errors import DataError, RulesError

from .fileformat import SIDES, SaveFile, read_save

__all__ = ["start_game", "replay", "load_game", "Replay", "ReplayStep", "rolls_of"]


def start_game(save: SaveFile) -> Any:
    """The game at its start (after the coin flip), exactly as new_game made it."""
    from game.data.maps import load_configuration
    from game.data.units import find_card, load_roster, unknown_card_message
    from game.rules.dice import Dice
    from game.rules.engine import new_game
    try:
        bm = load_configuration(save.configuration)
    except DataError as exc:
        raise DataError(save.file, f"map configuration {save.configuration} can't be loaded "
                                   f"({short(exc.detail, 160)[1:-1]})",
                        field="configuration") from None
    armies: dict[str, list[Any]] = {}
    for side in SIDES:
        if save.cards.get(side) is not None and len(save.cards[side]) == len(save.armies[side]):
            armies[side] = list(save.cards[side])
            continue
        cards = []
        for i, n in enumerate(save.armies[side]):
            c = find_card(n)
            if c is None:
                raise DataError(save.file, unknown_card_message(n, load_roster()),
                                entry=f"armies.{side}[{i + 1}]", field="name")
            cards.append(c)
        armies[side] = cards
    try:
        game = new_game(bm, armies, scenario=save.scenario, dice=Dice(save.seed),
                        options=save.options, coin_winner=save.coin_winner)
    except RulesError as exc:
        raise DataError(save.file, f"the game can't be set up: {short(str(exc), 200)[1:-1]}",
                        field="options") from None
    if save.battle_id:
        game.battle_id = save.battle_id
    return game


def replay(save: SaveFile, *, upto: int | None = None, check_hash: bool = True,
           on_step: Callable[[int, Any, list[Any]], None] | None = None) -> Any:
    """Replay ``save`` (the first ``upto`` actions) and return the Game.

    Every action goes through the rules; one they refuse, or a final position
    whose hash differs from the save's, is a DataError naming the action.
    ``on_step(i, game, events)`` is called after each action (replay viewer)."""
    from game.rules.actions import describe_action
    game = start_game(save)
    acts = save.actions if upto is None else save.actions[:upto]
    for i, a in enumerate(acts):
        entry = f"action {i + 1}"
        if game.over:
            raise DataError(save.file, f"the game was already over "
                                       f"({short(game.state.outcome.reason, 120)[1:-1]}) before "
                                       f"this action", entry=entry)
        reason = game.check(a)
        if reason is not None:
            raise DataError(save.file, f"the rules refuse this {a.side} action "
                                       f"('{describe_action(a)}') here: {reason}. The save does "
                                       f"not match this version's rules or unit cards, or it "
                                       f"was edited", entry=entry)
        try:
            events = game.apply(a)
        except RulesError as exc:
            raise DataError(save.file, f"the rules refuse '{describe_action(a)}': "
                                       f"{short(str(exc), 200)[1:-1]}", entry=entry) from None
        if on_step is not None:
            on_step(i, game, events)
    if check_hash and upto is None:
        got = game.state_hash()
        if got != save.state_hash:
            where = f"turn {game.state.turn}, {game.state.phase.value}"
            said = f"turn {save.turn}, {short(save.phase, 30)[1:-1]}"
            if save.turn is None or said == where:
                how = f"a different position ({where}) from the one saved"
            else:
                how = f"a different position ({where}) from the one saved ({said})"
            raise DataError(save.file, f"replaying the {len(save.actions)} actions gives "
                                       f"{how}: the rules or unit cards changed since it was "
                                       f"saved, or the file was edited", field="state_hash")
    return game


def load_game(path: str | os.PathLike[str]) -> Any:
    """Read, check, replay and check the hash of a save; the Game, or DataError."""
    return replay(read_save(path))


# --- replays (the replay viewer's model; no pygame here) ---------------------------------------
@dataclass
class ReplayStep:
    """The game after one action (``action`` None: the start)."""
    index: int
    action: Any
    events: list[Any]
    state: Any                       # GameState (a private copy)
    turn: int
    phase: str


def rolls_of(events: list[Any]) -> list[tuple[str, tuple[int, ...], int | None]]:
    """Every roll among ``events``: (sentence, dice, need or None)."""
    from game.rules.events import InitiativeRolled
    out: list[tuple[str, tuple[int, ...], int | None]] = []
    for e in events:
        text = getattr(e, "text", "") or type(e).__name__
        if isinstance(e, InitiativeRolled):
            dice = tuple(d for side in SIDES for d in tuple(e.rolls.get(side, ()))[:2])
            out.append((text, dice, None))
        elif isinstance(getattr(e, "dice", None), (tuple, list)):
            out.append((text, tuple(e.dice), getattr(e, "need", None)))
        elif isinstance(getattr(e, "die", None), int):
            need = getattr(e, "need", getattr(e, "needed", None))
            out.append((text, (e.die,), need if isinstance(need, int) else None))
    return out


class Replay:
    """A save played back step by step: ``go(i)``, ``forward()``/``back()``,
    ``next_phase()``/``prev_phase()``, ``next_turn()``/``prev_turn()``, the
    position (``state``), the events and dice of the step, and
    ``continue_game()`` - a new Game from the current step on.

    A save whose replay stops (an action refused) or ends elsewhere (hash) can
    still be watched up to where it works; ``problem`` says what went wrong."""

    def __init__(self, save: SaveFile) -> None:
        self.save = save
        self.problem: str | None = None
        game = start_game(save)
        self.steps: list[ReplayStep] = [ReplayStep(0, None, list(game.log), game.state.copy(),
                                                   game.state.turn, game.state.phase.value)]

        def keep(i: int, g: Any, events: list[Any]) -> None:
            self.steps.append(ReplayStep(i + 1, save.actions[i], list(events), g.state.copy(),
                                         g.state.turn, g.state.phase.value))
        try:
            replay(save, check_hash=True, on_step=keep)
        except DataError as exc:
            self.problem = str(exc)
        self.index = 0

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> "Replay":
        return cls(read_save(path))

    # --- where we are ------------------------------------------------------------------------
    @property
    def last(self) -> int:
        return len(self.steps) - 1

    @property
    def step(self) -> ReplayStep:
        return self.steps[self.index]

    @property
    def state(self) -> Any:
        return self.step.state

    def rolls(self, index: int | None = None) -> list[tuple[str, tuple[int, ...], int | None]]:
        return rolls_of(self.steps[self.index if index is None else index].events)

    # --- moving -------------------------------------------------------------------------------
    def go(self, index: int) -> int:
        self.index = max(0, min(self.last, index))
        return self.index

    def forward(self, n: int = 1) -> int:
        return self.go(self.index + n)

    def back(self, n: int = 1) -> int:
        return self.go(self.index - n)

    def _next(self, key: Callable[[ReplayStep], Any]) -> int:
        here = key(self.step)
        for i in range(self.index + 1, len(self.steps)):
            if key(self.steps[i]) != here:
                return self.go(i)
        return self.go(self.last)

    def _prev(self, key: Callable[[ReplayStep], Any]) -> int:
        i = self.index
        start = self._start_of(i, key)
        if start < i:
            return self.go(start)
        if i == 0:
            return 0
        return self.go(self._start_of(i - 1, key))

    def _start_of(self, i: int, key: Callable[[ReplayStep], Any]) -> int:
        here = key(self.steps[i])
        while i > 0 and key(self.steps[i - 1]) == here:
            i -= 1
        return i

    def next_phase(self) -> int:
        return self._next(lambda s: (s.turn, s.phase))

    def prev_phase(self) -> int:
        return self._prev(lambda s: (s.turn, s.phase))

    def next_turn(self) -> int:
        return self._next(lambda s: s.turn)

    def prev_turn(self) -> int:
        return self._prev(lambda s: s.turn)

    # --- branching off ----------------------------------------------------------------------
    def continue_game(self) -> Any:
        """A new Game that has played the first ``index`` actions (it can be saved,
        undone and played on like any other; it is a new battle, with its own id)."""
        game = replay(self.save, upto=self.index, check_hash=False)
        game.battle_id = None
        return game
