"""Units held off the map that enter during play (rulings 21-25): Paratrooper, the
nation Heroes (one ability id, ``hero``, printed "German Hero", "U.S. Hero"...), and
the Paratrooper Commander's aura.

The entering itself is an action family (``EnterReserve``: game.rules.families.
reserves); what lives here is what the cards say besides it:

* a unit whose card has Paratrooper or Hero is never deployed: it waits in reserve
  (:func:`reserve_kind`, asked by the deployment rules);
* a Paratrooper's drop ends its side's movement for that phase (ruling 22): the
  ``action_allowed`` hook below refuses the side's other moves after it;
* a Hero disregards face-up Disrupted counters on itself (Fanatic's rule,
  game.rules.abilities.casualty.resist_disruption);
* Paratrooper Commander (ruling 25): friendly Paratroopers next to it roll one extra
  attack die.
"""
from __future__ import annotations

from typing import Any

from ..actions import Board, Dismount, Move
from ..cards import UnitCard
from ..state import GameState, Unit
from . import register
from .roster_common import aura
from .spec import AbilitySpec, _COMMANDER_TAIL, define

#: the abilities that hold a unit off the map at deployment, in the order asked
RESERVE_IDS = ("paratrooper", "hero")
_DROPPED = "para_dropped"          # game mark: (turn, phase, side) of the last drop

SPECS = define(
    AbilitySpec(
        "paratrooper", "Paratrooper", False,
        "This unit is not deployed: it waits off the map in reserve. At the end of any of its"
        " side's movement phases it may be placed in any hex a Soldier may enter with no enemy"
        " unit in it or next to it (stacking limits apply; it is not a move, so it provokes no"
        " defensive fire). It can't move in that phase, and once a Paratrooper has dropped its"
        " side's other units can't move in that phase either (ruling 22). From the assault"
        " phase on it acts normally. Entering is optional: it may wait for a later turn.",
        unit_type="Soldier"),
    AbilitySpec(
        "hero", "Hero", False,
        "This unit is not deployed: it waits off the map in reserve. At the start of any of"
        " its side's movement phases (before any of its units has acted) it may be put into"
        " any hex holding a friendly Soldier of its own nation, within the stacking limits"
        " (ruling 23); it may then move in that phase. It disregards face-up Disrupted"
        " counters on itself, as Fanatic does.", unit_type="Soldier"),
    AbilitySpec(
        "paratrooper_commander", "Paratrooper Commander", False,
        "Friendly Paratroopers in this commander's hex or the next hex (the commander itself"
        " excluded) roll one extra attack die on every attack, defensive fire included"
        " (ruling 25)." + _COMMANDER_TAIL, commander=True, unit_type="Soldier"),
)


def reserve_kind(card: UnitCard) -> str | None:
    """``"paratrooper"`` / ``"hero"`` when ``card`` waits off the map at deployment
    (ruling 21), else None."""
    for a in RESERVE_IDS:
        if card.has(a):
            return a
    return None


def in_reserve(u: Unit) -> bool:
    """Waiting off the map: a reserve card, not placed yet, not destroyed."""
    return u.hex is None and not u.destroyed and reserve_kind(u.card) is not None


def reserves_of(state: GameState, side: str) -> list[Unit]:
    """The units of ``side`` waiting in reserve, in army order."""
    return [u for u in state.units_of(side) if in_reserve(u)]


def _phase_mark(state: GameState, side: str) -> tuple[Any, ...]:
    return (state.turn, state.phase.value, side)


def dropped_this_phase(state: GameState, side: str) -> bool:
    """Ruling 22: a Paratrooper of ``side`` has dropped in the current phase."""
    return state.marks.get(_DROPPED) == _phase_mark(state, side)


def note_drop(state: GameState, side: str) -> None:
    state.marks[_DROPPED] = _phase_mark(state, side)


def army_remains(state: GameState, side: str) -> bool:
    """Ruling 24: ``side`` still has an army - a unit on the map, or a Paratrooper in
    reserve (it can always drop).  A Hero in reserve alone can't enter without a
    Soldier of its nation on the map, so it doesn't count."""
    return any(u.on_map or (in_reserve(u) and u.card.has("paratrooper"))
               for u in state.units_of(side))


_MOVES = (Move, Board, Dismount)


@register("action_allowed", requires="paratrooper")
def _movement_over_after_drop(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """Ruling 22: dropping Paratroopers is the end of the side's movement phase."""
    a = ctx.get("action")
    if value is not None or not isinstance(a, _MOVES):
        return value
    st: GameState = ctx["state"]
    if st.phase.is_movement and st.pending is None and dropped_this_phase(st, a.side):
        return ("your Paratroopers have dropped, and that ends your movement phase: no unit "
                "moves after them (ruling 22)")
    return value


def _adjacent_para_commander(st: GameState, u: Unit) -> Unit | None:
    if u.hex is None:
        return None
    for c in st.units.values():
        if c is u or c.side != u.side or not c.on_map or c.disrupted or c.hex is None \
                or not c.card.has("paratrooper_commander"):
            continue
        if c.hex.distance(u.hex) <= 1:
            return c
    return None


@aura("attack_dice", "paratrooper_commander")
def _paratrooper_commander(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    a: Unit = ctx["attacker"]
    if value and a.card.has("paratrooper") and _adjacent_para_commander(ctx["state"], a):
        return value + 1
    return value


__all__ = ["SPECS", "RESERVE_IDS", "reserve_kind", "in_reserve", "reserves_of",
           "dropped_this_phase", "note_drop", "army_remains"]
