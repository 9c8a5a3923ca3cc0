"""The AI players (issue 7): always a legal action, never a stalled game, and the
Veteran takes the clearly right choice in scripted positions.

Positions are built with the engine test kit on small maps (fast line of
sight); one game on a real configuration checks the arena end to end.
"""
import random

import pytest

from tests.rules.engine_kit import (ALLIED_ARMY, AXIS_ARMY, at, card, position, rect_map,
                                    rifles, tank)
from game.ai.base import Player, fallback_action, make_player
from game.ai.random_player import RandomPlayer
from game.ai.recruit import RecruitAI
from game.ai.veteran import VeteranAI
from game.rules.actions import (Attack, DefensiveFire, EndPhase, Move, PassDefensiveFire)
from game.rules.dice import Dice
from game.rules.engine import new_game
from game.rules.state import DefensiveFirePrompt, Phase

LEVELS = ("random", "recruit", "veteran")


def small_map(**kw):
    return rect_map(16, 11, {(7, 5): "forest", (8, 3): "town", (6, 7): "hill",
                             (4, 2): "forest", (11, 6): "forest", (9, 8): "marsh"},
                    objective=(8, 5), **kw)


# --- always legal ----------------------------------------------------------------------------
def _walk(game, rng, players, seen, steps=4000):
    """Play the game with a random mix of the AIs; at every step every level must
    offer an action the engine accepts, without touching the game."""
    n = 0
    while not game.over and n < steps:
        st = game.state
        phase = st.phase.value + ("/" + type(st.pending).__name__ if st.pending else "")
        seen.add(phase)
        before = game.state_hash()
        for lv, p in players.items():
            if lv == "expert" and n % 6:
                continue                  # the Expert (tiny budget) at every 6th step
            a = p.choose(game)
            assert game.check(a) is None, (lv, phase, a, game.check(a))
            assert p.explain(), (lv, phase, a)
            assert game.state_hash() == before, f"{lv} changed the game while choosing"
        # who really plays: mostly the AIs, sometimes random (odd positions)
        mover = rng.choice(["random", "recruit", "veteran", "veteran"])
        game.apply(players[mover].choose(game))
        n += 1
    return n


@pytest.mark.parametrize("scenario", ["standard", "assault"])
def test_every_level_always_offers_a_legal_action_in_every_phase(scenario):
    """Issue 7: the AI returns a legal action in every phase of many random positions
    (setup, order, ends, objective, deployment, movement, assault, defensive fire)."""
    seen: set[str] = set()
    total = 0
    for seed in range(2):
        rng = random.Random(seed)
        opts = {"turn_limit": 8}
        if scenario == "assault":
            opts["attacker"] = "Allies"
        g = new_game(small_map(), {"Axis": AXIS_ARMY, "Allies": ALLIED_ARMY}, scenario=scenario,
                     dice=Dice(seed), options=opts)
        players = {lv: make_player(lv, seed) for lv in LEVELS}
        players["expert"] = make_player("expert", seed, budget=0.01)
        total += _walk(g, rng, players, seen)
        assert g.over, "the game must end"
    expected = {"deploy_first", "deploy_second", "movement_first", "movement_second",
                "assault_first", "assault_second", "setup_end", "initiative/OrderChoice"}
    expected |= {"setup_objective"} if scenario == "assault" else {"setup_order/OrderChoice"}
    assert expected <= seen, expected - seen
    assert any("DefensiveFirePrompt" in s for s in seen)
    assert total > 200


def test_fallback_replaces_a_refused_wish():
    """A level's wish the engine refuses is replaced by a legal action (never sent)."""
    class Stubborn(Player):
        level = "stubborn"

        def pick(self, game):
            return EndPhase("Allies")          # not Allies' turn
    g = position(small_map())
    g.add_unit(tank(), "Axis", at(2, 5))
    p = Stubborn()
    a = p.choose(g)
    assert g.check(a) is None and a == fallback_action(g)


def test_make_player_levels():
    assert isinstance(make_player("Veteran"), VeteranAI)
    assert isinstance(make_player("recruit"), RecruitAI)
    assert isinstance(make_player("random"), RandomPlayer)
    from game.ai.expert import ExpertAI
    assert isinstance(make_player("Expert"), ExpertAI)
    with pytest.raises(ValueError, match="unknown AI level"):
        make_player("general")


# --- every game ends ---------------------------------------------------------------------------
@pytest.mark.parametrize("a,b,i", [("veteran", "recruit", 0), ("recruit", "veteran", 6)])
def test_ai_games_end(a, b, i):
    """Issue 7: an AI never stalls a game - AI-vs-AI games reach GAME_OVER (both sides)."""
    from game.ai.arena import play_game
    r = play_game(a, b, index=i, seed=3, battle_map=small_map(), config=1)
    assert "stopped after" not in r.reason
    assert r.turns >= 7 or r.winner is None
    assert r.times["a"] and r.times["b"]


