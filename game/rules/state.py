"""The game state: units in play, turn, phase, players, pending decisions.

Everything that changes during a game lives here; the map and the stat cards
are immutable and shared.  Only ``game.rules.engine`` (and the combat /
ability modules it calls) mutate a state; the UI and the AI read it.

A state is a plain object graph (dataclasses, dicts, frozensets), so
``copy.deepcopy`` works; :meth:`GameState.copy` is a faster equivalent that
shares the immutable parts (map, cards).
"""
from __future__ import annotations

import json

from dataclasses import dataclass, field, fields
from operator import attrgetter
from enum import Enum
from typing import Any, NamedTuple

from .board import BattleMap
from .cards import UnitCard
from .hexes import Hex, Hexside

__all__ = [
    "Phase", "Outcome", "Unit", "GameState", "other_side",
    "OrderChoice", "DefensiveFirePrompt", "DismountPlacement", "AntiairPrompt", "Decision",
    "MoveInProgress", "COUNTERS", "DISRUPTED", "DAMAGED", "DESTROYED",
    "SETUP_PHASES", "PLAY_PHASES", "MOVEMENT_PHASES", "ASSAULT_PHASES", "Snapshot",
]

DISRUPTED, DAMAGED, DESTROYED = "disrupted", "damaged", "destroyed"
COUNTERS = (DISRUPTED, DAMAGED, DESTROYED)


def other_side(side: str) -> str:
    """``"Axis"`` <-> ``"Allies"``."""
    if side == "Axis":
        return "Allies"
    if side == "Allies":
        return "Axis"
    raise ValueError(f"unknown side '{side}' (expected Axis or Allies)")


class Phase(str, Enum):
    """Setup steps, then the Sequence of Play (rulebook: Sequence of Play)."""

    SETUP_ORDER = "setup_order"            # coin-flip winner picks first/second player
    SETUP_END = "setup_end"                # first player (Standard) / defender (Assault) picks an end
    SETUP_OBJECTIVE = "setup_objective"    # Assault: the defender picks the objective hex
    DEPLOY_FIRST = "deploy_first"
    DEPLOY_SECOND = "deploy_second"
    VANGUARD_FIRST = "vanguard_first"      # before turn 1: Vanguard units' move (ruling 20)
    VANGUARD_SECOND = "vanguard_second"
    INITIATIVE = "initiative"
    MOVEMENT_FIRST = "movement_first"
    MOVEMENT_SECOND = "movement_second"
    FLIGHT_FIRST = "flight_first"          # later edition (game.rules.later.phases)
    FLIGHT_SECOND = "flight_second"
    AIRSTRIKE_FIRST = "airstrike_first"
    AIRSTRIKE_SECOND = "airstrike_second"
    ASSAULT_FIRST = "assault_first"
    ASSAULT_SECOND = "assault_second"
    CASUALTY = "casualty"
    END_OF_TURN = "end_of_turn"
    GAME_OVER = "game_over"

    @property
    def title(self) -> str:  # type: ignore[override]  # a label, not str.title()
        return _PHASE_TITLES[self]

    @property
    def is_movement(self) -> bool:
        return self in MOVEMENT_PHASES

    @property
    def is_assault(self) -> bool:
        return self in ASSAULT_PHASES

    @property
    def is_flight(self) -> bool:
        return self in (Phase.FLIGHT_FIRST, Phase.FLIGHT_SECOND)

    @property
    def is_airstrike(self) -> bool:
        return self in (Phase.AIRSTRIKE_FIRST, Phase.AIRSTRIKE_SECOND)

    @property
    def is_deploy(self) -> bool:
        return self in (Phase.DEPLOY_FIRST, Phase.DEPLOY_SECOND)

    @property
    def is_first(self) -> bool:
        """The first player's phase (movement/assault/deploy, flight/airstrike)."""
        return self in _FIRST_PHASES

    @property
    def is_vanguard(self) -> bool:
        """The Vanguard moves before turn 1 (ruling 20): movement phases where only units
        with Vanguard move."""
        return self in (Phase.VANGUARD_FIRST, Phase.VANGUARD_SECOND)


