"""Headless AI-driven network battles (benches and tests), loopback only.

:func:`relay_battle` and :func:`direct_battle` play one seeded battle between two
AI clients over real WebSockets; :func:`local_relay_reference` /
:func:`local_direct_reference` play the same battle on one machine without the
network, so the final hashes can be compared.
"""
from __future__ import annotations

import asyncio
import hashlib
import random
import subprocess
import sys
import time
from dataclasses import dataclass, field

from game.rules.dice import Dice

from .client import RelayClient
from .dice import HashChain, TableDice, offline_rolls
from .direct import DirectHost, Peer, join
from .session import SIDES, apply_action, choose_blind, armies_from_names, build_game

__all__ = ["BattleSpec", "BattleResult", "spec_for", "relay_battle", "direct_battle",
           "local_relay_reference", "local_direct_reference", "RelayProcess"]


@dataclass
class BattleSpec:
    index: int
    seed: int
    config: int
    armies: dict
    options: dict
    levels: tuple = ("recruit", "recruit")
    scenario: str = "standard"

    def player(self, side: str):
        from game.ai.base import make_player
        i = SIDES.index(side)
        return make_player(self.levels[i], self.seed * 31 + i)

    def chain(self, side: str) -> HashChain:
        secret = hashlib.sha256(f"bench|{self.seed}|{side}".encode()).digest()
        return HashChain(secret)


@dataclass
class BattleResult:
    mode: str
    spec: BattleSpec
    final_hash: str | None = None
    hashes_equal: bool = False
    actions: int = 0
    rolls: list = field(default_factory=list)
    latencies: list = field(default_factory=list)
    desync: str | None = None
    errors: list = field(default_factory=list)
    audit: str | None = None
    seconds: float = 0.0
    outcome: object = None
    seed: int | None = None


def spec_for(index: int, seed: int, turn_limit: int = 3,
             levels: tuple = ("recruit", "recruit")) -> BattleSpec:
    from game.ai.army_builder import build_army
    from game.data.units import load_roster
    roster = list(load_roster().values())
    s = seed * 100003 + index
    rng = random.Random(s)
    armies = {side: [c.name for c in build_army(roster, side, 100, rng=rng).cards]
              for side in SIDES}
    return BattleSpec(index, s, 1 + index % 6, armies, {"turn_limit": turn_limit}, levels)


def _play_local(spec: BattleSpec, dice) -> object:
    cards = armies_from_names(spec.armies, spec.scenario, spec.options)
    game = build_game(spec.scenario, spec.config, spec.options, cards, dice)
    players = {s: spec.player(s) for s in SIDES}
    n = 0
    while not game.over and n < 20000:
        side = game.state.to_act
        apply_action(game, choose_blind(players[side], game))
        n += 1
    return game


def local_relay_reference(spec: BattleSpec, seed: int):
    """The battle on one machine with the relay's (revealed) seed."""
    return _play_local(spec, Dice(seed))


def local_direct_reference(spec: BattleSpec, n_rolls: int):
    rolls = offline_rolls(spec.chain("Axis"), spec.chain("Allies"), max(1, n_rolls))
    return _play_local(spec, TableDice(rolls))


async def relay_battle(url: str, spec: BattleSpec, *, timeout: float = 120.0, think: float = 0.0,
                       save_dir=None, think_aside: bool = False) -> BattleResult:
    res = BattleResult("relay", spec)
    t0 = time.perf_counter()
    a = RelayClient(url, player=spec.player("Axis"), army=spec.armies["Axis"], think=think,
                    think_aside=think_aside,
                    create={"scenario": spec.scenario, "config": spec.config, "seat": "Axis",
                            "options": spec.options}, save_dir=save_dir)
    ta = asyncio.ensure_future(a.run())
    b = None
    try:
        await asyncio.wait_for(a.ready.wait(), 10)
        b = RelayClient(url, player=spec.player("Allies"), army=spec.armies["Allies"],
                        code=a.st.code, think=think, save_dir=save_dir,
                        think_aside=think_aside)
        tb = asyncio.ensure_future(b.run())
        await asyncio.wait_for(asyncio.gather(ta, tb), timeout)
    except (asyncio.TimeoutError, ConnectionError, RuntimeError) as exc:
        res.errors.append(f"{type(exc).__name__}: {exc}")
        a.stop()
        if b is not None:
            b.stop()
    collect_relay(res, a, b)
    res.seconds = time.perf_counter() - t0
    return res


