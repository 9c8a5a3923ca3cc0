"""Army building in secret (rulebook: Building Your Army; Assault Scenario).

A hand-over screen comes first ("Allied player: take the seat; Axis player,
look away") and shows nothing of the other army.  The builder then offers a
card browser over the side's whole roster (search by name; filter by
nationality, type or subtype, year, cost and edition - what the battle can
use, every card, the later edition's, the ones not in Hexfront yet; sort)
showing each unit as its full stat card, add/remove, live totals (points /
limit, units / 15) and every problem game.rules.army finds; load the sample
army or a saved one; save.  A card the battle can't use (an ability not in
Hexfront yet, or later edition only) is listed greyed with the rules' reason
(``game.rules.army.card_refusal``) and can't be added.  Done is refused while
the army breaks a rule.  Filtering is :func:`browse` (pure, timed by
``bench/roster_bench.py``).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pygame
import pygame_gui

from game.rules.cards import ALLIED_NATIONS, AXIS_NATIONS, slug
from game.rules.errors import DataError
from game.ui import theme
from game.ui.battle_setup_data import MAX_UNITS, BattleSetup
from game.ui.cardview import draw_card
from game.ui.settings import data_dir
from game.ui.widgets import GuiScene, draw_background, draw_panel, draw_text, fit, wrap

__all__ = ["ArmyBuilderScene", "HandOverScene", "MessageScene", "armies_folder",
           "SORTS", "TYPES", "COSTS", "SHOWS", "browse", "type_choices"]

TYPES = ("All", "Soldier", "Vehicle", "Tank", "Artillery", "Commander", "Aircraft")
#: which cards the browser lists, by where they can be played (the edition filter)
SHOWS = {"playable": "playable in this battle", "all": "all cards",
         "later": "later edition only", "not yet": "not in Hexfront yet"}
YEARS = (None, 1939, 1940, 1941, 1942, 1943, 1944, 1945)
COSTS = (None, 5, 10, 15, 20, 25, 30)         # "up to N points"
SORTS: dict[str, Callable[[Any], Any]] = {
    "Name": lambda c: c.name.lower(),
    "Cost, low first": lambda c: (c.cost, c.name.lower()),
    "Cost, high first": lambda c: (-c.cost, c.name.lower()),
    "Year": lambda c: (c.year, c.name.lower()),
    "Nationality": lambda c: (c.nationality, c.name.lower()),
    "Type": lambda c: (c.type, c.subtype or "", c.name.lower()),
}


def type_choices(cards: list[Any]) -> list[str]:
    """The type filter's choices: All, the types, then every subtype the cards print."""
    extra = sorted({c.subtype for c in cards if c.subtype} - set(TYPES))
    return list(TYPES) + extra


def browse(cards: list[Any], refusals: dict[str, str | None], *, search: str = "",
           nation: str | None = None, side: str | None = None, type_filter: str = "All",
           year: int | None = None, max_cost: int | None = None, show: str = "all",
           sort: str = "Name", playable_later: set[str] | None = None) -> list[Any]:
    """The cards the browser lists: ``search`` in the name (case, accents and
    punctuation ignored), of a nationality, a side, a type or subtype, by a year, up
    to a cost, by ``show`` (:data:`SHOWS`; ``refusals`` = card name -> the rules'
    reason it can't be chosen for this battle, or None), sorted."""
    from game.data.units import fold_name
    want = fold_name(search) if search.strip() else ""
    out = []
    for c in cards:
        if want and want not in fold_name(c.name):
            continue
        if nation is not None and c.nationality != nation:
            continue
        if side is not None and c.side != side:
            continue
        if type_filter != "All" and type_filter not in (c.type, c.subtype):
            continue
        if (year is not None and c.year > year) or (max_cost is not None and c.cost > max_cost):
            continue
        why = refusals.get(c.name)
        if show == "playable" and why is not None:
            continue
        if show == "later" and (playable_later is None or c.name not in playable_later):
            continue
        if show == "not yet" and (why is None or "not in Hexfront yet" not in why):
            continue
        out.append(c)
    return sorted(out, key=SORTS[sort])