_PHASE_TITLES = {
    Phase.SETUP_ORDER: "Setup: first or second",
    Phase.SETUP_END: "Setup: choose an end",
    Phase.SETUP_OBJECTIVE: "Setup: choose the objective",
    Phase.DEPLOY_FIRST: "First player's deployment",
    Phase.DEPLOY_SECOND: "Second player's deployment",
    Phase.VANGUARD_FIRST: "First player's Vanguard moves",
    Phase.VANGUARD_SECOND: "Second player's Vanguard moves",
    Phase.INITIATIVE: "Initiative phase",
    Phase.MOVEMENT_FIRST: "First player's movement phase",
    Phase.MOVEMENT_SECOND: "Second player's movement phase",
    Phase.FLIGHT_FIRST: "First player's flight phase",
    Phase.FLIGHT_SECOND: "Second player's flight phase",
    Phase.AIRSTRIKE_FIRST: "First player's airstrike phase",
    Phase.AIRSTRIKE_SECOND: "Second player's airstrike phase",
    Phase.ASSAULT_FIRST: "First player's assault phase",
    Phase.ASSAULT_SECOND: "Second player's assault phase",
    Phase.CASUALTY: "Casualty phase",
    Phase.END_OF_TURN: "End of turn",
    Phase.GAME_OVER: "Game over",
}
#: a phase's value (``Phase.value``, as events carry it) -> its title
PHASE_TITLES: dict[str, str] = {p.value: t for p, t in _PHASE_TITLES.items()}
_FIRST_PHASES = frozenset((Phase.MOVEMENT_FIRST, Phase.ASSAULT_FIRST, Phase.DEPLOY_FIRST,
                           Phase.FLIGHT_FIRST, Phase.AIRSTRIKE_FIRST, Phase.VANGUARD_FIRST))
_SECOND_PHASES = frozenset((Phase.MOVEMENT_SECOND, Phase.ASSAULT_SECOND, Phase.DEPLOY_SECOND,
                            Phase.FLIGHT_SECOND, Phase.AIRSTRIKE_SECOND, Phase.VANGUARD_SECOND))
SETUP_PHASES = (Phase.SETUP_ORDER, Phase.SETUP_END, Phase.SETUP_OBJECTIVE,
                Phase.DEPLOY_FIRST, Phase.DEPLOY_SECOND)
#: the phases units move in (the Vanguard moves before turn 1 are movement phases too)
MOVEMENT_PHASES = (Phase.MOVEMENT_FIRST, Phase.MOVEMENT_SECOND, Phase.VANGUARD_FIRST,
                   Phase.VANGUARD_SECOND)
ASSAULT_PHASES = (Phase.ASSAULT_FIRST, Phase.ASSAULT_SECOND)
PLAY_PHASES = (Phase.INITIATIVE, Phase.MOVEMENT_FIRST, Phase.MOVEMENT_SECOND) + ASSAULT_PHASES + (
    Phase.CASUALTY, Phase.END_OF_TURN)


@dataclass(frozen=True)
class Outcome:
    winner: str | None          # a side, or None for a draw
    reason: str


# --- decisions the rules wait for (state.pending) ------------------------------------
@dataclass(frozen=True)
class OrderChoice:
    """``side`` chooses to be first or second player (coin flip or initiative)."""

    side: str
    reason: str                 # "coin flip" / "initiative"


@dataclass(frozen=True)
class DefensiveFirePrompt:
    """Ruling 14: the defender may fire at ``mover`` while it is in ``from_hex``
    (stage ``"leave"``) or after it entered ``to_hex`` (stage ``"enter"``)."""

    mover: str
    from_hex: Hex
    to_hex: Hex
    stage: str                  # "leave" | "enter"
    eligible: tuple[str, ...]

    @property
    def at_hex(self) -> Hex:
        """Where the mover is while this stage's shots are taken."""
        return self.from_hex if self.stage == "leave" else self.to_hex


@dataclass(frozen=True)
class AntiairPrompt:
    """Later edition (ruling L4): the Aircraft ``aircraft`` was just placed in ``hex``;
    ``side`` (its enemy) may fire with each of ``eligible`` (Antiair units in or next
    to that hex), answered with DefensiveFire / PassDefensiveFire."""

    aircraft: str
    hex: Hex
    eligible: tuple[str, ...]
    side: str


@dataclass(frozen=True)
class DismountPlacement:
    """The opponent (``side``) chooses where an overstacked dismounting Soldier goes."""

    uid: str
    candidates: tuple[Hex, ...]
    side: str = ""              # the side that chooses (the dismounting unit's opponent)


@dataclass(frozen=True)
class FacingChoice:
    """Rulebook: Vehicle Facing - at the end of its move the Vehicle ``uid`` (in ``hex``)
    is turned to face one of its hex's six sides; its owner ``side`` chooses (``Face``).
    Only after a move that reached its last hex: a stopped Vehicle faces the hex it
    tried to enter, one sent back (ruling 6) keeps the facing it had there."""

    uid: str
    hex: Hex
    side: str


