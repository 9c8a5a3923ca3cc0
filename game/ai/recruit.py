"""The Recruit: a fixed behaviour table, predictable and good for learning.

In the spirit of the solo-play rules of a later Axis & Allies game (an order
per unit, a target table "strongest / weakest / nearest", a default order
"move toward cover, then fire"), the Recruit plays each unit in army order:

=================  =================================================================
situation          behaviour
=================  =================================================================
Soldier, movement  move toward cover: the reachable hex with cover nearest the
                   objective; without one, as far toward the objective as it can
Vehicle, movement  move into firing range of the *weakest* enemy, as near the
                   objective as possible; out of reach: toward the objective;
                   front toward the nearest enemy
assault            fire: antitank units (more dice against Vehicles than Soldiers)
                   at the *strongest* Vehicle they can hit, the others at the
                   *weakest* target; ties: the *nearest*; no target: stay
extra attack       a unit whose ability gives it another attack in the same
                   activation (Double Shot, All Guns Blazing, the hull cannon, the
                   attack after an Overrun move or a No Turret turn) fires again,
                   by the same target table
defensive fire     fire at the first chance with the unit that rolls most dice
first / second     goes first
later edition      flight, airstrike and Antiair fire as the Veteran plays them
                   (game.ai.later_edition); without them the Recruit's Aircraft
                   never flew and its Antiair guns never fired
=================  =================================================================

"Strongest" is the enemy with the highest cost; "weakest" the one with the
lowest defense (then the lowest cost); "nearest" counts hexes.  On the ground it
uses the engine only to know what is allowed (reachable hexes, targets), never the
odds.
"""
from __future__ import annotations

from game.rules.actions import Action, Attack, DefensiveFire, EndPhase, Move, PassDefensiveFire
from game.rules.errors import IllegalAction
from game.rules.hexes import MAX_RANGE, hex_label, range_band
from game.rules.state import DefensiveFirePrompt, Unit
from game.rules.terrain import TERRAIN_RULES
from game.rules.wording import side_player

from game.ai import later_edition
from game.ai.base import Player, SetupMixin
from game.ai.knowledge import (View, activated_unit, attack_options, enemies, extra_actions_of,
                               facing_toward)
from game.ai.veteran import VeteranAI
from game.rules.families.reserves import waiting

__all__ = ["RecruitAI", "BEHAVIOUR_TABLE"]

BEHAVIOUR_TABLE = {
    "soldier_move": "move toward cover nearest the objective",
    "vehicle_move": "move into firing range of the weakest enemy",
    "antitank_fire": "fire at the strongest Vehicle",
    "fire": "fire at the weakest target",
    "tie": "the nearest",
    "extra_attack": "fire again when the unit's ability allows it",
    "defensive_fire": "fire at the first chance with the most dice",
    "order": "go first",
    "later_edition": "fly, strike and fire Antiair as the Veteran does",
}


def _antitank(u: Unit) -> bool:
    v = u.card.dice("Vehicle", "medium") or u.card.dice("Vehicle", "short") or 0
    s = u.card.dice("Soldier", "medium") or u.card.dice("Soldier", "short") or 0
    return v > s


def _weakness(t: Unit) -> tuple:
    return (t.defense_value(True), t.card.cost)


