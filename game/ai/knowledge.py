"""What the AI players know about a position, asked of the rules: the exact odds
of attacks that can be made now (``Game.odds``), and for positions a unit is not
in yet the rules' hypothetical queries (``game.rules.threat``: the threat to a
hex with every enemy's exact odds, abilities included; the odds of an attack
from any hex; a move played out on a copy; the victory timing).  The AI keeps
no copy of a rule: what is here are the AI's own values (what a counter on a
unit is worth, how urgent the objective is) and memos of the rules' answers.

Nothing here changes a game.
"""
from __future__ import annotations

from game.rules.combat import within_reach
from game.rules.engine import facing_toward
from game.rules.hexes import Hex
from game.rules.state import DAMAGED, DESTROYED, DISRUPTED, GameState, Unit, other_side
from game.rules.threat import Probe, attack_modes as _rules_modes, best_attack, \
    counts_for_control, threat_to, victory_timing

__all__ = ["View", "dist", "attack_options", "attack_modes", "unit_value", "outcome_worth",
           "attack_gain", "threat_cached", "expected_loss", "best_facing",
           "facing_toward", "control_urgency", "percent", "front_word", "enemies", "pct_damage",
           "activated_unit", "extra_actions_of", "has_ability", "enemy_signature",
           "side_has_control_unit", "control_hexes"]


def enemies(state: GameState, side: str) -> list[Unit]:
    """Enemy units on the map that can be attacked (not aboard a transport)."""
    return [u for u in state.units.values()
            if u.side != side and u.on_map and u.carrier is None]


def unit_value(state: GameState, u: Unit) -> float:
    """What a unit is worth to its side, in points: its card cost plus what it
    carries; a damaged Vehicle is worth less (it is slower and weaker)."""
    v = float(u.card.cost)
    if u.damaged:
        v *= 0.7
    for p in state.passengers(u.uid):
        v += p.card.cost
    return v


# worth of the worst face-down counter on a target, as a share of its value
_WORTH_SOLDIER = {0: 0.0, 1: 0.18, 2: 1.0, 3: 1.0}
_WORTH_VEHICLE = {0: 0.0, 1: 0.18, 2: 0.5, 3: 1.0}
_RANK = {DISRUPTED: 1, DAMAGED: 2, DESTROYED: 3}


def outcome_worth(u: Unit, rank: int) -> float:
    """Share of a unit's value an opponent gains when its worst counter is ``rank``
    (0 none, 1 disrupted, 2 damaged, 3 destroyed)."""
    if u.is_vehicle:
        if u.damaged and rank >= 2:
            return 1.0
        return _WORTH_VEHICLE[rank]
    return _WORTH_SOLDIER[rank]


def attack_gain(state: GameState, target: Unit, odds, value: float | None = None) -> float:
    """Expected points an attack with ``odds`` (engine odds, which already count the
    target's face-down counters) adds over what the target carries now."""
    value = unit_value(state, target) if value is None else value
    base = max((_RANK.get(c, 0) for c in target.pending), default=0)
    now = outcome_worth(target, base)
    after = (odds.p_none * outcome_worth(target, 0) + odds.p_disrupted * outcome_worth(target, 1)
             + odds.p_damaged * outcome_worth(target, 2)
             + odds.p_destroyed * outcome_worth(target, 3))
    if base:
        # odds report the worst counter after the attack: never below what it has
        after = max(after, now)
    return value * (after - now)


def pct_damage(odds, target: Unit) -> tuple[float, str]:
    """The chance worth quoting in a log line, and its words."""
    if target.is_vehicle:
        return odds.p_damaged + odds.p_destroyed, "to damage or destroy"
    return odds.p_destroyed + odds.p_damaged, "to destroy"


def percent(p: float) -> str:
    return f"{round(100 * p)}%"


def front_word(odds) -> str:
    if odds.front is None:
        return ""
    return " from the front" if odds.front else " from the rear"


def enemy_signature(state: GameState, side: str) -> tuple:
    """Everything about the enemy that the threat to ``side``'s units depends on."""
    return (state.turn, tuple((e.uid, e.hex, e.facing, e.carrier, e.disrupted, e.damaged,
                               e.destroyed) for e in state.units.values() if e.side != side))


_THREAT_CACHE: dict = {}
_REACH_MEMO: dict = {}
SHOT_TARGETS = 4    # the nearest enemies in sight a unit's next shot is weighed against
COMBINE = 2         # the strongest enemies counted together: the rest have other targets
_SHOT_CACHE: dict = {}


def _unit_key(u: Unit) -> tuple:
    """What the rules' odds against (or by) a unit depend on, besides where it is:
    units of the same card in the same face-up state share their numbers."""
    return (u.card.id, u.disrupted, u.damaged, u.side)


