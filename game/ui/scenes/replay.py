"""The replay viewer: a saved game played back step by step.

Open a save (``ReplayScene.from_file``, the menu's "Watch a replay", or
``python main.py --replay SAVE``); step forward and back by action, by phase
and by turn; the side panel shows the position's turn and phase, the action,
its log lines and the dice of each roll.  "Continue from here" starts a new
hotseat game from the shown position (the original save is left alone).

Keys: Left / Right one action, Shift+Left / Shift+Right one phase,
Ctrl+Left / Ctrl+Right (or Page Up / Page Down) one turn, Home / End the start
and the end, C continue from here, Esc back to the menu.  Wheel zooms, drag pans.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame

from game.rules.actions import describe_action
from game.ui import theme
from game.ui.battle.panels import Button, draw_buttons, draw_side_header, layout_buttons
from game.ui.battle.view import MapView
from game.ui.scene import Scene
from game.ui.widgets import draw_die, draw_panel, draw_text, fit, wrap

__all__ = ["ReplayScene", "open_replay_scene"]

PANEL_W = 380
BAR_H = 64


def open_replay_scene(app: Any, path: str | Path) -> tuple["ReplayScene | None", str | None]:
    """(scene, None), or (None, the one message why the save can't be watched)."""
    from game.rules.errors import DataError
    from game.saves import Replay
    try:
        rep = Replay.open(path)
    except DataError as exc:
        return None, str(exc)
    return ReplayScene(app, rep, path=str(path)), None


class ReplayScene(Scene):
    def __init__(self, app: Any, replay: Any, *, path: str | None = None) -> None:
        super().__init__(app)
        self.replay = replay
        self.path = path
        self.mouse = (-1, -1)
        self.message = replay.problem or ""
        self._drag: tuple[int, int] | None = None
        self.buttons: list[Button] = [
            Button("turn_back", "<< Turn"), Button("phase_back", "< Phase"),
            Button("back", "< Action"), Button("forward", "Action >"),
            Button("phase_forward", "Phase >"), Button("turn_forward", "Turn >>"),
            Button("continue", "Continue from here", primary=True, hotkey="C"),
            Button("menu", "Menu", hotkey="Esc")]
        self.view: MapView | None = None
        self._build(app.size)

    @classmethod
    def from_file(cls, app: Any, path: str | Path) -> "ReplayScene":
        from game.saves import Replay
        return cls(app, Replay.open(path), path=str(path))

    # --- layout -------------------------------------------------------------------------------
    def _build(self, size: tuple[int, int]) -> None:
        w, h = size
        self.panel_rect = pygame.Rect(w - PANEL_W, 0, PANEL_W, h)
        self.bar_rect = pygame.Rect(0, h - BAR_H, w - PANEL_W, BAR_H)
        view_rect = pygame.Rect(0, 0, w - PANEL_W, h - BAR_H)
        if self.view is None:
            self.view = MapView(self.replay.state.battle_map, view_rect)
        else:
            self.view.resize(view_rect)
        nav, rest = self.buttons[:6], self.buttons[6:]
        layout_buttons(nav, self.bar_rect.inflate(-16, 0), height=36, align="left")
        bottom = pygame.Rect(self.panel_rect.x + 10, h - 56, PANEL_W - 20, 48)
        layout_buttons(rest, bottom, height=38)
        self._refresh_buttons()

    def resize(self, size: tuple[int, int]) -> None:
        self._build(size)

    def _refresh_buttons(self) -> None:
        r = self.replay
        for b in self.buttons:
            if b.key in ("turn_back", "phase_back", "back"):
                b.enabled = r.index > 0
            elif b.key in ("forward", "phase_forward", "turn_forward"):
                b.enabled = r.index < r.last
            elif b.key == "continue":
                b.enabled = not r.state.phase.value == "game_over"

    # --- actions ------------------------------------------------------------------------------
    def do(self, key: str) -> None:
        r = self.replay
        moves = {"back": r.back, "forward": r.forward, "phase_back": r.prev_phase,
                 "phase_forward": r.next_phase, "turn_back": r.prev_turn,
                 "turn_forward": r.next_turn, "start": lambda: r.go(0),
                 "end": lambda: r.go(r.last)}
        if key in moves:
            moves[key]()
            if r.rolls():
                self.app.play("dice")
        elif key == "continue":
            self.continue_from_here()
        elif key == "menu":
            self.next_scene = self.app.menu_scene()
        self._refresh_buttons()

    def continue_from_here(self) -> bool:
        """A new hotseat battle from the shown position; False (with a message) if not."""
        from game.rules.errors import DataError
        from game.saves import saves_dir
        from game.ui.battle_setup_data import BattleSetup
        from game.ui.scenes.battle_setup import battle_scene
        r = self.replay
        try:
            game = r.continue_game()
        except DataError as exc:
            self.message = str(exc)
            return False
        st = game.state
        setup = BattleSetup(scenario=st.scenario, config=r.save.configuration,
                            attacker=st.attacker if st.scenario == "assault" else None,
                            saved_game=game, seed=r.save.seed,
                            save_path=str(saves_dir() / f"battle-{r.save.seed}-from-{r.index}.json"))
        scene, error = battle_scene(self.app, setup)
        if error:
            self.message = error
            return False
        self.next_scene = scene
        return True

    # --- input -------------------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> None:
        t = event.type
        if t == pygame.MOUSEMOTION:
            self.mouse = event.pos
            if self._drag is not None and event.buttons[0]:
                self.view.pan(event.pos[0] - self._drag[0], event.pos[1] - self._drag[1])
                self._drag = event.pos
        elif t == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for b in self.buttons:
                if b.enabled and b.rect.collidepoint(event.pos):
                    self.app.play("click")
                    self.do(b.key)
                    return
            if self.view.rect.collidepoint(event.pos):
                self._drag = event.pos
        elif t == pygame.MOUSEBUTTONUP and event.button == 1:
            self._drag = None
        elif t == pygame.MOUSEWHEEL:
            if self.view.rect.collidepoint(self.mouse):
                self.view.zoom(1 if event.y > 0 else -1, self.mouse)
        elif t == pygame.KEYDOWN:
            self.key(event.key, getattr(event, "mod", 0))

    def key(self, key: int, mod: int = 0) -> None:
        shift, ctrl = mod & pygame.KMOD_SHIFT, mod & pygame.KMOD_CTRL
        if key in (pygame.K_LEFT, pygame.K_RIGHT):
            fwd = key == pygame.K_RIGHT
            kind = "turn" if ctrl else "phase" if shift else ""
            self.do({("", True): "forward", ("", False): "back",
                     ("phase", True): "phase_forward", ("phase", False): "phase_back",
                     ("turn", True): "turn_forward", ("turn", False): "turn_back"}[(kind, fwd)])
        elif key == pygame.K_PAGEDOWN:
            self.do("turn_forward")
        elif key == pygame.K_PAGEUP:
            self.do("turn_back")
        elif key == pygame.K_HOME:
            self.do("start")
        elif key == pygame.K_END:
            self.do("end")
        elif key == pygame.K_c:
            self.do("continue")
        elif key == pygame.K_ESCAPE:
            self.do("menu")

    def update(self, dt: float) -> None:
        self.view.update(dt)

    # --- drawing ---------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        r = self.replay
        surface.set_clip(self.view.rect)
        st = r.state
        self.view.draw_map(surface, None if st.phase.value == "setup_objective" else st.objective)
        moved = getattr(r.step.action, "uid", None)
        self.view.draw_units(surface, r.state, selected=moved)
        surface.set_clip(None)
        draw_panel(surface, self.bar_rect, theme.BG_DARK)
        self._draw_panel(surface)
        draw_buttons(surface, self.buttons, self.mouse)

    def _draw_panel(self, surface: pygame.Surface) -> None:
        r = self.replay
        draw_panel(surface, self.panel_rect, theme.PANEL)
        x, w = self.panel_rect.x + 12, PANEL_W - 24
        name = Path(self.path).name if self.path else "replay"
        draw_text(surface, fit(f"Replay: {name}", theme.font(17), w), (x, 8), 17, theme.TEXT_DIM)
        y = draw_side_header(surface, pygame.Rect(self.panel_rect.x, 28, PANEL_W, 120), r.state)
        step = r.step
        what = "Start of the game" if step.action is None else \
            f"{step.action.side}: {describe_action(step.action)}"
        draw_text(surface, f"Action {r.index} of {r.last}", (x, y), 18, theme.ACCENT, bold=True)
        y += 22
        for line in wrap(what, theme.font(18), w)[:2]:
            draw_text(surface, line, (x, y), 18, theme.TEXT)
            y += 20
        y += 6
        rolls = r.rolls()
        draw_text(surface, "Dice" if rolls else "No dice rolled", (x, y), 17, theme.TEXT_DIM)
        y += 20
        s, gap = 24, 4
        for label, dice, need in rolls[:6]:
            for line in wrap(label, theme.font(15), w)[:2]:
                draw_text(surface, line, (x, y), 15, theme.TEXT_DIM)
                y += 16
            per_row = max(1, (w + gap) // (s + gap))
            for i, d in enumerate(dice):
                row, col = divmod(i, per_row)
                rect = pygame.Rect(x + col * (s + gap), y + row * (s + gap), s, s)
                look = "plain" if need is None else ("hit" if d >= need else "miss")
                draw_die(surface, rect, d, look)
            y += ((len(dice) - 1) // per_row + 1) * (s + gap) + 4
        if len(rolls) > 6:
            draw_text(surface, f"... and {len(rolls) - 6} more rolls", (x, y), 15, theme.TEXT_DIM)
            y += 18
        y += 6
        limit = self.panel_rect.bottom - 70 - (60 if self.message else 0)
        for e in step.events:
            text = getattr(e, "text", "")
            if not text:
                continue
            for line in wrap(text, theme.font(15), w):
                if y > limit - 16:
                    break
                draw_text(surface, line, (x, y), 15, theme.TEXT)
                y += 16
        if self.message:
            draw_text(surface, self.message, (x, self.panel_rect.bottom - 126), 15, theme.WARN,
                      width=w)
