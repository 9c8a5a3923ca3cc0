"""The desktop side of network play (issue 16): menu -> Host a battle -> secret
army -> waiting room with the join code -> the battle screen, with a headless AI
machine joining on loopback; the other machine's moves arrive and are shown, the
local player's go through the network, the waiting line names the other player."""
import asyncio
import threading
import time

import pytest

from game.net.direct import Peer, join
from game.rules.state import DefensiveFirePrompt
from tests.net.netkit import read_on, until
from tests.uikit import press, running_app, step


@pytest.fixture
def app(tmp_path, monkeypatch):
    monkeypatch.setenv("HEXFRONT_DATA_DIR", str(tmp_path / "data"))
    yield from running_app(tmp_path, monkeypatch, animations=False)


class HoldsDefensiveFire:
    """The other machine's AI, holding its first defensive-fire answer until the test has
    seen this screen wait for it (``remote["seen_df"]``): the prompt is on this screen
    for as long as it takes, however loaded the machine (no race with the frames)."""

    def __init__(self, player, remote):
        self.player, self.remote = player, remote

    def choose(self, game):
        if isinstance(game.state.pending, DefensiveFirePrompt) and \
                not self.remote.get("seen_df"):
            self.remote["held"] = True
            return None                 # asked again when woken (remote["go_on"])
        return self.player.choose(game)


def fixed_chains(monkeypatch, name):
    """Both machines' dice chains fixed (the screen's is made by the bridge): the same
    battle every run, so one known to have what the test looks for (a random battle
    lacked a defensive-fire prompt now and then, and the test waited out its bound)."""
    import hashlib
    import game.net.direct as direct
    real = direct.HashChain
    monkeypatch.setattr(direct, "HashChain", lambda secret=None: real(
        secret if secret is not None else hashlib.sha256(f"{name}-screen".encode()).digest()))
    return real(hashlib.sha256(f"{name}-remote".encode()).digest())


def test_host_a_battle_and_play_against_a_remote_machine(app, monkeypatch):
    from game.ai.base import make_player
    from game.ui.scenes.battle import BattleScene
    from game.ui.scenes.net_battle import NetWaitScene
    from game.ui.scenes.net_host import NetArmyScene, NetHostScene
    remote_chain = fixed_chains(monkeypatch, "host-a-battle")
    app.switch(app.menu_scene())
    step(app, 2)
    assert {"host", "join"} <= set(app.scene.buttons)
    press(app, "host")
    assert isinstance(app.scene, NetHostScene)
    app.scene.port = 0                                  # any free port on this machine
    press(app, "seat")                                  # this machine plays the Allies
    assert app.scene.seat == "Allies"
    press(app, "army")
    assert isinstance(app.scene, NetArmyScene)
    press(app, "sample")
    press(app, "done")
    wait = app.scene
    assert isinstance(wait, NetWaitScene)
    assert until(app, lambda: "code" in wait.info and "port" in wait.info)
    code, port = wait.info["code"], wait.info["port"]

    from game.data.armies import sample_army
    remote = {}

    def machine_b():
        async def go():
            def factory(w):
                p = Peer(w["seat"], scenario=w["scenario"], config=w["config"],
                         options=w["options"], player=HoldsDefensiveFire(
                             make_player("recruit", 5), remote), chain=remote_chain,
                         army=[c.name for c in sample_army(w["seat"]).cards],
                         on_event=lambda k, d: remote.setdefault("events", []).append((k, d)))
                remote["peer"] = p
                return p
            t = asyncio.ensure_future(join(f"127.0.0.1:{port}", code, factory))
            while not remote.get("stop"):
                if remote.get("say"):
                    await remote["peer"].send({"t": "chat", "text": remote.pop("say")})
                if remote.pop("go_on", False):       # the test has seen the prompt
                    remote["peer"].wake.set()
                await asyncio.sleep(0.02)
            t.cancel()
            p = remote.get("peer")
            if p is not None and p.ws is not None:
                await p.ws.close()
        asyncio.run(go())
    th = threading.Thread(target=machine_b, daemon=True)
    th.start()
    try:
        assert until(app, lambda: isinstance(app.scene, BattleScene))
        battle = app.scene
        seat = battle.ai.local
        step(app, 1)
        # before deployment the other army is known by its points and unit count only
        assert any("kept secret until deployment" in t for t, _ in battle.logp.lines)
        # the chat line: "/" opens it over the prompt bar, typed text, Enter sends; while
        # it is open the battle screen's own keys (O, X...) don't fire
        import pygame
        from tests.uikit import key
        key(app, pygame.K_SLASH)
        assert battle.ai.chat.open
        for ch in "good luck":
            pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=ch))
        key(app, pygame.K_x)                   # typed, not the threat map
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="!"))
        step(app, 1)
        assert battle.ai.chat.text == "good luck!" and not battle.threat.on
        key(app, pygame.K_RETURN)
        assert not battle.ai.chat.open
        assert any(t == "You: good luck!" for t, _ in battle.logp.lines)
        remote["say"] = "you too"
        assert until(app, lambda: any(k == "chat" and d["text"] == "good luck!"
                                      for k, d in remote.get("events", [])))
        assert until(app, lambda: any("player: you too" in t for t, _ in battle.logp.lines))
        me = make_player("recruit", 9)
        waited_df = False
        saw_remote = False
        t_end = time.monotonic() + 600     # only a hang reaches it; stops once both were seen
        while time.monotonic() < t_end and not (waited_df and len(battle.game.history) >= 20) \
                and len(battle.game.history) < 400 and not battle.game.over:
            step(app, 1)
            st = battle.state
            if read_on(app, battle):            # the recap, the casualty phase: real clicks
                continue
            if st.to_act == seat and not battle.ai.in_flight and not battle.stack:
                battle.send(me.choose(battle.game))      # what the input modes call
            elif st.to_act != seat:
                line = battle.ai.waiting_line
                assert "Allied" in line or "Axis" in line
                if isinstance(st.pending, DefensiveFirePrompt) and not waited_df:
                    assert "defensive fire" in line, line
                    waited_df = remote["seen_df"] = remote["go_on"] = True
            if any(a.side != seat for a in battle.game.history):
                saw_remote = True
            time.sleep(0.002)
        assert saw_remote and len(battle.game.history) >= 20
        assert battle.ai.stopped is None
        # this screen's battle is the other machine's battle, action for action
        peer = remote["peer"]
        n = min(len(peer.hashes), len(battle.game.history))
        assert n >= 20 and peer.game.history[:n] == battle.game.history[:n]
        assert waited_df        # "waiting for the Axis player's defensive fire..."
    finally:
        end_of_test(app, remote, th)


