"""Transports (rulebook: Transports): a Soldier boards a transport in its hex or
dismounts into the transport's hex in the movement phase; an overstacked dismount
is placed by the opponent in the nearest legal hex."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import abilities, movement
from ..actions import Action, Board, Dismount, PlaceDismounted
from ..errors import MalformedAction
from ..events import Event, UnitBoarded, UnitDismounted
from ..hexes import Hex, hex_label
from ..state import DismountPlacement, GameState, Unit, other_side
from . import ActionRule, register_rule, unit_of
from .. import activation
from ..wording import side_player

if TYPE_CHECKING:
    from ..engine import Game

__all__ = ["TRANSPORT_IDS", "transport_capacity", "board_problem", "dismount_problem"]

TRANSPORT_IDS = ("transport", "exposed_transport", "gun_transport")


def transport_capacity(state: GameState, unit: Unit) -> int:
    """How many Soldiers ``unit`` carries (the ``transport_capacity`` hook point:
    Large Transport, Light Towing)."""
    cap = 1 if unit.is_vehicle and any(unit.card.has(t) for t in TRANSPORT_IDS) else 0
    if abilities.has_hooks("transport_capacity"):
        cap = int(abilities.apply("transport_capacity", cap, state=state, unit=unit))
    return cap


def board_problem(state: GameState, soldier: Unit, carrier: Unit) -> str | None:
    if not soldier.is_soldier:
        return f"{soldier.name} is not a Soldier: only Soldiers board transports"
    if carrier.side != soldier.side:
        return f"{carrier.name} is an enemy unit"
    cap = transport_capacity(state, carrier)
    if cap <= 0:
        return f"{carrier.name} is not a transport"
    if carrier.destroyed or carrier.hex is None:
        return f"{carrier.name} is not on the battle map"
    if len(state.passengers(carrier.uid)) >= cap:
        return (f"{carrier.name} already carries a Soldier" if cap == 1 else
                f"{carrier.name} already carries {cap} Soldiers")
    artillery = "artillery" in (soldier.card.subtype or "").lower()
    ok = abilities.apply("can_board", not artillery, state=state, unit=soldier, carrier=carrier)
    if ok is not True:
        if isinstance(ok, str) and ok:
            return ok
        return "transports can't carry Artillery" if artillery else (
            f"{soldier.name} can't board {carrier.name}")
    return None


def dismount_problem(state: GameState, u: Unit, h: Hex | None) -> str | None:
    c = state.units.get(u.carrier or "")
    if c is None or c.hex is None:
        return f"{u.name} is not aboard a transport"
    if h != c.hex:
        return f"{u.name} dismounts into its transport's hex {hex_label(c.hex)}"
    if u.disrupted:
        return f"{u.name} is disrupted and can't move"
    ok = abilities.apply("can_move", True, state=state, unit=u, phase=state.phase)
    if ok is not True:
        return ok if isinstance(ok, str) and ok else f"{u.name} can't move now"
    return None


def _nearest_legal(state: GameState, u: Unit, origin: Hex) -> tuple[Hex, ...]:
    bm = state.battle_map
    for radius in range(1, 40):
        ring = [h for h in bm.hexes if h.distance(origin) == radius
                and not movement.impassable(u, bm.terrain[h])
                and movement.stop_problem(state, u, h) is None]
        if ring:
            return tuple(sorted(ring, key=lambda x: (x.r, x.x2)))
    return ()


class BoardRule(ActionRule):
    kind = Board

    def for_unit(self, game: "Game", u: Unit) -> list[Action]:
        st = game.state
        if u.acted or u.carrier is not None or not st.phase.is_movement or not u.card.is_soldier \
                or u.disrupted:
            return []
        here = game._caches.units_at(st, u.hex, include_boarded=False)
        return [Board(u.side, u.uid, c.uid) for c in here
                if c is not u and c.card.is_vehicle and board_problem(st, u, c) is None]

    def problem(self, game: "Game", action: Board) -> str | None:
        st = game.state
        u = unit_of(game, action)
        if not st.phase.is_movement:
            return "Soldiers board transports in the movement phase"
        prob = activation.problem(st, u)
        if prob:
            return prob
        if u.boarded:
            return f"{u.name} is already aboard a transport"
        if u.disrupted:
            return f"{u.name} is disrupted and can't move"
        c = st.units.get(action.carrier)
        if c is None:
            raise MalformedAction(f"there is no unit '{action.carrier}'")
        if c.hex != u.hex:
            return f"{c.name} is not in {u.name}'s hex"
        return board_problem(st, u, c)

    def perform(self, game: "Game", a: Board) -> list[Event]:
        st = game.state
        u = st.units[a.uid]
        c = st.units[a.carrier]
        u.carrier = c.uid
        u.hex = c.hex
        u.acted = True
        return [UnitBoarded(u.uid, c.uid, c.hex, text=f"{u.name} boards {c.name}.")]


class DismountRule(ActionRule):
    kind = Dismount

    def for_unit(self, game: "Game", u: Unit) -> list[Action]:
        st = game.state
        if u.acted or u.carrier is None or not st.phase.is_movement:
            return []
        if u.hex is None or dismount_problem(st, u, u.hex) is not None:
            return []
        return [Dismount(u.side, u.uid, u.hex)]

    def problem(self, game: "Game", action: Dismount) -> str | None:
        st = game.state
        u = unit_of(game, action)
        if not st.phase.is_movement:
            return "Soldiers dismount in the movement phase"
        if not u.boarded:
            return f"{u.name} is not aboard a transport"
        if u.acted:
            return f"{u.name} has already used its move this phase (ruling 7)"
        return dismount_problem(st, u, action.hex)

    def perform(self, game: "Game", a: Dismount) -> list[Event]:
        st = game.state
        u = st.units[a.uid]
        assert u.carrier is not None
        c = st.units[u.carrier]
        assert c.hex is not None
        u.carrier = None
        u.hex = c.hex
        u.acted = True
        ev: list[Event] = [UnitDismounted(u.uid, c.hex, c.uid, text=f"{u.name} dismounts from "
                                                                    f"{c.name} in "
                                                                    f"{hex_label(c.hex)}.")]
        if movement.stop_problem(st, u, c.hex) is not None:
            cands = _nearest_legal(st, u, c.hex)
            if cands:
                st.pending = DismountPlacement(u.uid, cands, other_side(u.side))
        return ev


class PlaceDismountedRule(ActionRule):
    """Answers a ``DismountPlacement`` decision."""

    kind = PlaceDismounted

    def enumerate(self, game: "Game", side: str) -> list[Action]:
        p = game.state.pending
        assert isinstance(p, DismountPlacement)
        return [PlaceDismounted(side, p.uid, h) for h in p.candidates]

    def problem(self, game: "Game", action: PlaceDismounted) -> str | None:
        p = game.state.pending
        if not isinstance(p, DismountPlacement):
            return "no dismounting Soldier is waiting to be placed"
        if action.uid != p.uid:
            return "choose where the dismounting Soldier goes first"
        if action.hex not in p.candidates:
            return f"{hex_label(action.hex)} is not one of the nearest legal hexes"
        return None

    def perform(self, game: "Game", a: PlaceDismounted) -> list[Event]:
        st = game.state
        u = st.units[a.uid]
        u.hex = a.hex
        st.pending = None
        return [UnitDismounted(u.uid, a.hex, None, a.side, text=f"{side_player(a.side)} places {u.name} in "
                                                                f"{hex_label(a.hex)}.")]


for _r in (BoardRule(), DismountRule(), PlaceDismountedRule()):
    register_rule(_r)
