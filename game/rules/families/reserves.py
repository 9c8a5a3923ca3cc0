"""EnterReserve: a unit held off the map enters it during play (rulings 21-24).

Paratroopers and the nation Heroes are never deployed (ruling 21: the deployment
rules ask ``abilities.roster_reserves.reserve_kind``); they wait in reserve and enter
in one of their side's movement phases of the turns (never in the Vanguard moves):

* a Paratrooper drops at the END of the phase (ruling 22): into any whole hex a
  Soldier may enter with no enemy unit in it or next to it (enemy Aircraft don't
  count, ruling L7), within the stacking limits.  It has used its activation (it
  can't move in that phase), and the drop ends its side's movement: the side's
  other units can't move, board or dismount afterwards (the ability's
  ``action_allowed`` hook); more Paratroopers may still drop;
* a Hero enters at the START of the phase (ruling 23): while no unit of its side
  has acted in it and no Paratrooper has dropped, into a hex holding a friendly
  Soldier of its nation (on the map, not aboard a transport), within the stacking
  limits (a full hex is closed).  It may move in that same phase.

Entering is optional and is not a move: no cost, no movement roll, no defensive
fire.  ``problem`` is the one description; the listing and the UI's shaded hexes
(:func:`entry_hexes`) come from it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import movement
from ..abilities.roster_reserves import (dropped_this_phase, in_reserve, note_drop,
                                         reserve_kind, reserves_of)
from ..actions import Action, EnterReserve
from ..events import Event, ReserveEntered
from ..hexes import Hex, hex_label
from ..state import GameState, Unit
from . import ActionRule, register_rule, unit_of

if TYPE_CHECKING:
    from ..engine import Game

__all__ = ["EnterReserveRule", "timing_problem", "entry_problem", "entry_hexes",
           "enemy_zone", "HOW"]

#: how each kind of reserve enters, in a player's words
HOW = {"paratrooper": "drops in at the end of one of your movement phases",
       "hero": "enters at the start of one of your movement phases"}


def _any_acted(state: GameState, side: str) -> bool:
    return any(u.acted for u in state.units_of(side) if u.on_map)


def timing_problem(state: GameState, u: Unit) -> str | None:
    """Why ``u`` may not enter the map now, wherever it goes (None: it may)."""
    kind = reserve_kind(u.card)
    if kind is None:
        return f"{u.name} is not held in reserve: it was deployed at the start"
    if u.destroyed:
        return f"{u.name} has been destroyed"
    if u.hex is not None:
        return f"{u.name} is already on the battle map"
    ph = state.phase
    if not ph.is_movement or ph.is_vanguard or state.turn < 1:
        return f"{u.name} {HOW[kind]} (not in the {ph.title.lower()})"
    if u.side != state.active_side:
        return f"{u.name} {HOW[kind]}, not in the enemy's"
    if state.pending is not None:
        return "a decision is pending"
    if kind == "hero":
        if dropped_this_phase(state, u.side):
            return (f"your Paratroopers have dropped, which ends your movement phase; "
                    f"{u.name} enters only at its start (ruling 23)")
        if _any_acted(state, u.side):
            return (f"{u.name} enters only at the start of your movement phase, before any "
                    f"of your units has moved (ruling 23)")
    return None


def enemy_zone(state: GameState, side: str) -> frozenset[Hex]:
    """Hexes in or next to an enemy ground unit on the map (closed to a drop)."""
    out: set[Hex] = set()
    for e in state.units.values():
        if e.side == side or not e.on_map or e.hex is None or e.card.is_aircraft:
            continue
        out.add(e.hex)
        out.update(e.hex.neighbors())
    return frozenset(out)


def _nation_soldier_hexes(state: GameState, u: Unit) -> frozenset[Hex]:
    return frozenset(o.hex for o in state.units.values()
                     if o is not u and o.side == u.side and o.on_map and o.hex is not None
                     and o.is_soldier and not o.boarded
                     and o.card.nationality == u.card.nationality)


def _nation(u: Unit) -> str:
    return u.card.nationality


def entry_problem(state: GameState, u: Unit, h: Hex,
                  _zone: frozenset[Hex] | None = None,
                  _table: object | None = None) -> str | None:
    """Why ``u`` may not enter in ``h`` now (rulings 21-23), else None."""
    why = timing_problem(state, u)
    if why is not None:
        return why
    bm = state.battle_map
    if not bm.is_playable(h):
        return f"{hex_label(h)} is not a playable hex (half-hexes don't count)"
    kind = reserve_kind(u.card)
    if kind == "paratrooper":
        t = bm.terrain_at(h)
        if movement.impassable(u, t):
            return f"Soldiers can't enter {t.value}, so {u.name} can't drop there"
        zone = _zone if _zone is not None else enemy_zone(state, u.side)
        if h in zone:
            return (f"{hex_label(h)} is in or next to an enemy unit: Paratroopers drop only "
                    f"where no enemy is next to them")
    else:
        if h not in _nation_soldier_hexes(state, u):
            return (f"{u.name} enters only in a hex holding a friendly Soldier of its nation "
                    f"({_nation(u)}); none in {hex_label(h)}")
    friends, vehicles = movement.occupancy(state, u)
    return movement.stacking_problem(u, h, friends, vehicles)


def entry_hexes(state: GameState, u: Unit) -> list[Hex]:
    """Every hex ``u`` may enter in now, row by row (empty when it may not now)."""
    if timing_problem(state, u) is not None:
        return []
    bm = state.battle_map
    if reserve_kind(u.card) == "hero":
        cands = sorted(_nation_soldier_hexes(state, u), key=lambda x: (x.r, x.q))
        zone = None
    else:
        zone = enemy_zone(state, u.side)
        cands = [h for h in bm.hexes if h not in zone]
    friends, vehicles = movement.occupancy(state, u)
    out = []
    for h in cands:
        if not bm.is_playable(h):
            continue
        if reserve_kind(u.card) == "paratrooper" and movement.impassable(u, bm.terrain_at(h)):
            continue
        if movement.stacking_problem(u, h, friends, vehicles) is None:
            out.append(h)
    return out


class EnterReserveRule(ActionRule):
    kind = EnterReserve

    def enumerate(self, game: "Game", side: str) -> list[Action]:
        st = game.state
        if not st.phase.is_movement or st.phase.is_vanguard or st.pending is not None \
                or side != st.active_side:
            return []
        out: list[Action] = []
        for u in reserves_of(st, side):
            out.extend(EnterReserve(side, u.uid, h) for h in entry_hexes(st, u))
        return out

    def problem(self, game: "Game", action: EnterReserve) -> str | None:
        u = unit_of(game, action)
        return entry_problem(game.state, u, action.hex)

    def perform(self, game: "Game", a: EnterReserve) -> list[Event]:
        st = game.state
        u = st.units[a.uid]
        kind = reserve_kind(u.card) or ""
        u.hex = a.hex
        u.facing = 0 if st.ends.get(u.side) == "left" else 3     # toward the enemy end
        u.carrier = None
        if kind == "paratrooper":
            u.acted = True                  # ruling 22: it can't move in that phase
            note_drop(st, u.side)
            text = f"{u.name} drops into {hex_label(a.hex)}."
        else:
            text = f"{u.name} joins the fight in {hex_label(a.hex)}."
        return [ReserveEntered(u.uid, a.hex, u.side, kind, text=text)]


register_rule(EnterReserveRule())


def waiting(state: GameState, side: str) -> list[Unit]:
    """``side``'s units in reserve (for clients: the side panel, the AI)."""
    return reserves_of(state, side)


__all__ += ["waiting", "in_reserve"]
