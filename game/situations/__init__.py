"""Situation files: rules tests anyone can write (issue 4; format: docs/situations.md).

A situation sets up a position directly (map, units with their counters, turn,
phase, first player, the dice that will come up), applies a list of actions
through the real engine (:class:`game.rules.engine.Game`) and checks what
happened: unit status and positions, events, refusals with their reason,
line of sight, whether an attack is allowed, exact odds.

This module is pure: it holds the parsed form (:class:`Situation` and friends)
and the runner.  Reading YAML is ``game.data.situations.load_situation``.

Run files from the command line::

    python -m game.situations tests/situations/*.yaml

It prints one line per file and exits with status 1 at the first mismatch,
after a readable diff (expected / got, and the events of the failing step).
"""
from __future__ import annotations

import sys
from dataclasses import dataclass, field, replace
from typing import Any, Sequence

from game.rules.actions import Action, describe_action
from game.rules.board import BattleMap
from game.rules.cards import UnitCard
from game.rules.combat import why_not_attack
from game.rules.dice import Dice, DiceExhausted, LoadedDice
from game.rules.engine import Game
from game.rules.errors import IllegalAction, MalformedAction
from game.rules.events import Event
from game.rules.hexes import DIRECTION_NAMES, Hex, hex_label
from game.rules.odds import attack_odds
from game.rules.state import GameState, Phase

__all__ = ["TO_ACT", "UnitSpec", "EventSpec", "AttackCheck", "OddsCheck", "Expect", "Step", "Situation",
           "build_game", "run_situation", "SituationResult", "main", "UNIT_FIELDS", "ODDS_FIELDS",
           "Advance", "ArmyCheck", "check_army"]

#: the side of an action written without one (hold_fire, end_phase): the side to act
#: when the step runs
TO_ACT = "?"
#: unit fields an expectation may check
UNIT_FIELDS = ("hex", "facing", "disrupted", "damaged", "pending", "destroyed", "on_map",
               "carrier", "acted", "fired_defensively")
#: odds fields an expectation may check
ODDS_FIELDS = ("p_none", "p_disrupted", "p_damaged", "p_destroyed", "p_stopped", "dice",
               "need", "defense", "cover_need", "front", "band", "distance")


@dataclass(frozen=True)
class Advance(Action):
    """A situation step that runs the automatic steps (initiative, casualty phase, end
    of turn...) from the position - not an action of the rules."""


@dataclass
class ArmyCheck:
    """An army-validation step (game.rules.army): the army and what is expected."""

    side: str
    cards: list[UnitCard]
    scenario: str = "standard"
    role: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    legal: bool | None = None
    problems: list[str] = field(default_factory=list)   # substrings, each in some problem
    points: int | None = None


@dataclass
class UnitSpec:
    uid: str
    card: UnitCard
    side: str
    hex: Hex | None
    facing: int = 0
    disrupted: bool = False
    damaged: bool = False
    pending: list[str] = field(default_factory=list)
    carrier: str | None = None
    acted: bool = False
    fired_defensively: bool = False


@dataclass
class EventSpec:
    """One expected event: its ``kind`` (class name, or None for any), field values,
    and/or a substring of its log ``text``."""

    kind: str | None
    fields: dict[str, Any] = field(default_factory=dict)
    text: str | None = None

    def matches(self, ev: Event) -> bool:
        if self.kind is not None and ev.kind != self.kind:
            return False
        if self.text is not None and self.text.lower() not in ev.text.lower():
            return False
        for k, want in self.fields.items():
            if not hasattr(ev, k) or not _same(getattr(ev, k), want):
                return False
        return True

    def show(self) -> str:
        parts = [self.kind or "any event"]
        if self.fields:
            parts.append("{" + ", ".join(f"{k}: {_fmt(v)}" for k, v in self.fields.items()) + "}")
        if self.text:
            parts.append(f"with text containing {self.text!r}")
        return " ".join(parts)


@dataclass
class AttackCheck:
    attacker: str
    target: str
    allowed: bool
    reason: str | None = None         # substring of the refusal reason
    mode: str = "normal"
    defensive: bool = False


@dataclass
class OddsCheck:
    attacker: str
    target: str
    values: dict[str, Any]
    mode: str = "normal"
    defensive: bool = False
    at_hex: Hex | None = None
    facing: int | None = None
    tolerance: float = 1e-9


