"""New actions of the whole roster (issue 19): a short move before an attack
(Aggression) and a once-per-game attack on a whole area (Rocket Salvo)."""
from __future__ import annotations

from typing import Any

from .. import activation, combat, movement
from ..actions import Attack, Move
from ..errors import IllegalAction
from ..events import Event
from ..hexes import hex_label
from ..state import GameState, Unit
from . import register
from .spec import AbilitySpec, define
from .common import AbilityUsed, _attacks, _game_add, _game_set, _phase_add, _phase_set
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
        "Once per game, in its own assault phase, instead of a normal attack on an enemy"
        " Soldier or Vehicle (range and line of sight as usual), this unit may fire a Rocket"
        " Salvo: it makes a separate attack with 10 dice on every Soldier and 5 dice on every"
        " Vehicle in the target's hex or next to it, the target and friendly units included."
        " Each attack uses the usual success number, defense and cover; a unit it has no line"
        " of sight to or that is out of its range is not attacked, nor are Soldiers aboard a"
        " transport unless it has Exposed Transport. Not with defensive fire. Hexfront fires"
        " it as an attack mode: choose Rocket Salvo when attacking."),
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
