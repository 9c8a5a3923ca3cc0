"""The solo-practice AI (issues 7 and 14): players that are clients of the
rules engine's action API and queries, an army builder and a headless arena.
The AI keeps no copy of a rule: odds, threat, path risk and victory timing come
from the rules (``Game.odds`` / ``targets`` / ``reachable`` and
``game.rules.threat``).

- ``base.Player``: ``choose(game) -> Action`` (always legal) and ``explain()``;
  ``make_player("random" | "recruit" | "veteran" | "expert", seed, budget=None)``.
- ``random_player.RandomPlayer``: uniformly random legal actions (the yardstick).
- ``recruit.RecruitAI``: a fixed behaviour table (move toward cover, then fire;
  targets strongest / weakest / nearest).
- ``veteran.VeteranAI``: scores candidate actions with the rules' exact odds and
  threat (abilities included), the risks on the way, cover and the objective by
  turn, and plays the best.
- ``expert.ExpertAI``: plans the phase for all its units on copies of the game
  with their own seeded dice, the opponent's reply included, within a time
  budget per decision (default 1 s).
- ``army_builder.build_army``: sensible legal armies (one nation or a historical
  pairing unless mixed) for a budget and limits.
- ``arena``: ``python -m game.ai.arena --a expert --b veteran --games 40 --budget 0.2``.
"""