def test_veteran_beats_random_and_the_game_ends():
    """The Veteran wins against random legal play (seeded game; the arena measures more)."""
    from game.ai.arena import play_game
    r = play_game("veteran", "random", index=1, seed=5, battle_map=small_map(), config=1)
    assert r.winner == "a", r.reason


# --- scripted positions: the Veteran takes the clearly right choice --------------------------
SHERMAN = tank("United States", name="Sherman", cost=20)


def test_veteran_takes_the_free_rear_shot_on_the_damaged_tank():
    """rulebook: Front and Rear Defense (ruling 1), Hits (ruling 13): a damaged tank
    seen from the rear is the shot to take, not the healthy one's front."""
    g = position(rect_map(16, 11, objective=(8, 5)), phase=Phase.ASSAULT_FIRST)
    me = g.add_unit(tank(name="Panzer"), "Axis", at(5, 5), facing=0)
    healthy = g.add_unit(SHERMAN, "Allies", at(9, 4), facing=3)        # faces the Panzer
    hurt = g.add_unit(SHERMAN, "Allies", at(9, 6), facing=0, damaged=True)  # back to it
    vet = VeteranAI(1)
    a = vet.choose(g)
    assert a == Attack("Axis", me.uid, hurt.uid)
    text = vet.explain()
    assert "from the rear" in text and "%" in text and "damage or destroy" in text
    assert healthy.uid not in text


def test_veteran_finishes_the_unit_that_already_has_a_face_down_hit():
    """ruling 13: hits add up in a phase - focus fire on the unit already hit."""
    g = position(rect_map(16, 11, objective=(8, 5)), phase=Phase.ASSAULT_FIRST)
    me = g.add_unit(rifles(name="Grenadiers", soldier=(6, 6, 2)), "Axis", at(5, 5))
    fresh = g.add_unit(rifles("United States", name="GIs"), "Allies", at(7, 4))
    hit = g.add_unit(rifles("United States", name="GIs"), "Allies", at(7, 6),
                     pending=["disrupted"])
    a = VeteranAI(1).choose(g)
    assert a == Attack("Axis", me.uid, hit.uid), (a, fresh.uid)


def _decoy_position(with_tank: bool):
    g = position(rect_map(16, 11, objective=(12, 5)), dice=Dice(4))
    gun = g.add_unit(card("AT gun", "Soldier", nation="United States", speed=0, front=3,
                          soldier=(3, 3, 3), vehicle=(11, 9, 7), cost=9,
                          subtype="Artillery"), "Allies", at(8, 5))
    decoy = g.add_unit(tank(name="Scout car", speed=4, front=2, rear=2, cost=5,
                            vehicle=(2, 1, None), soldier=(4, 3, 2)), "Axis", at(6, 5), facing=0)
    big = None
    if with_tank:
        big = g.add_unit(tank(name="Big tank", front=5, rear=4, cost=40), "Axis", at(5, 3),
                         facing=0)
    g.apply(Move("Axis", decoy.uid, (at(7, 5), at(8, 4)), 0))
    assert isinstance(g.state.pending, DefensiveFirePrompt)
    assert g.state.pending.eligible == (gun.uid,)
    return g, gun, decoy, big


def test_veteran_holds_defensive_fire_for_the_tank_behind_the_decoy():
    """rulebook: Defensive Fire (one shot per phase; ruling 14): against a cheap decoy
    while a dangerous tank can still come, the Veteran holds its one shot."""
    g, gun, decoy, big = _decoy_position(with_tank=True)
    vet = VeteranAI(1)
    a = vet.choose(g)
    assert a == PassDefensiveFire("Allies")
    assert "Big tank" in vet.explain()
    # the decoy's move goes on; when the tank comes, the Veteran fires at it
    while isinstance(g.state.pending, DefensiveFirePrompt):
        g.apply(vet.choose(g))
    # the tank now moves along the gun (two hexes next to it): the shot is taken
    reach = g.reachable(big.uid)
    dest = next(h for h, r in sorted(reach.items(), key=lambda x: (x[0].r, x[0].q))
                if r.stops and len(r.path) >= 2 and all(x.distance(gun.hex) == 1
                                                         for x in r.path[-2:]))
    g.apply(Move("Axis", big.uid, reach[dest].path, 0))
    fired = False
    while isinstance(g.state.pending, DefensiveFirePrompt):
        a = vet.choose(g)
        fired |= a == DefensiveFire("Allies", gun.uid)
        g.apply(a)
    assert fired, "the Veteran keeps its shot for the tank and takes it"


