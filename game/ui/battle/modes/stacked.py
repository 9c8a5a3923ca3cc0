"""Short-lived modes stacked on the base mode: a Vehicle's facing the rules wait for,
the whole stat card, the in-battle menu.

Input only: the drawing is in game.ui.battle.overlays."""
from __future__ import annotations


import pygame

from game.rules.hexes import DIRECTION_NAMES, hex_label
from game.ui.battle.context import BattleContext
from game.ui.battle.modes.base import ConfirmMode, FacingMode, Mode, side_name
from game.ui.battle.panels import Button

__all__ = ["FacingChoiceMode", "CardMode", "KEY_HELP", "BattleMenuMode"]


class FacingChoiceMode(FacingMode):
    """The rules wait for a Vehicle's facing where its move ended (FacingChoice): the
    six arrows at that hex; Enter keeps the facing it has."""

    def __init__(self, ctx: BattleContext) -> None:
        p = ctx.game.state.pending
        u = ctx.game.state.units[p.uid]
        self.key = (p.uid, p.hex)
        super().__init__(ctx, p.hex, u.facing, self._face, keep_label="Keep facing", unit=u)

    def same_as(self, other: Mode) -> bool:
        return type(other) is type(self) and getattr(other, "key", None) == self.key

    def _face(self, f: int | None) -> None:
        from game.rules.actions import Face
        p = self.state.pending
        u = self.state.units[p.uid]
        self.ctx.send(Face(p.side, p.uid, u.facing if f is None else f))

    def prompt(self) -> str:
        u = self.state.units[self.key[0]]
        return (f"{u.name} ends its move in {hex_label(self.hex)}: click an arrow to face it "
                f"(Enter keeps {DIRECTION_NAMES[self.default]}).")

    def buttons(self) -> list[Button]:
        return [Button("keep", self.keep_label, primary=True, hotkey="Enter")]

    def on_key(self, key, mod) -> bool:
        if key == pygame.K_ESCAPE:
            return False           # a decision the rules wait for: Esc opens the menu
        return super().on_key(key, mod)

    def on_click(self, pos, button) -> bool:
        f = self.wedge_at(pos)
        if f is not None:
            self.pick(f)
        return True


class CardMode(Mode):
    """The whole stat card of any unit, friend or enemy (right-click or hold on it):
    every ability's full text, readable during play.  Esc, a click or Enter closes it."""

    name = "card"
    modal = True

    def __init__(self, ctx: BattleContext, uid: str) -> None:
        super().__init__(ctx)
        self.uid = uid

    def prompt(self) -> str:
        u = self.state.units[self.uid]
        return f"{u.name} ({side_name(u.side)}): the whole stat card. Click or Esc to close."

    def buttons(self) -> list[Button]:
        return [Button("close", "Close", primary=True, hotkey="Esc")]

    def on_button(self, key: str) -> None:
        self.ctx.pop(self)

    def on_key(self, key, mod) -> bool:
        if key in (pygame.K_ESCAPE, pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            self.ctx.pop(self)
            return True
        return False

    def on_click(self, pos, button) -> bool:
        self.ctx.pop(self)
        return True


KEY_HELP = (("click a unit, then a shaded hex", "move (hover for the path and rolls)"),
            ("click a ringed enemy", "attack (hover for the exact odds)"),
            ("right-click or hold on a unit", "its whole stat card"),
            ("T", "turn in place (a Vehicle's whole move)"),
            ("F / N / H", "defensive fire: here / at the next hex / hold"),
            ("hold L", "line of sight and range bands"),
            ("G", "terrain legend on or off"),
            ("wheel, + / -; drag, arrows; Home", "zoom; pan; reset the view"),
            ("E or Enter", "end the phase (asks first)"),
            ("Tab", "next unit that can act"),
            ("Ctrl+Z / U", "take back a dice-free move / all of this phase"),
            ("Ctrl+S", "save"),
            ("Esc", "this menu"))


class BattleMenuMode(Mode):
    """Esc: the in-battle menu (Resume, Save, Load, Settings, Rules keys, Leave to menu).
    The game (and a solo AI) waits while it is open."""

    name = "menu"
    modal = True
    pauses_ai = True
    ITEMS = (("resume", "Resume"), ("save", "Save"), ("load", "Load"), ("settings", "Settings"),
             ("keys", "Rules keys"), ("rules", "Rules"), ("luck", "Luck report"), ("leave", "Leave to menu"))

    def __init__(self, ctx: BattleContext) -> None:
        super().__init__(ctx)
        self.show_keys = False

    def prompt(self) -> str:
        return "Battle menu: the battle waits until you resume (Esc)."

    def panel(self) -> pygame.Rect:
        v = self.ctx.view_rect
        w = min(v.w - 20, 620 if self.show_keys else 300)
        h = min(v.h - 20, 470 if self.show_keys else 62 + 48 * len(self.ITEMS))
        r = pygame.Rect(0, 0, w, h)
        r.center = v.center
        return r

    def buttons(self) -> list[Button]:
        unsaved = self.ctx.not_saved()
        return [Button(k, t, primary=k == "resume", hotkey="Esc" if k == "resume" else "",
                       enabled=not (k == "save" and unsaved),
                       tip=(unsaved or "") if k == "save" else "")
                for k, t in self.ITEMS]

    def place_buttons(self, buttons: list[Button]) -> None:
        r = self.panel()
        bw = 260 if not self.show_keys else 180
        for i, b in enumerate(buttons):
            b.rect = pygame.Rect(r.x + 20, r.y + 52 + 48 * i, min(bw, r.w - 40), 40)

    def on_button(self, key: str) -> None:
        sc = self.ctx
        if key == "resume":
            sc.pop(self)
        elif key == "save":
            sc.save()
        elif key == "load":
            sc.open_load()
        elif key == "settings":
            sc.open_settings()
        elif key == "keys":
            self.show_keys = not self.show_keys
        elif key == "luck":
            sc.pop(self)
            sc.open_luck()
        elif key == "rules":
            sc.pop(self)
            sc.open_rules()
        elif key == "leave":
            sc.pop(self)
            kept = ("(It is not saved.)" if sc.not_saved() else
                    "(It is autosaved; Load continues it.)")
            sc.push(ConfirmMode(sc, f"Leave the battle and go back to the main menu? {kept}",
                                sc.to_menu, yes="Leave", no="Stay"))

    def on_key(self, key, mod) -> bool:
        if key == pygame.K_ESCAPE:
            self.ctx.pop(self)
        return True               # the battle behind waits

    def on_click(self, pos, button) -> bool:
        return True