Decision = OrderChoice | DefensiveFirePrompt | DismountPlacement | FacingChoice | AntiairPrompt


@dataclass
class MoveInProgress:
    """A move paused by a defensive-fire decision (engine-internal, but part of the
    state so that saves and AI copies resume it exactly)."""

    uid: str
    path: tuple[Hex, ...]       # the whole requested path (start hex excluded)
    index: int                  # path[index] is the hex being entered next
    start: Hex                  # where the move began
    final_facing: int | None
    road_bonus_left: bool       # the Vehicle's free road hex is still unused
    walked: list[Hex] = field(default_factory=list)        # hexes actually entered so far
    facings: list[int] = field(default_factory=list)       # facing on leaving each walked hex
    rolled: bool = False        # movement rolls for path[index] are already passed
    stage: str = ""             # "" (before the rolls), "leave", "enter" (ruling 14)
    stopped: bool = False       # a defensive shot stopped it; other defenders may still
                                # fire at this stage (rulebook: Multiple Defensive Fire)


# --- units ---------------------------------------------------------------------------
@dataclass
class Unit:
    uid: str
    card: UnitCard
    side: str
    hex: Hex | None = None
    facing: int = 0
    disrupted: bool = False
    damaged: bool = False
    pending: list[str] = field(default_factory=list)
    carrier: str | None = None
    destroyed: bool = False
    acted: bool = False
    fired_defensively: bool = False

    # --- derived ------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self.card.name

    @property
    def is_vehicle(self) -> bool:
        return self.card.is_vehicle

    @property
    def is_soldier(self) -> bool:
        return self.card.is_soldier

    @property
    def on_map(self) -> bool:
        """Deployed and not destroyed (a boarded Soldier is on the map)."""
        return self.hex is not None and not self.destroyed

    @property
    def boarded(self) -> bool:
        return self.carrier is not None

    @property
    def current_speed(self) -> int:
        """Printed speed, -1 for a damaged Vehicle (never below 0)."""
        return max(0, self.card.speed - (1 if self.damaged else 0))

    @property
    def impaired(self) -> bool:
        """Disrupted or damaged: -1 on attack dice and defense (not cumulative)."""
        return self.disrupted or self.damaged

    def defense_value(self, front: bool = True) -> int:
        """Printed defense (front/rear) -1 when disrupted or damaged (face-up only)."""
        base = self.card.defense(front)
        return max(0, base - (1 if self.impaired else 0))

    def label(self) -> str:
        return f"{self.card.name} ({self.uid})"


