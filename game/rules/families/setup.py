"""Set-up actions (rulebook: Getting Started; Scenarios; ruling 8): who goes first
(also each turn's initiative winner), the ends, the Assault objective, deployment."""
from __future__ import annotations

import weakref
from typing import Any, Iterable, TYPE_CHECKING

from .. import abilities, movement, phases
from ..abilities.roster_reserves import reserve_kind
from ..actions import Action, ChooseEnd, ChooseObjective, ChooseOrder, Deploy, Undeploy
from ..board import ENDS, other_end
from ..events import CoinFlipped, EndChosen, Event, ObjectiveChosen, OrderChosen, UnitDeployed, UnitUndeployed
from ..errors import MalformedAction
from ..hexes import Hex, hex_label
from ..cards import UnitCard
from ..state import GameState, OrderChoice, Phase, Unit, other_side
from . import ActionRule, register_rule, unit_of
from .transport import board_problem

if TYPE_CHECKING:
    from ..engine import Game

__all__ = ["deployment_zone", "end_zone", "deploy_problem", "start", "held_in_reserve"]


def start(game: "Game", coin_winner: str | None) -> list[Event]:
    """The first set-up step of a new game (rulebook: Getting Started; Scenarios).
    Standard: the coin flip (rolled, or ``coin_winner``) - its winner chooses first or
    second.  Assault: ``options["attacker"]`` (default: the army with more points, Axis
    on a tie) attacks; the defender chooses an end, then the objective."""
    st = game.state
    if st.scenario == "assault":
        attacker = st.options.get("attacker")
        if attacker is None:
            pts = {s: sum(u.card.cost for u in st.units_of(s)) for s in ("Axis", "Allies")}
            attacker = "Allies" if pts["Allies"] > pts["Axis"] else "Axis"
        if attacker not in ("Axis", "Allies"):
            raise MalformedAction(f"unknown attacker side '{attacker}'")
        st.attacker = attacker
        st.first_player, st.second_player = other_side(attacker), attacker
        st.objective = None
        return phases.enter(game, Phase.SETUP_END)
    if coin_winner is None:
        coin_winner = "Axis" if game.dice.d6() <= 3 else "Allies"
    elif coin_winner not in ("Axis", "Allies"):
        raise MalformedAction(f"unknown side '{coin_winner}'")
    st.phase = Phase.SETUP_ORDER
    st.pending = OrderChoice(coin_winner, "coin flip")
    return [CoinFlipped(coin_winner)]

_ZONES: "weakref.WeakKeyDictionary[Any, Any]" = weakref.WeakKeyDictionary()
#: whole hexes from a player's end it deploys in, per edition (ruling 8; ruling L13: three)
DEPLOY_DEPTH = {"first": 5, "later": 3}
_DEPTH_WORDS = {3: "three", 5: "five"}


def deployment_zone(state: GameState, side: str, unit: Unit | None = None) -> frozenset[Hex]:
    """Where ``side`` may deploy (ruling 8; Assault: the defender's two sections)."""
    end = state.ends.get(side)
    if end is None:
        return frozenset()
    zone = end_zone(state, side, end)
    if unit is not None and abilities.relevant(("deployment_zone",), unit):
        # Gliderborne, Partisan: where this unit may also deploy
        zone = frozenset(abilities.apply("deployment_zone", zone, state=state, unit=unit,
                                         side=side))
    return zone


def end_zone(state: GameState, side: str, end: str) -> frozenset[Hex]:
    """Where ``side`` would deploy from ``end`` (ruling 8: the edition's depth; Assault:
    the defender's two sections), before any ability - what an end is worth to a player
    choosing it."""
    bm = state.battle_map
    half = state.scenario == "assault" and side == state.defender
    depth = DEPLOY_DEPTH.get(state.edition, 5)
    per_map = _ZONES.get(bm)
    if per_map is None:
        per_map = _ZONES[bm] = {}
    zone = per_map.get((end, half, depth))
    if zone is None:
        zone = per_map[(end, half, depth)] = (bm.half_of(end) if half
                                              else bm.deployment_zone(end, depth))
    return zone


