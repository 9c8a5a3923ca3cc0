"""Shared helper of the roster_* ability modules: auras on hot hook points.

An aura registered with ``scope="any"`` costs a holder look-up on every call of its
point even when no unit in the battle has the ability; at the points the engine
calls thousands of times per decision (an attack's numbers, the legal-action filter)
that adds up.  :func:`aura` registers the same function as a rule hook guarded by a
set of the ability ids present in the state (the registry's ``requires``; kept with
the state's units): an absent ability's hook is not even called.
The guarded function sees ``ctx["sources"]`` (every on-map ``(unit, ability)``
having it) exactly as an aura does.  Ids whose hooks are all such rule hooks are
listed in ``common.IN_RULE_HOOKS``.
"""
from __future__ import annotations

from typing import Any, Callable

from . import _holders, present_ids, register

__all__ = ["present_ids", "aura"]


HookFn = Callable[[Any, Any, dict[str, Any]], Any]


def aura(point: str, ability_id: str,
         when: Callable[[Any, dict[str, Any]], bool] | None = None, *,
         lifts_only: bool = False) -> Callable[[HookFn], HookFn]:
    """Register ``fn`` at ``point`` as a rule hook that runs like an aura of
    ``ability_id`` (``ctx["sources"]`` set) only while some unit has that ability
    (the registry's ``requires``) and ``when(value, ctx)`` holds, a cheap pre-check.
    ``lifts_only`` as for :func:`~game.rules.abilities.register` (an ``action_allowed``
    hook that, given ``None``, returns ``None``)."""
    def deco(fn: HookFn) -> HookFn:
        def guarded(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
            if when is not None and not when(value, ctx):
                return value
            st = ctx.get("state")
            if st is None:
                return value
            sources = [(u, a) for u, a in _holders(st, ability_id) if u.on_map]
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
        register(point, requires=ability_id, lifts_only=lifts_only)(guarded)
        return fn
    return deco