# --- the state -------------------------------------------------------------------------
@dataclass
class GameState:
    battle_map: BattleMap
    scenario: str = "standard"
    options: dict[Any, Any] = field(default_factory=dict)
    units: dict[str, Unit] = field(default_factory=dict)
    turn: int = 0
    phase: Phase = Phase.SETUP_ORDER
    first_player: str | None = None
    second_player: str | None = None
    ends: dict[str, str] = field(default_factory=dict)
    destroyed_bridges: frozenset[Hexside] = frozenset()
    pending: Any = None                       # Decision | None
    outcome: Outcome | None = None
    initiative_rolls: dict[str, tuple[int, int, int]] = field(default_factory=dict)
    objective: Hex | None = None              # defaults to the map's objective
    attacker: str | None = None               # Assault scenario: the attacking side
    moving: MoveInProgress | None = None      # a move paused for defensive fire
    version: int = 0                          # bumped on every change (caches key on it)
    road_bonus_used: frozenset[str] = frozenset()   # Vehicles that used the road bonus this phase
    marks: dict[Any, Any] = field(default_factory=dict)  # ability memory (game.rules.ability_hooks):
                                               # immutable values only (tuples, frozensets)

    def __post_init__(self) -> None:
        if self.objective is None:
            self.objective = self.battle_map.objective
        if isinstance(self.phase, str) and not isinstance(self.phase, Phase):
            self.phase = Phase(self.phase)

    # --- construction -------------------------------------------------------------
    @classmethod
    def blank(cls, battle_map: BattleMap, scenario: str = "standard", *,
              phase: Phase = Phase.MOVEMENT_FIRST, turn: int = 1,
              first_player: str = "Axis", options: dict[Any, Any] | None = None) -> "GameState":
        """An empty state for hand-built positions (tests, situations, the UI's
        previews): no units, turn 1, Axis first player, ends Axis left /
        Allies right, in the first player's movement phase."""
        st = cls(battle_map=battle_map, scenario=scenario, options=dict(options or {}),
                 turn=turn, phase=phase, first_player=first_player,
                 second_player=other_side(first_player),
                 ends={"Axis": "left", "Allies": "right"})
        if scenario == "assault":
            st.attacker = st.options.get("attacker", "Axis")
        return st

    def copy(self) -> "GameState":
        """A deep copy that shares the immutable map and cards."""
        new = GameState.__new__(GameState)
        new.__dict__.update(self.__dict__)          # the fields; mutable ones replaced below
        nd, sd = new.__dict__, self.__dict__
        for name in _CONTAINERS:
            nd[name] = dict(sd[name])
        units: dict[str, Unit] = {}
        make = object.__new__
        for uid, u in self.units.items():
            c = make(Unit)
            d = u.__dict__.copy()                   # every field; the one mutable one:
            d["pending"] = d["pending"][:]
            c.__dict__ = d
            units[uid] = c
        new.units = units
        if self.moving is not None:
            m = self.moving
            new.moving = MoveInProgress(m.uid, m.path, m.index, m.start, m.final_facing,
                                        m.road_bonus_left, list(m.walked), list(m.facings),
                                        m.rolled, m.stage, m.stopped)
        return new

    def snapshot(self) -> "Snapshot":
        """What :meth:`restore` needs to put this state back exactly as it is now (the
        engine's rollback when an action fails half-way: ``Game.apply``).  Cheaper than
        :meth:`copy`: no new units, only their field dicts (and each mutable container);
        built by ``map`` over the units (this runs before every action)."""
        m = self.moving
        objs = tuple(self.units.values())
        return Snapshot(self.__dict__.copy(), dict(self.units),
                        (objs, list(map(dict.copy, map(_FIELDS_OF, objs))),
                         list(map(list.copy, map(_PENDING_OF, objs)))),
                        tuple([dict(self.__dict__[name]) for name in _CONTAINERS]),
                        None if m is None else (m, m.__dict__.copy(), m.walked[:],
                                                m.facings[:]))

    def restore(self, snap: "Snapshot") -> None:
        """Put the state back as it was at :meth:`snapshot` (the same unit objects, with
        their old fields; a new units dict, so caches keyed on it start afresh)."""
        self.__dict__.clear()
        self.__dict__.update(snap.fields)
        self.units = dict(snap.units)
        objs, dicts, pendings = snap.unit_fields
        for u, ud, pending in zip(objs, dicts, pendings):
            u.__dict__.clear()
            u.__dict__.update(ud)
            u.pending = pending
        d = self.__dict__
        for name, x in zip(_CONTAINERS, snap.containers):
            d[name] = dict(x)
        if snap.moving is not None:
            m, md, walked, facings = snap.moving
            m.__dict__.clear()
            m.__dict__.update(md)
            m.walked, m.facings = walked, facings
            self.moving = m

    def hash_blob(self) -> str:
        """The canonical JSON text of the state (``Game.state_hash`` hashes it)."""
        st = self
        def hx(h: Hex | None) -> list[int] | None:
            return None if h is None else [h.q, h.r]
        p = st.pending
        pend: Any = None
        if p is not None:
            pend = {"type": type(p).__name__}
            for k, v in p.__dict__.items():
                if isinstance(v, Hex):
                    v = hx(v)
                elif isinstance(v, tuple):
                    v = [hx(x) if isinstance(x, Hex) else x for x in v]
                pend[k] = v
        m = st.moving
        data = {
            "scenario": st.scenario, "turn": st.turn, "phase": st.phase.value,
            "first": st.first_player, "second": st.second_player, "ends": st.ends,
            "bridges": sorted([hx(s.a), hx(s.b)] for s in st.destroyed_bridges),
            "objective": hx(st.objective), "attacker": st.attacker, "pending": pend,
            "outcome": None if st.outcome is None else [st.outcome.winner, st.outcome.reason],
            "moving": None if m is None else [m.uid, [hx(h) for h in m.path], m.index,
                                             m.stage, hx(m.start), m.final_facing,
                                             m.road_bonus_left, [hx(h) for h in m.walked]]
            + (["stopped"] if m.stopped else []),
            "units": [unit_record(u) for u in sorted(st.units.values(), key=lambda x: x.uid)],
        }
        if st.marks:
            data["marks"] = repr(sorted(st.marks.items()))
        if st.road_bonus_used:              # only when set: older saves keep their hashes
            data["road_bonus_used"] = sorted(st.road_bonus_used)
        return json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)

    # --- queries ------------------------------------------------------------------
    @property
    def edition(self) -> str:
        """The rules edition played: ``"first"`` (default) or ``"later"``
        (``options["edition"]``; game.rules.later)."""
        return str(self.options.get("edition", "first"))

    @property
    def active_side(self) -> str | None:
        """The player whose phase it is (movement, assault, deployment)."""
        if self.phase in _FIRST_PHASES:
            return self.first_player
        if self.phase in _SECOND_PHASES:
            return self.second_player
        return None

    @property
    def to_act(self) -> str | None:
        """The side that must send the next action (None when nobody can)."""
        if self.phase == Phase.GAME_OVER:
            return None
        p = self.pending
        if isinstance(p, OrderChoice):
            return p.side
        if isinstance(p, DefensiveFirePrompt):
            return other_side(self.units[p.mover].side)
        if isinstance(p, DismountPlacement):
            return p.side or other_side(self.units[p.uid].side)
        if isinstance(p, (FacingChoice, AntiairPrompt)):
            return p.side
        if self.phase == Phase.SETUP_END:
            return self.defender if self.scenario == "assault" else self.first_player
        if self.phase == Phase.SETUP_OBJECTIVE:
            return self.defender
        return self.active_side

    @property
    def defender(self) -> str | None:
        """Assault scenario: the defending side."""
        return other_side(self.attacker) if self.attacker else None

    def unit(self, uid: str) -> Unit:
        try:
            return self.units[uid]
        except KeyError:
            raise KeyError(f"no unit '{uid}'") from None

    def units_of(self, side: str) -> list[Unit]:
        return [u for u in self.units.values() if u.side == side]

    def live_units(self, side: str | None = None) -> list[Unit]:
        """Units on the map (deployed, not destroyed), optionally of one side."""
        return [u for u in self.units.values()
                if u.on_map and (side is None or u.side == side)]

    def units_at(self, h: Hex | None, include_boarded: bool = True) -> list[Unit]:
        if h is None:
            return []
        return [u for u in self.units.values()
                if u.hex == h and not u.destroyed and (include_boarded or u.carrier is None)]

    def passengers(self, carrier_uid: str) -> list[Unit]:
        return [u for u in self.units.values() if u.carrier == carrier_uid and not u.destroyed]

    def points_on_map(self, side: str) -> int:
        """Ruling 10: full card costs of every unit on the map (boarded Soldiers count)."""
        return sum(u.card.cost for u in self.units.values() if u.side == side and u.on_map)

    def objective_controller(self) -> str | None:
        """Rulebook: How to Win - the only player with a unit adjacent to (or in) the
        objective hex; disrupted units count (ruling 11)."""
        obj = self.objective
        if obj is None:
            return None
        present = {u.side for u in self.units.values()
                   if u.on_map and u.hex is not None and u.hex.distance(obj) <= 1
                   and not u.card.is_aircraft}
        if len(present) == 1:
            return next(iter(present))
        return None

    def touch(self) -> None:
        """Mark the state changed (invalidates caches keyed on ``version``)."""
        self.version += 1


