"""The special abilities ("abilities trump rules"): this package's ``__init__`` is
the hook registry; each ability lives in one module of the package, its spec
(:class:`~game.rules.abilities.spec.AbilitySpec`: printed name, parameter, rule
text) and its hooks side by side.  The modules, grouped by what they touch:

==================  ===============================================================
module              abilities
==================  ===============================================================
``attack_modes``    attack modes, dice, range, success faces, cover, special results
``armour``          the target's defense, armour and cover
``commanders``      commander auras
``movement``        speed, costs, movement rolls; Bridge Demolition's spec
``transport``       transports, Fighting Platform, Exposed Transport
``extra_actions``   extra actions within an activation and extra defensive fire
``casualty``        resisting disruption (after attacks, in the casualty phase)
``later_edition``   specs of the later edition's abilities (effects: game.rules.later)
``results``         exact odds of attacks with ability-dependent outcomes
``roster_combat``   the whole roster's attack and defense abilities (issue 19)
``roster_movement`` the whole roster's movement abilities
``roster_transport`` the whole roster's transport abilities
``roster_morale``   the whole roster's disruption abilities (Green, Hard Charger...)
``roster_setup``    deployment and initiative abilities (Gliderborne, Partisan, Recon)
``roster_reserves`` units held off the map (Paratrooper, Hero; the entering is the
                    action family ``families.reserves``), Paratrooper Commander
``roster_actions``  the whole roster's new actions (Aggression, Rocket Salvo...)
``roster_spotting`` Indirect Fire and Spotters; Camouflaged, Concealed, Experienced Recon
``roster_fire``     more attack abilities (hunters, rerolls, Overheat, HE Round...)
``roster_defense``  more defense, cover and aura abilities (Elan, Subtle, Awareness...)
``roster_extra``    the last passive ones (Fixed Rear Gun, Heavy Rifle, Fury, Superior Optics...)
``roster_final``    the last ground abilities (Endurance...; rulings 26-)
``common``          the modules' shared events, marks and helpers
==================  ===============================================================

:func:`load` imports them all (``game.rules.engine`` calls it); ``spec.CATALOG``
then lists every ability id.

The engine and combat code route every number and every yes/no the rules
decide through :func:`apply` at named *points*.  An ability module registers a
function for a ``(point, ability id)`` pair::

    from game.rules.abilities import register

    @register("attack_dice", "close_assault")
    def _close_assault(value, ability, ctx):
        if ctx.get("mode") == "close_assault" and ctx["distance"] == 0:
            return ability.value
        return value

A hook gets ``(value, ability, ctx)`` and returns the new value.  ``ability``
is the :class:`~game.rules.cards.Ability` on the card (its ``value`` is the N
of "Close Assault N"); ``ctx`` is a dict with the keys listed below plus
``owner`` (the :class:`Unit` that has the ability) and ``role`` (which ctx key
the owner came from: ``"unit"``, ``"attacker"``, ``"target"``...).

Which abilities run: the abilities of every unit named in ctx under one of
:data:`UNIT_KEYS`, each ability once per owner, in card order.  Hooks
registered with ``scope="any"`` (commander auras: "friendly Soldiers within 2
hexes get +1 ...") instead run once per ability id for the whole state, with
``ctx["sources"]`` = every live, deployed ``(unit, ability)`` pair having it
(disrupted ones included - the hook decides), and ``owner`` = the first one;
that makes "abilities of the same name don't add together" and "only the
highest commander bonus applies" the hook's single decision.

A hook with ``ability_id=None`` runs on every call of its point whatever the
units have (``ability`` is ``None`` then) - use it for rules, not for abilities.
``register(point, requires="x")`` makes such a rule hook belong to ability ``x``: it
runs only while some unit of the call's state (destroyed and undeployed ones
included) has ``x`` on its card, and never for a call without a state
(``roster_common.aura`` registers the roster's auras on hot points this way).

Points and their ctx keys (``state`` is always there).  Only points some ability
uses are listed (a rule the abilities don't touch has no hook point); a new
ability that needs a new point adds it here and at the one place the rules
decide that value:

=========================  ===========================================================  ==========
point                      ctx keys                                                     value
=========================  ===========================================================  ==========
speed                      unit, phase                                                  int
move_cost                  unit, from_hex, to_hex, terrain, along_road, phase           int (hexes)
can_move                   unit, phase                                                  bool
can_fire_defensively       firer (= unit), mover, from_hex, to_hex, stage               bool
activation_options         unit, phase                                                  list[Action]
action_allowed             unit (may be None), action                                   str|None (refusal reason)
perform                    unit, action, dice, game                                     list[Event]|None (None: engine does it)
can_board                  unit, carrier                                                bool
-- combat (game.rules.combat, helper C2) --
attack_dice                attacker, target, distance, band, mode, defensive            int|None
die_modifier               attacker, target, distance, band, mode, defensive            int
defense                    attacker, target, front, mode, defensive                     int
cover_need                 attacker, target, mode, defensive                            int|None
can_cover                  attacker, target, mode, defensive                            bool
range_band                 attacker, target, distance                                   str|None
can_attack                 attacker, target, mode, defensive                            bool
counters                   attacker, target, hits, mode, defensive                      list[str]
hits                       attacker, target, successes, defense, mode, defensive        int
-- added for the abilities (helper E) --
attackable_aboard          attacker, target (boarded), carrier                          bool
attack_from_aboard         attacker (boarded), carrier, target (may be None)            bool
attack_result              attacker, target, rolls, hits, covered, dice, plan           list[str] (new counters)
after_attack               attacker, target, plan, dice, rolls, hits, covered           list[Event]
phase_begin                phase, dice, game                                            list[Event]
after_casualty             dice, game                                                   list[Event]
movement_roll_kinds        unit, from_hex, to_hex, terrain, along_road                  list[str]
path_speed                 unit, path, phase                                            int (speed for that path)
reach                      unit, phase, start                                           dict[Hex, Reach]
odds                       attacker, target, plan                                       Odds
-- added for the printed cards (helper abil18, issue 18) --
entered_hex                unit, from_hex, to_hex, dice, game                           list[Event]
provokes_defensive_fire    firer, mover, from_hex, to_hex, stage                        bool
moves_while_disrupted      unit, phase                                                  bool
stacks_as_vehicle          unit (depends only on its card)                              bool
attack_rolls               attacker, target, plan, rolls, dice, events                  tuple[int]
-- added for the whole roster (helper abil19, issue 19) --
movement_roll_need         unit, from_hex, to_hex, terrain, along_road, phase, kind     int (face needed)
can_enter                  unit, from_hex, to_hex, terrain, from_terrain, along_road,  str|None (the rules'
                           phase, stream (not along a road)                             refusal, or None)
transport_capacity         unit (the carrier)                                           int (Soldiers)
keeps_disruption           unit (casualty phase, before its Disrupted comes off)        bool
phase_end                  phase (the one ending), dice, game                           list[Event]
initiative_bonus           side                                                         int (added to rolls)
deployment_zone            unit, side                                                   frozenset[Hex]
line_of_sight              attacker, target, distance, band, mode, defensive            bool (the map's answer)
terrain_cover              attacker, target, ... (before can_cover)                     int|None (cover roll)
-- added for the later edition's Aircraft and the last roster cards (session 6) --
successes                  attacker, target, plan, rolls (after counting them)          int (successes)
stopped_by_defensive_fire  unit (hit by defensive fire, disrupted)                      bool (its move ends)
-- added for the last ground cards (session 8, roster_final) --
movement_roll              unit, kind, need, from_hex, to_hex, dice, events (a failed   int (the die that
                           roll: Lead the Way may roll it again)                        stands)
=========================  ===========================================================  ==========

Everything here is pure and deterministic; hooks must draw any roll from
``ctx["dice"]`` when one is given.

An ``action_allowed`` hook that never refuses an action the rules allow (given
``None`` it returns ``None``; it only lifts or rewords refusals) is registered with
``lifts_only=True``: the legal-action listing then skips it for the actions the
rules listed themselves.  Only the combat points up to ``can_attack`` may refuse an
attack; ``die_modifier``, ``defense``, ``can_cover`` and ``cover_need`` give numbers.
The registry re-indexes itself on every (un)registration (``GENERATION`` bumps and
the per-card caches empty): never change :data:`HOOKS` by hand.

Which auras and ``requires`` hooks can run depends only on the set of ability ids on
the cards of the state's units (:func:`present_ids`); the registry keeps that set, and
the holders of each id, per units dict (checked against the dict's unit objects on
every use, so a unit added or swapped in is noticed) and, per set of ids, which hooks
run at each point (:func:`cast`; :func:`live_points`).  ``may_refuse``, ``relevant``
and ``shared_hooks`` take an optional ``state`` to answer for it (without one they
count every registered hook).

Movement-search points (move_cost, can_enter, movement_roll_need,
movement_roll_kinds): a hook keyed on an ability must
depend only on the moving unit (its card, damaged/disrupted), the step (hexes,
terrain, road) and the kind of phase - the search is cached on exactly those.
A hook that needs more (other units' positions) must be a rule-level hook
(``ability_id=None``) or an aura, which turns that cache off.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

__all__ = ["HOOKS", "POINTS", "UNIT_KEYS", "MODULES", "register", "unregister", "apply",
           "has_hooks", "relevant", "shared_hooks", "may_refuse", "Hook", "load",
           "present_ids", "cast", "live_points"]

#: the ability modules, in the order they register (game.rules.abilities.<name>)
MODULES: tuple[str, ...] = ("common", "extra_actions", "attack_modes", "armour", "results",
                            "casualty", "commanders", "movement", "transport", "later_edition",
                            "roster_combat", "roster_movement", "roster_transport",
                            "roster_morale", "roster_setup", "roster_actions",
                            "roster_spotting", "roster_fire", "roster_defense",
                            "roster_extra", "later_aircraft", "roster_last",
                            "roster_reserves", "roster_final")
_LOADED = False


def load() -> None:
    """Import every ability module once (registers their specs and hooks)."""
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    import importlib
    for name in MODULES:
        importlib.import_module(f"{__name__}.{name}")


POINTS: tuple[str, ...] = (
    # movement and activations
    "speed", "move_cost", "movement_roll_kinds", "path_speed", "reach", "can_move",
    "can_fire_defensively", "activation_options", "action_allowed", "perform", "can_board",
    "attackable_aboard", "attack_from_aboard", "phase_begin", "after_casualty",
    # combat (game.rules.combat, game.rules.odds)
    "attack_dice", "die_modifier", "defense", "cover_need", "can_cover", "range_band",
    "can_attack", "counters", "hits", "attack_result", "after_attack", "odds",
    # added for the printed cards (issue 18)
    "entered_hex", "provokes_defensive_fire", "moves_while_disrupted", "stacks_as_vehicle",
    "attack_rolls",
    # added for the whole roster (helper abil19, issue 19)
    "movement_roll_need", "can_enter", "transport_capacity", "keeps_disruption", "phase_end",
    "initiative_bonus", "deployment_zone", "line_of_sight", "terrain_cover",
    # the later edition's Aircraft (game.rules.abilities.later_aircraft), the last roster
    # cards (game.rules.abilities.roster_last)
    "successes", "stopped_by_defensive_fire",
    # the last ground cards (session 8: game.rules.abilities.roster_final)
    "movement_roll",
)

UNIT_KEYS: tuple[str, ...] = ("unit", "mover", "firer", "attacker", "target", "carrier")

HookFn = Callable[[Any, Any, dict[str, Any]], Any]


@dataclass(frozen=True)
class Hook:
    ability_id: str | None
    fn: HookFn
    scope: str = "self"          # "self": the ctx units' own abilities; "any": auras
    lifts_only: bool = False     # never refuses what the rules allow (action_allowed)
    requires: str | None = None  # rule hook run only while a unit of the state has this id


# point -> every hook registered for it, in registration order
HOOKS: dict[str, list[Hook]] = {}
# bumped on every (un)registration: caches of hook-dependent results key on it
GENERATION = 0
# fast look-ups: point -> ability id -> [fn]; point -> aura hooks; point -> rule hooks
_BY_ID: dict[str, dict[str, list[HookFn]]] = {}
_AURA: dict[str, list[Hook]] = {}
_RULE: dict[str, list[Hook]] = {}
# points with a rule-level or aura hook (they run whatever units the call names)
_SHARED: set[str] = set()
# rule-level hooks that may refuse an action the rules allow (not ``lifts_only``)
_REFUSING_RULE: dict[str, int] = {}


def _reindex() -> None:
    """Rebuild the fast look-ups from HOOKS (after every (un)registration)."""
    global GENERATION
    GENERATION += 1
    _BY_ID.clear()
    _AURA.clear()
    _RULE.clear()
    _SHARED.clear()
    _REFUSING_RULE.clear()
    _CARD_POINTS.clear()
    _REFUSERS.clear()
    _PRESENT.clear()
    _CASTS.clear()
    for point, hooks in HOOKS.items():
        for hook in hooks:
            if hook.ability_id is None:
                _RULE.setdefault(point, []).append(hook)
                if not hook.lifts_only:
                    _REFUSING_RULE[point] = _REFUSING_RULE.get(point, 0) + 1
            elif hook.scope == "any":
                _AURA.setdefault(point, []).append(hook)
            else:
                _BY_ID.setdefault(point, {}).setdefault(hook.ability_id, []).append(hook.fn)
        if _RULE.get(point) or _AURA.get(point):
            _SHARED.add(point)


def register(point: str, ability_id: str | None = None, *, scope: str = "self",
             lifts_only: bool = False, requires: str | None = None
             ) -> Callable[[HookFn], HookFn]:
    """Decorator: run ``fn(value, ability, ctx)`` at ``point`` for ``ability_id``.

    ``lifts_only=True`` (``action_allowed`` only) declares that the hook never refuses
    an action the rules allow - given ``None`` it returns ``None``; it may only lift
    (or reword) a refusal.  The legal-action listing then skips such hooks for the
    actions the rules themselves listed (game.rules.families.legal_actions).

    ``requires`` (rule-level hooks only): the hook runs only while some unit of the
    call's ``state`` (destroyed and undeployed ones included) has that ability on its
    card, and never for a call without a state (``roster_common.aura`` uses it)."""
    if point not in POINTS:
        raise ValueError(f"unknown hook point '{point}' (known: {', '.join(POINTS)})")
    if scope not in ("self", "any"):
        raise ValueError("scope is 'self' or 'any'")
    if requires is not None and ability_id is not None:
        raise ValueError("'requires' is for rule-level hooks (ability_id=None)")

    def deco(fn: HookFn) -> HookFn:
        HOOKS.setdefault(point, []).append(Hook(ability_id, fn, scope, lifts_only, requires))
        _reindex()
        return fn
    return deco


def unregister(fn: HookFn) -> None:
    """Remove every registration of ``fn`` (tests)."""
    for point, hooks in list(HOOKS.items()):
        HOOKS[point] = [h for h in hooks if h.fn is not fn]
    _reindex()


def has_hooks(point: str) -> bool:
    return bool(HOOKS.get(point))


# --- which shared hooks can run in a state ---------------------------------------------
class _Cast:
    """What runs at the shared points (auras, rule hooks) for one set of ability ids
    present in a state: an aura of an absent ability has no holder, and a ``requires``
    rule hook of an absent ability does not run, so neither is asked.  One per set of
    ids (interned in ``_CASTS``, emptied by every (un)registration)."""

    __slots__ = ("ids", "_plans", "_refusing", "live")

    def __init__(self, ids: frozenset[str]) -> None:
        self.ids = ids
        self._plans: dict[str, tuple[tuple[Hook, ...], tuple[HookFn, ...]]] = {}
        self._refusing: dict[str, bool] = {}
        #: the points where some aura or rule hook runs for these ids
        self.live = frozenset(p for p in _SHARED if any(self.plan(p)))

    def plan(self, point: str) -> tuple[tuple[Hook, ...], tuple[HookFn, ...]]:
        """(auras, rule hooks) that run at ``point``, in registration order."""
        got = self._plans.get(point)
        if got is None:
            ids = self.ids
            got = self._plans[point] = (
                tuple(h for h in _AURA.get(point, ()) if h.ability_id in ids),
                tuple(h.fn for h in _RULE.get(point, ())
                      if h.requires is None or h.requires in ids))
        return got

    def refusing(self, point: str) -> bool:
        """Whether an aura or a rule hook not declared ``lifts_only`` runs at ``point``."""
        got = self._refusing.get(point)
        if got is None:
            ids = self.ids
            got = self._refusing[point] = bool(self.plan(point)[0]) or any(
                not h.lifts_only and (h.requires is None or h.requires in ids)
                for h in _RULE.get(point, ()))
        return got


_CASTS: dict[frozenset[str], _Cast] = {}
_NO_IDS: frozenset[str] = frozenset()      # a call without a state: no aura, no requires hook
# id(units dict) -> (the dict, its unit objects, their cast, ability id -> the uids and
# abilities of its holders).  Cards never change, so this only goes stale when the
# dict gets, loses or swaps a unit: the tuple of unit objects is compared on every
# use (identical objects compare at C speed; a swapped-in object equal to the old
# one has an equal card, so the same abilities, and holders are looked up by uid)
_PRESENT: dict[int, tuple[Any, tuple[Any, ...], _Cast, dict[str, list[tuple[str, Any]]]]] = {}


def _cast_of(ids: frozenset[str]) -> _Cast:
    got = _CASTS.get(ids)
    if got is None:
        got = _CASTS[ids] = _Cast(ids)
    return got


def _entry(state: Any) -> tuple[Any, tuple[Any, ...], _Cast, dict[str, list[tuple[str, Any]]]]:
    units = state.units
    pin = _PIN
    if pin is not None and pin[0] is units:
        return pin
    entry = _PRESENT.get(id(units))
    if entry is not None and entry[0] is units and entry[1] == tuple(units.values()):
        return entry
    objs = tuple(units.values())
    if len(_PRESENT) > 256:
        _PRESENT.clear()
    entry = _PRESENT[id(units)] = (
        units, objs, _cast_of(frozenset(a.id for u in objs for a in u.card.abilities)), {})
    return entry


def present_ids(state: Any) -> frozenset[str]:
    """Every ability id on the cards of ``state``'s units (destroyed ones included)."""
    return _entry(state)[2].ids


