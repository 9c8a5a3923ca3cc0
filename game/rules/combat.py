"""Attacks, hit counters, cover and the casualty phase (rulebook: Attack and Defense,
Attack Effects, Defensive Fire, Cover, Casualty Phase).

Pure rules: functions take a :class:`~game.rules.state.GameState` and, for the
ones that roll, the injected dice; they mutate the state's units and return
events.  The engine calls them; the odds module uses the very same
:func:`plan_attack` / :func:`hits_for` / :func:`counters_for` so that the
exact odds and the real attack can never disagree.

An attack, step by step (:func:`resolve_attack`):

1. :func:`plan_attack` - range (count the target's hex, not the attacker's),
   line of sight, attack dice for the target's type at that range band, the
   per-die modifier (-1 when the attacker is disrupted or damaged, not
   cumulative), the face a die needs (4+, 5+ with the -1), the defense used
   (front/rear for Vehicles by ruling 1; -1 when the target is disrupted or
   damaged, face-up counters only), and the cover roll (forest, hill, town;
   marsh for Soldiers; Soldier 4+, Vehicle 5+, one worse when the attacker is
   in the target's hex; roads change nothing).
2. Roll the dice; count successes; hits from the hits table.
3. Ruling 3: the cover roll is made right after the attack dice and only when
   the attack scored at least one hit.  Hexfront *always* makes that roll
   when it is allowed, even where it cannot change the result (one hit on a
   target without face-down counters is a Disrupted counter either way):
   every roll a player could ask for is shown, and the dice a situation file
   lists don't depend on the counters already on the target.
4. Place counters.  Normal attack: face-down, added to whatever the target
   already got this phase from any attacker (first Disrupted, then Damaged
   for a Vehicle or Destroyed for a Soldier, then Destroyed; a damaged
   Vehicle's Damaged becomes Destroyed; ruling 13).  A successful cover roll
   limits the attack to disruption: a face-down Disrupted unless the target
   already has face-down counters.  Defensive fire: a hit (after cover; a
   successful cover roll negates it) places a face-up Disrupted counter at
   once and stops the mover (:class:`~game.rules.events.UnitStopped`).

Every number passes through :func:`game.rules.abilities.apply` at the points
``range_band``, ``can_attack``, ``attack_dice``, ``die_modifier``,
``success_face``, ``defense``, ``can_cover``, ``cover_need``, ``hits`` and
``counters`` (context keys: see :func:`_ctx`).

Implementation choices where the rulebook is silent (not rulings): a
defense never drops below 1; a face needed above 6 means no die can succeed.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from . import abilities
from .dice import Dice
from .errors import IllegalAction
from .events import (CounterPlaced, CountersFlipped, CoverRolled, DiceRolled, DisruptionRemoved,
                     Event, HitsScored, UnitDamaged, UnitDestroyed, UnitDisrupted, UnitStopped)
from .hexes import DIRECTIONS, MAX_RANGE, Hex, hex_label, range_band
from .state import DAMAGED, DESTROYED, DISRUPTED, GameState, Unit
from .terrain import TERRAIN_RULES
from .cards import SOLDIER
from .later import combat as later_rules

__all__ = [
    "is_front", "hits_for", "counters_for", "cover_limited_counters", "AttackPlan",
    "plan_attack", "why_not_attack", "attack_allowed", "allowed_targets", "resolve_attack",
    "casualty_phase", "BASE_SUCCESS",
    "HIT_NAMES", "within_reach",
]

BASE_SUCCESS = 4          # rulebook: each die that comes up 4 or higher is a success
HIT_NAMES = {0: "no hits", 1: "1 hit", 2: "2 hits", 3: "3 hits"}


# --- front and rear (ruling 1) ---------------------------------------------------------
def is_front(target_hex: Hex, facing: int, attacker_hex: Hex) -> bool:
    """True when an attack from ``attacker_hex`` is against the front of a Vehicle in
    ``target_hex`` facing hexside ``facing`` (ruling 1).

    The front is the open half-plane ahead of the line through the target's centre
    square to its facing.  In pointy-top axial coordinates a hex centre sits at
    ``(sqrt3 * (q + r/2), 3/2 * r)``; the dot product of the offset ``(dq, dr)`` with
    the facing direction ``(fq, fr)`` is, times 4/3,
    ``(2dq + dr) * (2fq + fr) + 3 * dr * fr`` - an integer whose sign decides.
    Zero (exactly left or right, or the same hex) is rear."""
    dq, dr = attacker_hex.q - target_hex.q, attacker_hex.r - target_hex.r
    f = DIRECTIONS[facing % 6]
    return (2 * dq + dr) * (2 * f.q + f.r) + 3 * dr * f.r > 0


# --- hits and counters -------------------------------------------------------------------
def hits_for(successes: int, defense: int) -> int:
    """Rulebook hits table: fewer than the defense 0; equal 1; more 2; double or more 3.
    Later edition (rulings L12, L19): at defense 0 a single success destroys (3 hits);
    no success still scores nothing."""
    if defense <= 0:
        return 3 if successes >= 1 else 0
    if successes < defense:
        return 0
    if successes >= 2 * defense:
        return 3
    if successes > defense:
        return 2
    return 1


def counters_for(is_vehicle: bool, damaged: bool, pending: list[str] | tuple[str, ...],
                 hits: int) -> list[str]:
    """The face-down counters ``hits`` new hits add to a unit that already carries
    ``pending`` face-down counters this phase (rulebook: Hits; ruling 13).

    Hits add up across attacks and attackers: the n-th hit of the phase is the n-th
    counter.  First Disrupted; second Damaged (Vehicle) or Destroyed (Soldier); third
    Destroyed (Vehicle).  A Vehicle that is damaged (face-up) or already has a
    face-down Damaged gets Destroyed instead of another Damaged.  Nothing follows a
    Destroyed counter.  A face-up Disrupted counter is not a hit of this phase."""
    have = list(pending)
    new: list[str] = []
    for _ in range(max(0, hits)):
        if DESTROYED in have:
            break
        n = len(have)
        if n == 0:
            c = DISRUPTED
        elif not is_vehicle:
            c = DESTROYED
        elif DAMAGED in have or damaged:
            c = DESTROYED
        else:
            c = DAMAGED
        have.append(c)
        new.append(c)
    return new


def cover_limited_counters(pending: list[str] | tuple[str, ...]) -> list[str]:
    """Rulebook: Effect of a Cover Roll - the attack is limited to disruption: a
    face-down Disrupted counter, but not a second one (nor anything after the first)."""
    return [] if pending else [DISRUPTED]


# --- planning an attack ---------------------------------------------------------------------
@dataclass(frozen=True)
class AttackPlan:
    """Everything about an attack that is known before the dice are rolled."""

    attacker: str
    target: str
    mode: str
    defensive: bool
    attacker_hex: Hex
    target_hex: Hex
    distance: int
    band: str
    target_type: str            # "Soldier" | "Vehicle": which attack line is used
    dice: int
    modifier: int               # per-die modifier (-1 disrupted/damaged, abilities)
    need: int                   # face a die needs (4 = "4+"); 7 = impossible
    defense: int
    front: bool | None          # Vehicles: front (True) or rear (False); Soldiers: None
    cover_need: int | None      # cover roll face needed; None = no cover roll; 1 = automatic
    hot: frozenset[str] | None = field(default=None, compare=False, repr=False)
    """Hook points that can change this attack's numbers (see ``_hot_points``)."""

    @property
    def p_success(self) -> float:
        """Chance that one attack die is a success."""
        return max(0, min(6, 7 - self.need)) / 6

    @property
    def p_cover(self) -> float:
        """Chance that the cover roll succeeds (0 without cover)."""
        if self.cover_need is None:
            return 0.0
        return max(0, min(6, 7 - self.cover_need)) / 6


