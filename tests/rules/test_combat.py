"""Attacks, hit counters and cover (rulebook: Attack and Defense; Cover; Defensive Fire).

Each test names the rule it checks.  Positions are built in code on a small clear
map; the dice are loaded, so every roll is known."""
from __future__ import annotations

import math

import pytest

from game.rules import abilities
from game.rules.board import BattleMap
from game.rules.cards import Ability, UnitCard
from game.rules.combat import (counters_for, hits_for, is_front, plan_attack, resolve_attack,
                               why_not_attack)
from game.rules.dice import LoadedDice
from game.rules.errors import IllegalAction
from game.rules.events import CounterPlaced, CoverRolled, DiceRolled, HitsScored, UnitStopped
from game.rules.hexes import DIRECTIONS, Hex, Hexside, hexes_within
from game.rules.state import GameState, Phase, Unit
from game.rules.terrain import Terrain


def _card(name, type_="Soldier", defense=(4, 4), soldier=(6, 5, 4), vehicle=(8, 7, 6),
          abilities_=()):
    att = {"Soldier": dict(zip(("short", "medium", "long"), soldier)),
           "Vehicle": dict(zip(("short", "medium", "long"), vehicle))}
    return UnitCard(name=name, nationality="Germany" if name.startswith("ax") else "United States",
                    cost=10, year=1942, type=type_, subtype=None, speed=3,
                    defense_front=defense[0], defense_rear=defense[1], attack=att,
                    abilities=tuple(abilities_))


SOLDIER = _card("al-soldier")
VEHICLE = _card("al-tank", "Vehicle", defense=(5, 3))
AX_SOLDIER = _card("ax-soldier")
AX_GUN = _card("ax-gun", soldier=(3, 3, 3), vehicle=(11, 9, None))
SHERMAN = UnitCard("M4A1 Sherman", "United States", 21, 1942, "Vehicle", "Tank", 4, 5, 4,
                   {"Soldier": {"short": 9, "medium": 9, "long": 7},
                    "Vehicle": {"short": 13, "medium": 11, "long": 9}})
PANZER = UnitCard("Panzer IV Ausf. G", "Germany", 23, 1942, "Vehicle", "Tank", 3, 5, 3,
                  {"Soldier": {"short": 7, "medium": 7, "long": 6},
                   "Vehicle": {"short": 15, "medium": 13, "long": 11}})


_MAPS: dict = {}


def _state(terrain=None, roads=()):
    """A blank assault-phase state on a clear map of radius 9 (maps are cached: the
    line-of-sight table is built once per terrain layout)."""
    key = (frozenset((terrain or {}).items()), frozenset(roads))
    m = _MAPS.get(key)
    if m is None:
        t = {h: Terrain.CLEAR for h in hexes_within(Hex(0, 0), 9)}
        t.update(terrain or {})
        m = _MAPS[key] = BattleMap("test", t, roads=frozenset(Hexside.between(a, b)
                                                              for a, b in roads))
    return GameState.blank(m, phase=Phase.ASSAULT_FIRST, first_player="Axis")


def _add(st, uid, card, side, hex_, facing=0, **kw):
    u = Unit(uid, card, side, hex_, facing, **kw)
    st.units[uid] = u
    return u


def _duel(target_card=SOLDIER, attacker_card=AX_SOLDIER, dist=2, terrain=None, **tkw):
    st = _state(terrain)
    _add(st, "a", attacker_card, "Axis", Hex(0, 0))
    _add(st, "t", target_card, "Allies", Hex(dist, 0), **tkw)
    return st


# --- front and rear (ruling 1) -------------------------------------------------------------
def test_front_arc_neighbours_ruling_1():
    """ruling 1 / rulebook: Vehicle Facing - the three hexes ahead are front, the three
    behind are rear."""
    t = Hex(0, 0)
    for facing in range(6):
        for d in range(6):
            expected = (d - facing) % 6 in (0, 1, 5)
            assert is_front(t, facing, t + DIRECTIONS[d]) is expected, (facing, d)


