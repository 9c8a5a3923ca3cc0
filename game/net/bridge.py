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
from pathlib import Path
from typing import Any

from .client import NetError, RelayClient
from .direct import DEFAULT_PORT, DirectHost, Peer, join

__all__ = ["NetBridge", "UIPlayer", "continue_path", "saved_direct_battles",
           "saved_relay_seats", "remember_relay_seat", "forget_relay_seat",
           "relay_seat_status", "prune_finished_relay_seats"]


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
        self.port = 0                       # the port this machine hosts on (direct)
        self._stop: asyncio.Event | None = None

    # --- starting ---------------------------------------------------------------------------
    def _run(self, coro_factory) -> "NetBridge":
        _LIVE.append(self)
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
                if self in _LIVE:
                    _LIVE.remove(self)
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
            # live False: the record a returning relay seat missed (shown without animating)
            self.events.put(("played", {"seq": data["seq"], "action": data["action"],
                                        "rolls": list(dice.table[:dice.pos]),
                                        "hash": src.game.state_hash(),
                                        "live": data.get("live", True)}))
        elif kind == "welcome" and self.client is not None:
            # put in the queue by the client as the welcome arrives, so before the
            # army_info that follows it (the screen builds the army after the welcome)
            c = self.client
            self.seat = c.st.seat
            self.events.put(("welcome", {"seat": c.st.seat, "scenario": c.scenario,
                                         "config": c.config, "options": c.options,
                                         "code": c.st.code, "game": c.st.game_id,
                                         "army_in": c.st.army_in or c.army is not None,
                                         "opponent": c.st.opponent}))
            remember_relay_seat(c.url, c.st.game_id, c.st.seat, c.st.token)
        elif kind == "start":
            src = self.peer if self.peer is not None else self.client
            rolls = list(src.start_rolls) if self.client is not None else \
                list(src.dice.table[:src.dice.pos])
            self.events.put(("start", {"start_rolls": rolls,
                                       "scenario": src.scenario, "config": src.config,
                                       "options": dict(src.options), "seat": self.seat}))
        else:
            if kind == "over" and self.client is not None:
                self.finished()             # a relay battle that is over: not offered again
            self.events.put((kind, dict(data)))

    def finished(self) -> None:
        """The battle is over (this machine reached its end, the victory screen): it is no
        longer offered to carry on - a relay seat is forgotten, a direct battle's
        continue-file goes (the connection stays until both machines agree on the end)."""
        if self.client is not None and self.client.st.game_id:
            forget_relay_seat(self.client.st.game_id)
        elif self.peer is not None:
            self.peer.forget()

    @classmethod
    def host_direct(cls, *, seat: str, scenario: str, config: int, options: dict,
                    army: list[str] | None = None, port: int = DEFAULT_PORT,
                    bind: str = "0.0.0.0") -> "NetBridge":
        b = cls()
        b.mode, b.seat = "direct", seat
        b._free_port(port)

        async def go():
            b.peer = Peer(seat, scenario=scenario, config=config, options=options,
                          player=b.player, army=army, on_event=b._on_event,
                          save_dir=_save_dir())
            b.host = await DirectHost(b.peer, bind, port).start()
            # a continue-file from deployment on: the battle can be carried on from the
            # menu after the line drops for good or either program is closed
            b.peer.where = {"role": "host", "port": b.host.port}
            b.peer.autosave = continue_path(b.host.game_id, seat)
            await b._host_until_done(scenario, config)
        return b._run(go)

    def _free_port(self, port: int) -> None:
        """Hosting on ``port``: a battle this program left hosting there (its screen gone
        another way than the menu) ends first, so the port is free."""
        self.port = port
        for old in list(_LIVE):
            if old is not self and old.port == port and port:
                old.close()

    async def _host_until_done(self, scenario: str, config: int) -> None:
        host = self.host
        self.events.put(("hosting", {"address": host.address, "code": host.code,
                                     "port": host.port}))
        from .discovery import advertise
        loop = asyncio.get_running_loop()
        # zeroconf's own thread does the multicast; never block this loop on it
        ad = await loop.run_in_executor(None, advertise, host.port, host.code,
                                        scenario, config)
        try:
            await self._until(self.peer.done)
        finally:
            if ad is not None:
                await loop.run_in_executor(None, ad.close)
            await host.close()
            self._ended()

    def _ended(self) -> None:
        """A direct battle that is over (or stopped for good) can't be continued: its
        continue-file goes."""
        p = self.peer
        if p is not None and p.autosave is not None and (
                p.stopped or (p.game is not None and p.game.over and p.done.is_set())):
            try:
                p.autosave.unlink()
            except OSError:
                pass

    @classmethod
    def join_direct(cls, address: str, code: str) -> "NetBridge":
        b = cls()
        b.mode = "direct"

        def factory(w: dict) -> Peer:
            b.seat = w["seat"]
            b.peer = Peer(w["seat"], scenario=w["scenario"], config=w["config"],
                          options=w["options"], player=b.player, on_event=b._on_event,
                          save_dir=_save_dir(), autosave=continue_path(w["game"], w["seat"]))
            b.peer.where = {"role": "join", "address": address}
            b.events.put(("welcome", {"seat": w["seat"], "scenario": w["scenario"],
                                      "config": w["config"], "options": w["options"]}))
            return b.peer

        async def go():
            # 20 s to reach the host at first; in the battle, ten minutes (the host's
            # program may be restarting) before the screen says to carry it on later
            await b._join_until_done(join(address, code, factory, give_up_after=20.0,
                                          keep_trying=600.0))
        return b._run(go)

    async def _join_until_done(self, joining) -> None:
        t = asyncio.ensure_future(joining)
        s = asyncio.ensure_future(self._stop.wait())
        try:
            await asyncio.wait({t, s}, return_when=asyncio.FIRST_COMPLETED)
            s.cancel()
            if not t.done():
                t.cancel()
                if self.peer is not None and self.peer.ws is not None:
                    await self.peer.ws.close()
            elif t.exception() is not None:
                raise t.exception()
        finally:
            self._ended()

    @classmethod
    def resume_direct(cls, path: str | Path) -> "NetBridge":
        """Carry on a direct battle from this machine's continue-file (the menu: Join a
        battle, "Continue"): the host hosts again on its port, the joiner reconnects to
        the host's address with its seat token.  DataError / DiceError when the file
        does not check out.  The first event is ``("resume", record)``: the battle so
        far, for the screen to rebuild without animating it."""
        from .session import read_net_save
        path = Path(path)
        data = read_net_save(path)
        b = cls()
        b.mode, b.seat = "direct", data["seat"]
        b.peer = Peer.from_save(data, player=b.player, on_event=b._on_event,
                                save_dir=_save_dir(), autosave=path)
        where = dict(b.peer.where)
        p = b.peer
        # where the battle was: "army" (this player's army not built yet), "waiting" (the
        # battle not started), "battle" (started: blind until deployment reveals the armies)
        stage = "army" if p.my_army is None else "waiting" if p.game is None else "battle"
        b.events.put(("resume", {"scenario": p.scenario, "config": p.config,
                                 "options": dict(p.options), "seat": p.seat, "stage": stage,
                                 "armies": {k: list(v) for k, v in p.armies.items()}
                                 if len(p.armies) == 2 else None,
                                 "my_army": None if p.my_army is None else list(p.my_army),
                                 "opponent_army": p.opponent_army,
                                 "actions": [] if p.game is None else
                                 list(p.game.history[:len(p.hashes)]),
                                 "rolls": [] if p.dice is None else
                                 list(p.dice.table[:p.dice.pos]),
                                 "role": where.get("role", ""),
                                 "address": str(where.get("address", ""))}))
        if where.get("role") == "host":
            b._free_port(int(where.get("port") or DEFAULT_PORT))

            async def go():
                b.host = await DirectHost(p, "0.0.0.0", int(where.get("port") or
                                                            DEFAULT_PORT)).start()
                await b._host_until_done(p.scenario, p.config)
        elif where.get("role") == "join" and where.get("address") and p.token:
            async def go():
                # the host may take a while to come back (the other player restarts it)
                await b._join_until_done(join(str(where["address"]), None, None,
                                              token=p.token, game_id=p.game_id, seat=p.seat,
                                              peer=p, give_up_after=600.0))
        else:
            from game.rules.errors import DataError
            raise DataError(str(path), "the file does not say how to reach the other machine")
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
        runner = asyncio.ensure_future(c.run())
        stopper = asyncio.ensure_future(self._stop.wait())
        await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
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

    def record_between(self, first: int, end: int) -> list[dict] | None:
        """The confirmed actions ``first`` .. ``end - 1`` of this machine's record
        (``{"seq", "action", "rolls", "hash"}``; ``rolls``: the table so far), for a screen
        that missed some; None when this machine does not hold them all.  Read from the UI
        thread: only confirmed entries (the network thread appends, never changes them)."""
        src = self.peer if self.peer is not None else self.client
        game = getattr(src, "game", None)
        if src is None or game is None or first < 0 or end <= first:
            return None
        hashes = list(src.hashes)
        history = list(game.history)
        if len(hashes) < end or len(history) < end:
            return None
        dice = src.dice
        rolls = list(dice.table[:dice.pos])
        return [{"seq": i, "action": history[i], "rolls": rolls, "hash": hashes[i]}
                for i in range(first, end)]

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
        if self in _LIVE:
            _LIVE.remove(self)
        if self._stop is not None:
            self._call(self._stop.set)
        if self.thread is not None and self.thread is not threading.current_thread():
            self.thread.join(3)


