"""The later edition's steps on the battle screen (game.rules.later).

- :class:`FlightMode` - a flight phase: pick one of your Aircraft in the side
  panel's tray (or drag it), click the hex it flies over.  Hovering a hex shows
  which enemy Antiair units could fire at it there and the exact chance of each
  to disrupt it (the rules' ``game.rules.later.flight.placement_risk``); a
  refused placement says why in the rules' words (``game.check``).
- :class:`AntiairMode` - the defender answers the Antiair prompt like any
  defensive-fire offer: pick the firing unit (map or Tab), Fire [F] with the exact
  odds on the button and in the side panel, or Hold fire [H].
- :class:`AirstrikeMode` - an airstrike phase: as in the assault phase, click an
  Aircraft, then a ringed enemy; hovering shows the exact odds.

A mode never decides a rule: it reads ``legal_actions``, ``check``, ``targets`` and
``odds`` and sends actions through ``scene.send``.  :func:`later_mode_for` is asked
first by ``game.ui.battle.modes.mode_for``.
"""
from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pygame

from game.rules.actions import Attack, DefensiveFire, EndPhase, PassDefensiveFire, PlaceAircraft
from game.rules.hexes import Hex, hex_label
from game.rules.state import AntiairPrompt
from game.ui import theme
from game.ui.battle.aircraft import is_aircraft
from game.ui.battle.modes import SELECT_RING, TARGET_RING, ConfirmMode, Mode, PlayMode, side_name
from game.ui.battle.panels import Button, draw_roster, draw_tooltip, draw_unit_box, pct
from game.ui.battle.view import region_layer
from game.ui.map_render import draw_los_line, outline_hex
from game.ui.widgets import draw_panel, draw_text, fit, wrap

__all__ = ["FlightMode", "AntiairMode", "AirstrikeMode", "later_mode_for", "antiair_risk"]

DANGER_FILL = (220, 70, 50, 70)       # hexes where enemy Antiair could fire at the plane
TRAY_NOTE = (200, 200, 190)


def antiair_risk(game: Any, uid: str, hexes: list[Hex]) -> dict[Hex, Any]:
    """Hex -> the rules' PlacementRisk (``game.rules.later.flight.placement_risk``: the
    enemy Antiair shots with their exact odds, and the chance that one disrupts it) for
    every hex of ``hexes`` where placing ``uid`` would provoke Antiair fire."""
    from game.rules.later.flight import placement_risk
    out: dict[Hex, Any] = {}
    for h in hexes:
        risk = placement_risk(game, uid, h)
        if risk.shots:
            out[h] = risk
    return out


