"""Bad input: malformed, oversized, replayed and forged messages to the relay and to
a direct host (a client), on 127.0.0.1.

    python bench/net_bad_input.py [--n 10000] [--seed 1]

Kinds sent (about evenly): garbage bytes, text that is not JSON, JSON that is not
an object, unknown types, missing / extra / mistyped fields (mutations of real
messages), deep nesting, oversized frames, forged seat tokens, wrong battles,
wrong join codes, actions for the other side, actions the rules refuse,
out-of-order and replayed actions, forged dice reveals.  Every message must be
answered with an ``error`` or the connection closed cleanly; afterwards the relay
and the host are still serving, and nothing bad was accepted (the battles' action
lists and dice are exactly what honest play made).  Printed:
``sent: N, answered: A, closed: C, unanswered: U, crashes: X, accepted forgeries: F``.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import logging
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from websockets.asyncio.client import connect  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402

from game.net.direct import DirectHost, Peer  # noqa: E402
from game.net.headless import spec_for  # noqa: E402
from game.net.messages import MAX_MESSAGE_BYTES  # noqa: E402
from game.net.relay import Relay, serve_relay  # noqa: E402
from game.net.session import army_digest, army_summary, army_from_names  # noqa: E402


class Crashes(logging.Handler):
    """Counts handler exceptions websockets logs (an uncaught error = a crash)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.n = 0
        self.first = ""

    def emit(self, record) -> None:
        self.n += 1
        self.first = self.first or record.getMessage()


def mutate(rng: random.Random, good: dict) -> object:
    m = json.loads(json.dumps(good))
    r = rng.random()
    keys = [k for k in m if k != "t"]
    junk = rng.choice([None, True, -1, 10**12, 1.5, "", "x" * 300, [], {}, [1, [2, [3]]],
                       {"type": "Move"}, "Axis", "ffff"])
    if r < 0.25 and keys:
        del m[rng.choice(keys)]
    elif r < 0.5 and keys:
        m[rng.choice(keys)] = junk
    elif r < 0.65:
        m["extra" + str(rng.randint(0, 9))] = junk
    elif r < 0.8:
        m["t"] = rng.choice(["", "Action", "played", "create ", 5, None, "welcome"])
    elif r < 0.9 and isinstance(m.get("action"), dict):
        a = m["action"]
        k = rng.choice(list(a))
        a[k] = junk
    else:
        return [m]
    return m


def garbage(rng: random.Random) -> object:
    r = rng.random()
    if r < 0.3:
        return bytes(rng.randrange(256) for _ in range(rng.randint(1, 200)))
    if r < 0.5:
        return "".join(chr(rng.randint(32, 0x2FF)) for _ in range(rng.randint(1, 100)))
    if r < 0.6:
        return '{"t": "action", "seq": 1, "action": ' + "[" * 3000 + "]" * 3000 + "}"
    if r < 0.7:
        return '{"t": "chat", "text": "' + "a" * rng.randint(201, 5000) + '"}'
    if r < 0.8:
        return json.dumps(rng.choice([[], 1, "x", None, True, [{"t": "bye"}]]))
    if r < 0.9:
        return '{"t": "hash", "seq": 0, "hash": "' + "0" * 64 + '"'   # truncated
    return '{"t":"action","seq":0,"action":{"type":"Move","side":"Axis","uid":"axis-1",' \
           '"path":[' + ",".join(["[0,0]"] * 100) + "]}}"


class Conn:
    """A connection that re-opens itself (with ``hello``) when the far side closes it."""

    def __init__(self, url: str, hello: dict | None, stats: dict) -> None:
        self.url, self.hello, self.stats = url, hello, stats
        self.ws = None

    async def open(self) -> None:
        self.ws = await connect(self.url, max_size=None)
        if self.hello is not None:
            await self.ws.send(json.dumps(self.hello))
            await self.answer(expect_welcome=True)

    async def answer(self, expect_welcome: bool = False) -> str:
        """Read until an answer: 'error' / 'welcome' / 'played' or a close."""
        while True:
            try:
                raw = await asyncio.wait_for(self.ws.recv(), 5)
            except ConnectionClosed:
                return "closed"
            except asyncio.TimeoutError:
                return "timeout"
            m = json.loads(raw)
            if m["t"] in ("error", "played") or (expect_welcome and m["t"] == "welcome"):
                return m["t"]

    async def bad(self, msg: object) -> None:
        if self.ws is None:
            await self.open()
        self.stats["sent"] += 1
        try:
            await self.ws.send(msg if isinstance(msg, (str, bytes)) else json.dumps(msg))
        except ConnectionClosed:
            self.stats["closed"] += 1
            self.ws = None
            return
        got = await self.answer()
        if got == "error":
            self.stats["answered"] += 1
        elif got == "closed":
            self.stats["closed"] += 1
            self.ws = None
        elif got == "played":
            self.stats["accepted"] += 1
        else:
            self.stats["unanswered"] += 1


