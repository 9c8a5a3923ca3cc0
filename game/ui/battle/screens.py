"""Screenshots of every battle-screen state, for the docs and for looking at.

    SDL_VIDEODRIVER=dummy python -m game.ui.battle.screens [OUTDIR] [--size 1280x800]

A real game (configuration 1, the sample armies, a fixed seed) is driven with
legal actions until each state appears; each picture is taken through the
real screen with posted mouse moves and keys, so what is saved is what a
player sees.  Writes ``battle_*.png`` and the screens around the battle (menu,
settings, setup, army builder, hand-over, Load list, preview, tokens) into
OUTDIR (default docs/screens).  Saves go to the user data folder: set
HEXFRONT_DATA_DIR to a scratch folder.
"""
from __future__ import annotations

import os
import random
import sys
from pathlib import Path
from typing import Any, Callable

__all__ = ["main", "take_all"]


def _setup(seed: int):
    from game.ui.scenes.battle_setup import make_setup
    return make_setup(scenario="standard", config=1, seed=seed)


def take_all(out: Path, size: tuple[int, int] = (1280, 800), seed: int = 7) -> list[Path]:
    import pygame

    from game.rules.actions import Attack, ChooseEnd, ChooseOrder, Deploy, EndPhase, Move
    from game.rules.state import DefensiveFirePrompt, OrderChoice, Phase
    from game.ui.app import App
    from game.ui.battle.demo import pick_action
    from game.ui.battle.modes import CasualtyMode, FacingMode
    from game.ui.scenes.battle import BattleScene
    from game.ui.settings import Settings

    out.mkdir(parents=True, exist_ok=True)
    settings = Settings(sound=False)
    settings.animation_speed = "off" if "off" in _speeds() else settings.animation_speed
    app = App(size=size, settings=settings, save_settings=False)
    app.running = True
    rng = random.Random(seed)
    saved: list[Path] = []

    def frames(n: int = 3) -> None:
        for _ in range(n):
            app.step(dt=1 / 60)

    def hover(pos) -> None:
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0),
                                             buttons=(0, 0, 0)))
        frames(2)

    def shot(name: str) -> None:
        frames(2)
        if isinstance(app.scene, BattleScene):
            app.scene.anim.banner = None
            frames(1)
        p = out / f"battle_{name}.png"
        app.screenshot(p)
        saved.append(p)

    def scene() -> BattleScene:
        return app.scene

    def play_until(cond: Callable[[Any], bool], limit: int = 4000) -> bool:
        g = scene().game
        for _ in range(limit):
            if cond(g):
                scene().refresh()
                return True
            if g.over:
                return False
            a = pick_action(g, rng)
            scene().send(a)
            scene().stack.clear()
            scene().anim.skip()
        return False

    app.switch(BattleScene(app, _setup(seed)))
    sc = scene()
    sc.view.ready()
    frames(4)
    shot("coin_flip")

    g = sc.game
    sc.send(ChooseOrder(g.state.pending.side, True))
    frames(2)
    hover((sc.view.rect.x + sc.view.rect.w // 5, sc.view.rect.centery))
    shot("choose_end")
    sc.send(ChooseEnd(g.state.to_act, "left"))
    # deploy half the first army, then select a Vehicle and show the facing picker
    side = g.state.to_act
    for _ in range(5):
        acts = [a for a in g.legal_actions() if isinstance(a, Deploy) and a.carrier is None]
        if acts:
            sc.send(rng.choice([a for a in acts if a.uid == acts[0].uid]))
    sc.anim.skip()
    waiting = [u for u in g.state.units_of(side) if u.hex is None]
    veh = next((u for u in waiting if u.is_vehicle), waiting[0])
    sc.selected = veh.uid
    frames(2)
    legal = [a for a in g.legal_actions() if isinstance(a, Deploy) and a.uid == veh.uid]
    hover(sc.view.center(legal[len(legal) // 2].hex))
    shot("deploy")
    if veh.is_vehicle:
        sc.base.place(veh.uid, legal[len(legal) // 2].hex)
        frames(2)
        m = sc.mode
        if isinstance(m, FacingMode):
            hover(m.wedge_pos(5))
            shot("deploy_facing")
            m.pick(5)
    play_until(lambda g: g.state.phase == Phase.DEPLOY_SECOND)
    frames(2)
    shot("deploy_second")
    play_until(lambda g: isinstance(g.state.pending, OrderChoice) and g.state.turn >= 1)
    sc.anim.skip()
    shot("initiative")
    sc.send(ChooseOrder(g.state.pending.side, True))
    sc.anim.skip()

    # movement: the unit with the most reachable hexes, hovering a hex with a roll if any
    side = g.state.active_side
    movers = [u for u in g.state.live_units(side) if not u.boarded and g.reachable(u.uid)]
    best = max(movers, key=lambda u: (any(r.rolls for r in g.reachable(u.uid).values()),
                                      len(g.reachable(u.uid))))
    sc.selected = best.uid
    reach = g.reachable(best.uid)
    with_roll = [h for h, r in reach.items() if r.rolls and r.stops]
    target = with_roll[0] if with_roll else max(reach, key=lambda h: reach[h].cost)
    frames(2)
    hover(sc.view.center(target))
    shot("move")
    far = [h for h in g.state.battle_map.hexes if h not in reach and h != best.hex
           and not g.state.units_at(h)]
    far.sort(key=lambda h: h.distance(best.hex))
    hover(sc.view.center(far[len(far) // 3]))
    shot("move_why_not")
    # a Vehicle's facing after a move
    vehicles = [u for u in g.state.live_units(side) if u.is_vehicle and g.reachable(u.uid)]
    if vehicles:
        v = vehicles[0]
        sc.selected = v.uid
        vr = g.reachable(v.uid)
        dest = max((h for h in vr if vr[h].stops), key=lambda h: vr[h].cost)
        sc.base.move(v, dest, vr[dest])
        frames(2)
        m = sc.mode
        if isinstance(m, FacingMode):
            hover(m.wedge_pos((v.facing + 1) % 6))
            shot("move_facing")
            m.pick((v.facing + 1) % 6)
            sc.anim.skip()
    # line of sight tool from the selected unit
    sc.selected = best.uid
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_l, mod=0, unicode="l",
                                         scancode=0))
    frames(2)
    blocked = [h for h in g.state.battle_map.hexes
               if not g.state.battle_map.los.visible(best.hex, h)]
    if blocked:
        blocked.sort(key=lambda h: h.distance(best.hex))
        hover(sc.view.center(blocked[0]))
    shot("line_of_sight")
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_l, mod=0, unicode="l",
                                         scancode=0))
    frames(2)
    # the end-phase confirm
    sc.selected = None
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_e, mod=0, unicode="e",
                                         scancode=0))
    frames(2)
    shot("end_phase_confirm")
    sc.stack.clear()
    # the in-battle menu (Esc), the whole stat card (right-click), the terrain legend (G)
    for k in (pygame.K_ESCAPE,):
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))
    frames(2)
    shot("menu")
    sc.stack.clear()
    captain = next((u for u in g.state.live_units("Allies") if len(u.card.abilities) >= 2),
                   g.state.live_units("Allies")[0])
    pos = sc.view.unit_slots(g.state)[captain.uid].center
    hover(pos)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=3))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=3))
    frames(2)
    shot("full_card")
    sc.stack.clear()
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_g, mod=0, unicode="g",
                                         scancode=0))
    frames(2)
    shot("terrain_legend")
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_g, mod=0, unicode="g",
                                         scancode=0))
    frames(2)

    # defensive fire: look for a move that provokes it (tried on copies of the game)
    def provoke() -> bool:
        for _ in range(600):
            if g.over:
                return False
            if isinstance(g.state.pending, DefensiveFirePrompt):
                return True
            moves = [a for a in g.legal_actions() if isinstance(a, Move) and a.path]
            rng.shuffle(moves)
            for a in moves[:80]:
                c = g.copy()
                c.apply(a)
                if isinstance(c.state.pending, DefensiveFirePrompt):
                    sc.send(a)
                    sc.stack.clear()
                    return True
            sc.send(pick_action(g, rng))
            sc.stack.clear()
            sc.anim.skip()
        return False

    if provoke():
        sc.refresh()
        sc.anim.skip()
        frames(3)
        shot("defensive_fire")
    # an assault phase with a target under the mouse
    if play_until(lambda g: g.state.phase.is_assault and g.state.pending is None and any(
            isinstance(a, Attack) for a in g.legal_actions())):
        acts = [a for a in g.legal_actions() if isinstance(a, Attack)]
        a = acts[0]
        sc.selected = a.uid
        frames(2)
        slots = sc.view.unit_slots(g.state)
        hover(slots[a.target].center)
        shot("assault_odds")
        sc.send(a)
        sc.anim.skip()
        frames(2)
        hover(slots[a.target].center)
        shot("after_attack")
    # the casualty phase, step by step
    turn = g.state.turn
    play_until(lambda g: g.state.turn > turn or g.over)
    frames(2)
    if not isinstance(sc.mode, CasualtyMode):
        # the last action ended the turn: play one more turn up to its casualty phase
        turn = g.state.turn
        for _ in range(4000):
            if g.over:
                break
            a = pick_action(g, rng)
            ends_turn = isinstance(a, EndPhase) and g.state.phase == Phase.ASSAULT_SECOND
            sc.send(a)
            sc.anim.skip()
            if ends_turn:
                break
            sc.stack.clear()
    if isinstance(sc.mode, CasualtyMode):
        m = sc.mode
        m.next_step()
        frames(2)
        shot("casualty_step")
        while not m.done:
            m.next_step()
        frames(2)
        shot("casualty_summary")
        m.on_button("continue")
        frames(2)
    # zoomed in on the objective
    sc.stack.clear()
    sc.view.zoom(3, sc.view.center(g.state.objective))
    sc.view.ready()
    frames(2)
    hover((sc.view.rect.centerx, sc.view.rect.centery))
    shot("zoomed")
    sc.view.home()
    # to the end of the game and the victory screen
    play_until(lambda g: g.over, limit=40000)
    sc.anim.skip()
    for _ in range(30):
        if app.scene is not sc:
            break
        m = sc.mode
        if isinstance(m, CasualtyMode):
            while not m.done:
                m.next_step()
            m.on_button("continue")
        elif sc.game.over:
            sc.show_victory()
        frames(1)
    frames(3)
    shot("victory")
    app.close()
    return saved


