"""Battle screen QA fixes: the casualty-phase and defensive-fire boxes sit in the side
panel (art direction: never hiding the units), and while the casualty phase is played
out the side panel shows the turn that is ending, not the next one."""
import pygame
import pytest

from game.rules.state import DefensiveFirePrompt, OrderChoice, Phase
from tests.rules.engine_kit import at, position, rect_map, rifles
from tests.ui.test_battle_play import _df_position, token
from tests.uikit import click, key, press, running_app, start, step


@pytest.fixture
def app(tmp_path, monkeypatch):
    yield from running_app(tmp_path, monkeypatch, animations=False)


def _over_map(scene) -> pygame.Surface:
    """What the top mode draws over the map, on black."""
    surf = pygame.Surface(scene.app.size)
    surf.fill((0, 0, 0))
    scene.overlays.painter(scene.mode).draw_over(surf)
    return surf


def _blank(surf, rect) -> bool:
    return all(surf.get_at((x, y))[:3] == (0, 0, 0)
               for x in range(rect.left, rect.right, 7) for y in range(rect.top, rect.bottom, 5))


def _casualty_game():
    bm = rect_map(12, 9, objective=(6, 4))
    g = position(bm, phase=Phase.ASSAULT_SECOND, dice=[5, 5, 2, 2] + [4] * 20)
    hurt = g.add_unit(rifles(), "Axis", at(2, 6), pending=["disrupted"])
    g.add_unit(rifles(), "Axis", at(1, 1), pending=["disrupted"])
    g.add_unit(rifles("United States"), "Allies", at(9, 4), acted=True)
    return g, hurt


def test_casualty_panel_shows_the_ending_turn_until_continue(app):
    """Rulebook: Casualty Phase, then the next turn's Initiative Phase - while the steps
    are played the header, log and dice tray show turn 1's casualty phase; the next
    turn's initiative (log line, dice, banner) appears only on Continue."""
    g, hurt = _casualty_game()
    scene = start(app, g)
    scene.anim.banner = None
    key(app, pygame.K_RETURN)                    # end the Allied assault phase
    m = scene.mode
    assert m.name == "casualty" and g.state.turn == 2     # the rules are already in turn 2
    shown = scene.hud.shown_state()
    assert shown.turn == 1 and shown.phase == Phase.CASUALTY and shown.to_act is None
    texts = [t for t, _ in scene.logp.lines]
    assert not any("Initiative" in t for t in texts[-6:]), texts[-6:]
    assert not any("Turn 2" in t for t in texts)
    assert not scene.dice.dice, "the initiative dice wait for Continue"
    assert scene.anim.banner is None, "no 'your turn' banner over the casualty phase"
    n_before = len(scene.logp.lines)
    key(app, pygame.K_SPACE)                     # one more step: one more log line
    assert m.shown == 2 and len(scene.logp.lines) > n_before
    while not m.done:
        key(app, pygame.K_SPACE)
    assert scene.hud.shown_state().turn == 1
    press(app, "continue")
    assert scene.mode.name == "order" and isinstance(g.state.pending, OrderChoice)
    assert scene.hud.shown_state() is g.state
    texts = [t for t, _ in scene.logp.lines]
    assert any("Turn 2" in t for t in texts) and any(t.startswith("Initiative") for t in texts)
    assert len(scene.dice.dice) == 4                # two dice each side
    assert scene.anim.banner is not None and "player" in scene.anim.banner[0]
    assert hurt.disrupted


def test_casualty_steps_are_listed_in_the_side_panel_not_over_the_map(app):
    """Art direction: the casualty box never hides the units - the steps are drawn in
    the side panel's card area; over the map only the step's hex and marks."""
    g, hurt = _casualty_game()
    scene = start(app, g)
    key(app, pygame.K_RETURN)
    m = scene.mode
    view = scene.view.rect
    old_box = pygame.Rect(view.x + 10, view.y + 10, 460, 80)   # where the box used to be
    assert _blank(_over_map(scene), old_box)
    surf = pygame.Surface(app.size)
    surf.fill((0, 0, 0))
    assert scene.overlays.painter(m).draw_side(surf, scene.card_rect) is True
    assert not _blank(surf, scene.card_rect.inflate(-30, -30))
    assert any("disrupted" in t for t, _ in scene.overlays.painter(m).lines(300))


