"""Join a battle (menu: Join a battle): the host's address and join code (games
hosted on this network are listed automatically), or a relay and its invite code;
your relay battles can be continued from here days later.  Then the secret army
and the waiting room."""
from __future__ import annotations

import threading
from typing import Any

import pygame
import pygame_gui

from game.ui import theme
from game.ui.widgets import GuiScene, draw_background, draw_text

__all__ = ["NetJoinScene", "NetJoiningScene"]


class NetJoinScene(GuiScene):
    def __init__(self, app: Any, *, browse: bool = True) -> None:
        super().__init__(app)
        self.via_relay = False
        self.address: Any = None
        self.code: Any = None
        self.found: list = []
        self.message = ""
        self._browsing = False
        self.saved = _saved_relay_seats()
        self.direct_saved = _saved_direct_battles()
        self._pruned: list | None = None
        if browse:
            self.refresh_lan()
        if self.saved and browse:
            self.prune_relay_seats()

    def prune_relay_seats(self) -> None:
        """Ask the relays (in the background) whether the remembered battles are still on:
        one that ended while this machine was away is no longer offered."""
        def ask() -> None:
            from game.net.bridge import prune_finished_relay_seats
            self._pruned = prune_finished_relay_seats()[-3:]
        threading.Thread(target=ask, name="hexfront-relay-seats", daemon=True).start()

    def refresh_lan(self) -> None:
        if self._browsing:
            return
        self._browsing = True

        def look() -> None:
            from game.net.discovery import browse
            try:
                self.found = browse(1.5)
            finally:
                self._browsing = False
        threading.Thread(target=look, name="hexfront-lan", daemon=True).start()

    def build(self, size: tuple[int, int]) -> None:
        w, h = size
        x, bw = w // 2 - 220, 440
        y = 160
        self.button("how", (x, y, bw, 44), "Through a relay" if self.via_relay
                    else "Directly on this network")
        y += 60
        self.address = pygame_gui.elements.UITextEntryLine(
            pygame.Rect(x, y, bw, 40), self.app.ui,
            placeholder_text="relay address host:port" if self.via_relay
            else "host address, e.g. 192.168.1.20:8766")
        y += 52
        self.code = pygame_gui.elements.UITextEntryLine(
            pygame.Rect(x, y, bw, 40), self.app.ui, placeholder_text="join code")
        self.code.set_text_length_limit(12)
        y += 56
        self.button("join", (x, y, bw, 50), "Join", object_id="#menu_button")
        self.button("lan", (x, y + 60, bw // 2 - 4, 40), "Look again")
        self.button("back", (x + bw // 2 + 4, y + 60, bw // 2 - 4, 40), "Back")
        self.list_top = y + 120
        for i, f in enumerate(self.found[:5]):
            self.button(f"found_{i}", (x, self.list_top + 26 + i * 44, bw, 40),
                        f"{f.name}: {f.scenario}, map {f.config} ({f.where})")
        # your battles to carry on (a dropped line, a closed game, another day): on the
        # right, beside the new-battle column
        cx = x + bw + 30
        cw = min(420, w - cx - 16)
        self.continue_top = 160
        y = self.continue_top + 30
        for i, d in enumerate(self.direct_saved[:4]):
            self.button(f"direct_{i}", (cx, y, cw, 40), _direct_label(d))
            y += 46
        for i, s in enumerate(self.saved[:3]):
            self.button(f"saved_{i}", (cx, y, cw, 40),
                        f"Relay battle {s['game']} as {s['seat']}, "
                        f"{s['url'][5:]}")
            y += 46

    def on_button(self, key: str) -> None:
        if key == "how":
            self.via_relay = not self.via_relay
            self.rebuild()
        elif key == "lan":
            self.refresh_lan()
            self.message = "Looking for battles on this network..."
        elif key == "back":
            self.next_scene = self.app.menu_scene()
        elif key.startswith("found_"):
            f = self.found[int(key.split("_")[1])]
            self.address.set_text(f.where)
            self.message = "Now type the join code shown on the host's screen."
        elif key.startswith("direct_"):
            from game.net.bridge import NetBridge
            from game.net.dice import DiceError
            from game.rules.errors import DataError
            d = self.direct_saved[int(key.split("_")[1])]
            try:
                bridge = NetBridge.resume_direct(d["path"])
            except (DataError, DiceError, OSError) as exc:
                self.message = (f"That battle can't be carried on ({exc}): host a new "
                                f"one instead (menu: Host a battle).")
                return
            self.next_scene = NetJoiningScene(self.app, bridge)
        elif key.startswith("saved_"):
            from game.net.bridge import NetBridge
            s = self.saved[int(key.split("_")[1])]
            bridge = NetBridge.relay_join(s["url"], game_id=s["game"], seat=s["seat"],
                                          token=s["token"])
            self.next_scene = NetJoiningScene(self.app, bridge)
        elif key == "join":
            self.join()

    def join(self) -> None:
        from game.net.bridge import NetBridge
        addr = self.address.get_text().strip()
        code = self.code.get_text().strip()
        if not addr or not code:
            self.message = "Type the address and the join code first."
            return
        if self.via_relay or addr.startswith("ws://"):
            url = addr if addr.startswith("ws://") else f"ws://{addr}"
            bridge = NetBridge.relay_join(url, code)
        else:
            bridge = NetBridge.join_direct(addr, code)
        self.next_scene = NetJoiningScene(self.app, bridge)

    def update(self, dt: float) -> None:
        if self._pruned is not None:
            pruned, self._pruned = self._pruned, None
            if pruned != self.saved:
                self.saved = pruned
                self.rebuild()
        shown = sum(1 for k in self.buttons if k.startswith("found_"))
        if shown != min(5, len(self.found)) and not self._browsing:
            self.rebuild()

    def on_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.next_scene = self.app.menu_scene()
        elif event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and event.ui_element is self.code:
            self.join()

    def draw(self, surface: pygame.Surface) -> None:
        draw_background(surface)
        w, h = surface.get_size()
        draw_text(surface, "Join a battle", (w // 2, 60), 44, theme.ACCENT, bold=True,
                  anchor="midtop")
        draw_text(surface, "Type the address and the join code the host gives you.",
                  (w // 2, 118), 20, theme.TEXT_DIM, anchor="midtop")
        if hasattr(self, "list_top"):
            head = "Battles on this network:" if self.found else (
                "Looking for battles on this network..." if self._browsing
                else "No battle found on this network (type the address).")
            draw_text(surface, head, (w // 2 - 220, self.list_top), 20, theme.TEXT_DIM)
        if self.direct_saved or self.saved:
            draw_text(surface, "Your battles to carry on:", (w // 2 + 250, self.continue_top),
                      20, theme.TEXT_DIM)
        if self.message:
            draw_text(surface, self.message, (w // 2, h - 60), 22, theme.WARN, anchor="midtop",
                      width=min(900, w - 40))


class NetJoiningScene(GuiScene):
    """Connected (or connecting): once the seat is known, build the army in secret."""

    def __init__(self, app: Any, bridge: Any) -> None:
        super().__init__(app)
        self.bridge = bridge
        self.pending: list = []

    def build(self, size: tuple[int, int]) -> None:
        w, h = size
        self.button("leave", (w // 2 - 120, h - 110, 240, 46), "Leave")

    def on_button(self, key: str) -> None:
        self.bridge.close()
        self.next_scene = self.app.menu_scene()

    def update(self, dt: float) -> None:
        import queue
        from game.ui.scenes.net_battle import NetMessageScene, NetWaitScene
        from game.ui.scenes.net_host import NetArmyScene
        while self.next_scene is None:
            try:
                kind, data = self.bridge.events.get_nowait()
            except queue.Empty:
                return
            if kind == "error" and data.get("fatal"):
                self.next_scene = NetMessageScene(self.app, "Can't join the battle",
                                                  data.get("text", ""), self.bridge)
            elif kind == "resume":                  # a direct battle carried on
                from game.ui.scenes.net_battle import continued_battle
                self.next_scene = continued_battle(self.app, self.bridge, data)
                return
            elif kind == "welcome":
                from game.ui.scenes.net_host import setup_from_options
                setup = setup_from_options(data["scenario"], data["config"], data["options"])
                bridge, seat = self.bridge, data["seat"]
                wait = NetWaitScene(self.app, bridge, seat=seat, info=data)
                if data.get("army_in"):             # a relay battle continued: army built
                    self.next_scene = wait
                    return

                def done(names, wait=wait):
                    bridge.set_army(names)
                    wait.army_names = names
                    return wait
                self.next_scene = NetArmyScene(self.app, setup, seat, on_done=done,
                                               on_back=self._leave)
                return
            elif kind in ("start", "played", "army_info", "opponent", "over"):
                # a relay battle already under way (continued): straight to the waiting room
                from game.ui.scenes.net_battle import NetWaitScene as W
                w = W(self.app, self.bridge)
                w.on_net(kind, data)
                self.next_scene = w
                return

    def _leave(self) -> Any:
        self.bridge.close()
        return self.app.menu_scene()

    def draw(self, surface: pygame.Surface) -> None:
        draw_background(surface)
        w, h = surface.get_size()
        draw_text(surface, "Connecting...", (w // 2, h // 2 - 40), 36, theme.ACCENT,
                  anchor="midtop")


def _direct_label(d: dict) -> str:
    where = "you host" if d["role"] == "host" else f"host {d['address']}"
    later = ", later ed." if d["edition"] == "later" else ""
    when = {"army": " (army building)", "waiting": " (before the set-up)",
            "set-up": " (set-up)"}.get(d.get("stage", ""), "")
    return f"{d['scenario'].capitalize()}, map {d['config']}{later}, as {d['seat']}: " \
           f"{where}{when}"


def _saved_direct_battles() -> list[dict]:
    from game.net.bridge import saved_direct_battles
    return saved_direct_battles()


def _saved_relay_seats() -> list[dict]:
    from game.net.bridge import saved_relay_seats
    return saved_relay_seats()[-3:]
