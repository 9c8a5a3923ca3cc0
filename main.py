"""Hexfront - start the desktop game.

    python main.py                         the main menu
    python main.py --preview [--config N]  the map layout preview
    python main.py --render-map N --out FILE.png [--zones] [--labels]
    python main.py --hotseat [--scenario standard|assault] [--config 1-6]
                   [--axis ARMY.yaml --allies ARMY.yaml] [--seed N]
    python main.py --load SAVE
    python main.py --replay SAVE           watch a saved game step by step
    python main.py --demo --frames N --screenshot FILE.png [--seed N]
    python main.py --solo                  practice against the AI
    --edition later (with --hotseat, --solo, --demo, --preview or --render-map N = 1-3):
                                           the later edition's rules and battlefields

A bad file or option prints one clear sentence and exits with code 2.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


class UsageError(Exception):
    """A problem with what the player asked for: printed, exit code 2."""


def _config(value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{value}' is not a configuration number (1-6)") from None
    if not 1 <= n <= 6:
        raise argparse.ArgumentTypeError(f"configuration {n} does not exist (1-6)")
    return n


def _positive(value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{value}' is not a whole number") from None
    if n < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return n


def _seed(value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{value}' is not a whole number") from None


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="main.py", description="Hexfront: hex-map WWII miniatures battles.")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--preview", action="store_true", help="map layout preview")
    mode.add_argument("--render-map", type=_config, metavar="N",
                      help="draw configuration N into a PNG (needs --out) and exit")
    mode.add_argument("--hotseat", action="store_true", help="go straight into a two-player battle")
    mode.add_argument("--load", metavar="SAVE", help="continue a saved game")
    mode.add_argument("--replay", metavar="SAVE", help="watch a saved game step by step")
    mode.add_argument("--demo", action="store_true",
                      help="play legal random moves for --frames frames, save --screenshot, exit")
    mode.add_argument("--solo", action="store_true", help="practice against the AI")
    mode.add_argument("--tutorial", action="store_true",
                      help="the guided first battle (Learn to play)")
    p.add_argument("--config", type=_config, metavar="1-6", help="map configuration")
    p.add_argument("--scenario", choices=("standard", "assault"), default="standard")
    p.add_argument("--axis", metavar="ARMY.yaml", help="the Axis army file")
    p.add_argument("--allies", metavar="ARMY.yaml", help="the Allied army file")
    p.add_argument("--seed", type=_seed, help="dice seed (same seed, same game)")
    p.add_argument("--out", metavar="FILE.png", help="output file of --render-map")
    p.add_argument("--edition", choices=("first", "later"), default="first",
                   help="rules edition (later: Aircraft, hedges, bluffs...; configurations 1-3)")
    p.add_argument("--zones", action="store_true", help="--render-map: shade deployment zones")
    p.add_argument("--labels", action="store_true", help="--render-map: hex labels")
    p.add_argument("--frames", type=_positive, default=600, help="--demo: frames to play")
    p.add_argument("--screenshot", metavar="FILE.png", help="--demo: where to save the picture")
    p.add_argument("--size", metavar="WxH", help="window size, e.g. 1280x800")
    return p


def _size(text: str | None) -> tuple[int, int] | None:
    if not text:
        return None
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise UsageError(f"--size '{text}' should look like 1280x800") from None
    if not (320 <= w <= 8192 and 240 <= h <= 8192):
        raise UsageError(f"--size {w}x{h} is out of range")
    return (w, h)


def _check_png(path: str | None, flag: str) -> str:
    if not path:
        raise UsageError(f"{flag} needs a file name, e.g. {flag} shot.png")
    p = Path(path)
    if p.suffix.lower() != ".png":
        raise UsageError(f"{flag} {path}: the file name must end in .png")
    if p.parent != Path("") and not p.parent.exists():
        raise UsageError(f"{flag} {path}: the folder {p.parent} does not exist")
    return path


def _check_args(args: argparse.Namespace) -> None:
    used_battle = args.axis or args.allies
    if args.edition == "later":
        if args.load or args.replay or args.tutorial:
            raise UsageError("--edition goes with --hotseat, --solo, --demo, --preview or "
                             "--render-map (a save knows its own edition)")
        if args.config is not None and args.config > 3:     # --render-map: the loader says
            raise UsageError(f"the later edition has configurations 1-3, not {args.config}")
    if used_battle and not (args.hotseat or args.demo):
        raise UsageError("--axis/--allies only go with --hotseat or --demo")
    for flag, path in (("--axis", args.axis), ("--allies", args.allies), ("--load", args.load),
                       ("--replay", args.replay)):
        if path is not None and not Path(path).is_file():
            raise UsageError(f"{flag} {path}: no such file")
    if args.render_map is not None:
        _check_png(args.out, "--out")
    if args.demo:
        _check_png(args.screenshot, "--screenshot")


def _setup(args: argparse.Namespace):
    from game.ui.scenes.battle_setup import make_setup
    return make_setup(scenario=args.scenario, config=args.config, seed=args.seed,
                      axis_file=args.axis, allies_file=args.allies, edition=args.edition)


def run(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    _check_args(args)
    size = _size(args.size)

    if args.render_map is not None:
        from game.ui.render_export import main_render
        later = {"edition": "later"} if args.edition == "later" else {}
        return int(main_render(args.render_map, args.out, args.zones, args.labels, **later) or 0)
    if args.preview:
        from game.ui.scenes.preview import run_preview
        later = {"edition": "later"} if args.edition == "later" else {}
        return int(run_preview(config=args.config, **later) or 0)
    if args.solo:
        from game.ui.scenes.menu import ai_available
        if not ai_available():
            raise UsageError("solo practice needs the AI opponent, which is not in this version yet")

    setup = None
    if args.hotseat or args.demo:
        setup = _setup(args)
        if args.demo:
            setup.demo_frames = args.frames
    elif args.load:
        from game.ui.scenes.battle_setup import load_setup
        setup, error = load_setup(args.load)
        if error:
            raise UsageError(error)
    elif args.replay:
        from game.saves import Replay
        args.replay_model = Replay.open(args.replay)     # a bad save: DataError, exit 2

    from game.ui.app import App
    from game.ui.settings import Settings
    settings = Settings.load()
    if args.demo:                      # a demo never touches the player's settings
        settings = Settings()
        settings.sound = False
    app = App(size=size or ((1280, 800) if args.demo else None), settings=settings,
              save_settings=not args.demo)
    for note in app.messages:
        print(f"hexfront: {note}", file=sys.stderr)
    if not args.demo:
        _begin_session(app)
        code = _play(app, args, setup)
        _end_session()                 # only a clean exit: a crash leaves the marker
        return code
    return _play(app, args, setup)


def _begin_session(app) -> None:
    """Crash detection (game.saves): the menu offers the last autosave of a run
    that did not end cleanly."""
    try:
        from game.saves import begin_session
        app.resume_offer = begin_session()
    except (ImportError, OSError):
        app.resume_offer = None


def _end_session() -> None:
    try:
        from game.saves import end_session
        end_session()
    except ImportError:
        pass


def _play(app, args: argparse.Namespace, setup) -> int:
    if getattr(args, "replay_model", None) is not None:
        from game.ui.scenes.replay import ReplayScene
        return app.run(ReplayScene(app, args.replay_model, path=args.replay))
    if args.solo:
        from game.ui.scenes.menu import solo_scene
        later = {"edition": "later"} if args.edition == "later" else {}
        return app.run(solo_scene(app, seed=args.seed, **later))
    if getattr(args, "tutorial", False):
        from game.ui.scenes.tutorial import TutorialScene
        return app.run(TutorialScene(app))
    if setup is None:
        return app.run(app.menu_scene())

    from game.ui.scenes.battle_setup import battle_scene
    scene, error = battle_scene(app, setup)
    if error:
        app.close()
        raise UsageError(error)
    if not args.demo:
        return app.run(scene)
    app.switch(scene)
    app.running = True
    for _ in range(args.frames):
        app.step(dt=1 / 60)
        if not app.running:
            break
    out = app.screenshot(args.screenshot)
    app.close()
    print(f"hexfront: demo played {app.frames} frames, screenshot {out}")
    return 0


def main(argv: list[str] | None = None) -> int:
    from game.rules.errors import DataError
    try:
        return run(argv)
    except UsageError as exc:
        print(f"hexfront: {exc}", file=sys.stderr)
        return 2
    except DataError as exc:
        print(f"hexfront: {exc.report()}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    from game.runtime import tune_gc
    tune_gc()                      # the engine's long-lived caches (game/runtime.py)
    sys.exit(main())
