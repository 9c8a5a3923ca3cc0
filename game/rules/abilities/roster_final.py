"""The last abilities of the ground roster (session 8, rulings 26-30): Endurance,
Firepower, Improvisation, Lead the Way, Smoke Screen.

* Endurance (ruling 26, a Soviet hero): each time the unit gets a face-up
  Destroyed counter it rolls a die; on 5 or 6 the counter is thrown away.  A Destroyed
  counter becomes face-up only in the casualty phase, when the face-down counters are
  turned over: the roll is made there, for the Destroyed counter whatever attack (and
  whatever ability) placed it.  A unit destroyed at once without a counter (three
  natural 6s of a flamethrower, a Soldier aboard a transport that is destroyed) gets no
  roll.  The other counters turned up with it stay (a Disrupted counter, which a nation
  Hero disregards: ruling 23).
* Firepower (ruling 27, a Canadian hero): in its own assault phase, once its activation's
  move has ended (where it wanted, or stopped) or after its first attack, it may make one
  more attack in the same activation, at an enemy unit in its own hex (any attack it
  has, every attack rule as usual).  One such attack per activation; like every extra
  action it lapses as soon as another unit acts or the phase ends.
* Improvisation (ruling 28, an American hero): a Soldier or Vehicle of either side
  destroyed in its hex while it is there (on the map, not aboard) leaves it its printed
  attack values, kept as long as it stays in that hex (leaving it, boarding a transport,
  loses them all).  Every attack it makes there uses, against that target type at that
  range, the most dice among its own printed value and those of the units it picked up:
  more dice never hurt this card, so Hexfront takes the better for its player.
* Lead the Way (ruling 29, American rangers): once per turn it rolls again one failed
  attack die or one failed movement roll; Hexfront makes the reroll for the player the
  first time in the turn it can change something (a failed movement roll; a failed
  attack die when one more success would score one more hit), in the exact odds too.
* Smoke Screen (ruling 30, German tanks): once per game, in its side's movement phase,
  the unit declares its smoke (the action ``LaySmoke``, game.rules.families.smoke);
  when that movement phase ends its hex fills with smoke, which blocks every line of
  sight into, out of and through the hex (ruling 2's geometry: a line along a hexside
  is not blocked) until the turn ends. Attacks inside the hex are not blocked.
"""
from __future__ import annotations

from dataclasses import replace
from math import comb
from typing import Any

from .. import activation
from ..actions import Attack, Board
from ..events import Event, UnitDestroyed
from ..hexes import Hex, hex_label
from ..los import segment_enters_hex
from ..wording import side_player
from .. import combat
from ..odds import binomial
from ..state import DESTROYED, GameState, Phase, Unit
from . import register
from .attack_modes import _flamethrower_applies
from .common import FLAMETHROWER_SIXES, MODE_ABILITIES, AbilityRoll, AbilityUsed, _attacks
from .extra_actions import _recheck
from .spec import AbilitySpec, define

#: Endurance: the roll that throws a face-up Destroyed counter away
ENDURANCE_NEED = 5

