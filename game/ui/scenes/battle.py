"""The battle screen: a battle from the coin flip to the victory screen.  The scene
only wires the parts together (game/ui/battle/):

- ``controller``: the game, the selection, the mode stack; it asks the rules and
  sends actions; no drawing.
- ``modes``: the step a player is in; they turn clicks and keys into actions or
  rules queries (no drawing).  They see the scene as a typed ``BattleContext``.
- ``input``: raw pygame events to the top mode, the view and the tools.
- ``overlays``: the map and, through one painter per mode, what a mode highlights;
  the line of sight view, the legends (no input).
- ``hud``: the prompt bar, the side panel, the log, and the presentation of the
  events the rules send back.
- ``services``: saving, and the scenes the battle opens.
- ``seats``: who plays a side that is not at this screen (the demo, the solo AI on a
  worker thread, a network seat).
"""
from __future__ import annotations

from typing import Any

import pygame

from game.ui.battle.controller import BattleController
from game.ui.battle.hud import BattleHUD
from game.ui.battle.input import BattleInput
from game.ui.battle.overlays import BattleOverlays
from game.ui.battle.panels import SIDE_COLOURS
from game.ui.battle.seats import make_seats
from game.ui.battle.services import BattleServices, new_battle_game
from game.ui.battle.view import MapView
from game.ui.scene import Scene

__all__ = ["BattleScene", "new_battle_game", "SIDE_COLOURS"]


def _part(part: str, name: str) -> property:
    """A scene attribute that lives in one of its parts (the modes read it here)."""
    return property(lambda self: getattr(getattr(self, part), name),
                    lambda self, v: setattr(getattr(self, part), name, v))


def _call(part: str, name: str) -> Any:
    """A scene method that one of its parts carries out."""
    def call(self: Any, *args: Any, **kw: Any) -> Any:
        return getattr(getattr(self, part), name)(*args, **kw)
    call.__name__ = name
    return call


class BattleScene(Scene):
    game = _part("controller", "game")
    selected = _part("controller", "selected")
    stack = _part("controller", "stack")
    base = _part("controller", "base")
    hold_fire = _part("controller", "hold_fire")
    state = property(lambda self: self.controller.state)
    version = property(lambda self: self.controller.version)
    mode = property(lambda self: self.controller.mode)
    mouse = _part("input", "mouse")
    hover_hex = _part("input", "hover_hex")
    hover_button = _part("input", "hover_button")
    buttons = _part("input", "buttons")
    los_from = _part("input", "los_from")
    notice = _part("hud", "notice")
    logp = _part("hud", "logp")
    dice = _part("hud", "dice")
    cached, legal, push, pop = (_call("controller", n) for n in ("cached", "legal", "push", "pop"))
    note, show_events = _call("hud", "note"), _call("hud", "show_events")
    press, handle_event = _call("input", "press"), _call("input", "handle_event")
    objective_hex, draw = _call("overlays", "objective_hex"), _call("overlays", "draw")
    save, autosave, open_settings, open_load, open_rules, suggest, open_luck, show_victory, \
        to_menu = (_call("services", n) for n in (
            "save", "autosave", "open_settings", "open_load", "open_rules", "suggest",
            "open_luck", "show_victory", "to_menu"))
    undo_all, not_saved = _call("services", "undo_all"), _call("services", "not_saved")

    def __init__(self, app: Any, setup: Any = None, *, game: Any = None) -> None:
        super().__init__(app)
        self.setup = setup
        self.show_legend = False    # G: the terrain legend
        self.suggestion: Any = None  # A: the AI's suggestion for the selected unit, marked
        self.suggestion_version: Any = None     # ... while the game is at this version
        self.services = BattleServices(self)
        self.hud = BattleHUD(self)
        self.controller = BattleController(game if game is not None else new_battle_game(setup),
                                           self, show=self.hud.show_events, note=self.note)
        from game.ui.battle.anim import Animator
        from game.ui.battle.recap import RecapTracker
        from game.ui.battle.standing import StandingOrders
        from game.ui.battle.threat_map import ThreatMap
        self.recap = RecapTracker(self, auto=setup is not None)  # issue 17: the other side's turn
        self.input = BattleInput(self)
        self.overlays = BattleOverlays(self)
        self.threat = ThreatMap(self)       # X: the threat map (issue 17)
        self.standing = StandingOrders(self)  # O: standing orders for defensive fire
        self.anim = Animator(self.anim_factor)
        self.demo, self.ai = make_seats(self, setup)   # --demo / solo AI / network seat
        self._build(app.size)
        self.hud.log_history(self.game.log[-40:])
        self.refresh()

    def _build(self, size: tuple[int, int]) -> None:
        w, h = size
        pw = 400 if w >= 1600 else 360
        self.panel_rect = pygame.Rect(w - pw, 0, pw, h)
        self.map_rect = pygame.Rect(0, 0, w - pw, h)
        self.prompt_rect = pygame.Rect(0, h - self.hud.prompt_h, w - pw, self.hud.prompt_h)
        self.view_rect = pygame.Rect(0, 0, w - pw, h - self.hud.prompt_h)
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
        self.hud.invalidate()

    def anim_factor(self) -> float:
        return 0.35 if self.demo is not None else self.app.settings.animation_factor

    @property
    def ai_turn(self) -> bool:
        """A seat that is not at this screen must act now (the player only watches)."""
        return self.ai is not None and self.state.to_act in self.ai.sides and not self.stack

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

    def refresh(self) -> None:
        """The base mode for the state; standing orders; the seat-change banner; the recap."""
        if self.controller.rebase() or self.standing.answer():
            return          # a held fire / the absent player's standing orders answered
        if any(getattr(m, "holds_turn_banner", False) for m in self.stack):
            return          # the next turn's banner waits until the casualty phase is seen
        to_act = self.state.to_act
        self.hud.seat_banner(to_act, show=self.demo is None and not (
            self.ai is not None and to_act in self.ai.sides))
        self.recap.seat_changed(to_act)

    def update(self, dt: float) -> None:
        self.input.update(dt)
        self.view.update(dt)
        self.anim.update(dt)
        self.hud.update(dt)
        self.mode.update(dt)
        for seat in (self.demo, self.ai):
            if seat is not None:
                seat.update(dt)
        self.input.lay_out_buttons([] if self.ai_turn else self.mode.buttons())