async def relay_part(n: int, rng: random.Random, stats: dict) -> dict:
    spec = spec_for(0, 9, turn_limit=1)
    relay = Relay(None, rate=100_000, burst=100_000)
    server = await serve_relay(relay, "127.0.0.1", 0)
    url = f"ws://127.0.0.1:{server.sockets[0].getsockname()[1]}"
    a = await connect(url)
    await a.send(json.dumps({"t": "create", "v": 2, "scenario": "standard",
                             "config": spec.config, "seat": "Axis", "options": spec.options}))
    created = json.loads(await a.recv())
    b = await connect(url)
    await b.send(json.dumps({"t": "join", "v": 2, "code": created["code"]}))
    wb = json.loads(await b.recv())
    await a.send(json.dumps({"t": "army", "cards": spec.armies["Axis"], "salt": "a" * 32}))
    await b.send(json.dumps({"t": "army", "cards": spec.armies["Allies"], "salt": "b" * 32}))
    await asyncio.sleep(0.3)
    g = relay.games[created["game"]]
    # one honest action, so there is something to replay
    side = g.game.state.to_act
    honest = {"t": "action", "seq": 0, "action": {"type": "ChooseOrder", "side": side,
                                                   "go_first": True}}
    (a if side == "Axis" else b).send and await (a if side == "Axis" else b).send(
        json.dumps(honest))
    await asyncio.sleep(0.2)
    await a.close()
    await b.close()
    hist_before = list(g.actions)
    to_act = g.game.state.to_act
    other = "Allies" if to_act == "Axis" else "Axis"
    tokens = {"Axis": created["token"], "Allies": wb["token"]}
    seat_conn = {s: Conn(url, {"t": "hello", "v": 2, "game": g.id, "seat": s, "token": tokens[s]},
                         stats) for s in ("Axis", "Allies")}
    legal = [x for x in g.game.legal_actions()]
    from game.rules.actions import action_to_dict
    templates = [honest, {"t": "army", "cards": spec.armies["Axis"], "salt": "c" * 32},
                 {"t": "hash", "seq": 0, "hash": "a" * 64},
                 {"t": "action", "seq": 1, "action": action_to_dict(legal[0])}]
    for i in range(n):
        kind = i % 10
        if kind == 0:
            await seat_conn[to_act].bad(garbage(rng))
        elif kind == 1:
            await seat_conn[other].bad(mutate(rng, rng.choice(templates)))
        elif kind == 2:                                   # forged token / wrong battle / code
            c = Conn(url, None, stats)
            r = rng.random()
            if r < 0.4:
                m = {"t": "hello", "v": 2, "game": g.id, "seat": rng.choice(["Axis", "Allies"]),
                     "token": "".join(rng.choice("abcdefXYZ0123_-") for _ in range(32))}
            elif r < 0.6:
                m = {"t": "hello", "v": 2, "game": "feedbeef", "seat": "Axis",
                     "token": tokens["Axis"]}
            elif r < 0.8:
                m = {"t": "join", "v": 2, "code": "".join(rng.choice("ABCDEFGH23456789")
                                                          for _ in range(6))}
            else:
                m = {"t": "action", "seq": 1, "action": action_to_dict(legal[0])}
            await c.bad(m)
            if c.ws is not None:
                await c.ws.close()
        elif kind == 3:                                   # acting for the other side
            await seat_conn[other].bad({"t": "action", "seq": 1,
                                        "action": action_to_dict(rng.choice(legal))})
        elif kind == 4:                                   # not your turn
            await seat_conn[other].bad({"t": "action", "seq": 1, "action": {
                "type": "EndPhase", "side": other}})
        elif kind == 5:                                   # an illegal action
            await seat_conn[to_act].bad({"t": "action", "seq": 1, "action": {
                "type": "Attack", "side": to_act, "uid": f"{to_act.lower()}-1",
                "target": f"{other.lower()}-{rng.randint(1, 20)}"}})
        elif kind == 6:                                   # replayed / out of order
            await seat_conn[to_act].bad({"t": "action", "seq": rng.choice([0, 2, 7, 999]),
                                         "action": action_to_dict(legal[0])})
        elif kind == 7 and i % 100 == 7:                  # oversized frame
            await seat_conn[to_act].bad("x" * (MAX_MESSAGE_BYTES + rng.randint(1, 1000)))
        elif kind == 8:                                   # the battle's hash forged
            await seat_conn[other].bad({"t": "army", "cards": ["Nonexistent Tank"] * 3})
        else:
            await seat_conn[to_act].bad(mutate(rng, honest))
    for c in seat_conn.values():
        if c.ws is not None:
            await c.ws.close()
    # still serving: a seat comes back and plays an honest action
    c = Conn(url, {"t": "hello", "v": 2, "game": g.id, "seat": to_act, "token": tokens[to_act]},
             stats)
    await c.open()
    await c.ws.send(json.dumps({"t": "action", "seq": 1, "action": action_to_dict(legal[0])}))
    alive = await c.answer() == "played"
    await c.ws.close()
    server.close()
    forged = len(g.actions) != len(hist_before) + 1 or g.actions[:len(hist_before)] != hist_before
    stats["accepted"] -= 0
    return {"alive": alive, "forged": int(forged)}


