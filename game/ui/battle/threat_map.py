"""The threat map (issue 17), toggled with X on the battle screen.

For the selected unit - standing where it is, or in the hovered hex ("what if I
moved there?") - or, with nothing selected, for the hovered unit: which enemy
units could attack it in their next phase and the exact chance that it ends
disrupted (or worse), damaged (or worse) or destroyed, every enemy attacking,
abilities included.  Every number is the rules' threat query
(:func:`game.rules.threat.threat_to`, helper ai14's); this module only draws.

"Show enemy reach": the hexes the enemy's units could move into in their next
movement phase (the rules' own movement search, :meth:`Probe.reachable`) are
tinted red while the map is on.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from game.rules.errors import IllegalAction
from game.rules.hexes import hex_label
from game.rules.state import other_side
from game.rules.threat import Probe, Threat, threat_to
from game.ui import theme
from game.ui.battle.view import region_layer
from game.ui.map_render import draw_los_line
from game.ui.widgets import draw_panel, draw_text, fit

if TYPE_CHECKING:
    from game.ui.scenes.battle import BattleScene

__all__ = ["ThreatMap", "threat_lines"]

REACH_FILL = (215, 50, 40, 80)
LINE = (235, 90, 70)


def _pct(p: float) -> str:
    if 0 < p < 0.005:
        return "<1%"
    return f"{p * 100:.0f}%"


def threat_lines(game: Any, threat: Threat, limit: int = 5) -> list[str]:
    """The box's text: the combined chances, then the strongest attackers."""
    st = game.state
    u = st.units[threat.target]
    harmful = [s for s in threat.sources if s.odds.p_none < 1.0]
    harmless = len(threat.sources) - len(harmful)
    n = len(harmful)
    where = hex_label(threat.hex)
    if not n:
        tail = (f" ({harmless} could fire at it without a chance to hurt it)"
                if harmless else "")
        return [f"{u.name} in {where}: no enemy unit could hurt it there next phase{tail}."]
    out = [f"{u.name} in {where}: {n} enemy unit{'s' if n != 1 else ''} could hurt it "
           f"next phase.",
           f"All of them: disrupted or worse {_pct(threat.p_hit)}, "
           + (f"damaged or worse {_pct(threat.p_loss)}, " if u.is_vehicle else "")
           + f"destroyed {_pct(threat.p_destroyed)}."]
    for s in harmful[:limit]:
        e = st.units[s.attacker]
        o = s.odds
        if s.moves and e.card.is_aircraft:       # later edition: placed where it likes
            how = f"flying over {hex_label(s.from_hex)}"
        else:
            how = f"moving to {hex_label(s.from_hex)}" if s.moves else f"from {hex_label(s.from_hex)}"
        out.append(f"- {e.name} {how}: {_pct(1 - o.p_none)} hit, "
                   f"{_pct(o.p_destroyed)} destroyed")
        if s.p_antiair > 0:                      # later edition: ruling L4
            out.append(f"  (Antiair there: {_pct(s.p_antiair)} to disrupt it before it strikes)")
    if n > limit:
        out.append(f"  ... and {n - limit} more")
    if harmless:
        out.append(f"  ({harmless} more could fire at it without a chance to hurt it)")
    return out


class ThreatMap:
    def __init__(self, scene: BattleScene) -> None:
        self.sc = scene
        self.on = False
        self._cache: dict = {}

    def toggle(self) -> None:
        self.on = not self.on
        self._cache.clear()
        self.sc.note("Threat map on: select a unit or point at one (X turns it off)." if self.on
                     else "Threat map off.")

    # --- what is shown (the rules' answers, cached per position) ------------------------------
    def subject(self) -> tuple[str, Any, int] | None:
        """(unit, hex, facing) the threat is asked for, or None."""
        st = self.sc.state
        sel = st.units.get(self.sc.selected) if self.sc.selected else None
        hover = self.sc.hover_hex
        if sel is not None and sel.on_map:
            h = hover if hover is not None and hover in st.battle_map.terrain else sel.hex
            return sel.uid, h, sel.facing
        if hover is not None:
            here = [u for u in st.units.values() if u.on_map and u.hex == hover]
            if here:
                u = here[0]
                return u.uid, u.hex, u.facing
        return None

    def _get(self, key: tuple, make):
        full = (self.sc.version,) + key
        if full not in self._cache:
            if len(self._cache) > 64:
                self._cache.clear()
            self._cache[full] = make()
        return self._cache[full]

    def threat(self) -> Threat | None:
        sub = self.subject()
        if sub is None:
            return None
        uid, h, facing = sub

        def make():
            try:
                return threat_to(self.sc.game, uid, h, facing)
            except IllegalAction:
                return None
        return self._get(("threat", uid, h, facing), make)

    def enemy_reach(self, side: str) -> frozenset:
        """Hexes the units of ``side``'s enemy could move into in their next movement phase."""
        def make():
            probe = Probe(self.sc.game)
            out: set = set()
            for u in self.sc.state.live_units(other_side(side)):
                if u.on_map:
                    out.add(u.hex)
                    out.update(probe.reachable(u.uid))
            return frozenset(out)
        return self._get(("reach", side), make)

    # --- drawing ----------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        if not self.on:
            return
        st = self.sc.state
        sub = self.subject()
        side = st.units[sub[0]].side if sub else (st.to_act or st.active_side)
        if side is None:
            return
        reach = self.enemy_reach(side)
        view = self.sc.view
        view.blit_layer(surface, ("threat-reach", self.sc.version, side), lambda lay: region_layer(
            lay, reach, lambda h: REACH_FILL))
        t = self.threat()
        lines = [f"Threat map (X): red = where the {theme.SIDE_LABEL[other_side(side)]} units "
                 f"can move next phase."]
        if t is not None:
            lay = view.layout
            for s in t.sources:
                if s.odds.p_none >= 1.0:
                    continue                    # it could fire, but can't hurt the unit
                draw_los_line(surface, lay, s.from_hex, t.hex, LINE, width=2)
                c = view.center(s.from_hex)
                pygame.draw.circle(surface, LINE, c, max(8, int(view.hex_size * 0.55)), 3)
            pygame.draw.circle(surface, theme.WARN, view.center(t.hex),
                               max(8, int(view.hex_size * 0.6)), 3)
            lines += threat_lines(self.sc.game, t)
        else:
            lines.append("Select a unit (or point at one) to see what could attack it.")
        self._draw_box(surface, lines)

    def _draw_box(self, surface: pygame.Surface, lines: list[str]) -> None:
        v = self.sc.view_rect
        f = theme.font(15)
        w = min(v.w - 20, 470)
        r = pygame.Rect(v.x + 10, v.y + 10, w, 12 + 19 * len(lines))
        draw_panel(surface, r, theme.BG_DARK)
        y = r.y + 6
        for i, line in enumerate(lines):
            col = theme.ACCENT if i == 0 else (theme.WARN if i == 2 else theme.TEXT)
            draw_text(surface, fit(line, f, w - 16), (r.x + 8, y), 15, col, bold=i == 0)
            y += 19
