"""The map layout preview, driven headless with real pygame events (issue 3).

Rulebook: the battle map configuration is picked with a die roll (1-6); line of sight
and range bands (short 0-1, medium 2-4, long 5-8); ruling 8 (deployment zones)."""
import random

import pygame
import pytest

from game.data.maps import load_configuration
from game.rules.errors import DataError
from game.rules.hexes import Hex, range_band
from game.ui.app import App
from game.ui.settings import Settings
from game.ui.scenes.preview import MapSource, PreviewScene

SECTION_SIDES = ["Able-1", "Able-2", "Baker-1", "Baker-2", "Charlie-1", "Charlie-2", "Dog-1", "Dog-2"]


@pytest.fixture
def app(tmp_path, monkeypatch):
    monkeypatch.setenv("HEXFRONT_CONFIG_DIR", str(tmp_path))
    settings = Settings()
    settings.sound = False
    a = App(size=(1280, 800), settings=settings, save_settings=False)
    yield a
    a.close()


def start(app, **kw):
    scene = PreviewScene(app, **kw)
    app.switch(scene)
    app.running = True
    pygame.event.clear()
    app.step()
    return scene


def key(app, k, frames=1):
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))
    for _ in range(frames):
        app.step()


def click(app, pos, button=1):
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))
    app.step()
    app.step()          # pygame_gui posts its button event; the next frame delivers it


def hover(app, pos):
    pygame.mouse.set_pos(pos)
    app.step()


def test_keys_pick_each_configuration(app):
    scene = start(app)
    for n in (1, 2, 3, 4, 5, 6):
        key(app, getattr(pygame, f"K_{n}"))
        assert scene.config_number == n
        assert scene.section_view is None
        bm = scene.battle_map
        assert bm.number == n and len(bm.terrain) == 171
        assert bm is load_configuration(n)


def test_buttons_pick_each_configuration(app):
    scene = start(app, config=6)
    assert scene.config_number == 6
    for n in (2, 5, 1):
        click(app, scene.buttons[f"config{n}"].rect.center)
        assert scene.config_number == n


def test_die_roll_picks_and_shows_a_configuration(app):
    """rulebook: roll a die to choose the battle map configuration"""
    expect = random.Random(99)
    scene = start(app, rng=random.Random(99))
    assert scene.last_roll is None
    for _ in range(3):
        key(app, pygame.K_r)
        want = expect.randint(1, 6)
        assert scene.last_roll == want and scene.config_number == want
    click(app, scene.buttons["roll"].rect.center)
    want = expect.randint(1, 6)
    assert scene.last_roll == want and scene.config_number == want


def test_hover_shows_the_hex_under_the_mouse(app):
    scene = start(app, config=3)
    for h in (Hex(0, 0), Hex(-5, -5), Hex(5, 5), scene.battle_map.objective):
        hover(app, scene.hex_center(h))
        assert scene.hover_hex == h
    # an edge half-hex can be pointed at (to read "out of play") but not selected
    half = min(scene.battle_map.half_hexes, key=lambda h: (h.r, abs(h.x2)))   # top edge
    x, y = scene.hex_center(half)
    hover(app, (x, y + 5))                  # its lower half is on the sheet
    assert scene.hover_hex == half
    click(app, (x, y + 5))
    assert scene.selected_hex is None
    hover(app, (x, y - 8))                  # above the sheet: nothing
    assert scene.hover_hex is None
    hover(app, (1275, 795))             # over the side panel
    assert scene.hover_hex is None