# the entry of the state a listing runs on (:func:`pinned`): its units dict can't get,
# lose or swap a unit while the rules only list, so it is not compared again
_PIN: tuple[Any, tuple[Any, ...], _Cast, dict[str, list[tuple[str, Any]]]] | None = None


class pinned:
    """``with pinned(state):`` - while the rules list ``state``'s actions (they change
    no unit of its units dict), :func:`cast` and the holders' look-up take its entry
    as it was on entering instead of checking the dict's units on every call."""

    __slots__ = ("entry", "was")

    def __init__(self, state: Any) -> None:
        self.entry = _entry(state)
        self.was: Any = None

    def __enter__(self) -> None:
        global _PIN
        self.was, _PIN = _PIN, self.entry

    def __exit__(self, *exc: object) -> None:
        global _PIN
        _PIN = self.was


def cast(state: Any) -> _Cast:
    """The shared hooks that can run in ``state`` (``None``: a call without a state)."""
    if state is None:
        return _cast_of(_NO_IDS)
    units = state.units
    pin = _PIN
    if pin is not None and pin[0] is units:
        return pin[2]
    entry = _PRESENT.get(id(units))
    if entry is not None and entry[0] is units and entry[1] == tuple(units.values()):
        return entry[2]
    return _entry(state)[2]


