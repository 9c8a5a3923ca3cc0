"""New actions of the whole roster (issue 19): a short move before an attack
(Aggression, Banzai Charge, Angriff), once-per-game rounds (Rocket Salvo,
Top-Mounted Rockets, Headshot), Remote Control, extra attacks in one activation
(Extra Machine Guns, Extra Hull-Mounted Cannon, Rapid Fire, Multiturreted) and a
turn after the attack (Command Quick Reactions)."""
from __future__ import annotations

from typing import Any

from dataclasses import replace

from .. import activation, combat, movement
from ..actions import Attack, Move
from ..errors import IllegalAction
from ..events import CounterPlaced, Event
from ..hexes import hex_label
from ..odds import binomial
from ..state import DISRUPTED, GameState, Unit
from . import register
from .roster_common import aura
from .spec import AbilitySpec, _COMMANDER_TAIL, define
from .common import (AbilityRoll, AbilityUsed, _attacks, _game_add, _game_set, _in_front_arc,
                     _is_artillery, _phase_add, _phase_set)
from .extra_actions import _attack_candidates, _recheck

#: Rocket Salvo's dice against each Soldier and each Vehicle
SALVO_DICE = {"Soldier": 10, "Vehicle": 5}


SPECS = define(
    AbilitySpec(
        "aggression", "Aggression {n}", True,
        "In its own assault phase this unit may first move, spending at most {n} hexes of"
        " movement (terrain costs count; every movement rule applies, defensive fire"
        " included), and then attack, both as one activation. After a longer move it can't"
        " attack, as usual. It can't move again after the attack.", value_range=(1, 5)),
    AbilitySpec(
        "rocket_salvo", "Rocket Salvo", False,
        "Once per game, in its own assault phase, instead of a normal attack it may fire a"
        " salvo: 10 dice at every Soldier and 5 at every Vehicle in or next to the target's"
        " hex, friendly units too (each its own attack; units out of its sight or range are"
        " spared). Choose it as an attack mode."),
)


