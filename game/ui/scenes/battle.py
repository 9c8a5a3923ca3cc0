"""The battle screen: a hotseat battle from the coin flip to the victory screen.

Layout: the map fills the window left of a side panel; a prompt bar with the
current mode's question and buttons sits at the bottom of the map.  Input
goes to the top input mode (``game.ui.battle.modes``), which asks the rules
what is legal and sends actions through :meth:`BattleScene.send`; the events
that come back are logged, shown in the dice tray and animated.

Keys: wheel / + - zoom, right- or left-drag / arrows pan, Home resets the
view, hold L for the line-of-sight tool, E or Enter ends the phase, Tab picks
the next unit, Ctrl+Z takes back the selected unit's move, U every dice-free
action of the phase, Ctrl+S saves, Esc cancels or leaves.
"""
from __future__ import annotations

import random
from typing import Any, Callable

import pygame

from game.rules.actions import Action, EndPhase, PassDefensiveFire
from game.rules.errors import IllegalAction
from game.rules.events import (CounterPlaced, CoverRolled, DiceRolled, GameEnded,
                               InitiativeRolled, MovementRoll, PhaseBegan, UnitDestroyed,
                               UnitMoved, UnitStopped)
from game.rules.hexes import hex_label, range_band
from game.rules.state import DefensiveFirePrompt, Phase
from game.ui import theme
from game.ui.battle.anim import Animator
from game.ui.battle.modes import CasualtyMode, ConfirmMode, Mode, mode_for
from game.ui.battle.panels import (SIDE_COLOURS, Button, CachedLog, draw_buttons, draw_side_header,
                                   draw_tooltip, draw_unit_box, layout_buttons)
from game.ui.battle.view import MapView, region_layer
from game.ui.map_render import BAND_COLORS, draw_los_line
from game.ui.scene import Scene
from game.ui.widgets import DiceTray, draw_panel, draw_text, wrap

__all__ = ["BattleScene", "new_battle_game"]

PROMPT_H = 84
HEADER_H = 146
PAN_STEP = 60


def event_colour(e: Any) -> tuple[int, int, int]:
    """The log colour of an event: losses red, phases and the end gold, stops amber."""
    if isinstance(e, UnitDestroyed):
        return theme.BAD
    if isinstance(e, (GameEnded, PhaseBegan)):
        return theme.ACCENT
    if isinstance(e, UnitStopped):
        return theme.WARN
    return theme.TEXT


def new_battle_game(setup: Any):
    """A fresh Game for a BattleSetup (or the saved one it carries)."""
    if getattr(setup, "saved_game", None) is not None:
        return setup.saved_game
    from game.data.maps import load_configuration
    from game.rules.dice import Dice
    from game.rules.engine import new_game
    bm = load_configuration(setup.config)
    seed = setup.seed if setup.seed is not None else random.randrange(1 << 30)
    options = dict(setup.options())
    options["config"] = setup.config
    return new_game(bm, {s: setup.cards(s) for s in ("Axis", "Allies")},
                    scenario=setup.scenario, dice=Dice(seed), options=options)


