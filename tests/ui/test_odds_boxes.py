"""The exact odds shown on the battle screen: a target the selected unit can attack in
several ways (a normal attack and Hand to Hand, HE Round...) gets one odds box per way,
stacked so that none covers another, below the pointer or, near the map's bottom edge,
above it (found on a Firepower screenshot: two boxes drawn over each other)."""
import pygame
import pytest

from game.rules.odds import Odds
from game.ui.battle.panels import draw_odds_stack


def _odds(mode: str) -> Odds:
    return Odds(0.25, 0.25, 0.0, 0.5, 0.0, 9, 4, 4, None, None, band="short", mode=mode,
                p_hits=(0.25, 0.25, 0.5))


@pytest.mark.parametrize("mouse_y", [120, 560, 790])
def test_stacked_odds_boxes_never_overlap_and_stay_on_the_map(mouse_y):
    pygame.init()
    surface = pygame.Surface((1280, 800))
    bounds = pygame.Rect(16, 140, 890, 430)
    infos = [_odds("normal"), _odds("hand_to_hand")]
    mouse = (500, min(mouse_y, bounds.bottom - 4))
    boxes = draw_odds_stack(surface, mouse, [(o.mode, o) for o in infos], bounds)
    assert not boxes[0].colliderect(boxes[1])
    assert all(bounds.contains(b) for b in boxes)
    assert boxes[0].bottom < boxes[1].top                 # in order, the normal attack first
    below = boxes[0].top > mouse[1]
    assert below == (mouse[1] + 18 + sum(b.h for b in boxes) + 6 <= bounds.bottom)
