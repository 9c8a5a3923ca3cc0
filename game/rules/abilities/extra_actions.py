"""Abilities that add actions to an activation or to defensive fire: Double Shot,
All Guns Blazing, Strike and Fade, Suppressive Fire, Overlapping Fire, Battlefield
Awareness (and the mode attacks and Fighting Platform attacks listed in
``legal_actions``)."""
from __future__ import annotations

from typing import Any, Callable

from .. import activation, combat
from ..families import defensive_fire
from .. import movement
from ..actions import Action, Attack, DefensiveFire, Move
from ..cards import VEHICLE
from ..errors import MalformedAction
from ..events import Event
from ..state import DefensiveFirePrompt, GameState, Unit
from . import register
from .spec import AbilitySpec, define
from .common import MODE_ABILITIES, _NOT_EXTRA, _attacks
from .transport import _platform_problem


SPECS = define(
    AbilitySpec(
        "double_shot", "Double Shot", False,
        "When this unit is activated to attack in its own assault phase it makes two attacks,"
        " one after the other, each against the same or another target and each following the"
        " normal attack rules; it can't move between them. When it fires defensively it makes"
        " two attacks against the moving unit at the same stage (the hex it leaves or the hex"
        " it enters); if the first one stops the mover, the second is not made."),
    AbilitySpec(
        "suppressive_fire", "Suppressive Fire", False,
        "This unit is not limited to one defensive-fire attack per phase: while it is not"
        " disrupted it may fire defensively at every enemy move that provokes it. It still"
        " fires at most once at each provoking move (twice with Double Shot)."),
    AbilitySpec(
        "all_guns_blazing", "All Guns Blazing", False,
        "In its own assault phase, after this unit makes its attack, it may make one extra"
        " attack as part of the same activation. The extra attack must target an enemy Soldier"
        " (the same target or another) and follows the normal attack rules. Not with defensive"
        " fire.", unit_type=VEHICLE),
    AbilitySpec(
        "strike_and_fade", "Strike and Fade {n}", True,
        "In its own assault phase, after this unit attacks, it may move up to {n} hexes as part"
        " of the same activation, following every movement rule (terrain costs, movement rolls,"
        " defensive fire, stacking). It can't attack after moving. A damaged Vehicle's speed is"
        " 1 lower for this move too, as for any move: with Strike and Fade 1 a damaged Vehicle"
        " can't move or turn after attacking.", value_range=(1, 5)),
    AbilitySpec(
        "overlapping_fire", "Overlapping Fire", False,
        "This Vehicle may fire defensively at enemy Soldiers: a Soldier moving from one hex next"
        " to it into another hex next to it provokes its defensive fire, as a moving Vehicle"
        " would (normally Soldiers don't provoke defensive fire from Vehicles). The usual"
        " limit of one defensive-fire attack per phase still applies.", unit_type=VEHICLE),
    AbilitySpec(
        "battlefield_awareness", "Battlefield Awareness", False,
        "An enemy Vehicle that moves out of a hex next to this unit into a hex that is not next"
        " to it provokes this unit's defensive fire, taken while the Vehicle is still in the"
        " hex it leaves (usually against its rear, since a moving Vehicle faces the hex it"
        " enters). Moves from one hex next to it into another are provoked as usual. The"
        " usual limit of one defensive-fire attack per phase still applies.",
        unit_type=VEHICLE),
)


def activation_tags(state: GameState, uid: str) -> tuple[str, ...] | None:
    """What ``uid`` has done in its current activation (game.rules.activation)."""
    return activation.tags(state, uid)


def _extra_problem(state: GameState, u: Unit, action: Action) -> str | None:
    """Why ``action`` is not an extra action ``u`` may take within its current
    activation (None: it may)."""
    tags = activation_tags(state, u.uid)
    if tags is None or not state.phase.is_assault or u.side != state.active_side:
        return _NOT_EXTRA
    if isinstance(action, Attack):
        t = state.units.get(action.target)
        if t is None:
            return "no such target"
        closed = _attacks_closed(u, tags)
        if closed is not None:
            return closed
        attacks = _attacks(tags)
        card = u.card
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
    attacks = _attacks(tags)
    moved = "move" in tags
    card = u.card
    if isinstance(action, Move):
        if card.has("strike_and_fade") and attacks and not moved:
            if movement.movement_speed(state, u) <= 0:
                return ("Strike and Fade: a damaged Vehicle's speed is 1 lower for this move"
                        " too, so it can't move or turn now")
            return None
        return _NOT_EXTRA
    return _NOT_EXTRA


