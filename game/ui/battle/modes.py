"""Input modes of the battle screen: the phase state machine.

One mode per step a player can be in.  The *base* mode follows the game
state (``mode_for(scene)``: choosing first/second, picking an end, deploying,
moving/attacking, answering a defensive-fire prompt, placing a dismounted
Soldier, game over); short-lived modes are stacked on top of it by the
screen (choosing a facing, confirming, choosing between options, watching the
casualty phase).

A mode never decides a rule: it reads ``game.legal_actions()``,
``reachable``, ``why_not_reach``, ``targets`` and ``odds`` and sends actions
through ``scene.send``.
"""
from __future__ import annotations

import types
from typing import Any, Callable, Sequence

import pygame

from game.rules.actions import (Attack, Board, ChooseEnd, ChooseObjective, ChooseOrder,
                                DefensiveFire, Deploy, EndPhase, Move, PassDefensiveFire,
                                PlaceDismounted, Undeploy, describe_action)
from game.rules.events import (CountersFlipped, DisruptionRemoved, GameEnded, ObjectiveControl,
                               PhaseBegan, PointsCounted, TurnEnded, UnitDamaged, UnitDestroyed,
                               UnitDisrupted)
from game.rules.hexes import DIRECTION_NAMES, Hex, hex_label, range_band
from game.rules.state import DefensiveFirePrompt, DismountPlacement, OrderChoice, Phase
from game.rules.queries import defensive_fire_options, plain_text, reach_chance, unit_options
from game.ui import theme
from game.ui.battle.controller import BattleHost  # noqa: F401  (the modes' view of the screen)
from game.ui.battle.panels import (Button, draw_odds_box, draw_roster, draw_tooltip, draw_unit_box,
                                   pct)
from game.ui.battle.view import region_layer
from game.ui.map_render import BAND_COLORS, ZONE_COLORS, draw_los_line, outline_hex
from game.ui.widgets import draw_panel, draw_text, fit, wrap

__all__ = ["Mode", "OrderMode", "EndMode", "ObjectiveMode", "DeployMode", "PlayMode",
           "DefensiveFireMode", "DismountMode", "GameOverMode", "FacingMode", "ConfirmMode",
           "ChoiceMode", "CasualtyMode", "BattleMenuMode", "CardMode", "FacingChoiceMode", "mode_for"]

REACH_FILL = (70, 150, 230, 92)
PASS_FILL = (70, 150, 230, 40)
LEGAL_FILL = (255, 236, 120, 105)
SELECT_RING = (255, 236, 120)
TARGET_RING = (236, 70, 56)


def side_name(side: str | None) -> str:
    return theme.SIDE_LABEL.get(side, str(side)) if side else ""


class Mode:
    """Base: a prompt line, buttons, and input handlers that return True when used."""

    name = "mode"
    modal = False            # True: the map below takes no clicks while it is shown

    def __init__(self, scene: "BattleHost") -> None:
        self.scene = scene

    @property
    def game(self):
        return self.scene.game

    @property
    def state(self):
        return self.scene.game.state

    def prompt(self) -> str:
        return ""

    def buttons(self) -> list[Button]:
        return []

    def on_button(self, key: str) -> None:
        pass

    def on_click(self, pos: tuple[int, int], button: int) -> bool:
        return False

    def on_release(self, pos: tuple[int, int], button: int) -> bool:
        return False

    def on_key(self, key: int, mod: int) -> bool:
        return False

    def update(self, dt: float) -> None:
        pass

    def draw_under(self, surface: pygame.Surface) -> None:
        """Map overlays drawn below the units.  They may depend only on the state
        and on :meth:`under_key` (the screen caches the map, these overlays and
        the units as one picture while nothing changes)."""

    def under_key(self) -> Any:
        """What, besides the game state, :meth:`draw_under` depends on."""
        return None

    def draw_over(self, surface: pygame.Surface) -> None:
        """Drawn above the units (tooltips, boxes); only the top mode's is drawn."""

    def draw_side(self, surface: pygame.Surface, rect: pygame.Rect) -> bool:
        """Draw into the side panel's card area instead of the card (True if it did)."""
        return False

    def on_side_click(self, pos: tuple[int, int], button: int) -> bool:
        return False

    def same_as(self, other: "Mode") -> bool:
        return type(self) is type(other)


# --- setup ------------------------------------------------------------------------------
class OrderMode(Mode):
    name = "order"

    def prompt(self) -> str:
        p: OrderChoice = self.state.pending
        if p.reason == "coin flip":
            return (f"Coin flip: {p.side} {'win' if p.side == 'Allies' else 'wins'} "
                    f"the toss. Go first or second?")
        rolls = self.state.initiative_rolls
        tot = {s: sum(r) for s, r in rolls.items()}
        other = "Allies" if p.side == "Axis" else "Axis"
        verb = "win" if p.side == "Allies" else "wins"
        return (f"Turn {self.state.turn}: {p.side} {verb} the initiative ({tot.get(p.side, 0)} to "
                f"{tot.get(other, 0)}). Go first or second?")

    def buttons(self) -> list[Button]:
        return [Button("first", "Go first", primary=True, hotkey="1"),
                Button("second", "Go second", hotkey="2")]

    def on_button(self, key: str) -> None:
        side = self.state.pending.side
        self.scene.send(ChooseOrder(side, key == "first"))

    def draw_side(self, surface: pygame.Surface, rect: pygame.Rect) -> bool:
        """The coin flip or the initiative dice, in the side panel (the map stays clear)."""
        p: OrderChoice = self.state.pending
        surface.fill(theme.BG, rect)
        box = pygame.Rect(rect.x, rect.y, rect.w, min(rect.h, 190))
        draw_panel(surface, box, theme.BG_DARK, theme.ACCENT)
        col = theme.SIDE_RIM.get(p.side, theme.ACCENT)
        if p.reason == "coin flip":
            pygame.draw.circle(surface, (40, 36, 20), (box.x + 70, box.centery + 3), 48)
            pygame.draw.circle(surface, (222, 184, 92), (box.x + 68, box.centery), 48)
            pygame.draw.circle(surface, col, (box.x + 68, box.centery), 38)
            draw_text(surface, p.side[:2].upper(), (box.x + 68, box.centery), 30, (250, 250, 240),
                      bold=True, anchor="center")
            draw_text(surface, "Coin flip", (box.x + 136, box.y + 40), 26, theme.ACCENT, bold=True)
            verb = "win" if p.side == "Allies" else "wins"
            draw_text(surface, f"{p.side} {verb} the toss and choose"
                               f"{'' if verb == 'win' else 's'} to be first or second player.", (box.x + 136, box.y + 76), 18, theme.TEXT,
                      width=box.w - 150)
        else:
            rolls = self.state.initiative_rolls
            draw_text(surface, f"Initiative, turn {self.state.turn}", (box.x + 20, box.y + 16),
                      26, theme.ACCENT, bold=True)
            y = box.y + 56
            from game.ui.widgets import draw_die
            for side in ("Axis", "Allies"):
                r = rolls.get(side)
                if not r:
                    continue
                draw_text(surface, side, (box.x + 20, y + 8), 20, theme.SIDE_RIM.get(side, theme.TEXT)
                          if side == "Allies" else (200, 202, 208), bold=True)
                for i in range(2):
                    draw_die(surface, pygame.Rect(box.x + 100 + 40 * i, y, 32, 32), r[i],
                             "hit" if side == p.side else "plain")
                extra = f"+{r[2]}" if r[2] else ""
                draw_text(surface, f"{extra} = {sum(r)}", (box.x + 186, y + 8), 20, theme.TEXT)
                y += 44
            draw_text(surface, f"{p.side} choose{'' if p.side == 'Allies' else 's'} "
                               f"first or second.", (box.x + 20, box.bottom - 32),
                      18, theme.TEXT)
        return True

    def on_key(self, key: int, mod: int) -> bool:
        if key in (pygame.K_1, pygame.K_KP1, pygame.K_2, pygame.K_KP2):
            self.on_button("first" if key in (pygame.K_1, pygame.K_KP1) else "second")
            return True
        return False