def test_defensive_fire_odds_in_the_side_panel_not_over_the_map(app):
    """Rulebook: Provoking Defensive Fire (ruling 14) - the odds table of every eligible
    firer is in the side panel; the map keeps the mover and the firers in view."""
    g, mover, firer, a, b = _df_position([6] * 12)
    scene = start(app, g)
    click(app, token(scene, mover.uid))
    click(app, scene.view.center(b))
    assert isinstance(g.state.pending, DefensiveFirePrompt)
    m = scene.mode
    assert m.name == "defensive_fire"
    view = scene.view.rect
    assert _blank(_over_map(scene), pygame.Rect(view.x + 10, view.y + 10, 380, 70))
    rows = m.rows()
    assert [r[0] for r in rows] == [firer.uid] and 0 < rows[0][2] <= 1
    surf = pygame.Surface(app.size)
    surf.fill((0, 0, 0))
    assert scene.overlays.painter(m).draw_side(surf, scene.card_rect) is True
    assert not _blank(surf, pygame.Rect(scene.card_rect.x + 10, scene.card_rect.y + 5,
                                        scene.card_rect.w - 20, 40))
    step(app, 2)                                  # a whole frame draws with it
    press(app, "fire")
    assert firer.fired_defensively and scene.mode.name == "play"


def test_coin_flip_and_initiative_boxes_in_the_side_panel(app):
    """Rulebook: Getting Started (coin flip) and Initiative Phase - the box with the coin
    or the initiative dice is drawn in the side panel; the map centre stays clear."""
    from tests.ui.test_battle_setup import new_game_on_config1
    g = new_game_on_config1()
    scene = start(app, g)
    assert scene.mode.name == "order"
    view = scene.view.rect
    centre = pygame.Rect(0, 0, 300, 150)
    centre.center = view.center
    assert _blank(_over_map(scene), centre)
    surf = pygame.Surface(app.size)
    surf.fill((0, 0, 0))
    assert scene.overlays.painter(scene.mode).draw_side(surf, scene.card_rect) is True
    assert not _blank(surf, pygame.Rect(scene.card_rect.x + 20, scene.card_rect.y + 20, 120, 120))


def test_hovering_an_enemy_that_cannot_be_attacked_says_why(app):
    """Rulebook: Attacking (range and line of sight) - hovering an enemy the selected
    unit can't attack gives the rules' reason instead of nothing."""
    from game.rules.actions import Attack
    from tests.ui.test_battle_play import hover
    bm = rect_map(16, 11)
    g = position(bm, phase=Phase.ASSAULT_FIRST)
    me = g.add_unit(rifles(), "Axis", at(2, 5))
    far = g.add_unit(rifles("United States"), "Allies", at(14, 5))
    scene = start(app, g)
    click(app, token(scene, me.uid))
    assert scene.selected == me.uid
    why = g.check(Attack("Axis", me.uid, far.uid))
    assert why                                       # 12 hexes away: out of range
    hover(app, token(scene, far.uid), frames=2)
    assert scene.controller._cache.get(("why_attack", me.uid, far.uid)) == why


def test_setup_panel_counts_the_armies_not_points_on_the_map(app):
    """QA fix: before deployment the side panel lists each army's units and points
    (not '0 units on the map, 0 points'); from turn 1 units on the map and points."""
    from tests.ui.test_battle_setup import new_game_on_config1
    g = new_game_on_config1()
    scene = start(app, g)
    st = g.state
    axis_pts = sum(u.card.cost for u in st.units_of("Axis"))
    line = scene.hud.army_summary("Axis", 0)
    assert line == f"Axis: 3 units, {axis_pts} points; 0 placed"


