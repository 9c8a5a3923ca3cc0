"""Moving (rulebook: Movement; Vehicle Facing; rulings 4-6, 15): a move along a
path, turning in place, and the facing of a Vehicle chosen where its move ended."""
from __future__ import annotations

import itertools
import math
from typing import Any, TYPE_CHECKING

from .. import activation, movement
from ..actions import Action, Face, Move
from ..errors import MalformedAction
from ..events import Event, FacingChosen, UnitTurned
from ..hexes import DIRECTION_NAMES, DIRECTIONS, Hex, direction_between, hex_label
from ..movement import Reach
from ..state import FacingChoice, GameState, MoveInProgress, Unit
from . import ActionRule, register_rule, unit_of
from .walk import continue_move

if TYPE_CHECKING:
    from ..engine import Game

__all__ = ["facing_toward", "turn_allowed"]

_UNIT_XY = [(math.sqrt(3) * (d.q + d.r / 2), 1.5 * d.r) for d in DIRECTIONS]


def facing_toward(a: Hex, b: Hex) -> int:
    """The facing (0-5) from ``a`` that points most nearly at ``b``."""
    dq, dr = b.q - a.q, b.r - a.r
    got = _TOWARD.get((dq, dr))
    if got is None:
        got = _TOWARD[(dq, dr)] = _toward(dq, dr)
    return got


def _toward(dq: int, dr: int) -> int:
    x = math.sqrt(3) * (dq + dr / 2)
    y = 1.5 * dr
    best, bd = 0, -1e18
    for d, (ux, uy) in enumerate(_UNIT_XY):
        v = ux * x + uy * y
        if v > bd:
            best, bd = d, v
    return best


#: (dq, dr) -> facing_toward's answer: it reads only the difference of the two hexes
_TOWARD: dict[tuple[int, int], int] = {}


def _toward_nearest_enemy(h: Hex, enemies: tuple[Hex, ...]) -> int:
    """The facing listed for a Vehicle's move ending in ``h`` (rulebook: Vehicle
    Facing; any facing is legal): ``facing_toward`` the nearest of ``enemies`` not in
    ``h`` itself (the first of the nearest, in state order); -1 when every one of them
    is in ``h`` (or there is none): then it faces along the move's last step
    (:func:`_along_last_step`).  Reads only ``h`` and ``enemies``."""
    best = None
    bd = 1 << 30
    hq, hr = h.q, h.r
    for e in enemies:
        dq, dr = e.q - hq, e.r - hr
        d = abs(dq) + abs(dr) + abs(dq + dr)        # twice the distance (Hex.distance)
        if 0 < d < bd:
            best, bd = e, d
    if best is not None:
        return facing_toward(h, best)
    return -1


def _along_last_step(h: Hex, reach: Reach) -> int:
    last = reach.path[-2] if len(reach.path) > 1 else None
    if last is not None:
        step = direction_between(last, h)
        if step is not None:
            return step
    return 0


# enemies' hexes (in state order) -> a token that is never reused (itertools.count)
_ENEMY_TOKENS: dict[tuple[Hex, ...], int] = {}
_TOKENS = itertools.count()
# enemies' token -> hex -> the facing toward the nearest of those enemies (-1: none)
_MEMOS: dict[int, dict[Hex, int]] = {}
# (id(reach), uid, side, vehicle extras) -> (reach, the moves listed for it)
_LISTS: dict[tuple[Any, ...], tuple[Any, list[Action]]] = {}
# (id(one hex's path), side, uid, facing) -> its Move; ("turn", side, uid, facing) -> a turn
_MOVES: dict[tuple[Any, ...], Move] = {}


def enemy_hexes(game: "Game", side: str) -> tuple[tuple[Hex, ...], int]:
    """The hexes of ``side``'s enemies on the map, in state order, and their token
    (equal hexes, equal token), once per position (the façade's position caches)."""
    c = game._caches
    st = game.state
    c.position(st)
    got = c.enemies.get(side)
    if got is None:
        hexes = tuple([e.hex for e in st.units.values() if e.side != side and e.on_map
                       and e.hex is not None])
        token = _ENEMY_TOKENS.get(hexes)
        if token is None:
            if len(_ENEMY_TOKENS) > 4096:
                _ENEMY_TOKENS.clear()
            token = _ENEMY_TOKENS[hexes] = next(_TOKENS)
        got = c.enemies[side] = (hexes, token)
    return got


def _facing_memo(token: int) -> dict[Hex, int]:
    """hex -> ``_toward_nearest_enemy`` of the enemies of ``token`` (a cache)."""
    memo = _MEMOS.get(token)
    if memo is None:
        if len(_MEMOS) > 4096:
            _MEMOS.clear()
        memo = _MEMOS[token] = {}
    return memo


def _move(side: str, uid: str, r: Reach, facing: int | None) -> Move:
    """``Move(side, uid, r.path, facing)``, one object per (path, side, uid, facing):
    the search results share their Reach objects and paths, so a listing rebuilt for
    another result of the same search reuses its moves.  (The Move is the cache's
    value: it keeps its path alive, so a path with its id is that very path, and the
    Move made for it equals the one asked for.)"""
    path = r.path
    key = (id(path), side, uid, facing)
    got = _MOVES.get(key)
    if got is None or got.path is not path:
        if len(_MOVES) > 65536:
            _MOVES.clear()
        got = _MOVES[key] = Move(side, uid, path, facing)
    return got


