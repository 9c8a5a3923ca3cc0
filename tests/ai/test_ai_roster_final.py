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
