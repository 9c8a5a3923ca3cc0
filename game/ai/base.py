"""The AI player interface and the setup decisions the AI levels share.

A player is asked ``choose(game) -> Action`` whenever ``game.state.to_act`` is
its side, and ``explain()`` gives the sentence that says why it chose the last
action ("M4A1 Sherman attacks Panzer IV from the rear: 71% to damage or
destroy").  Players are clients of the rules engine's action API
(docs/engine-api.md): they read the state, ask ``legal_actions`` / ``check`` /
``reachable`` / ``targets`` / ``odds``, and return an action.  ``choose``
never returns an action the engine would refuse: a wish that ``game.check``
refuses is replaced by a legal action.
"""
from __future__ import annotations

import random
from abc import ABC, abstractmethod

from game.rules.actions import (Action, ChooseEnd, ChooseObjective, ChooseOrder, Deploy,
                                EndPhase, PassDefensiveFire, PlaceDismounted)
from game.rules.board import ENDS
from game.rules.families.setup import end_zone
from game.rules.hexes import Hex, hex_label
from game.rules.state import DefensiveFirePrompt, DismountPlacement, OrderChoice, Phase, other_side
from game.rules.terrain import TERRAIN_RULES
from game.rules.wording import side_player

__all__ = ["Player", "SetupMixin", "fallback_action", "make_player", "LEVELS"]

LEVELS = ("random", "recruit", "veteran", "expert")


def fallback_action(game) -> Action:
    """A legal action when a player has nothing better: end the phase or hold
    fire if allowed, else the first legal action."""
    acts = game.legal_actions()
    if not acts:
        raise RuntimeError(f"no legal action for {game.state.to_act} in "
                           f"{game.state.phase.value}")
    for a in acts:
        if isinstance(a, (EndPhase, PassDefensiveFire)):
            return a
    return acts[0]


class Player(ABC):
    """Base class: subclasses implement :meth:`pick`."""

    level = "base"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.last_explanation = ""

    @property
    def name(self) -> str:
        return self.level.capitalize()

    def choose(self, game) -> Action:
        """The action to play now (always one the engine accepts)."""
        action = self.pick(game)
        if action is None or game.check(action) is not None:
            action = fallback_action(game)
            self.last_explanation = self.describe_fallback(game, action)
        return action

    def explain(self, game=None, action: Action | None = None) -> str:
        """Why the last chosen action was chosen (one sentence for the log)."""
        return self.last_explanation

    def say(self, text: str) -> None:
        self.last_explanation = text

    def describe_fallback(self, game, action: Action) -> str:
        if isinstance(action, EndPhase):
            return f"{action.side} has nothing more to do this phase."
        if isinstance(action, PassDefensiveFire):
            return f"{action.side} holds fire."
        from game.rules.actions import describe_action
        return f"{action.side}: {describe_action(action)}."

    @abstractmethod
    def pick(self, game) -> Action | None:
        """The action this level wants (``None``: let the fallback decide)."""