class _Ctx(dict[str, Any]):
    """A hook context: a plain dict to the hooks, which also remembers (``hot``) the
    hook points that can matter for its attacker and target."""

    hot: frozenset[str] | None = None


def _ctx(state: GameState, attacker: Unit, target: Unit, **more: Any) -> _Ctx:
    """Context passed to ability hooks: ``state``, ``attacker``, ``target`` (the
    abilities of both run; ``ctx["role"]`` tells a hook whose ability it is), and
    the attack's ``mode``, ``defensive``, ``attacker_hex``, ``target_hex``,
    ``distance``, ``band``, ``front`` as far as known, ``n_dice`` (attack dice),
    ``modifier``, ``successes``, ``defense``, ``hits``, ``covered`` where the point
    has them."""
    ctx = _Ctx(state=state, attacker=attacker, target=target)
    ctx.update(more)
    plan = more.get("plan")
    if isinstance(plan, AttackPlan) and plan.hot is not None:
        ctx.hot = plan.hot
    return ctx


_HOT: dict[tuple[int, int, int], tuple[Any, ...]] = {}


def _hot_points(attacker: Unit, target: Unit, state: GameState | None = None,
                cast: Any = None) -> frozenset[str]:
    """The hook points where ``abilities.apply`` could change a value of an attack
    between these two units in ``state``: one of their abilities is hooked there, or
    an aura or rule hook can run there in that state (``abilities.live_points``; the
    only units in a combat ctx are the attacker and the target).  Cached per pair of
    cards, the state's set of abilities and registry state (``abilities.GENERATION``).
    ``cast``: ``abilities.cast(state)`` when the caller has it."""
    ac, tc = attacker.card, target.card
    if cast is None:
        cast = abilities.cast(state)
    key = (id(ac), id(tc), id(cast))
    got = _HOT.get(key)
    gen = abilities.GENERATION
    if got is not None and got[0] == gen and got[1] is ac and got[2] is tc and got[3] is cast:
        hot: frozenset[str] = got[4]
        return hot
    if len(_HOT) > 4096:
        _HOT.clear()
    hot = abilities._card_points(ac) | abilities._card_points(tc) | cast.live
    _HOT[key] = (gen, ac, tc, cast, hot)
    return hot


