"""Events: what happened, for the log, the animations and the tests.

Every event is a frozen dataclass with ``kind`` (the class name) and ``text``
(a ready-made log sentence).  The engine passes ``text=`` with unit names
filled in; when it is left empty, the event writes a plain sentence from its
own fields (``describe``).  The UI never diffs states to guess what happened:
it reads these.

To add an event: subclass :class:`Event`, give it positional fields, and
override ``describe`` (``text`` is keyword-only, so subclasses may declare
fields without defaults).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from .hexes import Hex, hex_label
from .state import PHASE_TITLES, Phase
from .wording import side_player

__all__ = [
    "Event", "CoinFlipped", "InitiativeRolled", "OrderChosen", "EndChosen",
    "ObjectiveChosen", "PhaseBegan", "UnitDeployed", "UnitUndeployed", "UnitMoved",
    "UnitTurned", "MovementRoll", "DefensiveFireOffered", "DefensiveFirePassed",
    "DiceRolled", "CoverRolled", "HitsScored", "CounterPlaced", "UnitStopped",
    "UnitPutBack", "CountersFlipped", "UnitDestroyed", "UnitDamaged", "UnitDisrupted",
    "DisruptionRemoved", "BridgeDestroyed", "BridgeDemolitionRoll", "UnitBoarded",
    "UnitDismounted", "ObjectiveControl", "PointsCounted", "TurnEnded", "GameEnded",
    "AttackDeclared", "FacingChosen", "AircraftPlaced", "AntiairOffered", "AircraftLeft",
    "ReserveEntered", "event_to_dict", "labels",
]


def labels(path: Any) -> str:
    return " - ".join(hex_label(h) for h in path)


@dataclass(frozen=True)
class Event:
    text: str = field(default="", kw_only=True)

    def __post_init__(self) -> None:
        if not self.text:
            object.__setattr__(self, "text", self.describe())

    @property
    def kind(self) -> str:
        return type(self).__name__

    def describe(self) -> str:
        return self.kind


def event_to_dict(ev: Event) -> dict[Any, Any]:
    """A JSON-able record of an event (hexes become ``{"q": .., "r": ..}`` dicts)."""
    def conv(v: Any) -> Any:
        if isinstance(v, Hex):
            # as dataclasses.asdict wrote the dataclass Hex of earlier versions (the
            # goldens hash these records)
            return {"q": v.q, "r": v.r}
        if isinstance(v, (list, tuple)):
            return [conv(x) for x in v]
        if isinstance(v, dict):
            return {str(k): conv(x) for k, x in v.items()}
        return v
    d = {"kind": ev.kind}
    d.update({k: conv(v) for k, v in asdict(ev).items()})
    return d


# --- setup and flow ------------------------------------------------------------------
@dataclass(frozen=True)
class CoinFlipped(Event):
    winner: str

    def describe(self) -> str:
        return f"Coin flip: {side_player(self.winner, capital=False)} wins and chooses first or second player."


@dataclass(frozen=True)
class InitiativeRolled(Event):
    rolls: dict[str, Any]  # side -> (die1, die2, bonus)
    winner: str | None   # None: tie on total and bonus, reroll

    def describe(self) -> str:
        parts = [f"{s} {a}+{b}+{c}={a + b + c}" for s, (a, b, c) in sorted(self.rolls.items())]
        tail = f"{side_player(self.winner)} wins the initiative." if self.winner else "Tie: reroll."
        return "Initiative: " + ", ".join(parts) + ". " + tail


@dataclass(frozen=True)
class OrderChosen(Event):
    side: str
    go_first: bool

    def describe(self) -> str:
        return f"{side_player(self.side)} chooses to go {'first' if self.go_first else 'second'}."


@dataclass(frozen=True)
class EndChosen(Event):
    side: str
    end: str

    def describe(self) -> str:
        return f"{side_player(self.side)} takes the {self.end} end of the battle map."


@dataclass(frozen=True)
class ObjectiveChosen(Event):
    side: str
    hex: Hex

    def describe(self) -> str:
        return f"{side_player(self.side)} places the objective in {hex_label(self.hex)}."


@dataclass(frozen=True)
class PhaseBegan(Event):
    phase: str           # Phase value
    turn: int
    side: str | None = None

    def describe(self) -> str:
        title = PHASE_TITLES.get(self.phase) or Phase(self.phase).title
        who = f" ({self.side})" if self.side else ""
        return f"Turn {self.turn}: {title}{who}." if self.turn else f"{title}{who}."


@dataclass(frozen=True)
class TurnEnded(Event):
    turn: int

    def describe(self) -> str:
        return f"End of turn {self.turn}."


# --- deployment and movement -----------------------------------------------------------
@dataclass(frozen=True)
class UnitDeployed(Event):
    uid: str
    hex: Hex
    facing: int = 0
    carrier: str | None = None

    def describe(self) -> str:
        aboard = f" aboard {self.carrier}" if self.carrier else ""
        return f"{self.uid} deploys in {hex_label(self.hex)}{aboard}."


@dataclass(frozen=True)
class UnitUndeployed(Event):
    uid: str

    def describe(self) -> str:
        return f"{self.uid} is taken back off the map."


@dataclass(frozen=True)
class UnitMoved(Event):
    uid: str
    path: tuple[Any, ...]  # hexes entered, start excluded
    facing: int
    start: Hex | None = None     # where the move began
    planned: tuple[Any, ...] = ()          # the whole path the mover asked for (start excluded)
    stopped: bool = False        # the move ended early (failed roll, defensive fire)
    end: Hex | None = None       # where the unit ends up (after ruling 6's put-back)

    @property
    def route(self) -> tuple[Any, ...]:
        """Start hex and every hex entered, in order."""
        return ((self.start,) if self.start is not None else ()) + tuple(self.path)

    def describe(self) -> str:
        return f"{self.uid} moves {labels(self.path)}."


@dataclass(frozen=True)
class UnitTurned(Event):
    uid: str
    hex: Hex
    facing: int
    from_facing: int | None = None

    def describe(self) -> str:
        return f"{self.uid} turns in {hex_label(self.hex)}."


@dataclass(frozen=True)
class FacingChosen(Event):
    """A Vehicle's facing chosen where its move ended (``Face``)."""

    uid: str
    hex: Hex
    facing: int
    from_facing: int | None = None

    def describe(self) -> str:
        return f"{self.uid} faces {self.facing} in {hex_label(self.hex)}."


