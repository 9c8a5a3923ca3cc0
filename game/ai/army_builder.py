"""Sensible armies within a budget and a scenario's limits, for the AI and for
players who want one quickly.

A built army has some armour, some antitank, cheap riflemen fit to hold the
objective (:func:`holds_objective`) and a commander when the budget allows, and
always passes :func:`game.rules.army.validate_army` for the limits it was built for
(points, unit count, side, historical army limits, year, edition).  It builds
from every card of the roster that is playable in the battle's edition
(``game.rules.army.is_playable``): a card whose abilities Hexfront doesn't
have yet is never chosen.

Cards are compared by a rough battle value (:func:`_worth`: dice against Soldiers in
full, against Vehicles at half, both defenses, per point and unit slot); the main tank
by its defenses too, and the extra units stop being antitank ones once there are
:data:`ENOUGH_ANTITANK` - so neither side's armies bring more firepower against the
other's Soldiers (issue 14: balanced armies; ``bench/builder_balance.py`` compares the
two sides' armies without playing).

``python -m game.ai.army_builder --side Axis --budget 100 --seed 3`` prints one.
"""
from __future__ import annotations

import argparse
import random
import sys
from typing import Callable, Iterable, Sequence

from game.rules.army import (HISTORICAL_GROUPS, HISTORICAL_LONERS, MAX_UNITS, Army,
                             is_playable, validate_army)
from game.rules.cards import ALLIED_NATIONS, AXIS_NATIONS, UnitCard

__all__ = ["build_army", "roles", "holds_objective", "POOR_HOLDER", "nation_groups",
           "themed_groups", "main", "TARGET_UNITS", "THEMES"]

TARGET_UNITS = 12       # a built army stops here even when the rules allow 15
#: the extra units stop being antitank ones once the army has this many antitank cards
#: (an enemy army brings two or three vehicles; more antitank is dice wasted on Soldiers)
ENOUGH_ANTITANK = 2


def _dice(c: UnitCard, kind: str, band: str) -> int:
    return c.dice(kind, band) or 0


def roles(c: UnitCard) -> set[str]:
    """What a card is good for: "armour", "antitank", "rifles", "commander", "support"."""
    out: set[str] = set()
    if c.is_commander:
        out.add("commander")
    av = max(_dice(c, "Vehicle", "short"), _dice(c, "Vehicle", "medium"))
    asol = max(_dice(c, "Soldier", "short"), _dice(c, "Soldier", "medium"))
    if c.is_vehicle and av >= 8 and c.speed >= 1:
        out.add("armour")
    if c.is_soldier and av >= 9:
        out.add("antitank")
    if c.is_vehicle and "destroyer" in (c.subtype or "").lower():
        out.add("antitank")
    if c.is_soldier and not c.is_commander and c.cost <= 5 and asol >= 6 and c.speed >= 1:
        out.add("rifles")
    if not out:
        out.add("support")
    return out


#: abilities that make a Soldier a poor holder of the objective (the AI's own judgement,
#: from what the rules say they do): destroyed the moment it is disrupted, disrupted for
#: longer than a turn, or moving only beside a commander
POOR_HOLDER = ("lack_of_determination", "green", "command_dependent")


def holds_objective(c: UnitCard) -> bool:
    """A rifleman fit to hold the objective: front defense 4 or more (a defense-3 Soldier
    falls to every rifle's shot) and none of :data:`POOR_HOLDER`.  The builder's
    riflemen for the objective are these whenever a nation has them, so no nation
    holds with weaker men than the other side's (issue 14: balanced armies)."""
    return "rifles" in roles(c) and c.defense_front >= 4 and \
        not any(c.has(a) for a in POOR_HOLDER)


def nation_groups(side: str, historical: bool) -> list[tuple[str, ...]]:
    """Nationalities that may share an army (all of the side without historical limits)."""
    nations = {"Axis": AXIS_NATIONS, "Allies": ALLIED_NATIONS}[side]
    if not historical:
        return [nations]
    groups = [tuple(n for n in g if n in nations) for g in HISTORICAL_GROUPS]
    groups = [g for g in groups if g]
    # the groups of several nations first (as before: the loners come last)
    return [g for g in groups if g[0] not in HISTORICAL_LONERS] + \
        [g for g in groups if g[0] in HISTORICAL_LONERS]


#: the armies the AI builds unless asked for a mixed one: one nation, or a pairing
#: that fought side by side (all of them pass the historical army limits too)
THEMES = {"Axis": (("Germany",), ("Germany", "Italy"), ("Japan",), ("Italy",),
                   ("Germany", "Hungary", "Romania"), ("Finland", "Germany"),
                   ("Germany", "Slovakia", "Croatia")),
          "Allies": (("United States",), ("United Kingdom",), ("Soviet Union",),
                     ("United States", "United Kingdom"), ("United Kingdom", "France"),
                     ("United States", "France"),
                     ("United Kingdom", "Canada", "Australia", "New Zealand", "South Africa"),
                     ("United Kingdom", "Poland"), ("France", "Belgium"),
                     ("United States", "China"), ("United Kingdom", "Greece", "Yugoslavia"))}