async def host_part(n: int, rng: random.Random, stats: dict) -> dict:
    spec = spec_for(1, 9, turn_limit=1)
    hp = Peer("Axis", scenario="standard", config=spec.config, options=spec.options,
              army=spec.armies["Axis"])
    host = await DirectHost(hp, "127.0.0.1", 0).start()
    url = f"ws://127.0.0.1:{host.port}"
    from game.net.dice import HashChain
    mine = HashChain()
    ws = await connect(url)
    await ws.send(json.dumps({"t": "join", "v": 2, "code": host.code}))
    w = json.loads(await ws.recv())
    token = w["token"]
    salt = "ab" * 16
    army = spec.armies["Allies"]
    pts, cnt = army_summary(army_from_names("Allies", army, "standard", spec.options))
    await ws.send(json.dumps({"t": "commit", "root": mine.root}))
    await ws.send(json.dumps({"t": "army_commit", "digest": army_digest(army, salt),
                              "points": pts, "count": cnt}))
    await ws.send(json.dumps({"t": "army_reveal", "cards": army, "salt": salt}))
    await ws.send(json.dumps({"t": "reveal", "k": 0, "value": mine.reveal(0)}))
    await asyncio.sleep(0.5)
    await ws.close()
    assert hp.game is not None, "the host's battle did not start"
    hist0, rolls0, count0 = len(hp.game.history), list(hp.dice.table), hp.dice.theirs.count
    conn = Conn(url, {"t": "hello", "v": 2, "game": host.game_id, "seat": "Allies",
                      "token": token}, stats)
    for i in range(n):
        kind = i % 6
        if kind == 0:
            await conn.bad(garbage(rng))
        elif kind == 1:                                   # a forged dice reveal
            await conn.bad({"t": "reveal", "k": count0,
                            "value": "".join(rng.choice("0123456789abcdef") for _ in range(64))})
        elif kind == 2:                                   # acting for the host
            await conn.bad({"t": "action", "seq": hist0, "action": {
                "type": "ChooseOrder", "side": "Axis", "go_first": False}})
        elif kind == 3:                                   # a forged seat token
            c = Conn(url, None, stats)
            await c.bad({"t": "hello", "v": 2, "game": host.game_id, "seat": "Allies",
                         "token": "t" * 32})
        elif kind == 4:                                   # changing a commitment
            await conn.bad(rng.choice([{"t": "commit", "root": "f" * 64},
                                       {"t": "army_commit", "digest": "e" * 64, "points": 1,
                                        "count": 1}]))
        else:
            await conn.bad(mutate(rng, {"t": "reveal", "k": count0, "value": "0" * 64}))
    await asyncio.sleep(0.3)
    if conn.ws is not None:
        await conn.ws.close()
    forged = int(len(hp.game.history) != hist0 or hp.dice.table != rolls0
                 or hp.dice.theirs.count != count0 or hp.stopped is not None)
    alive = hp._worker is not None and not hp._worker.done()
    await host.close()
    if hp._worker is not None:
        hp._worker.cancel()
    return {"alive": alive, "forged": forged}


async def run(args) -> int:
    rng = random.Random(args.seed)
    crashes = Crashes()
    logging.getLogger("websockets").addHandler(crashes)
    logging.getLogger("asyncio").addHandler(crashes)
    stats = {"sent": 0, "answered": 0, "closed": 0, "unanswered": 0, "accepted": 0}
    t0 = time.perf_counter()
    r1 = await relay_part(int(args.n * 0.7), rng, stats)
    relay_sent = stats["sent"]
    r2 = await host_part(args.n - int(args.n * 0.7), rng, stats)
    dt = time.perf_counter() - t0
    crash = crashes.n + (not r1["alive"]) + (not r2["alive"])
    forged = r1["forged"] + r2["forged"] + stats["accepted"]
    print(f"relay: {relay_sent} bad messages, still serving: {r1['alive']}; direct host: "
          f"{stats['sent'] - relay_sent}, still playing: {r2['alive']} ({dt:.1f} s)")
    if crashes.n:
        print("first logged error:", crashes.first)
    print(f"sent: {stats['sent']}, answered: {stats['answered']}, closed: {stats['closed']}, "
          f"unanswered: {stats['unanswered']}, crashes: {crash}, accepted forgeries: {forged}")
    return 0 if crash == 0 and forged == 0 and stats["unanswered"] == 0 else 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    return asyncio.run(run(ap.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
