"""Attacks in a unit's own assault phase (rulebook: Attack and Defense; combat
numbers in game.rules.combat).  Attack modes from abilities (Close Assault...) are
listed by the abilities' ``activation_options``."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import abilities, activation, combat
from ..actions import Action, Attack
from ..errors import MalformedAction
from ..events import Event
from ..hexes import Hex
from ..state import GameState, Unit
from . import ActionRule, register_rule, unit_of

if TYPE_CHECKING:
    from ..engine import Game


class AttackRule(ActionRule):
    kind = Attack

    def for_unit(self, game: "Game", u: Unit) -> list[Action]:
        st = game.state
        if u.acted or u.carrier is not None or u.hex is None or _phase_problem(st, u) is not None:
            return []
        side = u.side
        bm = st.battle_map
        seen = bm.visible_from(u.hex)     # no attack without LOS (bluff to bluff: ruling L9)
        # later edition: sight to/from Aircraft is never blocked (ruling L2)
        wide = st.options.get("edition") == "later" and (
            u.card.is_aircraft
            or any(t.card.is_aircraft and t.on_map for t in st.units.values()))
        if wide or not _pair_pure(st):
            # the map's sight is only a quick filter where it settles the question: not
            # for an Aircraft, nor for a unit whose sight a hook may change (Indirect
            # Fire over a Spotter...): combat.within_reach
            a_hex = u.hex
            return [Attack(side, u.uid, t) for t in combat.allowed_targets(
                st, u.uid, [t.uid for t in st.units.values()
                            if t.side != side and not t.boarded and t.hex is not None
                            and not t.destroyed
                            and combat.within_reach(st, u, t, a_hex, t.hex, t.hex in seen)])]
        # every hook the allow check can run reads only the two cards, their hexes and
        # the map: a cache in front of combat.allowed_targets, per map
        # (id(attacker card), id(target card), registry generation) -> (the two cards,
        # attacker's hex -> target's hex -> verdict): nested so that the memo holds few
        # objects the garbage collector walks (no key tuple per verdict)
        memo: dict[tuple[int, int, int], tuple[Any, Any, dict[Hex, dict[Hex, bool]]]] | None \
            = bm.__dict__.get("_attack_verdicts")
        if memo is None:
            memo = bm.__dict__["_attack_verdicts"] = {}
        ac, a_hex, uid = u.card, u.hex, u.uid
        gen = abilities.GENERATION
        out: list[Action] = []
        for t, t_hex in _targets(game, side):
            if t_hex not in seen:
                continue
            tc = t.card
            pair = memo.get((id(ac), id(tc), gen))
            if pair is None or pair[0] is not ac or pair[1] is not tc:
                if len(memo) > 4096:
                    memo.clear()
                pair = memo[(id(ac), id(tc), gen)] = (ac, tc, {})
            from_here = pair[2].get(a_hex)
            if from_here is None:
                if len(pair[2]) > 1024:
                    pair[2].clear()
                from_here = pair[2][a_hex] = {}
            verdict = from_here.get(t_hex)
            if verdict is None:
                verdict = from_here[t_hex] = bool(combat.allowed_targets(st, uid, [t.uid]))
            if verdict:
                out.append(_attack(side, uid, t.uid))
        return out

    def problem(self, game: "Game", action: Attack) -> str | None:
        st = game.state
        u = unit_of(game, action)
        prob = _phase_problem(st, u)
        if prob:
            return prob
        prob = activation.problem(st, u)
        if prob:
            return prob
        if action.target not in st.units:
            raise MalformedAction(f"there is no unit '{action.target}'")
        return combat.why_not_attack(st, u.uid, action.target, mode=action.mode)

    def perform(self, game: "Game", a: Attack) -> list[Event]:
        st = game.state
        st.units[a.uid].acted = True
        return combat.resolve_attack(st, a.uid, a.target, game.dice, mode=a.mode)


def _targets(game: "Game", side: str) -> list[tuple[Unit, Hex]]:
    """``side``'s enemies on the map and not aboard, with their hexes, in state order
    (once per position: the façade's position caches)."""
    c = game._caches
    st = game.state
    c.position(st)
    got = c.targets.get(side)
    if got is None:
        got = c.targets[side] = [(t, t.hex) for t in st.units.values()
                                 if t.side != side and t.carrier is None and t.hex is not None
                                 and not t.destroyed]
    return got


# (side, uid, target) -> its Attack (normal mode; the listing asks for the same ones often)
_ATTACKS: dict[tuple[str, str, str], Attack] = {}


def _attack(side: str, uid: str, target: str) -> Attack:
    key = (side, uid, target)
    got = _ATTACKS.get(key)
    if got is None:
        if len(_ATTACKS) > 16384:
            _ATTACKS.clear()
        got = _ATTACKS[key] = Attack(side, uid, target)
    return got


#: the hook points combat's allow check asks for an attack between two units not
#: aboard a transport (the attack listing's question)
_ALLOW_POINTS = ("range_band", "line_of_sight", "attack_dice", "can_attack")
#: (point, ability id) of hooks there that read only their call's two units' cards,
#: the distance, the attacker's hex and the mode, or never change the listing's answer
#: (Coordinated Fire and Surprise Fire add a die to an attack that has some: whether it
#: has dice is all the allow check asks)
PAIR_PURE = frozenset({
    ("range_band", "extended_range"), ("range_band", "enhanced_range"),
    ("attack_dice", "close_assault"), ("attack_dice", "hand_to_hand"),
    ("can_attack", "close_assault"), ("can_attack", "hand_to_hand"),
    ("attack_dice", "coordinated_fire"), ("attack_dice", "surprise_fire")})
# (ability ids present, registry generation) -> _pair_pure's answer
_PURE: dict[tuple[frozenset[str], int], bool] = {}


def _pair_pure(st: GameState) -> bool:
    """Whether, in ``st``, combat's allow check between two units not aboard depends
    only on their cards, their hexes and the map: no rule or aura hook can run at its
    points, and every ability of the state hooked there is in :data:`PAIR_PURE`."""
    ids = abilities.present_ids(st)
    key = (ids, abilities.GENERATION)
    got = _PURE.get(key)
    if got is None:
        live = abilities.live_points(st)
        got = not any(p in live for p in _ALLOW_POINTS) and all(
            (p, h.ability_id) in PAIR_PURE for p in _ALLOW_POINTS
            for h in abilities.HOOKS.get(p, ()) if h.ability_id in ids)
        if len(_PURE) > 256:
            _PURE.clear()
        _PURE[key] = got
    return got


def _phase_problem(st: GameState, u: Unit) -> str | None:
    """Ground units attack in the assault phases; Aircraft (later edition) only in
    the airstrike phases (checklist L05)."""
    if u.card.is_aircraft:
        return None if st.phase.is_airstrike else (
            f"{u.name} is an Aircraft: Aircraft attack in your airstrike phase")
    if not st.phase.is_assault:
        return "attacks are made in your assault phase"
    return None


register_rule(AttackRule())
