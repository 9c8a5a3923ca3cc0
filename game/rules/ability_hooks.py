"""Old name of the abilities' public helpers (kept for clients): the abilities now
live in the package :mod:`game.rules.abilities`, one module per kind."""
from __future__ import annotations

from . import abilities as _abilities

_abilities.load()

from .abilities.common import (AbilityRoll, AbilityUsed, IN_RULE_HOOKS,  # noqa: E402
                               MODE_ABILITIES)
from .abilities.commanders import commander_near  # noqa: E402
from .abilities.extra_actions import activation_tags, extra_actions  # noqa: E402
from .abilities.results import exact_odds  # noqa: E402

__all__ = ["AbilityRoll", "AbilityUsed", "MODE_ABILITIES", "IN_RULE_HOOKS", "extra_actions",
           "activation_tags", "commander_near", "exact_odds"]
