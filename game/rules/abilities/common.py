"""Shared pieces of the ability modules: their events, marks (ability memory in
``state.marks``), facing arithmetic and constants."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import combat
from ..events import Event
from ..hexes import Hex
from ..state import GameState, Unit


MODE_ABILITIES = ("close_assault", "hand_to_hand", "armor_piercing_rounds",
                  "additional_hull_mounted_cannon")


IN_RULE_HOOKS = frozenset({"double_shot", "all_guns_blazing", "fanatic", "exert_will",
                           "forest_camouflage",
                           # the whole roster's auras on hot points (roster_common.aura)
                           "fearless", "dispersal", "elan", "terrain_expert",
                           "defensive_preparation", "intimidation", "stalwart", "tenacity",
                           "improved_accuracy", "command_leadership", "command_awareness",
                           "spotter", "command_quick_reactions",
                           # later edition: asked by game.rules.later.combat.has_antiair
                           "antiair_support",
                           # reserves: read by game.rules.families.reserves and the
                           # deployment rules; Hero's Fanatic by casualty.resist_disruption
                           "paratrooper", "hero", "paratrooper_commander"})


_NOT_EXTRA = "not an extra action"


HULL_CANNON_DICE = {"short": 12, "medium": 10, "long": 8}


HIGHLY_FLAMMABLE_NEED = 3


FLAMETHROWER_SIXES = 3


@dataclass(frozen=True)
class AbilityRoll(Event):
    """A die rolled for an ability (Highly Flammable, Guard Crew's reroll)."""

    uid: str
    ability: str
    die: int
    need: int
    ok: bool

    def describe(self) -> str:
        return (f"{self.uid} rolls {self.die} for {self.ability} (needs {self.need}+): "
                f"{'success' if self.ok else 'failure'}.")


@dataclass(frozen=True)
class AbilityUsed(Event):
    """An ability changed what happened (Heavy Armor, Fanatic, Exert Will...)."""

    uid: str
    ability: str

    def describe(self) -> str:
        return f"{self.uid} uses {self.ability}."


def _phase_key(state: GameState) -> tuple[Any, ...]:
    return (state.turn, state.phase.value)


def _phase_set(state: GameState, key: str) -> tuple[Any, ...]:
    """A per-phase mark: the tuple stored under ``key`` for the current phase."""
    got = state.marks.get(key)
    if got and got[0] == _phase_key(state):
        return tuple(got[1])
    return ()


def _phase_add(state: GameState, key: str, item: Any) -> None:
    cur = _phase_set(state, key)
    if item not in cur:
        state.marks[key] = (_phase_key(state), tuple(sorted(cur + (item,), key=repr)))


def _game_set(state: GameState, key: str) -> tuple[Any, ...]:
    return tuple(state.marks.get(key, ()))


def _game_add(state: GameState, key: str, item: Any) -> None:
    cur = _game_set(state, key)
    if item not in cur:
        state.marks[key] = tuple(sorted(cur + (item,), key=repr))


def _in_front_arc(viewer_hex: Hex, facing: int, other_hex: Hex) -> bool:
    """Ruling 1: ``other_hex``'s centre lies in the front arc of a Vehicle in
    ``viewer_hex`` facing ``facing`` (its own hex never does)."""
    return combat.is_front(viewer_hex, facing, other_hex)


def _dot(target_hex: Hex, facing: int, attacker_hex: Hex) -> int:
    from ..hexes import DIRECTIONS
    dq, dr = attacker_hex.q - target_hex.q, attacker_hex.r - target_hex.r
    f = DIRECTIONS[facing % 6]
    return (2 * dq + dr) * (2 * f.q + f.r) + 3 * dr * f.r


def _attack_front(ctx: dict[Any, Any]) -> bool | None:
    """Front/rear of the attack in ``ctx`` as the rules will decide it (before the
    ``front`` point has run): ruling 1."""
    t: Unit = ctx["target"]
    if not t.is_vehicle:
        return None
    return combat.is_front(ctx["target_hex"], ctx.get("facing", t.facing), ctx["attacker_hex"])


def _is_artillery(u: Unit) -> bool:
    return "artillery" in (u.card.subtype or "").lower()


def _attacks(tags: tuple[str, ...]) -> list[str]:
    return [t.split(":", 1)[1] for t in tags if t.startswith("attack:")]


def _target_impaired(ctx: dict[str, Any]) -> bool:
    t: Unit = ctx["target"]
    return t.disrupted or t.damaged
