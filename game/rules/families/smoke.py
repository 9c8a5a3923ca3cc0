"""LaySmoke: Smoke Screen's declaration (ruling 30; the rule's knowledge - who may,
where the smoke goes, what it blocks - is in game.rules.abilities.roster_final)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..abilities.roster_final import declare_smoke, smoke_problem
from ..actions import Action, LaySmoke
from ..events import Event
from . import ActionRule, register_rule, unit_of

if TYPE_CHECKING:
    from ..engine import Game

__all__ = ["LaySmokeRule"]


class LaySmokeRule(ActionRule):
    kind = LaySmoke

    def enumerate(self, game: "Game", side: str) -> list[Action]:
        st = game.state
        if not st.phase.is_movement or st.phase.is_vanguard:
            return []
        return [LaySmoke(side, u.uid) for u in st.units.values()
                if u.side == side and u.card.has("smoke_screen")
                and smoke_problem(st, u) is None]

    def problem(self, game: "Game", action: LaySmoke) -> str | None:
        return smoke_problem(game.state, unit_of(game, action))

    def perform(self, game: "Game", action: LaySmoke) -> list[Event]:
        return declare_smoke(game.state, game.state.units[action.uid])


register_rule(LaySmokeRule())
