"""Defensive fire (rulebook: Defensive Fire, Provoking Defensive Fire, Multiple
Defensive Fire, Defensive-Fire Limit; ruling 14): the defender answers a
``DefensiveFirePrompt`` unit by unit, deciding after each shot.  Every unit eligible
at the stage may fire, even after a shot has stopped the mover (results don't add);
then the move goes on, or ends where the mover was stopped."""
from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from .. import combat
from ..actions import Action, DefensiveFire, PassDefensiveFire
from ..errors import IllegalAction, MalformedAction
from ..events import DefensiveFirePassed, Event, UnitStopped
from ..state import DefensiveFirePrompt, GameState
from . import ActionRule, register_rule
from .walk import continue_move, eligible, end_move, offer
from ..wording import side_player

if TYPE_CHECKING:
    from ..engine import Game

__all__ = ["fire"]


def fire(game: "Game", a: DefensiveFire, shots: int = 1) -> list[Event]:
    """One defensive-fire attack (``shots`` > 1: Double Shot's rolls at the same
    stage, stopping at the first that stops the mover), then the move goes on."""
    st = game.state
    p = st.pending
    assert isinstance(p, DefensiveFirePrompt)
    mover = st.units[p.mover]
    firer = st.units[a.uid]
    firer.fired_defensively = True
    ev: list[Event] = []
    stopped = False
    for n in range(shots):
        try:
            ev += combat.resolve_attack(st, a.uid, p.mover, game.dice, defensive=True,
                                        at_hex=p.at_hex, facing=mover.facing, stage=p.stage)
        except IllegalAction:
            if n == 0:
                raise
            break
        # a hit stops the mover (UnitStopped); so does being destroyed at once (the
        # flamethrower).  Not "mover.disrupted": SS Determination moves disrupted.
        stopped = mover.destroyed or any(isinstance(e, UnitStopped) and e.uid == p.mover
                                         for e in ev)
        if stopped:
            break
    st.pending = None
    m = st.moving
    assert m is not None
    if stopped:
        m.stopped = True
    # rulebook: Multiple Defensive Fire - every unit eligible at this stage may still
    # fire, one at a time, even after a shot has stopped the mover (results don't add)
    elig = tuple(x for x in eligible(game, mover, p.from_hex, p.to_hex, p.stage)
                 if x != a.uid)
    if elig:
        return ev + offer(game, mover, p.from_hex, p.to_hex, p.stage, elig)
    if m.stopped:
        return ev + end_move(game, stopped=True)
    return ev + continue_move(game)



def eligibility_problem(st: GameState, uid: str, open_to: Collection[str],
                        cannot: str) -> str | None:
    """Why ``uid`` may not answer a defensive-fire offer open to ``open_to``, or None;
    ``cannot`` ends the sentence for a unit the offer does not include."""
    if uid not in st.units:
        raise MalformedAction(f"there is no unit '{uid}'")
    if uid not in open_to:
        u = st.units[uid]
        if u.fired_defensively:
            return f"{u.name} has already fired defensively this phase"
        return f"{u.name} {cannot}"
    return None

class DefensiveFireRule(ActionRule):
    kind = DefensiveFire

    def enumerate(self, game: "Game", side: str) -> list[Action]:
        p = game.state.pending
        assert isinstance(p, DefensiveFirePrompt)
        return [DefensiveFire(side, uid) for uid in p.eligible]

    def problem(self, game: "Game", action: DefensiveFire) -> str | None:
        st = game.state
        p = st.pending
        if not isinstance(p, DefensiveFirePrompt):
            return "no defensive fire is being offered now"
        return eligibility_problem(st, action.uid, p.eligible,
                                   "can't fire defensively at the moving unit here")

    def perform(self, game: "Game", a: DefensiveFire) -> list[Event]:
        return fire(game, a)


class PassDefensiveFireRule(ActionRule):
    kind = PassDefensiveFire

    def enumerate(self, game: "Game", side: str) -> list[Action]:
        return [PassDefensiveFire(side)]

    def problem(self, game: "Game", action: PassDefensiveFire) -> str | None:
        if not isinstance(game.state.pending, DefensiveFirePrompt):
            return "no defensive fire is being offered now"
        return None

    def perform(self, game: "Game", a: PassDefensiveFire) -> list[Event]:
        st = game.state
        p = st.pending
        assert isinstance(p, DefensiveFirePrompt)
        st.pending = None
        ev: list[Event] = [DefensiveFirePassed(a.side, p.stage, p.mover, p.at_hex, p.from_hex,
                                               p.to_hex, text=f"{side_player(a.side)} holds fire.")]
        if st.moving is not None and st.moving.stopped:
            return ev + end_move(game, stopped=True)
        return ev + continue_move(game)


register_rule(DefensiveFireRule())
register_rule(PassDefensiveFireRule())