def _recruit_hosts_axis(hosting: dict):
    """A direct battle hosted in a thread by a Recruit playing the Axis sample army
    (Standard, configuration 2); returns the thread once ``hosting["host"]`` is set."""
    from game.ai.base import make_player
    from game.data.armies import sample_army
    th = host_in_a_thread(lambda: Peer("Axis", scenario="standard", config=2, options={},
                                       player=make_player("recruit", 3),
                                       army=[c.name for c in sample_army("Axis").cards]),
                          0, hosting)
    t_end = time.monotonic() + 90
    while "host" not in hosting and time.monotonic() < t_end:
        time.sleep(0.01)
    return th


def end_of_test(app, box, th):
    """The other machine stops (``box["stop"]``); this screen's connection closes."""
    from game.ui.scenes.battle import BattleScene
    box["stop"] = True
    th.join(5)
    if isinstance(app.scene, BattleScene):
        app.scene.ai.bridge.close()


def host_in_a_thread(make_peer, port, box):
    """The other machine hosting (``make_peer()`` on ``port``) in its own thread and loop
    until ``box["stop"]``; ``box`` gets its "host" and "peer".  Returns the thread."""
    from game.net.direct import DirectHost

    def main():
        async def go():
            p = make_peer()
            h = await DirectHost(p, "127.0.0.1", port).start()
            box["host"], box["peer"] = h, p
            while not box.get("stop"):
                await asyncio.sleep(0.02)
            await h.close()
            if p._worker is not None:
                p._worker.cancel()
        asyncio.run(go())
    th = threading.Thread(target=main, daemon=True)
    th.start()
    return th


def type_into(app, entry, text):
    """Click a text box and type into it (real mouse and text events)."""
    import pygame
    from tests.uikit import click
    click(app, entry.rect.center)
    for ch in text:
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=ch))
        step(app, 1)


