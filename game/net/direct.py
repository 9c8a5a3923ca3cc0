"""Direct play on a LAN, without the relay: one machine hosts, the other joins.

The host listens (WebSocket) and shows its address and a short join code; the
joiner sends the code, gets the other seat and a secret seat token (to come back
after a dropped connection; nobody else can take the seat).  Both machines are
equal peers from then on (:class:`Peer`):

- **Secret armies**: each sends ``army_commit`` (a hash of its army and a random
  salt, plus points and unit count - all the opponent sees); once both are in the
  battle starts blind (no units: the coin flip, first or second, ends, objective);
  when it reaches deployment each machine reveals its army and checks the other's
  against its commitment and the rules before either deploys.
- **Dice**: commit-reveal hash chains (:class:`game.net.dice.CommitRevealDice`);
  each machine reveals its part of roll ``k`` only when its own rules engine
  needs roll ``k`` for an action both already have.
- **Lockstep**: the side to act sends its action; each machine checks it with the
  rules, applies it and sends its position hash; a mismatch stops the battle
  with a save on both sides.  A refused or malformed message is answered with
  an ``error`` and changes nothing.
- A dropped connection pauses the battle; the joiner reconnects with its token
  and both exchange what the other missed (``resume``).
"""
from __future__ import annotations

import asyncio
import hmac
import random
import secrets
import socket
import time
from pathlib import Path
from typing import Any, Callable

from websockets.asyncio.client import connect
from websockets.asyncio.server import serve
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from game.rules.actions import action_to_dict
from game.rules.errors import IllegalAction

from .dice import CommitRevealDice, DiceError, HashChain, RollNeeded
from .messages import (MAX_MESSAGE_BYTES, PROTOCOL, ProtocolError, decode, encode,
                       parse_action, send_message)
from .relay import hash_token, new_code, normal_code
from .session import (SIDES, army_digest, check_config, file_part, army_from_names, army_summary, build_game, choose_blind,
                      net_options, net_save_dict, reveal_armies, reveal_due, write_net_save)

__all__ = ["Peer", "DirectHost", "join", "lan_address", "DEFAULT_PORT"]

DEFAULT_PORT = 8766
MAX_BAD = 50