def themed_groups(side: str) -> list[tuple[str, ...]]:
    """One nation or a historical pairing per army (the solo AI's default)."""
    return list(THEMES[side])


#: what a unit slot is worth in points when cards are compared: a built army is held to
#: :data:`TARGET_UNITS` as well as to its budget, so a cheap card is not worth its dice
#: per point alone (it also takes one of the twelve places)
SLOT_POINTS = 5


def _band_dice(c: UnitCard, kind: str) -> float:
    """Dice against ``kind`` over the three bands, the medium band twice (the range most
    shots are taken at), halved: (short + 2 x medium + long) / 2."""
    return (_dice(c, kind, "short") + 2 * _dice(c, kind, "medium")
            + _dice(c, kind, "long")) / 2


def _value(c: UnitCard) -> float:
    """A card's rough battle value (see :func:`_worth`).  An Indirect Fire card's dice
    count half: the AI's armies bring no Spotter for it, and in the Veteran's self-play
    armies with Indirect Fire guns won 6 points less often than their side's average."""
    fire = _band_dice(c, "Soldier") + 0.5 * _band_dice(c, "Vehicle")
    if c.has("indirect_fire"):
        fire /= 2
    return fire + c.defense_front + c.defense_rear


def _worth(c: UnitCard) -> float:
    """Rough battle value per point (and unit slot, :data:`SLOT_POINTS`), to prefer
    efficient cards: dice against Soldiers in full and against Vehicles at half (most
    of an enemy army is Soldiers: a built army has two or three vehicles among its
    twelve units), plus both defenses (a vehicle's rear counts: a weak rear is what
    the enemy's flanking fire finds)."""
    return _value(c) / (c.cost + SLOT_POINTS)


def build_army(cards: Iterable[UnitCard], side: str, budget: int = 100, *,
               max_units: int = MAX_UNITS, historical: bool = False, year: int | None = None,
               rng: random.Random | None = None, name: str | None = None,
               mixed: bool = False, edition: str = "first") -> Army:
    """A legal army for ``side`` of at most ``budget`` points (see the module doc):
    one nation or a historical pairing (:data:`THEMES`) unless ``mixed`` asks for
    any nations of the side (within the historical limits when they are on); only
    cards playable in ``edition``."""
    rng = rng or random.Random(0)
    pool_all = [c for c in cards if c.side == side and (year is None or c.year <= year)
                and is_playable(c, edition)]
    if not pool_all:
        raise ValueError(f"no {side} cards to build an army from")
    if mixed:
        groups = [g for g in nation_groups(side, historical)
                  if any(c.nationality in g for c in pool_all)]
    else:
        groups = [g for g in themed_groups(side)
                  if _can_fill(pool_all, g)] or [g for g in nation_groups(side, historical)
                                                 if any(c.nationality in g for c in pool_all)]
    best: Army | None = None
    # the theme is drawn once (every theme as likely as the others: the attempts' scores
    # compare builds, not themes); a theme that gives no legal army is drawn again
    theme: tuple[str, ...] | None = None
    for attempt in range(12):
        group = theme if theme is not None else rng.choice(groups)
        pool = [c for c in pool_all if c.nationality in group]
        if mixed and historical and len(group) > 1 and rng.random() < 0.5:
            nation = rng.choice(sorted({c.nationality for c in pool}))
            pool = [c for c in pool if c.nationality == nation] or pool
        army = _fill(pool, side, budget, max_units, rng)
        army.name = name or f"{side} battle group"
        if validate_army(army, budget, max_units, historical, year, edition=edition):
            continue
        theme = group
        if best is None or _score(army) > _score(best):
            best = army
        if attempt >= 2:
            break
    if best is None:
        # the plainest legal army: the cheapest cards, as many as fit
        cheap = sorted(pool_all, key=lambda c: (c.cost, c.name))
        if historical:
            g = groups[0]
            cheap = [c for c in cheap if c.nationality in g]
        chosen: list[UnitCard] = []
        for c in cheap * max_units:
            if len(chosen) < max_units and sum(x.cost for x in chosen) + c.cost <= budget:
                chosen.append(c)
        best = Army(name or f"{side} battle group", side, chosen)
    best.description = _describe(best)
    return best


def _can_fill(pool: list[UnitCard], group: tuple[str, ...]) -> bool:
    """A group worth building from: riflemen and some armour among its cards."""
    have = set().union(*(roles(c) for c in pool if c.nationality in group)) if pool else set()
    return {"rifles", "armour"} <= have


def _score(army: Army) -> float:
    rs = [roles(c) for c in army.cards]
    have = {r for s in rs for r in s}
    return army.points + 10 * len(have & {"armour", "antitank", "rifles", "commander"}) + \
        2 * sum(1 for s in rs if "rifles" in s)


def _rifle_worth(c: UnitCard) -> float:
    """A rifleman's value per point: its dice against Soldiers, the medium band's three
    times (the range it holds the objective at), and its defense."""
    return (_dice(c, "Soldier", "short") + 3 * _dice(c, "Soldier", "medium")
            + 2 * c.defense_front) / max(1, c.cost)


