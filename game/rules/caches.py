"""The façade's caches (game.rules.engine.Game): remembered answers of the rules for
one *position*, never rules of their own.

A position is identified by a small number (:meth:`PositionCaches.position`): a new
one whenever the state's fingerprint (version, phase, turn, bridges, the pending
decision, the road bonuses, and per unit its hex, counters, acted / fired flags,
carrier, facing, side and card) or its units dict changes (a state restored after a
failed action or rebuilt by undo has a new units dict).  Everything cached here is
keyed on that number, so a changed position can never be answered from an old one:

- ``legal``: what ``families.legal_actions`` listed (``Game.legal_actions``); an
  action that is one of those very objects is applied without a second check
  (:meth:`PositionCaches.listed`).
- ``reach``: ``movement.reachable`` per unit (``Game.reachable``).
- ``stacking``: the position's ``movement.stacking_table`` (who counts for stacking
  where), shared by every unit's search.  It outlives its position while what it
  reads is unchanged (:meth:`PositionCaches.stacking_table`: each unit's uid, side,
  card, hex, destroyed and carrier, in state order, the units dict and the
  abilities registry's generation) - an attack, a turn in place or a phase change
  keeps it.
- ``enemies``: per side, the enemies' hexes on the map and their token
  (``families.moving.enemy_hexes``).
- ``targets``: per side, the enemies on the map and not aboard a transport, with their
  hexes (``families.attack``).
- ``on_map``: per side, the enemies on the map, aboard included (the mode attacks'
  listing, ``abilities.extra_actions``).

Longer-lived caches live next to the rule they serve and key on what that rule
reads: the movement search per map and (origin, kind of unit, speed, road bonus,
bridges, the unit's abilities when a hook keyed on them prices the steps) and the
stacking-closed hexes as a bit mask (game.rules.movement), the listed moves per
search result, one Move per (Reach, unit, facing) and the facing toward the nearest
enemy (families.moving), the open deployment hexes per zone (families.setup), the
hook points per card (game.rules.abilities, emptied by every (un)registration) and
the combat hook points per pair of cards (game.rules.combat).
"""
from __future__ import annotations

from operator import attrgetter
from typing import Any

from . import abilities, movement
from .actions import Action
from .hexes import Hex
from .movement import Reach, StackingTable
from .state import GameState, Unit

__all__ = ["PositionCaches", "fingerprint"]


#: the fields of a unit movement.stacking_table reads
_STACKING_FIELDS = attrgetter("uid", "side", "card", "hex", "destroyed", "carrier")
#: the fields of a unit a position's answers may depend on (fingerprint)
_UNIT_FINGERPRINT = attrgetter("hex", "destroyed", "disrupted", "damaged", "acted", "carrier",
                               "facing", "fired_defensively", "side", "card")


def fingerprint(st: GameState) -> tuple[Any, ...]:
    """Everything a position's answers may depend on that a caller could change."""
    return (st.version, st.phase, st.turn, st.destroyed_bridges, st.pending,
            st.road_bonus_used, tuple(map(_UNIT_FINGERPRINT, st.units.values())))


