"""Army building in secret: hand-over screen, card browser, live totals and every
validation message, sample/saved armies, hand-over of both armies (rulebook:
Building Your Army; Assault Scenario; ruling 12)."""
from pathlib import Path

import pygame
import pytest

from game.ui.battle_setup_data import BattleSetup
from tests.uikit import running_app


@pytest.fixture
def app(tmp_path, monkeypatch):
    yield from running_app(tmp_path, monkeypatch)


def click(app, pos, frames=2):
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    for _ in range(frames):
        app.step()


def press(app, key, frames=2):
    click(app, app.scene.buttons[key].rect.center, frames)


def builder(app, side="Allies", setup=None):
    from game.ui.scenes.army_builder import ArmyBuilderScene
    app.switch(ArmyBuilderScene(app, setup or BattleSetup(), side))
    app.step()
    return app.scene


def type_search(app, text):
    """Type ``text`` into the builder's search box (a click to focus, Backspace to clear
    it, then the text as typed keys), as a player does."""
    entry = app.scene.search_entry
    click(app, entry.rect.center)
    for _ in range(len(entry.get_text())):
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_BACKSPACE, mod=0,
                                             unicode="", scancode=0))
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_BACKSPACE, mod=0,
                                             unicode="", scancode=0))
    app.step()
    for ch in text:
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=ch))
    app.step()
    app.step()


def click_list_item(app, ui_list, text):
    """Click the visible row of a pygame_gui selection list that starts with ``text``
    (in the card browser, typing the name into the search box first if the row is
    scrolled out of view: the whole roster is 150+ cards a side)."""
    for attempt in range(2):
        for item in ui_list.item_list:
            if item["text"].startswith(text) and item["button_element"] is not None:
                click(app, item["button_element"].rect.center, frames=3)  # press, select, report
                return
        if ui_list is not app.scene.browser:
            break
        type_search(app, text)
    raise AssertionError(f"no visible row '{text}'")


def test_handover_screen_shows_nothing_of_the_other_army(app):
    """The second player's hand-over shows no name, unit or points of the first army."""
    from game.ui.scenes.army_builder import HandOverScene
    from game.ui.scenes.battle_setup import sample_army
    setup = BattleSetup()
    setup.armies["Allies"] = sample_army("Allies")
    app.switch(HandOverScene(app, setup, "Axis"))
    app.step()
    shown = " ".join(b.text for b in app.scene.buttons.values())
    for card in setup.armies["Allies"].cards:
        assert card.name not in shown
    assert "Axis" in shown
    press(app, "ready")
    from game.ui.scenes.army_builder import ArmyBuilderScene
    assert isinstance(app.scene, ArmyBuilderScene) and app.scene.side == "Axis"
    assert app.scene.army.cards == []                       # starts empty, not the Allied army
    assert all(c.side == "Axis" for c in app.scene.roster)  # only its own side's cards


def test_browse_and_add_by_clicking(app):
    s = builder(app)
    click_list_item(app, s.browser, "M4A1 Sherman")
    assert s.browsed.name == "M4A1 Sherman"
    press(app, "add")
    press(app, "add")
    assert [c.name for c in s.army.cards] == ["M4A1 Sherman", "M4A1 Sherman"]
    assert s.army.points == 2 * s.browsed.cost
    assert s.problems == []


def test_remove_by_picking_in_the_army_list(app):
    s = builder(app)
    for name in ("KV-1", "Bazooka"):
        click_list_item(app, s.browser, name)
        press(app, "add")
    click_list_item(app, s.army_list, "1. KV-1")
    assert s.army_pick == 0
    press(app, "remove")
    assert [c.name for c in s.army.cards] == ["Bazooka"]


def test_live_totals_and_the_points_message(app):
    """rulebook: Building Your Army - up to 100 points."""
    s = builder(app)
    click_list_item(app, s.browser, 'M4A3E8 Sherman "Easy Eight"')
    for _ in range(2):
        press(app, "add")
    assert s.army.points > 100
    assert any("the limit is 100" in p for p in s.problems)
    press(app, "done")
    assert s.next_scene is None and "Fix the problems" in s.message


def test_unit_count_message(app):
    """rulebook: Building Your Army - no more than 15 units."""
    s = builder(app)
    cheap = min(s.visible_cards(), key=lambda c: c.cost)      # playable ones by default
    for _ in range(16):
        s.add(cheap)
    assert any("15" in p for p in s.problems)


def test_historical_limits_message(app):
    """ruling 12 / rulebook: Historical Army Limits - Soviet units fight alone."""
    setup = BattleSetup(historical=True)
    s = builder(app, setup=setup)
    for name in ("KV-1", "M4A1 Sherman"):
        s.add(next(c for c in s.roster if c.name == name))
    assert any("Soviet" in p for p in s.problems)


