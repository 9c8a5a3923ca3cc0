"""The solo-practice AI (issue 7): players that are clients of the rules
engine's action API, an army builder and a headless arena.

- ``base.Player``: ``choose(game) -> Action`` (always legal) and ``explain()``;
  ``make_player("random" | "recruit" | "veteran", seed)``.
- ``random_player.RandomPlayer``: uniformly random legal actions (the yardstick).
- ``recruit.RecruitAI``: a fixed behaviour table (move toward cover, then fire;
  targets strongest / weakest / nearest).
- ``veteran.VeteranAI``: scores candidate actions with the engine's exact odds,
  threat, cover and objective control, and plays the best.
- ``army_builder.build_army``: sensible legal armies for a budget and limits.
- ``arena``: ``python -m game.ai.arena --a veteran --b recruit --games 200 --seed 1``.
"""
