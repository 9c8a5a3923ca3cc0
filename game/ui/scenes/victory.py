"""The victory screen: who won and why, points left on the map, units lost;
play again (same armies and map) or back to the main menu."""
from __future__ import annotations

import dataclasses
from typing import Any

import pygame

from game.rules.hexes import hex_label

from game.ui import theme
from game.ui.scenes.battle import SIDE_COLOURS
from game.ui.tokens import draw_unit
from game.ui.widgets import GuiScene, draw_background, draw_panel, draw_text, fit

__all__ = ["VictoryScene", "result_lines"]


def result_lines(game: Any) -> dict[str, Any]:
    """What the screen shows, as data (tests read it too)."""
    st = game.state
    o = st.outcome
    if o is None:
        title, reason = "The battle is not over", ""
    elif o.winner is None:
        title, reason = "Draw", o.reason
    else:
        title = f"{theme.SIDE_LABEL[o.winner]} victory"
        if o.reason.startswith("controls"):
            reason = f"The {theme.SIDE_LABEL[o.winner]} player {o.reason}"
        elif o.reason.startswith("more"):
            reason = f"The {theme.SIDE_LABEL[o.winner]} player has {o.reason}"
        else:
            reason = o.reason[:1].upper() + o.reason[1:]
    sides = {}
    for s in ("Axis", "Allies"):
        lost = [u for u in st.units_of(s) if u.destroyed]
        sides[s] = {"points": game.victory_points(s),
                    "on_map": len(st.live_units(s)),
                    "lost": [u.name for u in lost],
                    "lost_points": sum(u.card.cost for u in lost)}
    return {"title": title, "reason": reason, "turn": st.turn,
            "winner": o.winner if o else None, "sides": sides}


def subtitle(result: dict) -> str:
    """'after turn N' under the reason, unless the reason already names that turn."""
    turn = f"turn {result['turn']}"
    return "" if turn in result.get("reason", "") else f"after {turn}"


class VictoryScene(GuiScene):
    def __init__(self, app: Any, game: Any, setup: Any = None) -> None:
        super().__init__(app)
        self.game = game
        self.setup = setup
        self.result = result_lines(game)

    def build(self, size: tuple[int, int]) -> None:
        w, h = size
        bw = 220
        self.button("again", (w // 2 - bw - 10, h - 80, bw, 46), "Play again",
                    object_id="#primary",
                    tooltip="A new battle with the same armies and map")
        self.button("menu", (w // 2 + 10, h - 80, bw, 46), "Main menu")
        self.button("luck", (w // 2 + bw + 30, h - 80, 180, 46), "Luck report",
                    tooltip="Expected against actual hits, by player and turn (K)")

    def on_button(self, key: str) -> None:
        if key == "menu":
            self.next_scene = self.app.menu_scene()
        elif key == "again":
            self.play_again()
        elif key == "luck":
            from game.ui.scenes.luck import LuckScene
            self.next_scene = LuckScene(self.app, self.game, back=self)

    def play_again(self) -> None:
        s = self.setup
        if s is None or not getattr(s, "armies", None):
            from game.ui.scenes.battle_setup import BattleSetupScene
            self.next_scene = BattleSetupScene(self.app)
            return
        from game.ui.scenes.battle import BattleScene
        fresh = dataclasses.replace(s, saved_game=None, save_path=None, demo_frames=None,
                                    seed=None)
        self.next_scene = BattleScene(self.app, fresh)

    def on_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_ESCAPE, pygame.K_m):
                self.on_button("menu")
            elif event.key == pygame.K_r:       # not Enter: it may still be held from the battle
                self.on_button("again")
            elif event.key == pygame.K_k:
                self.on_button("luck")

    def draw(self, surface: pygame.Surface) -> None:
        draw_background(surface)
        w, h = surface.get_size()
        r = self.result
        col = SIDE_COLOURS.get(r["winner"], theme.ACCENT) if r["winner"] else theme.ACCENT
        draw_text(surface, r["title"], (w // 2, 40), 64, col, bold=True, anchor="midtop")
        draw_text(surface, r["reason"], (w // 2, 112), 24, theme.TEXT, anchor="midtop",
                  width=None)
        sub = subtitle(r)
        if sub:
            draw_text(surface, sub, (w // 2, 142), 20, theme.TEXT_DIM, anchor="midtop")
        col_w = min(520, (w - 90) // 2)
        top, bottom = 196, h - 100
        st = self.game.state
        if st.objective is not None:
            ctrl = st.objective_controller()
            draw_text(surface, f"Objective {hex_label(st.objective)}: " +
                      (f"held by {ctrl}" if ctrl else "nobody holds it"), (w // 2, 166), 19,
                      theme.TEXT_DIM, anchor="midtop")
        for i, side in enumerate(("Axis", "Allies")):
            box = pygame.Rect(w // 2 - col_w - 15 + i * (col_w + 30), top, col_w, bottom - top)
            draw_panel(surface, box)
            d = r["sides"][side]
            x, y = box.x + 16, box.y + 12
            won = r["winner"] == side
            draw_text(surface, f"{theme.SIDE_LABEL[side]} army" + ("  -  winner" if won else ""),
                      (x, y), 28, SIDE_COLOURS[side], bold=True)
            y += 36
            draw_text(surface, f"Points on the map: {d['points']}", (x, y), 21, theme.TEXT)
            y += 26
            draw_text(surface, f"Units on the map: {d['on_map']}", (x, y), 21, theme.TEXT)
            y += 26
            draw_text(surface, f"Units lost: {len(d['lost'])} ({d['lost_points']} points)",
                      (x, y), 21, theme.TEXT)
            y += 34
            lost = [u for u in st.units_of(side) if u.destroyed]
            f = theme.font(18)
            for u in lost:
                if y + 34 > box.bottom - 8:
                    draw_text(surface, f"... and {len(lost) - lost.index(u)} more", (x, y), 18,
                              theme.TEXT_DIM)
                    break
                draw_unit(surface, u, pygame.Rect(x, y, 30, 30), label=False)
                surface.blit(f.render(fit(u.name, f, box.w - 70), True, theme.TEXT_DIM),
                             (x + 40, y + 7))
                y += 34
            if not lost:
                draw_text(surface, "No unit lost.", (x, y), 18, theme.TEXT_DIM)