def _hook(point: str, value: Any, ctx: dict[Any, Any], **extra: Any) -> Any:
    """Run ``abilities.apply`` at ``point``, skipped cheaply when it can't change the
    value (attacks are simulated by the thousand)."""
    if not abilities.HOOKS.get(point):
        return value
    hot = getattr(ctx, "hot", None)
    if hot is None:
        hot = _hot_points(ctx["attacker"], ctx["target"], ctx.get("state"))
        if isinstance(ctx, _Ctx):
            ctx.hot = hot
    if point not in hot:
        return value
    return abilities.apply(point, value, **ctx, **extra)


def why_not_attack(state: GameState, attacker_uid: str, target_uid: str, *,
                   mode: str = "normal", defensive: bool = False,
                   at_hex: Hex | None = None) -> str | None:
    """The reason the rules refuse this attack, or ``None`` when it is allowed."""
    try:
        got = _check_attack(state, attacker_uid, target_uid, mode=mode, defensive=defensive,
                            at_hex=at_hex, facing=None, secondary=False, need_ctx=False)
    except IllegalAction as exc:
        return exc.reason
    return got if isinstance(got, str) else None


def attack_allowed(state: GameState, attacker_uid: str, target_uid: str, *,
                   mode: str = "normal", defensive: bool = False,
                   at_hex: Hex | None = None) -> bool:
    """``why_not_attack(...) is None`` without working out the words of a refusal
    (the legal-action listings ask this by the thousand)."""
    try:
        got = _check_attack(state, attacker_uid, target_uid, mode=mode, defensive=defensive,
                            at_hex=at_hex, facing=None, secondary=False, explain=False,
                            need_ctx=False)
    except IllegalAction:
        return False
    return not isinstance(got, str)


def allowed_targets(state: GameState, attacker_uid: str, target_uids: Iterable[str], *,
                    mode: str = "normal") -> list[str]:
    """The uids among ``target_uids`` (in their order) that ``attacker_uid`` may attack
    now: :func:`attack_allowed` for each, the state's abilities looked up once (the
    legal-action listing asks this for every unit)."""
    cast = abilities.cast(state) if abilities.HOOKS else None
    out = []
    for t_uid in target_uids:
        try:
            got = _check_attack(state, attacker_uid, t_uid, mode=mode, defensive=False,
                                at_hex=None, facing=None, secondary=False, explain=False,
                                need_ctx=False, cast=cast)
        except IllegalAction:
            continue
        if not isinstance(got, str):
            out.append(t_uid)
    return out