def lan_address() -> str:
    """This machine's address on the LAN (no packet is sent), or 127.0.0.1."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("10.255.255.255", 1))
        return s.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        s.close()


class Peer:
    """One machine's side of a direct battle (the host's and the joiner's are alike)."""

    def __init__(self, seat: str, *, scenario: str, config: int, options: dict,
                 player: Any = None, army: list[str] | None = None, think: float = 0.0,
                 chain: HashChain | None = None,
                 on_event: Callable[[str, dict], None] | None = None,
                 save_dir: str | Path | None = None, game_id: str = "",
                 autosave: str | Path | None = None) -> None:
        self.seat = seat
        # a continue-file kept after every step (a killed program carries on from it)
        self.autosave = Path(autosave) if autosave else None
        self.pending_own: tuple[int, Any] | None = None   # own action sent, maybe unconfirmed
        # how to find the other machine again (a continued battle): {"role": "host", "port"}
        # or {"role": "join", "address"}; kept in the continue-file
        self.where: dict[str, Any] = {}
        self.other = "Allies" if seat == "Axis" else "Axis"
        self.scenario, self.config = scenario, config
        self.options = net_options(scenario, dict(options))
        check_config(config, self.options)
        self.player, self.think = player, think
        self.chain = chain or HashChain()
        self.on_event = on_event
        self.save_dir = Path(save_dir) if save_dir else None
        self.game_id = game_id
        self.ws = None
        self.their_root: str | None = None
        self.my_army: list[str] | None = None
        self.my_salt = secrets.token_hex(16)
        self.their_commit: dict | None = None
        self.revealed = False             # this machine has revealed its army (deployment)
        self.commit_sent = False
        self.armies: dict[str, list[str]] = {}
        self.opponent_army: tuple[int, int] | None = None
        self.dice: CommitRevealDice | None = None
        self.game = None
        self.hashes: list[str] = []
        self.their_hashes: dict[int, str] = {}
        self.early: list[dict] = []
        self.inbox: asyncio.Queue = asyncio.Queue()
        self.wake = asyncio.Event()
        self.roll_ready = asyncio.Event()
        self.done = asyncio.Event()
        self.connected = asyncio.Event()
        self.stopped: str | None = None
        self.errors: list[str] = []
        self.latencies: list[float] = []
        self.bad = 0
        self.waiting = ""
        self._worker: asyncio.Task | None = None
        self._sent_at: dict[int, float] = {}
        if army is not None:
            self.set_army(army)

    # --- wiring ---------------------------------------------------------------------------
    def set_army(self, names: list[str]) -> None:
        army_from_names(self.seat, names, self.scenario, self.options)   # refuse a bad one here
        if self.my_army is not None and self.commit_sent and list(names) != self.my_army:
            raise ProtocolError("this machine's army is committed to: it can't change")
        self.my_army = list(names)
        self._autosave()
        self.wake.set()

    def _event(self, kind: str, data: dict) -> None:
        if self.on_event is not None:
            self.on_event(kind, data)

    async def send(self, msg: dict) -> None:
        await send_message(self.ws, msg)

    async def attach(self, ws) -> None:
        """A (new) connection to the other machine: say where we are, then listen."""
        self.ws = ws
        self.connected.set()
        self._event("opponent", {"status": "connected"})
        if self._worker is None:
            self._worker = asyncio.ensure_future(self._work())
            self._worker.add_done_callback(self._worker_ended)
        self._autosave()
        await self.send({"t": "commit", "root": self.chain.root})
        if self.my_army is not None:
            self.commit_sent = True
            await self._send_army_commit()
        if self.revealed and self.my_army is not None:
            await self.send({"t": "army_reveal", "cards": self.my_army, "salt": self.my_salt})
        # what this machine has, so the other re-sends what it lacks (also before the
        # battle started: a machine carried on from its file may lack the first rolls)
        await self.send({"t": "resume", "have": len(self.hashes),
                         "reveals": self.dice.theirs.count if self.dice is not None else 0})
        self.wake.set()
        try:
            async for raw in ws:
                try:
                    msg = decode(raw)
                    await self.on_message(msg)
                    self.bad = 0
                except ProtocolError as exc:
                    self.bad += 1
                    await self.send({"t": "error", "text": str(exc)[:300], "about": "message"})
                    if self.bad >= MAX_BAD:
                        await self.send({"t": "error", "text": "too many bad messages: closing",
                                         "fatal": True})
                        await ws.close(1008, "too many bad messages")
                        break
                if self.done.is_set():
                    break
        except ConnectionClosed:
            pass
        finally:
            if self.ws is ws:
                self.ws = None
                self.connected.clear()
                if not self.done.is_set():
                    self._event("opponent", {"status": "away"})
                    self._set_waiting()

    async def _send_army_commit(self) -> None:
        cards = army_from_names(self.seat, self.my_army, self.scenario, self.options)
        pts, n = army_summary(cards)
        await self.send({"t": "army_commit", "digest": army_digest(self.my_army, self.my_salt),
                         "points": pts, "count": n})

    # --- receiving ------------------------------------------------------------------------
    async def on_message(self, msg: dict) -> None:
        t = msg["t"]
        if t == "commit":
            if self.their_root is None:
                self.their_root = msg["root"]
            elif not hmac.compare_digest(self.their_root, msg["root"]):
                raise ProtocolError("the dice commitment can't change during a battle")
        elif t == "army_commit":
            if self.their_commit is not None and self.their_commit["digest"] and \
                    self.their_commit["digest"] != msg["digest"]:
                raise ProtocolError("an army commitment can't change")
            self.their_commit = msg
            self.opponent_army = (msg["points"], msg["count"])
            self._event("army_info", {"points": msg["points"], "count": msg["count"]})
        elif t == "army_reveal":
            self._their_reveal_army(msg)
        elif t == "action":
            if self.game is None and self.their_commit is None:
                raise ProtocolError("the battle has not started")
            if self.inbox.qsize() > 64:
                raise ProtocolError("too many actions ahead of the battle")
            seq = msg["seq"]
            if seq < len(self.hashes) or any(s == seq for s, _ in list(self.inbox._queue)):
                return                                  # already have it (a resume resend)
            action = parse_action(msg["action"], side=self.other)
            self.inbox.put_nowait((seq, action))
        elif t == "reveal":
            if self.dice is None:
                if self.their_commit is None or len(self.early) > 8:
                    raise ProtocolError("no dice before the battle starts")
                if all(m["k"] != msg["k"] for m in self.early):
                    self.early.append(msg)      # the other machine started a moment sooner
                return
            if msg["k"] < self.dice.theirs.count:
                return                                  # a resend we already have
            try:
                self.dice.their_reveal(msg["k"], msg["value"])
            except DiceError as exc:
                raise ProtocolError(str(exc)) from None
            self.roll_ready.set()
        elif t == "hash":
            t0 = self._sent_at.pop(msg["seq"], None)
            if t0 is not None:
                self.latencies.append(time.perf_counter() - t0)
            for old in [q for q in self._sent_at if q < msg["seq"]]:
                del self._sent_at[old]           # confirmed by a later hash (after a resume)
            self.their_hashes[msg["seq"]] = msg["hash"]
            self._compare(msg["seq"])
        elif t == "resume":
            await self._resend(msg["have"], msg["reveals"])
        elif t == "desync":
            self._stop(msg["text"], tell=False)
        elif t == "chat":
            from .relay import chat_bucket
            if not chat_bucket(self).take():
                await self.send({"t": "error", "text": "too many chat lines: wait a moment",
                                 "about": "chat"})
                return
            self._event("chat", msg)
        elif t == "error":
            if msg.get("about") != "chat":        # a chat line refused is not a battle error
                self.errors.append(msg["text"])
            self._event("error", msg)
        elif t == "bye":
            pass
        else:
            raise ProtocolError(f"a '{t}' message is not expected in a direct battle")
        if self.game is None and t in ("commit", "army_commit"):
            self._autosave()          # the other's dice root and army commitment are kept
        self.wake.set()

    def _their_reveal_army(self, msg: dict) -> None:
        if self.other in self.armies:
            return
        if self.their_commit is None:
            raise ProtocolError("an army was revealed before it was committed")
        if not hmac.compare_digest(army_digest(msg["cards"], msg["salt"]),
                                   self.their_commit["digest"]):
            raise ProtocolError("the revealed army is not the one committed to")
        cards = army_from_names(self.other, msg["cards"], self.scenario, self.options)
        if army_summary(cards) != (self.their_commit["points"], self.their_commit["count"]):
            raise ProtocolError("the revealed army's points or unit count differ from the "
                                "ones announced")
        self.armies[self.other] = list(msg["cards"])
        self.roll_ready.set()                  # a machine waiting at deployment goes on

    async def _resend(self, have: int, reveals: int) -> None:
        if self.dice is not None:
            for k in range(reveals, self.dice.sent):
                await self.send({"t": "reveal", "k": k, "value": self.chain.reveal(k)})
        if self.game is not None:
            for i in range(have, len(self.game.history)):
                a = self.game.history[i]
                if a.side == self.seat:
                    await self.send({"t": "action", "seq": i, "action": action_to_dict(a)})
            # this machine's own action sent but not applied yet (its rules wait for the
            # other's part of a roll): the other may never have had it (the line dropped,
            # or it was killed and restarted from a file written before it arrived)
            own = self.pending_own
            if own is not None and own[0] == len(self.game.history) and own[0] >= have:
                await self.send({"t": "action", "seq": own[0], "action": action_to_dict(own[1])})
            if self.hashes:
                await self.send({"t": "hash", "seq": len(self.hashes) - 1,
                                 "hash": self.hashes[-1]})

    def _compare(self, seq: int) -> None:
        theirs = self.their_hashes.get(seq)
        if theirs is None or seq >= len(self.hashes):
            return
        if theirs != self.hashes[seq]:
            self._stop(f"the two machines' positions differ after action {seq + 1}: the "
                       f"battle stops; both sides keep a save for a bug report")
        else:
            self.their_hashes.pop(seq, None)
            if self.game is not None and self.game.over and seq == len(self.hashes) - 1:
                self._finish()

    def _finish(self) -> None:
        """The battle is over and both machines agree on the final position."""
        self.done.set()
        self.wake.set()
        ws = self.ws
        if ws is not None:
            asyncio.ensure_future(ws.close(1000, "battle over"))

    def _stop(self, text: str, tell: bool = True) -> None:
        if self.stopped:
            return
        self.stopped = text
        self.save(note=text)
        if tell:
            asyncio.ensure_future(self.send({"t": "desync", "seq": max(0, len(self.hashes) - 1),
                                             "text": text[:300]}))
        self._event("stopped", {"text": text})
        self.done.set()
        self.wake.set()
        ws = self.ws
        if ws is not None:
            asyncio.get_running_loop().call_later(0.2, lambda: asyncio.ensure_future(ws.close()))

    # --- the worker: one action at a time, in order ---------------------------------------
    async def _work(self) -> None:
        while not self.done.is_set():
            self.wake.clear()
            progressed = await self._step()
            if not progressed:
                await self.wake.wait()

    def _worker_ended(self, task: asyncio.Task) -> None:
        if task.cancelled() or task.exception() is None:
            return
        exc = task.exception()
        self._stop(f"this machine hit an internal error and stopped the battle "
                   f"({type(exc).__name__}: {exc}); a save was written for a bug report")
        self.crash = exc

    async def _step(self) -> bool:
        if self.game is None:
            return await self._setup()
        if self.game.over:
            return False
        if not self.inbox.empty():
            seq, action = self.inbox.get_nowait()
            if seq > len(self.hashes):
                # it skips ahead (actions missed in between): never applied over the gap;
                # the other machine sends again everything from what this one has
                await self.send({"t": "resume", "have": len(self.hashes),
                                 "reveals": self.dice.theirs.count})
                return True
            if seq != len(self.hashes):
                await self.send({"t": "error", "text": f"action {seq + 1} is out of order",
                                 "about": "action"})
                return True
            if self.game.state.to_act != self.other:
                await self.send({"t": "error", "text": "it is not your turn to act",
                                 "about": "action"})
                return True
            reason = self.game.check(action)
            if reason is not None:
                await self.send({"t": "error", "text": f"the rules refuse that action: {reason}",
                                 "about": "action"})
                return True
            await self._apply(action)
            return True
        if self.game.state.to_act == self.seat and self.player is not None:
            if self._sent_at and self.ws is not None:
                return False          # lockstep: the last action is confirmed before the next
            seq = len(self.hashes)
            if self.pending_own is not None and self.pending_own[0] == seq:
                action = self.pending_own[1]     # sent before a restart: the same again
            else:
                if self.think:
                    await asyncio.sleep(self.think)
                action = choose_blind(self.player, self.game)
                if action is None:
                    return False
            if self.game.check(action) is not None:
                self.errors.append("our own player chose a refused action")
                return False
            self.pending_own = (seq, action)
            self._autosave()                     # written before it is sent (write-ahead)
            self._sent_at[seq] = time.perf_counter()
            await self.send({"t": "action", "seq": seq, "action": action_to_dict(action)})
            await self._apply(action)
            return True
        self._set_waiting()
        return False

    async def _setup(self) -> bool:
        """Both armies committed (points and unit count known, the cards secret): the
        battle starts blind."""
        if self.my_army is None:
            return False
        if not self.commit_sent and self.ws is not None:
            self.commit_sent = True
            await self._send_army_commit()
            return True
        if self.their_root is None or self.their_commit is None or not self.commit_sent:
            return False
        self.dice = CommitRevealDice(self.seat, self.chain, self.their_root)
        for m in self.early:
            try:
                self.dice.their_reveal(m["k"], m["value"])
            except DiceError as exc:
                await self.send({"t": "error", "text": str(exc)[:300], "about": "reveal"})
        self.early.clear()
        while True:
            try:
                self.game = build_game(self.scenario, self.config, self.options, None,
                                       self.dice)
                break
            except RollNeeded as need:
                await self._get_roll(need.k)
        self._autosave()
        self._event("start", {})
        return True

    async def _reveal(self) -> None:
        """Deployment: reveal this army and wait for the other's (checked against its
        commitment when it arrives); then both go into the battle, on both machines at
        the same point."""
        if not self.revealed:
            self.revealed = True
            await self.send({"t": "army_reveal", "cards": self.my_army, "salt": self.my_salt})
        while self.other not in self.armies and not self.done.is_set():
            self.roll_ready.clear()
            if self.other in self.armies:
                break
            await self.roll_ready.wait()
        if self.done.is_set():
            return
        self.armies[self.seat] = list(self.my_army)
        cards = {s: army_from_names(s, self.armies[s], self.scenario, self.options)
                 for s in SIDES}
        reveal_armies(self.game, cards)
        self._event("reveal", {"armies": dict(self.armies)})

    def joined(self) -> bool:
        """Both players are in this battle: the seat token was handed out and the other
        machine has spoken since (its dice commitment), so both can carry it on."""
        return bool(getattr(self, "token", None) or getattr(self, "token_hash", None)) and \
            self.their_root is not None

    def _autosave(self) -> None:
        """The continue-file, from the moment both players are in the battle (army
        building, set-up, deployment, the battle) to its end; a finished battle's file
        says it is over (it is no longer offered to carry on; the screens delete it)."""
        if self.autosave is None or not self.joined():
            return
        self.save(to_continue=True, path=self.autosave, compact=True)

    def forget(self) -> None:
        """The battle is over (or stopped for good): its continue-file goes."""
        if self.autosave is not None:
            try:
                self.autosave.unlink()
            except OSError:
                pass

    async def _get_roll(self, k: int) -> None:
        d = self.dice
        if d.sent <= k:
            await self.send({"t": "reveal", "k": k, "value": d.my_reveal(k)})
        while len(d.table) <= k and not self.done.is_set():
            self.roll_ready.clear()
            if len(d.table) > k:
                break
            await self.roll_ready.wait()

    async def _apply(self, action) -> None:
        while True:
            try:
                events = self.game.apply(action)    # the armies go in at deployment below
                break
            except RollNeeded as need:
                await self._get_roll(need.k)
                if self.done.is_set():
                    return
            except IllegalAction as exc:          # checked just before: a rules bug
                self._stop(f"the rules refused an action they had accepted: {exc.reason}")
                return
        if reveal_due(self.game):
            await self._reveal()              # part of the action that reaches deployment
            if self.done.is_set():
                return
        seq = len(self.hashes)
        h = self.game.state_hash()
        self.hashes.append(h)
        if self.pending_own is not None and self.pending_own[0] <= seq:
            self.pending_own = None
        self._autosave()
        await self.send({"t": "hash", "seq": seq, "hash": h})
        self._compare(seq)
        self._event("played", {"seq": seq, "action": action, "events": events})

    def _set_waiting(self) -> None:
        g = self.game
        name = "Axis" if self.other == "Axis" else "Allied"
        if self.ws is None and not self.done.is_set():
            self.waiting = f"the {name} player has disconnected - waiting"
        elif g is None:
            self.waiting = "waiting for the other army..." if self.my_army else ""
        elif g.over or g.state.to_act == self.seat:
            self.waiting = ""
        else:
            from game.rules.state import DefensiveFirePrompt
            if isinstance(g.state.pending, DefensiveFirePrompt):
                self.waiting = f"waiting for the {name} player's defensive fire..."
            else:
                self.waiting = f"waiting for the {name} player..."

    async def finish(self, timeout: float) -> None:
        try:
            await asyncio.wait_for(self.done.wait(), timeout)
        finally:
            if self._worker is not None:
                self._worker.cancel()

    def save(self, note: str = "", *, to_continue: bool = False,
             path: str | Path | None = None, compact: bool = False) -> Path | None:
        """This machine's record of the battle.  ``to_continue`` also keeps what is needed
        to carry on another day (this machine's dice secret and seat token: keep that
        file to yourself until the battle is over); bug-report saves never hold them."""
        if (self.save_dir is None and path is None) or \
                (len(self.armies) < 2 and not to_continue):
            return None
        acts = list(self.game.history) if self.game is not None else []
        rolls = list(self.dice.table) if self.dice is not None else []
        extra = None
        if to_continue:
            # only the actions both machines confirmed (one being applied, its armies
            # awaited at deployment, comes again: the other machine re-sends it)
            acts = acts[:len(self.hashes)]
            # before deployment: this machine's own army (its secret, on its own disk) and
            # the other's commitment (digest, points, unit count), never the other's cards
            extra = {"chain_secret": self.chain.secret.hex(),
                     "sent": self.dice.sent if self.dice is not None else 0,
                     "their_root": self.their_root,
                     "their_reveals": [] if self.dice is None else
                     [v.hex() for v in self.dice.theirs.values],
                     "started": self.game is not None,
                     "over": self.game is not None and self.game.over,
                     "my_army": None if self.my_army is None else list(self.my_army),
                     "token": getattr(self, "token", None),
                     "token_hash": getattr(self, "token_hash", None),
                     "pending": None if self.pending_own is None else
                     [self.pending_own[0], action_to_dict(self.pending_own[1])],
                     "salt": self.my_salt, "where": dict(self.where),
                     "their_commit": None if self.their_commit is None else
                     {k: self.their_commit.get(k) for k in ("digest", "points", "count")}}
        data = net_save_dict(mode="direct", scenario=self.scenario, config=self.config,
                             options=self.options, armies=self.armies, actions=acts, rolls=rolls,
                             hashes=self.hashes, seat=self.seat, game_id=self.game_id, note=note,
                             extra=extra)
        name = f"net-{file_part(self.game_id, 'direct')}-{self.seat.lower()}" + \
            ("-continue" if to_continue else "") + ".json"
        return write_net_save(path or (self.save_dir / name), data, compact=compact)

    @classmethod
    def from_save(cls, data: dict, *, player: Any = None, think: float = 0.0,
                  on_event: Callable[[str, dict], None] | None = None,
                  save_dir: str | Path | None = None,
                  autosave: str | Path | None = None) -> "Peer":
        """Carry on a direct battle from a ``save(to_continue=True)`` file
        (:func:`game.net.session.read_net_save`); DiceError / DataError if it does not
        check out."""
        from game.rules.errors import DataError
        from .session import replay_record
        x = data.get("extra") or {}
        if data.get("mode") != "direct" or "chain_secret" not in x:
            raise DataError("<network save>", "not a direct battle saved to be continued")
        seat = data["seat"]
        chain = HashChain(bytes.fromhex(x["chain_secret"]))
        p = cls(seat, scenario=data["scenario"], config=data["config"],
                options=data["options"], player=player, think=think, chain=chain,
                on_event=on_event, save_dir=save_dir, game_id=data.get("game", ""),
                autosave=autosave)
        p.armies = {s: list(v) for s, v in data["armies"].items() if s in SIDES and v}
        both = len(p.armies) == 2
        if both:
            p.my_army = list(p.armies[seat])
            p.revealed = True
        else:
            # carried on before deployment: this machine's army (if built yet) is its own
            # secret still; the other's is known by its commitment only
            mine = x.get("my_army")
            if mine is not None:
                if not isinstance(mine, list):
                    raise DataError("<network save>", "the saved army is not a list of cards",
                                    field="my_army")
                try:
                    army_from_names(seat, mine, p.scenario, p.options)
                except ProtocolError as exc:
                    raise DataError("<network save>", str(exc), field="my_army") from None
                p.my_army = list(mine)
            # the record stops before deployment: this army is revealed (again) when the
            # battle reaches it, never sooner
            p.revealed = False
            if seat in p.armies:
                del p.armies[seat]          # this machine's own goes in at deployment
        p.their_root = x["their_root"]
        # the commitments stay the same ones (an older file without them: accept the
        # other's once more; the armies themselves are in the record already)
        tc = x.get("their_commit")
        if isinstance(tc, dict) and isinstance(tc.get("digest"), str):
            p.their_commit = dict(tc)
            if isinstance(tc.get("points"), int) and isinstance(tc.get("count"), int):
                p.opponent_army = (tc["points"], tc["count"])
        elif both:
            p.their_commit = {"digest": "", "points": 0, "count": 0}
        if isinstance(x.get("salt"), str):
            p.my_salt = x["salt"]
        where = x.get("where")
        if isinstance(where, dict):
            p.where = {k: v for k, v in where.items()
                       if k in ("role", "address", "port") and isinstance(v, (str, int))}
        p.token, p.token_hash = x.get("token"), x.get("token_hash")
        if not both and not x.get("started"):
            return p                      # the battle had not started: no rolls, no actions
        if not isinstance(p.their_root, str):
            raise DataError("<network save>", "the other machine's dice commitment is missing",
                            field="their_root")
        dice = CommitRevealDice(seat, chain, p.their_root)
        for k, v in enumerate(x["their_reveals"]):
            dice.their_reveal(k, v)
        for k in range(int(x["sent"])):
            dice.my_reveal(k)
        if dice.table[:len(data["rolls"])] != data["rolls"][:len(dice.table)]:
            raise DataError("<network save>", "the saved rolls do not match the dice chains")
        p.dice = dice
        p.game = replay_record(p.scenario, p.config, p.options, p.armies if both else None,
                               data["actions"], [], data["hashes"], dice=dice)
        p.hashes = list(data["hashes"])
        pend = x.get("pending")
        if isinstance(pend, list) and len(pend) == 2 and pend[0] == len(p.hashes):
            from game.rules.actions import action_from_dict
            p.pending_own = (pend[0], action_from_dict(pend[1]))
        return p


