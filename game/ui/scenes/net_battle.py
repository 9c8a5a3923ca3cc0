"""Network play on the battle screen: the other machine's seat, and the waiting room.

:class:`RemoteSeat` plugs into :class:`game.ui.scenes.battle.BattleScene` the way
the solo AI does (``scene.ai``: its ``sides`` are the other player's, so the
screen takes no input on their turn and the prompt bar shows the waiting line).
Actions the local player makes go to the network (``forward``) and are applied
on this screen only when the battle confirms them, with the rolls the network
made; the other player's actions arrive the same way, so both machines show the
same moves, rolls, animations and log.

:class:`NetWaitScene` is the waiting room between army building and the battle:
the opponent is shown only by points and unit count until the battle starts.
"""
from __future__ import annotations

from typing import Any

import pygame

from game.ui import theme
from game.ui.widgets import GuiScene, draw_background, draw_text

__all__ = ["RemoteSeat", "ChatLine", "NetWaitScene", "mirror_game", "NetMessageScene"]

SIDE_WORD = {"Axis": "Axis", "Allies": "Allied"}


def battle_words(scenario: str, config: int, options: dict) -> str:
    """"Standard battle, Later edition, map 2 (Hedgerows)" for the waiting rooms."""
    from game.ui import editions
    ed = str(options.get("edition") or "first")
    name = editions.config_names(ed).get(config, "")
    return (f"{scenario.capitalize()} battle, {editions.EDITION_LABEL.get(ed, ed)}, map "
            f"configuration {config}" + (f" ({name})" if name else ""))


def mirror_game(start: dict):
    """This screen's copy of the battle, fed with the network's confirmed actions."""
    from game.net.dice import TableDice
    from game.net.session import build_game
    # blind until deployment: the network reveals the armies then (RemoteSeat "reveal")
    game = build_game(start["scenario"], start["config"], start["options"], None,
                      TableDice(start["start_rolls"]))
    game.origin = None      # no take-backs or hotseat autosaves: game.net keeps the record
    return game


def continued_battle(app: Any, bridge: Any, rec: dict) -> Any:
    """The battle screen on a direct battle carried on from this machine's continue-file
    (``NetBridge.resume_direct``'s first event): the battle so far rebuilt from its record
    at once (no animations), the other machine shown away until it comes back."""
    from game.rules.errors import DataError
    from game.net.session import armies_from_names, replay_record
    from game.ui.scenes.battle import BattleScene
    from game.ui.scenes.net_host import setup_from_options
    stage = rec.get("stage", "battle")
    if stage in ("army", "waiting"):
        return continued_before_the_battle(app, bridge, rec)
    try:
        # before deployment the battle is rebuilt blind: the armies are still secret
        game = replay_record(rec["scenario"], rec["config"], rec["options"], rec["armies"],
                             rec["actions"], rec["rolls"])
    except DataError as exc:
        return NetMessageScene(app, "The battle can't be carried on", str(exc), bridge)
    game.origin = None
    setup = setup_from_options(rec["scenario"], rec["config"], rec["options"])
    seat = RemoteSeat(bridge, rec["seat"])
    if rec["armies"] is not None:
        seat.armies = armies_from_names(rec["armies"], rec["scenario"], game.state.options)
    else:
        seat.opponent_army = tuple(rec["opponent_army"]) if rec.get("opponent_army") else None
    seat.opponent = "away"
    seat.continued = rec
    setup.remote = seat
    return BattleScene(app, setup, game=game)


def continued_before_the_battle(app: Any, bridge: Any, rec: dict) -> Any:
    """A direct battle carried on before it started: this player builds the army (if it
    was not built yet: the other machine knows nothing of it) or waits for the other
    player to come back; then the battle starts as usual (its "start" event)."""
    from game.ui.scenes.net_host import NetArmyScene, setup_from_options
    info = {"scenario": rec["scenario"], "config": rec["config"], "options": rec["options"],
            "continued": True}
    wait = NetWaitScene(app, bridge, seat=rec["seat"], info=info,
                        army_names=rec.get("my_army"))
    wait.opponent = "away"
    if rec.get("opponent_army"):
        wait.opponent_army = tuple(rec["opponent_army"])
    if rec.get("stage") != "army":
        return wait

    def done(names: list[str]) -> Any:
        bridge.set_army(names)
        wait.army_names = names
        return wait

    def back() -> Any:
        bridge.close()
        return app.menu_scene()
    setup = setup_from_options(rec["scenario"], rec["config"], rec["options"])
    return NetArmyScene(app, setup, rec["seat"], on_done=done, on_back=back)


