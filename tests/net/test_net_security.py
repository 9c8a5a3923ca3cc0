"""Security of network play (issue 16): seat tokens, invitations, the rules checking
every action on every machine, size and rate limits, bad messages answered."""
import asyncio
import json

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from game.net.direct import DirectHost, Peer
from game.net.headless import spec_for
from game.net.messages import MAX_MESSAGE_BYTES
from game.net.relay import Relay, serve_relay


def run(coro, timeout=300):   # only a hang reaches it
    return asyncio.run(asyncio.wait_for(coro, timeout))


NOISE = {"record", "turn", "army_info", "armies", "begin", "opponent", "chat", "commit", "army_commit",
         "resume"}


async def talk(ws, msg):
    """Send, then the answer (skipping the relay's news: turn, record, opponent...)."""
    await ws.send(msg if isinstance(msg, (str, bytes)) else json.dumps(msg))
    while True:
        m = json.loads(await asyncio.wait_for(ws.recv(), 60))
        if m["t"] not in NOISE:
            return m


async def until(ws, t):
    while True:
        m = json.loads(await asyncio.wait_for(ws.recv(), 60))
        if m["t"] == t:
            return m


async def relay_with_battle(tmp_path, spec):
    relay = Relay(tmp_path / "store", rate=1000, burst=1000)
    server = await serve_relay(relay, "127.0.0.1", 0)
    url = f"ws://127.0.0.1:{server.sockets[0].getsockname()[1]}"
    a = await connect(url)
    created = await talk(a, {"t": "create", "v": 2, "scenario": "standard",
                             "config": spec.config, "seat": "Axis", "options": spec.options})
    b = await connect(url)
    await b.send(json.dumps({"t": "join", "v": 2, "code": created["code"]}))
    welcome_b = await until(b, "welcome")
    await a.send(json.dumps({"t": "army", "cards": spec.armies["Axis"], "salt": "a" * 32}))
    await b.send(json.dumps({"t": "army", "cards": spec.armies["Allies"], "salt": "b" * 32}))
    await until(a, "begin")
    await until(b, "begin")
    return relay, server, url, a, b, created, welcome_b


def test_seat_tokens_and_invitations(tmp_path):
    spec = spec_for(0, 2, turn_limit=1)

    async def main():
        relay, server, url, a, b, created, wb = await relay_with_battle(tmp_path, spec)
        out = {}
        async with connect(url) as c:                # the join code works once only
            out["reuse"] = await talk(c, {"t": "join", "v": 2, "code": created["code"]})
        async with connect(url) as c:                # someone else's seat, guessed token
            out["forged"] = await talk(c, {"t": "hello", "v": 2, "game": created["game"],
                                           "seat": "Allies", "token": "x" * 32})
        async with connect(url) as c:                # the creator's token, the other seat
            out["swap"] = await talk(c, {"t": "hello", "v": 2, "game": created["game"],
                                         "seat": "Allies", "token": created["token"]})
        async with connect(url) as c:
            out["good"] = await talk(c, {"t": "hello", "v": 2, "game": created["game"],
                                         "seat": "Allies", "token": wb["token"]})
        server.close()
        return out

    out = run(main())
    assert out["reuse"]["t"] == "error" and "no battle is waiting" in out["reuse"]["text"]
    assert out["forged"]["t"] == "error" and "only rejoin your own seat" in out["forged"]["text"]
    assert out["swap"]["t"] == "error"
    assert out["good"]["t"] == "welcome" and out["good"]["seat"] == "Allies"


