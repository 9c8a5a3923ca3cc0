"""The map layout preview: every battle map configuration and map section side, of
either rules edition (E or the Edition button: the first edition's six
configurations, or the later edition's three battlefields with their three-hex
deployment zones, hedges, cliffs, shell holes and water).

Keys: 1-6 (later: 1-3) pick a configuration, R rolls a die for one (the roll is
shown; in the later edition the die picks a battlefield, ruling L13),
S shows the map section sides alone (Left/Right flip through them; S again
goes back), Z deployment zones on/off, L hex labels on/off, F the longest
lines of sight out of each deployment zone, wheel or + - zoom, Home (or 0)
shows the whole map again, Esc back to the menu.
Mouse: right- or middle-drag pans a zoomed map; hover a hex for its label, terrain and what it does under the rules;
click a hex to see every hex visible from it, coloured by range band; click it
again (or right-click) to clear.

State tests read: ``config_number``, ``hover_hex``, ``selected_hex``,
``visible`` (hex -> range band, ``None`` beyond 8 hexes), ``last_roll``,
``section_view`` (a section side's name, or ``None``).
"""
from __future__ import annotations

import math
import random
from pathlib import Path
from typing import Any, Callable

import pygame

from game.rules.board import BattleMap
from game.rules.errors import DataError
from game.rules.hexes import Hex, hex_label, range_band
from game.rules import mapstats
from game.ui import theme
from game.ui.map_render import (BAND_COLORS, ZONE_COLORS, MapRenderer, draw_los_line,
                                outline_hex, shade_hexes)
from game.ui.widgets import GuiScene, draw_background, draw_die, draw_panel, draw_text, fit, wrap

__all__ = ["PreviewScene", "MapSource", "run_preview"]

ROOT = Path(__file__).resolve().parents[3]
BAND_LETTER = {"short": "S", "medium": "M", "long": "L", None: ""}
PREVIEW_ZOOMS = (1.0, 1.25, 1.6, 2.0, 2.5, 3.2)    # times the size that fits the whole map


class MapSource:
    """Where the preview gets its maps: the configurations and section sides of
    ``game.data.maps`` (tests may pass their own object with the same methods)."""

    def __init__(self, configurations_dir: Path | None = None,
                 sections_dir: Path | None = None) -> None:
        self.configurations_dir = configurations_dir
        self.sections_dir = Path(sections_dir) if sections_dir else ROOT / "maps" / "sections"

    def configurations(self) -> list[tuple[int, str]]:
        from game.data.maps import list_configurations
        return [(int(n), str(name)) for n, name, *_ in list_configurations(self.configurations_dir)]

    def configuration(self, number: int) -> BattleMap:
        from game.data.maps import load_configuration
        return load_configuration(number, directory=self.configurations_dir)

    def section_names(self) -> list[str]:
        if not self.sections_dir.is_dir():
            return []
        return sorted(p.stem for p in self.sections_dir.glob("*.yaml"))

    def section(self, name: str) -> BattleMap:
        from game.data.maps import load_map_file
        return load_map_file(self.sections_dir / f"{name}.yaml")

    def for_roll(self, die: int) -> int:
        return die


class LaterMapSource:
    """The later edition's three battlefields (game.data.later_maps).  Its two map
    sheets are only shown laid together, as the battlefields use them."""

    edition = "later"

    def configurations(self) -> list[tuple[int, str]]:
        from game.data.later_maps import list_later_configurations
        return list_later_configurations()

    def configuration(self, number: int) -> BattleMap:
        from game.data.later_maps import load_later_configuration
        return load_later_configuration(number)

    def section_names(self) -> list[str]:
        return []

    def section(self, name: str) -> BattleMap:
        raise KeyError(f"the later edition's map sections are shown only as battlefields "
                       f"({name})")

    def for_roll(self, die: int) -> int:
        """Ruling L13: the die picks one of the three battlefields."""
        from game.data.later_maps import configuration_for_roll
        return configuration_for_roll(die)