# --- flight phase ----------------------------------------------------------------------------
class FlightMode(Mode):
    """Place your Aircraft: tray -> hex (rulebook, later edition: the flight phase)."""

    name = "flight"

    def __init__(self, scene: Any) -> None:
        super().__init__(scene)
        self.dragging: str | None = None
        self.tray: dict[str, pygame.Rect] = {}

    @property
    def side(self) -> str:
        return self.state.active_side

    def waiting(self) -> list[Any]:
        """Your Aircraft off the map (a disrupted one is shown too: it sits this turn out)."""
        return [u for u in self.state.units_of(self.side)
                if is_aircraft(u) and u.hex is None and not u.destroyed]

    def placements(self, uid: str | None) -> set[Hex]:
        if uid is None:
            return set()
        return self.scene.cached(("place_hexes", uid), lambda: {
            a.hex for a in self.scene.legal() if isinstance(a, PlaceAircraft) and a.uid == uid})

    def can_place(self) -> list[Any]:
        return [u for u in self.waiting() if self.placements(u.uid)]

    def risk(self, uid: str | None) -> dict[Hex, Any]:
        if uid is None or not self.placements(uid):
            return {}
        return self.scene.cached(("antiair_risk", uid), lambda: antiair_risk(
            self.game, uid, sorted(self.placements(uid), key=lambda h: (h.r, h.q))))

    def ensure_selection(self) -> None:
        if getattr(self.scene, "ai_turn", False):
            return
        sel = self.scene.selected
        if sel in self.state.units and self.state.units[sel].side == self.side and \
                is_aircraft(self.state.units[sel]):
            return
        ready = self.can_place()
        self.scene.selected = ready[0].uid if ready else None

    def selected_waiting(self) -> Any | None:
        sel = self.scene.selected
        u = self.state.units.get(sel) if sel else None
        if u is not None and u.side == self.side and is_aircraft(u) and u.hex is None:
            return u
        return None

    def prompt(self) -> str:
        self.ensure_selection()
        who = side_name(self.side)
        ready = self.can_place()
        u = self.selected_waiting()
        if u is not None and self.placements(u.uid):
            return (f"{who} flight phase: click the hex {u.name} flies over (any hex, enemy "
                    f"units too; red: enemy Antiair can fire at it there). {len(ready)} to place.")
        if ready:
            return f"{who} flight phase: pick an Aircraft in the side panel. {len(ready)} to place."
        if self.waiting():
            return f"{who} flight phase: no Aircraft can fly now. End the phase."
        return f"{who} flight phase: every Aircraft is placed (or you have none). End the phase."

    def buttons(self) -> list[Button]:
        return [Button("end", "End phase", primary=True, hotkey="E")]

    def on_button(self, key: str) -> None:
        if key == "end":
            self.end_phase()

    def end_phase(self) -> None:
        left = self.can_place()
        side = self.side
        if left:
            names = ", ".join(u.name for u in left[:3])
            self.scene.push(ConfirmMode(
                self.scene, f"{len(left)} Aircraft not placed ({names}): they stay off the map "
                            f"this turn. End the flight phase?",
                lambda: self.scene.send(EndPhase(side))))
        else:
            self.scene.send(EndPhase(side))

    def on_key(self, key: int, mod: int) -> bool:
        if key in (pygame.K_e, pygame.K_RETURN, pygame.K_KP_ENTER):
            self.end_phase()
            return True
        if key == pygame.K_TAB:
            ready = [u.uid for u in self.can_place()]
            if ready:
                cur = self.scene.selected
                self.scene.selected = ready[(ready.index(cur) + 1) % len(ready)] \
                    if cur in ready else ready[0]
            return True
        return False

    def on_side_click(self, pos, button) -> bool:
        for uid, r in self.tray.items():
            if r.collidepoint(pos):
                self.scene.selected = uid
                self.dragging = uid
                return True
        return False

    def draw_side(self, surface, rect) -> bool:
        waiting = self.waiting()
        if not waiting:
            self.tray = {}
            return False
        self.tray = draw_roster(surface, rect, waiting, self.scene.selected,
                                f"{side_name(self.side)} Aircraft off the map ({len(waiting)})")
        u = self.selected_waiting()
        if u is not None and not self.placements(u.uid):
            why = self.game.check(PlaceAircraft(self.side, u.uid, next(iter(
                self.state.battle_map.terrain))))
            if why:
                y = max(r.bottom for r in self.tray.values()) + 8 if self.tray else rect.y + 30
                draw_text(surface, why[:1].upper() + why[1:] + ".", (rect.x + 10, y), 16,
                          theme.WARN, width=rect.w - 20)
        return True

    def place(self, uid: str, h: Hex) -> bool:
        action = PlaceAircraft(self.side, uid, h)
        if h not in self.placements(uid):
            u = self.state.units[uid]
            why = self.game.check(action) or "not a hex it can fly over now"
            self.scene.note(f"{u.name} can't fly over {hex_label(h)}: {why}")
            return False
        if self.scene.send(action):
            ready = self.can_place()
            if ready and self.scene.selected == uid:
                self.scene.selected = ready[0].uid
        return True

    def on_click(self, pos, button) -> bool:
        st = self.state
        if button == 3:
            self.scene.selected = None
            return True
        uid = self.scene.view.unit_at(st, pos)
        sel = self.selected_waiting()
        h = self.scene.hover_hex
        if button == 1 and sel is not None and h is not None:
            return self.place(sel.uid, h)
        if uid is not None:
            self.scene.selected = uid
            return True
        return False

    def on_release(self, pos, button) -> bool:
        uid, self.dragging = self.dragging, None
        if uid is None or not self.scene.view.rect.collidepoint(pos):
            return False
        h = self.scene.view.hex_at(pos)
        if h is not None and self.state.units[uid].hex is None:
            self.place(uid, h)
            return True
        return False

    def under_key(self) -> Any:
        return self.scene.selected

    def draw_under(self, surface) -> None:
        self.ensure_selection()
        u = self.selected_waiting()
        if u is None:
            return
        danger = self.risk(u.uid)
        if danger:
            self.scene.view.blit_layer(surface, ("antiair", self.scene.version, u.uid),
                                       lambda lay: region_layer(lay, danger,
                                                                lambda h: DANGER_FILL))

    def draw_over(self, surface) -> None:
        u = self.selected_waiting()
        h = self.scene.hover_hex
        view = self.scene.view
        if u is None or h is None or self.scene.hover_button:
            return
        ok = h in self.placements(u.uid)
        outline_hex(surface, view.layout, h, SELECT_RING if ok else TARGET_RING, 3, 0.94)
        mouse = self.scene.mouse
        if not ok:
            why = self.scene.cached(("why_place", u.uid, h), lambda: self.game.check(
                PlaceAircraft(self.side, u.uid, h)))
            if why:
                draw_tooltip(surface, mouse, [f"{hex_label(h)}: {why}"], view.rect, theme.WARN)
            return
        risk = self.risk(u.uid).get(h)
        shots = risk.shots if risk is not None else ()
        if not self.dragging:            # where it would fly: the plane over the hex
            from game.ui.battle.aircraft import aircraft_slots, draw_aircraft, heading_for
            ghost = SimpleNamespace(uid=u.uid, hex=h, card=u.card, side=u.side, destroyed=False,
                                    damaged=False, disrupted=False, pending=())
            slot = aircraft_slots(view.layout, [ghost])[u.uid]
            draw_aircraft(surface, ghost, slot, view.layout.hex_to_pixel(h), view.layout.size,
                          heading=heading_for(u, self.state))
        lines = [f"{u.name} over {hex_label(h)}"]
        if risk is not None and shots:
            st = self.state
            for e, o in shots:
                lines.append(f"Antiair: {st.units[e].name} disrupts it {pct(o.p_stopped)}")
                draw_los_line(surface, view.layout, st.units[e].hex, h, TARGET_RING)
            if len(shots) > 1:
                lines.append(f"at least one disrupts it: {pct(risk.p_disrupted)}")
        else:
            lines.append("no enemy Antiair can fire at it here")
        draw_tooltip(surface, mouse, lines, view.rect, theme.WARN if shots else theme.TEXT)
        if self.dragging and mouse and view.rect.collidepoint(mouse):
            from game.ui.battle.aircraft import draw_aircraft
            r = int(view.layout.size * 0.52)
            draw_aircraft(surface, u, pygame.Rect(mouse[0] - r, mouse[1] - r, 2 * r, 2 * r),
                          (mouse[0], mouse[1] + r), view.layout.size, selected=True)


