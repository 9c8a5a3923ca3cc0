"""The Sequence of Play as data (rulebook: Getting Started, Sequence of Play;
Scenarios).  For each phase: who acts, which action kinds are allowed, what runs on
entering it, the automatic step it runs by itself (dice-driven phases), and what
comes next.  The engine advances from this table only (:func:`enter`,
:func:`advance`, :func:`end_phase`); adding a phase is adding a row.

Standard: SETUP_ORDER (coin-flip winner: ChooseOrder) -> SETUP_END (first player:
ChooseEnd) -> DEPLOY_FIRST -> DEPLOY_SECOND -> turn 1 (with Vanguard units on the map,
VANGUARD_FIRST / VANGUARD_SECOND come first: each side's Vanguard move, ruling 20).
Assault: SETUP_END (defender: ChooseEnd) -> SETUP_OBJECTIVE (defender:
ChooseObjective) -> DEPLOY_FIRST (defender) -> DEPLOY_SECOND (attacker) -> turn 1.
Each turn: INITIATIVE (rolled; winner: ChooseOrder) -> MOVEMENT_FIRST ->
MOVEMENT_SECOND -> ASSAULT_FIRST -> ASSAULT_SECOND (each ended by EndPhase) ->
CASUALTY -> END_OF_TURN (victory check) -> next turn.

Decisions the rules wait for (``state.pending``: who chooses first, defensive fire,
where an overstacked dismount goes, a Vehicle's facing) are answered whatever the
phase; :data:`ANSWERS` lists the action kinds that answer each.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from . import abilities, combat
from .actions import (Action, Attack, Board, ChooseEnd, ChooseObjective, ChooseOrder,
                      DefensiveFire, DemolishBridge, Deploy, Dismount, EndPhase, EnterReserve,
                      Face, LaySmoke, Move, PassDefensiveFire, PlaceDismounted, Undeploy)
from .events import (CoinFlipped, Event, GameEnded, InitiativeRolled, PhaseBegan, TurnEnded)
from .state import (AntiairPrompt, DefensiveFirePrompt, DismountPlacement, FacingChoice,
                    GameState, OrderChoice, Phase)
from .victory import check_victory
from .wording import side_player

if TYPE_CHECKING:
    from .engine import Game

__all__ = ["PhaseSpec", "PHASES", "TABLES", "ANSWERS", "spec", "table", "waiting_for", "enter",
           "advance", "end_phase", "next_phase", "initiative_bonus"]

Step = Callable[["Game"], list[Event]]


@dataclass(frozen=True)
class PhaseSpec:
    phase: Phase
    actor: str                       # who acts: "first", "second", "chooser", "defender", "dice"
    kinds: tuple[type[Action], ...]  # action kinds allowed (besides answers to decisions)
    next: Callable[[GameState], Phase] | None
    auto: Step | None = None         # runs by itself while no decision is pending
    on_enter: Step | None = None     # after the common reset (activations, road bonus)
    on_leave: Callable[[GameState], None] | None = None


def _coin_flip(game: "Game") -> list[Event]:
    winner = "Axis" if game.dice.d6() <= 3 else "Allies"
    game.state.pending = OrderChoice(winner, "coin flip")
    return [CoinFlipped(winner)]


def initiative_bonus(state: GameState, side: str) -> int:
    """Best initiative bonus of a non-disrupted commander of ``side`` on the map (later
    edition, checklist L02: commanders not yet deployed count too)."""
    if state.options.get("edition") == "later":
        units = [u for u in state.units_of(side) if not u.destroyed]
    else:
        units = state.live_units(side)
    return max((0 if u.disrupted else (u.card.commander_bonus or 0) for u in units),
               default=0)


def initiative_extra(state: GameState, side: str) -> int:
    """What abilities add to ``side``'s initiative rolls besides the commander bonus
    (the ``initiative_bonus`` hook point: Recon); it does not break ties."""
    if not abilities.has_hooks("initiative_bonus"):
        return 0
    return int(abilities.apply("initiative_bonus", 0, state=state, side=side))


def _initiative(game: "Game") -> list[Event]:
    st = game.state
    ev: list[Event] = []
    bonus = {s: initiative_bonus(st, s) for s in ("Axis", "Allies")}
    extra = {s: initiative_extra(st, s) for s in ("Axis", "Allies")}
    for _ in range(1000):
        rolls = {s: (game.dice.d6(), game.dice.d6(), bonus[s] + extra[s])
                 for s in ("Axis", "Allies")}
        tot = {s: sum(r) for s, r in rolls.items()}
        if tot["Axis"] != tot["Allies"]:
            winner: str | None = max(tot, key=lambda s: tot[s])
        elif bonus["Axis"] != bonus["Allies"]:
            winner = max(bonus, key=lambda s: bonus[s])
        else:
            winner = None
        ev.append(InitiativeRolled(rolls, winner))
        if winner:
            st.initiative_rolls = rolls
            st.pending = OrderChoice(winner, "initiative")
            return ev
    raise RuntimeError("initiative tied 1000 times")   # pragma: no cover


def _casualty(game: "Game") -> list[Event]:
    st = game.state
    ev = combat.casualty_phase(st)
    if abilities.has_hooks("after_casualty"):
        ev += abilities.apply("after_casualty", [], state=st, dice=game.dice, game=game)
    return ev + end_phase(game)


def _end_of_turn(game: "Game") -> list[Event]:
    st = game.state
    ev: list[Event] = []
    outcome = check_victory(st, ev)
    ev.append(TurnEnded(st.turn))
    if outcome is not None:
        st.outcome = outcome
        st.phase = Phase.GAME_OVER
        ev.append(GameEnded(outcome))
        return ev
    st.turn += 1
    return ev + end_phase(game)


def _first_turn(state: GameState) -> None:
    state.turn = 1


def _has_vanguard(state: GameState, side: str | None) -> bool:
    """Ruling 20: a side with a unit on the map whose card has Vanguard moves it before
    turn 1 (a side without one has no Vanguard step)."""
    return side is not None and "vanguard" in abilities.present_ids(state) and any(
        u.on_map and u.card.has("vanguard") for u in state.units_of(side))


def _after_deployment(state: GameState) -> Phase:
    if _has_vanguard(state, state.first_player):
        return Phase.VANGUARD_FIRST
    return _after_first_vanguard(state)


def _after_first_vanguard(state: GameState) -> Phase:
    return Phase.VANGUARD_SECOND if _has_vanguard(state, state.second_player) \
        else Phase.INITIATIVE


#: EnterReserve: Paratroopers and Heroes held off the map (rulings 21-23,
#: game.rules.families.reserves)
#: LaySmoke: Smoke Screen's declaration (ruling 30, game.rules.families.smoke)
_UNIT_MOVEMENT = (Move, Board, Dismount, EnterReserve, LaySmoke, EndPhase)
_UNIT_ASSAULT = (Move, Attack, DemolishBridge, EndPhase)


def _const(p: Phase) -> Callable[[GameState], Phase]:
    return lambda state: p


PHASES: dict[Phase, PhaseSpec] = {s.phase: s for s in (
    PhaseSpec(Phase.SETUP_ORDER, "chooser", (ChooseOrder,), _const(Phase.SETUP_END),
              auto=_coin_flip),
    PhaseSpec(Phase.SETUP_END, "defender", (ChooseEnd,),
              lambda st: Phase.SETUP_OBJECTIVE if st.scenario == "assault"
              else Phase.DEPLOY_FIRST),
    PhaseSpec(Phase.SETUP_OBJECTIVE, "defender", (ChooseObjective,),
              _const(Phase.DEPLOY_FIRST)),
    PhaseSpec(Phase.DEPLOY_FIRST, "first", (Deploy, Undeploy, EndPhase),
              _const(Phase.DEPLOY_SECOND)),
    PhaseSpec(Phase.DEPLOY_SECOND, "second", (Deploy, Undeploy, EndPhase),
              _after_deployment, on_leave=_first_turn),
    PhaseSpec(Phase.VANGUARD_FIRST, "first", (Move, EndPhase), _after_first_vanguard),
    PhaseSpec(Phase.VANGUARD_SECOND, "second", (Move, EndPhase), _const(Phase.INITIATIVE)),
    PhaseSpec(Phase.INITIATIVE, "dice", (ChooseOrder,), _const(Phase.MOVEMENT_FIRST),
              auto=_initiative),
    PhaseSpec(Phase.MOVEMENT_FIRST, "first", _UNIT_MOVEMENT, _const(Phase.MOVEMENT_SECOND)),
    PhaseSpec(Phase.MOVEMENT_SECOND, "second", _UNIT_MOVEMENT, _const(Phase.ASSAULT_FIRST)),
    PhaseSpec(Phase.ASSAULT_FIRST, "first", _UNIT_ASSAULT, _const(Phase.ASSAULT_SECOND)),
    PhaseSpec(Phase.ASSAULT_SECOND, "second", _UNIT_ASSAULT, _const(Phase.CASUALTY)),
    PhaseSpec(Phase.CASUALTY, "dice", (), _const(Phase.END_OF_TURN), auto=_casualty),
    PhaseSpec(Phase.END_OF_TURN, "dice", (), _const(Phase.INITIATIVE), auto=_end_of_turn),
    PhaseSpec(Phase.GAME_OVER, "nobody", (), None),
)}

#: edition -> its phase table; the later edition adds its own (game.rules.later.phases)
TABLES: dict[str, dict[Phase, PhaseSpec]] = {"first": PHASES}


def table(state: GameState) -> dict[Phase, PhaseSpec]:
    """The phase table of the edition ``state`` plays."""
    ed = state.options.get("edition") if state.options else None
    return PHASES if ed is None or ed == "first" else TABLES[ed]


#: decision type -> the action kinds that answer it
ANSWERS: dict[type, tuple[type[Action], ...]] = {
    OrderChoice: (ChooseOrder,),
    DefensiveFirePrompt: (DefensiveFire, PassDefensiveFire),
    DismountPlacement: (PlaceDismounted,),
    FacingChoice: (Face,),
    AntiairPrompt: (DefensiveFire, PassDefensiveFire),     # later edition, ruling L4
}


def waiting_for(state: GameState, p: object) -> str:
    """Why another action can't be taken while the decision ``p`` is pending."""
    if isinstance(p, OrderChoice):
        return f"{side_player(p.side, capital=False)} must first choose to go first or second ({p.reason})"
    if isinstance(p, (DefensiveFirePrompt, AntiairPrompt)):
        return "answer the defensive-fire offer first (fire or hold)"
    if isinstance(p, DismountPlacement):
        return "choose where the dismounting Soldier goes first"
    if isinstance(p, FacingChoice):
        return f"choose where {state.units[p.uid].name} faces first"
    return "a decision is pending"


