"""The battle screen's controller: it owns the game, the selection and the mode
stack, asks the rules (cached per state version) and sends actions.  It draws
nothing and knows no pygame surface.

What happened is learnt from the rules' events (``send`` hands them to the
screen's ``show`` callback): nothing here copies or compares the state.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from game.rules.actions import Action, PassDefensiveFire
from game.rules.errors import IllegalAction
from game.rules.events import Event, InitiativeRolled, OrderChosen
from game.rules.hexes import Hex
from game.rules.state import DefensiveFirePrompt, GameState
from game.ui.battle.context import BattleContext

if TYPE_CHECKING:
    from game.ui.battle.modes import Mode

__all__ = ["BattleController", "BattleHost"]

BattleHost = BattleContext     # the older name of the modes' view of the screen


class BattleController:
    """``host`` is the battle screen as a BattleContext: the modes are built for it
    (``mode_for(host)``),
    ``show(events)`` presents what happened, ``note(text)`` tells the player why
    an action was refused."""

    def __init__(self, game: Any, host: BattleContext, *, show: Callable[[list[Event]], None],
                 note: Callable[[str], None]) -> None:
        from game.ui.battle.modes import Mode
        self.game = game
        self.host = host
        self.show = show
        self.note = note
        self.selected: str | None = None
        self.stack: list[Mode] = []
        self.base: Mode = Mode(host)
        self.hold_fire: tuple[str, Hex] | None = None   # (mover, hex): hold at the next stage too
        self._cache: dict[Any, Any] = {}
        self._cache_key: tuple[int, int] | None = None
        st = game.state
        # the order of play and the initiative dice of the turn on screen (from events)
        self.turn_shown: tuple[Any, Any, dict[str, Any]] = (st.first_player, st.second_player,
                                  dict(st.initiative_rolls or {}))

    # --- the state, read only ------------------------------------------------------------
    @property
    def state(self) -> GameState:
        st: GameState = self.game.state
        return st

    @property
    def version(self) -> tuple[int, int]:
        return (id(self.game.state), self.state.version)

    @property
    def mode(self) -> Mode:
        return self.stack[-1] if self.stack else self.base

    def cached(self, key: Any, make: Callable[[], Any]) -> Any:
        """A rules answer cached until the state changes."""
        if self._cache_key != self.version:
            self._cache.clear()
            self._cache_key = self.version
        if key not in self._cache:
            self._cache[key] = make()
        return self._cache[key]

    def legal(self) -> list[Action]:
        acts: list[Action] = self.cached("legal", self.game.legal_actions)
        return acts

    # --- modes ---------------------------------------------------------------------------
    def push(self, mode: Mode) -> None:
        self.stack.append(mode)

    def pop(self, mode: Mode | None = None) -> None:
        if mode is None:
            if self.stack:
                self.stack.pop()
        elif mode in self.stack:
            self.stack.remove(mode)

    def rebase(self) -> bool:
        """Pick the base mode for the state; True when a held fire was answered."""
        from game.ui.battle.modes import mode_for
        new = mode_for(self.host)
        if not new.same_as(self.base):
            self.base = new
        p = self.state.pending
        side = self.state.to_act
        if isinstance(p, DefensiveFirePrompt) and p.stage == "enter" and side is not None and \
                self.hold_fire == (p.mover, p.to_hex):
            self.hold_fire = None
            self.send(PassDefensiveFire(side))
            return True
        return False

    # --- actions -------------------------------------------------------------------------
    def send(self, action: Action) -> bool:
        """Apply ``action``: the events go to ``show``; a refusal to ``note`` in the
        rules' words, the state untouched."""
        try:
            events = self.game.apply(action)
        except IllegalAction as exc:
            self.note(str(exc))
            return False
        self.show(events)
        self.host.refresh()
        return True

    def learn(self, e: Event) -> None:
        """Remember what the screen needs from an event it has shown."""
        first, second, rolls = self.turn_shown
        if isinstance(e, InitiativeRolled):
            rolls = dict(e.rolls)
        elif isinstance(e, OrderChosen):
            other = "Allies" if e.side == "Axis" else "Axis"
            first, second = (e.side, other) if e.go_first else (other, e.side)
        self.turn_shown = (first, second, rolls)

    def undo_all(self) -> list[Action] | None:
        """U: every dice-free action of this phase (game.rules.undo), or None when the
        rules allow nothing to be taken back."""
        acts = self.game.undoable()
        side = self.state.to_act
        if not acts or any(a.side != side for a in acts):
            return None
        taken: list[Action] = self.game.undo()
        self.selected = None
        return taken
