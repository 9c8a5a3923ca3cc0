"""Abilities of the whole roster (issue 19) that change an attack or a defense:
range limits, dice and per-die modifiers, cover rolls, defense bonuses (their own
and commanders' auras), what a unit may attack, results on the target (Limited
Range, Crack Shot, Gung Ho, Flanking Attack, Hard to Spot, Large Silhouette,
Steely Resolve, Mobility, Entrenched, Fearless, Dispersal, Fixed Gun, Flamethrower,
Fire Hazard, Undermanned, Veteran Crew, Open Exposed Crew, Covering Fire)."""
from __future__ import annotations

from typing import Any

from .. import combat
from ..actions import Move
from ..cards import SOLDIER, VEHICLE
from ..state import DAMAGED, DESTROYED, GameState, Unit
from . import register
from .armour import better_of_printed_dice
from .attack_modes import flame_sixes_destroy
from .roster_common import aura
from .spec import AbilitySpec, _COMMANDER_TAIL, define
from .common import (AbilityRoll, AbilityUsed, _attack_front, _game_add,
                     _game_set, _in_front_arc)

#: Fire Hazard: the die that destroys a Vehicle that has just been damaged
FIRE_HAZARD_NEED = 5


SPECS = define(
    AbilitySpec(
        "limited_range", "Limited Range {n}", True,
        "This unit can only attack targets up to {n} hexes away (its own hex counts as 0),"
        " in its assault phase and with defensive fire, whatever its printed ranges say.",
        value_range=(1, 8)),
    AbilitySpec(
        "crack_shot", "Crack Shot", False,
        "This unit gets +1 on each attack die on every attack, defensive fire included."),
    AbilitySpec(
        "gung_ho", "Gung Ho", False,
        "This unit gets +1 on each attack die of its defensive-fire attacks. Its attacks in"
        " its own assault phase are normal."),
    AbilitySpec(
        "flanking_attack", "Flanking Attack", False,
        "When this unit attacks an enemy Vehicle's rear defense (ruling 1: the attacker's hex"
        " centre is not in the Vehicle's front arc), it rolls one extra attack die. Attacks on"
        " a Vehicle's front and on Soldiers are normal."),
    AbilitySpec(
        "hard_to_spot", "Hard to Spot", False,
        "This unit gets +1 on its cover rolls: it needs one less than the terrain asks (in a"
        " forest a Soldier needs 3+, a Vehicle 4+). It still gets a cover roll only where the terrain gives one."),
    AbilitySpec(
        "large_silhouette", "Large Silhouette", False,
        "This unit suffers -1 on its cover rolls: it needs one more than the terrain asks (in"
        " a forest a Soldier needs 5+, a Vehicle 6+; a need above 6 means the roll can't succeed, so none is made)."),
    AbilitySpec(
        "steely_resolve", "Steely Resolve {n}", True,
        "An attack on this Soldier (or, in the later edition, Aircraft) scores two hits (or"
        " more) only if its successes reach its defense plus {n} (normally the defense plus"
        " 1); successes at least equal to the defense but below that score one hit, a"
        " Disrupted counter.",
        value_range=(1, 5)),
    AbilitySpec(
        "mobility", "Mobility", False,
        "Both of this unit's defense values are 1 higher against defensive-fire attacks."
        " Attacks in the enemy's assault phase are normal."),
    AbilitySpec(
        "entrenched", "Entrenched", False,
        "Both of this unit's defense values are 1 higher until the first time it moves in the"
        " game (a move of any length, turning in place included, in any phase); after that"
        " its defense is its printed one for the rest of the game."),
    AbilitySpec(
        "fearless", "Fearless", False,
        "Friendly Soldiers adjacent to this commander (in its hex or the next hex, the"
        " commander itself excluded) have both defense values 1 higher against defensive-fire"
        " attacks." + _COMMANDER_TAIL, commander=True),
    AbilitySpec(
        "dispersal", "Dispersal", False,
        "Friendly Soldiers adjacent to this commander (in its hex or the next hex, the"
        " commander itself excluded) have both defense values 1 higher against attacks made by"
        " a unit that has Blast (the attack on the target and the Blast attacks on the others"
        " in its hex alike)." + _COMMANDER_TAIL, commander=True),
    AbilitySpec(
        "fixed_gun", "Fixed Gun", False,
        "This Vehicle can attack an enemy Vehicle only when that Vehicle's hex centre lies in"
        " its front arc (ruling 1: not exactly to its side, not in its own hex), in its assault"
        " phase and with defensive fire. Its attacks on Soldiers are not limited.",
        unit_type=VEHICLE),
    AbilitySpec(
        "flamethrower", "Flamethrower", False,
        "When this unit attacks at short range (its own hex or an adjacent hex), in its"
        " assault phase or with defensive fire, the target makes no cover roll, and if three"
        " or more of the attack dice show a natural 6 the target (Soldier or Vehicle) is"
        " destroyed at once, whatever the successes: it is removed right away, not at the"
        " casualty phase, and a moving target's move ends. Attacks at longer range are"
        " ordinary attacks.",
        not_in_first_edition="Aircraft are exempt (later edition). The printed card's"
                             " exception for Obstacles is not part of Hexfront's rules."),
    AbilitySpec(
        "fire_hazard", "Fire Hazard", False,
        "Each time an attack gives this Vehicle a Damaged counter, roll one die: on 5 or 6"
        " the Vehicle is destroyed at once (removed right away, so it makes no attack later in"
        " that phase). On 1-4 the Damaged counter stays. No die is rolled when the same"
        " attack destroys it anyway.", unit_type=VEHICLE),
    AbilitySpec(
        "undermanned", "Undermanned", False,
        "This unit can't attack while it is disrupted (a face-up Disrupted counter): not in"
        " its assault phase (it may still move there if it could) and not with defensive"
        " fire, which disrupted units can't make anyway."),
    AbilitySpec(
        "veteran_crew", "Veteran Crew", False,
        "While this unit is disrupted it may still move (and turn), and its attack dice don't"
        " suffer the -1 for being disrupted (a damaged Vehicle still has its -1). It still has"
        " -1 defense while disrupted and can't fire defensively."),
    AbilitySpec(
        "open_exposed_crew", "Open Exposed Crew", False,
        "An enemy attacking this Vehicle, at its front or rear, may roll its anti-Soldier"
        " value instead of its anti-Vehicle one (Hexfront takes the larger).", unit_type=VEHICLE),
    AbilitySpec(
        "covering_fire", "Covering Fire", False,
        "Each enemy Soldier this unit attacks (in its assault phase or with defensive fire,"
        " whether or not the attack hits) can't make defensive-fire attacks for the rest of"
        " the turn."),
)


