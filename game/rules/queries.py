"""Questions a client (the battle screen, the AI, a test) asks the rules.

Pure and headless: everything here is answered from the public ``Game`` API
(``legal_actions``, ``check``, ``odds``, ``copy``, ``apply``) and the state.
Nothing here is a new rule; it only gathers what the rules already say into
the shape a screen needs, so that no client has to work a rule out itself.

- :func:`defensive_fire_options` - per eligible defender and per stage (fire
  here / fire at the next hex): legal or the rules' reason, and the exact odds
  when (and only when) the rules say the shot is legal.
- :func:`unit_options` - what a unit may still do this phase, extra actions
  from abilities included (exactly what ``legal_actions`` holds for it), with a
  summary line a player can read.
- :func:`unit_speed` - how far a unit moves in the phase under way, abilities
  included (a Vanguard move before turn 1, Tally Ho, a damaged Vehicle's -1...).
- :func:`plain_text` - a rules message without its ruling reference, for the
  player (the reference stays in the original text for tests and docs).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from . import abilities, activation, combat, movement
from .actions import (Action, Attack, DefensiveFire, EndPhase, Move, PassDefensiveFire)
from .hexes import Hex, hex_label
from .movement import move_problem
from .state import DefensiveFirePrompt

__all__ = ["StageOption", "DefenderOptions", "UnitOptions", "defensive_fire_options",
           "unit_options", "unit_speed", "plain_text", "EXTRA_ACTION_ABILITIES", "roll_chance", "reach_chance"]

#: abilities that give a unit more actions within one activation (rulebook cards)
EXTRA_ACTION_ABILITIES = ("double_shot", "all_guns_blazing", "additional_hull_mounted_cannon",
                          "strike_and_fade", "overrun", "no_turret")

_RULING = re.compile(r"\s*\((?:see )?rulings? [0-9][^)]*\)|;?\s*rulings? [0-9]+(?:[:,][^;.)]*)?",
                     re.IGNORECASE)


_UID_PAREN = re.compile(r"\s*\((?:axis|allies)-\d+\)", re.IGNORECASE)
_UID = re.compile(r"'?\b(?:axis|allies)-\d+\b'?", re.IGNORECASE)


def plain_text(text: str | None) -> str:
    """``text`` without ruling references ("(ruling 7: one activation per phase)",
    "ruling 14") and internal unit ids ("axis-7"): what a player reads.  The original keeps them for tests and docs."""
    if not text:
        return ""
    out = _RULING.sub("", text)
    out = _UID_PAREN.sub("", out)
    out = _UID.sub("", out)
    out = re.sub(r"\(\s*\)", "", out)
    out = re.sub(r"\s{2,}", " ", out).strip()
    return out.replace(" .", ".").replace(" ,", ",")


# --- defensive fire ----------------------------------------------------------------------
@dataclass(frozen=True)
class StageOption:
    """One way one defender may answer the prompt."""

    key: str                   # "here" (this stage) or "next" (the enter stage of this step)
    stage: str                 # "leave" | "enter"
    at_hex: Hex                # where the mover is when the shot is taken
    legal: bool
    reason: str | None         # the rules' reason when not legal (player-readable)
    odds: Any | None           # game.rules.odds.Odds when legal, else None
    action: Action             # what to send now: DefensiveFire (here) / PassDefensiveFire (next)

    @property
    def p_stopped(self) -> float | None:
        return None if self.odds is None else self.odds.p_stopped


@dataclass(frozen=True)
class DefenderOptions:
    uid: str
    name: str
    here: StageOption
    next: StageOption | None    # None at the enter stage (there is no later stage)

    @property
    def stages(self) -> tuple[StageOption, ...]:
        return (self.here,) if self.next is None else (self.here, self.next)


def _enter_stage(game: Any, p: DefensiveFirePrompt) -> tuple[DefensiveFirePrompt | None, Any]:
    """The enter-stage prompt the rules would offer for this step if the defender
    held fire now (played on a copy; no dice are rolled between the two stages)."""
    sim = game.copy()
    sim.apply(PassDefensiveFire(sim.state.to_act))
    q = sim.state.pending
    if isinstance(q, DefensiveFirePrompt) and q.stage == "enter" and q.mover == p.mover \
            and q.from_hex == p.from_hex and q.to_hex == p.to_hex:
        return q, sim
    return None, sim


def defensive_fire_options(game: Any) -> list[DefenderOptions]:
    """Per eligible defender (in the prompt's order): firing at this stage and, at
    the leave stage, firing at the next hex instead (after holding fire now).

    The odds are computed only for shots the rules list as legal: the current
    stage's from ``legal_actions``, the next stage's from the prompt the rules
    offer on a copy of the game once this stage is passed.  Empty when no
    defensive-fire decision is pending."""
    st = game.state
    p = st.pending
    if not isinstance(p, DefensiveFirePrompt):
        return []
    side = st.to_act
    legal = set(game.legal_actions())
    mover = st.units[p.mover]
    nxt_prompt, sim = (None, None)
    if p.stage == "leave":
        nxt_prompt, sim = _enter_stage(game, p)
    out: list[DefenderOptions] = []
    for uid in p.eligible:
        u = st.units[uid]
        act = DefensiveFire(side, uid)
        if act in legal:
            here = StageOption("here", p.stage, p.at_hex, True, None,
                               game.odds(uid, p.mover, defensive=True, at_hex=p.at_hex), act)
        else:
            here = StageOption("here", p.stage, p.at_hex, False,
                               plain_text(game.check(act)) or f"{u.name} can't fire now",
                               None, act)
        nxt = None
        if p.stage == "leave":
            wait = PassDefensiveFire(side)
            if sim is not None and nxt_prompt is not None and uid in nxt_prompt.eligible and \
                    sim.check(DefensiveFire(side, uid)) is None:
                nxt = StageOption("next", "enter", p.to_hex, True, None,
                                  sim.odds(uid, p.mover, defensive=True, at_hex=p.to_hex), wait)
            else:
                why = combat.why_not_attack(st, uid, p.mover, defensive=True, at_hex=p.to_hex)
                if why is None:
                    why = f"{u.name} can't fire at {mover.name} in {hex_label(p.to_hex)}"
                nxt = StageOption("next", "enter", p.to_hex, False, plain_text(why), None, wait)
        out.append(DefenderOptions(uid, u.name, here, nxt))
    return out


# --- movement rolls -----------------------------------------------------------------------
def roll_chance(need: int) -> float:
    """The chance one die meets ``need`` (a movement roll "needs 4+")."""
    return max(0, min(6, 7 - int(need))) / 6.0


def reach_chance(reach: Any) -> tuple[list[float], float]:
    """Each movement roll's chance on a ``movement.Reach``'s path, and the chance to
    make them all (they are independent dice)."""
    each = [roll_chance(r.need) for r in reach.rolls]
    total = 1.0
    for p in each:
        total *= p
    return each, total


# --- where a unit may move ----------------------------------------------------------------
def reach_problem(game: Any, uid: str, hex: Hex) -> str:
    """Why ``uid`` can't move to ``hex`` now, in the rules' words ("" when a listed move
    goes there): what the battle screen says for a hex it doesn't shade."""
    st = game.state
    u = st.units[uid]
    moves = [a for a in game.legal_actions() if isinstance(a, Move) and a.uid == uid]
    if any(a.path and a.path[-1] == hex for a in moves):
        return ""
    # with a move open (an extra move of its activation, Strike and Fade, included)
    # only where it goes is in question
    why = (None if moves else activation.problem(st, u)) or \
        movement.why_not_reach(st, uid, hex)
    if why:
        return why
    # the search reaches the hex but no move there is listed (after a Paratrooper drop
    # ends the phase, ruling 22...): the move's own check says why
    r = movement.reachable(st, uid).get(hex)
    probe = Move(u.side, uid, r.path if r is not None else (hex,),
                 u.facing if u.is_vehicle else None)
    return str(game.check(probe) or f"{u.name} can't move to {hex_label(hex)} now")


# --- sight an attack doesn't need -----------------------------------------------------------
def sight_note(game: Any, attacker_uid: str, target_uid: str) -> str:
    """Why an attack needs no line of sight of the attacker's own, in words ("" when the
    attacker sees the target or shares its hex): an Aircraft (ruling L2), or the ability
    that lets it fire blind (Indirect Fire names the Spotter that sees the target)."""
    st = game.state
    a, t = st.units[attacker_uid], st.units[target_uid]
    if a.hex is None or t.hex is None or a.hex == t.hex or t.hex in game.visible_from(a.hex):
        return ""
    if a.card.is_aircraft or t.card.is_aircraft:
        return "Line of sight to and from an Aircraft is never blocked."
    lifting = abilities.abilities_at("line_of_sight", a.card)
    if not lifting:
        return ""
    names = [ab.name or ab.id.replace("_", " ").title() for ab in lifting]
    seen_by = ""
    if any("indirect_fire" in ab.id for ab in lifting):     # fires over a Spotter
        from .abilities.roster_spotting import spotter_for
        spotter = spotter_for(st, a.side, t.hex)
        if spotter is not None and spotter is not a:
            seen_by = f": {spotter.name} sees {t.name}"
    return f"No line of sight of its own - {', '.join(names)}{seen_by}."


# --- what a unit may still do -------------------------------------------------------------
@dataclass(frozen=True)
class UnitOptions:
    """Everything ``legal_actions`` holds for one unit now, sorted by kind."""

    uid: str
    name: str
    mine: bool                         # the unit belongs to the side to act
    acted: bool                        # it has used its activation (extra actions may remain)
    moves: dict[Hex, Move] = field(default_factory=dict)   # one Move per hex it may end in
    turns: tuple[Move, ...] = ()       # Move(path=()) turning in place, one per facing
    attacks: tuple[Attack, ...] = ()   # Attack actions (every target and mode)
    others: tuple[Action, ...] = ()    # Board, Dismount, DemolishBridge...
    extra: bool = False                # these are extra actions of an ability
    ability: str | None = None         # the ability's printed name when ``extra``
    reason: str | None = None          # why it can do nothing now (player-readable)
    summary: str = ""
    reach: dict[Hex, movement.Reach] = field(default_factory=dict)   # for its moves


    @property
    def actions(self) -> tuple[Action, ...]:
        return tuple(self.moves.values()) + self.turns + self.attacks + self.others

    @property
    def any(self) -> bool:
        return bool(self.moves or self.turns or self.attacks or self.others)

    @property
    def targets(self) -> frozenset[str]:
        return frozenset(a.target for a in self.attacks)


def _extra_ability(card: Any, kinds: set[str]) -> str | None:
    names = []
    for aid in EXTRA_ACTION_ABILITIES:
        ab = card.ability(aid)
        if ab is None:
            continue
        if aid == "strike_and_fade" and "move" not in kinds:
            continue
        if aid != "strike_and_fade" and "attack" not in kinds and aid != "no_turret":
            continue
        names.append(ab.name or aid.replace("_", " ").title())
    return " / ".join(names) or None


def unit_speed(state: Any, uid: str) -> int:
    """The speed ``uid`` moves at in the phase under way: the printed speed, -1 for a
    damaged Vehicle, then every ability that changes it (the rules' own
    :func:`game.rules.movement.movement_speed`, which the movement search uses).
    Asked with the state, so a panel that draws from the state alone can ask it."""
    return movement.movement_speed(state, state.units[uid])


def unit_options(game: Any, uid: str, legal: list[Action] | None = None) -> UnitOptions:
    """What ``uid`` may still do now, exactly as ``game.legal_actions()`` lists it
    (pass ``legal`` to reuse a list already asked for)."""
    st = game.state
    u = st.units[uid]
    side = st.to_act
    mine = u.side == side and st.pending is None
    acts = [a for a in (game.legal_actions() if legal is None else legal)
            if getattr(a, "uid", None) == uid and not isinstance(a, EndPhase)] if mine else []
    moves: dict[Hex, Move] = {}
    turns, attacks, others = [], [], []
    for a in acts:
        if isinstance(a, Move):
            if a.path:
                moves.setdefault(a.path[-1], a)
            else:
                turns.append(a)
        elif isinstance(a, Attack):
            attacks.append(a)
        else:
            others.append(a)
    kinds = set()
    if moves or turns:
        kinds.add("move")
    if attacks:
        kinds.add("attack")
    extra = bool(u.acted and acts)
    ability = _extra_ability(u.card, kinds) if extra else None
    reason = None
    name = u.name
    if not mine:
        summary = f"{name}: not yours to act with now"
    elif extra:
        what = " or ".join(w for w, k in (("attack", "attack"), ("move", "move")) if k in kinds)
        how = []
        if "attack" in kinds:
            how.append("click a ringed enemy")
        if "move" in kinds:
            how.append("click a shaded hex")
        label = f" ({ability})" if ability else ""
        summary = (f"{name}: one more {what or 'action'}{label}: {' or '.join(how) or 'use a button'},"
                   f" or pick another unit to skip it.")
    elif acts:
        how = []
        if attacks:
            how.append("click a ringed enemy to attack (hover for the odds)")
        if moves:
            how.append("click a shaded hex to move (hover for the path and rolls)")
        if turns and not moves:
            how.append("turn in place (T)")
        if others and not how:
            how.append("use a button below")
        summary = f"{name}: " + ", or ".join(how) + "."
    else:
        if u.acted:
            reason = f"{name} has acted this phase"
        elif not u.on_map:
            reason = f"{name} is not on the battle map"
        else:
            reason = plain_text(move_problem(st, u)) if st.phase.is_movement else None
            if reason is None and st.phase.is_movement:
                reason = f"{name} has nowhere to move"
            if reason is None and st.phase.is_assault:
                reason = f"{name} has no enemy it can attack from here and nowhere to move"
            if reason is None:
                reason = f"{name} can't act now"
        summary = f"{reason}. Pick another unit or end the phase."
    reach: dict[Hex, movement.Reach] = {}
    if moves:
        full = movement.reachable(st, uid) if u.acted else game.reachable(uid)
        reach = {h: r for h, r in full.items() if h in moves or not r.stops}
    return UnitOptions(uid, name, mine, u.acted, moves, tuple(turns), tuple(attacks),
                       tuple(others), extra, ability, reason, summary, reach)
