"""The guided first battle (issue 17): "Learn to play" in the menu, or
``python main.py --tutorial``.

A small map (a road into a town, a stream, a forest, a hill) and a few real
units from the roster.  Each lesson is its own position with loaded dice, so it
plays the same every time, can be repeated and can be skipped:

1. selecting and moving (the Sherman along the road into the town; a Vehicle's facing),
2. movement rolls (the rifles across the stream),
3. Vehicle facing and rear defense, the odds panel (the Sherman attacks the Panzer
   from behind),
4. line of sight and cover (the rifles shoot at the grenadiers they can see, in the
   forest, and watch the cover roll),
5. defensive fire (the Panzer drives past the Bazooka),
6. the casualty phase (face-down counters flip), the next turn's initiative and how
   to win;

then a free battle on the same map against the Recruit.

The lesson says what to do; the game checks it: an action the lesson does not
ask for is not played and the hint is shown instead (the rules still refuse an
illegal one with their own reason).  Every action goes through the real battle
screen and the rules.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import pygame

from game.rules.actions import (Attack, ChooseOrder, DefensiveFire, EndPhase, Move,
                                PassDefensiveFire)
from game.rules.board import BattleMap
from game.rules.combat import is_front
from game.rules.dice import LoadedDice
from game.rules.engine import Game
from game.rules.events import CountersFlipped, CoverRolled, DiceRolled, MovementRoll, \
    OrderChosen, UnitStopped
from game.rules.hexes import Hex, Hexside, hex_label
from game.rules.state import GameState, Phase
from game.rules.terrain import Terrain
from game.ui import theme
from game.ui.battle.panels import Button
from game.ui.scenes.battle import BattleScene
from game.ui.widgets import draw_panel, draw_text, wrap

__all__ = ["Lesson", "LESSONS", "TutorialScene", "tutorial_map", "lesson_game",
           "free_battle_scene"]

W, H = 12, 9


def at(col: int, row: int) -> Hex:
    """Rectangle coordinates (column, row) of the tutorial map -> hex."""
    return Hex(col - (row // 2), row)


ROAD = [(c, 4) for c in range(0, 6)]
TOWN = (5, 4)
FOREST = [(8, 2), (9, 2), (8, 1)]
HILL = [(6, 1), (6, 2), (6, 0)]
STREAM = ((2, 6), (3, 6))
OBJECTIVE = (6, 4)


def tutorial_map() -> BattleMap:
    terr = {at(c, r): Terrain.CLEAR for r in range(H) for c in range(W)}
    terr[at(*TOWN)] = Terrain.TOWN
    for h in FOREST:
        terr[at(*h)] = Terrain.FOREST
    for h in HILL:
        terr[at(*h)] = Terrain.HILL
    halves = {at(-1, r) for r in range(H)} | {at(W, r) for r in range(H)}
    roads = frozenset(Hexside.between(at(*a), at(*b)) for a, b in zip(ROAD, ROAD[1:]))
    streams = frozenset({Hexside.between(at(*STREAM[0]), at(*STREAM[1]))})
    return BattleMap(name="Learn to play", terrain=terr, half_hexes=frozenset(halves - set(terr)),
                     roads=roads, streams=streams, bridges=frozenset(),
                     objective=at(*OBJECTIVE))


def _card(name: str):
    from game.data.units import load_roster
    return load_roster()[name]


def _position(phase: Phase, first: str, dice: list[int], turn: int = 1) -> Game:
    st = GameState.blank(tutorial_map(), "standard", phase=phase, turn=turn, first_player=first)
    return Game(st, LoadedDice(dice))


def _rear_facing(target: Hex, attacker: Hex) -> int:
    """A facing for the Panzer that turns its back on the attacker (asked of the rules)."""
    for f in range(6):
        if not is_front(target, f, attacker) and is_front(target, (f + 3) % 6, attacker):
            return f
    return 0


# --- the lessons -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Lesson:
    key: str
    title: str
    text: str                                   # what to do
    hint: str                                   # shown after a wrong action
    build: Callable[[], Game]
    allows: Callable[[Game, Any], bool]         # the actions the lesson lets through
    done: Callable[[Game, list], bool]          # the check, after each action (its events)


def _unit(g: Game, name: str):
    return next(u for u in g.state.units.values() if u.name == name)


def _build_move() -> Game:
    g = _position(Phase.MOVEMENT_FIRST, "Allies", [])
    g.add_unit(_card("M4A1 Sherman"), "Allies", at(1, 4), facing=0)
    g.add_unit(_card("Mauser Kar 98k"), "Axis", at(10, 7))
    return g


def _build_roll() -> Game:
    g = _position(Phase.MOVEMENT_FIRST, "Allies", [5])
    g.add_unit(_card("M1 Garand Rifle"), "Allies", at(*STREAM[0]))
    g.add_unit(_card("Mauser Kar 98k"), "Axis", at(10, 7))
    return g


def _build_rear() -> Game:
    g = _position(Phase.ASSAULT_FIRST, "Allies", [6] * 40)
    s = g.add_unit(_card("M4A1 Sherman"), "Allies", at(9, 6), facing=0)
    tgt = at(9, 5)
    g.add_unit(_card("Panzer IV Ausf. G"), "Axis", tgt, facing=_rear_facing(tgt, s.hex))
    return g


def _build_cover() -> Game:
    # the rifles at (7, 3) see the grenadiers in the forest; the hill hides the others
    g = _position(Phase.ASSAULT_FIRST, "Allies", [6] * 12 + [5] + [6] * 20)
    g.add_unit(_card("M1 Garand Rifle"), "Allies", at(7, 3))
    g.add_unit(_card("Mauser Kar 98k"), "Axis", at(8, 2))
    g.add_unit(_card("SS-Panzergrenadier"), "Axis", at(4, 1))
    return g


def _build_defensive() -> Game:
    g = _position(Phase.MOVEMENT_FIRST, "Axis", [6] * 20)
    g.add_unit(_card("Bazooka"), "Allies", at(5, 5))
    pz = g.add_unit(_card("Panzer IV Ausf. G"), "Axis", at(3, 5), facing=0)
    # the enemy moves: from next to the Bazooka into another hex next to it
    g.apply(Move("Axis", pz.uid, (at(4, 5), at(5, 6)), 0))
    return g


def _build_casualty() -> Game:
    g = _position(Phase.ASSAULT_SECOND, "Axis", [6, 6, 1, 1] + [4] * 20)
    g.add_unit(_card("M1 Garand Rifle"), "Allies", at(6, 5), acted=True)
    g.add_unit(_card("Mauser Kar 98k"), "Axis", at(7, 4), pending=["disrupted"])
    return g


def _is(kind, **fields):
    def check(g: Game, a: Any) -> bool:
        return isinstance(a, kind) and all(
            getattr(a, k) == (v(g) if callable(v) else v) for k, v in fields.items())
    return check


def _any(*checks):
    return lambda g, a: any(c(g, a) for c in checks)


LESSONS: tuple = (
    Lesson("move", "Selecting and moving",
           "Click the Sherman, then the town hex at the end of the road: the shaded hexes are "
           "where it can go (the number is what the move there costs of its speed). Along a "
           "road every hex costs one and a Vehicle's first road hex is free. A Vehicle ends "
           "its move facing a hex side: pick one.",
           "Move the Sherman into the town hex at the end of the road.",
           _build_move,
           _any(lambda g, a: isinstance(a, Move) and a.uid == _unit(g, "M4A1 Sherman").uid,
                lambda g, a: type(a).__name__ == "Face"),   # the rules' facing choice
           lambda g, ev: _unit(g, "M4A1 Sherman").hex == at(*TOWN) and g.state.pending is None),
    Lesson("roll", "Movement rolls",
           "Your rifles must cross the stream: crossing needs a movement roll of 4 or more "
           "(the path shows the chance). Click the rifles, then the hex across the stream.",
           "Move the rifles across the stream, one hex to the right.",
           _build_roll,
           lambda g, a: isinstance(a, Move) and a.uid == _unit(g, "M1 Garand Rifle").uid,
           lambda g, ev: any(isinstance(e, MovementRoll) for e in ev)),
    Lesson("rear", "Facing and rear defense: the odds",
           "The Panzer has its back to your Sherman: attacks from behind use its weaker rear "
           "defense. Click the Sherman, hover the Panzer to read the exact odds, then click "
           "it to attack.",
           "Attack the Panzer with the Sherman.",
           _build_rear,
           lambda g, a: isinstance(a, Attack),
           lambda g, ev: any(isinstance(e, DiceRolled) and e.front is False for e in ev)),
    Lesson("cover", "Line of sight and cover",
           "Your rifles can't see the grenadiers behind the hill (hold L to see what a hex "
           "sees), but they see the riflemen in the forest. Attack those: a unit in a forest "
           "makes a cover roll that limits the attack to disruption.",
           "Attack the riflemen in the forest - the grenadiers are out of sight.",
           _build_cover,
           lambda g, a: isinstance(a, Attack) and a.target == _unit(g, "Mauser Kar 98k").uid,
           lambda g, ev: any(isinstance(e, CoverRolled) for e in ev)),
    Lesson("defensive", "Defensive fire",
           "The Panzer drives from one hex next to your Bazooka into another: that provokes "
           "defensive fire. A hit stops and disrupts it at once. Fire with the Bazooka (you "
           "could also hold fire, or wait for the next hex where its rear may face you).",
           "Fire with the Bazooka.",
           _build_defensive,
           _any(_is(DefensiveFire), _is(PassDefensiveFire)),
           lambda g, ev: any(isinstance(e, UnitStopped) for e in ev)),
    Lesson("casualty", "The casualty phase, initiative and how to win",
           "Hits are face-down counters until the casualty phase, when both sides flip them. "
           "End the phase (E), step through the counters, then the next turn starts with the "
           "initiative roll: the winner chooses to go first or second. To win, be the only "
           "side next to the objective (the star) at the end of turn 7 or later; after turn "
           "10 the points on the map decide.",
           "End the phase, step through the casualty phase, then choose who goes first.",
           _build_casualty,
           _any(_is(EndPhase), _is(ChooseOrder)),
           lambda g, ev: any(isinstance(e, OrderChosen) for e in ev)),
)


def lesson_game(index: int) -> Game:
    return LESSONS[index].build()


FREE_BATTLE_UNSAVED = ("The Learn to play battle is not saved: its small map is not one of the "
                       "battle map configurations a save can rebuild.")


def free_battle_scene(app: Any, seed: int = 17) -> BattleScene:
    """The free battle on the tutorial map: you are the Allies, the Recruit the Axis."""
    from game.rules.dice import Dice
    from game.rules.engine import new_game
    from game.ui.battle_setup_data import BattleSetup
    armies = {"Allies": [_card(n) for n in ("M4A1 Sherman", "M1 Garand Rifle", "M1 Garand Rifle",
                                            "Bazooka")],
              "Axis": [_card(n) for n in ("Panzer IV Ausf. G", "Mauser Kar 98k",
                                          "Mauser Kar 98k", "SS-Panzergrenadier")]}
    game = new_game(tutorial_map(), armies, dice=Dice(seed), options={})
    setup = BattleSetup(seed=seed, solo="Axis", ai_level="recruit", unsaved=FREE_BATTLE_UNSAVED)
    return BattleScene(app, setup, game=game)


class TutorialScene(BattleScene):
    """The battle screen with a lesson box; ``index`` is the lesson."""

    def __init__(self, app: Any, index: int = 0) -> None:
        self.index = index
        self.lesson: Lesson = LESSONS[index]
        self.passed = False
        self.hint = ""
        self.tut_buttons: list[Button] = []
        super().__init__(app, None, game=lesson_game(index))

    # the lesson decides what may be played
    def send(self, action: Any) -> bool:
        if self.passed or not self.lesson.allows(self.game, action):
            self.hint = self.lesson.hint if not self.passed else \
                "Lesson done: press Next (or Repeat to play it again)."
            self.note(self.hint)
            return False
        n = len(self.game.log)
        ok = super().send(action)
        if ok and self.lesson.done(self.game, self.game.log[n:]):
            self.passed = True
            self.hint = ""
            self.note("Well done! Press Next for the next lesson." if self.index + 1 < len(LESSONS)
                      else "Well done! Press Free battle to play on against the Recruit.")
        return ok

    def tut_press(self, key: str) -> None:
        if key == "repeat":
            self.next_scene = TutorialScene(self.app, self.index)
        elif key in ("next", "skip"):
            if self.index + 1 < len(LESSONS):
                self.next_scene = TutorialScene(self.app, self.index + 1)
            else:
                self.next_scene = free_battle_scene(self.app)
        elif key == "leave":
            self.next_scene = self.app.menu_scene()

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for b in self.tut_buttons:
                if b.enabled and b.rect.collidepoint(event.pos):
                    self.tut_press(b.key)
                    return
        if event.type == pygame.MOUSEBUTTONUP and any(
                b.rect.collidepoint(event.pos) for b in self.tut_buttons):
            return
        super().handle_event(event)

    def _build(self, size: tuple[int, int]) -> None:
        """The battle screen's layout, with the map above the lesson box: the box hides
        no hex, no line of sight legend and no odds box (the map view ends above it)."""
        super()._build(size)
        self.lesson_area = pygame.Rect(self.view_rect)
        reserve = self._box_height(True, True) + 20
        v = self.lesson_area
        self.view_rect = pygame.Rect(v.x, v.y, v.w, max(120, v.h - reserve))
        self.view.resize(self.view_rect)

    def _box_height(self, passed: bool, hint: bool) -> int:
        w = min(560, self.lesson_area.w - 20)
        text = ("Done! " if passed else "") + self.lesson.text
        n = len(wrap(text, theme.font(15), w - 24)[:6]) + (1 if hint else 0)
        return 34 + 18 * n + 56

    def box_rect(self) -> pygame.Rect:
        v = self.lesson_area
        w = min(560, v.w - 20)
        h = self._box_height(self.passed, bool(self.hint))
        return pygame.Rect(v.x + 10, v.bottom - h - 10, w, h)

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        from game.ui.battle.view import TABLE_COLOR
        below = pygame.Rect(self.lesson_area.x, self.view_rect.bottom, self.lesson_area.w,
                            self.lesson_area.bottom - self.view_rect.bottom)
        surface.fill(TABLE_COLOR, below)                  # the table under the map, the box on it
        r = self.box_rect()
        draw_panel(surface, r, theme.BG_DARK, edge=theme.ACCENT)
        last = self.index + 1 == len(LESSONS)
        draw_text(surface, f"Lesson {self.index + 1} of {len(LESSONS)}: {self.lesson.title}",
                  (r.x + 12, r.y + 8), 18, theme.ACCENT, bold=True)
        f = theme.font(15)
        y = r.y + 34
        text = ("Done! " if self.passed else "") + self.lesson.text
        for line in wrap(text, f, r.w - 24)[:6]:
            draw_text(surface, line, (r.x + 12, y), 15, theme.GOOD if self.passed else theme.TEXT)
            y += 18
        if self.hint:
            draw_text(surface, wrap(self.hint, f, r.w - 24)[0], (r.x + 12, y + 2), 15, theme.WARN)
        self.tut_buttons = [
            Button("repeat", "Repeat"),
            Button("skip", "Skip", enabled=not self.passed),
            Button("next", "Free battle" if last else "Next", primary=True,
                   enabled=self.passed),
            Button("leave", "Menu")]
        x = r.x + 12
        mouse = pygame.mouse.get_pos()
        for b in self.tut_buttons:
            b.rect = pygame.Rect(x, r.bottom - 44, 120 if b.key == "next" else 96, 34)
            b.draw(surface, b.rect.collidepoint(mouse))
            x += b.rect.w + 10