def test_same_hex_and_exactly_left_right_are_rear_ruling_1():
    """ruling 1: attacks from the same hex and from hexes exactly to the right or left
    (centre on the line square to the facing) are against the rear defense."""
    t = Hex(0, 0)
    assert not is_front(t, 0, t)
    # Facing east: the line through the centre is vertical (doubled column x2 == 0).
    for h in (Hex(1, -2), Hex(-1, 2), Hex(2, -4), Hex(-3, 6)):
        assert h.x2 == 0
        assert not is_front(t, 0, h)
        assert not is_front(t, 3, h)
    assert is_front(t, 0, Hex(2, -3))          # x2 = 1: just ahead of the line


def test_front_arc_matches_geometry_everywhere_ruling_1():
    """ruling 1, exact: agrees with the Euclidean half-plane test for every hex within
    8 (no point is ambiguous: integer test, and floats have a clear margin)."""
    s3 = math.sqrt(3)
    t = Hex(2, -1)
    for facing in range(6):
        f = DIRECTIONS[facing]
        fx, fy = s3 * (f.q + f.r / 2), 1.5 * f.r
        for h in hexes_within(t, 8):
            d = h - t
            dot = s3 * (d.q + d.r / 2) * fx + 1.5 * d.r * fy
            assert is_front(t, facing, h) is (dot > 1e-9)
            if abs(dot) > 1e-9:   # off the line: exactly one of a facing and its opposite
                assert is_front(t, facing, h) != is_front(t, (facing + 3) % 6, h)


def test_vehicle_defense_front_or_rear_by_attacker_position():
    """rulebook: Front and Rear Defense - front defense ahead, rear defense behind."""
    st = _duel(VEHICLE, dist=2, facing=3)        # target at (2,0) facing west, at the attacker
    p = plan_attack(st, "a", "t")
    assert (p.front, p.defense) == (True, 5)
    st.units["t"].facing = 0                     # facing away
    p = plan_attack(st, "a", "t")
    assert (p.front, p.defense) == (False, 3)


# --- range bands and dice --------------------------------------------------------------------
@pytest.mark.parametrize("dist,band,dice", [(0, "short", 6), (1, "short", 6), (2, "medium", 5),
                                            (4, "medium", 5), (5, "long", 4), (8, "long", 4)])
def test_range_counts_target_hex_not_attacker_hex(dist, band, dice):
    """rulebook: Range and Attack Dice - short 0-1, medium 2-4, long 5-8, counting the
    target's hex but not the attacker's; dice from the line for the target's type."""
    st = _duel(SOLDIER, dist=dist)
    p = plan_attack(st, "a", "t")
    assert (p.distance, p.band, p.dice) == (dist, band, dice)


def test_beyond_eight_hexes_is_out_of_range():
    """rulebook: Long Range 5-8 hexes - nothing beyond 8."""
    st = _duel(SOLDIER, dist=9)
    assert "out of range" in why_not_attack(st, "a", "t")


def test_dice_by_target_type():
    """rulebook: the target's type picks the anti-Soldier or anti-Vehicle attack value."""
    assert plan_attack(_duel(SOLDIER, dist=1), "a", "t").dice == 6
    assert plan_attack(_duel(VEHICLE, dist=1), "a", "t").dice == 8


def test_a_dash_means_no_attack():
    """rulebook: you may fire on any enemy ... as long as you have an attack value against it."""
    st = _duel(VEHICLE, attacker_card=AX_GUN, dist=6)
    reason = why_not_attack(st, "a", "t")
    assert "no attack against Vehicles at long range" in reason


@pytest.mark.parametrize("disrupted,damaged,need", [(False, False, 4), (True, False, 5),
                                                    (False, True, 5), (True, True, 5)])
