"""Standing orders for defensive fire (issue 17).

In hotseat every defensive-fire prompt makes the players swap seats in the
middle of a phase.  Before handing over, a player may give each of their units
an order (select it, press O to go through the orders); when a prompt comes and
every eligible defender has an order other than "always ask", the screen answers
it for the absent player from the rules' own options and exact odds
(:func:`game.rules.queries.defensive_fire_options`): a defender fires at the
stage where its order accepts the shot (the better of leaving / entering when
both do), or holds fire.  Orders are shown on the units.

:func:`decide` is pure (no pygame) and tested on its own.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pygame

from game.rules.actions import Action, DefensiveFire, PassDefensiveFire
from game.rules.queries import defensive_fire_options
from game.rules.state import DefensiveFirePrompt
from game.ui import theme

if TYPE_CHECKING:
    from game.ui.scenes.battle import BattleScene

__all__ = ["Order", "ORDERS", "ASK", "decide", "StandingOrders"]


@dataclass(frozen=True)
class Order:
    key: str
    label: str                  # shown when it is set
    badge: str                  # shown on the unit
    targets: str = "none"       # "none" (hold) / "vehicles" / "tanks" / "any"
    min_chance: float = 0.0     # the chance to stop the mover the shot needs (at least)

    def accepts(self, mover: Any, chance: float | None) -> bool:
        if chance is None or chance <= 0.0 or self.targets == "none":
            return False
        if self.targets == "vehicles" and not mover.is_vehicle:
            return False
        if self.targets == "tanks" and (not mover.is_vehicle or
                                        (mover.card.subtype or "").lower() != "tank"):
            return False
        return chance >= self.min_chance


ASK = Order("ask", "always ask", "")
ORDERS: tuple = (
    ASK,
    Order("vehicles50", "fire at any Vehicle when the chance to stop it is at least 50%",
          "V50", "vehicles", 0.5),
    Order("vehicles25", "fire at any Vehicle when the chance to stop it is at least 25%",
          "V25", "vehicles", 0.25),
    Order("any50", "fire at any mover when the chance to stop it is at least 50%",
          "A50", "any", 0.5),
    Order("tanks", "hold fire for tanks: fire only at a Tank (any chance)", "TK", "tanks",
          0.0),
    Order("hold", "hold fire", "HOLD", "none"),
)
BY_KEY = {o.key: o for o in ORDERS}


def decide(game: Any, orders: dict) -> tuple[Action, str] | None:
    """What the standing orders answer to the defensive-fire prompt now, with a line for
    the log; None when there is no prompt or some eligible defender says "always ask"."""
    st = game.state
    p = st.pending
    if not isinstance(p, DefensiveFirePrompt):
        return None
    options = defensive_fire_options(game)
    if not options or any(orders.get(o.uid, ASK) is ASK for o in options):
        return None
    mover = st.units[p.mover]
    side = st.to_act
    later = False
    for o in options:
        order = orders[o.uid]
        here = o.here.p_stopped if o.here.legal else None
        nxt = o.next.p_stopped if o.next is not None and o.next.legal else None
        ok_here, ok_next = order.accepts(mover, here), order.accepts(mover, nxt)
        if ok_here and not (ok_next and nxt > here):
            return DefensiveFire(side, o.uid), (
                f"Standing orders: {o.name} fires at {mover.name} "
                f"({here * 100:.0f}% to stop it).")
        later = later or ok_next
    if later:
        return PassDefensiveFire(side), "Standing orders: waiting for the next hex."
    return PassDefensiveFire(side), f"Standing orders: {theme.SIDE_LABEL[side]} holds fire."


class StandingOrders:
    """The battle screen's orders (uid -> Order) and their use."""

    def __init__(self, scene: BattleScene) -> None:
        self.sc = scene
        self.orders: dict[str, Order] = {}

    def cycle(self, uid: str) -> Order:
        """O on a selected unit: the next order."""
        cur = self.orders.get(uid, ASK)
        nxt = ORDERS[(ORDERS.index(cur) + 1) % len(ORDERS)]
        if nxt is ASK:
            self.orders.pop(uid, None)
        else:
            self.orders[uid] = nxt
        u = self.sc.state.units[uid]
        self.sc.note(f"{u.name}, defensive fire: {nxt.label}.")
        return nxt

    def answer(self) -> bool:
        """Answer a pending prompt for a local player by the orders (True if sent)."""
        sc = self.sc
        if sc.demo is not None or not self.orders:
            return False
        to_act = sc.state.to_act
        if sc.ai is not None and to_act in getattr(sc.ai, "sides", ()):
            return False
        got = decide(sc.game, self.orders)
        if got is None:
            return False
        action, line = got
        sc.logp.add(line, theme.TEXT_DIM)
        return sc.send(action)

    def draw(self, surface: pygame.Surface) -> None:
        if not self.orders:
            return
        slots = self.sc.view.unit_slots(self.sc.state)
        f = theme.font(15, bold=True)
        for uid, order in self.orders.items():
            r = slots.get(uid)
            u = self.sc.state.units.get(uid)
            if r is None or u is None or not u.on_map:
                continue
            img = f.render(order.badge, True, (20, 20, 20))
            box = pygame.Rect(0, 0, img.get_width() + 8, img.get_height() + 2)
            box.midbottom = (r.centerx, r.y + 2)
            pygame.draw.rect(surface, theme.WARN, box, border_radius=4)
            pygame.draw.rect(surface, (20, 20, 20), box, 1, border_radius=4)
            surface.blit(img, (box.x + 4, box.y + 1))