# --- the Antiair prompt ------------------------------------------------------------------------
class AntiairMode(Mode):
    """The defender answers an Antiair prompt unit by unit (later edition: placing an
    Aircraft in or next to an enemy Antiair unit provokes its defensive fire)."""

    name = "antiair"

    def __init__(self, scene: Any) -> None:
        super().__init__(scene)
        self.choice: str | None = None

    @property
    def prompt_obj(self) -> AntiairPrompt:
        return self.state.pending

    def same_as(self, other: Mode) -> bool:
        return False            # a new offer after each shot (fewer eligible units)

    def eligible(self) -> list[str]:
        legal = {a.uid for a in self.scene.legal() if isinstance(a, DefensiveFire)}
        return [uid for uid in self.prompt_obj.eligible if uid in legal]

    def current(self) -> str | None:
        el = self.eligible()
        if not el:
            return None
        if self.choice not in el:
            self.choice = el[0]
        return self.choice

    def odds(self) -> dict[str, Any]:
        """uid -> the rules' exact odds of its shot at the Aircraft."""
        p = self.prompt_obj
        return self.scene.cached("antiair_odds", lambda: {
            uid: self.game.odds(uid, p.aircraft, defensive=True) for uid in self.eligible()})

    def prompt(self) -> str:
        p = self.prompt_obj
        plane = self.state.units[p.aircraft]
        return (f"{side_name(self.state.to_act)} player: Antiair fire at {plane.name} over "
                f"{hex_label(p.hex)}? Choose the firing unit on the map or with Tab.")

    def buttons(self) -> list[Button]:
        cur = self.current()
        out = []
        if cur is not None:
            o = self.odds()[cur]
            out.append(Button("fire", f"Fire ({pct(o.p_stopped)} to disrupt)", primary=True,
                              hotkey="F"))
        out.append(Button("hold", "Hold fire", hotkey="H"))
        return out

    def on_button(self, key: str) -> None:
        side = self.state.to_act
        cur = self.current()
        if key == "fire" and cur is not None:
            self.scene.send(DefensiveFire(side, cur))
        elif key == "hold":
            self.scene.send(PassDefensiveFire(side))

    def on_key(self, key: int, mod: int) -> bool:
        if key == pygame.K_f:
            self.on_button("fire")
            return True
        if key == pygame.K_h:
            self.on_button("hold")
            return True
        if key == pygame.K_TAB:
            el = self.eligible()
            cur = self.current()
            if el and cur is not None:
                self.choice = el[(el.index(cur) + 1) % len(el)]
            return True
        return False

    def on_click(self, pos, button) -> bool:
        uid = self.scene.view.unit_at(self.state, pos)
        if uid in self.eligible():
            self.choice = uid
            self.scene.selected = uid
        return True             # nothing else may be done now

    def draw_over(self, surface) -> None:
        p = self.prompt_obj
        st = self.state
        view = self.scene.view
        lay = view.layout
        outline_hex(surface, lay, p.hex, TARGET_RING, 3, 0.92)
        slots = view.unit_slots(st)
        cur = self.current()
        plane = slots.get(p.aircraft)
        for uid in self.eligible():
            r = slots.get(uid)
            if r is None:
                continue
            pygame.draw.circle(surface, SELECT_RING if uid == cur else (200, 200, 200), r.center,
                               r.w // 2 + 4, 3 if uid == cur else 1)
            if uid == cur and plane is not None:
                pygame.draw.line(surface, (0, 0, 0), r.center, plane.center, 5)
                pygame.draw.line(surface, SELECT_RING, r.center, plane.center, 3)
        if plane is not None:            # round the whole plane, not through its wings
            rad = int(plane.w / 2 + lay.size * 0.40)
            pygame.draw.circle(surface, (0, 0, 0), plane.center, rad + 1, 4)
            pygame.draw.circle(surface, TARGET_RING, plane.center, rad, 3)

    def draw_side(self, surface, rect) -> bool:
        p = self.prompt_obj
        cur = self.current()
        key = (self.scene.version, cur, rect.size)
        if key != getattr(self, "_img_key", None):
            self._img_key = key
            img = pygame.Surface(rect.size)
            img.fill(theme.BG)
            odds = self.odds()
            plane = self.state.units[p.aircraft]
            box = pygame.Rect(0, 0, rect.w, min(rect.h, 74 + 22 * len(odds)))
            draw_panel(img, box, theme.BG_DARK)
            pygame.draw.rect(img, theme.ACCENT, box, 1, border_radius=8)
            draw_text(img, "Antiair fire: chance to disrupt", (10, 6), 18, theme.ACCENT, bold=True)
            draw_text(img, fit(f"{plane.name} over {hex_label(p.hex)}", theme.font(16),
                               box.w - 20), (10, 28), 16, theme.TEXT_DIM)
            y = 50
            for uid, o in odds.items():
                if y + 20 > box.bottom:
                    break
                col = SELECT_RING if uid == cur else theme.TEXT
                name = self.state.units[uid].name
                draw_text(img, fit(name, theme.font(17, uid == cur), box.w - 90), (10, y), 17,
                          col, bold=uid == cur)
                draw_text(img, pct(o.p_stopped), (box.right - 10, y), 17, col, anchor="topright")
                y += 22
            if len(odds) > 1 and y + 18 <= box.bottom:
                from game.rules.later.flight import placement_risk
                risk = placement_risk(self.game, p.aircraft, p.hex)
                draw_text(img, f"If all fire, at least one disrupts it: {pct(risk.p_disrupted)}",
                          (10, y), 15, theme.TEXT_DIM)
            rest = pygame.Rect(0, box.bottom + 6, rect.w, rect.h - box.bottom - 6)
            if cur is not None and rest.h >= 330:
                draw_unit_box(img, rest, self.state.units[cur], self.state)
            elif rest.h >= 60:
                draw_panel(img, rest, theme.BG_DARK)
                lines = wrap("A hit disrupts the Aircraft at once: it makes no airstrike this "
                             "turn. Cover never protects an Aircraft.", theme.font(16), rest.w - 20)
                yy = rest.y + 8
                for line in lines:
                    draw_text(img, line, (rest.x + 10, yy), 16, theme.TEXT_DIM)
                    yy += 18
            self._img = img
        surface.blit(self._img, rect.topleft)
        return True


# --- airstrike phase ---------------------------------------------------------------------------
class AirstrikeMode(PlayMode):
    """Attack with each Aircraft over the map (hits are face down, resolved with the
    assault's in the casualty phase) - picked and shown as in the assault phase."""

    name = "airstrike"

    def attack_options(self) -> dict[str, list[Any]]:
        u = self.my_unit()
        if u is None or not self.state.phase.is_airstrike:
            return {}
        legal = {(a.target, a.mode) for a in self.unit_actions(u.uid) if isinstance(a, Attack)}
        if not legal:
            return {}
        return self.scene.cached(("targets", u.uid), lambda: self._targets(u.uid, legal))

    def prompt(self) -> str:
        who = side_name(self.side)
        u = self.my_unit()
        planes = [x for x in self.state.live_units(self.side) if is_aircraft(x) and x.on_map]
        if u is None or not is_aircraft(u):
            if not planes:
                return f"{who} airstrike phase: none of your Aircraft is over the map. End the phase."
            return f"{who} airstrike phase: click one of your Aircraft over the map."
        if self.attack_options():
            return (f"{who} airstrike: {u.name} - click a ringed enemy to attack it (hover for "
                    f"the exact odds). Its hits count with the assault's.")
        return self.options(u.uid).summary or f"{who} airstrike: {u.name} can't attack now."

    def _buttons(self) -> list[Button]:
        # Aircraft never turn; the Suggest button asks the first edition's AI
        return [b for b in super()._buttons() if b.key not in ("turn", "suggest")]

    def on_key(self, key, mod) -> bool:
        if key == pygame.K_TAB:
            planes = [x.uid for x in self.state.live_units(self.side)
                      if is_aircraft(x) and x.on_map and self.unit_actions(x.uid)]
            if planes:
                cur = self.scene.selected
                self.scene.selected = planes[(planes.index(cur) + 1) % len(planes)] \
                    if cur in planes else planes[0]
            return True
        return super().on_key(key, mod)

    def draw_over(self, surface) -> None:
        super().draw_over(surface)
        me = self.my_unit()
        st = self.state
        mouse = self.scene.mouse
        view = self.scene.view
        if me is None or mouse is None or self.scene.hover_button or me.acted:
            return
        hover = view.unit_at(st, mouse)
        if hover is None or hover in self.attack_options() or st.units[hover].side == me.side:
            return
        why = self.scene.cached(("why_attack", me.uid, hover), lambda: self.game.check(
            Attack(self.side, me.uid, hover)))
        if why:
            draw_tooltip(surface, mouse, [why], view.rect, theme.WARN)


def later_mode_for(scene: Any) -> Mode | None:
    """The later edition's base modes (None: the first edition's apply)."""
    st = scene.game.state
    if isinstance(st.pending, AntiairPrompt):
        return AntiairMode(scene)
    if st.pending is None and st.phase.is_flight:
        return FlightMode(scene)
    if st.pending is None and st.phase.is_airstrike:
        return AirstrikeMode(scene)
    return None
