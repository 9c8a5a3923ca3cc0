"""Secret armies in network play (issue 16; rulebook: Army-Building Etiquette - "Construct
your army in secret ... You reveal your army when setting up the battle. If you deploy
second, you may not change the composition of your army"): before deployment the other
machine learns only points, unit count and a commitment (sha256 of the cards and a
secret salt); deployment reveals the army, and the reveal must match the commitment.
Neither the relay nor a direct host leaks an army early, and nobody can change an army
once committed."""
import asyncio
import json

import pytest
from websockets.asyncio.client import connect

from game.net.client import RelayClient
from game.net.direct import DirectHost, Peer, join
from game.net.headless import spec_for
from game.net.messages import ProtocolError
from game.net.relay import Relay, serve_relay
from game.net.session import army_digest, army_summary, armies_from_names, reveal_due
from game.rules.state import Phase


def run(coro, timeout=300):   # only a hang reaches it
    return asyncio.run(asyncio.wait_for(coro, timeout))


def names_in(text: str, names: list[str], exclude: list[str]) -> list[str]:
    return [n for n in set(names) - set(exclude) if json.dumps(n)[1:-1] in text]


def test_the_relay_tells_only_points_units_and_a_commitment_until_deployment(tmp_path):
    spec = spec_for(1, 3, turn_limit=1)
    axis, allies = spec.armies["Axis"], spec.armies["Allies"]

    async def main():
        relay = Relay(tmp_path / "store")
        server = await serve_relay(relay, "127.0.0.1", 0)
        url = f"ws://127.0.0.1:{server.sockets[0].getsockname()[1]}"
        seen = {"Axis": [], "Allies": []}          # every message each seat received

        async def recv(ws, seat, until=None):
            while True:
                raw = await asyncio.wait_for(ws.recv(), 60)
                m = json.loads(raw)
                seen[seat].append((raw, m))
                if until is None or m["t"] == until:
                    return m
        a, b = await connect(url), await connect(url)
        await a.send(json.dumps({"t": "create", "v": 2, "scenario": "standard",
                                 "config": spec.config, "seat": "Axis",
                                 "options": spec.options}))
        created = await recv(a, "Axis", "created")
        await b.send(json.dumps({"t": "join", "v": 2, "code": created["code"]}))
        await recv(b, "Allies", "welcome")
        await a.send(json.dumps({"t": "army", "cards": axis, "salt": "1" * 32}))
        await b.send(json.dumps({"t": "army", "cards": allies, "salt": "2" * 32}))
        await recv(a, "Axis", "begin")
        await recv(b, "Allies", "begin")
        # the Axis player tries to change its army after the Allied one was committed
        await a.send(json.dumps({"t": "army", "cards": axis[:1], "salt": "3" * 32}))
        changed = await recv(a, "Axis", "error")
        g = relay.games[created["game"]]
        before = {s: len(seen[s]) for s in seen}
        ws = {"Axis": a, "Allies": b}
        # play the set-up choices until the battle reaches deployment
        while not g.game.state.units:
            side = g.game.state.to_act
            act = next(iter(g.game.legal_actions()))
            from game.rules.actions import action_to_dict
            await ws[side].send(json.dumps({"t": "action", "seq": len(g.actions),
                                            "action": action_to_dict(act)}))
            for s in ws:
                await recv(ws[s], s, "played")
        server.close()
        return created, changed, seen, before, g

    created, changed, seen, before, g = run(main())
    assert "can't change" in changed["text"]
    assert g.armies["Axis"] == axis                     # the first army stands
    for seat, own, theirs in (("Axis", axis, allies), ("Allies", allies, axis)):
        msgs = seen[seat]
        i_armies = next(i for i, (_, m) in enumerate(msgs) if m["t"] == "armies")
        # nothing before the reveal names a unit of the other army
        early = "".join(raw for raw, _ in msgs[:i_armies])
        assert names_in(early, theirs, own) == [], seat
        info = [m for _, m in msgs[:i_armies] if m["t"] == "army_info"]
        other = "Allies" if seat == "Axis" else "Axis"
        cards = armies_from_names(spec.armies, "standard", spec.options)
        pts, n = army_summary(cards[other])
        told = [m for m in info if m["side"] == other][-1]
        assert (told["points"], told["count"]) == (pts, n)
        # the reveal comes with the action that reaches deployment, and it matches the
        # commitment told before
        revealed = msgs[i_armies][1]
        assert revealed["armies"][other] == theirs
        assert army_digest(theirs, revealed["salts"][other]) == told["digest"]
        assert msgs[i_armies + 1][1]["t"] == "played"
        assert i_armies >= before[seat]                 # not before the set-up choices
    assert g.game.state.phase in (Phase.DEPLOY_FIRST, Phase.DEPLOY_SECOND)
    assert len(g.game.state.units) == len(axis) + len(allies)