@dataclass(frozen=True)
class MovementRoll(Event):
    uid: str
    roll_kind: str       # "stream" | "forest" | ability-defined kinds ("kind" is the event type)
    die: int
    needed: int
    ok: bool
    from_hex: Hex | None = None   # the step the roll is for
    to_hex: Hex | None = None

    def describe(self) -> str:
        res = "passes" if self.ok else "fails"
        return f"{self.uid} rolls {self.die} for the {self.roll_kind} (needs {self.needed}+): {res}."


@dataclass(frozen=True)
class UnitStopped(Event):
    uid: str
    hex: Hex
    why: str
    by: str | None = None         # the unit whose defensive fire stopped it
    stage: str | None = None      # "leave" / "enter" for defensive fire

    def describe(self) -> str:
        return f"{self.uid} stops in {hex_label(self.hex)}: {self.why}."


@dataclass(frozen=True)
class UnitPutBack(Event):
    """Ruling 6: a forced stop where the unit may not stop sends it back."""

    uid: str
    from_hex: Hex
    hex: Hex

    def describe(self) -> str:
        return (f"{self.uid} can't stop in {hex_label(self.from_hex)} and goes back to "
                f"{hex_label(self.hex)}.")


@dataclass(frozen=True)
class UnitBoarded(Event):
    uid: str
    carrier: str
    hex: Hex | None = None

    def describe(self) -> str:
        return f"{self.uid} boards {self.carrier}."


@dataclass(frozen=True)
class UnitDismounted(Event):
    uid: str
    hex: Hex
    carrier: str | None = None
    placed_by: str | None = None  # the side that chose the hex (an overstacked dismount)

    def describe(self) -> str:
        return f"{self.uid} dismounts in {hex_label(self.hex)}."


# --- combat ------------------------------------------------------------------------------
@dataclass(frozen=True)
class DefensiveFireOffered(Event):
    mover: str
    stage: str
    at_hex: Hex
    eligible: tuple[Any, ...]
    from_hex: Hex | None = None   # the mover's step
    to_hex: Hex | None = None
    side: str | None = None       # the defender, who decides

    def describe(self) -> str:
        where = "leaves" if self.stage == "leave" else "enters"
        return (f"{self.mover} {where} {hex_label(self.at_hex)}: defensive fire possible "
                f"from {', '.join(self.eligible)}.")


@dataclass(frozen=True)
class DefensiveFirePassed(Event):
    side: str
    stage: str
    mover: str | None = None
    at_hex: Hex | None = None
    from_hex: Hex | None = None
    to_hex: Hex | None = None

    def describe(self) -> str:
        return f"{side_player(self.side)} holds fire."


@dataclass(frozen=True)
class AttackDeclared(Event):
    uid: str
    target: str
    mode: str = "normal"
    defensive: bool = False

    def describe(self) -> str:
        how = "fires defensively at" if self.defensive else "attacks"
        return f"{self.uid} {how} {self.target}."