def test_impaired_attacker_minus_one_per_die_not_cumulative(disrupted, damaged, need):
    """rulebook: Disrupted and Damaged Attackers - -1 on each die (only 5s and 6s), still
    -1 when both."""
    st = _state()
    _add(st, "a", _card("ax-tank", "Vehicle", (5, 3)), "Axis", Hex(0, 0),
         disrupted=disrupted, damaged=damaged)
    _add(st, "t", SOLDIER, "Allies", Hex(1, 0))
    assert plan_attack(st, "a", "t").need == need
    ev = resolve_attack(st, "a", "t", LoadedDice([4, 4, 5, 5, 6, 1]))
    rolled = ev[0]
    assert isinstance(rolled, DiceRolled)
    assert rolled.successes == (5 if need == 4 else 3)


@pytest.mark.parametrize("disrupted,damaged,front_def", [(False, False, 5), (True, False, 4),
                                                         (False, True, 4), (True, True, 4)])
def test_impaired_target_minus_one_defense_not_cumulative(disrupted, damaged, front_def):
    """rulebook: Disrupted and Damaged - -1 defense (front and rear), only once."""
    st = _duel(VEHICLE, dist=2, facing=3, disrupted=disrupted, damaged=damaged)
    assert plan_attack(st, "a", "t").defense == front_def
    st.units["t"].facing = 0
    assert plan_attack(st, "a", "t").defense == front_def - 2


def test_face_down_counters_do_not_lower_defense():
    """rulebook: simultaneous hits - a face-down Disrupted doesn't give -1 defense yet."""
    st = _duel(SOLDIER, dist=1, pending=["disrupted"])
    assert plan_attack(st, "a", "t").defense == 4


# --- line of sight -----------------------------------------------------------------------------
def test_line_of_sight_required():
    """rulebook: Line of Sight - a hill between attacker and target blocks the attack."""
    st = _duel(SOLDIER, dist=3, terrain={Hex(1, 0): Terrain.HILL})
    reason = why_not_attack(st, "a", "t")
    assert "line of sight" in reason and "hill" in reason


def test_attacker_and_target_hex_terrain_ignored_for_los():
    """rulebook: Attacker and Target Hexes - their own terrain doesn't block."""
    st = _duel(SOLDIER, dist=3, terrain={Hex(0, 0): Terrain.TOWN, Hex(3, 0): Terrain.FOREST})
    assert why_not_attack(st, "a", "t") is None


def test_shooting_through_units_allowed():
    """rulebook: You can shoot through enemy units and through your own units."""
    st = _duel(SOLDIER, dist=3)
    _add(st, "f", AX_SOLDIER, "Axis", Hex(1, 0))
    _add(st, "e", VEHICLE, "Allies", Hex(2, 0))
    assert why_not_attack(st, "a", "t") is None


def test_two_targets_in_one_hex_either_may_be_chosen():
    """rulebook: Two Targets in the Same Hex - pick which one to fire at."""
    st = _duel(SOLDIER, dist=2)
    _add(st, "t2", VEHICLE, "Allies", Hex(2, 0))
    assert why_not_attack(st, "a", "t") is None and why_not_attack(st, "a", "t2") is None


def test_refusals_friendly_boarded_defensive_disrupted():
    """Friendly units aren't targets; boarded Soldiers neither fire nor are targets
    (glossary: transport); disrupted units can't fire defensively (rulebook: Disrupted)."""
    st = _duel(SOLDIER, dist=1)
    _add(st, "f", AX_SOLDIER, "Axis", Hex(1, 0))
    assert "friendly" in why_not_attack(st, "a", "f")
    _add(st, "car", VEHICLE, "Allies", Hex(2, 0))
    _add(st, "rider", SOLDIER, "Allies", Hex(2, 0), carrier="car")
    assert "transport" in why_not_attack(st, "a", "rider")
    _add(st, "axcar", _card("ax-ht", "Vehicle"), "Axis", Hex(0, 1))
    _add(st, "axrider", AX_SOLDIER, "Axis", Hex(0, 1), carrier="axcar")
    assert "aboard" in why_not_attack(st, "axrider", "t")
    st.units["a"].disrupted = True
    assert why_not_attack(st, "a", "t") is None
    assert "defensive" in why_not_attack(st, "a", "t", defensive=True)


