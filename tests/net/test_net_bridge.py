"""The UI's bridge to a relay battle, without pygame: two machines create / join
through a relay (each in its own network thread), submit their moves from the
UI thread, mirror the confirmed actions with the network's rolls, and a seat
comes back with its remembered token (issue 16: turn-by-turn, days later)."""
import asyncio
import queue
import threading
import time

from game.net.bridge import NetBridge, saved_relay_seats
from game.net.dice import TableDice
from game.net.headless import spec_for
from game.net.relay import Relay, serve_relay
from game.net.session import (apply_action, choose_blind, armies_from_names, build_game,
                              replay_record)


class RelayThread:
    def __init__(self, store):
        self.ready = threading.Event()
        self.store = store
        self.t = threading.Thread(target=self.main, daemon=True)
        self.t.start()
        assert self.ready.wait(10)

    def main(self):
        async def go():
            self.stop = asyncio.Event()
            self.relay = Relay(self.store)
            server = await serve_relay(self.relay, "127.0.0.1", 0)
            self.url = f"ws://127.0.0.1:{server.sockets[0].getsockname()[1]}"
            self.ready.set()
            await self.stop.wait()
            server.close()
            await server.wait_closed()
        self.loop = asyncio.new_event_loop()
        self.loop.run_until_complete(go())

    def close(self):
        self.loop.call_soon_threadsafe(self.stop.set)
        self.t.join(5)


def pump_until(machines, cond, seconds=240):
    """Pump the machines until ``cond()``; the bound only matters when something hangs."""
    t_end = time.monotonic() + seconds
    while time.monotonic() < t_end and not cond():
        for m in machines:
            m.pump()
        time.sleep(0.002)
    return cond()


class Machine:
    """What the battle screen does with a bridge, minus the drawing."""

    def __init__(self, bridge, player):
        self.bridge, self.player = bridge, player
        self.game = None
        self.seat = None
        self.info = {}
        self.in_flight = False
        self.kinds = []

    def pump(self):
        while True:
            try:
                kind, d = self.bridge.events.get_nowait()
            except queue.Empty:
                break
            self.kinds.append(kind)
            if kind == "welcome":
                self.info = d
                self.seat = d["seat"]
            elif kind == "hosting":
                self.info = d
            elif kind == "resume":         # a direct battle carried on: the record so far
                self.seat = d["seat"]
                self.game = replay_record(d["scenario"], d["config"], d["options"],
                                          d["armies"], d["actions"], d["rolls"])
            elif kind == "start":          # blind: the armies come at deployment
                self.opts = d
                self.game = build_game(d["scenario"], d["config"], d["options"], None,
                                       TableDice(d["start_rolls"]))
            elif kind == "reveal":
                self.game.net_armies = armies_from_names(d["armies"], self.opts["scenario"],
                                                         self.opts["options"])
            elif kind == "played" and self.game is not None and \
                    d["seq"] == len(self.game.history):
                for v in d["rolls"][len(self.game.dice.table):]:
                    self.game.dice.add(v)
                apply_action(self.game, d["action"])
                assert self.game.state_hash() == d["hash"]
                if d["action"].side == self.seat:
                    self.in_flight = False
        g = self.game
        if g is not None and not g.over and g.state.to_act == self.seat and not self.in_flight:
            self.in_flight = True
            self.bridge.submit(choose_blind(self.player, g))


