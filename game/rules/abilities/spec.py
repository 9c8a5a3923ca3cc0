"""What Hexfront knows about each ability id: its printed name, parameter and rule
text (:class:`AbilitySpec`).  Each ability module defines its abilities' specs next
to their hooks (``SPECS = define(AbilitySpec(...), ...)``); :data:`CATALOG` is the
union, filled when the modules are loaded (``game.rules.abilities.load``).

Card files name abilities by id (``close_assault: 7``); the loader
(``game.data.units``) refuses an id that is not in the catalog, checks the
parameter against :attr:`AbilitySpec.value_range` and the card type against
:attr:`AbilitySpec.unit_type`, and fills in the printed name and the rule text
(``{n}`` is the parameter).

The rule texts are Hexfront's own wording, written so the hooks can be
implemented from them.  Where a card refers to something the first edition does
not have (aircraft, hedges, trenches, obstacles) the text says that part does not
apply.  General principles (rulebook: Special Abilities): abilities trump rules;
"can't" beats "can"; abilities of the same name don't add together; only the
highest commander bonus to one roll applies; a disrupted commander's commander
abilities don't work; extra actions happen as part of the unit's activation and
can't be saved.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..cards import Ability

__all__ = ["AbilitySpec", "CATALOG", "define", "spec", "display_name", "rule_text",
           "make_ability"]


@dataclass(frozen=True)
class AbilitySpec:
    """What Hexfront knows about one ability id."""

    id: str
    name: str                                  # printed name; "{n}" = the parameter
    takes_value: bool                          # "Close Assault N" takes one, "Blast" doesn't
    text: str                                  # rule text template; "{n}" = the parameter
    value_range: tuple[int, int] | None = None  # allowed parameter values (inclusive)
    unit_type: str | None = None               # only cards of this type may carry it
    commander: bool = False                    # a commander ability (rulebook: Commander Abilities)
    not_in_first_edition: str = ""             # what on the printed card doesn't apply here

    def fill(self, template: str, value: object) -> str:
        return template.replace("{n}", "" if value is None else str(value))


_COMMANDER_TAIL = (" Commander ability: it does not work while this commander is disrupted,"
                   " and it does not add to another ability of the same name.")

#: every ability id -> its spec (filled by the ability modules' ``define`` calls)
CATALOG: dict[str, AbilitySpec] = {}


def define(*specs: AbilitySpec) -> tuple[AbilitySpec, ...]:
    """Add ``specs`` to :data:`CATALOG` (an id may be defined once)."""
    for s in specs:
        if s.id in CATALOG:
            raise ValueError(f"ability '{s.id}' is defined twice")
        CATALOG[s.id] = s
    return specs


def spec(ability_id: str) -> AbilitySpec:
    """The catalog entry for an id; KeyError with a readable message if unknown."""
    try:
        return CATALOG[ability_id]
    except KeyError:
        raise KeyError(f"unknown ability id '{ability_id}'") from None


def display_name(ability_id: str, value: object = None) -> str:
    """The printed name, e.g. ``display_name('close_assault', 7) == 'Close Assault 7'``."""
    s = spec(ability_id)
    return s.fill(s.name, value).strip()


def rule_text(ability_id: str, value: object = None) -> str:
    """The full rule text with the parameter filled in (and the first-edition note)."""
    s = spec(ability_id)
    text = s.fill(s.text, value)
    if s.not_in_first_edition:
        text += " " + s.not_in_first_edition
    return text


def make_ability(ability_id: str, value: object = None, name: str | None = None,
                 text: str | None = None) -> Ability:
    """An :class:`Ability` with the catalog's name and text unless given."""
    return Ability(id=ability_id, value=value,
                   name=name or display_name(ability_id, value),
                   text=text or rule_text(ability_id, value))
