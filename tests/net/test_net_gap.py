"""A confirmed action that arrives ahead of the battle it belongs to (a gap in the
sequence numbers) is never applied over the gap: the battle screen's RemoteSeat takes
the missing actions from this machine's record, or stops with a readable line; a direct
peer asks the other machine to send again what it lacks."""
import asyncio
import queue

import pytest

from game.rules.dice import Dice
from tests.uikit import running_app, step


@pytest.fixture
def app(tmp_path, monkeypatch):
    monkeypatch.setenv("HEXFRONT_DATA_DIR", str(tmp_path / "data"))
    yield from running_app(tmp_path, monkeypatch, animations=False)


class RecordingDice(Dice):
    def __init__(self, seed):
        super().__init__(seed)
        self.log = []

    def d6(self):
        v = super().d6()
        self.log.append(v)
        return v


def reference(n):
    """A battle of ``n`` actions played locally (two AIs): its start rolls and, per
    action, the "played" event the network would give the screen."""
    from game.net.headless import spec_for
    from game.net.session import apply_action, armies_from_names, build_game
    spec = spec_for(6, 2, turn_limit=1)
    armies = armies_from_names(spec.armies, "standard", spec.options)
    dice = RecordingDice(11)
    game = build_game("standard", spec.config, spec.options, armies, dice)
    start = list(dice.log)
    played = []
    for i in range(n):
        a = spec.player(game.state.to_act).choose(game)
        apply_action(game, a)
        played.append({"seq": i, "action": a, "rolls": list(dice.log),
                       "hash": game.state_hash(), "live": True})
    return spec, armies, start, played


class FakeBridge:
    """The network side of this machine, as the screen sees it."""

    def __init__(self, record):
        self.events = queue.Queue()
        self.mode = "direct"
        self.record = record            # what this machine's network side holds
        self.saves = 0
        self.asked = []

    def record_between(self, first, end):
        self.asked.append((first, end))
        if self.record is None or len(self.record) < end:
            return None
        return [dict(self.record[i]) for i in range(first, end)]

    def save(self):
        self.saves += 1
        return "saved"

    def waiting_line(self):
        return ""

    def submit(self, action):
        pass

    def chat(self, text):
        return None

    def close(self):
        pass


def screen(app, record, seat="Allies"):
    from game.ui.scenes.battle import BattleScene
    from game.ui.scenes.net_battle import RemoteSeat, mirror_game
    from game.ui.scenes.net_host import setup_from_options
    spec, armies, start, played = reference(6)
    game = mirror_game({"scenario": "standard", "config": spec.config,
                        "options": spec.options, "start_rolls": start})
    setup = setup_from_options("standard", spec.config, spec.options)
    bridge = FakeBridge(played if record else None)
    setup.remote = RemoteSeat(bridge, seat)
    setup.remote.armies = armies
    battle = BattleScene(app, setup, game=game)
    app.switch(battle)
    step(app, 2)
    return battle, bridge, played


def feed(app, battle, bridge, event):
    bridge.events.put(("played", event))
    for _ in range(10):
        step(app, 1)


def test_a_played_message_ahead_of_the_battle_is_filled_from_the_record(app):
    """Action 1 then action 4 (2 and 3 missed): the screen takes 2 and 3 from the record,
    checks them against their hashes, says so in the log, then shows 4; the position is
    the reference battle's."""
    battle, bridge, played = screen(app, record=True)
    feed(app, battle, bridge, played[0])
    assert len(battle.game.history) == 1
    feed(app, battle, bridge, played[3])
    assert bridge.asked == [(1, 3)]
    assert len(battle.game.history) == 4 and battle.ai.stopped is None
    assert battle.game.state_hash() == played[3]["hash"]
    assert any("missed actions 2-3" in t for t, _ in battle.logp.lines)
    feed(app, battle, bridge, played[4])                 # and the battle goes on
    assert battle.game.state_hash() == played[4]["hash"]


def test_a_gap_the_record_cannot_fill_stops_the_battle_with_a_readable_line(app):
    """The same gap with nothing to fill it: action 4 is not applied (the position is the
    one after action 1), the battle stops with a line a player can read (no internal ids,
    no traceback), a save is written, and later messages change nothing."""
    battle, bridge, played = screen(app, record=False)
    feed(app, battle, bridge, played[0])
    before = battle.game.state_hash()
    feed(app, battle, bridge, played[3])
    assert len(battle.game.history) == 1 and battle.game.state_hash() == before
    line = battle.ai.stopped
    assert line and "missed action 2" in line and "stops" in line and "Traceback" not in line
    assert "axis-" not in line and "allies-" not in line
    assert bridge.saves == 1 and battle.ai.waiting_line == line
    feed(app, battle, bridge, played[1])                 # too late: the battle stopped
    assert len(battle.game.history) == 1