_SORTED: "weakref.WeakKeyDictionary[Any, Any]" = weakref.WeakKeyDictionary()


def _sorted_zone(state: GameState, side: str, unit: Unit) -> list[Hex]:
    """deployment_zone in listing order (row by row), cached per map and zone."""
    zone = deployment_zone(state, side, unit)
    per_map = _SORTED.get(state.battle_map)
    if per_map is None:
        per_map = _SORTED[state.battle_map] = {}
    got = per_map.get(zone)
    if got is None:
        got = per_map[zone] = sorted(zone, key=lambda x: (x.r, x.x2))
    return list(got)


def _open_memo(bm: Any) -> dict[tuple[Any, ...], tuple[Hex, ...]]:
    """Per map: (zone, kind of unit, closed hexes) -> the zone's hexes open to it, in
    listing order (a cache of DeployRule.enumerate's filter)."""
    memo: dict[tuple[Any, ...], tuple[Hex, ...]] | None = bm.__dict__.get("_deploy_open")
    if memo is None:
        memo = bm.__dict__["_deploy_open"] = {}
    return memo


# (id(open hexes), side, uid, facing) -> (the open hexes, the Deploy actions listed)
_DEPLOYS: dict[tuple[Any, ...], tuple[tuple[Hex, ...], list[Action]]] = {}
# (side, uid, q, r, facing) -> its Deploy: one object per placement, whatever open hexes
# list it (the keys hold no Hex, so the collector untracks them)
_DEPLOY_ONE: dict[tuple[str, str, int, int, int], Deploy] = {}


def _deploy(side: str, uid: str, h: Hex, facing: int) -> Deploy:
    key = (side, uid, h.q, h.r, facing)
    got = _DEPLOY_ONE.get(key)
    if got is None:
        if len(_DEPLOY_ONE) > 65536:
            _DEPLOY_ONE.clear()
        got = _DEPLOY_ONE[key] = Deploy(side, uid, h, facing)
    return got


def held_in_reserve(u: Unit) -> str | None:
    """Ruling 21: why ``u`` is not deployed (a Paratrooper or Hero waits in reserve)."""
    kind = reserve_kind(u.card)
    if kind is None:
        return None
    what = "a Paratrooper" if kind == "paratrooper" else "a Hero"
    when = ("it drops in at the end of one of your movement phases" if kind == "paratrooper"
            else "it enters at the start of one of your movement phases, where a Soldier of "
                 "its nation is")
    return f"{u.name} is {what}: it is not deployed but waits off the map; {when} (ruling 21)"


def deploy_problem(state: GameState, u: Unit, h: Hex, facing: int,
                   carrier: str | None) -> str | None:
    if not isinstance(facing, int) or not 0 <= facing <= 5:
        raise MalformedAction(f"facing must be 0-5, not {facing!r}")
    if u.card.is_aircraft:
        return (f"{u.name} is an Aircraft: it is not deployed, it flies in during your "
                f"flight phase")
    held = held_in_reserve(u)
    if held is not None:
        return held
    bm = state.battle_map
    if not bm.is_playable(h):
        return f"{hex_label(h)} is not a playable hex (half-hexes don't count)"
    if h not in deployment_zone(state, u.side, u):
        if state.scenario == "assault" and u.side == state.defender:
            return f"{hex_label(h)} is not on your half of the battle map"
        depth = DEPLOY_DEPTH.get(state.edition, 5)
        return (f"{hex_label(h)} is not within {_DEPTH_WORDS.get(depth, depth)} hexes of your "
                f"end (ruling 8)")
    if carrier is not None:
        c = state.units.get(carrier)
        if c is None:
            raise MalformedAction(f"there is no unit '{carrier}'")
        if c.hex != h:
            return f"{c.name} is not deployed in {hex_label(h)}"
        return board_problem(state, u, c)
    t = bm.terrain_at(h)
    if movement.impassable(u, t):
        kind = "Vehicles" if u.is_vehicle else "Soldiers"
        return f"{kind} can't enter {t.value}, so they can't deploy there"
    return movement.stop_problem(state, u, h)