def test_side_panel_says_1_unit_not_1_units(app):
    """Player-facing text: one unit is '1 unit' (seen in the tutorial's last lesson)."""
    bm = rect_map(8, 6)
    g = position(bm)
    g.add_unit(rifles(), "Axis", at(2, 2))
    g.add_unit(rifles("United States"), "Allies", at(6, 4))
    scene = start(app, g)
    assert scene.hud.army_summary("Axis", 3).startswith("Axis: 1 unit on the map, 3 points")


def test_a_loaded_game_log_keeps_its_colours(app):
    """QA fix: a loaded game's log shows phases in gold as during play."""
    from game.ui import theme
    g, hurt = _casualty_game()
    start(app, g)
    key(app, pygame.K_RETURN)
    press(app, "continue")
    from game.ui.scenes.battle import BattleScene
    again = BattleScene(app, None, game=g)
    phases = [c for t, c in again.logp.lines if "phase" in t and t.startswith("Turn")]
    assert phases and all(c == theme.ACCENT for c in phases)


def test_victory_subtitle_does_not_repeat_the_turn():
    """QA fix: 'after turn 10' is not repeated under a reason that already says 'at the
    end of turn 10' (rulebook: How to Win, points after turn 10)."""
    from game.ui.scenes.victory import subtitle
    assert subtitle({"turn": 10, "reason": "The Allied player has more points on the battle "
                                           "map at the end of turn 10 (72 to 61)"}) == ""
    assert subtitle({"turn": 7, "reason": "The Axis player controls the objective"}) == \
        "after turn 7"


def test_a_card_cut_short_in_the_side_panel_ends_above_its_more_line(app):
    """Found in a play-through (40mm Bofors, Large): the side panel's card ran its text to
    the bottom and the "more: right-click..." strip was painted over the last line, cutting
    it in half mid-sentence. The cut card now ends its text (with an ellipsis) above the
    strip, which is its footer: the rows just above the strip are clear paper."""
    from game.data.units import load_roster
    from game.ui import theme
    from game.ui.cardview import draw_card
    card = load_roster(edition="later")["40mm Bofors L60"]
    g = position(rect_map(12, 9))
    u = g.add_unit(card, "Allies", at(3, 4))
    g.add_unit(rifles(), "Axis", at(9, 4))
    scene = start(app, g)
    click(app, token(scene, u.uid))
    assert scene.selected == u.uid
    step(app, 2)
    cr = scene.card_rect
    card_h = cr.h - 46
    assert not draw_card(pygame.Surface((10, 10)), card, pygame.Rect(0, 0, cr.w, card_h))
    screen = app.screen if hasattr(app, "screen") else pygame.display.get_surface()
    strip_top = cr.y + card_h - 10 - 15
    dark = [(x, y) for y in range(strip_top - 3, strip_top)
            for x in range(cr.x + 14, cr.right - 14)
            if sum(screen.get_at((x, y))[:3]) < sum(theme.PAPER) - 150]
    assert not dark, dark[:5]
    strip = [(x, y) for y in range(strip_top, strip_top + 14) for x in range(cr.x + 14, cr.x + 200)
             if sum(screen.get_at((x, y))[:3]) < 200]
    assert strip                                           # the "more" line is there


def test_seat_banner_goes_when_the_seat_passes_to_a_side_not_played_here(app):
    """A 'your turn' banner is for the player whose seat it is: when the seat passes to
    a side this screen doesn't play (the AI, or the other machine of a network battle -
    a carried-on battle caught up at once), a banner still up for the last seat goes."""
    g, _ = _casualty_game()
    scene = start(app, g)
    hud = scene.hud
    hud.seat_banner("Axis", show=True)
    hud.seat_banner("Allies", show=True)
    assert scene.anim.banner is not None and "Allied player" in scene.anim.banner[0]
    hud.seat_banner("Axis", show=False)
    assert scene.anim.banner is None
    hud.seat_banner("Axis", show=False)          # the same seat again: nothing to show
    assert scene.anim.banner is None