def test_veteran_fires_at_the_same_mover_when_nothing_else_can_come():
    """Control for the decoy test: with no tank behind it, stopping the mover is worth it."""
    g, gun, decoy, _ = _decoy_position(with_tank=False)
    a = VeteranAI(1).choose(g)
    assert a == DefensiveFire("Allies", gun.uid)


def test_veteran_sends_the_only_unit_that_can_contest_the_objective_on_turn_7():
    """Victory (ruling 9): from the end of turn 7 the only player next to the objective
    wins - on turn 7 the Veteran moves the one unit that can still get there."""
    bm = rect_map(16, 11, {(9, 4): "forest", (9, 6): "forest"}, objective=(9, 5))
    g = position(bm, turn=7, dice=Dice(2))
    # the enemy sits on the objective with a tank covering it
    g.add_unit(rifles("United States", name="GIs"), "Allies", at(10, 5))
    g.add_unit(SHERMAN, "Allies", at(13, 5), facing=3)
    slow = g.add_unit(rifles(name="Grenadiers"), "Axis", at(2, 5))
    car = g.add_unit(tank(name="Armoured car", speed=5, front=3, rear=2, cost=8), "Axis",
                     at(3, 5), facing=0)
    vet = VeteranAI(1)
    for _ in range(40):
        if g.state.phase != Phase.MOVEMENT_FIRST:
            break
        if g.state.to_act == "Allies":
            g.apply(PassDefensiveFire("Allies"))
            continue
        g.apply(vet.choose(g))
    assert car.hex.distance(bm.objective) <= 1, (car.hex, vet.explain())
    assert slow.hex.distance(bm.objective) > 1


def test_veteran_explains_moves_and_deployment():
    g = new_game(small_map(), {"Axis": AXIS_ARMY, "Allies": ALLIED_ARMY}, dice=Dice(1))
    vet = VeteranAI(0)
    texts = []
    for _ in range(30):
        a = vet.choose(g)
        texts.append(vet.explain())
        g.apply(a)
    assert any("deploys in" in t for t in texts)
    assert all(t for t in texts)


def test_veteran_deploys_vehicles_where_they_can_go_and_soldiers_in_cover_near_the_front():
    """Deployment (ruling 8): in the zone, Vehicles never in terrain they can't enter,
    Soldiers prefer cover near the front of the zone."""
    # the objective nearer the left end, which the Axis (first player) then takes
    bm = rect_map(16, 11, {(4, 5): "forest", (4, 4): "marsh", (3, 5): "marsh"},
                  objective=(7, 5))
    g = new_game(bm, {"Axis": AXIS_ARMY, "Allies": ALLIED_ARMY}, dice=Dice(3),
                 coin_winner="Axis")
    players = {"Axis": VeteranAI(1), "Allies": VeteranAI(2)}
    while g.state.phase != Phase.INITIATIVE and not g.state.phase.is_movement:
        g.apply(players[g.state.to_act].choose(g))
    assert g.state.ends["Axis"] == "left"
    from game.rules.terrain import TERRAIN_RULES
    for u in g.state.units.values():
        t = TERRAIN_RULES[bm.terrain_at(u.hex)]
        assert t.vehicle_can_enter if u.is_vehicle else t.soldier_can_enter
    axis_soldiers = [u for u in g.state.units_of("Axis") if u.is_soldier and not u.boarded]
    assert any(bm.terrain_at(u.hex).value in ("forest", "marsh") for u in axis_soldiers)


@pytest.mark.parametrize("level", ["veteran", "expert"])
def test_veteran_goes_first_at_setup_and_takes_the_end_nearer_the_objective(level):
    """Setup (rulebook: the first player picks the end and deploys there): on
    configuration 6 the objective is 2 hexes from the left end's zone and 4 from the
    right's, so the Veteran (and the Expert, who sets up the Veteran's way) goes first
    and takes the left end.  Each turn's initiative it still chooses to go second."""
    from game.data.maps import load_configuration
    from game.rules.actions import ChooseEnd, ChooseOrder
    from game.rules.board import ENDS
    bm = load_configuration(6)
    g = new_game(bm, {"Axis": AXIS_ARMY, "Allies": ALLIED_ARMY}, dice=Dice(3),
                 coin_winner="Axis")
    near = min(ENDS, key=lambda e: min(h.distance(bm.objective) for h in bm.deployment_zone(e)))
    assert near == "left"
    ai = make_player(level, 1, budget=0.05)
    a = ai.choose(g)
    assert a == ChooseOrder("Axis", True), ai.explain()
    assert "first player picks the end" in ai.explain()
    g.apply(a)
    a = ai.choose(g)
    assert a == ChooseEnd("Axis", near), ai.explain()
    assert "nearer the objective" in ai.explain()
    g.apply(a)
    players = {"Axis": ai, "Allies": make_player("veteran", 2)}
    while g.state.phase != Phase.INITIATIVE or g.state.pending is None:
        g.apply(players[g.state.to_act].choose(g))
    side = g.state.to_act
    vet = VeteranAI(3)
    assert vet.choose(g) == ChooseOrder(side, False)


