"""The battle screen: a battle from the coin flip to the victory screen.

The scene only wires the parts together:

- ``controller`` (game.ui.battle.controller): the game, the selection, the mode
  stack; it asks the rules and sends actions; no drawing.
- the input modes (game.ui.battle.modes): the step a player is in; they turn
  clicks and keys into actions or rules queries.
- ``input`` (game.ui.battle.input): raw pygame events to the top mode, the view
  and the tools.
- ``overlays`` (game.ui.battle.overlays): the map, what a mode highlights, the
  line of sight view, the legends.
- ``hud`` (game.ui.battle.hud): the prompt bar, the side panel, the log, and the
  presentation of the events the rules send back.
"""
from __future__ import annotations

import random
from typing import Any

import pygame

from game.rules.errors import DataError
from game.ui import theme
from game.ui.battle.controller import BattleController
from game.ui.battle.hud import HEADER_H, PROMPT_H, BattleHUD, UnitHexes, event_colour  # noqa: F401
from game.ui.battle.input import HOLD_FOR_CARD, PAN_STEP, BattleInput  # noqa: F401
from game.ui.battle.modes import CasualtyMode, Mode
from game.ui.battle.overlays import BattleOverlays
from game.ui.battle.panels import SIDE_COLOURS, layout_buttons
from game.ui.battle.view import MapView
from game.ui.scene import Scene

__all__ = ["BattleScene", "new_battle_game", "SIDE_COLOURS"]


def new_battle_game(setup: Any):
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


def _delegate(part: str, name: str) -> property:
    """A scene attribute that lives in one of its parts (the modes read them here)."""
    return property(lambda self: getattr(getattr(self, part), name),
                    lambda self, v: setattr(getattr(self, part), name, v))