@dataclass
class Expect:
    units: dict[str, dict[str, Any]] = field(default_factory=dict)
    events: list[EventSpec] = field(default_factory=list)      # in this order (subsequence)
    no_events: list[EventSpec] = field(default_factory=list)   # none of these happened
    phase: Phase | None = None
    turn: int | None = None
    to_act: str | None = None
    pending: str | None = None                 # decision class name, or "none"
    winner: str | None = None                  # a side, or "none" for a game still going
    dice_left: int | None = None
    sees: list[tuple[str, str, bool]] = field(default_factory=list)
    attacks: list[AttackCheck] = field(default_factory=list)
    odds: list[OddsCheck] = field(default_factory=list)
    los: list[tuple[Hex, Hex, bool]] = field(default_factory=list)   # between two hexes


@dataclass
class Step:
    action: Action
    refused: str | None = None                 # the action must be refused with this text
    expect: Expect | None = None
    line: int | None = None


@dataclass
class Situation:
    name: str
    file: str
    battle_map: BattleMap
    units: list[UnitSpec]
    steps: list[Step] = field(default_factory=list)
    expect: Expect | None = None
    rule: str = ""
    scenario: str = "standard"
    turn: int = 1
    phase: Phase = Phase.ASSAULT_FIRST
    first_player: str = "Axis"
    dice: list[int] | None = None               # loaded dice; None = seeded dice
    seed: int = 0
    options: dict[str, Any] = field(default_factory=dict)
    army: ArmyCheck | None = None               # an army-validation situation


@dataclass
class SituationResult:
    situation: Situation
    problems: list[str]
    events: list[Event]

    @property
    def ok(self) -> bool:
        return not self.problems


# --- building and running --------------------------------------------------------------------
def build_game(sit: Situation) -> Game:
    """The position a situation describes, as a :class:`Game` ready for its actions."""
    st = GameState.blank(sit.battle_map, sit.scenario, phase=sit.phase, turn=sit.turn,
                         first_player=sit.first_player, options=sit.options)
    dice: Dice = LoadedDice(sit.dice) if sit.dice is not None else Dice(sit.seed)
    game = Game(st, dice)
    carried = [u for u in sit.units if u.carrier is not None]
    for u in [u for u in sit.units if u.carrier is None] + carried:
        game.add_unit(u.card, u.side, u.hex, u.facing, uid=u.uid, disrupted=u.disrupted,
                      damaged=u.damaged, pending=list(u.pending), carrier=u.carrier,
                      acted=u.acted, fired_defensively=u.fired_defensively)
    # keep the file's unit order (add_unit put carried Soldiers last)
    st.units = {u.uid: st.units[u.uid] for u in sit.units}
    return game


def run_situation(sit: Situation) -> SituationResult:
    """Apply the steps and check every expectation; stops at the first failing step."""
    if sit.army is not None:
        return SituationResult(sit, check_army(sit.army), [])
    game = build_game(sit)
    all_events: list[Event] = []
    for i, step in enumerate(sit.steps, 1):
        action = step.action
        if action.side == TO_ACT:
            action = replace(action, side=game.state.to_act or "Axis")
        where = f"step {i}" + (f" (line {step.line})" if step.line else "") + \
            f": {_describe(game, action)}"
        try:
            events = game.advance() if isinstance(action, Advance) else game.apply(action)
        except IllegalAction as exc:
            if step.refused is not None:
                if step.refused.lower() not in exc.reason.lower():
                    return SituationResult(sit, [
                        f"{where}\n  refused as expected, but the reason differs\n"
                        f"    expected a reason containing: {step.refused!r}\n"
                        f"    got:                          {exc.reason!r}"], all_events)
                if step.expect is not None:
                    problems = check_expect(game, step.expect, [])
                    if problems:
                        return SituationResult(sit, [_block(where, problems, [])], all_events)
                continue
            return SituationResult(sit, [f"{where}\n  the rules refused it: {exc.reason}"],
                                   all_events)
        except MalformedAction as exc:
            return SituationResult(sit, [f"{where}\n  malformed action: {exc}"], all_events)
        except DiceExhausted:
            return SituationResult(sit, [
                f"{where}\n  the loaded dice ran out (the file lists {len(sit.dice or [])}); "
                f"add the dice this step rolls"], all_events)
        all_events.extend(events)
        if step.refused is not None:
            return SituationResult(sit, [
                f"{where}\n  expected a refusal containing {step.refused!r}, but it was "
                f"allowed", *_event_lines(events)], all_events)
        if step.expect is not None:
            problems = check_expect(game, step.expect, events)
            if problems:
                return SituationResult(sit, [_block(where, problems, events)], all_events)
    if sit.expect is not None:
        problems = check_expect(game, sit.expect, all_events)
        if problems:
            return SituationResult(sit, [_block("final expectations", problems, all_events)],
                                   all_events)
    return SituationResult(sit, [], all_events)