# --- hits table and counters --------------------------------------------------------------------
@pytest.mark.parametrize("succ,defense,hits", [(3, 4, 0), (4, 4, 1), (5, 4, 2), (7, 4, 2),
                                               (8, 4, 3), (11, 4, 3), (2, 1, 3), (1, 1, 1),
                                               (0, 1, 0), (6, 3, 3), (5, 3, 2)])
def test_hits_table(succ, defense, hits):
    """rulebook: Successes - fewer 0, equal 1, more 2, double or more 3."""
    assert hits_for(succ, defense) == hits


@pytest.mark.parametrize("vehicle,damaged,pending,hits,new", [
    (False, False, [], 1, ["disrupted"]),
    (False, False, [], 2, ["disrupted", "destroyed"]),
    (False, False, [], 3, ["disrupted", "destroyed"]),
    (True, False, [], 1, ["disrupted"]),
    (True, False, [], 2, ["disrupted", "damaged"]),
    (True, False, [], 3, ["disrupted", "damaged", "destroyed"]),
    (True, True, [], 2, ["disrupted", "destroyed"]),
    (True, True, [], 3, ["disrupted", "destroyed"]),
    (False, False, ["disrupted"], 1, ["destroyed"]),
    (True, False, ["disrupted"], 1, ["damaged"]),
    (True, False, ["disrupted", "damaged"], 1, ["destroyed"]),
    (True, False, ["disrupted", "damaged", "destroyed"], 3, []),
    (False, False, ["disrupted", "destroyed"], 1, []),
])
def test_hit_counter_sequence(vehicle, damaged, pending, hits, new):
    """rulebook: Hits table - 1st Disrupted, 2nd Damaged (Vehicle) / Destroyed (Soldier),
    3rd Destroyed; a damaged Vehicle's Damaged becomes Destroyed; nothing after Destroyed;
    hits add up across attacks this phase."""
    assert counters_for(vehicle, damaged, pending, hits) == new


def test_face_up_disrupted_is_not_a_hit_this_phase_ruling_13():
    """ruling 13: a unit disrupted (face-up) from an earlier turn still gets a face-down
    Disrupted as its first counter; a face-up Damaged does count."""
    st = _duel(SOLDIER, dist=1, disrupted=True)   # defense 3 while disrupted
    resolve_attack(st, "a", "t", LoadedDice([6, 6, 6, 1, 1, 1]))
    assert st.units["t"].pending == ["disrupted"]
    st = _duel(VEHICLE, dist=1, damaged=True, facing=3)   # defense 4 while damaged
    resolve_attack(st, "a", "t", LoadedDice([6, 6, 6, 6, 6, 1, 1, 1]))
    assert st.units["t"].pending == ["disrupted", "destroyed"]


def test_two_attackers_hits_are_simultaneous_rulebook_example():
    """rulebook glossary 'simultaneous hits' example: two enemy units fire at a Soldier;
    each scores one hit; the second attack is still against the undisrupted defense and its
    hit is the second simultaneous hit: a face-down Destroyed counter."""
    st = _duel(SOLDIER, dist=1)
    _add(st, "a2", AX_SOLDIER, "Axis", Hex(1, 1))
    ev = resolve_attack(st, "a", "t", LoadedDice([6, 5, 4, 4, 1, 1]))
    assert st.units["t"].pending == ["disrupted"]
    assert [e.hits for e in ev if isinstance(e, HitsScored)] == [1]
    assert plan_attack(st, "a2", "t").defense == 4
    resolve_attack(st, "a2", "t", LoadedDice([6, 6, 5, 4, 3, 2]))
    assert st.units["t"].pending == ["disrupted", "destroyed"]
    assert not st.units["t"].destroyed and not st.units["t"].disrupted   # until casualty phase


