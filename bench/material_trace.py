"""Where material is lost: plays seeded arena games (the arena's maps, armies and
seeds) and records, turn by turn, each side's material (the AI's unit values of the
units on the map) and who moved first, then prints the average loss per turn for
the side that moved first and the side that moved second, per player.

    python bench/material_trace.py --a expert-policy --b veteran --games 20 --seed 1
    python bench/material_trace.py --causes --games 60 --jobs 2

``--causes``: every attack of both sides (assault-phase attacks, defensive fire in
the movement phase and in the assault phase) with its expected points before the
dice (the AI's points over what the target already carried: ``attack_gain`` on the
rules' exact odds; defensive fire: its chance to stop the mover times the worth of
a disruption) and the points it won (the same worth for the counter it placed),
split by phase, by the firer's and the target's kind (tank, other vehicle, gun,
infantry), by turn, by whether the firer's side moved first, front or rear, and by
who won the game.  Per game averages; "a" is ``--a``.
"""
from __future__ import annotations

import argparse
import random
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.ai.arena import _armies  # noqa: E402
from game.ai.expert_paired import make  # noqa: E402
from game.ai.knowledge import unit_value  # noqa: E402
from game.rules.state import other_side  # noqa: E402


def material(st, side: str) -> float:
    return sum(unit_value(st, u) for u in st.units.values() if u.side == side and u.on_map)


