"""The lockstep core shared by the relay, the direct host and the clients (no I/O).

Both machines (and the relay) run the same rules on the same action list: every
action goes through ``Game.check`` / ``Game.apply`` on every machine, and after
each one the position hashes (``Game.state_hash``) are compared.  A mismatch stops
the battle with a clear message and a save (:func:`write_net_save`) on each side.

Army lists travel as card names; :func:`armies_from_names` checks them like an
army file (known cards, side, points, unit count, the game's limits).
"""
from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path

from game.rules.actions import action_from_dict, action_to_dict
from game.rules.dice import Dice
from game.rules.errors import DataError, IllegalAction, RulesError

from .dice import RollNeeded, TableDice
from .messages import ProtocolError

__all__ = ["SIDES", "armies_from_names", "army_digest", "army_summary", "build_game",
           "ai_view", "choose_blind", "net_options", "reveal_due", "reveal_armies",
           "apply_action", "check_config", "file_part", "load_battle_map", "NET_SAVE_FORMAT", "net_save_dict", "write_net_save",
           "read_net_save", "replay_record", "Desync", "role_of"]

SIDES = ("Axis", "Allies")
NET_SAVE_FORMAT = "hexfront-net-save"


class Desync(RuntimeError):
    """The two machines' positions differ (a bug): the battle stops."""


def role_of(scenario: str, side: str, options: dict) -> str | None:
    if scenario != "assault":
        return None
    return "attacker" if options.get("attacker", "Axis") == side else "defender"


def army_from_names(side: str, names: list[str], scenario: str, options: dict) -> list:
    """Card names -> cards, checked (ProtocolError with a readable reason)."""
    from game.data.units import find_card
    from game.rules.army import Army, limits_for, validate_army
    if not isinstance(names, list) or not names or len(names) > 30:
        raise ProtocolError("an army is a list of 1-30 card names")
    cards = []
    for n in names:
        c = find_card(n) if isinstance(n, str) else None
        if c is None:
            raise ProtocolError(f"unknown unit card '{str(n)[:60]}'")
        cards.append(c)
    lim = {k: v for k, v in limits_for(scenario, role_of(scenario, side, options),
                                       options).items()}
    problems = validate_army(Army(f"{side} army", side, cards), **lim)
    if problems:
        raise ProtocolError(f"the {side} army is not legal: {problems[0]}")
    return cards


def armies_from_names(names: dict, scenario: str, options: dict) -> dict:
    if not isinstance(names, dict) or set(names) != set(SIDES):
        raise ProtocolError("armies must name an Axis and an Allied army")
    return {s: army_from_names(s, names[s], scenario, options) for s in SIDES}


