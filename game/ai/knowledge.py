"""What the AI players know about a position, computed only from what the
rules engine exposes: its tables (range bands, hits table, terrain cover,
front/rear) and its exact odds for attacks that can be made now.

Movement is scored for hexes a unit is *not* in yet, where the engine can't
give exact odds (it plans attacks from where units are); for those the AI uses
an estimate built from the same engine tables - :func:`shot_chance`.

Nothing here changes a game: every function reads ``game.state``.
"""
from __future__ import annotations

from functools import lru_cache

from game.rules.combat import BASE_SUCCESS, hits_for, is_front
from game.rules.hexes import DIRECTIONS, Hex, direction_between, range_band
from game.rules.odds import binomial
from game.rules.state import DAMAGED, DESTROYED, DISRUPTED, GameState, Unit, other_side
from game.rules.terrain import TERRAIN_RULES

__all__ = ["View", "dist", "attack_options", "attack_modes", "unit_value", "outcome_worth", "attack_gain", "cover_need", "shot_chance",
           "threat_at", "best_shot_from", "best_facing", "facing_toward",
           "control_urgency", "percent", "front_word", "enemies", "pct_damage",
           "activated_unit", "extra_actions_of", "has_ability"]


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


def cover_need(state: GameState, u: Unit, h: Hex, same_hex: bool = False) -> int | None:
    """Cover roll face a unit of ``u``'s type would need in ``h`` (engine terrain table)."""
    rules = TERRAIN_RULES[state.battle_map.terrain_at(h)]
    c = rules.vehicle_cover if u.is_vehicle else rules.soldier_cover
    if c is None:
        return None
    return c + (1 if same_hex else 0)


@lru_cache(maxsize=4096)
def _p_hit(dice: int, need: int, defense: int) -> tuple[float, float]:
    """(P at least one hit, expected hits) for ``dice`` dice needing ``need``."""
    p = max(0, min(6, 7 - need)) / 6
    pmf = binomial(dice, p)
    any_hit = 0.0
    exp = 0.0
    for s, q in enumerate(pmf):
        h = hits_for(s, max(1, defense))
        if h:
            any_hit += q
            exp += q * h
    return any_hit, exp


def dist(a: Hex, b: Hex) -> int:
    """Hex distance (same as ``Hex.distance``, without building a Hex)."""
    dq = a.q - b.q
    dr = a.r - b.r
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def shot_chance(state: GameState, shooter: Unit, s_hex: Hex, target: Unit, t_hex: Hex,
                t_facing: int | None = None, *, front: bool | None = None) -> float:
    """Estimated chance that ``shooter`` in ``s_hex`` scores a hit that sticks (not
    cancelled by cover) on ``target`` standing in ``t_hex``; 0 when out of range,
    out of sight or without attack dice.  Built from the engine's range bands,
    line of sight, hits table and cover table; abilities are not modelled."""
    d = dist(s_hex, t_hex)
    band = range_band(d)
    if band is None:
        return 0.0
    dice = shooter.card.dice(target.card.type, band)
    if not dice:
        return 0.0
    if d > 0 and t_hex not in state.battle_map.los.visible_from(s_hex):
        return 0.0
    need = BASE_SUCCESS + (1 if shooter.impaired else 0)
    if target.is_vehicle:
        if front is None:
            f = target.facing if t_facing is None else t_facing
            front = is_front(t_hex, f, s_hex)
        defense = target.card.defense(front)
    else:
        defense = target.card.defense(True)
    if target.impaired:
        defense -= 1
    p, _ = _p_hit(int(dice), need, max(1, defense))
    c = cover_need(state, target, t_hex, same_hex=(d == 0))
    if c is not None and c <= 6:
        p *= 1.0 - max(0, 7 - c) / 6 * 0.6    # cover caps the result at disruption
    return p


class View:
    """One decision's look at the position from ``side``: the enemies and memoised
    estimates (threat to a unit in a hex, the best shot from a hex)."""

    def __init__(self, state: GameState, side: str) -> None:
        self.state = state
        self.side = side
        self.foes = enemies(state, side)
        self._threat: dict = {}
        self._shot: dict = {}

    def threat(self, u: Unit, h: Hex, facing: int | None = None) -> float:
        key = (u.uid, h, facing)
        v = self._threat.get(key)
        if v is None:
            v = self._threat[key] = threat_at(self.state, u, h, facing=facing, foes=self.foes)
        return v

    def best_shot(self, u: Unit, h: Hex) -> tuple[float, Unit | None]:
        key = (u.uid, h)
        v = self._shot.get(key)
        if v is None:
            v = self._shot[key] = best_shot_from(self.state, u, h, foes=self.foes)
        return v