def test_join_a_battle_by_address_and_code(app):
    """Join a battle: type the host's address and code, build the army in secret, and
    the battle starts with the seat the host left (the LAN list is looked up too)."""
    from game.ui.scenes.battle import BattleScene
    from game.ui.scenes.net_host import NetArmyScene
    from game.ui.scenes.net_join import NetJoinScene
    hosting = {}
    th = _recruit_hosts_axis(hosting)
    try:
        h = hosting["host"]
        app.switch(app.menu_scene())
        step(app, 2)
        press(app, "join")
        join_scene = app.scene
        assert isinstance(join_scene, NetJoinScene)
        type_into(app, join_scene.address, f"127.0.0.1:{h.port}")
        type_into(app, join_scene.code, h.code.lower())         # codes are not case-sensitive
        assert join_scene.address.get_text() == f"127.0.0.1:{h.port}"
        press(app, "join")
        assert until(app, lambda: isinstance(app.scene, NetArmyScene))
        assert app.scene.side == "Allies"
        press(app, "sample")
        press(app, "done")
        assert until(app, lambda: isinstance(app.scene, BattleScene))
        battle = app.scene
        assert battle.ai.local == "Allies" and battle.game.state.scenario == "standard"
        assert until(app, lambda: len(battle.game.history) >= 1 or
                     battle.state.to_act == "Allies")
    finally:
        end_of_test(app, hosting, th)


def test_a_direct_battle_is_carried_on_from_join_a_battle(app, tmp_path):
    """Issue 16, "either may close the game and come back": a direct battle both programs
    left after 40 actions; this machine (the joiner) finds it under Join a battle ("your
    battles to carry on"), the battle screen opens on the battle so far (not replayed
    move by move), says it waits for the other player to come back, and goes on when the
    host's machine carries it on too."""
    from game.net.bridge import continue_path
    from game.net.direct import DirectHost
    from game.net.headless import spec_for
    from game.net.session import read_net_save
    from game.ui.scenes.battle import BattleScene
    from game.ui.scenes.net_join import NetJoinScene
    from tests.net.test_net_battles import StopAt
    spec = spec_for(5, 3, turn_limit=1)
    host_file = tmp_path / "host-continue.json"
    days = {}

    def first_day():
        async def go():
            hp = Peer("Axis", scenario="standard", config=spec.config, options=spec.options,
                      player=StopAt(spec.player("Axis"), 40), army=spec.armies["Axis"],
                      autosave=host_file)
            host = await DirectHost(hp, "127.0.0.1", 0).start()
            hp.where = {"role": "host", "port": host.port}
            days["port"] = host.port

            def factory(w):
                p = Peer(w["seat"], scenario=w["scenario"], config=w["config"],
                         options=w["options"], player=StopAt(spec.player(w["seat"]), 40),
                         army=spec.armies[w["seat"]],
                         autosave=continue_path(w["game"], w["seat"]))
                p.where = {"role": "join", "address": f"127.0.0.1:{host.port}"}
                days["joiner"] = p
                return p
            jt = asyncio.ensure_future(join(f"127.0.0.1:{host.port}", host.code, factory))
            while "joiner" not in days or len(days["joiner"].hashes) < 40 or \
                    len(hp.hashes) < 40:
                await asyncio.sleep(0.01)
            jt.cancel()
            await host.close()
            for p in (hp, days["joiner"]):
                p._worker.cancel()
        asyncio.run(asyncio.wait_for(go(), 300))
    first_day()
    app.switch(app.menu_scene())
    step(app, 2)
    press(app, "join")
    js = app.scene
    assert isinstance(js, NetJoinScene) and "direct_0" in js.buttons
    assert "as Allies" in js.buttons["direct_0"].text
    press(app, "direct_0")
    assert until(app, lambda: isinstance(app.scene, BattleScene))
    battle = app.scene
    assert len(battle.game.history) == 40 and battle.ai.local == "Allies"
    assert "come back" in battle.ai.waiting_line
    assert until(app, lambda: any("Carrying on the battle after 40 actions" in t
                                  for t, _ in battle.logp.lines))
    # the host's machine carries it on too (its own continue-file, the same port)
    stop = {}
    th = host_in_a_thread(lambda: Peer.from_save(read_net_save(host_file),
                                                 player=spec.player("Axis")),
                          days["port"], stop)
    try:
        assert until(app, lambda: battle.ai.opponent == "connected")
        from game.ai.base import make_player
        me = make_player("recruit", 2)
        t_end = time.monotonic() + 600         # only a hang reaches it
        while time.monotonic() < t_end and len(battle.game.history) < 50 and \
                not battle.game.over:
            step(app, 1)
            st = battle.state
            if read_on(app, battle):
                continue
            if st.to_act == "Allies" and not battle.ai.in_flight and not battle.stack:
                battle.send(me.choose(battle.game))
            time.sleep(0.002)
        assert (len(battle.game.history) >= 50 or battle.game.over) and \
            battle.ai.stopped is None
        hp = stop["peer"]
        n = min(len(hp.game.history), len(battle.game.history))
        assert hp.game.history[:n] == battle.game.history[:n]
    finally:
        end_of_test(app, stop, th)