def _turn(side: str, uid: str, facing: int) -> Move:
    """``Move(side, uid, (), facing)`` (a turn in place), one object per (side, unit,
    facing), kept with the moves of :func:`_move`."""
    key = ("turn", side, uid, facing)
    got = _MOVES.get(key)
    if got is None:
        if len(_MOVES) > 65536:
            _MOVES.clear()
        got = _MOVES[key] = Move(side, uid, (), facing)
    return got


def turn_allowed(u: Unit, state: GameState | None = None) -> bool:
    """Rulebook: Facing and Disruption - a disrupted unit may not change facing
    (unless an ability lets it move while disrupted: SS Determination, issue 18)."""
    return not u.disrupted or (state is not None
                               and movement.moves_while_disrupted(state, u))


class MoveRule(ActionRule):
    kind = Move

    def for_unit(self, game: "Game", u: Unit) -> list[Action]:
        """One move per hex ``u`` may end in (its cheapest path); a Vehicle's listed
        facing points at the nearest enemy (any facing is legal); then the turns in
        place."""
        st = game.state
        if u.acted or u.carrier is not None:
            return []
        reach = game.reachable(u.uid)
        # a unit with somewhere to go passed move_problem inside the search
        if not reach and movement.move_problem(st, u) is not None:
            return []
        side = u.side
        veh = u.card.is_vehicle
        enemies: tuple[Hex, ...] = ()
        extra: tuple[Any, ...] = ()
        if veh:
            enemies, token = enemy_hexes(game, side)
            extra = (token, u.facing, turn_allowed(u, st))
        # the listing depends only on these: a cache in front of this rule (the reach
        # dict is the movement search's own cached object while nothing it read changed)
        key = (id(reach), u.uid, side, extra)
        hit = _LISTS.get(key)
        if hit is not None and hit[0] is reach:
            return list(hit[1])
        out: list[Action] = []
        uid = u.uid
        if veh:
            # the facing toward the nearest enemy reads only the hex and the enemies'
            # hexes (memo per token); the fallback along the last step reads the path
            memo = _facing_memo(extra[0])
            for h, r in reach.items():
                if r.stops:
                    f = memo.get(h)
                    if f is None:
                        f = memo[h] = _toward_nearest_enemy(h, enemies)
                    if f < 0:
                        f = _along_last_step(h, r)
                    out.append(_move(side, uid, r, f))
            if extra[2]:
                out.extend([_turn(side, uid, f) for f in range(6) if f != u.facing])
        else:
            out.extend([_move(side, uid, r, None) for r in reach.values() if r.stops])
        if len(_LISTS) > 2048:
            _LISTS.clear()
        _LISTS[key] = (reach, out)
        return list(out)

    def problem(self, game: "Game", action: Move) -> str | None:
        st = game.state
        u = unit_of(game, action)
        prob = activation.problem(st, u)
        if prob:
            return prob
        prob = movement.move_problem(st, u)
        if prob:
            return prob
        if action.facing is not None and not (isinstance(action.facing, int)
                                              and 0 <= action.facing <= 5):
            raise MalformedAction(f"facing must be 0-5, not {action.facing!r}")
        path = tuple(action.path)
        if not path:
            if action.facing is None:
                return "a move needs a path or a new facing"
            if not turn_allowed(u, st):
                return f"{u.name} can't change facing now"
            if action.facing == u.facing:
                return f"{u.name} already faces {DIRECTION_NAMES[u.facing]}"
            return None
        r = movement.walk_cost(st, u.uid, path)
        if isinstance(r, str):
            return r
        if not r.stops:
            return movement.stop_problem(st, u, path[-1])
        return None

    def perform(self, game: "Game", a: Move) -> list[Event]:
        st = game.state
        u = st.units[a.uid]
        if not a.path:
            assert a.facing is not None and u.hex is not None
            was = u.facing
            u.facing = a.facing
            u.acted = True
            return [UnitTurned(u.uid, u.hex, a.facing, was,
                               text=f"{u.name} turns to face {DIRECTION_NAMES[a.facing]} in "
                                    f"{hex_label(u.hex)}.")]
        bonus = movement._road_bonus(st, u, st.phase)
        assert u.hex is not None
        st.moving = MoveInProgress(u.uid, tuple(a.path), 0, u.hex, a.facing, bonus)
        return continue_move(game)


class FaceRule(ActionRule):
    """Answers a ``FacingChoice``: any of the six facings."""

    kind = Face

    def enumerate(self, game: "Game", side: str) -> list[Action]:
        p = game.state.pending
        assert isinstance(p, FacingChoice)
        return [Face(side, p.uid, f) for f in range(6)]

    def problem(self, game: "Game", action: Face) -> str | None:
        st = game.state
        p = st.pending
        if not isinstance(p, FacingChoice):
            return "no Vehicle is waiting to be faced (a move without a facing asks for one)"
        if action.uid != p.uid:
            return f"choose where {st.units[p.uid].name} faces first"
        if not isinstance(action.facing, int) or isinstance(action.facing, bool) \
                or not 0 <= action.facing <= 5:
            raise MalformedAction(f"facing must be 0-5, not {action.facing!r}")
        return None

    def perform(self, game: "Game", a: Face) -> list[Event]:
        st = game.state
        u = st.units[a.uid]
        assert u.hex is not None
        was = u.facing
        u.facing = a.facing
        st.pending = None
        return [FacingChosen(u.uid, u.hex, a.facing, was,
                             text=f"{u.name} faces {DIRECTION_NAMES[a.facing]} in "
                                  f"{hex_label(u.hex)}.")]


register_rule(MoveRule())
register_rule(FaceRule())
