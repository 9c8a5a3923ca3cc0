"""Network battles between two headless AI clients, through the relay and directly.

    python bench/net_games.py --battles 50 --seed 1 [--turn-limit 3] [--time-limit 900]

Battle ``i`` is played through a relay (``python -m game.net.relay`` in a child
process on 127.0.0.1) when ``i`` is even and directly (host / join on
127.0.0.1, commit-reveal dice) when it is odd.  Each battle is then played again
on one machine with the same dice (the relay's revealed seed; the two chains'
rolls) and the same AI players, and the final hashes must be equal.

Printed: per battle a line; then the p95 latency added per action (the time from
sending an action to the other side's confirmation: the relay's ``played`` or the
peer's hash, minus nothing - it includes the rules run on the other machine), and
the last line ``battles: N, desyncs: D, errors: E``.  Loopback only; the run stops
by itself (every battle has a timeout, the whole run ``--time-limit``).
"""
from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from game.net.headless import (RelayProcess, direct_battle, local_direct_reference,  # noqa: E402
                               local_relay_reference, relay_battle, spec_for)


def pct(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


async def run(args) -> int:
    desyncs = errors = 0
    lat = {"relay": [], "direct": []}
    n_done = 0
    t_end = time.monotonic() + args.time_limit
    with tempfile.TemporaryDirectory(prefix="hexfront-relay-") as store:
        relay = RelayProcess(store, rate=1000, burst=2000).start()
        try:
            for i in range(args.battles):
                if time.monotonic() > t_end:
                    print(f"time limit reached after {n_done} battles")
                    break
                spec = spec_for(i, args.seed, args.turn_limit)
                if i % 2 == 0:
                    res = await relay_battle(relay.url, spec, timeout=args.battle_timeout)
                    ref = None
                    if res.outcome is not None and res.audit == "ok":
                        ref = local_relay_reference(spec, res.seed)
                else:
                    res = await direct_battle(spec, timeout=args.battle_timeout)
                    ref = local_direct_reference(spec, len(res.rolls) + 64) \
                        if res.outcome is not None else None
                same_local = ref is not None and ref.state_hash() == res.final_hash
                bad = []
                if res.desync:
                    desyncs += 1
                    bad.append(f"desync: {res.desync}")
                if res.errors or not res.hashes_equal or not same_local or \
                        (res.mode == "relay" and res.audit != "ok"):
                    errors += 1
                    bad += res.errors[:2]
                    if not res.hashes_equal:
                        bad.append("the two clients' final hashes differ")
                    if not same_local:
                        bad.append("final hash differs from the same battle played locally")
                    if res.mode == "relay" and res.audit != "ok":
                        bad.append(f"dice audit: {res.audit}")
                lat[res.mode] += res.latencies
                n_done += 1
                print(f"battle {i:3d} {res.mode:6} config {spec.config} {res.actions:4d} actions "
                      f"{len(res.rolls):5d} rolls {res.seconds:6.2f} s  "
                      f"{'same as local' if same_local else 'DIFFERS'}"
                      f"{'  ' + '; '.join(bad) if bad else ''}", flush=True)
        finally:
            relay_said = relay.stop()
    for line in relay_said.splitlines():
        if line.startswith("relay:"):
            print(line)
    for mode, xs in lat.items():
        if xs:
            print(f"{mode:6}: added latency per action p50 {1000 * pct(xs, .5):.2f} ms, "
                  f"p95 {1000 * pct(xs, .95):.2f} ms, max {1000 * max(xs):.2f} ms "
                  f"({len(xs)} actions)")
    import os
    print(f"load average while measuring (2 cores): {os.getloadavg()[1]:.1f} (5 min)")
    print(f"battles: {n_done}, desyncs: {desyncs}, errors: {errors}")
    return 0 if (desyncs == 0 and errors == 0) else 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--battles", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--turn-limit", type=int, default=3)
    ap.add_argument("--battle-timeout", type=float, default=120.0)
    ap.add_argument("--time-limit", type=float, default=900.0)
    args = ap.parse_args()
    return asyncio.run(run(args))


if __name__ == "__main__":
    sys.exit(main())
