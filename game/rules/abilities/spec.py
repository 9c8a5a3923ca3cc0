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

**Known but not implemented.**  The cards of the later sets carry abilities Hexfront
does not have yet.  Their names are known (:data:`PENDING`, from
``game.rules.abilities.not_yet``) so every card loads, but they are not in
:data:`CATALOG`, which holds only the abilities the rules implement.  A card is
playable in an edition only if every ability on it is implemented, works in that
edition (:attr:`AbilitySpec.editions`) and on that card's unit type
(:attr:`AbilitySpec.unit_type`): ``game.rules.army.card_refusal`` /
``playable_editions`` ask :func:`lookup` and refuse the others with a reason.
Implementing an ability = defining its spec (``define``) next to its hooks in an
ability module; the pending entry of the same id is then shadowed (nothing else to
change).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..cards import Ability

__all__ = ["AbilitySpec", "CATALOG", "PENDING", "PRINTED_ON", "define", "spec", "lookup",
           "is_implemented", "printed_types", "display_name", "rule_text", "make_ability",
           "EDITIONS"]

#: the editions a battle can be played in (game.rules.later.EDITIONS)
EDITIONS: tuple[str, ...] = ("first", "later")


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
    #: the editions whose battles it works in (an ability that needs Aircraft, water or
    #: obstacles works only in ("later",)); a card with it is refused in the others
    editions: tuple[str, ...] = EDITIONS
    #: False: Hexfront knows the name (the cards load) but not the rule (:data:`PENDING`)
    implemented: bool = True
    #: an attack mode the player (and the AI, game.rules.threat.attack_modes) may choose
    #: instead of a normal attack: ``Attack(..., mode=<this id>)``
    attack_mode: bool = False

    def fill(self, template: str, value: object) -> str:
        return template.replace("{n}", "" if value is None else str(value))


_COMMANDER_TAIL = (" Commander ability: it does not work while this commander is disrupted,"
                   " and it does not add to another ability of the same name.")

#: every implemented ability id -> its spec (filled by the ability modules' ``define`` calls)
CATALOG: dict[str, AbilitySpec] = {}
#: ability ids printed on cards that Hexfront does not implement yet -> a spec with
#: ``implemented=False`` (filled from ``not_yet`` below; shadowed by CATALOG)
PENDING: dict[str, AbilitySpec] = {}
#: unit types the cards print an ability on besides its ``unit_type`` (the cards load;
#: until the rules handle that type, such a card is refused: "not in Hexfront yet on
#: Soldiers").  Widen the implementation by widening ``unit_type`` in its module.
PRINTED_ON: dict[str, tuple[str, ...]] = {
    "high_gear": ("Soldier",),          # the bicycle troops of the later sets
}


def define(*specs: AbilitySpec) -> tuple[AbilitySpec, ...]:
    """Add ``specs`` to :data:`CATALOG` (an id may be defined once)."""
    for s in specs:
        if s.id in CATALOG:
            raise ValueError(f"ability '{s.id}' is defined twice")
        CATALOG[s.id] = s
    return specs


def spec(ability_id: str) -> AbilitySpec:
    """The catalog entry for an id (implemented, else pending); KeyError with a readable
    message if Hexfront doesn't know the name at all."""
    found = lookup(ability_id)
    if found is None:
        raise KeyError(f"unknown ability id '{ability_id}'")
    return found


def lookup(ability_id: str) -> AbilitySpec | None:
    """The implemented spec of an id, else its pending one, else None."""
    return CATALOG.get(ability_id) or PENDING.get(ability_id)


def is_implemented(ability_id: str) -> bool:
    return ability_id in CATALOG


def printed_types(ability_id: str) -> tuple[str, ...] | None:
    """The unit types a card may print this ability on (None: any type)."""
    s = lookup(ability_id)
    if s is None or s.unit_type is None:
        return None
    return (s.unit_type,) + PRINTED_ON.get(ability_id, ())


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


def _load_pending() -> None:
    from .not_yet import PENDING_SPECS
    for s in PENDING_SPECS:
        if s.id in PENDING:
            raise ValueError(f"pending ability '{s.id}' is listed twice")
        PENDING[s.id] = s


_load_pending()
