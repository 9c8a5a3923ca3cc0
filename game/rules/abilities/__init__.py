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
``roster_actions``  the whole roster's new actions (Aggression, Rocket Salvo...)
``roster_spotting`` Indirect Fire and Spotters; Camouflaged, Concealed, Experienced Recon
``roster_extra``    simple modifiers of the later sets' cards (Tank Hunter, Subtle...)
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
=========================  ===========================================================  ==========

Everything here is pure and deterministic; hooks must draw any roll from
``ctx["dice"]`` when one is given.

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
           "has_hooks", "relevant", "shared_hooks", "Hook", "load"]

#: the ability modules, in the order they register (game.rules.abilities.<name>)
MODULES: tuple[str, ...] = ("common", "extra_actions", "attack_modes", "armour", "results",
                            "casualty", "commanders", "movement", "transport", "later_edition",
                            "roster_combat", "roster_movement", "roster_transport",
                            "roster_morale", "roster_setup", "roster_actions",
                            "roster_spotting")
_LOADED = False

#: helper roster19's module (positions 43 and on of issue 19's order), kept apart from
#: the tuple above so the two issue-19 branches merge cleanly
MODULES = MODULES + ("roster_extra",)


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
    "initiative_bonus", "deployment_zone", "line_of_sight",
)

UNIT_KEYS: tuple[str, ...] = ("unit", "mover", "firer", "attacker", "target", "carrier")

HookFn = Callable[[Any, Any, dict[str, Any]], Any]


@dataclass(frozen=True)
class Hook:
    ability_id: str | None
    fn: HookFn
    scope: str = "self"          # "self": the ctx units' own abilities; "any": auras


# point -> every hook registered for it, in registration order
HOOKS: dict[str, list[Hook]] = {}
# bumped on every (un)registration: caches of hook-dependent results key on it
GENERATION = 0
# fast look-ups: point -> ability id -> [fn]; point -> aura hooks; point -> rule hooks
_BY_ID: dict[str, dict[str, list[HookFn]]] = {}
_AURA: dict[str, list[Hook]] = {}
_RULE: dict[str, list[HookFn]] = {}


def register(point: str, ability_id: str | None = None, *, scope: str = "self"
             ) -> Callable[[HookFn], HookFn]:
    """Decorator: run ``fn(value, ability, ctx)`` at ``point`` for ``ability_id``."""
    if point not in POINTS:
        raise ValueError(f"unknown hook point '{point}' (known: {', '.join(POINTS)})")
    if scope not in ("self", "any"):
        raise ValueError("scope is 'self' or 'any'")

    def deco(fn: HookFn) -> HookFn:
        global GENERATION
        GENERATION += 1
        hook = Hook(ability_id, fn, scope)
        HOOKS.setdefault(point, []).append(hook)
        if ability_id is None:
            _RULE.setdefault(point, []).append(fn)
        elif scope == "any":
            _AURA.setdefault(point, []).append(hook)
        else:
            _BY_ID.setdefault(point, {}).setdefault(ability_id, []).append(fn)
        return fn
    return deco


def unregister(fn: HookFn) -> None:
    """Remove every registration of ``fn`` (tests)."""
    global GENERATION
    GENERATION += 1
    for point, hooks in list(HOOKS.items()):
        HOOKS[point] = [h for h in hooks if h.fn is not fn]
    for table in _BY_ID.values():
        for aid, fns in table.items():
            table[aid] = [f for f in fns if f is not fn]
    for point, hooks in _AURA.items():
        _AURA[point] = [h for h in hooks if h.fn is not fn]
    for point, fns in _RULE.items():
        _RULE[point] = [f for f in fns if f is not fn]


def has_hooks(point: str) -> bool:
    return bool(HOOKS.get(point))


def shared_hooks(points: tuple[str, ...]) -> bool:
    """Whether a rule-level or aura hook is registered at one of ``points``."""
    return any(_RULE.get(p) or _AURA.get(p) for p in points)


def relevant(points: tuple[str, ...], unit: Any) -> bool:
    """Whether any hook could change ``unit``'s values at one of ``points``: a rule
    hook, an aura, or a hook for one of its own abilities (lets hot paths such as
    the movement search keep their fast code for units no ability touches)."""
    card = getattr(unit, "card", None)
    for point in points:
        if _RULE.get(point) or _AURA.get(point):
            return True
        by_id = _BY_ID.get(point)
        if by_id and card is not None and any(by_id.get(a.id) for a in card.abilities):
            return True
    return False


def apply(point: str, value: Any, **ctx: Any) -> Any:
    """Run the hooks for ``point`` over the abilities relevant to ``ctx``."""
    hooks = HOOKS.get(point)
    if not hooks:
        return value
    by_id = _BY_ID.get(point)
    if by_id:
        seen: set[int] = set()
        for role in UNIT_KEYS:
            unit = ctx.get(role)
            if unit is None or id(unit) in seen:
                continue
            seen.add(id(unit))
            card = getattr(unit, "card", None)
            if card is None or point not in _card_points(card):
                continue
            for ab in card.abilities:
                fns = by_id.get(ab.id)
                if fns:
                    # ``ctx`` is this call's own dict (built from **ctx): reuse it
                    ctx["owner"], ctx["role"] = unit, role
                    for fn in fns:
                        value = fn(value, ab, ctx)
    auras = _AURA.get(point)
    if auras:
        state = ctx.get("state")
        if state is not None:
            for hook in auras:
                assert hook.ability_id is not None
                sources = [(u, ab) for u, ab in _holders(state, hook.ability_id) if u.on_map]
                if sources:
                    ctx["owner"], ctx["role"], ctx["sources"] = sources[0][0], "aura", sources
                    value = hook.fn(value, sources[0][1], ctx)
            ctx.pop("sources", None)
    rules = _RULE.get(point)
    if rules:
        ctx["owner"], ctx["role"] = None, "rule"
        for fn in rules:
            value = fn(value, None, ctx)
    return value


_HOLDERS: dict[int, tuple[Any, ...]] = {}
_CARD_POINTS: dict[int, tuple[Any, Any, frozenset[str]]] = {}


def _card_points(card: Any) -> frozenset[str]:
    """The points at which some hook is keyed on one of ``card``'s abilities (cards
    never change; the cache follows the registrations through GENERATION)."""
    got = _CARD_POINTS.get(id(card))
    if got is not None and got[0] is card and got[1] == GENERATION:
        pts: frozenset[str] = got[2]
        return pts
    ids = {a.id for a in card.abilities}
    pts = frozenset(p for p, tbl in _BY_ID.items() if any(tbl.get(i) for i in ids))
    if len(_CARD_POINTS) > 4096:
        _CARD_POINTS.clear()
    _CARD_POINTS[id(card)] = (card, GENERATION, pts)
    return pts


def _holders(state: Any, ability_id: str) -> list[Any]:
    """Every ``(unit, ability)`` of the state whose card has ``ability_id`` (cards
    never change, so this is cached per units dict; on-map is checked by the caller)."""
    units = state.units
    entry = _HOLDERS.get(id(units))
    if entry is None or entry[0] is not units or entry[1] != len(units):
        if len(_HOLDERS) > 64:
            _HOLDERS.clear()
        entry = (units, len(units), {})
        _HOLDERS[id(units)] = entry
    table = entry[2]
    found = table.get(ability_id)
    if found is not None and any(units.get(u.uid) is not u for u, _ in found):
        table.clear()                 # a unit object was replaced: rebuild
        found = None
    if found is None:
        found = [(u, u.card.ability(ability_id)) for u in units.values()
                 if u.card.has(ability_id)]
        table[ability_id] = found
    return list(found)
