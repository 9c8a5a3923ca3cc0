"""Abilities of the later edition's Aircraft cards (rulings L21-L26): Bombs, Rockets,
Speed Boost (attack modes of the airstrike phase), Jet, Sirens and Vast Experience.

* Bombs (L21) and Rockets N (L22): once per game, in its airstrike phase, instead of its
  normal attack - Bombs at an enemy Soldier (12 dice) or Vehicle (8 dice) in the
  Aircraft's own hex, Rockets at one enemy Soldier or Vehicle up to 4 hexes away (N
  dice). Never at an Aircraft.
* Speed Boost (L23): once per game, declared before its attack on an enemy Aircraft: the
  result takes effect at once (a Disrupted counter face-up, a Destroyed Aircraft removed).
* Jet (L24): can't attack a Soldier in a forest, town or marsh hex; each natural 6 it
  rolls against an Aircraft counts as two successes.
* Sirens (L25): against a Soldier, one extra success that can only disrupt.
* Vast Experience (L26): each natural 6 it rolls counts as two successes (any attack;
  a German hero Soldier of the later sets carries it too).
* Strafe (L27): after its airstrike on an enemy Soldier, the same activation may attack
  a second enemy Soldier in that Soldier's hex or next to it (an extra attack, listed
  with the legal actions; the first attack's "already acted" is lifted for it only).

The doubled 6s are counted where the real attack counts its successes (the
``successes`` hook point of game.rules.combat.resolve_attack) and by the exact odds
(game.rules.abilities.results), both through :func:`sixes_count_twice`.
"""
from __future__ import annotations

from typing import Any

from .. import activation, combat
from ..actions import Attack
from ..cards import AIRCRAFT
from ..events import CounterPlaced
from ..hexes import Hex
from ..state import DESTROYED, DISRUPTED, GameState, Unit
from ..terrain import Terrain
from . import register
from .common import AbilityUsed, _game_add, _game_set, _phase_add, _phase_set
from .spec import AbilitySpec, define

BOMBS_DICE = {"Soldier": 12, "Vehicle": 8}
ROCKETS_REACH = 4                       # hexes
#: the terrain a Jet can't attack Soldiers in
JET_BLIND_TERRAIN = (Terrain.FOREST, Terrain.TOWN, Terrain.MARSH)

SPECS = define(
    AbilitySpec(
        "bombs", "Bombs", False,
        "Later edition. Once per game, in its airstrike phase, instead of its normal attack"
        " this Aircraft may drop its bombs on an enemy Soldier or Vehicle in its own hex: 12"
        " attack dice against a Soldier, 8 against a Vehicle (cover as usual). Bombs can't"
        " be dropped on an Aircraft. Hexfront makes it an attack mode: choose Bombs.",
        unit_type=AIRCRAFT, editions=("later",), attack_mode=True),
    AbilitySpec(
        "rockets", "Rockets {n}", True,
        "Later edition. Once per game, in its airstrike phase, instead of its normal attack"
        " this Aircraft may fire its rockets at one enemy Soldier or Vehicle up to 4 hexes"
        " away: {n} attack dice (cover as usual). Rockets can't be fired at an Aircraft."
        " Hexfront makes it an attack mode: choose Rockets.",
        value_range=(1, 20), unit_type=AIRCRAFT, editions=("later",), attack_mode=True),
    AbilitySpec(
        "speed_boost", "Speed Boost", False,
        "Later edition. Once per game, when this Aircraft attacks an enemy Aircraft, it may"
        " use Speed Boost: that attack's result takes effect at once instead of in the"
        " casualty phase - a Disrupted counter goes face-up now, and an Aircraft it destroys"
        " is removed now (so it makes no airstrike later in the phase). Hexfront makes it an"
        " attack mode: choose Speed Boost.",
        unit_type=AIRCRAFT, editions=("later",), attack_mode=True),
    AbilitySpec(
        "jet", "Jet", False,
        "Later edition. This Aircraft can't attack a Soldier in a forest, town or marsh hex."
        " In its attacks on an enemy Aircraft each natural 6 counts as two successes.",
        unit_type=AIRCRAFT, editions=("later",)),
    AbilitySpec(
        "sirens", "Sirens", False,
        "Later edition. Its attacks on a Soldier score one extra success, which can only"
        " disrupt: an attack one success short of the Soldier's defense disrupts it, and the"
        " extra success never makes a second hit.",
        unit_type=AIRCRAFT, editions=("later",)),
    AbilitySpec(
        "strafe", "Strafe", False,
        "Later edition. After this Aircraft's attack on an enemy Soldier in its airstrike"
        " phase, it may attack a second enemy Soldier in the first one's hex or next to it,"
        " as part of the same activation (normal attack rules; the usual range and values"
        " from the hex it flies over).",
        unit_type=AIRCRAFT, editions=("later",)),
    AbilitySpec(
        "vast_experience", "Vast Experience", False,
        "Each natural 6 this unit rolls in an attack counts as two successes (in its own"
        " assault or airstrike phase and with defensive fire)."),
)

