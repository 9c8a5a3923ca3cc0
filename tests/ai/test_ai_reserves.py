"""The AI brings reserves in sensibly (rulings 21-23; game/ai/reserves.py): a Hero first,
at the start of the movement phase, where its nation's Soldiers are; a Paratrooper last,
after every other unit has moved, into a hex the rules allow (never next to an enemy) -
for the Veteran, the Recruit and the Expert."""
import pytest

from game.ai.base import make_player
from game.data.units import card
from game.rules.actions import EndPhase, EnterReserve, Move
from game.rules.families.reserves import enemy_zone
from game.rules.state import Phase
from tests.rules.engine_kit import at, position, rect_map


def _position():
    g = position(rect_map(16, 11, objective=(8, 5)), phase=Phase.MOVEMENT_FIRST)
    st = g.state
    st.ends = {"Axis": "left", "Allies": "right"}
    st.objective = at(8, 5)
    g.add_unit(card("Fallschirmjager"), "Axis", uid="fj")
    g.add_unit(card("Grizzled Veteran"), "Axis", uid="hero")
    g.add_unit(card("Mauser Kar 98k"), "Axis", at(3, 5), uid="mauser")
    g.add_unit(card("Mauser Kar 98k"), "Axis", at(3, 3), uid="mauser2")
    g.add_unit(card("M1 Garand Rifle"), "Allies", at(11, 5), uid="gi")
    g.add_unit(card("M1 Garand Rifle"), "Allies", at(11, 3), uid="gi2")
    return g


@pytest.mark.parametrize("level", ["veteran", "recruit", "expert:0.05"])
def test_the_ai_enters_its_hero_first_and_drops_its_paratrooper_last(level):
    g = _position()
    ai = make_player(level, 1)
    done = []
    zone = enemy_zone(g.state, "Axis")
    for _ in range(30):
        a = ai.choose(g)
        done.append(a)
        if isinstance(a, EnterReserve):
            assert a.hex not in zone or a.uid == "hero"
            assert ai.explain()
        g.apply(a)
        if isinstance(a, EndPhase):
            break
    kinds = [(type(a).__name__, getattr(a, "uid", None)) for a in done]
    assert kinds[0] == ("EnterReserve", "hero"), kinds
    assert done[0].hex in (at(3, 5), at(3, 3))        # on a German Soldier (it may move on)
    assert ("EnterReserve", "fj") in kinds, kinds
    drop = kinds.index(("EnterReserve", "fj"))
    # nothing moves after the drop (ruling 22): it comes after every move
    assert not any(isinstance(a, Move) for a in done[drop + 1:])