# --- Aggression ----------------------------------------------------------------------------
@register("perform", "aggression")
def _aggression_move(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """Remember an assault-phase move short enough to attack after it."""
    st: GameState = ctx["state"]
    u: Unit | None = ctx.get("unit")
    a = ctx["action"]
    if ctx.get("role") != "unit" or u is None or not isinstance(a, Move) or not a.path \
            or not st.phase.is_assault or u.acted or u.uid != a.uid:
        return value
    got = movement.walk_cost(st, u.uid, a.path)
    if not isinstance(got, str) and got.cost <= ab.value:
        _phase_add(st, "aggression_move", u.uid)
    return value


def _may_attack_now(st: GameState, u: Unit) -> bool:
    tags = activation.tags(st, u.uid)
    return tags is not None and "move" in tags and not _attacks(tags) and \
        u.uid in _phase_set(st, "aggression_move") and st.phase.is_assault and \
        u.side == st.active_side and st.pending is None


@register("activation_options", "aggression")
def _aggression_options(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    st: GameState = ctx["state"]
    u: Unit = ctx["unit"]
    game = ctx.get("game")
    if ctx.get("role") != "unit" or game is None or not u.acted or not _may_attack_now(st, u):
        return value
    return list(value) + [a for a in _attack_candidates(st, u) if _recheck(game, u, a) is None]


@register("action_allowed", "aggression")
def _aggression_attack(reason: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    u: Unit | None = ctx.get("unit")
    a = ctx["action"]
    game = ctx.get("game")
    if reason is None or ctx.get("role") != "unit" or u is None or game is None \
            or not isinstance(a, Attack) or not u.acted or a.side != u.side:
        return reason
    if not _may_attack_now(game.state, u):
        return reason
    return _recheck(game, u, a)


# --- Rocket Salvo ---------------------------------------------------------------------------
@register("attack_dice", "rocket_salvo")
def _salvo_dice(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") == "attacker" and ctx.get("mode") == ab.id:
        return SALVO_DICE.get(ctx["target"].card.type, value)
    return value


@register("can_attack", "rocket_salvo")
def _salvo_allowed(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") != "attacker" or ctx.get("mode") != ab.id or value is not True:
        return value
    if ctx.get("defensive"):
        return "a Rocket Salvo is not fired defensively"
    st: GameState = ctx["state"]
    a: Unit = ctx["attacker"]
    if ctx.get("secondary"):
        return value
    if a.uid in _game_set(st, "rocket_salvo_used"):
        return f"{a.name} has already fired its Rocket Salvo (once per game)"
    # the target needs an ordinary attack: printed dice at this range
    if not a.card.dice(ctx["target"].card.type, ctx["band"]):
        return f"{a.name} has no attack against {ctx['target'].card.type}s at that range"
    return value


@register("activation_options", "rocket_salvo")
def _salvo_options(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    st: GameState = ctx["state"]
    u: Unit = ctx["unit"]
    if ctx.get("role") != "unit" or u.acted or not st.phase.is_assault or \
            u.side != st.active_side or st.pending is not None or \
            u.uid in _game_set(st, "rocket_salvo_used") or activation.problem(st, u):
        return value
    out = list(value)
    for t in st.units.values():
        if t.on_map and t.side != u.side and \
                combat.why_not_attack(st, u.uid, t.uid, mode=ab.id) is None:
            out.append(Attack(u.side, u.uid, t.uid, ab.id))
    return out


@register("perform", "rocket_salvo")
def _salvo(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """The salvo: one attack per unit in or next to the target's hex (each a
    secondary attack, so Blast doesn't add more)."""
    a = ctx["action"]
    u: Unit | None = ctx.get("unit")
    if value is not None or ctx.get("role") != "unit" or u is None or \
            not isinstance(a, Attack) or a.mode != ab.id or a.uid != u.uid:
        return value
    st: GameState = ctx["state"]
    t = st.units[a.target]
    centre = t.hex
    assert centre is not None
    u.acted = True
    out: list[Event] = [AbilityUsed(u.uid, ab.name,
                                    text=f"{u.name} fires its Rocket Salvo at "
                                         f"{hex_label(centre)} and the hexes around it.")]
    out += combat.resolve_attack(st, u.uid, t.uid, ctx["dice"], mode=ab.id, secondary=True)
    others = sorted((o for o in st.units.values()
                     if o is not u and o is not t and o.on_map and o.hex is not None
                     and o.hex.distance(centre) <= 1),
                    key=lambda o: (o.hex.distance(centre) if o.hex else 0, o.uid))
    for o in others:
        if o.destroyed:
            continue
        if o.boarded:
            c = st.units.get(o.carrier or "")
            if c is None or not c.card.has("exposed_transport"):
                continue
        try:
            out += combat.resolve_attack(st, u.uid, o.uid, ctx["dice"], mode=ab.id,
                                         secondary=True)
        except IllegalAction:
            continue                # no line of sight or out of range: not attacked
    _game_add(st, "rocket_salvo_used", u.uid)
    return out


# === the later sets' other attack actions ======================================================
SPECS_MORE = define(
    AbilitySpec(
        "top_mounted_rockets", "Top-Mounted Rockets", False,
        "This unit's attacks ignore cover (its targets make no cover rolls). Once per game,"
        " in its own assault phase, instead of a normal attack on an enemy Soldier or Vehicle,"
        " it may fire its rockets: a separate attack with 8 dice on every Soldier and 4 dice"
        " on every Vehicle in the target's hex or next to it, the target and friendly units"
        " included (units it has no line of sight to or that are out of range are not"
        " attacked). Hexfront fires it as an attack mode: choose Top-Mounted Rockets.",
        not_in_first_edition="It can't attack Aircraft (later edition; the first edition has"
                             " none)."),
    AbilitySpec(
        "headshot", "Headshot", False,
        "Once per game, in its own assault phase, instead of a normal attack on an enemy"
        " Vehicle, this unit may try a headshot: it rolls 6 dice (line of sight and range as"
        " usual); with 3 or more successes the Vehicle gets a face-up Disrupted counter at"
        " once, otherwise nothing happens. Hexfront fires it as an attack mode."),
    AbilitySpec(
        "remote_control", "Remote Control", False,
        "Instead of a normal attack in its own assault phase, this unit may pick an enemy"
        " Soldier or Vehicle (line of sight and range as usual) and roll two dice: only if both"
        " are higher than the distance to the target does it attack, with 12 dice against a"
        " Vehicle or 8 against a Soldier. Hexfront fires it as an attack mode."),
    AbilitySpec(
        "extra_machine_guns", "Extra Machine Guns", False,
        "In its own assault phase, after this unit makes its attack, it may make one extra"
        " attack as part of the same activation; the extra attack must target an enemy"
        " Soldier. Not with defensive fire.", unit_type="Vehicle"),
    AbilitySpec(
        "extra_hull_mounted_cannon", "Extra Hull-Mounted Cannon", False,
        "In its own assault phase, as part of the same activation as its normal attack (before"
        " or after it), this Vehicle may make one extra attack with 8 dice at short range, 7"
        " at medium and 5 at long range, at an enemy Soldier or Vehicle in its front arc"
        " (ruling 1). Not with defensive fire. Hexfront lists it as an attack mode.",
        unit_type="Vehicle"),
    AbilitySpec(
        "rapid_fire", "Rapid Fire", False,
        "In its own assault phase, after this unit makes its attack, it may attack once more"
        " as part of the same activation; if that extra attack roll shows any 1, the unit gets"
        " a face-up Disrupted counter at once, which is not removed at the next casualty"
        " phase."),
    AbilitySpec(
        "multiturreted", "Multiturreted", False,
        "In its own assault phase this Vehicle may make two attacks as one activation: one at"
        " a unit in its front arc (ruling 1) and one at a unit that is not, in either order.",
        unit_type="Vehicle"),
    AbilitySpec(
        "command_quick_reactions", "Command Quick Reactions", False,
        "A friendly Vehicle within 2 hexes of this commander (the commander itself included)"
        " may turn to any facing after it attacks in its own assault phase, as part of the"
        " same activation (normally a unit that attacks keeps its facing)." + _COMMANDER_TAIL,
        commander=True),
    AbilitySpec(
        "banzai_charge", "Banzai Charge", False,
        "In its own assault phase a friendly non-Artillery Soldier that starts its move"
        " adjacent to this commander (in its hex or the next hex, the commander itself"
        " excluded) may move into a hex holding an enemy unit and then, as the same"
        " activation, attack a unit in that hex with +1 on each attack die." + _COMMANDER_TAIL,
        commander=True),
    AbilitySpec(
        "angriff", "Angriff", False,
        "In its own assault phase a friendly non-Artillery Soldier that is not disrupted and"
        " starts its move adjacent to this commander (in its hex or the next hex, the"
        " commander itself excluded) may step one hex into a hex holding an enemy Soldier or"
        " Vehicle and then, as the same activation, attack a unit in that hex with +1 on each"
        " attack die." + _COMMANDER_TAIL, commander=True),
)

#: dice of the rockets of Top-Mounted Rockets, per target type
ROCKET_DICE = {"Soldier": 8, "Vehicle": 4}
#: Extra Hull-Mounted Cannon's dice per range band
EXTRA_CANNON_DICE = {"short": 8, "medium": 7, "long": 5}
#: Headshot: dice and the successes it needs
HEADSHOT_DICE, HEADSHOT_NEED = 6, 3
#: Remote Control: dice against each target type
REMOTE_DICE = {"Soldier": 8, "Vehicle": 12}


def _salvo_attacks(st: GameState, u: Unit, t: Unit, dice: Any, mode: str, label: str
                   ) -> list[Event]:
    """One attack on ``t`` and on every other unit in or next to its hex."""
    centre = t.hex
    assert centre is not None
    out: list[Event] = [AbilityUsed(u.uid, label, text=f"{u.name} fires its {label} at "
                                                       f"{hex_label(centre)} and the hexes"
                                                       f" around it.")]
    out += combat.resolve_attack(st, u.uid, t.uid, dice, mode=mode, secondary=True)
    others = sorted((o for o in st.units.values()
                     if o is not u and o is not t and o.on_map and o.hex is not None
                     and o.hex.distance(centre) <= 1),
                    key=lambda o: (o.hex.distance(centre) if o.hex else 0, o.uid))
    for o in others:
        if o.destroyed:
            continue
        try:
            out += combat.resolve_attack(st, u.uid, o.uid, dice, mode=mode, secondary=True)
        except IllegalAction:
            continue
    return out


def _mode_ready(st: GameState, u: Unit, used_key: str | None) -> bool:
    return not u.acted and st.phase.is_assault and u.side == st.active_side and \
        st.pending is None and (used_key is None or u.uid not in _game_set(st, used_key)) \
        and activation.problem(st, u) is None


def _mode_attacks(st: GameState, u: Unit, mode: str) -> list[Attack]:
    return [Attack(u.side, u.uid, t.uid, mode) for t in st.units.values()
            if t.on_map and t.side != u.side
            and combat.why_not_attack(st, u.uid, t.uid, mode=mode) is None]


def _offer_mode_attacks(ability_id: str, used_key: str | None) -> None:
    """Register the activation options of an attack-mode ability: while the unit may
    still act in its assault phase (and has not used a once-per-game mode, ``used_key``),
    its legal attacks in that mode are offered."""
    def options(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
        st: GameState = ctx["state"]
        u: Unit = ctx["unit"]
        if ctx.get("role") != "unit" or not _mode_ready(st, u, used_key):
            return value
        return list(value) + _mode_attacks(st, u, ab.id)
    options.__name__ = f"_{ability_id}_options"
    register("activation_options", ability_id)(options)


# --- Top-Mounted Rockets --------------------------------------------------------------------
@register("can_cover", "top_mounted_rockets")
def _rockets_ignore_cover(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    return False if ctx.get("role") == "attacker" else value


@register("attack_dice", "top_mounted_rockets")
def _rockets_dice(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") == "attacker" and ctx.get("mode") == ab.id:
        return ROCKET_DICE.get(ctx["target"].card.type, value)
    return value


@register("can_attack", "top_mounted_rockets")
def _rockets_allowed(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") == "attacker" and value is True and ctx["target"].card.is_aircraft:
        return f"{ctx['attacker'].name} can't attack Aircraft ({ab.name})"
    if ctx.get("role") != "attacker" or ctx.get("mode") != ab.id or value is not True \
            or ctx.get("secondary"):
        return value
    a: Unit = ctx["attacker"]
    if ctx.get("defensive"):
        return "the rockets are not fired defensively"
    if a.uid in _game_set(ctx["state"], "rockets_used"):
        return f"{a.name} has already fired its rockets (once per game)"
    if not a.card.dice(ctx["target"].card.type, ctx["band"]):
        return f"{a.name} has no attack against {ctx['target'].card.type}s at that range"
    return value


_offer_mode_attacks("top_mounted_rockets", "rockets_used")


@register("perform", "top_mounted_rockets")
def _rockets(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    a = ctx["action"]
    u: Unit | None = ctx.get("unit")
    if value is not None or ctx.get("role") != "unit" or u is None or \
            not isinstance(a, Attack) or a.mode != ab.id or a.uid != u.uid:
        return value
    st: GameState = ctx["state"]
    u.acted = True
    out = _salvo_attacks(st, u, st.units[a.target], ctx["dice"], ab.id, ab.name)
    _game_add(st, "rockets_used", u.uid)
    return out


# --- Headshot ------------------------------------------------------------------------------
@register("attack_dice", "headshot")
def _headshot_dice(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") == "attacker" and ctx.get("mode") == ab.id:
        return HEADSHOT_DICE if ctx["target"].is_vehicle else None
    return value


@register("can_attack", "headshot")
def _headshot_allowed(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") != "attacker" or ctx.get("mode") != ab.id or value is not True:
        return value
    if ctx.get("defensive"):
        return "a headshot is not tried with defensive fire"
    if ctx["attacker"].uid in _game_set(ctx["state"], "headshot_used"):
        return f"{ctx['attacker'].name} has already tried its headshot (once per game)"
    return value


@register("hits", "headshot")
def _headshot_hits(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """A headshot places no hit counters (its effect is the Disrupted counter)."""
    return 0 if ctx.get("role") == "attacker" and ctx.get("mode") == ab.id else value


@register("after_attack", "headshot")
def _headshot(events: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") != "attacker" or ctx.get("mode") != ab.id:
        return events
    st: GameState = ctx["state"]
    a: Unit = ctx["attacker"]
    t: Unit = ctx["target"]
    _game_add(st, "headshot_used", a.uid)
    successes = sum(1 for r in ctx["rolls"] if r >= ctx["plan"].need)
    if successes < HEADSHOT_NEED or t.destroyed:
        return list(events) + [AbilityUsed(a.uid, ab.name,
                                           text=f"{a.name}'s headshot misses.")]
    t.disrupted = True
    return list(events) + [
        AbilityUsed(a.uid, ab.name, text=f"Headshot: {successes} successes."),
        CounterPlaced(t.uid, DISRUPTED, True, a.uid,
                      text=f"{t.name} gets a face-up Disrupted counter (Headshot).")]


_offer_mode_attacks("headshot", "headshot_used")


@register("odds", "headshot")
def _headshot_odds(odds: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    plan = ctx["plan"]
    if ctx.get("role") != "attacker" or plan.mode != ab.id:
        return odds
    pmf = binomial(plan.dice, plan.p_success)
    p = sum(pmf[HEADSHOT_NEED:])
    return replace(odds, p_none=1.0 - p, p_disrupted=p, p_damaged=0.0, p_destroyed=0.0)


# --- Remote Control --------------------------------------------------------------------------
@register("attack_dice", "remote_control")
def _remote_dice(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") == "attacker" and ctx.get("mode") == ab.id:
        return REMOTE_DICE.get(ctx["target"].card.type, value)
    return value


@register("can_attack", "remote_control")
def _remote_allowed(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") == "attacker" and ctx.get("mode") == ab.id and value is True and \
            ctx.get("defensive"):
        return "Remote Control is not used with defensive fire"
    return value


_offer_mode_attacks("remote_control", None)


def _remote_gate(distance: int) -> float:
    """Chance both dice are higher than the distance."""
    return (max(0, 6 - distance) / 6.0) ** 2


@register("perform", "remote_control")
def _remote(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    a = ctx["action"]
    u: Unit | None = ctx.get("unit")
    if value is not None or ctx.get("role") != "unit" or u is None or \
            not isinstance(a, Attack) or a.mode != ab.id or a.uid != u.uid:
        return value
    st: GameState = ctx["state"]
    t = st.units[a.target]
    assert u.hex is not None and t.hex is not None
    dist = u.hex.distance(t.hex)
    u.acted = True
    d1, d2 = ctx["dice"].d6(), ctx["dice"].d6()
    ok = d1 > dist and d2 > dist
    out: list[Event] = [AbilityRoll(u.uid, ab.name, min(d1, d2), dist + 1, ok,
                                    text=f"{u.name}'s Remote Control rolls {d1} and {d2}"
                                         f" (both must beat {dist}): "
                                         f"{'it reaches ' + t.name if ok else 'it fails'}.")]
    if ok:
        out += combat.resolve_attack(st, u.uid, t.uid, ctx["dice"], mode=ab.id)
    return out


@register("odds", "remote_control")
def _remote_odds(odds: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    plan = ctx["plan"]
    if ctx.get("role") != "attacker" or plan.mode != ab.id:
        return odds
    g = _remote_gate(plan.distance)
    return replace(odds, p_none=1.0 - g * (1.0 - odds.p_none), p_disrupted=g * odds.p_disrupted,
                   p_damaged=g * odds.p_damaged, p_destroyed=g * odds.p_destroyed)


# --- extra attacks in the same activation ----------------------------------------------------
def _activation_attacks(st: GameState, u: Unit) -> list[str] | None:
    """The modes of the attacks ``u`` made in its activation under way (None: no
    extra action is possible now: not its own assault phase, it moved...)."""
    tags = activation.tags(st, u.uid)
    if tags is None or not u.acted or not st.phase.is_assault or u.side != st.active_side \
            or st.pending is not None or "move" in tags or "turn" in tags:
        return None
    return _attacks(tags)


def _front(st: GameState, u: Unit, t: Unit) -> bool:
    assert u.hex is not None and t.hex is not None
    return _in_front_arc(u.hex, u.facing, t.hex)


def _extra_attack_ok(st: GameState, u: Unit, a: Attack) -> bool:
    """Whether ``a`` is an extra attack one of ``u``'s abilities grants now."""
    attacks = _activation_attacks(st, u)
    if not attacks:
        return False
    t = st.units.get(a.target)
    if t is None or t.hex is None:
        return False
    card = u.card
    ehmc = "extra_hull_mounted_cannon"
    if card.has(ehmc):
        if a.mode == ehmc and ehmc not in attacks and len(attacks) == 1:
            return True
        if a.mode == "normal" and attacks == [ehmc]:
            return True
    if len(attacks) != 1 or attacks[0] != "normal" or a.mode != "normal":
        return False
    if card.has("extra_machine_guns") and t.is_soldier:
        return True
    if card.has("rapid_fire"):
        return True
    if card.has("multiturreted"):
        first = _phase_set(st, "multiturret_first")
        was_front = (u.uid, True) in first
        return _front(st, u, t) != was_front
    return False


_EXTRA_IDS = ("extra_machine_guns", "extra_hull_mounted_cannon", "rapid_fire", "multiturreted")


def _extra_options(game: Any, u: Unit) -> list[Attack]:
    st = game.state
    if not _activation_attacks(st, u):
        return []
    modes = ["normal"] + (["extra_hull_mounted_cannon"]
                          if u.card.has("extra_hull_mounted_cannon") else [])
    out = []
    for t in st.units.values():
        if not t.on_map or t.side == u.side:
            continue
        for m in modes:
            a = Attack(u.side, u.uid, t.uid, m)
            if _extra_attack_ok(st, u, a) and _recheck(game, u, a) is None:
                out.append(a)
    return out


def _extra_options_hook(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    game = ctx.get("game")
    u: Unit = ctx["unit"]
    if ctx.get("role") != "unit" or game is None or not u.acted:
        return value
    seen = set(value)
    return list(value) + [a for a in _extra_options(game, u) if a not in seen]


def _extra_allowed_hook(reason: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    u: Unit | None = ctx.get("unit")
    a = ctx["action"]
    game = ctx.get("game")
    if reason is None or ctx.get("role") != "unit" or u is None or game is None or \
            not isinstance(a, Attack) or a.side != u.side or not u.acted:
        return reason
    if _extra_attack_ok(game.state, u, a):
        return _recheck(game, u, a)
    return reason


for _id in _EXTRA_IDS:
    register("activation_options", _id)(_extra_options_hook)
    register("action_allowed", _id)(_extra_allowed_hook)


@register("after_attack", "multiturreted")
def _multiturret_first(events: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    st: GameState = ctx["state"]
    a: Unit = ctx["attacker"]
    if ctx.get("role") != "attacker" or ctx.get("defensive") or ctx.get("secondary") or \
            not st.phase.is_assault:
        return events
    tags = activation.tags(st, a.uid)
    if not tags or not _attacks(tags):           # this is the activation's first attack
        _phase_add(st, "multiturret_first",
                   (a.uid, _in_front_arc(ctx["attacker_hex"], a.facing, ctx["target_hex"])))
    return events


@register("after_attack", "rapid_fire")
def _rapid_fire_jam(events: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    st: GameState = ctx["state"]
    a: Unit = ctx["attacker"]
    if ctx.get("role") != "attacker" or ctx.get("defensive") or ctx.get("secondary"):
        return events
    tags = activation.tags(st, a.uid)
    if not tags or not _attacks(tags) or 1 not in ctx["rolls"] or a.destroyed:
        return events                            # not the extra attack, or no 1
    a.disrupted = True
    got = st.marks.get("rapid_fire_jammed")
    cur = tuple(got[1]) if got and got[0] == st.turn else ()
    st.marks["rapid_fire_jammed"] = (st.turn, tuple(sorted(set(cur) | {a.uid})))
    return list(events) + [
        CounterPlaced(a.uid, DISRUPTED, True, a.uid,
                      text=f"{a.name}'s rapid fire shows a 1: face-up Disrupted counter (it"
                           f" stays through the next casualty phase).")]


@register("keeps_disruption", "rapid_fire")
def _rapid_fire_keeps(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    st: GameState = ctx["state"]
    got = st.marks.get("rapid_fire_jammed")
    if ctx.get("role") == "unit" and got and got[0] == st.turn and \
            ctx["unit"].uid in got[1]:
        return True
    return value


# --- Extra Hull-Mounted Cannon as an attack mode ---------------------------------------------
@register("attack_dice", "extra_hull_mounted_cannon")
def _ehmc_dice(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") == "attacker" and ctx.get("mode") == ab.id:
        return EXTRA_CANNON_DICE.get(ctx["band"])
    return value


@register("can_attack", "extra_hull_mounted_cannon")
def _ehmc_allowed(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") != "attacker" or ctx.get("mode") != ab.id or value is not True:
        return value
    if ctx.get("defensive"):
        return "the extra hull-mounted cannon does not fire defensively"
    a: Unit = ctx["attacker"]
    if not _in_front_arc(ctx["attacker_hex"], a.facing, ctx["target_hex"]):
        return "the extra hull-mounted cannon fires only at units in the front arc"
    return value


_offer_mode_attacks("extra_hull_mounted_cannon", None)


# --- Banzai Charge and Angriff: into the enemy's hex, then the attack ------------------------
def _after_acting(value: Any, ctx: dict[str, Any]) -> bool:
    return bool(ctx["unit"].acted)


def _refused(value: Any, ctx: dict[str, Any]) -> bool:
    return value is not None

_CHARGE_KEY = "charge_into"


def _charge_commander(st: GameState, u: Unit, ability_id: str, start: Any) -> bool:
    for c in st.units.values():
        if c is not u and c.side == u.side and c.on_map and not c.disrupted and \
                c.hex is not None and c.card.has(ability_id) and c.hex.distance(start) <= 1:
            return True
    return False


def _charge_move(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    st: GameState = ctx["state"]
    u: Unit | None = ctx.get("unit")
    a = ctx["action"]
    if u is None or not isinstance(a, Move) or not a.path or not st.phase.is_assault or \
            u.acted or u.uid != a.uid or u.side != st.active_side or not u.is_soldier or \
            _is_artillery(u) or u.hex is None:
        return value
    if ab.id == "angriff" and (len(a.path) != 1 or u.disrupted):
        return value
    end = a.path[-1]
    if not any(o.side != u.side and o.on_map and not o.boarded and o.hex == end
               for o in st.units.values()):
        return value
    if _charge_commander(st, u, ab.id, u.hex):
        _phase_add(st, _CHARGE_KEY, (u.uid, end.q, end.r, ab.id))
    return value


def _charged_hex(st: GameState, u: Unit, ability_id: str) -> Any:
    """The enemy hex ``u`` charged into in this activation (thanks to the commander's
    ``ability_id``), if it got there."""
    tags = activation.tags(st, u.uid)
    if u.hex is None or tags is None or "move" not in tags or _attacks(tags) or \
            not st.phase.is_assault or st.pending is not None:
        return None
    if (u.uid, u.hex.q, u.hex.r, ability_id) in _phase_set(st, _CHARGE_KEY):
        return u.hex
    return None


def _charge_options(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    st: GameState = ctx["state"]
    u: Unit = ctx["unit"]
    game = ctx.get("game")
    if game is None or not u.acted or _charged_hex(st, u, ab.id) is None:
        return value
    seen = set(value)
    extra = [a for a in _attack_candidates(st, u)
             if st.units[a.target].hex == u.hex and a not in seen and _recheck(game, u, a) is None]
    return list(value) + extra


def _charge_allowed(reason: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    u: Unit | None = ctx.get("unit")
    a = ctx["action"]
    game = ctx.get("game")
    if reason is None or u is None or game is None or not isinstance(a, Attack) or \
            not u.acted or a.side != u.side:
        return reason
    st = game.state
    here = _charged_hex(st, u, ab.id)
    t = st.units.get(a.target)
    if here is None or t is None or t.hex != here:
        return reason
    return _recheck(game, u, a)


def _charge_bonus(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    st: GameState = ctx["state"]
    a: Unit = ctx["attacker"]
    if ctx.get("defensive") or a.hex is None or ctx["target_hex"] != a.hex:
        return value
    if _charged_hex(st, a, ab.id) is not None:
        return value + 1
    return value


for _id in ("banzai_charge", "angriff"):
    register("perform", _id, scope="any")(_charge_move)
    aura("activation_options", _id, when=_after_acting)(_charge_options)
    # given None (an action the rules allow) it returns None: it only lifts refusals
    aura("action_allowed", _id, when=_refused, lifts_only=True)(_charge_allowed)
    aura("die_modifier", _id)(_charge_bonus)


# --- Command Quick Reactions: a turn after the attack ------------------------------------------
def _quick_reaction_ok(st: GameState, u: Unit) -> bool:
    attacks = _activation_attacks(st, u)
    if not attacks or not u.is_vehicle or u.disrupted or u.hex is None:
        return False
    for c in st.units.values():
        if c.side == u.side and c.on_map and not c.disrupted and c.hex is not None and \
                c.card.has("command_quick_reactions") and c.hex.distance(u.hex) <= 2:
            return True
    return False


@aura("activation_options", "command_quick_reactions", when=lambda v, c: bool(c["unit"].acted))
def _quick_reaction_options(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    st: GameState = ctx["state"]
    u: Unit = ctx["unit"]
    if not u.acted or not _quick_reaction_ok(st, u):
        return value
    return list(value) + [Move(u.side, u.uid, (), f) for f in range(6) if f != u.facing]


@aura("action_allowed", "command_quick_reactions", when=lambda v, c: v is not None,
      lifts_only=True)        # given None it returns None: it only lifts refusals
def _quick_reaction_allowed(reason: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    u: Unit | None = ctx.get("unit")
    a = ctx["action"]
    game = ctx.get("game")
    if reason is None or u is None or game is None or not isinstance(a, Move) or a.path or \
            a.side != u.side or not u.acted or not _quick_reaction_ok(game.state, u):
        return reason
    if a.facing is None or a.facing == u.facing:
        return reason
    return _recheck(game, u, a)


#: every spec of this module (the aggression/salvo ones and the later sets' others)
SPECS = SPECS + SPECS_MORE
