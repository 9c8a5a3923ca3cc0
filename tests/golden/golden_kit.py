"""Golden games and perft positions: behaviour fingerprints of the rules engine.

Recorded once on a known-good engine (``python bench/golden_record.py --record``) into the
JSON files next to this module; the suite (tests/golden/test_goldens.py) replays a
bounded subset and the bench (``bench/golden_record.py``, checking by default) all of them.
Any change of a final state hash, an action count or a legal-action listing is a
change of behaviour, so a refactoring of the rules must leave every entry alone.

Three kinds:
- random games: seeded random-vs-random games (quick_policy) on the six real
  configurations, the sample armies as recorded (:data:`GOLDEN_SAMPLE_ARMIES`, frozen)
  or seeded random roster armies, Standard and Assault;
- Veteran games: seeded Veteran-vs-Recruit games (game.ai; re-record them whenever
  the AI changes: ``python bench/golden_record.py --record --only veteran``);
- perft: seeded positions taken from random games, with the number of legal
  actions (plain and ``all_facings=True``) and a digest of the ordered listing.
"""
from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

HERE = Path(__file__).resolve().parent
FILES = {"random": HERE / "random_games.json", "veteran": HERE / "veteran_games.json",
         "perft": HERE / "perft.json"}

_MAPS: dict = {}
_ROSTER: list = []


def battle_map(config: int):
    from game.data.maps import load_configuration
    bm = _MAPS.get(config)
    if bm is None:
        bm = _MAPS[config] = load_configuration(config)
        bm.los  # noqa: B018 - build the LOS table once
    return bm


def roster() -> list:
    """The 47 Base Set cards the goldens were recorded with (not the whole roster):
    the goldens pin Base Set games, so a new card or ability can't change them; the
    whole roster's games are checked by tests/rules/test_roster_property.py and
    bench/fuzz_games.py."""
    if not _ROSTER:
        from game.data.units import LATER_SETS, load_roster
        _ROSTER[:] = [c for c in load_roster().values() if c.set_name != LATER_SETS]
    return _ROSTER


#: the sample armies (units/armies/sample_*.yaml) as they were when the random goldens
#: were recorded: every third random golden plays them, so a later change of a shipped
#: sample army (balancing, issue 14) can't change the goldens
GOLDEN_SAMPLE_ARMIES = {
    "Axis": ("Panzer IV Ausf. G", "Panzer IV Ausf. F2", "PaK 40 Antitank Gun",
             "MG-42 Machine-Gun Team", "SS-Hauptsturmführer", "SS-Panzergrenadier",
             "Mauser Kar 98k", "Mauser Kar 98k", "Mauser Kar 98k", "Mauser Kar 98k",
             "Mauser Kar 98k"),
    "Allies": ("M4A1 Sherman", "6-Pounder Antitank Gun", '"Red Devil" Captain', "Bazooka",
               "M1 Garand Rifle", "Vickers Machine-Gun Team", "KV-1", "M3 Stuart"),
}


def golden_sample_army(side: str) -> list:
    """The cards of ``side``'s frozen sample army (:data:`GOLDEN_SAMPLE_ARMIES`)."""
    from game.data.units import find_card
    cards = []
    for name in GOLDEN_SAMPLE_ARMIES[side]:
        card = find_card(name)
        if card is None:
            raise KeyError(f"golden sample army card {name!r} is not in the roster")
        cards.append(card)
    return cards


def _random_army(rng: random.Random, side: str, budget: int, max_units: int) -> list:
    cards = [c for c in roster() if c.side == side]
    army: list = []
    spent = 0
    while len(army) < max_units:
        fit = [c for c in cards if c.cost <= budget - spent]
        if not fit:
            break
        c = rng.choice(fit)
        army.append(c)
        spent += c.cost
    return army or [min(cards, key=lambda c: c.cost)]


def _log_digest(game) -> str:
    h = hashlib.sha256()
    for ev in game.log:
        h.update(type(ev).__name__.encode())
        h.update(getattr(ev, "text", "").encode("utf-8"))
        h.update(b"\n")
    return h.hexdigest()[:16]


