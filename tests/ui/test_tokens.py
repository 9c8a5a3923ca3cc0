"""Miniature tokens (art-direction.md: Miniatures): kinds, side shapes, facing,
counters, 1-4 units per hex, boarded badge."""
import math

import pygame
import pytest

from game.rules.cards import UnitCard
from game.ui import tokens


@pytest.fixture(scope="module", autouse=True)
def fonts():
    pygame.display.init()
    pygame.font.init()
    yield


def make(name="Test Tank", nation="Germany", typ="Vehicle", sub="Tank", abilities=()):
    return UnitCard(name=name, nationality=nation, cost=10, year=1942, type=typ, subtype=sub,
                    speed=3, defense_front=4, defense_rear=3, attack={}, abilities=abilities)


class U:
    def __init__(self, card, facing=0, **kw):
        self.card, self.side, self.facing = card, card.side, facing
        self.disrupted = kw.get("disrupted", False)
        self.damaged = kw.get("damaged", False)
        self.pending = kw.get("pending", [])
        self.destroyed = kw.get("destroyed", False)


def roster():
    from game.data.units import load_roster
    return load_roster()


def test_every_roster_card_has_a_kind_and_a_short_name_that_fits():
    font = pygame.font.Font(None, 20)
    for card in roster().values():
        assert tokens.kind_of(card) in tokens.KINDS
        assert 0 < len(tokens.short_name(card)) <= 9, card.name


def test_two_tokens_sharing_a_hex_keep_their_name_plates_apart():
    """Found in a play-through: in a hex with two units the "20mm FlaK" and "Romanian"
    plates ran into each other. Every card's plate fits its own token (the label's text
    plus its 6 px padding within 1.9 radii) at the radius of a two-unit hex, and the two
    plates of a shared hex leave a gap."""
    size = 40                                   # a hex of the default zoom (centre to corner)
    rects = tokens.token_rects((200, 200), 2, size)
    r = rects[0].w // 2
    for card in roster().values():
        text, f = tokens.token_label(card, r)
        assert f.size(text)[0] + 6 <= r * 1.9, (card.name, text)
        assert text
    half = (r * 1.9) / 2
    assert rects[0].centerx + half < rects[1].centerx - half


@pytest.mark.parametrize("name,kind", [
    ("M4A1 Sherman", "tank"), ("Panzer IV Ausf. G", "tank"), ("KV-1", "tank"),
    ("PAK 38 Antitank Gun", "antitank_gun"), ("6-Pounder Antitank Gun", "antitank_gun"),
    ("ZIS-2 57mm Antitank Gun", "antitank_gun"), ("MG-42 Machine-Gun Team", "machine_gun"),
    ("Vickers Machine-Gun Team", "machine_gun"), ("M1 Garand Rifle", "infantry"),
    ("Bazooka", "infantry"), ('"Red Devil" Captain', "commander"),
    ("Sd Kfz 251", "transport"), ("Sd Kfz 222", "armored_car"), ("Type 89 Mortar", "artillery"),
])
def test_kind_of_roster_units(name, kind):
    cards = roster()
    if name not in cards:
        pytest.skip(f"{name} not in the roster")
    assert tokens.kind_of(cards[name]) == kind


def test_kind_of_subtypes():
    assert tokens.kind_of(make(sub="Tank Destroyer")) == "tank_destroyer"
    assert tokens.kind_of(make(sub="Assault Gun")) == "assault_gun"
    assert tokens.kind_of(make(sub="Half-Track")) == "transport"
    assert tokens.kind_of(make(name="Howitzer", typ="Soldier", sub="Artillery")) == "artillery"


def _inside_hex(cx, cy, size, px, py):
    """Distance from (px, py) to the nearest edge of a pointy-top hex (positive = inside)."""
    apothem = size * math.sqrt(3) / 2
    d = []
    for i in range(6):
        ang = math.radians(60 * i)     # edge normals of a pointy-top hex: 0, 60, ... degrees
        d.append(apothem - ((px - cx) * math.cos(ang) + (py - cy) * math.sin(ang)))
    return min(d)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_token_rects_stay_in_the_hex_and_never_overlap(n):
    centre, size = (400, 300), 40
    rects = tokens.token_rects(centre, n, size)
    assert len(rects) == n
    for r in rects:
        assert r.w == r.h and r.w >= 0.6 * size        # still big enough to read and click
        assert _inside_hex(*centre, size, *r.center) >= r.w / 2 - 2
    for i, a in enumerate(rects):
        for b in rects[i + 1:]:
            assert math.dist(a.center, b.center) >= (a.w + b.w) / 2 - 1


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_each_token_in_a_stack_is_clickable(n):
    rects = tokens.token_rects((200, 200), n, 36)
    for i, r in enumerate(rects):
        assert tokens.token_at(rects, r.center) == i
    assert tokens.token_at(rects, (200 + 36, 200 + 36)) is None


