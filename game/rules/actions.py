"""Actions: what a player (human or AI) asks the engine to do.

Frozen dataclasses, every one carrying ``side``.  ``action_to_dict`` /
``action_from_dict`` turn them into JSON-able dicts and back (saves, replays,
network); ``action_from_dict`` raises :class:`MalformedAction` on anything
that is not a well-formed action, never a bare exception.
"""
from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from typing import Any

from .errors import MalformedAction
from .hexes import Hex, hex_label

__all__ = [
    "Action", "ChooseOrder", "ChooseEnd", "ChooseObjective", "Deploy", "Undeploy", "Move",
    "Attack", "DefensiveFire", "PassDefensiveFire", "Board", "Dismount",
    "DemolishBridge", "PlaceDismounted", "EndPhase", "Face", "PlaceAircraft", "EnterReserve",
    "LaySmoke", "ACTION_TYPES",
    "action_to_dict", "action_from_dict", "describe_action",
]


@dataclass(frozen=True)
class Action:
    side: str


@dataclass(frozen=True)
class ChooseOrder(Action):
    go_first: bool


@dataclass(frozen=True)
class ChooseEnd(Action):
    end: str


@dataclass(frozen=True)
class ChooseObjective(Action):
    """Assault scenario: the defender places the objective."""

    hex: Hex


@dataclass(frozen=True)
class Deploy(Action):
    uid: str
    hex: Hex
    facing: int = 0
    carrier: str | None = None


@dataclass(frozen=True)
class Undeploy(Action):
    uid: str


@dataclass(frozen=True)
class Move(Action):
    uid: str
    path: tuple[Hex, ...]
    facing: int | None = None


@dataclass(frozen=True)
class Attack(Action):
    uid: str
    target: str
    mode: str = "normal"


@dataclass(frozen=True)
class DefensiveFire(Action):
    uid: str


@dataclass(frozen=True)
class PassDefensiveFire(Action):
    pass


@dataclass(frozen=True)
class Board(Action):
    uid: str
    carrier: str


@dataclass(frozen=True)
class Dismount(Action):
    uid: str
    hex: Hex


@dataclass(frozen=True)
class DemolishBridge(Action):
    uid: str


@dataclass(frozen=True)
class PlaceDismounted(Action):
    uid: str
    hex: Hex


@dataclass(frozen=True)
class EndPhase(Action):
    pass


@dataclass(frozen=True)
class Face(Action):
    """Choose where a Vehicle faces at the end of its move (rulebook: Vehicle Facing),
    after a ``Move(..., facing=None)`` has been walked: the rules wait for it
    (``state.pending`` is a ``FacingChoice``)."""

    uid: str
    facing: int


@dataclass(frozen=True)
class PlaceAircraft(Action):
    """Later edition (rulings L3, L04): in its owner's flight phase an Aircraft is
    placed in any whole hex of the map (game.rules.later.flight)."""

    uid: str
    hex: Hex


@dataclass(frozen=True)
class EnterReserve(Action):
    """Rulings 21-23: a unit held off the map (a Paratrooper, a nation Hero) enters it
    in one of its side's movement phases (game.rules.families.reserves)."""

    uid: str
    hex: Hex


@dataclass(frozen=True)
class LaySmoke(Action):
    """Ruling 30 (Smoke Screen): in its side's movement phase a unit declares its one
    smoke of the game; the smoke fills its hex when the phase ends
    (game.rules.families.smoke)."""

    uid: str


ACTION_TYPES: dict[str, type[Action]] = {c.__name__: c for c in (
    ChooseOrder, ChooseEnd, ChooseObjective, Deploy, Undeploy, Move, Attack,
    DefensiveFire, PassDefensiveFire, Board, Dismount, DemolishBridge,
    PlaceDismounted, EndPhase, Face, PlaceAircraft, EnterReserve, LaySmoke)}

_HEX_FIELDS = {"hex"}
_PATH_FIELDS = {"path"}


def _hex_out(h: Hex) -> list[int]:
    return [h.q, h.r]


