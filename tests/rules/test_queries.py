"""game.rules.queries: the questions the battle screen asks the rules.

Defensive fire per defender and stage (rulebook: Defensive Fire, Provoking
Defensive Fire; ruling 14: the leave stage first, then the enter stage), and what
a unit may still do this phase (ruling 7: one activation per phase; the extra
actions of Double Shot, Strike and Fade... within it)."""
from tests.rules.engine_kit import at, card, position, rect_map, rifles, tank
from game.rules.actions import Attack, DefensiveFire, Move, PassDefensiveFire
from game.rules.cards import Ability
from game.rules.dice import LoadedDice
from game.rules.queries import defensive_fire_options, plain_text, unit_options
from game.rules.state import Phase

E, NE, NW, W, SW, SE = range(6)
F = at(5, 5)
A = F.neighbor(NE)           # in front of a gun at F facing east
B = F.neighbor(NW)           # adjacent to A and F, but outside that gun's front arc
MAP = rect_map(12, 11)


def howitzer():
    return tank("Germany", name="sIG 33", front=2, rear=2,
                abilities=(Ability("fixed_howitzer", None, "Fixed Howitzer",
                                   "front arc only"),))


def df_position(firer=None):
    g = position(MAP, dice=[1] * 40, first="Allies")
    mover = g.add_unit(tank("United States", name="Sherman"), "Allies", A)
    gun = g.add_unit(firer or howitzer(), "Axis", F)
    gun.facing = E
    g.apply(Move("Allies", mover.uid, (B,), W))
    return g, mover, gun


def test_fixed_howitzer_next_hex_outside_the_front_arc_is_refused_with_the_rules_reason():
    """ruling 14 + Fixed Howitzer: the gun may fire at the leave stage (the mover is in
    its front arc) but not at the next hex; the query says why and gives no odds."""
    g, mover, gun = df_position()
    p = g.state.pending
    assert p is not None and p.stage == "leave" and gun.uid in p.eligible
    before = g.state_hash()
    opts = defensive_fire_options(g)
    assert [o.uid for o in opts] == [gun.uid]
    o = opts[0]
    assert o.here.legal and o.here.odds is not None and 0 < o.here.p_stopped < 1
    assert o.here.action == DefensiveFire("Axis", gun.uid)
    assert o.next is not None and not o.next.legal and o.next.odds is None
    assert "front arc" in o.next.reason and "ruling" not in o.next.reason
    assert o.next.action == PassDefensiveFire("Axis")
    assert g.state_hash() == before and g.state.pending == p      # asked, nothing changed


def test_next_hex_odds_are_the_rules_odds_at_the_enter_stage():
    """ruling 14: an ordinary defender may fire at either stage; the next-hex odds are
    exactly the odds the rules give once the mover stands in the next hex."""
    g, mover, gun = df_position(tank("Germany", name="Panzer"))
    o = defensive_fire_options(g)[0]
    assert o.here.legal and o.next.legal
    g.apply(PassDefensiveFire("Axis"))
    assert g.state.pending.stage == "enter" and mover.hex == B
    at_enter = defensive_fire_options(g)[0]
    assert at_enter.next is None
    assert at_enter.here.odds == o.next.odds
    assert at_enter.here.odds == g.odds(gun.uid, mover.uid, defensive=True, at_hex=B)


def test_no_prompt_no_options():
    g = position(MAP)
    g.add_unit(rifles(), "Axis", F)
    assert defensive_fire_options(g) == []


def mg42():
    return card("MG-42", speed=1, soldier=(6, 4, 2),
                abilities=(Ability("double_shot", None, "Double Shot",
                                   "may attack twice"),))


def test_double_shot_second_attack_is_what_legal_actions_hold():
    """Double Shot: after the first attack the unit has acted (ruling 7), yet one more
    attack is legal within the activation; the query lists exactly those actions."""
    g = position(MAP, phase=Phase.ASSAULT_FIRST, dice=LoadedDice([1] * 40))
    mg = g.add_unit(mg42(), "Axis", F)
    t1 = g.add_unit(rifles("United States"), "Allies", F.neighbor(E).neighbor(E))
    g.apply(Attack("Axis", mg.uid, t1.uid))
    assert mg.acted
    opts = unit_options(g, mg.uid)
    legal = {a for a in g.legal_actions() if getattr(a, "uid", None) == mg.uid}
    assert set(opts.actions) == legal and opts.attacks
    assert opts.extra and opts.ability == "Double Shot"
    assert "one more attack (Double Shot)" in opts.summary
    assert "pick another unit to skip it" in opts.summary


def test_a_unit_that_has_acted_with_nothing_left_says_so():
    """ruling 7: one activation per phase."""
    g = position(MAP, phase=Phase.ASSAULT_FIRST, dice=LoadedDice([1] * 40))
    r = g.add_unit(rifles(), "Axis", F)
    t1 = g.add_unit(rifles("United States"), "Allies", F.neighbor(E).neighbor(E))
    g.apply(Attack("Axis", r.uid, t1.uid))
    opts = unit_options(g, r.uid)
    assert not opts.any and not opts.extra
    assert opts.reason and "acted" in opts.reason
    assert "ruling" not in opts.summary


def test_a_disrupted_unit_says_at_once_why_it_cannot_move():
    """rulebook: disrupted units can't move."""
    g = position(MAP)
    r = g.add_unit(rifles(), "Axis", F)
    r.disrupted = True
    opts = unit_options(g, r.uid)
    assert not opts.moves and "disrupted" in opts.reason


def test_moves_are_one_per_reachable_hex():
    g = position(MAP)
    r = g.add_unit(rifles(speed=2), "Axis", F)
    opts = unit_options(g, r.uid)
    moves = [a for a in g.legal_actions() if isinstance(a, Move) and a.uid == r.uid]
    assert set(opts.moves.values()) == set(moves) and len(opts.moves) == len(moves)
    assert "shaded hex" in opts.summary


def test_plain_text_drops_ruling_references():
    assert plain_text("X has already acted this phase (ruling 7: one activation per phase)") \
        == "X has already acted this phase"
    assert plain_text("C5 is not within five hexes of your end (ruling 8)") == \
        "C5 is not within five hexes of your end"
    assert plain_text("no LOS") == "no LOS"


def test_plain_text_drops_internal_unit_ids():
    assert plain_text("Panzer IV (axis-7) is not a unit of Allies") == \
        "Panzer IV is not a unit of Allies"
    assert plain_text("there is no unit 'allies-12'") == "there is no unit"


def test_movement_roll_chances():
    """Rulebook: Movement Rolls - a roll of 4+ on one die: one half; two rolls multiply."""
    from types import SimpleNamespace
    from game.rules.queries import reach_chance, roll_chance
    assert roll_chance(4) == 0.5 and roll_chance(1) == 1.0 and roll_chance(7) == 0.0
    each, total = reach_chance(SimpleNamespace(rolls=[SimpleNamespace(need=4),
                                                      SimpleNamespace(need=5)]))
    assert each == [0.5, 2 / 6] and abs(total - 1 / 6) < 1e-12
