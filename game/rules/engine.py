"""The rules engine's façade: :class:`Game` and :func:`new_game`.

State in, action in, events out (docs/engine-api.md).  ``Game.apply`` checks
the action first (``Game.check`` gives the reason it would be refused) and
only then changes the state; if anything unexpected goes wrong half-way the
state and the dice are restored, so a refused or failed action never leaves a
half-changed game.  Dice-driven steps (coin flip, initiative, casualty phase,
end of turn, victory) run inside ``apply`` as soon as the game reaches them.

Sequence (rulebook: Getting Started, Sequence of Play; Scenarios):

Standard: SETUP_ORDER (coin-flip winner: ChooseOrder) -> SETUP_END (first
player: ChooseEnd) -> DEPLOY_FIRST -> DEPLOY_SECOND -> turn 1.
Assault: SETUP_END (defender: ChooseEnd) -> SETUP_OBJECTIVE (defender:
ChooseObjective) -> DEPLOY_FIRST (defender, on the two sections of its half)
-> DEPLOY_SECOND (attacker, within five hexes of its end) -> turn 1.
Each turn: INITIATIVE (rolled; winner: ChooseOrder) -> MOVEMENT_FIRST ->
MOVEMENT_SECOND -> ASSAULT_FIRST -> ASSAULT_SECOND (each ended by EndPhase)
-> CASUALTY -> END_OF_TURN (victory check) -> next turn.

Victory (rulings 9-11): Standard - from the end of turn 7, the only player
with a unit adjacent to the objective wins; at the end of turn 10 or later
with nobody in control, more points on the map wins; a points tie plays on.
Assault - the attacker wins if it controls the objective at the end of turn
10, else the defender wins.  If both armies are gone the game is a draw.
``options["turn_limit"]`` (default none) ends a game still undecided after
that turn as a draw (used by automated play only).
"""
from __future__ import annotations

import hashlib
import json
import math
import weakref
from dataclasses import dataclass
from typing import Any, Iterable

from . import abilities, combat, movement
from .actions import (Action, Attack, Board, ChooseEnd, ChooseObjective, ChooseOrder,
                      DefensiveFire, DemolishBridge, Deploy, Dismount, EndPhase, Move,
                      PassDefensiveFire, PlaceDismounted, Undeploy)
from .board import ENDS, BattleMap, other_end
from .cards import UnitCard
from .dice import Dice
from .errors import IllegalAction, MalformedAction
from .events import (BridgeDemolitionRoll, BridgeDestroyed, CoinFlipped, DefensiveFireOffered,
                     DefensiveFirePassed, EndChosen, Event, GameEnded, InitiativeRolled,
                     MovementRoll, ObjectiveChosen, ObjectiveControl, OrderChosen, PhaseBegan,
                     PointsCounted, TurnEnded, UnitBoarded, UnitDeployed, UnitDismounted,
                     UnitMoved, UnitPutBack, UnitStopped, UnitTurned, UnitUndeployed)
from .hexes import DIRECTION_NAMES, DIRECTIONS, Hex, Hexside, direction_between, hex_label
from .movement import Reach
from .state import (DefensiveFirePrompt, DismountPlacement, GameState, MoveInProgress,
                    OrderChoice, Outcome, Phase, Unit, other_side)

__all__ = ["Game", "new_game", "TargetInfo", "TRANSPORT_IDS", "BRIDGE_DEMOLITION",
           "deployment_zone", "army_budget", "STANDARD_VICTORY_TURN", "LAST_TURN"]

STANDARD_VICTORY_TURN = 7      # objective control wins from the end of this turn
LAST_TURN = 10                 # points (Standard) / the attacker's deadline (Assault)
TRANSPORT_IDS = ("transport", "exposed_transport", "gun_transport")
BRIDGE_DEMOLITION = "bridge_demolition"
BRIDGE_DEMOLITION_NEED = 4


@dataclass(frozen=True)
class TargetInfo:
    target: str
    distance: int
    band: str
    dice: int
    front: bool | None
    cover: bool
    odds: Any              # game.rules.odds.Odds
    mode: str = "normal"


def army_budget(scenario: str, side: str, attacker: str | None) -> int:
    """Points an army may spend: 100 (Standard); Assault 120 attacker / 80 defender."""
    if scenario == "assault":
        return 120 if side == attacker else 80
    return 100


_ZONES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def deployment_zone(state: GameState, side: str, unit: Unit | None = None) -> frozenset[Hex]:
    """Where ``side`` may deploy (ruling 8; Assault: the defender's two sections)."""
    end = state.ends.get(side)
    if end is None:
        return frozenset()
    bm = state.battle_map
    half = state.scenario == "assault" and side == state.defender
    per_map = _ZONES.get(bm)
    if per_map is None:
        per_map = _ZONES[bm] = {}
    zone = per_map.get((end, half))
    if zone is None:
        zone = per_map[(end, half)] = bm.half_of(end) if half else bm.deployment_zone(end)
    return zone


def _transport_capacity(state: GameState, unit: Unit) -> int:
    return 1 if unit.is_vehicle and any(unit.card.has(t) for t in TRANSPORT_IDS) else 0


def _board_problem(state: GameState, soldier: Unit, carrier: Unit) -> str | None:
    if not soldier.is_soldier:
        return f"{soldier.name} is not a Soldier: only Soldiers board transports"
    if carrier.side != soldier.side:
        return f"{carrier.name} is an enemy unit"
    cap = _transport_capacity(state, carrier)
    if cap <= 0:
        return f"{carrier.name} is not a transport"
    if carrier.destroyed or carrier.hex is None:
        return f"{carrier.name} is not on the battle map"
    if len(state.passengers(carrier.uid)) >= cap:
        return f"{carrier.name} already carries a Soldier"
    artillery = "artillery" in (soldier.card.subtype or "").lower()
    ok = abilities.apply("can_board", not artillery, state=state, unit=soldier, carrier=carrier)
    if ok is not True:
        if isinstance(ok, str) and ok:
            return ok
        return "transports can't carry Artillery" if artillery else (
            f"{soldier.name} can't board {carrier.name}")
    return None


_UNIT_XY = [(math.sqrt(3) * (d.q + d.r / 2), 1.5 * d.r) for d in DIRECTIONS]


