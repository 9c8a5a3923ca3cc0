"""The relay: a small WebSocket server that holds many battles (turn-by-turn or live).

    python -m game.net.relay --port 8765 [--host 0.0.0.0] [--store DIR]

The relay runs the rules for every battle it holds and is its dice source: when a
battle is created it draws a secret seed and sends both players
``sha256(salt | seed)``; it hands out each roll as the rules make it and reveals
seed and salt when the battle ends, so each player can check every roll
(:func:`game.net.dice.audit_seed`).  Each seat has a secret token (only its hash
is stored); the second seat is claimed once with the short invite code the
creator passes on, after that only by its token.  Every action is checked by the
rules here and on both machines; the position hash is compared after each one.

Battles are stored (one journal per battle: its head, written by atomic rename
when more than an action changes, then one line appended per action) so a player may close the game and come back days later, and a restarted
relay carries on where it stopped.  Limits: messages of at most
``MAX_MESSAGE_BYTES`` (WebSocket ``max_size``; a larger frame closes the
connection with code 1009), a token bucket per connection (``RATE`` messages a
second, bursts of ``BURST``), a connection that sends too many bad messages is
closed (1008), at most ``MAX_GAMES`` battles and ``MAX_CONNECTIONS`` connections.
"""
from __future__ import annotations

import argparse
import asyncio
import hashlib
import hmac
import json
import os
import secrets
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.exceptions import ConnectionClosed

from game.rules.actions import action_from_dict, action_to_dict
from game.rules.errors import IllegalAction, RulesError

from .dice import SeededDice, new_seed, seed_commitment
from .messages import (CHAT_BURST, CHAT_RATE, MAX_MESSAGE_BYTES, PROTOCOL, ProtocolError,
                       decode, encode, parse_action)
from .session import (SIDES, apply_action, armies_from_names, army_digest, army_summary,
                      build_game, check_config, net_options)

__all__ = ["Relay", "RelayGame", "serve_relay", "main", "RATE", "BURST", "RECORD_CHUNK", "read_stored",
           "new_code", "hash_token"]

RATE = 100.0               # messages a second per connection (sustained)
BURST = 200
MAX_BAD = 50               # bad messages in a row before the connection is closed
MAX_GAMES = 10_000
MAX_CONNECTIONS = 1_000
HELLO_TIMEOUT = 10.0
RECORD_CHUNK = 200
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"     # no 0/O, 1/I/L


def new_code(n: int = 6) -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(n))


def hash_token(token: str) -> str:
    return hashlib.sha256(b"hexfront-seat|" + token.encode()).hexdigest()


def normal_code(code: str) -> str:
    return code.strip().upper().replace("-", "").replace(" ", "")


