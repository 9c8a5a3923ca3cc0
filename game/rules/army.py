"""Army building (rulebook: Building an Army, Scenarios) - pure, no file access.

:func:`validate_army` returns *every* problem of an army as a sentence a
player can read; an empty list means the army is legal.  The rules:

- **Points**: at most ``budget`` points (100 in the Standard scenario; the
  Assault scenario's attacker has 120, its defender 80 - :func:`budget_for`).
- **Unit count**: at most 15 units.
- **Sides**: only Axis units (Germany, Italy, Japan and the minor Axis nations) in
  an Axis army, only Allied units (United States, United Kingdom, Soviet Union,
  France and the minor Allied nations) in an Allied army.
- **Historical army limits** (option, off by default - ruling 12): German and
  Italian units can go together; Soviet units can't be with any other
  nationality; Japanese units can't be with any other nationality; units from
  the United States, the United Kingdom and France can go together.  The minor
  nations of the later sets join a group (:data:`HISTORICAL_GROUPS`): the minor
  Axis nations go with Germany and Italy, the Commonwealth and the other minor
  Allies with the United States, the United Kingdom and France.
- **Playable cards** (:func:`card_refusal`): a card is chosen only for a battle
  whose edition it is playable in - every ability on it implemented and working
  in that edition and on its unit type; Aircraft and Antiair units only in
  later-edition battles.
- **Year restriction** (option, off by default - ruling 12): only units
  introduced by that year.

Duplicates are allowed: an army may hold any number of copies of a card.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from game.rules.abilities.spec import EDITIONS, PRINTED_ON, lookup
from game.rules.cards import SIDES, UnitCard

__all__ = ["Army", "validate_army", "budget_for", "army_budget", "limits_for", "army_points",
           "STANDARD_BUDGET", "ASSAULT_ATTACKER_BUDGET", "ASSAULT_DEFENDER_BUDGET",
           "MAX_UNITS", "HISTORICAL_LONERS", "HISTORICAL_GROUPS", "ADJECTIVE",
           "card_refusal", "playable_editions", "is_playable", "playable_cards"]

STANDARD_BUDGET = 100
ASSAULT_ATTACKER_BUDGET = 120
ASSAULT_DEFENDER_BUDGET = 80
MAX_UNITS = 15

#: Historical army limits: the nationalities that may share an army (rulebook: Historical
#: Army Limits, with the later sets' minor nations added - units/README.md, Nations).
HISTORICAL_GROUPS: tuple[tuple[str, ...], ...] = (
    ("Germany", "Italy", "Finland", "Hungary", "Romania", "Slovakia", "Croatia"),
    ("Japan",),
    ("United States", "United Kingdom", "France", "Australia", "Canada", "New Zealand",
     "South Africa", "Belgium", "Poland", "Greece", "Yugoslavia", "China"),
    ("Soviet Union",),
)
#: Historical army limits: these nationalities can't share an army with any other.
HISTORICAL_LONERS = tuple(g[0] for g in HISTORICAL_GROUPS if len(g) == 1)

#: How a nationality reads in a sentence ("KV-1 is Soviet").
ADJECTIVE = {
    "Germany": "German", "Italy": "Italian", "Japan": "Japanese",
    "United States": "American", "United Kingdom": "British",
    "Soviet Union": "Soviet", "France": "French",
    "Finland": "Finnish", "Hungary": "Hungarian", "Romania": "Romanian", "Slovakia": "Slovak",
    "Croatia": "Croatian", "Australia": "Australian", "Belgium": "Belgian",
    "Canada": "Canadian", "China": "Chinese", "Greece": "Greek", "New Zealand": "New Zealand",
    "Poland": "Polish", "South Africa": "South African", "Yugoslavia": "Yugoslav",
}


def _group_of(nation: str) -> tuple[str, ...]:
    for g in HISTORICAL_GROUPS:
        if nation in g:
            return g
    return (nation,)


_EDITION_WORD = {"first": "first-edition", "later": "later-edition"}


def card_refusal(card: UnitCard, edition: str = "first") -> str | None:
    """Why ``card`` can't be chosen for a battle of ``edition`` (a sentence naming the
    card), or None when it is playable there: every ability on it is implemented, works
    in that edition and on the card's unit type; Aircraft and Antiair units need a
    later-edition battle."""
    if edition != "later":
        from .later import later_only_reason
        why = later_only_reason(card)
        if why:
            return f"{card.name} {why}: it can be chosen only for a later-edition battle"
    for a in card.abilities:
        s = lookup(a.id)
        name = a.name or a.id
        if s is None or not s.implemented:
            return f"{card.name} can't be chosen: its ability {name} is not in Hexfront yet"
        if s.unit_type is not None and card.type != s.unit_type:
            return (f"{card.name} can't be chosen: its ability {name} is not in Hexfront yet "
                    f"on {card.type}s")
        if edition not in s.editions:
            where = " or ".join(_EDITION_WORD.get(e, e) for e in s.editions)
            return (f"{card.name} can be chosen only for a {where} battle: its ability "
                    f"{name} works only there")
    return None


def playable_editions(card: UnitCard) -> tuple[str, ...]:
    """The editions whose battles ``card`` can be chosen for (() = none yet)."""
    return tuple(e for e in EDITIONS if card_refusal(card, e) is None)


def is_playable(card: UnitCard, edition: str = "first") -> bool:
    return card_refusal(card, edition) is None


def playable_cards(cards: Iterable[UnitCard], edition: str = "first") -> list[UnitCard]:
    """The cards of ``cards`` that can be chosen for a battle of ``edition``."""
    return [c for c in cards if card_refusal(c, edition) is None]


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

    # playable in this battle's edition: every ability implemented and working here;
    # Aircraft and the ground units made for them only in later-edition battles
    for c in distinct:
        why = card_refusal(c, edition)
        if why:
            problems.append(why)

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
            else:
                group = _group_of(c.nationality)
                outside = [n for n in nations if n not in group and n not in HISTORICAL_LONERS]
                if outside and c.side == army.side:
                    adj = ADJECTIVE.get(c.nationality, c.nationality)
                    mates = [ADJECTIVE.get(n, n) for n in group if n != c.nationality]
                    problems.append(
                        f"{c.name} is {adj}: historical limits allow {adj} units only with "
                        f"{_names(mates)} units (this army also has "
                        f"{_names([ADJECTIVE.get(n, n) for n in outside])} units)")

    # rulebook: Year Restrictions (ruling 12: an option)
    if year is not None:
        for c in distinct:
            if c.year > year:
                problems.append(f"{c.name} is from {c.year}: the year limit {year} allows only "
                                f"units introduced by {year}")
    return problems
