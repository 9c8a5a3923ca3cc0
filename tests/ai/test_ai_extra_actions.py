"""The AIs take the extra actions abilities add to an activation (issue 7, issue 5):
Double Shot's second attack, All Guns Blazing, the hull cannon, Strike and Fade's
move, and Soldiers firing from a Fighting Platform (Overrun and No Turret give no
extra action as the cards print them: issue 18).  Scripted positions where taking the extra action is
clearly right; the engine lists these actions in ``Game.legal_actions``."""
import time

from tests.rules.engine_kit import at, position, rect_map, rifles, tank
from game.ai.recruit import RecruitAI
from game.ai.veteran import VeteranAI
from game.data.units import load_roster
from game.rules.actions import Attack, Move, PassDefensiveFire
from game.rules.state import DISRUPTED, Phase

ROSTER = {c.id: c for c in load_roster().values()}
MAP = rect_map(12, 8, {(6, 1): "forest", (6, 2): "forest", (6, 3): "forest"})


def _assault(dice=None):
    # all 1s: every attack misses, so the position after an attack is the same
    return position(MAP, phase=Phase.ASSAULT_FIRST, dice=dice or [1] * 400)


def _choose(ai, g):
    a = ai.choose(g)
    assert g.check(a) is None
    assert a in g.legal_actions(all_facings=True), a
    return a


def test_double_shot_second_attack_on_a_hit_target():
    """ability: Double Shot - after its first attack the MG team attacks again (the
    target already carries a face-down Disrupted counter: a second hit destroys it),
    before any other unit acts and ends the activation."""
    g = _assault()
    mg = g.add_unit(ROSTER["mg-42-machine-gun-team"], "Axis", at(1, 2))
    g.add_unit(rifles("Germany"), "Axis", at(1, 4))
    t = g.add_unit(rifles("United States"), "Allies", at(3, 2))
    g.apply(Attack("Axis", mg.uid, t.uid))
    t.pending = [DISRUPTED]
    extra = Attack("Axis", mg.uid, t.uid)
    assert extra in g.legal_actions()
    ai = VeteranAI(1)
    assert _choose(ai, g) == extra
    assert "extra attack" in ai.explain()


def test_recruit_also_fires_its_double_shot():
    """ability: Double Shot - the Recruit's table: fire again when the ability allows."""
    g = _assault()
    mg = g.add_unit(ROSTER["mg-42-machine-gun-team"], "Axis", at(1, 2))
    g.add_unit(rifles("Germany"), "Axis", at(1, 4))
    t = g.add_unit(rifles("United States"), "Allies", at(3, 2))
    g.apply(Attack("Axis", mg.uid, t.uid))
    ai = RecruitAI(1)
    assert _choose(ai, g) == Attack("Axis", mg.uid, t.uid)
    assert "again" in ai.explain()


def test_all_guns_blazing_extra_attack_on_soldiers():
    """ability: All Guns Blazing - after attacking, the Stuart attacks enemy Soldiers."""
    g2 = position(MAP, phase=Phase.ASSAULT_FIRST, dice=[1] * 400, first="Allies")
    stuart = g2.add_unit(ROSTER["m3-stuart"], "Allies", at(1, 2), facing=0)
    pz = g2.add_unit(tank("Germany"), "Axis", at(3, 3), facing=3)
    gi = g2.add_unit(rifles("Germany"), "Axis", at(3, 2))
    g2.add_unit(rifles("United States"), "Allies", at(1, 5))
    g2.apply(Attack("Allies", stuart.uid, pz.uid))
    gi.pending = [DISRUPTED]
    extra = Attack("Allies", stuart.uid, gi.uid)
    assert extra in g2.legal_actions()
    assert _choose(VeteranAI(1), g2) == extra


def test_hull_cannon_after_the_main_gun():
    """ability: Additional Hull-Mounted Cannon - the Lee fires its second gun at the
    damaged tank it has just attacked (a hit destroys it)."""
    g = position(MAP, phase=Phase.ASSAULT_FIRST, dice=[1] * 400, first="Allies")
    lee = g.add_unit(ROSTER["m3-lee"], "Allies", at(1, 2), facing=0)
    pz = g.add_unit(tank("Germany"), "Axis", at(3, 2), facing=0, damaged=True)
    g.add_unit(rifles("United States"), "Allies", at(1, 5))
    g.apply(Attack("Allies", lee.uid, pz.uid))
    extra = Attack("Allies", lee.uid, pz.uid, "additional_hull_mounted_cannon")
    assert extra in g.legal_actions()
    assert _choose(VeteranAI(1), g) == extra


