"""Two real clients and the relay (or a direct host) on loopback, through whole
short battles: a defensive-fire prompt answered remotely, a disconnect, a resume,
the same final position on both machines and in a local replay (issue 16)."""
import asyncio

from game.net.client import RelayClient
from game.net.direct import DirectHost, Peer, join
from game.net.headless import local_direct_reference, local_relay_reference, spec_for
from game.net.relay import Relay, serve_relay
from game.rules.actions import DefensiveFire, Move, PassDefensiveFire


def run(coro, timeout=300):   # only a hang reaches it
    return asyncio.run(asyncio.wait_for(coro, timeout))


def _remote_defensive_fire(history):
    """(mover side, defender side) pairs where the defender answered a prompt."""
    out = []
    for prev, a in zip(history, history[1:]):
        if isinstance(a, (DefensiveFire, PassDefensiveFire)) and isinstance(prev, Move) \
                and prev.side != a.side:
            out.append((prev.side, a.side))
    return out


def test_relay_battle_with_remote_defensive_fire_disconnect_and_resume(tmp_path):
    spec = spec_for(0, 7, turn_limit=2)

    async def main():
        relay = Relay(tmp_path / "store", seeds=lambda: (4242, "ab" * 16))  # reproducible
        server = await serve_relay(relay, "127.0.0.1", 0)
        url = f"ws://127.0.0.1:{server.sockets[0].getsockname()[1]}"
        a = RelayClient(url, player=spec.player("Axis"), army=spec.armies["Axis"],
                        create={"scenario": "standard", "config": spec.config, "seat": "Axis",
                                "options": spec.options})
        ta = asyncio.ensure_future(a.run())
        await asyncio.wait_for(a.ready.wait(), 60)
        b = RelayClient(url, player=spec.player("Allies"), army=spec.armies["Allies"],
                        code=a.st.code)
        tb = asyncio.ensure_future(b.run())
        while len(b.hashes) < 40:                      # mid-battle: the Allied machine drops
            await asyncio.sleep(0.01)
        b.abort()
        await tb
        while a.st.opponent != "away":                 # the relay tells the Axis machine
            await asyncio.sleep(0.01)
        # the Allied player comes back from nothing (a restarted game): token only
        b2 = RelayClient(url, player=spec.player("Allies"), game_id=b.st.game_id,
                         seat="Allies", token=b.st.token)
        await asyncio.gather(ta, b2.run())
        server.close()
        return a, b2

    a, b2 = run(main())
    assert a.st.over is not None and a.st.desync is None and b2.st.desync is None
    assert a.game.state_hash() == b2.game.state_hash()
    assert a.st.audit == "ok" and b2.st.audit == "ok"          # every relay roll checks out
    ref = local_relay_reference(spec, a.st.seed)
    assert ref.state_hash() == a.game.state_hash()
    assert _remote_defensive_fire(a.game.history), "no defensive fire was answered"
    assert b2.st.reconnects == 0 and len(b2.hashes) == len(a.hashes)


def test_direct_battle_with_disconnect_and_reconnect():
    # a seeded battle whose AI armies and dice give the joiner a defensive-fire prompt
    # (the army builder's choices decide that: pick another seed if the builder changes)
    spec = spec_for(1, 1, turn_limit=2)

    async def main():
        seen = []
        hp = Peer("Axis", scenario="standard", config=spec.config, options=spec.options,
                  player=spec.player("Axis"), army=spec.armies["Axis"], chain=spec.chain("Axis"),
                  on_event=lambda kind, d: seen.append((kind, d.get("status"))))
        host = await DirectHost(hp, "127.0.0.1", 0).start()
        made = []

        def factory(w):
            p = Peer(w["seat"], scenario=w["scenario"], config=w["config"],
                     options=w["options"], player=spec.player(w["seat"]),
                     army=spec.armies[w["seat"]], chain=spec.chain(w["seat"]))
            made.append(p)
            return p
        jt = asyncio.ensure_future(join(f"127.0.0.1:{host.port}", host.code, factory))
        while not made or len(made[0].hashes) < 30:
            await asyncio.sleep(0.01)
        made[0].ws.transport.abort()                  # the line drops mid-battle
        jp = await jt
        await asyncio.wait_for(hp.done.wait(), 60)
        await host.close()
        return hp, jp, seen

    hp, jp, seen = run(main())
    assert ("opponent", "away") in seen                     # the host noticed the drop
    assert seen.count(("opponent", "connected")) >= 2      # ... and the reconnect
    assert hp.stopped is None and jp.stopped is None
    assert hp.game.over and hp.game.state_hash() == jp.game.state_hash()
    ref = local_direct_reference(spec, len(hp.dice.table) + 8)
    assert ref.state_hash() == hp.game.state_hash()
    assert _remote_defensive_fire(hp.game.history)