class EndMode(Mode):
    name = "end"

    def __init__(self, scene: Any) -> None:
        super().__init__(scene)
        self.hover_end: str | None = None

    def prompt(self) -> str:
        side = self.state.to_act
        return f"{side_name(side)} player: choose the end of the battle map you start from."

    def buttons(self) -> list[Button]:
        return [Button("left", "Left end", primary=True), Button("right", "Right end")]

    def on_button(self, key: str) -> None:
        self.scene.send(ChooseEnd(self.state.to_act, key))

    def under_key(self) -> Any:
        return self.hovered_end()

    def hovered_end(self) -> str | None:
        mouse = self.scene.mouse
        end = None
        for key in ("left", "right"):
            b = self.scene.buttons.get(key)
            if b is not None and b.rect.collidepoint(mouse):
                end = key
        h = self.scene.hover_hex
        if end is None and h is not None:
            cx = self.scene.view.center(h)[0]
            end = "left" if cx < self.scene.view.rect.centerx else "right"
        return end

    def draw_under(self, surface: pygame.Surface) -> None:
        end = self.hovered_end()
        for e in ("left", "right"):
            zone = self.state.battle_map.deployment_zone(e)
            col = ZONE_COLORS[e]
            alpha = 120 if e == end else 45
            self.scene.view.blit_layer(surface, ("zone", e, alpha), lambda lay, z=zone, c=col, a=alpha:
                                       region_layer(lay, z, lambda h: c + (a,)))

    def on_click(self, pos, button) -> bool:
        h = self.scene.hover_hex
        if button == 1 and h is not None:
            cx = self.scene.view.center(h)[0]
            self.on_button("left" if cx < self.scene.view.rect.centerx else "right")
            return True
        return False


class ObjectiveMode(Mode):
    name = "objective"

    def legal(self) -> set[Hex]:
        return {a.hex for a in self.scene.legal() if isinstance(a, ChooseObjective)}

    def prompt(self) -> str:
        return (f"{side_name(self.state.to_act)} player (defender): click the hex for the "
                f"objective (not next to the map edge).")

    def draw_under(self, surface) -> None:
        legal = self.legal()
        self.scene.view.blit_layer(surface, ("objective", self.scene.version),
                                   lambda lay: region_layer(lay, legal, lambda h: LEGAL_FILL))

    def on_click(self, pos, button) -> bool:
        h = self.scene.hover_hex
        if button == 1 and h is not None and h in self.legal():
            self.scene.send(ChooseObjective(self.state.to_act, h))
            return True
        return False


class DeployMode(Mode):
    name = "deploy"

    def __init__(self, scene: Any) -> None:
        super().__init__(scene)
        self.dragging: str | None = None
        self.tray: dict[str, pygame.Rect] = {}

    @property
    def side(self) -> str:
        return self.state.to_act

    def waiting(self) -> list[Any]:
        # Aircraft (later edition) are not deployed: they fly in during the flight phase
        return [u for u in self.state.units_of(self.side) if u.hex is None and not u.destroyed
                and not u.card.is_aircraft]

    def deploys(self, uid: str) -> list[Deploy]:
        return self.scene.cached(("deploys", uid), lambda: [
            a for a in self.scene.legal() if isinstance(a, Deploy) and a.uid == uid])

    def ensure_selection(self) -> None:
        if getattr(self.scene, "ai_turn", False):
            return          # solo: the AI's units are not picked for the player to look at
        sel = self.scene.selected
        st = self.state
        if sel in st.units and st.units[sel].side == self.side:
            return
        w = self.waiting()
        self.scene.selected = w[0].uid if w else None

    def prompt(self) -> str:
        self.ensure_selection()
        n = len(self.waiting())
        end = self.state.ends.get(self.side, "?")
        if n:
            return (f"{side_name(self.side)} deployment ({end} end): pick a unit in the side panel, then "
                    f"click or drag it to a highlighted hex. {n} to place.")
        return f"{side_name(self.side)} deployment: every unit is placed. Done, or take one back."

    def buttons(self) -> list[Button]:
        sel = self.scene.selected
        placed = sel in self.state.units and self.state.units[sel].hex is not None
        done = any(isinstance(a, EndPhase) for a in self.scene.legal())
        return [Button("takeback", "Take back", enabled=placed, hotkey="Bksp"),
                Button("done", "Done", enabled=done, primary=True, hotkey="Enter")]

    def on_button(self, key: str) -> None:
        if key == "takeback":
            self.take_back(self.scene.selected)
        elif key == "done":
            self.scene.send(EndPhase(self.side))

    def take_back(self, uid: str | None) -> None:
        if uid is None:
            return
        if self.scene.send(Undeploy(self.side, uid)):
            self.scene.selected = uid

    def on_key(self, key, mod) -> bool:
        if key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            # a stray Enter never commits the whole deployment: it asks first
            if any(isinstance(a, EndPhase) for a in self.scene.legal()):
                side = self.side
                self.scene.push(ConfirmMode(
                    self.scene, f"Done deploying? The {side_name(side)} units stay where "
                                f"they are for the battle.",
                    lambda: self.scene.send(EndPhase(side)), yes="Done deploying",
                    no="Keep deploying", enter_confirms=False))
            return True
        if key in (pygame.K_BACKSPACE, pygame.K_DELETE):
            sel = self.scene.selected
            if sel in self.state.units and self.state.units[sel].hex is not None:
                self.take_back(sel)
            return True
        return False

    def tray_rect(self) -> pygame.Rect:
        return self.scene.card_rect

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
                                f"{side_name(self.side)} units to place ({len(waiting)})")
        return True

    def place(self, uid: str, h: Hex) -> bool:
        u = self.state.units[uid]
        acts = self.deploys(uid)
        here = [a for a in acts if a.hex == h and a.carrier is None]
        board = [a for a in acts if a.hex == h and a.carrier is not None]
        if not here and not board:
            self.scene.note(f"{u.name} can't be placed in {hex_label(h)}: "
                            f"{self.game.check(Deploy(self.side, uid, h, 0)) or 'not a legal hex'}")
            return False

        def send(a: Deploy) -> None:
            # placed: the next unit waiting is picked, so the next click places it
            if self.scene.send(a) and self.scene.selected == a.uid:
                w = self.waiting()
                if w:
                    self.scene.selected = w[0].uid

        def put(a: Deploy) -> None:
            if u.is_vehicle:
                self.scene.push(FacingMode(self.scene, h, a.facing,
                                           lambda f, a=a: send(
                                               Deploy(a.side, a.uid, a.hex,
                                                      a.facing if f is None else f, a.carrier)),
                                           keep_label="Keep facing", unit=u))
            else:
                send(a)

        if board and here:
            carrier = self.state.units[board[0].carrier]
            self.scene.push(ChoiceMode(self.scene, f"{u.name}: board {carrier.name} or stand in "
                                                   f"{hex_label(h)}?",
                                       [(f"Board {carrier.name}", lambda: put(board[0])),
                                        ("Place in the hex", lambda: put(here[0]))]))
        else:
            put((here or board)[0])
        return True

    def on_click(self, pos, button) -> bool:
        st = self.state
        uid = self.scene.view.unit_at(st, pos)
        if uid is not None and st.units[uid].side == self.side:
            sel = self.scene.selected
            if button == 3:
                self.take_back(uid)
                return True
            u = st.units[sel] if sel in st.units else None
            # a Soldier may be dropped onto its own transport
            if u is not None and u.hex is None and u.is_soldier and st.units[uid].is_vehicle:
                return self.place(sel, st.units[uid].hex)
            self.scene.selected = uid
            return True
        h = self.scene.hover_hex
        sel = self.scene.selected
        if button == 1 and h is not None and sel in st.units and st.units[sel].hex is None:
            self.place(sel, h)
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

    def draw_under(self, surface) -> None:
        self.ensure_selection()
        legal_all = self.scene.cached("deploy_hexes", lambda: {
            a.hex for a in self.scene.legal() if isinstance(a, Deploy)})
        sel = self.scene.selected
        mine = {a.hex for a in self.deploys(sel)} if sel else set()
        end = self.state.ends.get(self.side, "left")
        col = ZONE_COLORS.get(end, (90, 140, 220))
        view = self.scene.view
        view.blit_layer(surface, ("deploy", self.scene.version, sel),
                        lambda lay: region_layer(lay, legal_all | mine,
                                                 lambda h: LEGAL_FILL if h in mine else col + (50,)))

    def draw_over(self, surface) -> None:
        h = self.scene.hover_hex
        sel = self.scene.selected
        if h is not None and sel in self.state.units and self.state.units[sel].hex is None:
            ok = any(a.hex == h for a in self.deploys(sel))
            outline_hex(surface, self.scene.view.layout, h,
                        SELECT_RING if ok else TARGET_RING, 3, 0.94)
        if self.dragging and self.scene.mouse and self.scene.view.rect.collidepoint(self.scene.mouse):
            from game.ui.tokens import draw_unit
            u = self.state.units[self.dragging]
            r = int(self.scene.view.layout.size * 0.62)
            mx, my = self.scene.mouse
            draw_unit(surface, u, pygame.Rect(mx - r, my - r, 2 * r, 2 * r), selected=True)


