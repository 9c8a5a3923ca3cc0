"""A game with reserves (rulings 21-23) saves, loads, replays and crosses the network:
the new action kind EnterReserve goes through the actions' codec like every other."""
import pytest

from game import saves
from game.rules.actions import EnterReserve, action_to_dict
from game.rules.hexes import Hex


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("HEXFRONT_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("HEXFRONT_CONFIG_DIR", str(tmp_path / "cfg"))
    return tmp_path / "data"


def _game_with_reserves(seed=3, turns=3):
    from game.ai.base import make_player
    from game.data.maps import load_configuration
    from game.rules.dice import Dice
    from game.rules.engine import new_game
    from tests.saves_kit import armies
    arm = armies(axis=["Fallschirmjager", "Grizzled Veteran", "Mauser Kar 98k",
                       "Panzer IV Ausf. G"],
                 allies=["\"Screaming Eagle\" Captain", "\"Screaming Eagle\" Paratroopers",
                         "M1 Garand Rifle", "M4A1 Sherman"])
    g = new_game(load_configuration(1), arm, dice=Dice(seed),
                 options={"config": 1, "turn_limit": turns})
    players = {"Axis": make_player("veteran", seed), "Allies": make_player("veteran", seed + 1)}
    while not g.over:
        g.apply(players[g.state.to_act].choose(g))
    assert any(isinstance(a, EnterReserve) for a in g.history)
    return g


def test_a_game_with_reserves_round_trips_through_a_save_and_the_replay(tmp_path):
    g = _game_with_reserves()
    p = saves.save_game(g, tmp_path / "r.json")
    back = saves.load_game(p)
    assert back.state_hash() == g.state_hash()
    assert back.history == g.history
    r = saves.Replay.open(p)
    assert getattr(r, "problem", None) is None
    r.go(r.last)
    assert r.state.turn == g.state.turn
    entered = [i for i, a in enumerate(g.history) if isinstance(a, EnterReserve)]
    r.go(entered[0] + 1)
    uid = g.history[entered[0]].uid
    assert r.state.units[uid].hex == g.history[entered[0]].hex


def test_enter_reserve_crosses_the_network_codec():
    from game.net.messages import decode, encode, parse_action
    a = EnterReserve("Allies", "allies-2", Hex(3, -1))
    msg = decode(encode({"t": "action", "seq": 5, "action": action_to_dict(a)}))
    assert parse_action(msg["action"], side="Allies") == a