class BattleScene(Scene):
    game = _delegate("controller", "game")
    selected = _delegate("controller", "selected")
    stack = _delegate("controller", "stack")
    base = _delegate("controller", "base")
    hold_fire = _delegate("controller", "hold_fire")
    mouse = _delegate("input", "mouse")
    hover_hex = _delegate("input", "hover_hex")
    hover_button = _delegate("input", "hover_button")
    buttons = _delegate("input", "buttons")
    los_from = _delegate("input", "los_from")
    notice = _delegate("hud", "notice")
    logp = _delegate("hud", "logp")
    dice = _delegate("hud", "dice")

    def __init__(self, app: Any, setup: Any = None, *, game: Any = None) -> None:
        super().__init__(app)
        self.setup = setup
        self.demo = None            # --demo: the screen plays both sides
        self.ai = None              # solo practice: the AI plays setup.solo
        self.show_legend = False    # G: the terrain legend
        self._last_to_act = None
        self.hud = BattleHUD(self)
        self.controller = BattleController(game if game is not None else new_battle_game(setup),
                                           self, show=self.hud.show_events, note=self.note)
        from game.ui.battle.recap import RecapTracker
        self.recap = RecapTracker(self, auto=setup is not None)  # issue 17: the other side's turn
        self.input = BattleInput(self)
        self.overlays = BattleOverlays(self)
        from game.ui.battle.threat_map import ThreatMap
        self.threat = ThreatMap(self)       # X: the threat map (issue 17)
        from game.ui.battle.standing import StandingOrders
        self.standing = StandingOrders(self)  # O: standing orders for defensive fire
        from game.ui.battle.anim import Animator
        self.anim = Animator(self.anim_factor)
        seed = getattr(setup, "seed", None)
        if setup is not None and getattr(setup, "demo_frames", None):
            from game.ui.battle.demo import DemoPlayer
            self.demo = DemoPlayer(self, random.Random(seed if seed is not None else 1))
        elif setup is not None and getattr(setup, "solo", None):
            from game.ui.battle.demo import DemoPlayer
            self.ai = DemoPlayer(self, random.Random(seed), sides=(setup.solo,), think=0.45,
                                 level=getattr(setup, "ai_level", None) or "veteran")
        elif setup is not None and getattr(setup, "remote", None) is not None:
            # a network seat (game.net) plays like the solo AI: .sides, .update(dt),
            # .attach(scene), .forward(action), .waiting_line, .save_net()
            self.ai = setup.remote
            self.ai.attach(self)
        self._build(app.size)
        self.hud.log_history(self.game.log[-40:])
        self.refresh()

    # --- geometry ----------------------------------------------------------------------------
    def _build(self, size: tuple[int, int]) -> None:
        w, h = size
        pw = 400 if w >= 1600 else 360
        self.panel_rect = pygame.Rect(w - pw, 0, pw, h)
        self.map_rect = pygame.Rect(0, 0, w - pw, h)
        self.prompt_rect = pygame.Rect(0, h - PROMPT_H, w - pw, PROMPT_H)
        self.view_rect = pygame.Rect(0, 0, w - pw, h - PROMPT_H)
        if getattr(self, "view", None) is None:
            self.view = MapView(self.game.state.battle_map, self.view_rect)
        else:
            self.view.resize(self.view_rect)
        self.hud.build(size)

    def resize(self, size: tuple[int, int]) -> None:
        self._build(size)

    def enter(self) -> None:
        if self.panel_rect.right != self.app.size[0] or self.panel_rect.h != self.app.size[1]:
            self._build(self.app.size)      # back from the settings at another size
        self.overlays.invalidate()
        self.hud._panel = None

    def anim_factor(self) -> float:
        return 0.35 if self.demo is not None else self.app.settings.animation_factor

    # --- what the modes read -----------------------------------------------------------------
    @property
    def state(self):
        return self.controller.state

    @property
    def version(self) -> tuple:
        return self.controller.version

    @property
    def mode(self) -> Mode:
        return self.controller.mode

    @property
    def ai_turn(self) -> bool:
        """Solo practice: the AI must act now (the player only watches)."""
        return self.ai is not None and self.state.to_act in self.ai.sides and not self.stack

    def cached(self, key: Any, make: Any) -> Any:
        return self.controller.cached(key, make)

    def legal(self) -> list:
        return self.controller.legal()

    def push(self, mode: Mode) -> None:
        self.controller.push(mode)

    def pop(self, mode: Mode | None = None) -> None:
        self.controller.pop(mode)

    def send(self, action: Any) -> bool:
        forward = getattr(self.ai, "forward", None)     # a network seat may take it over
        if forward is not None:
            answer = forward(action)
            if answer is not None:
                return answer
        ok = self.controller.send(action)
        if ok:
            self.app.play("click")
        return ok

    def note(self, text: str) -> None:
        self.hud.note(text)

    def _show_events(self, events: list, *_: Any) -> None:
        self.hud.show_events(events)

    def refresh(self) -> None:
        """The base mode for the state; the seat-change banner."""
        if self.controller.rebase():
            return
        if self.standing.answer():
            return          # the absent player's standing orders answered the prompt
        if any(isinstance(m, CasualtyMode) for m in self.stack):
            return          # the next turn's banner waits until the casualty phase is seen
        to_act = self.state.to_act
        ai_side = self.ai is not None and to_act in self.ai.sides
        if to_act and to_act != self._last_to_act and self.demo is None and not ai_side:
            from game.rules.state import AntiairPrompt, DefensiveFirePrompt
            what = "defensive fire" if isinstance(self.state.pending, DefensiveFirePrompt) \
                else "Antiair fire" if isinstance(self.state.pending, AntiairPrompt) else "your turn"
            self.anim.show_banner(f"{theme.SIDE_LABEL[to_act]} player: {what}",
                                  SIDE_COLOURS.get(to_act, theme.ACCENT))
        self._last_to_act = to_act
        self.recap.seat_changed(to_act)

    def undo_all(self) -> list:
        """U: take back every dice-free action of this phase (Ctrl+Z: the selected unit's)."""
        taken = self.controller.undo_all()
        if taken is None:
            self.note("Nothing to take back: rolls, defensive fire and ended phases are final.")
            return []
        self.logp.add(f"{len(taken)} action(s) of this phase taken back.", theme.TEXT_DIM)
        self.refresh()
        return taken

    # --- saving and leaving ------------------------------------------------------------------
    def save(self) -> None:
        save_net = getattr(self.ai, "save_net", None)   # a network battle saves its own way
        if save_net is not None:
            self.note(save_net())                         # what was written, and where
            return
        from game import saves
        try:
            path = getattr(self.setup, "save_path", None) if self.setup is not None else None
            out = saves.save_game(self.game, path or saves.default_save_path(self.game))
            self.note(f"Game saved: {out}")
        except (OSError, DataError) as exc:     # a full disk must not end the battle
            self.note(f"Saving failed: {exc}")

    def autosave(self) -> None:
        if self.demo is not None:
            return
        from game import saves
        try:
            saves.autosave(self.game)
        except (OSError, DataError) as exc:
            self.logp.add(f"Autosave failed: {exc}", theme.WARN)

    def open_settings(self) -> None:
        from game.ui.scenes.settings_scene import SettingsScene
        self.next_scene = SettingsScene(self.app, back=self)

    def open_load(self) -> None:
        from game.ui.scenes.load import LoadScene
        self.autosave()
        self.next_scene = LoadScene(self.app, back=self)

    def open_rules(self, topic: str | None = None) -> None:
        """F1 / the menu's Rules: the rule behind the refusal on show ("Why?"), else the
        selected unit's ability texts, else the contents (game/ui/help/)."""
        from game.ui.help.battle_link import rules_scene
        self.next_scene = rules_scene(self, topic)

    def suggest(self) -> None:
        """Suggest: the Veteran's (solo: the chosen AI level's) choice for the selected unit."""
        from game.ui.battle.suggest import suggest
        if self.selected is None:
            return
        level = getattr(self.setup, "ai_level", None) or "veteran"
        tip = suggest(self.game, self.selected, level)
        self.suggestion = tip
        self.note(tip.text)

    def open_luck(self) -> None:
        from game.ui.scenes.luck import LuckScene
        self.next_scene = LuckScene(self.app, self.game, back=self)

    def show_victory(self) -> None:
        from game.ui.scenes.victory import VictoryScene
        self.next_scene = VictoryScene(self.app, self.game, self.setup)

    def to_menu(self) -> None:
        self.autosave()
        self.next_scene = self.app.menu_scene()

    def objective_hex(self):
        return self.overlays.objective_hex()

    def press(self, key: str) -> None:
        self.input.press(key)

    # --- frame -------------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> None:
        self.input.handle_event(event)

    def update(self, dt: float) -> None:
        self.input.update(dt)
        self.view.update(dt)
        self.anim.update(dt)
        self.hud.update(dt)
        self.mode.update(dt)
        for player in (self.demo, self.ai):
            if player is not None:
                player.update(dt)
        # the top mode's buttons, laid out in the prompt bar (or where the mode puts them)
        buttons = [] if self.ai_turn else self.mode.buttons()
        r = self.prompt_rect
        layout_buttons(buttons, pygame.Rect(r.x + 12, r.bottom - 44, r.w - 24, 40), align="right")
        place = getattr(self.mode, "place_buttons", None)
        if place is not None:
            place(buttons)
        self.buttons = {b.key: b for b in buttons}

    def draw(self, surface: pygame.Surface) -> None:
        self.overlays.draw(surface)