# --- range, dice, per-die modifiers --------------------------------------------------------
@register("can_attack", "limited_range")
def _limited_range(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") != "attacker" or value is not True or ctx["distance"] <= ab.value:
        return value
    return (f"{ctx['attacker'].name} has Limited Range {ab.value}: it attacks only up to"
            f" {ab.value} hexes away ({ctx['target'].name} is {ctx['distance']})")


@register("die_modifier", "crack_shot")
def _crack_shot(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    return value + 1 if ctx.get("role") == "attacker" else value


@register("die_modifier", "gung_ho")
def _gung_ho(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    return value + 1 if ctx.get("role") == "attacker" and ctx.get("defensive") else value


@register("die_modifier", "veteran_crew")
def _veteran_crew_dice(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    a: Unit = ctx["attacker"]
    if ctx.get("role") == "attacker" and a.disrupted and not (a.is_vehicle and a.damaged):
        return value + 1
    return value


@register("moves_while_disrupted", "veteran_crew")
def _veteran_crew_moves(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    return True if ctx.get("role") == "unit" else value


@register("attack_dice", "flanking_attack")
def _flanking_attack(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") == "attacker" and value and _attack_front(ctx) is False:
        return value + 1
    return value


@register("attack_dice", "open_exposed_crew")
def _open_exposed_crew(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """Like Open Back, at either facing: the better of the two printed values."""
    if ctx.get("role") != "target" or ctx.get("mode") != "normal":
        return value
    return better_of_printed_dice(value, ctx)


# --- cover ---------------------------------------------------------------------------------
@register("cover_need", "hard_to_spot")
def _hard_to_spot(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    return value - 1 if ctx.get("role") == "target" else value


@register("cover_need", "large_silhouette")
def _large_silhouette(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    return value + 1 if ctx.get("role") == "target" else value


# --- the target's defense and hits ---------------------------------------------------------
@register("hits", "steely_resolve")
def _steely_resolve(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    t = ctx["target"]
    if ctx.get("role") == "target" and (t.is_soldier or t.card.is_aircraft) and value >= 2 \
            and ctx["successes"] < ctx["defense"] + ab.value:
        return 1
    return value


@register("defense", "mobility")
def _mobility(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    return value + 1 if ctx.get("role") == "target" and ctx.get("defensive") else value


_ENTRENCHED_KEY = "entrenched_moved"          # game mark: units that have moved


@register("defense", "entrenched")
def _entrenched(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    t: Unit = ctx["target"]
    if ctx.get("role") == "target" and t.uid not in _game_set(ctx["state"], _ENTRENCHED_KEY):
        return value + 1
    return value


@register("perform", "entrenched")
def _entrenched_moves(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """The first move (any Move action, a turn in place included) ends Entrenched."""
    u: Unit | None = ctx.get("unit")
    if ctx.get("role") == "unit" and u is not None and isinstance(ctx["action"], Move) \
            and u.uid == ctx["action"].uid:
        _game_add(ctx["state"], _ENTRENCHED_KEY, u.uid)
    return value


def _aura_commander(st: GameState, t: Unit, ability_id: str) -> Unit | None:
    """A non-disrupted friendly commander with ``ability_id`` in ``t``'s hex or next to
    it, ``t`` itself excluded."""
    if t.hex is None or not t.is_soldier:
        return None
    for c in st.units.values():
        if c is t or c.side != t.side or not c.on_map or c.disrupted or c.hex is None:
            continue
        if c.card.has(ability_id) and c.hex.distance(t.hex) <= 1:
            return c
    return None


@aura("defense", "fearless")
def _fearless(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("defensive") and _aura_commander(ctx["state"], ctx["target"], "fearless"):
        return value + 1
    return value


@aura("defense", "dispersal")
def _dispersal(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx["attacker"].card.has("blast") and \
            _aura_commander(ctx["state"], ctx["target"], "dispersal"):
        return value + 1
    return value


# --- what it may attack ---------------------------------------------------------------------
@register("can_attack", "fixed_gun")
def _fixed_gun(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") != "attacker" or not ctx["target"].is_vehicle or value is not True:
        return value
    a: Unit = ctx["attacker"]
    if not _in_front_arc(ctx["attacker_hex"], a.facing, ctx["target_hex"]):
        return f"{a.name} can only attack Vehicles in its front arc ({ab.name})"
    return value


@register("can_attack", "undermanned")
def _undermanned(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    a: Unit = ctx["attacker"]
    if ctx.get("role") == "attacker" and value is True and a.disrupted:
        return f"{a.name} is Undermanned: it can't attack while it is disrupted"
    return value


# --- Flamethrower ----------------------------------------------------------------------------
def _on_aircraft(ctx: dict[str, Any]) -> bool:
    t = ctx.get("target")
    return t is not None and bool(t.card.is_aircraft)


def _flame(ctx: dict[str, Any]) -> bool:
    """Short range, a normal attack, and not on an Aircraft (the printed card exempts
    Aircraft: later edition)."""
    return ctx.get("role") == "attacker" and ctx["distance"] <= 1 and \
        ctx.get("mode") == "normal" and not _on_aircraft(ctx)


@register("can_cover", "flamethrower")
def _flamethrower_cover(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    return False if _flame(ctx) else value


@register("after_attack", "flamethrower")
def _flamethrower_kill(events: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("secondary") or not _flame(ctx):
        return events
    return flame_sixes_destroy(events, ab, ctx)


# --- Fire Hazard -------------------------------------------------------------------------------
@register("attack_result", "fire_hazard")
def _fire_hazard(new: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    t: Unit = ctx["target"]
    if ctx.get("role") != "target" or DAMAGED not in new or DESTROYED in new \
            or DESTROYED in t.pending or t.destroyed:
        return new
    die = ctx["dice"].d6()
    ok = die >= FIRE_HAZARD_NEED
    ctx["events"].append(AbilityRoll(
        t.uid, ab.name, die, FIRE_HAZARD_NEED, ok,
        text=f"{t.name} takes a Damaged counter and is a Fire Hazard: rolls {die} "
             f"({FIRE_HAZARD_NEED}+ burns): {'it is destroyed at once' if ok else 'no fire'}."))
    if ok:
        ctx["events"].extend(combat._destroy(ctx["state"], t))
        return []
    return new


# --- Covering Fire --------------------------------------------------------------------------
def _covered(st: GameState) -> tuple[Any, ...]:
    got = st.marks.get("covering_fire")
    if got and got[0] == st.turn:
        return tuple(got[1])
    return ()


@register("after_attack", "covering_fire")
def _covering_fire(events: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """A Soldier this unit attacks loses its defensive fire until the turn ends."""
    t: Unit = ctx["target"]
    if ctx.get("role") != "attacker" or not t.is_soldier or t.side == ctx["attacker"].side:
        return events
    return silence_for_the_turn(events, ab, ctx)


def silence_for_the_turn(events: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """The attacked Soldier can't fire defensively for the rest of the turn (the memory
    Covering Fire and Limited Covering Fire share)."""
    t: Unit = ctx["target"]
    st: GameState = ctx["state"]
    cur = _covered(st)
    if t.uid in cur:
        return events
    st.marks["covering_fire"] = (st.turn, tuple(sorted(cur + (t.uid,))))
    return list(events) + [AbilityUsed(ctx["attacker"].uid, ab.name,
                                       text=f"{ab.name}: {t.name} can't fire defensively"
                                            f" for the rest of the turn.")]


@aura("can_fire_defensively", "covering_fire")
def _covering_fire_silences(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """Covering Fire (aura-style, while such a unit is on the map: the silenced firer
    doesn't have the ability)."""
    if value is True and ctx["firer"].uid in _covered(ctx["state"]):
        return False
    return value