def threat_at(state: GameState, u: Unit, h: Hex, *, facing: int | None = None,
              exclude: frozenset[str] = frozenset(), foes: list[Unit] | None = None) -> float:
    """Chance (roughly) that ``u`` standing in ``h`` gets hit by at least one enemy
    that can shoot at it from where the enemies stand now."""
    miss = 1.0
    seen = state.battle_map.los.visible_from(h)
    for e in (foes if foes is not None else enemies(state, u.side)):
        if e.uid in exclude:
            continue
        d = dist(e.hex, h)
        if d > 8 or (e.disrupted and d > 4) or (d and e.hex not in seen):
            continue
        if u.is_vehicle and facing is None:
            p = shot_chance(state, e, e.hex, u, h, front=True)
        else:
            p = shot_chance(state, e, e.hex, u, h, facing)
        if p:
            miss *= 1.0 - p
    return 1.0 - miss


def best_shot_from(state: GameState, u: Unit, h: Hex,
                   foes: list[Unit] | None = None) -> tuple[float, Unit | None]:
    """Best expected points ``u`` could win with one attack from ``h`` next assault
    phase, against enemies where they are now (and that enemy)."""
    best, who = 0.0, None
    seen = state.battle_map.los.visible_from(h)
    for e in (foes if foes is not None else enemies(state, u.side)):
        d = dist(e.hex, h)
        if d > 8 or (d and e.hex not in seen):
            continue
        p = shot_chance(state, u, h, e, e.hex)
        if not p:
            continue
        v = p * unit_value(state, e) * (0.55 if e.is_vehicle else 0.6)
        if v > best:
            best, who = v, e
    return best, who


def attack_modes(u: Unit) -> list[str]:
    """``"normal"`` plus the attack modes the engine knows that ``u``'s card has
    (Close Assault, Hand to Hand... - ``game.rules.ability_hooks.MODE_ABILITIES``)."""
    try:
        from game.rules.ability_hooks import MODE_ABILITIES
    except ImportError:                       # an engine without ability hooks
        return ["normal"]
    return ["normal"] + [m for m in MODE_ABILITIES if u.card.has(m)]


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
    seen = st.battle_map.los.visible_from(u.hex)
    modes = attack_modes(u)
    out = []
    for t in st.units.values():
        if t.side == u.side or not t.on_map:
            continue
        d = dist(t.hex, u.hex)
        if d > 8 or (d and t.hex not in seen):
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


def facing_toward(a: Hex, b: Hex) -> int:
    """The facing (0-5) from ``a`` that points most nearly at ``b``."""
    d = direction_between(a, b)
    if d is not None:
        return d
    best, bf = None, 0
    for f in range(6):
        n = a + DIRECTIONS[f]
        dist = n.distance(b)
        if best is None or dist < best:
            best, bf = dist, f
    return bf


def best_facing(state: GameState, u: Unit, h: Hex, fallback: Hex | None = None) -> int:
    """Vehicles: the facing in ``h`` that keeps the front toward the biggest threat
    (enemy anti-Vehicle dice weighted by range), else toward ``fallback``."""
    weights: list[tuple[Hex, float]] = []
    seen = state.battle_map.los.visible_from(h)
    for e in enemies(state, u.side):
        d = dist(e.hex, h)
        band = range_band(d)
        if band is None or d == 0:
            continue
        dice = e.card.dice("Vehicle", band)
        if not dice or e.hex not in seen:
            continue
        weights.append((e.hex, float(dice) * (1.5 if d <= 4 else 1.0)))
    default = facing_toward(h, fallback) if fallback is not None and fallback != h else u.facing
    if not weights:
        return default
    best_f, best_w = default, None
    for f in range(6):
        exposed = sum(w for eh, w in weights if not is_front(h, f, eh))
        if best_w is None or exposed < best_w - 1e-9 or (abs(exposed - best_w) < 1e-9
                                                           and f == default):
            best_f, best_w = f, exposed
    return best_f


def control_urgency(state: GameState, side: str | None = None, last_turn: int = 10) -> float:
    """How much holding the objective matters now for ``side`` (grows toward the
    deciding turns; the Assault attacker has far to go, so it starts pushing early)."""
    t = max(1, state.turn)
    if state.scenario == "assault":
        if side is not None and side == state.attacker:
            return 4.0 if t >= last_turn - 3 else 2.5 if t >= 3 else 1.5
        return 4.0 if t >= last_turn - 3 else 2.0 if t >= last_turn - 6 else 1.0
    first = 7
    if t >= first - 1:
        return 4.0
    if t >= first - 3:
        return 2.0
    return 1.0


def side_has_control_unit(state: GameState, side: str) -> bool:
    obj = state.objective
    return obj is not None and any(u.on_map and u.side == side and u.hex.distance(obj) <= 1
                                   for u in state.units.values())


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