def armies_folder() -> Path:
    return data_dir() / "armies"


def _roster() -> list[Any]:
    from game.data.units import load_roster
    return list(load_roster(edition="later").values())


# --- hand-over and message screens -----------------------------------------------------------
class HandOverScene(GuiScene):
    """Shown before each player builds: nothing of the other army is visible."""

    def __init__(self, app: Any, setup: BattleSetup, side: str) -> None:
        super().__init__(app)
        self.setup = setup
        self.side = side
        self.other = "Axis" if side == "Allies" else "Allies"

    def build(self, size: tuple[int, int]) -> None:
        w, h = size
        self.button("ready", (w // 2 - 230, h // 2 + 40, 460, 56),
                    f"I am the {theme.SIDE_LABEL[self.side]} player: build my army",
                    object_id="#primary")
        self.button("back", (40, h - 86, 200, 46), "Back to setup")

    def on_button(self, key: str) -> None:
        if key == "ready":
            self.next_scene = ArmyBuilderScene(self.app, self.setup, self.side)
        elif key == "back":
            from game.ui.scenes.battle_setup import BattleSetupScene
            self.setup.armies.clear()
            self.next_scene = BattleSetupScene(self.app, self.setup)

    def on_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.on_button("back")

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(theme.BG_DARK)
        w, h = surface.get_size()
        rim = theme.SIDE_RIM[self.side]
        box = pygame.Rect(0, 0, min(900, w - 80), 330)
        box.center = (w // 2, h // 2 - 40)
        draw_panel(surface, box, theme.PANEL, rim, 12)
        pygame.draw.rect(surface, rim, box, 4, border_radius=12)
        me, other = theme.SIDE_LABEL[self.side], theme.SIDE_LABEL[self.other]
        draw_text(surface, f"{me} player: take the seat.", (w // 2, box.y + 40), 52,
                  theme.TEXT, bold=True, anchor="midtop")
        draw_text(surface, f"{other} player, look away.", (w // 2, box.y + 100), 40,
                  theme.WARN, anchor="midtop")
        budget = self.setup.budget(self.side)
        role = ""
        if self.setup.scenario == "assault":
            role = " as the attacker" if self.setup.attacker == self.side else " as the defender"
        draw_text(surface, f"You build the {me} army{role}: up to {budget} points and "
                           f"{MAX_UNITS} units. The armies are revealed at deployment.",
                  (w // 2, box.y + 170), 24, theme.TEXT_DIM, anchor="midtop", width=box.w - 60)


class MessageScene(GuiScene):
    """A plain message with a way back to the menu."""

    def __init__(self, app: Any, title: str, text: str) -> None:
        super().__init__(app)
        self.title_text = title
        self.text = text

    def build(self, size: tuple[int, int]) -> None:
        w, h = size
        self.button("menu", (w // 2 - 120, h // 2 + 80, 240, 48), "Back to the menu")

    def on_button(self, key: str) -> None:
        self.next_scene = self.app.menu_scene()

    def on_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_ESCAPE, pygame.K_RETURN):
            self.on_button("menu")

    def draw(self, surface: pygame.Surface) -> None:
        draw_background(surface)
        w, h = surface.get_size()
        draw_text(surface, self.title_text, (w // 2, h // 2 - 120), 44, theme.ACCENT, bold=True,
                  anchor="midtop")
        draw_text(surface, self.text, (w // 2, h // 2 - 50), 24, theme.TEXT, anchor="midtop",
                  width=min(900, w - 80))


# --- the builder -----------------------------------------------------------------------------
class ArmyBuilderScene(GuiScene):
    def __init__(self, app: Any, setup: BattleSetup, side: str,
                 roster: list[Any] | None = None) -> None:
        super().__init__(app)
        from game.rules.army import Army
        self.setup = setup
        self.side = side
        from game.rules.army import card_refusal
        self.edition = str(getattr(setup, "edition", None) or "first")
        self.roster = [c for c in (roster if roster is not None else _roster()) if c.side == side]
        #: the rules' reason each card can't be chosen for this battle (None: it can)
        self.refusals: dict[str, str | None] = {c.name: card_refusal(c, self.edition)
                                                for c in self.roster}
        self.later_only = {c.name for c in self.roster if self.refusals[c.name] is not None
                           and card_refusal(c, "later") is None}
        self.nations = [n for n in (AXIS_NATIONS if side == "Axis" else ALLIED_NATIONS)
                        if any(c.nationality == n for c in self.roster)]
        self.types = type_choices(self.roster)
        self.search = ""
        self.show = "playable"
        self.search_entry: Any = None
        self.army = Army(name=f"{theme.SIDE_LABEL[side]} army", side=side, cards=[])
        self.nation: str | None = None
        self.type_filter = "All"
        self.year: int | None = setup.year
        self.max_cost: int | None = None
        self.sort = "Name"
        self.browsed: Any = None                  # the card shown large
        self.army_pick: int | None = None         # index into army.cards selected on the right
        self.problems: list[str] = []
        self.message = ""
        self.message_ok = True
        self.file_dialog: Any = None
        self.dialog_mode = ""
        self.browser: Any = None
        self.army_list: Any = None
        self.name_entry: Any = None
        self._browser_items: dict[str, Any] = {}
        self._army_items: dict[str, int] = {}
        self.strip_rects: list[pygame.Rect] = []      # the army's tokens, clickable
        self.validate()

    # --- data ----------------------------------------------------------------------------------
    @property
    def budget(self) -> int:
        return self.setup.budget(self.side)

    def visible_cards(self) -> list[Any]:
        return browse(self.roster, self.refusals, search=self.search, nation=self.nation,
                      type_filter=self.type_filter, year=self.year, max_cost=self.max_cost,
                      show=self.show, sort=self.sort, playable_later=self.later_only)

    def empty_text(self) -> str:
        """What the card view says when no card is listed: when the search names cards
        of the other side only, whose they are (a new player may not know)."""
        if self.search.strip():
            from game.data.units import fold_name
            want = fold_name(self.search)
            theirs = sorted(c.name for c in _roster() if c.side != self.side
                            and want in fold_name(c.name))
            if theirs:
                other = "Allies" if self.side == "Axis" else "Axis"
                shown = ", ".join(theirs[:2]) + (" ..." if len(theirs) > 2 else "")
                return (f"No {theme.SIDE_LABEL[self.side]} card matches: {shown} "
                        f"{'is an' if len(theirs) == 1 else 'are'} "
                        f"{theme.SIDE_LABEL[other]} card{'' if len(theirs) == 1 else 's'}.")
        return "No unit matches the filters."

    def validate(self) -> list[str]:
        from game.rules.army import validate_army
        self.problems = validate_army(self.army, budget=self.budget, max_units=MAX_UNITS,
                                      historical=self.setup.historical, year=self.setup.year,
                                      edition=self.edition)
        return self.problems

    def add(self, card: Any) -> None:
        why = self.refusals.get(card.name)
        if why is not None:                 # greyed in the list: the rules' reason
            self.message, self.message_ok = why, False
            return
        self.army.cards.append(card)
        self.army_pick = len(self.army.cards) - 1
        self.message = ""
        self.validate()
        self._fill_army_list()

    def remove(self, index: int | None = None) -> None:
        if index is None:
            index = self.army_pick
        if index is None or not 0 <= index < len(self.army.cards):
            self.message, self.message_ok = "Pick a unit of your army to remove first.", False
            return
        del self.army.cards[index]
        self.army_pick = min(index, len(self.army.cards) - 1) if self.army.cards else None
        self.validate()
        self._fill_army_list()

    def set_army(self, army: Any, source: str) -> None:
        from game.rules.army import Army
        self.army = Army(name=army.name, side=self.side, cards=list(army.cards))
        self.army_pick = None
        if self.name_entry is not None:
            self.name_entry.set_text(self.army.name)
        self.validate()
        self._fill_army_list()
        self.message, self.message_ok = f"Loaded {source}.", True

    # --- layout --------------------------------------------------------------------------------
    def _geometry(self, size: tuple[int, int]) -> dict[str, pygame.Rect]:
        w, h = size
        left_w = 330 if w >= 1200 else 260
        left = pygame.Rect(12, 70, left_w, h - 70 - 70)
        card_w = 300
        card = pygame.Rect(left.right + 14, 70, card_w, max(360, min(600, h - 70 - 170)))
        right = pygame.Rect(card.right + 14, 70, w - card.right - 26, h - 70 - 70)
        return {"left": left, "card": card, "right": right}

    def build(self, size: tuple[int, int]) -> None:
        w, h = size
        g = self._geometry(size)
        left, card, right = g["left"], g["card"], g["right"]
        ui = self.app.ui
        entry_x = 230 if w < 1200 else 300
        entry_w = max(160, min(330, w - entry_x - (400 if w >= 1200 else 330) - 20))
        self.name_entry = pygame_gui.elements.UITextEntryLine(
            pygame.Rect(entry_x, 16, entry_w, 36), ui)
        self.name_entry.set_text_length_limit(40)
        self.name_entry.set_text(self.army.name)
        # search by name, then filters: cycle buttons (click to step through the choices)
        self.search_entry = pygame_gui.elements.UITextEntryLine(
            pygame.Rect(left.x + 8, left.y + 8, left.w - 16, 34), ui,
            placeholder_text="Search by name")
        self.search_entry.set_text_length_limit(40)
        self.search_entry.set_text(self.search)
        fy = left.y + 8 + 40
        step = 38 if h >= 720 else 34
        keys = ("f_nation", "f_type", "f_year", "f_cost", "f_show", "f_sort")
        for i, key in enumerate(keys):
            self.button(key, (left.x + 8, fy + i * step, left.w - 16, step - 4),
                        self._filter_text(key))
        top = fy + len(keys) * step + 6
        self.browser = pygame_gui.elements.UISelectionList(
            pygame.Rect(left.x + 8, top, left.w - 16, left.bottom - top - 8), [], ui)
        self._fill_browser()
        # card actions
        self.button("add", (card.x, card.bottom + 10, card.w, 44), "Add to army",
                    object_id="#primary")
        self.button("remove", (card.x, card.bottom + 60, card.w, 40), "Remove selected unit")
        # the army
        list_h = self._list_h(right)
        self.army_list = pygame_gui.elements.UISelectionList(
            pygame.Rect(right.x + 8, right.y + 44, right.w - 16, list_h), [], ui)
        self._fill_army_list()
        # bottom bar
        by = h - 58
        end_w = 160 if w >= 1200 else 120
        bw = min(170, (w - 2 * end_w - 26 - 12 - 30 - 40) // 4)
        for i, (key, text) in enumerate((("sample", "Load sample army"), ("load", "Load saved..."),
                                         ("save", "Save army"), ("clear", "Clear army"))):
            self.button(key, (12 + i * (bw + 10), by, bw, 44), text)
        self.button("back", (w - 2 * end_w - 26, by, end_w, 44), "Back")
        self.button("done", (w - end_w - 12, by, end_w, 44), "Done", object_id="#primary")
        self.file_dialog = None

    def _filter_text(self, key: str) -> str:
        if key == "f_nation":
            return f"Nationality: {self.nation or 'all'}"
        if key == "f_type":
            return f"Type: {self.type_filter.lower() if self.type_filter != 'All' else 'all'}"
        if key == "f_year":
            return "Year: any" if self.year is None else f"Year: {self.year} or earlier"
        if key == "f_cost":
            return "Cost: any" if self.max_cost is None else f"Cost: up to {self.max_cost} points"
        if key == "f_show":
            return f"Show: {SHOWS[self.show]}"
        return f"Sort: {self.sort.lower()}"

    def _fill_browser(self) -> None:
        if self.browser is None:
            return
        self._browser_items.clear()
        items = []
        for c in self.visible_cards():
            text = f"{c.name}  ({c.cost})"
            self._browser_items[text] = c
            items.append(text if self.refusals.get(c.name) is None
                         else (text, "#unplayable_item"))          # greyed: can't be chosen
        self.browser.set_item_list(items)
        if self.browsed is None and self._browser_items:
            self.browsed = next(iter(self._browser_items.values()))

    def _fill_army_list(self) -> None:
        if self.army_list is None:
            return
        self._army_items.clear()
        items = []
        for i, c in enumerate(self.army.cards):
            text = f"{i + 1}. {c.name}  ({c.cost})"
            self._army_items[text] = i
            items.append(text)
        self.army_list.set_item_list(items)

    # --- input ---------------------------------------------------------------------------------
    def on_button(self, key: str) -> None:
        if key.startswith("f_"):
            self._cycle(key)
        elif key == "add":
            if self.browsed is not None:
                self.add(self.browsed)
        elif key == "remove":
            self.remove()
        elif key == "clear":
            self.army.cards.clear()
            self.army_pick = None
            self.validate()
            self._fill_army_list()
        elif key == "sample":
            from game.ui.scenes.battle_setup import sample_army, sample_army_path
            try:
                ed = getattr(self.setup, "edition", "first")      # later: with Aircraft
                self.set_army(sample_army(self.side, ed),
                              f"the sample army ({sample_army_path(self.side, ed).name})")
            except (DataError, ImportError) as exc:
                self.message, self.message_ok = f"Can't load the sample army: {exc}", False
        elif key == "load":
            self._open_dialog("load")
        elif key == "save":
            self.save()
        elif key == "back":
            from game.ui.scenes.battle_setup import BattleSetupScene
            self.setup.armies.clear()
            self.next_scene = BattleSetupScene(self.app, self.setup)
        elif key == "done":
            self.done()

    def _cycle(self, key: str) -> None:
        def step(seq: list, cur: Any) -> Any:
            return seq[(seq.index(cur) + 1) % len(seq)] if cur in seq else seq[0]
        if key == "f_nation":
            self.nation = step([None] + self.nations, self.nation)
        elif key == "f_type":
            self.type_filter = step(self.types, self.type_filter)
        elif key == "f_show":
            self.show = step(list(SHOWS), self.show)
        elif key == "f_year":
            self.year = step(list(YEARS), self.year)
        elif key == "f_cost":
            self.max_cost = step(list(COSTS), self.max_cost)
        elif key == "f_sort":
            self.sort = step(list(SORTS), self.sort)
        self.buttons[key].set_text(self._filter_text(key))
        self.browsed = None
        self._fill_browser()

    def set_search(self, text: str) -> None:
        """Show only the cards whose name contains ``text`` (with the other filters)."""
        self.search = text
        self.browsed = None
        self._fill_browser()

    def done(self) -> bool:
        if self.validate():
            self.message, self.message_ok = "Fix the problems listed on the right first.", False
            return False
        from game.ui.scenes.battle_setup import next_step
        self.setup.armies[self.side] = self.army
        self.next_scene = next_step(self.app, self.setup)
        return True

    def save(self, path: str | Path | None = None) -> bool:
        from game.data.armies import save_army
        if path is None:
            folder = armies_folder()
            path = folder / f"{slug(self.army.name) or 'army'}.yaml"
        p = Path(path)
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
            save_army(self.army, p)
        except (OSError, DataError) as exc:
            self.message, self.message_ok = f"Could not save: {exc}", False
            return False
        self.message, self.message_ok = f"Saved to {p}", True
        return True

    def load(self, path: str | Path) -> bool:
        from game.ui.scenes.battle_setup import load_army_file
        try:
            army = load_army_file(path, self.side)
        except DataError as exc:
            self.message, self.message_ok = str(exc), False
            return False
        self.set_army(army, Path(path).name)
        return True

    def _open_dialog(self, mode: str) -> None:
        """A file dialog in the player's armies folder (the shipped armies in
        units/armies when the player has saved none yet)."""
        from game.ui.scenes.battle_setup import ARMIES_DIR
        folder = armies_folder()
        try:
            folder.mkdir(parents=True, exist_ok=True)
            if not any(folder.glob("*.yaml")) and ARMIES_DIR.is_dir():
                folder = ARMIES_DIR
        except OSError:
            folder = ARMIES_DIR if ARMIES_DIR.is_dir() else Path.cwd()
        w, h = self.app.size
        rect = pygame.Rect(0, 0, min(640, w - 40), min(480, h - 40))
        rect.center = (w // 2, h // 2)
        self.dialog_mode = mode
        self.file_dialog = pygame_gui.windows.UIFileDialog(
            rect, self.app.ui, window_title="Load a saved army", initial_file_path=str(folder),
            allow_existing_files_only=True)

    def on_event(self, event: pygame.event.Event) -> None:
        t = event.type
        if t == pygame_gui.UI_SELECTION_LIST_NEW_SELECTION:
            if event.ui_element is self.browser and event.text in self._browser_items:
                self.browsed = self._browser_items[event.text]
            elif event.ui_element is self.army_list and event.text in self._army_items:
                self.army_pick = self._army_items[event.text]
                self.browsed = self.army.cards[self.army_pick]
        elif t == pygame_gui.UI_SELECTION_LIST_DOUBLE_CLICKED_SELECTION:
            if event.ui_element is self.browser and event.text in self._browser_items:
                self.add(self._browser_items[event.text])
            elif event.ui_element is self.army_list and event.text in self._army_items:
                self.remove(self._army_items[event.text])
        elif t == pygame_gui.UI_TEXT_ENTRY_CHANGED and event.ui_element is self.search_entry:
            self.set_search(event.text)
        elif t == pygame_gui.UI_TEXT_ENTRY_CHANGED and event.ui_element is self.name_entry:
            self.army.name = event.text.strip() or f"{theme.SIDE_LABEL[self.side]} army"
            self.validate()
        elif t == pygame_gui.UI_FILE_DIALOG_PATH_PICKED and event.ui_element is self.file_dialog:
            self.file_dialog = None
            self.load(event.text)
        elif t == pygame_gui.UI_WINDOW_CLOSE and event.ui_element is self.file_dialog:
            self.file_dialog = None
        elif t == pygame.MOUSEBUTTONDOWN and event.button == 1 and self.file_dialog is None:
            for i, rect in enumerate(self.strip_rects):
                if rect.collidepoint(event.pos) and i < len(self.army.cards):
                    self.army_pick = i
                    self.browsed = self.army.cards[i]
                    break
        elif t == pygame.KEYDOWN and self.file_dialog is None and not any(
                e is not None and e.is_focused for e in (self.name_entry, self.search_entry)):
            if event.key == pygame.K_ESCAPE:
                self.on_button("back")
            elif event.key in (pygame.K_a, pygame.K_PLUS, pygame.K_KP_PLUS):
                self.on_button("add")
            elif event.key in (pygame.K_DELETE, pygame.K_MINUS, pygame.K_KP_MINUS):
                self.on_button("remove")

    # --- drawing -------------------------------------------------------------------------------
    @staticmethod
    def _list_h(right: pygame.Rect) -> int:
        return max(150, min(290, right.h // 2 - 50))

    def _draw_strip(self, surface: pygame.Surface, right: pygame.Rect, y: int) -> int:
        """The army's miniatures at a glance (one token per unit); returns the y below."""
        from game.ui.tokens import draw_token
        size, gap = 34, 4
        per_row = max(1, (right.w - 16 + gap) // (size + gap))
        rows = max(1, -(-max(1, len(self.army.cards)) // per_row))
        self.strip_rects = []
        for i, card in enumerate(self.army.cards):
            r, c = divmod(i, per_row)
            rect = pygame.Rect(right.x + 8 + c * (size + gap), y + r * (size + gap), size, size)
            self.strip_rects.append(rect)
            draw_token(surface, card, rect, side=self.side, facing=1, label=False,
                       selected=(i == self.army_pick))
        if not self.army.cards:
            draw_text(surface, "No units yet: pick a card on the left and press Add.",
                      (right.x + 10, y + 8), 19, theme.TEXT_DIM)
        return y + rows * (size + gap)

    def draw(self, surface: pygame.Surface) -> None:
        draw_background(surface)
        w, h = surface.get_size()
        g = self._geometry((w, h))
        left, card, right = g["left"], g["card"], g["right"]
        rim = theme.SIDE_RIM[self.side]
        pygame.draw.rect(surface, rim, (0, 0, w, 6))
        draw_text(surface, f"{theme.SIDE_LABEL[self.side]} army", (14, 14), 44 if w >= 1200 else 36,
                  theme.TEXT, bold=True)
        pts, n = self.army.points, len(self.army.cards)
        col_p = theme.BAD if pts > self.budget else theme.GOOD
        col_n = theme.BAD if n > MAX_UNITS else theme.GOOD
        x = w - 14
        ts = 32 if w >= 1200 else 26
        r = draw_text(surface, f"Units {n} / {MAX_UNITS}", (x, 22), ts, col_n, bold=True,
                      anchor="topright")
        draw_text(surface, f"Points {pts} / {self.budget}", (r.x - 24, 22), ts, col_p, bold=True,
                  anchor="topright")
        draw_panel(surface, left)
        draw_panel(surface, right)
        if self.browsed is not None:
            draw_card(surface, self.browsed, card)
            why = self.refusals.get(self.browsed.name)
            if why is not None:
                f = theme.font(18)
                lines = wrap(why, f, card.w - 20)[:4]
                band = pygame.Rect(card.x, card.bottom - 12 - len(lines) * f.get_linesize(),
                                   card.w, 12 + len(lines) * f.get_linesize())
                draw_panel(surface, band, theme.PANEL, theme.BAD, 6)
                y = band.y + 6
                for line in lines:
                    surface.blit(f.render(line, True, theme.BAD), (band.x + 10, y))
                    y += f.get_linesize()
        else:
            draw_panel(surface, card)
            text = self.empty_text()
            lines = wrap(text, theme.font(22), card.w - 30)
            y = card.centery - (len(lines) * 26) // 2
            for line in lines:
                draw_text(surface, line, (card.centerx, y), 22, theme.TEXT_DIM, anchor="midtop")
                y += 26
        draw_text(surface, fit(f"Your army: {self.army.name}", theme.font(26, True), right.w - 16),
                  (right.x + 10, right.y + 12), 26, theme.ACCENT, bold=True)
        # validation
        list_h = self._list_h(right)
        y = right.y + 44 + list_h + 8
        y = self._draw_strip(surface, right, y) + 8
        bottom = right.bottom - 8
        if self.problems:
            draw_text(surface, "Not ready yet:", (right.x + 10, y), 24, theme.BAD, bold=True)
            y += 28
            f = theme.font(21)
            limit = bottom - (100 if self.message else 30)
            for problem in self.problems:
                for line in wrap("• " + problem, f, right.w - 24):
                    if y + f.get_linesize() > limit:
                        break
                    surface.blit(f.render(line, True, theme.TEXT), (right.x + 12, y))
                    y += f.get_linesize()
                y += 4
        else:
            draw_text(surface, "This army is legal: press Done when you are ready.",
                      (right.x + 10, y), 22, theme.GOOD, width=right.w - 20)
            y += 50
        opts = ["later edition"] if getattr(self.setup, "edition", "first") == "later" else []
        if self.setup.historical:
            opts.append("historical army limits")
        if self.setup.year is not None:
            opts.append(f"units from {self.setup.year} or earlier")
        if opts and y + 24 < bottom:
            draw_text(surface, "Options: " + ", ".join(opts), (right.x + 10, bottom - 24), 19,
                      theme.TEXT_DIM)
        if self.message:
            f = theme.font(19)
            lines = wrap(self.message, f, right.w - 20)[:3]
            my = bottom - 30 - len(lines) * f.get_linesize()
            for line in lines:
                surface.blit(f.render(line, True, theme.GOOD if self.message_ok else theme.BAD),
                             (right.x + 10, my))
                my += f.get_linesize()
