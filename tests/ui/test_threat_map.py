"""Threat map (issue 17): X toggles it; for the selected unit (where it is, or in the
hovered hex) or the hovered unit it shows which enemy units could attack it next phase
with the rules' exact combined chances (game.rules.threat), and the enemy's reach -
by posted keys, clicks and mouse motion."""
import os

import pygame
import pytest

from game.rules.state import Phase
from game.rules.threat import Probe, threat_to
from game.ui.battle.threat_map import threat_lines
from tests.rules.engine_kit import at, position, rect_map, rifles, tank
from tests.uikit import click, hover, key, running_app, start, step


@pytest.fixture
def app(tmp_path, monkeypatch):
    yield from running_app(tmp_path, monkeypatch, animations=False)


def token(scene, uid):
    return scene.view.unit_slots(scene.game.state)[uid].center


def _battle():
    # a hill wall in column 7 rows 0-4 hides the upper-left from the Allied tank
    hills = {(7, r): "hill" for r in range(0, 5)}
    g = position(rect_map(14, 9, hills), phase=Phase.MOVEMENT_FIRST)
    me = g.add_unit(tank(), "Axis", at(3, 6), facing=0)
    gi = g.add_unit(rifles("United States"), "Allies", at(4, 6))
    sherman = g.add_unit(tank("United States"), "Allies", at(10, 6), facing=3)
    return g, me, gi, sherman


def test_threat_map_toggles_and_shows_the_rules_threat_to_the_selected_unit(app):
    g, me, gi, sherman = _battle()
    scene = start(app, g)
    key(app, pygame.K_x)
    assert scene.threat.on
    click(app, token(scene, me.uid))
    assert scene.selected == me.uid
    hover(app, token(scene, me.uid), frames=2)
    t = scene.threat.threat()
    expected = threat_to(g, me.uid, me.hex, me.facing)
    assert {s.attacker for s in t.sources} == {s.attacker for s in expected.sources} == {
        gi.uid, sherman.uid}
    assert t.p_destroyed == pytest.approx(expected.p_destroyed)
    assert t.p_hit == pytest.approx(expected.p_hit) and t.p_hit > 0
    lines = threat_lines(g, t)
    hurt = [s for s in expected.sources if s.odds.p_none < 1]
    assert f"{len(hurt)} enemy unit" in lines[0] and f"{round(expected.p_hit * 100)}%" in lines[1]
    assert all("axis-" not in ln and "allies-" not in ln for ln in lines)
    step(app, 2)
    if os.environ.get("HEXFRONT_SCREENS"):
        app.screenshot(os.path.join(os.environ["HEXFRONT_SCREENS"], "threat_map.png"))
    # "what if I moved there": behind the hills the Sherman can't see it
    behind = at(3, 1)
    hover(app, scene.view.center(behind), frames=2)
    t2 = scene.threat.threat()
    assert t2.hex == behind
    assert sherman.uid not in {s.attacker for s in t2.sources}
    assert t2.p_hit == pytest.approx(threat_to(g, me.uid, behind, me.facing).p_hit)
    assert g.state.units[me.uid].hex == at(3, 6)           # nothing moved
    key(app, pygame.K_x)
    assert not scene.threat.on and scene.threat.threat() is not None  # off: nothing drawn


def test_threat_map_enemy_reach_is_the_rules_movement_search(app):
    g, me, gi, sherman = _battle()
    scene = start(app, g)
    key(app, pygame.K_x)
    hover(app, token(scene, me.uid))
    reach = scene.threat.enemy_reach("Axis")
    probe = Probe(g)
    want = {sherman.hex, gi.hex} | set(probe.reachable(sherman.uid)) | set(
        probe.reachable(gi.uid))
    assert reach == want
    assert at(0, 0) not in reach and at(9, 6) in reach


def test_threat_map_for_a_hovered_enemy_unit(app):
    """With nothing selected, pointing at any unit asks the threat to it."""
    g, me, gi, sherman = _battle()
    scene = start(app, g)
    key(app, pygame.K_x)
    hover(app, token(scene, gi.uid), frames=2)
    t = scene.threat.threat()
    assert t is not None and t.target == gi.uid
    assert {s.attacker for s in t.sources} == {me.uid}


@pytest.mark.parametrize("with_flak", [False, True])
def test_threat_map_counts_the_enemys_aircraft_flying_over_the_unit(app, with_flak):
    """Later edition: the Axis fighter off the map will be placed where it likes (ruling
    L3) - the threat map lists it for the selected Allied rifles, flying over their hex.
    With an Allied flak with the rifles it draws the flak's fire first (ruling L4): the
    next line says the chance, from the rules' query."""
    from tests.rules.test_later_edition import aircraft, flak, later_game
    g = later_game(rect_map(12, 7), phase=Phase.MOVEMENT_FIRST)
    g.state.first_player, g.state.second_player = "Allies", "Axis"
    fighter = g.add_unit(aircraft("Germany", name="Bf 109 test fighter"), hex=None)
    gi = g.add_unit(rifles("United States"), hex=at(2, 3))
    if with_flak:                                # in the rifles' hex: it reaches every
        g.add_unit(flak(), hex=at(2, 3))         # hex the fighter could strike from
    g.add_unit(rifles("Germany"), hex=at(11, 3))
    scene = start(app, g)
    key(app, pygame.K_x)
    click(app, token(scene, gi.uid))
    hover(app, token(scene, gi.uid), frames=2)
    t = scene.threat.threat()
    src = next(s for s in t.sources if s.attacker == fighter.uid)
    assert (src.p_antiair > 0) == with_flak
    lines = threat_lines(g, t)
    i = next(i for i, ln in enumerate(lines) if "Bf 109 test fighter flying over" in ln)
    if not with_flak:
        assert not any("Antiair" in ln for ln in lines), lines
        return
    assert "Antiair there:" in lines[i + 1] and "to disrupt it before it strikes" in lines[i + 1]
    if os.environ.get("HEXFRONT_SHOTS"):         # a screenshot to look at
        pygame.image.save(app.screen, os.path.join(os.environ["HEXFRONT_SHOTS"],
                                                   "threat_antiair.png"))
