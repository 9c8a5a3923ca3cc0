"""Battle setup: the rules edition (first, the default, or later), scenario
(Standard, Assault), options (historical army limits, year), map configuration
(roll a die, shown, or pick one from thumbnails: 1-6, or the later edition's three
battlefields, which a die picks by ruling L13);
then the armies are built in secret and the battle begins.

Also the glue main.py and the menu use: ``make_setup`` (command line),
``load_setup`` (a saved game), ``battle_scene`` (the battle screen, or a
readable reason why it can't open) and the army-file helpers.
"""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pygame

from game.rules.errors import DataError
from game.ui import editions, theme
from game.ui.battle_setup_data import SIDES, BattleSetup
from game.ui.widgets import GuiScene, draw_background, draw_die, draw_panel, draw_text, fit, wrap

__all__ = ["BattleSetupScene", "make_setup", "load_setup", "battle_scene", "next_step",
           "load_army_file", "sample_army", "sample_army_path", "default_army", "army_problems",
           "config_thumbnail"]

ROOT = Path(__file__).resolve().parents[3]
ARMIES_DIR = ROOT / "units" / "armies"
YEARS = (None, 1939, 1940, 1941, 1942, 1943, 1944, 1945)


# --- armies -----------------------------------------------------------------------------
def load_army_file(path: str | Path, side: str | None = None) -> Any:
    """An army from a YAML file (game.data.armies); DataError when it is wrong,
    including an army of the wrong side."""
    from game.data.armies import load_army
    army = load_army(path)
    if side is not None and army.side != side:
        raise DataError(str(path), f"this is an {army.side} army, but the {side} army was asked for")
    return army


def sample_army_path(side: str, edition: str = "first") -> Path:
    """The side's sample army (the later edition's own, with Aircraft, in its battles)."""
    return editions.sample_army_path(edition, side)


def sample_army(side: str, edition: str = "first") -> Any:
    return load_army_file(sample_army_path(side, edition), side)


def quick_start_army_path(setup: BattleSetup, side: str) -> Path:
    """The army a quick start gives ``side``: in Assault one built for the attacker's
    or the defender's budget (units/armies/assault/<side>_<role>.yaml), else the sample."""
    if setup.scenario == "assault" and setup.edition == "first":
        role = "attacker" if side == (setup.attacker or "Axis") else "defender"
        p = ARMIES_DIR / "assault" / f"{'axis' if side == 'Axis' else 'allies'}_{role}.yaml"
        if p.is_file():
            return p
    return sample_army_path(side, setup.edition)


def default_army(setup: BattleSetup, side: str) -> Any:
    """The side's quick-start army (:func:`quick_start_army_path`), cut down to the
    scenario's budget only if it still costs more: each cut removes the cheapest unit
    that is enough on its own, else the dearest one."""
    from game.rules.army import Army
    army = load_army_file(quick_start_army_path(setup, side), side)
    budget = setup.budget(side)
    if army.points <= budget:
        return army
    cards = list(army.cards)
    while cards and sum(c.cost for c in cards) > budget:
        over = sum(c.cost for c in cards) - budget
        enough = [c for c in cards if c.cost >= over]
        drop = min(enough, key=lambda c: c.cost) if enough else max(cards, key=lambda c: c.cost)
        cards.remove(drop)
    return Army(name=f"{army.name}, cut to {budget} points", side=side, cards=cards)


# --- setups ------------------------------------------------------------------------------
def make_setup(*, scenario: str = "standard", config: int | None = None, seed: int | None = None,
               axis_file: str | None = None, allies_file: str | None = None,
               attacker: str | None = None, solo: str | None = None,
               edition: str = "first") -> BattleSetup:
    """The setup for ``--hotseat`` / ``--demo``: given armies or the samples; the
    configuration rolled with the seed when not given (later edition: ruling L13)."""
    rng = random.Random(seed)
    roll = None
    if config is None:
        roll = rng.randint(1, 6)
        config = editions.config_for_roll(edition, roll)
    setup = BattleSetup(scenario=scenario, config=config, config_roll=roll, seed=seed,
                        attacker=attacker, solo=solo, edition=edition)
    files = {"Axis": axis_file, "Allies": allies_file}
    for side in SIDES:
        setup.armies[side] = (load_army_file(files[side], side) if files[side]
                              else default_army(setup, side))
        problems = army_problems(setup, side)
        if problems:
            where = str(files[side] or quick_start_army_path(setup, side))
            raise DataError(where, f"this army can't play: {'; '.join(problems)}")
    return setup


