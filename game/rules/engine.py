"""The rules engine's façade: :class:`Game` and :func:`new_game`.

State in, action in, events out (docs/engine-api.md).  ``Game.apply`` checks the
action first (``Game.check`` gives the reason it would be refused) and only then
changes the state; if anything unexpected goes wrong half-way the state and the dice
are restored, so a refused or failed action never leaves a half-changed game.

The rules themselves live elsewhere, one obvious module each:
``phases`` (the Sequence of Play as a table: who acts, what is allowed, what runs
on entering a phase and what comes next), ``families.*`` (one rule object per
action kind: listing, checking, performing), ``activation`` (ruling 7 and the
extra-action window), ``victory``, ``movement`` (paths and costs), ``combat`` and
``odds``, ``abilities`` (every special ability), ``army`` (budgets, unit caps).
"""
from __future__ import annotations

import hashlib
from typing import Any

from . import (abilities, activation, caches, families, later, movement, phases,
               queries, threat, victory)
from .actions import Action, Move
from .army import army_budget
from .board import BattleMap
from .cards import UnitCard
from .dice import Dice
from .errors import IllegalAction, MalformedAction
from .events import Event
from .families.bridges import BRIDGE_DEMOLITION
from .families.moving import facing_toward
from .families import setup as setup_family
from .families.setup import deployment_zone
from .families.transport import TRANSPORT_IDS
from .hexes import Hex
from .movement import Reach
from .odds import Odds, TargetInfo
from .state import ASSAULT_PHASES, MOVEMENT_PHASES, GameState, Phase, Unit
from .victory import LAST_TURN, STANDARD_VICTORY_TURN
from .wording import side_player

__all__ = ["Game", "new_game", "TargetInfo", "TRANSPORT_IDS", "BRIDGE_DEMOLITION",
           "deployment_zone", "army_budget", "STANDARD_VICTORY_TURN", "LAST_TURN",
           "facing_toward"]

families.load()
abilities.load()
later.load()