def take_others(out: Path, size: tuple[int, int] = (1280, 800)) -> list[Path]:
    """The screens around the battle: menu, settings, battle setup, the army builder,
    the hand-over, the Load list, the map preview zoomed, the token sheet."""
    import pygame

    from game.ui.app import App
    from game.ui.battle_setup_data import BattleSetup
    from game.ui.scenes.army_builder import ArmyBuilderScene, HandOverScene
    from game.ui.scenes.battle_setup import BattleSetupScene, make_setup
    from game.ui.scenes.load import LoadScene
    from game.ui.scenes.preview import PreviewScene
    from game.ui.scenes.settings_scene import SettingsScene
    from game.ui.settings import Settings
    from game.ui.tokens import render_sheet
    out.mkdir(parents=True, exist_ok=True)
    app = App(size=size, settings=Settings(sound=False), save_settings=False)
    app.running = True
    saved: list[Path] = []

    def shot(scene, name: str, prepare=None) -> None:
        app.switch(scene)
        for _ in range(3):
            app.step(dt=1 / 60)
        if prepare is not None:
            prepare(scene)
            for _ in range(3):
                app.step(dt=1 / 60)
        p = out / f"{name}.png"
        app.screenshot(p)
        saved.append(p)

    shot(app.menu_scene(), "menu")
    shot(SettingsScene(app), "settings")
    shot(BattleSetupScene(app), "battle_setup")
    setup = make_setup(config=1, seed=7)
    shot(ArmyBuilderScene(app, BattleSetup(), "Allies"), "army_builder")
    shot(HandOverScene(app, setup, "Axis"), "handover")
    from game import saves
    from game.ui.scenes.battle import new_battle_game
    for i, (scen, conf) in enumerate((("standard", 1), ("assault", 4), ("standard", 5))):
        g = new_battle_game(make_setup(scenario=scen, config=conf, seed=20 + i))
        saves.save_game(g, saves.saves_dir() / f"example-{i + 1}.json")
    shot(LoadScene(app), "load")

    def zoom(sc) -> None:
        sc.select_hex(next(iter(sorted(sc.battle_map.terrain, key=lambda h: (h.r, h.q))[40:41])))
        for _ in range(2):
            sc.zoom(1)
    shot(PreviewScene(app, config=1), "preview_zoomed", zoom)
    app.close()
    render_sheet(str(out / "tokens.png"))
    saved.append(out / "tokens.png")
    del pygame
    return saved


def _speeds() -> tuple[str, ...]:
    from game.ui.settings import ANIMATION_SPEEDS
    return tuple(ANIMATION_SPEEDS)


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    size = (1280, 800)
    if "--size" in args:
        i = args.index("--size")
        w, h = args[i + 1].lower().split("x")
        size = (int(w), int(h))
        del args[i:i + 2]
    out = Path(args[0]) if args else Path(__file__).resolve().parents[3] / "docs" / "screens"
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    for p in take_all(out, size) + take_others(out, size):
        print(p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
