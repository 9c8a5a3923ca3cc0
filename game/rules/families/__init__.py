"""One module per family of actions, each with ONE rule object per action kind
(:class:`ActionRule`) that serves listing, checking and performing:

=====================  ====================================================
module                 actions
=====================  ====================================================
``setup``              ChooseOrder, ChooseEnd, ChooseObjective, Deploy, Undeploy
``phase_end``          EndPhase
``moving``             Move (walking, ruling 6's put-back), Face
``defensive_fire``     DefensiveFire, PassDefensiveFire (ruling 14)
``attack``             Attack
``transport``          Board, Dismount, PlaceDismounted
``bridges``            DemolishBridge
``reserves``           EnterReserve (Paratroopers, Heroes: rulings 21-23)
``smoke``              LaySmoke (Smoke Screen: ruling 30)
=====================  ====================================================

A rule's ``problem(game, action)`` is the reason the action is refused now (None:
legal); ``perform(game, action)`` carries out a checked action and returns its
events; ``enumerate(game, side)`` lists the legal actions of that kind now (unit
rules list per unit: ``for_unit``).  Any cache in front of a listing (the façade's
legal-action cache, the movement search cache) only remembers what the rule said.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import abilities, phases
from ..actions import Action
from ..errors import MalformedAction
from ..events import Event
from ..state import Unit

if TYPE_CHECKING:
    from ..engine import Game

__all__ = ["ActionRule", "RULES", "UNIT_RULES", "rule_for", "unit_of", "register_rule",
           "legal_actions", "unit_actions", "ability_actions"]


class ActionRule:
    """The rule of one action kind (subclasses set ``kind``)."""

    kind: type[Action] = Action

    def enumerate(self, game: "Game", side: str) -> list[Action]:
        return []

    def for_unit(self, game: "Game", u: Unit) -> list[Action]:
        return []

    def problem(self, game: "Game", action: Any) -> str | None:
        raise NotImplementedError

    def perform(self, game: "Game", action: Any) -> list[Event]:
        raise NotImplementedError


RULES: dict[type[Action], ActionRule] = {}
#: unit rules in the order their actions are listed for each unit
UNIT_RULES: list[ActionRule] = []


def register_rule(rule: ActionRule) -> ActionRule:
    RULES[rule.kind] = rule
    return rule


def rule_for(action: Action) -> ActionRule | None:
    return RULES.get(type(action))


def unit_of(game: "Game", action: Any) -> Unit:
    """The acting unit of ``action``, which must belong to the acting side."""
    uid = getattr(action, "uid")
    u = game.state.units.get(uid)
    if u is None:
        raise MalformedAction(f"there is no unit '{uid}'")
    if u.side != action.side:
        raise MalformedAction(f"{u.name} ({uid}) is not a unit of {action.side}")
    return u


def unit_actions(game: "Game", u: Unit) -> list[Action]:
    """The rules' own actions of ``u`` now (no ability extras), in listing order."""
    kinds = phases.spec(game.state.phase, game.state).kinds
    return [a for r in UNIT_RULES if r.kind in kinds for a in r.for_unit(game, u)]


def ability_actions(game: "Game", u: Unit) -> list[Action]:
    """Actions the abilities add for ``u`` now (mode attacks, extra actions...)."""
    if not abilities.has_hooks("activation_options"):
        return []
    return _ability_actions(game, u)


def _ability_actions(game: "Game", u: Unit) -> list[Action]:
    st = game.state
    return list(abilities.apply("activation_options", [], state=st, unit=u, phase=st.phase,
                                game=game))


def legal_actions(game: "Game") -> list[Action]:
    """Everything ``state.to_act`` may do now: the answers to a pending decision, or
    the phase table's action kinds - unit by unit (the rules' actions, then the
    abilities' extras), then the others (EndPhase...)."""
    st = game.state
    side = st.to_act
    if side is None:
        return []
    if st.pending is not None:
        return [a for k in phases.ANSWERS[type(st.pending)]
                for a in RULES[k].enumerate(game, side)]
    kinds = phases.spec(st.phase, st).kinds
    out: list[Action] = []
    unit_rules = [r for r in UNIT_RULES if r.kind in kinds]
    # where each unit's actions are in the listing (the façade's ``listed`` looks an
    # applied action up there only)
    slices: dict[str, tuple[int, int]] = {}
    if unit_rules:
        gate = abilities.has_hooks("action_allowed")
        # abilities.may_refuse("action_allowed", u, st), its state's part once
        shared_refusal = gate and abilities.cast(st).refusing("action_allowed")
        extras = abilities.has_hooks("activation_options")
        for u in st.units_of(side):
            if u.hex is None or u.destroyed:        # not on the map
                continue
            base: list[Action] = []
            for r in unit_rules:
                base += r.for_unit(game, u)
            extra = _ability_actions(game, u) if extras else []
            if gate and (shared_refusal or abilities.keyed_at("action_allowed", u)):
                # the rules built ``base`` legal; only an ability may still refuse (hooks
                # declared ``lifts_only`` never refuse a legal action: skipped)
                base = [a for a in base if abilities.apply(
                    "action_allowed", None, state=st, unit=u, action=a, game=game) is None]
                extra = [a for a in extra if game.check(a) is None]
            start = len(out)
            out.extend(base)
            if extra:
                seen = set(base)
                out.extend(a for a in extra if a not in seen)
            if len(out) > start:
                slices[u.uid] = (start, len(out))
    game._caches.slices = (out, slices, len(out))
    answers = {k for ks in phases.ANSWERS.values() for k in ks}
    for k in kinds:
        if k not in answers and RULES[k] not in unit_rules:
            out.extend(RULES[k].enumerate(game, side))
    return out


#: unit actions: only in movement and assault phases
def unit_kinds() -> tuple[type[Action], ...]:
    return tuple(r.kind for r in UNIT_RULES)


def load() -> None:
    """Import every family (registers their rules) and fix the order in which a
    unit's actions are listed: Dismount, Move (and turns), Board, Attack,
    DemolishBridge."""
    from . import attack, bridges, defensive_fire, moving, phase_end, reserves, setup, transport
    from . import smoke
    from ..actions import Attack, Board, DemolishBridge, Dismount, Move
    del attack, bridges, defensive_fire, moving, phase_end, reserves, setup, transport, smoke
    UNIT_RULES[:] = [RULES[k] for k in (Dismount, Move, Board, Attack, DemolishBridge)]