def test_relay_battle_through_the_ui_bridge_with_a_seat_coming_back(tmp_path, monkeypatch):
    monkeypatch.setenv("HEXFRONT_DATA_DIR", str(tmp_path / "data"))
    spec = spec_for(4, 1, turn_limit=1)
    relay = RelayThread(tmp_path / "store")
    try:
        a = Machine(NetBridge.relay_create(relay.url, seat="Axis", scenario="standard",
                                           config=spec.config, options=spec.options,
                                           army=spec.armies["Axis"]), spec.player("Axis"))
        t_end = time.monotonic() + 90             # only a hang reaches these bounds
        while "code" not in a.info and time.monotonic() < t_end:
            a.pump()
            time.sleep(0.01)
        assert a.info.get("code")
        b = Machine(NetBridge.relay_join(relay.url, a.info["code"]), spec.player("Allies"))
        while (b.seat is None or "army_info" not in b.kinds) and time.monotonic() < t_end:
            b.pump()
            time.sleep(0.01)
        # the seat comes first, then what the other seat built (the screen builds the
        # army on the welcome; an army_info first sent it past the builder)
        assert b.kinds[0] == "welcome" and "army_info" in b.kinds, b.kinds
        b.bridge.set_army(spec.armies["Allies"])        # built in secret after joining
        t_end = time.monotonic() + 240
        while time.monotonic() < t_end and not (b.game and len(b.game.history) >= 30):
            a.pump()
            b.pump()
            time.sleep(0.002)
        assert b.game is not None and len(b.game.history) >= 30
        # the Allied player closes the game ...
        b.bridge.close()
        n = len(b.game.history)
        seats = [s for s in saved_relay_seats() if s["seat"] == "Allies"]
        assert seats, "the seat's token was not remembered"
        s = seats[-1]
        # ... and comes back later with the remembered seat
        b2 = Machine(NetBridge.relay_join(s["url"], game_id=s["game"], seat="Allies",
                                          token=s["token"]), spec.player("Allies"))
        t_end = time.monotonic() + 240
        while time.monotonic() < t_end and not (b2.game and len(b2.game.history) >= n + 20):
            a.pump()
            b2.pump()
            time.sleep(0.002)
        assert b2.game is not None and len(b2.game.history) >= n + 20
        k = min(len(a.game.history), len(b2.game.history))
        assert a.game.history[:k] == b2.game.history[:k]        # one battle, resumed
        a.bridge.close()
        b2.bridge.close()
    finally:
        relay.close()


def test_direct_battle_closed_on_both_machines_and_carried_on_from_the_menu(tmp_path,
                                                                          monkeypatch):
    """Issue 16, "either side can save and continue later, live": a direct battle keeps a
    continue-file on each machine from deployment on; both programs close mid-battle;
    "Join a battle" lists the battle on each machine (saved_direct_battles), and carrying
    it on (NetBridge.resume_direct) hosts again on the host's port / reconnects with the
    joiner's seat token, rebuilds the battle so far from the record ("resume") and plays
    it to the end with the same rolls; a finished battle's continue-files go."""
    from game.net.bridge import saved_direct_battles
    monkeypatch.setenv("HEXFRONT_DATA_DIR", str(tmp_path / "data"))
    spec = spec_for(5, 3, turn_limit=1)
    a = Machine(NetBridge.host_direct(seat="Axis", scenario="standard", config=spec.config,
                                      options=spec.options, army=spec.armies["Axis"],
                                      port=0, bind="127.0.0.1"), spec.player("Axis"))
    a.seat = "Axis"                       # the host's own seat (its screen knows it)
    try:
        assert pump_until([a], lambda: "code" in a.info)
        b = Machine(NetBridge.join_direct(f"127.0.0.1:{a.info['port']}", a.info["code"]),
                    spec.player("Allies"))
        assert pump_until([a, b], lambda: b.seat is not None)
        b.bridge.set_army(spec.armies["Allies"])
        assert pump_until([a, b], lambda: b.game is not None and len(b.game.history) >= 40
                          and a.game is not None and len(a.game.history) >= 40)
        b.bridge.close()                  # both programs are closed mid-battle
        a.bridge.close()
        n = min(len(a.game.history), len(b.game.history))
        assert not a.game.over
        saved = {d["role"]: d for d in saved_direct_battles()}
        assert set(saved) == {"host", "join"}
        assert saved["host"]["seat"] == "Axis" and saved["join"]["seat"] == "Allies"
        assert saved["join"]["address"] == f"127.0.0.1:{a.info['port']}"
        # another day: the joiner first (it waits for the host), then the host
        b2 = Machine(NetBridge.resume_direct(saved["join"]["path"]), spec.player("Allies"))
        a2 = Machine(NetBridge.resume_direct(saved["host"]["path"]), spec.player("Axis"))
        assert pump_until([a2, b2], lambda: a2.game is not None and b2.game is not None)
        assert len(a2.game.history) >= n and len(b2.game.history) >= n
        assert a2.game.history[:n] == a.game.history[:n]          # the battle so far
        assert pump_until([a2, b2], lambda: a2.game.over and b2.game.over and
                          a2.bridge.thread is not None and not a2.bridge.thread.is_alive()
                          and not b2.bridge.thread.is_alive())
        assert a2.game.state_hash() == b2.game.state_hash()
        assert a2.game.state_hash() == a2.bridge.peer.game.state_hash()
        # the same rolls after the reload; the whole record replays to the final position
        first = list(a.game.dice.table)
        assert a2.bridge.peer.dice.table[:len(first)] == first
        p = a2.bridge.peer
        again = replay_record(p.scenario, p.config, p.options, p.armies, p.game.history,
                              p.dice.table, p.hashes)
        assert again.state_hash() == a2.game.state_hash()
        assert saved_direct_battles() == []                     # over: nothing to carry on
    finally:
        for m in ("a", "b", "a2", "b2"):
            if m in locals():
                locals()[m].bridge.close()