class StopAt:
    """An AI that stops choosing once the battle has ``n`` actions (a quiet moment)."""

    def __init__(self, player, n):
        self.player, self.n = player, n

    def choose(self, game):
        return None if len(game.history) >= self.n else self.player.choose(game)


def test_direct_battle_saved_and_continued_another_day(tmp_path):
    from game.net.session import read_net_save
    spec = spec_for(5, 3, turn_limit=1)

    async def first_day():
        hp = Peer("Axis", scenario="standard", config=spec.config, options=spec.options,
                  player=StopAt(spec.player("Axis"), 40), army=spec.armies["Axis"],
                  chain=spec.chain("Axis"), save_dir=tmp_path)
        host = await DirectHost(hp, "127.0.0.1", 0).start()
        made = []

        def factory(w):
            p = Peer(w["seat"], scenario=w["scenario"], config=w["config"],
                     options=w["options"], player=StopAt(spec.player(w["seat"]), 40),
                     army=spec.armies[w["seat"]], chain=spec.chain(w["seat"]),
                     save_dir=tmp_path)
            made.append(p)
            return p
        jt = asyncio.ensure_future(join(f"127.0.0.1:{host.port}", host.code, factory))
        while not made or len(made[0].hashes) < 40 or len(hp.hashes) < 40:
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.1)
        paths = hp.save(to_continue=True), made[0].save(to_continue=True)
        jt.cancel()
        await host.close()
        for p in (hp, made[0]):
            p._worker.cancel()
        return paths

    hpath, jpath = run(first_day())

    async def next_day():
        hp = Peer.from_save(read_net_save(hpath), player=spec.player("Axis"))
        jp = Peer.from_save(read_net_save(jpath), player=spec.player("Allies"))
        assert len(hp.hashes) == len(jp.hashes) == 40
        host = await DirectHost(hp, "127.0.0.1", 0).start()
        done = await join(f"127.0.0.1:{host.port}", None, None, token=jp.token,
                          game_id=jp.game_id, seat=jp.seat, peer=jp)
        await asyncio.wait_for(hp.done.wait(), 60)
        await host.close()
        return hp, done

    hp, jp = run(next_day())
    assert hp.game.over and hp.stopped is None and jp.stopped is None
    assert hp.game.state_hash() == jp.game.state_hash()
    ref = local_direct_reference(spec, len(hp.dice.table) + 8)
    assert ref.state_hash() == hp.game.state_hash()       # the same rolls after the reload


def test_direct_battle_where_each_machine_is_killed_and_restarted_from_its_file(tmp_path):
    """Faults in direct play (the short version of bench/net_faults.py --direct-kills):
    each machine keeps a continue-file after every step (its own action written before
    it is sent); the joiner and then the host are "killed" at arbitrary moments - their
    Peer and connection thrown away without a goodbye - and restarted from nothing but
    that file (the host on the same port).  The battle finishes, both machines hold the
    same final position, and the record replays to it."""
    from game.net.session import read_net_save, replay_record
    spec = spec_for(6, 2, turn_limit=1)
    files = {"Axis": tmp_path / "host.json", "Allies": tmp_path / "join.json"}

    def kill(p):
        if p._worker is not None:
            p._worker.cancel()
        if p.ws is not None and p.ws.transport is not None:
            p.ws.transport.abort()

    async def main():
        hp = Peer("Axis", scenario="standard", config=spec.config, options=spec.options,
                  player=spec.player("Axis"), army=spec.armies["Axis"], autosave=files["Axis"])
        host = await DirectHost(hp, "127.0.0.1", 0).start()
        port, made = host.port, []

        def factory(w):
            made.append(Peer(w["seat"], scenario=w["scenario"], config=w["config"],
                             options=w["options"], player=spec.player(w["seat"]),
                             army=spec.armies[w["seat"]], autosave=files["Allies"]))
            return made[-1]
        jt = asyncio.ensure_future(join(f"127.0.0.1:{port}", host.code, factory))
        while not made or len(made[0].hashes) < 25:
            await asyncio.sleep(0.005)
        jt.cancel()                                   # the joining machine dies
        kill(made[0])
        jp = Peer.from_save(read_net_save(files["Allies"]), player=spec.player("Allies"),
                            autosave=files["Allies"])
        jt = asyncio.ensure_future(join(f"127.0.0.1:{port}", None, None, token=jp.token,
                                        game_id=jp.game_id, seat=jp.seat, peer=jp))
        while len(hp.hashes) < 45:
            await asyncio.sleep(0.005)
        kill(hp)                                      # the hosting machine dies
        await host.close()
        hp = Peer.from_save(read_net_save(files["Axis"]), player=spec.player("Axis"),
                            autosave=files["Axis"])
        host = await DirectHost(hp, "127.0.0.1", port).start()
        jp = await asyncio.wait_for(jt, 60)
        await asyncio.wait_for(hp.done.wait(), 60)
        await host.close()
        return hp, jp

    hp, jp = run(main())
    assert hp.stopped is None and jp.stopped is None
    assert hp.game.over and hp.game.state_hash() == jp.game.state_hash()
    d = read_net_save(files["Allies"])
    again = replay_record(d["scenario"], d["config"], d["options"], d["armies"], d["actions"],
                          d["rolls"], d["hashes"])
    assert again.state_hash() == hp.game.state_hash()