class PreviewScene(GuiScene):
    title = "Map layout preview"

    def __init__(self, app: Any, config: int | None = None, source: Any = None,
                 rng: random.Random | None = None, edition: str = "first") -> None:
        super().__init__(app)
        if source is None:
            source = LaterMapSource() if edition == "later" else MapSource()
        self.source = source
        self.edition = str(getattr(source, "edition", "first"))
        self.ui_rng = rng or random.Random()         # cosmetic: the die shown for a roll
        self.config_number: int | None = None
        self.last_roll: int | None = None
        self.section_view: str | None = None
        self.hover_hex: Hex | None = None
        self.selected_hex: Hex | None = None
        self.visible: dict[Hex, str | None] = {}
        self.show_zones = True
        self.show_labels = False
        self.show_lines = False
        self.error: str | None = None
        self._names: dict[int, str] = {}
        self._sections: list[str] = []
        self._maps: dict[tuple[str, Any], BattleMap] = {}
        self._stats: dict[tuple[str, Any], Any] = {}
        self._renderers: dict[tuple, MapRenderer] = {}
        self._overlay: tuple[tuple, pygame.Surface] | None = None
        self._panels: dict[str, tuple[tuple, pygame.Surface]] = {}
        self._tumble = 0.0
        self._tumble_rng = random.Random()           # faces shown while the die tumbles
        self.zoom_index = 0                          # PREVIEW_ZOOMS: 1.0 = the whole map
        self.pan_offset = (0.0, 0.0)                 # map moved from its centred place
        self._drag: tuple[int, int] | None = None
        self._drag_moved = False
        self._mouse: tuple[int, int] | None = None
        self._listing()
        first = config if config is not None else (min(self._names) if self._names else 1)
        self.select_configuration(first)

    # --- data ------------------------------------------------------------------------------
    @property
    def depth(self) -> int:
        """Deployment depth of the edition on show (the rules' number)."""
        from game.ui.editions import deploy_depth
        return deploy_depth(self.edition)

    def set_edition(self, edition: str) -> None:
        """Show the other edition's configurations (E)."""
        if edition == self.edition:
            return
        self.source = LaterMapSource() if edition == "later" else MapSource()
        self.edition = edition
        self.last_roll = None
        self._maps.clear()
        self._stats.clear()
        self._renderers.clear()
        self._panels.clear()
        self.error = None
        self._listing()
        self.select_configuration(min(self._names) if self._names else 1)
        if getattr(self.app, "ui", None) is not None and self.buttons:
            self.rebuild()

    def _listing(self) -> None:
        try:
            self._names = dict(self.source.configurations())
        except (DataError, ImportError, OSError) as exc:
            self._names = {}
            self.error = _message(exc)
        try:
            self._sections = list(self.source.section_names())
        except (DataError, ImportError, OSError) as exc:
            self._sections = []
            self.error = self.error or _message(exc)

    def _load(self, kind: str, key: Any) -> BattleMap | None:
        k = (kind, key)
        if k not in self._maps:
            try:
                bm = self.source.configuration(key) if kind == "config" else self.source.section(key)
            except (DataError, ImportError, OSError, ValueError, KeyError) as exc:
                self.error = _message(exc)
                return None
            self._maps[k] = bm
        self.error = None
        return self._maps[k]

    @property
    def map_key(self) -> tuple[str, Any]:
        if self.section_view is not None:
            return ("section", self.section_view)
        return ("config", self.config_number)

    @property
    def battle_map(self) -> BattleMap | None:
        return self._maps.get(self.map_key)

    def stats(self) -> Any:
        """End comparison of the configuration (or facts of the section side) on show."""
        bm = self.battle_map
        if bm is None:
            return None
        key = self.map_key
        if key not in self._stats:
            if key[0] == "config":
                self._stats[key] = mapstats.compare_ends(bm, self.depth)
            else:
                self._stats[key] = {
                    "cover": len(mapstats.cover_hexes(bm)),
                    "vehicle_cover": len(mapstats.cover_hexes(bm, kind="vehicle")),
                    "longest": mapstats.longest_open_line(bm),
                    "hexes": len(bm.terrain),
                }
        return self._stats[key]

    # --- what the player does ------------------------------------------------------------------
    def select_configuration(self, number: int) -> None:
        self.section_view = None
        self.config_number = number
        self._clear_selection()
        self.reset_view()
        self._load("config", number)
        self._refresh_buttons()

    def roll(self) -> int:
        """Roll a die for the configuration (rulebook: the battle map's configuration is
        picked with a die roll)."""
        value = self.ui_rng.randint(1, 6)
        self.last_roll = value
        self._tumble = 0.45 * getattr(getattr(self.app, "settings", None), "animation_factor", 1.0)
        for_roll = getattr(self.source, "for_roll", None)
        self.select_configuration(for_roll(value) if for_roll else value)
        if hasattr(self.app, "play"):
            self.app.play("dice")
        return value

    def show_section(self, name: str | None) -> None:
        if name is None:
            self.section_view = None
        elif self._sections:
            self.section_view = name
            self._load("section", name)
        self._clear_selection()
        self.reset_view()
        self._refresh_buttons()

    def toggle_sections(self) -> None:
        if self.section_view is not None:
            self.show_section(None)
        elif self._sections:
            self.show_section(self._sections[0])
        else:
            self.error = "No map section files found in maps/sections."

    def flip(self, step: int) -> None:
        if self.section_view is not None and self._sections:
            i = self._sections.index(self.section_view) if self.section_view in self._sections else 0
            self.show_section(self._sections[(i + step) % len(self._sections)])
        elif self._names:
            numbers = sorted(self._names)
            i = numbers.index(self.config_number) if self.config_number in numbers else 0
            self.select_configuration(numbers[(i + step) % len(numbers)])

    def select_hex(self, h: Hex | None) -> None:
        bm = self.battle_map
        if h is None or bm is None or h not in bm.terrain or h == self.selected_hex:
            self._clear_selection(keep_hover=True)
            return
        self.selected_hex = h
        self.visible = {v: range_band(h.distance(v)) for v in bm.los.visible_from(h)}

    def _clear_selection(self, keep_hover: bool = False) -> None:
        self.selected_hex = None
        self.visible = {}
        if not keep_hover:
            self.hover_hex = None
        self._overlay = None

    def back(self) -> None:
        menu = getattr(self.app, "menu_scene", None)
        if callable(menu):
            self.next_scene = menu()
        else:
            self.quit = True

    # --- screen layout -----------------------------------------------------------------------------
    def _areas(self, size: tuple[int, int]) -> dict[str, pygame.Rect]:
        w, h = size
        panel_w = max(280, min(360, int(w * 0.25)))
        top = 52
        info_h = 86
        return {
            "bar": pygame.Rect(0, 0, w, top - 6),
            "map": pygame.Rect(8, top, w - panel_w - 20, h - top - info_h - 12),
            "info": pygame.Rect(8, h - info_h - 4, w - panel_w - 20, info_h),
            "panel": pygame.Rect(w - panel_w - 6, top, panel_w, h - top - 4),
        }

    def build(self, size: tuple[int, int]) -> None:
        areas = self._areas(size)
        w = size[0]
        gap, x, y, bh = 6, 8, 8, 34
        extra = [("edition", "Later ed. (E)" if self.edition == "first" else "First ed. (E)"),
                 ("roll", "Roll die (R)"), ("sections", "Sections (S)"), ("back", "Back (Esc)")]
        fixed = sum(100 for _ in extra) + gap * (len(extra) + 7)
        n = max(1, len(self._names))
        bw = max(70, min(150, (w - 16 - fixed) // n))
        for number in sorted(self._names):
            label = fit(f"{number} {self._names[number]}", theme.font(19), bw - 14)
            self.button(f"config{number}", (x, y, bw, bh), label,
                        tooltip=f"Configuration {number}: {self._names[number]} (key {number})")
            x += bw + gap
        x += gap
        tips = {"edition": "Show the other rules edition's battle maps (first edition: six "
                           "configurations; later edition: three battlefields)"}
        for key, text in extra:
            self.button(key, (x, y, 100, bh), fit(text, theme.font(19), 94),
                        tooltip=tips.get(key))
            x += 100 + gap
        p = areas["panel"]
        row = p.bottom - 44
        third = (p.w - 4 * gap) // 3
        # toggles: highlighted (selected) while on
        self.button("zones", (p.x + gap, row, third, 36), "Zones (Z)",
                    tooltip="Shade both deployment zones (ruling 8)")
        self.button("labels", (p.x + 2 * gap + third, row, third, 36), "Labels (L)",
                    tooltip="Show hex labels such as H6")
        self.button("lines", (p.x + 3 * gap + 2 * third, row, third, 36), "Lines (F)",
                    tooltip="Draw the longest line of sight out of each deployment zone")
        if self.section_view is not None:
            half = (p.w - 3 * gap) // 2
            self.button("prev", (p.x + gap, row - 42, half, 36), "< Previous side")
            self.button("next", (p.x + 2 * gap + half, row - 42, half, 36), "Next side >")
        self._mark_selected()

    def _refresh_buttons(self) -> None:
        if getattr(self.app, "ui", None) is not None and self.buttons:
            want_flip = self.section_view is not None
            if want_flip != ("prev" in self.buttons):
                self.rebuild()
                return
            self._mark_selected()

    def _mark_selected(self) -> None:
        for key, b in self.buttons.items():
            on = (key == f"config{self.config_number}" and self.section_view is None) or \
                 (key == "sections" and self.section_view is not None) or \
                 (key == "zones" and self.show_zones) or (key == "labels" and self.show_labels) or \
                 (key == "lines" and self.show_lines)
            if on:
                b.select()
            else:
                b.unselect()
            if key in ("zones", "lines"):       # a section side alone has no ends
                if self.section_view is None:
                    b.enable()
                else:
                    b.disable()
            if key == "sections":               # the later sheets are shown laid together
                if self._sections:
                    b.enable()
                else:
                    b.disable()

    def _set_toggle(self, name: str) -> None:
        setattr(self, name, not getattr(self, name))
        self._overlay = None
        if self.buttons:
            self._mark_selected()

    # --- events --------------------------------------------------------------------------------
    def on_button(self, key: str) -> None:
        if key.startswith("config"):
            self.select_configuration(int(key[6:]))
        elif key == "roll":
            self.roll()
        elif key == "edition":
            self.set_edition("later" if self.edition == "first" else "first")
        elif key == "sections":
            self.toggle_sections()
        elif key == "prev":
            self.flip(-1)
        elif key == "next":
            self.flip(1)
        elif key == "zones":
            self._set_toggle("show_zones")
        elif key == "labels":
            self._set_toggle("show_labels")
        elif key == "lines":
            self._set_toggle("show_lines")
        elif key == "back":
            self.back()

    def on_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            key = event.key
            if pygame.K_1 <= key <= pygame.K_6 and (key - pygame.K_0) in self._names:
                self.select_configuration(key - pygame.K_0)
            elif pygame.K_KP1 <= key <= pygame.K_KP6 and (key - pygame.K_KP1 + 1) in self._names:
                self.select_configuration(key - pygame.K_KP1 + 1)
            elif key == pygame.K_r:
                self.roll()
            elif key == pygame.K_e:
                self.set_edition("later" if self.edition == "first" else "first")
            elif key == pygame.K_s:
                self.toggle_sections()
            elif key in (pygame.K_RIGHT, pygame.K_DOWN, pygame.K_PAGEDOWN):
                self.flip(1)
            elif key in (pygame.K_LEFT, pygame.K_UP, pygame.K_PAGEUP):
                self.flip(-1)
            elif key == pygame.K_z:
                self._set_toggle("show_zones")
            elif key == pygame.K_l:
                self._set_toggle("show_labels")
            elif key == pygame.K_f:
                self._set_toggle("show_lines")
            elif key == pygame.K_g:
                self.show_legend = not getattr(self, "show_legend", False)
            elif key in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
                self.zoom(1)
            elif key in (pygame.K_MINUS, pygame.K_KP_MINUS):
                self.zoom(-1)
            elif key in (pygame.K_HOME, pygame.K_0, pygame.K_KP0):
                self.reset_view()
            elif key == pygame.K_ESCAPE:
                if self.selected_hex is not None:
                    self._clear_selection(keep_hover=True)
                else:
                    self.back()
        elif event.type == pygame.MOUSEMOTION:
            if self._drag is not None:
                dx, dy = event.pos[0] - self._drag[0], event.pos[1] - self._drag[1]
                if self._drag_moved or abs(dx) + abs(dy) > 5:
                    self._drag_moved = True
                    self.pan(dx, dy)
                    self._drag = event.pos
            self._mouse = event.pos
            self.hover_hex = self.hex_at(event.pos, include_half=True)
        elif event.type == pygame.MOUSEWHEEL:
            pos = self._mouse or pygame.mouse.get_pos()
            if self._areas(self._size())["map"].collidepoint(pos):
                self.zoom(1 if event.y > 0 else -1, pos)
        elif event.type == pygame.MOUSEBUTTONDOWN:
            self._mouse = event.pos
            if event.button == 1:
                h = self.hex_at(event.pos)
                if h is not None or self._areas(self._size())["map"].collidepoint(event.pos):
                    self.select_hex(h)
            elif event.button in (2, 3) and \
                    self._areas(self._size())["map"].collidepoint(event.pos):
                self._drag, self._drag_moved = event.pos, False      # drag to pan
        elif event.type == pygame.MOUSEBUTTONUP and event.button in (2, 3):
            moved, self._drag = self._drag_moved, None
            self._drag_moved = False
            if event.button == 3 and not moved:
                self._clear_selection(keep_hover=True)

    def update(self, dt: float) -> None:
        self._tumble = max(0.0, self._tumble - dt)

    # --- zoom and pan (wheel / + - / Home; right- or middle-drag) ---------------------------------
    def zoom(self, steps: int, anchor: tuple[int, int] | None = None) -> bool:
        """Zoom in (+) or out (-) keeping the map point under ``anchor`` in place."""
        new = max(0, min(len(PREVIEW_ZOOMS) - 1, self.zoom_index + steps))
        if new == self.zoom_index or self.renderer() is None:
            return False
        old_r, old_tl = self.renderer()
        area = self._areas(self._size())["map"]
        ax, ay = anchor if anchor is not None else area.center
        self.zoom_index = new
        r, _ = self.renderer(raw=True)
        k = r.hex_size / old_r.hex_size
        want = (ax - (ax - old_tl[0]) * k, ay - (ay - old_tl[1]) * k)
        centred = self._centred(r, area)
        self.pan_offset = (want[0] - centred[0], want[1] - centred[1])
        self._clamp_pan()
        self._overlay = None
        return True

    def pan(self, dx: float, dy: float) -> None:
        self.pan_offset = (self.pan_offset[0] + dx, self.pan_offset[1] + dy)
        self._clamp_pan()

    def reset_view(self) -> None:
        self.zoom_index = 0
        self.pan_offset = (0.0, 0.0)
        self._overlay = None

    @staticmethod
    def _centred(r: MapRenderer, area: pygame.Rect) -> tuple[int, int]:
        w, h = r.pixel_size
        return (area.x + (area.w - w) // 2, area.y + (area.h - h) // 2)

    def _clamp_pan(self) -> None:
        """A map larger than its area can be moved until its edge meets the area's edge;
        a map that fits stays centred."""
        got = self.renderer(raw=True)
        if got is None:
            return
        r, _ = got
        area = self._areas(self._size())["map"]
        w, h = r.pixel_size
        out = []
        for off, size, room in ((self.pan_offset[0], w, area.w), (self.pan_offset[1], h, area.h)):
            slack = max(0.0, (size - room) / 2.0)
            out.append(min(slack, max(-slack, off)))
        self.pan_offset = (out[0], out[1])

    # --- drawing -------------------------------------------------------------------------------
    def _size(self) -> tuple[int, int]:
        size = getattr(self.app, "size", None)
        return tuple(size) if size else (1280, 800)

    def renderer(self, raw: bool = False) -> tuple[MapRenderer, tuple[int, int]] | None:
        """The renderer of the map on show and where its surface goes on screen
        (zoomed and panned; ``raw``: without clamping the pan first)."""
        bm = self.battle_map
        if bm is None:
            return None
        area = self._areas(self._size())["map"]
        zones = self.show_zones and self.section_view is None
        zoom = PREVIEW_ZOOMS[self.zoom_index]
        key = (self.edition, self.map_key, area.size, zones, self.show_labels, zoom)
        r = self._renderers.get(key)
        if r is None:
            if len(self._renderers) > 24:
                self._renderers.clear()
            depth = self.depth
            r = MapRenderer.fit(bm, area.w, area.h, zones=zones, labels=self.show_labels,
                                zone_depth=depth)
            if zoom != 1.0:
                size = math.floor(r.hex_size * zoom * 4) / 4
                r = MapRenderer(bm, size, zones=zones, labels=self.show_labels,
                                supersample=2 if size <= 48 else 1, zone_depth=depth)
            self._renderers[key] = r
        x, y = self._centred(r, area)
        return r, (int(round(x + self.pan_offset[0])), int(round(y + self.pan_offset[1])))

    def hex_at(self, pos: tuple[int, int], include_half: bool = False) -> Hex | None:
        """The playable hex (or with ``include_half`` edge half-hex) under a screen pixel."""
        got = self.renderer()
        if got is None:
            return None
        r, topleft = got
        if not self._areas(self._size())["map"].collidepoint(pos):
            return None          # a zoomed map reaches under the panels: those pixels are theirs
        return r.hex_at(pos[0], pos[1], topleft, include_half=include_half)

    def hex_center(self, h: Hex) -> tuple[int, int]:
        """Screen pixel of a hex centre (for tests and tooltips)."""
        got = self.renderer()
        if got is None:
            raise ValueError("no map on show")
        r, topleft = got
        return r.layout_at(topleft).center_int(h)

    def _selection_overlay(self, r: MapRenderer) -> pygame.Surface:
        key = (self.map_key, id(r), self.selected_hex)
        if self._overlay is not None and self._overlay[0] == key:
            return self._overlay[1]
        surf = pygame.Surface(r.pixel_size, pygame.SRCALPHA)
        bm = self.battle_map
        lay = r.layout
        hidden = [h for h in bm.terrain if h not in self.visible]
        shade_hexes(surf, lay, hidden, (0, 0, 0, 150))
        for band in ("short", "medium", "long", None):
            hexes = [h for h, b in self.visible.items() if b == band and h != self.selected_hex]
            shade_hexes(surf, lay, hexes, BAND_COLORS[band] + ((96,) if band else (36,)))
        f = theme.font(max(11, int(r.hex_size * 0.42)), bold=True)
        for h, b in self.visible.items():
            letter = BAND_LETTER[b]
            if letter and h != self.selected_hex:
                x, y = lay.hex_to_pixel(h)
                shadow = f.render(letter, True, (0, 0, 0))
                text = f.render(letter, True, (255, 255, 255))
                pos = (x - text.get_width() / 2, y + r.hex_size * 0.3 - text.get_height() / 2)
                surf.blit(shadow, (pos[0] + 1, pos[1] + 1))
                surf.blit(text, pos)
        outline_hex(surf, lay, self.selected_hex, (255, 255, 255), max(2, int(r.hex_size / 10)))
        self._overlay = (key, surf)
        return surf

    def draw(self, surface: pygame.Surface) -> None:
        draw_background(surface)
        areas = self._areas(surface.get_size())
        got = self.renderer()
        if got is None:
            draw_panel(surface, areas["map"], theme.BG_DARK)
            draw_text(surface, self.error or "No map to show.", (areas["map"].x + 20, areas["map"].y + 20),
                      18, theme.BAD, width=areas["map"].w - 40)
        else:
            r, topleft = got
            clip = surface.get_clip()
            surface.set_clip(areas["map"])
            r.draw(surface, topleft)
            lay = r.layout_at(topleft)
            if self.selected_hex is not None:
                surface.blit(self._selection_overlay(r), topleft)
            if self.show_lines and self.section_view is None:
                self._draw_lines(surface, lay)
            if getattr(self, "show_legend", False):
                from game.ui.render_export import draw_legend_overlay
                draw_legend_overlay(surface, areas["map"], zones=self.show_zones, bm=self.battle_map)
            if self.hover_hex is not None:
                outline_hex(surface, lay, self.hover_hex, (255, 255, 255), 2, 0.92)
                bm = self.battle_map
                if self.selected_hex is not None and self.hover_hex != self.selected_hex \
                        and self.hover_hex in bm.terrain:
                    blocker = None if bm.can_see(self.selected_hex, self.hover_hex) else \
                        bm.los.blocker(self.selected_hex, self.hover_hex)
                    draw_los_line(surface, lay, self.selected_hex, self.hover_hex,
                                  blocked_at=blocker)
            surface.set_clip(clip)
        info = areas["info"]
        self._cached(surface, "info", info, (self.edition, self.map_key, self.hover_hex,
                                             self.selected_hex, self.error), self._draw_info)
        panel = areas["panel"]
        key = (self.edition, self.map_key, self.show_zones, self.show_lines, self.show_labels,
               self.last_roll, self.selected_hex is not None, self.error)
        self._cached(surface, "panel", panel, None if self._tumble > 0 else key, self._draw_panel)

    def _cached(self, surface: pygame.Surface, name: str, rect: pygame.Rect, key: Any,
                paint: Callable[[pygame.Surface, pygame.Rect], None]) -> None:
        """Text panels are drawn once per change of what they show, then blitted."""
        full = (key, rect.size)
        got = self._panels.get(name)
        if key is None or got is None or got[0] != full:
            img = pygame.Surface(rect.size, pygame.SRCALPHA)
            paint(img, img.get_rect())
            got = (full, img)
            if key is not None:
                self._panels[name] = got
        surface.blit(got[1], rect.topleft)

    def _draw_lines(self, surface: pygame.Surface, lay) -> None:
        stats = self.stats()
        if not isinstance(stats, dict) or "left" not in stats:
            return
        for end, width in (("left", 5), ("right", 2)):     # both stay visible if they coincide
            st = stats[end]
            if st.longest_line:
                a, b, _ = st.longest_line
                draw_los_line(surface, lay, a, b, color=ZONE_COLORS[end], width=width)

    def sight_text(self) -> str:
        """The line-of-sight note from the selected hex to the hovered one (none for the
        selected hex itself)."""
        bm = self.battle_map
        if bm is None or self.selected_hex is None or self.hover_hex is None or \
                self.hover_hex == self.selected_hex:
            return ""
        return mapstats.sight_note(bm, self.selected_hex, self.hover_hex)

    def _draw_info(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        draw_panel(surface, rect, theme.BG_DARK)
        x, y, w = rect.x + 10, rect.y + 6, rect.w - 20
        f = theme.font(18)
        for text, colour in self.info_lines():
            for line in wrap(text, f, w):
                if y + f.get_linesize() > rect.bottom - 4:
                    return
                surface.blit(f.render(line, True, colour), (x, y))
                y += f.get_linesize()

    def info_lines(self) -> list[tuple[str, tuple[int, int, int]]]:
        """The info strip under the map: what the hovered hex is and does (the rules'
        notes), or the selected hex's sight, or how to use the preview."""
        bm = self.battle_map
        lines: list[tuple[str, tuple[int, int, int]]] = []
        if bm is not None and self.hover_hex is not None:
            notes = mapstats.hex_notes(bm, self.hover_hex, self.depth,
                                       zones=self.section_view is None)
            sight = self.sight_text()
            if sight:
                notes.insert(1, sight)
            for i, n in enumerate(notes):
                lines.append((n, theme.TEXT if i == 0 else theme.TEXT_DIM))
        elif self.selected_hex is not None and bm is not None:
            n = len(self.visible) - 1
            lines.append((f"{hex_label(self.selected_hex)} sees {n} hexes "
                          f"({sum(1 for b in self.visible.values() if b == 'short') - 1} short, "
                          f"{sum(1 for b in self.visible.values() if b == 'medium')} medium, "
                          f"{sum(1 for b in self.visible.values() if b == 'long')} long range, "
                          f"{sum(1 for b in self.visible.values() if b is None)} beyond 8). "
                          "Point at a hex to see the line of sight; click again to clear.",
                          theme.TEXT))
        else:
            lines.append(("Point at a hex to read what its terrain does; click a hex to see "
                          "everything visible from it (S short, M medium, L long range). "
                          "Wheel or + - zooms, right-drag pans, Home shows the whole map.",
                          theme.TEXT_DIM))
        return lines

    def _draw_panel(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        draw_panel(surface, rect)
        x, y, w = rect.x + 12, rect.y + 10, rect.w - 24
        bm = self.battle_map
        if self.section_view is not None:
            i = self._sections.index(self.section_view) + 1 if self.section_view in self._sections else 0
            y = draw_text(surface, f"Section {self.section_view}", (x, y), 22, theme.ACCENT,
                          bold=True).bottom + 2
            y = draw_text(surface, f"side {i} of {len(self._sections)} - one side of a "
                          "double-sided map sheet", (x, y), 17, theme.TEXT_DIM, width=w).bottom + 8
        else:
            name = self._names.get(self.config_number, "")
            y = draw_text(surface, f"{self.config_number}  {name}", (x, y), 22, theme.ACCENT,
                          bold=True, width=w).bottom + 4
            if self.edition == "later":
                y = draw_text(surface, "Later edition: deployment within "
                              f"{self.depth} hexes of your end", (x, y), 17, theme.TEXT_DIM,
                              width=w).bottom + 4
        if self.last_roll is not None:
            die = pygame.Rect(x, y, 30, 30)
            face = self._tumble_rng.randint(1, 6) if self._tumble > 0 else self.last_roll
            draw_die(surface, die, face)
            draw_text(surface, f"Die roll: {self.last_roll}", (x + 40, y + 6), 17, theme.TEXT)
            y += 38
        if bm is None:
            return
        if self.section_view is None and bm.sections:
            secs = ", ".join(f"{s.quadrant} {s.name}" for s in bm.sections)
            y = draw_text(surface, "Sections: " + secs, (x, y), 17, theme.TEXT_DIM, width=w).bottom + 8
        stats = self.stats()
        if self.section_view is not None:
            y = self._section_facts(surface, stats, x, y, w)
        else:
            y = self._end_table(surface, stats, x, y, w)
        self._legend(surface, x, y + 6, w, rect.bottom - (96 if self.section_view else 52))

    def _end_table(self, surface: pygame.Surface, stats: dict, x: int, y: int, w: int) -> int:
        y = draw_text(surface, "Comparing the two ends", (x, y), 20, theme.TEXT, bold=True).bottom + 4
        col_l, col_r = x + w - 92, x + w - 40
        draw_text(surface, "Left", (col_l, y), 17, ZONE_COLORS["left"], bold=True)
        draw_text(surface, "Right", (col_r, y), 17, ZONE_COLORS["right"], bold=True)
        y += 20
        left, right = stats["left"], stats["right"]

        def line_txt(st) -> str:
            return str(st.longest_line[2]) if st.longest_line else "-"

        rows = [
            ("Cover hexes in the zone (Soldiers)", len(left.soldier_cover), len(right.soldier_cover)),
            ("... of them cover Vehicles too", len(left.vehicle_cover), len(right.vehicle_cover)),
            ("Zone hexes that see the objective", len(left.zone_sees_objective),
             len(right.zone_sees_objective)),
            ("Own half: hexes seeing objective within 8", len(left.half_sees_objective_in_range),
             len(right.half_sees_objective_in_range)),
            ("Zone to objective (hexes)", _dash(left.objective_distance), _dash(right.objective_distance)),
            ("Longest line of sight from the zone", line_txt(left), line_txt(right)),
        ]
        f = theme.font(17)
        for label, a, b in rows:
            lines = wrap(label, f, col_l - x - 8)
            top = y
            for ln in lines:
                surface.blit(f.render(ln, True, theme.TEXT_DIM), (x, y))
                y += f.get_linesize()
            draw_text(surface, str(a), (col_l + 10, top), 18, theme.TEXT, bold=True)
            draw_text(surface, str(b), (col_r + 10, top), 18, theme.TEXT, bold=True)
            y += 4
        for end, st in (("Left", left), ("Right", right)):
            if st.longest_line:
                a, b, d = st.longest_line
                y = draw_text(surface, f"{end}: {hex_label(a)} sees {hex_label(b)} ({d} hexes)",
                              (x, y), 16, theme.TEXT_DIM).bottom
        whole = [s for s in (left.longest_line, right.longest_line) if s]
        return y + 2 if whole else y

    def _section_facts(self, surface: pygame.Surface, stats: dict, x: int, y: int, w: int) -> int:
        y = draw_text(surface, f"{stats['hexes']} whole hexes, {stats['cover']} give Soldiers "
                      f"cover, {stats['vehicle_cover']} give Vehicles cover.", (x, y), 17,
                      theme.TEXT, width=w).bottom + 4
        if stats["longest"]:
            a, b, d = stats["longest"]
            y = draw_text(surface, f"Longest line of sight on this side: {hex_label(a)} to "
                          f"{hex_label(b)}, {d} hexes.", (x, y), 17, theme.TEXT, width=w).bottom + 4
        y = draw_text(surface, "Left/Right or the buttons flip through the sides; S goes back "
                      "to the configurations.", (x, y), 16, theme.TEXT_DIM, width=w).bottom + 4
        return y

    def _legend(self, surface: pygame.Surface, x: int, y: int, w: int, limit: int) -> None:
        items: list[tuple[tuple[int, ...], str]] = []
        if self.show_zones and self.section_view is None:
            items += [(ZONE_COLORS["left"], f"Left deployment zone ({self.depth} hexes)"),
                      (ZONE_COLORS["right"], f"Right deployment zone ({self.depth} hexes)")]
        if self.selected_hex is not None:
            from game.ui.map_render import BAND_LEGEND
            items += [(BAND_COLORS[b], text) for b, text in BAND_LEGEND if b] + [
                      ((92, 96, 90), BAND_LEGEND[-1][1]),
                      ((24, 24, 24), "dark: no line of sight")]
        for colour, text in items:
            if y + 20 > limit:
                return
            pygame.draw.rect(surface, colour, (x, y + 2, 16, 14), border_radius=3)
            draw_text(surface, text, (x + 24, y), 17, theme.TEXT_DIM)
            y += 21


def _dash(v: Any) -> str:
    return "-" if v is None else str(v)


def _message(exc: BaseException) -> str:
    if isinstance(exc, DataError):
        return exc.report()
    if isinstance(exc, ImportError):
        return "The map data loader (game.data.maps) is not installed in this build."
    return str(exc)


def run_preview(config: int | None = None, size: tuple[int, int] | None = None,
                app_factory: Callable[..., Any] | None = None, edition: str = "first") -> int:
    """Open a window with the map layout preview alone; returns the exit code."""
    if app_factory is None:
        from game.ui.app import App
        app_factory = App
    app = app_factory(size=size) if size else app_factory()
    return int(app.run(PreviewScene(app, config=config, edition=edition)) or 0)