SPECS = define(
    AbilitySpec(
        "endurance", "Endurance", False,
        "Each time this unit gets a face-up Destroyed counter (in the casualty phase, when its"
        " face-down counters are turned over) it rolls a die: on 5 or 6 the Destroyed counter"
        " is thrown away and the unit stays in play. A unit destroyed at once without a"
        " counter (a flamethrower's three 6s, aboard a destroyed transport) gets no roll.",
        unit_type="Soldier"),
    AbilitySpec(
        "firepower", "Firepower", False,
        "In its own assault phase, after this unit's move has ended (where it wanted or"
        " stopped by defensive fire) or after its attack, it may make one more attack as part"
        " of the same activation, at an enemy unit in its own hex (normal or any attack mode"
        " it has, following every attack rule). Once per activation; it can't move after it.",
        unit_type="Soldier"),
    AbilitySpec(
        "improvisation", "Improvisation", False,
        "When a Soldier or Vehicle (of either side) is destroyed in this unit's hex while it is"
        " there, it picks up that unit's printed attack values and keeps them as long as it"
        " stays in the hex (moving out or boarding a transport loses them). Each attack it"
        " makes there - defensive fire included, not Close Assault or Hand to Hand - rolls"
        " the most dice among its own value and those it picked up, against that target type"
        " at that range.", unit_type="Soldier"),
    AbilitySpec(
        "lead_the_way", "Lead the Way", False,
        "Once per turn this unit rolls again one failed attack die or one failed movement"
        " roll (the new roll stands). Hexfront rolls it for the player the first time in the"
        " turn it can change something: a failed movement roll, or a failed attack die when"
        " one more success would score one more hit (defensive fire included)."),
    AbilitySpec(
        "smoke_screen", "Smoke Screen", False,
        "Once per game, in its own side's movement phase, this unit may lay smoke: when that"
        " movement phase ends, the hex it is in fills with smoke, which blocks every line of"
        " sight into, out of and through the hex (attacks, defensive fire, Spotters) until"
        " the end of the turn. Attacks between units in the smoke-filled hex itself are not"
        " blocked.", unit_type="Vehicle"),
)