class ChooseOrderRule(ActionRule):
    kind = ChooseOrder

    def enumerate(self, game: "Game", side: str) -> list[Action]:
        return [ChooseOrder(side, True), ChooseOrder(side, False)]

    def problem(self, game: "Game", action: ChooseOrder) -> str | None:
        if not isinstance(game.state.pending, OrderChoice):
            return "nobody is choosing first or second now"
        return None

    def perform(self, game: "Game", a: ChooseOrder) -> list[Event]:
        st = game.state
        st.pending = None
        st.first_player = a.side if a.go_first else other_side(a.side)
        st.second_player = other_side(st.first_player)
        return [OrderChosen(a.side, a.go_first)] + phases.end_phase(game)


class ChooseEndRule(ActionRule):
    kind = ChooseEnd

    def enumerate(self, game: "Game", side: str) -> list[Action]:
        return [ChooseEnd(side, e) for e in ENDS]

    def problem(self, game: "Game", action: ChooseEnd) -> str | None:
        if game.state.phase != Phase.SETUP_END:
            return "ends are chosen only during setup"
        if action.end not in ENDS:
            return f"'{action.end}' is not an end (left or right)"
        return None

    def perform(self, game: "Game", a: ChooseEnd) -> list[Event]:
        st = game.state
        st.ends = {a.side: a.end, other_side(a.side): other_end(a.end)}
        return [EndChosen(a.side, a.end)] + phases.end_phase(game)


class ChooseObjectiveRule(ActionRule):
    kind = ChooseObjective

    def enumerate(self, game: "Game", side: str) -> list[Action]:
        bm = game.state.battle_map
        return [ChooseObjective(side, h) for h in bm.hexes if not bm.is_edge_adjacent(h)]

    def problem(self, game: "Game", action: ChooseObjective) -> str | None:
        st = game.state
        if st.phase != Phase.SETUP_OBJECTIVE:
            return "the objective is chosen only during the Assault scenario's setup"
        h = action.hex
        if not st.battle_map.is_playable(h):
            return f"{hex_label(h)} is not a playable hex"
        if st.battle_map.is_edge_adjacent(h):
            return (f"{hex_label(h)} is next to the map edge or a half-hex; the objective "
                    f"may not be")
        return None

    def perform(self, game: "Game", a: ChooseObjective) -> list[Event]:
        game.state.objective = a.hex
        return [ObjectiveChosen(a.side, a.hex)] + phases.end_phase(game)