@dataclass
class RelayGame:
    id: str
    scenario: str
    config: int
    options: dict
    seed: int
    salt: str
    token_hashes: dict[str, str | None]
    code: str | None                      # invite for the unclaimed seat (None once claimed)
    created: float = field(default_factory=time.time)
    armies: dict[str, list[str]] = field(default_factory=dict)   # secret until deployment
    salts: dict[str, str] = field(default_factory=dict)          # of the army commitments
    start_rolls: list[int] = field(default_factory=list)
    actions: list[dict] = field(default_factory=list)
    rolls: list[list[int]] = field(default_factory=list)
    hashes: list[str] = field(default_factory=list)
    status: str = "open"                  # open, playing, over, desync
    outcome: dict | None = None
    game: Any = None                      # the rules' Game (rebuilt lazily after a restart)
    dice: Any = None
    conns: dict[str, Any] = field(default_factory=dict)
    stored: int = -1                      # actions in the stored journal (-1: none yet)

    @property
    def commit(self) -> str:
        return seed_commitment(self.seed, self.salt)

    def to_json(self) -> dict:
        return {"id": self.id, "scenario": self.scenario, "config": self.config,
                "options": self.options, "seed": self.seed, "salt": self.salt,
                "token_hashes": self.token_hashes, "code": self.code, "created": self.created,
                "armies": self.armies, "salts": self.salts, "start_rolls": self.start_rolls,
                "actions": self.actions, "rolls": self.rolls, "hashes": self.hashes,
                "status": self.status, "outcome": self.outcome}

    @classmethod
    def from_json(cls, d: dict) -> "RelayGame":
        g = cls(id=d["id"], scenario=d["scenario"], config=d["config"], options=d["options"],
                seed=d["seed"], salt=d["salt"], token_hashes=d["token_hashes"], code=d["code"],
                created=d.get("created", 0.0))
        g.armies, g.start_rolls = d.get("armies", {}), d.get("start_rolls", [])
        g.salts = d.get("salts", {})
        g.actions, g.rolls, g.hashes = d.get("actions", []), d.get("rolls", []), d.get("hashes", [])
        g.status, g.outcome = d.get("status", "open"), d.get("outcome")
        return g

    # --- the rules ---------------------------------------------------------------------------
    def ensure_game(self) -> None:
        """Build (or, after a restart, rebuild by replaying) the rules' Game."""
        if self.game is not None or len(self.armies) < 2:
            return
        armies = armies_from_names(self.armies, self.scenario, self.options)
        dice = SeededDice(self.seed)
        game = build_game(self.scenario, self.config, self.options, armies, dice)
        self.start_rolls = list(dice.record)
        for a in self.actions:
            apply_action(game, action_from_dict(a))
        if self.hashes and game.state_hash() != self.hashes[-1]:
            raise RuntimeError(f"stored battle {self.id} does not replay to its last position")
        self.game, self.dice = game, dice

    @property
    def revealed(self) -> bool:
        """Deployment has revealed the armies (before it, each is its owner's secret:
        the other seat is told its points, unit count and commitment only)."""
        return self.game is not None and bool(self.game.state.units)

    def digest(self, side: str) -> str:
        return army_digest(self.armies[side], self.salts.get(side, ""))

    def armies_message(self) -> dict:
        return {"t": "armies", "armies": self.armies,
                "salts": {s: self.salts.get(s, "") for s in SIDES}}

    def army_info(self, side: str) -> dict:
        pts, n = army_summary(armies_from_names_one(self, side))
        return {"t": "army_info", "side": side, "points": pts, "count": n,
                "digest": self.digest(side)}

    def to_act(self) -> str | None:
        if self.game is None or self.game.over:
            return None
        return self.game.state.to_act


