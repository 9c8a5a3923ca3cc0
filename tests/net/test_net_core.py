"""game/net's core has no pygame (issue 16: the network is headless; the UI is a
client), LAN discovery is bounded, and network saves replay."""
import json
import subprocess
import sys

from game.net.discovery import advertise, browse
from game.net.headless import spec_for
from game.net.session import net_save_dict, read_net_save, replay_record, write_net_save


def test_the_network_package_never_imports_pygame():
    code = ("import sys; import game.net.messages, game.net.dice, game.net.session, "
            "game.net.relay, game.net.client, game.net.direct, game.net.bridge, "
            "game.net.discovery, game.net.headless; print('pygame' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60, cwd=str(__import__("pathlib").Path(__file__).parents[2]))
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


def test_lan_discovery_lists_a_hosted_battle_without_its_join_code():
    ad = advertise(45999, "SECRET", "assault", 4, address="127.0.0.1", name="hexfront-test")
    if ad is None:                       # no multicast here: the join screen says so
        assert browse(0.2) == []
        return
    try:
        found = browse(1.5)
    finally:
        ad.close()
    mine = [f for f in found if f.port == 45999]
    assert mine and mine[0].scenario == "assault" and mine[0].config == 4
    assert "SECRET" not in json.dumps([f.__dict__ for f in found])


def test_a_network_save_replays_to_the_same_position(tmp_path):
    from game.net.dice import TableDice, offline_rolls
    from game.net.headless import _play_local
    spec = spec_for(3, 2, turn_limit=1)
    rolls = offline_rolls(spec.chain("Axis"), spec.chain("Allies"), 300)
    game = _play_local(spec, TableDice(rolls))
    used = rolls[:game.dice.pos]
    p = write_net_save(tmp_path / "n.json", net_save_dict(
        mode="direct", scenario="standard", config=spec.config, options=spec.options,
        armies=spec.armies, actions=game.history, rolls=used, hashes=[], seat="Axis"))
    d = read_net_save(p)
    again = replay_record(d["scenario"], d["config"], d["options"], d["armies"], d["actions"],
                          d["rolls"])
    assert again.state_hash() == game.state_hash()


def test_the_relay_journal_appends_per_action_and_drops_a_line_cut_short(tmp_path):
    """The relay's store: a head line, then one appended line per action; a last line cut
    short by a crash is dropped when read (that action was never confirmed) and the next
    write rewrites the journal whole; an older whole-file store still loads."""
    from game.net.relay import Relay, RelayGame, read_stored
    relay = Relay(tmp_path)
    g = RelayGame("abcd1234", "standard", 1, {}, 5, "ab" * 16, {"Axis": "x" * 64,
                                                              "Allies": None}, "CODE23")
    relay.save(g)
    act = {"type": "ChooseOrder", "side": "Axis", "go_first": True}
    for i in range(3):
        g.actions.append(act), g.rolls.append([i + 1]), g.hashes.append(f"{i:064x}")
        relay.append(g)
    path = tmp_path / "game-abcd1234.jsonl"
    assert len(path.read_text().splitlines()) == 4           # head + 3 appended lines
    d = read_stored(path)
    assert d["actions"] == [act] * 3 and d["rolls"] == [[1], [2], [3]] and d["journal_clean"]
    with open(path, "a") as f:
        f.write('{"a": {"type": "EndPh')                     # killed while appending
    d = read_stored(path)
    assert len(d["actions"]) == 3 and not d["journal_clean"]
    again = Relay(tmp_path)
    g2 = again.games["abcd1234"]
    assert len(g2.actions) == 3 and g2.stored == -1 and again.codes == {"CODE23": "abcd1234"}
    g2.actions.append(act), g2.rolls.append([]), g2.hashes.append("f" * 64)
    again.append(g2)                                          # rewritten whole, then clean
    d = read_stored(path)
    assert len(d["actions"]) == 4 and d["journal_clean"]
    old = dict(g2.to_json(), id="0ld0ld00", code=None)       # a store from before journals
    (tmp_path / "game-0ld0ld00.json").write_text(json.dumps(old))
    assert len(Relay(tmp_path).games["0ld0ld00"].actions) == 4
