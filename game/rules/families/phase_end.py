"""EndPhase: a player ends its deployment, movement or assault phase; what comes
next is the phase table's business (game.rules.phases)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import phases
from ..abilities.roster_reserves import reserve_kind
from ..actions import Action, EndPhase
from ..events import Event
from . import ActionRule, register_rule

if TYPE_CHECKING:
    from ..engine import Game

#: side -> its EndPhase (one object per side, listed at every position that ends a phase)
_ENDS: dict[str, EndPhase] = {}


class EndPhaseRule(ActionRule):
    kind = EndPhase

    def enumerate(self, game: "Game", side: str) -> list[Action]:
        st = game.state
        if st.phase.is_deploy and any(u.hex is None and not u.card.is_aircraft
                                      and reserve_kind(u.card) is None
                                      for u in st.units_of(side)):
            return []
        got = _ENDS.get(side)
        if got is None:
            got = _ENDS[side] = EndPhase(side)
        return [got]

    def problem(self, game: "Game", action: EndPhase) -> str | None:
        st = game.state
        ph = st.phase
        if ph.is_deploy:
            left = [u.name for u in st.units_of(action.side)
                    if u.hex is None and not u.card.is_aircraft     # ruling L15
                    and reserve_kind(u.card) is None]                # ruling 21
            if left:
                return f"deploy every unit first ({len(left)} left: {', '.join(left[:3])}...)"
            return None
        if ph.is_movement or ph.is_assault or ph.is_flight or ph.is_airstrike:
            return None
        return "there is no phase to end now"

    def perform(self, game: "Game", a: EndPhase) -> list[Event]:
        return phases.end_phase(game)


register_rule(EndPhaseRule())
