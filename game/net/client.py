"""A relay client: one seat of a battle held by a relay (headless; the UI and the
benches drive it).

The client keeps its own copy of the battle and applies every action the relay
confirms (``played``) with the rolls the relay hands out, then compares its
position hash with the relay's.  Its ``seat`` acts through a *player*: anything
with ``choose(game) -> Action`` (an AI from ``game.ai``, or the UI's
:class:`RemoteSeatQueue`).  A dropped connection is retried with back-off; the
seat comes back with its token and the relay sends what was missed (a client
started from nothing - a restarted process, another day - gets the whole record
and rebuilds the battle from it).  At the end the relay reveals its seed and the
client checks every roll it was handed (``audit``).
"""
from __future__ import annotations

import asyncio
import random
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from game.rules.actions import action_from_dict, action_to_dict
from game.rules.errors import IllegalAction, MalformedAction

from .dice import RollNeeded, TableDice, audit_seed
from .messages import (MAX_MESSAGE_BYTES, PROTOCOL, ProtocolError, decode, encode,
                       send_message)
from .session import (SIDES, ai_view, apply_action, army_digest, choose_blind,
                      armies_from_names, build_game, file_part, net_save_dict, reveal_due,
                      write_net_save)

__all__ = ["RelayClient", "ClientStatus", "NetError"]


_AI_THREAD: Any = None


def _ai_thread() -> Any:
    """One thread per process for AI seats that think aside (the GIL makes more useless)."""
    global _AI_THREAD
    if _AI_THREAD is None:
        from concurrent.futures import ThreadPoolExecutor
        _AI_THREAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hexfront-ai")
    return _AI_THREAD


class NetError(RuntimeError):
    """A network problem a player can read (cannot connect, refused, desync)."""


@dataclass
class ClientStatus:
    game_id: str | None = None
    seat: str | None = None
    token: str | None = None
    code: str | None = None
    dice_commit: str | None = None
    opponent: str = "none"               # connected / away / none
    opponent_army: tuple[int, int] | None = None    # (points, units) before the reveal
    waiting: str = ""                     # the waiting line for the UI
    over: dict | None = None
    audit: str | None = None              # None = not yet; "ok" or what went wrong
    seed: int | None = None               # the relay's seed, revealed at the end
    army_in: bool = False                 # the relay holds this seat's army
    desync: str | None = None
    errors: list[str] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)   # action sent -> confirmed (s)
    reconnects: int = 0


