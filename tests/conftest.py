"""Shared test set-up: headless SDL before pygame is ever imported."""
import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
# errors in a scene are re-raised instead of shown in the crash dialog (game.ui.crash)
os.environ["HEXFRONT_DEBUG"] = "1"
# the AI thinks inside the frame, not on a worker thread: frame for frame reproducible
# (game.ui.battle.ai_worker; tests/ui/test_battle_ai_thread.py runs the threaded path)
os.environ.setdefault("HEXFRONT_AI_SYNC", "1")

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