def test_sherman_vs_panzer_rulebook_example():
    """rulebook: attack example - Sherman 4 hexes from a Panzer, 11 dice (medium, vs
    Vehicles), 6 6 6 5 4 4 3 3 3 1 1 = 6 successes against front defense 5: two hits,
    face-down Disrupted and Damaged."""
    st = _state()
    _add(st, "sherman", SHERMAN, "Allies", Hex(0, 0), 0)
    _add(st, "panzer", PANZER, "Axis", Hex(4, 0), 3)
    dice = LoadedDice([6, 6, 6, 5, 4, 4, 3, 3, 3, 1, 1])
    ev = resolve_attack(st, "sherman", "panzer", dice)
    assert ev[0].successes == 6 and len(ev[0].dice) == 11
    assert [e.hits for e in ev if isinstance(e, HitsScored)] == [2]
    assert [(e.counter, e.face_up) for e in ev if isinstance(e, CounterPlaced)] == [
        ("disrupted", False), ("damaged", False)]
    assert st.units["panzer"].pending == ["disrupted", "damaged"]
    assert dice.remaining == 0


# --- cover ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("terrain,soldier,vehicle", [
    (Terrain.FOREST, 4, 5), (Terrain.HILL, 4, 5), (Terrain.TOWN, 4, 5),
    (Terrain.MARSH, 4, None), (Terrain.CLEAR, None, None), (Terrain.POND, None, None)])
def test_cover_roll_needed_by_terrain_and_type(terrain, soldier, vehicle):
    """rulebook: Terrain Effects - cover 4+ Soldiers, 5+ Vehicles in forest/hill/town;
    marsh for Soldiers only; clear none."""
    st = _duel(SOLDIER, dist=1, terrain={Hex(1, 0): terrain})
    assert plan_attack(st, "a", "t").cover_need == soldier
    st = _duel(VEHICLE, dist=1, terrain={Hex(1, 0): terrain})
    assert plan_attack(st, "a", "t").cover_need == vehicle


def test_cover_minus_one_when_attacker_in_same_hex():
    """rulebook: Target in the Same Hex - -1 on the cover roll (Soldier 5+, Vehicle 6+)."""
    assert plan_attack(_duel(SOLDIER, dist=0, terrain={Hex(0, 0): Terrain.TOWN}),
                       "a", "t").cover_need == 5
    assert plan_attack(_duel(VEHICLE, dist=0, terrain={Hex(0, 0): Terrain.TOWN}),
                       "a", "t").cover_need == 6


def test_roads_do_not_change_cover():
    """rulebook: Roads have no effect on cover (a road through a forest still gives
    cover; a road in the open gives none)."""
    st = _state({Hex(1, 0): Terrain.FOREST}, roads=[(Hex(1, 0), Hex(2, 0)), (Hex(1, 1), Hex(2, 1))])
    _add(st, "a", AX_SOLDIER, "Axis", Hex(0, 0))
    _add(st, "t", SOLDIER, "Allies", Hex(1, 0))
    _add(st, "t2", SOLDIER, "Allies", Hex(1, 1))
    assert plan_attack(st, "a", "t").cover_need == 4
    assert plan_attack(st, "a", "t2").cover_need is None


def test_cover_success_limits_attack_to_disruption():
    """rulebook: Effect of a Cover Roll - a 3-hit attack on a Soldier in a forest becomes
    a face-down Disrupted when the cover roll succeeds."""
    st = _duel(SOLDIER, dist=1, terrain={Hex(1, 0): Terrain.FOREST})
    dice = LoadedDice([6] * 6 + [4])
    ev = resolve_attack(st, "a", "t", dice)
    assert [type(e).__name__ for e in ev] == ["DiceRolled", "HitsScored", "CoverRolled",
                                              "CounterPlaced"]
    assert st.units["t"].pending == ["disrupted"]