#: the hook points that can change whether an attack is in range or in sight
_REACH_POINTS = ("range_band",)
_SIGHT_POINTS = ("line_of_sight",)


def within_reach(state: GameState, a: Unit, t: Unit, a_hex: Hex, t_hex: Hex,
                 in_sight: bool) -> bool:
    """A quick necessary condition for ``a`` in ``a_hex`` attacking ``t`` in ``t_hex``,
    for queries that look over many targets before asking :func:`why_not_attack` (which
    has the last word): the longest range, and line of sight (``in_sight``: whether the
    map's sight joins the two hexes, e.g. ``t_hex in Game.visible_from(a_hex)``; sight
    is the same both ways) - except where the map cannot settle it: an Aircraft on
    either side (ruling L2: sight to and from it is never blocked), or a hook that may
    change ``a``'s range (Extended Range) or sight (Indirect Fire with a Spotter,
    Superior Optics...)."""
    if a_hex == t_hex:
        return True
    if a_hex.distance(t_hex) > MAX_RANGE and not abilities.relevant(_REACH_POINTS, a, state):
        return False
    return (in_sight or a.card.is_aircraft or t.card.is_aircraft
            or abilities.relevant(_SIGHT_POINTS, a, state))


def plan_attack(state: GameState, attacker_uid: str, target_uid: str, *,
                mode: str = "normal", defensive: bool = False, at_hex: Hex | None = None,
                facing: int | None = None, secondary: bool = False) -> AttackPlan:
    """Work out an attack without rolling; raise :class:`IllegalAction` with the
    rules' reason when it isn't allowed.

    ``at_hex`` / ``facing``: where the target is and which way it faces for this
    attack (defensive fire at a mover in the hex it leaves or enters); default its
    current hex and facing."""
    a, t, ctx = _attack_allowed(state, attacker_uid, target_uid, mode=mode,
                                defensive=defensive, at_hex=at_hex, facing=facing,
                                secondary=secondary)
    air = a.card.is_aircraft or t.card.is_aircraft
    a_hex, t_hex, t_facing = ctx["attacker_hex"], ctx["target_hex"], ctx["facing"]
    distance, band, dice = ctx["distance"], ctx["band"], ctx["n_dice"]
    target_type = t.card.type
    front: bool | None = is_front(t_hex, t_facing, a_hex) if t.is_vehicle else None
    return _finish_plan(state, a, t, ctx, mode=mode, defensive=defensive, air=air,
                        a_hex=a_hex, t_hex=t_hex, distance=distance, band=band, dice=dice,
                        target_type=target_type, front=front)


def _attack_allowed(state: GameState, attacker_uid: str, target_uid: str, *, mode: str,
                    defensive: bool, at_hex: Hex | None, facing: int | None,
                    secondary: bool) -> tuple[Unit, Unit, _Ctx]:
    """The part of :func:`plan_attack` that decides whether the attack is allowed
    (raises IllegalAction with the reason; see :func:`_check_attack`)."""
    got = _check_attack(state, attacker_uid, target_uid, mode=mode, defensive=defensive,
                        at_hex=at_hex, facing=facing, secondary=secondary)
    if isinstance(got, str):
        raise IllegalAction(got)
    a, t, ctx = got
    assert ctx is not None
    return a, t, ctx


def _allow_ctx(state: GameState, a: Unit, t: Unit, mode: str, defensive: bool, a_hex: Hex,
               t_hex: Hex, distance: int, facing: int, secondary: bool,
               hot: frozenset[str]) -> _Ctx:
    """The hook context of an attack's allow check (before its band is known)."""
    ctx = _ctx(state, a, t, mode=mode, defensive=defensive, attacker_hex=a_hex,
               target_hex=t_hex, distance=distance, facing=facing, secondary=secondary)
    ctx.hot = hot
    return ctx