def test_a_relay_battle_left_for_the_menu_is_carried_on_from_join_a_battle(app, tmp_path):
    """Turn by turn through a relay: this machine joins by code, plays, leaves the battle
    for the menu (the other seat is told it is away), and carries the battle on from Join
    a battle; the battle so far is caught up at once (not animated; the screen's mode
    follows it - drawing a stale set-up overlay crashed here), and it goes on."""
    from game.ai.base import make_player
    from game.net.client import RelayClient
    from game.net.headless import spec_for
    from game.ui.scenes.battle import BattleScene
    from game.ui.scenes.net_host import NetArmyScene
    from game.ui.scenes.net_join import NetJoinScene
    from tests.net.test_net_bridge import RelayThread
    spec = spec_for(3, 5, turn_limit=2)
    relay = RelayThread(tmp_path / "store")
    other = {}

    def machine_a():                     # the creator's machine: a headless AI seat
        async def go():
            c = RelayClient(relay.url, player=spec.player("Axis"), army=spec.armies["Axis"],
                            create={"scenario": "standard", "config": spec.config,
                                    "seat": "Axis", "options": spec.options})
            other["client"] = c
            t = asyncio.ensure_future(c.run())
            while not other.get("stop") and not t.done():
                await asyncio.sleep(0.02)
            c.stop()
        asyncio.run(go())
    th = threading.Thread(target=machine_a, daemon=True)
    th.start()
    me = make_player("recruit", 4)

    def play_until(battle, n):
        t_end = time.monotonic() + 600         # only a hang reaches it
        while time.monotonic() < t_end and len(battle.game.history) < n and \
                not battle.game.over:
            step(app, 1)
            if read_on(app, battle):
                continue
            st = battle.state
            if st.to_act == "Allies" and not battle.ai.in_flight and not battle.stack:
                battle.send(me.choose(battle.game))
            time.sleep(0.002)
        assert battle.ai.stopped is None
        return len(battle.game.history) >= n
    try:
        t_end = time.monotonic() + 90
        while not (other.get("client") and other["client"].st.code) and \
                time.monotonic() < t_end:
            time.sleep(0.01)
        a = other["client"]
        app.switch(app.menu_scene())
        step(app, 2)
        press(app, "join")
        press(app, "how")                                  # through a relay
        js = app.scene
        type_into(app, js.address, relay.url[5:])
        type_into(app, js.code, a.st.code)
        press(app, "join")
        assert until(app, lambda: isinstance(app.scene, NetArmyScene))
        press(app, "sample")
        press(app, "done")
        assert until(app, lambda: isinstance(app.scene, BattleScene))
        assert play_until(app.scene, 30)
        app.scene.services.to_menu()                     # the player closes the battle
        step(app, 3)
        t_end = time.monotonic() + 90
        while a.st.opponent != "away" and time.monotonic() < t_end:
            time.sleep(0.01)
        assert a.st.opponent == "away"                    # the relay told the other seat
        press(app, "join")
        js = app.scene
        assert isinstance(js, NetJoinScene) and "saved_0" in js.buttons
        press(app, "saved_0")
        assert until(app, lambda: isinstance(app.scene, BattleScene))
        battle = app.scene
        assert until(app, lambda: read_on(app, battle) and False or (
            len(battle.game.history) >= 30 and battle.ai.caught_up == 0
            and any(t.startswith("Caught up with the battle") for t, _ in battle.logp.lines)))
        n = len(battle.game.history)
        assert play_until(battle, n + 10)
        k = min(len(a.game.history), len(battle.game.history))
        assert a.game.history[:k] == battle.game.history[:k]
    finally:
        end_of_test(app, other, th)
        relay.close()


def test_the_host_screen_points_to_a_hosted_battle_to_carry_on(app, monkeypatch):
    """A battle this machine hosted and may carry on is found under Join a battle; Host a
    battle says so (it does not start a new one over it)."""
    from game.ui.scenes.net_host import NetHostScene
    import game.net.bridge as bridge
    monkeypatch.setattr(bridge, "saved_direct_battles", lambda: [
        {"path": "x", "seat": "Axis", "role": "host", "address": "", "scenario": "standard",
         "config": 2, "edition": "first", "actions": 12, "saved": ""}])
    app.switch(NetHostScene(app))
    step(app, 2)
    assert len(app.scene.hosted) == 1