def spec(phase: Phase, state: GameState | None = None) -> PhaseSpec:
    """The row of ``phase`` (in the table of ``state``'s edition when given; phases only
    one edition has are found in its table)."""
    if state is not None:
        return table(state)[phase]
    got = PHASES.get(phase)
    if got is None:
        for t in TABLES.values():
            if phase in t:
                return t[phase]
        raise KeyError(phase)
    return got


def next_phase(state: GameState) -> Phase:
    nxt = table(state)[state.phase].next
    if nxt is None:
        raise ValueError(f"nothing comes after {state.phase.value}")
    return nxt(state)


def enter(game: "Game", phase: Phase) -> list[Event]:
    """Begin ``phase``: activations and the road bonus reset, ``PhaseBegan``, the
    phase's own on-enter step and the ``phase_begin`` ability hooks."""
    st = game.state
    st.phase = phase
    st.road_bonus_used = frozenset()
    for u in st.units.values():
        u.acted = False
        u.fired_defensively = False
    sp = table(st)[phase]
    side = st.to_act if sp.actor != "dice" else None
    ev: list[Event] = [PhaseBegan(phase.value, st.turn, side)]
    if sp.on_enter is not None:
        ev += sp.on_enter(game)
    if abilities.has_hooks("phase_begin"):
        ev = list(abilities.apply("phase_begin", ev, state=st, phase=phase, dice=game.dice,
                                  game=game))
    return ev


def end_phase(game: "Game") -> list[Event]:
    """Leave the current phase for the one the table says comes next."""
    st = game.state
    sp = table(st)[st.phase]
    nxt = next_phase(st)
    ev: list[Event] = []
    if abilities.has_hooks("phase_end"):
        ev = list(abilities.apply("phase_end", ev, state=st, phase=st.phase, dice=game.dice,
                                  game=game))
    if sp.on_leave is not None:
        sp.on_leave(st)
    return ev + enter(game, nxt)


def advance(game: "Game") -> list[Event]:
    """Run the automatic steps (coin flip, initiative, casualty phase, end of turn)
    until a player must act."""
    st = game.state
    ev: list[Event] = []
    for _ in range(1000):
        if st.pending is not None or st.phase == Phase.GAME_OVER:
            break
        auto = table(st)[st.phase].auto
        if auto is None:
            break
        ev += auto(game)
    return ev