def test_axis_and_allied_bases_differ_in_shape_not_only_colour():
    """art-direction: colour-blind players tell the sides apart by the base's rim shape
    (both bases are round, like miniatures' bases): the Axis rim is cut by notches,
    the Allied rim is smooth."""
    import math
    axis = make(nation="Germany")
    allied = make(nation="Soviet Union")
    rect = pygame.Rect(10, 10, 60, 60)
    r = rect.w // 2
    changes = {}
    for name, card in (("axis", axis), ("allied", allied)):
        s = pygame.Surface((80, 80))
        s.fill((255, 0, 255))
        tokens.draw_token(s, card, rect, label=False)
        ring = [s.get_at((round(rect.centerx + (r - 3) * math.cos(math.radians(a))),
                          round(rect.centery + (r - 3) * math.sin(math.radians(a)))))[:3]
                for a in range(30, 330, 3)]              # the facing wedge is at 0 degrees
        lum = [sum(c) // 3 for c in ring]
        changes[name] = sum(1 for a, b in zip(lum, lum[1:]) if abs(a - b) > 40)
        assert s.get_at((rect.x + 4, rect.y + 4))[:3] == (255, 0, 255)   # round: corners free
    assert changes["axis"] >= 12 and changes["allied"] <= 2, changes


def test_vehicle_facing_points_the_wedge_at_the_hexside():
    """Facing 0 = east, 3 = west (hexes.DIRECTIONS): the light wedge sits on that rim."""
    card = make()
    rect = pygame.Rect(20, 20, 60, 60)
    east = (rect.right, rect.centery)
    west = (rect.x, rect.centery)

    def bright(s, p):
        return sum(s.get_at(p)[:3]) > 600
    for facing, lit, dark in ((0, east, west), (3, west, east)):
        s = pygame.Surface((100, 100))
        s.fill((0, 0, 0))
        tokens.draw_token(s, card, rect, facing=facing, label=False)
        assert bright(s, (lit[0] + (-4 if facing == 0 else 4), lit[1]))
        assert not bright(s, (dark[0] + (4 if facing == 0 else -4), dark[1]))


def test_facing_angles_follow_the_directions():
    assert [tokens.facing_angle(f) for f in range(6)] == [0, 60, 120, 180, 240, 300]


@pytest.mark.parametrize("state,colour", [
    ({"pending": ["disrupted"]}, tokens.COUNTER_STYLE["pending"][0]),
    ({"disrupted": True}, tokens.COUNTER_STYLE["disrupted"][0]),
    ({"damaged": True}, tokens.COUNTER_STYLE["damaged"][0]),
    ({"destroyed": True}, tokens.COUNTER_STYLE["destroyed"][0]),
])
def test_counters_are_drawn_in_their_colours(state, colour):
    unit = U(make(), **state)
    s = pygame.Surface((120, 120))
    s.fill((0, 0, 0))
    tokens.draw_unit(s, unit, pygame.Rect(30, 30, 60, 60))
    pixels = {tuple(s.get_at((x, y))[:3]) for x in range(0, 120, 1) for y in range(0, 60)}
    assert tuple(colour) in pixels


def test_counters_of_lists_face_up_then_face_down():
    unit = U(make(), damaged=True, disrupted=True, pending=["disrupted", "damaged"])
    assert tokens.counters_of(unit) == ["damaged", "disrupted", "pending", "pending"]
    assert tokens.counters_of(U(make())) == []


def test_boarded_soldier_badge_is_drawn():
    carrier = U(make(name="Sd Kfz 251", sub="Half-Track"))
    rider = U(make(name="Mauser Kar 98k", typ="Soldier", sub=None))
    rect = pygame.Rect(20, 20, 70, 70)
    plain = pygame.Surface((110, 110))
    badge = pygame.Surface((110, 110))
    tokens.draw_unit(plain, carrier, rect)
    tokens.draw_unit(badge, carrier, rect, passengers=[rider])
    corner = pygame.Rect(rect.x - 8, rect.y - 8, 30, 30)
    diff = sum(1 for x in range(corner.x, corner.right) for y in range(corner.y, corner.bottom)
               if plain.get_at((x, y)) != badge.get_at((x, y)))
    assert diff > 100


def test_selected_and_dimmed_change_the_token():
    card = make()
    rect = pygame.Rect(20, 20, 60, 60)
    a, b, c = (pygame.Surface((100, 100)) for _ in range(3))
    tokens.draw_token(a, card, rect)
    tokens.draw_token(b, card, rect, selected=True)
    tokens.draw_token(c, card, rect, dimmed=True)
    assert pygame.image.tobytes(a, "RGB") != pygame.image.tobytes(b, "RGB")
    assert pygame.image.tobytes(a, "RGB") != pygame.image.tobytes(c, "RGB")


def test_thirty_tokens_draw_from_the_cache():
    """A frame with 30 units only blits: the second frame renders no new token body."""
    cards = list(roster().values())[:30]
    s = pygame.Surface((1280, 800))
    rects = [pygame.Rect(20 + (i % 10) * 60, 20 + (i // 10) * 60, 50, 50) for i in range(30)]
    for c, r in zip(cards, rects):
        tokens.draw_unit(s, U(c, facing=2), r)
    bodies = len(tokens._CACHE)
    for _ in range(10):
        for c, r in zip(cards, rects):
            tokens.draw_unit(s, U(c, facing=2, pending=["disrupted"]), r)
    assert len(tokens._CACHE) == bodies   # (the frame's speed is bench/frame_bench.py's)
