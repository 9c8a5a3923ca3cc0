"""Solo practice setup: the player picks a side, the AI's level (Recruit,
Veteran or Expert, and the Expert's thinking time), the rules edition (first,
the default, or later: Aircraft, hedges, bluffs; three battlefields), the scenario, a map
configuration (or rolls for it), the AI's army (its own army builder - one
nation or a historical pairing unless the player asks for mixed nations - or
the sample) and their own army (the sample, or the army builder) - then the
battle begins with the AI playing the other side.

Keys: A / X pick Allies / Axis, E switches the edition, R rolls the
configuration, 1-6 (later edition 1-3) pick one,
Enter starts with the sample army, Esc goes back to the menu.
"""
from __future__ import annotations

import random
from typing import Any

import pygame

from game.rules.errors import DataError
from game.ui import editions, theme
from game.ui.battle_setup_data import SIDES, BattleSetup
from game.ui.widgets import GuiScene, draw_background, draw_die, draw_panel, draw_text, fit

__all__ = ["SoloSetupScene", "ai_army", "LEVEL_TEXT", "LEVELS", "THINKING_TIMES"]

LEVELS = ("recruit", "veteran", "expert")

#: one line each, shown under the level buttons
LEVEL_TEXT = {
    "recruit": "Recruit: follows a fixed behaviour table (cover, then the weakest target) - "
               "predictable, good for learning.",
    "veteran": "Veteran: weighs the exact odds, the threat to its units and the objective "
               "for each move - quick and solid.",
    "expert": "Expert: plans each phase for all its units, trying the plans out on the dice "
              "and your likely reply - the hardest.",
}

THINKING_TIMES = (0.5, 1.0, 2.0)     # the Expert's seconds per decision (default 1 s)


def ai_army(setup: BattleSetup, side: str, source: str, seed: int | None = None,
            mixed: bool = False) -> Any:
    """The AI side's army: ``"builder"`` (game.ai.army_builder, within the side's
    budget and the setup's limits; one nation or a historical pairing unless
    ``mixed``) or ``"sample"`` (cut to the budget if needed)."""
    if source == "sample":
        from game.ui.scenes.battle_setup import default_army
        return default_army(setup, side)       # the sample, cut to the budget if needed
    if setup.edition == "later":          # the builder's army and an Aircraft (game.ai)
        from game.ai.later_edition import build_later_army
        return build_later_army(editions.roster("later"), side, setup.budget(side),
                                rng=random.Random(seed), name=f"AI {side} battle group")
    from game.ai.army_builder import build_army
    return build_army(editions.roster(setup.edition), side, setup.budget(side),
                      historical=setup.historical, year=setup.year,
                      rng=random.Random(seed), name=f"AI {side} battle group",
                      mixed=mixed)