class ChatLine:
    """The chat line of a network battle: "/" opens it over the prompt bar, Enter sends,
    Esc closes.  Lines go to the battle log (both machines); the network checks them
    like every message (1-200 characters, no control characters, a line a second)."""

    OPEN_KEYS = (pygame.K_SLASH, pygame.K_KP_DIVIDE)

    def __init__(self, seat: "RemoteSeat") -> None:
        self.seat = seat
        self.open = False
        self.text = ""

    def handle_event(self, event: pygame.event.Event) -> bool:
        """True when the event was the chat line's (the battle screen ignores it)."""
        from game.net.messages import CHAT_MAX
        if event.type == pygame.KEYDOWN:
            if not self.open:
                if event.key in self.OPEN_KEYS:
                    self.open, self.text = True, ""
                    return True
                return False
            if event.key == pygame.K_ESCAPE:
                self.open = False
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.submit()
            elif event.key == pygame.K_BACKSPACE:
                self.text = self.text[:-1]
            return True                         # typing: no battle-screen shortcuts
        if event.type == pygame.TEXTINPUT and self.open:
            if self.text == "" and event.text in ("/",):
                return True                     # the key that opened the line
            add = "".join(ch for ch in event.text if ch.isprintable())
            self.text = (self.text + add)[:CHAT_MAX]
            return True
        return event.type == pygame.TEXTEDITING and self.open

    def submit(self) -> None:
        sc = self.seat.scene
        text, self.open = self.text.strip(), False
        self.text = ""
        if not text:
            return
        problem = self.seat.bridge.chat(text)
        if problem is not None:
            sc.note(f"Chat: {problem}.")
            return
        sc.logp.add(f"You: {text}", theme.TEXT)

    def draw(self, surface: pygame.Surface) -> None:
        sc = self.seat.scene
        if sc is None:
            return
        r = sc.prompt_rect
        if not self.open:
            f = theme.font(14)
            img = f.render("/ chat", True, theme.TEXT_DIM)
            surface.blit(img, (r.right - img.get_width() - 8, r.y - img.get_height() - 4))
            return
        box = pygame.Rect(r.x + 8, r.y + 6, r.w - 16, 34)
        pygame.draw.rect(surface, theme.BG_DARK, box, border_radius=6)
        pygame.draw.rect(surface, theme.ACCENT, box, 1, border_radius=6)
        f = theme.font(18)
        shown = "Say: " + self.text + "_"
        while f.size(shown)[0] > box.w - 16 and len(shown) > 6:
            shown = "Say: ..." + shown[9:]
        surface.blit(f.render(shown, True, theme.TEXT), (box.x + 8, box.y + 7))
        hint = theme.font(14).render("Enter: send   Esc: cancel", True, theme.TEXT_DIM)
        surface.blit(hint, (box.right - hint.get_width() - 8, box.bottom + 4))