# --- setup decisions both AI levels share ------------------------------------------------------
class SetupMixin:
    """Order, end, objective, deployment and dismount placement: sensible
    defaults shared by the Recruit and the Veteran."""

    go_first_default = False

    def setup_pick(self, game) -> Action | None:
        st = game.state
        side = st.to_act
        p = st.pending
        if isinstance(p, OrderChoice):
            return self.choose_order(game, side)
        if isinstance(p, DismountPlacement):
            return self.place_dismounted(game, side, p)
        if st.phase == Phase.SETUP_END:
            return self.choose_end(game, side)
        if st.phase == Phase.SETUP_OBJECTIVE:
            return self.choose_objective(game, side)
        if st.phase.is_deploy:
            return self.deploy(game, side)
        return None

    def decision_outside_phase_play(self, game) -> tuple[bool, Action | None]:
        """Everything but the unit-by-unit play of a movement or assault phase:
        defensive fire, setup choices and other pending decisions.  Returns
        ``(True, action)`` when one of those applies; otherwise starts a fresh
        per-phase memory (``self._done``) on a new phase and returns ``(False, None)``."""
        st = game.state
        side = st.to_act
        if isinstance(st.pending, DefensiveFirePrompt):
            return True, self.defensive_fire(game, side, st.pending)
        a = self.setup_pick(game)
        if a is not None or st.pending is not None or not (
                st.phase.is_movement or st.phase.is_assault):
            return True, a
        key = (st.turn, st.phase, side)
        if key != getattr(self, "_phase_key", None):
            self._phase_key = key
            self._done = set()
        return False, None

    def choose_order(self, game, side: str) -> Action:
        first = self.go_first_default
        self.say(f"{side_player(side)} chooses to go {'first' if first else 'second'} "
                 f"({'strike first' if first else 'move and fire after seeing the enemy'}).")
        return ChooseOrder(side, first)

    # ends
    def end_score(self, game, side: str, end: str) -> float:
        """How good an end is: cover near the front of the zone ``side`` would set up
        in from it (the rules' zone: the edition's depth, or the Assault defender's half)."""
        st = game.state
        bm = st.battle_map
        zone = end_zone(st, side, end)
        obj = st.objective
        score = 0.0
        for h in zone:
            t = TERRAIN_RULES[bm.terrain_at(h)]
            near = 1.0 / (1 + (h.distance(obj) if obj else 0))
            if t.soldier_cover is not None and t.soldier_can_enter:
                score += 3 * near
            if t.vehicle_can_enter:
                score += near
        return score

    def choose_end(self, game, side: str) -> Action:
        scores = {e: self.end_score(game, side, e) for e in ENDS}
        end = max(ENDS, key=lambda e: (scores[e], e == "left"))
        self.say(f"{side_player(side)} takes the {end} end: {self.end_reason(game, side, end)}.")
        return ChooseEnd(side, end)

    def end_reason(self, game, side: str, end: str) -> str:
        """Why ``end`` was taken, in words (a level that scores ends its own way says so)."""
        return "more cover near the front of the set-up zone"

    def choose_objective(self, game, side: str) -> Action | None:
        """Assault defender: deep in its own half, among cover, not by an edge."""
        st = game.state
        bm = st.battle_map
        mine = bm.half_of(st.ends[side])
        enemy_zone = bm.deployment_zone(st.ends[other_side(side)])
        best, best_s = None, None
        for h in sorted(mine, key=lambda x: (x.r, x.x2)):
            if not bm.is_playable(h) or bm.is_edge_adjacent(h):
                continue
            far = min((h.distance(z) for z in enemy_zone), default=0)
            cover = sum(1 for n in h.neighbors() if n in bm.terrain
                        and TERRAIN_RULES[bm.terrain[n]].soldier_cover is not None)
            s = far * 2 + cover * 1.5
            if best_s is None or s > best_s:
                best, best_s = h, s
        if best is None:
            return None
        self.say(f"{side_player(side)} places the objective in {hex_label(best)}: far from the attacker, "
                 f"among cover.")
        return ChooseObjective(side, best)

    def place_dismounted(self, game, side: str, p: DismountPlacement) -> Action:
        st = game.state
        obj = st.objective
        h = max(p.candidates, key=lambda x: (x.distance(obj) if obj else 0, -x.r, -x.x2))
        self.say(f"{side_player(side)} puts the dismounting {st.units[p.uid].name} in {hex_label(h)}, "
                 f"as far from the objective as allowed.")
        return PlaceDismounted(side, p.uid, h)

    # deployment
    def deploy_hex_score(self, game, u, h: Hex, front_of: Hex | None) -> float:
        st = game.state
        bm = st.battle_map
        t = TERRAIN_RULES[bm.terrain_at(h)]
        score = -2.0 * (h.distance(front_of) if front_of is not None else 0)
        if u.is_vehicle:
            if t.vehicle_roll:
                score -= 4            # leaving is fine, but a forest start costs a roll later
            if t.vehicle_cover is not None:
                score += 1.5
            if not t.vehicle_roll and not t.vehicle_cost > 1:
                score += 0.5
        else:
            if t.soldier_cover is not None:
                score += 3.5
        friends = sum(1 for x in st.units.values() if x.hex == h and x.side == u.side)
        score -= 1.5 * friends
        return score

    def deploy(self, game, side: str) -> Action | None:
        st = game.state
        from game.rules.families.setup import held_in_reserve
        todo = [u for u in st.units_of(side) if u.hex is None
                and not u.card.is_aircraft       # later edition: Aircraft are never deployed
                and held_in_reserve(u) is None]  # nor Paratroopers and Heroes (ruling 21)
        if not todo:
            self.say(f"{side_player(side)} has deployed every unit.")
            return EndPhase(side)
        # Vehicles first (transports can then take a Soldier aboard), dearest first
        todo.sort(key=lambda u: (not u.is_vehicle, -u.card.cost, u.uid))
        u = todo[0]
        from game.rules.engine import deployment_zone
        zone = deployment_zone(st, side, u)
        facing = 0 if st.ends.get(side) == "left" else 3
        obj = st.objective
        # Soldiers aboard an empty transport when one is deployed
        if u.is_soldier and "artillery" not in (u.card.subtype or "").lower():
            for c in st.units_of(side):
                if c.hex is not None and c.is_vehicle and not st.passengers(c.uid):
                    a = Deploy(side, u.uid, c.hex, facing, c.uid)
                    if game.check(a) is None:
                        self.say(f"{u.name} deploys aboard {c.name} in {hex_label(c.hex)} "
                                 f"to ride toward the objective.")
                        return a
        front_of = min(zone, key=lambda z: (z.distance(obj), z.r, z.x2)) if obj else None
        ranked = sorted(zone, key=lambda h: (-self.deploy_hex_score(game, u, h, front_of),
                                             h.r, h.x2))
        for h in ranked:
            a = Deploy(side, u.uid, h, facing)
            if game.check(a) is None:
                t = st.battle_map.terrain_at(h).value
                self.say(f"{u.name} deploys in {hex_label(h)} ({t}) near the front of the "
                         f"zone.")
                return a
        return None


def make_player(level: str, seed: int | None = None, budget: float | None = None) -> Player:
    """``"random"``, ``"recruit"``, ``"veteran"`` or ``"expert"`` (``budget``: the
    Expert's thinking time per decision in seconds, default
    :data:`game.ai.expert.DEFAULT_BUDGET`; ``"expert:0.2"`` names it too)."""
    lv = level.lower()
    if lv.startswith("expert"):
        from game.ai.expert import ExpertAI
        if ":" in lv:
            lv, _, b = lv.partition(":")
            budget = float(b) if budget is None else budget
        if lv == "expert":
            return ExpertAI(seed, budget=budget)
    if lv == "random":
        from game.ai.random_player import RandomPlayer
        return RandomPlayer(seed)
    if lv == "recruit":
        from game.ai.recruit import RecruitAI
        return RecruitAI(seed)
    if lv == "veteran":
        from game.ai.veteran import VeteranAI
        return VeteranAI(seed)
    raise ValueError(f"unknown AI level '{level}' (expected one of: {', '.join(LEVELS)})")
