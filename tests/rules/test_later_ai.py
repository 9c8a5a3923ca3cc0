"""The AI in the later edition (game/ai/later_edition.py, through the Veteran): where it
places Aircraft (its best shot by the rules' odds, out of Antiair reach when the risk
isn't worth it - rulings L3, L4), its airstrikes (L05), its Antiair fire (L12), the new
terrain in its movement (hedges, L23, priced by the rules' path risk), and short
versions of the arena and the fuzz bench with ``--edition later``."""
from __future__ import annotations

from game.ai.veteran import VeteranAI
from game.rules.actions import Attack, DefensiveFire, EndPhase, PassDefensiveFire, PlaceAircraft
from game.rules.later.flight import antiair_eligible, placement_risk
from game.rules.state import AntiairPrompt, Phase
from tests.rules.engine_kit import at, rect_map, rifles, tank
from tests.rules.test_later_edition import _with_sides, aircraft, flak, later_game


def _vet(game):
    return VeteranAI(3)


def test_ruling_L3_veteran_places_its_aircraft_within_reach_of_its_best_target():
    """Ruling L3: the Aircraft goes where its airstrike has the best odds (a cheap
    target far off is worth less than the tank in the open)."""
    g = later_game(rect_map(12, 6))
    plane = g.add_unit(aircraft())
    g.add_unit(rifles("United States", cost=3), hex=at(1, 1))
    t = g.add_unit(tank("United States", cost=30, front=3, rear=2), hex=at(9, 4))
    ai = _vet(g)
    a = ai.choose(g)
    assert isinstance(a, PlaceAircraft) and a.uid == plane.uid
    assert a.hex.distance(t.hex) <= 2
    assert t.name in ai.explain()


def test_ruling_L4_veteran_keeps_its_aircraft_out_of_antiair_reach_when_it_can():
    """Ruling L4: a hex next to an enemy Antiair unit provokes its fire; with a shot
    as good from a hex out of its reach, the Veteran takes that one."""
    g = later_game(rect_map(12, 6))
    plane = g.add_unit(aircraft())
    t = g.add_unit(rifles("United States", cost=8), hex=at(6, 3))
    aa = g.add_unit(flak(), hex=at(6, 2))
    ai = _vet(g)
    a = ai.choose(g)
    assert isinstance(a, PlaceAircraft)
    assert placement_risk(g, plane.uid, a.hex).p_disrupted == 0.0
    assert a.hex.distance(aa.hex) > 1 and a.hex.distance(t.hex) <= 5   # in its range
    # the rules' query: next to the Antiair unit there is a real risk
    r = placement_risk(g, plane.uid, at(6, 3))
    assert [uid for uid, _ in r.shots] == [aa.uid] and 0 < r.p_disrupted < 1
    assert g.state.units[plane.uid].hex is None        # asking changed nothing


def test_ruling_L4_veteran_braves_antiair_when_only_that_hex_has_the_shot():
    """Ruling L4: the risk is weighed, not simply avoided: with the target's only
    neighbours all in Antiair reach and a valuable target, the Aircraft still goes."""
    g = later_game(rect_map(8, 5))
    plane = g.add_unit(aircraft(soldier=(8, None, None), vehicle=(6, None, None)))
    t = g.add_unit(tank("United States", cost=40, front=2, rear=1), hex=at(4, 2))
    g.add_unit(flak(soldier=(6, 5, 4)), hex=at(4, 2))
    ai = _vet(g)
    a = ai.choose(g)
    assert isinstance(a, PlaceAircraft) and a.hex.distance(t.hex) <= 1
    assert placement_risk(g, plane.uid, a.hex).p_disrupted > 0
    assert "Antiair" in ai.explain()


def test_L12_veteran_answers_the_antiair_prompt_with_its_best_shot():
    """L12: the Antiair prompt is answered like any defensive fire: the best shot when
    it has a real chance; a disrupted Aircraft is not shot at again."""
    g = later_game(dice=[1] * 20)
    plane = g.add_unit(aircraft())
    weak = g.add_unit(flak(soldier=(1, 1, 1)), hex=at(5, 2))
    strong = g.add_unit(flak(soldier=(9, 8, 6)), hex=at(4, 3))
    g.apply(PlaceAircraft("Axis", plane.uid, at(4, 2)))
    assert isinstance(g.state.pending, AntiairPrompt)
    assert set(g.state.pending.eligible) == set(antiair_eligible(g.state, plane))
    ai = _vet(g)
    a = ai.choose(g)
    assert a == DefensiveFire("Allies", strong.uid)
    assert "Antiair" in ai.explain()
    plane.disrupted = True
    assert ai.choose(g) == PassDefensiveFire("Allies")
    assert weak.uid in g.state.pending.eligible