class RemoteSeat:
    """The other machine's side, for BattleScene (as ``scene.ai``).  Besides the seat
    hooks it offers ``handle_event(event) -> bool`` (the chat line takes its keys
    first) and ``draw(surface)`` (the chat line, drawn last)."""

    def __init__(self, bridge: Any, local_seat: str) -> None:
        self.bridge = bridge
        self.local = local_seat
        self.remote = "Allies" if local_seat == "Axis" else "Axis"
        self.sides = (self.remote,)
        self.scene: Any = None
        self.applying: Any = None          # the network's confirmed action being shown
        self.in_flight = False
        self.opponent = "connected"
        self.stopped: str | None = None
        self.fast = False                   # the battle screen's AI-speed keys touch these
        self.think = self.wait = 0.0
        self.armies: Any = None             # both armies' cards, once deployment reveals them
        self.chat = ChatLine(self)
        self.opponent_army: tuple[int, int] | None = None   # (points, units) until deployment
        self._told_army = False
        self.backlog: list[tuple[str, dict]] = []   # network events not shown yet
        self.continued: dict | None = None   # a battle carried on: its record so far
        self._told_continued = False
        self._seen_back = False
        self.caught_up = 0                  # actions of a record caught up without animating
        self._quiet = 0.0
        self._finished = False

    def handle_event(self, event: pygame.event.Event) -> bool:
        return self.chat.handle_event(event)

    def draw(self, surface: pygame.Surface) -> None:
        self.chat.draw(surface)

    def attach(self, scene: Any) -> None:
        self.scene = scene

    # --- the battle screen asks -------------------------------------------------------------
    @property
    def waiting_line(self) -> str:
        if self.stopped:
            return self.stopped
        if self.opponent != "connected":
            if self.continued is not None and not self._seen_back:
                return (f"waiting for the {SIDE_WORD[self.remote]} player to come back to this "
                        f"battle (Join a battle, then the battle under 'carry on')")
            if getattr(self.bridge, "mode", "") == "relay":
                # turn by turn: the relay keeps the battle; they play when they come back
                return (f"the {SIDE_WORD[self.remote]} player is away - it's their move: the "
                        f"relay keeps the battle; wait, or close the game and come back later")
            return f"the {SIDE_WORD[self.remote]} player has disconnected - waiting"
        line = self.bridge.waiting_line()
        return line or f"waiting for the {SIDE_WORD[self.remote]} player..."

    def forward(self, action: Any) -> bool | None:
        """A local action: send it (True), refuse it (False), or None when this is the
        network's confirmed action being shown (the screen applies it itself)."""
        if self.applying is not None and action is self.applying:
            return None       # (an action made while showing it - standing orders - is sent)
        sc = self.scene
        if self.stopped:
            sc.note(self.stopped)
            return False
        if action.side != self.local:
            sc.note(f"You play the {SIDE_WORD[self.local]} side.")
            return False
        if self.in_flight:
            sc.note("Sending your last order...")
            return False
        reason = sc.game.check(action)
        if reason is not None:
            sc.note(reason)
            return False
        self.in_flight = True
        self.bridge.submit(action)
        return True

    def save_net(self) -> str:
        return self.bridge.save()

    def leave(self) -> None:
        """The player leaves the battle screen (to the menu): the connection ends (the
        other machine shows this player away); a direct battle's continue-file stays, to
        carry it on from Join a battle."""
        self.bridge.close()

    def update(self, dt: float) -> None:
        sc = self.scene
        if sc is not None:
            import queue
            while True:
                try:
                    self.backlog.append(self.bridge.events.get_nowait())
                except queue.Empty:
                    break
        # the other army by points and units, until deployment reveals it (not when a
        # battle carried on is past deployment already: a relay seat coming back waits for
        # the relay's record first - its reveal comes before the record ends)
        client = getattr(self.bridge, "client", None)
        if sc is not None and not self._told_army and self.opponent_army is not None and \
                self.armies is None and not sc.game.state.units and \
                getattr(client, "synced", True) and \
                not any(k == "reveal" for k, _ in self.backlog):
            self._told_army = True
            pts, n = self.opponent_army
            sc.logp.add(f"The {SIDE_WORD[self.remote]} army: {pts} points, {n} units - kept "
                        f"secret until deployment reveals it. Press / to chat.",
                        theme.TEXT_DIM)
        if sc is None:
            return
        if sc.game.over and not self._finished:
            # the end (the victory screen next): no longer offered to carry on, on this
            # machine (the other forgets it when it reaches the end too)
            self._finished = True
            finished = getattr(self.bridge, "finished", None)
            if finished is not None:
                finished()
        if self.continued is not None and not self._told_continued:
            self._told_continued = True
            n = len(self.continued.get("actions", []))
            where = "Your machine hosts it again" if self.continued.get("role") == "host" \
                else f"Reconnecting to the host at {self.continued.get('address', '?')}"
            sc.logp.add(f"Carrying on the battle after {n} actions. {where}; the "
                        f"{SIDE_WORD[self.remote]} player carries it on from Join a battle. "
                        f"Press / to chat.", theme.TEXT_DIM)
        # words (chat, the other player leaving or back, refusals) show at once, even while
        # the player reads a recap or the casualty phase; the battle's actions wait for that
        if any(kind != "played" for kind, _ in self.backlog):
            played = [e for e in self.backlog if e[0] == "played"]
            for kind, data in [e for e in self.backlog if e[0] != "played"]:
                self.on_event(kind, data)
            self.backlog = played
        if self.caught_up:
            # the record comes in chunks: one line once it has all come
            self._quiet += dt
            if self._quiet > 0.4 or any(d.get("live", True) for k, d in self.backlog
                                        if k == "played"):
                sc.logp.add(f"Caught up with the battle: {self.caught_up} actions this screen "
                            f"had not shown, shown at once.", theme.TEXT_DIM)
                self.caught_up = 0
        if sc.anim.busy or sc.stack:           # let the player read the casualty phase
            return
        # a missed record (a relay seat coming back) at once; live actions a few per frame,
        # so animations can follow
        quiet = 0
        while self.backlog and self.backlog[0][0] == "played" and \
                not self.backlog[0][1].get("live", True):
            kind, data = self.backlog.pop(0)
            self.on_event(kind, data)
            quiet += 1
        if quiet:
            sc.refresh()        # the screen's mode follows the position before it is drawn
        for _ in range(8):
            if not self.backlog:
                return
            kind, data = self.backlog.pop(0)
            self.on_event(kind, data)
            if sc.anim.busy:
                return

    def fill_gap(self, seq: int) -> bool:
        """A confirmed action ``seq`` arrived ahead of this screen's battle (actions
        missed in between): they are never skipped.  The network side of this machine
        holds the battle's record (``bridge.record_between``): the missing actions are
        taken from it and shown at once, each checked against its position hash; when it
        can't give them (or one does not check out) the battle stops here, as for a
        position mismatch, with a readable line and a save for a bug report.  True when
        the gap is filled and action ``seq`` can follow."""
        from game.rules.errors import IllegalAction
        from game.net.session import reveal_armies, reveal_due
        game = self.scene.game
        first = len(game.history)
        fetch = getattr(self.bridge, "record_between", None)
        missing = fetch(first, seq) if fetch is not None else None
        if missing is not None and [m["seq"] for m in missing] == list(range(first, seq)):
            for m in missing:
                for v in m["rolls"][len(game.dice.table):]:
                    game.dice.add(v)
                try:
                    game.apply(m["action"])
                except IllegalAction:
                    break
                if reveal_due(game) and self.armies is not None:
                    reveal_armies(game, self.armies)
                if game.state_hash() != m["hash"]:
                    break
            else:
                self.scene.logp.add(f"This screen had missed action"
                                    f"{'s' if seq - first > 1 else ''} {first + 1}"
                                    f"{f'-{seq}' if seq - first > 1 else ''}: taken from the "
                                    f"battle's record and shown at once.", theme.TEXT_DIM)
                self.scene.refresh()
                return True
        self.stopped = (f"This screen missed action {first + 1} of the battle (action "
                        f"{seq + 1} came first) and could not get it back: the battle stops "
                        f"here. A save was written for a bug report.")
        self.bridge.save()
        self.scene.note(self.stopped)
        return False

    def on_event(self, kind: str, data: dict) -> None:
        sc = self.scene
        if kind == "played":
            game = sc.game
            if self.stopped or data["seq"] < len(game.history):
                return
            if data["seq"] > len(game.history) and not self.fill_gap(data["seq"]):
                return
            dice = game.dice
            for v in data["rolls"][len(dice.table):]:
                dice.add(v)
            if data["action"].side == self.local:
                self.in_flight = False
            from game.net.session import reveal_armies, reveal_due
            if not data.get("live", True):
                # the record a returning seat missed: caught up at once, not animated
                from game.rules.errors import IllegalAction
                try:
                    game.apply(data["action"])
                    ok = True
                except IllegalAction:
                    ok = False
                self.caught_up += 1
                self._quiet = 0.0
                if ok and reveal_due(game) and self.armies is not None:
                    reveal_armies(game, self.armies)
            else:
                self.applying = data["action"]
                try:
                    ok = sc.send(data["action"])
                finally:
                    self.applying = None
                if ok and reveal_due(game) and self.armies is not None:
                    reveal_armies(game, self.armies)      # deployment: both armies on the table
                    sc.refresh()
            if not ok or game.state_hash() != data["hash"]:
                self.stopped = ("This screen's position differs from the battle's: the battle "
                                "stops here. A save was written for a bug report.")
                self.bridge.save()
                sc.note(self.stopped)
        elif kind == "reveal":
            from game.net.session import armies_from_names
            g = sc.game
            self.armies = armies_from_names(data["armies"], g.state.scenario, g.state.options)
            pts = {s: sum(c.cost for c in self.armies[s]) for s in self.armies}
            sc.logp.add(f"Deployment reveals the armies: Axis {len(self.armies['Axis'])} units "
                        f"({pts['Axis']} points), Allies {len(self.armies['Allies'])} units "
                        f"({pts['Allies']} points).", theme.TEXT_DIM)
        elif kind == "opponent":
            self.opponent = data.get("status", "connected")
            if self.opponent == "connected":
                self._seen_back = True
            if self.opponent == "away" and getattr(self.bridge, "mode", "") == "relay":
                sc.note(f"The {SIDE_WORD[self.remote]} player has left: the relay keeps the "
                        f"battle, play your moves; they play theirs when they come back.")
            elif self.opponent == "away":
                sc.note(f"The {SIDE_WORD[self.remote]} player has disconnected - waiting.")
            else:
                sc.note(f"The {SIDE_WORD[self.remote]} player is back.")
        elif kind == "stopped":
            self.stopped = data.get("text", "The battle stopped.")
            sc.note(self.stopped)
        elif kind == "error":
            if data.get("about") == "chat":
                sc.note(f"Chat: {data.get('text', '')}.")
                return
            if data.get("fatal"):               # the network side gave up (host gone ...)
                text = str(data.get("text", "the connection is lost")).rstrip(".")
                self.stopped = (f"The network battle stopped: {text}. Carry it on later from "
                                f"Join a battle (your battles to carry on).")
                sc.note(self.stopped)
                return
            self.in_flight = False
            sc.note(data.get("text", "The network refused that."))
        elif kind == "chat":
            sc.logp.add(f"{SIDE_WORD[self.remote]} player: {data.get('text', '')}",
                        theme.ACCENT)