def _antitank_count(cards: Sequence[UnitCard]) -> int:
    return sum("antitank" in roles(c) for c in cards)


def _tank_value(c: UnitCard) -> float:
    """The main tank's value: its battle value with both defenses counted twice more -
    the army's one tank the enemy's guns can't easily kill is worth its points (in the
    Veteran's self-play, armies with a front-6 tank won 7 points more often than their
    side's average), whatever its cost within the share of the budget it may take."""
    return _value(c) + 2 * (c.defense_front + c.defense_rear)


def _pick(rng: random.Random, cands: Sequence[UnitCard], left: int,
          key: Callable[[UnitCard], float] | None = None) -> UnitCard | None:
    """One of the three best affordable cards by ``key`` (default :func:`_worth`)."""
    ok = [c for c in cands if c.cost <= left]
    if not ok:
        return None
    rank = key or _worth
    ok.sort(key=lambda c: -rank(c))
    top = ok[:3]
    return rng.choice(top)


def _fill(pool: list[UnitCard], side: str, budget: int, max_units: int,
          rng: random.Random) -> Army:
    max_units = min(max_units, TARGET_UNITS)
    by_role: dict[str, list[UnitCard]] = {}
    for c in pool:
        for r in roles(c):
            by_role.setdefault(r, []).append(c)
    chosen: list[UnitCard] = []

    def left() -> int:
        return budget - sum(c.cost for c in chosen)

    def add(c: UnitCard | None) -> None:
        if c is not None and len(chosen) < max_units and c.cost <= left():
            chosen.append(c)

    rifles = sorted(by_role.get("rifles", []), key=lambda c: (-_rifle_worth(c), c.cost, c.name))
    rifles = [c for c in rifles if holds_objective(c)] or rifles
    reserve_rifles = 3 * (rifles[0].cost if rifles else 0)
    # armour: one main tank within about half the budget, leaving room for the rest
    armour = [c for c in by_role.get("armour", []) if c.cost <= max(12, budget * 0.5)]
    add(_pick(rng, armour, left() - reserve_rifles, key=_tank_value))
    # a commander when affordable
    if budget >= 60:
        cmd = [c for c in by_role.get("commander", []) if c.cost <= budget * 0.12]
        add(_pick(rng, cmd, left() - reserve_rifles))
    # antitank
    add(_pick(rng, by_role.get("antitank", []), left() - reserve_rifles))
    # cheap riflemen for the objective (at least three)
    for _ in range(3):
        if rifles:
            add(rng.choice(rifles[:2]))
    # a second vehicle if a good share of the budget is left
    if left() >= budget * 0.25:
        add(_pick(rng, [c for c in by_role.get("armour", []) if c.cost <= left() - 4],
                  left() - 4))
    # spend the rest: support or antitank, then riflemen
    for _ in range(3):
        extras = by_role.get("support", [])
        if _antitank_count(chosen) < ENOUGH_ANTITANK:
            extras = extras + by_role.get("antitank", [])
        add(_pick(rng, [c for c in extras if c.cost <= left()], left()))
    while rifles and len(chosen) < max_units and left() >= min(c.cost for c in rifles):
        add(rng.choice([c for c in rifles if c.cost <= left()][:3]))
    # at the unit cap with points left: upgrade units to dearer ones of the same role,
    # the upgrade that adds the most value first (then the dearest, to spend the points)
    for _ in range(max_units):
        if left() <= 0:
            break
        best: tuple[float, int, int, UnitCard] | None = None
        for i, c in enumerate(chosen):
            want = roles(c) - {"support"} or roles(c)
            holder = holds_objective(c)
            for d in pool:
                gain = d.cost - c.cost
                if 0 < gain <= left() and roles(d) & want and d.type == c.type and (
                        not holder or holds_objective(d)):
                    key = (_value(d) - _value(c), gain, i, d)
                    if best is None or key[:2] > best[:2]:
                        best = key
        if best is None:
            break
        chosen[best[2]] = best[3]
    return Army("", side, chosen)


def _describe(army: Army) -> str:
    counts = army.counts()
    return ", ".join(f"{n}x {name}" if n > 1 else name for name, n in counts.items())


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m game.ai.army_builder",
                                 description="Build a sensible army for a side and budget.")
    ap.add_argument("--side", choices=("Axis", "Allies"), default="Axis")
    ap.add_argument("--budget", type=int, default=100)
    ap.add_argument("--historical", action="store_true")
    ap.add_argument("--year", type=int, default=None)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--mixed", action="store_true",
                    help="any nations of the side (default: one nation or a historical pairing)")
    args = ap.parse_args(argv)
    from game.data.units import load_roster
    from game.rules.errors import DataError
    try:
        roster = load_roster()
    except DataError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    army = build_army(roster.values(), args.side, args.budget, historical=args.historical,
                      year=args.year, rng=random.Random(args.seed), mixed=args.mixed)
    print(f"{army.name}: {army.points} points, {army.size} units")
    for c in army.cards:
        print(f"  {c.cost:3d}  {c.name}  ({', '.join(sorted(roles(c)))})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
