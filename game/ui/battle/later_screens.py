"""Screenshots of the later edition in the game (issue 15), for the docs and for
looking at:

    SDL_VIDEODRIVER=dummy python -m game.ui.battle.later_screens [OUTDIR] [--size 1280x800]

A later-edition hotseat battle (Village Skirmish, the later sample armies, a fixed
seed) is driven with legal actions to the first flight phase; then the pictures
are taken through the real screen with posted mouse moves, clicks and keys:
``later_flight.png`` (an Aircraft about to be placed next to enemy Antiair, its
exact risk shown), ``later_antiair.png`` (the defender's Antiair prompt),
``later_airstrike.png`` (the Aircraft's attack with the exact odds),
``later_preview.png`` (the preview of a later battlefield with its three-hex zones,
sight by range band and the terrain legend), ``later_setup.png`` (the battle setup
with the edition chosen) and ``later_rules_help.png`` (F1).  Saves go to the user
data folder: set HEXFRONT_DATA_DIR to a scratch folder.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

__all__ = ["take_later", "main"]


def take_later(out: Path, size: tuple[int, int] = (1280, 800), seed: int = 7) -> list[Path]:
    import pygame

    from game.rules.actions import EndPhase, PassDefensiveFire, PlaceAircraft
    from game.rules.state import AntiairPrompt
    from game.ui.app import App
    from game.ui.battle.demo import pick_action
    from game.ui.scenes.battle import BattleScene
    from game.ui.scenes.battle_setup import BattleSetupScene, make_setup
    from game.ui.scenes.preview import PreviewScene
    from game.ui.settings import Settings

    out.mkdir(parents=True, exist_ok=True)
    app = App(size=size, settings=Settings(sound=False, animation_speed="off"),
              save_settings=False)
    app.running = True
    saved: list[Path] = []

    def frames(n: int = 3) -> None:
        for _ in range(n):
            app.step(dt=1 / 60)

    def post(kind: int, **kw) -> None:
        pygame.event.post(pygame.event.Event(kind, **kw))

    def hover(pos) -> None:
        post(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
        frames(2)

    def click(pos) -> None:
        hover(pos)
        post(pygame.MOUSEBUTTONDOWN, pos=pos, button=1)
        post(pygame.MOUSEBUTTONUP, pos=pos, button=1)
        frames(3)

    def key(k: int) -> None:
        post(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0)
        post(pygame.KEYUP, key=k, mod=0, unicode="", scancode=0)
        frames(3)

    def shot(name: str) -> None:
        frames(2)
        if isinstance(app.scene, BattleScene):
            app.scene.anim.banner = None
            frames(1)
        p = out / f"{name}.png"
        app.screenshot(str(p))
        saved.append(p)

    # --- the setup and the preview -------------------------------------------------------
    setup_scene = BattleSetupScene(app)
    app.switch(setup_scene)
    frames(3)
    setup_scene.on_button("edition_later")
    setup_scene.pick(2)
    frames(3)
    shot("later_setup")
    preview = PreviewScene(app, config=2, edition="later", rng=random.Random(1))
    app.switch(preview)
    frames(3)
    key(pygame.K_g)
    bm = preview.battle_map
    zone = sorted(bm.deployment_zone("right", preview.depth), key=lambda h: (h.r, h.q))
    src = max(zone, key=lambda h: len(bm.los.visible_from(h)))   # the widest view
    click(preview.hex_center(src))
    far = sorted((h for h in preview.visible if preview.visible[h] == "long"),
                 key=lambda h: (h.r, h.q))
    if far:                              # a sight line with its range and any cover
        hover(preview.hex_center(far[len(far) // 2]))
    shot("later_preview")

    # --- a battle to its first flight phase ------------------------------------------------
    setup = make_setup(edition="later", seed=seed, config=2)
    from game.ui.scenes.battle import new_battle_game
    game = new_battle_game(setup)
    rng = random.Random(3)
    st = game.state
    while not (st.phase.is_flight and st.pending is None):
        a = pick_action(game, rng)
        if st.phase.is_movement and isinstance(a, EndPhase) and rng.random() < 0.8:
            others = [x for x in game.legal_actions() if not isinstance(x, EndPhase)]
            a = rng.choice(others) if others else a
        game.apply(a)
    scene = BattleScene(app, None, game=game)
    app.switch(scene)
    scene.view.ready()
    frames(3)
    side = st.to_act
    plane = next(u for u in st.units_of(side) if u.card.is_aircraft and u.hex is None)
    antiair = [u for u in st.units.values() if u.side != side and u.on_map and u.card.has("antiair")]
    target = None
    for aa in antiair:
        near = sorted((h for h in bm.terrain if h.distance(aa.hex) == 1),
                      key=lambda h: (h.r, h.q))
        for h in near:
            if game.check(PlaceAircraft(side, plane.uid, h)) is None:
                target = h
                break
        if target is not None:
            break
    if target is None:
        target = next(h for h in sorted(bm.terrain, key=lambda h: (h.r, h.q))
                      if game.check(PlaceAircraft(side, plane.uid, h)) is None)
    scene.view.zoom(2, scene.view.center(target))
    frames(30)
    click(scene.mode.tray[plane.uid].center)
    hover(scene.view.center(target))
    shot("later_flight")
    click(scene.view.center(target))
    if isinstance(st.pending, AntiairPrompt):
        hover((scene.view.rect.right - 40, scene.view.rect.bottom - 40))
        shot("later_antiair")
        key(pygame.K_h)
    guard = 0
    while not (st.phase.is_airstrike and st.to_act == side) and guard < 20:
        guard += 1
        if isinstance(st.pending, AntiairPrompt):
            scene.send(PassDefensiveFire(st.to_act))
        else:
            scene.send(EndPhase(st.to_act))
        frames(2)
    scene.selected = plane.uid
    frames(3)
    targets = scene.mode.attack_options() if plane.on_map else {}
    if targets:
        best = max(targets, key=lambda t: 1 - targets[t][0].odds.p_none)
        hover(scene.view.unit_slots(st)[best].center)
    shot("later_airstrike")
    key(pygame.K_F1)
    frames(3)
    shot("later_rules_help")
    app.close()
    return saved


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    size = (1280, 800)
    if "--size" in args:
        i = args.index("--size")
        w, h = (int(v) for v in args[i + 1].lower().split("x"))
        size = (w, h)
        del args[i:i + 2]
    out = Path(args[0]) if args else Path("docs/screens")
    for p in take_later(out, size):
        print(p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
