"""Where material is lost: plays seeded arena games (the arena's maps, armies and
seeds) and records, turn by turn, each side's material (the AI's unit values of the
units on the map) and who moved first, then prints the average loss per turn for
the side that moved first and the side that moved second, per player.

    python bench/material_trace.py --a expert-policy --b veteran --games 20 --seed 1
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


def play(level_a: str, level_b: str, index: int, seed: int) -> dict:
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


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--a", default="expert-policy")
    ap.add_argument("--b", default="veteran")
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
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