def live_points(state: Any) -> frozenset[str]:
    """The points where an aura or a rule hook runs in ``state`` whatever units a
    call names (hooks keyed on a unit's own abilities come on top)."""
    return cast(state).live


def shared_hooks(points: tuple[str, ...], state: Any = None) -> bool:
    """Whether a rule-level or aura hook is registered at one of ``points`` (given
    ``state``: one that can run in it)."""
    if state is None:
        return any(p in _SHARED for p in points)
    live = cast(state).live
    return any(p in live for p in points)


def relevant(points: tuple[str, ...], unit: Any, state: Any = None) -> bool:
    """Whether any hook could change ``unit``'s values at one of ``points``: a rule
    hook, an aura, or a hook for one of its own abilities (lets hot paths such as
    the movement search keep their fast code for units no ability touches).  Given
    ``state``, only the rule hooks and auras that can run in it count."""
    card = getattr(unit, "card", None)
    shared = _SHARED if state is None else cast(state).live
    for point in points:
        if point in shared:
            return True
        if card is not None and point in _card_points(card):
            return True
    return False


def may_refuse(point: str, unit: Any, state: Any = None) -> bool:
    """Whether some hook at ``point`` (``action_allowed``) could refuse an action of
    ``unit`` that the rules allow: a rule-level hook not declared ``lifts_only``, an
    aura, or a hook keyed on one of ``unit``'s abilities.  Given ``state``, only the
    rule hooks and auras that can run in it count."""
    card = getattr(unit, "card", None)
    if state is not None:
        return bool(cast(state).refusing(point) or keyed_at(point, unit))
    key = (point, id(card))
    got = _REFUSERS.get(key)
    if got is None or got[0] is not card:
        refuses = bool(_REFUSING_RULE.get(point) or _AURA.get(point)
                       or (card is not None and point in _card_points(card)))
        if len(_REFUSERS) > 4096:
            _REFUSERS.clear()
        got = _REFUSERS[key] = (card, refuses)
    return bool(got[1])