def facing_toward(a: Hex, b: Hex) -> int:
    """The facing (0-5) from ``a`` that points most nearly at ``b``."""
    x = math.sqrt(3) * ((b.q - a.q) + (b.r - a.r) / 2)
    y = 1.5 * (b.r - a.r)
    best, bd = 0, -1e18
    for d, (ux, uy) in enumerate(_UNIT_XY):
        v = ux * x + uy * y
        if v > bd:
            best, bd = d, v
    return best


def _facing_toward_nearest(h: Hex, enemies: list[Hex], reach: Reach) -> int:
    best = None
    bd = 1 << 30
    hq, hr = h.q, h.r
    for e in enemies:
        dq, dr = e.q - hq, e.r - hr
        d = (abs(dq) + abs(dr) + abs(dq + dr)) >> 1
        if 0 < d < bd:
            best, bd = e, d
    if best is not None:
        return facing_toward(h, best)
    last = reach.path[-2] if len(reach.path) > 1 else None
    if last is not None:
        d = direction_between(last, h)
        if d is not None:
            return d
    return 0


class Game:
    """One game: a state, its dice, and what was applied (``history``)."""

    def __init__(self, state: GameState, dice: Dice | None = None) -> None:
        self.state = state
        self.dice = dice if dice is not None else Dice(0)
        self.history: list[Action] = []
        self.log: list[Event] = []
        self._reach_cache: dict = {}
        self._legal_cache: tuple | None = None
        self._fp: tuple | None = None
        self._facings: dict[Hex, int] = {}
        # (state, dice) as new_game left them: undo and replays start here (game.rules.undo)
        self.origin: tuple | None = None

    # --- building positions by hand ----------------------------------------------------------
    def add_unit(self, card: UnitCard, side: str | None = None, hex: Hex | None = None,
                 facing: int = 0, *, uid: str | None = None, disrupted: bool = False,
                 damaged: bool = False, pending: Iterable[str] = (), carrier: str | None = None,
                 acted: bool = False, fired_defensively: bool = False) -> Unit:
        """Put a unit into the state (tests, situations, previews).  ``uid``
        defaults to ``"axis-N"`` / ``"allies-N"`` in order.  A unit given a
        ``carrier`` takes the carrier's hex."""
        side = side or card.side
        if side not in ("Axis", "Allies"):
            raise MalformedAction(f"unknown side '{side}'")
        if uid is None:
            prefix = side.lower()
            n = sum(1 for u in self.state.units.values() if u.side == side) + 1
            while f"{prefix}-{n}" in self.state.units:
                n += 1
            uid = f"{prefix}-{n}"
        if uid in self.state.units:
            raise MalformedAction(f"there is already a unit '{uid}'")
        if carrier is not None:
            hex = self.state.units[carrier].hex
        unit = Unit(uid, card, side, hex, facing % 6, disrupted, damaged, list(pending),
                    carrier, False, acted, fired_defensively)
        self.state.units[uid] = unit
        self.state.touch()
        return unit

    # --- queries ---------------------------------------------------------------------------------
    @property
    def to_act(self) -> str | None:
        return self.state.to_act

    @property
    def over(self) -> bool:
        return self.state.phase == Phase.GAME_OVER

    def _fingerprint(self) -> tuple:
        st = self.state
        return (st.version, st.phase, st.turn, st.destroyed_bridges, st.pending,
                st.road_bonus_used,
                tuple((u.hex, u.destroyed, u.disrupted, u.damaged, u.acted, u.carrier,
                       u.facing, u.fired_defensively)
                      for u in st.units.values()))

    def reachable(self, uid: str) -> dict[Hex, Reach]:
        """Hexes ``uid`` may move into now (empty when it can't move now);
        ``Reach.stops`` says whether it may end there."""
        st = self.state
        if uid not in st.units:
            raise MalformedAction(f"there is no unit '{uid}'")
        u = st.units[uid]
        if (st.phase not in (Phase.MOVEMENT_FIRST, Phase.MOVEMENT_SECOND, Phase.ASSAULT_FIRST,
                             Phase.ASSAULT_SECOND)
                or st.pending is not None or u.side != st.active_side or u.acted):
            return {}
        key = (uid, self._fp or self._fingerprint())
        hit = self._reach_cache.get(key)
        if hit is None:
            if len(self._reach_cache) > 256:
                self._reach_cache.clear()
            hit = movement.reachable(st, uid)
            self._reach_cache[key] = hit
        return hit

    def why_not_reach(self, uid: str, hex: Hex) -> str:
        st = self.state
        u = st.units[uid]
        prob = self._activation_problem(u)
        if prob:
            return prob
        return movement.why_not_reach(st, uid, hex)

    def visible_from(self, hex: Hex) -> frozenset[Hex]:
        return self.state.battle_map.los.visible_from(hex)

    def odds(self, attacker_uid: str, target_uid: str, mode: str = "normal",
             defensive: bool = False, at_hex: Hex | None = None):
        from .odds import attack_odds
        return attack_odds(self.state, attacker_uid, target_uid, mode=mode,
                           defensive=defensive, at_hex=at_hex)

    def targets(self, uid: str) -> list[TargetInfo]:
        """Every enemy ``uid`` may attack from where it is (any phase; the
        activation rules are not checked here), with exact odds."""
        from .odds import odds_for_plan
        st = self.state
        u = st.units[uid]
        if not u.on_map:
            return []
        modes = ["normal"] + [a.mode for a in self._ability_actions(u)
                              if isinstance(a, Attack) and a.mode != "normal"]
        out: list[TargetInfo] = []
        for t in st.units.values():
            if not t.on_map or t.side == u.side:
                continue
            for mode in dict.fromkeys(modes):
                try:
                    plan = combat.plan_attack(st, uid, t.uid, mode=mode)
                except IllegalAction:
                    continue
                out.append(TargetInfo(t.uid, plan.distance, plan.band, plan.dice, plan.front,
                                      plan.cover_need is not None, odds_for_plan(st, plan), mode))
        return out

    # --- legal actions ------------------------------------------------------------------------
    def legal_actions(self, all_facings: bool = False) -> list[Action]:
        """Everything ``state.to_act`` may do now.  Move: one action per hex the
        unit may end in, with its best path; a Vehicle's listed final facing points
        at the nearest enemy (or along its last step) - any of the six facings is
        legal (``check`` accepts them), so a client may change it, and
        ``all_facings=True`` lists all six; turning in place is listed for each
        other facing."""
        if all_facings:
            acts = self.legal_actions()
            out: list[Action] = []
            for a in acts:
                if isinstance(a, Move) and a.path and a.facing is not None:
                    out.extend(Move(a.side, a.uid, a.path, f) for f in range(6))
                else:
                    out.append(a)
            return out
        key = self._fingerprint()
        if self._legal_cache is not None and self._legal_cache[0] == key:
            return list(self._legal_cache[1])
        self._fp = key                  # one fingerprint for every reachable() below
        self._facings: dict[Hex, int] = {}
        try:
            acts = self._legal_actions()
        finally:
            self._fp = None
        self._legal_cache = (key, acts)
        return list(acts)

    def _legal_actions(self) -> list[Action]:
        st = self.state
        side = st.to_act
        if side is None:
            return []
        p = st.pending
        if isinstance(p, OrderChoice):
            return [ChooseOrder(side, True), ChooseOrder(side, False)]
        if isinstance(p, DefensiveFirePrompt):
            return [DefensiveFire(side, uid) for uid in p.eligible] + [PassDefensiveFire(side)]
        if isinstance(p, DismountPlacement):
            return [PlaceDismounted(side, p.uid, h) for h in p.candidates]
        ph = st.phase
        out: list[Action] = []
        if ph == Phase.SETUP_END:
            return [ChooseEnd(side, e) for e in ENDS]
        if ph == Phase.SETUP_OBJECTIVE:
            return [ChooseObjective(side, h) for h in st.battle_map.hexes
                    if not st.battle_map.is_edge_adjacent(h)]
        if ph.is_deploy:
            return self._deploy_actions(side)
        if ph.is_movement or ph.is_assault:
            gate = abilities.has_hooks("action_allowed")
            for u in st.units_of(side):
                if not u.on_map:
                    continue
                base = self._unit_actions(u)
                extra = self._ability_actions(u)
                if gate:
                    # the engine built ``base`` legal; only an ability may still refuse
                    base = [a for a in base if abilities.apply(
                        "action_allowed", None, state=st, unit=u, action=a, game=self) is None]
                    extra = [a for a in extra if self.check(a) is None]
                out.extend(base)
                if extra:
                    seen = set(base)
                    out.extend(a for a in extra if a not in seen)
            out.append(EndPhase(side))
        return out

    def _deploy_actions(self, side: str) -> list[Action]:
        st = self.state
        out: list[Action] = []
        facing = 0 if st.ends.get(side) == "left" else 3     # toward the enemy end
        mine = st.units_of(side)
        bm = st.battle_map
        for u in mine:
            if u.hex is not None:
                out.append(Undeploy(side, u.uid))
                continue
            friends, vehicles = movement.occupancy(st, u)
            for h in sorted(deployment_zone(st, side, u), key=lambda x: (x.r, x.x2)):
                # _deploy_problem's rules, with the occupancy counted once
                if h in bm.terrain and not movement.impassable(u, bm.terrain[h]) and \
                        movement.stacking_problem(u, h, friends, vehicles) is None:
                    out.append(Deploy(side, u.uid, h, facing))
            if u.is_soldier:
                for c in mine:
                    if c.hex is not None and c.is_vehicle and \
                            self._deploy_problem(u, c.hex, facing, c.uid) is None:
                        out.append(Deploy(side, u.uid, c.hex, facing, c.uid))
        if all(u.hex is not None for u in mine):
            out.append(EndPhase(side))
        return out

    def _unit_actions(self, u: Unit) -> list[Action]:
        st = self.state
        side = u.side
        out: list[Action] = []
        if u.acted:
            return out
        if u.boarded:
            if st.phase.is_movement and self._dismount_problem(u, u.hex) is None:
                out.append(Dismount(side, u.uid, u.hex))
            return out
        if movement.move_problem(st, u) is None:
            reach = self.reachable(u.uid)
            if u.is_vehicle:
                enemies = [e.hex for e in st.units.values()
                           if e.side != side and e.on_map]
                memo = getattr(self, "_facings", None)
                if memo is None:
                    memo = {}
                for h, r in reach.items():
                    if r.stops:
                        f = memo.get(h) if enemies else None
                        if f is None:
                            f = _facing_toward_nearest(h, enemies, r)
                            if enemies:
                                memo[h] = f
                        out.append(Move(side, u.uid, r.path, f))
            else:
                out.extend(Move(side, u.uid, r.path, None) for r in reach.values() if r.stops)
            if u.is_vehicle and self._turn_allowed(u):
                out.extend(Move(side, u.uid, (), f) for f in range(6) if f != u.facing)
        if st.phase.is_movement and u.is_soldier and not u.disrupted:
            for c in st.units_at(u.hex, include_boarded=False):
                if c is not u and c.is_vehicle and _board_problem(st, u, c) is None:
                    out.append(Board(side, u.uid, c.uid))
        if st.phase.is_assault:
            seen = st.battle_map.los.visible_from(u.hex)     # no attack without LOS
            for t in st.units.values():
                if t.on_map and t.side != side and not t.boarded and t.hex in seen:
                    if combat.why_not_attack(st, u.uid, t.uid) is None:
                        out.append(Attack(side, u.uid, t.uid))
            if self._demolish_problem(u) is None:
                out.append(DemolishBridge(side, u.uid))
        return out

    def _ability_actions(self, u: Unit) -> list[Action]:
        if not abilities.has_hooks("activation_options"):
            return []
        return list(abilities.apply("activation_options", [], state=self.state, unit=u,
                                    phase=self.state.phase, game=self))

    def _turn_allowed(self, u: Unit) -> bool:
        return not u.disrupted

    # --- checking ---------------------------------------------------------------------------
    def check(self, action: Action) -> str | None:
        """The reason ``action`` would be refused now, or ``None``."""
        try:
            reason = self._check(action)
        except MalformedAction as exc:
            return str(exc)
        except (TypeError, AttributeError, ValueError, KeyError) as exc:
            # fields of the wrong type (a path of non-hexes, a facing of "north"...)
            return f"malformed {type(action).__name__}: {exc}"
        if abilities.has_hooks("action_allowed"):
            uid = getattr(action, "uid", None)
            unit = self.state.units.get(uid) if isinstance(uid, str) else None
            reason = abilities.apply("action_allowed", reason, state=self.state, unit=unit,
                                     action=action, game=self)
        return reason

    def _unit_of(self, action: Action) -> Unit:
        uid = getattr(action, "uid")
        u = self.state.units.get(uid)
        if u is None:
            raise MalformedAction(f"there is no unit '{uid}'")
        if u.side != action.side:
            raise MalformedAction(f"{u.name} ({uid}) is not a unit of {action.side}")
        return u

    def _check(self, action: Action) -> str | None:
        st = self.state
        if not isinstance(action, Action):
            return f"{action!r} is not an action"
        if st.phase == Phase.GAME_OVER:
            return "the game is over"
        side = st.to_act
        if action.side != side:
            return f"it is {side}'s turn to act, not {action.side}'s"
        p = st.pending
        if p is not None:
            return self._check_pending(action, p)
        ph = st.phase
        if isinstance(action, ChooseEnd):
            if ph != Phase.SETUP_END:
                return "ends are chosen only during setup"
            if action.end not in ENDS:
                return f"'{action.end}' is not an end (left or right)"
            return None
        if isinstance(action, ChooseObjective):
            if ph != Phase.SETUP_OBJECTIVE:
                return "the objective is chosen only during the Assault scenario's setup"
            h = action.hex
            if not st.battle_map.is_playable(h):
                return f"{hex_label(h)} is not a playable hex"
            if st.battle_map.is_edge_adjacent(h):
                return (f"{hex_label(h)} is next to the map edge or a half-hex; the objective "
                        f"may not be")
            return None
        if isinstance(action, (Deploy, Undeploy)):
            if not ph.is_deploy:
                return "units are deployed only during deployment"
            u = self._unit_of(action)
            if isinstance(action, Undeploy):
                return None if u.hex is not None else f"{u.name} is not deployed"
            if u.hex is not None:
                return f"{u.name} is already deployed (take it back first)"
            return self._deploy_problem(u, action.hex, action.facing, action.carrier)
        if isinstance(action, EndPhase):
            if ph.is_deploy:
                left = [u.name for u in st.units_of(action.side) if u.hex is None]
                if left:
                    return f"deploy every unit first ({len(left)} left: {', '.join(left[:3])}...)"
                return None
            if ph.is_movement or ph.is_assault:
                return None
            return "there is no phase to end now"
        if isinstance(action, ChooseOrder):
            return "nobody is choosing first or second now"
        if isinstance(action, (DefensiveFire, PassDefensiveFire)):
            return "no defensive fire is being offered now"
        if isinstance(action, PlaceDismounted):
            return "no dismounting Soldier is waiting to be placed"
        if not (ph.is_movement or ph.is_assault):
            return f"that can't be done in the {ph.title.lower()}"
        u = self._unit_of(action)
        if isinstance(action, Move):
            return self._move_problem(u, action)
        if isinstance(action, Attack):
            if not ph.is_assault:
                return "attacks are made in your assault phase"
            prob = self._activation_problem(u)
            if prob:
                return prob
            if action.target not in st.units:
                raise MalformedAction(f"there is no unit '{action.target}'")
            return combat.why_not_attack(st, u.uid, action.target, mode=action.mode)
        if isinstance(action, Board):
            if not ph.is_movement:
                return "Soldiers board transports in the movement phase"
            prob = self._activation_problem(u)
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
            return _board_problem(st, u, c)
        if isinstance(action, Dismount):
            if not ph.is_movement:
                return "Soldiers dismount in the movement phase"
            if not u.boarded:
                return f"{u.name} is not aboard a transport"
            if u.acted:
                return f"{u.name} has already used its move this phase (ruling 7)"
            return self._dismount_problem(u, action.hex)
        if isinstance(action, DemolishBridge):
            if not ph.is_assault:
                return "bridges are demolished in the assault phase"
            return self._demolish_problem(u)
        return f"{type(action).__name__} is not possible now"

    def _check_pending(self, action: Action, p: Any) -> str | None:
        st = self.state
        if isinstance(p, OrderChoice):
            if not isinstance(action, ChooseOrder):
                return f"{p.side} must first choose to go first or second ({p.reason})"
            return None
        if isinstance(p, DefensiveFirePrompt):
            if isinstance(action, PassDefensiveFire):
                return None
            if not isinstance(action, DefensiveFire):
                return "answer the defensive-fire offer first (fire or hold)"
            if action.uid not in st.units:
                raise MalformedAction(f"there is no unit '{action.uid}'")
            if action.uid not in p.eligible:
                u = st.units[action.uid]
                if u.fired_defensively:
                    return f"{u.name} has already fired defensively this phase"
                return f"{u.name} can't fire defensively at the moving unit here"
            return None
        if isinstance(p, DismountPlacement):
            if not isinstance(action, PlaceDismounted) or action.uid != p.uid:
                return "choose where the dismounting Soldier goes first"
            if action.hex not in p.candidates:
                return f"{hex_label(action.hex)} is not one of the nearest legal hexes"
            return None
        return "a decision is pending"

    def _activation_problem(self, u: Unit) -> str | None:
        st = self.state
        if not (st.phase.is_movement or st.phase.is_assault):
            return "units act only in movement and assault phases"
        if u.side != st.active_side:
            return f"it is not {u.side}'s phase"
        if st.pending is not None:
            return "a decision is pending"
        if not u.on_map:
            return f"{u.name} is not on the battle map"
        if u.acted:
            return f"{u.name} has already acted this phase (ruling 7: one activation per phase)"
        if u.boarded:
            return f"{u.name} is aboard a transport and can't act for itself"
        return None

    def _move_problem(self, u: Unit, action: Move) -> str | None:
        st = self.state
        prob = self._activation_problem(u)
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
            if not self._turn_allowed(u):
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

    def _deploy_problem(self, u: Unit, h: Hex, facing: int, carrier: str | None) -> str | None:
        st = self.state
        if not isinstance(facing, int) or not 0 <= facing <= 5:
            raise MalformedAction(f"facing must be 0-5, not {facing!r}")
        bm = st.battle_map
        if not bm.is_playable(h):
            return f"{hex_label(h)} is not a playable hex (half-hexes don't count)"
        if h not in deployment_zone(st, u.side, u):
            if st.scenario == "assault" and u.side == st.defender:
                return f"{hex_label(h)} is not on your half of the battle map"
            return f"{hex_label(h)} is not within five hexes of your end (ruling 8)"
        if carrier is not None:
            c = st.units.get(carrier)
            if c is None:
                raise MalformedAction(f"there is no unit '{carrier}'")
            if c.hex != h:
                return f"{c.name} is not deployed in {hex_label(h)}"
            return _board_problem(st, u, c)
        t = bm.terrain_at(h)
        if movement.impassable(u, t):
            kind = "Vehicles" if u.is_vehicle else "Soldiers"
            return f"{kind} can't enter {t.value}, so they can't deploy there"
        return movement.stop_problem(st, u, h)

    def _dismount_problem(self, u: Unit, h: Hex | None) -> str | None:
        st = self.state
        c = st.units.get(u.carrier or "")
        if c is None or c.hex is None:
            return f"{u.name} is not aboard a transport"
        if h != c.hex:
            return f"{u.name} dismounts into its transport's hex {hex_label(c.hex)}"
        if u.disrupted:
            return f"{u.name} is disrupted and can't move"
        ok = abilities.apply("can_move", True, state=st, unit=u, phase=st.phase)
        if ok is not True:
            return ok if isinstance(ok, str) and ok else f"{u.name} can't move now"
        return None

    def _bridges_at(self, h: Hex | None) -> list[Hexside]:
        if h is None:
            return []
        st = self.state
        return sorted(s for s in st.battle_map.bridges
                      if h in s.hexes() and s not in st.destroyed_bridges)

    def _demolish_problem(self, u: Unit) -> str | None:
        prob = self._activation_problem(u)
        if prob:
            return prob
        if not u.card.has(BRIDGE_DEMOLITION):
            return f"{u.name} has no Bridge Demolition ability"
        if not self._bridges_at(u.hex):
            return f"there is no standing bridge in {u.name}'s hex"
        return None

    # --- applying -------------------------------------------------------------------------
    def apply(self, action: Action) -> list[Event]:
        """Carry out ``action``; raise :class:`IllegalAction` (state untouched) if the
        rules refuse it.  Returns the events, including the automatic steps that
        followed (initiative, casualty phase, victory...)."""
        reason = self.check(action)
        if reason is not None:
            raise IllegalAction(reason)
        st = self.state
        snap = st.copy()
        dice_state = self.dice.getstate()
        try:
            events = self._perform(action)
            events.extend(self._advance())
        except BaseException:
            st.__dict__.update(snap.__dict__)
            self.dice.setstate(dice_state)
            raise
        self.history.append(action)
        self.log.extend(events)
        st.touch()
        return events

    def _perform(self, action: Action) -> list[Event]:
        st = self.state
        if abilities.has_hooks("perform"):
            uid = getattr(action, "uid", None)
            unit = st.units.get(uid) if isinstance(uid, str) else None
            done = abilities.apply("perform", None, state=st, unit=unit, action=action,
                                   dice=self.dice, game=self)
            if done is not None:
                return list(done)
        handler = getattr(self, "_do_" + type(action).__name__)
        return handler(action)

    # setup
    def _do_ChooseOrder(self, a: ChooseOrder) -> list[Event]:
        st = self.state
        st.pending = None
        st.first_player = a.side if a.go_first else other_side(a.side)
        st.second_player = other_side(st.first_player)
        ev: list[Event] = [OrderChosen(a.side, a.go_first)]
        if st.phase == Phase.SETUP_ORDER:
            ev += self._begin(Phase.SETUP_END)
        elif st.phase == Phase.INITIATIVE:
            ev += self._begin(Phase.MOVEMENT_FIRST)
        return ev

    def _do_ChooseEnd(self, a: ChooseEnd) -> list[Event]:
        st = self.state
        st.ends = {a.side: a.end, other_side(a.side): other_end(a.end)}
        ev: list[Event] = [EndChosen(a.side, a.end)]
        if st.scenario == "assault":
            ev += self._begin(Phase.SETUP_OBJECTIVE)
        else:
            ev += self._begin(Phase.DEPLOY_FIRST)
        return ev

    def _do_ChooseObjective(self, a: ChooseObjective) -> list[Event]:
        st = self.state
        st.objective = a.hex
        return [ObjectiveChosen(a.side, a.hex)] + self._begin(Phase.DEPLOY_FIRST)

    def _do_Deploy(self, a: Deploy) -> list[Event]:
        u = self.state.units[a.uid]
        u.hex = a.hex
        u.facing = a.facing
        u.carrier = a.carrier
        return [UnitDeployed(u.uid, a.hex, a.facing, a.carrier,
                             text=f"{u.name} deploys in {hex_label(a.hex)}"
                                  + (f" aboard {self.state.units[a.carrier].name}."
                                     if a.carrier else "."))]

    def _do_Undeploy(self, a: Undeploy) -> list[Event]:
        st = self.state
        u = st.units[a.uid]
        ev: list[Event] = []
        for p in st.passengers(u.uid):
            p.hex, p.carrier = None, None
            ev.append(UnitUndeployed(p.uid, text=f"{p.name} is taken back off the map."))
        u.hex, u.carrier = None, None
        ev.append(UnitUndeployed(u.uid, text=f"{u.name} is taken back off the map."))
        return ev

    def _do_EndPhase(self, a: EndPhase) -> list[Event]:
        st = self.state
        nxt = {
            Phase.DEPLOY_FIRST: Phase.DEPLOY_SECOND,
            Phase.DEPLOY_SECOND: Phase.INITIATIVE,
            Phase.MOVEMENT_FIRST: Phase.MOVEMENT_SECOND,
            Phase.MOVEMENT_SECOND: Phase.ASSAULT_FIRST,
            Phase.ASSAULT_FIRST: Phase.ASSAULT_SECOND,
            Phase.ASSAULT_SECOND: Phase.CASUALTY,
        }[st.phase]
        if nxt == Phase.INITIATIVE:
            st.turn = 1
        return self._begin(nxt)

    # movement
    def _do_Move(self, a: Move) -> list[Event]:
        st = self.state
        u = st.units[a.uid]
        if not a.path:
            was = u.facing
            u.facing = a.facing
            u.acted = True
            return [UnitTurned(u.uid, u.hex, a.facing, was,
                               text=f"{u.name} turns to face {DIRECTION_NAMES[a.facing]} in "
                                    f"{hex_label(u.hex)}.")]
        bonus = movement._road_bonus(st, u, st.phase)
        st.moving = MoveInProgress(u.uid, tuple(a.path), 0, u.hex, a.facing, bonus)
        return self._continue_move()

    def _continue_move(self) -> list[Event]:
        """Walk the move in progress until it ends or a defensive-fire decision
        is needed (state.pending)."""
        st = self.state
        ev: list[Event] = []
        m = st.moving
        u = st.units[m.uid]
        while m.index < len(m.path):
            a, b = u.hex, m.path[m.index]
            d = direction_between(a, b)
            if m.stage == "":
                speed = movement.movement_speed(st, u)
                stp = movement.step(st, u, a, b, bonus_left=m.road_bonus_left,
                                    speed_one=movement._speed_one(st, u, speed, st.phase))
                for roll in stp.rolls:           # ruling 15: stream first, then forest
                    die = self.dice.d6()
                    ok = die >= roll.need
                    ev.append(MovementRoll(u.uid, roll.kind, die, roll.need, ok, a, b,
                                           text=f"{u.name} rolls {die} to "
                                                f"{'cross the stream' if roll.kind == 'stream' else 'enter the ' + roll.kind}"
                                                f" into {hex_label(b)} (needs {roll.need}+): "
                                                f"{'made it' if ok else 'failed'}."))
                    if not ok:
                        # a failed roll provokes nothing; the Vehicle faces the hex it tried
                        if u.is_vehicle:
                            u.facing = d
                        ev.append(UnitStopped(u.uid, a, f"failed {roll.kind} movement roll",
                                              text=f"{u.name} stops in {hex_label(a)}: "
                                                   f"failed movement roll."))
                        return ev + self._end_move(stopped=True)
                if stp.free:
                    m.road_bonus_left = False
                    st.road_bonus_used = st.road_bonus_used | {u.uid}
                if u.is_vehicle:
                    u.facing = d                 # toward the hex it enters
                m.stage = "leave"
                elig = self._df_eligible(u, a, b, "leave")
                if elig:
                    return ev + self._offer(u, a, b, "leave", elig)
            if m.stage == "leave":
                # step in
                m.facings.append(d)
                self._place(u, b)
                m.walked.append(b)
                m.stage = "enter"
                elig = self._df_eligible(u, a, b, "enter")
                if elig:
                    return ev + self._offer(u, a, b, "enter", elig)
            if m.stage == "enter":
                m.stage = ""
                m.index += 1
        return ev + self._end_move(stopped=False)

    def _place(self, u: Unit, h: Hex) -> None:
        u.hex = h
        for p in self.state.passengers(u.uid):
            p.hex = h

    def _df_eligible(self, mover: Unit, a: Hex, b: Hex, stage: str) -> tuple[str, ...]:
        """Units that may fire defensively at ``mover`` stepping from ``a`` to ``b``
        at this stage (rulebook: Provoking Defensive Fire; ruling 14)."""
        st = self.state
        at = a if stage == "leave" else b
        out = []
        for e in st.units.values():
            if e.side == mover.side or not e.on_map:
                continue
            if e.boarded and not (abilities.has_hooks("attack_from_aboard") and abilities.apply(
                    "attack_from_aboard", False, state=st, attacker=e, target=mover,
                    carrier=st.units.get(e.carrier), defensive=True) is True):
                continue
            if e.hex.distance(a) > 1 or e.hex.distance(b) > 1:
                continue
            provokes = not (mover.is_soldier and e.is_vehicle)
            if not provokes:
                continue
            can = not e.disrupted and not e.fired_defensively
            can = abilities.apply("can_fire_defensively", can, state=st, unit=e, firer=e,
                                  mover=mover, from_hex=a, to_hex=b, stage=stage)
            if can is not True:
                continue
            if combat.why_not_attack(st, e.uid, mover.uid, defensive=True, at_hex=at) is None:
                out.append(e.uid)
        return tuple(out)

    def _offer(self, mover: Unit, a: Hex, b: Hex, stage: str,
               elig: tuple[str, ...]) -> list[Event]:
        st = self.state
        st.pending = DefensiveFirePrompt(mover.uid, a, b, stage, elig)
        at = a if stage == "leave" else b
        names = ", ".join(st.units[x].name for x in elig)
        where = "leaving" if stage == "leave" else "entering"
        return [DefensiveFireOffered(mover.uid, stage, at, elig, a, b, other_side(mover.side),
                                     text=f"{mover.name} is {where} {hex_label(at)}: "
                                          f"{other_side(mover.side)} may fire defensively "
                                          f"with {names}.")]

    def _do_DefensiveFire(self, a: DefensiveFire, shots: int = 1) -> list[Event]:
        """One defensive-fire attack (``shots`` > 1: Double Shot's rolls at the same
        stage, stopping at the first that stops the mover), then the move goes on."""
        st = self.state
        p: DefensiveFirePrompt = st.pending
        mover = st.units[p.mover]
        firer = st.units[a.uid]
        firer.fired_defensively = True
        ev: list[Event] = []
        stopped = False
        for n in range(shots):
            try:
                ev += combat.resolve_attack(st, a.uid, p.mover, self.dice, defensive=True,
                                            at_hex=p.at_hex, facing=mover.facing,
                                            stage=p.stage)
            except IllegalAction:
                if n == 0:
                    raise
                break
            stopped = mover.disrupted or any(isinstance(e, UnitStopped) and e.uid == p.mover
                                             for e in ev)
            if stopped:
                break
        st.pending = None
        if stopped:
            return ev + self._end_move(stopped=True)
        elig = tuple(x for x in self._df_eligible(mover, p.from_hex, p.to_hex, p.stage)
                     if x != a.uid)
        if elig:
            return ev + self._offer(mover, p.from_hex, p.to_hex, p.stage, elig)
        return ev + self._continue_move()

    def _do_PassDefensiveFire(self, a: PassDefensiveFire) -> list[Event]:
        st = self.state
        p: DefensiveFirePrompt = st.pending
        st.pending = None
        return [DefensiveFirePassed(a.side, p.stage, p.mover, p.at_hex, p.from_hex, p.to_hex,
                                    text=f"{a.side} holds fire.")] + \
            self._continue_move()

    def _end_move(self, stopped: bool) -> list[Event]:
        st = self.state
        m = st.moving
        u = st.units[m.uid]
        ev: list[Event] = []
        st.moving = None
        st.pending = None
        u.acted = True
        if stopped and movement.stop_problem(st, u, u.hex) is not None:
            # ruling 6: back along the path to the last hex where it may stop
            trail = [m.start] + m.walked
            here = u.hex
            # positions strictly before the current one
            idx = len(trail) - 1 if trail[-1] == here else len(trail)
            dest, dest_i = m.start, 0
            for i in range(idx - 1, -1, -1):
                if movement.stop_problem(st, u, trail[i]) is None:
                    dest, dest_i = trail[i], i
                    break
            self._place(u, dest)
            if u.is_vehicle:
                # the facing it had when it left that hex
                if dest_i < len(m.facings):
                    u.facing = m.facings[dest_i]
                else:
                    u.facing = direction_between(dest, m.path[0]) or u.facing
            ev.append(UnitPutBack(u.uid, here, dest,
                                  text=f"{u.name} can't stop in {hex_label(here)} and goes back "
                                       f"to {hex_label(dest)} (ruling 6)."))
        elif not stopped:
            if u.is_vehicle and m.final_facing is not None:
                u.facing = m.final_facing
            elif m.facings:
                u.facing = m.facings[-1]
        walked = tuple(m.walked)
        if walked:
            ev.insert(0, UnitMoved(u.uid, walked, u.facing, m.start, tuple(m.path), stopped,
                                   u.hex,
                                   text=f"{u.name} moves {' - '.join(hex_label(h) for h in walked)}"
                                        + (" and stops." if stopped else ".")))
        return ev

    def _do_Attack(self, a: Attack) -> list[Event]:
        st = self.state
        u = st.units[a.uid]
        u.acted = True
        return combat.resolve_attack(st, a.uid, a.target, self.dice, mode=a.mode)

    def _do_Board(self, a: Board) -> list[Event]:
        st = self.state
        u = st.units[a.uid]
        c = st.units[a.carrier]
        u.carrier = c.uid
        u.hex = c.hex
        u.acted = True
        return [UnitBoarded(u.uid, c.uid, c.hex, text=f"{u.name} boards {c.name}.")]

    def _do_Dismount(self, a: Dismount) -> list[Event]:
        st = self.state
        u = st.units[a.uid]
        c = st.units[u.carrier]
        u.carrier = None
        u.hex = c.hex
        u.acted = True
        ev: list[Event] = [UnitDismounted(u.uid, c.hex, c.uid, text=f"{u.name} dismounts from "
                                                             f"{c.name} in {hex_label(c.hex)}.")]
        if movement.stop_problem(st, u, c.hex) is not None:
            cands = self._nearest_legal(u, c.hex)
            if cands:
                st.pending = DismountPlacement(u.uid, cands, other_side(u.side))
        return ev

    def _nearest_legal(self, u: Unit, origin: Hex) -> tuple[Hex, ...]:
        st = self.state
        bm = st.battle_map
        for radius in range(1, 40):
            ring = [h for h in bm.hexes if h.distance(origin) == radius
                    and not movement.impassable(u, bm.terrain[h])
                    and movement.stop_problem(st, u, h) is None]
            if ring:
                return tuple(sorted(ring, key=lambda x: (x.r, x.x2)))
        return ()

    def _do_PlaceDismounted(self, a: PlaceDismounted) -> list[Event]:
        st = self.state
        u = st.units[a.uid]
        u.hex = a.hex
        st.pending = None
        return [UnitDismounted(u.uid, a.hex, None, a.side, text=f"{a.side} places {u.name} in "
                                                  f"{hex_label(a.hex)}.")]

    def _do_DemolishBridge(self, a: DemolishBridge) -> list[Event]:
        st = self.state
        u = st.units[a.uid]
        u.acted = True
        die = self.dice.d6()
        ok = die >= BRIDGE_DEMOLITION_NEED
        ev: list[Event] = [BridgeDemolitionRoll(u.uid, die, BRIDGE_DEMOLITION_NEED, ok,
                                                text=f"{u.name} tries to blow the bridge: "
                                                     f"rolls {die} (needs "
                                                     f"{BRIDGE_DEMOLITION_NEED}+), "
                                                     f"{'success' if ok else 'failure'}.")]
        if ok:
            side = self._bridges_at(u.hex)[0]
            st.destroyed_bridges = st.destroyed_bridges | {side}
            ev.append(BridgeDestroyed(side, u.uid))
        return ev

    # --- flow ---------------------------------------------------------------------------------
    def _begin(self, phase: Phase) -> list[Event]:
        st = self.state
        st.phase = phase
        st.road_bonus_used = frozenset()
        for u in st.units.values():
            u.acted = False
            u.fired_defensively = False
        side = st.to_act if phase not in (Phase.CASUALTY, Phase.END_OF_TURN,
                                          Phase.INITIATIVE) else None
        ev: list[Event] = [PhaseBegan(phase.value, st.turn, side)]
        if abilities.has_hooks("phase_begin"):
            ev = list(abilities.apply("phase_begin", ev, state=st, phase=phase,
                                      dice=self.dice, game=self))
        return ev

    def advance(self) -> list[Event]:
        """Run the automatic steps a hand-built state may be waiting for (coin
        flip at SETUP_ORDER, initiative, casualty phase, end of turn) until a
        player must act; ``apply`` does this by itself after every action."""
        st = self.state
        ev: list[Event] = []
        if st.phase == Phase.SETUP_ORDER and st.pending is None:
            winner = "Axis" if self.dice.d6() <= 3 else "Allies"
            ev.append(CoinFlipped(winner))
            st.pending = OrderChoice(winner, "coin flip")
        ev += self._advance()
        self.log.extend(ev)
        st.touch()
        return ev

    def _advance(self) -> list[Event]:
        """Run the automatic steps until a player must act."""
        st = self.state
        ev: list[Event] = []
        for _ in range(1000):
            if st.pending is not None or st.phase == Phase.GAME_OVER:
                break
            if st.phase == Phase.INITIATIVE:
                ev += self._initiative()
            elif st.phase == Phase.CASUALTY:
                ev += combat.casualty_phase(st)
                if abilities.has_hooks("after_casualty"):
                    ev += abilities.apply("after_casualty", [], state=st, dice=self.dice,
                                          game=self)
                ev += self._begin(Phase.END_OF_TURN)
            elif st.phase == Phase.END_OF_TURN:
                ev += self._end_of_turn()
            else:
                break
        return ev

    def initiative_bonus(self, side: str) -> int:
        """Best initiative bonus of a non-disrupted commander of ``side`` on the map."""
        st = self.state
        best = 0
        for u in st.live_units(side):
            bonus = 0 if u.disrupted else (u.card.commander_bonus or 0)
            best = max(best, bonus)
        return best

    def _initiative(self) -> list[Event]:
        st = self.state
        ev: list[Event] = []
        bonus = {s: self.initiative_bonus(s) for s in ("Axis", "Allies")}
        for _ in range(1000):
            rolls = {}
            for s in ("Axis", "Allies"):
                rolls[s] = (self.dice.d6(), self.dice.d6(), bonus[s])
            tot = {s: sum(r) for s, r in rolls.items()}
            if tot["Axis"] != tot["Allies"]:
                winner = max(tot, key=tot.get)
            elif bonus["Axis"] != bonus["Allies"]:
                winner = max(bonus, key=bonus.get)
            else:
                winner = None
            ev.append(InitiativeRolled(rolls, winner))
            if winner:
                st.initiative_rolls = rolls
                st.pending = OrderChoice(winner, "initiative")
                return ev
        raise RuntimeError("initiative tied 1000 times")   # pragma: no cover

    def _end_of_turn(self) -> list[Event]:
        st = self.state
        ev: list[Event] = []
        outcome = self._victory(ev)
        ev.append(TurnEnded(st.turn))
        if outcome is not None:
            st.outcome = outcome
            st.phase = Phase.GAME_OVER
            ev.append(GameEnded(outcome))
            return ev
        st.turn += 1
        ev += self._begin(Phase.INITIATIVE)
        return ev

    def _victory(self, ev: list[Event]) -> Outcome | None:
        st = self.state
        turn = st.turn
        ctrl = st.objective_controller()
        if not st.live_units("Axis") and not st.live_units("Allies"):
            return Outcome(None, "both armies are destroyed")
        if st.scenario == "assault":
            if turn >= LAST_TURN:
                ev.append(ObjectiveControl(ctrl))
                if ctrl == st.attacker:
                    return Outcome(st.attacker, f"the attacker controls the objective at the "
                                                f"end of turn {turn}")
                return Outcome(st.defender, f"the attacker does not control the objective at "
                                            f"the end of turn {turn}")
        else:
            if turn >= STANDARD_VICTORY_TURN:
                ev.append(ObjectiveControl(ctrl))
                if ctrl is not None:
                    return Outcome(ctrl, f"controls the objective at the end of turn {turn}")
            if turn >= LAST_TURN:
                pts = {s: self.victory_points(s) for s in ("Axis", "Allies")}
                ev.append(PointsCounted(pts))
                if pts["Axis"] != pts["Allies"]:
                    w = max(pts, key=pts.get)
                    return Outcome(w, f"more points on the battle map at the end of turn "
                                      f"{turn} ({pts[w]} to {pts[other_side(w)]})")
        limit = st.options.get("turn_limit")
        if limit is not None and turn >= limit:
            return Outcome(None, f"turn limit {limit} reached")
        return None

    def victory_points(self, side: str) -> int:
        """Ruling 10: full card costs of the side's units on the map."""
        st = self.state
        total = 0
        for u in st.live_units(side):
            total += u.card.cost
        return total

    # --- copies, hashes -------------------------------------------------------------------------
    def copy(self) -> "Game":
        g = Game(self.state.copy(), self.dice.copy())
        g.history = list(self.history)
        g.origin = self.origin
        return g

    # --- undo (game.rules.undo) ---------------------------------------------------------------
    def undoable(self) -> list[Action]:
        """Actions of the current phase that may still be taken back: they rolled
        no dice and revealed nothing (game.rules.undo)."""
        from .undo import undoable
        return undoable(self)

    def undo(self, uid: str | None = None) -> list[Action]:
        """Take back ``uid``'s undoable actions (None: every undoable action of the
        phase) by replaying the history without them; returns what was taken back."""
        from .undo import undo
        return undo(self, uid)

    def state_hash(self) -> str:
        st = self.state

        def hx(h: Hex | None):
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
                                             m.road_bonus_left, [hx(h) for h in m.walked]],
            "units": [[u.uid, u.card.id, u.side, hx(u.hex), u.facing, u.disrupted, u.damaged,
                       list(u.pending), u.carrier, u.destroyed, u.acted, u.fired_defensively]
                      for u in sorted(st.units.values(), key=lambda x: x.uid)],
        }
        if st.marks:
            data["marks"] = repr(sorted(st.marks.items()))
        if st.road_bonus_used:              # only when set: older saves keep their hashes
            data["road_bonus_used"] = sorted(st.road_bonus_used)
        blob = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
        return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def new_game(battle_map: BattleMap, armies: dict[str, list[UnitCard]],
             scenario: str = "standard", dice: Dice | None = None,
             options: dict | None = None, coin_winner: str | None = None) -> Game:
    """Start a game at setup.  Units get ids ``axis-1..`` / ``allies-1..`` in army
    order.  Standard: the coin flip is rolled (or ``coin_winner``) and the winner
    chooses first or second player.  Assault: ``options["attacker"]`` (default:
    the army with more points, Axis on a tie) attacks; the defender chooses an end
    and the objective, and deploys first."""
    if scenario not in ("standard", "assault"):
        raise MalformedAction(f"unknown scenario '{scenario}' (standard or assault)")
    dice = dice if dice is not None else Dice(0)
    st = GameState(battle_map=battle_map, scenario=scenario, options=dict(options or {}))
    game = Game(st, dice)
    for side in ("Axis", "Allies"):
        for card in armies.get(side, []):
            game.add_unit(card, side)
    ev: list[Event] = []
    if scenario == "assault":
        attacker = st.options.get("attacker")
        if attacker is None:
            pts = {s: sum(c.cost for c in armies.get(s, [])) for s in ("Axis", "Allies")}
            attacker = "Allies" if pts["Allies"] > pts["Axis"] else "Axis"
        if attacker not in ("Axis", "Allies"):
            raise MalformedAction(f"unknown attacker side '{attacker}'")
        st.attacker = attacker
        st.first_player, st.second_player = other_side(attacker), attacker
        st.objective = None
        ev += game._begin(Phase.SETUP_END)
    else:
        if coin_winner is None:
            coin_winner = "Axis" if dice.d6() <= 3 else "Allies"
        elif coin_winner not in ("Axis", "Allies"):
            raise MalformedAction(f"unknown side '{coin_winner}'")
        ev.append(CoinFlipped(coin_winner))
        st.phase = Phase.SETUP_ORDER
        st.pending = OrderChoice(coin_winner, "coin flip")
    game.log.extend(ev)
    st.touch()
    game.origin = (st.copy(), dice.copy(), len(game.log))
    return game


# the special abilities register their specs and hooks (game.rules.abilities)
abilities.load()