def test_the_relay_refuses_forged_illegal_and_out_of_order_actions(tmp_path):
    spec = spec_for(0, 2, turn_limit=1)

    async def main():
        relay, server, url, a, b, created, wb = await relay_with_battle(tmp_path, spec)
        g = relay.games[created["game"]]
        to_act = g.game.state.to_act
        mover, other = (a, b) if to_act == "Axis" else (b, a)
        other_side = "Allies" if to_act == "Axis" else "Axis"
        out = {}
        # acting for the other side
        out["for_other"] = await talk(other, {"t": "action", "seq": 0, "action": {
            "type": "ChooseOrder", "side": to_act, "go_first": True}})
        # not your turn
        out["not_turn"] = await talk(other, {"t": "action", "seq": 0, "action": {
            "type": "ChooseOrder", "side": other_side, "go_first": True}})
        # an action the rules refuse
        out["illegal"] = await talk(mover, {"t": "action", "seq": 0, "action": {
            "type": "EndPhase", "side": to_act}})
        # out of order (a replay of the future / the past)
        out["order"] = await talk(mover, {"t": "action", "seq": 5, "action": {
            "type": "ChooseOrder", "side": to_act, "go_first": True}})
        out["garbage"] = await talk(mover, b"\x00\xff garbage")
        n_before = len(g.actions)
        out["good"] = await talk(mover, {"t": "action", "seq": 0, "action": {
            "type": "ChooseOrder", "side": to_act, "go_first": True}})
        out["replayed"] = await talk(mover, {
            "t": "action", "seq": 0, "action": {"type": "ChooseOrder", "side": to_act,
                                                "go_first": True}})
        out["n"] = (n_before, len(g.actions))
        server.close()
        return out

    out = run(main())
    assert "you play the" in out["for_other"]["text"]
    assert "not your turn" in out["not_turn"]["text"]
    assert out["illegal"]["t"] == "error" and "rules refuse" in out["illegal"]["text"]
    assert "out of order" in out["order"]["text"]
    assert out["garbage"]["t"] == "error"                  # answered; the connection lives
    assert out["good"]["t"] == "played"
    assert "out of order" in out["replayed"]["text"]
    assert out["n"] == (0, 1)                               # only the good action counted


def test_oversized_messages_close_cleanly_and_too_many_bad_messages_close(tmp_path):
    spec = spec_for(0, 2, turn_limit=1)

    async def main():
        relay, server, url, a, b, created, wb = await relay_with_battle(tmp_path, spec)
        codes = {}
        await a.send("x" * (MAX_MESSAGE_BYTES + 10))
        try:
            while True:
                await asyncio.wait_for(a.recv(), 60)
        except ConnectionClosed as exc:
            codes["oversized"] = exc.rcvd.code if exc.rcvd else None
        n = 0
        try:
            for _ in range(200):
                await b.send("{bad")
                n += 1
                m = json.loads(await asyncio.wait_for(b.recv(), 60))
                while m["t"] != "error":
                    m = json.loads(await asyncio.wait_for(b.recv(), 60))
        except ConnectionClosed as exc:
            codes["bad"] = exc.rcvd.code if exc.rcvd else None
        codes["n"] = n
        # the relay still serves the battle
        async with connect(url) as c:
            codes["after"] = (await talk(c, {"t": "hello", "v": 2, "game": created["game"],
                                             "seat": "Axis", "token": created["token"]}))["t"]
        server.close()
        return codes

    codes = run(main())
    assert codes["oversized"] == 1009
    assert codes["bad"] == 1008 and codes["n"] <= 60
    assert codes["after"] == "welcome"


def test_rate_limit(tmp_path):
    async def main():
        relay = Relay(None, rate=5, burst=5)
        server = await serve_relay(relay, "127.0.0.1", 0)
        url = f"ws://127.0.0.1:{server.sockets[0].getsockname()[1]}"
        async with connect(url) as c:
            await talk(c, {"t": "create", "v": 2, "scenario": "standard", "config": 1,
                           "seat": "Axis"})
            for _ in range(20):
                await c.send(json.dumps({"t": "chat", "text": "hi"}))
            got = []                  # until the refusal (bounded by messages, not time)
            while not any(m["t"] == "error" and "slow down" in m["text"] for m in got) \
                    and len(got) < 40:
                got.append(json.loads(await asyncio.wait_for(c.recv(), 60)))
        server.close()
        return got

    got = run(main())
    assert any(m["t"] == "error" and "slow down" in m["text"] for m in got)


def test_the_direct_host_refuses_wrong_codes_and_forged_actions():
    spec = spec_for(0, 4, turn_limit=1)

    async def main():
        hp = Peer("Axis", scenario="standard", config=spec.config, options=spec.options,
                  army=spec.armies["Axis"])
        host = await DirectHost(hp, "127.0.0.1", 0).start()
        url = f"ws://127.0.0.1:{host.port}"
        out = {}
        async with connect(url) as c:
            out["wrong"] = await talk(c, {"t": "join", "v": 2, "code": "ZZZZZZ"})
        c = await connect(url)
        out["welcome"] = await talk(c, {"t": "join", "v": 2, "code": host.code})
        async with connect(url) as d:                 # a third party: the seat is taken
            out["third"] = await talk(d, {"t": "join", "v": 2, "code": host.code})
        out["forged_reveal"] = await talk(c, {"t": "reveal", "k": 0, "value": "0" * 64})
        out["for_host"] = await talk(c, {"t": "action", "seq": 0, "action": {
            "type": "EndPhase", "side": "Axis"}})
        await c.close()
        await host.close()
        return out, hp

    out, hp = run(main())
    assert out["wrong"]["t"] == "error" and "wrong join code" in out["wrong"]["text"]
    assert out["welcome"]["t"] == "welcome" and out["welcome"]["seat"] == "Allies"
    assert out["third"]["t"] == "error" and "already has" in out["third"]["text"]
    assert out["forged_reveal"]["t"] == "error"
    assert out["for_host"]["t"] == "error"
    assert hp.game is None                                 # nothing was accepted


