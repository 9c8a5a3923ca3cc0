"""Rules help (issue 17): F1 and the in-battle menu's Rules open every first-edition rule
in Hexfront's words, chapter by chapter, searchable, with the terrain chart and the hits
table read from game.rules; a refusal's "Why?" opens its rule; F1 on a unit opens its
ability texts - by posted keys, text input and clicks."""
import os

import pygame
import pytest

from game.rules import terrain as terrain_mod
from game.rules.combat import counters_for, hits_for
from game.rules.state import Phase
from game.rules.terrain import TERRAIN_RULES, Terrain
from game.ui.help import rules_text
from game.ui.help.links import rule_for
from tests.rules.engine_kit import at, position, rect_map, rifles
from tests.uikit import click, key, press, running_app, start, step


@pytest.fixture
def app(tmp_path, monkeypatch):
    yield from running_app(tmp_path, monkeypatch, animations=False)


def type_text(app, text):
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=text))
    step(app, 2)


def token(scene, uid):
    return scene.view.unit_slots(scene.game.state)[uid].center


def test_rules_help_is_organised_like_the_rulebook_and_covers_its_chapters():
    chapters = [c for c, _ in rules_text.CHAPTERS]
    assert chapters == ["The game", "Sequence of play", "Movement and position",
                        "Attack and defense", "Defensive fire", "Terrain", "Special abilities",
                        "Scenarios"]
    ids = [s.id for s in rules_text.sections()]
    for sid in ("goal", "initiative", "casualty", "stacking", "facing", "range", "los", "effects",
                "df-provoke", "df-attack", "movement-roll", "roads", "cover", "terrain-chart",
                "hits-table", "commanders", "assault-scenario", "history"):
        assert sid in ids
    # every ability the rules know has its text in the help
    from game.rules.abilities import spec
    for aid in spec.CATALOG:
        assert "ability:" + aid in ids
    # player-facing: no internal ids, no ruling numbers
    for s in rules_text.sections():
        assert "ruling" not in s.text().lower() and "axis-" not in s.text()


def test_rules_terrain_chart_and_hits_table_are_read_from_the_rules(monkeypatch):
    rows = {r[0]: r for r in rules_text.terrain_rows()}
    forest = TERRAIN_RULES[Terrain.FOREST]
    assert rows["Forest"][3] == f"{forest.vehicle_cover}+" and rows["Forest"][4] == "4+"
    assert rows["Marsh"][1] == "can't enter" and rows["Town"][5] == "yes"
    table = rules_text.hits_rows()
    head = table[0]
    for row in table[1:]:
        for c, d in enumerate(head[1:], 1):
            assert row[c] == str(hits_for(int(row[0]), int(d.split()[1])))
    assert rules_text.counter_rows()[2][1] == ", ".join(
        c.capitalize() for c in counters_for(True, False, [], 2))
    # not a copy: change the rules' value and the chart follows
    changed = dict(TERRAIN_RULES)
    changed[Terrain.TOWN] = terrain_mod.TerrainRules(True, 2, False, True, True, 6, 3, "x")
    monkeypatch.setattr(rules_text, "TERRAIN_RULES", changed)
    town = {r[0]: r for r in rules_text.terrain_rows()}["Town"]
    assert town[1:5] == ("costs 2 hexes", "normal", "6+", "3+")


def test_rules_help_opens_with_f1_searches_and_goes_back(app):
    from game.ui.help.scene import RulesHelpScene
    g = position(rect_map(10, 8))
    g.add_unit(rifles("United States"), "Allies", at(6, 4))
    scene = start(app, g)
    key(app, pygame.K_F1)
    helpsc = app.scene
    assert isinstance(helpsc, RulesHelpScene) and helpsc.current.id == "goal"
    type_text(app, "cover roll")
    assert helpsc.query == "cover roll" and helpsc.current.id == "cover"
    key(app, pygame.K_DOWN)
    assert helpsc.current.id == helpsc.results()[1].id
    for _ in range(len("cover roll")):
        key(app, pygame.K_BACKSPACE, frames=1)
    type_text(app, "terrain chart")
    assert helpsc.current.id == "terrain-chart" and helpsc.current.table
    step(app, 2)
    shots = os.environ.get("HEXFRONT_SCREENS")
    if shots:
        app.screenshot(os.path.join(shots, "rules_help_search.png"))
    for _ in range(len("terrain chart")):
        key(app, pygame.K_BACKSPACE, frames=1)
    assert helpsc.query == "" and helpsc.current.id == "terrain-chart"
    assert len(helpsc.results()) == len(rules_text.sections())
    step(app, 2)
    if shots:
        app.screenshot(os.path.join(shots, "rules_help.png"))
    # a click on a row of the list opens that rule
    rect, sid = next((r, s) for r, s in helpsc._rows if s == "hits-table") if any(
        s == "hits-table" for _, s in helpsc._rows) else helpsc._rows[-1]
    click(app, rect.center)
    assert helpsc.current.id == sid
    key(app, pygame.K_ESCAPE)
    assert app.scene is scene


