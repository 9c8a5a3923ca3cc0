"""Every special ability Hexfront knows (id -> name, parameter, rule text).  The
specs live next to their hooks in :mod:`game.rules.abilities`; this module is the
catalog's old address (``game.data.units`` reads it)."""
from __future__ import annotations

from . import abilities as _abilities

_abilities.load()

from .abilities.spec import (CATALOG, AbilitySpec, display_name, make_ability,  # noqa: E402
                             rule_text, spec)

ABILITY_IDS: frozenset[str] = frozenset(CATALOG)
COMMANDER_ABILITIES: frozenset[str] = frozenset(s.id for s in CATALOG.values() if s.commander)

__all__ = ["AbilitySpec", "CATALOG", "ABILITY_IDS", "spec", "display_name",
           "rule_text", "make_ability", "COMMANDER_ABILITIES"]