@pytest.mark.parametrize("edition, expected", [("first", "left"), ("later", "right")])
def test_end_choice_counts_cover_in_the_zone_the_rules_give_that_end(edition, expected):
    """Ruling 8: a side sets up in the first hexes of each row from its end - 5 deep in
    the first edition, 3 in the later one (the rules' ``end_zone``).  Forest 4-5 hexes
    in from the left end is in the left zone only in the first edition; forest 1-2
    hexes in from the right end is in both.  The end chosen for its cover (the
    Recruit's way, the base of every level) reads the rules' zone, not a 5-deep strip."""
    from game.rules.actions import ChooseEnd, ChooseOrder
    terrain = {(c, r): "forest" for c in (3, 4) for r in range(11)}
    terrain.update({(14, r): "forest" for r in range(0, 11, 2)})
    bm = rect_map(16, 11, terrain)
    g = new_game(bm, {"Axis": AXIS_ARMY, "Allies": ALLIED_ARMY}, dice=Dice(3),
                 coin_winner="Axis", options={"edition": edition})
    g.apply(ChooseOrder("Axis", True))
    rec = RecruitAI(0)
    a = rec.choose(g)
    assert a == ChooseEnd("Axis", expected), rec.explain()
    assert "more cover near the front" in rec.explain()


# --- the Recruit's behaviour table ---------------------------------------------------------------
def test_recruit_antitank_fires_at_the_strongest_vehicle_riflemen_at_the_weakest():
    """Recruit target table: antitank units at the strongest Vehicle, the others at the
    weakest target; predictable (same position, same choice)."""
    g = position(rect_map(16, 11, objective=(8, 5)), phase=Phase.ASSAULT_FIRST, dice=Dice(1))
    at_gun = g.add_unit(card("Pak", "Soldier", speed=0, front=3, soldier=(3, 3, 3),
                             vehicle=(11, 9, 7), cost=9), "Axis", at(5, 5))
    cheap = g.add_unit(tank("United States", name="Light tank", cost=10, front=3), "Allies",
                       at(7, 4))
    dear = g.add_unit(tank("United States", name="Heavy tank", cost=40, front=6), "Allies",
                      at(7, 6))
    rec = RecruitAI(0)
    a = rec.choose(g)
    assert a == Attack("Axis", at_gun.uid, dear.uid)
    assert "strongest" in rec.explain()
    assert RecruitAI(9).choose(g) == a
    g.apply(a)
    rifle = g.add_unit(rifles(name="Grenadiers", vehicle=(4, 2, None)), "Axis", at(5, 6))
    b = rec.choose(g)
    assert b == Attack("Axis", rifle.uid, cheap.uid)
    assert "weakest" in rec.explain()


def test_recruit_soldiers_move_toward_cover_near_the_objective():
    """Recruit default order: move toward cover, then fire."""
    bm = rect_map(16, 11, {(5, 5): "forest", (3, 4): "forest"}, objective=(10, 5))
    g = position(bm)
    u = g.add_unit(rifles(name="Grenadiers", speed=2), "Axis", at(3, 5))
    a = RecruitAI(0).choose(g)
    assert isinstance(a, Move) and a.path[-1] == at(5, 5)


def test_veteran_carries_riflemen_and_dismounts_them_near_the_objective():
    """rulebook: Transports - board in the movement phase, ride, dismount near the
    objective (the carrier moves first, then the Soldier leaves it)."""
    from game.rules.actions import Board
    from tests.rules.engine_kit import halftrack
    bm = rect_map(16, 11, objective=(9, 5))
    g = position(bm, dice=Dice(1))
    ht = g.add_unit(halftrack(), "Axis", at(1, 5), facing=0)
    gi = g.add_unit(rifles(name="Grenadiers"), "Axis", at(1, 5))
    g.add_unit(rifles("United States", name="GIs"), "Allies", at(14, 1))
    vet = VeteranAI(1)
    a = vet.choose(g)
    assert a == Board("Axis", gi.uid, ht.uid), vet.explain()
    for turn in range(4):
        for _ in range(20):
            if not g.state.phase.is_movement or g.state.active_side != "Axis":
                break
            g.apply(vet.choose(g))
        if not gi.boarded:
            break
        # next Axis movement phase (the position kit has no enemy to play)
        g.state.phase = Phase.MOVEMENT_FIRST
        for u in g.state.units.values():
            u.acted = False
        g.state.touch()
    assert not gi.boarded and gi.hex.distance(bm.objective) <= 2
