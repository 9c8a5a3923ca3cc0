"""Abilities only the later edition has (cards in units/cards/later/).  Antiair's effects: the defensive-fire
shot when an enemy Aircraft is placed in or next to it (game.rules.later.flight) and
no -1 on its attacks against Aircraft (game.rules.later.combat)."""
from __future__ import annotations

from .spec import AbilitySpec, define

SPECS = define(
    AbilitySpec(
        "antiair", "Antiair", False,
        "Later edition. When an enemy Aircraft is placed in this unit's hex or next to it,"
        " this unit may make its one defensive-fire attack of the phase against it at once"
        " (a success disrupts the Aircraft). Its attacks against Aircraft don't take the"
        " usual -1 on each die."),
)