def test_a_direct_battle_left_in_army_building_is_carried_on_from_join_a_battle(app):
    """A drop before deployment: this machine joins a hosted battle, its player leaves the
    secret army builder (the program closes its connection); the battle is under Join a
    battle ("army building"), choosing it opens the army builder again (the other machine
    knows nothing of this army yet), and once it is built the battle starts with the
    other army known by points and units only."""
    from game.ai.base import make_player
    from game.data.armies import sample_army
    from game.ui.scenes.battle import BattleScene
    from game.ui.scenes.net_battle import NetWaitScene
    from game.ui.scenes.net_host import NetArmyScene
    from game.ui.scenes.net_join import NetJoinScene
    hosting = {}
    th = _recruit_hosts_axis(hosting)
    try:
        h = hosting["host"]
        app.switch(app.menu_scene())
        step(app, 2)
        press(app, "join")
        js = app.scene
        assert not any(k.startswith("direct_") for k in js.buttons)
        type_into(app, js.address, f"127.0.0.1:{h.port}")
        type_into(app, js.code, h.code)
        press(app, "join")
        assert until(app, lambda: isinstance(app.scene, NetArmyScene))
        # the host's commitment is in before the player leaves
        assert until(app, lambda: hosting["peer"].their_root is not None and
                     hosting["peer"].ws is not None)
        press(app, "back")                              # the player leaves the builder
        step(app, 3)
        assert until(app, lambda: hosting["peer"].ws is None)   # the line is closed
        press(app, "join")
        js = app.scene
        assert isinstance(js, NetJoinScene) and "direct_0" in js.buttons
        label = js.buttons["direct_0"].text
        assert "as Allies" in label and "army building" in label and "allies-" not in label
        press(app, "direct_0")
        assert until(app, lambda: isinstance(app.scene, NetArmyScene))
        assert app.scene.side == "Allies"
        press(app, "sample")
        press(app, "done")
        assert isinstance(app.scene, (NetWaitScene, BattleScene))
        assert until(app, lambda: isinstance(app.scene, BattleScene))
        battle = app.scene
        assert battle.ai.local == "Allies" and not battle.game.state.units
        axis = sample_army("Axis").cards        # known by its points and units only
        assert battle.ai.opponent_army == (sum(c.cost for c in axis), len(axis))
        me = make_player("recruit", 8)
        t_end = time.monotonic() + 300                 # only a hang reaches it
        while time.monotonic() < t_end and not battle.game.state.units:
            step(app, 1)
            if read_on(app, battle):
                continue
            if battle.state.to_act == "Allies" and not battle.ai.in_flight and \
                    not battle.stack:
                battle.send(me.choose(battle.game))
            time.sleep(0.002)
        assert battle.game.state.units and battle.ai.stopped is None   # deployment reached
    finally:
        end_of_test(app, hosting, th)


def test_join_a_battle_no_longer_offers_a_relay_battle_that_ended_while_away(app, tmp_path):
    """A relay battle that ended while this machine was away (its seat still remembered)
    leaves "your battles to carry on" once Join a battle has asked the relay; a battle
    still on stays, and is carried on by its button."""
    from game.net.bridge import remember_relay_seat, saved_relay_seats
    from game.net.client import RelayClient
    from game.net.headless import spec_for
    from game.ui.scenes.net_join import NetJoinScene
    from tests.net.test_net_bridge import RelayThread
    spec = spec_for(4, 1, turn_limit=1)
    relay = RelayThread(tmp_path / "store")
    try:
        async def battles():
            a = RelayClient(relay.url, player=spec.player("Axis"), army=spec.armies["Axis"],
                            create={"scenario": "standard", "config": spec.config,
                                    "seat": "Axis", "options": spec.options})
            ta = asyncio.ensure_future(a.run())
            await asyncio.wait_for(a.ready.wait(), 60)
            b = RelayClient(relay.url, player=spec.player("Allies"),
                            army=spec.armies["Allies"], code=a.st.code)
            await asyncio.wait_for(asyncio.gather(ta, b.run()), 240)
            c = RelayClient(relay.url, army=spec.armies["Axis"],
                            create={"scenario": "standard", "config": spec.config,
                                    "seat": "Axis", "options": spec.options})
            tc = asyncio.ensure_future(c.run())
            await asyncio.wait_for(c.ready.wait(), 60)
            c.stop()
            await asyncio.wait_for(tc, 60)
            return b, c
        b, c = asyncio.run(battles())
        assert b.st.over is not None
        remember_relay_seat(relay.url, b.st.game_id, "Allies", b.st.token)   # ended
        remember_relay_seat(relay.url, c.st.game_id, "Axis", c.st.token)     # still on
        app.switch(app.menu_scene())
        step(app, 2)
        press(app, "join")
        js = app.scene
        assert isinstance(js, NetJoinScene)
        assert until(app, lambda: "saved_0" in js.buttons and "saved_1" not in js.buttons,
                     seconds=30)
        assert c.st.game_id in js.buttons["saved_0"].text
        assert [s["game"] for s in saved_relay_seats()] == [c.st.game_id]
    finally:
        relay.close()