class RecruitAI(SetupMixin, Player):
    level = "recruit"
    go_first_default = True

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.seed = seed
        self._air: Player | None = None     # the later edition's decisions (see the table)
        self._phase_key: tuple | None = None
        self._done: set[str] = set()

    def pick(self, game) -> Action | None:
        if later_edition.handles(game):      # flight, airstrike, Antiair (later edition):
            return self._later_edition_pick(game)   # without it the Recruit never flew
        handled, a = self.decision_outside_phase_play(game)
        if handled:
            return a
        st = game.state
        side = st.to_act
        if st.phase.is_assault:
            a = self.extra_attack(game, side)
            if a is not None:
                return a
        if st.phase.is_movement and waiting(st, side):
            a = self._reserve_pick(game, side)      # reserves: the Veteran's way
            if a is not None:
                return a
        units = [u for u in sorted(st.units_of(side), key=lambda x: int(x.uid.split("-")[-1])
                                   if x.uid.split("-")[-1].isdigit() else 0)
                 if u.on_map and not u.acted and not u.boarded and u.uid not in self._done]
        for u in units:
            a = self.fire(game, u) if st.phase.is_assault else self.move(game, u)
            if a is not None and game.check(a) is None:
                return a
            self._done.add(u.uid)
        if st.phase.is_movement and waiting(st, side):
            a = self._reserve_pick(game, side, end=True)   # a drop ends the phase: last
            if a is not None:
                return a
        self.say(f"{side_player(side)} (Recruit) has given every unit its order.")
        return EndPhase(side)

    def _reserve_pick(self, game, side: str, end: bool = False) -> Action | None:
        """A Hero at the start of the movement phase, a Paratrooper at its end (rulings
        22, 23), chosen as the Veteran chooses them (game.ai.reserves)."""
        from game.ai import reserves
        if self._air is None:
            self._air = VeteranAI(self.seed)
        vet = self._air
        vet.view = View(game, side)
        a = reserves.paratrooper_drop(vet, game, side) if end else \
            reserves.hero_entry(vet, game, side)
        if a is not None:
            self.last_explanation = vet.last_explanation
        return a

    def _later_edition_pick(self, game) -> Action | None:
        """The later edition's own decisions, as the Veteran makes them."""
        if self._air is None:
            self._air = VeteranAI(self.seed)
        a = self._air.pick(game)
        self.last_explanation = self._air.last_explanation
        return a

    # --- movement ---------------------------------------------------------------------------
    def move(self, game, u: Unit) -> Action | None:
        st = game.state
        obj = st.objective
        reach = {h: r for h, r in game.reachable(u.uid).items() if r.stops}
        if not reach or obj is None:
            return None
        bm = st.battle_map
        here_d = u.hex.distance(obj)

        def cover(h) -> bool:
            t = TERRAIN_RULES[bm.terrain_at(h)]
            return (t.vehicle_cover if u.is_vehicle else t.soldier_cover) is not None

        dest, why = None, ""
        if u.is_vehicle:
            foes = enemies(st, u.side)
            if foes:
                weakest = min(foes, key=lambda t: (_weakness(t), t.hex.distance(u.hex)))
                # the rules' sight (smoke and bluffs included); it is the same both ways
                in_sight = game.visible_from(weakest.hex)
                band_ok = [h for h in reach if h.distance(weakest.hex) <= MAX_RANGE
                           and u.card.dice(weakest.card.type, range_band(h.distance(weakest.hex)))
                           and h in in_sight]
                in_range_now = (u.hex.distance(weakest.hex) <= MAX_RANGE and u.card.dice(
                    weakest.card.type, range_band(u.hex.distance(weakest.hex)))
                    and u.hex in in_sight)
                if not in_range_now and band_ok:
                    dest = min(band_ok, key=lambda h: (h.distance(obj), reach[h].cost, h.r, h.x2))
                    why = f"into firing range of the weakest enemy, {weakest.name}"
        if dest is None:
            covered = [h for h in reach if cover(h) and h.distance(obj) <= here_d]
            if covered and not (cover(u.hex) and min(h.distance(obj) for h in covered) >= here_d):
                dest = min(covered, key=lambda h: (h.distance(obj), reach[h].cost, h.r, h.x2))
                why = "toward cover near the objective"
            else:
                closer = [h for h in reach if h.distance(obj) < here_d]
                if closer:
                    dest = min(closer, key=lambda h: (h.distance(obj), reach[h].cost, h.r, h.x2))
                    why = "toward the objective"
        if dest is None:
            return None
        facing = None
        if u.is_vehicle:
            foes = enemies(st, u.side)
            near = min(foes, key=lambda t: t.hex.distance(dest)) if foes else None
            look = near.hex if near is not None and near.hex != dest else obj
            facing = facing_toward(dest, look) if look != dest else u.facing
        self.say(f"{u.name} moves to {hex_label(dest)}: {why} (Recruit: "
                 f"{BEHAVIOUR_TABLE['vehicle_move' if u.is_vehicle else 'soldier_move']}).")
        return Move(u.side, u.uid, reach[dest].path, facing)

    # --- assault --------------------------------------------------------------------------------
    def extra_attack(self, game, side: str) -> Action | None:
        """The extra attack the activation under way allows, by the target table."""
        st = game.state
        u = activated_unit(st, side)
        if u is None:
            return None
        infos = []
        for a in extra_actions_of(game, u):
            if isinstance(a, Attack):
                try:
                    infos.append((st.units[a.target], a.mode, game.odds(a.uid, a.target,
                                                                         mode=a.mode)))
                except IllegalAction:     # the engine refuses it now: not a choice
                    continue
        if not infos:
            return None
        a = self._by_table(u, infos)
        self.say(self.last_explanation.replace("(Recruit: ", "again (Recruit: "
                                               + BEHAVIOUR_TABLE["extra_attack"] + "; "))
        return a

    def fire(self, game, u: Unit) -> Action | None:
        st = game.state
        infos = [(st.units[t], mode, o) for t, mode, o in attack_options(game, u)
                 if game.check(Attack(u.side, u.uid, t, mode)) is None]
        if not infos:
            return None
        return self._by_table(u, infos)

    def _by_table(self, u: Unit, infos: list) -> Action:
        at = _antitank(u)
        vehicles = [x for x in infos if x[0].is_vehicle]
        if at and vehicles:
            t, mode, o = max(vehicles, key=lambda x: (x[0].card.cost, -x[2].distance, x[2].dice))
            rule = BEHAVIOUR_TABLE["antitank_fire"]
        else:
            t, mode, o = min(infos, key=lambda x: (_weakness(x[0]), x[2].distance, -x[2].dice))
            rule = BEHAVIOUR_TABLE["fire"]
        self.say(f"{u.name} attacks {t.name} with {o.dice} dice (Recruit: {rule}).")
        return Attack(u.side, u.uid, t.uid, mode)

    def defensive_fire(self, game, side: str, p: DefensiveFirePrompt) -> Action:
        st = game.state
        mover = st.units[p.mover]
        band = "short"

        def dice(uid: str) -> int:
            return st.units[uid].card.dice(mover.card.type, band) or 0
        if not p.eligible:
            return PassDefensiveFire(side)
        uid = max(p.eligible, key=lambda x: (dice(x), x))
        self.say(f"{st.units[uid].name} fires defensively at {mover.name} (Recruit: "
                 f"{BEHAVIOUR_TABLE['defensive_fire']}).")
        return DefensiveFire(side, uid)
