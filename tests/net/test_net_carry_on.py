"""Carrying a direct battle on after a drop before deployment (army building, the set-up
choices), with the armies still secret: each machine's continue-file holds its own army
and only the other's commitment (docs/network.md, "Carrying a battle on")."""
import asyncio
import json

from game.net.bridge import saved_direct_battles
from game.net.direct import DirectHost, Peer, join
from game.net.headless import local_direct_reference, spec_for
from game.net.session import armies_from_names, read_net_save


def run(coro, timeout=300):   # only a hang reaches it
    return asyncio.run(asyncio.wait_for(coro, timeout))


class HoldAt:
    """An AI that makes no choice once the battle has ``n`` actions until ``gate["go"]``."""

    def __init__(self, player, n, gate):
        self.player, self.n, self.gate = player, n, gate

    def choose(self, game):
        if len(game.history) >= self.n and not self.gate.get("go"):
            return None
        return self.player.choose(game)


def kill(p):
    """A machine dies: its worker and connection thrown away without a goodbye."""
    if p._worker is not None:
        p._worker.cancel()
    if p.ws is not None and p.ws.transport is not None:
        p.ws.transport.abort()


def other_cards_in(path, own, other):
    """Card names of the other army found in a file (names both armies share excluded)."""
    text = path.read_text(encoding="utf-8")
    return [n for n in set(other) if n not in own and json.dumps(n) in text]


async def until(cond, seconds=60.0):
    t_end = asyncio.get_running_loop().time() + seconds
    while not cond():
        assert asyncio.get_running_loop().time() < t_end, "timed out"
        await asyncio.sleep(0.005)


def test_direct_battle_dropped_in_army_building_and_in_the_set_up_is_carried_on(tmp_path):
    """The joiner's machine dies while its player builds the army (the host's army
    committed), is restarted from its continue-file, its player builds the army then; the
    host's machine dies between the two set-up choices (the battle blind) and is
    restarted on the same port.  Neither file ever holds the other army's cards; the
    battle finishes on both machines at the same position, as the same battle played
    locally, and both continue-files are gone once it is over."""
    spec = spec_for(6, 2, turn_limit=1)
    files = {"Axis": tmp_path / "continue-b1-axis.json",
             "Allies": tmp_path / "continue-b1-allies.json"}
    gate, seen = {}, []

    async def main():
        hp = Peer("Axis", scenario="standard", config=spec.config, options=spec.options,
                  player=HoldAt(spec.player("Axis"), 1, gate), army=spec.armies["Axis"],
                  chain=spec.chain("Axis"), autosave=files["Axis"])
        host = await DirectHost(hp, "127.0.0.1", 0).start()
        hp.where = {"role": "host", "port": host.port}
        port, made = host.port, []

        def factory(w):          # the joiner's player has not built an army yet
            made.append(Peer(w["seat"], scenario=w["scenario"], config=w["config"],
                             options=w["options"], player=HoldAt(spec.player("Allies"), 1, gate),
                             chain=spec.chain("Allies"), autosave=files["Allies"]))
            made[-1].where = {"role": "join", "address": f"127.0.0.1:{port}"}
            return made[-1]
        jt = asyncio.ensure_future(join(f"127.0.0.1:{port}", host.code, factory))
        await until(lambda: files["Allies"].exists() and files["Axis"].exists()
                    and hp.their_commit is None)
        # army building: the joiner's machine dies before its player is done
        await until(lambda: made[0].opponent_army is not None)
        jt.cancel()
        kill(made[0])
        d = read_net_save(files["Allies"])
        assert [b["stage"] for b in saved_direct_battles(tmp_path)
                if b["seat"] == "Allies"] == ["army"]
        assert d["extra"]["my_army"] is None and d["extra"]["their_commit"]["count"] == \
            len(spec.armies["Axis"])
        assert not other_cards_in(files["Allies"], spec.armies["Allies"], spec.armies["Axis"])
        jp = Peer.from_save(read_net_save(files["Allies"]), player=HoldAt(
            spec.player("Allies"), 1, gate), autosave=files["Allies"])
        axis = armies_from_names(spec.armies, "standard", spec.options)["Axis"]
        assert jp.my_army is None and jp.game is None and jp.opponent_army == (
            sum(c.cost for c in axis), len(axis))
        jp.set_army(spec.armies["Allies"])                # built after the restart
        real = jp.on_message

        async def spy(msg):
            # what the restarted joiner knew of the battle when each message came in
            seen.append((json.dumps(msg), msg["t"], len(jp.hashes) + jp.inbox.qsize()))
            return await real(msg)
        jp.on_message = spy
        jt = asyncio.ensure_future(join(f"127.0.0.1:{port}", None, None, token=jp.token,
                                        game_id=jp.game_id, seat=jp.seat, peer=jp))
        # the set-up: one choice made, the next held; the armies still secret
        await until(lambda: len(hp.hashes) == 1 and len(jp.hashes) == 1)
        await asyncio.sleep(0.05)
        assert not hp.game.state.units and not jp.game.state.units
        kill(hp)                                          # the hosting machine dies
        await host.close()
        d = read_net_save(files["Axis"])
        assert d["extra"]["started"] and len(d["actions"]) == 1 and \
            d["armies"]["Allies"] == []
        for side, other in (("Axis", "Allies"), ("Allies", "Axis")):
            assert not other_cards_in(files[side], spec.armies[side], spec.armies[other])
        gate["go"] = True
        hp = Peer.from_save(read_net_save(files["Axis"]), player=spec.player("Axis"),
                            autosave=files["Axis"])
        assert len(hp.hashes) == 1 and not hp.revealed and "Allies" not in hp.armies
        host = await DirectHost(hp, "127.0.0.1", port).start()
        jp = await asyncio.wait_for(jt, 120)
        await asyncio.wait_for(hp.done.wait(), 120)
        await host.close()
        return hp, jp

    hp, jp = run(main())
    assert hp.stopped is None and jp.stopped is None
    assert hp.game.over and hp.game.state_hash() == jp.game.state_hash()
    ref = local_direct_reference(spec, len(hp.dice.table) + 8)
    assert ref.state_hash() == hp.game.state_hash()      # the same rolls, the same battle
    # after its restart the joiner was sent the host's cards only in the host's reveal,
    # once the battle had reached deployment (the action after which it is there)
    from game.net.dice import TableDice
    from game.net.session import build_game, reveal_due
    g = build_game("standard", spec.config, spec.options, None, TableDice(list(hp.dice.table)))
    deploy_at = next(i for i, a in enumerate(hp.game.history) if g.apply(a) is not None and
                     reveal_due(g))
    leaks = [(t, known) for text, t, known in seen
             if any(json.dumps(n) in text for n in spec.armies["Axis"]
                    if n not in spec.armies["Allies"])]
    assert leaks and all(t == "army_reveal" and known > deploy_at for t, known in leaks)
    # over: the files say so, and the battle is no longer offered to carry on
    assert all(read_net_save(f)["extra"]["over"] for f in files.values())
    assert saved_direct_battles(tmp_path) == []