@dataclass(frozen=True)
class DiceRolled(Event):
    uid: str
    dice: tuple[Any, ...]
    need: int
    successes: int
    target: str | None = None         # who was attacked
    mode: str = "normal"
    defensive: bool = False
    stage: str | None = None          # defensive fire: "leave" / "enter"
    attacker_hex: Hex | None = None
    target_hex: Hex | None = None     # where the target counts as standing
    band: str | None = None
    distance: int | None = None
    front: bool | None = None         # a Vehicle target hit in its front

    def describe(self) -> str:
        shown = ", ".join(str(d) for d in self.dice) or "no dice"
        return f"{self.uid} rolls {shown} (successes on {self.need}+): {self.successes}."


@dataclass(frozen=True)
class CoverRolled(Event):
    target: str
    die: int
    need: int
    ok: bool

    def describe(self) -> str:
        res = "cover holds" if self.ok else "no cover"
        return f"{self.target} cover roll {self.die} (needs {self.need}+): {res}."


@dataclass(frozen=True)
class HitsScored(Event):
    target: str
    hits: int
    by: str | None = None             # the attacker

    def describe(self) -> str:
        return f"{self.target} takes {self.hits} hit(s)." if self.hits else f"{self.target} is missed."


@dataclass(frozen=True)
class CounterPlaced(Event):
    target: str
    counter: str
    face_up: bool = False
    by: str | None = None             # the attacker

    def describe(self) -> str:
        how = "face-up" if self.face_up else "face-down"
        return f"{self.target} gets a {how} {self.counter.capitalize()} counter."


@dataclass(frozen=True)
class CountersFlipped(Event):
    uid: str
    counters: tuple[Any, ...]

    def describe(self) -> str:
        return f"{self.uid}: counters flipped ({', '.join(self.counters)})."


@dataclass(frozen=True)
class UnitDestroyed(Event):
    uid: str

    def describe(self) -> str:
        return f"{self.uid} is destroyed."


@dataclass(frozen=True)
class UnitDamaged(Event):
    uid: str

    def describe(self) -> str:
        return f"{self.uid} is damaged."


@dataclass(frozen=True)
class UnitDisrupted(Event):
    uid: str

    def describe(self) -> str:
        return f"{self.uid} is disrupted."


@dataclass(frozen=True)
class DisruptionRemoved(Event):
    uid: str

    def describe(self) -> str:
        return f"{self.uid} recovers from disruption."


# --- reserves (game.rules.families.reserves; rulings 21-23) -----------------------------------
@dataclass(frozen=True)
class ReserveEntered(Event):
    """A unit held off the map enters it: a Paratrooper drops, a Hero joins its men."""

    uid: str
    hex: Hex
    side: str = ""
    how: str = ""               # "paratrooper" / "hero"

    def describe(self) -> str:
        return f"{self.uid} enters the battle map in {hex_label(self.hex)}."


# --- later edition (game.rules.later) ----------------------------------------------------
@dataclass(frozen=True)
class AircraftPlaced(Event):
    uid: str
    hex: Hex
    side: str = ""

    def describe(self) -> str:
        return f"{self.uid} flies to {hex_label(self.hex)}."


@dataclass(frozen=True)
class AntiairOffered(Event):
    aircraft: str
    hex: Hex
    eligible: tuple[str, ...]
    side: str = ""              # the defender, who decides

    def describe(self) -> str:
        return (f"{self.aircraft} arrives over {hex_label(self.hex)}: antiair fire possible "
                f"from {', '.join(self.eligible)}.")


@dataclass(frozen=True)
class AircraftLeft(Event):
    uid: str

    def describe(self) -> str:
        return f"{self.uid} flies off the map."


@dataclass(frozen=True)
class BridgeDemolitionRoll(Event):
    uid: str
    die: int
    needed: int
    ok: bool

    def describe(self) -> str:
        res = "succeeds" if self.ok else "fails"
        return f"{self.uid} tries to blow the bridge: rolls {self.die} (needs {self.needed}+), {res}."


@dataclass(frozen=True)
class BridgeDestroyed(Event):
    hexside: Any
    by: str | None = None

    def describe(self) -> str:
        a, b = self.hexside.hexes()
        return f"The bridge between {hex_label(a)} and {hex_label(b)} is destroyed."


# --- victory ----------------------------------------------------------------------------
@dataclass(frozen=True)
class ObjectiveControl(Event):
    side: str | None

    def describe(self) -> str:
        return (f"{side_player(self.side)} controls the objective." if self.side
                else "Nobody controls the objective.")


@dataclass(frozen=True)
class PointsCounted(Event):
    points: dict[Any, Any]

    def describe(self) -> str:
        return "Points on the map: " + ", ".join(f"{s} {p}" for s, p in sorted(self.points.items())) + "."


@dataclass(frozen=True)
class GameEnded(Event):
    outcome: Any          # state.Outcome

    def describe(self) -> str:
        o = self.outcome
        if o.winner:
            return f"{side_player(o.winner)} wins: {o.reason}."
        return f"The game ends without a winner: {o.reason}."
