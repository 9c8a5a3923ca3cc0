"""Behaviour goldens (tests/golden/golden_kit.py): a bounded subset of the
recorded games and every perft position must replay to identical results.
bench/golden_record.py --check replays all of them."""
import pytest

from tests.golden import golden_kit as gk

RANDOM = 100
VETERAN = 20


@pytest.mark.parametrize("block", range(4))
def test_random_games_match_their_goldens(block):
    want = gk.load("random")[:RANDOM]
    per = RANDOM // 4
    for entry in want[block * per:(block + 1) * per]:
        assert gk.random_entry(entry["seed"]) == entry, f"random game seed {entry['seed']}"


def test_veteran_games_match_their_goldens():
    for entry in gk.load("veteran")[:VETERAN]:
        assert gk.veteran_entry(entry["index"]) == entry, f"Veteran game {entry['index']}"


def test_perft_counts_match_their_goldens():
    for entry in gk.load("perft"):
        assert gk.perft_entry(entry["position"]) == entry, f"perft position {entry['position']}"
