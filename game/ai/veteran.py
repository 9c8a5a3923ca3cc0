"""The Veteran: scores candidate actions and plays the best one.

A candidate-action loop: in each decision the Veteran looks at every unit that
may still act and scores what it could do -

* attacks: the engine's exact odds (``game.targets``) turned into expected
  points won over what the target already carries this phase, so hits are
  focused on one unit and units with face-down hits get finished;
* moves: every hex ``game.reachable`` offers, scored for the objective (more as
  the deciding turns come; a big bonus for the only unit that can contest it),
  cover, the shots it would have from there next assault phase, the threat of
  the enemies that can see it there, and the risks on the way (movement rolls,
  defensive fire);
* defensive fire: the chance to stop the mover against the value of keeping
  the shot for a more dangerous enemy that can still come;
* extra actions an ability adds to the activation under way (Double Shot's
  second attack, All Guns Blazing, the hull cannon, Strike and Fade's move,
  Overrun's attack, No Turret's attack after turning): free, so taken whenever
  they win anything (the engine lists them: ``ability_hooks.extra_actions``);
  turning a No Turret unit toward a target and an Overrun move into an enemy
  Soldiers' hex are scored with the exact odds of the attack that follows (on a
  copy of the game); Soldiers fire from a Fighting Platform like any unit.

It then plays the best candidate, or ends the phase when nothing is worth it.
"""
from __future__ import annotations

from game.rules.actions import (Action, Attack, Board, ChooseOrder, DefensiveFire,
                                Dismount, EndPhase, Move, PassDefensiveFire)
from game.rules.combat import within_reach
from game.rules.dice import Dice
from game.rules.errors import IllegalAction
from game.rules.hexes import DIRECTION_NAMES, hex_label
from game.rules.board import ENDS
from game.rules.families.setup import end_zone
from game.rules.state import DefensiveFirePrompt, Phase, Unit, other_side
from game.rules.threat import hypothetical_odds, path_risk
from game.rules.wording import side_player

from game.ai import later_edition, reserves
from game.rules.families.reserves import waiting
from game.ai.base import Player, SetupMixin
from game.ai.knowledge import (View, activated_unit, attack_gain, attack_options,
                               board_signature, best_facing, control_hexes, control_urgency,
                               dist, enemies, expected_loss, extra_actions_of,
                               front_word, pct_damage, percent, threat_cached,
                               unit_value)

__all__ = ["VeteranAI"]

CONTEST_BONUS = 60.0        # the only unit that can contest the objective in the deciding turns
ATTACK_THRESHOLD = 0.2      # expected points an attack must win to be worth the activation
MOVE_MARGIN = 0.6           # a move must beat staying by this much
SMOKE_THRESHOLD = 0.25      # Smoke Screen: lay it when the threat of a loss is this high
EXTRA_THRESHOLD = 0.05      # an extra attack costs nothing: any real gain is worth it
HOPELESS = 0.10             # an attack with less chance than this to do anything is a last resort
DF_MIN = 0.15               # defensive shots below this chance to stop the mover are held
END_NEARNESS = 4.0          # an end's worth per hex its set-up zone is nearer the objective


def effect_chance(odds, target: Unit) -> float:
    """Chance an attack changes anything (a worse counter than the target carries)."""
    rank = {"disrupted": 1, "damaged": 2, "destroyed": 3}
    base = max((rank.get(c, 0) for c in target.pending), default=0)
    probs = (odds.p_none, odds.p_disrupted, odds.p_damaged, odds.p_destroyed)
    return sum(probs[base + 1:])


def _contest_turn(state) -> int:
    return 8 if state.scenario == "assault" else 6