def keyed_at(point: str, unit: Any) -> bool:
    """Whether a hook is keyed on one of ``unit``'s abilities at ``point`` (the part of
    :func:`may_refuse` that reads the unit; ``cast(state).refusing(point)`` is the
    state's part)."""
    card = getattr(unit, "card", None)
    if card is None:
        return False
    got = _CARD_POINTS.get(id(card))
    pts = got[1] if got is not None and got[0] is card else _card_points(card)
    return point in pts


def apply(point: str, value: Any, **ctx: Any) -> Any:
    """Run the hooks for ``point`` over the abilities relevant to ``ctx``."""
    by_id = _BY_ID.get(point)
    if by_id:
        ran: list[Any] = []          # the units whose abilities ran (each unit once)
        for role in UNIT_KEYS:
            unit = ctx.get(role)
            if unit is None:
                continue
            card = getattr(unit, "card", None)
            if card is None:
                continue
            got = _CARD_POINTS.get(id(card))
            pts = got[1] if got is not None and got[0] is card else _card_points(card)
            if point not in pts:
                continue
            # a unit named under two roles (unit and firer...) runs once, as the first
            if any(r is unit for r in ran):
                continue
            ran.append(unit)
            for ab in card.abilities:
                fns = by_id.get(ab.id)
                if fns:
                    # ``ctx`` is this call's own dict (built from **ctx): reuse it
                    ctx["owner"], ctx["role"] = unit, role
                    for fn in fns:
                        value = fn(value, ab, ctx)
    if point not in _SHARED:
        return value
    state = ctx.get("state")
    cst = cast(state)
    plan = cst._plans.get(point)
    auras, rules = plan if plan is not None else cst.plan(point)
    if auras:
        for hook in auras:
            assert hook.ability_id is not None
            sources = [(u, ab) for u, ab in _holders(state, hook.ability_id) if u.on_map]
            if sources:
                ctx["owner"], ctx["role"], ctx["sources"] = sources[0][0], "aura", sources
                value = hook.fn(value, sources[0][1], ctx)
        ctx.pop("sources", None)
    if rules:
        ctx["owner"], ctx["role"] = None, "rule"
        for fn in rules:
            value = fn(value, None, ctx)
    return value


