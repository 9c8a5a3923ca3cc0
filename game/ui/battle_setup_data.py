"""What the setup screens hand to the battle screen (no pygame here).

``BattleSetup`` is built by the battle-setup screen and the two army builders
(or by ``main.py --hotseat`` / ``--demo``) and passed on as
``game.ui.scenes.battle.BattleScene(app, setup)``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["BattleSetup", "SIDES", "SCENARIOS", "STANDARD_BUDGET", "ASSAULT_BUDGETS",
           "MAX_UNITS", "budget_for"]

SIDES = ("Axis", "Allies")
SCENARIOS = ("standard", "assault")
# the budgets and the unit cap are the rules' (game.rules.army), named here for the screens
from game.rules.army import (ASSAULT_ATTACKER_BUDGET, ASSAULT_DEFENDER_BUDGET,  # noqa: E402
                             MAX_UNITS, STANDARD_BUDGET)
from game.rules.army import budget_for as _rules_budget  # noqa: E402

from game.rules.later import EDITIONS  # noqa: E402

LATER_CONFIGS = 3        # the later edition's three battlefields (game.data.later_maps)
ASSAULT_BUDGETS = {"attacker": ASSAULT_ATTACKER_BUDGET, "defender": ASSAULT_DEFENDER_BUDGET}


def budget_for(scenario: str, side: str, attacker: str | None = None) -> int:
    """Points an army may cost (game.rules.army.budget_for for the side's role)."""
    if scenario == "assault":
        return _rules_budget("assault", "attacker" if side == (attacker or "Axis") else "defender")
    return _rules_budget(scenario)


@dataclass
class BattleSetup:
    scenario: str = "standard"                  # "standard" | "assault"
    config: int = 1                             # map configuration 1-6
    config_roll: int | None = None              # the die the players rolled for it, if any
    historical: bool = False                    # ruling 12: historical army limits (option)
    year: int | None = None                     # ruling 12: only units of this year or earlier
    attacker: str | None = None                 # Assault: the attacking side (defender = other)
    armies: dict[str, Any] = field(default_factory=dict)
    # side -> game.rules.army.Army (name, side, cards: list[UnitCard])
    seed: int | None = None                     # dice seed (None: random)
    saved_game: Any = None                      # a Game restored from a save (--load / menu)
    save_path: str | None = None                # where it was loaded from
    demo_frames: int | None = None              # --demo: play legal random actions this long
    solo: str | None = None                     # solo practice: the side the AI plays
    ai_level: str = "veteran"                   # solo practice: "recruit" or "veteran" (game.ai)
    edition: str = "first"                      # rules edition: "first" | "later" (game.rules.later)
    unsaved: str | None = None                  # why this battle is never saved (player text)

    def __post_init__(self) -> None:
        if self.scenario not in SCENARIOS:
            raise ValueError(f"scenario must be one of {', '.join(SCENARIOS)}, "
                             f"not '{self.scenario}'")
        if self.edition not in EDITIONS:
            raise ValueError(f"edition must be first or later, not '{self.edition}'")
        top = self.config_count
        if not 1 <= int(self.config) <= top:
            raise ValueError(f"map configuration must be 1-{top}, not {self.config}")
        if self.attacker is not None and self.attacker not in SIDES:
            raise ValueError(f"attacker must be Axis or Allies, not '{self.attacker}'")
        if self.scenario == "assault" and self.attacker is None:
            self.attacker = "Axis"
        if self.solo is not None and self.solo not in SIDES:
            raise ValueError(f"the AI side must be Axis or Allies, not '{self.solo}'")

    @property
    def config_count(self) -> int:
        """Map configurations of the edition: six (first), three (later, ruling L13)."""
        return LATER_CONFIGS if self.edition == "later" else 6

    @property
    def defender(self) -> str | None:
        if self.scenario != "assault":
            return None
        return "Allies" if self.attacker == "Axis" else "Axis"

    def budget(self, side: str) -> int:
        return budget_for(self.scenario, side, self.attacker)

    def cards(self, side: str) -> list:
        """The UnitCards of one side's army, in army order."""
        army = self.armies.get(side)
        return list(getattr(army, "cards", army or []))

    def options(self) -> dict[str, Any]:
        """The options dict for ``game.rules.engine.new_game``."""
        opts: dict[str, Any] = {"historical": self.historical, "year": self.year,
                                "budgets": {s: self.budget(s) for s in SIDES}}
        if self.scenario == "assault":
            opts["attacker"] = self.attacker
            opts["defender"] = self.defender
        if self.edition != "first":
            opts["edition"] = self.edition
        return opts