def test_overrun_is_no_attack_after_the_move():
    """ability: Overrun (as the card prints it, issue 18) - driving into the Soldiers'
    hex disrupts one of them on the way in; no attack follows in that activation, so
    the AI (choosing from legal_actions) gets on with another unit."""
    g = _assault()
    tiger = g.add_unit(ROSTER["tiger-i"], "Axis", at(3, 4), facing=0)
    gi = g.add_unit(rifles("United States"), "Allies", at(4, 4))
    g.add_unit(rifles("Germany"), "Axis", at(1, 1))
    g.apply(Move("Axis", tiger.uid, (at(4, 4),), 0))
    while g.state.pending is not None:
        g.apply(PassDefensiveFire(g.state.to_act))
    assert gi.disrupted
    assert not [a for a in g.legal_actions() if getattr(a, "uid", None) == tiger.uid]
    assert getattr(_choose(VeteranAI(1), g), "uid", None) != tiger.uid


def test_no_turret_attacks_soldiers_behind_it_without_turning():
    """ability: No Turret (as the card prints it, issue 18) - only Vehicles outside its
    front are barred and there is no turn before an attack: the StuG facing away from
    a Soldier behind it simply attacks it."""
    g = _assault()
    stug = g.add_unit(ROSTER["stug-iii-ausf-g"], "Axis", at(5, 4), facing=0)
    sh = g.add_unit(tank("United States"), "Allies", at(2, 4), facing=3, damaged=True)
    gi = g.add_unit(rifles("United States"), "Allies", at(3, 4), pending=[DISRUPTED])
    assert g.check(Attack("Axis", stug.uid, sh.uid)) is not None
    first = _choose(VeteranAI(1), g)
    assert first == Attack("Axis", stug.uid, gi.uid)


def test_strike_and_fade_moves_out_of_sight_after_attacking():
    """ability: Strike and Fade N - the armoured car has fired; enemy tanks watch it
    in the open: it fades behind the forest."""
    g = _assault()
    car = g.add_unit(ROSTER["sd-kfz-222"], "Axis", at(5, 4), facing=0)
    for c, r in ((8, 2), (8, 3), (8, 4)):
        g.add_unit(tank("United States"), "Allies", at(c, r), facing=3)
    t = g.add_unit(rifles("United States"), "Allies", at(7, 4))
    g.apply(Attack("Axis", car.uid, t.uid))
    ai = VeteranAI(1)
    a = _choose(ai, g)
    assert isinstance(a, Move) and a.uid == car.uid and a.path, (a, ai.explain())
    assert ai.view.loss(car, a.path[-1]) < ai.view.loss(car, car.hex)


def test_fighting_platform_passenger_fires():
    """ability: Fighting Platform - the Soldiers aboard the halftrack fire at the
    hit enemy Soldiers in reach (the halftrack has no better use of the phase)."""
    g = _assault()
    ht = g.add_unit(ROSTER["sd-kfz-251"], "Axis", at(2, 2), facing=0)
    rider = g.add_unit(rifles("Germany"), "Axis", carrier=ht.uid)
    gi = g.add_unit(rifles("United States"), "Allies", at(3, 2), pending=[DISRUPTED])
    a = _choose(VeteranAI(1), g)
    assert isinstance(a, Attack) and a.target == gi.uid
    assert a.uid in (rider.uid, ht.uid)
    if a.uid == ht.uid:                 # the halftrack fired first: the rider still may
        g.apply(a)
        assert _choose(VeteranAI(1), g) == Attack("Axis", rider.uid, gi.uid)


def test_extra_action_decisions_are_fast():
    """The follow-up look (the activated unit's extra actions) keeps decisions quick."""
    g = _assault()
    mg = g.add_unit(ROSTER["mg-42-machine-gun-team"], "Axis", at(1, 2))
    foes = []
    for r in range(0, 8, 2):
        g.add_unit(rifles("Germany"), "Axis", at(0, r))
        foes.append(g.add_unit(rifles("United States"), "Allies", at(4, r)))
    g.apply(Attack("Axis", mg.uid, foes[1].uid))
    ai = VeteranAI(1)
    t0 = time.perf_counter()
    for _ in range(5):
        ai.choose(g)
    assert (time.perf_counter() - t0) / 5 < 0.5