def check_army(chk: ArmyCheck) -> list[str]:
    """Mismatches between an army's validation (game.rules.army) and the expectation."""
    from game.rules.army import Army, army_points, limits_for, validate_army
    army = Army("situation army", chk.side, list(chk.cards))
    got = validate_army(army, **limits_for(chk.scenario, chk.role, chk.options))
    out: list[str] = []
    if chk.legal is not None and (not got) != chk.legal:
        out.append(f"army: expected {'legal' if chk.legal else 'refused'}, got "
                   + ("legal" if not got else "refused: " + "; ".join(got)))
    for want in chk.problems:
        if not any(want.lower() in p.lower() for p in got):
            out.append(f"army: no problem contains {want!r} (problems: "
                       f"{'; '.join(got) or 'none'})")
    pts = army_points(army.cards)
    if chk.points is not None and pts != chk.points:
        out.append(f"army points: expected {chk.points}, got {pts}")
    return out


def check_expect(game: Game, exp: Expect, events: list[Event]) -> list[str]:
    """Every mismatch between ``exp`` and the game (``events``: those to search)."""
    st = game.state
    out: list[str] = []
    for uid, want in exp.units.items():
        u = st.units.get(uid)
        if u is None:
            out.append(f"unit {uid}: no such unit")
            continue
        for key, value in want.items():
            got = getattr(u, key)
            if key == "pending":
                got = list(got)
            if not _same(got, value):
                out.append(f"unit {uid} {key}: expected {_fmt(value, key)}, got {_fmt(got, key)}")
    pos = 0
    for spec in exp.events:
        found = next((j for j in range(pos, len(events)) if spec.matches(events[j])), None)
        if found is None:
            earlier = any(spec.matches(e) for e in events[:pos])
            out.append(f"event not found{' after the previous expected one' if earlier else ''}"
                       f": {spec.show()}")
        else:
            pos = found + 1
    for spec in exp.no_events:
        hit = [e for e in events if spec.matches(e)]
        if hit:
            out.append(f"unexpected event: {hit[0].kind}: {hit[0].text}")
    if exp.phase is not None and st.phase != exp.phase:
        out.append(f"phase: expected {exp.phase.value}, got {st.phase.value}")
    if exp.turn is not None and st.turn != exp.turn:
        out.append(f"turn: expected {exp.turn}, got {st.turn}")
    if exp.to_act is not None and str(st.to_act) != exp.to_act:
        out.append(f"to act: expected {exp.to_act}, got {st.to_act}")
    if exp.pending is not None:
        got = type(st.pending).__name__ if st.pending is not None else "none"
        if got.lower() != exp.pending.lower():
            out.append(f"pending decision: expected {exp.pending}, got {got}")
    if exp.winner is not None:
        got = "none" if st.outcome is None else str(st.outcome.winner)
        if got.lower() != exp.winner.lower():
            out.append(f"winner: expected {exp.winner}, got {got}")
    if exp.dice_left is not None:
        left = getattr(game.dice, "remaining", None)
        if left != exp.dice_left:
            out.append(f"dice left: expected {exp.dice_left}, got {left}")
    for a, b, want_clear in exp.sees:
        ha, hb = st.units[a].hex, st.units[b].hex
        clear = ha is not None and hb is not None and st.battle_map.can_see(ha, hb)
        if clear != want_clear:
            blk = st.battle_map.los.blocker(ha, hb) if ha and hb else None
            why = f" (blocked by {hex_label(blk)})" if blk else ""
            out.append(f"line of sight {a} -> {b}: expected "
                       f"{'clear' if want_clear else 'blocked'}, "
                       f"got {'clear' if clear else 'blocked'}{why}")
    for la, lb, want_clear in exp.los:
        clear = st.battle_map.can_see(la, lb)
        if clear != want_clear:
            blk = st.battle_map.los.blocker(la, lb)
            why = f" (blocked by {hex_label(blk)})" if blk else ""
            out.append(f"line of sight {hex_label(la)} -> {hex_label(lb)}: expected "
                       f"{'clear' if want_clear else 'blocked'}, got "
                       f"{'clear' if clear else 'blocked'}{why}")
    for ack in exp.attacks:
        reason = why_not_attack(st, ack.attacker, ack.target, mode=ack.mode,
                                defensive=ack.defensive)
        if ack.allowed and reason is not None:
            out.append(f"attack {ack.attacker} -> {ack.target}: expected allowed, refused: "
                       f"{reason}")
        elif not ack.allowed and reason is None:
            out.append(f"attack {ack.attacker} -> {ack.target}: expected refused, but allowed")
        elif (not ack.allowed and reason is not None and ack.reason
              and ack.reason.lower() not in reason.lower()):
            out.append(f"attack {ack.attacker} -> {ack.target}: expected a reason containing "
                       f"{ack.reason!r}, got {reason!r}")
    for chk in exp.odds:
        try:
            o = attack_odds(st, chk.attacker, chk.target, mode=chk.mode,
                            defensive=chk.defensive, at_hex=chk.at_hex, facing=chk.facing)
        except IllegalAction as exc:
            out.append(f"odds {chk.attacker} -> {chk.target}: the attack is refused: "
                       f"{exc.reason}")
            continue
        for key, want in chk.values.items():
            got = getattr(o, key)
            if isinstance(want, float) and isinstance(got, float):
                ok = abs(got - want) <= chk.tolerance
            else:
                ok = _same(got, want)
            if not ok:
                out.append(f"odds {chk.attacker} -> {chk.target} {key}: expected "
                           f"{_fmt(want)}, got {_fmt(got)}")
    return out