def test_cover_success_places_no_second_disrupted():
    """rulebook: If the unit already has a face-down Disrupted counter, don't place another."""
    st = _duel(SOLDIER, dist=1, terrain={Hex(1, 0): Terrain.FOREST}, pending=["disrupted"])
    resolve_attack(st, "a", "t", LoadedDice([6] * 6 + [6]))
    assert st.units["t"].pending == ["disrupted"]


def test_cover_failure_leaves_full_effect():
    """rulebook: Cover Roll - a failed roll doesn't limit the attack."""
    st = _duel(SOLDIER, dist=1, terrain={Hex(1, 0): Terrain.FOREST})
    ev = resolve_attack(st, "a", "t", LoadedDice([6] * 6 + [3]))
    cover = [e for e in ev if isinstance(e, CoverRolled)]
    assert cover[0].die == 3 and not cover[0].ok
    assert st.units["t"].pending == ["disrupted", "destroyed"]


def test_cover_rolled_only_after_a_hit_ruling_3():
    """ruling 3: the cover roll comes right after the attack dice and only when the
    attack scored at least one hit (a miss uses no cover die)."""
    st = _duel(SOLDIER, dist=1, terrain={Hex(1, 0): Terrain.FOREST})
    dice = LoadedDice([1] * 6 + [6])
    ev = resolve_attack(st, "a", "t", dice)
    assert dice.remaining == 1 and not any(isinstance(e, CoverRolled) for e in ev)
    assert st.units["t"].pending == []


def test_cover_rolled_even_when_it_cannot_change_the_result_ruling_3():
    """ruling 3, Hexfront's documented choice: a single hit on a target with no face-down
    counter is a Disrupted either way, and the cover roll is still made (and shown)."""
    st = _duel(SOLDIER, dist=1, terrain={Hex(1, 0): Terrain.FOREST})
    dice = LoadedDice([6, 6, 6, 6, 1, 1, 2])
    ev = resolve_attack(st, "a", "t", dice)
    assert dice.remaining == 0 and any(isinstance(e, CoverRolled) for e in ev)
    assert st.units["t"].pending == ["disrupted"]


# --- defensive fire --------------------------------------------------------------------------------
def test_defensive_fire_hit_disrupts_at_once_and_stops():
    """rulebook: Defensive Fire Causes Immediate Disruption - face-up Disrupted now; the
    move ends (UnitStopped)."""
    st = _duel(SOLDIER, dist=1)
    ev = resolve_attack(st, "a", "t", LoadedDice([6, 6, 6, 6, 6, 6]), defensive=True)
    t = st.units["t"]
    assert t.disrupted and t.pending == []
    placed = [e for e in ev if isinstance(e, CounterPlaced)]
    assert [(e.counter, e.face_up) for e in placed] == [("disrupted", True)]
    assert isinstance(ev[-1], UnitStopped) and ev[-1].hex == Hex(1, 0)


def test_defensive_fire_miss_does_nothing():
    """rulebook: a defensive-fire attack needs successes equal to the defense."""
    st = _duel(SOLDIER, dist=1)
    ev = resolve_attack(st, "a", "t", LoadedDice([6, 6, 6, 1, 1, 1]), defensive=True)
    assert not st.units["t"].disrupted
    assert not any(isinstance(e, (UnitStopped, CounterPlaced)) for e in ev)


def test_defensive_fire_cover_success_negates():
    """rulebook: Cover and Defensive Fire - a successful cover roll negates the attack."""
    st = _duel(SOLDIER, dist=1, terrain={Hex(1, 0): Terrain.TOWN})
    ev = resolve_attack(st, "a", "t", LoadedDice([6] * 6 + [5]), defensive=True)
    assert not st.units["t"].disrupted
    assert not any(isinstance(e, UnitStopped) for e in ev)
    assert [e.ok for e in ev if isinstance(e, CoverRolled)] == [True]


