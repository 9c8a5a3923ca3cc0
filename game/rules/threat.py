"""Threat and hypothetical-attack queries (issue 14): what the AI (or a hint in
the UI) asks about positions a unit is *not* in yet.

Every number here comes from the rules' own code, asked on a private copy of
the game (:class:`Probe`): a unit is put where the question says, and the
rules' exact odds (:meth:`Game.odds`, so every ability's hooks count: Close
Assault, Hand to Hand, Armor-Piercing Rounds, Sideskirts, Coordinated Fire...)
or the rules' own movement and defensive-fire prompts answer.  Nothing here
restates a rule, and the caller's game is never changed.

* :func:`hypothetical_odds` - exact odds of an attack from any hex, at a target
  in any hex and facing (attack modes included).
* :func:`best_attack` - the attack mode with the best odds for that attack.
* :func:`threat_to` - which enemy units could attack a unit standing in a hex in
  their next phase (from where they are, or - with an attack that needs the
  target's hex, like Close Assault - by moving into it), each with its exact
  odds, and the exact chance that all of them together leave it disrupted,
  damaged or destroyed (hits add up across attackers, ruling 13: the chain of
  counters is followed through the rules' own odds, not re-derived).
* :func:`path_risk` - a move played out on a copy: the defensive fire it
  provokes (the rules' own prompts, the odds of each eligible shot, abilities
  included), the movement rolls on the way and where (and facing which way) the
  unit ends if one fails.
* :func:`victory_timing` - when objective control and points decide the game.
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Iterable, Iterator, TypedDict, cast

from .abilities.spec import lookup
from .combat import within_reach
from .dice import LoadedDice
from .errors import IllegalAction
from .hexes import Hex
from .odds import Odds
from .state import DAMAGED, DISRUPTED, DefensiveFirePrompt, Phase, other_side

if TYPE_CHECKING:                      # annotations only (the engine imports the rules)
    from .actions import Action, Move, PassDefensiveFire
    from .cards import UnitCard
    from .dice import Dice
    from .engine import Game
    from .movement import Reach
    from .state import GameState, Unit
    from typing_extensions import Unpack   # typing.Unpack needs 3.11; only mypy reads it

__all__ = ["Probe", "ThreatSource", "Threat", "DefensiveShot", "PathRisk", "VictoryTiming",
           "attack_modes", "hypothetical_odds", "best_attack", "threat_to", "path_risk",
           "victory_timing", "roll_chance", "severity", "counts_for_control"]

try:                                   # the attack modes the rules know (ability ids)
    from .ability_hooks import MODE_ABILITIES as _MODES
except ImportError:                    # pragma: no cover - the abilities package layout
    from .abilities import MODE_ABILITIES as _MODES  # type: ignore[attr-defined,no-redef]

def attack_modes(card: UnitCard) -> tuple[str, ...]:
    """``"normal"`` and the attack modes (ability ids) ``card`` has: the first edition's
    (Close Assault, Hand to Hand...) and those whose spec says so (Bombs, Rockets,
    Speed Boost: ``AbilitySpec.attack_mode``)."""
    extra = tuple(a.id for a in card.abilities if a.id not in _MODES
                  and (s := lookup(a.id)) is not None and s.attack_mode and s.implemented)
    return ("normal",) + tuple(m for m in _MODES if card.has(m)) + extra


def severity(o: Odds) -> float:
    """An order on outcomes: destroyed above damaged above disrupted (used to pick
    an attacker's best mode; the AI weighs outcomes with its own values)."""
    return o.p_destroyed + 0.5 * o.p_damaged + 0.1 * o.p_disrupted


def roll_chance(need: int) -> float:
    """Chance that one die shows ``need`` or more."""
    return max(0, min(6, 7 - need)) / 6


class Probe:
    """A private copy of a game to ask hypothetical questions on.  Build one per
    decision and reuse it: :meth:`placed` moves units for one question and puts
    them back."""

    def __init__(self, game: Game, reach_memo: dict[str, dict[Hex, Reach]] | None = None) -> None:
        """``reach_memo``: a dict the caller keeps while the position's units stay
        where they are, to share the movement searches between probes."""
        self.game = game.copy()
        self.state = self.game.state
        self._reach: dict[str, dict[Hex, Reach]] = reach_memo if reach_memo is not None else {}

    @contextmanager
    def placed(self, uid: str, hex: Hex | None = None, facing: int | None = None,
               pending: list[str] | None = None) -> Iterator[None]:
        u = self.state.units[uid]
        old = (u.hex, u.facing, u.pending, u.carrier)
        moved = hex is not None and hex != u.hex
        if hex is not None:
            u.hex = hex
            if moved:
                u.carrier = None
        if facing is not None:
            u.facing = facing
        if pending is not None:
            u.pending = list(pending)
        self.state.touch()
        try:
            yield
        finally:
            u.hex, u.facing, u.pending, u.carrier = old
            self.state.touch()

    def reachable(self, uid: str) -> dict[Hex, Reach]:
        """Where ``uid`` may move from where it is in its side's next movement
        phase (the rules' own search, asked with the copy put in that phase),
        computed once per probe."""
        r = self._reach.get(uid)
        if r is None:
            st = self.state
            u = st.units[uid]
            saved = (st.phase, st.first_player, st.second_player, st.pending, st.moving,
                     u.acted)
            try:
                st.phase = Phase.MOVEMENT_FIRST
                st.first_player, st.second_player = u.side, other_side(u.side)
                st.pending, st.moving, u.acted = None, None, False
                st.touch()
                r = self.game.reachable(uid) if u.on_map and not u.boarded else {}
            except IllegalAction:
                r = {}
            finally:
                (st.phase, st.first_player, st.second_player, st.pending, st.moving,
                 u.acted) = saved
                st.touch()
            self._reach[uid] = r
        return r

    def odds(self, attacker: str, target: str, mode: str = "normal", *,
             defensive: bool = False, at_hex: Hex | None = None) -> Odds:
        return self.game.odds(attacker, target, mode=mode, defensive=defensive, at_hex=at_hex)


def _probe(game: Game, probe: Probe | None) -> Probe:
    return probe if probe is not None else Probe(game)


def hypothetical_odds(game: Game, attacker: str, target: str, *, from_hex: Hex | None = None,
                      attacker_facing: int | None = None, target_hex: Hex | None = None,
                      target_facing: int | None = None, mode: str = "normal",
                      defensive: bool = False, probe: Probe | None = None) -> Odds:
    """Exact odds of ``attacker`` attacking ``target`` with the attacker in
    ``from_hex`` and the target in ``target_hex`` facing ``target_facing`` (each
    default: where it is now).  Raises :class:`IllegalAction` with the rules'
    reason when that attack would not be allowed (out of range, no line of
    sight, a mode that needs the target's hex...)."""
    p = _probe(game, probe)
    with p.placed(attacker, from_hex, attacker_facing):
        with p.placed(target, target_hex, target_facing):
            return p.odds(attacker, target, mode, defensive=defensive)


class Where(TypedDict, total=False):
    """Where the units of :func:`best_attack` stand (as :func:`hypothetical_odds`)."""
    from_hex: Hex | None
    attacker_facing: int | None
    target_hex: Hex | None
    target_facing: int | None
    defensive: bool


def best_attack(game: Game, attacker: str, target: str, *, probe: Probe | None = None,
                **where: Unpack[Where]) -> tuple[str, Odds] | None:
    """The attack mode (and its odds) with the best outcome for ``attacker``
    against ``target`` (``where``: as :func:`hypothetical_odds`), or None when no
    attack is allowed."""
    p = _probe(game, probe)
    best: tuple[str, Odds] | None = None
    for mode in attack_modes(p.state.units[attacker].card):
        try:
            o = hypothetical_odds(game, attacker, target, mode=mode, probe=p, **where)
        except IllegalAction:
            continue
        if best is None or severity(o) > severity(best[1]):
            best = (mode, o)
    return best


@dataclass(frozen=True)
class ThreatSource:
    attacker: str               # the enemy unit
    mode: str                   # the attack mode it would use ("normal", "close_assault"...)
    odds: Odds                  # exact odds of its attack on the unit alone
    from_hex: Hex               # where it would attack from
    moves: bool                 # it has to move there first (its movement phase)
    # later edition: the chance that Antiair disrupts this Aircraft when it is placed in
    # ``from_hex`` (ruling L4); ``odds`` already weigh it in (a disrupted Aircraft still
    # strikes, with the disruption penalty)
    p_antiair: float = 0.0


@dataclass(frozen=True)
class Threat:
    """What the enemy could do to ``target`` standing in ``hex``: every source,
    and the exact chance of the worst counter if all of them attack it (hits add
    up across attackers; each attack's odds come from the rules)."""
    target: str
    hex: Hex
    facing: int | None
    sources: tuple[ThreatSource, ...]
    p_none: float
    p_disrupted: float
    p_damaged: float
    p_destroyed: float

    @property
    def p_hit(self) -> float:
        """Chance of at least one counter."""
        return 1.0 - self.p_none

    @property
    def p_loss(self) -> float:
        """Chance of being damaged or destroyed."""
        return self.p_damaged + self.p_destroyed

    def strongest(self) -> ThreatSource | None:
        return max(self.sources, key=lambda s: severity(s.odds), default=None)


def _canonical(vehicle: bool, rank: int) -> list[str]:
    if rank == 0:
        return []
    if rank == 1 or not vehicle:
        return [DISRUPTED]
    return [DISRUPTED, DAMAGED]


def _combine(p: Probe, target: str, t_hex: Hex, t_facing: int | None,
             sources: Iterable[ThreatSource], start_rank: int) -> list[float]:
    """Distribution of the target's worst counter after every source attacks in
    turn: each step asks the rules' odds again with the counters so far."""
    tu = p.state.units[target]
    dist = [0.0, 0.0, 0.0, 0.0]
    dist[start_rank] = 1.0
    for s in sources:
        new = [0.0, 0.0, 0.0, 0.0]
        new[3] += dist[3]
        for rank in (0, 1, 2):
            q = dist[rank]
            if q <= 0.0:
                continue
            if rank == 2 and not tu.is_vehicle:
                new[2] += q
                continue
            if rank == 0:
                o = s.odds
            else:
                try:
                    with p.placed(s.attacker, s.from_hex):
                        with p.placed(target, t_hex, t_facing, _canonical(tu.is_vehicle, rank)):
                            o = p.odds(s.attacker, target, s.mode)
                            if s.p_antiair > 0:
                                o = _mixed(o, _odds_disrupted(p, s.attacker, target, s.mode),
                                           s.p_antiair)
                except IllegalAction:          # pragma: no cover - it was allowed a moment ago
                    new[rank] += q
                    continue
            new[0] += q * o.p_none
            new[1] += q * o.p_disrupted
            new[2] += q * o.p_damaged
            new[3] += q * o.p_destroyed
        dist = new
    return dist


def threat_to(game: Game, uid: str, hex: Hex | None = None, facing: int | None = None, *,
              movers: bool = True, attackers: Iterable[str] | None = None,
              probe: Probe | None = None, combine: int | None = None) -> Threat:
    """Which enemy units could attack ``uid`` standing in ``hex`` facing
    ``facing`` (default: where it is) in their next phase, and with what exact
    chance.  Each enemy attacks from where it stands, with its best mode; with
    ``movers`` an enemy that has an attack needing the target's own hex (Close
    Assault against a Vehicle, Hand to Hand against Soldiers) and could move into
    ``hex`` is counted attacking from there.  ``attackers`` limits the enemies
    asked.  ``combine`` (default: all) is how many of the strongest sources are
    counted together in the combined chances (every source is listed).  The
    unit's face-down counters of this phase are not counted (they are resolved
    before the enemy's next phase)."""
    p = _probe(game, probe)
    st = p.state
    u = st.units[uid]
    h = hex if hex is not None else u.hex
    if h is None:
        raise IllegalAction(f"{u.name} is not on the battle map")
    f = facing if facing is not None else u.facing
    seen = p.game.visible_from(h)
    allowed = set(attackers) if attackers is not None else None
    sources: list[ThreatSource] = []
    with p.placed(uid, h, f, []):
        for e in list(st.units.values()):
            if e.side == u.side or not e.on_map or (allowed is not None and e.uid not in allowed):
                continue
            eh = e.hex
            if eh is None:                 # pragma: no cover - on the map means in a hex
                continue
            here = None
            d = eh.distance(h)
            if within_reach(st, e, u, eh, h, eh in seen):    # sight: both ways
                here = best_attack(game, e.uid, uid, probe=p)
            there = None
            if movers and d > 0 and any(m != "normal" for m in attack_modes(e.card)):
                r = p.reachable(e.uid).get(h)
                if r is not None and r.stops:
                    there = best_attack(game, e.uid, uid, probe=p, from_hex=h)
            if there is not None and (here is None or severity(there[1]) > severity(here[1])):
                sources.append(ThreatSource(e.uid, there[0], there[1], h, True))
            elif here is not None:
                sources.append(ThreatSource(e.uid, here[0], here[1], eh, False))
        for e in _flyers(st, u.side, allowed):
            # later edition: an enemy Aircraft off the map is placed where it likes in its
            # flight phase (ruling L3): it strikes from the unit's own hex or a neighbour,
            # after the Antiair reaching that hex (L4) has fired at it
            src = _flyer_source(p, e.uid, uid, h)
            if src is not None:
                sources.append(src)
        sources.sort(key=lambda s: -severity(s.odds))
        dist = _combine(p, uid, h, f, sources if combine is None else sources[:combine], 0)
    return Threat(uid, h, facing, tuple(sources), *dist)


def _odds_disrupted(p: Probe, attacker: str, target: str, mode: str) -> Odds:
    """The odds of ``attacker``'s attack where the probe has it, with a face-up Disrupted
    counter (what Antiair leaves on an Aircraft)."""
    a = p.state.units[attacker]
    was = a.disrupted
    a.disrupted = True
    p.state.touch()
    try:
        return p.odds(attacker, target, mode)
    finally:
        a.disrupted = was
        p.state.touch()


def _mixed(clear: Odds, disrupted: Odds, p_dis: float) -> Odds:
    """``clear`` with probability 1 - ``p_dis``, ``disrupted`` with ``p_dis``."""
    def mix(x: float, y: float) -> float:
        return (1.0 - p_dis) * x + p_dis * y
    hits = tuple(mix(x, y) for x, y in zip(clear.p_hits, disrupted.p_hits)) \
        if len(clear.p_hits) == len(disrupted.p_hits) else clear.p_hits
    return replace(clear, p_none=mix(clear.p_none, disrupted.p_none),
                   p_disrupted=mix(clear.p_disrupted, disrupted.p_disrupted),
                   p_damaged=mix(clear.p_damaged, disrupted.p_damaged),
                   p_destroyed=mix(clear.p_destroyed, disrupted.p_destroyed),
                   p_stopped=mix(clear.p_stopped, disrupted.p_stopped), p_hits=hits)


def _flyer_source(p: Probe, flyer: str, target: str, h: Hex) -> ThreatSource | None:
    """An enemy Aircraft striking ``target`` in ``h`` (ruling L3: placed where it likes),
    from ``h`` itself or - when Antiair reaches ``h``, or the rules allow no strike from
    there - from whichever of ``h`` and its neighbours (still short range) makes the strike
    worst for the target once the Antiair reaching that hex has fired at it (ruling L4:
    the rules' own placement risk, asked with the target in ``h``).
    Strikes from farther (medium range, fewer dice) are not counted.  None: it can't
    attack the target from any of those hexes."""
    best = _strike_from(p, flyer, target, h)
    if best is not None and best.p_antiair == 0.0:
        return best
    bm = p.state.battle_map
    for n in h.neighbors():
        if not bm.is_playable(n):
            continue
        got = _strike_from(p, flyer, target, n)
        if got is not None and (best is None or severity(got.odds) > severity(best.odds)):
            best = got
    return best


def _strike_from(p: Probe, flyer: str, target: str, at: Hex) -> ThreatSource | None:
    """The flyer's best strike at ``target`` placed in ``at``, weighed by the Antiair
    that fires at it there; None when the rules allow no attack from there."""
    from .later.flight import placement_risk
    over = best_attack(p.game, flyer, target, probe=p, from_hex=at)
    if over is None:
        return None
    mode, odds = over
    p_aa = placement_risk(p.game, flyer, at, private=True).p_disrupted
    if p_aa > 0:
        try:
            with p.placed(flyer, at):
                odds = _mixed(odds, _odds_disrupted(p, flyer, target, mode), p_aa)
        except IllegalAction:          # pragma: no cover - the attack was allowed just now
            p_aa = 0.0
    return ThreatSource(flyer, mode, odds, at, True, p_aa)


def _flyers(st: GameState, side: str, allowed: set[str] | None) -> list[Unit]:
    """The enemy Aircraft (of ``side``'s enemy) off the map that may fly in their next
    flight phase: not destroyed, not carrying a face-up Disrupted counter (ruling L3)."""
    if st.options.get("edition") != "later":
        return []
    return [e for e in st.units.values() if e.side != side and e.card.is_aircraft
            and e.hex is None and not e.destroyed and not e.disrupted
            and (allowed is None or e.uid in allowed)]


# --- moves played out on a copy ----------------------------------------------------------------
@dataclass(frozen=True)
class DefensiveShot:
    firer: str
    stage: str                  # "leave" / "enter"
    at_hex: Hex
    odds: Odds                  # exact odds of the defensive shot (p_stopped)


@dataclass(frozen=True)
class PathRisk:
    """A move, as the rules play it out: every defensive shot it offers the
    enemy (each eligible firer at each stage), the movement rolls, and where the
    unit ends if a roll fails."""
    shots: tuple[DefensiveShot, ...]
    p_stopped: float            # some enemy stops it (every firer at its best stage)
    p_rolls_ok: float           # every movement roll on the way succeeds
    fail_ends: tuple[tuple[Hex, int, float], ...]   # (hex, facing, chance) per failed roll
    end_hex: Hex | None         # where it ends when nothing stops it
    end_facing: int | None

    def best_shot_of(self, firer: str) -> DefensiveShot | None:
        return max((s for s in self.shots if s.firer == firer),
                   key=lambda s: s.odds.p_stopped, default=None)


def _play(game: Game, move: Action, dice: Dice) -> tuple[Game, list[DefensiveShot]]:
    """Apply ``move`` on a copy with ``dice``, holding every defensive shot and
    recording what each eligible firer could have done."""
    g = game.copy()
    g.dice = dice
    shots: list[DefensiveShot] = []
    g.apply(move)
    n = 0
    while isinstance(g.state.pending, DefensiveFirePrompt) and n < 64:
        pr = g.state.pending
        at = pr.from_hex if pr.stage == "leave" else pr.to_hex
        for fid in pr.eligible:
            try:
                o = g.odds(fid, pr.mover, defensive=True, at_hex=at)
            except IllegalAction:
                continue
            shots.append(DefensiveShot(fid, pr.stage, at, o))
        g.apply(_pass(g))
        n += 1
    return g, shots


def _pass(g: Game) -> PassDefensiveFire:
    from .actions import PassDefensiveFire
    # a defensive-fire prompt is pending, so some side is to act
    return PassDefensiveFire(cast(str, g.state.to_act))


def path_risk(game: Game, move: Action) -> PathRisk:
    """Play ``move`` (a legal :class:`Move`) out on copies of the game: once with
    every movement roll succeeding (the defensive shots it offers on the way),
    and once per movement roll with that roll failing (where the unit ends)."""
    from .actions import Move
    assert isinstance(move, Move)
    uid = move.uid
    reach = game.reachable(uid).get(move.path[-1]) if move.path else None
    rolls = tuple(reach.rolls) if reach is not None and reach.path == move.path else ()
    g, shots = _play(game, move, LoadedDice([6] * 64))
    best: dict[str, float] = {}
    for s in shots:
        best[s.firer] = max(best.get(s.firer, 0.0), s.odds.p_stopped)
    miss = 1.0
    for v in best.values():
        miss *= 1.0 - v
    end = g.state.units[uid]
    p_ok = 1.0
    fails: list[tuple[Hex, int, float]] = []
    # Lead the Way (ruling 29): the first failed roll of the turn is rolled again;
    # ``spent``: the chance all rolls so far were made with that reroll used up
    from .abilities.roster_final import lead_the_way_ready
    lead = lead_the_way_ready(game.state, game.state.units[uid])
    spent = 0.0
    for i, r in enumerate(rolls):
        c = roll_chance(r.need)
        if c < 1.0:
            p_fail = p_ok * (1.0 - c) ** 2 + spent * (1.0 - c) if lead else p_ok * (1.0 - c)
            try:
                gf, _ = _play(game, move, LoadedDice([6] * i + ([1, 1] if lead else [1])
                                                     + [6] * 64))
                fu = gf.state.units[uid]
                # a unit stopped by a failed movement roll stays on the map
                fails.append((cast(Hex, fu.hex), fu.facing, p_fail))
            except (IllegalAction, RuntimeError):   # pragma: no cover - dice ran out
                fails.append((r.from_hex, game.state.units[uid].facing, p_fail))
        if lead:
            p_ok, spent = p_ok * c, spent * c + p_ok * (1.0 - c) * c
        else:
            p_ok *= c
    return PathRisk(tuple(shots), 1.0 - miss, p_ok + spent, tuple(fails), end.hex,
                    end.facing)


# --- when the objective decides ----------------------------------------------------------------
@dataclass(frozen=True)
class VictoryTiming:
    scenario: str
    control_from: int           # objective control wins at the end of this turn (or later)
    last_turn: int              # points (Standard) / the attacker's deadline (Assault)
    turn: int

    @property
    def turns_to_control(self) -> int:
        """End-of-turn checks still to come before control first counts (0: this turn)."""
        return max(0, self.control_from - max(1, self.turn))

    @property
    def control_counts_now(self) -> bool:
        return self.turn >= self.control_from

    @property
    def points_count_now(self) -> bool:
        """The points on the map decide at the end of this turn unless someone controls
        the objective (ruling 10: Standard scenario, the last turn or later)."""
        return self.scenario == "standard" and self.turn >= self.last_turn


def victory_timing(state: GameState) -> VictoryTiming:
    """When control of the objective and points decide (rulings 9-11)."""
    from .engine import LAST_TURN, STANDARD_VICTORY_TURN
    if state.scenario == "assault":
        return VictoryTiming("assault", LAST_TURN, LAST_TURN, state.turn)
    return VictoryTiming("standard", STANDARD_VICTORY_TURN, LAST_TURN, state.turn)


def counts_for_control(game: Game, uid: str, hex: Hex, probe: Probe | None = None) -> bool:
    """Whether ``uid`` standing in ``hex`` is near enough to the objective to count
    for its control (the rules' own control test, on a copy with only this unit)."""
    p = _probe(game, probe)
    st = p.state
    if st.objective is None:
        return False
    others = [x for x in st.units.values() if x.uid != uid and x.on_map]
    saved = [(x, x.destroyed) for x in others]
    try:
        for x in others:
            x.destroyed = True
        with p.placed(uid, hex):
            return st.objective_controller() == st.units[uid].side
    finally:
        for x, d in saved:
            x.destroyed = d
        st.touch()