class RelayClient:
    """One seat.  Start a battle (``create=dict(scenario=..., config=..., seat=...)``),
    claim the invited seat (``code=``) or come back (``game_id``, ``seat``, ``token``)."""

    def __init__(self, url: str, *, player: Any = None, army: list[str] | None = None,
                 create: dict | None = None, code: str | None = None,
                 game_id: str | None = None, seat: str | None = None, token: str | None = None,
                 think: float = 0.0, on_event: Callable[[str, dict], None] | None = None,
                 save_dir: str | Path | None = None, connect_timeout: float = 5.0,
                 max_reconnect_wait: float = 1.0, give_up_after: float = 60.0,
                 seat_setup: Callable[[str], tuple[Any, list[str]]] | None = None,
                 think_aside: bool = False) -> None:
        self.url = url
        self.player = player
        self.army = army
        self.create, self.code = create, code
        self.st = ClientStatus(game_id=game_id, seat=seat, token=token)
        self.think = think
        self.on_event = on_event
        self.save_dir = Path(save_dir) if save_dir else None
        self.connect_timeout = connect_timeout
        self.max_reconnect_wait = max_reconnect_wait
        self.give_up_after = give_up_after
        self.seat_setup = seat_setup         # seat -> (player, army), once the seat is known
        # an AI player thinks on a copy in this process's one AI thread, so the network
        # keeps being served while it thinks (many seats in one process: the load bench)
        self.think_aside = think_aside
        self.scenario = self.config = self.options = None
        self.armies: dict[str, list[str]] | None = None
        self.start_rolls: list[int] = []
        self.game = None
        self.dice: TableDice | None = None
        self.rolls: list[list[int]] = []
        self.hashes: list[str] = []
        self.ws = None
        self.synced = False
        self.sent_seq: int | None = None
        self.sent_at = 0.0
        self.army_sent = False
        self.salt = secrets.token_hex(16)     # of this seat's army commitment
        self.digests: dict[str, str | None] = {}
        self.done = asyncio.Event()
        self.ready = asyncio.Event()          # created/welcome received (code, token known)
        self._stop = False

    # --- public -----------------------------------------------------------------------------
    @property
    def seat(self) -> str | None:
        return self.st.seat

    async def run(self) -> ClientStatus:
        """Play until the battle ends (or stops); reconnects as needed."""
        wait = 0.05
        lost_since: float | None = None
        first = True
        while not self._stop and not self.done.is_set():
            try:
                async with asyncio.timeout(self.connect_timeout):
                    ws = await connect(self.url, max_size=MAX_MESSAGE_BYTES, open_timeout=None,
                                       ping_interval=20, ping_timeout=20, compression=None)
            except (OSError, asyncio.TimeoutError, InvalidHandshake, InvalidURI) as exc:
                if first and isinstance(exc, InvalidURI):
                    raise NetError(f"'{self.url}' is not a relay address") from None
                lost_since = lost_since or time.monotonic()
                if time.monotonic() - lost_since > self.give_up_after:
                    raise NetError(f"can't reach the relay at {self.url}") from None
                self.st.waiting = "reconnecting to the relay..."
                await asyncio.sleep(wait)
                wait = min(self.max_reconnect_wait, wait * 2)
                continue
            self.ws = ws
            try:
                await self._hello(ws, first)
                first = False
                wait, lost_since = 0.05, None
                async for raw in ws:
                    try:
                        msg = decode(raw)
                    except ProtocolError as exc:
                        self.st.errors.append(f"bad message from the relay: {exc}")
                        continue
                    await self._on(msg)
                    if self.done.is_set():
                        break
            except ConnectionClosed:
                pass
            finally:
                self.ws = None
                self.synced = False
                self.sent_seq = None      # unconfirmed: the record on reconnecting tells
                try:
                    await ws.close()
                except ConnectionClosed:
                    pass
            if not self.done.is_set() and not self._stop:
                self.st.reconnects += 1
                if self.st.token is None:
                    raise NetError("the relay closed the connection before giving this seat "
                                   "its token: " + "; ".join(self.st.errors[-1:]))
                await asyncio.sleep(wait * random.uniform(0.5, 1.0))
                wait = min(self.max_reconnect_wait, wait * 2)
        return self.st

    def stop(self) -> None:
        self._stop = True
        if self.ws is not None:
            asyncio.ensure_future(self.ws.close())

    def abort(self) -> None:
        """Drop the connection abruptly (tests, the fault bench: a killed process)."""
        self._stop = True
        ws = self.ws
        if ws is not None and ws.transport is not None:
            ws.transport.abort()

    # --- sending ----------------------------------------------------------------------------
    async def send(self, msg: dict) -> None:
        await send_message(self.ws, msg)

    async def send_army(self, names: list[str]) -> None:
        """This seat's army, to the relay only: the other seat is told its points, unit
        count and commitment (sha256 of the cards and a secret salt) until deployment."""
        self.army = list(names)
        self.army_sent = True
        await self.send({"t": "army", "cards": list(names), "salt": self.salt})

    async def _hello(self, ws, first: bool) -> None:
        if self.st.token is not None:
            await ws.send(encode({"t": "hello", "v": PROTOCOL, "game": self.st.game_id,
                                  "seat": self.st.seat, "token": self.st.token,
                                  "have": len(self.hashes)}))
        elif self.create is not None and first:
            m = {"t": "create", "v": PROTOCOL}
            m.update(self.create)
            await ws.send(encode(m))
        elif self.code is not None and first:
            await ws.send(encode({"t": "join", "v": PROTOCOL, "code": self.code}))
        else:
            raise NetError("nothing to connect with (no token, invitation or new battle)")

    def _event(self, kind: str, data: dict) -> None:
        if self.on_event is not None:
            self.on_event(kind, data)

    # --- receiving --------------------------------------------------------------------------
    async def _on(self, msg: dict) -> None:
        t = msg["t"]
        st = self.st
        if t == "created":
            st.game_id, st.seat, st.token = msg["game"], msg["seat"], msg["token"]
            st.code, st.dice_commit = msg["code"], msg["dice_commit"]
        elif t == "welcome":
            st.game_id, st.seat = msg["game"], msg["seat"]
            if msg.get("token"):
                st.token = msg["token"]
            if st.dice_commit is None:
                st.dice_commit = msg.get("dice_commit")
            elif msg.get("dice_commit") != st.dice_commit:
                self._stop_with("the relay changed its dice commitment: the battle stops")
            self.scenario, self.config, self.options = msg["scenario"], msg["config"], \
                msg["options"]
            st.opponent = msg["opponent"]
            st.army_in = bool(msg.get("army_in"))
            first = not self.ready.is_set()
            self.ready.set()
            if first:       # before any army_info that follows: the seat is known first
                self._event("welcome", {})
            if self.seat_setup is not None and self.player is None:
                self.player, army = self.seat_setup(st.seat)
                self.army = self.army or army
            if not msg.get("army_in") and self.army is not None:
                await self.send_army(self.army)
        elif t == "army_info":
            self.digests[msg["side"]] = msg.get("digest")
            if msg["side"] != st.seat:
                st.opponent_army = (msg["points"], msg["count"])
                self._event("army_info", {"points": msg["points"], "count": msg["count"]})
        elif t == "begin":
            await self._start(msg["start_rolls"])
        elif t == "armies":
            self._revealed(msg["armies"], msg["salts"])
        elif t == "record":
            await self._record(msg)
        elif t == "played":
            await self._played(msg["seq"], msg["action"], msg.get("rolls", []), msg.get("hash"))
            await self._maybe_act()
        elif t == "turn":
            self._waiting_line()
            await self._maybe_act()
        elif t == "opponent":
            st.opponent = msg["status"]
            self._waiting_line()
            self._event("opponent", msg)
        elif t == "over":
            st.over = {"winner": msg["winner"], "reason": msg["reason"]}
            self._audit(msg.get("seed"), msg.get("salt"))
            self._event("over", msg)
            self.done.set()
        elif t == "desync":
            self._stop_with(msg["text"])
        elif t == "chat":
            self._event("chat", msg)
        elif t == "error":
            if msg.get("about") != "chat":        # a chat line refused is not a battle error
                st.errors.append(msg["text"])
            self._event("error", msg)
            if msg.get("about") == "rate" and self.sent_seq is not None:
                seq = self.sent_seq
                self.sent_seq = None
                await asyncio.sleep(0.05)
                if len(self.hashes) == seq:
                    await self._maybe_act()
            elif msg.get("fatal"):
                self._stop_with(msg["text"])

    def _stop_with(self, text: str) -> None:
        self.st.desync = text
        self.save_record(note=text)
        self._event("stopped", {"text": text})
        self.done.set()

    async def _start(self, start_rolls: list[int]) -> None:
        """Both armies are built (and committed to): the battle starts blind."""
        if self.game is not None:
            return
        self.start_rolls = list(start_rolls)
        self.dice = TableDice(start_rolls)
        try:
            self.game = build_game(self.scenario, self.config, self.options, None, self.dice)
        except RollNeeded:
            self._stop_with("the relay sent too few rolls to start the battle")
            return
        self._event("start", {})

    def _revealed(self, armies: dict, salts: dict) -> None:
        """Deployment reveals the armies: each must be the one committed to (its digest,
        points and unit count, told before), and this seat's own must be its own."""
        if self.armies is not None or self.game is None:
            return
        try:
            cards = armies_from_names(armies, self.scenario, self.options)
        except ProtocolError as exc:
            self._stop_with(f"the relay revealed armies this machine refuses: {exc}")
            return
        for side in SIDES:
            salt = salts.get(side) if isinstance(salts, dict) else None
            want = self.digests.get(side)
            if not isinstance(salt, str) or want is None or \
                    army_digest(armies[side], salt) != want:
                self._stop_with(f"the {side} army revealed at deployment is not the one "
                                f"committed to before the battle: the battle stops")
                return
        if self.army is not None and list(armies[self.st.seat]) != list(self.army):
            self._stop_with("the relay revealed another army for this seat than the one it "
                            "built: the battle stops")
            return
        self.armies = {s: list(armies[s]) for s in SIDES}
        self.game.net_armies = cards            # they go in where deployment begins
        self._event("reveal", {"armies": self.armies})

    async def _record(self, msg: dict) -> None:
        base = msg["from"]
        for i, (a, rolls, h) in enumerate(zip(msg["actions"], msg["rolls"], msg["hashes"])):
            await self._played(base + i, a, rolls, h, live=False)
            if self.done.is_set():
                return
        if not msg["more"]:
            self.synced = True
            self._waiting_line()
            await self._maybe_act()

    async def _played(self, seq: int, action_d: dict, rolls: list[int], h: str | None,
                      live: bool = True) -> None:
        if self.game is None:
            self.st.errors.append("an action arrived before the armies")
            return
        if seq < len(self.hashes):
            if h is not None and h != self.hashes[seq]:
                self._stop_with(f"the relay's record differs from this machine's at action "
                                f"{seq + 1}")
            return
        if seq > len(self.hashes):
            self.st.errors.append(f"action {seq + 1} arrived before action "
                                  f"{len(self.hashes) + 1}: resynchronising")
            if self.ws is not None:
                await self.ws.close()
            return
        try:
            action = action_from_dict(action_d)
        except MalformedAction as exc:
            self._stop_with(f"the relay sent a malformed action: {exc}")
            return
        for v in rolls:
            self.dice.add(v)
        try:
            events = apply_action(self.game, action)
        except RollNeeded:
            self._stop_with(f"action {seq + 1} needs more rolls than the relay handed out")
            return
        except IllegalAction as exc:
            self._stop_with(f"this machine's rules refuse action {seq + 1} that the relay "
                            f"accepted ({exc.reason})")
            return
        if reveal_due(self.game):
            self._stop_with(f"action {seq + 1} brings the battle to deployment, but the relay "
                            f"did not reveal the armies")
            return
        if self.dice.pos != len(self.dice.table):
            self._stop_with(f"action {seq + 1} used fewer rolls than the relay handed out")
            return
        mine = self.game.state_hash()
        self.rolls.append(list(rolls))
        self.hashes.append(mine)
        if self.sent_seq == seq:
            self.st.latencies.append(time.perf_counter() - self.sent_at)
            self.sent_seq = None
        if h is not None and h != mine:
            await self.send({"t": "hash", "seq": seq, "hash": mine})
            self._stop_with(f"this machine's position differs from the relay's after action "
                            f"{seq + 1}: the battle stops (a save was written for a bug report)")
            return
        self._event("played", {"seq": seq, "action": action, "events": events, "live": live})

    def _waiting_line(self) -> None:
        g = self.game
        st = self.st
        if g is None:
            st.waiting = "waiting for the armies..."
            return
        if g.over:
            st.waiting = ""
            return
        who = g.state.to_act
        if who == st.seat:
            st.waiting = ""
            return
        name = "Axis" if who == "Axis" else "Allied"
        if st.opponent != "connected":
            st.waiting = f"the {name} player is away - it's their move; come back later " \
                         f"or wait"
            return
        from game.rules.state import DefensiveFirePrompt
        if isinstance(g.state.pending, DefensiveFirePrompt):
            st.waiting = f"waiting for the {name} player's defensive fire..."
        else:
            st.waiting = f"waiting for the {name} player..."

    async def _maybe_act(self) -> None:
        g = self.game
        if (g is None or g.over or not self.synced or self.player is None
                or g.state.to_act != self.st.seat or self.sent_seq is not None
                or self.done.is_set()):
            return
        seq = len(self.hashes)
        if self.think:
            await asyncio.sleep(self.think)
            if len(self.hashes) != seq or self.ws is None:
                return
        if self.think_aside:
            view = ai_view(g)
            action = await asyncio.get_running_loop().run_in_executor(
                _ai_thread(), self.player.choose, view)
            if (len(self.hashes) != seq or self.ws is None or self.sent_seq is not None
                    or self.done.is_set()):
                return
        else:
            action = choose_blind(self.player, g)
        if action is None:                 # a UI seat with nothing chosen yet
            return
        reason = g.check(action)
        if reason is not None:
            self.st.errors.append(f"our own player chose a refused action: {reason}")
            return
        self.sent_seq, self.sent_at = seq, time.perf_counter()
        await self.send({"t": "action", "seq": seq, "action": action_to_dict(action)})

    # --- the end ----------------------------------------------------------------------------
    def all_rolls(self) -> list[int]:
        return list(self.start_rolls) + [v for r in self.rolls for v in r]

    def _audit(self, seed: int | None, salt: str | None) -> None:
        if seed is None or salt is None or self.st.dice_commit is None:
            self.st.audit = "the relay did not reveal its seed"
            return
        self.st.seed = seed
        problem = audit_seed(self.st.dice_commit, seed, salt, self.all_rolls())
        self.st.audit = "ok" if problem is None else problem

    def save_record(self, note: str = "") -> Path | None:
        """A network save (the record this machine holds) for a bug report / later."""
        if self.save_dir is None or self.armies is None:
            return None
        acts = list(self.game.history) if self.game is not None else []
        data = net_save_dict(mode="relay", scenario=self.scenario, config=self.config,
                             options=self.options, armies=self.armies, actions=acts,
                             rolls=self.all_rolls(), hashes=self.hashes, seat=self.st.seat,
                             game_id=self.st.game_id or "", note=note)
        seat = file_part((self.st.seat or "x").lower())
        name = f"net-{file_part(self.st.game_id)}-{seat}.json"
        return write_net_save(self.save_dir / name, data)