class SoloSetupScene(GuiScene):
    def __init__(self, app: Any, setup: BattleSetup | None = None, *,
                 player_side: str = "Allies", level: str = "veteran") -> None:
        super().__init__(app)
        self.player_side = player_side
        self.level = level
        self.ai_source = "builder"
        self.ai_mixed = False
        self.thinking = 1.0
        self.setup = setup or BattleSetup()
        self.setup.solo = self.ai_side
        self.message = ""
        self.rolling = 0.0
        self.shown_face = self.setup.config_roll or 1

    @property
    def level_name(self) -> str:
        """The level as ``game.ai.base.make_player`` reads it (the Expert's thinking
        time rides along when it is not the default)."""
        if self.level == "expert" and self.thinking != 1.0:
            return f"expert:{self.thinking:g}"
        return self.level

    @property
    def ai_side(self) -> str:
        return "Axis" if self.player_side == "Allies" else "Allies"

    # --- layout ----------------------------------------------------------------------------
    def build(self, size: tuple[int, int]) -> None:
        w, h = size
        x = 60 if w >= 1200 else 24
        cw = min(520, w // 2 - 60)
        bw = (cw - 10) // 2
        y = 150
        # the left column's steps: closer together in a low window (Back stays clear)
        gap = (92, 150, 52, 96) if h >= 720 else (80, 120, 46, 80)
        self._rows: dict[str, int] = {}
        self._rows["side"] = y - 30
        self.button("side_Allies", (x, y, bw, 42), self._mark("Allies", self.player_side == "Allies"))
        self.button("side_Axis", (x + bw + 10, y, bw, 42), self._mark("Axis", self.player_side == "Axis"))
        y += gap[0]
        self._rows["level"] = y - 30
        tw = (cw - 30) // 4
        for i, lv in enumerate(LEVELS):
            self.button(f"level_{lv}", (x + i * (tw + 10), y, tw, 42),
                        self._mark(lv.capitalize(), self.level == lv), tooltip=LEVEL_TEXT[lv])
        if self.level == "expert":
            self.button("thinking", (x + 3 * (tw + 10), y, tw, 42), f"{self.thinking:g} s",
                        tooltip="The Expert's thinking time per decision (click to change).")
        y += gap[1]
        self._rows["scenario"] = y - 30
        s = self.setup
        self.button("standard", (x, y, bw, 42), self._mark("Standard", s.scenario == "standard"))
        self.button("assault", (x + bw + 10, y, bw, 42), self._mark("Assault", s.scenario == "assault"))
        y += gap[2]
        if s.scenario == "assault":
            self.button("attacker", (x, y, cw, 40), f"Attacker: {s.attacker}  (defender: {s.defender})")
        y += gap[3]
        self._rows["ai_army"] = y - 30
        aw = (cw - 20) // 3
        self.button("ai_builder", (x, y, aw, 42),
                    self._mark("One nation", self.ai_source == "builder" and not self.ai_mixed),
                    tooltip="The AI's army builder: one nation or a historical pairing - armour, "
                            "antitank, riflemen, a commander.")
        self.button("ai_mixed", (x + aw + 10, y, aw, 42),
                    self._mark("Mixed", self.ai_source == "builder" and self.ai_mixed),
                    tooltip="The AI's army builder, mixing any nations of its side.")
        self.button("ai_sample", (x + 2 * (aw + 10), y, aw, 42),
                    self._mark("Sample", self.ai_source == "sample"),
                    tooltip="The side's sample army.")

        rx = x + cw + 60
        rw = min(520, w - rx - 40)
        ry = 150
        self._rows["edition"] = ry - 30
        ebw = (rw - 10) // 2
        for i, ed in enumerate(editions.EDITIONS):
            self.button(f"edition_{ed}", (rx + i * (ebw + 10), ry, ebw, 42),
                        self._mark(editions.EDITION_LABEL[ed], s.edition == ed),
                        tooltip=editions.EDITION_TEXT[ed])
        ry += 92
        self._rows["config"] = ry - 30
        self.button("roll", (rx, ry, 170, 42), "Roll a die", object_id="#primary")
        count = s.config_count
        names = editions.config_names(s.edition)
        cbw = (rw - (count - 1) * 8) // count
        for n in range(1, count + 1):
            label = fit(f"{n} {names[n]}", theme.font(18), cbw - 12) if names.get(n) else str(n)
            self.button(f"config{n}", (rx + (n - 1) * (cbw + 8), ry + 60, cbw, 40),
                        self._mark(label, s.config == n))
        self._right = (rx, rw)
        by = h - 86
        self.button("back", (x, by, 160, 46), "Back")
        self.button("sample", (w - 600, by, 270, 46), "Start: my sample army",
                    tooltip="You take your side's sample army; the battle begins.")
        self.button("build", (w - 320, by, 270, 46), "Build my army", object_id="#primary")

    @staticmethod
    def _mark(text: str, on: bool) -> str:
        return f"> {text} <" if on else text

    # --- actions ---------------------------------------------------------------------------
    def set_side(self, side: str) -> None:
        self.player_side = side
        self.setup.solo = self.ai_side
        self.setup.armies.clear()
        self.rebuild()

    def on_button(self, key: str) -> None:
        s = self.setup
        if key.startswith("side_"):
            self.set_side(key[5:])
        elif key.startswith("edition_"):
            self.set_edition(key[8:])
        elif key.startswith("level_"):
            self.level = key[6:]
            self.rebuild()
        elif key in ("standard", "assault"):
            s.scenario = key
            s.attacker = "Axis" if key == "assault" else None
            s.armies.clear()
            self.rebuild()
        elif key == "attacker":
            s.attacker = "Allies" if s.attacker == "Axis" else "Axis"
            s.armies.clear()
            self.rebuild()
        elif key == "thinking":
            i = THINKING_TIMES.index(self.thinking) if self.thinking in THINKING_TIMES else 0
            self.thinking = THINKING_TIMES[(i + 1) % len(THINKING_TIMES)]
            self.rebuild()
        elif key in ("ai_builder", "ai_mixed", "ai_sample"):
            self.ai_source = "sample" if key == "ai_sample" else "builder"
            self.ai_mixed = key == "ai_mixed"
            self.rebuild()
        elif key == "roll":
            self.roll()
        elif key.startswith("config"):
            n = int(key[6:])
            if 1 <= n <= s.config_count:
                s.config = n
                s.config_roll = None
                self.rebuild()
        elif key == "back":
            self.next_scene = self.app.menu_scene()
        elif key in ("sample", "build"):
            self.start(own_sample=(key == "sample"))

    def set_edition(self, edition: str) -> None:
        s = self.setup
        if edition == s.edition:
            return
        s.edition = edition
        s.armies.clear()
        if s.config > s.config_count:
            s.config, s.config_roll = 1, None
        elif s.config_roll is not None:
            s.config = editions.config_for_roll(edition, s.config_roll)
        self.rebuild()

    def roll(self) -> None:
        """A die picks the configuration (later edition: a battlefield, ruling L13)."""
        value = self.app.rng.randint(1, 6)
        self.setup.config = editions.config_for_roll(self.setup.edition, value)
        self.setup.config_roll = value
        self.rolling = 0.5 * self.app.settings.animation_factor
        self.app.play("dice")
        self.rebuild()

    def start(self, own_sample: bool) -> None:
        """Give the AI its army (and the player the sample), then on to the army
        builder or straight to the battle."""
        from game.ui.scenes.battle_setup import default_army, next_step
        s = self.setup
        s.solo = self.ai_side
        s.ai_level = self.level_name
        s.armies.clear()
        try:
            s.armies[self.ai_side] = ai_army(s, self.ai_side, self.ai_source, s.seed,
                                             mixed=self.ai_mixed)
            if own_sample:
                s.armies[self.player_side] = default_army(s, self.player_side)
        except (DataError, ValueError, ImportError) as exc:
            self.message = f"The armies can't be made: {exc}"
            s.armies.clear()
            return
        self.next_scene = next_step(self.app, s)

    def on_event(self, event: pygame.event.Event) -> None:
        if event.type != pygame.KEYDOWN:
            return
        k = event.key
        if k == pygame.K_ESCAPE:
            self.on_button("back")
        elif k == pygame.K_a:
            self.set_side("Allies")
        elif k == pygame.K_x:
            self.set_side("Axis")
        elif k == pygame.K_r:
            self.roll()
        elif k == pygame.K_e:
            self.set_edition(editions.next_edition(self.setup.edition))
        elif pygame.K_1 <= k <= pygame.K_6:
            self.on_button(f"config{k - pygame.K_0}")
        elif k in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.on_button("sample")

    def update(self, dt: float) -> None:
        if self.rolling > 0:
            self.rolling = max(0.0, self.rolling - dt)
            self.shown_face = (self.app.rng.randint(1, 6) if self.rolling
                               else (self.setup.config_roll or 1))

    # --- drawing ---------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        draw_background(surface)
        w, h = surface.get_size()
        x = 60 if w >= 1200 else 24
        cw = min(520, w // 2 - 60)
        draw_text(surface, "Solo practice", (x, 30), 54, theme.ACCENT, bold=True)
        draw_panel(surface, pygame.Rect(x - 16, 100, cw + 32, h - 210))
        rx, rw = getattr(self, "_right", (x + cw + 60, 400))
        draw_panel(surface, pygame.Rect(rx - 16, 100, rw + 32, h - 210))
        rows = getattr(self, "_rows", {})
        heads = {"side": f"Your side: {self.player_side}  (the AI plays {self.ai_side})",
                 "level": "The AI's level", "scenario": "Scenario", "ai_army": "The AI's army",
                 "config": "Battle map configuration", "edition": "Rules edition"}
        for key, text in heads.items():
            if key in rows:
                px = rx if key in ("config", "edition") else x
                draw_text(surface, text, (px, rows[key]), 24, theme.ACCENT, bold=True)
        if "level" in rows:
            draw_text(surface, LEVEL_TEXT[self.level], (x, rows["level"] + 84), 19, theme.TEXT,
                      width=cw)
        s = self.setup
        name = editions.config_names(s.edition).get(s.config)
        info = (f"Configuration {s.config}" + (f", {name}" if name else "")
                + (f" (rolled {s.config_roll})" if s.config_roll else "")
                + f".  Budgets: you {s.budget(self.player_side)} points, the AI "
                  f"{s.budget(self.ai_side)}.")
        if "config" in rows:
            draw_text(surface, info, (rx, rows["config"] + 150), 20, theme.TEXT, width=rw)
            die = pygame.Rect(rx + 190, rows["config"] + 30, 42, 42)
            draw_die(surface, die, self.shown_face)
            keys = (f"Keys: A / X your side, E edition, R roll, 1-{s.config_count} configuration, "
                    "Enter start with the sample army, Esc back.  In battle: Space or F speeds "
                    "the AI up.")
            draw_text(surface, keys, (rx, rows["config"] + 190), 18, theme.TEXT_DIM, width=rw)
            top = rows["config"] + 250
            size = (rw, max(60, min(int(rw * 0.62), h - 130 - top)))
            try:
                from game.ui.scenes.battle_setup import config_thumbnail
                thumb = config_thumbnail(s.config, size, s.edition)
            except ImportError:
                thumb = None
            if thumb is not None:
                surface.blit(thumb, (rx, top))
        if self.message:
            draw_text(surface, self.message, (x, h - 130), 20, theme.WARN, width=w - 2 * x)