def test_a_finished_relay_battle_is_no_longer_offered_on_either_machine(tmp_path, monkeypatch):
    """A relay battle played to its end through the bridges: each machine forgets its seat
    when the end comes (it is no longer under "your battles to carry on"); a machine
    that was away when it ended (its seat still remembered) forgets it when the list is
    made (the relay says the battle is over), and a battle still on stays listed."""
    from game.net.bridge import prune_finished_relay_seats, remember_relay_seat
    monkeypatch.setenv("HEXFRONT_DATA_DIR", str(tmp_path / "data"))
    spec = spec_for(4, 1, turn_limit=1)
    relay = RelayThread(tmp_path / "store")
    try:
        a = Machine(NetBridge.relay_create(relay.url, seat="Axis", scenario="standard",
                                           config=spec.config, options=spec.options,
                                           army=spec.armies["Axis"]), spec.player("Axis"))
        assert pump_until([a], lambda: "code" in a.info)
        b = Machine(NetBridge.relay_join(relay.url, a.info["code"]), spec.player("Allies"))
        assert pump_until([a, b], lambda: b.seat is not None)
        b.bridge.set_army(spec.armies["Allies"])
        assert pump_until([a, b], lambda: b.game is not None and len(b.game.history) >= 5)
        held = saved_relay_seats()            # (one file here: the last seat to join)
        assert [x["game"] for x in held] == [b.info["game"]]      # offered while it is on
        assert pump_until([a, b], lambda: "over" in a.kinds and "over" in b.kinds)
        assert a.game.over and b.game.over
        assert saved_relay_seats() == []                   # the end: forgotten on both
        # a battle still on (created, not joined yet)
        c = Machine(NetBridge.relay_create(relay.url, seat="Axis", scenario="standard",
                                           config=spec.config, options=spec.options,
                                           army=spec.armies["Axis"]), spec.player("Axis"))
        assert pump_until([c], lambda: "code" in c.info)
        c.bridge.close()
        # the Allied machine was away at the end: its list still held the seat
        s = held[0]
        remember_relay_seat(s["url"], s["game"], s["seat"], s["token"])
        assert len(saved_relay_seats()) == 2
        left = prune_finished_relay_seats(timeout=10.0)
        assert [x["game"] for x in left] == [c.info["game"]]
        assert saved_relay_seats() == left
        a.bridge.close()
        b.bridge.close()
    finally:
        relay.close()
