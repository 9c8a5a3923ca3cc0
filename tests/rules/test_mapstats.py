"""Map facts for the preview's end comparison (game.rules.mapstats).

Rulebook: Terrain Effects table (cover), Line of Sight (blocking terrain; the
attacker's and target's hexes never block), Range (short 0-1, medium 2-4, long 5-8);
ruling 8 (deployment zone = first five whole hexes of each row)."""
import pytest

from game.data.maps import load_configuration
from game.rules.board import BattleMap
from game.rules.hexes import Hex, Hexside, hex_label
from game.rules.mapstats import (compare_ends, cover_hexes, end_stats, hex_notes,
                                 longest_open_line, objective_viewers, sight_note)
from game.rules.terrain import Terrain


def line_map(objective=Hex(7, 0), **extra) -> BattleMap:
    """One row of ten hexes q = 0..9: forest at 4, marsh at 2, objective at 7."""
    terrain = {Hex(q, 0): Terrain.CLEAR for q in range(10)}
    terrain[Hex(4, 0)] = Terrain.FOREST
    terrain[Hex(2, 0)] = Terrain.MARSH
    return BattleMap("line", terrain, objective=objective, **extra)


def every_terrain() -> BattleMap:
    kinds = [t for t in Terrain if not t.later_only]      # the first edition's table
    return BattleMap("all", {Hex(q, 0): t for q, t in enumerate(kinds)})


def test_cover_hexes_follow_the_terrain_effects_table():
    """rulebook: cover in forest, hill, town; marsh for Soldiers only; none in clear, pond"""
    bm = every_terrain()
    names = lambda hs: {bm.terrain[h].value for h in hs}
    assert names(cover_hexes(bm)) == {"forest", "hill", "town", "marsh"}
    assert names(cover_hexes(bm, kind="vehicle")) == {"forest", "hill", "town"}
    assert names(cover_hexes(bm, kind="any")) == {"forest", "hill", "town", "marsh"}
    assert cover_hexes(bm, [Hex(0, 0), Hex(1, 0), Hex(99, 0)]) == {Hex(1, 0)}
    with pytest.raises(ValueError):
        cover_hexes(bm, kind="tank")


def test_objective_viewers_respect_blocking_terrain_and_range():
    """rulebook: Line of Sight - the forest between blocks; its own hex sees out"""
    bm = line_map()
    assert objective_viewers(bm) == {Hex(q, 0) for q in (4, 5, 6, 8, 9)}
    assert objective_viewers(bm, max_distance=2) == {Hex(q, 0) for q in (5, 6, 8, 9)}
    assert objective_viewers(bm, [Hex(0, 0), Hex(5, 0)]) == {Hex(5, 0)}
    assert objective_viewers(line_map(objective=None)) == frozenset()


def test_longest_open_line_is_the_farthest_visible_pair():
    bm = line_map()
    assert longest_open_line(bm) == (Hex(4, 0), Hex(9, 0), 5)
    assert longest_open_line(bm, sources=[Hex(0, 0), Hex(1, 0)]) == (Hex(0, 0), Hex(4, 0), 4)
    assert longest_open_line(bm, sources=[Hex(9, 0)], targets=[Hex(6, 0), Hex(7, 0)]) == \
        (Hex(9, 0), Hex(6, 0), 3)
    # ties: the smallest pair wins, so the answer never flickers
    open_map = BattleMap("open", {Hex(q, 0): Terrain.CLEAR for q in range(3)})
    assert longest_open_line(open_map) == (Hex(0, 0), Hex(2, 0), 2)
    assert longest_open_line(open_map, sources=[]) is None


def test_end_stats_compare_the_two_deployment_zones():
    """ruling 8: zones of depth 3 on a row of ten are q 0-2 (left) and q 7-9 (right)"""
    bm = line_map()
    left, right = end_stats(bm, "left", depth=3), end_stats(bm, "right", depth=3)
    assert left.zone == {Hex(q, 0) for q in (0, 1, 2)}
    assert right.zone == {Hex(q, 0) for q in (7, 8, 9)}
    assert left.soldier_cover == {Hex(2, 0)} and left.vehicle_cover == frozenset()
    assert left.cover_by_terrain == {"marsh": 1}
    assert right.soldier_cover == frozenset() and right.cover_by_terrain == {}
    assert left.zone_sees_objective == frozenset()              # the forest is in the way
    assert right.zone_sees_objective == {Hex(8, 0), Hex(9, 0)}
    assert left.half_sees_objective == {Hex(4, 0)}
    assert right.half_sees_objective == {Hex(q, 0) for q in (5, 6, 8, 9)}
    assert left.objective_distance == 5 and right.objective_distance == 0
    assert left.longest_line == (Hex(0, 0), Hex(4, 0), 4)
    assert right.longest_line == (Hex(9, 0), Hex(4, 0), 5)
    both = compare_ends(bm, depth=3)
    assert both["left"] == left and both["right"] == right


