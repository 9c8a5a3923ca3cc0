"""MapRenderer: the cached map picture, its textures, roads, streams, bridges, edge
half-hexes, zones and labels, the overlay helpers, and the headless PNG export."""
import os
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from game.rules.board import BattleMap, SectionPlacement
from game.rules.hexes import Hex, Hexside
from game.rules.terrain import Terrain
from game.ui.layout import HexLayout
from game.ui.map_render import (PALETTE, TABLE_COLOR, MapRenderer, draw_los_line, map_box,
                                outline_hex, shade_hexes)

ROOT = Path(__file__).resolve().parents[2]


def small_map() -> BattleMap:
    """A sheet three rows high cut like the real ones (edge half-hexes all round)::

        row -1:  clear forest hill town marsh pond      (Hex(-2,-1) .. Hex(3,-1))
        row  0:    clear clear clear clear clear        (Hex(-2,0) .. Hex(2,0)), objective (2,0)
        row  1:  clear clear clear clear clear forest   (Hex(-3,1) .. Hex(2,1))

    A road runs (-2,0)-(-1,0)-(0,0) and crosses a stream on a bridge between (-1,0) and
    (0,0); the stream goes on along the hexsides under (0,-1)."""
    kinds = [Terrain.CLEAR, Terrain.FOREST, Terrain.HILL, Terrain.TOWN, Terrain.MARSH, Terrain.POND]
    terrain = {Hex(q, -1): t for q, t in zip(range(-2, 4), kinds)}
    terrain.update({Hex(q, 0): Terrain.CLEAR for q in range(-2, 3)})
    terrain.update({Hex(q, 1): Terrain.CLEAR for q in range(-3, 3)})
    terrain[Hex(2, 1)] = Terrain.FOREST
    half = {Hex((x2 - r) // 2, r) for r in (-2, 2) for x2 in range(-6, 7, 2)}
    half |= {Hex(-3, 0), Hex(3, 0)}
    a, b, c = Hex(-2, 0), Hex(-1, 0), Hex(0, 0)
    bridge = Hexside.between(b, c)
    roads = frozenset({Hexside.between(a, b), bridge})
    streams = frozenset({bridge, Hexside.between(b, Hex(0, -1)), Hexside.between(c, Hex(0, -1))})
    sec = SectionPlacement("Able-1", "TL", 0, frozenset(terrain), ((-6, -2), (6, -2), (6, 2), (-6, 2)))
    return BattleMap("small", terrain, frozenset(half), roads, streams, frozenset({bridge}),
                     objective=Hex(2, 0), sections=(sec,), number=7)


SAMPLE = {Terrain.CLEAR: Hex(0, 1), Terrain.FOREST: Hex(-1, -1), Terrain.HILL: Hex(0, -1),
          Terrain.TOWN: Hex(1, -1), Terrain.MARSH: Hex(2, -1), Terrain.POND: Hex(3, -1)}


@pytest.fixture(scope="module")
def bm():
    pygame.font.init()
    return small_map()


def mean_colour(surf, lay, h, scale=0.45):
    """Average colour over the inner part of a hex."""
    cx, cy = lay.hex_to_pixel(h)
    r = int(lay.size * scale)
    total, n = [0, 0, 0], 0
    for x in range(int(cx) - r, int(cx) + r + 1, 2):
        for y in range(int(cy) - r, int(cy) + r + 1, 2):
            c = surf.get_at((x, y))
            for i in range(3):
                total[i] += c[i]
            n += 1
    return tuple(v / n for v in total)


def dist(c1, c2):
    return sum((a - b) ** 2 for a, b in zip(c1[:3], c2[:3])) ** 0.5


def test_surface_has_the_sheet_size_and_is_drawn_once(bm):
    r = MapRenderer(bm, 30, margin=5)
    s1 = r.surface
    assert s1.get_size() == r.pixel_size
    assert r.surface is s1 and r.renders == 1          # cached
    r.set_options(labels=False)
    assert r.surface is s1 and r.renders == 1          # nothing changed, no redraw
    r.set_options(labels=True)
    assert r.surface is not s1 and r.renders == 2
    with pytest.raises(TypeError):
        r.set_options(colour="red")
    # the margin is table, not map
    assert dist(s1.get_at((1, 1)), TABLE_COLOR) < 3


def test_map_box_cuts_through_the_centres_of_the_edge_half_hexes(bm):
    left, top, right, bottom = map_box(bm)
    unit = HexLayout(1.0)
    xs = [unit.hex_to_pixel(h)[0] for h in bm.half_hexes]
    ys = [unit.hex_to_pixel(h)[1] for h in bm.half_hexes]
    assert (left, right) == pytest.approx((min(xs), max(xs)))
    assert (top, bottom) == pytest.approx((min(ys), max(ys)))
    # without half-hexes the whole hexes are framed
    bare = BattleMap("bare", dict(bm.terrain))
    assert map_box(bare) == pytest.approx(unit.bounds(bm.terrain))


def test_each_terrain_reads_as_its_own_colour(bm):
    """art direction: clear, forest, hill, town, marsh and pond are told apart at a glance"""
    r = MapRenderer(bm, 40, sections=False, grid=False)
    surf, lay = r.surface, r.layout
    seen = {t: mean_colour(surf, lay, h) for t, h in SAMPLE.items()}
    assert all(bm.terrain[h] == t for t, h in SAMPLE.items())
    for t, c in seen.items():
        nearest = min(PALETTE, key=lambda k: dist(PALETTE[k], c))
        assert nearest == t, f"{t} looks like {nearest}: {c}"
    names = list(seen)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            assert dist(seen[a], seen[b]) > 25, f"{a} and {b} look alike"


def test_textures_are_stable_between_renders(bm):
    a = MapRenderer(bm, 24).surface
    b = MapRenderer(bm, 24).surface
    assert pygame.image.tobytes(a, "RGB") == pygame.image.tobytes(b, "RGB")


def test_half_hexes_are_greyed_out(bm):
    """rulebook: the half-hexes at the edge are not part of the battlefield"""
    r = MapRenderer(bm, 40, grid=False, sections=False)
    surf, lay = r.surface, r.layout
    half = Hex(0, -2)           # top edge, lower half inside the sheet
    assert half in bm.half_hexes
    cx, cy = lay.hex_to_pixel(half)
    pts = [surf.get_at((int(cx + dx), int(cy + dy))) for dx in range(-12, 13, 3) for dy in (6, 10, 14)]
    mean = tuple(sum(p[i] for p in pts) / len(pts) for i in range(3))
    spread = max(mean) - min(mean)
    assert spread < 40                      # grey, where clear ground is olive
    clear = mean_colour(surf, lay, SAMPLE[Terrain.CLEAR])
    assert max(clear) - min(clear) > 50


def test_roads_streams_bridge_and_objective_are_drawn(bm):
    r = MapRenderer(bm, 40, grid=False, sections=False)
    surf, lay = r.surface, r.layout
    # road: halfway between two road hexes (not on the stream)
    (ax, ay), (bx, by) = lay.hex_to_pixel(Hex(-2, 0)), lay.hex_to_pixel(Hex(-1, 0))
    road = surf.get_at((int((ax + bx) / 2), int((ay + by) / 2)))
    assert dist(road, (214, 190, 138)) < 30
    # stream: the middle of a hexside without a bridge is blue
    (p, q) = lay.hexside_points(Hexside.between(Hex(0, 0), Hex(0, -1)))
    c = surf.get_at((int((p[0] + q[0]) / 2), int((p[1] + q[1]) / 2)))
    assert c[2] > c[0] + 60
    # bridge: planks (brown) where the road crosses the stream
    (p, q) = lay.hexside_points(Hexside.between(Hex(-1, 0), Hex(0, 0)))
    c = surf.get_at((int((p[0] + q[0]) / 2 + 3), int((p[1] + q[1]) / 2)))
    assert c[0] > c[2] + 40 and c[0] < 200
    # objective counter: red star in the middle, cream rim area around it
    ox, oy = lay.hex_to_pixel(bm.objective)
    star = surf.get_at((int(ox), int(oy)))
    assert star[0] > 150 and star[1] < 80
    cream = surf.get_at((int(ox), int(oy + lay.size * 0.3)))
    assert cream[0] > 200 and cream[1] > 190


def test_deployment_zones_tint_both_ends(bm):
    """ruling 8: the zones are the first five whole hexes of each row from each end"""
    plain = MapRenderer(bm, 40, grid=False, sections=False)
    zoned = MapRenderer(bm, 40, grid=False, sections=False, zones=True, zone_depth=2)
    left_hex, right_hex, middle = Hex(-3, 1), Hex(1, 1), Hex(0, 1)
    assert left_hex in bm.deployment_zone("left", 2) and right_hex in bm.deployment_zone("right", 2)
    lp = mean_colour(plain.surface, plain.layout, left_hex)
    lz = mean_colour(zoned.surface, zoned.layout, left_hex)
    assert lz[2] - lz[0] > lp[2] - lp[0] + 10           # bluer on the left
    rp = mean_colour(plain.surface, plain.layout, right_hex)
    rz = mean_colour(zoned.surface, zoned.layout, right_hex)
    assert rz[0] - rz[2] > rp[0] - rp[2] + 5            # more orange on the right
    assert dist(mean_colour(plain.surface, plain.layout, middle),
                mean_colour(zoned.surface, zoned.layout, middle)) < 3


def test_labels_and_section_names_add_text(bm):
    a = MapRenderer(bm, 40, labels=False, sections=False).surface
    b = MapRenderer(bm, 40, labels=True, sections=False).surface
    c = MapRenderer(bm, 40, labels=False, sections=True).surface
    differ = lambda x, y: pygame.image.tobytes(x, "RGB") != pygame.image.tobytes(y, "RGB")
    assert differ(a, b) and differ(a, c)


def test_hex_at_finds_playable_hexes_only(bm):
    r = MapRenderer(bm, 32, margin=10)
    top = (100, 50)
    lay = r.layout_at(top)
    for h in bm.terrain:
        assert r.hex_at(*lay.hex_to_pixel(h), topleft=top) == h
    half = next(iter(bm.half_hexes))
    assert r.hex_at(*lay.hex_to_pixel(half), topleft=top) is None
    assert r.hex_at(0, 0, topleft=top) is None


def test_fit_makes_the_map_fit_the_box(bm):
    r = MapRenderer.fit(bm, 500, 300, margin=4)
    w, h = r.pixel_size
    assert w <= 500 and h <= 300
    assert w >= 480 or h >= 280


def test_overlay_helpers_draw_where_asked():
    surf = pygame.Surface((300, 300))
    surf.fill((0, 0, 0))
    lay = HexLayout(30, (150, 150))
    shade_hexes(surf, lay, [Hex(0, 0)], (255, 0, 0, 128))
    inside = surf.get_at((150, 150))
    assert 100 < inside[0] < 160 and inside[1] == 0        # half-strength red
    assert surf.get_at((150 + 60, 150))[0] == 0             # the neighbour is untouched
    # two touching hexes: no darker/brighter seam where they meet
    surf.fill((0, 0, 0))
    shade_hexes(surf, lay, [Hex(0, 0), Hex(1, 0)], (255, 0, 0, 128))
    mid = lay.hex_to_pixel(Hex(0, 0))[0] + lay.width / 2
    assert surf.get_at((int(mid), 150))[0] == inside[0]
    surf.fill((0, 0, 0))
    outline_hex(surf, lay, Hex(0, 0), (0, 255, 0), 3)
    x, y = lay.corners(Hex(0, 0))[1]                         # top corner
    assert surf.get_at((int(x), int(y) + 1))[1] == 255
    assert surf.get_at((150, 150))[1] == 0
    surf.fill((0, 0, 0))
    draw_los_line(surf, lay, Hex(-1, 0), Hex(1, 0), color=(255, 255, 255))
    assert surf.get_at((150, 150))[:3] == (255, 255, 255)
    surf.fill((0, 0, 0))
    draw_los_line(surf, lay, Hex(-2, 0), Hex(2, 0), color=(255, 255, 255), blocked_at=Hex(0, 0),
                  blocked_color=(255, 0, 0))
    assert surf.get_at((100, 150))[:3] == (255, 255, 255)   # clear part before the blocker
    assert surf.get_at((150, 150))[0] == 255 and surf.get_at((150, 150))[1] == 0   # the cross


def _run_main(args, tmp_path):
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               HEXFRONT_CONFIG_DIR=str(tmp_path / "cfg"))
    return subprocess.run([sys.executable, str(ROOT / "main.py"), *args], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)


def test_render_map_command_writes_a_png_headless(tmp_path):
    """issue 3: python main.py --render-map N --out FILE.png [--zones] [--labels] exits 0"""
    out = tmp_path / "map.png"
    res = _run_main(["--render-map", "4", "--out", str(out), "--zones", "--labels"], tmp_path)
    assert res.returncode == 0, res.stderr
    img = pygame.image.load(str(out))
    assert img.get_size() == (1280, 800)


def test_render_map_command_fails_cleanly(tmp_path):
    res = _run_main(["--render-map", "3", "--out", str(tmp_path / "no" / "such" / "dir.png")], tmp_path)
    assert res.returncode == 2
    assert "Traceback" not in res.stderr


def test_render_map_png_draws_each_configuration_number(tmp_path):
    from game.ui.render_export import main_render, render_map_png
    path = render_map_png(6, tmp_path / "six.png", zones=True, size=(960, 600))
    assert pygame.image.load(str(path)).get_size() == (960, 600)
    assert main_render(1, tmp_path / "one.png") == 0
    assert (tmp_path / "one.png").stat().st_size > 10_000
    assert main_render(9, tmp_path / "nine.png") == 2          # no configuration 9
