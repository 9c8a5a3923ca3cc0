"""Host a battle (menu: Host a battle): scenario, map configuration and side, on
the LAN directly or through a relay; then the secret army; then the waiting room
with the address and the join code.  Also the secret army builder both machines
use (the hotseat army builder, handing its army to the network)."""
from __future__ import annotations

from typing import Any

import pygame
import pygame_gui

from game.ui import editions, theme
from game.ui.battle_setup_data import BattleSetup
from game.ui.scenes.army_builder import ArmyBuilderScene
from game.ui.widgets import GuiScene, draw_background, draw_text

__all__ = ["NetHostScene", "NetArmyScene", "net_options", "setup_from_options"]

SIDE_WORD = {"Axis": "Axis", "Allies": "Allied"}


def net_options(setup: BattleSetup) -> dict:
    """The game options sent over the network (plain values only)."""
    opts: dict[str, Any] = {"historical": bool(setup.historical), "year": setup.year}
    if setup.scenario == "assault":
        opts["attacker"] = setup.attacker
        opts["defender"] = setup.defender
    if setup.edition != "first":
        opts["edition"] = setup.edition
    return opts


def setup_from_options(scenario: str, config: int, opts: dict) -> BattleSetup:
    """The BattleSetup a machine joining (or carrying on) a network battle builds and
    plays with: the host's scenario, map, options and rules edition."""
    return BattleSetup(scenario=scenario, config=config, attacker=opts.get("attacker"),
                       historical=bool(opts.get("historical")), year=opts.get("year"),
                       edition=str(opts.get("edition") or "first"))


class NetArmyScene(ArmyBuilderScene):
    """The army builder, building one side's army in secret for a network battle;
    Done hands it on (``on_done(names)``) instead of to the hotseat flow."""

    def __init__(self, app: Any, setup: BattleSetup, side: str, on_done, on_back) -> None:
        super().__init__(app, setup, side)
        self.on_done, self.on_back = on_done, on_back

    def done(self) -> bool:
        if self.validate():
            self.message, self.message_ok = "Fix the problems listed on the right first.", False
            return False
        self.next_scene = self.on_done([c.name for c in self.army.cards])
        return True

    def on_button(self, key: str) -> None:
        if key == "back":
            self.next_scene = self.on_back()
            return
        super().on_button(key)


class NetHostScene(GuiScene):
    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.setup = BattleSetup()
        self.seat = "Axis"
        self.via_relay = False
        self.port = 8766
        self.relay_entry: Any = None
        self.message = ""
        from game.net.bridge import saved_direct_battles
        self.hosted = [d for d in saved_direct_battles() if d["role"] == "host"]

    def _texts(self) -> dict[str, str]:
        s = self.setup
        name = editions.config_names(s.edition).get(s.config, "")
        return {"edition": editions.EDITION_LABEL[s.edition],
                "scenario": f"Scenario: {s.scenario.capitalize()}",
                "config": f"Map configuration: {s.config}" + (f" ({name})" if name else ""),
                "seat": f"You play: {SIDE_WORD[self.seat]}",
                "attacker": f"Attacker: {SIDE_WORD[s.attacker]}" if s.scenario == "assault"
                else "Attacker: (Assault only)",
                "how": "Through a relay" if self.via_relay else "Directly on this network"}

    def build(self, size: tuple[int, int]) -> None:
        w, h = size
        x, bw = w // 2 - 220, 440
        y = 160
        for key, text in self._texts().items():
            self.button(key, (x, y, bw, 44), text,
                        enabled=key != "attacker" or self.setup.scenario == "assault")
            y += 54
        self.relay_entry = pygame_gui.elements.UITextEntryLine(
            pygame.Rect(x, y, bw, 40), self.app.ui, placeholder_text="relay address host:port")
        self.relay_entry.set_text(getattr(self.app.settings, "relay", "") or "127.0.0.1:8765")
        if not self.via_relay:
            self.relay_entry.hide()
        y += 60
        self.button("army", (x, y, bw, 50), "Build my army", object_id="#menu_button")
        self.button("back", (x, y + 62, bw, 44), "Back")

    def on_button(self, key: str) -> None:
        s = self.setup
        if key == "edition":
            s.edition = editions.next_edition(s.edition)
            s.config = min(s.config, s.config_count)
        elif key == "scenario":
            s.scenario = "assault" if s.scenario == "standard" else "standard"
            s.attacker = "Axis" if s.scenario == "assault" else None
        elif key == "config":
            s.config = s.config % s.config_count + 1
        elif key == "seat":
            self.seat = "Allies" if self.seat == "Axis" else "Axis"
        elif key == "attacker" and s.scenario == "assault":
            s.attacker = "Allies" if s.attacker == "Axis" else "Axis"
        elif key == "how":
            self.via_relay = not self.via_relay
        elif key == "army":
            relay = self.relay_entry.get_text().strip() if self.relay_entry else ""
            self.next_scene = NetArmyScene(self.app, s, self.seat,
                                           on_done=lambda names: self.start(names, relay),
                                           on_back=lambda: NetHostScene(self.app))
            return
        elif key == "back":
            self.next_scene = self.app.menu_scene()
            return
        self.rebuild()

    def start(self, names: list[str], relay: str) -> Any:
        from game.net.bridge import NetBridge
        from game.ui.scenes.net_battle import NetWaitScene
        s = self.setup
        if self.via_relay:
            url = relay if relay.startswith("ws://") else f"ws://{relay}"
            bridge = NetBridge.relay_create(url, seat=self.seat, scenario=s.scenario,
                                            config=s.config, options=net_options(s), army=names)
            info = {"address": relay}
        else:
            bridge = NetBridge.host_direct(seat=self.seat, scenario=s.scenario, config=s.config,
                                           options=net_options(s), army=names, port=self.port)
            info = {}
        info.update(scenario=s.scenario, config=s.config, options=net_options(s))
        return NetWaitScene(self.app, bridge, seat=self.seat, info=info, army_names=names)

    def on_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.next_scene = self.app.menu_scene()

    def draw(self, surface: pygame.Surface) -> None:
        draw_background(surface)
        w, h = surface.get_size()
        draw_text(surface, "Host a battle", (w // 2, 60), 44, theme.ACCENT, bold=True,
                  anchor="midtop")
        draw_text(surface, "Pick the battle, then build your army in secret. The other player "
                  "joins with the address and join code shown next.", (w // 2, 118), 20,
                  theme.TEXT_DIM, anchor="midtop", width=min(900, w - 60))
        if self.hosted:
            n = len(self.hosted)
            draw_text(surface, f"You have {n} battle{'s' if n > 1 else ''} you hosted to carry "
                      f"on: choose {'them' if n > 1 else 'it'} under Join a battle (your battles "
                      f"to carry on).", (w // 2, h - 70), 20, theme.ACCENT, anchor="midtop",
                      width=min(900, w - 60))
