"""Shared helper of the roster_* ability modules: auras on hot hook points.

An aura registered with ``scope="any"`` costs a holder look-up on every call of its
point even when no unit in the battle has the ability; at the points the engine
calls thousands of times per decision (an attack's numbers, the legal-action filter)
that adds up.  :func:`aura` registers the same function as a rule hook guarded by a
per-state set of the ability ids present (cards never change, so it is rebuilt only
when the units dict is a new one or grows): an absent ability costs one set look-up.
The guarded function sees ``ctx["sources"]`` (every on-map ``(unit, ability)``
having it) exactly as an aura does.  Ids whose hooks are all such rule hooks are
listed in ``common.IN_RULE_HOOKS``.
"""
from __future__ import annotations

from typing import Any, Callable

from ..state import GameState
from . import register

__all__ = ["present_ids", "aura"]

_PRESENT: dict[int, tuple[Any, int, frozenset[str]]] = {}


def present_ids(state: GameState) -> frozenset[str]:
    """Every ability id on the cards of ``state``'s units (destroyed ones included)."""
    units = state.units
    got = _PRESENT.get(id(units))
    if got is not None and got[0] is units and got[1] == len(units):
        return got[2]
    ids = frozenset(a.id for u in units.values() for a in u.card.abilities)
    if len(_PRESENT) > 256:
        _PRESENT.clear()
    _PRESENT[id(units)] = (units, len(units), ids)
    return ids


HookFn = Callable[[Any, Any, dict[str, Any]], Any]


def aura(point: str, ability_id: str,
         when: Callable[[Any, dict[str, Any]], bool] | None = None
         ) -> Callable[[HookFn], HookFn]:
    """Register ``fn`` at ``point`` as a rule hook that runs like an aura of
    ``ability_id`` (``ctx["sources"]`` set) only while some unit has that ability
    (and ``when(value, ctx)`` holds, a cheap pre-check)."""
    def deco(fn: HookFn) -> HookFn:
        def guarded(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
            if when is not None and not when(value, ctx):
                return value
            st = ctx.get("state")
            if st is None or ability_id not in present_ids(st):
                return value
            sources = [(u, u.card.ability(ability_id)) for u in st.units.values()
                       if u.on_map and u.card.has(ability_id)]
            if not sources:
                return value
            had = ctx.get("sources")
            ctx["sources"] = sources
            try:
                return fn(value, sources[0][1], ctx)
            finally:
                if had is None:
                    ctx.pop("sources", None)
                else:
                    ctx["sources"] = had
        guarded.__name__ = fn.__name__
        guarded.__qualname__ = fn.__qualname__
        guarded.__module__ = fn.__module__
        register(point)(guarded)
        return fn
    return deco
