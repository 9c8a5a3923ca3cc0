"""Colours, fonts and the pygame_gui theme of Hexfront's screens.

The theme is built as a dict (pygame_gui accepts one), so no file has to be
found at run time.  Fonts are pygame's bundled font (same on every machine).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

# --- palette (a table top: dark wood, paper cards, olive drab) --------------------------
BG = (34, 38, 33)              # screen background behind panels
BG_DARK = (24, 27, 24)
PANEL = (50, 55, 48)
PANEL_EDGE = (92, 100, 84)
PAPER = (236, 229, 208)        # stat-card paper
PAPER_DARK = (214, 204, 178)
INK = (34, 32, 28)
INK_SOFT = (92, 86, 74)
TEXT = (232, 230, 218)
TEXT_DIM = (170, 172, 160)
ACCENT = (214, 176, 84)        # brass
GOOD = (120, 196, 110)
BAD = (232, 104, 88)
WARN = (236, 196, 90)

AXIS_RIM = (96, 98, 102)       # Axis cards and token rims: grey
ALLIES_RIM = (62, 124, 64)     # Allied cards and token rims: green
SIDE_RIM = {"Axis": AXIS_RIM, "Allies": ALLIES_RIM}
SIDE_LABEL = {"Axis": "Axis", "Allies": "Allied"}

NATION_COLOURS = {
    "Germany": (128, 134, 130),        # field grey
    "Italy": (150, 158, 118),          # grey-green
    "Japan": (196, 168, 104),          # khaki-tan
    "United States": (110, 112, 62),   # olive drab
    "United Kingdom": (160, 124, 82),  # khaki-brown
    "Soviet Union": (58, 98, 62),      # deep green
    "France": (122, 150, 196),         # horizon blue
}
NATION_SHORT = {"Germany": "GER", "Italy": "ITA", "Japan": "JPN", "United States": "USA",
                "United Kingdom": "UK", "Soviet Union": "USSR", "France": "FRA"}

COUNTER_COLOURS = {
    "pending": (150, 150, 150),     # face-down hit counter
    "disrupted": (242, 210, 48),
    "damaged": (240, 138, 36),
    "destroyed": (214, 48, 40),
}


def hexcol(rgb: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False, italic: bool = False):
    """pygame's bundled font at ``size`` px (cached; pygame.font must be initialised)."""
    import pygame
    f = pygame.font.Font(None, size)
    f.set_bold(bold)
    f.set_italic(italic)
    return f


def gui_theme() -> dict[str, Any]:
    """The pygame_gui theme dict."""
    colours = {
        "normal_bg": hexcol((70, 78, 64)),
        "hovered_bg": hexcol((94, 104, 82)),
        "disabled_bg": hexcol((52, 54, 50)),
        "selected_bg": hexcol((128, 110, 58)),
        "active_bg": hexcol((128, 110, 58)),
        "dark_bg": hexcol(PANEL),
        "normal_text": hexcol(TEXT),
        "hovered_text": "#ffffff",
        "selected_text": "#ffffff",
        "disabled_text": hexcol((120, 122, 112)),
        "active_text": "#ffffff",
        "normal_border": hexcol(PANEL_EDGE),
        "hovered_border": hexcol(ACCENT),
        "disabled_border": hexcol((70, 72, 66)),
        "selected_border": hexcol(ACCENT),
        "active_border": hexcol(ACCENT),
        "text_cursor": hexcol(ACCENT),
        "filled_bar": hexcol(ACCENT),
        "unfilled_bar": hexcol((60, 62, 56)),
    }
    return {
        "defaults": {
            "colours": colours,
            "font": {"name": "noto_sans", "size": "15"},
            "misc": {"border_width": "1", "shape": "rounded_rectangle",
                     "shape_corner_radius": "4"},
        },
        "label": {"colours": {"dark_bg": "#00000000", "normal_text": hexcol(TEXT)},
                  "misc": {"text_horiz_alignment": "left"}},
        "#title": {"font": {"name": "noto_sans", "size": "44", "bold": "1"},
                   "colours": {"normal_text": hexcol(ACCENT)},
                   "misc": {"text_horiz_alignment": "center"}},
        "#subtitle": {"font": {"name": "noto_sans", "size": "17", "italic": "1"},
                      "colours": {"normal_text": hexcol(TEXT_DIM)},
                      "misc": {"text_horiz_alignment": "center"}},
        "#heading": {"font": {"name": "noto_sans", "size": "20", "bold": "1"},
                     "colours": {"normal_text": hexcol(ACCENT)}},
        "#menu_button": {"font": {"name": "noto_sans", "size": "20"},
                         "misc": {"shape_corner_radius": "6"}},
        "#primary": {"font": {"name": "noto_sans", "size": "17", "bold": "1"},
                     "colours": {"normal_bg": hexcol((110, 92, 40)),
                                 "hovered_bg": hexcol((146, 122, 56))}},
        "#bad": {"colours": {"normal_text": hexcol(BAD)}},
        "#good": {"colours": {"normal_text": hexcol(GOOD)}},
        "#dim": {"colours": {"normal_text": hexcol(TEXT_DIM)}},
        "selection_list": {"misc": {"list_item_height": "24"}},
        "#item_list_item": {"misc": {"text_horiz_alignment": "left",
                                     "text_horiz_alignment_padding": "8"}},
        # a card the battle can't use, greyed in the army builder's list
        "#unplayable_item": {"misc": {"text_horiz_alignment": "left",
                                      "text_horiz_alignment_padding": "8"},
                             "colours": {"normal_text": hexcol((128, 128, 118)),
                                         "normal_bg": hexcol((50, 52, 48))}},
        "text_box": {"colours": {"dark_bg": hexcol(BG_DARK)}},
    }