def test_click_shows_every_visible_hex_by_range_band(app):
    """rulebook: line of sight from hex centre to hex centre, ranges 0-1 / 2-4 / 5-8"""
    scene = start(app, config=1)
    bm = scene.battle_map
    h = Hex(-6, 0)
    click(app, scene.hex_center(h))
    assert scene.selected_hex == h
    assert scene.visible == {v: range_band(h.distance(v)) for v in bm.los.visible_from(h)}
    bands = set(scene.visible.values())
    assert {"short", "medium", "long"} <= bands
    blocked = [v for v in bm.terrain if v not in scene.visible]
    assert blocked, "configuration 1 has blocking terrain, something must be hidden"
    assert all(not bm.can_see(h, v) for v in blocked)
    # hovering a hidden hex while one is selected keeps both
    hover(app, scene.hex_center(blocked[0]))
    assert scene.hover_hex == blocked[0] and scene.selected_hex == h
    # clicking the same hex again clears; right-click clears too
    click(app, scene.hex_center(h))
    assert scene.selected_hex is None and scene.visible == {}
    click(app, scene.hex_center(Hex(2, 2)))
    assert scene.selected_hex == Hex(2, 2)
    click(app, scene.hex_center(Hex(2, 2)), button=3)
    assert scene.selected_hex is None


def test_switching_maps_clears_the_selection(app):
    scene = start(app, config=2)
    click(app, scene.hex_center(Hex(0, 0)))
    assert scene.selected_hex == Hex(0, 0)
    key(app, pygame.K_4)
    assert scene.config_number == 4 and scene.selected_hex is None and scene.visible == {}


def test_section_sides_flip_one_by_one(app):
    scene = start(app, config=5)
    key(app, pygame.K_s)
    assert scene.section_view == SECTION_SIDES[0]
    seen = [scene.section_view]
    for _ in range(7):
        key(app, pygame.K_RIGHT)
        seen.append(scene.section_view)
        assert scene.battle_map.name == scene.section_view
    assert seen == SECTION_SIDES
    key(app, pygame.K_RIGHT)
    assert scene.section_view == SECTION_SIDES[0]          # wraps round
    key(app, pygame.K_LEFT)
    assert scene.section_view == SECTION_SIDES[-1]
    click(app, scene.buttons["prev"].rect.center)
    assert scene.section_view == SECTION_SIDES[-2]
    # a section side alone: hover and line of sight work on it too
    h = scene.battle_map.hexes[10]
    click(app, scene.hex_center(h))
    assert scene.selected_hex == h and h in scene.visible
    key(app, pygame.K_s)
    assert scene.section_view is None and scene.config_number == 5
    key(app, pygame.K_s)
    click(app, scene.buttons["config3"].rect.center)
    assert scene.section_view is None and scene.config_number == 3


def test_side_panel_compares_the_two_ends(app):
    """ruling 8 zones: cover hexes, objective viewers, longest open line for each end"""
    scene = start(app, config=4)
    stats = scene.stats()
    bm = scene.battle_map
    for end in ("left", "right"):
        st = stats[end]
        assert st.zone == bm.deployment_zone(end)
        assert st.soldier_cover <= st.zone
        assert all(bm.can_see(v, bm.objective) for v in st.zone_sees_objective)
    key(app, pygame.K_f)
    assert scene.show_lines
    key(app, pygame.K_z)
    key(app, pygame.K_l)
    assert not scene.show_zones and scene.show_labels
    click(app, scene.buttons["zones"].rect.center)
    assert scene.show_zones


def test_escape_goes_back_to_the_menu(app):
    from game.ui.scenes.menu import MenuScene
    scene = start(app)
    click(app, scene.hex_center(Hex(0, 0)))
    key(app, pygame.K_ESCAPE)           # first Esc clears the selection
    assert scene.selected_hex is None and app.scene is scene
    key(app, pygame.K_ESCAPE)
    assert isinstance(app.scene, MenuScene)


class BrokenSource(MapSource):
    def configuration(self, number):
        raise DataError("maps/configurations/3_high_ground.yaml", "the objective is off the map",
                        field="objective")


def test_a_broken_map_file_is_reported_not_crashed(app):
    scene = start(app, config=3, source=BrokenSource())
    assert scene.battle_map is None
    assert "objective" in scene.error and "3_high_ground.yaml" in scene.error
    click(app, (300, 300))
    hover(app, (320, 320))
    key(app, pygame.K_s)                 # the sections still load
    assert scene.section_view == SECTION_SIDES[0] and scene.battle_map is not None