def test_rules_entry_in_the_battle_menu(app):
    from game.ui.help.scene import RulesHelpScene
    g = position(rect_map(10, 8))
    g.add_unit(rifles("United States"), "Allies", at(6, 4))
    scene = start(app, g)
    key(app, pygame.K_ESCAPE)
    press(app, "rules")
    assert isinstance(app.scene, RulesHelpScene)
    press(app, "back")
    assert app.scene is scene and scene.mode.name != "menu"


def test_rules_why_of_a_refused_move_opens_its_rule(app):
    """A refusal shows 'F1: why?'; F1 opens the rule the reason belongs to."""
    from game.ui.help.scene import RulesHelpScene
    g = position(rect_map(16, 11, {(5, 5): "pond"}))
    r = g.add_unit(rifles(), "Axis", at(3, 5))
    scene = start(app, g)
    click(app, token(scene, r.uid))
    far = at(12, 5)
    click(app, scene.view.center(far))
    reason = scene.notice[0]
    assert reason == g.why_not_reach(r.uid, far)
    topic = rule_for(reason)
    assert topic is not None
    key(app, pygame.K_F1)
    assert isinstance(app.scene, RulesHelpScene) and app.scene.current.id == topic


def test_rules_why_of_a_refused_shot_opens_the_ability_text(app):
    """The Fixed Howitzer's refused shot names the ability: its text opens."""
    from game.ui.help.scene import RulesHelpScene
    from tests.ui.test_battle_issue11 import _howitzer_prompt
    g, mover, gun = _howitzer_prompt()
    scene = start(app, g)
    step(app, 3)
    key(app, pygame.K_n)
    assert "(Fixed Howitzer)" in scene.notice[0]
    key(app, pygame.K_F1)
    assert isinstance(app.scene, RulesHelpScene)
    assert app.scene.current.id == "ability:fixed_howitzer"
    assert "front arc" in app.scene.current.text().lower() or app.scene.current.paragraphs


def test_rules_f1_on_a_unit_opens_its_ability_texts(app):
    from game.ui.help.scene import RulesHelpScene
    from tests.ui.test_battle_issue11 import _howitzer_prompt
    g, mover, gun = _howitzer_prompt()
    g.state.pending = None
    g.state.moving = None
    g.state.phase = Phase.ASSAULT_FIRST
    g.state.first_player = gun.side
    g.state.touch()
    scene = start(app, g)
    click(app, token(scene, gun.uid))
    assert scene.selected == gun.uid
    scene.hud.notice = None
    key(app, pygame.K_F1)
    helpsc = app.scene
    assert isinstance(helpsc, RulesHelpScene)
    ids = [s.id for s in helpsc.results()]
    assert ids and all(i.startswith("ability:") for i in ids)
    assert "ability:fixed_howitzer" in ids
    press(app, "all")
    assert len(helpsc.results()) == len(rules_text.sections())


def test_rules_f1_over_an_odds_line_opens_its_rule(app):
    """The odds of the hovered enemy link to their rule: a rear hit to Vehicle facing,
    a target in a forest to Cover."""
    from game.ui.help.scene import RulesHelpScene
    from tests.rules.engine_kit import tank
    from tests.uikit import hover
    g = position(rect_map(12, 9, {(8, 4): "forest"}), phase=Phase.ASSAULT_FIRST)
    me = g.add_unit(tank(), "Axis", at(3, 4), facing=0)
    pz = g.add_unit(tank("United States", name="Sherman"), "Allies", at(4, 4), facing=0)
    gi = g.add_unit(rifles("United States", name="GIs"), "Allies", at(8, 4))
    assert g.odds(me.uid, pz.uid).front is False and g.odds(me.uid, gi.uid).cover_need
    scene = start(app, g)
    click(app, token(scene, me.uid))
    scene.hud.notice = None
    hover(app, token(scene, pz.uid), frames=2)
    key(app, pygame.K_F1)
    assert isinstance(app.scene, RulesHelpScene) and app.scene.current.id == "facing"
    key(app, pygame.K_ESCAPE)
    assert app.scene is scene
    scene.hud.notice = None
    hover(app, token(scene, gi.uid), frames=2)
    key(app, pygame.K_F1)
    assert app.scene.current.id == "cover"
