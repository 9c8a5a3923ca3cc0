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