class DirectHost:
    """Host a battle: listen on ``port`` (0 = any free port) and wait for the joiner.
    ``code`` is the short join code to show; ``address`` the one to give."""

    def __init__(self, peer: Peer, host: str = "0.0.0.0", port: int = DEFAULT_PORT) -> None:
        self.peer = peer
        self.bind_host, self.port = host, port
        self.code = new_code()
        # a battle carried on from a save keeps its id and the joiner's seat token
        self.game_id = peer.game_id or secrets.token_hex(4)
        peer.game_id = self.game_id
        self.token_hash: str | None = getattr(peer, "token_hash", None)
        self.server = None
        self.bad_connections = 0

    @property
    def address(self) -> str:
        h = self.bind_host if self.bind_host not in ("0.0.0.0", "") else lan_address()
        return f"{h}:{self.port}"

    async def start(self) -> "DirectHost":
        self.server = await serve(self._handler, self.bind_host, self.port,
                                  max_size=MAX_MESSAGE_BYTES, max_queue=64, compression=None,
                                  ping_interval=20, ping_timeout=20)
        self.port = self.server.sockets[0].getsockname()[1]
        return self

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()

    async def _handler(self, ws) -> None:
        try:
            raw = await asyncio.wait_for(ws.recv(), 10.0)
            msg = decode(raw)
            if msg["t"] not in ("join", "hello") or msg["v"] != PROTOCOL:
                raise ProtocolError("the first message must be join or hello "
                                    f"(protocol {PROTOCOL})")
            p = self.peer
            if msg["t"] == "join":
                if self.token_hash is not None:
                    raise ProtocolError("this battle already has its second player")
                if not hmac.compare_digest(normal_code(msg["code"]), self.code):
                    raise ProtocolError("wrong join code")
                token = secrets.token_urlsafe(24)
                self.token_hash = hash_token(token)
                p.token_hash = self.token_hash
            else:
                if (self.token_hash is None or msg["game"] != self.game_id
                        or msg["seat"] != p.other
                        or not hmac.compare_digest(self.token_hash, hash_token(msg["token"]))):
                    raise ProtocolError("that battle and seat token do not match")
                token = None
            if p.ws is not None:                  # the seat came back: the old line goes
                asyncio.ensure_future(p.ws.close(1000, "replaced"))
            w = {"t": "welcome", "game": self.game_id, "seat": p.other, "scenario": p.scenario,
                 "config": p.config, "options": p.options, "dice": "commit-reveal",
                 "chain_root": p.chain.root, "opponent": "connected"}
            if token:
                w["token"] = token
            await ws.send(encode(w))
        except (ProtocolError, asyncio.TimeoutError) as exc:
            self.bad_connections += 1
            try:
                await ws.send(encode({"t": "error", "text": str(exc)[:300] or "no hello",
                                      "fatal": True}))
                await ws.close(1008, "refused")
            except ConnectionClosed:
                pass
            return
        except ConnectionClosed:
            return
        await self.peer.attach(ws)