_LIVE: list[NetBridge] = []


def continue_path(game_id: str, seat: str) -> Path:
    """This machine's continue-file of a direct battle (it holds this machine's dice
    secret and seat token: keep it to yourself until the battle is over)."""
    from .session import file_part
    d = _save_dir()
    d.mkdir(parents=True, exist_ok=True)
    # the battle id comes from the other machine: file_part keeps any path out of it
    return d / f"continue-{file_part(game_id, 'direct')}-{file_part(seat.lower())}.json"


def saved_direct_battles(folder: str | Path | None = None) -> list[dict]:
    """The direct battles this machine can carry on, newest first: ``{"path", "seat",
    "role", "address", "scenario", "config", "edition", "actions", "saved", "stage"}``
    (read from the continue-files in ``folder``, by default this machine's network saves;
    one that does not read is left out, and so is a battle that is over)."""
    import json
    out = []
    try:
        files = sorted(Path(folder or _save_dir()).glob("continue-*.json"),
                       key=lambda f: f.stat().st_mtime, reverse=True)
    except OSError:
        return []
    for f in files[:20]:
        try:
            d = json.loads(f.read_text(encoding="utf-8"))
            x = d.get("extra") or {}
            if x.get("over"):
                continue                    # finished: nothing to carry on
            where = x.get("where") or {}
            armies = d.get("armies") or {}
            stage = "battle" if all(armies.get(s) for s in ("Axis", "Allies")) else \
                "set-up" if x.get("started") else \
                "army" if x.get("my_army") is None else "waiting"
            out.append({"path": str(f), "seat": str(d["seat"]),
                        "role": str(where.get("role", "")),
                        "address": str(where.get("address", "")),
                        "scenario": str(d["scenario"]), "config": int(d["config"]),
                        "edition": str((d.get("options") or {}).get("edition") or "first"),
                        "actions": len(d.get("actions") or []), "stage": stage,
                        "saved": str(d.get("saved", ""))})
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            continue
    return out


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


