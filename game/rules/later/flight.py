"""The flight phases and Antiair (checklist L04, L06, L12, L15; rulings L3, L4, L15).

``PlaceAircraft(side, uid, hex)``: in its owner's flight phase an Aircraft that is off
the map, not destroyed and not disrupted is placed in any whole hex, enemy units
included; at most one Aircraft of each army per hex; Aircraft never count against
stacking.  A placed Aircraft stays until the end of the turn (so it can't be placed
twice in a phase).  Placement is not a move: the only defensive fire it provokes is
Antiair's.

Antiair: right after the placement every enemy unit with Antiair in or next to the
hex, not disrupted and not yet fired defensively this phase, may make its defensive
-fire attack against the Aircraft.  The defender answers an
:class:`~game.rules.state.AntiairPrompt` with ``DefensiveFire`` / ``PassDefensiveFire``
exactly like any defensive-fire offer (the same action kinds; their rules here
extend the first edition's for this prompt): one shot at a time, deciding after each;
a success disrupts the Aircraft at once (face up); cover never applies.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .. import combat
from ..actions import Action, DefensiveFire, PassDefensiveFire, PlaceAircraft
from ..events import AircraftPlaced, AntiairOffered, DefensiveFirePassed, Event
from ..families import RULES, ActionRule, register_rule, unit_of
from ..errors import IllegalAction
from ..families.defensive_fire import (DefensiveFireRule, PassDefensiveFireRule,
                                       eligibility_problem)
from ..hexes import Hex, hex_label
from ..odds import Odds
from .combat import has_antiair
from ..state import AntiairPrompt, GameState, Unit, other_side
from ..wording import side_player

if TYPE_CHECKING:
    from ..engine import Game

__all__ = ["place_problem", "antiair_eligible", "PlaceAircraftRule", "PlacementRisk",
           "placement_risk"]


#: what an Antiair hit does, in a player's words (shown by the Antiair prompt)
ANTIAIR_HIT_TEXT = ("A hit disrupts the Aircraft at once: it makes no airstrike this turn. "
                    "Cover never protects an Aircraft.")


def place_problem(state: GameState, u: Unit, h: Hex) -> str | None:
    if not u.card.is_aircraft:
        return f"{u.name} is not an Aircraft: only Aircraft are placed in the flight phase"
    if not state.phase.is_flight:
        return "Aircraft are placed in your flight phase"
    if u.side != state.active_side:
        return f"it is not {u.side}'s flight phase"
    if u.destroyed:
        return f"{u.name} has been destroyed"
    if u.hex is not None:
        return f"{u.name} is already over the battle map (it stays until the end of the turn)"
    if u.disrupted:
        return (f"{u.name} is disrupted: a disrupted Aircraft sits out this turn and "
                f"recovers in the casualty phase")
    if not state.battle_map.is_playable(h):
        return f"{hex_label(h)} is not a playable hex (half-hexes don't count)"
    for o in state.units.values():
        if o.hex == h and o.side == u.side and o.card.is_aircraft and not o.destroyed:
            return f"{hex_label(h)} already has an Aircraft of your army (one per army per hex)"
    return None


#: how far an Ace's defensive fire reaches an enemy Aircraft just placed
ACE_REACH = 4


def antiair_eligible(state: GameState, aircraft: Unit) -> tuple[str, ...]:
    """Enemy units that may fire at ``aircraft`` where it was placed: Antiair in or
    next to its hex, an Ace up to 4 hexes away."""
    h = aircraft.hex
    if h is None or aircraft.destroyed:
        return ()
    out = []
    for e in state.units.values():
        if e.side == aircraft.side or not e.on_map or e.boarded or not (
                has_antiair(state, e) or e.card.has("ace")):
            continue
        assert e.hex is not None
        reach = ACE_REACH if e.card.has("ace") else 1
        if e.hex.distance(h) > reach or e.disrupted or e.fired_defensively:
            continue
        if combat.why_not_attack(state, e.uid, aircraft.uid, defensive=True) is None:
            out.append(e.uid)
    return tuple(out)


def _offer(state: GameState, aircraft: Unit) -> list[Event]:
    elig = antiair_eligible(state, aircraft)
    if not elig:
        state.pending = None
        return []
    side = other_side(aircraft.side)
    assert aircraft.hex is not None
    state.pending = AntiairPrompt(aircraft.uid, aircraft.hex, elig, side)
    names = ", ".join(state.units[x].name for x in elig)
    return [AntiairOffered(aircraft.uid, aircraft.hex, elig, side,
                           text=f"{aircraft.name} arrives over {hex_label(aircraft.hex)}: "
                                f"{side_player(side)} may fire Antiair with {names}.")]


class PlaceAircraftRule(ActionRule):
    kind = PlaceAircraft

    def enumerate(self, game: "Game", side: str) -> list[Action]:
        st = game.state
        if not st.phase.is_flight or side != st.active_side:
            return []
        out: list[Action] = []
        taken = {o.hex for o in st.units.values()
                 if o.side == side and o.card.is_aircraft and o.hex is not None}
        hexes = st.battle_map.hexes
        for u in st.units_of(side):
            if u.card.is_aircraft and not u.destroyed and u.hex is None and not u.disrupted:
                out.extend(PlaceAircraft(side, u.uid, h) for h in hexes if h not in taken)
        return out

    def problem(self, game: "Game", action: PlaceAircraft) -> str | None:
        u = unit_of(game, action)
        return place_problem(game.state, u, action.hex)

    def perform(self, game: "Game", a: PlaceAircraft) -> list[Event]:
        st = game.state
        u = st.units[a.uid]
        u.hex = a.hex
        u.facing = 0
        ev: list[Event] = [AircraftPlaced(u.uid, a.hex, u.side,
                                          text=f"{u.name} flies to {hex_label(a.hex)}.")]
        return ev + _offer(st, u)


class LaterDefensiveFireRule(DefensiveFireRule):
    """DefensiveFire answering an AntiairPrompt too (first-edition prompts unchanged)."""

    def enumerate(self, game: "Game", side: str) -> list[Action]:
        p = game.state.pending
        if isinstance(p, AntiairPrompt):
            return [DefensiveFire(side, uid) for uid in p.eligible]
        return super().enumerate(game, side)

    def problem(self, game: "Game", action: DefensiveFire) -> str | None:
        st = game.state
        p = st.pending
        if not isinstance(p, AntiairPrompt):
            return super().problem(game, action)
        return eligibility_problem(st, action.uid, p.eligible,
                                   "can't fire at that Aircraft (Antiair units in or next to its hex)")

    def perform(self, game: "Game", a: DefensiveFire) -> list[Event]:
        st = game.state
        p = st.pending
        if not isinstance(p, AntiairPrompt):
            return super().perform(game, a)
        aircraft = st.units[p.aircraft]
        st.units[a.uid].fired_defensively = True
        ev = combat.resolve_attack(st, a.uid, p.aircraft, game.dice, defensive=True)
        return ev + _offer(st, aircraft)


class LaterPassDefensiveFireRule(PassDefensiveFireRule):
    def problem(self, game: "Game", action: PassDefensiveFire) -> str | None:
        if isinstance(game.state.pending, AntiairPrompt):
            return None
        return super().problem(game, action)

    def perform(self, game: "Game", a: PassDefensiveFire) -> list[Event]:
        st = game.state
        p = st.pending
        if not isinstance(p, AntiairPrompt):
            return super().perform(game, a)
        st.pending = None
        return [DefensiveFirePassed(a.side, "place", p.aircraft, p.hex, p.hex, p.hex,
                                    text=f"{side_player(a.side)} holds fire.")]


register_rule(PlaceAircraftRule())
if type(RULES[DefensiveFire]) is DefensiveFireRule:
    register_rule(LaterDefensiveFireRule())
if type(RULES[PassDefensiveFire]) is PassDefensiveFireRule:
    register_rule(LaterPassDefensiveFireRule())


@dataclass(frozen=True)
class PlacementRisk:
    """What placing an Aircraft in a hex would provoke (ruling L4): the enemy Antiair
    units that could fire at it there, each shot's exact odds (defensive fire: the
    best result is a disruption), and the chance that at least one of them disrupts
    it if every one fires."""

    aircraft: str
    hex: Hex
    shots: tuple[tuple[str, Odds], ...]
    p_disrupted: float


def placement_risk(game: "Game", uid: str, h: Hex, *, private: bool = False) -> PlacementRisk:
    """The Antiair fire ``uid`` would face if placed in ``h`` now (the position is left
    unchanged; any phase, so a player can plan ahead).  Asked on a copy of the game, or,
    with ``private`` (the game is already the caller's own copy, as the threat query's
    probe is), on the game itself with the Aircraft put back afterwards.
    Raises IllegalAction when ``uid`` is no Aircraft or ``h`` no playable hex."""
    st = game.state
    u = st.units[uid]
    if not u.card.is_aircraft:
        raise IllegalAction(f"{u.name} is not an Aircraft")
    if not st.battle_map.is_playable(h):
        raise IllegalAction(f"{hex_label(h)} is not a playable hex (half-hexes don't count)")
    g = game if private else game.copy()
    a = g.state.units[uid]
    was = (a.hex, a.facing)
    a.hex, a.facing = h, 0
    g.state.touch()
    try:
        shots = []
        p_clear = 1.0
        for e in antiair_eligible(g.state, a):
            o = g.odds(e, uid, defensive=True)
            shots.append((e, o))
            p_clear *= 1.0 - o.p_stopped
    finally:
        if private:
            a.hex, a.facing = was
            g.state.touch()
    return PlacementRisk(uid, h, tuple(shots), 1.0 - p_clear)
