"""The command-line tools outside the rules (issue 12): ``python -m game.situations``
(the situation runner) and ``python -m game.roster`` (the roster table)."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENV = dict(os.environ, SDL_VIDEODRIVER="dummy", PYTHONPATH=str(ROOT))


def test_situation_runner_entry_point():
    r = subprocess.run([sys.executable, "-m", "game.situations", "-q",
                        "tests/situations/combat_cover.yaml"], cwd=ROOT, env=ENV,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "1 situation(s) ok" in r.stdout


def test_roster_ends_quietly_when_the_reader_stops():
    """``python -m game.roster | head -1``: no BrokenPipeError traceback.  The pipe's
    reading end is closed before the roster is printed, so every write fails."""
    r_fd, w_fd = os.pipe()
    os.close(r_fd)
    try:
        p = subprocess.run([sys.executable, "-m", "game.roster", "--abilities"], cwd=ROOT,
                           env=ENV, stdout=w_fd, stderr=subprocess.PIPE, timeout=120)
    finally:
        os.close(w_fd)
    err = p.stderr.decode()
    assert p.returncode == 0, (p.returncode, err)
    assert "Traceback" not in err and "BrokenPipe" not in err, err


def test_roster_prints_the_table():
    r = subprocess.run([sys.executable, "-m", "game.roster", "--nation", "Germany", "--type",
                        "Vehicle"], cwd=ROOT, env=ENV, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0 and "Panzer" in r.stdout, r.stdout + r.stderr
