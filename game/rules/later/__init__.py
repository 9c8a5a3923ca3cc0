"""The later edition (seed 001) as a second rules module.

The later edition shares everything it has in common with the first; what differs is
added here, never forked (``state.options["edition"] == "later"``, see
:attr:`GameState.edition`):

==================  ================================================================
module              what it adds
==================  ================================================================
``phases``          its phase table: A-K with first/second flight and airstrike phases,
                    the end-of-turn removal of Aircraft (checklist L01, L10, L11)
``flight``          PlaceAircraft and the Antiair defensive-fire prompt (L04, L12)
``combat``          attacks on and by Aircraft, hedge and cliff cover (L07-L09, L16, L24,
                    L29, L30)
``terrain``         hedge and cliff movement rolls (L23, L27, L28)
(abilities.later_edition: the Antiair ability's spec; its effect lives in ``flight``/``combat``)
==================  ================================================================

Rules shared with the first edition that the later edition changes by a number
live where the first edition's number lives, keyed by edition: deployment depth
(``families.setup.DEPLOY_DEPTH``), defense 0 (``combat.hits_for``), initiative
(``phases.initiative_bonus``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import UnitCard

if TYPE_CHECKING:
    from ..state import GameState

__all__ = ["EDITIONS", "DEFAULT_EDITION", "load", "later_only_reason", "is_later",
           "LATER_ONLY_ABILITIES", "parse_edition"]

EDITIONS = ("first", "later")
DEFAULT_EDITION = "first"
#: abilities that only matter (and only exist on cards) in the later edition: Antiair,
#: and the abilities of the Antiair and Aircraft cards (units/cards/later/)
LATER_ONLY_ABILITIES = frozenset({"antiair", "ace", "agility", "slow", "steady_firing",
                                  "gun_shield", "open_crew"})
_LOADED = False


def load() -> None:
    """Register the later edition's phase table, action rules and ability specs."""
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    from . import flight, phases   # noqa: F401  (they register themselves)


def is_later(state: "GameState") -> bool:
    return bool(state.options.get("edition") == "later")


def parse_edition(value: object) -> str:
    """``"first"`` / ``"later"`` (also ``1``/``2``, ``"1st"``...); ValueError otherwise."""
    text = str(value).strip().lower()
    aliases = {"first": "first", "1": "first", "1st": "first", "later": "later",
               "2": "later", "2nd": "later", "second": "later"}
    if text not in aliases:
        raise ValueError(f"unknown edition '{value}' (expected first or later)")
    return aliases[text]


def later_only_reason(card: UnitCard) -> str | None:
    """Why ``card`` belongs to the later edition only (None: any edition)."""
    if card.is_aircraft:
        return "is an Aircraft"
    for a in card.abilities:
        if a.id in LATER_ONLY_ABILITIES:
            return f"has {a.name or a.id}"
    return None
