"""Faults: kill and restart the clients and the relay at random moments.

    python bench/net_faults.py [--client-kills 50] [--relay-kills 10] [--battles 5] [--seed 1]

Every process is real: the relay (``python -m game.net.relay``) and the two AI
seats (``python -m game.net.bot``), on 127.0.0.1.  At random moments a seat is
killed (SIGKILL) and started again from nothing with only its seat token (it gets
the record from the relay and rebuilds the battle), or the relay is killed and
started again on the same port from its store (the seats reconnect by themselves).
Afterwards every battle must be finished, both seats must hold the same final
position, and the relay's stored record must replay (with the seed it revealed)
to that same position: nothing lost, no desync.  Bounded: every battle has a
timeout and the whole run ``--time-limit``.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from game.net.headless import RelayProcess  # noqa: E402
from game.net.relay import read_stored  # noqa: E402
from game.net.session import apply_action, armies_from_names, build_game  # noqa: E402
from game.rules.actions import action_from_dict  # noqa: E402
from game.rules.dice import Dice  # noqa: E402


class Bot:
    def __init__(self, url: str, spec: str, args: list[str]) -> None:
        self.url, self.spec, self.args = url, spec, args
        self.proc = None
        self.ready: dict | None = None
        self.done: dict | None = None

    async def start(self, args: list[str] | None = None) -> None:
        url = ["--url", self.url] if self.url else []
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "game.net.bot", *url, "--spec", self.spec,
            "--think", "0.01", *(args or self.args), stdout=asyncio.subprocess.PIPE,
            stderr=open(os.environ.get("NET_FAULTS_LOG", os.devnull), "a"), cwd=str(ROOT))
        self.reader = asyncio.ensure_future(self._read(self.proc))

    async def _read(self, proc) -> None:
        while True:
            line = await proc.stdout.readline()
            if not line:
                return
            d = json.loads(line)
            if d.get("ready"):
                self.ready = self.ready or d
            elif "done" in d:
                self.done = d

    def alive(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    async def kill(self) -> None:
        if self.alive():
            self.proc.kill()
            await self.proc.wait()
        self.reader.cancel()

    async def restart(self) -> None:
        r = self.ready
        await self.start(["--game", r["game"], "--seat", r["seat"], "--token", r["token"]])


async def one_battle(i: int, args, relay: RelayProcess, rng: random.Random, budget: dict) -> dict:
    spec_s = f"{i}:{args.seed}:{args.turn_limit}"
    a = Bot(relay.url, spec_s, ["--create", "--seat", "Axis"])
    await a.start()
    t_end = time.monotonic() + args.battle_timeout
    while a.ready is None and time.monotonic() < t_end:
        await asyncio.sleep(0.05)
    b = Bot(relay.url, spec_s, ["--code", a.ready["code"]])
    await b.start()
    while b.ready is None and time.monotonic() < t_end:
        await asyncio.sleep(0.05)
    kills = {"client": 0, "relay": 0}
    cap = {"client": -(-args.client_kills // args.battles),       # spread over the battles
           "relay": -(-args.relay_kills // args.battles)}
    while time.monotonic() < t_end and not (a.done and b.done):
        await asyncio.sleep(rng.uniform(0.3, 1.2))
        if a.done and b.done:
            break
        if kills["client"] >= cap["client"] and kills["relay"] >= cap["relay"]:
            await asyncio.sleep(0.2)
            continue
        share = budget["relay"] / max(1, budget["client"] + budget["relay"])
        if budget["relay"] > 0 and kills["relay"] < cap["relay"] and rng.random() < share:
            relay.kill()
            await asyncio.sleep(rng.uniform(0.0, 0.3))
            relay.start()
            budget["relay"] -= 1
            kills["relay"] += 1
        elif budget["client"] > 0 and kills["client"] < cap["client"]:
            victim = rng.choice([x for x in (a, b) if not x.done] or [a])
            if victim.done:
                continue
            await victim.kill()
            await victim.restart()
            budget["client"] -= 1
            kills["client"] += 1
    for x in (a, b):
        while x.alive() and x.done is None and time.monotonic() < t_end:
            await asyncio.sleep(0.05)
        await x.kill()
    out = {"index": i, "kills": kills, "ok": False, "why": ""}
    if not (a.done and b.done and a.done.get("done") and b.done.get("done")):
        out["why"] = f"a seat did not finish (Axis: {a.done}, Allies: {b.done})"[:400]
        return out
    if a.done["hash"] != b.done["hash"] or a.done.get("desync") or b.done.get("desync"):
        out["why"] = "the two seats disagree"
        return out
    gid = a.ready["game"]
    stored = read_stored(Path(relay.store) / f"game-{gid}.jsonl")
    game = build_game("standard", stored["config"], stored["options"],
                      armies_from_names(stored["armies"], "standard", stored["options"]),
                      Dice(stored["seed"]))
    for act in stored["actions"]:
        apply_action(game, action_from_dict(act))
    out["actions"] = len(stored["actions"])
    if game.state_hash() != a.done["hash"] or a.done["audit"] != "ok" or b.done["audit"] != "ok":
        out["why"] = "the stored record does not replay to the seats' final position"
        return out
    out["ok"] = True
    return out


async def one_direct_battle(i: int, args, rng: random.Random, budget: dict, tmp: str) -> dict:
    """A direct battle (no relay) between two bot processes, each keeping a continue-file
    after every step; either is killed (SIGKILL) at random moments once both players are
    in (the set-up before deployment included) and started again from its file (the host on the same port, the joiner with
    its seat token).  Every battle must finish with both machines' final positions equal
    and the record replaying to it."""
    from game.net.session import read_net_save, replay_record
    spec_s = f"{i}:{args.seed}:{args.turn_limit}"
    save = {"host": os.path.join(tmp, f"d{i}-host.json"), "join": os.path.join(tmp, f"d{i}-join.json")}
    h = Bot("", spec_s, ["--seat", "Axis", "--direct-host", "0", "--autosave", save["host"]])
    await h.start()
    t_end = time.monotonic() + args.battle_timeout
    while h.ready is None and time.monotonic() < t_end:
        await asyncio.sleep(0.05)
    port = h.ready["port"]
    addr = f"127.0.0.1:{port}"
    j = Bot("", spec_s, ["--direct-join", addr, "--code", h.ready["code"],
                         "--autosave", save["join"]])
    await j.start()
    kills = 0
    cap = -(-args.direct_kills // args.direct_battles)
    restart = {id(h): ["--direct-host", str(port), "--continue", save["host"]],
               id(j): ["--direct-join", addr, "--continue", save["join"]]}
    early = 0                            # kills before deployment (army building, set-up)
    while time.monotonic() < t_end and not (h.done and j.done):
        # the first kill as soon as both players are in (the set-up), the others at random
        await asyncio.sleep(rng.uniform(0.3, 1.2) if kills else 0.01)
        if h.done or j.done or budget["direct"] <= 0 or kills >= cap:
            continue
        if not (os.path.exists(save["host"]) and os.path.exists(save["join"])):
            continue                     # before both players are in there is nothing to carry on from
        victim = rng.choice([h, j])
        try:
            with open(save["host" if victim is h else "join"], encoding="utf-8") as f:
                armies = json.load(f).get("armies") or {}
            early += not all(armies.get(s) for s in ("Axis", "Allies"))
        except (OSError, ValueError):
            pass
        await victim.kill()
        victim.done = None
        await asyncio.sleep(rng.uniform(0.0, 0.3))
        await victim.start(restart[id(victim)])
        budget["direct"] -= 1
        kills += 1
    for x in (h, j):
        while x.alive() and x.done is None and time.monotonic() < t_end:
            await asyncio.sleep(0.05)
        await x.kill()
    out = {"index": i, "kills": {"client": kills, "relay": 0}, "ok": False, "why": "",
           "early": early}
    if not (h.done and j.done and h.done.get("done") and j.done.get("done")):
        out["why"] = f"a machine did not finish (host: {h.done}, joiner: {j.done})"[:400]
        return out
    if h.done["hash"] != j.done["hash"] or h.done.get("desync") or j.done.get("desync"):
        out["why"] = f"the two machines disagree ({h.done.get('desync') or j.done.get('desync')})"
        return out
    d = read_net_save(save["join"])
    game = replay_record(d["scenario"], d["config"], d["options"], d["armies"], d["actions"],
                         d["rolls"], d["hashes"])
    out["actions"] = len(d["actions"])
    if game.state_hash() != h.done["hash"] or not game.over:
        out["why"] = "the saved record does not replay to the final position"
        return out
    out["ok"] = True
    return out


async def run_direct(args) -> list:
    rng = random.Random(args.seed + 7)
    budget = {"direct": args.direct_kills}
    results = []
    t_end = time.monotonic() + args.time_limit
    with tempfile.TemporaryDirectory(prefix="hexfront-dfaults-") as tmp:
        i = 0
        while i < args.direct_battles and time.monotonic() < t_end:
            r = await one_direct_battle(100 + i, args, rng, budget, tmp)
            results.append(r)
            print(f"direct battle {i}: {r.get('actions', '?')} actions, killed a machine "
                  f"{r['kills']['client']} times ({r.get('early', 0)} before deployment): "
                  f"{'finished, same final hash' if r['ok'] else 'FAILED: ' + r['why']}",
                  flush=True)
            i += 1
    return results


async def run(args) -> int:
    if args.direct_only:
        res = await run_direct(args)
        bad = sum(1 for r in res if not r["ok"])
        print(f"direct kills: {sum(r['kills']['client'] for r in res)}, battles: {len(res)}, "
              f"failed: {bad}")
        return 0 if bad == 0 else 1
    rng = random.Random(args.seed)
    budget = {"client": args.client_kills, "relay": args.relay_kills}
    results = []
    t_end = time.monotonic() + args.time_limit
    with tempfile.TemporaryDirectory(prefix="hexfront-faults-") as store:
        relay = RelayProcess(store, rate=1000, burst=2000).start()
        try:
            i = 0
            while (budget["client"] > 0 or budget["relay"] > 0 or i < args.battles) and \
                    time.monotonic() < t_end and i < args.battles * 4:
                r = await one_battle(i, args, relay, rng, budget)
                results.append(r)
                print(f"battle {i}: {r.get('actions', '?')} actions, killed the clients "
                      f"{r['kills']['client']} times and the relay {r['kills']['relay']} "
                      f"times: {'finished, same final hash' if r['ok'] else 'FAILED: ' + r['why']}",
                      flush=True)
                i += 1
        finally:
            relay.stop()
    ck = sum(r["kills"]["client"] for r in results)
    rk = sum(r["kills"]["relay"] for r in results)
    bad = sum(1 for r in results if not r["ok"])
    print(f"client kills: {ck}, relay kills: {rk}, battles: {len(results)}, failed: {bad}")
    dres = await run_direct(args) if args.direct_kills > 0 else []
    dbad = sum(1 for r in dres if not r["ok"])
    if dres:
        print(f"direct kills: {sum(r['kills']['client'] for r in dres)}, battles: {len(dres)}, "
              f"failed: {dbad}")
    return 0 if bad == 0 and dbad == 0 else 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--client-kills", type=int, default=50)
    ap.add_argument("--relay-kills", type=int, default=10)
    ap.add_argument("--battles", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--turn-limit", type=int, default=3)
    ap.add_argument("--battle-timeout", type=float, default=240.0)
    ap.add_argument("--time-limit", type=float, default=900.0)
    ap.add_argument("--direct-kills", type=int, default=50,
                    help="kills of either machine in direct battles (no relay)")
    ap.add_argument("--direct-battles", type=int, default=5)
    ap.add_argument("--direct-only", action="store_true", help="only the direct battles")
    return asyncio.run(run(ap.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