def test_the_battle_screen_carries_on_a_blind_set_up(tmp_path, monkeypatch):
    """The screen side of a battle carried on in the set-up (``resume`` stage "battle",
    no armies yet): the battle so far rebuilt blind, the other army known by points and
    units only, the line says the other player has to come back; when the battle
    reaches deployment the reveal puts both armies on the table."""
    import pygame  # noqa: F401  (the app below)
    from tests.net.test_net_gap import FakeBridge, reference
    from tests.uikit import running_app, step
    from game.ui.scenes.battle import BattleScene
    from game.ui.scenes.net_battle import continued_battle
    monkeypatch.setenv("HEXFRONT_DATA_DIR", str(tmp_path / "data"))
    gen = running_app(tmp_path, monkeypatch, animations=False)
    app = next(gen)
    spec, armies, start, played = reference(3)
    bridge = FakeBridge(played)
    axis = armies["Axis"]
    rec = {"scenario": "standard", "config": spec.config, "options": spec.options,
           "seat": "Allies", "stage": "battle", "armies": None,
           "my_army": list(spec.armies["Allies"]),
           "opponent_army": (sum(c.cost for c in axis), len(axis)),
           "actions": [played[0]["action"]], "rolls": played[0]["rolls"],
           "role": "join", "address": "127.0.0.1:8766"}
    battle = continued_battle(app, bridge, rec)
    assert isinstance(battle, BattleScene)
    app.switch(battle)
    step(app, 3)
    assert len(battle.game.history) == 1 and not battle.game.state.units
    assert battle.game.state_hash() == played[0]["hash"]
    assert battle.ai.armies is None and battle.ai.opponent_army == rec["opponent_army"]
    assert "come back" in battle.ai.waiting_line
    assert any("kept secret until deployment" in t for t, _ in battle.logp.lines)
    bridge.events.put(("opponent", {"status": "connected"}))
    bridge.events.put(("reveal", {"armies": spec.armies}))
    bridge.events.put(("played", played[1]))
    for _ in range(10):
        step(app, 1)
    assert battle.game.state.units and battle.game.state_hash() == played[1]["hash"]
    assert battle.ai.stopped is None
    next(gen, None)


def test_the_waiting_room_says_a_battle_given_up_on_can_be_carried_on(tmp_path, monkeypatch):
    """The line gives up for good in the waiting room (before the battle started): the
    message says the battle is kept and where to carry it on, when this machine keeps it
    (its continue-file), and not otherwise."""
    from types import SimpleNamespace
    from tests.net.test_net_gap import FakeBridge
    from tests.uikit import running_app, step
    from game.ui.scenes.net_battle import NetMessageScene, NetWaitScene
    monkeypatch.setenv("HEXFRONT_DATA_DIR", str(tmp_path / "data"))
    gen = running_app(tmp_path, monkeypatch, animations=False)
    app = next(gen)
    kept = tmp_path / "continue-x-axis.json"
    kept.write_text("{}", encoding="utf-8")
    for path, says in ((kept, True), (tmp_path / "none.json", False)):
        bridge = FakeBridge(None)
        bridge.peer = SimpleNamespace(autosave=path)
        wait = NetWaitScene(app, bridge, seat="Axis", info={"scenario": "standard",
                                                            "config": 1, "options": {}})
        app.switch(wait)
        step(app, 1)
        bridge.events.put(("error", {"text": "can't reach the host at 10.0.0.2:8766",
                                     "fatal": True}))
        step(app, 2)
        assert isinstance(app.scene, NetMessageScene)
        assert app.scene.text.startswith("can't reach the host")
        assert ("Carry it on later from Join a battle" in app.scene.text) is says
    next(gen, None)