def army_digest(names: list[str], salt: str) -> str:
    """The commitment to a secret army (direct play)."""
    blob = json.dumps([salt, list(names)], separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(b"hexfront-army|" + blob.encode("utf-8")).hexdigest()


def army_summary(cards: list) -> tuple[int, int]:
    """What the opponent may see before deployment: (points, unit count)."""
    return sum(c.cost for c in cards), len(cards)


def net_options(scenario: str, options: dict) -> dict:
    """The options a network battle plays with: an Assault names its attacker (Axis
    unless chosen), since the armies - whose points would decide it - are secret when
    the battle starts."""
    opts = dict(options)
    if scenario == "assault" and opts.get("attacker") is None:
        opts["attacker"] = "Axis"
    from game.rules.later import EDITIONS
    if opts.get("edition", "first") not in EDITIONS:
        raise ProtocolError(f"the rules edition must be one of {', '.join(EDITIONS)}")
    if opts.get("edition") == "first":
        del opts["edition"]             # the default, as a local battle's options say it
    return opts


def config_count(options: dict) -> int:
    """Map configurations of the battle's edition: six (first), three (later, ruling L13)."""
    if options.get("edition") == "later":
        from game.data.later_maps import list_later_configurations
        return len(list_later_configurations())
    return 6


def check_config(config: int, options: dict) -> None:
    """ProtocolError unless the edition has map configuration ``config``."""
    top = config_count(options)
    if not isinstance(config, int) or not 1 <= config <= top:
        raise ProtocolError(f"map configuration must be 1-{top} in this edition")


def load_battle_map(config: int, options: dict):
    """The battle's map: configuration ``config`` of its edition (ProtocolError if none)."""
    check_config(config, options)
    if options.get("edition") == "later":
        from game.data.later_maps import load_later_configuration
        return load_later_configuration(config)
    from game.data.maps import load_configuration
    return load_configuration(config)


def build_game(scenario: str, config: int, options: dict, armies: dict | None, dice: Dice):
    """``new_game`` for the network (raises RollNeeded when a start roll is unknown).

    The battle starts *blind*: with no units.  The set-up steps before deployment (the
    coin flip, first or second, ends, the Assault objective) don't depend on the armies,
    so each army stays a secret of its owner's machine (the other sees its points and
    unit count and a commitment) until the battle reaches deployment; then
    :func:`reveal_armies` puts both armies in, on every machine at the same point
    (:func:`reveal_due`).  ``armies`` given here (a record being replayed, a local
    reference battle) are put in at that point by :func:`apply_action`."""
    from game.rules.engine import new_game
    options = net_options(scenario, options)
    bm = load_battle_map(config, options)
    game = new_game(bm, {}, scenario=scenario, dice=dice, options=options)
    game.net_armies = armies           # what apply_action reveals at deployment (or None)
    if armies is not None and reveal_due(game):
        reveal_armies(game, armies)
    return game


def reveal_due(game) -> bool:
    """The battle has reached deployment and the armies are not in yet."""
    from game.rules.state import Phase
    st = game.state
    return st.phase in (Phase.DEPLOY_FIRST, Phase.DEPLOY_SECOND) and not st.units


def reveal_armies(game, armies: dict) -> None:
    """Put both (checked) armies into a blind battle: deployment reveals them.  Units get
    the ids ``axis-1..`` / ``allies-1..`` in army order, as in any battle."""
    if game.state.units:
        raise RuntimeError("the armies are already in this battle")
    for side in SIDES:
        for card in armies[side]:
            game.add_unit(card, side)
    game.net_armies = armies


def apply_action(game, action):
    """``game.apply`` and, when the action brings the battle to deployment, the armies
    the game was built with (a replay, a local battle) go in."""
    events = game.apply(action)
    armies = getattr(game, "net_armies", None)
    if armies is not None and reveal_due(game):
        reveal_armies(game, armies)
    return events


def ai_view(game, n: int | None = None):
    """A copy of ``game`` for an AI to think on: its dice are a fresh seeded Dice, so
    the AI can simulate but knows nothing of the real next roll (and the same
    position always gives the same view, so a battle replays exactly)."""
    g = game.copy()
    n = len(game.history) if n is None else n
    g.dice = Dice(1_000_003 * (n + 1) + 7)
    return g


def choose_blind(player, game):
    """``player.choose(game)`` with the game's dice swapped, while it thinks, for the
    same fresh seeded Dice :func:`ai_view` gives: the AI knows nothing of the real next
    roll, and the rules' caches of the real game stay warm (a copy would rebuild them)."""
    real = game.dice
    game.dice = Dice(1_000_003 * (len(game.history) + 1) + 7)
    try:
        return player.choose(game)
    finally:
        game.dice = real


# --- net saves: the record of a network battle ----------------------------------------------
def file_part(text: str | None, default: str = "x") -> str:
    """A battle id or seat (told by the other machine or the relay) as part of a file
    name: letters, digits, - and _ only (no path can be smuggled in)."""
    import re
    return re.sub(r"[^A-Za-z0-9_-]", "", text or "")[:40] or default


def net_save_dict(*, mode: str, scenario: str, config: int, options: dict, armies: dict,
                  actions: list, rolls: list[int], hashes: list[str], seat: str | None,
                  game_id: str = "", note: str = "", extra: dict | None = None) -> dict:
    d = {"format": NET_SAVE_FORMAT, "version": 1,
         "saved": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
         "mode": mode, "game": game_id, "seat": seat, "scenario": scenario, "config": config,
         "options": dict(options), "armies": {s: list(armies.get(s, [])) for s in SIDES},
         "actions": [action_to_dict(a) for a in actions], "rolls": list(rolls),
         "hashes": list(hashes), "note": note}
    if extra:
        d["extra"] = extra
    return d


def write_net_save(path: str | os.PathLike[str], data: dict, compact: bool = False) -> Path:
    """A network save by atomic rename.  ``compact`` (a continue-file rewritten after every
    step) skips the fsyncs: a killed program loses nothing the system has been given, and
    after a power cut the other machine sends again whatever the file lacks."""
    from game.saves import write_atomic
    if not compact:
        return write_atomic(path, json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    p = Path(path)
    tmp = p.with_name(f".{p.name}.tmp")
    tmp.write_text(json.dumps(data, separators=(",", ":"), ensure_ascii=False) + "\n",
                   encoding="utf-8")
    os.replace(tmp, p)
    return p


def read_net_save(path: str | os.PathLike[str]) -> dict:
    p = Path(path)
    try:
        if p.stat().st_size > 16 * 1024 * 1024:
            raise DataError(str(p), "the file is too large for a network save")
        data = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise DataError(str(p), f"can't read the network save ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != NET_SAVE_FORMAT:
        raise DataError(str(p), "not a Hexfront network save", field="format")
    for k, typ in (("scenario", str), ("config", int), ("options", dict), ("armies", dict),
                   ("actions", list), ("rolls", list), ("hashes", list)):
        if not isinstance(data.get(k), typ):
            raise DataError(str(p), f"expected {typ.__name__}", field=k)
    return data


def replay_record(scenario: str, config: int, options: dict, armies_names: dict,
                  actions: list, rolls: list[int], hashes: list[str] | None = None,
                  dice: TableDice | None = None):
    """Rebuild a battle from its record (the rolls it used); DataError on any mismatch.
    ``armies_names`` None: a battle not yet at deployment, rebuilt blind (no units)."""
    armies = None
    if armies_names is not None:
        try:
            armies = armies_from_names(armies_names, scenario, options)
        except ProtocolError as exc:
            raise DataError("<network record>", str(exc)) from None
    dice = dice if dice is not None else TableDice()
    for v in rolls[len(dice.table):]:
        dice.add(v)
    try:
        game = build_game(scenario, config, options, armies, dice)
    except RollNeeded:
        raise DataError("<network record>", "the record has too few rolls to start") from None
    for i, a in enumerate(actions):
        act = a if not isinstance(a, dict) else action_from_dict(a)
        try:
            apply_action(game, act)
        except RollNeeded:
            raise DataError("<network record>", f"action {i + 1} needs a roll the record "
                                                f"does not have") from None
        except (IllegalAction, RulesError) as exc:
            raise DataError("<network record>", f"action {i + 1} is refused: {exc}") from None
        if hashes is not None and i < len(hashes) and game.state_hash() != hashes[i]:
            raise DataError("<network record>", f"after action {i + 1} the position differs "
                                                f"from the recorded one")
    return game