# --- Endurance (ruling 26) ---------------------------------------------------------------------
@register("phase_begin", "endurance", scope="any")
def _endurance(events: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """At the casualty phase, before the face-down counters are turned over (the same
    automatic step): each unit with Endurance and a face-down Destroyed counter rolls;
    on 5+ that counter is thrown away, so it never destroys the unit."""
    if ctx["phase"] != Phase.CASUALTY:
        return events
    out = list(events)
    for u, _ in ctx["sources"]:
        if not u.on_map or DESTROYED not in u.pending:
            continue
        die = ctx["dice"].d6()
        ok = die >= ENDURANCE_NEED
        if ok:
            u.pending = [c for c in u.pending if c != DESTROYED]
        out.append(AbilityRoll(
            u.uid, "Endurance", die, ENDURANCE_NEED, ok,
            text=f"{u.name} turns up a Destroyed counter and has Endurance: rolls {die} "
                 f"(needs {ENDURANCE_NEED}+): "
                 f"{'the counter is thrown away' if ok else 'the counter stays'}."))
    if len(out) != len(events):
        ctx["state"].touch()
    return out


def _p_sixes_at_least(n: int, k: int) -> float:
    """Chance of at least ``k`` natural 6s among ``n`` dice."""
    return sum(comb(n, i) * (1 / 6) ** i * (5 / 6) ** (n - i) for i in range(k, n + 1))


def _at_once(state: GameState, plan: Any) -> float:
    """The part of an attack's ``p_destroyed`` that destroys at once, without a counter:
    the Hull-Mounted Flamethrower's natural 6s (the part ``results.exact_odds`` puts in
    ``p_destroyed``)."""
    a = state.units[plan.attacker]
    if not (a.card.has("hull_mounted_flamethrower") and _flamethrower_applies(dict(
            role="attacker", distance=plan.distance, mode=plan.mode, attacker=a,
            attacker_hex=plan.attacker_hex, target_hex=plan.target_hex))):
        return 0.0
    if a.card.has("guard_crew"):
        from .results import _sixes_and_successes
        joint = _sixes_and_successes(plan.dice, plan.need, True)
        return sum(p for (j, _s), p in joint.items() if j >= FLAMETHROWER_SIXES)
    return _p_sixes_at_least(plan.dice, FLAMETHROWER_SIXES)


# --- Lead the Way (ruling 29): its rolls and exact odds ------------------------------------------
_LEAD = "lead_the_way_used"      # game mark: (turn, uids that used it this turn)


def lead_the_way_ready(st: GameState, u: Unit) -> bool:
    """Whether ``u`` still has its Lead the Way reroll this turn."""
    if not u.card.has("lead_the_way"):
        return False
    got = st.marks.get(_LEAD)
    return not (got and got[0] == st.turn and u.uid in got[1])


def _lead_use(st: GameState, u: Unit) -> None:
    got = st.marks.get(_LEAD)
    cur = tuple(got[1]) if got and got[0] == st.turn else ()
    st.marks[_LEAD] = (st.turn, tuple(sorted(set(cur) | {u.uid})))
    st.touch()


def _lead_helps(st: GameState, plan: Any, successes: int) -> bool:
    """Ruling 29: one more success would score one more hit (and a die can succeed)."""
    if plan.need > 6 or successes >= plan.dice:
        return False
    return combat.plan_hits(st, plan, successes + 1) > combat.plan_hits(st, plan, successes)


@register("attack_rolls", "lead_the_way")
def _lead_attack(rolls: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") != "attacker":
        return rolls
    st: GameState = ctx["state"]
    a: Unit = ctx["attacker"]
    plan = ctx["plan"]
    rolls = tuple(rolls)
    s = sum(1 for r in rolls if r >= plan.need)
    if not lead_the_way_ready(st, a) or not _lead_helps(st, plan, s):
        return rolls
    i = min(range(len(rolls)), key=lambda k: (rolls[k] >= plan.need, rolls[k], k))
    old = rolls[i]
    die = ctx["dice"].d6()
    ok = die >= plan.need
    _lead_use(st, a)
    ctx["events"].append(AbilityRoll(
        a.uid, ab.name, die, plan.need, ok,
        text=f"{a.name} leads the way: its failed {old} is rolled again: {die} "
             f"({'a success' if ok else 'no success'}; once per turn)."))
    return rolls[:i] + (die,) + rolls[i + 1:]


@register("movement_roll", "lead_the_way")
def _lead_move(die: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    st: GameState = ctx["state"]
    u: Unit = ctx["unit"]
    if ctx.get("role") != "unit" or die >= ctx["need"] or not lead_the_way_ready(st, u):
        return die
    new = ctx["dice"].d6()
    ok = new >= ctx["need"]
    _lead_use(st, u)
    ctx["events"].append(AbilityRoll(
        u.uid, ab.name, new, ctx["need"], ok,
        text=f"{u.name} fails its movement roll ({die}, needs {ctx['need']}+) and leads the "
             f"way: it rolls again (once per turn)."))
    return new


@register("odds", requires="lead_the_way")
def _lead_odds(odds: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """Ruling 29 in the exact odds: while the attacker still has its reroll this turn,
    a failed die is rolled again whenever one more success would score one more hit."""
    st: GameState = ctx["state"]
    plan = ctx["plan"]
    a: Unit = ctx["attacker"]
    if not lead_the_way_ready(st, a) or plan.need > 6:
        return odds
    p = plan.p_success
    pmf = binomial(plan.dice, p)
    dist = [0.0] * (plan.dice + 1)
    for s, q in enumerate(pmf):
        if q and _lead_helps(st, plan, s):
            dist[s + 1] += q * p
            dist[s] += q * (1 - p)
        else:
            dist[s] += q
    from .results import odds_from_successes
    return odds_from_successes(st, plan, odds, dist)


@register("odds", requires="endurance")
def _endurance_odds(odds: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """Ruling 26 in the exact odds (after every other odds hook: a rule hook registered
    last): a Destroyed counter on a unit with Endurance destroys it only 4 times in 6;
    otherwise the unit keeps its other counter (the Disrupted one placed by the first
    hit)."""
    plan = ctx["plan"]
    t = ctx["target"]
    if plan.defensive or not t.card.has("endurance"):
        return odds
    now = min(odds.p_destroyed, _at_once(ctx["state"], plan))
    counter = odds.p_destroyed - now
    if counter <= 0.0:
        return odds
    saved = counter * (7 - ENDURANCE_NEED) / 6
    return replace(odds, p_destroyed=odds.p_destroyed - saved,
                   p_disrupted=odds.p_disrupted + saved)


# --- Firepower (ruling 27) ---------------------------------------------------------------------
def firepower_open(st: GameState, u: Unit) -> bool:
    """Whether ``u``'s activation under way leaves Firepower's one more attack: its own
    assault phase, no decision pending, and either its move has ended with no attack
    yet or it has made exactly one attack and no move."""
    if not (u.acted and u.on_map and not u.boarded and st.phase.is_assault
            and u.side == st.active_side and st.pending is None):
        return False
    tags = activation.tags(st, u.uid)
    if tags is None:
        return False
    attacks = _attacks(tags)
    if "move" in tags:
        return not attacks and ("moved" in tags or "stopped" in tags)
    return len(attacks) == 1 and "turn" not in tags and "other" not in tags


def _firepower_target(st: GameState, u: Unit, a: Attack) -> bool:
    t = st.units.get(a.target)
    return t is not None and t.on_map and t.side != u.side and t.hex == u.hex


def firepower_attacks(game: Any, u: Unit) -> list[Attack]:
    """Firepower's attacks ``u`` may make now (each checked by the rules as if it had not
    acted): every enemy in its hex, normal and each attack mode on its card."""
    st: GameState = game.state
    if not firepower_open(st, u):
        return []
    modes = ["normal"] + [m for m in MODE_ABILITIES if u.card.has(m)]
    out = []
    for t in st.units.values():
        if not t.on_map or t.side == u.side or t.hex != u.hex:
            continue
        for m in modes:
            a = Attack(u.side, u.uid, t.uid, m)
            if _recheck(game, u, a) is None:
                out.append(a)
    return out


@register("activation_options", "firepower")
def _firepower_options(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    game = ctx.get("game")
    u: Unit = ctx["unit"]
    if ctx.get("role") != "unit" or game is None or not u.acted:
        return value
    seen = set(value)
    return list(value) + [a for a in firepower_attacks(game, u) if a not in seen]


@register("action_allowed", requires="firepower", lifts_only=True)
def _firepower_allowed(reason: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """Lift "already acted" for Firepower's attack, or say why it is refused (its target
    is not in its hex). A rule hook registered after the extra actions' own (it runs
    last, so its wording stands)."""
    u: Unit | None = ctx.get("unit")
    a = ctx["action"]
    game = ctx.get("game")
    if reason is None or u is None or game is None or not isinstance(a, Attack) or \
            a.side != u.side or not u.acted or not u.card.has("firepower"):
        return reason
    st: GameState = game.state
    if not firepower_open(st, u):
        return reason
    if not _firepower_target(st, u, a):
        return (f"{u.name} has already acted this phase: Firepower's extra attack must "
                f"target an enemy in its own hex")
    return _recheck(game, u, a)


# --- Improvisation (ruling 28) -----------------------------------------------------------------
_IMPRO = "improvised"        # game mark: ((hero uid, q, r, (picked-up uids...)), ...)
_IMPRO_SEEN = "improvised_seen"   # game mark: the destroyed units already looked at


def _impro_entries(st: GameState) -> dict[str, tuple[int, int, tuple[str, ...]]]:
    got = st.marks.get(_IMPRO) or ()
    return {uid: (q, r, tuple(caps)) for uid, q, r, caps in got}


def _impro_store(st: GameState, entries: dict[str, tuple[int, int, tuple[str, ...]]]) -> None:
    st.marks[_IMPRO] = tuple((uid, q, r, caps) for uid, (q, r, caps) in sorted(entries.items()))
    st.touch()


def picked_up(st: GameState, u: Unit, at_hex: Hex | None = None) -> list[Unit]:
    """Ruling 28: the destroyed units whose attack values ``u`` may use while it is in
    ``at_hex`` (its own hex by default), in the order they were destroyed."""
    got = _impro_entries(st).get(u.uid)
    h = u.hex if at_hex is None else at_hex
    if got is None or h is None or u.boarded or not u.on_map or (h.q, h.r) != got[:2]:
        return []
    return [st.units[c] for c in got[2] if c in st.units]


def _impro_scan(st: GameState) -> list[Event]:
    """Give every Improvisation unit the units newly destroyed in its hex."""
    seen = set(st.marks.get(_IMPRO_SEEN) or ())
    fresh = [u for u in st.units.values() if u.destroyed and u.uid not in seen]
    if not fresh:
        return []
    st.marks[_IMPRO_SEEN] = tuple(sorted(seen | {u.uid for u in fresh}))
    heroes = [h for h in st.units.values() if h.card.has("improvisation") and h.on_map
              and not h.boarded and h.hex is not None]
    entries = _impro_entries(st)
    out: list[Event] = []
    for d in fresh:
        if d.hex is None or d.card.type not in ("Soldier", "Vehicle"):
            continue
        for h in heroes:
            if h.hex != d.hex:
                continue
            q, r, caps = entries.get(h.uid, (h.hex.q, h.hex.r, ()))
            if (q, r) != (h.hex.q, h.hex.r):
                caps = ()
            entries[h.uid] = (h.hex.q, h.hex.r, caps + (d.uid,))
            out.append(AbilityUsed(h.uid, "Improvisation",
                                   text=f"{h.name} improvises: it may use the attack values "
                                        f"of {d.name}, destroyed in its hex, while it stays "
                                        f"there."))
    if out:
        _impro_store(st, entries)
    return out


def _impro_forget(st: GameState, u: Unit) -> None:
    entries = _impro_entries(st)
    if u.uid in entries:
        del entries[u.uid]
        _impro_store(st, entries)


@register("after_attack", requires="improvisation")
def _impro_after_attack(events: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """A unit destroyed at once by an attack (a flamethrower's 6s, Highly Flammable...)."""
    if not any(isinstance(e, UnitDestroyed) for e in events):
        return events
    return list(events) + _impro_scan(ctx["state"])


@register("after_casualty", requires="improvisation")
def _impro_after_casualty(events: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    return list(events) + _impro_scan(ctx["state"])


@register("entered_hex", requires="improvisation")
def _impro_entered(events: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """Leaving the hex loses the picked-up values (a unit destroyed on entering - Lack
    of Determination after an Overrun - is picked up too)."""
    st: GameState = ctx["state"]
    u: Unit = ctx["unit"]
    if u.card.has("improvisation"):
        _impro_forget(st, u)
    return list(events) + _impro_scan(st)


@register("perform", "improvisation")
def _impro_board(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """Boarding a transport leaves the hex's ground: the values are lost."""
    a = ctx["action"]
    if ctx.get("role") == "unit" and isinstance(a, Board) and a.uid == ctx["unit"].uid:
        _impro_forget(ctx["state"], ctx["unit"])
    return value


@register("attack_dice", "improvisation")
def _impro_dice(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """The most dice among its own printed value and the picked-up units' (normal
    attacks and defensive fire; Close Assault and Hand to Hand have their own dice)."""
    if ctx.get("role") != "attacker" or ctx.get("mode", "normal") != "normal":
        return value
    st: GameState = ctx["state"]
    a: Unit = ctx["attacker"]
    caps = picked_up(st, a, ctx.get("attacker_hex"))
    if not caps:
        return value
    t: Unit = ctx["target"]
    kind = "Soldier" if t.card.is_aircraft else t.card.type
    best = value
    for c in caps:
        d = c.card.dice(kind, ctx["band"])
        if d and (not best or d > best):
            best = d
    return best


# --- Smoke Screen (ruling 30) ------------------------------------------------------------------
_SMOKE_USED = "smoke_used"          # game mark: the units that declared their smoke
_SMOKE_DECLARED = "smoke_declared"  # ((turn, phase), uids): declared in this movement phase
_SMOKE = "smoke"                    # (turn, ((q, r), ...)): smoke-filled hexes this turn


def smoke_problem(st: GameState, u: Unit) -> str | None:
    """Why ``u`` can't lay its smoke now (None: it may)."""
    if not u.card.has("smoke_screen"):
        return f"{u.name} has no Smoke Screen"
    if not st.phase.is_movement or st.phase.is_vanguard:
        return "smoke is laid only in its own side's movement phase"
    if u.side != st.active_side:
        return f"it is not {side_player(u.side, capital=False)}'s movement phase"
    if st.pending is not None:
        return "a decision is pending"
    if not u.on_map:
        return f"{u.name} is not on the battle map"
    if u.uid in (st.marks.get(_SMOKE_USED) or ()):
        return f"{u.name} has already laid its smoke (once per game)"
    return None


def declare_smoke(st: GameState, u: Unit) -> list[Event]:
    """Perform ``LaySmoke`` (checked): used for the game; the smoke fills the hex the
    unit is in when this movement phase ends."""
    st.marks[_SMOKE_USED] = tuple(sorted(set(st.marks.get(_SMOKE_USED) or ()) | {u.uid}))
    key = activation.phase_key(st)
    got = st.marks.get(_SMOKE_DECLARED)
    cur = tuple(got[1]) if got and got[0] == key else ()
    st.marks[_SMOKE_DECLARED] = (key, cur + (u.uid,))
    st.touch()
    return [AbilityUsed(u.uid, "Smoke Screen",
                        text=f"{u.name} lays smoke: its hex fills with smoke when this "
                             f"movement phase ends (until the end of the turn).")]


def smoke_hexes(st: GameState) -> frozenset[Hex]:
    """The smoke-filled hexes now (ruling 30)."""
    got = st.marks.get(_SMOKE)
    if not got or got[0] != st.turn:
        return frozenset()
    return frozenset(Hex(q, r) for q, r in got[1])


def smoke_declared(st: GameState) -> tuple[str, ...]:
    """The units whose smoke fills their hex when this movement phase ends."""
    got = st.marks.get(_SMOKE_DECLARED)
    return tuple(got[1]) if got and got[0] == activation.phase_key(st) else ()


def smoke_blocks(a: Hex, b: Hex, smoke: frozenset[Hex]) -> bool:
    """Whether smoke blocks the line of sight from ``a`` to ``b``: into or out of a
    smoke-filled hex, or through its interior (ruling 2: along a hexside is not
    through). Inside one hex nothing is blocked."""
    if a == b or not smoke:
        return False
    limit = a.distance(b) + 1
    return any(h == a or h == b or (a.distance(h) + h.distance(b) <= limit
                                    and segment_enters_hex(a, b, h)) for h in smoke)


@register("phase_end", "smoke_screen", scope="any")
def _smoke_fills(events: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    st: GameState = ctx["state"]
    phase: Phase = ctx["phase"]
    if not phase.is_movement:
        return events
    out = list(events)
    got = st.marks.get(_SMOKE)
    hexes = set(smoke_hexes(st))
    for uid in smoke_declared(st):
        u = st.units.get(uid)
        if u is None or not u.on_map or u.hex is None:
            continue
        hexes.add(u.hex)
        out.append(AbilityUsed(uid, "Smoke Screen",
                               text=f"Smoke fills {hex_label(u.hex)} ({u.name}): no line of "
                                    f"sight into, out of or through it until the end of "
                                    f"the turn."))
    if len(out) != len(events) or (got and got[0] != st.turn):
        st.marks[_SMOKE] = (st.turn, tuple(sorted((h.q, h.r) for h in hexes)))
        st.touch()
    st.marks.pop(_SMOKE_DECLARED, None)
    return out


@register("line_of_sight", requires="smoke_screen")
def _smoke_sight(sees: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    """Smoke blocks the line of sight an attack needs (defensive fire included); an
    Indirect Fire attack on a Soldier still goes through a Spotter whose own sight the
    smoke doesn't block."""
    st: GameState = ctx["state"]
    smoke = smoke_hexes(st)
    if not sees or not smoke:
        return sees
    a: Unit = ctx["attacker"]
    a_hex, t_hex = ctx["attacker_hex"], ctx["target_hex"]
    if a.card.has("indirect_fire") and ctx["target"].is_soldier:
        from .roster_spotting import spots
        if st.battle_map.can_see(a_hex, t_hex) and not smoke_blocks(a_hex, t_hex, smoke):
            return True
        return any(u.side == a.side and u.hex is not None and spots(st, u, t_hex)
                   and not smoke_blocks(u.hex, t_hex, smoke) for u in st.units.values())
    return not smoke_blocks(a_hex, t_hex, smoke)