def test_year_option_limits_the_army(app):
    """ruling 12: with a year set, later units are refused and filtered by default."""
    setup = BattleSetup(year=1941)
    s = builder(app, setup=setup)
    assert all(c.year <= 1941 for c in s.visible_cards())
    late = next(c for c in s.roster if c.year > 1941)
    s.add(late)
    assert s.problems


def test_assault_defender_budget(app):
    """rulebook: Assault Scenario - the defender has 80 points."""
    setup = BattleSetup(scenario="assault", attacker="Axis")
    s = builder(app, setup=setup)
    assert s.budget == 80
    s.add(next(c for c in s.roster if c.name == "M4A3E8 Sherman \"Easy Eight\""))
    s.add(next(c for c in s.roster if c.name == "KV-1"))
    assert any("the limit is 80" in p for p in s.problems)


def test_filters_and_sort(app):
    s = builder(app)
    press(app, "f_nation")
    assert s.nation == s.nations[0]
    assert s.visible_cards() and all(c.nationality == s.nation for c in s.visible_cards())
    for _ in range(len(s.nations)):
        press(app, "f_nation")
    assert s.nation is None
    press(app, "f_type")
    assert all(c.type == "Soldier" for c in s.visible_cards())
    press(app, "f_type")
    assert all(c.type == "Vehicle" for c in s.visible_cards())
    press(app, "f_type")   # Tank
    assert all(c.subtype == "Tank" for c in s.visible_cards())
    press(app, "f_type")   # Artillery
    assert all(c.subtype == "Artillery" for c in s.visible_cards())
    for _ in range(len(s.types) - 4):
        press(app, "f_type")
    assert s.type_filter == "All"
    press(app, "f_cost")
    assert all(c.cost <= 5 for c in s.visible_cards())
    press(app, "f_cost")
    press(app, "f_sort")
    press(app, "f_sort")      # cost, high first
    costs = [c.cost for c in s.visible_cards()]
    assert costs == sorted(costs, reverse=True) and max(costs) <= 10
    press(app, "f_year")
    assert all(c.year <= 1939 for c in s.visible_cards())
    shown = [i["text"] for i in s.browser.item_list]
    assert shown == [f"{c.name}  ({c.cost})" for c in s.visible_cards()]


def test_sample_army_loads_and_is_legal(app):
    s = builder(app)
    press(app, "sample")
    assert s.army.points == 100 and len(s.army.cards) == 8
    assert s.problems == []


def test_save_and_load_an_army(app, tmp_path):
    s = builder(app)
    for name in ("KV-1", "Bazooka", "Bazooka"):
        s.add(next(c for c in s.roster if c.name == name))
    s.name_entry.set_text("Red Wall")
    s.army.name = "Red Wall"
    press(app, "save")
    saved = tmp_path / "cfg" / "armies" / "red-wall.yaml"
    assert saved.is_file(), s.message
    press(app, "clear")
    assert s.army.cards == []
    assert s.load(saved)
    assert [c.name for c in s.army.cards] == ["KV-1", "Bazooka", "Bazooka"]
    assert s.army.name == "Red Wall"


def test_loading_the_other_sides_army_is_refused(app):
    from game.ui.scenes.battle_setup import sample_army_path
    s = builder(app, side="Axis")
    assert s.load(sample_army_path("Allies")) is False
    assert "Allies army" in s.message and s.army.cards == []


def test_load_saved_opens_a_file_dialog(app):
    s = builder(app)
    press(app, "load")
    assert s.file_dialog is not None and s.file_dialog.alive()


def test_two_armies_in_secret_then_the_battle(app, monkeypatch):
    """Allies build, the seat is handed over, Axis build, both armies reach the battle."""
    from game.ui.scenes import battle_setup as bs
    from game.ui.scenes.army_builder import HandOverScene
    got = {}

    def fake_battle(app_, setup):
        got["setup"] = setup
        from game.ui.scenes.army_builder import MessageScene
        return MessageScene(app_, "battle", "stand-in for the battle screen"), None
    monkeypatch.setattr(bs, "battle_scene", fake_battle)
    setup = BattleSetup(config=4)
    app.switch(HandOverScene(app, setup, "Allies"))
    app.step()
    press(app, "ready")
    press(app, "sample")
    press(app, "done")
    assert isinstance(app.scene, HandOverScene) and app.scene.side == "Axis"
    press(app, "ready")
    press(app, "sample")
    press(app, "done")
    s = got["setup"]
    assert s.config == 4
    assert s.armies["Allies"].side == "Allies" and s.armies["Axis"].side == "Axis"
    assert all(c.side == "Axis" for c in s.cards("Axis"))
    assert s.options()["budgets"] == {"Axis": 100, "Allies": 100}