def test_chat_lines_are_checked_rate_limited_and_go_to_the_other_seat_only(tmp_path):
    """Issue 16's chat line: a chat message is validated like the rest (1-200 characters,
    no control characters), limited to a line a second (bursts of five) per seat, goes
    only to the other seat, and is refused - not lost silently - when that seat is away."""
    from game.net.messages import chat_problem
    spec = spec_for(0, 2, turn_limit=1)

    async def main():
        relay, server, url, a, b, created, wb = await relay_with_battle(tmp_path, spec)
        out = {}
        await a.send(json.dumps({"t": "chat", "text": "hello"}))
        out["b_got"] = await until(b, "chat")
        out["long"] = await talk(a, {"t": "chat", "text": "x" * 201})
        out["ctrl"] = await talk(a, {"t": "chat", "text": "bell\u0007"})
        for i in range(4):                                  # the burst of five
            await a.send(json.dumps({"t": "chat", "text": f"line {i}"}))
        out["flood"] = await talk(a, {"t": "chat", "text": "one too many"})
        await b.close()
        await asyncio.sleep(0.1)

        await asyncio.sleep(1.1)                            # the bucket refills
        out["away"] = await talk(a, {"t": "chat", "text": "anyone there?"})
        server.close()
        return out

    out = run(main())
    assert out["b_got"]["text"] == "hello"
    assert out["long"]["t"] == "error" and "200" in out["long"]["text"]
    assert out["ctrl"]["t"] == "error" and "control" in out["ctrl"]["text"]
    assert out["flood"]["t"] == "error" and out["flood"]["about"] == "chat"
    assert out["away"]["t"] == "error" and "not delivered" in out["away"]["text"]
    assert chat_problem("   ") and chat_problem("a\nb") and chat_problem("ok") is None


def test_a_battle_id_from_the_other_machine_cannot_put_a_save_outside_the_saves_folder(
        tmp_path, monkeypatch):
    """The battle id in a save's file name comes from the other machine (or the relay):
    it is cut to letters, digits, - and _ before it names a file."""
    from game.net.bridge import continue_path
    from game.net.session import file_part
    monkeypatch.setenv("HEXFRONT_DATA_DIR", str(tmp_path / "data"))
    p = continue_path("../../../x/y", "Allies")
    assert p.parent == tmp_path / "data" / "saves" / "network"
    assert p.name == "continue-xy-allies.json"
    assert file_part("..", "direct") == "direct" and file_part("ab12-x_Y") == "ab12-x_Y"


def test_a_status_question_needs_the_seats_token_and_tells_the_other_seat_nothing(tmp_path):
    """``status`` (is my battle still on?): with the seat's token the relay answers
    ``state`` and closes; with a wrong token it refuses like a hello; the seat's own
    connection is not replaced (as a hello would) and nobody is told anyone came."""
    async def main():
        relay = Relay(None)
        server = await serve_relay(relay, "127.0.0.1", 0)
        url = f"ws://127.0.0.1:{server.sockets[0].getsockname()[1]}"
        out = {}
        async with connect(url) as c:
            created = await talk(c, {"t": "create", "v": 2, "scenario": "standard",
                                     "config": 1, "seat": "Axis"})
            async with connect(url) as q:
                out["good"] = await talk(q, {"t": "status", "v": 2, "game": created["game"],
                                             "seat": "Axis", "token": created["token"]})
            async with connect(url) as q:
                out["bad"] = await talk(q, {"t": "status", "v": 2, "game": created["game"],
                                            "seat": "Axis", "token": "x" * 32})
            await c.send(json.dumps({"t": "chat", "text": "still here"}))
            while True:
                m = json.loads(await asyncio.wait_for(c.recv(), 60))
                if m["t"] not in NOISE | {"welcome"}:
                    out["next"] = m
                    break
        server.close()
        return out

    out = run(main())
    assert out["good"] == {"t": "state", "game": out["good"]["game"], "status": "open"}
    assert out["bad"]["t"] == "error" and "do not match" in out["bad"]["text"]
    # the seat's own connection goes on untouched (not replaced, as a hello would)
    assert out["next"]["t"] == "error" and "away" in out["next"]["text"], out["next"]
