"""The baseline opponent: a uniformly random legal action (the arena's yardstick)."""
from __future__ import annotations

from game.rules.actions import Action, describe_action

from game.ai.base import Player

__all__ = ["RandomPlayer"]


class RandomPlayer(Player):
    """Picks uniformly among ``game.legal_actions()``."""

    level = "random"

    def pick(self, game) -> Action:
        acts = game.legal_actions()
        action = self.rng.choice(acts)
        self.say(f"{action.side} (random): {describe_action(action)}.")
        return action