class Bucket:
    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = float(burst)
        self.t = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.t) * self.rate)
        self.t = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class Relay:
    """The battles and the connection handler (``serve_relay`` runs it)."""

    def __init__(self, store: str | os.PathLike[str] | None = None, *, rate: float = RATE,
                 burst: int = BURST, fsync: bool = False, seeds=new_seed) -> None:
        self.seeds = seeds             # () -> (seed, salt); tests pass a fixed one
        self.store = Path(store) if store else None
        self.games: dict[str, RelayGame] = {}
        self.codes: dict[str, str] = {}
        self.rate, self.burst, self.fsync = rate, burst, fsync
        self.connections = 0
        self.cpu: list[float] = []       # CPU seconds the relay spent per action
        self.wall: list[float] = []      # seconds from an action's arrival to its 'played'
        self.stats = {"messages": 0, "bad": 0, "refused": 0, "closed_bad": 0, "actions": 0}
        if self.store:
            self.store.mkdir(parents=True, exist_ok=True)
            # journals first: an older whole-file store of the same battle is skipped
            for p in sorted(self.store.glob("game-*.json*"), key=lambda p: (p.suffix, p.name),
                            reverse=True):
                try:
                    d = read_stored(p)
                    g = RelayGame.from_json(d)
                except (OSError, ValueError, KeyError, TypeError) as exc:
                    print(f"relay: skipping unreadable stored battle {p.name}: {exc}",
                          file=sys.stderr)
                    continue
                if g.id in self.games:           # an old whole-file store next to its journal
                    continue
                g.stored = len(g.actions) if d.get("journal_clean") else -1
                self.games[g.id] = g
                if g.code:
                    self.codes[g.code] = g.id

    # --- storage ---------------------------------------------------------------------------
    def save(self, g: RelayGame) -> None:
        """Write the whole battle (a new journal: its head and every action so far), by
        atomic rename; only when more than an action changes (created, joined, armies,
        the end)."""
        if not self.store:
            return
        p = self.store / f"game-{g.id}.jsonl"
        tmp = p.with_name(f".{p.name}.tmp")
        head = g.to_json()
        for k in ("actions", "rolls", "hashes"):
            del head[k]
        lines = [json.dumps(head, separators=(",", ":"))]
        lines += [json.dumps({"a": a, "r": r, "h": h}, separators=(",", ":"))
                  for a, r, h in zip(g.actions, g.rolls, g.hashes)]
        with open(tmp, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
            if self.fsync:
                f.flush()
                os.fsync(f.fileno())
        os.replace(tmp, p)
        g.stored = len(g.actions)

    def append(self, g: RelayGame) -> None:
        """Store the battle's last action: one line appended to its journal (the cost
        per action does not grow with the battle; a line cut short by a crash is
        dropped when the store is read, and that action was never confirmed)."""
        if not self.store:
            return
        if g.stored != len(g.actions) - 1:
            self.save(g)
            return
        line = json.dumps({"a": g.actions[-1], "r": g.rolls[-1], "h": g.hashes[-1]},
                          separators=(",", ":"))
        with open(self.store / f"game-{g.id}.jsonl", "a", encoding="utf-8") as f:
            f.write(line + "\n")
            if self.fsync:
                f.flush()
                os.fsync(f.fileno())
        g.stored = len(g.actions)

    # --- sending ---------------------------------------------------------------------------
    @staticmethod
    async def send(ws, msg: dict) -> None:
        try:
            await ws.send(encode(msg))
        except ConnectionClosed:
            pass

    async def tell(self, g: RelayGame, msg: dict, seat: str | None = None) -> None:
        await self.tell_text(g, encode(msg), seat)

    @staticmethod
    async def tell_text(g: RelayGame, text: str, seat: str | None = None) -> None:
        """Send one already-checked message to the battle's seats (encoded once)."""
        for s, ws in list(g.conns.items()):
            if seat is None or s == seat:
                try:
                    await ws.send(text)
                except ConnectionClosed:
                    pass

    async def error(self, ws, text: str, about: str = "", fatal: bool = False) -> None:
        m = {"t": "error", "text": text[:300], "fatal": fatal}
        if about:
            m["about"] = about[:20]
        await self.send(ws, m)

    # --- the handler ------------------------------------------------------------------------
    async def handler(self, ws) -> None:
        if self.connections >= MAX_CONNECTIONS:
            await ws.close(1013, "the relay is full")
            return
        self.connections += 1
        g: RelayGame | None = None
        seat: str | None = None
        try:
            try:
                raw = await asyncio.wait_for(ws.recv(), HELLO_TIMEOUT)
            except asyncio.TimeoutError:
                await ws.close(1008, "no hello")
                return
            try:
                msg = decode(raw)
                g, seat = await self.first(ws, msg)
            except ProtocolError as exc:
                self.stats["bad"] += 1
                await self.error(ws, str(exc), fatal=True)
                await ws.close(1008, "bad first message")
                return
            if g is None:
                return
            await self.serve_seat(ws, g, seat)
        finally:
            self.connections -= 1
            if g is not None and seat is not None and g.conns.get(seat) is ws:
                del g.conns[seat]
                await self.tell(g, {"t": "opponent", "status": "away"})

    async def first(self, ws, msg: dict) -> tuple[RelayGame | None, str | None]:
        t = msg["t"]
        if t not in ("create", "join", "hello", "status"):
            raise ProtocolError("the first message must be create, join, hello or status")
        if msg["v"] != PROTOCOL:
            raise ProtocolError(f"protocol {msg['v']} is not spoken here (this relay speaks "
                                f"{PROTOCOL}); update Hexfront")
        if t == "status":
            # is this seat's battle still on? (the menu's list of battles to carry on; the
            # seat's token is needed, the other seat is not told anything)
            g = self.games.get(msg["game"])
            want = g.token_hashes.get(msg["seat"]) if g is not None else None
            if g is None or want is None or \
                    not hmac.compare_digest(want, hash_token(msg["token"])):
                raise ProtocolError("that battle and seat token do not match: you can only "
                                    "ask about your own seat")
            await self.send(ws, {"t": "state", "game": g.id, "status": g.status})
            await ws.close(1000, "status told")
            return None, None
        if t == "create":
            if len(self.games) >= MAX_GAMES:
                raise ProtocolError("the relay holds as many battles as it can")
            options = net_options(msg["scenario"], dict(msg.get("options") or {}))
            check_config(msg["config"], options)
            seed, salt = self.seeds()
            gid = secrets.token_hex(4)
            while gid in self.games:
                gid = secrets.token_hex(4)
            code = new_code()
            while code in self.codes:
                code = new_code()
            token = secrets.token_urlsafe(24)
            seat = msg["seat"]
            other = "Allies" if seat == "Axis" else "Axis"
            g = RelayGame(gid, msg["scenario"], msg["config"], options, seed, salt,
                          {seat: hash_token(token), other: None}, code)
            self.games[gid] = g
            self.codes[code] = gid
            self.save(g)
            await self.send(ws, {"t": "created", "game": gid, "seat": seat, "token": token,
                                 "code": code, "dice_commit": g.commit})
            return await self.bind(ws, g, seat, token=None, have=0)
        if t == "join":
            code = normal_code(msg["code"])
            gid = self.codes.get(code)
            g = self.games.get(gid) if gid else None
            if g is None or g.code is None or not hmac.compare_digest(g.code, code) or \
                    ("game" in msg and msg["game"] != g.id):
                raise ProtocolError("no battle is waiting for that join code")
            seat = next(s for s in SIDES if g.token_hashes.get(s) is None)
            token = secrets.token_urlsafe(24)
            g.token_hashes[seat] = hash_token(token)
            g.code = None
            del self.codes[code]
            self.save(g)
            return await self.bind(ws, g, seat, token=token, have=0)
        # hello: a seat coming back with its token
        g = self.games.get(msg["game"])
        seat = msg["seat"]
        want = g.token_hashes.get(seat) if g is not None else None
        if g is None or want is None or not hmac.compare_digest(want, hash_token(msg["token"])):
            raise ProtocolError("that battle and seat token do not match: you can only "
                                "rejoin your own seat")
        return await self.bind(ws, g, seat, token=None, have=msg.get("have", 0))

    async def bind(self, ws, g: RelayGame, seat: str, *, token: str | None, have: int):
        old = g.conns.get(seat)
        if old is not None and old is not ws:
            # the seat came back (a dropped line, a restarted game): the new connection wins
            # at once; the old one is closed in the background (it may be dead already)
            g.conns.pop(seat, None)
            asyncio.ensure_future(self._replace(old))
        try:
            g.ensure_game()
        except (RulesError, ProtocolError, RuntimeError) as exc:
            raise ProtocolError(f"this stored battle can't be rebuilt: {str(exc)[:200]}") from None
        g.conns[seat] = ws
        other = "Allies" if seat == "Axis" else "Axis"
        welcome = {"t": "welcome", "game": g.id, "seat": seat, "scenario": g.scenario,
                   "config": g.config, "options": g.options, "dice": "relay",
                   "dice_commit": g.commit, "army_in": seat in g.armies,
                   "opponent": "connected" if other in g.conns else
                   ("away" if g.token_hashes.get(other) else "none")}
        if token:
            welcome["token"] = token
        await self.send(ws, welcome)
        await self.tell(g, {"t": "opponent", "status": "connected"}, seat=other)
        for s in SIDES:          # what each seat may know of the armies before deployment
            if s in g.armies:
                await self.send(ws, g.army_info(s))
        if len(g.armies) == 2:
            await self.send(ws, {"t": "begin", "start_rolls": g.start_rolls})
            if g.revealed:
                await self.send(ws, g.armies_message())
            await self.send_record(ws, g, have)
        await self.send_turn(g, seat)
        return g, seat

    async def _replace(self, old) -> None:
        await self.error(old, "this seat connected again from elsewhere", fatal=True)
        await old.close(1000, "replaced")

    async def send_record(self, ws, g: RelayGame, have: int) -> None:
        have = max(0, min(have, len(g.actions)))
        i = have
        while True:
            j = min(len(g.actions), i + RECORD_CHUNK)
            await self.send(ws, {"t": "record", "from": i, "actions": g.actions[i:j],
                                 "rolls": g.rolls[i:j], "hashes": g.hashes[i:j],
                                 "more": j < len(g.actions)})
            i = j
            if i >= len(g.actions):
                break
        if g.status in ("over",):
            await self.send_over(g, ws)

    async def send_turn(self, g: RelayGame, seat: str | None = None) -> None:
        if g.game is None or g.status != "playing":
            return
        await self.tell(g, {"t": "turn", "to_act": g.to_act(), "seq": len(g.actions)}, seat)

    async def send_over(self, g: RelayGame, ws=None) -> None:
        out = g.outcome or {}
        m = {"t": "over", "winner": out.get("winner"), "reason": str(out.get("reason", ""))[:200],
             "seed": g.seed, "salt": g.salt}
        if ws is None:
            await self.tell(g, m)
        else:
            await self.send(ws, m)

    async def serve_seat(self, ws, g: RelayGame, seat: str) -> None:
        bucket = Bucket(self.rate, self.burst)
        bad = 0
        try:
            async for raw in ws:
                self.stats["messages"] += 1
                if not bucket.take():
                    bad += 1
                    self.stats["refused"] += 1
                    await self.error(ws, "too many messages: slow down", about="rate")
                else:
                    try:
                        t_in = time.perf_counter()
                        msg = decode(raw)
                        await self.on_message(ws, g, seat, msg)
                        if msg["t"] == "action":     # received -> played sent to both seats
                            self.wall.append(time.perf_counter() - t_in)
                        bad = 0
                    except ProtocolError as exc:
                        bad += 1
                        self.stats["bad"] += 1
                        await self.error(ws, str(exc), about="message")
                if bad >= MAX_BAD:
                    self.stats["closed_bad"] += 1
                    await self.error(ws, "too many bad messages: closing", fatal=True)
                    await ws.close(1008, "too many bad messages")
                    return
                if g.conns.get(seat) is not ws:
                    return
        except ConnectionClosed:
            return

    async def on_message(self, ws, g: RelayGame, seat: str, msg: dict) -> None:
        t = msg["t"]
        if t == "army":
            await self.on_army(ws, g, seat, msg["cards"], msg["salt"])
        elif t == "action":
            await self.on_action(ws, g, seat, msg)
        elif t == "hash":
            seq = msg["seq"]
            if seq >= len(g.hashes):
                raise ProtocolError(f"there is no action {seq + 1} yet to compare")
            if not hmac.compare_digest(g.hashes[seq], msg["hash"]):
                g.status = "desync"
                self.save(g)
                await self.tell(g, {"t": "desync", "seq": seq,
                                    "text": f"the {seat} machine's position differs from the "
                                            f"relay's after action {seq + 1}: the battle "
                                            f"stops; both sides keep a save for a bug report"})
        elif t == "chat":
            other = "Allies" if seat == "Axis" else "Axis"
            if not chat_bucket(ws).take():
                await self.error(ws, "too many chat lines: wait a moment", about="chat")
                return
            if other not in g.conns:
                await self.error(ws, "the other player is away: your line was not delivered",
                                 about="chat")
                return
            await self.tell(g, {"t": "chat", "text": msg["text"]}, seat=other)
        elif t == "bye":
            await ws.close(1000, "bye")
        else:
            raise ProtocolError(f"a '{t}' message is not expected here")

    async def on_army(self, ws, g: RelayGame, seat: str, cards: list[str], salt: str) -> None:
        if seat in g.armies:
            raise ProtocolError("your army is already built for this battle: it can't change")
        armies_from_names_one_side(g, seat, cards)
        g.armies[seat] = list(cards)
        g.salts[seat] = salt
        await self.tell(g, g.army_info(seat))       # points, unit count and commitment only
        if len(g.armies) == 2:
            g.ensure_game()
            g.status = "playing"
            await self.tell(g, {"t": "begin", "start_rolls": g.start_rolls})
            for c in list(g.conns.values()):
                await self.send_record(c, g, 0)
            await self.send_turn(g)
        self.save(g)

    async def on_action(self, ws, g: RelayGame, seat: str, msg: dict) -> None:
        if g.status != "playing" or g.game is None:
            raise ProtocolError({"open": "the battle has not started yet",
                                 "over": "the battle is over",
                                 "desync": "the battle stopped (the positions differed)"}
                                .get(g.status, "the battle is not being played"))
        seq = msg["seq"]
        if seq != len(g.actions):
            raise ProtocolError(f"action {seq + 1} is out of order (the battle is at action "
                                f"{len(g.actions) + 1})")
        action = parse_action(msg["action"], side=seat)
        game = g.game
        if game.state.to_act != seat:
            raise ProtocolError("it is not your turn to act")
        before = len(g.dice.record)
        t_cpu = time.process_time()
        was_revealed = g.revealed
        try:
            apply_action(game, action)      # deployment reached: the armies go in
        except IllegalAction as exc:
            raise ProtocolError(f"the rules refuse that action: {exc.reason}") from None
        except RulesError as exc:
            raise ProtocolError(f"the rules refuse that action: {exc}") from None
        rolls = list(g.dice.record[before:])
        h = game.state_hash()
        d = action_to_dict(action)
        g.actions.append(d)
        g.rolls.append(rolls)
        g.hashes.append(h)
        self.stats["actions"] += 1
        if game.over:
            g.status = "over"
            out = game.state.outcome
            g.outcome = {"winner": out.winner, "reason": out.reason}
            self.save(g)
        else:
            self.append(g)
        played = encode({"t": "played", "seq": seq, "action": d, "rolls": rolls, "hash": h})
        self.cpu.append(time.process_time() - t_cpu)     # rules + hash + store + encode
        if len(self.cpu) > 100_000:
            del self.cpu[:50_000]
        if g.revealed and not was_revealed:
            await self.tell(g, g.armies_message())      # deployment reveals both armies
        await self.tell_text(g, played)
        if g.status == "over":
            await self.send_over(g)
        else:
            await self.send_turn(g)


def chat_bucket(ws: Any) -> Bucket:
    """The chat rate of one connection (a line a second, bursts of five)."""
    b = getattr(ws, "hexfront_chat", None)
    if b is None:
        b = Bucket(CHAT_RATE, CHAT_BURST)
        ws.hexfront_chat = b
    return b


def read_stored(path: str | os.PathLike[str]) -> dict:
    """A stored battle as one dict (``RelayGame.to_json``): a journal (``.jsonl``: its
    head, then one line per action; a last line cut short by a crash is dropped) or an
    older whole-file store (``.json``).  ValueError if it can't be read."""
    p = Path(path)
    text = p.read_text(encoding="utf-8")
    if p.suffix != ".jsonl":
        d = json.loads(text)
        if not isinstance(d, dict):
            raise ValueError("not a stored battle")
        return d
    lines = text.split("\n")
    d = json.loads(lines[0])
    if not isinstance(d, dict):
        raise ValueError("not a stored battle")
    d["actions"], d["rolls"], d["hashes"] = [], [], []
    d["journal_clean"] = text.endswith("\n")     # else the next write rewrites it whole
    rest = [ln for ln in lines[1:] if ln]
    for i, ln in enumerate(rest):
        try:
            row = json.loads(ln)
        except ValueError:
            if i == len(rest) - 1 and not text.endswith("\n"):
                break                      # the write a crash cut short: never confirmed
            raise
        d["actions"].append(row["a"])
        d["rolls"].append(row["r"])
        d["hashes"].append(row["h"])
    return d


def armies_from_names_one_side(g: RelayGame, side: str, names: list[str]) -> list:
    from .session import army_from_names
    return army_from_names(side, names, g.scenario, g.options)


def armies_from_names_one(g: RelayGame, side: str) -> list:
    return armies_from_names_one_side(g, side, g.armies[side])


async def serve_relay(relay: Relay, host: str = "127.0.0.1", port: int = 0):
    """Start serving; returns the websockets Server (``server.sockets[0].getsockname()``)."""
    from websockets.asyncio.server import serve
    return await serve(relay.handler, host, port, max_size=MAX_MESSAGE_BYTES,
                       max_queue=64, ping_interval=20, ping_timeout=20,
                       compression=None)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m game.net.relay",
                                 description="Run a Hexfront relay: holds battles for players "
                                             "on two machines (live or turn by turn).")
    ap.add_argument("--port", type=int, default=8765)
    ap.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all)")
    ap.add_argument("--store", default=None,
                    help="folder for the stored battles (default: <user data>/relay)")
    ap.add_argument("--fsync", action="store_true", help="fsync every stored battle write")
    ap.add_argument("--rate", type=float, default=RATE, help=f"messages a second per connection "
                                                             f"(default {RATE:g})")
    ap.add_argument("--burst", type=int, default=BURST, help=f"burst size (default {BURST})")
    ap.add_argument("--no-warm", action="store_true",
                    help="don't build the maps' line-of-sight tables at start-up")
    args = ap.parse_args(argv)
    if not 0 <= args.port <= 65535:
        ap.error("--port must be 0-65535")
    store = args.store
    if store is None:
        from game.ui.settings import data_dir
        store = str(data_dir() / "relay")

    def warm() -> None:
        """Build the nine maps' line-of-sight tables (both editions) now, not during the
        first battles."""
        from game.data.later_maps import load_later_configuration
        from game.data.maps import load_configuration
        for n in range(1, 7):
            load_configuration(n).los
        for n in range(1, 4):
            load_later_configuration(n).los

    async def run() -> None:
        if not args.no_warm:
            warm()
        relay = Relay(store, fsync=args.fsync, rate=args.rate, burst=args.burst)
        server = await serve_relay(relay, args.host, args.port)
        port = server.sockets[0].getsockname()[1]
        print(f"Hexfront relay listening on {args.host}:{port} "
              f"({len(relay.games)} stored battles in {store})", flush=True)
        import signal
        stop = asyncio.Event()
        try:
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
        except (NotImplementedError, RuntimeError):       # not on this platform
            pass
        serving = asyncio.ensure_future(server.serve_forever())
        await stop.wait()
        serving.cancel()
        server.close()
        cpu, wall = sorted(relay.cpu), sorted(relay.wall)

        def pct(xs: list[float], q: float) -> float:
            return 1000 * xs[min(len(xs) - 1, int(q * len(xs)))]
        if cpu:
            print(f"relay: {len(cpu)} actions, CPU per action p50 {pct(cpu, .5):.2f} ms, "
                  f"p95 {pct(cpu, .95):.2f} ms", flush=True)
        if wall:
            print(f"relay: time from an action's arrival to its confirmation sent, p50 "
                  f"{pct(wall, .5):.2f} ms, p95 {pct(wall, .95):.2f} ms", flush=True)

    try:
        asyncio.run(run())
    except KeyboardInterrupt:
        pass
    except OSError as exc:
        print(f"relay: can't listen on port {args.port}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