def _start(level_a: str, level_b: str, index: int, seed: int):
    """Arena game ``index`` (its map, armies, sides and seeds): the game, the players by
    side and each side's label ("a" for A)."""
    from game.data.maps import load_configuration
    from game.data.units import load_roster
    from game.rules.dice import Dice
    from game.rules.engine import new_game
    roster = list(load_roster().values())
    config = 1 + index % 6
    a_side = "Axis" if (index // 6) % 2 == 0 else "Allies"
    game_seed = seed * 100003 + index
    bm = load_configuration(config)
    built = _armies(roster, "standard", game_seed, None, "builder", "first")
    game = new_game(bm, built, scenario="standard", dice=Dice(game_seed),
                    options={"turn_limit": 15})
    players = {a_side: make(level_a, game_seed + 1), other_side(a_side): make(level_b, game_seed + 2)}
    label = {a_side: "a", other_side(a_side): "b"}
    return game, players, label


def play(level_a: str, level_b: str, index: int, seed: int) -> dict:
    game, players, label = _start(level_a, level_b, index, seed)
    turns = []
    cur = None
    n = 0
    while not game.over and n < 3000:
        st = game.state
        if cur is None or cur["turn"] != st.turn:
            if st.first_player is not None and st.phase.is_movement:
                cur = {"turn": st.turn, "first": label[st.first_player],
                       "start": {label[s]: material(st, s) for s in label}}
                turns.append(cur)
        side = st.to_act
        game.apply(players[side].choose(game))
        n += 1
        if cur is not None and "end" not in cur and game.state.turn != cur["turn"]:
            cur["end"] = {label[s]: material(game.state, s) for s in label}
    out = game.state.outcome
    if cur is not None and "end" not in cur:
        cur["end"] = {label[s]: material(game.state, s) for s in label}
    win = label.get(out.winner) if out and out.winner else None
    return {"turns": turns, "winner": win, "reason": out.reason if out else "",
            "start": {label[s]: material(game.state, s) for s in label} if not turns else
            turns[0]["start"]}


_RANK = {"disrupted": 1, "damaged": 2, "destroyed": 3}


def _worst(u) -> int:
    return max((_RANK.get(c, 0) for c in u.pending), default=0)


def _kind(u) -> str:
    sub = (u.card.subtype or "").lower()
    if u.is_vehicle:
        return "tank" if "tank" in sub and "destroyer" not in sub else "vehicle"
    if "artillery" in sub or "gun" in sub:
        return "gun"
    return "infantry"


def causes(level_a: str, level_b: str, index: int, seed: int) -> dict:
    """One game's attacks, each a row: side label, phase kind ("attack", "df-move",
    "df-assault"), firer kind, turn, firer's side moved first, expected points,
    points won, target kind, chance to destroy, front (None: a Soldier target)."""
    from game.ai.knowledge import attack_gain, outcome_worth, unit_value
    from game.rules.actions import Attack, DefensiveFire
    from game.rules.errors import IllegalAction
    game, players, label = _start(level_a, level_b, index, seed)
    rows = []
    n = 0
    while not game.over and n < 3000:
        st = game.state
        side = st.to_act
        act = players[side].choose(game)
        rec = None
        if isinstance(act, (Attack, DefensiveFire)):
            u = st.units[act.uid]
            try:
                if isinstance(act, Attack):
                    t = st.units[act.target]
                    kind = "attack"
                    odds = game.odds(act.uid, act.target, mode=act.mode)
                else:
                    t = st.units[st.pending.mover]
                    kind = "df-move" if st.phase.is_movement else "df-assault"
                    odds = game.odds(act.uid, t.uid, defensive=True, at_hex=st.pending.at_hex)
            except IllegalAction:
                odds = None
            if odds is None:
                ev = 0.0
            elif kind == "attack":
                ev = attack_gain(st, t, odds)
            else:                          # defensive fire: a stop (face-up disruption)
                ev = outcome_worth(t, 1) * unit_value(st, t) * odds.p_stopped
            rec = (label[side], kind, _kind(u), st.turn, st.first_player == side, ev, t.uid,
                   _worst(t), unit_value(st, t), _kind(t),
                   odds.p_destroyed if odds is not None else 0.0, t.disrupted,
                   None if odds is None else odds.front)
        game.apply(act)
        n += 1
        if rec is not None:
            t = game.state.units[rec[6]]
            after = 3 if t.destroyed else max(_worst(t), rec[7])
            won = rec[8] * (outcome_worth(t, after) - outcome_worth(t, rec[7]))
            if rec[1] != "attack" and t.disrupted and not rec[11]:
                won += outcome_worth(t, 1) * rec[8]
            rows.append(list(rec[:6]) + [won, rec[9], rec[10], rec[12]])
    out = game.state.outcome
    win = label.get(out.winner) if out and out.winner else None
    return {"rows": rows, "winner": win, "reason": out.reason if out else ""}


def _causes_one(args):
    return causes(*args)


def report_causes(args) -> None:
    import multiprocessing as mp
    tasks = [(args.a, args.b, i, args.seed) for i in range(args.games)]
    with mp.get_context("fork").Pool(max(1, args.jobs)) as pool:
        games = pool.map(_causes_one, tasks)
    ng = len(games)
    print(f"{ng} games, A ({args.a}) won {sum(1 for g in games if g['winner'] == 'a')}, "
          f"B ({args.b}) won {sum(1 for g in games if g['winner'] == 'b')}")

    def table(title, keyf):
        agg = defaultdict(lambda: [0, 0.0, 0.0])
        for g in games:
            for r in g["rows"]:
                k = keyf(r, g)
                if k is None:
                    continue
                a = agg[k]
                a[0] += 1
                a[1] += r[5]
                a[2] += r[6]
        print(f"-- {title}: per game: attacks, expected points, points won")
        for k in sorted(agg, key=str):
            a = agg[k]
            print(f"  {str(k):52} {a[0] / ng:6.2f} {a[1] / ng:7.1f} {a[2] / ng:7.1f}"
                  f"   per attack {a[1] / max(1, a[0]):5.2f}")
    table("by side and phase", lambda r, g: (r[0], r[1]))
    table("by side, phase, firer kind", lambda r, g: (r[0], r[1], r[2]))
    table("by side, phase, target kind", lambda r, g: (r[0], r[1], "at " + r[7]))
    table("by side, moved first, phase",
          lambda r, g: (r[0], "first" if r[4] else "second", r[1]))
    table("by side and turn", lambda r, g: (r[0], f"T{r[3]:02d}"))
    table("assault attacks by expected points",
          lambda r, g: (r[0], "EV<1" if r[5] < 1 else "EV1-3" if r[5] < 3 else
                        "EV3-8" if r[5] < 8 else "EV8+") if r[1] == "attack" else None)
    table("assault attacks by chance to destroy",
          lambda r, g: (r[0], f"p {min(4, int(r[8] * 5)) / 5:.1f}+") if r[1] == "attack"
          else None)
    table("attacks on vehicles, front or rear, by first or second mover",
          lambda r, g: (r[0], "first" if r[4] else "second", "front" if r[9] else "rear")
          if r[9] is not None and r[1] == "attack" else None)
    table("by game winner, firing side, firer kind, target kind",
          lambda r, g: (f"won by {g['winner']}", r[0], r[2], "at " + r[7]))
    for who in ("a", "b"):
        ws = [g for g in games if g["winner"] == who]
        kinds: dict = defaultdict(int)
        for g in ws:
            kinds[" ".join(g["reason"].split()[:2])] += 1
        print(f"wins of {who}: {len(ws)} ({dict(kinds)})")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--a", default="expert-policy")
    ap.add_argument("--b", default="veteran")
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--causes", action="store_true",
                    help="every attack's expected and won points, split by cause")
    args = ap.parse_args()
    if args.causes:
        report_causes(args)
        return 0
    loss = defaultdict(list)          # (player, moved first?) -> losses per turn
    by_turn = defaultdict(lambda: [0.0, 0.0])
    for i in range(args.games):
        g = play(args.a, args.b, i, args.seed)
        line = []
        for t in g["turns"]:
            if "end" not in t:
                continue
            for who in ("a", "b"):
                lo = t["start"][who] - t["end"][who]
                loss[(who, t["first"] == who)].append(lo)
                by_turn[t["turn"]][0 if who == "a" else 1] += lo
            line.append(f"T{t['turn']}{'A' if t['first'] == 'a' else 'B'}:"
                        f"{t['start']['a'] - t['end']['a']:.0f}/{t['start']['b'] - t['end']['b']:.0f}")
        print(f"game {i} winner {g['winner']} ({g['reason'][:40]}): " + " ".join(line),
              flush=True)
    for (who, first), xs in sorted(loss.items()):
        print(f"{who} moved {'first ' if first else 'second'}: {len(xs)} turns, mean loss "
              f"{sum(xs) / max(1, len(xs)):.1f}")
    for t in sorted(by_turn):
        print(f"turn {t}: loss a {by_turn[t][0]:.0f} b {by_turn[t][1]:.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