def _check_attack(state: GameState, attacker_uid: str, target_uid: str, *, mode: str,
                  defensive: bool, at_hex: Hex | None, facing: int | None,
                  secondary: bool, explain: bool = True, need_ctx: bool = True,
                  cast: Any = None) -> tuple[Unit, Unit, _Ctx | None] | str:
    """Whether the attack is allowed: the rules' reason it is refused, or the two
    units and the hook context (the rest of :func:`plan_attack` only works out its
    numbers, so :func:`why_not_attack` stops here).  Hooks at the later points
    (die_modifier, defense, can_cover, cover_need) give numbers and never refuse: a
    refusal belongs at ``can_attack``.  ``explain=False``: a refusal's words don't
    matter (one fixed text); ``need_ctx=False``: the context is built only when a hook
    that can run here reads it (None otherwise); ``cast``: ``abilities.cast(state)``
    when the caller has it."""
    a = _unit(state, attacker_uid)
    t = _unit(state, target_uid)
    if not a.on_map:
        return f"{a.name} is not on the battle map"
    if not t.on_map:
        return f"{t.name} is not on the battle map"
    if a.uid == t.uid or (a.side == t.side and not secondary):
        return f"{a.name} can't attack a friendly unit"
    if a.boarded and not (abilities.HOOKS.get("attack_from_aboard") and abilities.apply(
            "attack_from_aboard", False, state=state, attacker=a, target=t,
            carrier=state.units.get(a.carrier or ""), defensive=defensive) is True):
        return f"{a.name} is aboard a transport and can't fire"
    if t.boarded and not (abilities.HOOKS.get("attackable_aboard") and abilities.apply(
            "attackable_aboard", False, state=state, attacker=a, target=t,
            carrier=state.units.get(t.carrier or "")) is True):
        return f"{t.name} is aboard a transport: attack the transport instead"
    if defensive and a.disrupted:
        return f"{a.name} is disrupted and can't make defensive-fire attacks"
    if mode != "normal" and not a.card.has(mode):
        return f"{a.name} has no ability '{mode}'"
    a_hex = a.hex
    t_hex = at_hex if at_hex is not None else t.hex
    t_facing = facing if facing is not None else t.facing
    assert a_hex is not None and t_hex is not None
    distance = a_hex.distance(t_hex)
    hot = _hot_points(a, t, state, cast) if abilities.HOOKS else frozenset()
    ctx: _Ctx | None = None        # built when a hook that can run first needs it
    made = (state, a, t, mode, defensive, a_hex, t_hex, distance, t_facing, secondary, hot)
    band = range_band(distance)
    if "range_band" in hot:
        ctx = _allow_ctx(*made)
        band = abilities.apply("range_band", band, **ctx)
    if band is None:
        if not explain:
            return "out of range"
        return (f"{t.name} is out of range ({distance} hexes; the longest "
                f"range is {MAX_RANGE})")
    if ctx is not None:
        ctx["band"] = band
    air = a.card.is_aircraft or t.card.is_aircraft
    # ruling L2: line of sight to and from an Aircraft is never blocked
    sees = air or state.battle_map.can_see(a_hex, t_hex)
    if "line_of_sight" in hot:
        # Indirect Fire: no line of sight needed when a Spotter sees the target
        if ctx is None:
            ctx = _allow_ctx(*made)
            ctx["band"] = band
        sees = bool(abilities.apply("line_of_sight", sees, **ctx))
    if not sees:
        if not explain:
            return "no line of sight"
        blocker = state.battle_map.los.blocker(a_hex, t_hex)
        where = (f": the {state.battle_map.terrain_at(blocker).value} in {hex_label(blocker)} "
                 f"is in the way") if blocker is not None else ""
        return f"{a.name} has no line of sight to {t.name}{where}"
    target_type = t.card.type
    # ruling L2 / L07: attacks on an Aircraft use the anti-Soldier values
    dice = a.card.dice(SOLDIER if air and t.card.is_aircraft else target_type, band)
    if "attack_dice" in hot:
        if ctx is None:
            ctx = _allow_ctx(*made)
            ctx["band"] = band
        dice = abilities.apply("attack_dice", dice, **ctx)
    if not dice:
        if not explain:
            return "no attack"
        what = "Aircraft" if t.card.is_aircraft else f"{target_type}s"
        return f"{a.name} has no attack against {what} at {band} range"
    if ctx is not None:
        ctx["n_dice"] = dice
    if "can_attack" in hot:
        if ctx is None:
            ctx = _allow_ctx(*made)
            ctx["band"], ctx["n_dice"] = band, dice
        allowed = abilities.apply("can_attack", True, **ctx)
        if allowed is not True:
            return allowed if isinstance(allowed, str) and allowed else (
                f"{a.name} can't make this attack")
    if need_ctx and ctx is None:
        ctx = _allow_ctx(*made)
        ctx["band"], ctx["n_dice"] = band, dice
    return a, t, ctx