#: once-per-game attack modes -> the game mark that remembers who has used theirs
_ONCE_MARKS = {"bombs": "bombs_used", "rockets": "rockets_used", "speed_boost": "speed_boost_used"}


def sixes_count_twice(attacker: Unit, target: Unit) -> bool:
    """Whether each natural 6 of ``attacker``'s attack on ``target`` counts as two
    successes (Vast Experience; Jet against an Aircraft): the real attack and the exact
    odds both ask this."""
    card = attacker.card
    return card.has("vast_experience") or (card.has("jet") and target.card.is_aircraft)


def _doubled_sixes(value: Any, ctx: dict[str, Any]) -> Any:
    a, t = ctx["attacker"], ctx["target"]
    if ctx.get("role") != "attacker" or ctx["plan"].need > 6 or not sixes_count_twice(a, t):
        return value
    return value + sum(1 for r in ctx["rolls"] if r == 6)


@register("successes", "vast_experience")
def _vast_experience(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    return _doubled_sixes(value, ctx)


@register("successes", "jet")
def _jet_sixes(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx["attacker"].card.has("vast_experience"):
        return value                     # counted once, by Vast Experience's hook
    return _doubled_sixes(value, ctx)


# --- Jet and Sirens ---------------------------------------------------------------------------
@register("can_attack", "jet")
def _jet_blind(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") != "attacker" or value is not True:
        return value
    t: Unit = ctx["target"]
    terrain = ctx["state"].battle_map.terrain_at(ctx["target_hex"])
    if t.is_soldier and terrain in JET_BLIND_TERRAIN:
        return (f"{ctx['attacker'].name} is a Jet: it can't attack Soldiers in a "
                f"{terrain.value} hex")
    return value


@register("hits", "sirens")
def _sirens(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") != "attacker" or value != 0 or not ctx["target"].is_soldier:
        return value
    return 1 if ctx["successes"] + 1 >= max(1, ctx["defense"]) else value


# --- the once-per-game attack modes -----------------------------------------------------------
@register("attack_dice", "bombs")
def _bombs_dice(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") != "attacker" or ctx.get("mode") != ab.id:
        return value
    t: Unit = ctx["target"]
    return None if t.card.is_aircraft else BOMBS_DICE.get(t.card.type)


@register("attack_dice", "rockets")
def _rockets_dice(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") != "attacker" or ctx.get("mode") != ab.id:
        return value
    return None if ctx["target"].card.is_aircraft else ab.value


def _once_problem(ab: Any, ctx: dict[str, Any]) -> str | None:
    a: Unit = ctx["attacker"]
    if ctx.get("defensive"):
        return f"{ab.name} is not used with defensive fire"
    if a.uid in _game_set(ctx["state"], _ONCE_MARKS[ab.id]):
        return f"{a.name} has already used its {ab.name} (once per game)"
    return None


@register("can_attack", "bombs")
def _bombs_allowed(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") != "attacker" or ctx.get("mode") != ab.id or value is not True:
        return value
    if ctx["attacker_hex"] != ctx["target_hex"]:
        return "bombs are dropped only on an enemy in the Aircraft's own hex"
    return _once_problem(ab, ctx) or value


@register("can_attack", "rockets")
def _rockets_allowed(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") != "attacker" or ctx.get("mode") != ab.id or value is not True:
        return value
    if ctx["distance"] > ROCKETS_REACH:
        return f"rockets reach {ROCKETS_REACH} hexes at most ({ctx['distance']} to the target)"
    return _once_problem(ab, ctx) or value


@register("can_attack", "speed_boost")
def _speed_boost_allowed(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") != "attacker" or ctx.get("mode") != ab.id or value is not True:
        return value
    if not ctx["target"].card.is_aircraft:
        return "Speed Boost is used only in an attack on an enemy Aircraft"
    return _once_problem(ab, ctx) or value


def _mark_used(events: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") == "attacker" and ctx.get("mode") == ab.id:
        _game_add(ctx["state"], _ONCE_MARKS[ab.id], ctx["attacker"].uid)
    return events


register("after_attack", "bombs")(_mark_used)
register("after_attack", "rockets")(_mark_used)
register("after_attack", "speed_boost")(_mark_used)


@register("attack_result", "speed_boost")
def _speed_boost_now(new: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """The counters this attack places take effect now: Destroyed removes the Aircraft,
    Disrupted goes face-up (ruling L23)."""
    if ctx.get("role") != "attacker" or ctx.get("mode") != ab.id or not new:
        return new
    st: GameState = ctx["state"]
    t: Unit = ctx["target"]
    events: list[Any] = ctx["events"]
    if DESTROYED in new:
        events.append(AbilityUsed(ctx["attacker"].uid, ab.name,
                                  text=f"Speed Boost: {t.name} is destroyed at once."))
        events.extend(combat._destroy(st, t))
        return []
    if DISRUPTED in new:
        t.disrupted = True
        events.append(AbilityUsed(ctx["attacker"].uid, ab.name,
                                  text=f"Speed Boost: the hit on {t.name} takes effect at once."))
        events.append(CounterPlaced(t.uid, DISRUPTED, True, ctx["attacker"].uid,
                                    text=f"{t.name} gets a face-up Disrupted counter."))
        return [c for c in new if c != DISRUPTED]
    return new


def _mode_options(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """The mode's attacks an Aircraft may make now (its airstrike phase, not yet acted,
    not yet used): listed with the other legal actions."""
    st: GameState = ctx["state"]
    u: Unit = ctx["unit"]
    if ctx.get("role") != "unit" or u.acted or not st.phase.is_airstrike or \
            u.side != st.active_side or st.pending is not None or not u.on_map or \
            u.uid in _game_set(st, _ONCE_MARKS[ab.id]) or activation.problem(st, u):
        return value
    out = list(value)
    for t in st.units.values():
        if t.on_map and t.side != u.side and not t.boarded and \
                combat.why_not_attack(st, u.uid, t.uid, mode=ab.id) is None:
            out.append(Attack(u.side, u.uid, t.uid, ab.id))
    return out


register("activation_options", "bombs")(_mode_options)
register("activation_options", "rockets")(_mode_options)
register("activation_options", "speed_boost")(_mode_options)

# --- Strafe (ruling L27) ------------------------------------------------------------------------
_STRAFE_FIRST = "strafe_first"     # phase mark: (aircraft uid, first target's uid, its hex q, r)
_STRAFE_DONE = "strafe_done"       # phase mark: aircraft that made their second attack


def _strafe_first(st: GameState, uid: str) -> tuple[Any, ...] | None:
    return next((m for m in _phase_set(st, _STRAFE_FIRST) if m[0] == uid), None)


def strafe_problem(st: GameState, u: Unit, target_uid: str) -> str | None:
    """Why ``u`` may not strafe ``target_uid`` now (None: it may - the attack's own
    rules still apply)."""
    if not st.phase.is_airstrike or u.side != st.active_side or st.pending is not None:
        return "Strafe: only in its own airstrike phase"
    if u.uid in _phase_set(st, _STRAFE_DONE):
        return "Strafe: it has made its second attack"
    first = _strafe_first(st, u.uid)
    if first is None:
        return "Strafe: its first attack of the phase was not on an enemy Soldier"
    t = st.units.get(target_uid)
    if t is None or not t.is_soldier or t.side == u.side or t.hex is None:
        return "Strafe: the second attack must be on an enemy Soldier"
    if t.uid == first[1]:
        return "Strafe: the second attack must be on another Soldier"
    if t.hex.distance(Hex(first[2], first[3])) > 1:
        return "Strafe: the second Soldier must be in the first one's hex or next to it"
    return None


@register("after_attack", "strafe")
def _strafe_note(events: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    st: GameState = ctx["state"]
    a: Unit = ctx["attacker"]
    if ctx.get("role") != "attacker" or ctx.get("defensive") or ctx.get("secondary") \
            or not st.phase.is_airstrike:
        return events
    if _strafe_first(st, a.uid) is None:
        t: Unit = ctx["target"]
        if t.is_soldier:
            th = ctx["target_hex"]
            _phase_add(st, _STRAFE_FIRST, (a.uid, t.uid, th.q, th.r))
        else:                                # a first attack on anything else: no strafe
            _phase_add(st, _STRAFE_DONE, a.uid)
    else:
        _phase_add(st, _STRAFE_DONE, a.uid)
    return events


@register("activation_options", "strafe")
def _strafe_options(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    st: GameState = ctx["state"]
    u: Unit = ctx["unit"]
    if ctx.get("role") != "unit" or not u.acted or not u.on_map or \
            _strafe_first(st, u.uid) is None or u.uid in _phase_set(st, _STRAFE_DONE):
        return value
    out = list(value)
    for t in st.units.values():
        if t.on_map and not t.boarded and strafe_problem(st, u, t.uid) is None and \
                combat.why_not_attack(st, u.uid, t.uid) is None:
            out.append(Attack(u.side, u.uid, t.uid))
    return out


@register("action_allowed", "strafe", lifts_only=True)
def _strafe_allowed(reason: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """Lift "already acted" for the strafing attack only."""
    u: Unit | None = ctx.get("unit")
    action = ctx["action"]
    st: GameState = ctx["state"]
    if reason is None or u is None or not u.acted or not isinstance(action, Attack) or \
            action.mode != "normal" or ctx.get("role") != "unit" or \
            _strafe_first(st, u.uid) is None:
        return reason
    why = strafe_problem(st, u, action.target)
    if why is not None:
        return f"{reason}: {why}" if u.uid not in _phase_set(st, _STRAFE_DONE) else reason
    return combat.why_not_attack(st, u.uid, action.target)


__all__ = ["SPECS", "sixes_count_twice", "strafe_problem", "BOMBS_DICE", "ROCKETS_REACH",
           "JET_BLIND_TERRAIN"]