def random_game(seed: int, *, stop_after: int | None = None):
    """Game ``seed`` of the random goldens, played to its end (or ``stop_after``
    actions); returns (game, actions applied)."""
    from game.rules.dice import Dice
    from game.rules.engine import new_game
    from tests.rules.engine_kit import quick_policy
    rng = random.Random(seed)
    config = 1 + seed % 6
    scenario = "assault" if seed % 7 == 6 else "standard"
    if seed % 3 == 0:
        armies = {s: golden_sample_army(s) for s in ("Axis", "Allies")}
    else:
        armies = {s: _random_army(rng, s, 100, 8) for s in ("Axis", "Allies")}
    game = new_game(battle_map(config), armies, scenario=scenario, dice=Dice(seed),
                    options={"turn_limit": 9})
    choose = quick_policy(rng, 0.3 + 0.1 * (seed % 3))
    n = 0
    while not game.over and n < 20000 and (stop_after is None or n < stop_after):
        game.apply(choose(game))
        n += 1
    return game, n


def random_entry(seed: int) -> dict:
    game, n = random_game(seed)
    st = game.state
    return {"seed": seed, "actions": n, "turn": st.turn,
            "winner": st.outcome.winner if st.outcome else None,
            "hash": game.state_hash(), "log": _log_digest(game)}


def veteran_entry(index: int) -> dict:
    """Veteran vs Recruit, as game.ai.arena.play_game plays game ``index`` (seed 1)."""
    from game.ai.arena import _armies
    from game.ai.base import make_player
    from game.rules.dice import Dice
    from game.rules.engine import new_game
    from game.rules.state import other_side
    seed = 1
    config = 1 + index % 6
    a_side = "Axis" if (index // 6) % 2 == 0 else "Allies"
    game_seed = seed * 100003 + index
    scenario = "assault" if index % 5 == 4 else "standard"
    options: dict = {"turn_limit": 12}
    attacker = None
    if scenario == "assault":
        attacker = "Axis" if random.Random(game_seed).random() < 0.5 else "Allies"
        options["attacker"] = attacker
    armies = _armies(roster(), scenario, game_seed, attacker)
    game = new_game(battle_map(config), armies, scenario=scenario, dice=Dice(game_seed),
                    options=options)
    players = {a_side: make_player("veteran", game_seed + 1),
               other_side(a_side): make_player("recruit", game_seed + 2)}
    n = 0
    while not game.over and n < 20000:
        game.apply(players[game.state.to_act].choose(game))
        n += 1
    st = game.state
    return {"index": index, "actions": n, "turn": st.turn,
            "winner": st.outcome.winner if st.outcome else None,
            "hash": game.state_hash(), "log": _log_digest(game)}


PERFT_POSITIONS = 30


def perft_position(i: int):
    """Perft position ``i``: random game 10_000 + i stopped after a seeded number
    of actions (deployment, movement with prompts, assault...)."""
    steps = (37 * i + 11) % 110 + 5
    game, _ = random_game(10_000 + i, stop_after=steps)
    return game


def perft_entry(i: int) -> dict:
    from game.rules.actions import action_to_dict
    game = perft_position(i)
    acts = game.legal_actions()
    every = game.legal_actions(all_facings=True)
    blob = json.dumps([action_to_dict(a) for a in acts], sort_keys=True)
    # depth 2 over a sample: the count of legal actions after each of the first few
    depth2 = []
    for a in acts[:6]:
        g = game.copy()
        g.apply(a)
        depth2.append(len(g.legal_actions()))
    return {"position": i, "phase": game.state.phase.value, "hash": game.state_hash(),
            "legal": len(acts), "all_facings": len(every), "depth2": depth2,
            "listing": hashlib.sha256(blob.encode()).hexdigest()[:16]}


def load(kind: str) -> list[dict]:
    return json.loads(FILES[kind].read_text(encoding="utf-8"))["entries"]


def note(kind: str) -> str:
    return json.loads(FILES[kind].read_text(encoding="utf-8"))["note"]


def save(kind: str, entries: list[dict], note: str) -> None:
    FILES[kind].write_text(json.dumps({"note": note, "entries": entries}, indent=1) + "\n",
                           encoding="utf-8")