def _finish_plan(state: GameState, a: Unit, t: Unit, ctx: _Ctx, *, mode: str,
                 defensive: bool, air: bool, a_hex: Hex, t_hex: Hex, distance: int,
                 band: str, dice: int, target_type: str, front: bool | None) -> AttackPlan:
    ctx["front"] = front
    modifier = -1 if a.impaired else 0
    if air and t.card.is_aircraft:
        modifier += later_rules.air_target_modifier(a, state)   # rulings L07, L14
    modifier = _hook("die_modifier", modifier, ctx)
    need = max(1, min(7, BASE_SUCCESS - modifier))
    defense = _hook("defense", t.defense_value(front is not False), ctx)
    # first edition: a defense never drops below 1; later edition: 0 (ruling L12)
    defense = max(0 if state.options.get("edition") == "later" else 1, defense)
    rules = TERRAIN_RULES[state.battle_map.terrain_at(t_hex)]
    cover = rules.vehicle_cover if t.is_vehicle else rules.soldier_cover
    if air:
        cover = later_rules.air_cover(a, t, cover)           # rulings L5, L09, L16
    elif state.battle_map.has_sides:
        cover = later_rules.side_cover(state, a_hex, t_hex, t, cover)   # rulings L8, L9, L16
    if abilities.HOOKS.get("terrain_cover"):
        cover = _hook("terrain_cover", cover, ctx)           # Low Silhouette
    can_cover = _hook("can_cover", cover is not None, ctx)
    cover_need: int | None = None
    if can_cover:
        need_c = (cover if cover is not None else 7) + (1 if a_hex == t_hex else 0)
        need_c = _hook("cover_need", need_c, ctx)
        cover_need = max(1, need_c) if need_c <= 6 else None
    return AttackPlan(attacker=a.uid, target=t.uid, mode=mode, defensive=defensive,
                      attacker_hex=a_hex, target_hex=t_hex, distance=distance, band=band,
                      target_type=target_type, dice=int(dice), modifier=modifier, need=need,
                      defense=defense, front=front, cover_need=cover_need, hot=ctx.hot)


def plan_hits(state: GameState, plan: AttackPlan, successes: int) -> int:
    """Hits for ``successes`` under ``plan`` (hits table, then the ``hits`` hook)."""
    a, t = state.units[plan.attacker], state.units[plan.target]
    hits = hits_for(successes, plan.defense)
    if not abilities.HOOKS.get("hits") or (plan.hot is not None and "hits" not in plan.hot):
        return hits
    out: int = _hook("hits", hits, _ctx(state, a, t, successes=successes,
                                        defense=plan.defense, plan=plan, **_plan_ctx(plan)))
    return out


def plan_counters(state: GameState, plan: AttackPlan, hits: int, covered: bool) -> list[str]:
    """Face-down counters a normal attack places for ``hits`` (``covered``: the cover
    roll succeeded), then the ``counters`` hook."""
    a, t = state.units[plan.attacker], state.units[plan.target]
    if hits <= 0:
        new: list[str] = []
    elif covered:
        new = cover_limited_counters(t.pending)
    else:
        new = counters_for(t.is_vehicle, t.damaged, t.pending, hits)
    if not abilities.HOOKS.get("counters") or (plan.hot is not None
                                               and "counters" not in plan.hot):
        return new
    return list(_hook("counters", new, _ctx(state, a, t, hits=hits, covered=covered, plan=plan,
                                            **_plan_ctx(plan))))


