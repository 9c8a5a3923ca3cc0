"""The battle screen's HUD: the prompt bar (the top mode's question, its buttons, a
note), the side panel (turn and phase, the objective, the selected unit's card,
the dice tray, the log) and the presentation of what happened (the events the
rules send back: logged, rolled in the dice tray, animated).  It draws; it
decides nothing."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from game.rules.events import (CounterPlaced, CoverRolled, DiceRolled, GameEnded,
                               InitiativeRolled, MovementRoll, PhaseBegan, UnitDestroyed,
                               UnitMoved, UnitStopped)
from game.rules.hexes import hex_label
from game.rules.queries import plain_text
from game.rules.state import Phase
from game.ui import theme
from game.ui.battle.panels import (SIDE_COLOURS, CachedLog, draw_buttons, draw_side_header,
                                   draw_tooltip, draw_unit_box)
from game.ui.widgets import DiceTray, draw_panel, draw_text, fit, wrap

if TYPE_CHECKING:
    from game.ui.scenes.battle import BattleScene

__all__ = ["BattleHUD", "UnitHexes", "event_colour", "PROMPT_H", "HEADER_H"]

PROMPT_H = 92              # two lines of prompt above the row of buttons
HEADER_H = 146


def event_colour(e: Any) -> tuple[int, int, int]:
    """The log colour of an event: losses red, phases and the end gold, stops amber."""
    if isinstance(e, UnitDestroyed):
        return theme.BAD
    if isinstance(e, (GameEnded, PhaseBegan)):
        return theme.ACCENT
    if isinstance(e, UnitStopped):
        return theme.WARN
    return theme.TEXT


class UnitHexes:
    """``get(uid)``: where a unit stands (or stood when destroyed), read from the state."""

    def __init__(self, state: Any) -> None:
        self.state = state

    def get(self, uid: str, default: Any = None) -> Any:
        u = self.state.units.get(uid)
        return u.hex if u is not None else default


class BattleHUD:
    prompt_h = PROMPT_H

    def __init__(self, scene: BattleScene) -> None:
        self.sc = scene
        self._last_to_act: str | None = None
        self.notice: tuple[str, float] | None = None
        self.dice = DiceTray(pygame.Rect(0, 0, 1, 1), 26, scene.anim_factor)
        self.logp = CachedLog(pygame.Rect(0, 0, 1, 1), 16, limit=300)
        self._panel: pygame.Surface | None = None
        self._panel_key: Any = None
        self._prompt_key: Any = None
        self._prompt_img: pygame.Surface | None = None

    def build(self, size: tuple[int, int]) -> None:
        """Lay out the side panel's pieces (panel-local coordinates) for ``size``."""
        sc = self.sc
        w, h = size
        pw = sc.panel_rect.w
        card_h = max(160, min(440, h - 470))
        sc.card_rect_local = pygame.Rect(10, HEADER_H, pw - 20, card_h)
        sc.card_rect = sc.card_rect_local.move(sc.panel_rect.topleft)
        self.dice.rect = pygame.Rect(10, sc.card_rect_local.bottom + 8, pw - 20, 86)
        log_top = self.dice.rect.bottom + 8
        self.logp.rect = pygame.Rect(10, log_top, pw - 20, h - log_top - 34)
        self._panel = None

    def invalidate(self) -> None:
        self._panel = None

    def seat_banner(self, to_act: str | None, show: bool = True) -> None:
        """The banner when the seat changes ("Allies player: your turn"); ``show`` False:
        the seat is not played on this screen (no banner, and any banner still up goes)."""
        if to_act and to_act != self._last_to_act and show:
            from game.rules.state import AntiairPrompt, DefensiveFirePrompt
            p = self.sc.state.pending
            what = "defensive fire" if isinstance(p, DefensiveFirePrompt) \
                else "Antiair fire" if isinstance(p, AntiairPrompt) else "your turn"
            self.sc.anim.show_banner(f"{theme.SIDE_LABEL[to_act]} player: {what}",
                                     SIDE_COLOURS.get(to_act, theme.ACCENT))
        elif to_act != self._last_to_act:
            # the seat went to a side this screen doesn't play (the AI, the other machine)
            # or to no one: a banner still up for the last seat would tell the wrong player
            self.sc.anim.banner = None
        self._last_to_act = to_act

    def log_line_at(self, pos: tuple[int, int]) -> int | None:
        """The log line under ``pos`` (screen coordinates) that tells an event."""
        n = self.logp.line_at((pos[0] - self.sc.panel_rect.x, pos[1] - self.sc.panel_rect.y))
        return n if n is not None and self.logp.refs[n] is not None else None

    def marked_line(self) -> int | None:
        """The log line a click or Enter would open the recap of: the one under the
        mouse, else (the log scrolled back) the oldest one in view."""
        n = self.log_line_at(self.sc.mouse)
        if n is None and self.logp.scroll > 0:
            n = self.logp.first_told_in_view()
        return n

    def update(self, dt: float) -> None:
        self.logp.marked = self.marked_line()
        self.dice.update(dt)
        if self.notice is not None:
            text, left = self.notice
            self.notice = (text, left - dt) if left - dt > 0 else None

    def note(self, text: str) -> None:
        """A message for the player (a refusal in the rules' words, a save...)."""
        text = plain_text(text)
        self.logp.add(text, theme.WARN)
        self.notice = (text, 4.0)

    def log_history(self, events: list) -> None:
        for e in events:                        # a loaded game: its log, coloured as in play
            if e.text:
                self.logp.add(plain_text(e.text), event_colour(e), ref=e)

    # --- what happened ------------------------------------------------------------------------
    def show_events(self, events: list, *_: Any) -> None:
        """Log, roll and animate ``events``.  From a casualty phase's beginning on they
        go to a CasualtyMode that shows them step by step (and the next turn's after)."""
        from game.ui.battle.modes import CasualtyMode
        st = self.sc.state
        casualty_at = next((i for i, e in enumerate(events) if isinstance(e, PhaseBegan)
                            and e.phase == Phase.CASUALTY.value), None)
        if casualty_at is not None:
            for m in self.sc.stack:
                if isinstance(m, CasualtyMode):
                    m.flush()
        shown = events if casualty_at is None else events[:casualty_at + 1]
        for i, e in enumerate(shown):
            self.sc.controller.learn(e)
            if e.text:
                self.logp.add(plain_text(e.text), event_colour(e), ref=e)
            name = lambda uid: st.units[uid].name if uid in st.units else "a unit"  # noqa: E731
            if isinstance(e, DiceRolled):
                self.dice.roll(e.dice, e.need, f"{name(e.uid)}")
                self.sc.app.play("dice")
            elif isinstance(e, CoverRolled):
                self.dice.label += f" - cover {e.die} ({'saved' if e.ok else 'no'})"
            elif isinstance(e, MovementRoll):
                self.dice.roll([e.die], e.needed, f"{name(e.uid)}: {e.roll_kind} roll needs "
                                                  f"{e.needed}+: {'made it' if e.ok else 'failed'}")
            elif isinstance(e, InitiativeRolled):
                r = e.rolls
                self.dice.roll(list(r["Axis"][:2]) + list(r["Allies"][:2]), None,
                               f"Initiative: Axis {sum(r['Axis'])}, Allies {sum(r['Allies'])}")
            elif isinstance(e, UnitMoved):
                self.sc.anim.move(e.uid, e.start, e.path)
            elif isinstance(e, CounterPlaced):
                u = st.units.get(e.target)
                self.sc.anim.flash(u.hex if u else None, (230, 230, 230), "hit!")
            elif isinstance(e, PhaseBegan):
                self.sc.autosave()
        if casualty_at is not None:
            self.sc.stack.clear()
            turn = events[casualty_at].turn
            self.sc.push(CasualtyMode(self.sc, events[casualty_at + 1:], UnitHexes(st), turn,
                                      st.objective_controller(), self.sc.controller.turn_shown))

    # --- drawing --------------------------------------------------------------------------------
    def _prompt_text(self) -> str:
        """The top mode's question, or while the AI (or a network seat) acts, what it does."""
        if not self.sc.ai_turn:
            return self.sc.mode.prompt()
        waiting = getattr(self.sc.ai, "waiting_line", None)
        return waiting or f"The AI is playing the {theme.SIDE_LABEL[self.sc.state.to_act]} side..."

    def draw_prompt(self, surface: pygame.Surface) -> None:
        r = self.sc.prompt_rect
        text = self._prompt_text()
        to_act = self.sc.state.to_act
        col = SIDE_COLOURS.get(to_act, theme.TEXT)
        hint_w = r.w - 24 - sum(b.rect.w + 8 for b in self.sc.buttons.values())
        note = self.notice[0] if self.notice is not None else None
        key = (text, col, note, hint_w, r.size)
        if key != self._prompt_key:
            self._prompt_key = key
            img = pygame.Surface(r.size, pygame.SRCALPHA)
            img.fill((20, 22, 20, 235))
            pygame.draw.line(img, theme.PANEL_EDGE, (0, 0), (r.w, 0))
            f = theme.font(19, bold=True)
            lines = wrap(text, f, r.w - 24)
            for i, line in enumerate(lines[:2]):
                img.blit(f.render(line, True, col), (12, 6 + 20 * i))
            if note is not None and hint_w > 120:
                draw_text(img, self.notice_line(hint_w - 10), (12, r.h - 32), 16, theme.WARN)
            elif hint_w > 200 and len(lines) < 2:
                draw_text(img, "wheel zoom - drag pan - hold L: line of sight - Ctrl+S save",
                          (12, r.h - 30), 15, theme.TEXT_DIM)
            self._prompt_img = img
        surface.blit(self._prompt_img, r.topleft)
        draw_buttons(surface, list(self.sc.buttons.values()), self.sc.mouse)
        for b in self.sc.buttons.values():
            if b.tip and b.rect.collidepoint(self.sc.mouse):
                draw_tooltip(surface, (b.rect.x, b.rect.y - 30), [b.tip], self.sc.map_rect,
                             theme.WARN if not b.enabled else theme.TEXT)

    def notice_line(self, width: int) -> str:
        """The notice as one line of ``width`` pixels: cut with an ellipsis when it is
        longer (the log keeps it whole), and "F1: why?" kept when a rule is behind it."""
        if self.notice is None:
            return ""
        from game.ui.help.links import rule_for          # issue 17: the rule behind it
        note = self.notice[0]
        f = theme.font(16)
        why = "  F1: why?" if rule_for(note) else ""
        return fit(note, f, width - f.size(why)[0]) + why

    def shown_state(self) -> Any:
        """What the side panel's header shows: the state, or while the casualty phase
        is played out on the map, the turn that is ending."""
        for m in reversed(self.sc.stack):
            hs = getattr(m, "header_state", None)
            if hs is not None:
                return hs
        return self.sc.state

    def army_summary(self, side: str, points: int) -> str:
        """One side's line in the side panel when no unit is selected."""
        st = self.sc.state
        units = [u for u in st.units_of(side) if not u.destroyed]
        if not st.turn:                  # setup: the armies are not on the map yet
            placed = sum(1 for u in units if u.hex is not None)
            army = sum(u.card.cost for u in units)
            return f"{side}: {_units(len(units))}, {army} points; {placed} placed"
        lost = sum(1 for u in st.units_of(side) if u.destroyed)
        return f"{side}: {_units(len(st.live_units(side)))} on the map, {points} points, {lost} lost"

    def draw_panel(self, surface: pygame.Surface) -> None:
        st = self.sc.state
        shown = self.shown_state()
        key = (self.sc.version, id(shown), self.sc.selected, len(self.logp.lines), self.logp.scroll,
               self.logp.marked,
               self.sc.panel_rect.size, tuple(self.dice.dice), self.dice.need, self.dice.label,
               self.dice.rolling and self.sc.app.frames)
        if self._panel is None or key != self._panel_key:
            self._panel_key = key
            p = self._panel
            if p is None or p.get_size() != self.sc.panel_rect.size:
                p = self._panel = pygame.Surface(self.sc.panel_rect.size)
            p.fill(theme.BG)
            pygame.draw.line(p, theme.PANEL_EDGE, (0, 0), (0, p.get_height()))
            y = draw_side_header(p, pygame.Rect(0, 0, p.get_width(), HEADER_H), shown)
            ctrl = st.objective_controller()
            if st.turn:
                where = hex_label(st.objective) if st.objective is not None else "?"
                obj = (f"Objective {where}: held by {ctrl}" if ctrl else
                       f"Objective {where}: nobody holds it")
                draw_text(p, obj, (12, min(y, HEADER_H - 20)), 17, theme.TEXT_DIM)
            sel = st.units.get(self.sc.selected) if self.sc.selected else None
            cr = self.sc.card_rect_local
            if sel is not None:
                draw_unit_box(p, cr, sel, st)
            else:
                draw_panel(p, cr, theme.BG_DARK)
                draw_text(p, "Click a unit to see its stat card, counters and state.",
                          (cr.x + 12, cr.y + 12), 17, theme.TEXT_DIM, width=cr.w - 24)
                pts = {s: self.sc.game.victory_points(s) for s in ("Axis", "Allies")}
                yy = cr.y + 60
                for s in ("Axis", "Allies"):
                    draw_text(p, self.army_summary(s, pts[s]), (cr.x + 12, yy), 17,
                              SIDE_COLOURS[s], width=cr.w - 24)
                    yy += 40
            self.dice.draw(p)
            self.logp.draw(p)
            hint = ("E end phase - Tab next unit - T turn - Esc menu" if st.turn else
                    "Enter done - Backspace take back - Esc menu")
            if self.logp.scroll > 0:
                hint = "Log: Enter or a click opens the recap of the marked line"
            elif self.logp.marked is not None:
                hint = "Click: the recap of this line's phase"
            draw_text(p, hint, (12, p.get_height() - 24), 15, theme.TEXT_DIM)
        surface.blit(self._panel, self.sc.panel_rect.topleft)


def _units(n: int) -> str:
    """"1 unit", "3 units"."""
    return f"{n} unit" if n == 1 else f"{n} units"