#: the state's own mutable dicts (every other field is immutable or replaced whole):
#: what :meth:`GameState.copy` and :meth:`GameState.snapshot` copy
_CONTAINERS = ("options", "ends", "initiative_rolls", "marks")
_FIELDS_OF = attrgetter("__dict__")
_PENDING_OF = attrgetter("pending")


class Snapshot(NamedTuple):
    """A state as :meth:`GameState.snapshot` saw it (for :meth:`GameState.restore`)."""

    fields: dict[str, Any]                          # the state's own fields
    units: dict[str, Unit]                          # the units dict's entries
    # the unit objects, their field dicts and their pending lists (in the same order)
    unit_fields: tuple[tuple[Unit, ...], list[dict[str, Any]], list[list[str]]]
    containers: tuple[dict[Any, Any], ...]          # copies of the _CONTAINERS, in order
    moving: tuple[MoveInProgress, dict[str, Any], list[Hex], list[int]] | None


#: the Unit field list, defined once (by the dataclass): hashes and copies are built
#: from it
UNIT_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(Unit))


def _copy_unit(u: Unit) -> Unit:
    new = object.__new__(Unit)
    d = u.__dict__.copy()
    d["pending"] = d["pending"][:]
    new.__dict__ = d
    return new


def unit_record(u: Unit) -> list[Any]:
    """The unit as plain JSON-able values, field by field (state hashes)."""
    out: list[Any] = []
    for name in UNIT_FIELDS:
        v = getattr(u, name)
        if name == "card":
            v = v.id
        elif isinstance(v, Hex):
            v = [v.q, v.r]
        elif isinstance(v, list):
            v = list(v)
        out.append(v)
    return out

