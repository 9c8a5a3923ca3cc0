"""A headless AI seat as its own process (benches: real kills and restarts).

    python -m game.net.bot --url ws://127.0.0.1:8765 --spec 0:1:3 --seat Axis --create
    python -m game.net.bot --url ws://127.0.0.1:8765 --spec 0:1:3 --code ABC123
    python -m game.net.bot --url ws://127.0.0.1:8765 --spec 0:1:3 --game G --seat S --token T

``--spec INDEX:SEED:TURN_LIMIT`` names the seeded battle (game.net.headless.spec_for):
armies, configuration and AI players.  The bot prints one JSON line when it has its
seat (``{"ready": ..., "game", "seat", "token", "code"}``) and one when the battle
is over (``{"done": ..., "hash", "actions", "audit", "seed", "latencies"}``).
Only for loopback benches and tests.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import sys

from .client import NetError, RelayClient
from .headless import spec_for


async def run(args) -> int:
    idx, seed, tl = (int(x) for x in args.spec.split(":"))
    spec = spec_for(idx, seed, tl)
    kw: dict = {}
    if args.create:
        kw["create"] = {"scenario": "standard", "config": spec.config, "seat": args.seat,
                        "options": spec.options}
    elif args.code:
        kw["code"] = args.code
    else:
        kw.update(game_id=args.game, seat=args.seat, token=args.token)
    c = RelayClient(args.url, think=args.think, give_up_after=args.give_up,
                    seat_setup=lambda seat: (spec.player(seat), spec.armies[seat]), **kw)

    async def announce():
        await c.ready.wait()
        print(json.dumps({"ready": True, "game": c.st.game_id, "seat": c.st.seat,
                          "token": c.st.token, "code": c.st.code}), flush=True)
    t = asyncio.ensure_future(announce())
    try:
        st = await c.run()
    except NetError as exc:
        print(json.dumps({"done": False, "error": str(exc)}), flush=True)
        return 2
    t.cancel()
    print(json.dumps({"done": True, "hash": c.game.state_hash() if c.game else None,
                      "actions": len(c.hashes), "audit": st.audit, "seed": st.seed,
                      "desync": st.desync, "errors": st.errors[:5],
                      "latencies": st.latencies}), flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m game.net.bot")
    ap.add_argument("--url", required=True)
    ap.add_argument("--spec", required=True)
    ap.add_argument("--seat", choices=("Axis", "Allies"))
    ap.add_argument("--create", action="store_true")
    ap.add_argument("--code")
    ap.add_argument("--game")
    ap.add_argument("--token")
    ap.add_argument("--think", type=float, default=0.0)
    ap.add_argument("--give-up", type=float, default=60.0)
    args = ap.parse_args(argv)
    if not args.url.startswith("ws://127.0.0.1:"):
        ap.error("the bot only connects to 127.0.0.1 (loopback benches)")
    return asyncio.run(run(args))


if __name__ == "__main__":
    sys.exit(main())
