"""Deployment and initiative abilities of the whole roster (issue 19): where a unit
may deploy (Gliderborne, Partisan) and what its side adds to the initiative roll
(Recon)."""
from __future__ import annotations

from typing import Any

from ..hexes import Hex
from ..state import GameState, Unit, other_side
from . import register
from .spec import AbilitySpec, define


SPECS = define(
    AbilitySpec(
        "gliderborne", "Gliderborne", False,
        "When its side deploys, this unit may be placed in any empty hex (no unit of either"
        " side in it) that is not in the opponent's deployment area, as well as anywhere its"
        " side may normally deploy. Terrain it can't enter stays closed to it."),
    AbilitySpec(
        "partisan", "Partisan", False,
        "When its side deploys, this unit may be placed in any empty hex (no unit of either"
        " side in it) on the edge of the battle map (a whole hex next to the map's edge or to a"
        " half-hex), as well as anywhere its side may normally deploy. Terrain it can't enter"
        " stays closed to it."),
    AbilitySpec(
        "recon", "Recon", False,
        "While this unit is on the battle map and has line of sight to an enemy unit, its"
        " side adds 1 to its initiative rolls (on top of the commander bonus; several Recon"
        " units still add only 1). The extra 1 does not count as a commander bonus when a"
        " tied roll is decided."),
)


def _empty_hexes(st: GameState) -> set[Hex]:
    bm = st.battle_map
    taken = {u.hex for u in st.units.values() if u.hex is not None and not u.destroyed}
    return {h for h in bm.terrain if bm.is_playable(h) and h not in taken}


@register("deployment_zone", "gliderborne")
def _gliderborne(zone: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") != "unit":
        return zone
    from ..families.setup import deployment_zone
    st: GameState = ctx["state"]
    theirs = deployment_zone(st, other_side(ctx["side"]))
    if not st.ends.get(ctx["side"]):
        return zone
    return frozenset(zone) | frozenset(h for h in _empty_hexes(st) if h not in theirs)


@register("deployment_zone", "partisan")
def _partisan(zone: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    if ctx.get("role") != "unit":
        return zone
    st: GameState = ctx["state"]
    if not st.ends.get(ctx["side"]):
        return zone
    bm = st.battle_map
    return frozenset(zone) | frozenset(h for h in _empty_hexes(st) if bm.is_edge_adjacent(h))


@register("initiative_bonus", "recon", scope="any")
def _recon(value: Any, ab: Any, ctx: dict[str, Any]) -> Any:
    st: GameState = ctx["state"]
    side = ctx["side"]
    bm = st.battle_map
    enemies = [e.hex for e in st.units.values()
               if e.side != side and e.on_map and e.hex is not None and not e.boarded]
    for u, _ in ctx["sources"]:
        u2: Unit = u
        if u2.side != side or u2.boarded or u2.hex is None:
            continue
        if any(bm.can_see(u2.hex, h) for h in enemies):
            return value + 1
    return value