def _plan_ctx(plan: AttackPlan) -> dict[Any, Any]:
    return dict(mode=plan.mode, defensive=plan.defensive, attacker_hex=plan.attacker_hex,
                target_hex=plan.target_hex, distance=plan.distance, band=plan.band,
                front=plan.front)


# --- resolving an attack ------------------------------------------------------------------------
def resolve_attack(state: GameState, attacker_uid: str, target_uid: str, dice: Dice, *,
                   mode: str = "normal", defensive: bool = False, at_hex: Hex | None = None,
                   facing: int | None = None, secondary: bool = False,
                   stage: str | None = None) -> list[Event]:
    """Roll one attack and place its counters; return the events.

    Raises :class:`IllegalAction` (before rolling anything) when the attack isn't
    allowed.  Normal attacks place face-down counters on ``target.pending``.  With
    ``defensive=True`` a hit that survives the cover roll sets ``target.disrupted``
    at once and the events end with :class:`UnitStopped` - the engine ends the move
    there (ruling 6 decides where the unit actually stays).  The attacker's
    activation flags (``acted``, ``fired_defensively``) are the engine's business."""
    plan = plan_attack(state, attacker_uid, target_uid, mode=mode, defensive=defensive,
                       at_hex=at_hex, facing=facing, secondary=secondary)
    a, t = state.units[plan.attacker], state.units[plan.target]
    events: list[Event] = []
    rolls = dice.roll(plan.dice)
    if abilities.HOOKS.get("attack_rolls"):              # Guard Crew's reroll (issue 18)
        rolls = tuple(_hook("attack_rolls", tuple(rolls), _ctx(
            state, a, t, plan=plan, dice=dice, events=events, **_plan_ctx(plan))))
    successes = sum(1 for d in rolls if d >= plan.need)
    if abilities.HOOKS.get("successes"):                 # Vast Experience, Jet: 6s count twice
        successes = _hook("successes", successes, _ctx(
            state, a, t, rolls=tuple(rolls), plan=plan, **_plan_ctx(plan)))
    events.append(DiceRolled(a.uid, tuple(rolls), plan.need, successes, t.uid, plan.mode,
                             plan.defensive, stage, plan.attacker_hex, plan.target_hex,
                             plan.band, plan.distance, plan.front,
                             text=_dice_text(a, rolls, plan, successes)))
    hits = plan_hits(state, plan, successes)
    events.append(HitsScored(t.uid, hits, a.uid, text=_hits_text(t, hits, plan)))
    covered = False
    if hits > 0 and plan.cover_need is not None:
        covered, cover_events = _cover_roll(t, plan, dice)
        events.extend(cover_events)
    if defensive:
        if hits > 0 and not covered:
            was = t.disrupted
            t.disrupted = True
            stops = later_rules.defensive_fire_stops(state, t)      # checklist L18
            events.append(CounterPlaced(
                t.uid, DISRUPTED, True, a.uid,
                text=f"{t.name} is hit by defensive fire: face-up Disrupted counter"
                     + (" (already disrupted; disruptions don't add up)" if was else "")
                     + ("." if stops else "; it may move while disrupted, so it moves on.")))
            if stops:
                events.append(UnitStopped(t.uid, plan.target_hex, "disrupted by defensive fire",
                                          a.uid, stage,
                                          text=f"{t.name} stops in {hex_label(plan.target_hex)}: "
                                               f"disrupted by defensive fire."))
    else:
        new = plan_counters(state, plan, hits, covered)
        if abilities.HOOKS.get("attack_result"):
            new = list(_hook("attack_result", new, _ctx(
                state, a, t, rolls=tuple(rolls), hits=hits, covered=covered, dice=dice,
                plan=plan, events=events, **_plan_ctx(plan))))
        for c in new:
            t.pending.append(c)
            events.append(CounterPlaced(t.uid, c, False, a.uid,
                                        text=f"{t.name} gets a face-down {c.capitalize()} "
                                             f"counter."))
    if abilities.HOOKS.get("after_attack"):
        events = list(_hook("after_attack", events, _ctx(
            state, a, t, rolls=tuple(rolls), hits=hits, covered=covered, dice=dice,
            plan=plan, secondary=secondary, **_plan_ctx(plan))))
    state.touch()
    return events