class Game:
    """One game: a state, its dice, and what was applied (``history``)."""

    def __init__(self, state: GameState, dice: Dice | None = None) -> None:
        self.state = state
        self.dice = dice if dice is not None else Dice(0)
        self.history: list[Action] = []
        self.log: list[Event] = []
        self._caches = caches.PositionCaches()      # per position (game.rules.caches)
        # (state, dice) as new_game left them: undo and replays start here (game.rules.undo)
        self.origin: tuple[Any, ...] | None = None

    def add_unit(self, card: UnitCard, side: str | None = None, hex: Hex | None = None,
                 facing: int = 0, **fields: Any) -> Unit:
        """Put a unit into the state (tests, situations, previews): families.setup.add_unit
        (``uid``, ``disrupted``, ``damaged``, ``pending``, ``carrier``, ``acted``,
        ``fired_defensively``)."""
        return setup_family.add_unit(self.state, card, side, hex, facing, **fields)

    # --- queries ---------------------------------------------------------------------------
    @property
    def to_act(self) -> str | None:
        return self.state.to_act

    @property
    def over(self) -> bool:
        return self.state.phase == Phase.GAME_OVER

    def reachable(self, uid: str) -> dict[Hex, Reach]:
        """Hexes ``uid`` may move into now (empty when it can't move now);
        ``Reach.stops`` says whether it may end there (a cache of movement.reachable)."""
        st = self.state
        if uid not in st.units:
            raise MalformedAction(f"there is no unit '{uid}'")
        u = st.units[uid]
        ph = st.phase
        if not (ph in MOVEMENT_PHASES or ph in ASSAULT_PHASES) or st.pending is not None \
                or u.side != st.active_side or u.acted:     # (ph.is_movement, ph.is_assault)
            return {}
        return self._caches.reachable(st, uid)

    def why_not_reach(self, uid: str, hex: Hex) -> str:
        """Why ``uid`` can't move to ``hex`` now ("" when a listed move goes there)."""
        return queries.reach_problem(self, uid, hex)

    def visible_from(self, hex: Hex) -> frozenset[Hex]:
        vis: frozenset[Hex] = self.state.battle_map.visible_from(hex)   # bluffs: ruling L9
        if self.state.marks.get("smoke"):           # Smoke Screen (ruling 30)
            from .abilities.roster_final import smoke_blocks, smoke_hexes
            smoke = smoke_hexes(self.state)
            if smoke:
                vis = frozenset(h for h in vis if not smoke_blocks(hex, h, smoke))
        return vis

    def odds(self, attacker_uid: str, target_uid: str, mode: str = "normal",
             defensive: bool = False, at_hex: Hex | None = None) -> Odds:
        from .odds import attack_odds
        return attack_odds(self.state, attacker_uid, target_uid, mode=mode,
                           defensive=defensive, at_hex=at_hex)

    def targets(self, uid: str) -> list[TargetInfo]:
        """Every enemy ``uid`` may attack from where it is (any phase; the activation
        rules are not checked here), with exact odds (game.rules.odds.targets)."""
        from .odds import targets
        return targets(self.state, uid, self._ability_actions(self.state.units[uid]))

    # --- queries for clients: thin calls of game.rules.queries / game.rules.threat ----------
    def defensive_fire_options(self) -> list[queries.DefenderOptions]:
        """At a defensive-fire prompt: per eligible defender and stage, legal or the
        rules' reason, and the exact odds (queries.defensive_fire_options)."""
        return queries.defensive_fire_options(self)

    def unit_options(self, uid: str, legal: list[Action] | None = None) -> queries.UnitOptions:
        """What ``uid`` may still do this phase, extra actions included."""
        return queries.unit_options(self, uid, legal)

    def hypothetical_odds(self, attacker: str, target: str, **where: Any) -> Odds:
        """Exact odds of an attack from any hex at a target in any hex and facing,
        abilities included (threat.hypothetical_odds: from_hex, target_hex, mode...)."""
        return threat.hypothetical_odds(self, attacker, target, **where)

    def best_attack(self, attacker: str, target: str, **where: Any) -> tuple[str, Odds] | None:
        """The attack mode with the best odds for that attack (threat.best_attack)."""
        return threat.best_attack(self, attacker, target, **where)

    def threat_to(self, uid: str, hex: Hex | None = None, facing: int | None = None,
                  **options: Any) -> threat.Threat:
        """Which enemy units could attack ``uid`` in ``hex`` next phase, with the
        chances to disrupt / damage / destroy it (threat.threat_to)."""
        return threat.threat_to(self, uid, hex, facing, **options)

    def path_risk(self, move: Action) -> threat.PathRisk:
        """The defensive fire and movement rolls a legal move meets (threat.path_risk)."""
        return threat.path_risk(self, move)

    def initiative_bonus(self, side: str) -> int:
        return phases.initiative_bonus(self.state, side)

    def victory_points(self, side: str) -> int:
        return victory.victory_points(self.state, side)

    # --- legal actions (a cache in front of the families' rules) -------------------------
    def legal_actions(self, all_facings: bool = False) -> list[Action]:
        """Everything ``state.to_act`` may do now.  Move: one action per hex the unit may
        end in, with its best path; a Vehicle's listed facing points at the nearest enemy
        (any facing is legal; ``all_facings=True`` lists all six)."""
        if all_facings:
            out: list[Action] = []
            for a in self.legal_actions():
                if isinstance(a, Move) and a.path and a.facing is not None:
                    out.extend(Move(a.side, a.uid, a.path, f) for f in range(6))
                else:
                    out.append(a)
            return out
        c = self._caches
        key = c.position(self.state)
        if c.legal is not None and c.legal[0] == key:
            return list(c.legal[1])
        c.scope = key                   # one position for every reachable() below
        try:
            with abilities.pinned(self.state):
                acts = self._legal_actions()
        finally:
            c.scope = None
        c.legal, c.listed_ids = (key, acts), None
        return list(acts)

    def _legal_actions(self) -> list[Action]:
        return families.legal_actions(self)

    def _unit_actions(self, u: Unit) -> list[Action]:
        """The rules' own actions of ``u`` now (no ability extras)."""
        return families.unit_actions(self, u)

    def _ability_actions(self, u: Unit) -> list[Action]:
        return families.ability_actions(self, u)

    # --- checking ------------------------------------------------------------------------
    def check(self, action: Action) -> str | None:
        """The reason ``action`` would be refused now, or ``None``."""
        try:
            reason = self.rule_problem(action)
        except MalformedAction as exc:
            return str(exc)
        except (TypeError, AttributeError, ValueError, KeyError) as exc:
            # fields of the wrong type (a path of non-hexes, a facing of "north"...)
            return f"malformed {type(action).__name__}: {exc}"
        if abilities.has_hooks("action_allowed"):
            uid = getattr(action, "uid", None)
            unit = self.state.units.get(uid) if isinstance(uid, str) else None
            reason = abilities.apply("action_allowed", reason, state=self.state, unit=unit,
                                     action=action, game=self)
        return reason

    def rule_problem(self, action: Action) -> str | None:
        """The rules' reason to refuse ``action`` before any ability has its say (may
        raise MalformedAction)."""
        st = self.state
        if not isinstance(action, Action):
            return f"{action!r} is not an action"
        if st.phase == Phase.GAME_OVER:
            return "the game is over"
        side = st.to_act
        if action.side != side:
            if side is None:
                return "no one may act now"
            return (f"it is {side_player(side, capital=False)}'s turn to act, "
                    f"not {side_player(action.side, capital=False)}'s")
        rule = families.rule_for(action)
        p = st.pending
        if p is not None:
            if type(action) not in phases.ANSWERS[type(p)]:
                return phases.waiting_for(st, p)
            assert rule is not None
            return rule.problem(self, action)
        if rule is None:
            return f"{type(action).__name__} is not possible now"
        ph = st.phase
        if rule in families.UNIT_RULES and not (ph.is_movement or ph.is_assault
                                                or ph.is_airstrike):
            return f"that can't be done in the {ph.title.lower()}"
        reason = rule.problem(self, action)
        if reason is None and type(action) not in phases.spec(ph, st).kinds:
            return f"that can't be done in the {ph.title.lower()}"
        return reason

    # --- applying -------------------------------------------------------------------------
    def apply(self, action: Action) -> list[Event]:
        """Carry out ``action``; raise :class:`IllegalAction` (state untouched) if the
        rules refuse it.  Returns the events, including the automatic steps that
        followed (initiative, casualty phase, victory...)."""
        if not self._caches.listed(self.state, action):
            reason = self.check(action)
            if reason is not None:
                raise IllegalAction(reason)
        st = self.state
        snap = st.snapshot()
        dice_state = self.dice.getstate()
        try:
            events = self._perform(action)
            events.extend(phases.advance(self))
        except BaseException:
            st.restore(snap)
            self.dice.setstate(dice_state)
            self._caches.clear()
            raise
        self.history.append(action)
        self.log.extend(events)
        st.touch()
        return events

    def _perform(self, action: Action) -> list[Event]:
        st = self.state
        activation.before(st, action)
        done = None
        if abilities.has_hooks("perform"):
            uid = getattr(action, "uid", None)
            unit = st.units.get(uid) if isinstance(uid, str) else None
            done = abilities.apply("perform", None, state=st, unit=unit, action=action,
                                   dice=self.dice, game=self)
        rule = families.rule_for(action)
        assert rule is not None
        events = list(done) if done is not None else rule.perform(self, action)
        activation.after(st, action, events)
        return events

    def advance(self) -> list[Event]:
        """Run the automatic steps a hand-built state may be waiting for (coin flip,
        initiative, casualty phase, end of turn) until a player must act; ``apply``
        does this by itself after every action."""
        ev = phases.advance(self)
        self.log.extend(ev)
        self.state.touch()
        return ev

    # --- copies, hashes, undo --------------------------------------------------------------
    def copy(self) -> "Game":
        g = Game(self.state.copy(), self.dice.copy())
        g.history = list(self.history)
        g.origin = self.origin
        return g

    def undoable(self) -> list[Action]:
        """Actions of the current phase that may still be taken back (game.rules.undo)."""
        from .undo import undoable
        return undoable(self)

    def undo(self, uid: str | None = None) -> list[Action]:
        """Take back ``uid``'s undoable actions (None: every undoable action of the
        phase) by replaying the history without them; returns what was taken back."""
        from .undo import undo
        return undo(self, uid)

    def state_hash(self) -> str:
        return hashlib.sha256(self.state.hash_blob().encode("utf-8")).hexdigest()


def new_game(battle_map: BattleMap, armies: dict[str, list[UnitCard]],
             scenario: str = "standard", dice: Dice | None = None,
             options: dict[Any, Any] | None = None, coin_winner: str | None = None) -> Game:
    """Start a game at setup.  Units get ids ``axis-1..`` / ``allies-1..`` in army
    order.  Standard: the coin flip is rolled (or ``coin_winner``) and the winner
    chooses first or second player.  Assault: ``options["attacker"]`` (default: the
    army with more points, Axis on a tie) attacks; the defender chooses an end and the
    objective, and deploys first."""
    if scenario not in ("standard", "assault"):
        raise MalformedAction(f"unknown scenario '{scenario}' (standard or assault)")
    dice = dice if dice is not None else Dice(0)
    st = GameState(battle_map=battle_map, scenario=scenario, options=dict(options or {}))
    game = Game(st, dice)
    for side in ("Axis", "Allies"):
        for card in armies.get(side, []):
            game.add_unit(card, side)
    ev = setup_family.start(game, coin_winner)
    game.log.extend(ev)
    st.touch()
    game.origin = (st.copy(), dice.copy(), len(game.log))
    return game

