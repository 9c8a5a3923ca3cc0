"""The AI's reserve decisions (rulings 21-23): when and where a Paratrooper drops and a
Hero enters.  Used by the Veteran (and so the Expert, whose plain plan and rollouts
are the Veteran's) and by the Recruit.

Which entries are legal is the rules' answer (``game.legal_actions()``: the
``EnterReserve`` actions listed now); nothing here re-derives a rule.  Each legal hex
is scored with the Veteran's own hex scoring (``hex_score``: the objective, cover,
the exact threat of every enemy that could attack it there, the best shot it would
get from there) - first prescreened by its cheap look (``quick_score``), then scored
exactly for the best few.

* A Hero enters at the start of the movement phase (the rules list it only then)
  where its score is best: with its nation's Soldiers where they fight.
* A Paratrooper drops at the end of the movement phase, once every other unit has
  moved (a drop ends the side's movement: ruling 22), into the best hex it may -
  cover near the objective, shots at enemies, out of reach of the worst fire.  A
  unit off the map scores no points and holds nothing, so it drops as soon as a
  hex is worth it (a Paratrooper Commander's extra die is in the rules' odds of its
  shots from there, so a hex next to one scores it); it waits a turn only where every hex would expose it badly
  (expected loss above :data:`WAIT_LOSS` of its value) and the game is young.
"""
from __future__ import annotations

from game.rules.actions import Action, EnterReserve
from game.rules.hexes import hex_label
from game.rules.state import Unit

from game.ai.knowledge import unit_value

__all__ = ["entries", "hero_entry", "paratrooper_drop", "PRESCREEN", "WAIT_LOSS"]

PRESCREEN = 10          # hexes per reserve scored exactly (best by the quick look)
WAIT_LOSS = 0.6         # a drop expected to lose more than this share of the unit waits
WAIT_UNTIL = 4          # ... but not after this turn (then it drops anyway)


def entries(game, side: str, kind: str) -> dict[str, list]:
    """uid -> the hexes the rules let each ``kind`` reserve of ``side`` enter now."""
    st = game.state
    out: dict[str, list] = {}
    for a in game.legal_actions():
        if isinstance(a, EnterReserve) and a.side == side and \
                st.units[a.uid].card.has(kind):
            out.setdefault(a.uid, []).append(a.hex)
    return out


def _placed(u: Unit, h):
    """The reserve as if it stood in ``h`` (a copy for scoring; the state is untouched)."""
    from copy import copy
    v = copy(u)
    v.hex = h
    return v


def _best(ai, game, u: Unit, hexes: list) -> tuple[float, object, dict] | None:
    quick = []
    for h in hexes:
        v = _placed(u, h)
        quick.append((ai.quick_score(game, v, h, assault=False),
                      h.r, h.q, h))
    quick.sort(key=lambda x: (-x[0], x[1], x[2]))
    best = None
    for _, _, _, h in quick[:PRESCREEN]:
        v = _placed(u, h)
        parts: dict = {}
        s = ai.hex_score(game, v, h, assault=False, parts=parts)
        if best is None or s > best[0]:
            best = (s, h, parts)
    return best


def _best_entry(ai, game, side: str, kind: str) -> tuple[float, str, object, dict] | None:
    """The best entry of any ``kind`` reserve of ``side`` now: (score, uid, hex, parts)."""
    st = game.state
    best = None
    for uid, hexes in sorted(entries(game, side, kind).items()):
        got = _best(ai, game, st.units[uid], hexes)
        if got is not None and (best is None or got[0] > best[0]):
            best = (got[0], uid, got[1], got[2])
    return best


def _reason(st, parts: dict) -> str:
    bits = []
    if parts.get("cover"):
        bits.append("in cover")
    who = parts.get("shot_at")
    if who is not None:
        bits.append(f"with a shot at {who.name}")
    if parts.get("objective", 0) > 0:
        bits.append("near the objective")
    return ", ".join(bits) or "where it does the most good"


def hero_entry(ai, game, side: str) -> Action | None:
    """The best Hero entry now (the rules list them only at the start of the phase)."""
    st = game.state
    best = _best_entry(ai, game, side, "hero")
    if best is None:
        return None
    _, uid, h, parts = best
    u = st.units[uid]
    ai.say(f"{u.name} joins its men in {hex_label(h)}, {_reason(st, parts)}.")
    return EnterReserve(side, uid, h)


def paratrooper_drop(ai, game, side: str) -> Action | None:
    """The best drop now, or None (none listed, or every hex too exposed this early)."""
    st = game.state
    best = _best_entry(ai, game, side, "paratrooper")
    if best is None:
        return None
    _, uid, h, parts = best
    u = st.units[uid]
    loss = -parts.get("threat", 0.0) / max(1e-9, getattr(ai, "k_threat", 1.0))
    if st.turn < WAIT_UNTIL and loss > WAIT_LOSS * unit_value(st, u):
        ai.say(f"{u.name} stays in reserve: every drop zone is under heavy fire.")
        return None
    ai.say(f"{u.name} drops into {hex_label(h)}, {_reason(st, parts)}.")
    return EnterReserve(side, uid, h)
