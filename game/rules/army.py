"""Army building (rulebook: Building an Army, Scenarios) - pure, no file access.

:func:`validate_army` returns *every* problem of an army as a sentence a
player can read; an empty list means the army is legal.  The rules:

- **Points**: at most ``budget`` points (100 in the Standard scenario; the
  Assault scenario's attacker has 120, its defender 80 - :func:`budget_for`).
- **Unit count**: at most 15 units.
- **Sides**: only Axis units (Germany, Italy, Japan) in an Axis army, only
  Allied units (United States, United Kingdom, Soviet Union, France) in an
  Allied army.
- **Historical army limits** (option, off by default - ruling 12): German and
  Italian units can go together; Soviet units can't be with any other
  nationality; Japanese units can't be with any other nationality; units from
  the United States, the United Kingdom and France can go together.
- **Year restriction** (option, off by default - ruling 12): only units
  introduced by that year.

Duplicates are allowed: an army may hold any number of copies of a card.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from game.rules.cards import SIDES, UnitCard

__all__ = ["Army", "validate_army", "budget_for", "army_budget", "limits_for", "army_points",
           "STANDARD_BUDGET", "ASSAULT_ATTACKER_BUDGET", "ASSAULT_DEFENDER_BUDGET",
           "MAX_UNITS", "HISTORICAL_LONERS", "ADJECTIVE"]

STANDARD_BUDGET = 100
ASSAULT_ATTACKER_BUDGET = 120
ASSAULT_DEFENDER_BUDGET = 80
MAX_UNITS = 15

#: Historical army limits: these nationalities can't share an army with any other.
HISTORICAL_LONERS = ("Soviet Union", "Japan")

#: How a nationality reads in a sentence ("KV-1 is Soviet").
ADJECTIVE = {
    "Germany": "German", "Italy": "Italian", "Japan": "Japanese",
    "United States": "American", "United Kingdom": "British",
    "Soviet Union": "Soviet", "France": "French",
}


@dataclass
class Army:
    """A named list of cards for one side (a card appears once per copy)."""

    name: str
    side: str
    cards: list[UnitCard] = field(default_factory=list)
    description: str = ""

    @property
    def points(self) -> int:
        return army_points(self.cards)

    @property
    def size(self) -> int:
        return len(self.cards)

    def counts(self) -> dict[str, int]:
        """How many copies of each card, in first-appearance order."""
        out: dict[str, int] = {}
        for c in self.cards:
            out[c.name] = out.get(c.name, 0) + 1
        return out

    def nationalities(self) -> list[str]:
        seen: list[str] = []
        for c in self.cards:
            if c.nationality not in seen:
                seen.append(c.nationality)
        return seen


_SIDE_WORD = {"Axis": "Axis", "Allies": "Allied"}


def army_points(cards: Iterable[UnitCard]) -> int:
    return sum(c.cost for c in cards)


def budget_for(scenario: str = "standard", role: str | None = None) -> int:
    """Points limit: 100 (Standard); Assault: 120 for the attacker, 80 for the defender."""
    s = scenario.lower()
    if s == "standard":
        return STANDARD_BUDGET
    if s == "assault":
        if role == "attacker":
            return ASSAULT_ATTACKER_BUDGET
        if role == "defender":
            return ASSAULT_DEFENDER_BUDGET
        raise ValueError("the Assault scenario needs role 'attacker' or 'defender'")
    raise ValueError(f"unknown scenario '{scenario}' (standard or assault)")


def army_budget(scenario: str, side: str, attacker: str | None) -> int:
    """Points ``side`` may spend: 100 (Standard); Assault 120 attacker / 80 defender."""
    if scenario == "assault":
        return ASSAULT_ATTACKER_BUDGET if side == attacker else ASSAULT_DEFENDER_BUDGET
    return STANDARD_BUDGET


def limits_for(scenario: str = "standard", role: str | None = None,
               options: Mapping[Any, Any] | None = None) -> dict[Any, Any]:
    """Keyword arguments for :func:`validate_army` from a scenario and the game
    options (``historical``: bool, ``year``: int | None, ``budget``: an explicit
    override, ``max_units``)."""
    opts = dict(options or {})
    return {
        "budget": int(opts.get("budget") or budget_for(scenario, role)),
        "max_units": int(opts.get("max_units") or MAX_UNITS),
        "historical": bool(opts.get("historical", False)),
        "year": opts.get("year"),
        **({"edition": str(opts["edition"])} if opts.get("edition") else {}),
    }


def _names(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def validate_army(army: Army, budget: int = STANDARD_BUDGET, max_units: int = MAX_UNITS,
                  historical: bool = False, year: int | None = None,
                  edition: str = "first") -> list[str]:
    """Every problem with ``army`` as a readable sentence ([] = legal).  ``edition``:
    Aircraft and Antiair cards are allowed only in later-edition battles."""
    problems: list[str] = []
    label = f"Army '{army.name}'"
    if army.side not in SIDES:
        problems.append(f"{label}: side '{army.side}' is neither Axis nor Allies")
    if not army.cards:
        problems.append(f"{label} has no units: add at least one")
    points = army.points
    if points > budget:
        problems.append(f"{label}: {points} points, the limit is {budget}")
    if len(army.cards) > max_units:
        problems.append(f"{label}: {len(army.cards)} units, the limit is {max_units}")

    distinct: list[UnitCard] = []
    for c in army.cards:
        if all(c.name != d.name for d in distinct):
            distinct.append(c)

    # rulebook: Choosing Sides - only Axis units in an Axis army, Allied in an Allied army
    if army.side in SIDES:
        for c in distinct:
            if c.side != army.side:
                mine, theirs = _SIDE_WORD[army.side], _SIDE_WORD[c.side]
                problems.append(f"{c.name} is {ADJECTIVE.get(c.nationality, c.nationality)}, "
                                f"an {theirs} unit: only {mine} units can be in an {mine} army")

    # later edition only: Aircraft and the ground units made for them (game.rules.later)
    if edition != "later":
        from .later import later_only_reason
        for c in distinct:
            why = later_only_reason(c)
            if why:
                problems.append(f"{c.name} {why}: it can be chosen only for a later-edition "
                                f"battle")

    # rulebook: Historical Army Limits (four rules; ruling 12: an option)
    if historical:
        nations = army.nationalities()
        for c in distinct:
            if c.nationality in HISTORICAL_LONERS:
                others = [n for n in nations if n != c.nationality]
                if others:
                    adj = ADJECTIVE[c.nationality]
                    problems.append(
                        f"{c.name} is {adj}: historical limits forbid {adj} units with other "
                        f"nationalities (this army also has "
                        f"{_names([ADJECTIVE.get(n, n) for n in others])} units)")

    # rulebook: Year Restrictions (ruling 12: an option)
    if year is not None:
        for c in distinct:
            if c.year > year:
                problems.append(f"{c.name} is from {c.year}: the year limit {year} allows only "
                                f"units introduced by {year}")
    return problems