def test_a_client_stops_when_the_revealed_army_is_not_the_committed_one():
    spec = spec_for(1, 3, turn_limit=1)
    c = RelayClient("ws://127.0.0.1:1", army=spec.armies["Axis"])
    c.st.seat, c.scenario, c.config, c.options = "Axis", "standard", spec.config, spec.options
    c.game = object()                         # the battle has begun (blind)
    c.digests = {"Axis": army_digest(spec.armies["Axis"], "a" * 32),
                 "Allies": army_digest(spec.armies["Allies"], "b" * 32)}
    swapped = dict(spec.armies, Allies=spec_for(2, 3).armies["Allies"])
    c._revealed(swapped, {"Axis": "a" * 32, "Allies": "b" * 32})
    assert c.st.desync and "not the one committed to" in c.st.desync
    assert c.armies is None


def test_a_direct_peer_refuses_a_reveal_that_differs_from_the_commitment():
    spec = spec_for(1, 3, turn_limit=1)
    p = Peer("Axis", scenario="standard", config=spec.config, options=spec.options)
    cards = armies_from_names(spec.armies, "standard", spec.options)
    pts, n = army_summary(cards["Allies"])
    p.their_commit = {"digest": army_digest(spec.armies["Allies"], "c" * 32), "points": pts,
                      "count": n}
    other = spec_for(2, 3).armies["Allies"]
    with pytest.raises(ProtocolError, match="not the one committed"):
        p._their_reveal_army({"cards": other, "salt": "c" * 32})
    with pytest.raises(ProtocolError, match="not the one committed"):
        p._their_reveal_army({"cards": spec.armies["Allies"], "salt": "d" * 32})
    assert "Allies" not in p.armies
    p._their_reveal_army({"cards": spec.armies["Allies"], "salt": "c" * 32})
    assert p.armies["Allies"] == spec.armies["Allies"]


def test_a_direct_host_reveals_its_army_only_once_the_battle_reaches_deployment():
    spec = spec_for(2, 4, turn_limit=1)
    host_names = spec.armies["Axis"]

    async def main():
        hp = Peer("Axis", scenario="standard", config=spec.config, options=spec.options,
                  player=spec.player("Axis"), army=host_names, chain=spec.chain("Axis"))
        host = await DirectHost(hp, "127.0.0.1", 0).start()
        seen = []

        def factory(w):
            p = Peer(w["seat"], scenario=w["scenario"], config=w["config"],
                     options=w["options"], player=spec.player("Allies"),
                     army=spec.armies["Allies"], chain=spec.chain("Allies"))
            real = p.on_message

            async def spy(msg):
                # what this machine knew of the battle when the message came in
                known = len(p.hashes) + p.inbox.qsize()
                seen.append((json.dumps(msg), msg["t"], known))
                return await real(msg)
            p.on_message = spy
            return p
        made = []
        t = asyncio.ensure_future(join(f"127.0.0.1:{host.port}", host.code,
                                       lambda w: made.append(factory(w)) or made[-1]))
        for _ in range(3000):          # until both machines deployed a few units
            if hp.game is not None and sum(u.hex is not None for u in hp.game.state.units
                                           .values()) >= 2 and made and \
                    len(made[0].hashes) >= len(hp.hashes) > 0:
                break
            await asyncio.sleep(0.01)
        jp = made[0]
        for p in (hp, jp):
            if p._worker is not None:
                p._worker.cancel()
        t.cancel()
        await host.close()
        return hp, jp, seen

    hp, jp, seen = run(main())
    assert hp.stopped is None and jp.stopped is None
    assert hp.hashes[:len(jp.hashes)] == jp.hashes[:len(hp.hashes)]
    # the action after which the battle is at deployment (the armies went in with it)
    from game.net.session import build_game
    from game.net.dice import TableDice
    g = build_game("standard", spec.config, spec.options, None, TableDice(list(hp.dice.table)))
    deploy_at = None
    for i, a in enumerate(hp.game.history):
        g.apply(a)
        if reveal_due(g):
            deploy_at = i
            break
    assert deploy_at is not None
    leaks = [(t, known) for text, t, known in seen
             if names_in(text, host_names, spec.armies["Allies"])]
    assert leaks and all(t == "army_reveal" for t, _ in leaks)
    assert all(known > deploy_at for _, known in leaks)   # only after that action arrived
    assert any(t == "army_commit" for _, t, _ in seen)    # the commitment came before