def threat_cached(game, u: Unit, h: Hex, facing: int | None = None, *, probe=None,
                  movers: bool = True):
    """:func:`game.rules.threat.threat_to`, memoised while the enemy stays where it is."""
    st = game.state
    key = (enemy_signature(st, u.side), _unit_key(u), h, facing if u.is_vehicle else None, movers)
    v = _THREAT_CACHE.get(key)
    if v is None:
        if len(_THREAT_CACHE) > 20000:
            _THREAT_CACHE.clear()
        v = _THREAT_CACHE[key] = threat_to(game, u.uid, h, facing if u.is_vehicle else None,
                                           movers=movers, probe=probe, combine=COMBINE)
    return v


def expected_loss(state: GameState, u: Unit, th) -> float:
    """Points ``u`` is expected to lose to the threat ``th`` (all its sources firing)."""
    value = unit_value(state, u)
    return value * (th.p_disrupted * outcome_worth(u, 1) + th.p_damaged * outcome_worth(u, 2)
                    + th.p_destroyed * outcome_worth(u, 3))


def nearest_enemy_hex(state: GameState, u: Unit, h: Hex) -> Hex | None:
    foes = enemies(state, u.side)
    if not foes:
        return None
    return min(foes, key=lambda e: (e.hex.distance(h), e.uid)).hex


def dist(a: Hex, b: Hex) -> int:
    """Hex distance."""
    return a.distance(b)


class View:
    """One decision's look at the position from ``side``: the enemies, a probe (a
    private copy of the game for the rules' hypothetical queries) and memoised
    exact threat / shot numbers."""

    def __init__(self, game, side: str) -> None:
        self.game = game
        self.state = game.state
        self.side = side
        self.foes = enemies(game.state, side)
        self._probe = None

    @property
    def probe(self) -> Probe:
        if self._probe is None:
            st = self.state
            key = tuple((u.uid, u.hex, u.carrier, u.destroyed, u.disrupted, u.damaged)
                        for u in st.units.values()) + (st.destroyed_bridges,)
            memo = _REACH_MEMO.get(key)
            if memo is None:
                _REACH_MEMO.clear()
                memo = _REACH_MEMO[key] = {}
            self._probe = Probe(self.game, memo)
        return self._probe

    def facing_for(self, u: Unit, h: Hex) -> int | None:
        if not u.is_vehicle:
            return None
        n = nearest_enemy_hex(self.state, u, h)
        return facing_toward(h, n) if n is not None and n != h else u.facing

    def threat(self, u: Unit, h: Hex, facing: int | None = None):
        f = facing if facing is not None else self.facing_for(u, h)
        return threat_cached(self.game, u, h, f, probe=self.probe)

    def loss(self, u: Unit, h: Hex, facing: int | None = None) -> float:
        """Expected points ``u`` loses in ``h`` if the enemy turns its fire on it."""
        return expected_loss(self.state, u, self.threat(u, h, facing))

    def best_shot(self, u: Unit, h: Hex) -> tuple[float, Unit | None]:
        """Best expected points ``u`` could win with one attack from ``h`` (exact odds
        of the rules, abilities included) at enemies where they stand now."""
        st = self.state
        key = (enemy_signature(st, u.side), _unit_key(u), h)
        v = _SHOT_CACHE.get(key)
        if v is not None:
            return v
        if len(_SHOT_CACHE) > 20000:
            _SHOT_CACHE.clear()
        best, who = 0.0, None
        seen = self.game.visible_from(h)
        near = sorted((e for e in self.foes if within_reach(st, u, e, h, e.hex, e.hex in seen)),
                      key=lambda e: (e.hex.distance(h), e.uid))[:SHOT_TARGETS]
        for e in near:
            ba = best_attack(self.game, u.uid, e.uid, from_hex=h, probe=self.probe)
            if ba is None:
                continue
            g = attack_gain(st, e, ba[1])
            if g > best:
                best, who = g, e
        v = _SHOT_CACHE[key] = (best, who)
        return v


def attack_modes(u: Unit) -> list[str]:
    """``"normal"`` plus the attack modes the rules know that ``u``'s card has
    (Close Assault, Hand to Hand... - ``game.rules.threat.attack_modes``)."""
    return list(_rules_modes(u.card))


def board_signature(state: GameState) -> tuple:
    """Everything an attack's odds can depend on besides the attacker and target
    themselves: where every unit is and its face-up state (for ``attack_options``'
    cache; face-down counters of the two units are part of each entry's key)."""
    return (state.turn, state.phase, tuple(
        (u.uid, u.hex, u.carrier, u.destroyed, u.disrupted, u.damaged, u.facing)
        for u in state.units.values()))


def attack_options(game, u: Unit, cache: dict | None = None,
                   signature: tuple | None = None) -> list[tuple[str, str, object]]:
    """``[(target uid, mode, exact Odds)]`` for every attack ``u`` may make from where
    it is, normal and with its ability modes.  Only enemies in range and in sight
    are asked for odds (the engine's ``game.odds``), which keeps this fast.
    ``cache`` (a dict kept by the caller) with ``signature`` (:func:`board_signature`)
    reuses odds already computed while nothing they depend on changed."""
    from game.rules.errors import IllegalAction
    st = game.state
    if not u.on_map or u.boarded:
        return []
    seen = game.visible_from(u.hex)
    modes = attack_modes(u)
    out = []
    for t in st.units.values():
        if t.side == u.side or not t.on_map or not within_reach(st, u, t, u.hex, t.hex,
                                                                             t.hex in seen):
            continue
        for mode in modes:
            key = None
            if cache is not None:
                key = (signature, u.uid, tuple(u.pending), t.uid, tuple(t.pending), mode)
                if key in cache:
                    o = cache[key]
                    if o is not None:
                        out.append((t.uid, mode, o))
                    continue
            try:
                o = game.odds(u.uid, t.uid, mode=mode)
            except IllegalAction:
                o = None
            if key is not None:
                cache[key] = o
            if o is not None:
                out.append((t.uid, mode, o))
    return out


