"""The AI's later-edition decisions (used by the Veteran, and by the Expert through it).

The later edition adds three kinds of decision to the first edition's (everything
else - movement over hedges and cliffs included - is the Veteran's own play: it
prices every path with the rules' ``reachable`` and ``path_risk``, which know the
new terrain's movement rolls):

* **flight** (where to place an Aircraft): every hex from which the Aircraft could
  attack an enemy is scored with the rules' exact odds - the best attack it would
  make from there in the airstrike phase, in expected points won
  (``game.rules.threat.best_attack``) - less the risks there: the enemy Antiair fire
  the placement provokes (``game.rules.later.flight.placement_risk``: a disrupted
  Aircraft attacks at -1 and sits out next turn) and the ground fire it stays exposed
  to in the enemy's assault phase (the exact odds of every enemy that could attack it
  there).  The best Aircraft-and-hex pair is placed while it is worth anything; an
  Aircraft with no shot worth the risk stays off the map.
* **airstrike**: each placed Aircraft makes its best attack (exact odds, every mode
  the rules allow it), when it wins anything.
* **Antiair defensive fire** at an Aircraft just placed next to an Antiair unit: the
  best shot's chance to disrupt it against what that Aircraft could do; one shot at
  a time (a disrupted Aircraft can't be hit harder by defensive fire).

No rule is copied here: which hexes are legal, what provokes Antiair, every number
comes from the rules' own queries.
"""
from __future__ import annotations

import random
from typing import Iterable

from game.rules.army import MAX_UNITS, Army, is_playable, validate_army
from game.rules.cards import UnitCard
from game.rules.combat import within_reach

from game.rules.actions import (Action, Attack, DefensiveFire, EndPhase, PassDefensiveFire,
                                PlaceAircraft)
from game.rules.errors import IllegalAction
from game.rules.hexes import hex_label
from game.rules.later import is_later
from game.rules.later.flight import placement_risk
from game.rules.state import AntiairPrompt, Unit
from game.rules.threat import best_attack, hypothetical_odds
from game.rules.wording import side_player

from game.ai.knowledge import attack_gain, attack_modes, enemies, pct_damage, percent, unit_value

__all__ = ["handles", "pick", "placement_score", "airstrike_candidates", "build_later_army",
           "PLACE_THRESHOLD"]

PLACE_THRESHOLD = 0.3       # expected points a placement must win (over its risks)
STRIKE_THRESHOLD = 0.05     # an airstrike costs nothing but the attack: any gain is worth it
SHORT = 2                   # candidate hexes: within this of an enemy (attack dice fall with range)
PRESCREEN = 8               # hexes per Aircraft scored with every risk
DISRUPTED_SHOT = 0.4        # a disrupted Aircraft's attack keeps about this share of its worth
EXPOSURE = 0.5              # the enemy has other targets: share of the ground fire counted
AA_MIN = 0.05               # an Antiair shot with less chance than this to disrupt is held


def handles(game) -> bool:
    """A decision of the later edition's own: a flight or airstrike phase, or an
    Antiair prompt."""
    st = game.state
    if not is_later(st):
        return False
    return isinstance(st.pending, AntiairPrompt) or (
        st.pending is None and (st.phase.is_flight or st.phase.is_airstrike))


def pick(ai, game) -> Action:
    st = game.state
    side = st.to_act
    if isinstance(st.pending, AntiairPrompt):
        return antiair_fire(ai, game, side, st.pending)
    if st.phase.is_flight:
        return flight(ai, game, side)
    return airstrike(ai, game, side)


# --- flight ----------------------------------------------------------------------------------------
def _turns_left(st) -> int:
    limit = int(st.options.get("turn_limit") or 10)
    return max(0, limit - st.turn)


def _shot(game, probe, u: Unit, h, foes) -> tuple[float, Unit | None, object]:
    """Best expected points ``u`` wins with one attack from ``h`` (the rules' odds)."""
    best, who, odds = 0.0, None, None
    seen = game.visible_from(h)
    for e in foes:
        if not within_reach(game.state, u, e, h, e.hex, e.hex in seen):
            continue
        ba = best_attack(game, u.uid, e.uid, from_hex=h, probe=probe)
        if ba is None:
            continue
        g = attack_gain(game.state, e, ba[1])
        if g > best:
            best, who, odds = g, e, ba[1]
    return best, who, odds


