"""Lockstep (issue 16): the position hashes are compared after every action; a
mismatch stops the battle on both machines with a clear message and a save on
each side for the bug report."""
import asyncio
import json

from game.net.client import RelayClient
from game.net.direct import DirectHost, Peer, join
from game.net.headless import spec_for
from game.net.relay import Relay, serve_relay


def run(coro, timeout=300):   # only a hang reaches it
    return asyncio.run(asyncio.wait_for(coro, timeout))


def corrupt(game):
    """A bug on one machine: its copy of a unit turned without any action."""
    u = next(u for u in game.state.units.values() if u.on_map)
    u.facing = (u.facing + 3) % 6
    game.state.touch()


def test_direct_desync_stops_both_machines_with_a_save_each(tmp_path):
    spec = spec_for(6, 1, turn_limit=1)

    async def main():
        hp = Peer("Axis", scenario="standard", config=spec.config, options=spec.options,
                  player=spec.player("Axis"), army=spec.armies["Axis"], save_dir=tmp_path)
        host = await DirectHost(hp, "127.0.0.1", 0).start()
        made = []

        def factory(w):
            p = Peer(w["seat"], scenario=w["scenario"], config=w["config"],
                     options=w["options"], player=spec.player(w["seat"]),
                     army=spec.armies[w["seat"]], save_dir=tmp_path)
            made.append(p)
            return p
        jt = asyncio.ensure_future(join(f"127.0.0.1:{host.port}", host.code, factory))
        while not made or len(made[0].hashes) < 30:
            await asyncio.sleep(0.005)
        corrupt(made[0].game)
        jp = await jt
        await asyncio.wait_for(hp.done.wait(), 60)
        await host.close()
        return hp, jp

    hp, jp = run(main())
    assert hp.stopped and jp.stopped
    assert "positions differ" in hp.stopped or "positions differ" in jp.stopped
    saves = sorted(p.name for p in tmp_path.glob("net-*.json"))
    assert len(saves) == 2 and {"axis", "allies"} == {n.rsplit("-", 1)[1][:-5] for n in saves}
    for p in tmp_path.glob("net-*.json"):
        d = json.loads(p.read_text())
        assert d["note"] and d["actions"] and "chain_secret" not in json.dumps(d)


def test_relay_desync_stops_both_seats_with_a_save_each(tmp_path):
    spec = spec_for(6, 2, turn_limit=1)

    async def main():
        relay = Relay(tmp_path / "store")
        server = await serve_relay(relay, "127.0.0.1", 0)
        url = f"ws://127.0.0.1:{server.sockets[0].getsockname()[1]}"
        a = RelayClient(url, player=spec.player("Axis"), army=spec.armies["Axis"],
                        save_dir=tmp_path / "a",
                        create={"scenario": "standard", "config": spec.config, "seat": "Axis",
                                "options": spec.options})
        ta = asyncio.ensure_future(a.run())
        await asyncio.wait_for(a.ready.wait(), 60)
        b = RelayClient(url, player=spec.player("Allies"), army=spec.armies["Allies"],
                        code=a.st.code, save_dir=tmp_path / "b")
        tb = asyncio.ensure_future(b.run())
        while len(b.hashes) < 30:
            await asyncio.sleep(0.005)
        corrupt(b.game)
        await asyncio.gather(ta, tb)
        server.close()
        return a, b, relay.games[a.st.game_id]

    a, b, g = run(main())
    assert a.st.desync and b.st.desync and g.status == "desync"
    assert "differs" in a.st.desync
    assert list((tmp_path / "a").glob("net-*.json")) and list((tmp_path / "b").glob("net-*.json"))
