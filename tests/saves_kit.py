"""Played games for the save, replay, undo and bad-input tests (real maps, real cards)."""
from __future__ import annotations

import random

from game.rules.actions import EndPhase

AXIS = ["Panzer IV Ausf. G", "MG-42 Machine-Gun Team", "Mauser Kar 98k", "Sd Kfz 222"]
ALLIES = ["M4A1 Sherman", "Bazooka", "M1 Garand Rifle", "M3 Stuart"]


def armies(axis=AXIS, allies=ALLIES) -> dict:
    from game.data.units import card
    return {"Axis": [card(n) for n in axis], "Allies": [card(n) for n in allies]}


def new(seed: int = 7, config: int = 1, scenario: str = "standard", **opts):
    from game.data.maps import load_configuration
    from game.rules.dice import Dice
    from game.rules.engine import new_game
    options = {"config": config, "turn_limit": 12}
    options.update(opts)
    if scenario == "assault":
        options.setdefault("attacker", "Allies")
    return new_game(load_configuration(config), armies(), scenario=scenario, dice=Dice(seed),
                    options=options)


def play(game, actions: int, seed: int = 1, end_bias: float = 0.3):
    """Apply up to ``actions`` random legal actions (fewer if the game ends)."""
    rng = random.Random(seed)
    for _ in range(actions):
        if game.over:
            break
        acts = game.legal_actions()
        ends = [a for a in acts if isinstance(a, EndPhase)]
        others = [a for a in acts if not isinstance(a, EndPhase)]
        game.apply(ends[0] if ends and (not others or rng.random() < end_bias)
                   else rng.choice(others))
    return game


def played(actions: int = 80, seed: int = 7, config: int = 1, scenario: str = "standard"):
    return play(new(seed, config, scenario), actions, seed)


def resealed(data: dict) -> dict:
    """``data`` with its check hash recomputed: an edit made with the project's own
    API (so the deeper checks - armies, options, replay, position hash - are reached)."""
    from game.saves import content_hash
    if "check" in data:
        data["check"] = content_hash(data)
    return data
