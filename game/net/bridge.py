"""A network battle running in a background thread, for the desktop UI (no pygame).

The UI thread never waits on the network: :class:`NetBridge` runs a relay
client or a direct host / join (game.net.client / game.net.direct) in its own
thread with its own asyncio loop.  The UI reads plain tuples from ``events``
(``("hosting", {...})``, ``("welcome", {...})``, ``("army_info", ...)``,
``("start", {...})`` (the battle starts blind: no armies), ``("reveal", {"armies"})``
(deployment reveals both), ``("played", {...})``, ``("chat", ...)``, ``("opponent", ...)``,
``("stopped", ...)``, ``("error", ...)``, ``("over", ...)``), gives its army with
:meth:`set_army` and its actions with :meth:`submit`; every action is checked by
the rules in the network thread and on the other machine before it counts.

:class:`UIPlayer` is the seat's "player" for the network code: it hands over the
action the UI submitted (``None`` until there is one).
"""
from __future__ import annotations

import asyncio
import queue
import threading
from typing import Any

from .client import NetError, RelayClient
from .direct import DEFAULT_PORT, DirectHost, Peer, join

__all__ = ["NetBridge", "UIPlayer"]


class UIPlayer:
    def __init__(self) -> None:
        self.pending: Any = None
        self.lock = threading.Lock()

    def put(self, action: Any) -> None:
        with self.lock:
            self.pending = action

    def choose(self, game: Any) -> Any:
        with self.lock:
            a, self.pending = self.pending, None
        return a


