"""A headless AI seat as its own process (benches: real kills and restarts).

    python -m game.net.bot --url ws://127.0.0.1:8765 --spec 0:1:3 --seat Axis --create
    python -m game.net.bot --url ws://127.0.0.1:8765 --spec 0:1:3 --code ABC123
    python -m game.net.bot --url ws://127.0.0.1:8765 --spec 0:1:3 --game G --seat S --token T

``--spec INDEX:SEED:TURN_LIMIT`` names the seeded battle (game.net.headless.spec_for):
armies, configuration and AI players.  The bot prints one JSON line when it has its
seat (``{"ready": ..., "game", "seat", "token", "code"}``) and one when the battle
is over (``{"done": ..., "hash", "actions", "audit", "seed", "latencies"}``).
Direct play (no relay), each peer keeping a continue-file after every step so that a
killed peer carries on from it (``--autosave``; ``--continue`` restarts from it)::

    python -m game.net.bot --spec 0:1:3 --seat Axis --direct-host 0 --autosave A.json
    python -m game.net.bot --spec 0:1:3 --direct-join 127.0.0.1:PORT --code C --autosave B.json
    python -m game.net.bot --spec 0:1:3 --direct-host PORT --continue A.json
    python -m game.net.bot --spec 0:1:3 --direct-join 127.0.0.1:PORT --continue B.json

Only for loopback benches and tests.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import sys

from .client import NetError, RelayClient
from .headless import spec_for


async def run_direct(args, spec) -> int:
    from .direct import DirectHost, Peer, join
    from .session import read_net_save
    peer = None
    if args.cont:
        data = read_net_save(args.cont)
        peer = Peer.from_save(data, player=spec.player(data["seat"]), think=args.think,
                              autosave=args.cont)
        if peer.my_army is None:          # killed in army building: its army is built now
            peer.set_army(spec.armies[peer.seat])
    if args.direct_host is not None:
        if peer is None:
            peer = Peer(args.seat, scenario="standard", config=spec.config,
                        options=spec.options, player=spec.player(args.seat),
                        army=spec.armies[args.seat], think=args.think, autosave=args.autosave)
        host = await DirectHost(peer, "127.0.0.1", args.direct_host).start()
        print(json.dumps({"ready": True, "port": host.port, "code": host.code,
                          "game": host.game_id, "seat": peer.seat}), flush=True)
        try:
            await asyncio.wait_for(peer.done.wait(), args.give_up * 10)
        except asyncio.TimeoutError:
            print(json.dumps({"done": False, "error": "timed out"}), flush=True)
            return 2
        finally:
            if peer._worker is not None:
                peer._worker.cancel()
            await host.close()
    else:
        def factory(w: dict) -> Peer:
            return Peer(w["seat"], scenario=w["scenario"], config=w["config"],
                        options=w["options"], player=spec.player(w["seat"]),
                        army=spec.armies[w["seat"]], think=args.think, autosave=args.autosave)
        print(json.dumps({"ready": True}), flush=True)
        try:
            if peer is None:
                peer = await join(args.direct_join, args.code, factory,
                                  give_up_after=args.give_up)
            else:
                peer = await join(args.direct_join, None, factory, token=peer.token,
                                  game_id=peer.game_id, seat=peer.seat, peer=peer,
                                  give_up_after=args.give_up)
        except ConnectionError as exc:
            print(json.dumps({"done": False, "error": str(exc)}), flush=True)
            return 2
        if peer._worker is not None:
            peer._worker.cancel()
    g = peer.game
    print(json.dumps({"done": bool(peer.done.is_set()), "hash": g.state_hash() if g else None,
                      "actions": len(peer.hashes), "desync": peer.stopped,
                      "errors": peer.errors[:5]}), flush=True)
    return 0


async def run(args) -> int:
    idx, seed, tl = (int(x) for x in args.spec.split(":"))
    spec = spec_for(idx, seed, tl)
    if args.direct_host is not None or args.direct_join:
        return await run_direct(args, spec)
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
    ap.add_argument("--url", default="")
    ap.add_argument("--direct-host", type=int, default=None, metavar="PORT")
    ap.add_argument("--direct-join", default="", metavar="ADDRESS")
    ap.add_argument("--autosave", default=None)
    ap.add_argument("--continue", dest="cont", default=None)
    ap.add_argument("--spec", required=True)
    ap.add_argument("--seat", choices=("Axis", "Allies"))
    ap.add_argument("--create", action="store_true")
    ap.add_argument("--code")
    ap.add_argument("--game")
    ap.add_argument("--token")
    ap.add_argument("--think", type=float, default=0.0)
    ap.add_argument("--give-up", type=float, default=60.0)
    args = ap.parse_args(argv)
    if args.direct_join and not args.direct_join.startswith("127.0.0.1:"):
        ap.error("the bot only connects to 127.0.0.1 (loopback benches)")
    if args.direct_host is None and not args.direct_join and \
            not args.url.startswith("ws://127.0.0.1:"):
        ap.error("the bot only connects to 127.0.0.1 (loopback benches)")
    return asyncio.run(run(args))


if __name__ == "__main__":
    sys.exit(main())
