"""Commander abilities (auras: only the best applies, a disrupted commander's don't
work): Pinpointer, Tally Ho, Exert Will, Command Ruthless, Bravery Enforcement."""
from __future__ import annotations

from ..hexes import Hex
from typing import Any

from ..state import GameState, Phase, Unit
from . import _holders, register
from .spec import AbilitySpec, _COMMANDER_TAIL, define
from .common import AbilityUsed, _is_artillery, _target_impaired


SPECS = define(
    AbilitySpec(
        "pinpointer", "Pinpointer", False,
        "When a friendly Soldier adjacent to this commander (in its hex or the next hex, the"
        " commander itself included) attacks, the target suffers -1 on its cover roll."
        + _COMMANDER_TAIL, commander=True),
    AbilitySpec(
        "tally_ho", "Tally-Ho!", False,
        "A friendly non-Artillery Soldier that starts its move in its side's movement phase"
        " adjacent to this commander (in its hex or the next hex, the commander itself included)"
        " has +1 speed for that move. Not in the assault phase." + _COMMANDER_TAIL,
        commander=True),
    AbilitySpec(
        "exert_will", "Exert Will", False,
        "At the start of its side's movement phase, remove the face-up Disrupted counters from"
        " every friendly Soldier adjacent to this commander (in its hex or the next hex)."
        + _COMMANDER_TAIL, commander=True),
    AbilitySpec(
        "command_ruthless", "Command Ruthless", False,
        "Friendly Vehicles within 2 hexes of this commander (the commander itself included)"
        " have Ruthless: +1 on each attack die against units that are disrupted or damaged."
        " Soldiers don't get it. A Vehicle that has Ruthless of its own gets +1, not +2."
        + _COMMANDER_TAIL,
        commander=True),
    AbilitySpec(
        "bravery_enforcement", "Bravery Enforcement", False,
        "Friendly Soldiers adjacent to this commander (in its hex or the next hex, the commander"
        " itself excluded) don't suffer the -1 penalty on attack dice for being disrupted. They"
        " still can't move or fire defensively and still have -1 defense." + _COMMANDER_TAIL,
        commander=True),
)


def commander_near(state: GameState, unit: Unit, ability_id: str | None = None, *,
                   include_self: bool = True, undisrupted: bool = True, within: int = 1,
                   at: Hex | None = None) -> Unit | None:
    """A friendly commander (with ``ability_id`` if given; not disrupted unless
    ``undisrupted=False``) within ``within`` hexes of ``unit`` (default: its hex or an
    adjacent one, rulebook: Commander Abilities), measured from ``at`` if given."""
    here = at if at is not None else unit.hex
    if here is None:
        return None
    for c in state.units.values():
        if c.side != unit.side or not c.on_map or not c.card.is_commander:
            continue
        if undisrupted and c.disrupted:
            continue
        if c is unit and not include_self:
            continue
        if ability_id is not None and not c.card.has(ability_id):
            continue
        if c.hex is not None and c.hex.distance(here) <= within:
            return c
    return None


@register("cover_need", "pinpointer", scope="any")
def _pinpointer(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    a: Unit = ctx["attacker"]
    if a.is_soldier and commander_near(ctx["state"], a, "pinpointer"):
        return value + 1
    return value


@register("die_modifier", "command_ruthless", scope="any")
def _command_ruthless(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    a: Unit = ctx["attacker"]
    if not a.is_vehicle or a.card.has("ruthless") or not _target_impaired(ctx):
        return value
    if commander_near(ctx["state"], a, "command_ruthless", within=2):
        return value + 1
    return value


@register("die_modifier", "bravery_enforcement", scope="any")
def _bravery_enforcement(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    a: Unit = ctx["attacker"]
    if a.is_soldier and a.disrupted and commander_near(ctx["state"], a, "bravery_enforcement",
                                                       include_self=False):
        return value + 1
    return value


@register("phase_begin", requires="exert_will")
def _exert_will(events: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """Exert Will: at the start of its side's movement phase a non-disrupted
    commander removes the face-up Disrupted counters of adjacent friendly Soldiers."""
    st: GameState = ctx["state"]
    phase = ctx["phase"]
    if not phase.is_movement:
        return events
    out = list(events)
    side = st.active_side
    # the units whose card has it, in state order (what a loop over every unit testing
    # card.has("exert_will") would visit; each one's state is read when it is reached,
    # after the commanders before it have had their effect)
    for c, _ in _holders(st, "exert_will"):
        if c.side != side or not c.on_map or c.disrupted:
            continue
        for u in st.units.values():
            if u.disrupted and u.side == side and u.on_map and u.is_soldier \
                    and u.hex is not None and c.hex is not None and u.hex.distance(c.hex) <= 1:
                u.disrupted = False
                out.append(AbilityUsed(c.uid, "Exert Will",
                                       text=f"{c.name} exerts its will: {u.name} is no "
                                            f"longer disrupted."))
    return out


@register("speed", "tally_ho", scope="any")
def _tally_ho(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
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
                and c.hex is not None and c.hex.distance(start) <= 1:
            return value + 1
    return value
