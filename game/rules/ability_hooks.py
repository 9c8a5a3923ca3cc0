"""Every special ability on the roster, implemented once as hooks keyed by ability id
(rulebook: Special Abilities; the rule texts are ``game.rules.ability_catalog``).

Importing this module registers the hooks with :mod:`game.rules.abilities`
(``game.rules.engine`` imports it).  Nothing here looks at a unit's name: a hook
runs because a unit in the hook's context has the ability, and it checks
``ctx["role"]`` to know whether the owner is the attacker, the target, the mover...

General principles (rulebook: Special Abilities):

* Abilities trump rules - the hooks change the rules' numbers.
* "Can't" beats "can": abilities that ignore cover switch the cover roll off at
  ``can_cover``, so Forest Camouflage's automatic success (at ``cover_need``) is
  never reached.
* Abilities of the same name don't add, and only the highest commander bonus to a
  roll applies: commander abilities are auras (``scope="any"``) that give their
  bonus once, whatever the number of commanders in range; a unit with Ruthless of
  its own gets nothing more from Command Ruthless.
* A disrupted commander's abilities don't work (``_commander_near``).
* Extra actions (Double Shot, All Guns Blazing, Additional Hull-Mounted Cannon,
  Strike and Fade, Overrun, No Turret's turn) belong to the unit's activation: the
  activation is tracked in ``state.marks["act"]`` and ends as soon as another unit
  acts or the phase ends, so they can't be saved.  They appear in
  ``Game.legal_actions`` through the ``activation_options`` hook.

Memory an ability needs across actions lives in ``state.marks`` (immutable
values: tuples), so copies, saves and rollbacks keep it.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from math import comb
from typing import Any

from . import combat, movement
from .abilities import register
from .actions import (Action, Attack, DefensiveFire, EndPhase, Move, PassDefensiveFire)
from .cards import SOLDIER, VEHICLE
from .errors import IllegalAction
from .events import CounterPlaced, Event, UnitStopped
from .hexes import Hex, hex_label
from .movement import Reach
from .state import DAMAGED, DESTROYED, DISRUPTED, GameState, Phase, Unit
from .terrain import Terrain

__all__ = ["AbilityRoll", "AbilityUsed", "MODE_ABILITIES", "IN_RULE_HOOKS", "extra_actions",
           "activation_tags", "commander_near", "exact_odds"]

#: abilities that are attack modes (``Attack(mode=<id>)``)
MODE_ABILITIES = ("close_assault", "hand_to_hand", "armor_piercing_rounds",
                  "additional_hull_mounted_cannon")
#: abilities implemented inside rule-level hooks (the activation tracker, defensive
#: fire, the casualty phase, phase starts) rather than by hooks keyed on their id
IN_RULE_HOOKS = frozenset({"double_shot", "all_guns_blazing", "overrun", "fanatic",
                           "ss_determination", "exert_will", "forest_camouflage"})
_NOT_EXTRA = "not an extra action"
HULL_CANNON_DICE = {"short": 12, "medium": 10, "long": 8}
SS_DETERMINATION_NEED = 4
HIGHLY_FLAMMABLE_NEED = 5
FLAMETHROWER_SIXES = 3


# --- events -----------------------------------------------------------------------------
@dataclass(frozen=True)
class AbilityRoll(Event):
    """A die rolled for an ability (SS Determination, Highly Flammable)."""

    uid: str
    ability: str
    die: int
    need: int
    ok: bool

    def describe(self) -> str:
        return (f"{self.uid} rolls {self.die} for {self.ability} (needs {self.need}+): "
                f"{'success' if self.ok else 'failure'}.")


@dataclass(frozen=True)
class AbilityUsed(Event):
    """An ability changed what happened (Heavy Armor, Fanatic, Exert Will...)."""

    uid: str
    ability: str

    def describe(self) -> str:
        return f"{self.uid} uses {self.ability}."


# --- small helpers ------------------------------------------------------------------------
def _phase_key(state: GameState) -> tuple:
    return (state.turn, state.phase.value)


def _phase_set(state: GameState, key: str) -> tuple:
    """A per-phase mark: the tuple stored under ``key`` for the current phase."""
    got = state.marks.get(key)
    if got and got[0] == _phase_key(state):
        return got[1]
    return ()


def _phase_add(state: GameState, key: str, item: Any) -> None:
    cur = _phase_set(state, key)
    if item not in cur:
        state.marks[key] = (_phase_key(state), tuple(sorted(cur + (item,), key=repr)))


def _game_set(state: GameState, key: str) -> tuple:
    return state.marks.get(key, ())


def _game_add(state: GameState, key: str, item: Any) -> None:
    cur = _game_set(state, key)
    if item not in cur:
        state.marks[key] = tuple(sorted(cur + (item,), key=repr))


def commander_near(state: GameState, unit: Unit, ability_id: str | None = None, *,
                   include_self: bool = True) -> Unit | None:
    """A friendly, non-disrupted commander (with ``ability_id`` if given) in ``unit``'s
    hex or an adjacent one (rulebook: Commander Abilities)."""
    if unit.hex is None:
        return None
    for c in state.units.values():
        if c.side != unit.side or not c.on_map or c.disrupted or not c.card.is_commander:
            continue
        if c is unit and not include_self:
            continue
        if ability_id is not None and not c.card.has(ability_id):
            continue
        if c.hex.distance(unit.hex) <= 1:
            return c
    return None


def _in_front_arc(viewer_hex: Hex, facing: int, other_hex: Hex) -> bool:
    """Ruling 1: ``other_hex``'s centre lies in the front arc of a Vehicle in
    ``viewer_hex`` facing ``facing`` (its own hex never does)."""
    return combat.is_front(viewer_hex, facing, other_hex)


def _dot(target_hex: Hex, facing: int, attacker_hex: Hex) -> int:
    from .hexes import DIRECTIONS
    dq, dr = attacker_hex.q - target_hex.q, attacker_hex.r - target_hex.r
    f = DIRECTIONS[facing % 6]
    return (2 * dq + dr) * (2 * f.q + f.r) + 3 * dr * f.r


def _attack_front(ctx: dict) -> bool | None:
    """Front/rear of the attack in ``ctx`` as the rules will decide it (before the
    ``front`` point has run): ruling 1 plus Battlefield Awareness."""
    t: Unit = ctx["target"]
    if not t.is_vehicle:
        return None
    th, ah = ctx["target_hex"], ctx["attacker_hex"]
    facing = ctx.get("facing", t.facing)
    front = combat.is_front(th, facing, ah)
    if not front and t.card.has("battlefield_awareness") and th != ah \
            and _dot(th, facing, ah) == 0:
        front = True
    return front


def _is_artillery(u: Unit) -> bool:
    return "artillery" in (u.card.subtype or "").lower()


def _printed(ctx: dict) -> int | None:
    a: Unit = ctx["attacker"]
    return a.card.dice(ctx["target"].card.type, ctx["band"])


# --- the activation (extra actions) ---------------------------------------------------------------
def activation_tags(state: GameState, uid: str) -> tuple[str, ...] | None:
    """What ``uid`` has done in its current activation (None: it is not the unit
    being activated now).  Tags: ``attack:<mode>``, ``move`` (a move began),
    ``moved`` (it ended where it wanted), ``stopped``, ``turn``, ``other``."""
    act = state.marks.get("act")
    if not act or act[0] != _phase_key(state) or act[1] != uid:
        return None
    return act[2]


def _tag(state: GameState, uid: str, *tags: str) -> None:
    cur = activation_tags(state, uid) or ()
    state.marks["act"] = (_phase_key(state), uid, cur + tags)


def _attacks(tags: tuple[str, ...]) -> list[str]:
    return [t.split(":", 1)[1] for t in tags if t.startswith("attack:")]


def _extra_problem(state: GameState, u: Unit, action: Action) -> str | None:
    """Why ``action`` is not an extra action ``u`` may take within its current
    activation (None: it may)."""
    tags = activation_tags(state, u.uid)
    if tags is None or not state.phase.is_assault or u.side != state.active_side:
        return _NOT_EXTRA
    attacks = _attacks(tags)
    moved = "move" in tags
    card = u.card
    if isinstance(action, Attack):
        t = state.units.get(action.target)
        if t is None:
            return "no such target"
        if moved:
            if card.has("overrun") and "moved" in tags and not attacks:
                if not t.is_soldier or t.hex != u.hex or action.mode != "normal":
                    return "Overrun: the attack after the move is against an enemy Soldier " \
                           "in the Vehicle's hex"
                if any(o.is_vehicle and o.side != u.side and o.on_map
                       for o in state.units_at(u.hex)):
                    return "Overrun: there is an enemy Vehicle in the hex"
                return None
            return "it can't attack after moving"
        if not attacks:
            if "turn" in tags and card.has("no_turret"):
                return None           # No Turret: the turn was part of this attack
            return _NOT_EXTRA
        if card.has("additional_hull_mounted_cannon"):
            hmc = "additional_hull_mounted_cannon"
            if action.mode == hmc and hmc not in attacks:
                return None
            if action.mode != hmc and all(m == hmc for m in attacks):
                return None
        if len(attacks) == 1 and attacks[0] != "additional_hull_mounted_cannon":
            if card.has("double_shot"):
                return None
            if card.has("all_guns_blazing"):
                return None if t.is_soldier else \
                    "All Guns Blazing: the extra attack must target an enemy Soldier"
        return "it has made all the attacks it may make this activation"
    if isinstance(action, Move):
        if card.has("strike_and_fade") and attacks and not moved:
            return None
        return _NOT_EXTRA
    return _NOT_EXTRA


def _recheck(game: Any, u: Unit, action: Action) -> str | None:
    """The engine's own check of ``action`` as if ``u`` had not acted yet (a Fighting
    Platform passenger: the platform's rules, then the attack's)."""
    if u.boarded:
        if not isinstance(action, Attack):
            return f"{u.name} is aboard a transport and can't act for itself"
        prob = _platform_problem(game.state, u, ignore_acted=True)
        if prob is not None:
            return prob
        return combat.why_not_attack(game.state, u.uid, action.target, mode=action.mode)
    was = u.acted
    u.acted = False
    try:
        return game._check(action)
    except Exception as exc:            # MalformedAction: keep the engine's wording
        return str(exc)
    finally:
        u.acted = was


def extra_actions(game: Any, u: Unit) -> list[Action]:
    """Extra actions ``u`` may take now within its activation."""
    st = game.state
    if not u.acted or st.pending is not None or activation_tags(st, u.uid) is None:
        return []
    out: list[Action] = []
    for a in _attack_candidates(st, u):
        if _extra_problem(st, u, a) is None and _recheck(game, u, a) is None:
            out.append(a)
    if u.card.has("strike_and_fade") and not u.disrupted:
        probe = Move(u.side, u.uid, (), None)
        if _extra_problem(st, u, probe) is None:
            reach = movement.reachable(st, u.uid)
            for h, r in reach.items():
                if not r.stops:
                    continue
                facings = range(6) if u.is_vehicle else (None,)
                for f in facings:
                    out.append(Move(u.side, u.uid, r.path, f))
            if u.is_vehicle:
                out.extend(Move(u.side, u.uid, (), f) for f in range(6) if f != u.facing)
    return out


def _mode_may_apply(mode: str, u: Unit, t: Unit) -> bool:
    """Cheap pre-check before planning a mode attack (the plan has the last word)."""
    if mode == "close_assault":
        return t.is_vehicle and t.hex == u.hex
    if mode == "hand_to_hand":
        return t.is_soldier and t.hex == u.hex
    if mode in ("armor_piercing_rounds", "additional_hull_mounted_cannon"):
        return t.is_vehicle
    return True


def _attack_candidates(st: GameState, u: Unit) -> list[Attack]:
    modes = ["normal"] + [m for m in MODE_ABILITIES if u.card.has(m)]
    out = []
    for t in st.units.values():
        if not t.on_map or t.side == u.side:
            continue
        for mode in modes:
            if _mode_may_apply(mode, u, t) and \
                    combat.why_not_attack(st, u.uid, t.uid, mode=mode) is None:
                out.append(Attack(u.side, u.uid, t.uid, mode))
    return out


@register("activation_options")
def _activation_options(value, ability, ctx):
    """Mode attacks (Close Assault, Hand to Hand, Armor-Piercing Rounds, the hull
    cannon), attacks on exposed passengers, Fighting Platform passengers' attacks,
    and the extra actions of the current activation."""
    u: Unit = ctx["unit"]
    game = ctx.get("game")
    st: GameState = ctx["state"]
    if game is None or not st.phase.is_assault or u.side != st.active_side \
            or st.pending is not None or not u.on_map:
        return value
    out = list(value)
    if u.acted:
        out.extend(extra_actions(game, u))
        return out
    if u.boarded:
        if _platform_problem(st, u) is None:
            out.extend(a for a in _attack_candidates(st, u))
        return out
    modes_of_unit = [m for m in MODE_ABILITIES if u.card.has(m)]
    if not modes_of_unit and not any(t.boarded and t.side != u.side and not t.destroyed
                                     for t in st.units.values()):
        return out
    if game._activation_problem(u) is not None:
        return out
    for t in st.units.values():
        if not t.on_map or t.side == u.side:
            continue
        modes = [m for m in modes_of_unit if _mode_may_apply(m, u, t)]
        if t.boarded:
            modes = ["normal"] + modes
        for mode in modes:
            if combat.why_not_attack(st, u.uid, t.uid, mode=mode) is None:
                out.append(Attack(u.side, u.uid, t.uid, mode))
    return out


@register("action_allowed")
def _action_allowed(reason, ability, ctx):
    """Lift "already acted" for the activation's extra actions, and let a Fighting
    Platform passenger attack."""
    if reason is None:
        return None
    u: Unit | None = ctx.get("unit")
    action = ctx["action"]
    game = ctx.get("game")
    st: GameState = ctx["state"]
    if u is None or game is None or action.side != u.side:
        return reason
    if u.acted and isinstance(action, (Attack, Move)) and st.pending is None:
        prob = _extra_problem(st, u, action)
        if prob is None:
            return _recheck(game, u, action)
        if prob != _NOT_EXTRA:
            return f"{reason}: {prob}"
        return reason
    if u.boarded and isinstance(action, Attack) and not u.acted:
        prob = _platform_problem(st, u)
        if prob is None:
            return combat.why_not_attack(st, u.uid, action.target, mode=action.mode)
        c = st.units.get(u.carrier or "")
        if c is not None and c.card.has("fighting_platform"):
            return prob
    return reason


@register("perform")
def _perform(value, ability, ctx):
    """Carry out every action with the engine's own handler and keep track of the
    current activation (and Double Shot's second defensive-fire attack)."""
    if value is not None:
        return value
    game = ctx["game"]
    st: GameState = ctx["state"]
    action = ctx["action"]
    handler = getattr(game, "_do_" + type(action).__name__)
    act = st.marks.get("act")
    if isinstance(action, DefensiveFire):
        events = _defensive_fire(game, action)
    elif isinstance(action, PassDefensiveFire) or type(action).__name__ == "PlaceDismounted":
        events = handler(action)
    else:
        uid = getattr(action, "uid", None)
        if act and (act[1] != uid or act[0] != _phase_key(st) or isinstance(action, EndPhase)):
            st.marks.pop("act", None)
        events = handler(action)
        if isinstance(uid, str) and uid in st.units and (st.phase.is_assault
                                                         or st.phase.is_movement):
            if isinstance(action, Attack):
                _tag(st, uid, "attack:" + action.mode)
            elif isinstance(action, Move):
                if action.path:
                    _tag(st, uid, "move")
                    _phase_add(st, "moved", uid)
                else:
                    _tag(st, uid, "turn")
            elif not isinstance(action, EndPhase):
                _tag(st, uid, "other")
    _move_finished(st, events)
    return events


def _move_finished(st: GameState, events: list[Event]) -> None:
    act = st.marks.get("act")
    if not act or act[0] != _phase_key(st) or st.moving is not None:
        return
    tags = act[2]
    if "move" not in tags or "moved" in tags or "stopped" in tags:
        return
    stopped = any(isinstance(e, UnitStopped) and e.uid == act[1] for e in events) or \
        any(e.kind == "UnitPutBack" and getattr(e, "uid", None) == act[1] for e in events)
    _tag(st, act[1], "stopped" if stopped else "moved")


def _defensive_fire(game: Any, a: DefensiveFire) -> list[Event]:
    """The engine's defensive fire, with Double Shot's second attack at the same
    stage and Suppressive Fire's once-per-provoking-move memory."""
    st: GameState = game.state
    _note_step_shot(st, a.uid)
    shots = 2 if st.units[a.uid].card.has("double_shot") else 1
    return game._do_DefensiveFire(a, shots=shots)


def _step_key(st: GameState) -> tuple | None:
    m = st.moving
    if m is None:
        return None
    return (m.uid, m.start.q, m.start.r, m.index, len(m.walked))


def _note_step_shot(st: GameState, uid: str) -> None:
    key = _step_key(st)
    if key is None:
        return
    got = st.marks.get("df_step")
    shots = got[1] if got and got[0] == key[:4] else ()
    st.marks["df_step"] = (key[:4], tuple(sorted(set(shots) | {uid})))


# --- attacks: dice, range, modes --------------------------------------------------------------------
def _mode_used(ab, ctx, target_type: str) -> bool:
    """Close Assault / Hand to Hand applies to this attack: chosen as the mode, or,
    with defensive fire (which has no mode), automatically when it is at least as
    good as the printed value."""
    if ctx.get("role") != "attacker" or ctx["target"].card.type != target_type \
            or ctx["distance"] != 0:
        return False
    if ctx.get("mode") == ab.id:
        return True
    if ctx.get("defensive"):
        printed = _printed(ctx)
        return printed is None or ab.value >= printed
    return False


@register("attack_dice", "close_assault")
def _close_assault_dice(value, ab, ctx):
    return ab.value if _mode_used(ab, ctx, VEHICLE) else value


@register("attack_dice", "hand_to_hand")
def _hand_to_hand_dice(value, ab, ctx):
    return ab.value if _mode_used(ab, ctx, SOLDIER) else value


@register("can_cover", "close_assault")
@register("can_cover", "hand_to_hand")
def _close_combat_cover(value, ab, ctx):
    tt = VEHICLE if ab.id == "close_assault" else SOLDIER
    return False if _mode_used(ab, ctx, tt) else value


@register("can_attack", "close_assault")
@register("can_attack", "hand_to_hand")
def _close_combat_allowed(value, ab, ctx):
    if ctx.get("role") != "attacker" or ctx.get("mode") != ab.id:
        return value
    tt = VEHICLE if ab.id == "close_assault" else SOLDIER
    if ctx["target"].card.type != tt or ctx["distance"] != 0:
        return (f"{ab.name.rsplit(' ', 1)[0]} attacks an enemy {tt} in the unit's own hex")
    return value


@register("defense", "sideskirts")
def _sideskirts(value, ab, ctx):
    if ctx.get("role") == "target" and ctx["attacker"].card.has("close_assault"):
        return value + 1
    return value


@register("range_band", "extended_range")
def _extended_range(value, ab, ctx):
    if ctx.get("role") == "attacker" and value is None and ctx["target"].is_vehicle \
            and ctx["distance"] <= ab.value:
        return "long"
    return value


@register("range_band", "enhanced_range")
def _enhanced_range(value, ab, ctx):
    if ctx.get("role") == "attacker" and value is None and ctx["distance"] <= ab.value:
        return "long"
    return value


@register("attack_dice", "coordinated_fire")
def _coordinated_fire(value, ab, ctx):
    if ctx.get("role") == "attacker" and value and commander_near(ctx["state"], ctx["attacker"],
                                                                  include_self=False):
        return value + 1
    return value


@register("attack_dice", "open_back")
def _open_back(value, ab, ctx):
    """The attacker rolls the better of its anti-Soldier and anti-Vehicle values
    against the rear (more dice never hurt, so the choice is made for it)."""
    if ctx.get("role") != "target" or ctx.get("mode") not in ("normal",
                                                             "armor_piercing_rounds"):
        return value
    if _attack_front(ctx) is not False:
        return value
    a: Unit = ctx["attacker"]
    alt = a.card.dice(SOLDIER, ctx["band"])
    printed = a.card.dice(VEHICLE, ctx["band"]) or 0
    if alt and alt > printed:
        return (value or 0) - printed + alt
    return value


@register("attack_dice", "additional_hull_mounted_cannon")
def _hull_cannon_dice(value, ab, ctx):
    if ctx.get("role") == "attacker" and ctx.get("mode") == ab.id:
        return HULL_CANNON_DICE.get(ctx["band"]) if ctx["target"].is_vehicle else None
    return value


@register("can_attack", "additional_hull_mounted_cannon")
def _hull_cannon_allowed(value, ab, ctx):
    if ctx.get("role") != "attacker" or ctx.get("mode") != ab.id:
        return value
    if ctx.get("defensive"):
        return "the hull-mounted cannon does not fire defensively"
    a = ctx["attacker"]
    if not _in_front_arc(ctx["attacker_hex"], a.facing, ctx["target_hex"]):
        return "the hull-mounted cannon fires only at Vehicles in the front arc"
    return value


@register("can_attack", "armor_piercing_rounds")
def _apr_allowed(value, ab, ctx):
    if ctx.get("role") != "attacker" or ctx.get("mode") != ab.id:
        return value
    if ctx.get("defensive"):
        return "Armor-Piercing Rounds are not used with defensive fire"
    if not ctx["target"].is_vehicle:
        return "Armor-Piercing Rounds are fired only at Vehicles"
    if ctx["attacker"].uid in _game_set(ctx["state"], "apr_used"):
        return "Armor-Piercing Rounds are already used up"
    return value


@register("hits")
def _apr_hits(value, ab, ctx):
    """Armor-Piercing Rounds (a rule hook so it sees the hits after the target's
    armor abilities): exactly two hits become three."""
    if ctx.get("mode") == "armor_piercing_rounds" and value == 2 and not ctx.get("defensive"):
        return 3
    return value


@register("can_attack", "fixed_howitzer")
@register("can_attack", "no_turret")
def _front_arc_only(value, ab, ctx):
    if ctx.get("role") != "attacker":
        return value
    a = ctx["attacker"]
    if not _in_front_arc(ctx["attacker_hex"], a.facing, ctx["target_hex"]):
        return f"{a.name} can only attack units in its front arc ({ab.name})"
    return value


@register("can_cover", "bombardment")
def _bombardment(value, ab, ctx):
    return False if ctx.get("role") == "attacker" else value


@register("can_cover", "tall_silhouette")
def _tall_silhouette(value, ab, ctx):
    return False if ctx.get("role") == "target" else value


def _flamethrower_applies(ctx) -> bool:
    return (ctx.get("role") == "attacker" and ctx["distance"] == 1
            and ctx.get("mode") == "normal"
            and _in_front_arc(ctx["attacker_hex"], ctx["attacker"].facing, ctx["target_hex"]))


@register("can_cover", "hull_mounted_flamethrower")
def _flamethrower_cover(value, ab, ctx):
    return False if _flamethrower_applies(ctx) else value


@register("attack_result", "hull_mounted_flamethrower")
def _flamethrower_result(new, ab, ctx):
    if ctx.get("defensive") or not _flamethrower_applies(ctx):
        return new
    sixes = sum(1 for r in ctx["rolls"] if r == 6)
    t = ctx["target"]
    if sixes >= FLAMETHROWER_SIXES and DESTROYED not in new and DESTROYED not in t.pending:
        ctx["events"].append(AbilityUsed(ctx["attacker"].uid, ab.name,
                                         text=f"{sixes} natural 6s: the flamethrower "
                                              f"destroys {t.name}."))
        return list(new) + [DESTROYED]
    return new


@register("cover_need", "seasoned_crew")
def _seasoned_crew(value, ab, ctx):
    return value + 1 if ctx.get("role") == "attacker" else value


@register("cover_need", "pinpointer", scope="any")
def _pinpointer(value, ab, ctx):
    a: Unit = ctx["attacker"]
    if a.is_soldier and commander_near(ctx["state"], a, "pinpointer"):
        return value + 1
    return value


@register("cover_need")
def _forest_camouflage(value, ab, ctx):
    """Forest Camouflage (a rule hook, so it comes after every +1): automatic
    success against long-range attacks in a forest."""
    t: Unit = ctx["target"]
    if t.card.has("forest_camouflage") and ctx.get("band") == "long" and \
            ctx["state"].battle_map.terrain_at(ctx["target_hex"]) == Terrain.FOREST:
        return 1
    return value


@register("die_modifier", "inaccurate")
def _inaccurate(value, ab, ctx):
    return value - ab.value if ctx.get("role") == "attacker" else value


def _target_impaired(ctx) -> bool:
    t: Unit = ctx["target"]
    return t.disrupted or t.damaged


@register("die_modifier", "ruthless")
def _ruthless(value, ab, ctx):
    return value + 1 if ctx.get("role") == "attacker" and _target_impaired(ctx) else value


@register("die_modifier", "command_ruthless", scope="any")
def _command_ruthless(value, ab, ctx):
    a: Unit = ctx["attacker"]
    if a.card.has("ruthless") or not _target_impaired(ctx):
        return value
    if commander_near(ctx["state"], a, "command_ruthless"):
        return value + 1
    return value


@register("die_modifier", "bravery_enforcement", scope="any")
def _bravery_enforcement(value, ab, ctx):
    a: Unit = ctx["attacker"]
    if a.is_soldier and a.disrupted and commander_near(ctx["state"], a, "bravery_enforcement",
                                                       include_self=False):
        return value + 1
    return value


@register("die_modifier", "guard_crew")
def _guard_crew(value, ab, ctx):
    a: Unit = ctx["attacker"]
    if ctx.get("role") == "attacker" and a.damaged and not a.disrupted:
        return value + 1
    return value


@register("die_modifier", "command_dependent")
def _command_dependent(value, ab, ctx):
    if ctx.get("role") == "attacker" and not commander_near(ctx["state"], ctx["attacker"],
                                                            include_self=False):
        return value - 1
    return value


@register("die_modifier", "overlapping_fire")
def _overlapping_fire(value, ab, ctx):
    if ctx.get("role") != "attacker" or ctx.get("defensive"):
        return value
    st: GameState = ctx["state"]
    a, t = ctx["attacker"], ctx["target"]
    if not st.phase.is_assault or a.side != st.active_side:
        return value
    if any(tg == t.uid and att != a.uid for att, tg in _phase_set(st, "attacked")):
        return value + 1
    return value


@register("die_modifier", "surprise_fire")
def _surprise_fire(value, ab, ctx):
    if ctx.get("role") == "attacker" and ctx["attacker"].uid not in \
            _game_set(ctx["state"], "fired"):
        return value + 1
    return value


@register("hits", "shrapnel")
def _shrapnel(value, ab, ctx):
    if ctx.get("role") == "attacker" and ctx["target"].is_soldier:
        return combat.hits_for(ctx["successes"] * ab.value, ctx["defense"])
    return value


@register("hits", "superior_armor")
def _superior_armor(value, ab, ctx):
    if ctx.get("role") == "target" and value == 2 and \
            ctx["successes"] < ctx["defense"] + ab.value:
        return 1
    return value


@register("hits", "superior_frontal_armor")
def _superior_frontal_armor(value, ab, ctx):
    if ctx.get("role") == "target" and ctx.get("front") is True and value == 2 and \
            ctx["successes"] < ctx["defense"] + ab.value:
        return 1
    return value


@register("front", "battlefield_awareness")
def _battlefield_awareness(value, ab, ctx):
    if ctx.get("role") != "target" or value:
        return value
    th, ah = ctx["target_hex"], ctx["attacker_hex"]
    if th != ah and _dot(th, ctx.get("facing", ctx["target"].facing), ah) == 0:
        return True
    return value


# --- counters ------------------------------------------------------------------------------------------
@register("counters", "heavy_armor")
def _heavy_armor(new, ab, ctx):
    t: Unit = ctx["target"]
    if ctx.get("role") != "target" or DAMAGED not in new or \
            t.uid in _game_set(ctx["state"], "heavy_used"):
        return new
    i = new.index(DAMAGED)
    prefix = list(new[:i])
    rest = max(0, ctx["hits"] - i - 1)
    return prefix + combat.counters_for(True, t.damaged, list(t.pending) + prefix, rest)


@register("attack_result", "heavy_armor")
def _heavy_armor_used(new, ab, ctx):
    t: Unit = ctx["target"]
    if ctx.get("role") != "target" or t.uid in _game_set(ctx["state"], "heavy_used"):
        return new
    base = [] if ctx["hits"] <= 0 else (combat.cover_limited_counters(t.pending)
                                        if ctx["covered"] else
                                        combat.counters_for(True, t.damaged, t.pending,
                                                            ctx["hits"]))
    if DAMAGED in base:
        _game_add(ctx["state"], "heavy_used", t.uid)
        ctx["events"].append(AbilityUsed(t.uid, ab.name,
                                         text=f"{t.name}'s Heavy Armor ignores its first "
                                              f"Damaged counter."))
    return new


@register("attack_result", "highly_flammable")
def _highly_flammable(new, ab, ctx):
    if ctx.get("role") != "target" or DAMAGED not in new:
        return new
    t: Unit = ctx["target"]
    die = ctx["dice"].d6()
    ok = die >= HIGHLY_FLAMMABLE_NEED
    ctx["events"].append(AbilityRoll(t.uid, ab.name, die, HIGHLY_FLAMMABLE_NEED, ok,
                                     text=f"{t.name} is Highly Flammable: rolls {die} "
                                          f"(5+ burns): "
                                          f"{'the Damaged counter becomes Destroyed' if ok else 'no fire'}."))
    if ok:
        burnt = [DESTROYED if c == DAMAGED else c for c in new]
        return burnt[:burnt.index(DESTROYED) + 1]       # nothing follows a Destroyed
    return new


# --- after an attack ------------------------------------------------------------------------------
@register("after_attack")
def _after_attack(events, ab, ctx):
    """Memory for Surprise Fire, Overlapping Fire, Armor-Piercing Rounds and
    Fighting Platform; Fanatic and SS Determination on a defensive-fire hit."""
    st: GameState = ctx["state"]
    a: Unit = ctx["attacker"]
    t: Unit = ctx["target"]
    if ctx.get("secondary"):
        pass
    elif a.card.has("surprise_fire"):
        _game_add(st, "fired", a.uid)
    if not ctx.get("defensive") and not ctx.get("secondary") and st.phase.is_assault:
        if any(u.card.has("overlapping_fire") for u in st.live_units(a.side)):
            _phase_add(st, "attacked", (a.uid, t.uid))
        if ctx.get("mode") == "armor_piercing_rounds":
            _game_add(st, "apr_used", a.uid)
        if a.boarded:
            _phase_add(st, "platform_fired", a.carrier)
    if ctx.get("defensive") and t.disrupted and any(
            isinstance(e, CounterPlaced) and e.target == t.uid and e.face_up for e in events):
        events = list(events) + _resist_disruption(st, t, ctx["dice"])
    return events


def _resist_disruption(st: GameState, u: Unit, dice) -> list[Event]:
    if u.card.has("fanatic"):
        u.disrupted = False
        return [AbilityUsed(u.uid, "Fanatic", text=f"{u.name} is Fanatic: it ignores the "
                                                    f"Disrupted counter.")]
    if u.card.has("ss_determination"):
        die = dice.d6()
        ok = die >= SS_DETERMINATION_NEED
        if ok:
            u.disrupted = False
        return [AbilityRoll(u.uid, "SS Determination", die, SS_DETERMINATION_NEED, ok,
                            text=f"{u.name} rolls {die} for SS Determination (needs "
                                 f"{SS_DETERMINATION_NEED}+): "
                                 f"{'the Disrupted counter is removed' if ok else 'stays disrupted'}.")]
    return []


@register("after_attack", "blast")
def _blast(events, ab, ctx):
    """Blast: a separate attack on every other unit in the target's hex, friendly
    units included (defensive fire: they can only be disrupted; only the mover stops)."""
    if ctx.get("role") != "attacker" or ctx.get("secondary"):
        return events
    st: GameState = ctx["state"]
    a: Unit = ctx["attacker"]
    t: Unit = ctx["target"]
    plan = ctx["plan"]
    out = list(events)
    for o in list(st.units.values()):
        if o is a or o is t or o.destroyed or o.hex != plan.target_hex:
            continue
        if o.boarded:
            c = st.units.get(o.carrier)
            if c is None or not c.card.has("exposed_transport"):
                continue
        try:
            sub = combat.resolve_attack(st, a.uid, o.uid, ctx["dice"], defensive=plan.defensive,
                                        secondary=True)
        except IllegalAction:
            continue
        out.append(AbilityUsed(a.uid, ab.name, text=f"Blast: {a.name} also attacks "
                                                    f"{o.name} in {hex_label(o.hex)}."))
        out.extend(e for e in sub if not (isinstance(e, UnitStopped) and e.uid == o.uid))
    return out


# --- odds --------------------------------------------------------------------------------------------
_RANK = {DISRUPTED: 1, DAMAGED: 2, DESTROYED: 3}


def exact_odds(state: GameState, plan, base):
    """Exact odds when an outcome depends on more than the number of successes:
    Hull-Mounted Flamethrower (three natural 6s destroy) and Highly Flammable
    (a Damaged counter burns on 5+).  Sums over (natural 6s, other successes)."""
    a, t = state.units[plan.attacker], state.units[plan.target]
    if plan.defensive:
        return base
    flame = a.card.has("hull_mounted_flamethrower") and _flamethrower_applies(dict(
        role="attacker", distance=plan.distance, mode=plan.mode, attacker=a,
        attacker_hex=plan.attacker_hex, target_hex=plan.target_hex))
    burn = t.card.has("highly_flammable")
    if not flame and not burn:
        return base
    n = plan.dice
    six_ok = plan.need <= 6
    p6 = 1 / 6
    po = max(0, 6 - plan.need) / 6 if six_ok else 0.0     # a success that is not a 6
    pf = 1 - p6 - po
    base_rank = max((_RANK.get(c, 0) for c in t.pending), default=0)
    out = [0.0, 0.0, 0.0, 0.0]
    pc = plan.p_cover
    cache: dict = {}
    for j in range(n + 1):
        for k in range(n - j + 1):
            p = comb(n, j) * comb(n - j, k) * p6 ** j * po ** k * pf ** (n - j - k)
            if p == 0.0:
                continue
            s = k + (j if six_ok else 0)
            if s not in cache:
                cache[s] = combat.plan_hits(state, plan, s)
            h = cache[s]
            branches = ((True, pc), (False, 1 - pc)) if (plan.cover_need is not None
                                                          and h > 0) else ((False, 1.0),)
            for covered, pb in branches:
                if pb == 0.0:
                    continue
                new = combat.plan_counters(state, plan, h, covered) if h > 0 else []
                if flame and j >= FLAMETHROWER_SIXES and DESTROYED not in t.pending:
                    new = list(new) + [DESTROYED]
                rank = max([base_rank] + [_RANK.get(c, 0) for c in new])
                if burn and DAMAGED in new and rank == 2:
                    q = (7 - HIGHLY_FLAMMABLE_NEED) / 6
                    out[3] += p * pb * q
                    out[2] += p * pb * (1 - q)
                else:
                    out[rank] += p * pb
    return replace(base, p_none=out[0], p_disrupted=out[1], p_damaged=out[2],
                   p_destroyed=out[3])


@register("odds")
def _odds(value, ab, ctx):
    return exact_odds(ctx["state"], ctx["plan"], value)


# --- defense against defensive fire / casualty phase -------------------------------------------------
@register("after_casualty")
def _after_casualty(events, ab, ctx):
    """Fanatic ignores, SS Determination may shake off, the Disrupted counters the
    casualty phase has just turned face up."""
    st: GameState = ctx["state"]
    out = list(events)
    for u in st.units.values():
        if u.on_map and u.disrupted:
            out += _resist_disruption(st, u, ctx["dice"])
    return out


@register("phase_begin")
def _exert_will(events, ab, ctx):
    """Exert Will: at the start of its side's movement phase a non-disrupted
    commander removes the face-up Disrupted counters of adjacent friendly Soldiers."""
    st: GameState = ctx["state"]
    phase = ctx["phase"]
    if not phase.is_movement:
        return events
    out = list(events)
    side = st.active_side
    for c in st.units.values():
        if c.side != side or not c.on_map or c.disrupted or not c.card.has("exert_will"):
            continue
        for u in st.units.values():
            if u.side == side and u.on_map and u.is_soldier and u.disrupted \
                    and u.hex.distance(c.hex) <= 1:
                u.disrupted = False
                out.append(AbilityUsed(c.uid, "Exert Will",
                                       text=f"{c.name} exerts its will: {u.name} is no "
                                            f"longer disrupted."))
    return out


# --- movement ----------------------------------------------------------------------------------------
@register("speed", "relocate")
def _relocate(value, ab, ctx):
    if ctx.get("role") != "unit":
        return value
    return ab.value if ctx["phase"] in (Phase.ASSAULT_FIRST, Phase.ASSAULT_SECOND) else 0


@register("speed", "strike_and_fade")
def _strike_and_fade_speed(value, ab, ctx):
    st: GameState = ctx["state"]
    u: Unit = ctx["unit"]
    tags = activation_tags(st, u.uid)
    if ctx.get("role") == "unit" and tags is not None and _attacks(tags) and "move" not in tags:
        return ab.value
    return value


@register("speed", "tally_ho", scope="any")
def _tally_ho(value, ab, ctx):
    st: GameState = ctx["state"]
    u: Unit = ctx["unit"]
    if ctx["phase"] not in (Phase.MOVEMENT_FIRST, Phase.MOVEMENT_SECOND) or not u.is_soldier \
            or _is_artillery(u):
        return value
    start = st.moving.start if st.moving is not None and st.moving.uid == u.uid else u.hex
    if start is None:
        return value
    for c in st.units.values():
        if c.side == u.side and c.on_map and not c.disrupted and c.card.has("tally_ho") \
                and c.hex.distance(start) <= 1:
            return value + 1
    return value


@register("movement_roll_kinds", "weak_suspension")
def _weak_suspension(kinds, ab, ctx):
    if ctx["terrain"] == Terrain.HILL and not ctx["along_road"]:
        return list(kinds) + ["hill"]
    return kinds


@register("movement_roll_kinds", "forest_runner")
def _forest_runner(kinds, ab, ctx):
    return [k for k in kinds if k != "forest"]


@register("movement_roll_kinds", "trench_crossing")
def _trench_crossing(kinds, ab, ctx):
    return [k for k in kinds if k != "stream"]


@register("move_cost", "excellent_suspension")
def _excellent_suspension(cost, ab, ctx):
    if ctx["terrain"] == Terrain.HILL and not ctx["along_road"] and ctx["unit"].is_vehicle:
        return min(cost, 1)
    return cost


def _all_road(st: GameState, start: Hex, path) -> bool:
    bm = st.battle_map
    h = start
    for n in path:
        if not bm.is_road(h, n, st.destroyed_bridges):
            return False
        h = n
    return True


@register("path_speed", "high_gear")
def _high_gear_speed(speed, ab, ctx):
    path = ctx["path"]
    if path and _all_road(ctx["state"], ctx["start"], path):
        return speed + ab.value
    return speed


@register("reach", "high_gear")
def _high_gear_reach(result, ab, ctx):
    """High Gear: hexes reachable by a move made entirely along roads with the extra
    speed (the ordinary search can't know the whole path is on the road)."""
    st: GameState = ctx["state"]
    u: Unit = ctx["unit"]
    phase = ctx["phase"]
    speed = movement.movement_speed(st, u, phase) + ab.value
    bonus0 = movement._road_bonus(st, u, phase)
    bm = st.battle_map
    start = ctx["start"]
    out = dict(result)
    frontier = [(start, (), 0, False)]
    seen = {(start, False): 0}
    while frontier:
        nxt = []
        for h, path, cost, used in frontier:
            for n in bm.neighbors(h):
                if n not in bm.terrain or not bm.is_road(h, n, st.destroyed_bridges):
                    continue
                stp = movement.step(st, u, h, n, bonus_left=bonus0 and not used,
                                    speed_one=False, phase=phase)
                if stp.reason is not None or not stp.along_road:
                    continue
                c = cost + stp.cost
                if c > speed:
                    continue
                nu = used or stp.free
                if seen.get((n, nu), 1 << 30) <= c:
                    continue
                seen[(n, nu)] = c
                npath = path + (n,)
                nxt.append((n, npath, c, nu))
                if n != start and n not in out:
                    out[n] = Reach(path=npath, cost=c, rolls=(), road_bonus_used=nu,
                                   stops=movement.stop_problem(st, u, n) is None)
        frontier = nxt
    return out


# --- transport -------------------------------------------------------------------------------------
@register("can_board", "large")
def _large(value, ab, ctx):
    return f"{ctx['unit'].name} is Large: no transport can carry it" \
        if ctx.get("role") == "unit" else value


@register("can_board", "gun_transport")
def _gun_transport(value, ab, ctx):
    u: Unit = ctx["unit"]
    if ctx.get("role") == "carrier" and _is_artillery(u) and not u.card.has("large"):
        return True
    return value


@register("attackable_aboard", "exposed_transport")
def _exposed_transport(value, ab, ctx):
    return True if ctx.get("role") == "carrier" else value


def _platform_problem(st: GameState, u: Unit, ignore_acted: bool = False) -> str | None:
    """Why boarded ``u`` may not attack from its carrier now (Fighting Platform)."""
    c = st.units.get(u.carrier or "")
    if c is None or not c.card.has("fighting_platform"):
        return f"{u.name} is aboard a transport and can't act for itself"
    if _is_artillery(u):
        return "Artillery can't fire from a Fighting Platform"
    if not st.phase.is_assault or u.side != st.active_side or st.pending is not None:
        return "a Soldier fires from a Fighting Platform in its own assault phase"
    if u.acted and not ignore_acted:
        return f"{u.name} has already acted this phase (ruling 7: one activation per phase)"
    if c.uid in _phase_set(st, "moved"):
        return f"{c.name} has moved this phase: its passenger can't fire from it"
    return None


@register("attack_from_aboard", "fighting_platform")
def _fighting_platform(value, ab, ctx):
    if ctx.get("role") != "carrier":
        return value
    st: GameState = ctx["state"]
    a: Unit = ctx["attacker"]
    if _is_artillery(a):
        return value
    if ctx.get("defensive"):
        return True
    return True if _platform_problem(st, a) is None or a.acted else value


@register("can_move", "fighting_platform")
def _platform_carrier_move(value, ab, ctx):
    st: GameState = ctx["state"]
    u: Unit = ctx["unit"]
    if ctx.get("role") == "unit" and u.uid in _phase_set(st, "platform_fired"):
        return f"its passenger fired from {u.name} this phase, so it can't move"
    return value


@register("can_fire_defensively", "suppressive_fire")
def _suppressive_fire(value, ab, ctx):
    e: Unit = ctx["firer"]
    if ctx.get("role") not in ("unit", "firer") or value is True or e.disrupted:
        return value
    st: GameState = ctx["state"]
    key = _step_key(st)
    got = st.marks.get("df_step")
    if key is not None and got and got[0] == key[:4] and e.uid in got[1]:
        return value
    return True
