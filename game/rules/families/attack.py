"""Attacks in a unit's own assault phase (rulebook: Attack and Defense; combat
numbers in game.rules.combat).  Attack modes from abilities (Close Assault...) are
listed by the abilities' ``activation_options``."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import activation, combat
from ..actions import Action, Attack
from ..errors import MalformedAction
from ..events import Event
from ..state import Unit
from . import ActionRule, register_rule, unit_of

if TYPE_CHECKING:
    from ..engine import Game


class AttackRule(ActionRule):
    kind = Attack

    def for_unit(self, game: "Game", u: Unit) -> list[Action]:
        st = game.state
        if u.acted or u.boarded or not st.phase.is_assault or u.hex is None:
            return []
        side = u.side
        seen = st.battle_map.los.visible_from(u.hex)     # no attack without LOS
        return [Attack(side, u.uid, t.uid) for t in st.units.values()
                if t.on_map and t.side != side and not t.boarded and t.hex in seen
                and combat.why_not_attack(st, u.uid, t.uid) is None]

    def problem(self, game: "Game", action: Attack) -> str | None:
        st = game.state
        u = unit_of(game, action)
        if not st.phase.is_assault:
            return "attacks are made in your assault phase"
        prob = activation.problem(st, u)
        if prob:
            return prob
        if action.target not in st.units:
            raise MalformedAction(f"there is no unit '{action.target}'")
        return combat.why_not_attack(st, u.uid, action.target, mode=action.mode)

    def perform(self, game: "Game", a: Attack) -> list[Event]:
        st = game.state
        st.units[a.uid].acted = True
        return combat.resolve_attack(st, a.uid, a.target, game.dice, mode=a.mode)


register_rule(AttackRule())
