"""Attacks in a unit's own assault phase (rulebook: Attack and Defense; combat
numbers in game.rules.combat).  Attack modes from abilities (Close Assault...) are
listed by the abilities' ``activation_options``."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import activation, combat
from ..actions import Action, Attack
from ..errors import MalformedAction
from ..events import Event
from ..state import GameState, Unit
from . import ActionRule, register_rule, unit_of

if TYPE_CHECKING:
    from ..engine import Game


class AttackRule(ActionRule):
    kind = Attack

    def for_unit(self, game: "Game", u: Unit) -> list[Action]:
        st = game.state
        if u.acted or u.boarded or u.hex is None or _phase_problem(st, u) is not None:
            return []
        side = u.side
        bm = st.battle_map
        seen = bm.los.visible_from(u.hex)     # no attack without LOS
        # later edition: sight to/from Aircraft is never blocked, bluff to bluff (L2, L9)
        wide = st.options.get("edition") == "later" and (
            u.card.is_aircraft or bool(bm.bluff_hexes)
            or any(t.card.is_aircraft and t.on_map for t in st.units.values()))
        return [Attack(side, u.uid, t) for t in combat.allowed_targets(
            st, u.uid, [t.uid for t in st.units.values()
                        if t.side != side and not t.boarded and t.on_map
                        and (wide or t.hex in seen)])]

    def problem(self, game: "Game", action: Attack) -> str | None:
        st = game.state
        u = unit_of(game, action)
        prob = _phase_problem(st, u)
        if prob:
            return prob
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


def _phase_problem(st: GameState, u: Unit) -> str | None:
    """Ground units attack in the assault phases; Aircraft (later edition) only in
    the airstrike phases (checklist L05)."""
    if u.card.is_aircraft:
        return None if st.phase.is_airstrike else (
            f"{u.name} is an Aircraft: Aircraft attack in your airstrike phase")
    if not st.phase.is_assault:
        return "attacks are made in your assault phase"
    return None


register_rule(AttackRule())
