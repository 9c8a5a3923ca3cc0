"""The later edition's battlefield (checklist L21; ruling L13) and its situation files
(tests/situations/later_edition/, one or more per checklist item they name)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from game.data.later_maps import (configuration_for_roll, list_later_configurations,
                                  load_later_configuration)
from game.data.situations import load_situation
from game.rules.mapstats import compare_ends
from game.rules.terrain import Terrain
from game.situations import run_situation

FOLDER = Path(__file__).resolve().parent.parent / "situations" / "later_edition"
FILES = sorted(FOLDER.glob("*.yaml"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_later_edition_situation(path):
    """Each later-edition situation file says ``edition: later`` and passes."""
    sit = load_situation(path)
    assert sit.options.get("edition") == "later"
    assert sit.rule.startswith("later edition: L")
    result = run_situation(sit)
    assert result.ok, "\n".join(result.problems)


def test_L21_three_configurations_picked_by_a_die():
    """L21 / ruling L13: River Line (1-2), Village Skirmish (3-4), Hill 203 (5-6)."""
    assert list_later_configurations() == [(1, "River Line"), (2, "Village Skirmish"),
                                           (3, "Hill 203")]
    assert [configuration_for_roll(d) for d in range(1, 7)] == [1, 1, 2, 2, 3, 3]
    with pytest.raises(ValueError):
        configuration_for_roll(7)


@pytest.mark.parametrize("number", [1, 2, 3])
def test_L21_configurations_are_two_sections_side_by_side(number):
    """Ruling L13: two 7 x 10 sections side by side (14 x 10), faces of two different
    sheets; each configuration fits its name."""
    bm = load_later_configuration(number)
    assert len(bm.terrain) == 140 and len(bm.sections) == 2
    assert len(bm.rows) == 10 and all(len(r) == 14 for r in bm.rows.values())
    assert bm.objective in bm.terrain
    kinds = set(bm.terrain.values())
    if number == 1:                      # River Line: streams to cross, bridges on the road
        assert len(bm.streams) >= 30 and len(bm.bridges) == 2
    if number == 2:                      # Village Skirmish: town and hedges around it
        assert sum(t is Terrain.TOWN for t in bm.terrain.values()) >= 10 and bm.hedges
        assert bm.terrain[bm.objective] is Terrain.TOWN
    if number == 3:                      # Hill 203: hills and bluffs, objective on the crest
        assert Terrain.BLUFFS in kinds and bm.cliffs
        assert bm.terrain[bm.objective] in (Terrain.HILL, Terrain.BLUFFS)


@pytest.mark.parametrize("number", [1, 2, 3])
def test_L19_L21_ends_compare_within_one_hex_of_the_objective(number):
    """Both ends are within a hex of each other from the objective (three-hex zones)."""
    ends = compare_ends(load_later_configuration(number), depth=3)
    d = [ends[e].objective_distance for e in ("left", "right")]
    assert abs(d[0] - d[1]) <= 1 and len(ends["left"].zone) == len(ends["right"].zone) == 30


@pytest.mark.parametrize("number", [1, 2, 3])
def test_a_later_game_plays_out_on_each_configuration(number):
    """Random play of a later-edition game ends on each configuration (N = 1 game)."""
    from game.data.units import load_roster
    from game.rules.dice import Dice
    from game.rules.engine import new_game
    roster = load_roster(edition="later")
    rng = random.Random(number)
    def army(side):
        cards = [c for c in roster.values() if c.side == side]
        return (rng.sample([c for c in cards if c.is_aircraft], 2)
                + rng.sample([c for c in cards if not c.is_aircraft], 5))
    g = new_game(load_later_configuration(number), {"Axis": army("Axis"), "Allies": army("Allies")},
                 dice=Dice(number), options={"edition": "later"})
    n = 0
    while not g.over and n < 4000:
        g.apply(rng.choice(g.legal_actions()))
        n += 1
    assert g.over


@pytest.mark.parametrize("number", [1, 2, 3])
def test_L21_render_map_cli_draws_each_later_configuration(tmp_path, number):
    """`python main.py --edition later --render-map N --out FILE.png` (N = 1-3) writes the
    picture; a later configuration number past 3 is refused with one sentence."""
    import os
    import subprocess
    import sys
    root = Path(__file__).resolve().parent.parent.parent
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               PYGAME_HIDE_SUPPORT_PROMPT="1")
    out = tmp_path / f"later{number}.png"
    r = subprocess.run([sys.executable, "main.py", "--edition", "later", "--render-map",
                        str(number), "--out", str(out), "--zones"], cwd=root, env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert out.stat().st_size > 10_000
    if number == 3:
        r = subprocess.run([sys.executable, "main.py", "--edition", "later", "--render-map", "4",
                            "--out", str(out)], cwd=root, env=env, capture_output=True,
                           text=True, timeout=120)
        assert r.returncode == 2 and "no later-edition configuration 4" in r.stderr