class NetMessageScene(GuiScene):
    """A network problem, in words, with a way back to the menu."""

    def __init__(self, app: Any, title: str, text: str, bridge: Any = None) -> None:
        super().__init__(app)
        self.title, self.text = title, text
        if bridge is not None:
            bridge.close()

    def build(self, size: tuple[int, int]) -> None:
        w, h = size
        self.button("menu", (w // 2 - 120, h // 2 + 80, 240, 46), "Back to the menu")

    def on_button(self, key: str) -> None:
        self.next_scene = self.app.menu_scene()

    def on_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_ESCAPE, pygame.K_RETURN):
            self.next_scene = self.app.menu_scene()

    def draw(self, surface: pygame.Surface) -> None:
        draw_background(surface)
        w, h = surface.get_size()
        draw_text(surface, self.title, (w // 2, h // 2 - 120), 40, theme.ACCENT, bold=True,
                  anchor="midtop")
        draw_text(surface, self.text, (w // 2, h // 2 - 50), 22, theme.TEXT, anchor="midtop",
                  width=min(900, w - 80))


class NetWaitScene(GuiScene):
    """Hosting / joined: the address and join code, the opponent's army as points and
    unit count only, until the battle starts."""

    def __init__(self, app: Any, bridge: Any, *, seat: str | None = None,
                 info: dict | None = None, army_names: list[str] | None = None) -> None:
        super().__init__(app)
        self.bridge = bridge
        self.seat = seat
        self.info = dict(info or {})
        self.army_names = army_names
        self.lines: list[str] = []
        self.opponent_army: tuple[int, int] | None = None
        self.opponent = "none"
        self.error: str | None = None

    def build(self, size: tuple[int, int]) -> None:
        w, h = size
        self.button("leave", (w // 2 - 120, h - 110, 240, 46), "Leave")

    def on_button(self, key: str) -> None:
        if key == "leave":
            self.bridge.close()
            self.next_scene = self.app.menu_scene()

    def on_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.on_button("leave")

    def update(self, dt: float) -> None:
        import queue
        while self.next_scene is None:
            try:
                kind, data = self.bridge.events.get_nowait()
            except queue.Empty:
                return
            self.on_net(kind, data)

    def on_net(self, kind: str, data: dict) -> None:
        if kind == "hosting":
            self.info.update(data)
        elif kind == "welcome":
            self.info.update(data)
            self.seat = data.get("seat", self.seat)
            # a relay battle carried on: the other seat may be away (or not joined yet)
            self.opponent = data.get("opponent") or "connected"
        elif kind in ("army_info", "opponent"):
            if kind == "army_info":
                self.opponent_army = (data["points"], data["count"])
            else:
                self.opponent = data.get("status", self.opponent)
        elif kind == "start":
            self.start_battle(data)
        elif kind == "error" and data.get("fatal"):
            text = str(data.get("text", "the connection is lost")).rstrip(".")
            if self.carried_on_later():
                text += (". Carry it on later from Join a battle (your battles to carry on): "
                         "the battle is kept on this machine.")
            self.next_scene = NetMessageScene(self.app, "The network battle can't go on",
                                              text, self.bridge)
        elif kind == "stopped":
            self.next_scene = NetMessageScene(self.app, "The battle stopped",
                                              data.get("text", ""), self.bridge)

    def carried_on_later(self) -> bool:
        """This machine keeps the battle to carry on (a direct battle's continue-file)."""
        peer = getattr(self.bridge, "peer", None)
        path = getattr(peer, "autosave", None)
        return path is not None and path.exists()

    def other_seat(self) -> str:
        return "Allies" if self.seat == "Axis" else "Axis"

    def start_battle(self, start: dict) -> None:
        from game.rules.errors import RulesError
        from game.ui.scenes.battle import BattleScene
        from game.net.messages import ProtocolError
        try:
            game = mirror_game(start)
        except (ProtocolError, RulesError) as exc:
            self.next_scene = NetMessageScene(self.app, "The battle can't start", str(exc),
                                              self.bridge)
            return
        from game.ui.scenes.net_host import setup_from_options
        setup = setup_from_options(start["scenario"], start["config"], start["options"])
        setup.remote = RemoteSeat(self.bridge, start["seat"])
        setup.remote.opponent_army = self.opponent_army
        if self.opponent == "away":
            setup.remote.opponent = "away"
        self.next_scene = BattleScene(self.app, setup, game=game)

    def draw(self, surface: pygame.Surface) -> None:
        draw_background(surface)
        w, h = surface.get_size()
        title = "Hosting a battle" if "code" in self.info and "address" in self.info \
            else "Network battle"
        draw_text(surface, title, (w // 2, 70), 44, theme.ACCENT, bold=True, anchor="midtop")
        y = 160
        for text, col in self.rows():
            draw_text(surface, text, (w // 2, y), 28 if col == theme.ACCENT else 24, col,
                      anchor="midtop", width=min(900, w - 80))
            y += 44

    def rows(self) -> list[tuple[str, tuple]]:
        """The waiting room's lines (text, colour), top to bottom."""
        rows: list[tuple[str, tuple]] = []
        if "address" in self.info:
            rows.append((f"Address: {self.info['address']}", theme.TEXT))
        if self.info.get("code") and not self.info.get("continued"):
            rows.append((f"Join code: {self.info['code']}", theme.ACCENT))
            rows.append(("Give the other player the address and this code.", theme.TEXT_DIM))
        if self.info.get("scenario") and self.info.get("config"):
            rows.append((battle_words(self.info["scenario"], self.info["config"],
                                      self.info.get("options") or {}), theme.TEXT))
        if self.seat:
            rows.append((f"You play the {SIDE_WORD[self.seat]} side.", theme.TEXT))
        if self.info.get("continued") and self.opponent != "connected":
            rows.append((f"Carrying on this battle: waiting for the "
                         f"{SIDE_WORD[self.other_seat()]} player to come back to it (Join a "
                         f"battle, then the battle under 'carry on').", theme.TEXT_DIM))
        elif self.opponent == "away" and getattr(self.bridge, "mode", "") == "direct":
            rows.append((f"The {SIDE_WORD[self.other_seat()]} player has disconnected - "
                         f"waiting for them to come back (they carry the battle on from Join "
                         f"a battle).", theme.WARN))
        elif self.opponent == "none" and not self.opponent_army:
            rows.append(("Waiting for the other player to join...", theme.TEXT_DIM))
        if self.opponent_army:
            pts, n = self.opponent_army
            rows.append((f"The other army: {pts} points, {n} units (revealed at deployment)",
                         theme.TEXT))
            rows.append(("Waiting for the battle to start...", theme.TEXT_DIM))
        elif self.opponent == "connected" and self.army_names:
            rows.append(("The other player is building an army in secret...", theme.TEXT_DIM))
        return rows