def test_every_roster_card_fits_on_the_card_view(app):
    """The full stat card shows every field; no card a battle can use needs cutting at the
    builder's size (a card refused everywhere may carry long not-yet descriptions)."""
    from game.data.units import load_roster
    from game.rules.army import playable_editions
    from game.ui.cardview import draw_card
    surf = pygame.Surface((320, 600))
    for card in load_roster(edition="later").values():
        if playable_editions(card):
            assert draw_card(surf, card, pygame.Rect(0, 0, 300, 560)), card.name


def test_solo_practice_gives_the_ai_its_sample_army_and_skips_the_hand_over(app, monkeypatch):
    from game.ui.scenes import battle_setup as bs
    from game.ui.scenes.army_builder import ArmyBuilderScene
    got = {}

    def fake_battle(app_, setup):
        got["setup"] = setup
        from game.ui.scenes.army_builder import MessageScene
        return MessageScene(app_, "battle", "stand-in"), None
    monkeypatch.setattr(bs, "battle_scene", fake_battle)
    setup = BattleSetup(solo="Axis")
    scene = bs.next_step(app, setup)
    assert isinstance(scene, ArmyBuilderScene) and scene.side == "Allies"
    assert setup.armies["Axis"].side == "Axis"
    app.switch(scene)
    app.step()
    press(app, "sample")
    press(app, "done")
    assert got["setup"].solo == "Axis" and set(got["setup"].armies) == {"Axis", "Allies"}


def test_typing_the_army_name_does_not_trigger_shortcuts(app):
    """Keys typed into the name field go to the field only ('a' is also the Add key)."""
    s = builder(app)
    click(app, s.name_entry.rect.center)
    assert s.name_entry.is_focused
    s.name_entry.set_text("")
    for ch in "Panzer a":
        k = pygame.key.key_code(ch) if ch != " " else pygame.K_SPACE
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=ch, scancode=0))
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=ch))
        app.step()
    app.step()
    assert s.army.cards == []
    assert s.army.name == "Panzer a"


def test_the_armys_tokens_show_and_select_its_units(app):
    s = builder(app)
    press(app, "sample")
    app.step()
    assert len(s.strip_rects) == len(s.army.cards) == 8
    click(app, s.strip_rects[6].center)
    assert s.army_pick == 6 and s.browsed is s.army.cards[6]
    press(app, "remove")
    assert len(s.army.cards) == 7 and len(s.strip_rects) == 7


def test_resizing_the_window_keeps_the_army_and_the_filters(app):
    s = builder(app)
    press(app, "sample")
    press(app, "f_type")
    app.step([pygame.event.Event(pygame.VIDEORESIZE, w=1000, h=680, size=(1000, 680))])
    app.step()
    assert app.scene is s and len(s.army.cards) == 8 and s.type_filter == "Soldier"
    assert s.buttons["done"].rect.right <= 1000 and s.buttons["done"].rect.bottom <= 680
    assert "Soldier".lower() in s.buttons["f_type"].text.lower()
    assert len(s.army_list.item_list) == 8


def test_load_dialog_then_picking_a_shipped_army(app):
    """With no saved armies yet, the dialog opens on the shipped ones; picking one loads it."""
    import pygame_gui
    from game.ui.scenes.battle_setup import ARMIES_DIR
    s = builder(app)
    press(app, "load")
    assert s.file_dialog is not None
    assert Path(s.file_dialog.current_directory_path) == ARMIES_DIR.resolve()
    pick = ARMIES_DIR / "us_armored_infantry.yaml"
    pygame.event.post(pygame.event.Event(pygame_gui.UI_FILE_DIALOG_PATH_PICKED, text=str(pick),
                                         ui_element=s.file_dialog))
    app.step()
    app.step()
    assert s.army.side == "Allies" and len(s.army.cards) == 13 and s.problems == []


def test_searching_for_the_other_sides_card_says_whose_it_is(app):
    """Found in a play-through: typing "tiger" while building the Allied army showed only
    "No unit matches the filters." - a new player does not know the Tiger is an Axis
    card, so the empty list says so."""
    s = builder(app, "Allies")
    type_search(app, "tiger")
    assert s.search == "tiger" and not s.visible_cards()
    text = s.empty_text()
    assert "Axis" in text and "Tiger" in text, text
    type_search(app, "zzzz")                           # nothing anywhere: the plain line
    assert s.empty_text() == "No unit matches the filters."