def _exposure(game, probe, u: Unit, h, foes) -> float:
    """Expected points ``u`` loses in ``h`` if the enemy's ground units that can
    attack it there in their assault phase all do (the rules' exact odds)."""
    value = unit_value(game.state, u)
    lost = 0.0
    seen = game.visible_from(h)           # sight is the same both ways
    for e in foes:
        if e.card.is_aircraft or not within_reach(game.state, e, u, e.hex, h, e.hex in seen):
            continue
        try:
            o = hypothetical_odds(game, e.uid, u.uid, target_hex=h, probe=probe)
        except IllegalAction:       # out of range, or the rules let it not attack Aircraft
            continue
        lost += value * (o.p_destroyed + 0.3 * o.p_disrupted)
    return min(value, lost)


def placement_score(ai, game, u: Unit, h, foes=None) -> tuple[float, dict]:
    """What placing ``u`` in ``h`` is worth: its best airstrike there less the Antiair
    fire it provokes and the ground fire it stays exposed to.  ``parts`` says why."""
    st = game.state
    foes = enemies(st, u.side) if foes is None else foes
    probe = ai.view.probe
    shot, who, odds = _shot(game, probe, u, h, foes)
    risk = placement_risk(game, u.uid, h)
    later = shot if _turns_left(st) > 0 else 0.0
    aa_cost = risk.p_disrupted * ((1 - DISRUPTED_SHOT) * shot + 0.5 * later)
    exposure = EXPOSURE * _exposure(game, probe, u, h, foes)
    parts = {"shot": shot, "target": who, "odds": odds, "antiair": aa_cost,
             "p_antiair": risk.p_disrupted, "exposure": exposure}
    return shot - aa_cost - exposure, parts


def _candidate_hexes(st, foes) -> set:
    bm = st.battle_map
    out = set()
    for e in foes:
        for h in bm.hexes:
            if h.distance(e.hex) <= SHORT and bm.is_playable(h):
                out.add(h)
    return out


def flight(ai, game, side: str) -> Action:
    st = game.state
    legal = [a for a in game.legal_actions() if isinstance(a, PlaceAircraft)]
    if not legal:
        ai.say(f"{side_player(side)} has no Aircraft to place.")
        return EndPhase(side)
    foes = enemies(st, side)
    by_unit: dict[str, set] = {}
    for a in legal:
        by_unit.setdefault(a.uid, set()).add(a.hex)
    cands = _candidate_hexes(st, foes)
    best = None
    for uid in sorted(by_unit):
        u = st.units[uid]
        hexes = sorted(cands & by_unit[uid], key=lambda x: (x.r, x.q))
        quick = []
        for h in hexes:
            s, _, _ = _shot(game, ai.view.probe, u, h, foes)
            if s > 0:
                quick.append((s, h))
        quick.sort(key=lambda x: (-x[0], x[1].r, x[1].q))
        for _, h in quick[:PRESCREEN]:
            s, parts = placement_score(ai, game, u, h, foes)
            if best is None or s > best[0]:
                best = (s, PlaceAircraft(side, uid, h), parts)
    if best is None or best[0] < PLACE_THRESHOLD:
        ai.say(f"{side_player(side)} keeps the Aircraft off the map: no shot worth the risk.")
        return EndPhase(side)
    s, a, parts = best
    u = st.units[a.uid]
    t = parts["target"]
    p, words = pct_damage(parts["odds"], t)
    text = f"{u.name} flies to {hex_label(a.hex)} to strike {t.name} ({percent(p)} {words})"
    if parts["p_antiair"] > 0:
        text += f", braving Antiair fire ({percent(parts['p_antiair'])} to be disrupted)"
    ai.say(text + ".")
    return a