def _cover_roll(t: Unit, plan: AttackPlan, dice: Dice) -> tuple[bool, list[Event]]:
    need = plan.cover_need
    assert need is not None
    if need <= 1:
        return True, [CoverRolled(t.uid, 0, 1, True,
                                  text=f"{t.name} succeeds at its cover roll automatically.")]
    die = dice.d6()
    ok = die >= need
    effect = ("the attack is negated" if plan.defensive else "the attack is limited to "
              "disruption") if ok else "no cover"
    return ok, [CoverRolled(t.uid, die, need, ok,
                            text=f"{t.name} cover roll: {die} (needs {need}+): {effect}.")]


def _dice_text(a: Unit, rolls: tuple[int, ...], plan: AttackPlan, successes: int) -> str:
    shown = " ".join(str(d) for d in sorted(rolls, reverse=True)) or "no dice"
    need = f"{plan.need}+" if plan.need <= 6 else "impossible"
    return (f"{a.name} rolls {plan.dice} dice at {plan.band} range (successes on {need}): "
            f"{shown} - {successes} success{'es' if successes != 1 else ''}.")


def _hits_text(t: Unit, hits: int, plan: AttackPlan) -> str:
    side = "" if plan.front is None else (" front" if plan.front else " rear")
    if hits == 0:
        return f"{t.name} is missed (defense{side} {plan.defense})."
    return f"{HIT_NAMES.get(hits, f'{hits} hits')} on {t.name} (defense{side} {plan.defense})."


# --- casualty phase ------------------------------------------------------------------------------
def casualty_phase(state: GameState) -> list[Event]:
    """Rulebook: Casualty Phase, in its order.

    1. Remove current face-up Disrupted counters (Damaged stays).
    2. Flip over new (face-down) hit counters.
    3. Units with a Destroyed counter are destroyed; a Soldier aboard a destroyed
       transport is destroyed with it.
    4. A Vehicle with a Damaged counter is now damaged.
    5. A unit with a Disrupted counter is now disrupted."""
    events: list[Event] = []
    units = [u for u in state.units.values() if u.on_map]
    keeps = abilities.has_hooks("keeps_disruption")
    for u in units:
        if u.disrupted:
            if keeps and abilities.apply("keeps_disruption", False, state=state, unit=u):
                continue                   # Green: its roll to recover failed
            u.disrupted = False
            events.append(DisruptionRemoved(u.uid, text=f"{u.name} recovers from disruption."))
    flipped: dict[str, list[str]] = {}
    for u in units:
        if u.pending:
            flipped[u.uid] = list(u.pending)
            u.pending = []
            events.append(CountersFlipped(
                u.uid, tuple(flipped[u.uid]),
                text=f"{u.name}: counters flipped face up ({', '.join(flipped[u.uid])})."))
    for uid, counters in flipped.items():
        u = state.units[uid]
        if DESTROYED in counters and not u.destroyed:
            events.extend(_destroy(state, u))
    for uid, counters in flipped.items():
        u = state.units[uid]
        if DAMAGED in counters and not u.destroyed and u.is_vehicle:
            u.damaged = True
            events.append(UnitDamaged(u.uid, text=f"{u.name} is damaged."))
    for uid, counters in flipped.items():
        u = state.units[uid]
        if DISRUPTED in counters and not u.destroyed:
            u.disrupted = True
            events.append(UnitDisrupted(u.uid, text=f"{u.name} is disrupted."))
    state.touch()
    return events


def _destroy(state: GameState, u: Unit) -> list[Event]:
    u.destroyed = True
    u.pending = []
    out: list[Event] = [UnitDestroyed(u.uid, text=f"{u.name} is destroyed.")]
    for p in state.passengers(u.uid):
        p.destroyed = True
        p.pending = []
        out.append(UnitDestroyed(p.uid, text=f"{p.name} is destroyed with the transport "
                                             f"{u.name}."))
    return out


def _unit(state: GameState, uid: str) -> Unit:
    try:
        return state.units[uid]
    except KeyError:
        raise IllegalAction(f"there is no unit '{uid}'") from None