def test_the_host_carries_on_a_battle_the_joiner_dropped_in_army_building(app, tmp_path,
                                                                          monkeypatch):
    """This machine hosts; the other machine joins and drops while its player builds the
    army: the waiting room says the other player has disconnected; this player leaves;
    Join a battle offers the battle ("you host", before the set-up); choosing it hosts
    again and waits for the other player to come back (no join code shown); the other
    machine carries it on from its own file (its player builds the army then) and the
    battle starts on this screen."""
    from game.data.armies import sample_army
    from game.net.session import read_net_save
    from game.ui.scenes.battle import BattleScene
    from game.ui.scenes.net_battle import NetWaitScene
    from game.ui.scenes.net_host import NetHostScene
    from game.ui.scenes.net_join import NetJoinScene
    app.switch(app.menu_scene())
    step(app, 2)
    press(app, "host")
    assert isinstance(app.scene, NetHostScene)
    app.scene.port = 0
    press(app, "army")
    press(app, "sample")
    press(app, "done")
    wait = app.scene
    assert isinstance(wait, NetWaitScene)
    assert until(app, lambda: "code" in wait.info and "port" in wait.info)
    code, port = wait.info["code"], wait.info["port"]
    jfile = tmp_path / "continue-other-allies.json"
    box = {}

    def machine_b(resume=False):
        async def go():
            if resume:          # carried on from its file; the player builds the army now
                p = Peer.from_save(read_net_save(jfile), autosave=jfile)
                p.set_army([c.name for c in sample_army("Allies").cards])
                box["peer"] = p
                t = asyncio.ensure_future(join(f"127.0.0.1:{port}", None, None,
                                               token=p.token, game_id=p.game_id,
                                               seat=p.seat, peer=p))
            else:
                def factory(w):
                    p = Peer(w["seat"], scenario=w["scenario"], config=w["config"],
                             options=w["options"], autosave=jfile)
                    p.where = {"role": "join", "address": f"127.0.0.1:{port}"}
                    box["peer"] = p
                    return p
                t = asyncio.ensure_future(join(f"127.0.0.1:{port}", code, factory))
            while not box.get("stop"):
                await asyncio.sleep(0.02)
            t.cancel()
            p = box.get("peer")        # the machine dies: no goodbye
            if p is not None and p.ws is not None and p.ws.transport is not None:
                p.ws.transport.abort()
        asyncio.run(go())
    th = threading.Thread(target=machine_b, daemon=True)
    th.start()
    th2 = None
    try:
        assert until(app, lambda: wait.opponent_army is None and jfile.exists()
                     and "connected" == wait.opponent)
        box["stop"] = True
        th.join(10)
        assert until(app, lambda: wait.opponent == "away")
        assert any("has disconnected" in t for t, _ in wait.rows())
        press(app, "leave")
        press(app, "join")
        js = app.scene
        assert isinstance(js, NetJoinScene) and "direct_0" in js.buttons
        label = js.buttons["direct_0"].text
        assert "as Axis: you host" in label and "before the set-up" in label
        press(app, "direct_0")
        assert until(app, lambda: isinstance(app.scene, NetWaitScene))
        again = app.scene
        step(app, 5)
        texts = [t for t, _ in again.rows()]
        assert any("waiting for the Allied player to come back" in t for t in texts)
        assert not any("Join code" in t for t in texts)
        box.clear()
        th2 = threading.Thread(target=machine_b, args=(True,), daemon=True)
        th2.start()
        assert until(app, lambda: isinstance(app.scene, BattleScene))
        battle = app.scene
        assert battle.ai.local == "Axis" and not battle.game.state.units
    finally:
        box["stop"] = True
        for t in (th, th2):
            if t is not None:
                t.join(5)
        if isinstance(app.scene, BattleScene):
            app.scene.ai.bridge.close()
