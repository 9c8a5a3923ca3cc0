"""Two players on two computers, played through the real screens: two game processes
(each a whole App at 1280x800, driven by real mouse / key / text events as a player
gives them), on loopback, headless (SDL dummy driver) unless DISPLAY is set.

    python bench/net_play_ui.py --out docs/screens/net [--edition later] [--kind direct|relay|both]

Direct: the host (Axis) hosts from the menu and builds its army in secret; the joiner
(Allies) types the address and code on Join a battle and builds its army; the battle
runs with each machine's player acting on its own screen (each player's moves are
chosen by the recruit AI and given to the battle screen as its input modes do; a
defensive-fire answer takes a player's 1.5 s, so the mover's screen shows it waiting);
chat lines both ways; the joiner's process is killed (SIGKILL) mid-battle; a new
joiner process carries the battle on from Join a battle ("your battles to carry on")
and both play to the end.  Relay: the same through ``python -m game.net.relay``, turn
by turn: the joiner closes its game mid-battle (to the menu, then the process ends)
and comes back later from Join a battle.

Screenshots of both screens go to ``--out``; every step is printed, and the last line
is ``play-through: <kind> ... ok`` or the problem.  Bounded: each process gives up
after ``--time-limit`` seconds.
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


# --- one player's process --------------------------------------------------------------------
def player_main(a: argparse.Namespace) -> int:
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    if not os.environ.get("DISPLAY"):
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ["HEXFRONT_DATA_DIR"] = a.data
    os.environ["HEXFRONT_CONFIG_DIR"] = a.data + "-cfg"
    import pygame
    from game.ai.base import make_player
    from game.rules.state import DefensiveFirePrompt
    from game.ui.app import App
    from game.ui.settings import Settings
    from tests.net.netkit import read_on
    from tests.uikit import click, press, step

    work, out = Path(a.work), Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    tag = a.role
    t_end = time.monotonic() + a.time_limit

    def say(text: str) -> None:
        print(f"[{tag}] {text}", flush=True)

    def shot(name: str) -> None:
        step(app, 2)
        app.screenshot(out / f"{name}.png")
        say(f"screenshot {name}.png")

    def until(cond, what: str, seconds: float = 120.0) -> None:
        end = min(t_end, time.monotonic() + seconds)
        while time.monotonic() < end:
            step(app, 1)
            if cond():
                return
            time.sleep(0.005)
        raise SystemExit(f"[{tag}] gave up waiting for {what}")

    def type_into(entry, text: str) -> None:
        click(app, entry.rect.center)
        for _ in range(80):                        # what is there already (a default)
            if not entry.get_text():
                break
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_BACKSPACE,
                                                 mod=0, unicode="\b", scancode=0))
            step(app, 1)
        for ch in text:
            pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=ch))
            step(app, 1)

    settings = Settings(sound=False)
    settings.animation_speed = "fast"
    app = App(size=(1280, 800), settings=settings, save_settings=False)
    app.running = True
    app.switch(app.menu_scene())
    step(app, 3)
    seat = "Axis" if tag.startswith("host") else "Allies"
    from game.ui.scenes.battle import BattleScene

    if tag == "host":
        from game.ui.scenes.net_battle import NetWaitScene
        press(app, "host")
        host = app.scene
        host.port = 0
        if a.edition == "later":
            press(app, "edition")
        if a.kind == "relay":
            press(app, "how")
            type_into(host.relay_entry, a.relay[5:])
        shot(f"{a.kind}_host_setup")
        press(app, "army")
        press(app, "sample")
        shot(f"{a.kind}_host_army")
        press(app, "done")
        wait = app.scene
        assert isinstance(wait, NetWaitScene), type(wait)
        until(lambda: wait.info.get("code"), "the join code")
        if a.kind == "direct":
            until(lambda: "port" in wait.info, "the port")
            addr = f"127.0.0.1:{wait.info['port']}"
        else:
            addr = a.relay[5:]
        (work / "host.json").write_text(json.dumps({"address": addr,
                                                     "code": wait.info["code"]}))
        shot(f"{a.kind}_host_waiting")
        say(f"hosting: {addr} code {wait.info['code']}")
    elif tag == "join":
        from game.ui.scenes.net_host import NetArmyScene
        from game.ui.scenes.net_join import NetJoinScene
        until(lambda: (work / "host.json").exists(), "the host's code")
        info = json.loads((work / "host.json").read_text())
        press(app, "join")
        js = app.scene
        assert isinstance(js, NetJoinScene)
        if a.kind == "relay":
            press(app, "how")
            js = app.scene
        type_into(js.address, info["address"])
        type_into(js.code, info["code"].lower())
        shot(f"{a.kind}_join_typed")
        press(app, "join")
        until(lambda: isinstance(app.scene, NetArmyScene), "the army builder")
        say(f"joined: playing {app.scene.side}, edition {app.scene.setup.edition}")
        (work / "join_edition").write_text(app.scene.setup.edition)
        press(app, "sample")
        press(app, "done")
    else:                                              # "rejoin": carry it on from the menu
        from game.ui.scenes.net_join import NetJoinScene
        press(app, "join")
        js = app.scene
        assert isinstance(js, NetJoinScene)
        key = "direct_0" if a.kind == "direct" else "saved_0"
        until(lambda: key in js.buttons, f"'{key}' on Join a battle", 10)
        shot(f"{a.kind}_rejoin_list")
        say(f"carry on: {js.buttons[key].text}")
        press(app, key)

    until(lambda: isinstance(app.scene, BattleScene), "the battle screen")
    battle = app.scene
    seat = battle.ai.local
    say(f"battle screen: playing {seat}; edition {battle.setup.edition}, "
        f"map {battle.game.state.battle_map.name}")
    me = make_player("recruit", 11 if seat == "Axis" else 12)
    seen: set[str] = set()
    next_at = 0.0
    chat_said = False
    refused = 0
    leave_after = a.leave_after
    while not battle.game.over:
        if time.monotonic() > t_end:
            raise SystemExit(f"[{tag}] the battle did not end in time "
                             f"({len(battle.game.history)} actions)")
        step(app, 1)
        if app.scene is not battle:
            raise SystemExit(f"[{tag}] left the battle screen for {type(app.scene).__name__}")
        st = battle.state
        n = len(battle.game.history)
        (work / f"{tag}.progress").write_text(str(n))
        line = battle.ai.waiting_line
        if battle.ai.stopped:
            raise SystemExit(f"[{tag}] the battle stopped: {battle.ai.stopped}")
        if "secret" not in seen and any("kept secret" in t for t, _ in battle.logp.lines):
            seen.add("secret")
            shot(f"{a.kind}_{tag}_secret_army")
        if tag == "host" and not chat_said and n >= 1:
            chat_said = True
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SLASH, mod=0,
                                                 unicode="/", scancode=0))
            step(app, 1)
            for ch in "good luck!":
                pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=ch))
            step(app, 1)
            shot(f"{a.kind}_host_chat_typing")
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0,
                                                 unicode="\r", scancode=0))
            step(app, 1)
        if "chat" not in seen and any("player: good luck!" in t for t, _ in battle.logp.lines):
            seen.add("chat")
            shot(f"{a.kind}_{tag}_chat_received")
        if "reveal" not in seen and st.units and n > 2:
            seen.add("reveal")
            shot(f"{a.kind}_{tag}_deployment_revealed")
        if "away" not in seen and battle.ai.opponent == "away" and tag == "host":
            seen.add("away")
            shot(f"{a.kind}_host_other_player_away")
            say(f"waiting line: {line}")
        if "back" not in seen and "away" in seen and battle.ai.opponent == "connected":
            seen.add("back")
            step(app, 10)
            shot(f"{a.kind}_host_other_player_back")
        if tag == "rejoin" and "resumed" not in seen:
            seen.add("resumed")
            step(app, 20)
            shot(f"{a.kind}_rejoin_battle_resumed")
        if leave_after and n >= leave_after and st.to_act != seat:
            say(f"closing the game after {n} actions (to the menu)")
            battle.services.to_menu()
            step(app, 3)
            shot(f"{a.kind}_{tag}_left_to_menu")
            return 0
        if read_on(app, battle):
            continue
        prompt = isinstance(st.pending, DefensiveFirePrompt)
        if st.to_act != seat and prompt and "df_wait" not in seen and "defensive" in line:
            seen.add("df_wait")
            shot(f"{a.kind}_{tag}_waiting_for_defensive_fire")
            say(f"waiting line: {line}")
        if st.to_act == seat and not battle.ai.in_flight and not battle.stack and \
                not battle.anim.busy:
            now = time.monotonic()
            if next_at == 0.0:
                next_at = now + (1.5 if prompt else 0.15)      # a player's moment to think
                if prompt and "df_prompt" not in seen:
                    seen.add("df_prompt")
                    shot(f"{a.kind}_{tag}_defensive_fire_prompt")
            if now >= next_at:
                next_at = 0.0
                action = me.choose(battle.game)
                if not battle.send(action):
                    refused += 1
                    peer = battle.ai.bridge.peer
                    say(f"refused {action}: {battle.game.check(action)}; screen "
                        f"{len(battle.game.history)} {battle.game.state_hash()[:8]}, network "
                        f"{len(peer.game.history) if peer else '-'} "
                        f"{peer.game.state_hash()[:8] if peer else '-'}; "
                        f"{peer.game.check(action) if peer else ''}")
                    if refused > 5:
                        raise SystemExit(f"[{tag}] the player's moves are refused")
        else:
            next_at = 0.0
        time.sleep(0.003)
    step(app, 30)
    shot(f"{a.kind}_{tag}_battle_over")
    say(f"battle over after {len(battle.game.history)} actions: "
        f"{battle.game.state.outcome}; hash {battle.game.state_hash()[:16]}")
    (work / f"{tag}.final").write_text(battle.game.state_hash())
    return 0


# --- the two players -------------------------------------------------------------------------
def run_kind(kind: str, args: argparse.Namespace) -> str:
    work = Path(tempfile.mkdtemp(prefix=f"hexfront-play-{kind}-"))
    relay = None
    base = [sys.executable, str(Path(__file__).resolve()), "--player", "--kind", kind,
            "--work", str(work), "--out", str(Path(args.out).resolve()),
            "--edition", args.edition, "--time-limit", str(args.time_limit)]
    if kind == "relay":
        from game.net.headless import RelayProcess
        (work / "relay").mkdir()
        relay = RelayProcess(str(work / "relay")).start()
        base += ["--relay", relay.url]

    def start(role: str, data: str, *extra: str) -> subprocess.Popen:
        return subprocess.Popen(base + ["--role", role, "--data", str(work / data), *extra],
                                cwd=str(ROOT))
    try:
        host = start("host", "host-machine")
        if kind == "direct":
            join = start("join", "join-machine")
            end = time.monotonic() + args.time_limit
            while time.monotonic() < end and join.poll() is None:
                p = work / "join.progress"
                if p.exists() and int(p.read_text() or 0) >= args.kill_at:
                    break
                time.sleep(0.2)
            print(f"[bench] killing the joining machine (SIGKILL) at "
                  f"{(work / 'join.progress').read_text()} actions", flush=True)
            join.send_signal(signal.SIGKILL)
            join.wait()
            time.sleep(3.0)                            # the host shows the player away
        else:
            join = start("join", "join-machine", "--leave-after", str(args.kill_at))
            join.wait()
            time.sleep(3.0)
        rejoin = start("rejoin", "join-machine")
        rc_h, rc_r = host.wait(args.time_limit + 60), rejoin.wait(args.time_limit + 60)
        fh, fr = work / "host.final", work / "rejoin.final"
        if rc_h or rc_r or not fh.exists() or not fr.exists():
            return f"play-through: {kind} FAILED (exit codes host {rc_h}, rejoin {rc_r})"
        same = fh.read_text() == fr.read_text()
        ed = (work / "join_edition").read_text() if (work / "join_edition").exists() else "?"
        return (f"play-through: {kind}, edition host {args.edition} / joiner {ed}: "
                f"{'same final position on both machines' if same else 'POSITIONS DIFFER'}"
                f" {'ok' if same and ed == args.edition else 'FAILED'}")
    finally:
        if relay is not None:
            relay.stop()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default="docs/screens/net")
    ap.add_argument("--kind", choices=("direct", "relay", "both"), default="both")
    ap.add_argument("--edition", choices=("first", "later"), default="first")
    ap.add_argument("--kill-at", type=int, default=45, help="actions before the joiner goes")
    ap.add_argument("--time-limit", type=float, default=600.0)
    ap.add_argument("--player", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--role", default="host", help=argparse.SUPPRESS)
    ap.add_argument("--work", default="", help=argparse.SUPPRESS)
    ap.add_argument("--data", default="", help=argparse.SUPPRESS)
    ap.add_argument("--relay", default="", help=argparse.SUPPRESS)
    ap.add_argument("--leave-after", type=int, default=0, help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.player:
        return player_main(a)
    lines = [run_kind(k, a) for k in (("direct", "relay") if a.kind == "both" else (a.kind,))]
    for line in lines:
        print(line)
    return 0 if all(line.endswith("ok") for line in lines) else 1


if __name__ == "__main__":
    raise SystemExit(main())