def _attacks_closed(u: Unit, tags: tuple[str, ...]) -> str | None:
    """The part of :func:`_extra_problem` for an extra attack that reads neither the
    target nor the mode: the reason every extra attack of ``u`` is refused within its
    activation (``tags``), or None when the answer depends on the target or mode."""
    if "move" in tags:
        return "it can't attack after moving"
    attacks = _attacks(tags)
    if not attacks:
        return _NOT_EXTRA
    card = u.card
    if card.has("additional_hull_mounted_cannon"):
        return None
    if len(attacks) == 1 and attacks[0] != "additional_hull_mounted_cannon" and (
            card.has("double_shot") or card.has("all_guns_blazing")):
        return None
    return "it has made all the attacks it may make this activation"


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
        reason: str | None = game.rule_problem(action)
        return reason
    except MalformedAction as exc:      # keep the engine's wording
        return str(exc)
    finally:
        u.acted = was


def extra_actions(game: Any, u: Unit) -> list[Action]:
    """Extra actions ``u`` may take now within its activation."""
    st = game.state
    if not u.acted or st.pending is not None:
        return []
    tags = activation_tags(st, u.uid)
    if tags is None:
        return []
    out: list[Action] = []
    # the cheap activation check first (it decides most candidates; the part of it that
    # reads no target, once for all), then the attack's
    if _attacks_closed(u, tags) is None:
        for a in _attack_candidates(st, u, lambda a: _extra_problem(st, u, a) is None):
            if _recheck(game, u, a) is None:
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


#: the modes whose attacks :func:`_mode_may_apply` allows only on a target in the
#: attacker's own hex
_SAME_HEX_MODES = frozenset({"close_assault", "hand_to_hand"})


def _mode_may_apply(mode: str, u: Unit, t: Unit) -> bool:
    """Cheap pre-check before planning a mode attack (the plan has the last word)."""
    if mode == "close_assault":
        return t.is_vehicle and t.hex == u.hex
    if mode == "hand_to_hand":
        return t.is_soldier and t.hex == u.hex
    if mode in ("armor_piercing_rounds", "additional_hull_mounted_cannon"):
        return t.is_vehicle
    return True


def _attack_candidates(st: GameState, u: Unit,
                       first: Callable[[Attack], bool] | None = None) -> list[Attack]:
    """``u``'s attacks the rules allow now, every mode; ``first``: a further
    condition, asked before the attack's own check."""
    modes = ["normal"] + [m for m in MODE_ABILITIES if u.card.has(m)]
    out = []
    for t in st.units.values():
        if not t.on_map or t.side == u.side:
            continue
        for mode in modes:
            if not _mode_may_apply(mode, u, t):
                continue
            a = Attack(u.side, u.uid, t.uid, mode)
            if (first is None or first(a)) and \
                    combat.attack_allowed(st, u.uid, t.uid, mode=mode):
                out.append(a)
    return out


@register("activation_options")
def _activation_options(value: Any, ability: Any, ctx: dict[str, Any]) -> Any:
    """Mode attacks (Close Assault, Hand to Hand, Armor-Piercing Rounds, the hull
    cannon), attacks on exposed passengers, Fighting Platform passengers' attacks,
    and the extra actions of the current activation."""
    u: Unit = ctx["unit"]
    game = ctx.get("game")
    st: GameState = ctx["state"]
    if game is None or not st.phase.is_assault or u.side != st.active_side \
            or st.pending is not None or u.hex is None or u.destroyed:
        return value
    out = list(value)
    if u.acted:
        out.extend(extra_actions(game, u))
        return out
    if u.carrier is not None:
        if _platform_problem(st, u) is None:
            out.extend(a for a in _attack_candidates(st, u))
        return out
    modes_of_unit = _modes_of(u.card)
    side = u.side
    if not modes_of_unit and not game._caches.enemies_aboard(st, side):
        return out
    enemies = game._caches.enemies_on_map(st, side)
    if activation.problem(st, u) is not None:
        return out
    # a target outside u's hex passes the pre-check of no same-hex mode
    near_only = _near_only(u.card)
    here = u.hex
    for t in enemies:
        if near_only and t.hex != here and t.carrier is None:
            continue
        modes = [m for m in modes_of_unit if _mode_may_apply(m, u, t)] if modes_of_unit \
            else []
        if t.carrier is not None:
            modes = ["normal"] + modes
        for mode in modes:
            if combat.attack_allowed(st, u.uid, t.uid, mode=mode):
                out.append(Attack(side, u.uid, t.uid, mode))
    return out


