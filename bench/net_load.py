"""Load: one relay holding many concurrent battles between AI clients.

    python bench/net_load.py [--battles 100] [--workers 2] [--think 0.5] [--seed 1]

The relay runs as its own process on 127.0.0.1; the battles' 2 x N seats run in
``--workers`` client processes (N / workers battles each, all at once, in one
event loop per process).  Each seat waits ``--think`` seconds (+-50%) before each
of its actions, like a quick player.  Printed: the message latency (an action sent
-> the relay's ``played`` back), p50 / p95 / max over every action of every
battle, and the errors.  Bounded by ``--time-limit``.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def pct(xs, q):
    if not xs:
        return 0.0
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def worker(url: str, indices: list[int], seed: int, think: float, turn_limit: int,
           timeout: float, aside: bool, out) -> None:
    from game.net.headless import relay_battle, spec_for
    if aside:
        sys.setswitchinterval(0.001)   # the network thread gets the GIL back sooner

    async def main():
        import random
        rng = random.Random(seed)

        async def one(i):
            await asyncio.sleep(rng.uniform(0, 2.0))         # battles start over 2 s
            return await relay_battle(url, spec_for(i, seed, turn_limit), timeout=timeout,
                                      think=think, think_aside=aside)
        return await asyncio.gather(*(one(i) for i in indices))
    results = asyncio.run(main())
    out.put([{"lat": r.latencies, "errors": r.errors, "desync": r.desync,
              "finished": r.outcome is not None and r.hashes_equal and r.audit == "ok",
              "actions": r.actions} for r in results])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--battles", type=int, default=100)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--think", type=float, default=0.5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--turn-limit", type=int, default=2)
    ap.add_argument("--time-limit", type=float, default=600.0)
    ap.add_argument("--inline-ai", action="store_true",
                    help="the AI seats think in the event loop (as before): a seat's "
                         "confirmations wait while another seat of its process thinks")
    args = ap.parse_args()
    from game.net.headless import RelayProcess
    with tempfile.TemporaryDirectory(prefix="hexfront-load-") as store:
        relay = RelayProcess(store, rate=200, burst=400).start()
        t0 = time.perf_counter()
        try:
            ctx = mp.get_context("spawn")
            q = ctx.Queue()
            procs = []
            for w in range(args.workers):
                idx = list(range(w, args.battles, args.workers))
                p = ctx.Process(target=worker, args=(relay.url, idx, args.seed, args.think,
                                                     args.turn_limit, args.time_limit,
                                                     not args.inline_ai, q))
                p.start()
                procs.append(p)
            rows = []
            for _ in procs:
                rows += q.get(timeout=args.time_limit + 30)
            for p in procs:
                p.join(10)
        finally:
            relay_said = relay.stop()
        wall = time.perf_counter() - t0
    lat = [x for r in rows for x in r["lat"]]
    errors = sum(1 for r in rows if r["errors"] or not r["finished"])
    desyncs = sum(1 for r in rows if r["desync"])
    actions = sum(r["actions"] for r in rows)
    print(f"{len(rows)} concurrent battles through one relay, {actions} actions in {wall:.1f} s "
          f"({actions / wall:.0f} actions/s), think {args.think} s, AI "
          f"{'in the event loop' if args.inline_ai else 'in one thread per client process'}")
    for line in relay_said.splitlines():
        if line.startswith("relay:"):
            print(line)
    print(f"message latency (action -> played): p50 {1000 * pct(lat, .5):.1f} ms, "
          f"p95 {1000 * pct(lat, .95):.1f} ms, max {1000 * max(lat or [0]):.1f} ms "
          f"({len(lat)} actions)")
    import os
    print(f"load average while measuring: {os.getloadavg()[1]:.1f} (5 min, {os.cpu_count()} cores)")
    print(f"battles: {len(rows)}, finished: {sum(r['finished'] for r in rows)}, "
          f"desyncs: {desyncs}, errors: {errors}")
    if errors:
        print("first errors:", json.dumps([r["errors"][:2] for r in rows if r["errors"]][:3]))
    return 0 if errors == 0 and desyncs == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