def test_real_configurations_give_sensible_comparisons():
    bm = load_configuration(1)
    stats = compare_ends(bm)
    for end, st in stats.items():
        assert len(st.zone) == 55                       # 11 rows x 5 whole hexes (ruling 8)
        assert st.vehicle_cover <= st.soldier_cover <= st.zone
        a, b, d = st.longest_line
        assert a in st.zone and bm.can_see(a, b) and a.distance(b) == d
        assert st.half_sees_objective_in_range <= st.half_sees_objective
    assert longest_open_line(bm)[2] >= max(st.longest_line[2] for st in stats.values())


def test_hex_notes_explain_terrain_roads_streams_and_bridges():
    """rulebook: Roads, Movement Roll (streams), Bridge Demolition; ruling 5"""
    a, b, c = Hex(0, 0), Hex(1, 0), Hex(2, 0)
    terrain = {h: Terrain.CLEAR for h in (a, b, c)}
    terrain[c] = Terrain.FOREST
    road = Hexside.between(a, b)
    bm = BattleMap("notes", terrain, half_hexes=frozenset({Hex(-1, 0)}),
                   roads=frozenset({road}), streams=frozenset({road, Hexside.between(b, c)}),
                   bridges=frozenset({road}), objective=c)
    notes_b = hex_notes(bm, b, depth=1)
    assert notes_b[0].startswith(f"{hex_label(b)}: Clear. Open ground")
    assert any(n.startswith("Road:") and "ruling 5" in n for n in notes_b)
    stream = [n for n in notes_b if n.startswith("Stream")]
    assert stream and "E, W hexsides" in stream[0] and "4+" in stream[0]
    assert any(n.startswith("Bridge on the W hexside") for n in notes_b)
    notes_c = hex_notes(bm, c, depth=1)
    assert notes_c[0].startswith(f"{hex_label(c)}: Forest: Vehicles pay 2") and "Objective hex." in notes_c
    assert any("right end's deployment zone" in n for n in notes_c)
    assert not any(n.startswith("Road") for n in notes_c)
    assert not any("deployment zone" in n for n in hex_notes(bm, c, depth=1, zones=False))
    assert "out of play" in hex_notes(bm, Hex(-1, 0))[0]
    assert hex_notes(bm, Hex(5, 5)) == []


def test_sight_note_names_distance_band_and_blocker():
    bm = line_map()
    assert sight_note(bm, Hex(5, 0), Hex(8, 0)) == \
        f"From {hex_label(Hex(5, 0))} to {hex_label(Hex(8, 0))}: 3 hexes, medium range, clear line of sight."
    blocked = sight_note(bm, Hex(0, 0), Hex(9, 0))
    assert "9 hexes, beyond range" in blocked and f"blocked by {hex_label(Hex(4, 0))} (forest)" in blocked
    assert sight_note(bm, Hex(3, 0), Hex(4, 0)).endswith("short range, clear line of sight.")


def test_hex_notes_name_hedges_and_cliffs_on_the_sides_later_edition():
    """Checklist L23 (hedge: movement roll at -1, 5+), L27/L28 (cliff: a Soldier rolls
    4+, a Vehicle can't cross); hexside cover (rulings L8, L9): a hex's notes name the
    hedges and cliffs on its sides, as they name a stream."""
    from game.data.later_maps import load_later_configuration
    bm = next(b for b in map(load_later_configuration, (1, 2, 3)) if b.hedges and b.cliffs)
    hedge = next(iter(sorted(bm.hedges, key=str)))
    h = next(x for x in hedge.hexes() if x in bm.terrain)
    text = " ".join(hex_notes(bm, h, depth=3))
    assert "Hedge on the" in text and "5+" in text
    cliff = next(iter(sorted(bm.cliffs, key=str)))
    h = next(x for x in cliff.hexes() if x in bm.terrain)
    text = " ".join(hex_notes(bm, h, depth=3))
    assert "Cliff on the" in text and "can't cross" in text
    first = load_configuration(1)
    assert not any("Hedge" in n or "Cliff" in n for x in first.terrain for n in hex_notes(first, x))


def test_hex_notes_cite_the_editions_own_deployment_ruling():
    """The preview's hex note names ruling 8 (5 hexes, first edition) or ruling L13
    (3 hexes, later edition) for the deployment zone it describes."""
    from game.data.maps import load_configuration
    from game.rules.hexes import Hex
    from game.rules.mapstats import hex_notes
    bm = load_configuration(1)
    h = next(iter(sorted(bm.deployment_zone("left", 3), key=lambda x: (x.q, x.r))))
    assert any("ruling 8)" in n for n in hex_notes(bm, h, 5))
    assert any("ruling L13)" in n for n in hex_notes(bm, h, 3))
    assert isinstance(h, Hex)
