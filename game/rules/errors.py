"""Errors of the rules module.  Every message is a sentence a player can read."""
from __future__ import annotations

__all__ = ["RulesError", "IllegalAction", "MalformedAction", "DataError"]


class RulesError(ValueError):
    """Base class of every error the rules module raises on purpose."""


class IllegalAction(RulesError):
    """A well-formed action that the rules do not allow now.

    ``reason`` is shown to the player as is ("Vehicles can't enter marsh")."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class MalformedAction(RulesError):
    """An action that is not even well formed (unknown unit id, bad field)."""


class DataError(RulesError):
    """A data file (unit card, map section, configuration, army, save,
    situation) is wrong.  The message names the file, the entry and the field:
    ``units/cards/germany.yaml:12: entry 'Panzer IV Ausf. G': field 'speed': expected a whole number 0-10, got 'fast'``.
    ``problems`` holds every problem found when there are several."""

    def __init__(self, file: str, message: str, *, entry: str | None = None,
                 field: str | None = None, line: int | None = None,
                 problems: list["DataError"] | None = None) -> None:
        self.file = str(file)
        self.entry = entry
        self.field = field
        self.line = line
        self.detail = message
        self.problems = problems or []
        super().__init__(self._format())

    def _format(self) -> str:
        where = self.file + (f":{self.line}" if self.line else "")
        parts = [where]
        if self.entry is not None:
            parts.append(f"entry '{self.entry}'")
        if self.field is not None:
            parts.append(f"field '{self.field}'")
        text = ": ".join(parts) + ": " + self.detail
        if len(self.problems) > 1:
            text += f" (and {len(self.problems) - 1} more problem(s))"
        return text

    def report(self) -> str:
        """Every problem, one per line."""
        if not self.problems:
            return str(self)
        return "\n".join(str(p) for p in self.problems)