def action_to_dict(action: Action) -> dict[Any, Any]:
    """``{"type": "Move", "side": "Axis", "uid": ..., "path": [[q, r], ...], ...}``."""
    d: dict[str, Any] = {"type": type(action).__name__}
    for f in fields(action):
        v = getattr(action, f.name)
        if f.name in _HEX_FIELDS:
            v = _hex_out(v)
        elif f.name in _PATH_FIELDS:
            v = [_hex_out(h) for h in v]
        d[f.name] = v
    return d


def _hex_in(v: Any, where: str) -> Hex:
    if isinstance(v, Hex):
        return v
    if (isinstance(v, (list, tuple)) and len(v) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in v)):
        return Hex(v[0], v[1])
    raise MalformedAction(f"{where}: expected a hex as [q, r], got {v!r}")


def action_from_dict(d: Any) -> Action:
    """Inverse of :func:`action_to_dict`; checks every field's type."""
    if not isinstance(d, dict):
        raise MalformedAction(f"an action must be a mapping, got {type(d).__name__}")
    name = d.get("type")
    cls = ACTION_TYPES.get(name) if isinstance(name, str) else None
    if cls is None:
        raise MalformedAction(f"unknown action type {name!r} (expected one of: "
                              f"{', '.join(ACTION_TYPES)})")
    known = {f.name for f in fields(cls)}
    extra = set(d) - known - {"type"}
    if extra:
        raise MalformedAction(f"{name}: unknown field(s) {', '.join(sorted(extra))}")
    kwargs: dict[str, Any] = {}
    for f in fields(cls):
        where = f"{name}.{f.name}"
        if f.name not in d:
            if f.default is not MISSING:  # optional field
                continue
            raise MalformedAction(f"{where}: missing")
        v = d[f.name]
        if f.name in _HEX_FIELDS:
            v = _hex_in(v, where)
        elif f.name in _PATH_FIELDS:
            if not isinstance(v, (list, tuple)):
                raise MalformedAction(f"{where}: expected a list of hexes")
            v = tuple(_hex_in(x, f"{where}[{i}]") for i, x in enumerate(v))
        elif f.name == "go_first":
            if not isinstance(v, bool):
                raise MalformedAction(f"{where}: expected true or false, got {v!r}")
        elif f.name == "facing":
            if v is None and cls is Face:
                raise MalformedAction(f"{where}: expected a facing 0-5, got null")
            if v is not None and (not isinstance(v, int) or isinstance(v, bool)
                                  or not 0 <= v <= 5):
                raise MalformedAction(f"{where}: expected a facing 0-5, got {v!r}")
        elif f.name in ("carrier",):
            if v is not None and not isinstance(v, str):
                raise MalformedAction(f"{where}: expected a unit id or null, got {v!r}")
        else:
            if not isinstance(v, str):
                raise MalformedAction(f"{where}: expected text, got {v!r}")
        kwargs[f.name] = v
    return cls(**kwargs)



def describe_action(action: Action) -> str:
    """A short sentence for logs and menus."""
    t = type(action).__name__
    if isinstance(action, Move):
        if not action.path:
            return f"{action.uid}: turn in place"
        return f"{action.uid}: move to {hex_label(action.path[-1])}"
    if isinstance(action, Attack):
        m = "" if action.mode == "normal" else f" ({action.mode})"
        return f"{action.uid}: attack {action.target}{m}"
    if isinstance(action, Deploy):
        return f"{action.uid}: deploy in {hex_label(action.hex)}"
    if isinstance(action, PlaceAircraft):
        return f"{action.uid}: fly to {hex_label(action.hex)}"
    if isinstance(action, EnterReserve):
        return f"{action.uid}: enter in {hex_label(action.hex)}"
    if isinstance(action, LaySmoke):
        return f"{action.uid}: lay smoke"
    if isinstance(action, DefensiveFire):
        return f"{action.uid}: defensive fire"
    if isinstance(action, PassDefensiveFire):
        return "hold fire"
    if isinstance(action, EndPhase):
        return "end phase"
    if isinstance(action, Face):
        return f"{action.uid}: face {action.facing}"
    if isinstance(action, ChooseOrder):
        return "go first" if action.go_first else "go second"
    if isinstance(action, ChooseEnd):
        return f"take the {action.end} end"
    return t
