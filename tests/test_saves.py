"""Saves (game.saves): round trip, replay checks, versions, atomic writes under
kill -9, autosave rotation and crash detection."""
import json
import os
import random
import signal
import time

import pytest

from tests.saves_kit import new, play, played, resealed
from game import saves
from game.rules.errors import DataError


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("HEXFRONT_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


@pytest.fixture(scope="module")
def game():
    return played(90, seed=7)


def test_round_trip_reaches_the_same_position(game, tmp_path):
    p = saves.save_game(game, tmp_path / "g.json")
    back = saves.load_game(p)
    assert back.state_hash() == game.state_hash()
    assert back.history == game.history
    assert back.state.turn == game.state.turn and back.state.phase == game.state.phase
    # the loaded game plays on exactly like the original
    a, b = game.copy(), back
    play(a, 25, seed=3)
    play(b, 25, seed=3)
    assert a.state_hash() == b.state_hash()


def test_round_trip_assault_and_another_configuration(tmp_path):
    for config in (1, 4):
        g = played(40, seed=config, config=config,
                   scenario="assault" if config == 1 else "standard")
        back = saves.load_game(saves.save_game(g, tmp_path / f"c{config}.json"))
        assert back.state_hash() == g.state_hash()
        assert back.state.battle_map.number == config


def test_a_given_coin_winner_is_saved_and_replayed(tmp_path):
    from game.data.maps import load_configuration
    from game.rules.dice import Dice
    from game.rules.engine import new_game
    from tests.saves_kit import armies
    g = new_game(load_configuration(1), armies(), dice=Dice(4), options={"config": 1},
                 coin_winner="Allies")
    play(g, 30)
    data = saves.game_to_dict(g)
    assert data["coin_winner"] == "Allies"
    assert saves.load_game(saves.save_game(g, tmp_path / "c.json")).state_hash() == g.state_hash()


def test_the_file_is_readable_json(game, tmp_path):
    p = saves.save_game(game, tmp_path / "g.json", note="bug: tank vanished")
    text = p.read_text(encoding="utf-8")
    data = json.loads(text)
    assert data["format"] == "hexfront-save" and data["version"] == saves.VERSION
    assert data["armies"]["Axis"][0] == "Panzer IV Ausf. G"
    assert data["configuration"] == 1 and data["seed"] == 7
    assert len(data["actions"]) == len(game.history)
    assert data["note"] == "bug: tank vanished"
    # one action per line: a person can read and diff it
    assert sum(1 for line in text.splitlines() if '"type":' in line) == len(game.history)


def _edit(src, dst, change):
    data = json.loads(src.read_text(encoding="utf-8"))
    change(data)
    dst.write_text(json.dumps(resealed(data)), encoding="utf-8")
    return dst


def test_hash_mismatch_is_refused_with_one_message(game, tmp_path):
    p = saves.save_game(game, tmp_path / "g.json")
    bad = _edit(p, tmp_path / "bad.json", lambda d: d.update(state_hash="0" * 64))
    with pytest.raises(DataError) as e:
        saves.load_game(bad)
    msg = str(e.value)
    assert "bad.json" in msg and "field 'state_hash'" in msg and "different position" in msg


def test_a_dropped_action_changes_the_position_or_is_refused(game, tmp_path):
    p = saves.save_game(game, tmp_path / "g.json")
    bad = _edit(p, tmp_path / "bad.json", lambda d: d["actions"].pop(len(d["actions"]) // 2))
    with pytest.raises(DataError) as e:
        saves.load_game(bad)
    assert "bad.json" in str(e.value)
    assert "entry 'action" in str(e.value) or "state_hash" in str(e.value)


def test_an_action_the_rules_refuse_names_the_action(game, tmp_path):
    p = saves.save_game(game, tmp_path / "g.json")

    def change(d):
        d["actions"][1] = {"type": "EndPhase", "side": "Axis"}
    bad = _edit(p, tmp_path / "bad.json", change)
    with pytest.raises(DataError) as e:
        saves.load_game(bad)
    assert "entry 'action 2'" in str(e.value) and "rules refuse" in str(e.value)


@pytest.mark.parametrize("version,words", [(3, "newer Hexfront"), (0, "unknown"),
                                           ("1", "whole number")])
def test_other_versions_are_refused(game, tmp_path, version, words):
    p = saves.save_game(game, tmp_path / "g.json")
    bad = _edit(p, tmp_path / "v.json", lambda d: d.update(version=version))
    with pytest.raises(DataError) as e:
        saves.load_game(bad)
    assert "field 'version'" in str(e.value) and words in str(e.value)


def test_a_game_without_a_start_or_seed_cannot_be_saved(tmp_path):
    from game.rules.dice import Dice
    from game.rules.engine import Game
    from game.rules.state import GameState
    from game.data.maps import load_configuration
    g = Game(GameState.blank(load_configuration(1)), Dice(1))
    with pytest.raises(DataError, match="not started with new_game"):
        saves.save_game(g, tmp_path / "x.json")
    assert saves.autosave(g) is None           # a hand-built position: nothing to autosave
    g2 = new(3)
    g2.dice.seed = None
    with pytest.raises(DataError, match="no seed"):
        saves.save_game(g2, tmp_path / "y.json")
    assert not (tmp_path / "x.json").exists() and not (tmp_path / "y.json").exists()


def test_load_never_half_loads(game, tmp_path):
    """A refused load returns nothing: no Game object escapes (DataError only)."""
    p = saves.save_game(game, tmp_path / "g.json")
    bad = _edit(p, tmp_path / "bad.json", lambda d: d["actions"].__setitem__(
        len(d["actions"]) - 1, {"type": "Move", "side": "Axis", "uid": "axis-99", "path": []}))
    got = None
    with pytest.raises(DataError):
        got = saves.load_game(bad)
    assert got is None


def test_save_overwrites_atomically_and_leaves_no_temp_files(game, tmp_path):
    p = tmp_path / "g.json"
    saves.save_game(new(1), p)
    first = p.read_text()
    saves.save_game(game, p)
    assert p.read_text() != first
    assert [f.name for f in tmp_path.iterdir()] == ["g.json"]


def test_default_save_path_is_one_file_per_game(game, data_dir):
    p = saves.default_save_path(game)
    assert p == data_dir / "saves" / "battle-7.json"
    assert saves.save_game(game) == p and p.is_file()


def test_killed_in_the_middle_of_saving_the_last_save_still_loads(tmp_path):
    """Kill -9 a process that saves over and over, at random moments, 60 times:
    each time the file on disk is a whole save that loads (old or new)."""
    if not hasattr(os, "fork"):
        pytest.skip("needs fork")
    base = played(30, seed=11)
    longer = play(base.copy(), 6, seed=2)
    texts = []
    for g in (base, longer):
        d = saves.game_to_dict(g, note="x" * 400_000)     # a big file: writes take a while
        texts.append((saves.dumps(d), g.state_hash()))
    target = tmp_path / "slot.json"
    saves.write_atomic(target, texts[0][0])
    rng = random.Random(5)
    hashes = {h for _, h in texts}
    kills_mid_write = 0
    attempt = 0
    # at least 60 kills, and on until 5 of them landed inside a write (a busy machine may
    # schedule the child late); the attempt cap bounds the test, not the clock
    while attempt < 60 or (kills_mid_write < 5 and attempt < 600):
        attempt += 1
        pid = os.fork()
        if pid == 0:                                   # child: save forever
            try:
                i = 0
                while True:
                    saves.write_atomic(target, texts[i % 2][0])
                    i += 1
            finally:
                os._exit(0)
        time.sleep(rng.uniform(0.0, 0.02))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        if any(f.name.endswith(".tmp") for f in tmp_path.iterdir()):
            kills_mid_write += 1
        loaded = saves.load_game(target)
        assert loaded.state_hash() in hashes, f"attempt {attempt}"
        for f in tmp_path.iterdir():                   # a killed writer's leftovers
            if f.name.endswith(".tmp"):
                f.unlink()
    assert kills_mid_write >= 5          # the kills really landed inside writes


def test_autosave_keeps_the_last_few(data_dir):
    g = new(9)
    paths = []
    for _ in range(8):
        play(g, 5, seed=len(g.history))
        paths.append(saves.autosave(g))
        time.sleep(0.01)
    kept = saves.list_autosaves()
    assert len(kept) == saves.AUTOSAVE_KEEP
    assert kept[0] == paths[-1] and saves.latest_autosave() == paths[-1]
    assert all(p.parent == data_dir / "saves" / "autosave" for p in kept)
    assert saves.load_game(kept[0]).state_hash() == g.state_hash()


def test_crash_detection_offers_the_last_autosave(data_dir):
    assert saves.begin_session() is None            # first start: nothing to offer
    g = played(40, seed=5)
    p = saves.autosave(g)
    # ... the process dies here without end_session ...
    assert saves.begin_session() == p               # next start offers to resume
    saves.end_session()                              # a clean exit
    assert saves.begin_session() is None


def test_crash_detection_does_not_offer_a_finished_game(data_dir):
    saves.begin_session()
    g = play(new(2, turn_limit=2), 3000)
    assert g.over
    saves.autosave(g)
    assert saves.begin_session() is None


def test_autosaves_are_kept_per_battle_so_one_game_never_pushes_out_another(data_dir):
    first, second = new(9), new(10)
    for _ in range(7):
        for g in (first, second):
            play(g, 4, seed=len(g.history))
            saves.autosave(g)
            time.sleep(0.002)
            # never more than the limit, not even for a moment between write and clean-up
            per = {}
            for p in saves.list_autosaves():
                per.setdefault(p.name.split("-")[1], []).append(p)
            assert all(len(v) <= saves.AUTOSAVE_KEEP for v in per.values())
    ids = {saves.battle_id_of(first), saves.battle_id_of(second)}
    assert len(ids) == 2
    infos = [i for i in saves.list_saves() if i.autosave]
    assert {i.battle_id for i in infos} == ids
    for bid in ids:
        assert sum(i.battle_id == bid for i in infos) == saves.AUTOSAVE_KEEP


def test_the_overall_autosave_cap_holds(data_dir):
    games = [new(20 + k) for k in range(saves.AUTOSAVE_TOTAL // saves.AUTOSAVE_KEEP + 2)]
    for g in games:
        for _ in range(saves.AUTOSAVE_KEEP):
            play(g, 2, seed=len(g.history))
            saves.autosave(g)
            assert len(saves.list_autosaves()) <= saves.AUTOSAVE_TOTAL
    assert len(saves.list_autosaves()) == saves.AUTOSAVE_TOTAL
    newest = saves.list_saves()[0]
    assert newest.battle_id == saves.battle_id_of(games[-1])


def test_a_loaded_game_keeps_its_battle_id(tmp_path):
    g = played(30, seed=4)
    p = saves.save_game(g, tmp_path / "a.json")
    back = saves.load_game(p)
    assert saves.battle_id_of(back) == saves.battle_id_of(g)
    assert saves.autosave(back).name.startswith(f"autosave-{saves.battle_id_of(g)}-")


def test_list_saves_describes_each_save_in_words_newest_first(data_dir, tmp_path):
    g = played(60, seed=7)
    older = saves.save_game(g, data_dir / "saves" / "older.json")
    time.sleep(1.1)                        # "saved" has whole seconds
    play(g, 10, seed=2)
    newer = saves.save_game(g, data_dir / "saves" / "newer.json")
    auto = saves.autosave(g)
    (data_dir / "saves" / "junk.json").write_text("{ this is not json")
    infos = saves.list_saves()
    by = {i.path.name: i for i in infos}
    good = [i for i in infos if i.problem is None]
    assert [i.path for i in good[:2]] in ([newer, auto], [auto, newer])
    info = by["newer.json"]
    assert info.scenario == "Standard" and info.configuration == "1: Half and Half"
    assert info.sides == "Axis (Germany) vs Allies (United States)"
    assert info.turn == g.state.turn and info.phase == g.state.phase.title
    assert info.battle_id == saves.battle_id_of(g) and not info.autosave and info.problem is None
    assert by[auto.name].autosave and by[auto.name].problem is None
    assert by["older.json"].saved_at < info.saved_at
    assert by["junk.json"].problem and "damaged" in by["junk.json"].problem
    assert "axis-" not in repr([i.sides for i in infos])
    assert older in [i.path for i in infos]


def test_list_saves_reads_only_the_header_and_falls_back_for_old_saves(data_dir):
    import shutil
    from pathlib import Path
    folder = data_dir / "saves"
    folder.mkdir(parents=True)
    old = Path(__file__).parent / "bad_input" / "_good_save.json"       # format 1: no summary
    shutil.copy(old, folder / "old.json")
    g = played(80, seed=3)
    p = saves.save_game(g, folder / "cut.json")
    text = p.read_text()
    p.write_text(text[: len(text) * 2 // 3])                        # cut off mid-actions
    infos = {i.path.name: i for i in saves.list_saves()}
    o = infos["old.json"]
    assert o.sides == "Axis (Germany) vs Allies (United States)"
    assert o.configuration == "1: Half and Half" and o.phase == "First player's deployment"
    assert o.battle_id == "seed-21" and o.problem is None
    assert "cut off" in infos["cut.json"].problem
    t0 = time.perf_counter()
    for _ in range(20):
        saves.list_saves()
    assert time.perf_counter() - t0 < 2.0


# --- issue 13: leftovers, full disks, kills, legal games only -------------------------------------
def test_the_next_start_removes_leftovers_of_interrupted_writes(data_dir, tmp_path, monkeypatch):
    conf = tmp_path / "conf"
    monkeypatch.setenv("HEXFRONT_CONFIG_DIR", str(conf))
    auto = data_dir / "saves" / "autosave"
    auto.mkdir(parents=True)
    conf.mkdir()
    dead = 2 ** 22 + 12345                       # no such process
    left = [auto / f".autosave-x-t01-00010.json.{dead}.tmp", data_dir / f".session.json.{dead}.tmp",
            data_dir / "saves" / f".battle-1.json.{dead}.tmp", conf / "settings.json.tmp",
            conf / f".settings.json.{dead}.tmp"]
    for p in left:
        p.write_text("")
    alive = data_dir / "saves" / f".battle-2.json.{os.getppid()}.tmp"   # another Hexfront
    alive.write_text("{")
    keep = data_dir / "saves" / "battle-1.json"
    keep.write_text("{}")
    saves.begin_session()
    assert not any(p.exists() for p in left)
    assert alive.exists() and keep.exists()


def test_a_full_disk_leaves_no_temporary_file_and_the_old_file_intact(tmp_path, monkeypatch):
    import errno
    from game.ui.settings import Settings
    path = tmp_path / "conf" / "settings.json"
    assert Settings(sound=False).save(path) is None
    before = path.read_text()

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(os, "fsync", full)
    said = Settings(sound=True).save(path)
    assert said is not None and "No space left" in said
    assert path.read_text() == before
    assert [p.name for p in path.parent.iterdir()] == ["settings.json"]     # no 0-byte tmp
    g = played(20, seed=3)
    with pytest.raises(OSError):
        saves.save_game(g, tmp_path / "s.json", verify=False)
    assert not list(tmp_path.glob(".*tmp"))


def test_kill_9_while_saving_and_autosaving_short(tmp_path):
    """bench/kill_saves.py with a few kills of each kind (the bench does 100)."""
    if not hasattr(os, "fork"):
        pytest.skip("needs fork")
    import importlib.util
    from pathlib import Path
    spec = importlib.util.spec_from_file_location(
        "kill_saves", Path(__file__).resolve().parent.parent / "bench" / "kill_saves.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    for mode in ("save", "autosave"):
        s = mod.run(mode, 6, 3, tmp_path / mode)
        assert s["failures"] == [] and s["loads"] == s["kills"] == 6
        assert s["orphans_after_start"] == 0
        assert s["max_per_battle"] <= saves.AUTOSAVE_KEEP


def test_a_game_with_an_illegal_army_can_not_even_be_saved(tmp_path):
    """The same legality check as the battle setup (game.rules.army.validate_army)."""
    from game.data.maps import load_configuration
    from game.data.units import card
    from game.rules.dice import Dice
    from game.rules.engine import new_game
    g = new_game(load_configuration(1), {"Axis": [card("Tiger I")] * 20,
                                         "Allies": [card("Bazooka")]},
                 dice=Dice(3), options={"config": 1})
    with pytest.raises(DataError) as e:
        saves.save_game(g, tmp_path / "t.json")
    assert "1120 points, the limit is 100" in e.value.report()
    assert "20 units, the limit is 15" in e.value.report()
    assert not (tmp_path / "t.json").exists()


def test_a_save_lists_every_problem_with_its_line(tmp_path):
    g = played(20, seed=3)
    p = saves.save_game(g, tmp_path / "g.json")
    data = json.loads(p.read_text())
    data["seed"] = -1
    data["scenario"] = "picnic"
    data["options"]["turn_limit"] = "soon"
    data["actions"][2]["type"] = "Teleport"
    bad = tmp_path / "bad.json"
    bad.write_text(saves.dumps(resealed(data)))
    with pytest.raises(DataError) as e:
        saves.read_save(bad)
    fields = {(x.entry, x.field) for x in e.value.problems}
    assert {(None, "seed"), (None, "scenario"), ("options", "turn_limit")} <= fields
    act = [x for x in e.value.problems if x.entry == "action 3"]
    assert act and act[0].line == data_line(bad, '"Teleport"')
    assert all(x.line for x in e.value.problems)


def data_line(path, needle):
    for n, line in enumerate(path.read_text().split("\n"), start=1):
        if needle in line:
            return n


@pytest.mark.parametrize("value", [float("nan"), float("inf")])
def test_nan_or_infinite_options_can_not_be_saved(tmp_path, value):
    g = new(4, turn_limit=value)
    with pytest.raises(DataError, match="can't be written to a save"):
        saves.save_game(g, tmp_path / "n.json")


@pytest.mark.parametrize("seed,ok", [(0, True), (2 ** 63 - 1, True), (-1, False),
                                     (2 ** 63, False)])
def test_the_seed_is_a_whole_number_in_range(tmp_path, seed, ok):
    g = new(seed)
    if ok:
        assert saves.load_game(saves.save_game(g, tmp_path / "s.json")).dice.seed == seed
    else:
        with pytest.raises(DataError, match="seed"):
            saves.save_game(g, tmp_path / "s.json")


def test_json_saves_refuse_duplicate_keys_like_the_yaml_loader(tmp_path):
    g = played(10, seed=3)
    p = saves.save_game(g, tmp_path / "g.json")
    text = p.read_text().replace('  "seed": 3,', '  "seed": 4,\n  "seed": 3,')
    p.write_text(text)
    with pytest.raises(DataError, match="duplicate key 'seed'"):
        saves.load_game(p)


@pytest.mark.parametrize("edition,ok", [("first", True), ("2nd", False), (2, False)])
def test_the_edition_option_is_first_or_later_exactly(tmp_path, edition, ok):
    g = new(6, edition=edition)
    if ok:
        assert saves.load_game(saves.save_game(g, tmp_path / "e.json")).state.options[
            "edition"] == edition
    else:
        with pytest.raises(DataError, match="expected first or later"):
            saves.save_game(g, tmp_path / "e.json")