# id(card) -> (card, the points some hook is keyed on for its abilities); cleared on
# every (un)registration
_CARD_POINTS: dict[int, tuple[Any, frozenset[str]]] = {}
_REFUSERS: dict[tuple[str, int], tuple[Any, bool]] = {}


def card_points(card: Any) -> frozenset[str]:
    """The points at which some hook is keyed on one of ``card``'s abilities."""
    return _card_points(card)


def abilities_at(point: str, card: Any) -> list[Any]:
    """The abilities of ``card`` that some hook at ``point`` is keyed on, in card order
    (what a query names when it explains a rule an ability changed)."""
    tbl = _BY_ID.get(point, {})
    return [a for a in card.abilities if tbl.get(a.id)]


def _card_points(card: Any) -> frozenset[str]:
    """The points at which some hook is keyed on one of ``card``'s abilities (cards
    never change; the cache is emptied by every registration)."""
    got = _CARD_POINTS.get(id(card))
    if got is not None and got[0] is card:
        return got[1]
    ids = {a.id for a in card.abilities}
    pts = frozenset(p for p, tbl in _BY_ID.items() if any(tbl.get(i) for i in ids))
    if len(_CARD_POINTS) > 4096:
        _CARD_POINTS.clear()
    _CARD_POINTS[id(card)] = (card, pts)
    return pts


def _holders(state: Any, ability_id: str) -> list[Any]:
    """Every ``(unit, ability)`` of the state whose card has ``ability_id``, in the
    units' order (cached with the state's units, see ``_entry``; on-map is checked by
    the caller)."""
    entry = _entry(state)
    table = entry[3]
    found = table.get(ability_id)
    if found is None:
        found = table[ability_id] = [(u.uid, u.card.ability(ability_id)) for u in entry[1]
                                     if u.card.has(ability_id)]
    units = entry[0]
    return [(units[uid], ab) for uid, ab in found]