# --- airstrike -------------------------------------------------------------------------------------
def airstrike_candidates(ai, game, side: str) -> list[tuple[float, Attack, object, Unit]]:
    """Every attack the rules allow a placed Aircraft of ``side`` now, best first."""
    st = game.state
    out = []
    for u in st.units_of(side):
        if not u.card.is_aircraft or not u.on_map:
            continue                  # (one that has acted may still have a Strafe attack)
        for t in enemies(st, side):
            for mode in attack_modes(u):
                a = Attack(side, u.uid, t.uid, mode)
                if game.check(a) is not None:
                    continue
                try:
                    o = game.odds(u.uid, t.uid, mode=mode)
                except IllegalAction:
                    continue
                g = attack_gain(st, t, o) * ai._target_weight(game, t)
                out.append((g, a, o, t))
    out.sort(key=lambda x: (-x[0], x[1].uid, x[1].target, x[1].mode))
    return out


def airstrike(ai, game, side: str) -> Action:
    for g, a, odds, t in airstrike_candidates(ai, game, side):
        if g < STRIKE_THRESHOLD:
            break
        u = game.state.units[a.uid]
        p, words = pct_damage(odds, t)
        ai.say(f"{u.name} strikes {t.name} from the air: {percent(p)} {words}.")
        return a
    ai.say(f"{side_player(side)} ends the airstrike phase.")
    return EndPhase(side)


# --- Antiair ---------------------------------------------------------------------------------------
def antiair_fire(ai, game, side: str, p: AntiairPrompt) -> Action:
    st = game.state
    air = st.units[p.aircraft]
    if air.disrupted or air.destroyed:
        ai.say(f"{side_player(side)} holds fire: {air.name} is already disrupted.")
        return PassDefensiveFire(side)
    best = None
    for uid in p.eligible:
        try:
            o = game.odds(uid, air.uid, defensive=True)
        except IllegalAction:          # the rules refuse this shot now: skip it
            continue
        if best is None or o.p_stopped > best[1].p_stopped:
            best = (uid, o)
    if best is None or best[1].p_stopped < AA_MIN:
        ai.say(f"{side_player(side)} holds its Antiair fire: no real chance against {air.name}.")
        return PassDefensiveFire(side)
    uid, o = best
    ai.say(f"{st.units[uid].name} opens Antiair fire on {air.name}: "
           f"{percent(o.p_stopped)} to disrupt it.")
    return DefensiveFire(side, uid)


# --- armies ----------------------------------------------------------------------------------------
AIR_SHARE = 0.2             # about this share of the points goes to one Aircraft


def build_later_army(cards: Iterable[UnitCard], side: str, budget: int = 100, *,
                     rng: random.Random | None = None, max_units: int = MAX_UNITS,
                     name: str | None = None, mixed: bool = False) -> Army:
    """A later-edition army for ``side``: the army builder's ground army (an Antiair
    unit among it now and then) and one Aircraft of the army's nations when the
    budget allows; always legal for the later edition (else the plain built army)."""
    from game.ai.army_builder import build_army
    rng = rng or random.Random(0)
    pool = [c for c in cards if c.side == side and is_playable(c, "later")]
    air = sorted((c for c in pool if c.is_aircraft), key=lambda c: (c.cost, c.name))
    ground = [c for c in pool if not c.is_aircraft]
    plain = [c for c in ground if not c.has("antiair")]
    antiair = [c for c in ground if c.has("antiair")]
    want_air = bool(air) and budget >= 50
    reserve = int(budget * AIR_SHARE) if want_air else 0
    base = build_army(plain or ground, side, budget - reserve, rng=rng,
                      max_units=max_units - (1 if want_air else 0), name=name, mixed=mixed,
                      edition="later")
    chosen = list(base.cards)
    nations = set(base.nationalities())
    left = budget - sum(c.cost for c in chosen)
    if antiair and rng.random() < 0.5:
        # an Antiair unit of the army's nations in place of its cheapest support unit
        fit = [c for c in antiair if c.nationality in nations]
        if fit:
            aa = rng.choice(fit)
            cheapest = min(chosen, key=lambda c: (c.cost, c.name))
            if aa.cost <= left + cheapest.cost:
                chosen[chosen.index(cheapest)] = aa
                left += cheapest.cost - aa.cost
    if want_air:
        fit = [c for c in air if c.cost <= left and c.nationality in nations] or \
            [c for c in air if c.cost <= left]
        if fit:
            chosen.append(rng.choice(fit[-3:]))
    army = Army(base.name, side, chosen, base.description)
    if validate_army(army, budget, max_units, edition="later"):
        return base
    return army