def collect_relay(res: BattleResult, a: RelayClient, b: RelayClient | None) -> None:
    res.desync = a.st.desync or (b.st.desync if b else None)
    res.errors += a.st.errors + (b.st.errors if b else [])
    res.latencies = a.st.latencies + (b.st.latencies if b else [])
    if a.game is not None:
        res.final_hash = a.game.state_hash()
        res.actions = len(a.game.history)
        res.outcome = a.game.state.outcome
        res.rolls = a.all_rolls()
    if b is not None and b.game is not None:
        res.hashes_equal = b.game.state_hash() == res.final_hash
    res.seed = a.st.seed
    res.audit = a.st.audit if (b is None or a.st.audit == b.st.audit) else \
        f"{a.st.audit} / {b.st.audit}"


async def direct_battle(spec: BattleSpec, *, timeout: float = 120.0,
                        think: float = 0.0) -> BattleResult:
    res = BattleResult("direct", spec)
    t0 = time.perf_counter()
    hp = Peer("Axis", scenario=spec.scenario, config=spec.config, options=spec.options,
              player=spec.player("Axis"), army=spec.armies["Axis"], chain=spec.chain("Axis"),
              think=think)
    host = await DirectHost(hp, "127.0.0.1", 0).start()
    made: list[Peer] = []

    def factory(w: dict) -> Peer:
        p = Peer(w["seat"], scenario=w["scenario"], config=w["config"], options=w["options"],
                 player=spec.player(w["seat"]), army=spec.armies[w["seat"]],
                 chain=spec.chain(w["seat"]), think=think)
        made.append(p)
        return p
    try:
        jp = await asyncio.wait_for(join(f"127.0.0.1:{host.port}", host.code, factory), timeout)
        await asyncio.wait_for(hp.done.wait(), 10)
    except (asyncio.TimeoutError, ConnectionError) as exc:
        res.errors.append(f"{type(exc).__name__}: {exc}")
        jp = made[0] if made else None
    finally:
        await host.close()
    for p in (hp, jp):
        if p is not None and p._worker is not None:
            p._worker.cancel()
    res.desync = hp.stopped or (jp.stopped if jp else None)
    res.errors += hp.errors + (jp.errors if jp else [])
    res.latencies = hp.latencies + (jp.latencies if jp else [])
    if hp.game is not None:
        res.final_hash = hp.game.state_hash()
        res.actions = len(hp.game.history)
        res.outcome = hp.game.state.outcome
        res.rolls = list(hp.dice.table)
    if jp is not None and jp.game is not None:
        res.hashes_equal = jp.game.state_hash() == res.final_hash
    res.seconds = time.perf_counter() - t0
    return res


class RelayProcess:
    """``python -m game.net.relay`` in a child process on 127.0.0.1 (benches, tests)."""

    def __init__(self, store: str, port: int = 0, rate: float | None = None,
                 burst: int | None = None) -> None:
        self.store, self.port, self.rate, self.burst = store, port, rate, burst
        self.proc: subprocess.Popen | None = None

    def start(self, timeout: float = 20.0) -> "RelayProcess":
        cmd = [sys.executable, "-m", "game.net.relay", "--host", "127.0.0.1",
               "--port", str(self.port), "--store", self.store]
        if self.rate is not None:
            cmd += ["--rate", str(self.rate)]
        if self.burst is not None:
            cmd += ["--burst", str(self.burst)]
        import os
        self.errlog = os.path.join(self.store, "relay-stderr.log")
        self._err = open(self.errlog, "a", encoding="utf-8")
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=self._err, text=True)
        t_end = time.monotonic() + timeout
        line = ""
        while time.monotonic() < t_end:
            line = self.proc.stdout.readline()
            if "listening on" in line or not line:
                break
        if "listening on" not in line:
            self.stop()
            with open(self.errlog, encoding="utf-8") as f:
                err = f.read()[-500:]
            raise RuntimeError(f"the relay did not start: {line.strip()} {err.strip()}")
        self.port = int(line.split("listening on ", 1)[1].split()[0].rsplit(":", 1)[1])
        return self

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        self.stop()

    def stop(self) -> str:
        """Stop the relay (SIGTERM: it prints its per-action CPU times); what it printed."""
        out = ""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                out, _ = self.proc.communicate(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        if self.proc is not None and self.proc.stdout is not None:
            self.proc.stdout.close()
        if getattr(self, "_err", None) is not None:
            self._err.close()
        return out or ""