def test_window_resize_refits_the_map(app):
    scene = start(app, config=2)
    before = scene.renderer()[0].hex_size
    app.set_window_size((1600, 1000))
    app.step()
    after = scene.renderer()[0].hex_size
    assert after > before
    h = Hex(3, -2)
    hover(app, scene.hex_center(h))
    assert scene.hover_hex == h
    assert scene.buttons["back"].rect.right <= 1600


def test_run_preview_opens_the_scene_in_an_app():
    """python main.py --preview --config N"""
    from game.ui.scenes.preview import run_preview

    class FakeApp:
        size = (1280, 800)
        ran = None

        def run(self, scene):
            FakeApp.ran = scene
            return 0

    assert run_preview(config=5, app_factory=FakeApp) == 0
    assert isinstance(FakeApp.ran, PreviewScene) and FakeApp.ran.config_number == 5


def _motion(app, pos, buttons=(0, 0, 0)):
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=buttons))
    app.step()


def test_wheel_zooms_about_the_mouse_and_right_drag_pans(app):
    """QA: the preview zooms with the wheel (the hex under the mouse stays under it) and
    pans with a right-drag; clicks still pick hexes; Home shows the whole map again."""
    scene = start(app, config=1)
    target = Hex(4, 5) if Hex(4, 5) in scene.battle_map.terrain else sorted(scene.battle_map.terrain)[40]
    pos = scene.hex_center(target)
    size0 = scene.renderer()[0].hex_size
    _motion(app, pos)
    pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1, flipped=False))
    app.step()
    assert scene.zoom_index == 1 and scene.renderer()[0].hex_size > size0
    assert scene.hex_at(pos) == target                     # the anchor stays put
    # a right-drag moves the map; a right-click without moving still clears the selection
    before = scene.hex_center(target)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=3))
    _motion(app, (pos[0] + 40, pos[1] + 30), (0, 0, 1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(pos[0] + 40, pos[1] + 30),
                                         button=3))
    app.step()
    after = scene.hex_center(target)
    assert after != before and abs(after[0] - before[0] - 40) <= 1
    click(app, after)
    assert scene.selected_hex == target and scene.visible
    # nothing beyond the map area answers (the zoomed map reaches under the panel)
    panel = scene._areas(app.size)["panel"]
    assert scene.hex_at(panel.center) is None
    key(app, pygame.K_MINUS)
    assert scene.zoom_index == 0
    key(app, pygame.K_EQUALS)
    key(app, pygame.K_EQUALS)
    assert scene.zoom_index == 2
    key(app, pygame.K_HOME)
    assert scene.zoom_index == 0 and scene.pan_offset == (0.0, 0.0)
    assert scene.renderer()[0].hex_size == size0


def test_zone_and_line_toggles_are_off_for_a_section_side(app):
    """QA fix: a section side alone has no deployment ends, so the Zones and Lines
    toggles are disabled there (they looked switched on but did nothing)."""
    scene = start(app, config=1)
    assert scene.buttons["zones"].is_enabled and scene.buttons["lines"].is_enabled
    key(app, pygame.K_s, frames=2)
    assert scene.section_view is not None
    assert not scene.buttons["zones"].is_enabled and not scene.buttons["lines"].is_enabled
    assert scene.buttons["labels"].is_enabled
    key(app, pygame.K_s, frames=2)
    assert scene.section_view is None and scene.buttons["zones"].is_enabled


def test_no_sight_note_for_the_selected_hex_itself(app):
    """QA fix: pointing at the selected hex no longer reads 'From E3 to E3: 0 hexes';
    any other hex gets its line-of-sight note (rulebook: line of sight, range bands)."""
    scene = start(app, config=1)
    h = sorted(scene.battle_map.terrain)[50]
    scene.select_hex(h)
    scene.hover_hex = h
    assert scene.sight_text() == ""
    other = next(o for o in sorted(scene.battle_map.terrain) if o.distance(h) == 3)
    scene.hover_hex = other
    assert "3 hexes" in scene.sight_text()