def test_a_direct_peer_asks_again_for_an_action_that_skips_ahead():
    """A direct peer given action 3 when it has applied none: not applied; it asks the
    other machine to send again from what it has (``resume``)."""
    from game.net.direct import Peer
    from game.net.headless import spec_for
    spec = spec_for(6, 2, turn_limit=1)

    async def main():
        sent = []
        p = Peer("Axis", scenario="standard", config=spec.config, options=spec.options,
                 army=spec.armies["Axis"], chain=spec.chain("Axis"))
        other = Peer("Allies", scenario="standard", config=spec.config, options=spec.options,
                     army=spec.armies["Allies"], chain=spec.chain("Allies"))

        async def send(msg):
            sent.append(msg)
        p.send = send
        await p.on_message({"t": "commit", "root": other.chain.root})
        await p.on_message({"t": "army_commit", "digest": "ab" * 32, "points": 100,
                            "count": 5})
        p.their_commit["digest"] = "ab" * 32
        p.commit_sent = True
        from game.net.dice import CommitRevealDice
        from game.net.session import build_game
        p.dice = CommitRevealDice("Axis", p.chain, other.chain.root)
        od = CommitRevealDice("Allies", other.chain, p.chain.root)
        for k in range(4):
            p.dice.their_reveal(k, od.my_reveal(k))
            p.dice.my_reveal(k)
        p.game = build_game("standard", spec.config, spec.options, None, p.dice)
        before = p.game.state_hash()
        to_act = p.game.state.to_act
        await p.on_message({"t": "action", "seq": 3, "action": {
            "type": "EndPhase", "side": "Allies"}})
        await p._step()
        return p, sent, before, to_act

    p, sent, before, to_act = asyncio.run(asyncio.wait_for(main(), 60))
    assert p.hashes == [] and p.game.state_hash() == before and not p.game.history
    assert {"t": "resume", "have": 0, "reveals": 4} in sent
    assert p.stopped is None


def test_a_relay_client_given_an_action_that_skips_ahead_resynchronises(tmp_path):
    """Through a relay: a seat handed action N+3 when it holds N actions does not apply it
    (its position stays), drops the line and comes back with what it has; the relay's
    record fills the gap and the battle finishes on both seats at the same position."""
    from game.net.client import RelayClient
    from game.net.headless import spec_for
    from game.net.relay import Relay, serve_relay
    from tests.net.test_net_carry_on import HoldAt
    spec = spec_for(4, 1, turn_limit=1)
    gate = {}

    async def main():
        relay = Relay(tmp_path / "store")
        server = await serve_relay(relay, "127.0.0.1", 0)
        url = f"ws://127.0.0.1:{server.sockets[0].getsockname()[1]}"
        a = RelayClient(url, player=HoldAt(spec.player("Axis"), 10, gate),
                        army=spec.armies["Axis"],
                        create={"scenario": "standard", "config": spec.config, "seat": "Axis",
                                "options": spec.options})
        ta = asyncio.ensure_future(a.run())
        await asyncio.wait_for(a.ready.wait(), 60)
        b = RelayClient(url, player=HoldAt(spec.player("Allies"), 10, gate),
                        army=spec.armies["Allies"], code=a.st.code)
        tb = asyncio.ensure_future(b.run())
        while not (len(a.hashes) == len(b.hashes) == 10):
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.1)                      # quiet: both hold at 10 actions
        before, n = b.game.state_hash(), len(b.hashes)
        await b._on({"t": "played", "seq": n + 2, "action": {"type": "EndPhase",
                                                             "side": "Allies"},
                     "rolls": [], "hash": "0" * 64})
        out = {"unchanged": b.game.state_hash() == before and len(b.hashes) == n
               and len(b.game.history) == n,
               "said": list(b.st.errors)}
        gate["go"] = True
        while not (a.done.is_set() and b.done.is_set()):
            await a._maybe_act()
            await b._maybe_act()
            await asyncio.sleep(0.05)
        await asyncio.gather(ta, tb)
        server.close()
        return a, b, out

    a, b, out = asyncio.run(asyncio.wait_for(main(), 300))
    assert out["unchanged"]
    assert any("action 13 arrived before action 11" in e for e in out["said"])
    assert b.st.reconnects >= 1 and a.st.desync is None and b.st.desync is None
    assert a.st.over is not None and a.game.state_hash() == b.game.state_hash()