async def join(address: str, code: str | None, peer_factory: Callable[[dict], Peer], *,
               token: str | None = None, game_id: str | None = None, seat: str | None = None,
               peer: Peer | None = None, timeout: float = 5.0, give_up_after: float = 60.0,
               stop: asyncio.Event | None = None, keep_trying: float | None = None) -> Peer:
    """Join a hosted battle at ``address`` ("host:port") with ``code``; keeps the
    connection (reconnecting with the seat token) until the battle ends.  Returns the
    Peer when done.  ``peer_factory(welcome)`` makes the Peer once the seat is known.
    ``give_up_after``: seconds without reaching the host before the seat is known;
    ``keep_trying`` (default the same): once in the battle (the host's program may be
    restarting)."""
    url = address if address.startswith("ws://") else f"ws://{address}"
    wait, lost = 0.05, None
    while True:
        if peer is not None and peer.done.is_set():
            return peer
        if stop is not None and stop.is_set():
            return peer
        try:
            async with asyncio.timeout(timeout):
                ws = await connect(url, max_size=MAX_MESSAGE_BYTES, open_timeout=None,
                                   compression=None, ping_interval=20, ping_timeout=20)
        except (OSError, asyncio.TimeoutError, InvalidHandshake, InvalidURI) as exc:
            if isinstance(exc, InvalidURI):
                raise ConnectionError(f"'{address}' is not an address (host:port)") from None
            lost = lost or time.monotonic()
            limit = give_up_after if peer is None or keep_trying is None else keep_trying
            if time.monotonic() - lost > limit:
                raise ConnectionError(f"can't reach the host at {address}") from None
            await asyncio.sleep(wait)
            wait = min(1.0, wait * 2)
            continue
        try:
            if token is None:
                await ws.send(encode({"t": "join", "v": PROTOCOL, "code": code or ""}))
            else:
                await ws.send(encode({"t": "hello", "v": PROTOCOL, "game": game_id,
                                      "seat": seat, "token": token}))
            w = decode(await asyncio.wait_for(ws.recv(), timeout))
            if w["t"] == "error":
                await ws.close()
                raise ConnectionError(w["text"])
            if w["t"] != "welcome":
                raise ConnectionError("the host answered something unexpected")
            if token is None:
                token, game_id, seat = w.get("token"), w["game"], w["seat"]
            if peer is None:
                peer = peer_factory(w)
                peer.game_id = game_id
            peer.token = token
            wait, lost = 0.05, None
            await peer.attach(ws)
        except ConnectionClosed:
            pass
        except ProtocolError as exc:
            raise ConnectionError(f"the host sent a bad message: {exc}") from None
        if peer is not None and peer.done.is_set():
            return peer
        await asyncio.sleep(wait * random.uniform(0.5, 1.0))