# --- formatting ------------------------------------------------------------------------------
def _same(got: Any, want: Any) -> bool:
    if isinstance(got, Hex) or isinstance(want, Hex):
        return bool(got == want)
    if isinstance(got, (list, tuple)) and isinstance(want, (list, tuple)):
        return len(got) == len(want) and all(_same(a, b) for a, b in zip(got, want))
    if isinstance(got, bool) or isinstance(want, bool):
        return bool(got is want or got == want and type(got) is type(want))
    return bool(got == want)


def _fmt(v: Any, key: str = "") -> str:
    if isinstance(v, Hex):
        return hex_label(v)
    if key == "facing" and isinstance(v, int):
        return f"{DIRECTION_NAMES[v % 6]} ({v})"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_fmt(x) for x in v) + "]"
    if isinstance(v, float):
        return f"{v:.6f}"
    if v is None:
        return "none"
    return str(v)


def _describe(game: Game, action: Action) -> str:  # noqa: ARG001
    return f"{action.side}, {describe_action(action)}"


def _event_lines(events: list[Event]) -> list[str]:
    return [f"    {e.kind}: {e.text}" for e in events]


def _block(where: str, problems: list[str], events: list[Event]) -> str:
    lines = [where] + [f"  - {p}" for p in problems]
    if events:
        lines.append("  events of this step:" if where.startswith("step") else "  all events:")
        lines += _event_lines(events)
    return "\n".join(lines)


# --- command line ----------------------------------------------------------------------------
def main(argv: Sequence[str] | None = None) -> int:
    """``python -m game.situations FILE...``: run each file; 1 at the first mismatch."""
    from game.data.situations import load_situation      # reading files is game.data's job
    from game.rules.errors import DataError

    args = list(sys.argv[1:] if argv is None else argv)
    quiet = "-q" in args
    files = [a for a in args if a != "-q"]
    if not files or any(a in ("-h", "--help") for a in files):
        print("usage: python -m game.situations [-q] FILE.yaml...\n"
              "Runs situation files (docs/situations.md); exits 1 at the first mismatch.")
        return 0 if files else 2
    for path in files:
        try:
            sit = load_situation(path)
        except DataError as exc:
            print(f"ERROR {path}\n{exc.report()}")
            return 1
        result = run_situation(sit)
        if not result.ok:
            print(f"FAIL {path}: {sit.name}")
            for p in result.problems:
                print(p)
            return 1
        if not quiet:
            print(f"ok   {path}: {sit.name}")
    if quiet:
        print(f"{len(files)} situation(s) ok")
    return 0