class VeteranAI(SetupMixin, Player):
    level = "veteran"

    prescreen = 5           # hexes per unit scored exactly (the best by a quick first look)
    k_threat = 0.8          # weight of the expected loss to the enemy's reply in a hex's score
    k_shot = 0.8            # weight of the best next shot from a hex
    contest_bonus = CONTEST_BONUS   # a level may weigh these its own way
    move_margin = MOVE_MARGIN
    df_min = DF_MIN

    def urgency(self, state, side: str | None) -> float:
        """How much the objective matters now (:func:`control_urgency`; a level may
        weigh it its own way)."""
        return control_urgency(state, side)

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self._phase_key: tuple | None = None
        self._done: set[str] = set()
        self._odds_cache: dict = {}

    # --- dispatch ------------------------------------------------------------------------------
    def pick(self, game) -> Action | None:
        st = game.state
        side = st.to_act
        self.view = View(game, side) if side else None
        if later_edition.handles(game):      # flight, airstrike, Antiair (later edition)
            return later_edition.pick(self, game)
        handled, a = self.decision_outside_phase_play(game)
        if handled:
            return a
        if st.phase.is_assault:
            return self.assault(game, side)
        return self.movement(game, side)

    # --- setup -------------------------------------------------------------------------------
    def choose_order(self, game, side: str) -> Action:
        """At setup the first player picks the end (rulebook: Setup), and on every map
        one end is nearer the objective: go first and take it.  Each turn's order
        (initiative): second, to move and fire after seeing the enemy."""
        st = game.state
        if st.phase != Phase.SETUP_ORDER or st.objective is None:
            return super().choose_order(game, side)
        far = {e: self._zone_distance(game, side, e) for e in ENDS}
        if far["left"] == far["right"]:
            return super().choose_order(game, side)
        self.say(f"{side_player(side)} chooses to go first: the first player picks the end, "
                 f"and one end is nearer the objective.")
        return ChooseOrder(side, True)

    def _zone_distance(self, game, side: str, end: str) -> float:
        """The mean distance to the objective of the hexes ``side`` would deploy in
        from ``end`` (the rules' zone for that end)."""
        st = game.state
        zone = end_zone(st, side, end)
        obj = st.objective
        if obj is None or not zone:
            return 0.0
        return sum(h.distance(obj) for h in zone) / len(zone)

    def end_score(self, game, side: str, end: str) -> float:
        """Cover near the front of the zone (the shared score), and above all a zone
        nearer the objective: the side that reaches it first holds it."""
        return super().end_score(game, side, end) - \
            END_NEARNESS * self._zone_distance(game, side, end)

    def end_reason(self, game, side: str, end: str) -> str:
        other = "right" if end == "left" else "left"
        mine, theirs = (self._zone_distance(game, side, e) for e in (end, other))
        if mine < theirs:
            return (f"its set-up zone is nearer the objective ({mine:.1f} hexes on average "
                    f"against {theirs:.1f})")
        return super().end_reason(game, side, end)

    # --- scoring a hex ---------------------------------------------------------------------------
    def hex_score(self, game, u: Unit, h, *, assault: bool,
                  parts: dict | None = None, facing: int | None = None,
                  contest: bool = True) -> float:
        """What standing in ``h`` is worth to ``u``.  ``contest``: count the bonus for the
        only unit that can contest the objective (a reason to move there; a position's
        worth leaves it out: ``game.ai.expert.evaluate``)."""
        st = game.state
        obj = st.objective
        urg = self.urgency(st, u.side)
        value = unit_value(st, u)
        soldierish = u.is_soldier or bool(st.passengers(u.uid))
        if st.scenario == "assault" and u.side == st.attacker:
            soldierish = True            # every attacking unit must get to the objective
        score = 0.0
        th = self.view.threat(u, h, facing)
        if obj is not None:
            o = self._objective_part(game, u, h, urg, soldierish, contest)
            if th.p_destroyed > 0 and h != u.hex:
                # a unit destroyed on its way there holds nothing: worse than staying
                o_dead = self._objective_part(game, u, u.hex, urg, soldierish, contest) - \
                    (2.0 if soldierish else 0.8) * urg
                o = (1 - th.p_destroyed) * o + th.p_destroyed * min(o, o_dead)
            score += o
            if parts is not None:
                parts["objective"] = o
        if u.is_soldier and any(s.odds.cover_need is not None for s in th.sources):
            cv = 1.0 + 0.05 * value         # cover also helps against who comes later
            score += cv
            if parts is not None:
                parts["cover"] = cv
        loss = expected_loss(st, u, th)
        score -= loss * self.k_threat
        if parts is not None:
            parts["threat"] = -loss * self.k_threat
            parts["threat_from"] = th.strongest()
        if not assault and u.card.attack:
            shot, who = self.view.best_shot(u, h)
            score += shot * self.k_shot
            if parts is not None:
                parts["shot"] = shot * self.k_shot
                parts["shot_at"] = who
        return score

    def _objective_part(self, game, u: Unit, h, urg: float, soldierish: bool,
                        contest: bool = True) -> float:
        st = game.state
        obj = st.objective
        near = control_hexes(game)
        d = dist(h, obj)
        w = (2.0 if soldierish else 0.8) * urg
        o = -w * max(0, d - 1)
        if h in near:
            o += (4.0 if soldierish else 2.0) * urg
            if contest and st.turn >= _contest_turn(st) and not any(
                    x.on_map and x.side == u.side and x.uid != u.uid
                    and x.carrier != u.uid and x.hex in near
                    for x in st.units.values()):
                o += self.contest_bonus
        return o

    def quick_score(self, game, u: Unit, h, *, assault: bool) -> float:
        """A cheap first look at a hex (the objective, and how many enemies can see
        it - no odds): only the best hexes by it get the exact scoring."""
        st = game.state
        obj = st.objective
        score = 0.0
        if obj is not None:
            urg = self.urgency(st, u.side)
            soldierish = u.is_soldier or bool(st.passengers(u.uid)) or (
                st.scenario == "assault" and u.side == st.attacker)
            d = dist(h, obj)
            score -= (2.0 if soldierish else 0.8) * urg * max(0, d - 1)
            if h in control_hexes(game):
                score += (4.0 if soldierish else 2.0) * urg
        seen = game.visible_from(h)
        near = sum(1 for e in self.view.foes if within_reach(st, e, u, e.hex, h, e.hex in seen))
        value = unit_value(st, u)
        score -= 0.04 * value * near
        if not assault and u.card.attack:
            score += 0.3 * min(near, 2)
        return score

    def path_penalty(self, game, u: Unit, reach, facing: int | None = None, *,
                     dest_score: float | None = None, assault: bool = False) -> float:
        """The risks on the way, played out by the rules on a copy: the defensive
        fire the move provokes (each eligible shot's exact odds) and, for every
        movement roll, where the unit is left (and facing which way) if it fails.
        A stop costs what the destination was worth over the hex it stops in, plus
        the disruption and the threat it then sits in."""
        st = game.state
        value = unit_value(st, u)
        if not reach.path:
            return 0.0
        if not reach.rolls and not any(
                dist(e.hex, b) <= 1 for e in self.view.foes for b in (u.hex,) + reach.path):
            return 0.0                   # nobody near the way and no roll: nothing to play out
        key = (u.uid, reach.path, facing, dest_score is None, assault)
        cache = self.__dict__.setdefault("_risk_memo", {})
        sig = (st.turn, st.phase, tuple((x.uid, x.hex, x.disrupted, x.fired_defensively)
                                        for x in st.units.values()))
        if cache.get("sig") != sig:
            cache.clear()
            cache["sig"] = sig
        if key in cache:
            return cache[key]
        mv = Move(u.side, u.uid, reach.path, facing if u.is_vehicle else None)
        try:
            risk = path_risk(game, mv)
        except IllegalAction:
            cache[key] = 1e6
            return 1e6

        def lost(h, f) -> float:
            """What ending in ``h`` instead of the destination costs."""
            here = self.hex_score(game, u, h, assault=assault, facing=f)
            return max(0.0, (dest_score - here) if dest_score is not None else 0.0)
        pen = 0.0
        if risk.p_stopped > 0:
            top = max(risk.shots, key=lambda x: x.odds.p_stopped)
            stuck = expected_loss(st, u, threat_cached(game, u, top.at_hex, facing,
                                                       probe=self.view.probe))
            pen += risk.p_stopped * (0.3 * value + 3.0 + 0.5 * stuck
                                     + lost(top.at_hex, facing))
        for h, f, p in risk.fail_ends:
            stuck = expected_loss(st, u, threat_cached(game, u, h, f, probe=self.view.probe))
            pen += p * (1.0 + stuck + lost(h, f))
        cache[key] = pen
        return pen

    # --- movement ----------------------------------------------------------------------------------
    def _order(self, game, side: str) -> list[Unit]:
        st = game.state
        obj = st.objective
        units = [u for u in st.units_of(side)
                 if u.on_map and not u.acted and u.uid not in self._done]

        def key(u: Unit):
            carrying = bool(st.passengers(u.uid))
            d = dist(u.hex, obj) if obj is not None else 0
            rider = u.is_soldier and not u.boarded and any(
                c.is_vehicle and c.side == u.side and not c.acted and c is not u
                for c in st.units_at(u.hex, include_boarded=False))
            return (u.boarded, not rider, not carrying, -d, u.uid)
        return sorted(units, key=key)

    def movement(self, game, side: str) -> Action:
        st = game.state
        held = bool(waiting(st, side))        # reserves (rulings 21-23): game.ai.reserves
        if held:
            a = reserves.hero_entry(self, game, side)     # only at the phase's start
            if a is not None:
                return a
        for u in self._order(game, side):
            if u.boarded:
                a = self.dismount(game, u)
            else:
                a = self.board(game, u) or self.best_move(game, u, assault=False)
            if a is not None and game.check(a) is None:
                return a
            self._done.add(u.uid)
        if held:
            a = reserves.paratrooper_drop(self, game, side)   # the phase's end (ruling 22)
            if a is not None:
                return a
        a = self.smoke(game, side)            # Smoke Screen (ruling 30): a tank in danger
        if a is not None:
            return a
        self.say(f"{side_player(side)} ends the movement phase.")
        return EndPhase(side)

    def smoke(self, game, side: str) -> Action | None:
        """Smoke Screen (ruling 30): as its movement phase ends, a unit that still has its
        smoke lays it when the enemy could damage or destroy it next phase
        (``SMOKE_THRESHOLD``: the threat query's exact chance)."""
        st = game.state
        if not any(u.card.has("smoke_screen") and u.on_map for u in st.units_of(side)):
            return None
        from game.rules.actions import LaySmoke
        for a in game.legal_actions():
            if not isinstance(a, LaySmoke):
                continue
            u = st.units[a.uid]
            risk = game.threat_to(a.uid).p_loss
            if risk >= SMOKE_THRESHOLD:
                self.say(f"{u.name} lays smoke: the enemy could damage or destroy it next "
                         f"phase ({percent(risk)}).")
                return a
        return None

    def board(self, game, u: Unit) -> Action | None:
        """A Soldier far from the objective boards an empty transport in its hex
        that has not moved yet (it then carries the Soldier forward)."""
        st = game.state
        obj = st.objective
        if not u.is_soldier or obj is None or dist(u.hex, obj) <= 3:
            return None
        for c in st.units_at(u.hex, include_boarded=False):
            if c is u or c.side != u.side or not c.is_vehicle or c.acted or c.disrupted \
                    or st.passengers(c.uid):
                continue
            a = Board(u.side, u.uid, c.uid)
            if game.check(a) is None:
                self.say(f"{u.name} boards {c.name} to ride toward the objective.")
                return a
        return None

    def dismount(self, game, u: Unit) -> Action | None:
        st = game.state
        c = st.units.get(u.carrier or "")
        if c is None or c.hex is None:
            return None
        obj = st.objective
        near = obj is not None and c.hex.distance(obj) <= 2
        stuck = c.acted is False and (c.disrupted or c.current_speed == 0)
        danger = c.damaged or self.view.threat(c, c.hex, c.facing).p_loss > 0.4
        late = st.turn >= _contest_turn(st) and obj is not None and c.hex.distance(obj) <= 3
        if not (near or stuck or danger or late):
            return None
        if not c.acted and not stuck and not danger:
            return None                      # let the transport carry it first
        why = ("close to the objective" if near else "the transport is in danger" if danger
               else "time to take the objective")
        self.say(f"{u.name} dismounts from {c.name} in {hex_label(c.hex)}: {why}.")
        return Dismount(u.side, u.uid, c.hex)

    def best_move(self, game, u: Unit, *, assault: bool) -> Action | None:
        st = game.state
        reach = game.reachable(u.uid)
        obj = st.objective
        here = self.hex_score(game, u, u.hex, assault=assault, facing=u.facing)
        best_h, best_s, best_r = None, here + self.move_margin, None
        quick = []
        for h, r in reach.items():
            if not r.stops:
                continue
            quick.append((self.quick_score(game, u, h, assault=assault), h, r))
        quick.sort(key=lambda x: (-x[0], x[1].r, x[1].q))
        scored = [(self.hex_score(game, u, h, assault=assault), h, r)
                  for _, h, r in quick[:self.prescreen]]
        scored.sort(key=lambda x: (-x[0], x[1].r, x[1].q))
        for s0, h, r in scored:
            if s0 <= best_s:
                break                    # the risks on the way only lower a score
            f = self.view.facing_for(u, h)
            s = s0 - self.path_penalty(game, u, r, f, dest_score=s0, assault=assault)
            if s > best_s:
                best_h, best_s, best_r = h, s, r
        if best_h is None:
            if u.is_vehicle and reach:
                f = best_facing(game, u, u.hex, obj, self.view)
                if f != u.facing:
                    a = Move(u.side, u.uid, (), f)
                    if game.check(a) is None and self._facing_matters(game, u, f):
                        self.say(f"{u.name} turns to face {DIRECTION_NAMES[f]}: front toward "
                                 f"the biggest threat.")
                        return a
            return None
        facing = best_facing(game, u, best_h, obj, self.view) if u.is_vehicle else None
        parts: dict = {}
        self.hex_score(game, u, best_h, assault=assault, parts=parts, facing=facing)
        self.say(self._move_text(game, u, best_h, best_r, parts))
        return Move(u.side, u.uid, best_r.path, facing)

    def move_options(self, game, u: Unit, *, assault: bool, k: int = 3) -> list:
        """The ``k`` best moves of ``u`` by this level's scoring (risks on the way
        included), as ``[(score, Move, explanation)]`` - the Expert's alternatives."""
        st = game.state
        reach = game.reachable(u.uid)
        quick = sorted(((self.quick_score(game, u, h, assault=assault), h, r)
                        for h, r in reach.items() if r.stops),
                       key=lambda x: (-x[0], x[1].r, x[1].q))
        out = []
        for _, h, r in quick[:self.prescreen]:
            f = self.view.facing_for(u, h)
            s0 = self.hex_score(game, u, h, assault=assault)
            s = s0 - self.path_penalty(game, u, r, f, dest_score=s0, assault=assault)
            out.append((s, h, r))
        out.sort(key=lambda x: (-x[0], x[1].r, x[1].q))
        moves = []
        for s, h, r in out[:k]:
            facing = best_facing(game, u, h, st.objective, self.view) if u.is_vehicle else None
            parts: dict = {}
            self.hex_score(game, u, h, assault=assault, parts=parts, facing=facing)
            moves.append((s, Move(u.side, u.uid, r.path, facing),
                          self._move_text(game, u, h, r, parts)))
        return moves

    def _facing_matters(self, game, u: Unit, f: int) -> bool:
        st = game.state
        now = self.view.loss(u, u.hex, u.facing)
        new = self.view.loss(u, u.hex, f)
        return new < now - 0.3

    def _move_text(self, game, u: Unit, h, r, parts: dict) -> str:
        st = game.state
        why = []
        obj = st.objective
        if obj is not None:
            d0, d1 = u.hex.distance(obj), h.distance(obj)
            if d1 <= 1:
                why.append("to hold the objective")
            elif d1 < d0:
                why.append("toward the objective")
        if parts.get("cover"):
            why.append(f"into cover ({st.battle_map.terrain_at(h).value})")
        who = parts.get("shot_at")
        if who is not None and parts.get("shot", 0) > 1:
            why.append(f"to fire at {who.name}")
        src = parts.get("threat_from")
        if parts.get("threat", 0) > -0.5 and not why:
            why.append("out of the enemy's reach")
        elif src is not None and parts.get("threat", 0) < -2:
            why.append(f"accepting the risk from {st.units[src.attacker].name} "
                       f"({percent(src.odds.p_damaged + src.odds.p_destroyed)} to hurt it)")
        if r.rolls:
            why.append(f"risking {len(r.rolls)} movement roll{'s' if len(r.rolls) > 1 else ''}")
        tail = ", ".join(why) if why else "a better position"
        return f"{u.name} moves to {hex_label(h)}: {tail}."

    # --- assault ------------------------------------------------------------------------------------
    def attack_candidates(self, game, side: str) -> list[tuple[float, Attack, object, Unit]]:
        st = game.state
        out = []
        sig = board_signature(st)
        if self._odds_cache and next(iter(self._odds_cache))[0] != sig:
            self._odds_cache.clear()
        for u in st.units_of(side):
            if not u.on_map or u.acted or u.uid in self._done:
                continue
            if u.boarded:
                out.extend(self._platform_candidates(game, u))
                continue
            for target, mode, odds in attack_options(game, u, self._odds_cache, sig):
                t = st.units[target]
                g = attack_gain(st, t, odds) * self._target_weight(game, t)
                if u.card.has("double_shot") or (u.card.has("all_guns_blazing")
                                                   and t.is_soldier):
                    g *= 1.3              # a second attack may follow and finish the job
                out.append((g, Attack(side, u.uid, target, mode), odds, t))
        out.sort(key=lambda x: (-x[0], x[1].uid, getattr(x[1], "target", "")))
        return out

    def _platform_candidates(self, game, u: Unit) -> list:
        """A Soldier aboard a Fighting Platform fires from it (the engine says when)."""
        st = game.state
        c = st.units.get(u.carrier or "")
        if c is None or not c.card.has("fighting_platform") or u.disrupted:
            return []
        out = []
        seen = game.visible_from(u.hex)
        for t in enemies(st, u.side):
            if not within_reach(st, u, t, u.hex, t.hex, t.hex in seen):
                continue
            a = Attack(u.side, u.uid, t.uid)
            if game.check(a) is not None:
                continue
            try:
                odds = game.odds(u.uid, t.uid)
            except IllegalAction:         # the engine refuses: no candidate
                continue
            g = attack_gain(st, t, odds) * self._target_weight(game, t)
            out.append((g, a, odds, t))
        return out

    def _after(self, game, first: Action) -> tuple | None:
        """A copy of the game after ``first`` (defensive fire held: optimistic), or
        None when the engine refuses it."""
        if game.check(first) is not None:
            return None
        g2 = game.copy()
        g2.dice = Dice(0)                 # never peek at the game's own next rolls
        try:
            g2.apply(first)
            n = 0
            while isinstance(g2.state.pending, DefensiveFirePrompt) and n < 20:
                g2.apply(PassDefensiveFire(g2.state.to_act))
                n += 1
        except IllegalAction:             # the copy went somewhere the AI can't follow
            return None
        return g2 if g2.state.pending is None else None

    def follow_up(self, game, side: str) -> Action | None:
        """The extra action of the activation under way, when it wins something: the
        best extra attack (exact odds), else a Strike and Fade move to a better hex."""
        st = game.state
        u = activated_unit(st, side)
        if u is None:
            return None
        extras = extra_actions_of(game, u)
        if u.card.has("firepower"):           # ruling 27: one more attack in its own hex
            from game.rules.abilities.roster_final import firepower_attacks
            extras = list(extras) + firepower_attacks(game, u)
        if not extras:
            return None
        best = None
        for a in extras:
            if not isinstance(a, Attack):
                continue
            t = st.units[a.target]
            try:
                odds = game.odds(a.uid, a.target, mode=a.mode)
            except IllegalAction:
                continue
            g = attack_gain(st, t, odds) * self._target_weight(game, t)
            if best is None or g > best[0]:
                best = (g, a, odds, t)
        if best is not None and best[0] >= EXTRA_THRESHOLD:
            g, a, odds, t = best
            p, words = pct_damage(odds, t)
            mode = "" if a.mode == "normal" else f" ({a.mode.replace('_', ' ')})"
            extra = " and finish it" if t.pending else ""
            self.say(f"{u.name} makes its extra attack on {t.name}{mode}{front_word(odds)}"
                     f"{extra}: {percent(p)} {words}.")
            return a
        moves = {a.path: a for a in extras if isinstance(a, Move) and a.path}
        if moves:
            return self._fade(game, u, moves)
        return None

    def _fade(self, game, u: Unit, moves: dict) -> Action | None:
        """Strike and Fade: the best hex among the extra moves the engine offers
        (cover, out of the enemy's sight, toward the objective) if it beats staying."""
        from game.rules.movement import reachable
        st = game.state
        reach = reachable(st, u.uid)          # the same search the engine's offer used
        best_s = self.hex_score(game, u, u.hex, assault=True) + self.move_margin
        best = None
        quick = sorted(((self.quick_score(game, u, h, assault=True), h, r)
                        for h, r in reach.items() if r.stops and r.path in moves),
                       key=lambda x: (-x[0], x[1].r, x[1].q))
        for _, h, r in quick[:self.prescreen]:
            s0 = self.hex_score(game, u, h, assault=True)
            s = s0 - self.path_penalty(game, u, r, dest_score=s0, assault=True)
            if s > best_s:
                best_s, best = s, (h, r)
        if best is None:
            return None
        h, r = best
        facing = best_facing(game, u, h, st.objective, self.view) if u.is_vehicle else None
        a = Move(u.side, u.uid, r.path, facing)
        if game.check(a) is not None:
            a = moves[r.path]
        parts: dict = {}
        self.hex_score(game, u, h, assault=True, parts=parts)
        self.say(self._move_text(game, u, h, r, parts).rstrip(".") + " (Strike and Fade).")
        return a

    def _target_weight(self, game, t: Unit) -> float:
        """Enemies on or near the objective matter more as the deciding turns come."""
        st = game.state
        obj = st.objective
        if obj is None or t.hex is None:
            return 1.0
        if dist(t.hex, obj) <= 1:
            k = 1.0 if st.scenario == "assault" and t.side == st.defender else 0.5
            return 1.0 + k * self.urgency(st, other_side(t.side))
        return 1.0

    def assault(self, game, side: str) -> Action:
        st = game.state
        a = self.follow_up(game, side)
        if a is not None:
            return a
        held: set[str] = set()
        for g, a, odds, t in self.attack_candidates(game, side):
            if g < ATTACK_THRESHOLD:
                break
            if a.uid in held:
                continue
            if game.check(a) is None:
                u = st.units[a.uid]
                chance = effect_chance(odds, t)
                if chance < HOPELESS and not isinstance(a, Move):
                    mv = self.best_move(game, u, assault=True)
                    if mv is not None and game.check(mv) is None:
                        self.say(self.last_explanation.rstrip(".") +
                                 f" (rather than a hopeless attack on {t.name}: "
                                 f"{percent(chance)} to do anything).")
                        return mv
                    held.add(a.uid)      # nothing better for it: a last resort, after the rest
                    continue
                p, words = pct_damage(odds, t)
                mode = "" if a.mode == "normal" else f" ({a.mode.replace('_', ' ')})"
                extra = " and finish it" if t.pending else ""
                self.say(f"{u.name} attacks {t.name}{mode}{front_word(odds)}{extra}: "
                         f"{percent(p)} {words}.")
                return a
        # a unit with only a hopeless attack and no better use fires anyway
        for g, a, odds, t in self.attack_candidates(game, side):
            if a.uid in held and g >= ATTACK_THRESHOLD and game.check(a) is None:
                self.say(f"{st.units[a.uid].name} attacks {t.name}: only "
                         f"{percent(effect_chance(odds, t))} to do anything, but it has no "
                         f"better use.")
                return a
        # nothing worth shooting: assault moves toward the objective
        for u in self._order(game, side):
            if u.boarded:
                self._done.add(u.uid)
                continue
            a = self.best_move(game, u, assault=True)
            if a is not None and game.check(a) is None:
                return a
            self._done.add(u.uid)
        self.say(f"{side_player(side)} ends the assault phase.")
        return EndPhase(side)

    # --- defensive fire -----------------------------------------------------------------------------
    def defensive_fire(self, game, side: str, p: DefensiveFirePrompt) -> Action:
        st = game.state
        mover = st.units[p.mover]
        value = unit_value(st, mover)
        obj = st.objective
        if obj is not None and p.to_hex in control_hexes(game):
            value *= 1.0 + 0.5 * self.urgency(st, side)
        best = None
        for uid in p.eligible:
            try:
                o = game.odds(uid, mover.uid, defensive=True, at_hex=p.at_hex)
            except IllegalAction:       # the engine refuses this shot now: skip it
                continue
            firer = st.units[uid]
            if best is None or (o.p_stopped, -firer.card.cost) > (best[1].p_stopped,
                                                                  -best[0].card.cost):
                best = (firer, o)
        if best is None:
            self.say(f"{side_player(side)} holds fire.")
            return PassDefensiveFire(side)
        firer, o = best
        gain = o.p_stopped * value
        # a better chance at the enter stage (e.g. the mover leaves cover)?
        if p.stage == "leave":
            try:
                o2 = game.odds(firer.uid, mover.uid, defensive=True, at_hex=p.to_hex)
            except IllegalAction:
                o2 = None
            if o2 is not None and o2.p_stopped > o.p_stopped + 0.15:
                self.say(f"{side_player(side)} holds fire until {mover.name} enters "
                         f"{hex_label(p.to_hex)}: {percent(o2.p_stopped)} there against "
                         f"{percent(o.p_stopped)} now.")
                return PassDefensiveFire(side)
        reserve, danger = self._reserve(game, firer, mover)
        urgent = obj is not None and p.to_hex in control_hexes(game) and \
            self.urgency(st, side) >= 2.0
        if (o.p_stopped < self.df_min and not urgent) or gain < reserve:
            if danger is not None:
                self.say(f"{side_player(side)} holds {firer.name}'s fire against {mover.name}: "
                         f"{danger.name} can still come.")
            else:
                self.say(f"{side_player(side)} holds fire: {percent(o.p_stopped)} to stop {mover.name} "
                         f"is not worth it.")
            return PassDefensiveFire(side)
        self.say(f"{firer.name} fires defensively at {mover.name}: "
                 f"{percent(o.p_stopped)} to stop it.")
        return DefensiveFire(side, firer.uid)

    def _reserve(self, game, firer: Unit, mover: Unit) -> tuple[float, Unit | None]:
        """Value of keeping ``firer``'s one defensive shot for a more dangerous
        enemy that has not acted yet and could come next to it this phase."""
        st = game.state
        best, who = 0.0, None
        for t in st.units.values():
            if t.side != mover.side or t.uid == mover.uid or not t.on_map or t.acted \
                    or t.boarded or t.disrupted:
                continue
            if t.is_soldier and firer.is_vehicle:
                continue                      # Soldiers don't provoke Vehicles
            d = t.hex.distance(firer.hex)
            if d > t.current_speed + 1:
                continue
            try:
                p = hypothetical_odds(game, firer.uid, t.uid, target_hex=firer.hex,
                                      defensive=True, probe=self.view.probe).p_stopped
            except IllegalAction:
                continue
            v = unit_value(st, t) * p * 0.7
            if v > best:
                best, who = v, t
        return best, who

