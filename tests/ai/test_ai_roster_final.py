"""The Veteran answers the last ground abilities' choices (game/ai/veteran.py): Firepower's
one more attack in its own hex (ruling 27)."""
from game.ai.base import make_player
from game.rules.actions import Attack, Move
from tests.rules.engine_kit import at
from tests.rules.test_roster_final import _firepower, _move


def test_the_veteran_makes_firepowers_attack_after_moving_into_the_enemy_hex():
    """Firepower, ruling 27: with the Intrepid Hero's move ended in the Grenadiers' hex,
    the Veteran's next action is Firepower's attack on them, explained."""
    g, hero, near, _ = _firepower([1] * 60)
    _move(g, Move("Allies", hero.uid, (at(4, 3),), None))
    ai = make_player("veteran", 1)
    a = ai.choose(g)
    assert isinstance(a, Attack) and a.uid == hero.uid and a.target == near.uid
    assert g.check(a) is None
    assert "extra attack" in ai.explain()


def test_the_veteran_lays_smoke_with_a_tank_in_danger_and_not_otherwise():
    """Smoke Screen, ruling 30: as its movement phase ends, the Veteran lays smoke with
    its Panzer III when enemy tanks could damage or destroy it next phase; with only far
    rifles around it keeps the smoke."""
    from game.data.units import card as roster_card
    from game.rules.actions import EndPhase, LaySmoke
    from game.rules.state import Phase
    from tests.rules.engine_kit import position, rect_map, tank
    from tests.rules.test_roster_final import _smoke
    g, panzer, _, _ = _smoke()
    panzer.acted = True
    ai = make_player("veteran", 1)
    assert isinstance(ai.choose(g), EndPhase)
    g2 = position(rect_map(12, 7), phase=Phase.MOVEMENT_FIRST, first="Axis")
    p2 = g2.add_unit(roster_card("Panzer III Ausf. F"), "Axis", at(3, 4))
    p2.acted = True
    for row in (3, 4, 5):
        g2.add_unit(tank("United States", name=f"Sherman {row}"), "Allies", at(6, row))
    ai2 = make_player("veteran", 1)
    a = ai2.choose(g2)
    assert a == LaySmoke("Axis", p2.uid) and "smoke" in ai2.explain()