def test_L05_veteran_strikes_with_its_placed_aircraft_then_ends_the_phase():
    """L05: in the airstrike phase each placed Aircraft attacks (its best target by the
    rules' odds); with nothing left the phase ends."""
    g = later_game(phase=Phase.AIRSTRIKE_FIRST, dice=[1] * 20)
    plane = g.add_unit(aircraft(), hex=at(4, 2))
    g.add_unit(rifles("United States", cost=3), hex=at(8, 5))
    t = g.add_unit(rifles("United States", cost=9), hex=at(4, 3))
    ai = _vet(g)
    a = ai.choose(g)
    assert a == Attack("Axis", plane.uid, t.uid, "normal")
    g.apply(a)
    assert ai.choose(g) == EndPhase("Axis")


def test_L23_veteran_prices_a_hedge_crossing_with_the_rules_path_risk():
    """L23 / ruling L8: the Veteran's move scoring takes the hedge's 5+ roll from the
    rules (reachable / path_risk): crossing a hedge costs it more than crossing a
    stream (4+), and nothing on open ground."""
    from dataclasses import replace
    from game.rules.hexes import Hexside
    bm = _with_sides(rect_map(10, 6), hedges=[((3, 2), (4, 2))])
    bm = replace(bm, streams=frozenset({Hexside.between(at(3, 4), at(4, 4))}))
    g = later_game(bm, phase=Phase.MOVEMENT_FIRST)
    a = g.add_unit(rifles("Germany", speed=1), hex=at(3, 2))
    b = g.add_unit(rifles("Germany", speed=1), hex=at(3, 4))
    c = g.add_unit(rifles("Germany", speed=1), hex=at(3, 0))
    g.add_unit(rifles("United States"), hex=at(9, 5))
    ai = _vet(g)
    ai.pick(g)                                   # sets up its view of the position
    reach_a = g.reachable(a.uid)[at(4, 2)]
    reach_b = g.reachable(b.uid)[at(4, 4)]
    reach_c = g.reachable(c.uid)[at(4, 0)]
    assert [r.need for r in reach_a.rolls] == [5] and [r.need for r in reach_b.rolls] == [4]
    dest = 10.0
    pa = ai.path_penalty(g, a, reach_a, dest_score=dest)
    pb = ai.path_penalty(g, b, reach_b, dest_score=dest)
    pc = ai.path_penalty(g, c, reach_c, dest_score=dest)
    assert pa > pb > pc == 0.0


def test_arena_plays_a_later_edition_game_with_aircraft():
    """``python -m game.ai.arena --edition later``: a Veteran-vs-random game on a later
    map, armies with an Aircraft, ends without an AI error."""
    from game.ai.arena import play_game
    r = play_game("veteran", "random", index=1, seed=2, edition="later", turn_limit=4)
    assert r.error is None and r.config == 2 and r.winner in ("a", "b", None)
    assert r.actions > 50


def test_fuzz_bench_later_edition_short(capsys):
    """The fuzz bench with ``--edition later`` (a short run): invariants after every
    action, one game replayed from its save to the same hash, Aircraft placed."""
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    import fuzz_games
    assert fuzz_games.main(["--edition", "later", "--games", "2", "--replays", "1",
                            "--jobs", "1", "--max-units", "6"]) == 0
    out = capsys.readouterr().out
    assert "2 later-edition" in out and "failures:          0" in out
    placed = int(out.split("later edition:")[1].split("Aircraft placed")[0])
    assert placed > 0


def test_L12_recruit_fires_antiair_and_flies_its_aircraft_like_the_veteran():
    """L12 / L3: the Recruit's ground play is its fixed table, but in the later
    edition's own decisions it plays as the Veteran does - before, it held every
    Antiair shot (even a strong one) and never placed its Aircraft."""
    from game.ai.recruit import RecruitAI
    g = later_game(dice=[1] * 20)
    plane = g.add_unit(aircraft())
    g.add_unit(flak(soldier=(1, 1, 1)), hex=at(5, 2))
    strong = g.add_unit(flak(soldier=(9, 8, 6)), hex=at(4, 3))
    g.apply(PlaceAircraft("Axis", plane.uid, at(4, 2)))
    assert RecruitAI(3).choose(g) == DefensiveFire("Allies", strong.uid)

    g = later_game(rect_map(12, 6))
    plane = g.add_unit(aircraft())
    g.add_unit(tank("United States", cost=30, front=3, rear=2), hex=at(9, 4))
    a = RecruitAI(3).choose(g)
    assert isinstance(a, PlaceAircraft) and a.uid == plane.uid