def _later_spec(seed):
    """A short later-edition battle (Aircraft and Antiair allowed) on battlefield 1-3."""
    import random
    from game.ai.army_builder import build_army
    from game.data.units import load_roster
    from game.net.headless import BattleSpec
    from game.rules.army import playable_cards
    roster = playable_cards(load_roster(edition="later").values(), "later")
    rng = random.Random(seed)
    armies = {side: [c.name for c in build_army(roster, side, 100, rng=rng).cards]
              for side in ("Axis", "Allies")}
    return BattleSpec(0, seed, 1 + seed % 3, armies, {"turn_limit": 1, "edition": "later"})


def test_the_hosts_later_edition_is_played_on_both_machines_directly_and_through_a_relay(
        tmp_path):
    """Issue 16 with the later edition (game.rules.later): the host's edition choice is in
    the options, both machines (and the relay) play the later edition on its own
    battlefield, and the final positions agree with a local battle."""
    from game.data.later_maps import load_later_configuration
    from game.net.headless import direct_battle, relay_battle
    spec = _later_spec(3)

    async def main():
        relay = Relay(tmp_path / "store")
        server = await serve_relay(relay, "127.0.0.1", 0)
        url = f"ws://127.0.0.1:{server.sockets[0].getsockname()[1]}"
        r = await relay_battle(url, spec, timeout=240)
        d = await direct_battle(spec, timeout=240)
        server.close()
        return r, d

    r, d = run(main())
    for res in (r, d):
        assert res.desync is None and not res.errors and res.hashes_equal, res
    ref = local_relay_reference(spec, r.seed)
    assert ref.state_hash() == r.final_hash
    assert ref.state.options.get("edition") == "later"
    assert ref.state.battle_map.name == load_later_configuration(spec.config).name


def test_a_configuration_the_edition_lacks_is_refused_with_a_reason():
    import pytest
    from game.net.messages import ProtocolError
    from game.net.session import check_config, net_options
    check_config(6, net_options("standard", {}))
    check_config(3, net_options("standard", {"edition": "later"}))
    with pytest.raises(ProtocolError, match="1-3 in this edition"):
        check_config(4, net_options("standard", {"edition": "later"}))
    with pytest.raises(ProtocolError, match="edition"):
        net_options("standard", {"edition": "third"})


def test_direct_line_dropping_as_an_attack_is_sent_does_not_stall_the_battle():
    """Found playing two screens (bench/net_play_ui.py): the line drops just as a machine
    sends an Attack - the other never gets it - while this machine's rules wait for the
    other's part of the attack's rolls.  On reconnecting, the action is sent again
    (``resume``), so neither waits for the other for ever."""
    spec = spec_for(2, 4, turn_limit=1)

    class DropsTheLineOnItsAttack(Peer):
        dropped_at = None

        async def send(self, msg):
            if self.dropped_at is None and msg.get("t") == "action" and msg["seq"] >= 20 \
                    and msg["action"]["type"] == "Attack":
                self.dropped_at = msg["seq"]
                self.ws.transport.abort()          # lost with the line, never delivered
                return
            await super().send(msg)

    async def main():
        hp = DropsTheLineOnItsAttack("Axis", scenario="standard", config=spec.config,
                                     options=spec.options, player=spec.player("Axis"),
                                     army=spec.armies["Axis"], chain=spec.chain("Axis"))
        host = await DirectHost(hp, "127.0.0.1", 0).start()

        def factory(w):
            return Peer(w["seat"], scenario=w["scenario"], config=w["config"],
                        options=w["options"], player=spec.player(w["seat"]),
                        army=spec.armies[w["seat"]], chain=spec.chain(w["seat"]))
        jp = await join(f"127.0.0.1:{host.port}", host.code, factory)
        await asyncio.wait_for(hp.done.wait(), 60)
        await host.close()
        return hp, jp

    hp, jp = run(main())
    assert hp.dropped_at is not None, "the Axis machine never attacked"
    assert hp.stopped is None and jp.stopped is None
    assert hp.game.over and hp.game.state_hash() == jp.game.state_hash()
    ref = local_direct_reference(spec, len(hp.dice.table) + 8)
    assert ref.state_hash() == hp.game.state_hash()
