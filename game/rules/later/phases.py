"""The later edition's Sequence of Play (checklist L01): its own entries of the
phase table (game.rules.phases.TABLES["later"]).

A initiative; B, C first and second movement; D, E first and second flight (place
Aircraft, game.rules.later.flight); F, G first and second airstrike (each placed
Aircraft may attack; hits are face-down like the assault's, L05); H, I first and
second assault; J casualty (also removes the Disrupted counters of disrupted Aircraft
off the map, L10); K end of turn: surviving Aircraft leave the map first (L11,
ruling L6), then the victory check (L43).  Setup and deployment are the first
edition's rows (deployment depth: families.setup.DEPLOY_DEPTH).
"""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Callable

from .. import phases
from ..actions import Attack, EndPhase, PlaceAircraft
from ..events import AircraftLeft, DisruptionRemoved, Event
from ..phases import PHASES, PhaseSpec, TABLES
from ..state import GameState, Phase

if TYPE_CHECKING:
    from ..engine import Game

__all__ = ["LATER_PHASES", "LATER_PLAY_PHASES", "leave_map", "recover_off_map"]


def _const(p: Phase) -> Callable[[GameState], Phase]:
    return lambda state: p


def recover_off_map(game: "Game") -> list[Event]:
    """Casualty phase step 1 for Aircraft off the map (L10)."""
    ev: list[Event] = []
    for u in game.state.units.values():
        if u.card.is_aircraft and u.hex is None and u.disrupted and not u.destroyed:
            u.disrupted = False
            ev.append(DisruptionRemoved(u.uid, text=f"{u.name} recovers from disruption "
                                                    f"(off the map)."))
    return ev


def leave_map(game: "Game") -> list[Event]:
    """End of turn: surviving Aircraft leave the map with their face-up counters (L11)."""
    ev: list[Event] = []
    for u in game.state.units.values():
        if u.card.is_aircraft and u.on_map:
            u.hex = None
            ev.append(AircraftLeft(u.uid, text=f"{u.name} flies off the map"
                                               + (" (disrupted)." if u.disrupted else ".")))
    return ev


def _casualty(game: "Game") -> list[Event]:
    return recover_off_map(game) + phases._casualty(game)


def _end_of_turn(game: "Game") -> list[Event]:
    return leave_map(game) + phases._end_of_turn(game)


_FLIGHT = (PlaceAircraft, EndPhase)
_AIRSTRIKE = (Attack, EndPhase)

LATER_PHASES: dict[Phase, PhaseSpec] = dict(PHASES)
LATER_PHASES.update({s.phase: s for s in (
    replace(PHASES[Phase.MOVEMENT_SECOND], next=_const(Phase.FLIGHT_FIRST)),
    PhaseSpec(Phase.FLIGHT_FIRST, "first", _FLIGHT, _const(Phase.FLIGHT_SECOND)),
    PhaseSpec(Phase.FLIGHT_SECOND, "second", _FLIGHT, _const(Phase.AIRSTRIKE_FIRST)),
    PhaseSpec(Phase.AIRSTRIKE_FIRST, "first", _AIRSTRIKE, _const(Phase.AIRSTRIKE_SECOND)),
    PhaseSpec(Phase.AIRSTRIKE_SECOND, "second", _AIRSTRIKE, _const(Phase.ASSAULT_FIRST)),
    replace(PHASES[Phase.CASUALTY], auto=_casualty),
    replace(PHASES[Phase.END_OF_TURN], auto=_end_of_turn),
)})
TABLES["later"] = LATER_PHASES

#: the turn's phases in order (A-K)
LATER_PLAY_PHASES = (Phase.INITIATIVE, Phase.MOVEMENT_FIRST, Phase.MOVEMENT_SECOND,
                     Phase.FLIGHT_FIRST, Phase.FLIGHT_SECOND, Phase.AIRSTRIKE_FIRST,
                     Phase.AIRSTRIKE_SECOND, Phase.ASSAULT_FIRST, Phase.ASSAULT_SECOND,
                     Phase.CASUALTY, Phase.END_OF_TURN)
