"""The battle screen's services: the game it starts from, saving and autosaving, and
the scenes it opens (settings, Load, rules help, luck report, victory, main menu).
Called by the in-battle menu, the keys and the HUD; no input, no drawing."""
from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from game.rules.errors import DataError
from game.ui import theme

if TYPE_CHECKING:
    from game.ui.scenes.battle import BattleScene

__all__ = ["BattleServices", "new_battle_game"]


def new_battle_game(setup: Any) -> Any:
    """A fresh Game for a BattleSetup (or the saved one it carries)."""
    if getattr(setup, "saved_game", None) is not None:
        return setup.saved_game
    from game.rules.dice import Dice
    from game.rules.engine import new_game
    from game.ui.editions import load_battle_map
    bm = load_battle_map(getattr(setup, "edition", "first"), setup.config)   # later: 1-3
    seed = setup.seed if setup.seed is not None else random.randrange(1 << 30)
    options = dict(setup.options())
    options["config"] = setup.config
    return new_game(bm, {s: setup.cards(s) for s in ("Axis", "Allies")},
                    scenario=setup.scenario, dice=Dice(seed), options=options)


class BattleServices:
    """``scene`` is the battle scene (game.ui.scenes.battle.BattleScene): its ``app``,
    ``setup``, ``game``, the seats (``demo``, ``ai``) and ``next_scene``."""

    def __init__(self, scene: BattleScene) -> None:
        self.sc = scene

    def not_saved(self) -> str | None:
        """Why this battle is never saved (the tutorial's free battle), or None."""
        return getattr(self.sc.setup, "unsaved", None)

    def save(self) -> None:
        save_net = getattr(self.sc.ai, "save_net", None)   # a network battle saves its own way
        if save_net is not None:
            self.sc.note(save_net())                         # what was written, and where
            return
        refusal = self.not_saved()
        if refusal is not None:
            self.sc.note(refusal)
            return
        from game import saves
        setup = self.sc.setup
        try:
            path = getattr(setup, "save_path", None) if setup is not None else None
            out = saves.save_game(self.sc.game, path or saves.default_save_path(self.sc.game))
            self.sc.note(f"Game saved: {out}")
        except (OSError, DataError) as exc:     # a full disk must not end the battle
            self.sc.note(f"Saving failed: {exc}")

    def autosave(self) -> None:
        if self.sc.demo is not None or self.not_saved() is not None:
            return
        from game import saves
        try:
            saves.autosave(self.sc.game)
        except (OSError, DataError) as exc:
            self.sc.logp.add(f"Autosave failed: {exc}", theme.WARN)

    def open_settings(self) -> None:
        from game.ui.scenes.settings_scene import SettingsScene
        self.sc.next_scene = SettingsScene(self.sc.app, back=self.sc)

    def open_load(self) -> None:
        from game.ui.scenes.load import LoadScene
        self.autosave()
        self.sc.next_scene = LoadScene(self.sc.app, back=self.sc)

    def open_rules(self, topic: str | None = None) -> None:
        """F1 / the menu's Rules: the rule behind the refusal on show ("Why?"), else the
        selected unit's ability texts, else the contents (game/ui/help/)."""
        from game.ui.help.battle_link import rules_scene
        self.sc.next_scene = rules_scene(self.sc, topic)

    def suggest(self) -> None:
        """Suggest: the Veteran's (solo: the chosen AI level's) choice for the selected unit."""
        from game.ui.battle.suggest import suggest
        if self.sc.selected is None:
            return
        level = getattr(self.sc.setup, "ai_level", None) or "veteran"
        tip = suggest(self.sc.game, self.sc.selected, level)
        self.sc.suggestion = tip
        self.sc.suggestion_version = self.sc.version
        self.sc.note(tip.text)

    def open_luck(self) -> None:
        from game.ui.scenes.luck import LuckScene
        self.sc.next_scene = LuckScene(self.sc.app, self.sc.game, back=self.sc)

    def show_victory(self) -> None:
        from game.ui.scenes.victory import VictoryScene
        self.sc.next_scene = VictoryScene(self.sc.app, self.sc.game, self.sc.setup)

    def undo_all(self) -> list:
        """U: take back every dice-free action of this phase (Ctrl+Z: the selected unit's)."""
        taken = self.sc.controller.undo_all()
        if taken is None:
            self.sc.note("Nothing to take back: rolls, defensive fire and ended phases are final.")
            return []
        self.sc.logp.add(f"{len(taken)} action(s) of this phase taken back.", theme.TEXT_DIM)
        self.sc.refresh()
        return taken

    def to_menu(self) -> None:
        leave = getattr(self.sc.ai, "leave", None)     # a network seat ends its connection
        if leave is not None:
            leave()
        self.autosave()
        self.sc.next_scene = self.sc.app.menu_scene()