class DeployRule(ActionRule):
    """Deploy and Undeploy (listed together, unit by unit)."""

    kind = Deploy

    def enumerate(self, game: "Game", side: str) -> list[Action]:
        st = game.state
        out: list[Action] = []
        facing = 0 if st.ends.get(side) == "left" else 3     # toward the enemy end
        mine = st.units_of(side)
        bm = st.battle_map
        occupied = None
        # (Vehicle?, stacks as one?, zone) -> hexes
        open_for: dict[tuple[bool, bool, frozenset[Hex]], tuple[Hex, ...]] = {}
        for u in mine:
            if u.hex is not None:
                out.append(Undeploy(side, u.uid))
                continue
            if u.card.is_aircraft:          # ruling L15: Aircraft are not deployed
                continue
            if reserve_kind(u.card) is not None:    # ruling 21: nor are reserves
                continue
            if occupied is None:
                # an undeployed unit counts nowhere: one stacking table serves them all
                occupied = movement.stacking_table(st)
            zone = deployment_zone(st, side, u)
            kind = (u.is_vehicle, movement.counts_as_vehicle(u), zone)   # Large stacks as a Vehicle
            hexes = open_for.get(kind)
            if hexes is None:
                # deploy_problem's rules, with the occupancy counted once per kind of unit
                # (the hexes stacking closes to it: movement.blocked_hexes)
                closed = movement.blocked_hexes(st, u, occupied) & zone
                memo = _open_memo(bm)
                mkey = (kind, closed)
                hexes = memo.get(mkey)
                if hexes is None:
                    if len(memo) > 1024:
                        memo.clear()
                    hexes = memo[mkey] = tuple(
                        h for h in _sorted_zone(st, side, u)
                        if h in bm.terrain and not movement.impassable(u, bm.terrain[h])
                        and h not in closed)
                open_for[kind] = hexes
            dkey = (id(hexes), side, u.uid, facing)
            got = _DEPLOYS.get(dkey)
            if got is None or got[0] is not hexes:
                if len(_DEPLOYS) > 4096:
                    _DEPLOYS.clear()
                got = _DEPLOYS[dkey] = (hexes, [_deploy(side, u.uid, h, facing) for h in hexes])
            out.extend(got[1])
            if u.is_soldier:
                for c in mine:
                    if c.hex is not None and c.is_vehicle and \
                            deploy_problem(st, u, c.hex, facing, c.uid) is None:
                        out.append(Deploy(side, u.uid, c.hex, facing, c.uid))
        return out

    def problem(self, game: "Game", action: Deploy) -> str | None:
        if not game.state.phase.is_deploy:
            return "units are deployed only during deployment"
        u = unit_of(game, action)
        if u.hex is not None:
            return f"{u.name} is already deployed (take it back first)"
        return deploy_problem(game.state, u, action.hex, action.facing, action.carrier)

    def perform(self, game: "Game", a: Deploy) -> list[Event]:
        st = game.state
        u = st.units[a.uid]
        u.hex = a.hex
        u.facing = a.facing
        u.carrier = a.carrier
        return [UnitDeployed(u.uid, a.hex, a.facing, a.carrier,
                             text=f"{u.name} deploys in {hex_label(a.hex)}"
                                  + (f" aboard {st.units[a.carrier].name}."
                                     if a.carrier else "."))]


class UndeployRule(ActionRule):
    kind = Undeploy

    def problem(self, game: "Game", action: Undeploy) -> str | None:
        if not game.state.phase.is_deploy:
            return "units are deployed only during deployment"
        u = unit_of(game, action)
        return None if u.hex is not None else f"{u.name} is not deployed"

    def perform(self, game: "Game", a: Undeploy) -> list[Event]:
        st = game.state
        u = st.units[a.uid]
        ev: list[Event] = []
        for p in st.passengers(u.uid):
            p.hex, p.carrier = None, None
            ev.append(UnitUndeployed(p.uid, text=f"{p.name} is taken back off the map."))
        u.hex, u.carrier = None, None
        ev.append(UnitUndeployed(u.uid, text=f"{u.name} is taken back off the map."))
        return ev


for _r in (ChooseOrderRule(), ChooseEndRule(), ChooseObjectiveRule(), DeployRule(),
           UndeployRule()):
    register_rule(_r)


def add_unit(state: GameState, card: UnitCard, side: str | None = None, hex: Hex | None = None,
             facing: int = 0, *, uid: str | None = None, disrupted: bool = False,
             damaged: bool = False, pending: Iterable[str] = (), carrier: str | None = None,
             acted: bool = False, fired_defensively: bool = False) -> Unit:
    """Put a unit into ``state`` (tests, situations, previews; ``Game.add_unit``).
    ``uid`` defaults to ``"axis-N"`` / ``"allies-N"`` in order; a unit given a
    ``carrier`` takes its hex."""
    side = side or card.side
    if side not in ("Axis", "Allies"):
        raise MalformedAction(f"unknown side '{side}'")
    if uid is None:
        prefix = side.lower()
        n = sum(1 for u in state.units.values() if u.side == side) + 1
        while f"{prefix}-{n}" in state.units:
            n += 1
        uid = f"{prefix}-{n}"
    if uid in state.units:
        raise MalformedAction(f"there is already a unit '{uid}'")
    if carrier is not None:
        hex = state.units[carrier].hex
    unit = Unit(uid=uid, card=card, side=side, hex=hex, facing=facing % 6,
                disrupted=disrupted, damaged=damaged, pending=list(pending),
                carrier=carrier, acted=acted, fired_defensively=fired_defensively)
    state.units[uid] = unit
    state.touch()
    return unit
