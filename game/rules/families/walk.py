"""A move in progress (``state.moving``), hex by hex: movement rolls (ruling 15),
defensive fire at each step's leave and enter stages (ruling 14; rulebook: Provoking
Defensive Fire, Multiple Defensive Fire), stops, and ruling 6's put-back.  Shared by
the Move rule (family ``moving``) and the defensive-fire rules (family
``defensive_fire``)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import abilities, combat, movement
from ..events import DefensiveFireOffered, Event, MovementRoll, UnitMoved, UnitPutBack, UnitStopped
from ..hexes import Hex, direction_between, hex_label
from ..state import DefensiveFirePrompt, FacingChoice, GameState, Unit, other_side

if TYPE_CHECKING:
    from ..engine import Game

__all__ = ["continue_move", "end_move", "place", "eligible", "offer"]


def place(game: "Game", u: Unit, h: Hex) -> None:
    u.hex = h
    for p in game.state.passengers(u.uid):
        p.hex = h


_ENTERED = ("entered_hex",)

_ROLL_WORDS = {"stream": "cross the stream", "hedge": "cross the hedge",
               "cliff": "climb the cliff"}


def eligible(game: "Game", mover: Unit, a: Hex, b: Hex, stage: str,
             foes: list[Unit] | None = None) -> tuple[str, ...]:
    """Units that may fire defensively at ``mover`` stepping from ``a`` to ``b`` at
    this stage (rulebook: Provoking Defensive Fire; ruling 14).  ``foes``: the units
    of the other side in state order (:func:`_foes`; a move asks at every step)."""
    st = game.state
    at = a if stage == "leave" else b
    out = []
    side = mover.side
    aq, ar = a
    bq, br = b
    aboard_hooked = abilities.has_hooks("attack_from_aboard")
    provoke_hooked = abilities.has_hooks("provokes_defensive_fire")
    for e in (_foes(st, side) if foes is None else foes):
        eh = e.hex
        if eh is None or e.destroyed:                           # not on the map
            continue
        # Hex.distance(...) <= 1, written out (this loop runs at every step of every move):
        # the cube distance is the largest of |dq|, |dr|, |dq + dr|
        eq, er = eh
        dq, dr = eq - aq, er - ar
        near_a = -1 <= dq <= 1 and -1 <= dr <= 1 and -1 <= dq + dr <= 1
        dq, dr = eq - bq, er - br
        near_b = -1 <= dq <= 1 and -1 <= dr <= 1 and -1 <= dq + dr <= 1
        if not (near_a or near_b):
            continue
        # (the hooks asked below are pure: asking them only for the units near the step
        # gives the same answer as asking every enemy)
        if e.carrier is not None and not (
                aboard_hooked and abilities.apply(
                    "attack_from_aboard", False, state=st, attacker=e, target=mover,
                    carrier=st.units.get(e.carrier or ""), defensive=True) is True):
            continue
        # from one adjacent hex into another; Soldiers don't provoke Vehicles
        provokes = near_a and near_b and not (mover.is_soldier and e.is_vehicle)
        if provoke_hooked:
            # Overlapping Fire, Battlefield Awareness (issue 18)
            provokes = abilities.apply("provokes_defensive_fire", provokes, state=st,
                                       firer=e, mover=mover, from_hex=a, to_hex=b,
                                       stage=stage) is True
        if not provokes:
            continue
        if e.card.is_aircraft:      # ruling L7: Aircraft never fire at ground movers
            continue
        can = not e.disrupted and not e.fired_defensively
        can = abilities.apply("can_fire_defensively", can, state=st, unit=e, firer=e,
                              mover=mover, from_hex=a, to_hex=b, stage=stage)
        if can is not True:
            continue
        if combat.attack_allowed(st, e.uid, mover.uid, defensive=True, at_hex=at):
            out.append(e.uid)
    return tuple(out)


def _foes(st: GameState, side: str) -> list[Unit]:
    """The units not of ``side``, in state order (on the map or not: a move changes
    neither who they are nor their order, only, through an ability, whether they are
    destroyed, which :func:`eligible` checks)."""
    return [e for e in st.units.values() if e.side != side]


def offer(game: "Game", mover: Unit, a: Hex, b: Hex, stage: str,
          elig: tuple[str, ...]) -> list[Event]:
    st = game.state
    st.pending = DefensiveFirePrompt(mover.uid, a, b, stage, elig)
    at = a if stage == "leave" else b
    names = ", ".join(st.units[x].name for x in elig)
    where = "leaving" if stage == "leave" else "entering"
    return [DefensiveFireOffered(mover.uid, stage, at, elig, a, b, other_side(mover.side),
                                 text=f"{mover.name} is {where} {hex_label(at)}: "
                                      f"{other_side(mover.side)} may fire defensively "
                                      f"with {names}.")]


def continue_move(game: "Game") -> list[Event]:
    """Walk the move in progress until it ends or a defensive-fire decision is
    needed (state.pending)."""
    st = game.state
    ev: list[Event] = []
    m = st.moving
    assert m is not None
    u = st.units[m.uid]
    vehicle = u.is_vehicle
    foes = _foes(st, u.side)
    while m.index < len(m.path):
        a, b = u.hex, m.path[m.index]
        assert a is not None
        d = direction_between(a, b)
        if m.stage == "":
            # ruling 4's minimum movement: a Vehicle of current speed 1 in a movement
            # phase (movement._speed_one; the speed is asked only when it can matter)
            speed_one = vehicle and st.phase.is_movement and movement._speed_one(
                st, u, movement.movement_speed(st, u), st.phase)
            stp = movement.step(st, u, a, b, bonus_left=m.road_bonus_left,
                                speed_one=speed_one)
            for roll in stp.rolls:           # ruling 15: stream first, then forest
                die = game.dice.d6()
                ok = die >= roll.need
                if not ok and abilities.HOOKS.get("movement_roll"):   # Lead the Way (ruling 29)
                    die = abilities.apply("movement_roll", die, state=st, unit=u,
                                          kind=roll.kind, need=roll.need, from_hex=a,
                                          to_hex=b, dice=game.dice, events=ev)
                    ok = die >= roll.need
                what = _ROLL_WORDS.get(roll.kind) or 'enter the ' + roll.kind
                ev.append(MovementRoll(u.uid, roll.kind, die, roll.need, ok, a, b,
                                       text=f"{u.name} rolls {die} to {what}"
                                            f" into {hex_label(b)} (needs {roll.need}+): "
                                            f"{'made it' if ok else 'failed'}."))
                if not ok:
                    # a failed roll provokes nothing; the Vehicle faces the hex it tried
                    if vehicle and d is not None:
                        u.facing = d
                    ev.append(UnitStopped(u.uid, a, f"failed {roll.kind} movement roll",
                                          text=f"{u.name} stops in {hex_label(a)}: "
                                               f"failed movement roll."))
                    return ev + end_move(game, stopped=True)
            if stp.free:
                m.road_bonus_left = False
                st.road_bonus_used = st.road_bonus_used | {u.uid}
            if vehicle and d is not None:
                u.facing = d                 # toward the hex it enters
            m.stage = "leave"
            elig = eligible(game, u, a, b, "leave", foes)
            if elig:
                return ev + offer(game, u, a, b, "leave", elig)
        if m.stage == "leave":
            # step in
            assert d is not None
            m.facings.append(d)
            place(game, u, b)
            m.walked.append(b)
            m.stage = "enter"
            # Overrun (issue 18): asked only when a hook at the point can run for the
            # mover in this state (relevant: its own abilities, or a rule hook or aura)
            if abilities.has_hooks("entered_hex") and abilities.relevant(_ENTERED, u, st):
                ev += abilities.apply("entered_hex", [], state=st, unit=u, from_hex=a,
                                      to_hex=b, dice=game.dice, game=game)
            elig = eligible(game, u, a, b, "enter", foes)
            if elig:
                return ev + offer(game, u, a, b, "enter", elig)
        if m.stage == "enter":
            m.stage = ""
            m.index += 1
    return ev + end_move(game, stopped=False)


def end_move(game: "Game", stopped: bool) -> list[Event]:
    st = game.state
    m = st.moving
    assert m is not None
    u = st.units[m.uid]
    ev: list[Event] = []
    st.moving = None
    st.pending = None
    u.acted = True
    assert u.hex is not None
    if stopped and not u.destroyed and movement.stop_problem(st, u, u.hex) is not None:
        # ruling 6: back along the path to the last hex where it may stop
        trail = [m.start] + m.walked
        here = u.hex
        # positions strictly before the current one
        idx = len(trail) - 1 if trail[-1] == here else len(trail)
        dest, dest_i = m.start, 0
        for i in range(idx - 1, -1, -1):
            if movement.stop_problem(st, u, trail[i]) is None:
                dest, dest_i = trail[i], i
                break
        place(game, u, dest)
        if u.is_vehicle:
            # the facing it had when it left that hex
            if dest_i < len(m.facings):
                u.facing = m.facings[dest_i]
            else:
                u.facing = direction_between(dest, m.path[0]) or u.facing
        ev.append(UnitPutBack(u.uid, here, dest,
                              text=f"{u.name} can't stop in {hex_label(here)} and goes back "
                                   f"to {hex_label(dest)} (ruling 6)."))
    elif not stopped:
        if u.is_vehicle and m.final_facing is not None:
            u.facing = m.final_facing
        elif m.facings:
            u.facing = m.facings[-1]
        if u.is_vehicle and m.final_facing is None and m.walked:
            # rulebook: Vehicle Facing - faced where it actually ended (Face)
            st.pending = FacingChoice(u.uid, u.hex, u.side)
    walked = tuple(m.walked)
    if walked:
        ev.insert(0, UnitMoved(u.uid, walked, u.facing, m.start, tuple(m.path), stopped,
                               u.hex,
                               text=f"{u.name} moves {' - '.join(hex_label(h) for h in walked)}"
                                    + (" and stops." if stopped else ".")))
    return ev