class NetBridge:
    """One network battle for the UI.  Start it with one of the ``host`` / ``join`` /
    ``relay_create`` / ``relay_join`` class methods."""

    def __init__(self) -> None:
        self.events: "queue.Queue[tuple[str, Any]]" = queue.Queue()
        self.player = UIPlayer()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.thread: threading.Thread | None = None
        self.peer: Peer | None = None
        self.client: RelayClient | None = None
        self.host: DirectHost | None = None
        self.seat: str | None = None
        self.mode = ""
        self._stop: asyncio.Event | None = None

    # --- starting ---------------------------------------------------------------------------
    def _run(self, coro_factory) -> "NetBridge":
        ready = threading.Event()

        def main() -> None:
            loop = asyncio.new_event_loop()
            self.loop = loop
            asyncio.set_event_loop(loop)
            self._stop = asyncio.Event()
            ready.set()
            try:
                loop.run_until_complete(coro_factory())
            except (NetError, ConnectionError, OSError) as exc:
                self.events.put(("error", {"text": str(exc), "fatal": True}))
            finally:
                pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
                for t in pending:
                    t.cancel()
                if pending:
                    loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
                loop.close()
        self.thread = threading.Thread(target=main, name="hexfront-net", daemon=True)
        self.thread.start()
        ready.wait(5)
        return self

    def _on_event(self, kind: str, data: dict) -> None:
        """Called in the network thread; copies what the UI needs into ``events``."""
        if kind == "played":
            src = self.peer if self.peer is not None else self.client
            dice = src.dice
            self.events.put(("played", {"seq": data["seq"], "action": data["action"],
                                        "rolls": list(dice.table[:dice.pos]),
                                        "hash": src.game.state_hash()}))
        elif kind == "start":
            src = self.peer if self.peer is not None else self.client
            rolls = list(src.start_rolls) if self.client is not None else \
                list(src.dice.table[:src.dice.pos])
            self.events.put(("start", {"start_rolls": rolls,
                                       "scenario": src.scenario, "config": src.config,
                                       "options": dict(src.options), "seat": self.seat}))
        else:
            self.events.put((kind, dict(data)))

    @classmethod
    def host_direct(cls, *, seat: str, scenario: str, config: int, options: dict,
                    army: list[str] | None = None, port: int = DEFAULT_PORT,
                    bind: str = "0.0.0.0") -> "NetBridge":
        b = cls()
        b.mode, b.seat = "direct", seat

        async def go():
            b.peer = Peer(seat, scenario=scenario, config=config, options=options,
                          player=b.player, army=army, on_event=b._on_event,
                          save_dir=_save_dir())
            b.host = await DirectHost(b.peer, bind, port).start()
            b.events.put(("hosting", {"address": b.host.address, "code": b.host.code,
                                      "port": b.host.port}))
            from .discovery import advertise
            loop = asyncio.get_running_loop()
            # zeroconf's own thread does the multicast; never block this loop on it
            ad = await loop.run_in_executor(None, advertise, b.host.port, b.host.code,
                                            scenario, config)
            try:
                await b._until(b.peer.done)
            finally:
                if ad is not None:
                    await loop.run_in_executor(None, ad.close)
                await b.host.close()
        return b._run(go)

    @classmethod
    def join_direct(cls, address: str, code: str) -> "NetBridge":
        b = cls()
        b.mode = "direct"

        def factory(w: dict) -> Peer:
            b.seat = w["seat"]
            b.peer = Peer(w["seat"], scenario=w["scenario"], config=w["config"],
                          options=w["options"], player=b.player, on_event=b._on_event,
                          save_dir=_save_dir())
            b.events.put(("welcome", {"seat": w["seat"], "scenario": w["scenario"],
                                      "config": w["config"], "options": w["options"]}))
            return b.peer

        async def go():
            t = asyncio.ensure_future(join(address, code, factory, give_up_after=20.0))
            s = asyncio.ensure_future(b._stop.wait())
            await asyncio.wait({t, s}, return_when=asyncio.FIRST_COMPLETED)
            s.cancel()
            if not t.done():
                t.cancel()
                if b.peer is not None and b.peer.ws is not None:
                    await b.peer.ws.close()
            elif t.exception() is not None:
                raise t.exception()
        return b._run(go)

    @classmethod
    def relay_create(cls, url: str, *, seat: str, scenario: str, config: int,
                     options: dict, army: list[str] | None = None) -> "NetBridge":
        b = cls()
        b.mode, b.seat = "relay", seat
        b.client = RelayClient(url, player=b.player, army=army, on_event=b._on_event,
                               create={"scenario": scenario, "config": config, "seat": seat,
                                       "options": options}, save_dir=_save_dir())
        return b._run(b._relay_go)

    @classmethod
    def relay_join(cls, url: str, code: str | None = None, *, game_id: str | None = None,
                   seat: str | None = None, token: str | None = None) -> "NetBridge":
        b = cls()
        b.mode, b.seat = "relay", seat
        b.client = RelayClient(url, player=b.player, code=code, game_id=game_id, seat=seat,
                               token=token, on_event=b._on_event, save_dir=_save_dir())
        return b._run(b._relay_go)

    async def _relay_go(self) -> None:
        c = self.client

        async def announce():
            await c.ready.wait()
            self.seat = c.st.seat
            self.events.put(("welcome", {"seat": c.st.seat, "scenario": c.scenario,
                                         "config": c.config, "options": c.options,
                                         "code": c.st.code, "game": c.st.game_id,
                                         "army_in": c.st.army_in or c.army is not None}))
            remember_relay_seat(c.url, c.st.game_id, c.st.seat, c.st.token)
        t = asyncio.ensure_future(announce())
        runner = asyncio.ensure_future(c.run())
        stopper = asyncio.ensure_future(self._stop.wait())
        await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
        t.cancel()
        if not runner.done():
            ws = c.ws
            c._stop = True
            if ws is not None:
                try:
                    await asyncio.wait_for(ws.close(), 1.0)
                except asyncio.TimeoutError:
                    pass
            runner.cancel()
        elif runner.exception() is not None:
            raise runner.exception()

    async def _until(self, done: asyncio.Event) -> None:
        a = asyncio.ensure_future(done.wait())
        b = asyncio.ensure_future(self._stop.wait())
        await asyncio.wait({a, b}, return_when=asyncio.FIRST_COMPLETED)
        a.cancel()
        b.cancel()

    # --- from the UI thread -----------------------------------------------------------------
    def _call(self, fn) -> None:
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(fn)

    def set_army(self, names: list[str]) -> None:
        names = list(names)
        if self.peer is not None:
            self._call(lambda: self.peer.set_army(names))
        elif self.client is not None:
            def send():
                asyncio.ensure_future(self.client.send_army(names))
            self._call(send)

    def submit(self, action: Any) -> None:
        self.player.put(action)
        if self.peer is not None:
            self._call(self.peer.wake.set)
        elif self.client is not None:
            self._call(lambda: asyncio.ensure_future(self.client._maybe_act()))

    def chat(self, text: str) -> str | None:
        """Send a chat line to the other player (checked like every message); the reason
        it can't be sent, or None."""
        from .messages import chat_problem
        text = text.strip()
        problem = chat_problem(text)
        if problem is not None:
            return problem
        if self.client is not None and self.client.ws is None or \
                self.peer is not None and self.peer.ws is None:
            return "not connected to the other player just now"
        src = self.peer if self.peer is not None else self.client
        if src is None:
            return "not connected to the other player just now"
        self._call(lambda: asyncio.ensure_future(src.send({"t": "chat", "text": text})))
        return None

    def waiting_line(self) -> str:
        if self.peer is not None:
            return self.peer.waiting
        if self.client is not None:
            return self.client.st.waiting
        return ""

    def save(self) -> str:
        """Write this machine's record of the battle (a network save)."""
        src = self.peer if self.peer is not None else self.client
        if src is None:
            return "Nothing to save yet."
        path = src.save(note="saved by the player") if self.peer is not None else \
            src.save_record(note="saved by the player")
        return f"Battle record saved: {path}" if path else "Nothing to save yet."

    def close(self) -> None:
        if self._stop is not None:
            self._call(self._stop.set)
        if self.thread is not None:
            self.thread.join(3)


def _seats_file():
    return _save_dir() / "relay-seats.json"


def saved_relay_seats() -> list[dict]:
    """The relay seats this machine holds (to continue a battle another day)."""
    import json
    try:
        data = json.loads(_seats_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    if not isinstance(data, list):
        return []
    return [d for d in data if isinstance(d, dict) and
            all(isinstance(d.get(k), str) for k in ("url", "game", "seat", "token"))]


def remember_relay_seat(url: str, game: str | None, seat: str | None,
                        token: str | None) -> None:
    import json
    from game.saves import write_atomic
    if not (game and seat and token):
        return
    seats = [s for s in saved_relay_seats() if s["game"] != game]
    seats.append({"url": url, "game": game, "seat": seat, "token": token})
    try:
        write_atomic(_seats_file(), json.dumps(seats[-10:], indent=1))
    except OSError:
        pass


def _save_dir():
    from game.ui.settings import data_dir
    return data_dir() / "saves" / "network"