_MODES: dict[int, tuple[Any, tuple[str, ...], bool]] = {}


def _modes_of(card: Any) -> tuple[str, ...]:
    """The attack-mode abilities on ``card`` (cards never change: cached per card)."""
    return _modes_entry(card)[1]


def _near_only(card: Any) -> bool:
    """Whether every attack-mode ability on ``card`` is one of ``_SAME_HEX_MODES``."""
    return _modes_entry(card)[2]


def _modes_entry(card: Any) -> tuple[Any, tuple[str, ...], bool]:
    got = _MODES.get(id(card))
    if got is None or got[0] is not card:
        if len(_MODES) > 4096:
            _MODES.clear()
        modes = tuple(m for m in MODE_ABILITIES if card.has(m))
        got = _MODES[id(card)] = (card, modes, all(m in _SAME_HEX_MODES for m in modes))
    return got


@register("action_allowed", lifts_only=True)
def _action_allowed(reason: Any, ability: Any, ctx: dict[str, Any]) -> Any:
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
def _perform(value: Any, ability: Any, ctx: dict[str, Any]) -> Any:
    """Defensive fire with Double Shot's second attack at the same stage and
    Suppressive Fire's once-per-provoking-move memory (other actions: the rules')."""
    if value is not None or not isinstance(ctx["action"], DefensiveFire):
        return value
    if not isinstance(ctx["state"].pending, DefensiveFirePrompt):
        return value        # later edition: Antiair's shot at a placed Aircraft (its own rule)
    return _defensive_fire(ctx["game"], ctx["action"])


def _defensive_fire(game: Any, a: DefensiveFire) -> list[Event]:
    """The engine's defensive fire, with Double Shot's second attack at the same
    stage and Suppressive Fire's once-per-provoking-move memory."""
    st: GameState = game.state
    _note_step_shot(st, a.uid)
    shots = 2 if st.units[a.uid].card.has("double_shot") else 1
    return defensive_fire.fire(game, a, shots=shots)


def _step_key(st: GameState) -> tuple[Any, ...] | None:
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


@register("speed", "strike_and_fade")
def _strike_and_fade_speed(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    st: GameState = ctx["state"]
    u: Unit = ctx["unit"]
    tags = activation_tags(st, u.uid)
    if ctx.get("role") == "unit" and tags is not None and _attacks(tags) and "move" not in tags:
        # the ability's number is the move's speed; a damaged Vehicle's is 1 lower
        return max(0, ab.value - (1 if u.damaged and u.is_vehicle else 0))
    return value


@register("can_fire_defensively", "suppressive_fire")
def _suppressive_fire(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    e: Unit = ctx["firer"]
    if ctx.get("role") not in ("unit", "firer") or value is True or e.disrupted:
        return value
    st: GameState = ctx["state"]
    key = _step_key(st)
    got = st.marks.get("df_step")
    if key is not None and got and got[0] == key[:4] and e.uid in got[1]:
        return value
    return True


@register("provokes_defensive_fire", "overlapping_fire")
def _overlapping_fire(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """Overlapping Fire: Soldiers moving past this Vehicle provoke it."""
    if ctx.get("role") != "firer" or value is True:
        return value
    e: Unit = ctx["firer"]
    m: Unit = ctx["mover"]
    if e.hex is None:
        return value
    if m.is_soldier and e.hex.distance(ctx["from_hex"]) <= 1 and \
            e.hex.distance(ctx["to_hex"]) <= 1:
        return True
    return value


@register("provokes_defensive_fire", "battlefield_awareness")
def _battlefield_awareness(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """Battlefield Awareness: an enemy Vehicle moving away (out of a hex next to this
    unit into one that is not) provokes it, in the hex it leaves."""
    if ctx.get("role") != "firer" or value is True:
        return value
    e: Unit = ctx["firer"]
    m: Unit = ctx["mover"]
    if e.hex is None:
        return value
    if m.is_vehicle and ctx["stage"] == "leave" and e.hex.distance(ctx["from_hex"]) <= 1 \
            and e.hex.distance(ctx["to_hex"]) > 1:
        return True
    return value
