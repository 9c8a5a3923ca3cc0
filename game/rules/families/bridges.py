"""Bridge Demolition (a unit with the ability blows a standing bridge of its hex in
its assault phase: 4+ on one die)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import activation
from ..actions import Action, DemolishBridge
from ..events import BridgeDemolitionRoll, BridgeDestroyed, Event
from ..hexes import Hex, Hexside
from ..state import GameState, Unit
from . import ActionRule, register_rule, unit_of

if TYPE_CHECKING:
    from ..engine import Game

__all__ = ["BRIDGE_DEMOLITION", "BRIDGE_DEMOLITION_NEED", "bridges_at"]

BRIDGE_DEMOLITION = "bridge_demolition"
BRIDGE_DEMOLITION_NEED = 4


def bridges_at(state: GameState, h: Hex | None) -> list[Hexside]:
    if h is None:
        return []
    return sorted(s for s in state.battle_map.bridges
                  if h in s.hexes() and s not in state.destroyed_bridges)


def _problem(state: GameState, u: Unit) -> str | None:
    prob = activation.problem(state, u)
    if prob:
        return prob
    if not u.card.has(BRIDGE_DEMOLITION):
        return f"{u.name} has no Bridge Demolition ability"
    if not bridges_at(state, u.hex):
        return f"there is no standing bridge in {u.name}'s hex"
    return None


class DemolishBridgeRule(ActionRule):
    kind = DemolishBridge

    def for_unit(self, game: "Game", u: Unit) -> list[Action]:
        st = game.state
        if u.acted or u.carrier is not None or not st.phase.is_assault \
                or not u.card.has(BRIDGE_DEMOLITION):     # (_problem's cheapest refusal first)
            return []
        return [DemolishBridge(u.side, u.uid)] if _problem(st, u) is None else []

    def problem(self, game: "Game", action: DemolishBridge) -> str | None:
        u = unit_of(game, action)
        if not game.state.phase.is_assault:
            return "bridges are demolished in the assault phase"
        return _problem(game.state, u)

    def perform(self, game: "Game", a: DemolishBridge) -> list[Event]:
        st = game.state
        u = st.units[a.uid]
        u.acted = True
        die = game.dice.d6()
        ok = die >= BRIDGE_DEMOLITION_NEED
        ev: list[Event] = [BridgeDemolitionRoll(u.uid, die, BRIDGE_DEMOLITION_NEED, ok,
                                                text=f"{u.name} tries to blow the bridge: "
                                                     f"rolls {die} (needs "
                                                     f"{BRIDGE_DEMOLITION_NEED}+), "
                                                     f"{'success' if ok else 'failure'}.")]
        if ok:
            side = bridges_at(st, u.hex)[0]
            st.destroyed_bridges = st.destroyed_bridges | {side}
            ev.append(BridgeDestroyed(side, u.uid))
        return ev


register_rule(DemolishBridgeRule())