def test_defensive_fire_at_hex_and_facing_decide_cover_and_armor():
    """rulebook: Target's Hex / Vehicle Facing for defensive fire - the shot is at the
    mover in the hex it leaves or enters, facing toward the hex it enters (the rulebook's
    Sherman and PAK 38 example: in the town hex front armor and cover; in the clear hex
    beyond, a rear shot with no cover)."""
    st = _state({Hex(1, 0): Terrain.TOWN})
    _add(st, "pak", AX_GUN, "Axis", Hex(0, 0))
    _add(st, "sherman", SHERMAN, "Allies", Hex(1, 0), 3)
    # leaving the town toward the gun's hex side: facing west (toward the gun) -> front
    p = plan_attack(st, "pak", "sherman", defensive=True, at_hex=Hex(1, 0), facing=4)
    assert (p.front, p.defense, p.cover_need) == (True, 5, 5)
    # entering (1,-1)... moving north-west away: in the clear hex (0,1) facing SW, gun behind
    p = plan_attack(st, "pak", "sherman", defensive=True, at_hex=Hex(0, 1), facing=5)
    assert (p.front, p.defense, p.cover_need, p.dice) == (False, 4, None, 11)
    ev = resolve_attack(st, "pak", "sherman", LoadedDice([6, 5, 4, 4] + [1] * 7),
                        defensive=True, at_hex=Hex(0, 1), facing=5)
    assert st.units["sherman"].disrupted
    assert isinstance(ev[-1], UnitStopped) and ev[-1].hex == Hex(0, 1)


# --- ability hook points --------------------------------------------------------------------------
def test_every_combat_number_goes_through_ability_hooks():
    """rulebook: Abilities Trump Rules - every combat hook point is consulted, and a hook
    on the attacker's ability changes the dice."""
    seen: list[str] = []
    points = ("range_band", "can_attack", "attack_dice", "die_modifier",
              "defense", "can_cover", "cover_need", "hits", "counters")
    fns = []
    for point in points:
        def rec(value, ability, ctx, point=point):
            seen.append(point)
            return value
        abilities.register(point)(rec)
        fns.append(rec)

    def plus_two(value, ability, ctx):
        return value + 2 if ctx["role"] == "attacker" and value else value
    abilities.register("attack_dice", "test_extra_dice")(plus_two)
    try:
        card = _card("ax-special", abilities_=(Ability("test_extra_dice"),))
        st = _duel(SOLDIER, attacker_card=card, dist=1, terrain={Hex(1, 0): Terrain.FOREST})
        assert plan_attack(st, "a", "t").dice == 8
        resolve_attack(st, "a", "t", LoadedDice([6] * 8 + [1]))
        assert set(points) <= set(seen)
    finally:
        for fn in fns + [plus_two]:
            abilities.unregister(fn)


def test_can_attack_hook_refusal_reason_is_shown():
    """rulebook: "Can't" trumps "can" - a can_attack hook may refuse with a reason."""
    def never(value, ability, ctx):
        return "test units never fire" if ctx["role"] == "attacker" else value
    abilities.register("can_attack", "test_pacifist")(never)
    try:
        card = _card("ax-pacifist", abilities_=(Ability("test_pacifist"),))
        st = _duel(SOLDIER, attacker_card=card, dist=1)
        assert why_not_attack(st, "a", "t") == "test units never fire"
        with pytest.raises(IllegalAction):
            resolve_attack(st, "a", "t", LoadedDice([6] * 6))
    finally:
        abilities.unregister(never)


def test_hooks_registered_later_still_apply():
    """Abilities trump rules even after an attack between the same units was planned
    (the combat code's cache of which hook points matter follows the registry)."""
    card = _card("ax-late", abilities_=(Ability("test_late_bonus"),))
    st = _duel(SOLDIER, attacker_card=card, dist=1)
    assert plan_attack(st, "a", "t").dice == 6

    def plus_one(value, ability, ctx):
        return value + 1 if ctx["role"] == "attacker" else value
    abilities.register("attack_dice", "test_late_bonus")(plus_one)
    try:
        assert plan_attack(st, "a", "t").dice == 7
    finally:
        abilities.unregister(plus_one)
    assert plan_attack(st, "a", "t").dice == 6
