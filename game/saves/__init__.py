"""Saved games: a human-readable JSON file that replays to the exact position.

A small package, one job per module, nothing imported from ``game.ui``:

- :mod:`game.saves.paths` - where the settings, saves, autosaves and the
  session marker live (the UI's settings use it too);
- :mod:`game.saves.fileformat` - what a save holds, writing it, and its full
  validation (the data files' Checker: every problem with file, line, entry,
  field; armies legal for the scenario and options; options validated and
  covered by the ``check`` hash; a seed 0 to 2**63 - 1; duplicate keys refused);
- :mod:`game.saves.storage` - atomic writes, autosaves kept per battle, the
  saves list (:func:`list_saves`), cleaning up after interrupted writes and the
  session marker that notices a crash;
- :mod:`game.saves.replaying` - replaying a save through the rules (the final
  position must match its hash) and the replay viewer's model.

Loading refuses, with one clear :class:`~game.rules.errors.DataError` (its
``problems`` list every one), an unknown version, a damaged or edited file, an
illegal army, an action the rules refuse or a different final position: never
a traceback and never a half-loaded game.
"""
from __future__ import annotations

from .fileformat import (FORMAT, MAX_ACTIONS, MAX_SAVE_BYTES, MAX_SEED, OPTION_FIELDS, VERSION,
                         SaveFile, battle_id_of, content_hash, dumps, game_to_dict, parse_save,
                         parse_save_bytes, read_save)
from .paths import autosave_dir, data_dir, saves_dir, session_path
from .replaying import Replay, ReplayStep, load_game, replay, rolls_of, start_game
from .storage import (AUTOSAVE_KEEP, AUTOSAVE_TOTAL, SaveInfo, autosave, begin_session,
                      clean_interrupted_writes, default_save_path, end_session,
                      latest_autosave, list_autosaves, list_saves, prune_autosaves, save_game,
                      save_info, write_atomic)

__all__ = ["FORMAT", "VERSION", "AUTOSAVE_KEEP", "AUTOSAVE_TOTAL", "MAX_SAVE_BYTES",
           "MAX_ACTIONS", "MAX_SEED", "OPTION_FIELDS", "SaveFile", "SaveInfo", "saves_dir",
           "autosave_dir", "data_dir", "default_save_path", "game_to_dict", "dumps",
           "write_atomic", "save_game", "read_save", "parse_save", "parse_save_bytes",
           "content_hash", "battle_id_of", "start_game", "replay", "load_game", "autosave",
           "list_autosaves", "latest_autosave", "list_saves", "save_info", "prune_autosaves",
           "clean_interrupted_writes", "begin_session", "end_session", "session_path",
           "Replay", "ReplayStep", "rolls_of"]