class PositionCaches:
    """One game's per-position caches (see the module doc)."""

    def __init__(self) -> None:
        self.pos: tuple[Any, ...] | None = None     # (units dict, fingerprint, number)
        self.scope: int | None = None               # the number, while a listing runs
        self.legal: tuple[int, list[Action]] | None = None
        self.reach: dict[str, dict[Hex, Reach]] = {}
        self.stacking: StackingTable | None = None
        self.listed_ids: set[int] | None = None     # ids of the objects in ``legal``
        # set by families.legal_actions: (its listing, uid -> (start, end) of that unit's
        # actions in it, where the actions listed per unit end)
        self.slices: tuple[list[Action], dict[str, tuple[int, int]], int] | None = None
        self.by_hex: dict[Hex, list[Unit]] | None = None   # units not destroyed, per hex
        self.enemies: dict[str, tuple[tuple[Hex, ...], int]] = {}   # families.moving
        self.targets: dict[str, list[tuple[Unit, Hex]]] = {}    # families.attack
        self.on_map: dict[str, list[Unit]] = {}     # per side: its enemies on the map
        # the last stacking table and what it was built from (it outlives positions)
        self.stacking_from: tuple[Any, ...] | None = None
        self.last_stacking: StackingTable | None = None

    def clear(self) -> None:
        self.pos = None
        self.legal = None
        self.reach.clear()
        self.stacking = None
        self.stacking_from = None
        self.last_stacking = None
        self.listed_ids = None
        self.slices = None
        self.by_hex = None
        self.enemies = {}
        self.targets = {}
        self.on_map = {}

    def position(self, st: GameState) -> int:
        """The number of the current position (inside a listing: the listing's)."""
        if self.scope is not None:
            return self.scope
        fp = fingerprint(st)
        pos = self.pos
        if pos is None or pos[0] is not st.units or pos[1] != fp:
            pos = self.pos = (st.units, fp, pos[2] + 1 if pos is not None else 1)
            self.reach.clear()
            self.stacking = None
            self.legal = None
            self.listed_ids = None
            self.by_hex = None
            self.enemies = {}
            self.targets = {}
            self.on_map = {}
        return int(pos[2])

    def units_at(self, st: GameState, h: Hex | None, include_boarded: bool = True
                 ) -> list[Unit]:
        """``st.units_at(h, include_boarded)`` from a per-position index."""
        if h is None:
            return []
        self.position(st)
        by_hex = self.by_hex
        if by_hex is None:
            by_hex = self.by_hex = {}
            for u in st.units.values():
                if u.hex is not None and not u.destroyed:
                    by_hex.setdefault(u.hex, []).append(u)
        here = by_hex.get(h, [])
        return list(here) if include_boarded else [u for u in here if u.carrier is None]

    def enemies_on_map(self, st: GameState, side: str) -> list[Unit]:
        """The units of the other side on the map (deployed, not destroyed; aboard
        included), in state order.  Read-only."""
        self.position(st)
        got = self.on_map.get(side)
        if got is None:
            got = self.on_map[side] = [t for t in st.units.values()
                                       if t.side != side and t.on_map]
            self.on_map[side + " aboard"] = [t for t in got if t.carrier is not None]
        return got

    def enemies_aboard(self, st: GameState, side: str) -> list[Unit]:
        """Those of :meth:`enemies_on_map` aboard a transport.  Read-only."""
        self.enemies_on_map(st, side)
        return self.on_map[side + " aboard"]

    def reachable(self, st: GameState, uid: str) -> dict[Hex, Reach]:
        self.position(st)
        hit = self.reach.get(uid)
        if hit is None:
            hit = self.reach[uid] = movement.reachable(st, uid, table=self.stacking_table(st))
        return hit

    def stacking_table(self, st: GameState) -> StackingTable:
        """The position's ``movement.stacking_table``.  It reads only each unit's uid,
        side, card, hex, destroyed and carrier (in state order) and the abilities
        registry (``abilities.GENERATION``), so a position that leaves all of them
        alone (an attack, a turn in place, a phase change) shares the last table."""
        self.position(st)
        table = self.stacking
        if table is None:
            made_from = (st.units, abilities.GENERATION,
                         tuple(map(_STACKING_FIELDS, st.units.values())))
            last = self.stacking_from
            if last is not None and last[0] is st.units and last[1:] == made_from[1:] \
                    and self.last_stacking is not None:
                table = self.last_stacking
            else:
                table = movement.stacking_table(st)
            self.stacking, self.last_stacking, self.stacking_from = table, table, made_from
        return table

    def listed(self, st: GameState, action: Action) -> bool:
        """Whether ``action`` is one of the very objects listed for this position."""
        legal = self.legal
        if legal is None or self.pos is None or legal[0] != self.pos[2] \
                or self.position(st) != legal[0]:
            return False
        acts = legal[1]
        sl = self.slices
        start = 0
        if sl is not None and sl[0] is acts:
            # a unit's action is among that unit's listed actions, or after every unit's
            uid = getattr(action, "uid", None)
            got = sl[1].get(uid) if isinstance(uid, str) else None
            if got is not None:
                for a in acts[got[0]:got[1]]:
                    if a is action:
                        return True
            start = sl[2]
        ids = self.listed_ids
        if ids is None:
            # the listing holds its objects, so no other object has one of these ids
            ids = self.listed_ids = set(map(id, acts[start:]))
        return id(action) in ids