# --- playing -------------------------------------------------------------------------------
class PlayMode(Mode):
    """Movement and assault phases: select a unit, move it, attack with it."""

    name = "play"

    @property
    def side(self) -> str:
        return self.state.active_side

    def my_unit(self) -> Any | None:
        sel = self.scene.selected
        u = self.state.units.get(sel) if sel else None
        if u is not None and u.side == self.side and u.on_map:
            return u
        return None

    def unit_actions(self, uid: str) -> list[Any]:
        by_uid = self.scene.cached("by_uid", self._by_uid)
        return by_uid.get(uid, [])

    def _by_uid(self) -> dict[str, list[Any]]:
        out: dict[str, list[Any]] = {}
        for a in self.scene.legal():
            out.setdefault(getattr(a, "uid", None), []).append(a)
        return out

    def options(self, uid: str | None = None) -> Any:
        """What the unit may still do (game.rules.queries.unit_options), extra actions
        of its abilities included: the bar, the highlights and the rings show this."""
        uid = uid or self.scene.selected
        if uid is None or uid not in self.state.units:
            return None
        return self.scene.cached(("options", uid),
                                 lambda: unit_options(self.game, uid, self.scene.legal()))

    def reach(self) -> dict:
        u = self.my_unit()
        if u is None:
            return {}
        o = self.options(u.uid)
        return o.reach if o is not None else {}

    def attack_options(self) -> dict[str, list[Any]]:
        """target uid -> [TargetInfo...] for the selected unit's legal attacks."""
        u = self.my_unit()
        if u is None or not self.state.phase.is_assault:
            return {}
        legal = {(a.target, a.mode) for a in self.unit_actions(u.uid) if isinstance(a, Attack)}
        if not legal:
            return {}
        return self.scene.cached(("targets", u.uid), lambda: self._targets(u.uid, legal))

    def _targets(self, uid, legal) -> dict[str, list[Any]]:
        out: dict[str, list[Any]] = {}
        for t in self.game.targets(uid):
            if (t.target, t.mode) in legal:
                out.setdefault(t.target, []).append(t)
        return out

    def extra_actions(self) -> list[Any]:
        u = self.my_unit()
        if u is None:
            return []
        return self.scene.cached(("extra", u.uid), lambda: [
            a for a in self.unit_actions(u.uid) if not isinstance(a, (Move, Attack))])

    def can_turn(self) -> bool:
        u = self.my_unit()
        return bool(u and self.scene.cached(("turn", u.uid), lambda: any(
            isinstance(a, Move) and not a.path for a in self.unit_actions(u.uid))))

    def prompt(self) -> str:
        phase = "movement" if self.state.phase.is_movement else "assault"
        u = self.my_unit()
        who = side_name(self.side)
        if u is None:
            return f"{who} {phase}: click one of your units."
        return self.options(u.uid).summary

    def buttons(self) -> list[Button]:
        return self.scene.cached(("play_buttons", self.scene.selected), self._buttons)

    def undoable(self) -> list[Any]:
        """The selected unit's actions of this phase that the rules let us take back."""
        sel = self.scene.selected
        if sel is None or not hasattr(self.game, "undoable"):
            return []
        acts = self.scene.cached("undoable", self.game.undoable)
        return [a for a in acts if getattr(a, "uid", None) == sel]

    def take_back(self) -> None:
        sel = self.scene.selected
        if sel is None or not self.undoable():
            return
        name = self.state.units[sel].name
        taken = self.game.undo(sel)
        self.state.touch()
        self.scene.logp.add(f"{name}: {len(taken)} action(s) taken back.", theme.TEXT_DIM)
        self.scene.refresh()

    def _buttons(self) -> list[Button]:
        out = []
        if self.undoable():
            out.append(Button("undo", "Take back", hotkey="Ctrl+Z"))
        for i, a in enumerate(self.extra_actions()[:3]):
            out.append(Button(f"extra{i}", self._label(a)))
        if self.can_turn():
            out.append(Button("turn", "Turn in place", hotkey="T"))
        if self.my_unit() is not None:        # issue 17: the Veteran's choice, for learning
            out.append(Button("suggest", "Suggest", hotkey="A",
                              tip="What the Veteran would do with this unit, and why"))
        out.append(Button("end", "End phase", primary=True, hotkey="E"))
        return out

    def _label(self, a: Any) -> str:
        st = self.state
        if isinstance(a, Board):
            return f"Board {st.units[a.carrier].name}"
        if type(a).__name__ == "Dismount":
            return "Dismount"
        if type(a).__name__ == "DemolishBridge":
            return "Blow the bridge"
        return describe_action(a).split(": ", 1)[-1].capitalize()

    def on_button(self, key: str) -> None:
        if key == "end":
            self.end_phase()
        elif key == "undo":
            self.take_back()
        elif key == "turn":
            self.turn_in_place()
        elif key == "suggest":
            self.scene.suggest()
        elif key.startswith("extra"):
            acts = self.extra_actions()
            i = int(key[5:])
            if i < len(acts):
                self.scene.send(acts[i])

    def end_phase(self) -> None:
        st = self.state
        idle = [u for u in st.live_units(self.side)
                if not u.acted and not u.boarded and
                any(not isinstance(a, EndPhase) for a in self.unit_actions(u.uid))]
        if idle:
            names = ", ".join(u.name for u in idle[:3]) + ("..." if len(idle) > 3 else "")
            self.scene.push(ConfirmMode(self.scene, f"{len(idle)} unit(s) have not acted ({names}). "
                                                    f"End the phase anyway?",
                                        lambda: self.scene.send(EndPhase(self.side))))
        else:
            self.scene.send(EndPhase(self.side))

    def turn_in_place(self) -> None:
        u = self.my_unit()
        if u is None or not self.can_turn():
            return
        self.scene.push(FacingMode(self.scene, u.hex, u.facing,
                                   lambda f, u=u: f is not None and f != u.facing and
                                   self.scene.send(Move(self.side, u.uid, (), f)),
                                   keep_label="Keep facing", unit=u))

    def on_key(self, key, mod) -> bool:
        if key in (pygame.K_e, pygame.K_RETURN, pygame.K_KP_ENTER):
            self.end_phase()
            return True
        if key == pygame.K_t:
            self.turn_in_place()
            return True
        if key == pygame.K_a and self.my_unit() is not None:
            self.scene.suggest()
            return True
        if key == pygame.K_z and mod & pygame.KMOD_CTRL:
            self.take_back()
            return True
        if key == pygame.K_TAB:
            mine = [u.uid for u in self.state.live_units(self.side)
                    if self.unit_actions(u.uid)]
            if mine:
                cur = self.scene.selected
                i = (mine.index(cur) + 1) % len(mine) if cur in mine else 0
                self.scene.selected = mine[i]
            return True
        return False

    def on_click(self, pos, button) -> bool:
        st = self.state
        uid = self.scene.view.unit_at(st, pos)
        me = self.my_unit()
        if button == 3:
            self.scene.selected = None
            return True
        if uid is not None and me is not None and uid in self.attack_options():
            self.attack(me, uid)
            return True
        h = self.scene.hover_hex
        reach = self.reach()
        if me is not None and h is not None and h in reach and reach[h].stops and h != me.hex:
            other = st.units[uid] if uid is not None else None
            if other is None:
                self.move(me, h, reach[h])
                return True
            if other.side == self.side:
                # a friendly token in a hex the selected unit may enter: ask which was meant
                self.scene.push(ChoiceMode(self.scene, f"Move {me.name} into {hex_label(h)}, "
                                                       f"or select {other.name}?",
                                           [(f"Move {me.name} here",
                                             lambda: self.move(me, h, reach[h])),
                                            (f"Select {other.name}",
                                             lambda: setattr(self.scene, "selected", other.uid))]))
                return True
        if uid is not None:
            self.scene.selected = uid
            return True
        if h is not None:
            mine = [u for u in st.units_at(h, include_boarded=False) if u.side == self.side]
            if mine:
                self.scene.selected = mine[0].uid
                return True
            if me is not None and h != me.hex:
                self.scene.note(self.game.why_not_reach(me.uid, h))
                return True
        return False

    def move(self, u: Any, h: Hex, r: Any) -> None:
        # A Vehicle's facing is asked where the move actually ends (after its rolls and
        # defensive fire): the rules answer with a FacingChoice -> FacingChoiceMode.
        self.scene.send(Move(self.side, u.uid, tuple(r.path), None))

    def attack(self, u: Any, target: str) -> None:
        infos = self.attack_options().get(target, [])
        if len(infos) == 1:
            self.scene.send(Attack(self.side, u.uid, target, infos[0].mode))
            return
        t = self.state.units[target]
        opts = []
        for info in infos:
            label = "Attack" if info.mode == "normal" else info.mode.replace("_", " ").capitalize()
            opts.append((f"{label} ({pct(1 - info.odds.p_none)} any effect)",
                         lambda m=info.mode: self.scene.send(Attack(self.side, u.uid, target, m))))
        self.scene.push(ChoiceMode(self.scene, f"{u.name} attacks {t.name}: how?", opts))

    # --- drawing ----------------------------------------------------------------------------
    def draw_under(self, surface) -> None:
        me = self.my_unit()
        view = self.scene.view
        if me is None:
            return
        reach = self.reach()
        if reach:
            view.blit_layer(surface, ("reach", self.scene.version, me.uid),
                            lambda lay: region_layer(
                                lay, reach, lambda h: REACH_FILL if reach[h].stops else PASS_FILL,
                                text=lambda h: str(reach[h].cost) if reach[h].stops else None))

    def draw_path(self, surface, me, r) -> None:
        lay = self.scene.view.layout
        pts = [lay.hex_to_pixel(me.hex)] + [lay.hex_to_pixel(x) for x in r.path]
        width = max(3, int(lay.size * 0.12))
        pygame.draw.lines(surface, (0, 0, 0), False, [(x + 1, y + 1) for x, y in pts], width + 2)
        bm = self.state.battle_map
        prev = me.hex
        for a, b, x in zip(pts, pts[1:], r.path):
            road = bm.is_road(prev, x, self.state.destroyed_bridges)
            pygame.draw.line(surface, theme.ACCENT if road else (250, 250, 250), a, b, width)
            prev = x
        pygame.draw.circle(surface, (250, 250, 250), pts[-1], width + 3)
        f = theme.font(max(14, int(lay.size * 0.42)), bold=True)
        for roll in r.rolls:
            cx, cy = lay.hex_to_pixel(roll.to_hex)
            box = pygame.Rect(0, 0, int(lay.size * 0.8), int(lay.size * 0.5))
            box.center = (int(cx), int(cy - lay.size * 0.45))
            pygame.draw.rect(surface, (250, 248, 240), box, border_radius=4)
            pygame.draw.rect(surface, (40, 40, 40), box, 1, border_radius=4)
            img = f.render(f"{roll.need}+", True, (20, 20, 20))
            surface.blit(img, img.get_rect(center=box.center))

    def draw_over(self, surface) -> None:
        me = self.my_unit()
        st = self.state
        view = self.scene.view
        h = self.scene.hover_hex
        if me is not None and h is not None and not self.scene.hover_button:
            reach = self.reach()
            if h in reach:
                self.draw_path(surface, me, reach[h])
        slots = view.unit_slots(st)
        targets = self.attack_options()
        lay = view.layout
        f = theme.font(max(14, int(lay.size * 0.36)), bold=True)
        for uid, infos in targets.items():
            r = slots.get(uid)
            if r is None:
                continue
            info = infos[0]
            col = BAND_COLORS.get(info.band, TARGET_RING)
            pygame.draw.circle(surface, (0, 0, 0), r.center, r.w // 2 + 5, 4)
            pygame.draw.circle(surface, col, r.center, r.w // 2 + 4, 3)
            tag = info.band[:1].upper() + ("" if info.front is None else
                                           (" F" if info.front else " R"))
            img = f.render(tag, True, (0, 0, 0), col)
            surface.blit(img, img.get_rect(midtop=(r.centerx, r.bottom + 1)))
        mouse = self.scene.mouse
        hover_uid = view.unit_at(st, mouse) if mouse else None
        if me is not None and hover_uid in targets:
            t = st.units[hover_uid]
            draw_los_line(surface, lay, me.hex, t.hex, (255, 255, 255))
            y = 0
            for info in targets[hover_uid]:
                title = f"{me.name} -> {t.name}" + ("" if info.mode == "normal"
                                                     else f" ({info.mode.replace('_', ' ')})")
                box = draw_odds_box(surface, (mouse[0], mouse[1] + y), title, info.odds,
                                    bounds=view.rect)
                y += box.h + 6
            return
        if me is not None and hover_uid is not None and hover_uid not in targets and \
                st.phase.is_assault and not me.acted and not self.scene.hover_button and \
                st.units[hover_uid].side != me.side:
            # an enemy that can't be attacked: why not, in the rules' words
            t = st.units[hover_uid]
            why = self.scene.cached(("why_attack", me.uid, hover_uid), lambda: self.game.check(
                Attack(self.side, me.uid, hover_uid)))
            if why:
                blk = st.battle_map.los.blocker(me.hex, t.hex) \
                    if not st.battle_map.can_see(me.hex, t.hex) else None
                draw_los_line(surface, lay, me.hex, t.hex, (255, 255, 255), blocked_at=blk)
                draw_tooltip(surface, mouse, [why], view.rect, theme.WARN)
                return
        h = self.scene.hover_hex
        if me is None or h is None or self.scene.hover_button:
            return
        reach = self.reach()
        if h in reach:
            r = reach[h]
            lines = [f"{hex_label(h)}: costs {r.cost} of {me.current_speed}"
                     + (" (road bonus used)" if r.road_bonus_used else "")]
            each, chance = reach_chance(r)           # the rules' dice odds
            for roll, p in zip(r.rolls, each):
                lines.append(f"{roll.kind} roll entering {hex_label(roll.to_hex)}: "
                             f"needs {roll.need}+ ({pct(p)})")
            if r.rolls:
                lines.append(f"chance to get there: {pct(chance)}")
            if not r.stops:
                lines.append("can pass through but not stop here")
            draw_tooltip(surface, mouse, lines, view.rect)
        elif h != me.hex and not me.acted and (st.phase.is_movement or st.phase.is_assault):
            occupied = view.unit_at(st, mouse)
            if occupied is None:
                why = self.scene.cached(("why", me.uid, h),
                                        lambda: self.game.why_not_reach(me.uid, h))
                draw_tooltip(surface, mouse, [f"{hex_label(h)}: {why}"], view.rect, theme.WARN)


class DefensiveFireMode(Mode):
    """The defender answers a defensive-fire offer unit by unit (ruling 14)."""

    name = "defensive_fire"

    def __init__(self, scene: Any) -> None:
        super().__init__(scene)
        self.choice: str | None = None

    @property
    def prompt_obj(self) -> DefensiveFirePrompt:
        return self.state.pending

    def same_as(self, other: Mode) -> bool:
        return False      # a new prompt each time (new stage / fewer eligible units)

    def eligible(self) -> list[str]:
        return list(self.prompt_obj.eligible)

    def current(self) -> str:
        el = self.eligible()
        if self.choice not in el:
            self.choice = el[0]
        return self.choice

    def options(self) -> dict[str, Any]:
        """uid -> DefenderOptions: the rules' answer per defender and stage
        (game.rules.queries.defensive_fire_options); never a hypothetical of our own."""
        return self.scene.cached("df_options", lambda: {
            o.uid: o for o in defensive_fire_options(self.game)})

    def option(self, uid: str | None = None) -> Any:
        return self.options().get(uid or self.current())

    def prompt(self) -> str:
        p = self.prompt_obj
        mover = self.state.units[p.mover]
        side = self.state.to_act
        where = f"leaving {hex_label(p.from_hex)}" if p.stage == "leave" else \
            f"entering {hex_label(p.to_hex)}"
        text = (f"{side_name(side)} player: defensive fire at {mover.name} {where}? "
                f"Choose the firing unit on the map or with Tab.")
        o = self.option()
        if o is not None and o.next is not None and not o.next.legal:
            text += f" Next hex: {o.next.reason}."
        return text

    def buttons(self) -> list[Button]:
        o = self.option()
        here, nxt = o.here, o.next
        out = [Button("fire", f"Fire here ({pct(here.p_stopped)})" if here.legal
                      else "Fire here: not possible", primary=here.legal, hotkey="F",
                      enabled=here.legal, tip=here.reason or "")]
        if nxt is not None:
            out.append(Button("wait", f"Fire at the next hex ({pct(nxt.p_stopped)})" if nxt.legal
                              else f"Next hex: {nxt.reason}", hotkey="N", enabled=nxt.legal,
                              tip=nxt.reason or ""))
        out.append(Button("hold", "Hold fire", hotkey="H"))
        return out

    def on_button(self, key: str) -> None:
        p = self.prompt_obj
        side = self.state.to_act
        o = self.option()
        if key == "fire" and o.here.legal:
            self.scene.send(o.here.action)
        elif key == "wait" and o.next is not None and o.next.legal:
            self.scene.send(o.next.action)
        elif key == "hold":
            self.scene.hold_fire = (p.mover, p.to_hex)
            self.scene.send(PassDefensiveFire(side))

    def on_key(self, key, mod) -> bool:
        keys = {pygame.K_f: "fire", pygame.K_n: "wait", pygame.K_h: "hold"}
        if key in keys:
            b = self.scene.buttons.get(keys[key])
            if b is not None and not b.enabled:
                self.scene.note(b.tip or "not possible now")
            elif b is not None or keys[key] == "hold":
                self.on_button(keys[key])
            return True
        if key == pygame.K_TAB:
            el = self.eligible()
            self.choice = el[(el.index(self.current()) + 1) % len(el)]
            return True
        return False

    def on_click(self, pos, button) -> bool:
        uid = self.scene.view.unit_at(self.state, pos)
        if uid in self.eligible():
            self.choice = uid
            self.scene.selected = uid
            return True
        return True         # nothing else may be done now

    def draw_over(self, surface) -> None:
        p = self.prompt_obj
        st = self.state
        view = self.scene.view
        lay = view.layout
        outline_hex(surface, lay, p.from_hex, (255, 255, 255), 2, 0.92)
        outline_hex(surface, lay, p.to_hex, TARGET_RING, 3, 0.92)
        a, b = lay.hex_to_pixel(p.from_hex), lay.hex_to_pixel(p.to_hex)
        pygame.draw.line(surface, TARGET_RING, a, b, max(3, int(lay.size * 0.1)))
        slots = view.unit_slots(st)
        cur = self.current()
        for uid in self.eligible():
            r = slots.get(uid)
            if r is None:
                continue
            pygame.draw.circle(surface, SELECT_RING if uid == cur else (200, 200, 200), r.center,
                               r.w // 2 + 4, 3 if uid == cur else 1)
        firer = st.units[cur]
        draw_los_line(surface, lay, firer.hex, p.at_hex, SELECT_RING)

    def rows(self) -> list[tuple[str, str, float | None, float | None]]:
        """Every eligible unit with its chance to stop the mover here and at the next
        hex (None where the rules refuse that shot: see options() for why)."""
        return [(uid, o.name, o.here.p_stopped, None if o.next is None else o.next.p_stopped)
                for uid, o in self.options().items()]

    def draw_side(self, surface, rect) -> bool:
        """The odds table at the top of the side panel's card area (never over the map:
        the mover and the firers stay visible), the chosen firer's card under it."""
        p = self.prompt_obj
        cur = self.current()
        key = (self.scene.version, cur, rect.size)
        if key != getattr(self, "_img_key", None):
            self._img_key = key
            img = pygame.Surface(rect.size)
            img.fill(theme.BG)
            rows = self.rows()
            why = {uid: " - ".join(x for x in (
                None if o.here.legal else f"here: {o.here.reason}",
                None if o.next is None or o.next.legal else f"next hex: {o.next.reason}") if x)
                for uid, o in self.options().items()}
            n_why = sum(1 for v in why.values() if v)
            box = pygame.Rect(0, 0, rect.w, min(rect.h, 54 + 22 * len(rows) + 19 * n_why))
            draw_panel(img, box, theme.BG_DARK)
            pygame.draw.rect(img, theme.ACCENT, box, 1, border_radius=8)
            draw_text(img, "Defensive fire: chance to stop the mover", (10, 6), 18,
                      theme.ACCENT, bold=True)
            head = f"in {hex_label(p.at_hex)}" + (f"   /   in {hex_label(p.to_hex)}"
                                                  if p.stage == "leave" else "")
            draw_text(img, head, (box.right - 10, 28), 16, theme.TEXT_DIM, anchor="topright")
            y = 48
            for uid, name, here, nxt in rows:
                if y + 20 > box.bottom:
                    break
                col = SELECT_RING if uid == cur else theme.TEXT
                draw_text(img, fit(name, theme.font(17, uid == cur), box.w - 150), (10, y), 17,
                          col, bold=uid == cur)
                def cell(x):
                    return "-" if x is None else pct(x)
                txt = cell(here) + (f"   /   {cell(nxt)}" if p.stage == "leave" else "")
                draw_text(img, txt, (box.right - 10, y), 17, col, anchor="topright")
                y += 22
                if why.get(uid) and y + 18 <= box.bottom:
                    draw_text(img, fit(why[uid], theme.font(15), box.w - 30), (20, y - 2), 15,
                              theme.WARN)
                    y += 19
            rest = pygame.Rect(0, box.bottom + 6, rect.w, rect.h - box.bottom - 6)
            firer = self.state.units[cur]
            if rest.h >= 330:              # room for the whole stat card
                draw_unit_box(img, rest, firer, self.state)
            elif rest.h >= 60:             # the firer named, with its state
                draw_panel(img, rest, theme.BG_DARK)
                draw_text(img, fit(f"Firing: {firer.name}", theme.font(18, True), rest.w - 20),
                          (rest.x + 10, rest.y + 8), 18, theme.TEXT, bold=True)
                draw_unit_box(img, pygame.Rect(rest.x + 6, rest.y + 32 - 52, rest.w - 12, 100),
                              firer, self.state)
                mover = self.state.units[p.mover]
                where = (f"leaving {hex_label(p.from_hex)} for {hex_label(p.to_hex)}"
                         if p.stage == "leave" else f"entering {hex_label(p.to_hex)}")
                draw_text(img, f"At: {mover.name}, {where}", (rest.x + 10, rest.y + 70), 16,
                          theme.TEXT_DIM, width=rest.w - 20)
            self._img = img
        surface.blit(self._img, rect.topleft)
        return True


class DismountMode(Mode):
    name = "dismount"

    def prompt(self) -> str:
        p: DismountPlacement = self.state.pending
        u = self.state.units[p.uid]
        return f"{side_name(self.state.to_act)} player: choose where {u.name} goes (a highlighted hex)."

    def draw_under(self, surface) -> None:
        cands = set(self.state.pending.candidates)
        self.scene.view.blit_layer(surface, ("dismount", self.scene.version),
                                   lambda lay: region_layer(lay, cands, lambda h: LEGAL_FILL))

    def on_click(self, pos, button) -> bool:
        p: DismountPlacement = self.state.pending
        h = self.scene.hover_hex
        if h in p.candidates:
            self.scene.send(PlaceDismounted(self.state.to_act, p.uid, h))
        return True


class GameOverMode(Mode):
    name = "game_over"

    def prompt(self) -> str:
        o = self.state.outcome
        if o is None:
            return "The game is over."
        who = f"{o.winner} wins" if o.winner else "Draw"
        return f"{who}: {o.reason}."

    def buttons(self) -> list[Button]:
        return [Button("result", "See the result", primary=True, hotkey="Enter")]

    def on_button(self, key: str) -> None:
        self.scene.show_victory()

    def on_key(self, key, mod) -> bool:
        if key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            self.scene.show_victory()
            return True
        return False


# --- stacked modes ----------------------------------------------------------------------------
class FacingMode(Mode):
    """Pick a facing for a Vehicle in ``hex``: click one of six arrows, or keep."""

    name = "facing"

    def __init__(self, scene: Any, hex: Hex, default: int,
                 on_pick: Callable[[int | None], Any], keep_label: str = "Keep",
                 unit: Any = None) -> None:
        super().__init__(scene)
        self.hex = hex
        self.unit = unit            # shown in the hex, turned to the arrow under the mouse
        self.default = default % 6
        self.on_pick = on_pick
        self.keep_label = keep_label

    def wedge_pos(self, facing: int) -> tuple[int, int]:
        lay = self.scene.view.layout
        c = lay.hex_to_pixel(self.hex)
        n = lay.hex_to_pixel(self.hex.neighbor(facing))
        return (round(c[0] + (n[0] - c[0]) * 0.72), round(c[1] + (n[1] - c[1]) * 0.72))

    def wedge_at(self, pos) -> int | None:
        r = max(10, self.scene.view.layout.size * 0.34)
        for f in range(6):
            x, y = self.wedge_pos(f)
            if (pos[0] - x) ** 2 + (pos[1] - y) ** 2 <= r * r:
                return f
        return None

    def prompt(self) -> str:
        return (f"Choose the facing in {hex_label(self.hex)}: click an arrow "
                f"(now {DIRECTION_NAMES[self.default]}).")

    def buttons(self) -> list[Button]:
        return [Button("keep", self.keep_label, primary=True, hotkey="Enter"),
                Button("cancel", "Cancel", hotkey="Esc")]

    def pick(self, f: int | None) -> None:
        self.scene.pop(self)
        self.on_pick(f)

    def on_button(self, key: str) -> None:
        if key == "keep":
            self.pick(None)
        else:
            self.scene.pop(self)

    def on_click(self, pos, button) -> bool:
        f = self.wedge_at(pos)
        if f is not None:
            self.pick(f)
        elif button == 3:
            self.scene.pop(self)
        return True

    def on_key(self, key, mod) -> bool:
        if key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.pick(None)
            return True
        if key == pygame.K_ESCAPE:
            self.scene.pop(self)
            return True
        if pygame.K_1 <= key <= pygame.K_6:
            self.pick(key - pygame.K_1)
            return True
        return False

    def draw_over(self, surface) -> None:
        lay = self.scene.view.layout
        outline_hex(surface, lay, self.hex, SELECT_RING, 3, 0.95)
        hover = self.wedge_at(self.scene.mouse) if self.scene.mouse else None
        r = max(10, lay.size * 0.34)
        c = lay.hex_to_pixel(self.hex)
        if self.unit is not None:
            # the unit where it will stand (it is still drawn where it was until it is sent)
            from game.ui.tokens import counters_of, draw_token
            side = max(8, int(lay.size * 1.24))
            img = pygame.Surface((side, side), pygame.SRCALPHA)
            draw_token(img, self.unit.card, img.get_rect(), side=self.unit.side,
                       facing=hover if hover is not None else self.default,
                       counters=counters_of(self.unit), selected=True)
            img.set_alpha(220)
            surface.blit(img, img.get_rect(center=(round(c[0]), round(c[1]))))
        for f in range(6):
            x, y = self.wedge_pos(f)
            dx, dy = x - c[0], y - c[1]
            d = (dx * dx + dy * dy) ** 0.5 or 1
            ux, uy = dx / d, dy / d
            tip = (x + ux * r, y + uy * r)
            back = (x - ux * r * 0.6, y - uy * r * 0.6)
            left = (back[0] - uy * r * 0.8, back[1] + ux * r * 0.8)
            right = (back[0] + uy * r * 0.8, back[1] - ux * r * 0.8)
            col = SELECT_RING if f == hover else ((250, 250, 250) if f == self.default
                                                  else (190, 190, 190))
            pygame.draw.polygon(surface, (0, 0, 0), [(p[0] + 1, p[1] + 2) for p in (tip, left, right)])
            pygame.draw.polygon(surface, col, [tip, left, right])
            pygame.draw.polygon(surface, (30, 30, 30), [tip, left, right], 1)


class FacingChoiceMode(FacingMode):
    """The rules wait for a Vehicle's facing where its move ended (FacingChoice): the
    six arrows at that hex; Enter keeps the facing it has."""

    def __init__(self, scene: Any) -> None:
        p = scene.game.state.pending
        u = scene.game.state.units[p.uid]
        self.key = (p.uid, p.hex)
        super().__init__(scene, p.hex, u.facing, self._face, keep_label="Keep facing", unit=u)

    def same_as(self, other: Mode) -> bool:
        return type(other) is type(self) and getattr(other, "key", None) == self.key

    def _face(self, f: int | None) -> None:
        from game.rules.actions import Face
        p = self.state.pending
        u = self.state.units[p.uid]
        self.scene.send(Face(p.side, p.uid, u.facing if f is None else f))

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

    def __init__(self, scene: Any, uid: str) -> None:
        super().__init__(scene)
        self.uid = uid

    def prompt(self) -> str:
        u = self.state.units[self.uid]
        return f"{u.name} ({side_name(u.side)}): the whole stat card. Click or Esc to close."

    def buttons(self) -> list[Button]:
        return [Button("close", "Close", primary=True, hotkey="Esc")]

    def on_button(self, key: str) -> None:
        self.scene.pop(self)

    def on_key(self, key, mod) -> bool:
        if key in (pygame.K_ESCAPE, pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            self.scene.pop(self)
            return True
        return False

    def on_click(self, pos, button) -> bool:
        self.scene.pop(self)
        return True

    def card_rect(self) -> pygame.Rect:
        from game.ui.cardview import card_height
        v = self.scene.view_rect
        u = self.state.units[self.uid]
        w = min(430, v.w - 24)
        for body in (17, 16, 15, 14, 13):
            h = card_height(u.card, w, body)
            if h <= v.h - 24:
                break
        r = pygame.Rect(0, 0, w, min(h, v.h - 24))
        r.center = v.center
        return r

    def draw_over(self, surface) -> None:
        from game.ui.cardview import draw_card
        u = self.state.units[self.uid]
        shade = pygame.Surface(self.scene.view_rect.size, pygame.SRCALPHA)
        shade.fill((0, 0, 0, 120))
        surface.blit(shade, self.scene.view_rect.topleft)
        self.fits = draw_card(surface, u.card, self.card_rect(),
                              facing=u.facing if u.is_vehicle else 0)


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

    def __init__(self, scene: Any) -> None:
        super().__init__(scene)
        self.show_keys = False

    def prompt(self) -> str:
        return "Battle menu: the battle waits until you resume (Esc)."

    def panel(self) -> pygame.Rect:
        v = self.scene.view_rect
        w = min(v.w - 20, 620 if self.show_keys else 300)
        h = min(v.h - 20, 470 if self.show_keys else 62 + 48 * len(self.ITEMS))
        r = pygame.Rect(0, 0, w, h)
        r.center = v.center
        return r

    def buttons(self) -> list[Button]:
        return [Button(k, t, primary=k == "resume", hotkey="Esc" if k == "resume" else "")
                for k, t in self.ITEMS]

    def place_buttons(self, buttons: list[Button]) -> None:
        r = self.panel()
        bw = 260 if not self.show_keys else 180
        for i, b in enumerate(buttons):
            b.rect = pygame.Rect(r.x + 20, r.y + 52 + 48 * i, min(bw, r.w - 40), 40)

    def on_button(self, key: str) -> None:
        sc = self.scene
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
            sc.push(ConfirmMode(sc, "Leave the battle and go back to the main menu? "
                                    "(It is autosaved; Load continues it.)",
                                sc.to_menu, yes="Leave", no="Stay"))

    def on_key(self, key, mod) -> bool:
        if key == pygame.K_ESCAPE:
            self.scene.pop(self)
        return True               # the battle behind waits

    def on_click(self, pos, button) -> bool:
        return True

    def draw_over(self, surface) -> None:
        r = self.panel()
        shade = pygame.Surface(self.scene.view_rect.size, pygame.SRCALPHA)
        shade.fill((0, 0, 0, 110))
        surface.blit(shade, self.scene.view_rect.topleft)
        draw_panel(surface, r, theme.BG_DARK, theme.ACCENT)
        draw_text(surface, "Battle menu", (r.x + 20, r.y + 12), 26, theme.ACCENT, bold=True)
        if self.show_keys:
            x = r.x + 220
            y = r.y + 52
            f = theme.font(16)
            for k, what in KEY_HELP:
                if y + 30 > r.bottom:
                    break
                draw_text(surface, fit(k, theme.font(16, True), r.right - x - 14), (x, y), 16,
                          theme.TEXT, bold=True)
                draw_text(surface, fit(what, f, r.right - x - 24), (x + 10, y + 16), 15,
                          theme.TEXT_DIM)
                y += 32


class ConfirmMode(Mode):
    name = "confirm"
    modal = True

    def __init__(self, scene: Any, text: str, on_yes: Callable[[], Any],
                 yes: str = "Yes", no: str = "No", enter_confirms: bool = True) -> None:
        super().__init__(scene)
        self.text = text
        self.on_yes = on_yes
        self.yes, self.no = yes, no
        self.enter_confirms = enter_confirms    # False: only Y or a click says yes

    def prompt(self) -> str:
        return self.text

    def buttons(self) -> list[Button]:
        return [Button("yes", self.yes, primary=True,
                       hotkey="Enter" if self.enter_confirms else "Y"),
                Button("no", self.no, hotkey="Esc")]

    def on_button(self, key: str) -> None:
        self.scene.pop(self)
        if key == "yes":
            self.on_yes()

    def on_key(self, key, mod) -> bool:
        yes = (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_e, pygame.K_y) \
            if self.enter_confirms else (pygame.K_y,)
        if key in yes:
            self.on_button("yes")
            return True
        if key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            return True
        if key in (pygame.K_ESCAPE, pygame.K_n):
            self.on_button("no")
            return True
        return False

    def on_click(self, pos, button) -> bool:
        return True


class ChoiceMode(Mode):
    name = "choice"
    modal = True

    def __init__(self, scene: Any, text: str, options: Sequence[tuple[str, Callable[[], Any]]]) -> None:
        super().__init__(scene)
        self.text = text
        self.options = list(options)

    def prompt(self) -> str:
        return self.text

    def buttons(self) -> list[Button]:
        out = [Button(f"opt{i}", label, primary=i == 0, hotkey=str(i + 1))
               for i, (label, _) in enumerate(self.options)]
        return out + [Button("cancel", "Cancel", hotkey="Esc")]

    def on_button(self, key: str) -> None:
        self.scene.pop(self)
        if key.startswith("opt"):
            self.options[int(key[3:])][1]()

    def on_key(self, key, mod) -> bool:
        if key == pygame.K_ESCAPE:
            self.scene.pop(self)
            return True
        if pygame.K_1 <= key < pygame.K_1 + len(self.options):
            self.on_button(f"opt{key - pygame.K_1}")
            return True
        return False

    def on_click(self, pos, button) -> bool:
        return True


_CASUALTY_KINDS = (CountersFlipped, UnitDestroyed, UnitDamaged, UnitDisrupted, DisruptionRemoved,
                   ObjectiveControl, PointsCounted, TurnEnded, GameEnded)


class CasualtyMode(Mode):
    """The casualty phase played back step by step, then a summary with objective control.

    ``events`` are the events from the casualty phase's beginning on.  Those of the
    turn that is ending are logged one step at a time, as the map shows them; the
    next turn's (initiative and after) are held back until the player continues, and
    meanwhile the side panel shows the ending turn (``header_state``).  The steps are
    listed in the side panel, never over the map (art direction: never hide the units).
    """

    name = "casualty"
    modal = True
    STEP = 0.7

    def __init__(self, scene: Any, events: Sequence[Any], where: dict[str, Hex],
                 turn: int, controller: str | None, before: Any = None) -> None:
        super().__init__(scene)
        events = list(events)
        cut = next((i for i, e in enumerate(events)
                    if isinstance(e, PhaseBegan) and e.phase == Phase.INITIATIVE.value), len(events))
        self.during = events[:cut]          # this turn's casualty and end phases
        self.after = events[cut:]           # the next turn's: shown on Continue
        self.logged = 0                     # how many of ``during`` are in the log
        self.steps = [e for e in self.during if isinstance(e, _CASUALTY_KINDS)]
        self.where = where
        self.turn = turn
        self.controller = controller
        self.finished = False
        st = scene.game.state
        first, second, rolls = before if before is not None else (
            st.first_player, st.second_player, st.initiative_rolls)
        self.header_state = types.SimpleNamespace(
            turn=turn, scenario=st.scenario, attacker=getattr(st, "attacker", None),
            phase=Phase.CASUALTY, active_side=None, to_act=None, first_player=first,
            second_player=second, initiative_rolls=dict(rolls or {}))
        self.shown = 0
        self.timer = 0.0
        self._img: pygame.Surface | None = None
        self._img_key: Any = None
        self.counts = {"destroyed": 0, "damaged": 0, "disrupted": 0, "recovered": 0}
        for e in self.steps:
            if isinstance(e, UnitDestroyed):
                self.counts["destroyed"] += 1
            elif isinstance(e, UnitDamaged):
                self.counts["damaged"] += 1
            elif isinstance(e, UnitDisrupted):
                self.counts["disrupted"] += 1
            elif isinstance(e, DisruptionRemoved):
                self.counts["recovered"] += 1
        self.next_step()

    @property
    def done(self) -> bool:
        return self.shown >= len(self.steps)

    def _log_until(self, step: Any | None) -> None:
        """Log the events of this turn up to ``step`` (all of them when None)."""
        while self.logged < len(self.during):
            e = self.during[self.logged]
            self.logged += 1
            self.scene._show_events([e])
            if step is not None and e is step:
                return

    def flush(self) -> None:
        """Everything held back goes to the log (the mode is leaving)."""
        self._log_until(None)
        after, self.after = self.after, []
        if after:
            self.scene._show_events(after)

    def next_step(self) -> None:
        if self.shown < len(self.steps):
            self.shown += 1
            e = self.steps[self.shown - 1]
            self._log_until(e)
            uid = getattr(e, "uid", None)
            h = self.where.get(uid) if uid else None
            col = {UnitDestroyed: theme.COUNTER_COLOURS["destroyed"],
                   UnitDamaged: theme.COUNTER_COLOURS["damaged"],
                   UnitDisrupted: theme.COUNTER_COLOURS["disrupted"]}.get(type(e), (250, 250, 250))
            self.scene.anim.flash(h, col)
        if self.done:
            self._log_until(None)
        f = self.scene.anim_factor()
        # with animations off the player steps through with Space (nothing runs away)
        self.timer = self.STEP * f if f > 0 else float("inf")

    def prompt(self) -> str:
        if not self.done:
            return f"Casualty phase, turn {self.turn}: step {self.shown} of {len(self.steps)}."
        return self.summary()

    def summary(self) -> str:
        c = self.counts
        parts = [f"{c['destroyed']} destroyed", f"{c['damaged']} damaged",
                 f"{c['disrupted']} disrupted"]
        if c["recovered"]:
            parts.append(f"{c['recovered']} recovered")
        ctrl = self.controller
        obj = f"objective held by {ctrl}" if ctrl else "nobody holds the objective"
        return f"End of turn {self.turn}: " + ", ".join(parts) + f"; {obj}."

    def buttons(self) -> list[Button]:
        out = []
        if not self.done:
            out.append(Button("next", "Next step", hotkey="Space"))
        out.append(Button("continue", "Continue", primary=True, hotkey="Enter"))
        return out

    def finish(self) -> None:
        if self.finished:
            return
        self.finished = True
        self.scene.pop(self)
        self.flush()
        self.scene.refresh()
        if self.state.phase == Phase.GAME_OVER:
            self.scene.show_victory()

    def on_button(self, key: str) -> None:
        if key == "next":
            self.next_step()
        elif self.done:
            self.finish()
        else:
            while not self.done:
                self.next_step()

    def on_key(self, key, mod) -> bool:
        if key == pygame.K_SPACE:
            self.on_button("next" if not self.done else "continue")
            return True
        if key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.on_button("continue")
            return True
        return False

    def on_click(self, pos, button) -> bool:
        return True

    def update(self, dt: float) -> None:
        if self.done:
            return
        self.timer -= dt
        if self.timer <= 0:
            self.next_step()

    def draw_over(self, surface) -> None:
        view = self.scene.view
        lay = view.layout
        st = self.state
        if 0 < self.shown and not self.done:       # the unit of the current step
            uid = getattr(self.steps[self.shown - 1], "uid", None)
            h = self.where.get(uid) if uid else None
            if h is not None:
                outline_hex(surface, lay, h, SELECT_RING, 4, 0.92)
        for e in self.steps[:self.shown]:
            if isinstance(e, UnitDestroyed):
                h = self.where.get(e.uid)
                if h is not None:
                    c = lay.hex_to_pixel(h)
                    r = lay.size * 0.45
                    col = theme.COUNTER_COLOURS["destroyed"]
                    pygame.draw.line(surface, col, (c[0] - r, c[1] - r), (c[0] + r, c[1] + r), 5)
                    pygame.draw.line(surface, col, (c[0] - r, c[1] + r), (c[0] + r, c[1] - r), 5)
        obj = st.objective
        if obj is not None and self.done:
            c = lay.hex_to_pixel(obj)
            ring = SELECT_RING if self.controller else (200, 200, 200)
            pygame.draw.circle(surface, ring, c, lay.size * 0.9, 3)

    def lines(self, width: int) -> list[tuple[str, tuple[int, int, int]]]:
        """The steps shown so far (the newest bright), then the summary once done."""
        out: list[tuple[str, tuple[int, int, int]]] = []
        f = theme.font(17)
        for i, e in enumerate(self.steps[:self.shown]):
            col = theme.TEXT if i == self.shown - 1 else theme.TEXT_DIM
            if isinstance(e, UnitDestroyed):
                col = theme.BAD
            for line in wrap(plain_text(e.text) or type(e).__name__, f, width):
                out.append((line, col))
        if self.done:
            for line in wrap(self.summary(), theme.font(17, True), width):
                out.append((line, theme.ACCENT))
        if not self.steps:
            out.insert(0, ("No counters to resolve this turn.", theme.TEXT_DIM))
        return out

    def draw_side(self, surface, rect) -> bool:
        """The list of steps, in the side panel's card area (the map stays clear)."""
        key = (self.shown, self.done, rect.size)
        if key != self._img_key or self._img is None:
            self._img_key = key
            img = pygame.Surface(rect.size)
            img.fill(theme.BG)
            draw_panel(img, img.get_rect(), theme.BG_DARK)
            pygame.draw.rect(img, theme.ACCENT, img.get_rect(), 1, border_radius=8)
            draw_text(img, f"Casualty phase - turn {self.turn}", (12, 8), 20, theme.ACCENT,
                      bold=True)
            n = len(self.steps)
            sub = f"step {self.shown} of {n}" if not self.done else "summary"
            draw_text(img, sub, (rect.w - 12, 12), 16, theme.TEXT_DIM, anchor="topright")
            lines = self.lines(rect.w - 24)
            rows = max(1, (rect.h - 44) // 19)
            if len(lines) > rows:           # the newest lines stay in view
                lines = lines[-rows:]
            f = theme.font(17)
            y = 38
            for text, col in lines:
                img.blit(f.render(text, True, col), (12, y))
                y += 19
            self._img = img
        surface.blit(self._img, rect.topleft)
        return True


# --- choosing the base mode ----------------------------------------------------------------------
def mode_for(scene: Any) -> Mode:
    st = scene.game.state
    p = st.pending
    if st.phase == Phase.GAME_OVER:
        return GameOverMode(scene)
    from game.ui.battle.later_modes import later_mode_for     # flight, airstrike, Antiair
    later = later_mode_for(scene)
    if later is not None:
        return later
    if isinstance(p, OrderChoice):
        return OrderMode(scene)
    if isinstance(p, DefensiveFirePrompt):
        return DefensiveFireMode(scene)
    if isinstance(p, DismountPlacement):
        return DismountMode(scene)
    if type(p).__name__ == "FacingChoice":
        return FacingChoiceMode(scene)
    if st.phase == Phase.SETUP_END:
        return EndMode(scene)
    if st.phase == Phase.SETUP_OBJECTIVE:
        return ObjectiveMode(scene)
    if st.phase.is_deploy:
        return DeployMode(scene)
    if st.phase.is_movement or st.phase.is_assault:
        return PlayMode(scene)
    return Mode(scene)
