"""Unit stat cards (immutable data) - rulebook: How to Read a Stat Card.

Cards are read from ``units/cards/*.yaml`` by ``game.data.units``.  A card is
never changed during a game; what changes (position, facing, counters) lives
on the unit in the game state.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

__all__ = ["UnitCard", "Ability", "NATIONS", "AXIS_NATIONS", "ALLIED_NATIONS",
           "MAJOR_AXIS_NATIONS", "MAJOR_ALLIED_NATIONS", "MINOR_AXIS_NATIONS",
           "MINOR_ALLIED_NATIONS",
           "SIDES", "side_of", "SOLDIER", "VEHICLE", "AIRCRAFT", "BANDS", "slug"]

SOLDIER, VEHICLE = "Soldier", "Vehicle"
AIRCRAFT = "Aircraft"          # later edition only (game.rules.later)
BANDS = ("short", "medium", "long")
#: the rulebook's nationalities (Choosing Sides) ...
MAJOR_AXIS_NATIONS = ("Germany", "Italy", "Japan")
MAJOR_ALLIED_NATIONS = ("United States", "United Kingdom", "Soviet Union", "France")
#: ... and the minor nations of the later sets (their side: units/README.md, Nations)
MINOR_AXIS_NATIONS = ("Finland", "Hungary", "Romania", "Slovakia", "Croatia")
MINOR_ALLIED_NATIONS = ("Australia", "Belgium", "Canada", "China", "Greece", "New Zealand",
                        "Poland", "South Africa", "Yugoslavia")
AXIS_NATIONS = MAJOR_AXIS_NATIONS + MINOR_AXIS_NATIONS
ALLIED_NATIONS = MAJOR_ALLIED_NATIONS + MINOR_ALLIED_NATIONS
NATIONS = AXIS_NATIONS + ALLIED_NATIONS
SIDES = ("Axis", "Allies")


def side_of(nation: str) -> str:
    if nation in AXIS_NATIONS:
        return "Axis"
    if nation in ALLIED_NATIONS:
        return "Allies"
    raise ValueError(f"unknown nationality '{nation}'")


def slug(name: str) -> str:
    out = []
    for ch in name.lower():
        if ch.isalnum():
            out.append(ch)
        elif out and out[-1] != "-":
            out.append("-")
    return "".join(out).strip("-")


@dataclass(frozen=True)
class Ability:
    """A special ability on a card: an id the engine knows, its parameter(s),
    the name printed on the card ("Close Assault 7") and its rule text."""

    id: str
    value: Any = None              # the N of "Close Assault N", or None
    name: str = ""
    text: str = ""


@dataclass(frozen=True)
class UnitCard:
    name: str
    nationality: str
    cost: int
    year: int
    type: str                                   # "Soldier", "Vehicle" (or "Aircraft")
    subtype: str | None
    speed: int
    defense_front: int
    defense_rear: int                           # equal to front for one-number defense
    attack: dict[str, dict[str, int | None]]    # {"Soldier"|"Vehicle": {band: dice or None}}
    abilities: tuple[Ability, ...] = ()
    commander_bonus: int | None = None          # initiative bonus of a commander
    set_name: str = "Base Set"
    collector_number: str | None = None
    rarity: str | None = None
    flavor: str = ""
    notes: str = ""
    id: str = field(default="")

    def __post_init__(self) -> None:
        if not self.id:
            object.__setattr__(self, "id", slug(self.name))

    # --- derived facts ---------------------------------------------------------------
    # (the type tests are read on every unit of every listing: each is worked out once per
    # card and then read as a plain attribute - a card never changes)
    @property
    def side(self) -> str:
        return side_of(self.nationality)

    @cached_property
    def is_vehicle(self) -> bool:
        return self.type == VEHICLE

    @cached_property
    def is_soldier(self) -> bool:
        return self.type == SOLDIER

    @cached_property
    def is_aircraft(self) -> bool:
        """Later edition: the third unit type (its card prints "A" for speed)."""
        return self.type == AIRCRAFT

    @property
    def is_commander(self) -> bool:
        return self.commander_bonus is not None or (self.subtype or "").lower() == "commander"

    @property
    def two_defense(self) -> bool:
        return self.defense_front != self.defense_rear or self.is_vehicle

    def defense(self, front: bool = True) -> int:
        return self.defense_front if front else self.defense_rear

    def dice(self, target_type: str, band: str) -> int | None:
        """Printed attack dice against a target type at a range band (None = dash)."""
        return self.attack.get(target_type, {}).get(band)

    def ability(self, ability_id: str) -> Ability | None:
        for a in self.abilities:
            if a.id == ability_id:
                return a
        return None

    def has(self, ability_id: str) -> bool:
        return self.ability(ability_id) is not None

    @property
    def type_line(self) -> str:
        return f"{self.type} - {self.subtype}" if self.subtype else self.type

    def defense_text(self) -> str:
        if self.is_vehicle:
            return f"{self.defense_front}/{self.defense_rear}"
        return str(self.defense_front)

    def attack_text(self, target_type: str) -> str:
        return "-".join("–" if self.dice(target_type, b) is None else str(self.dice(target_type, b))
                        for b in BANDS)
