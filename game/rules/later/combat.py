"""Later-edition combat numbers (called from game.rules.combat.plan_attack).

- Attacks on an Aircraft use anti-Soldier values at -1 on each die (checklist L07;
  ruling L2), adding to the disrupted/damaged -1 (ruling L14); Antiair (and Ace)
  attack Aircraft without it.
- Aircraft never have cover (L09); hedges and cliffs give no cover against an
  Aircraft's attack, the target hex's own terrain still does (ruling L16).
- Hedges: a target in a hex with a hedge on a side the sight line crosses into it
  has cover (L24; rulings L8, L16).  Cliffs: a target in a bluffs hex whose sight
  line enters through a cliff side has cover (L29), unless the attacker is in a
  bluffs hex too (L30; ruling L9).  An attacker in the target's own hex crosses no
  side.
"""
from __future__ import annotations

from ..board import BattleMap
from ..hexes import DIRECTIONS, Hex, Hexside
from ..state import GameState, Unit
from ..terrain import Terrain

__all__ = ["has_antiair", "air_target_modifier", "air_cover", "side_cover", "sides_crossed", "NO_AIR_PENALTY",
           "defensive_fire_stops"]

#: abilities whose attacks on Aircraft take no -1 (ruling L14)
NO_AIR_PENALTY = ("antiair", "ace")
SOLDIER_SIDE_COVER, VEHICLE_SIDE_COVER = 4, 5


def has_antiair(state: GameState | None, unit: Unit) -> bool:
    """Antiair on its card, or Antiair Support while it shares a hex with a friendly
    Antiair unit (a rules query: flight and combat both ask it)."""
    if unit.card.has("antiair"):
        return True
    if state is None or unit.hex is None or not unit.card.has("antiair_support"):
        return False
    return any(o.uid != unit.uid and o.side == unit.side and o.hex == unit.hex
               and o.on_map and o.card.has("antiair") for o in state.units.values())


def air_target_modifier(attacker: Unit, state: GameState | None = None) -> int:
    """The per-die modifier an attack on an Aircraft adds (-1, or 0 with Antiair/Ace)."""
    if has_antiair(state, attacker) or any(attacker.card.has(a) for a in NO_AIR_PENALTY):
        return 0
    return -1


def air_cover(attacker: Unit, target: Unit, cover: int | None) -> int | None:
    """Cover when an Aircraft is involved: none for an Aircraft; the hex's own for a
    ground target of an Aircraft (no hedge or cliff cover, ruling L16)."""
    if target.card.is_aircraft:
        return None
    return cover


def sides_crossed(target_hex: Hex, attacker_hex: Hex) -> tuple[int, ...]:
    """The sides of ``target_hex`` (directions 0-5) through which the straight line from
    ``attacker_hex``'s centre enters it: one side, or the two sides meeting at a corner
    the line passes exactly through ("an end point of one", ruling L16).

    Exact integer test: the line leaves the target's centre toward the attacker, and
    crosses side ``d`` when the direction to side ``d`` has the largest projection on
    that offset (see combat.is_front for the projection formula)."""
    dq, dr = attacker_hex.q - target_hex.q, attacker_hex.r - target_hex.r
    if dq == 0 and dr == 0:
        return ()
    proj = [(2 * dq + dr) * (2 * f.q + f.r) + 3 * dr * f.r for f in DIRECTIONS]
    best = max(proj)
    return tuple(d for d in range(6) if proj[d] == best)


def side_cover(state: GameState, attacker_hex: Hex, target_hex: Hex, target: Unit,
               cover: int | None) -> int | None:
    """``cover`` raised by the target hex's hedges and cliffs the sight line crosses."""
    if cover is not None or attacker_hex == target_hex:
        return cover
    bm: BattleMap = state.battle_map
    need = VEHICLE_SIDE_COVER if target.is_vehicle else SOLDIER_SIDE_COVER
    crossed = [Hexside.between(target_hex, target_hex.neighbor(d))
               for d in sides_crossed(target_hex, attacker_hex)]
    if any(s in bm.hedges for s in crossed):
        return need
    if bm.terrain.get(target_hex) is Terrain.BLUFFS and bm.terrain.get(attacker_hex) \
            is not Terrain.BLUFFS and any(s in bm.cliffs for s in crossed):
        return need
    return cover


def defensive_fire_stops(state: GameState, target: Unit) -> bool:
    """Whether a defensive-fire hit stops ``target``'s move.  First edition: always.
    Later edition (checklist L18): a unit whose abilities let it move while disrupted
    (SS Determination...) is disrupted but not stopped; it moves on.  In both, an
    ability may say the hit doesn't stop the move it is making (Determined Charge: the
    ``stopped_by_defensive_fire`` hook point)."""
    stops = True
    if state.options.get("edition") == "later":
        from ..movement import moves_while_disrupted
        stops = not moves_while_disrupted(state, target)
    from .. import abilities
    if stops and abilities.has_hooks("stopped_by_defensive_fire"):
        stops = bool(abilities.apply("stopped_by_defensive_fire", True, state=state,
                                     unit=target))
    return stops