def forget_relay_seat(game: str) -> None:
    """A relay battle that is over: no longer offered to carry on."""
    import json
    from game.saves import write_atomic
    seats = saved_relay_seats()
    keep = [s for s in seats if s["game"] != game]
    if len(keep) == len(seats):
        return
    try:
        write_atomic(_seats_file(), json.dumps(keep, indent=1))
    except OSError:
        pass


async def relay_seat_status(seat: dict, timeout: float = 3.0) -> str | None:
    """What the relay says of a remembered seat's battle ("open", "playing", "over",
    "desync"), or None when it can't be asked (unreachable, an older relay, refused)."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
    from .messages import MAX_MESSAGE_BYTES, PROTOCOL, ProtocolError, decode, encode
    try:
        async with asyncio.timeout(timeout):
            async with connect(seat["url"], max_size=MAX_MESSAGE_BYTES, open_timeout=None,
                               compression=None) as ws:
                await ws.send(encode({"t": "status", "v": PROTOCOL, "game": seat["game"],
                                      "seat": seat["seat"], "token": seat["token"]}))
                msg = decode(await ws.recv())
    except (OSError, asyncio.TimeoutError, InvalidHandshake, InvalidURI, ConnectionClosed,
            ProtocolError):
        return None
    if msg["t"] == "state" and msg["game"] == seat["game"]:
        return msg["status"]
    return None


def prune_finished_relay_seats(timeout: float = 3.0) -> list[dict]:
    """Ask each relay about the remembered seats (blocking: call it off the UI thread);
    a battle that is over there (ended while this machine was away) is forgotten.
    Returns the seats still remembered."""
    seats = saved_relay_seats()

    async def ask() -> list:
        return await asyncio.gather(*(relay_seat_status(s, timeout) for s in seats))
    try:
        states = asyncio.run(ask()) if seats else []
    except RuntimeError:            # (called inside a running loop: nothing asked)
        return seats
    for s, st in zip(seats, states):
        if st in ("over", "desync"):
            forget_relay_seat(s["game"])
    return saved_relay_seats()


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