def army_problems(setup: BattleSetup, side: str) -> list[str]:
    """Every rule the side's army breaks under the setup's scenario and options."""
    from game.rules.army import validate_army
    from game.ui.battle_setup_data import MAX_UNITS
    return validate_army(setup.armies[side], budget=setup.budget(side), max_units=MAX_UNITS,
                         historical=setup.historical, year=setup.year, edition=setup.edition)


def load_setup(path: str | Path) -> tuple[BattleSetup | None, str | None]:
    """A saved game as a setup for the battle screen: (setup, None) or (None, reason)."""
    try:
        from game.saves import load_game
    except ImportError:
        return None, "Loading saved games is not available in this version yet."
    try:
        game = load_game(path)
    except DataError as exc:
        return None, str(exc)
    except OSError as exc:
        return None, f"{path}: can't read the file ({exc.strerror or exc})"
    state = game.state
    edition = "later" if (getattr(state, "options", {}) or {}).get("edition") == "later" \
        else "first"
    setup = BattleSetup(scenario=getattr(state, "scenario", "standard"),
                        config=_config_number(state, edition), saved_game=game,
                        save_path=str(path), edition=edition)
    return setup, None


def _config_number(state: Any, edition: str = "first") -> int:
    n = getattr(getattr(state, "battle_map", None), "config_number", None) or \
        (getattr(state, "options", {}) or {}).get("config")
    return n if isinstance(n, int) and 1 <= n <= editions.config_count(edition) else 1


def battle_scene(app: Any, setup: BattleSetup) -> tuple[Any, str | None]:
    """The battle screen for ``setup``, or (None, why it can't open)."""
    try:
        from game.ui.scenes.battle import BattleScene
    except ImportError as exc:
        if "game.ui.scenes.battle" in str(exc) or getattr(exc, "name", "") == "game.ui.scenes.battle":
            return None, "The battle screen is not available in this version yet."
        raise
    try:
        return BattleScene(app, setup), None
    except DataError as exc:
        return None, str(exc)


def next_step(app: Any, setup: BattleSetup, back: Any = None) -> Any:
    """After setup: hand the seat to each player in turn to build an army in
    secret (Allies first), then the battle screen."""
    from game.ui.scenes.army_builder import HandOverScene, MessageScene
    if setup.solo and setup.solo not in setup.armies:   # the AI takes its side's sample army
        try:
            setup.armies[setup.solo] = default_army(setup, setup.solo)
        except DataError as exc:
            return MessageScene(app, "Can't start the battle", str(exc))
    for side in ("Allies", "Axis"):
        if side in setup.armies:
            continue
        if setup.solo:                      # nobody to hide the army from
            from game.ui.scenes.army_builder import ArmyBuilderScene
            return ArmyBuilderScene(app, setup, side)
        return HandOverScene(app, setup, side)
    scene, error = battle_scene(app, setup)
    if error:
        return MessageScene(app, "Can't start the battle", error)
    return scene


# --- thumbnails --------------------------------------------------------------------------
_THUMBS: dict[tuple[int, int, int, str], pygame.Surface | None] = {}


def config_thumbnail(n: int, size: tuple[int, int],
                     edition: str = "first") -> pygame.Surface | None:
    """Configuration ``n`` of ``edition`` drawn small with the map renderer (cached);
    None if the map can't be loaded (the reason is then shown instead)."""
    key = (n, size[0], size[1], edition)
    if key not in _THUMBS:
        try:
            from game.ui.map_render import MapRenderer
            bm = editions.load_battle_map(edition, n)
            r = MapRenderer.fit(bm, size[0], size[1], sections=False, supersample=1, grid=False)
            _THUMBS[key] = r.surface.copy()
        except (ImportError, DataError, ValueError, OSError, pygame.error):
            _THUMBS[key] = None
    return _THUMBS[key]


