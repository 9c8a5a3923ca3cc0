"""Sweep: does the legal-action listing hold exactly the actions the check allows?

    python bench/listing_sweep.py [--games N] [--seed S] [--edition first|later] [--every K]

Plays seeded random games with the AI builder's armies (the whole roster's abilities)
and, at every K-th position, builds every candidate action of the small kinds - the
objective hexes, deployments (all hexes, facing the enemy end as listed), attacks in
every mode, defensive fire, boarding, dismounting, demolitions, turning in place,
aircraft placements, reserve entries, smoke, undeploying, ending the phase - and
compares ``Game.check(a) is None`` with ``a in Game.legal_actions()``.  Moves are
compared by destination with ``Game.why_not_reach``.  Prints every disagreement (the
first 20) and the counts; exits 1 if any.  (tests/rules/test_sight_and_reach_queries.py
runs short versions of the attack and move parts.)
"""
from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.ai.arena import _armies  # noqa: E402
from game.data.later_maps import load_later_configuration  # noqa: E402
from game.data.maps import load_configuration  # noqa: E402
from game.data.units import load_roster  # noqa: E402
from game.rules.actions import (Action, Attack, Board, ChooseObjective, DefensiveFire,  # noqa: E402
                                DemolishBridge, Deploy, Dismount, EndPhase, EnterReserve,
                                Face, LaySmoke, Move, PlaceAircraft, PlaceDismounted,
                                Undeploy)
from game.rules.dice import Dice  # noqa: E402
from game.rules.engine import new_game  # noqa: E402
from game.rules.threat import attack_modes  # noqa: E402
from tests.rules.engine_kit import quick_policy  # noqa: E402


def candidates(game) -> list[Action]:
    st = game.state
    side = st.to_act
    if side is None:
        return []
    hexes = list(st.battle_map.terrain)
    mine = [u for u in st.units.values() if u.side == side and not u.destroyed]
    foes = [u for u in st.units.values() if u.side != side and u.on_map]
    out: list[Action] = [EndPhase(side)]
    out += [ChooseObjective(side, h) for h in hexes]
    # a deployment is listed facing the enemy end (docs/engine-api.md: the battle screen
    # then asks for the facing; any is legal): one candidate per hex
    facing = 0 if st.ends.get(side) == "left" else 3
    for u in mine:
        if u.hex is None:
            out += [Deploy(side, u.uid, h, facing) for h in hexes]
            out += [EnterReserve(side, u.uid, h) for h in hexes]
            if u.card.is_aircraft:
                out += [PlaceAircraft(side, u.uid, h) for h in hexes]
            continue
        out += [Undeploy(side, u.uid), DefensiveFire(side, u.uid), DemolishBridge(side, u.uid),
                LaySmoke(side, u.uid)]
        out += [Face(side, u.uid, f) for f in range(6)]
        out += [Attack(side, u.uid, t.uid, m) for t in foes for m in attack_modes(u.card)]
        out += [Board(side, u.uid, c.uid) for c in mine if c is not u and c.hex is not None
                and c.hex.distance(u.hex) <= 1]
        near = [h for h in hexes if h.distance(u.hex) <= 1]
        out += [Dismount(side, u.uid, h) for h in near]
        out += [PlaceDismounted(side, u.uid, h) for h in near]
    return out


def sweep(game, bad: list[str], kinds: Counter) -> None:
    legal = game.legal_actions()
    listed = set(legal)
    for a in candidates(game):
        ok = game.check(a) is None
        kinds[type(a).__name__] += ok
        if ok != (a in listed):
            bad.append(f"{game.state.phase.value} {a!r}: check {'allows' if ok else 'refuses'} "
                       f"({game.check(a)}), listing {'has' if a in listed else 'lacks'} it")
    st = game.state
    if (st.phase.is_movement or st.phase.is_assault) and st.pending is None \
            and st.moving is None:
        for u in st.units_of(st.to_act):
            if not u.on_map or u.boarded:
                continue
            dests = {a.path[-1] for a in legal if isinstance(a, Move) and a.uid == u.uid and a.path}
            for h in st.battle_map.terrain:
                if h != u.hex and h.distance(u.hex) <= 6:
                    why = game.why_not_reach(u.uid, h)
                    kinds["Move"] += not why
                    if (not why) != (h in dests):
                        bad.append(f"{st.phase.value} move {u.name} to {h}: reach query "
                                   f"{why!r}, listing {'has' if h in dests else 'lacks'} it")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--edition", default="first", choices=("first", "later"))
    ap.add_argument("--every", type=int, default=3)
    args = ap.parse_args()
    roster = list(load_roster().values())
    bad: list[str] = []
    kinds: Counter = Counter()
    positions = 0
    for i in range(args.games):
        seed = args.seed * 1000 + i
        later = args.edition == "later"
        bm = load_later_configuration(1 + i % 3) if later else load_configuration(1 + i % 6)
        armies = _armies(roster, "standard", seed, None, "builder", args.edition)
        options = {"turn_limit": 6}
        if later:
            options["edition"] = "later"
        game = new_game(bm, armies, dice=Dice(seed), options=options)
        choose = quick_policy(random.Random(seed), 0.3)
        steps = 0
        while not game.over and steps < 600:
            if steps % args.every == 0:
                sweep(game, bad, kinds)
                positions += 1
            game.apply(choose(game))
            steps += 1
    for line in bad[:20]:
        print("DISAGREE", line)
    print(f"{positions} positions, {args.games} games ({args.edition} edition); legal actions "
          f"confirmed per kind: {dict(kinds)}; disagreements: {len(bad)}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