class BattleScene(Scene):
    def __init__(self, app: Any, setup: Any = None, *, game: Any = None) -> None:
        super().__init__(app)
        self.setup = setup
        self.game = game if game is not None else new_battle_game(setup)
        self.selected: str | None = None
        self.mouse: tuple[int, int] = (-1, -1)
        self.hover_hex = None
        self.hover_button: str | None = None
        self.buttons: dict[str, Button] = {}
        self.stack: list[Mode] = []
        self.base: Mode = Mode(self)
        self.hold_fire: tuple | None = None
        self.los_from = None
        self.notice: tuple[str, float] | None = None
        self.saves_note_given = False
        self.anim = Animator(self.anim_factor)
        self._cache: dict = {}
        self._cache_key = None
        self._panel: pygame.Surface | None = None
        self._panel_key = None
        self._prompt_key = None
        self._frame: pygame.Surface | None = None
        self._frame_key = None
        self._prompt_img: pygame.Surface | None = None
        self._drag: tuple[int, int] | None = None
        self._drag_button = 0
        self._drag_moved = False
        self._last_to_act = None
        self.demo = None            # --demo: the screen plays both sides
        self.ai = None              # solo practice: the AI plays setup.solo
        seed = getattr(setup, "seed", None)
        if setup is not None and getattr(setup, "demo_frames", None):
            from game.ui.battle.demo import DemoPlayer
            self.demo = DemoPlayer(self, random.Random(seed if seed is not None else 1))
        elif setup is not None and getattr(setup, "solo", None):
            from game.ui.battle.demo import DemoPlayer
            self.ai = DemoPlayer(self, random.Random(seed), sides=(setup.solo,), think=0.45,
                                 level=getattr(setup, "ai_level", None) or "veteran")
        elif setup is not None and getattr(setup, "remote", None) is not None:
            self.ai = setup.remote      # network play: the other machine's seat (game.net)
            self.ai.attach(self)
        self._build(app.size)
        for e in self.game.log[-40:]:           # a loaded game: its log, coloured as in play
            if e.text:
                self.logp.add(e.text, event_colour(e))
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
        # side panel pieces in panel-local coordinates
        card_h = max(160, min(440, h - 470))
        self.card_rect_local = pygame.Rect(10, HEADER_H, pw - 20, card_h)
        self.card_rect = self.card_rect_local.move(self.panel_rect.topleft)
        dice_top = self.card_rect_local.bottom + 8
        self.dice = getattr(self, "dice", None) or DiceTray(pygame.Rect(0, 0, 1, 1), 26,
                                                            self.anim_factor)
        self.dice.rect = pygame.Rect(10, dice_top, pw - 20, 86)
        log_top = self.dice.rect.bottom + 8
        lines = getattr(getattr(self, "logp", None), "lines", [])
        self.logp = CachedLog(pygame.Rect(10, log_top, pw - 20, h - log_top - 34), 16, limit=300)
        self.logp.lines = lines
        self._panel = None

    def resize(self, size: tuple[int, int]) -> None:
        self._build(size)

    def anim_factor(self) -> float:
        if self.demo is not None:
            return 0.35
        return self.app.settings.animation_factor

    @property
    def state(self):
        return self.game.state

    @property
    def version(self) -> tuple:
        return (id(self.game.state), self.game.state.version)

    @property
    def ai_turn(self) -> bool:
        """Solo practice: the AI must act now (the player only watches)."""
        return (self.ai is not None and self.state.to_act in self.ai.sides
                and not self.stack)

    @property
    def mode(self) -> Mode:
        return self.stack[-1] if self.stack else self.base

    # --- small caches keyed on the state version -----------------------------------------------
    def cached(self, key: Any, make: Callable[[], Any]) -> Any:
        if self._cache_key != self.version:
            self._cache.clear()
            self._cache_key = self.version
        if key not in self._cache:
            self._cache[key] = make()
        return self._cache[key]

    def legal(self) -> list[Action]:
        return self.cached("legal", self.game.legal_actions)

    # --- modes -----------------------------------------------------------------------------------
    def push(self, mode: Mode) -> None:
        self.stack.append(mode)

    def pop(self, mode: Mode | None = None) -> None:
        if mode is None:
            if self.stack:
                self.stack.pop()
        elif mode in self.stack:
            self.stack.remove(mode)

    def refresh(self) -> None:
        """Pick the base mode for the current state (and drop stale stacked modes)."""
        new = mode_for(self)
        if not new.same_as(self.base):
            self.base = new
        p = self.state.pending
        if isinstance(p, DefensiveFirePrompt) and p.stage == "enter" and \
                self.hold_fire == (p.mover, p.to_hex):
            self.hold_fire = None
            self.send(PassDefensiveFire(self.state.to_act))
            return
        if any(isinstance(m, CasualtyMode) for m in self.stack):
            return          # the next turn's banner waits until the casualty phase is seen
        to_act = self.state.to_act
        ai_side = self.ai is not None and to_act in self.ai.sides
        if to_act and to_act != self._last_to_act and self.demo is None and not ai_side:
            what = "defensive fire" if isinstance(p, DefensiveFirePrompt) else "your turn"
            self.anim.show_banner(f"{theme.SIDE_LABEL[to_act]} player: {what}",
                                  SIDE_COLOURS.get(to_act, theme.ACCENT))
        self._last_to_act = to_act

    # --- actions -------------------------------------------------------------------------------
    def send(self, action: Action) -> bool:
        """Apply an action; a refusal is logged in the rules' words."""
        forward = getattr(self.ai, "forward", None)    # network play: to the other machine
        taken = forward(action) if forward is not None else None
        if taken is not None:
            return taken
        st = self.state
        where = {uid: u.hex for uid, u in st.units.items()}
        turn = st.turn
        before = (st.first_player, st.second_player, dict(st.initiative_rolls or {}))
        try:
            events = self.game.apply(action)
        except IllegalAction as exc:
            self.note(str(exc))
            return False
        self.app.play("click")
        self._show_events(events, where, turn, before)
        self.refresh()
        return True

    def _show_events(self, events: list, where: dict, turn: int, before: Any = None) -> None:
        """Log, roll and animate ``events``.  From a casualty phase's beginning on they
        go to a CasualtyMode that shows them step by step (and the next turn's after)."""
        st = self.state
        casualty_at = next((i for i, e in enumerate(events) if isinstance(e, PhaseBegan)
                            and e.phase == Phase.CASUALTY.value), None)
        if casualty_at is not None:
            for m in self.stack:
                if isinstance(m, CasualtyMode):
                    m.flush()
        shown = events if casualty_at is None else events[:casualty_at + 1]
        for i, e in enumerate(shown):
            if e.text:
                self.logp.add(e.text, event_colour(e))
            name = lambda uid: st.units[uid].name if uid in st.units else uid  # noqa: E731
            if isinstance(e, DiceRolled):
                self.dice.roll(e.dice, e.need, f"{name(e.uid)}")
                self.app.play("dice")
            elif isinstance(e, CoverRolled):
                self.dice.label += f" - cover {e.die} ({'saved' if e.ok else 'no'})"
            elif isinstance(e, MovementRoll):
                self.dice.roll([e.die], e.needed, f"{name(e.uid)}: {e.roll_kind} roll")
            elif isinstance(e, InitiativeRolled):
                r = e.rolls
                self.dice.roll(list(r["Axis"][:2]) + list(r["Allies"][:2]), None,
                               f"Initiative: Axis {sum(r['Axis'])}, Allies {sum(r['Allies'])}")
            elif isinstance(e, UnitMoved):
                self.anim.move(e.uid, where.get(e.uid), e.path)
            elif isinstance(e, CounterPlaced):
                u = st.units.get(e.target)
                self.anim.flash(u.hex if u else None, (230, 230, 230), "hit!")
            elif isinstance(e, PhaseBegan):
                self.autosave()
        if casualty_at is not None:
            self.stack.clear()
            self.push(CasualtyMode(self, events[casualty_at + 1:], where, turn,
                                   st.objective_controller(), before))

    def note(self, text: str) -> None:
        self.logp.add(text, theme.WARN)
        self.notice = (text, 4.0)

    # --- saving --------------------------------------------------------------------------------
    def _saves(self):
        try:
            from game import saves
        except ImportError:
            return None
        return saves

    def save(self) -> None:
        if hasattr(self.ai, "save_net"):              # network play keeps its own record
            self.note(self.ai.save_net())
            return
        saves = self._saves()
        if saves is None or not hasattr(saves, "save_game"):
            self.note("Saving is not available in this version yet.")
            return
        try:
            path = getattr(self.setup, "save_path", None) if self.setup is not None else None
            if path is None and hasattr(saves, "default_save_path"):
                path = saves.default_save_path(self.game)
            if path is None:
                from game.ui.settings import data_dir
                folder = data_dir() / "saves"
                folder.mkdir(parents=True, exist_ok=True)
                path = folder / "hotseat.json"
            out = saves.save_game(self.game, path)
            self.note(f"Game saved: {out or path}")
        except Exception as exc:          # a full disk must not end the battle
            self.note(f"Saving failed: {exc}")

    def autosave(self) -> None:
        if self.demo is not None:
            return
        saves = self._saves()
        if saves is None or not hasattr(saves, "autosave"):
            if not self.saves_note_given:
                self.saves_note_given = True
                self.logp.add("(autosave is not available in this version yet)", theme.TEXT_DIM)
            return
        try:
            saves.autosave(self.game)
        except Exception as exc:
            self.logp.add(f"Autosave failed: {exc}", theme.WARN)

    # --- leaving ----------------------------------------------------------------------------------
    def show_victory(self) -> None:
        from game.ui.scenes.victory import VictoryScene
        self.next_scene = VictoryScene(self.app, self.game, self.setup)

    def to_menu(self) -> None:
        self.autosave()
        self.next_scene = self.app.menu_scene()

    # --- input -------------------------------------------------------------------------------
    def _button_at(self, pos) -> Button | None:
        for b in self.buttons.values():
            if b.enabled and b.rect.collidepoint(pos):
                return b
        return None

    def press(self, key: str) -> None:
        b = self.buttons.get(key)
        if b is not None and b.enabled:
            self.anim.skip()
            self.mode.on_button(key)

    def handle_event(self, event: pygame.event.Event) -> None:
        t = event.type
        if t == pygame.MOUSEMOTION:
            self.mouse = event.pos
            if self._drag is not None:
                dx, dy = event.pos[0] - self._drag[0], event.pos[1] - self._drag[1]
                if self._drag_moved or abs(dx) + abs(dy) > 5:
                    self._drag_moved = True
                    self.view.pan(dx, dy)
                    self._drag = event.pos
            return
        if t == pygame.MOUSEBUTTONDOWN:
            self.mouse = event.pos
            self._update_hover()
            if event.button in (4, 5):
                return
            b = self._button_at(event.pos) if event.button == 1 else None
            if b is not None:
                self.app.play("click")
                self.press(b.key)
                return
            if self.card_rect.collidepoint(event.pos) and not self.ai_turn:
                self.base.on_side_click(event.pos, event.button)
                return
            if not self.map_rect.collidepoint(event.pos) or \
                    self.prompt_rect.collidepoint(event.pos):
                return
            self.anim.skip()
            if event.button == 1:
                used = False if self.ai_turn else self.mode.on_click(event.pos, 1)
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
            if self.ai_turn:
                return
            if event.button == 1:
                self.mode.on_release(event.pos, 1)
            elif event.button == 3 and drag is not None and not moved and btn == 3:
                self.mode.on_click(event.pos, 3)
            return
        if t == pygame.MOUSEWHEEL:
            pos = self.mouse
            log_rect = self.logp.rect.move(self.panel_rect.topleft)
            if log_rect.collidepoint(pos):
                self.logp.scroll = max(0, self.logp.scroll + event.y * 2)
            elif self.map_rect.collidepoint(pos):
                self.view.zoom(1 if event.y > 0 else -1, pos)
            return
        if t == pygame.KEYDOWN:
            self._key(event.key, getattr(event, "mod", 0))
            return
        if t == pygame.KEYUP and event.key == pygame.K_l:
            self.los_from = None

    def _key(self, key: int, mod: int) -> None:
        if key == pygame.K_s and mod & pygame.KMOD_CTRL:
            self.save()
            return
        if key == pygame.K_SPACE and self.ai_turn:
            self.ai.fast = True            # solo: the player wants the AI to hurry
            self.note("The AI plays on without pauses.")
            return
        if key == pygame.K_l:
            sel = self.state.units.get(self.selected) if self.selected else None
            self.los_from = sel.hex if sel is not None and sel.on_map else self.hover_hex
            return
        if self.ai_turn and key in (pygame.K_SPACE, pygame.K_f):
            self.ai_speed_up()                  # solo practice: the AI plays faster (brief G)
            return
        if key == pygame.K_u and not self.ai_turn and self.demo is None and not self.stack:
            self.undo_all()
            return
        if not self.ai_turn and self.mode.on_key(key, mod):
            return
        if key == pygame.K_ESCAPE:
            if self.stack:
                self.stack.pop()
            elif self.selected is not None:
                self.selected = None
            else:
                self.push(ConfirmMode(self, "Leave the battle and go back to the main menu?",
                                      self.to_menu, yes="Leave", no="Stay"))
            return
        pans = {pygame.K_LEFT: (PAN_STEP, 0), pygame.K_RIGHT: (-PAN_STEP, 0),
                pygame.K_UP: (0, PAN_STEP), pygame.K_DOWN: (0, -PAN_STEP)}
        if key in pans:
            self.view.pan(*pans[key])
        elif key in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
            self.view.zoom(1)
        elif key in (pygame.K_MINUS, pygame.K_KP_MINUS):
            self.view.zoom(-1)
        elif key in (pygame.K_HOME, pygame.K_0):
            self.view.home()

    def undo_all(self) -> list[Action]:
        """U: take back every dice-free action of this phase (game.rules.undo; the
        selected unit alone: Ctrl+Z)."""
        try:
            acts = self.game.undoable()
        except Exception:                 # a game built by hand has no start to replay
            acts = []
        side = self.state.to_act
        if not acts or any(a.side != side for a in acts):
            self.note("Nothing to take back: rolls, defensive fire and ended phases are final.")
            return []
        taken = self.game.undo()
        self.selected = None
        self.logp.add(f"{len(taken)} action(s) of this phase taken back.", theme.TEXT_DIM)
        self.refresh()
        return taken

    def ai_speed_up(self) -> None:
        """Solo practice: Space / F toggles the AI between a followable pace and fast."""
        ai = self.ai
        if ai is None:
            return
        fast = getattr(ai, "fast", False)
        ai.fast = not fast
        if not fast:
            ai.normal_think = ai.think
            ai.think = 0.05
            ai.wait = min(ai.wait, 0.05)
            self.anim.skip()
        else:
            ai.think = getattr(ai, "normal_think", 0.45)
        self.notice = (f"AI speed: {'fast' if ai.fast else 'normal'} (Space or F)", 2.0)

    def _update_hover(self) -> None:
        self.hover_hex = self.view.hex_at(self.mouse) if not self.prompt_rect.collidepoint(
            self.mouse) else None
        b = self._button_at(self.mouse)
        self.hover_button = b.key if b else None

    # --- frame ----------------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        self._update_hover()
        self.view.update(dt)
        self.anim.update(dt)
        self.dice.update(dt)
        self.mode.update(dt)
        if self.notice is not None:
            text, left = self.notice
            self.notice = (text, left - dt) if left - dt > 0 else None
        if self.demo is not None:
            self.demo.update(dt)
        if self.ai is not None:
            self.ai.update(dt)
        # buttons of the current mode, laid out in the prompt bar
        buttons = [] if self.ai_turn else self.mode.buttons()
        area = pygame.Rect(self.prompt_rect.x + 12, self.prompt_rect.bottom - 46,
                           self.prompt_rect.w - 24, 40)
        layout_buttons(buttons, area, align="right")
        self.buttons = {b.key: b for b in buttons}

    def draw(self, surface: pygame.Surface) -> None:
        clip = surface.get_clip()
        surface.set_clip(self.map_rect)
        modes = [self.base] + self.stack
        moving = self.anim.positions(self.view.layout)
        # the map, the state-only overlays and the units change rarely: keep them as
        # one picture and rebuild it only when something they show has changed
        key = (self.version, self.view.hex_size, self.view.offset, self.view.zoom_waiting,
               self.selected, self.los_from, tuple(m.under_key() for m in modes),
               tuple(type(m) for m in modes), self.map_rect.size)
        if moving:
            self._frame_key = None
            self._draw_board(surface, modes, moving)
        else:
            if key != self._frame_key or self._frame is None:
                if self._frame is None or self._frame.get_size() != self.map_rect.size:
                    self._frame = pygame.Surface(self.map_rect.size).convert()
                self._frame.set_clip(self.view.rect)
                self._draw_board(self._frame, modes, {})
                self._frame_key = key
            surface.blit(self._frame, self.map_rect.topleft)
        self.anim.draw(surface, self.view.layout, self.view.rect)
        surface.set_clip(self.view.rect)
        modes[-1].draw_over(surface)
        if self.los_from is not None:
            self._draw_los_hover(surface)
        surface.set_clip(self.map_rect)
        self._draw_prompt(surface)
        surface.set_clip(clip)
        self._draw_panel(surface)
        for m in modes:
            m.draw_side(surface, self.card_rect)

    def _draw_board(self, surface: pygame.Surface, modes: list, moving: dict) -> None:
        self.view.draw_map(surface)
        for m in modes:
            m.draw_under(surface)
        if self.los_from is not None:
            self._draw_los(surface)
        active = self.state.active_side
        self.view.draw_units(surface, self.state, selected=self.selected, moving=moving,
                             dim=lambda u: u.acted and u.side == active)

    def _draw_prompt(self, surface: pygame.Surface) -> None:
        r = self.prompt_rect
        text = ((getattr(self.ai, "waiting_line", None) or
                 f"The AI is playing the {theme.SIDE_LABEL[self.state.to_act]} side...")
                if self.ai_turn else self.mode.prompt())
        to_act = self.state.to_act
        col = SIDE_COLOURS.get(to_act, theme.TEXT)
        hint_w = r.w - 24 - sum(b.rect.w + 8 for b in self.buttons.values())
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
                short = wrap(note, theme.font(16), hint_w - 10)
                draw_text(img, short[0], (12, r.h - 32), 16, theme.WARN)
            elif hint_w > 200 and len(lines) < 2:
                draw_text(img, "wheel zoom - drag pan - hold L: line of sight - Ctrl+S save",
                          (12, r.h - 30), 15, theme.TEXT_DIM)
            self._prompt_img = img
        surface.blit(self._prompt_img, r.topleft)
        draw_buttons(surface, list(self.buttons.values()), self.mouse)

    def shown_state(self) -> Any:
        """What the side panel's header shows: the state, or while the casualty phase
        is played out on the map, the turn that is ending."""
        for m in reversed(self.stack):
            hs = getattr(m, "header_state", None)
            if hs is not None:
                return hs
        return self.state

    def army_summary(self, side: str, points: int) -> str:
        """One side's line in the side panel when no unit is selected."""
        st = self.state
        units = [u for u in st.units_of(side) if not u.destroyed]
        if not st.turn:                  # setup: the armies are not on the map yet
            placed = sum(1 for u in units if u.hex is not None)
            army = sum(u.card.cost for u in units)
            return f"{side}: {len(units)} units, {army} points; {placed} placed"
        lost = sum(1 for u in st.units_of(side) if u.destroyed)
        return f"{side}: {len(st.live_units(side))} units on the map, {points} points, {lost} lost"

    def _draw_panel(self, surface: pygame.Surface) -> None:
        st = self.state
        shown = self.shown_state()
        key = (self.version, id(shown), self.selected, len(self.logp.lines), self.logp.scroll,
               self.panel_rect.size, tuple(self.dice.dice), self.dice.need, self.dice.label,
               self.dice.rolling and self.app.frames)
        if self._panel is None or key != self._panel_key:
            self._panel_key = key
            p = self._panel
            if p is None or p.get_size() != self.panel_rect.size:
                p = self._panel = pygame.Surface(self.panel_rect.size)
            p.fill(theme.BG)
            pygame.draw.line(p, theme.PANEL_EDGE, (0, 0), (0, p.get_height()))
            y = draw_side_header(p, pygame.Rect(0, 0, p.get_width(), HEADER_H), shown)
            ctrl = st.objective_controller()
            if st.turn:
                obj = f"Objective: held by {ctrl}" if ctrl else "Objective: nobody holds it"
                draw_text(p, obj, (12, min(y, HEADER_H - 20)), 17, theme.TEXT_DIM)
            sel = st.units.get(self.selected) if self.selected else None
            cr = self.card_rect_local
            if sel is not None:
                draw_unit_box(p, cr, sel, st)
            else:
                draw_panel(p, cr, theme.BG_DARK)
                draw_text(p, "Click a unit to see its stat card, counters and state.",
                          (cr.x + 12, cr.y + 12), 17, theme.TEXT_DIM, width=cr.w - 24)
                pts = {s: self.game.victory_points(s) for s in ("Axis", "Allies")}
                yy = cr.y + 60
                for s in ("Axis", "Allies"):
                    draw_text(p, self.army_summary(s, pts[s]), (cr.x + 12, yy), 17,
                              SIDE_COLOURS[s], width=cr.w - 24)
                    yy += 40
            self.dice.draw(p)
            self.logp.draw(p)
            hint = ("E end phase - Tab next unit - T turn - Esc menu" if st.turn else
                    "Enter done - Backspace take back - Esc menu")
            draw_text(p, hint, (12, p.get_height() - 24), 15, theme.TEXT_DIM)
        surface.blit(self._panel, self.panel_rect.topleft)

    # --- line of sight tool -----------------------------------------------------------------------
    def _draw_los(self, surface: pygame.Surface) -> None:
        src = self.los_from
        vis = self.game.visible_from(src)

        def fill(h):
            band = range_band(src.distance(h))
            return BAND_COLORS.get(band, BAND_COLORS[None]) + (95,)
        self.view.blit_layer(surface, ("los", src), lambda lay: region_layer(lay, vis, fill))

    def _draw_los_hover(self, surface: pygame.Surface) -> None:
        src, h = self.los_from, self.hover_hex
        if src is None or h is None or h == src:
            return
        lay = self.view.layout
        los = self.state.battle_map.los
        d = src.distance(h)
        band = range_band(d)
        if los.visible(src, h):
            draw_los_line(surface, lay, src, h, BAND_COLORS.get(band, (220, 220, 220)))
            text = f"{hex_label(h)}: in sight, " + (f"{band} range ({d})" if band else
                                                    f"out of range ({d})")
            draw_tooltip(surface, self.mouse, [text], self.map_rect)
        else:
            blk = los.blocker(src, h)
            draw_los_line(surface, lay, src, h, (255, 255, 255), blocked_at=blk)
            what = ""
            if blk is not None:
                terr = self.state.battle_map.terrain.get(blk)
                what = f" by {getattr(terr, 'value', terr)} in {hex_label(blk)}"
            draw_tooltip(surface, self.mouse, [f"{hex_label(h)}: out of sight, blocked{what}"],
                         self.map_rect, theme.WARN)