def best_facing(game, u: Unit, h: Hex, fallback: Hex | None = None, view: "View | None" = None) -> int:
    """Vehicles: the facing in ``h`` with the smallest exact threat (the rules' odds,
    front and rear), ties toward ``fallback`` (or the nearest enemy)."""
    st = game.state
    view = view or View(game, u.side)
    n = nearest_enemy_hex(st, u, h)
    toward = n if n is not None and n != h else fallback
    default = facing_toward(h, toward) if toward is not None and toward != h else u.facing
    best_f, best_v = default, view.loss(u, h, default)
    th = view.threat(u, h, default)
    cands = {(default + 1) % 6, (default + 5) % 6}
    for s in th.sources[:2]:
        if s.from_hex != h:
            cands.add(facing_toward(h, s.from_hex))
    for f in sorted(cands):
        if f == default:
            continue
        v = view.loss(u, h, f)
        if v < best_v - 1e-6:
            best_f, best_v = f, v
    return best_f


def control_urgency(state: GameState, side: str | None = None) -> float:
    """How much holding the objective matters now for ``side``, from the rules'
    victory timing: little while control can't count yet, most in the deciding turns
    (the Assault attacker has far to go, so it starts pushing early)."""
    vt = victory_timing(state)
    left = vt.turns_to_control
    if vt.scenario == "assault":
        if side is not None and side == state.attacker:
            return 4.0 if left <= 3 else 2.5 if state.turn >= 3 else 1.5
        return 4.0 if left <= 3 else 2.0 if left <= 6 else 1.0
    if left <= 1:
        return 4.0
    if left <= 3:
        return 2.0
    if left <= 5:
        return 0.7
    return 0.35


_CONTROL: dict = {}


def control_hexes(game) -> frozenset:
    """The hexes where a unit counts for control of the objective (the rules' own
    control test, asked once per map and objective)."""
    st = game.state
    obj = st.objective
    if obj is None:
        return frozenset()
    key = (id(st.battle_map), obj)
    v = _CONTROL.get(key)
    if v is None:
        u = next((x for x in st.units.values() if x.on_map), None)
        if u is None:
            return frozenset(h for h in [obj] + list(obj.neighbors()))
        probe = Probe(game)
        near = [h for h in st.battle_map.terrain if h.distance(obj) <= 3]
        v = _CONTROL[key] = frozenset(h for h in near
                                      if counts_for_control(game, u.uid, h, probe=probe))
    return v


def side_has_control_unit(game, side: str) -> bool:
    """Whether one of ``side``'s units stands where it counts for control (the rules' test)."""
    st = game.state
    return st.objective is not None and any(
        u.on_map and u.side == side and counts_for_control(game, u.uid, u.hex)
        for u in st.units.values())


def opponent(side: str) -> str:
    return other_side(side)


# --- the activation under way (extra actions from abilities) ------------------------------------
def _hooks():
    try:
        from game.rules import ability_hooks
    except ImportError:                       # an engine without ability hooks
        return None
    return ability_hooks


#: abilities that put extra actions into an activation (a quick filter only: the
#: engine's ``extra_actions`` decides what is legal)
EXTRA_ACTION_ABILITIES = ("double_shot", "all_guns_blazing", "additional_hull_mounted_cannon",
                          "strike_and_fade")


def activated_unit(state: GameState, side: str) -> Unit | None:
    """``side``'s unit whose activation is under way in this assault phase (it has
    acted and an ability may still give it an extra action), or None."""
    ah = _hooks()
    if ah is None or not state.phase.is_assault or state.pending is not None:
        return None
    for u in state.units.values():
        if u.side == side and u.acted and u.on_map \
                and ah.activation_tags(state, u.uid) is not None:
            return u
    return None


def extra_actions_of(game, u: Unit) -> list:
    """The extra actions the engine offers ``u`` within its activation (Double Shot's
    second attack, All Guns Blazing, the hull cannon, Strike and Fade's moves, the
    attack after an Overrun move or a No Turret turn) - the same ones
    ``Game.legal_actions`` lists, without building every unit's moves."""
    ah = _hooks()
    if ah is None or not any(u.card.has(x) for x in EXTRA_ACTION_ABILITIES):
        return []                                  # quick: nothing can follow
    return list(ah.extra_actions(game, u))       # the engine has checked them


def has_ability(u: Unit, ability_id: str) -> bool:
    return bool(u.card.has(ability_id))
