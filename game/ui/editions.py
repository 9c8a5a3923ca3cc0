"""The two rules editions as the setup screens, the preview and the battle screen
offer them (no pygame here).

Everything the rules decide stays in the rules: which cards belong to the later
edition only (``game.rules.later.later_only_reason``, through
``game.rules.army.validate_army``), which battlefield a die picks
(``game.data.later_maps.configuration_for_roll``, ruling L13), the maps themselves
(``game.data.maps`` / ``game.data.later_maps``).  This module only names the editions
and routes a setup to the right loader.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from game.rules.later import DEFAULT_EDITION, EDITIONS

__all__ = ["EDITIONS", "DEFAULT_EDITION", "EDITION_LABEL", "EDITION_TEXT", "config_count",
           "config_names", "config_for_roll", "load_battle_map", "roster", "sample_army_path",
           "next_edition", "is_later", "deploy_depth", "roll_table"]

ROOT = Path(__file__).resolve().parents[2]

EDITION_LABEL = {"first": "First edition", "later": "Later edition"}
_WORDS = {3: "three", 5: "five"}


def deploy_depth(edition: str) -> int:
    """Hexes from your end you deploy within (the rules' number)."""
    from game.rules.families.setup import DEPLOY_DEPTH
    return int(DEPLOY_DEPTH.get(edition, DEPLOY_DEPTH["first"]))


def _depth_words(edition: str) -> str:
    d = deploy_depth(edition)
    return _WORDS.get(d, str(d))


EDITION_TEXT = {
    "first": "First edition (the default): the starter set's rules, six map configurations, "
             f"deployment within {_depth_words('first')} hexes of your end.",
    "later": "Later edition: Aircraft (flight and airstrike phases, Antiair fire), hedges, "
             "bluffs with cliffs, shell holes and water; three battlefields; deployment within "
             f"{_depth_words('later')} hexes of your end.",
}


def roll_table(edition: str) -> str:
    """Which die faces pick which configuration, e.g. "1-2 River Line, 3-4 ..."
    (from the rules' table, ruling L13 in the later edition)."""
    names = config_names(edition)
    faces: dict[int, list[int]] = {}
    for die in range(1, 7):
        faces.setdefault(config_for_roll(edition, die), []).append(die)
    parts = []
    for n, fs in sorted(faces.items()):
        f = f"{fs[0]}-{fs[-1]}" if len(fs) > 1 else str(fs[0])
        parts.append(f"{f} {names.get(n) or f'configuration {n}'}")
    return ", ".join(parts)


def is_later(edition: str | None) -> bool:
    return edition == "later"


def next_edition(edition: str) -> str:
    return EDITIONS[(EDITIONS.index(edition) + 1) % len(EDITIONS)]


def config_count(edition: str) -> int:
    """Six configurations in the first edition; three battlefields in the later."""
    if is_later(edition):
        from game.ui.battle_setup_data import LATER_CONFIGS
        return LATER_CONFIGS
    return 6


def config_names(edition: str) -> dict[int, str]:
    """Configuration number -> its name ("" when it has none)."""
    if is_later(edition):
        from game.data.later_maps import list_later_configurations
        return dict(list_later_configurations())
    return {n: "" for n in range(1, 7)}


def config_for_roll(edition: str, die: int) -> int:
    """The configuration a die roll picks (later edition: ruling L13, 1-2 / 3-4 / 5-6)."""
    if is_later(edition):
        from game.data.later_maps import configuration_for_roll
        return configuration_for_roll(die)
    return die


def load_battle_map(edition: str, number: int) -> Any:
    """The BattleMap of configuration ``number`` of ``edition``."""
    if is_later(edition):
        from game.data.later_maps import load_later_configuration
        return load_later_configuration(number)
    from game.data.maps import load_configuration
    return load_configuration(number)


def roster(edition: str) -> list[Any]:
    """The cards that can be chosen for a battle of ``edition``, as the rules say
    (``game.rules.army.playable_cards``: the later edition's Aircraft and Antiair units
    only there, and no card with an ability not in Hexfront yet)."""
    from game.data.units import load_roster
    from game.rules.army import playable_cards
    return playable_cards(load_roster(edition="later").values(), edition)


def sample_army_path(edition: str, side: str) -> Path:
    """The side's sample army: the later edition's own (with Aircraft) when it has one."""
    name = f"sample_{'axis' if side == 'Axis' else 'allies'}.yaml"
    if is_later(edition):
        p = ROOT / "units" / "armies" / "later" / name
        if p.is_file():
            return p
    return ROOT / "units" / "armies" / name
