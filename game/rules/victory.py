"""Victory (rulings 9-11), checked at the end of every turn.

Standard - from the end of turn 7, the only player with a unit adjacent to the
objective wins; at the end of turn 10 or later with nobody in control, more points
on the map wins; a points tie plays on.  Assault - the attacker wins if it controls
the objective at the end of turn 10, else the defender wins.  If both armies are
gone the game is a draw.  ``options["turn_limit"]`` (default none) ends a game
still undecided after that turn as a draw (automated play only).
"""
from __future__ import annotations

from .events import Event, ObjectiveControl, PointsCounted
from .state import GameState, Outcome, other_side

__all__ = ["STANDARD_VICTORY_TURN", "LAST_TURN", "victory_points", "points_lost_if_destroyed",
           "check_victory"]

STANDARD_VICTORY_TURN = 7      # objective control wins from the end of this turn
LAST_TURN = 10                 # points (Standard) / the attacker's deadline (Assault)


def victory_points(state: GameState, side: str) -> int:
    """Ruling 10: full card costs of the side's units on the map."""
    return sum(u.card.cost for u in state.live_units(side))


def points_lost_if_destroyed(state: GameState, uid: str) -> int:
    """What the side's victory points lose when unit ``uid`` is destroyed: its card
    cost and its passengers' (a Soldier aboard a destroyed transport is destroyed
    with it - Casualty Phase, step 3)."""
    return state.units[uid].card.cost + sum(p.card.cost for p in state.passengers(uid))


def _army_remains(state: GameState, side: str) -> bool:
    """A unit on the map - or, ruling 24, a Paratrooper still in reserve."""
    if state.live_units(side):
        return True
    from .abilities.roster_reserves import army_remains
    return army_remains(state, side)


def check_victory(state: GameState, ev: list[Event]) -> Outcome | None:
    """The outcome at the end of the current turn, or None (events appended to ``ev``)."""
    st = state
    turn = st.turn
    ctrl = st.objective_controller()
    if not _army_remains(st, "Axis") and not _army_remains(st, "Allies"):
        return Outcome(None, "both armies are destroyed")
    if st.scenario == "assault":
        if turn >= LAST_TURN:
            ev.append(ObjectiveControl(ctrl))
            if ctrl == st.attacker:
                return Outcome(st.attacker, f"the attacker controls the objective at the "
                                            f"end of turn {turn}")
            return Outcome(st.defender, f"the attacker does not control the objective at "
                                        f"the end of turn {turn}")
    else:
        if turn >= STANDARD_VICTORY_TURN:
            ev.append(ObjectiveControl(ctrl))
            if ctrl is not None:
                return Outcome(ctrl, f"controls the objective at the end of turn {turn}")
        if turn >= LAST_TURN:
            pts = {s: victory_points(st, s) for s in ("Axis", "Allies")}
            ev.append(PointsCounted(pts))
            if pts["Axis"] != pts["Allies"]:
                w = max(pts, key=lambda s: pts[s])
                return Outcome(w, f"more points on the battle map at the end of turn "
                                  f"{turn} ({pts[w]} to {pts[other_side(w)]})")
    limit = st.options.get("turn_limit")
    if limit is not None and turn >= limit:
        return Outcome(None, f"turn limit {limit} reached")
    return None