SCENARIO_TEXT = {
    "standard": "Standard battle: 100 points and up to 15 units each. Hold the objective "
                "at the end of turn 7, or control it on turns 8-10; after that, points decide.",
    "assault": "Assault: the attacker builds 120 points, the defender 80 (15 units each). "
               "The defender picks the objective hex and deploys first on its half; the "
               "attacker wins only by controlling the objective at the end of turn 10.",
}


class BattleSetupScene(GuiScene):
    def __init__(self, app: Any, setup: BattleSetup | None = None) -> None:
        super().__init__(app)
        self.setup = setup or BattleSetup()
        self.rolling = 0.0
        self.shown_face = self.setup.config_roll or 1
        self.message = ""
        self.thumb_rects: dict[int, pygame.Rect] = {}

    # --- layout ----------------------------------------------------------------------------
    def _geometry(self, size: tuple[int, int]) -> dict[str, Any]:
        """Panels and the flow of the left column (shared by build and draw)."""
        w, h = size
        top = 110 if h >= 760 else 84
        left = pygame.Rect(40 if w >= 1200 else 16, top, min(460, w // 2 - 70), h - top - 110)
        right = pygame.Rect(left.right + (30 if w >= 1200 else 16), top,
                            w - left.right - (70 if w >= 1200 else 32), h - top - 110)
        x = left.x + 20
        inner = left.w - 40
        y = left.y + 14
        g: dict[str, Any] = {"left": left, "right": right, "x": x, "inner": inner}
        g["edition_head"] = y
        y += 36
        g["edition"] = y                    # the rules edition: first (default) or later
        y += 52
        g["scenario_head"] = y
        y += 36
        g["scenario_buttons"] = y
        y += 54
        g["scenario_text"] = y
        f = theme.font(21)
        y += len(wrap(SCENARIO_TEXT[self.setup.scenario], f, inner)) * (f.get_linesize() + 2) + 10
        if self.setup.scenario == "assault":
            g["attacker"] = y
            y += 50
        y += 6
        g["options_head"] = y
        y += 38
        g["historical"] = y
        y += 48
        g["year"] = y
        y += 52
        g["budgets"] = y
        y += 30
        g["note"] = y
        return g

    def build(self, size: tuple[int, int]) -> None:
        w, h = size
        g = self._geometry(size)
        left, right = g["left"], g["right"]
        x, inner = g["x"], g["inner"]
        bw = (inner - 10) // 2
        for i, ed in enumerate(editions.EDITIONS):
            self.button(f"edition_{ed}", (x + i * (bw + 10), g["edition"], bw, 40),
                        self._mark(editions.EDITION_LABEL[ed], self.setup.edition == ed),
                        tooltip=editions.EDITION_TEXT[ed])
        y = g["scenario_buttons"]
        self.button("standard", (x, y, bw, 42), self._mark("Standard", self.setup.scenario == "standard"))
        self.button("assault", (x + bw + 10, y, bw, 42), self._mark("Assault", self.setup.scenario == "assault"))
        if self.setup.scenario == "assault":
            self.button("attacker", (x, g["attacker"], inner, 40),
                        f"Attacker: {self.setup.attacker}  (defender: {self.setup.defender})")
        self.button("historical", (x, g["historical"], inner, 40),
                    f"Historical army limits: {'On' if self.setup.historical else 'Off'}")
        self.button("year", (x, g["year"], inner, 40), self._year_text())

        # configurations: roll + 3x2 thumbnails with buttons under them (the later
        # edition's three battlefields in one row, named)
        rx, ry = right.x + 20, right.y + 50
        self.button("roll", (rx, ry, 170, 42), "Roll a die", object_id="#primary")
        count = self.setup.config_count
        names = editions.config_names(self.setup.edition)
        cols, rows = 3, (count + 2) // 3
        tw = (right.w - 40 - (cols - 1) * 14) // cols
        th = min(int(tw * (0.75 if rows == 1 else 0.62)), (right.bottom - ry - 80 - rows * 50) // rows)
        self.thumb_rects.clear()
        for n in range(1, count + 1):
            r, c = divmod(n - 1, cols)
            tx = rx + c * (tw + 14)
            ty = ry + 70 + r * (th + 54)
            self.thumb_rects[n] = pygame.Rect(tx, ty, tw, th)
            if names.get(n):
                label = fit(f"{n} {names[n]}", theme.font(20), tw - 16)
            else:
                label = f"Configuration {n}" if tw >= 200 else f"Map {n}"
            self.button(f"config{n}", (tx, ty + th + 4, tw, 34),
                        self._mark(label, self.setup.config == n))
        by = h - 86
        self.button("back", (40, by, 160, 46), "Back")
        self.button("quick", (w - 560, by, 250, 46), "Quick start: sample armies",
                    tooltip="Both sides take the sample army and the battle begins.")
        self.button("build", (w - 290, by, 250, 46), "Build armies", object_id="#primary")

    @staticmethod
    def _mark(text: str, on: bool) -> str:
        return f"> {text} <" if on else text

    def _year_text(self) -> str:
        y = self.setup.year
        return "Year: any units" if y is None else f"Year: {y} (only units from {y} or earlier)"

    # --- actions ---------------------------------------------------------------------------
    def on_button(self, key: str) -> None:
        s = self.setup
        if key.startswith("edition_"):
            self.set_edition(key[8:])
        elif key in ("standard", "assault"):
            s.scenario = key
            s.attacker = "Axis" if key == "assault" else None
            s.armies.clear()
            self.rebuild()
        elif key == "attacker":
            s.attacker = "Allies" if s.attacker == "Axis" else "Axis"
            self.rebuild()
        elif key == "historical":
            s.historical = not s.historical
            self.rebuild()
        elif key == "year":
            s.year = YEARS[(YEARS.index(s.year) + 1) % len(YEARS)]
            self.rebuild()
        elif key == "roll":
            self.roll()
        elif key.startswith("config"):
            self.pick(int(key[6:]))
        elif key == "back":
            self.next_scene = self.app.menu_scene()
        elif key == "build":
            s.armies.clear()
            self.next_scene = next_step(self.app, s)
        elif key == "quick":
            try:
                for side in SIDES:
                    s.armies[side] = default_army(s, side)
            except (DataError, ImportError) as exc:
                self.message = f"Sample armies can't be loaded: {exc}"
                s.armies.clear()
                return
            self.next_scene = next_step(self.app, s)

    def set_edition(self, edition: str) -> None:
        """Change the rules edition: its maps (the configuration is kept if it exists
        there) and its cards (armies built for the other edition are dropped)."""
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
        """Roll a die for the configuration (cosmetic randomness, shown; in the later
        edition the die picks one of three battlefields, ruling L13)."""
        value = self.app.rng.randint(1, 6)
        self.setup.config_roll = value
        self.rolling = 0.5 * self.app.settings.animation_factor
        self.pick(editions.config_for_roll(self.setup.edition, value), rolled=True)
        self.app.play("dice")

    def pick(self, n: int, rolled: bool = False) -> None:
        if not 1 <= n <= self.setup.config_count:
            return
        self.setup.config = n
        if not rolled:
            self.setup.config_roll = None
        self.rebuild()

    def on_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for n, r in self.thumb_rects.items():
                if r.collidepoint(event.pos):
                    self.pick(n)
                    return
        elif event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self.on_button("back")
            elif event.key == pygame.K_r:
                self.roll()
            elif pygame.K_1 <= event.key <= pygame.K_6:
                self.pick(event.key - pygame.K_0)
            elif event.key == pygame.K_e:
                self.set_edition(editions.next_edition(self.setup.edition))
            elif event.key == pygame.K_RETURN:
                self.on_button("build")

    def update(self, dt: float) -> None:
        if self.rolling > 0:
            self.rolling = max(0.0, self.rolling - dt)
            self.shown_face = self.app.rng.randint(1, 6) if self.rolling else (self.setup.config_roll or 1)

    # --- drawing ---------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        draw_background(surface)
        w, h = surface.get_size()
        g = self._geometry((w, h))
        left, right = g["left"], g["right"]
        title = "Solo practice" if self.setup.solo else "New hotseat battle"
        if self.setup.edition == "later":
            title += " (later edition)"
        draw_text(surface, title, (left.x, 30 if h >= 760 else 18),
                  54 if h >= 760 else 44, theme.ACCENT, bold=True)
        draw_panel(surface, left)
        draw_panel(surface, right)
        x, inner = g["x"], g["inner"]
        draw_text(surface, "Rules edition", (x, g["edition_head"]), 30, theme.ACCENT, bold=True)
        draw_text(surface, "Scenario", (x, g["scenario_head"]), 30, theme.ACCENT, bold=True)
        draw_text(surface, SCENARIO_TEXT[self.setup.scenario], (x, g["scenario_text"]), 21,
                  theme.TEXT, width=inner)
        draw_text(surface, "Options", (x, g["options_head"]), 30, theme.ACCENT, bold=True)
        budgets = "  ·  ".join(f"{theme.SIDE_LABEL[s]} {self.setup.budget(s)} points" for s in
                               ("Allies", "Axis"))
        draw_text(surface, budgets, (x, g["budgets"]), 22, theme.TEXT_DIM)
        note = ("Historical limits (ruling 12, off by default): Germans with Italians "
                "only; Soviets alone; Japanese alone; Americans never with Soviets.")
        f = theme.font(19)
        if g["note"] + len(wrap(note, f, inner)) * (f.get_linesize() + 2) <= left.bottom - 6:
            draw_text(surface, note, (x, g["note"]), 19, theme.TEXT_DIM, width=inner)

        rx = right.x + 20
        draw_text(surface, "Map configuration", (rx, right.y + 14), 30, theme.ACCENT, bold=True)
        die = pygame.Rect(rx + 190, right.y + 50, 42, 42)
        if self.setup.config_roll is not None or self.rolling:
            draw_die(surface, die, self.shown_face, "plain" if self.rolling else "hit")
            if not self.rolling:
                name = editions.config_names(self.setup.edition).get(self.setup.config)
                draw_text(surface, fit(f"Rolled {self.setup.config_roll}: configuration "
                                       f"{self.setup.config}" + (f", {name}" if name else ""),
                                       theme.font(22), right.right - die.right - 30),
                          (die.right + 14, die.y + 12), 22)
        else:
            keys = f"1-{self.setup.config_count}"
            draw_text(surface, f"or pick one below (keys {keys})", (rx + 190, right.y + 62), 22,
                      theme.TEXT_DIM)
        if self.setup.edition == "later":
            ty = max((r.bottom for r in self.thumb_rects.values()), default=right.y) + 50
            draw_text(surface, f"A die picks the battlefield: "
                               f"{editions.roll_table('later')}.", (rx, ty), 20,
                      theme.TEXT_DIM, width=right.w - 40)
        for n, r in self.thumb_rects.items():
            thumb = config_thumbnail(n, r.size, self.setup.edition)
            pygame.draw.rect(surface, theme.BG_DARK, r)
            if thumb is not None:
                surface.blit(thumb, thumb.get_rect(center=r.center))
            else:
                draw_text(surface, fit(f"Configuration {n}: map not available", theme.font(18), r.w - 10),
                          r.center, 18, theme.TEXT_DIM, anchor="center")
            if n == self.setup.config:
                pygame.draw.rect(surface, theme.ACCENT, r.inflate(6, 6), 3, border_radius=3)
        if self.message:
            draw_text(surface, self.message, (220, h - 76), 20, theme.BAD, width=w - 820)
