"""The battle screen's input: turns pygame clicks, drags, the wheel and keys into
the top mode's handlers (which turn them into actions or rules queries), view
changes (pan, zoom) and the screen's tools (the whole stat card, the line of
sight view, the terrain legend, the in-battle menu).  It draws nothing."""
from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.ui.battle.modes import BattleMenuMode, CardMode
from game.ui.battle.panels import Button, layout_buttons

if TYPE_CHECKING:
    from game.ui.scenes.battle import BattleScene

__all__ = ["BattleInput", "PAN_STEP", "HOLD_FOR_CARD"]

PAN_STEP = 60
HOLD_FOR_CARD = 0.6          # seconds a still left press on a unit takes to open its card


class BattleInput:
    def __init__(self, scene: BattleScene) -> None:
        self.sc = scene
        self.mouse: tuple[int, int] = (-1, -1)
        self.hover_hex = None
        self.hover_button: str | None = None
        self.buttons: dict[str, Button] = {}
        self.los_from = None                 # hold L: the hex the view is from
        self._drag: tuple[int, int] | None = None
        self._drag_button = 0
        self._drag_moved = False
        self._press: tuple[int, int] | None = None   # a still left press on the map
        self._held = 0.0                             # how long it has been held
        self._held_card = False

    def update(self, dt: float) -> None:
        """Hover, and a hold long enough to open the unit's card."""
        self._update_hover()
        if self._press is not None:
            self._held += dt
            if self._held >= HOLD_FOR_CARD and not self._held_card:
                pos, self._press = self._press, None
                self._held_card = self.open_card_at(pos)

    def lay_out_buttons(self, buttons: list[Button]) -> None:
        """The top mode's buttons, in the prompt bar (or where the mode puts them)."""
        r = self.sc.prompt_rect
        layout_buttons(buttons, pygame.Rect(r.x + 12, r.bottom - 44, r.w - 24, 40), align="right")
        place = getattr(self.sc.mode, "place_buttons", None)
        if place is not None:
            place(buttons)
        self.buttons = {b.key: b for b in buttons}

    def _button_at(self, pos) -> Button | None:
        for b in self.buttons.values():
            if b.enabled and b.rect.collidepoint(pos):
                return b
        return None

    def press(self, key: str) -> None:
        b = self.buttons.get(key)
        if b is not None and b.enabled:
            self.sc.anim.skip()
            self.sc.mode.on_button(key)

    def handle_event(self, event: pygame.event.Event) -> None:
        t = event.type
        if t == pygame.MOUSEMOTION:
            self.mouse = event.pos
            if self._press is not None and \
                    abs(event.pos[0] - self._press[0]) + abs(event.pos[1] - self._press[1]) > 5:
                self._press = None
            if self._drag is not None:
                dx, dy = event.pos[0] - self._drag[0], event.pos[1] - self._drag[1]
                if self._drag_moved or abs(dx) + abs(dy) > 5:
                    self._drag_moved = True
                    self.sc.view.pan(dx, dy)
                    self._drag = event.pos
            return
        if t == pygame.MOUSEBUTTONDOWN:
            self.mouse = event.pos
            self._update_hover()
            if event.button in (4, 5):
                return
            b = self._button_at(event.pos) if event.button == 1 else None
            if b is not None:
                self.sc.app.play("click")
                self.press(b.key)
                return
            if event.button == 1 and self.open_recap_at(event.pos):
                return
            if self.sc.card_rect.collidepoint(event.pos) and not self.sc.ai_turn:
                self.sc.base.on_side_click(event.pos, event.button)
                return
            if not self.sc.map_rect.collidepoint(event.pos) or \
                    self.sc.prompt_rect.collidepoint(event.pos):
                return
            self.sc.anim.skip()
            if event.button == 1:
                self._press, self._held = event.pos, 0.0
                used = False if self.sc.ai_turn else self.sc.mode.on_click(event.pos, 1)
                if not used:
                    self._drag, self._drag_button, self._drag_moved = event.pos, 1, False
            elif event.button in (2, 3):
                self._drag, self._drag_button, self._drag_moved = event.pos, event.button, False
            return
        if t == pygame.MOUSEBUTTONUP:
            self.mouse = event.pos
            self._update_hover()
            drag, moved, btn = self._drag, self._drag_moved, self._drag_button
            self._drag = None
            self._press = None
            if self._held_card:
                self._held_card = False          # the release that ends a hold on a unit
                return
            if event.button == 3 and drag is not None and not moved and btn == 3 and \
                    self.open_card_at(event.pos):
                return
            if self.sc.ai_turn:
                return
            if event.button == 1:
                self.sc.mode.on_release(event.pos, 1)
            elif event.button == 3 and drag is not None and not moved and btn == 3:
                self.sc.mode.on_click(event.pos, 3)
            return
        if t == pygame.MOUSEWHEEL:
            pos = self.mouse
            log_rect = self.sc.logp.rect.move(self.sc.panel_rect.topleft)
            if log_rect.collidepoint(pos):
                self.sc.logp.scroll = max(0, self.sc.logp.scroll + event.y * 2)
            elif self.sc.map_rect.collidepoint(pos):
                self.sc.view.zoom(1 if event.y > 0 else -1, pos)
            return
        if t == pygame.KEYDOWN:
            self._key(event.key, getattr(event, "mod", 0))
            return
        if t == pygame.KEYUP and event.key == pygame.K_l:
            self.los_from = None

    def _key(self, key: int, mod: int) -> None:
        if key == pygame.K_s and mod & pygame.KMOD_CTRL:
            self.sc.save()
            return
        if key == pygame.K_SPACE and self.sc.ai_turn:
            self.sc.ai.fast = True            # solo: the player wants the AI to hurry
            self.sc.note("The AI plays on without pauses.")
            return
        if key == pygame.K_p and not self.sc.ai_turn:
            self.sc.recap.open_last()           # the last recap of the other side's play
            return
        if key == pygame.K_o and not self.sc.ai_turn:
            sel = self.sc.state.units.get(self.sc.selected) if self.sc.selected else None
            if sel is not None and sel.side == self.sc.state.to_act:
                self.sc.standing.cycle(sel.uid)     # standing orders for defensive fire
            else:
                self.sc.note("Select one of your units, then O sets its defensive-fire order.")
            return
        if key == pygame.K_x:
            self.sc.threat.toggle()             # the threat map and the enemy's reach
            return
        if key == pygame.K_F1:
            self.sc.open_rules()                # the rules help ("Why?" for a refusal)
            return
        if key == pygame.K_g:
            self.sc.show_legend = not self.sc.show_legend      # the terrain legend
            return
        if key == pygame.K_l:
            sel = self.sc.state.units.get(self.sc.selected) if self.sc.selected else None
            self.los_from = sel.hex if sel is not None and sel.on_map else self.hover_hex
            return
        if self.sc.ai_turn and key in (pygame.K_SPACE, pygame.K_f):
            self.ai_speed_up()                  # solo practice: the AI plays faster (brief G)
            return
        if key == pygame.K_u and not self.sc.ai_turn and self.sc.demo is None and not self.sc.stack:
            self.sc.undo_all()
            return
        if key in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.sc.logp.scroll > 0 and \
                not self.sc.mode.modal:
            n = self.sc.hud.marked_line()       # the log scrolled back: Enter opens its recap
            if n is not None:
                self.sc.recap.open_event(self.sc.logp.refs[n])
                return
        if (not self.sc.ai_turn or self.sc.mode.modal) and self.sc.mode.on_key(key, mod):
            return
        if key == pygame.K_ESCAPE:
            # one press opens the in-battle menu, in every state of the battle screen
            # (a stacked question - a facing, a confirm, a choice - is cancelled instead)
            if isinstance(self.sc.mode, BattleMenuMode):
                self.sc.pop(self.sc.mode)
            elif self.sc.stack and self.sc.mode.name in ("facing", "confirm", "choice"):
                self.sc.stack.pop()
            else:
                self.sc.push(BattleMenuMode(self.sc))
            return
        pans = {pygame.K_LEFT: (PAN_STEP, 0), pygame.K_RIGHT: (-PAN_STEP, 0),
                pygame.K_UP: (0, PAN_STEP), pygame.K_DOWN: (0, -PAN_STEP)}
        if key in pans:
            self.sc.view.pan(*pans[key])
        elif key in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
            self.sc.view.zoom(1)
        elif key in (pygame.K_MINUS, pygame.K_KP_MINUS):
            self.sc.view.zoom(-1)
        elif key in (pygame.K_HOME, pygame.K_0):
            self.sc.view.home()

    def open_recap_at(self, pos: tuple[int, int]) -> bool:
        """A click on a line of the log: the recap of its phase (or its whole turn)."""
        if self.sc.mode.modal:
            return False
        n = self.sc.hud.log_line_at(pos)
        if n is None:
            return False
        self.sc.recap.open_event(self.sc.logp.refs[n])
        return True

    def open_card_at(self, pos) -> bool:
        """Right-click or hold on any unit (friend or enemy): its whole stat card."""
        if self.sc.mode.modal or not self.sc.view.rect.collidepoint(pos):
            return False
        uid = self.sc.view.unit_at(self.sc.state, pos)
        if uid is None:
            return False
        self.sc.push(CardMode(self.sc, uid))
        return True

    def ai_speed_up(self) -> None:
        """Solo practice: Space / F toggles the AI between a followable pace and fast."""
        ai = self.sc.ai
        if ai is None:
            return
        fast = getattr(ai, "fast", False)
        ai.fast = not fast
        if not fast:
            ai.normal_think = ai.think
            ai.think = 0.05
            ai.wait = min(ai.wait, 0.05)
            self.sc.anim.skip()
        else:
            ai.think = getattr(ai, "normal_think", 0.45)
        self.sc.hud.notice = (f"AI speed: {'fast' if ai.fast else 'normal'} (Space or F)", 2.0)

    def _update_hover(self) -> None:
        self.hover_hex = self.sc.view.hex_at(self.mouse) if not self.sc.prompt_rect.collidepoint(
            self.mouse) else None
        b = self._button_at(self.mouse)
        self.hover_button = b.key if b else None

