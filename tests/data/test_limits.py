"""Every loader is bounded (issue 13): size, depth, values with aliases expanded,
text and number length are checked before anything is expanded, and no message
renders an unbounded value."""
import time
from pathlib import Path

import pytest
import yaml

from game.data import bounded, yamlio
from game.data.maps import MAX_MAP_HEXES, load_configuration, load_section
from game.data.units import MAX_CARD_FILE_BYTES, load_card_file, load_roster
from game.rules.errors import DataError

ROOT = Path(__file__).resolve().parents[2]
CARD = """cards:
  - name: Test Rifles
    nationality: Germany
    cost: {cost}
    year: 1942
    type: Soldier
    speed: 1
    defense: 4
    vs_soldier: [6, 4, 2]
    vs_vehicle: [1, "-", "-"]
"""


def _bomb(levels: int = 9) -> str:
    out = ['l0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, levels):
        out.append(f"l{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 9) + "]")
    return "\n".join(out) + "\n"


def test_an_alias_bomb_is_refused_while_parsing_in_no_time():
    text = _bomb() + "top: *a8\n"
    t0 = time.perf_counter()
    with pytest.raises(DataError) as e:
        yamlio.parse_yaml(text, "bomb.yaml")
    assert time.perf_counter() - t0 < 1.0
    assert "with its aliases expanded" in str(e.value) and len(str(e.value)) < 300


def test_ordinary_aliases_still_work():
    # docs/situations.md: define an inline card once and reuse it
    doc = yamlio.parse_yaml("a: &x {n: 1, m: [1, 2]}\nb: *x\nc: *x\n")
    assert doc["b"] == doc["c"] == {"n": 1, "m": [1, 2]}


def test_an_alias_inside_its_own_value_is_a_loop():
    with pytest.raises(DataError, match="a loop"):
        yamlio.parse_yaml("a: &s [1, *s]\n")


@pytest.mark.parametrize("depth", [41, 1000, 20000])
def test_deep_nesting_is_a_clean_error_at_every_depth(depth):
    with pytest.raises(DataError, match="nested more than 40 levels deep"):
        yamlio.parse_yaml("a: " + "[" * depth + "]" * depth + "\n")
    block = "".join("  " * i + f"k{i}:\n" for i in range(depth if depth < 2000 else 2000))
    with pytest.raises(DataError, match="nested more than 40 levels deep"):
        yamlio.parse_yaml(block + "  " * depth + "x: 1\n" if depth < 2000 else block)


def test_a_card_nested_20000_deep_in_the_roster_folder_is_an_error_at_game_start(tmp_path):
    (tmp_path / "deep.yaml").write_text("cards:\n  - name: Deep\n    notes: " + "[" * 20000
                                        + "]" * 20000 + "\n")
    with pytest.raises(DataError, match="nested more than"):
        load_roster(tmp_path, reload=True)


@pytest.mark.parametrize("digits", [400, 4301, 5000])
def test_long_numbers_are_refused_and_shown_short(tmp_path, digits):
    p = tmp_path / "c.yaml"
    p.write_text(CARD.format(cost="7" * digits))
    with pytest.raises(DataError) as e:
        load_card_file(p)
    msg = str(e.value)
    assert f"a number {digits:,} digits long (777777777777...)" in msg
    assert len(msg) < 300 and e.value.line == 4


def test_a_long_number_in_json_is_refused_before_int_conversion():
    with pytest.raises(DataError, match="a number 5,000 digits long"):
        bounded.parse_json('{"seed": ' + "1" * 5000 + "}", "s.json")


@pytest.mark.parametrize("enc", ["utf-16", "utf-16-le", "utf-16-be", "utf-32"])
def test_utf16_and_utf32_files_are_named_and_utf8_asked_for(tmp_path, enc):
    p = tmp_path / "c.yaml"
    p.write_bytes(CARD.format(cost=5).encode(enc))
    with pytest.raises(DataError) as e:
        load_card_file(p)
    kind = "UTF-32" if "32" in enc else "UTF-16"
    assert f"this file is {kind} text; save it as UTF-8" in str(e.value)


def test_a_float_where_a_whole_number_goes_says_so(tmp_path):
    p = tmp_path / "c.yaml"
    p.write_text(CARD.format(cost="5.0"))
    with pytest.raises(DataError, match=r"got a number with a decimal point \(5.0\)"):
        load_card_file(p)


def test_messages_never_render_an_unbounded_value(tmp_path):
    p = tmp_path / "c.yaml"
    huge = "x" * 15000
    p.write_text(CARD.format(cost=5).replace("type: Soldier", f"type: {huge}")
                 .replace("nationality: Germany", f"nationality: [{', '.join(['a'] * 5000)}]")
                 .replace("speed: 1", f"{huge[:900]}: 1"))
    with pytest.raises(DataError) as e:
        load_card_file(p)
    lines = e.value.report().split("\n")
    assert len(lines) >= 3                        # every problem of the file is listed
    assert all(len(line) < 600 for line in lines)
    assert "15,000 characters" in e.value.report()


def test_a_card_file_lists_every_problem(tmp_path):
    p = tmp_path / "c.yaml"
    p.write_text(CARD.format(cost="cheap").replace("speed: 1", "speed: fast")
                 .replace("year: 1942", "year: 1900"))
    with pytest.raises(DataError) as e:
        load_card_file(p)
    fields = {x.field for x in e.value.problems}
    assert {"cost", "speed", "year"} <= fields


def test_the_5200_card_file_is_refused_at_once_and_the_largest_accepted_one_loads(tmp_path):
    cards = []
    for f in sorted((ROOT / "units" / "cards").glob("*.yaml")):
        cards += yaml.safe_load(f.read_text(encoding="utf-8"))["cards"]
    many = [dict({k: v for k, v in cards[i % len(cards)].items()
                  if k not in ("flavor", "notes", "set", "number", "rarity")},
                 name=f"{cards[i % len(cards)]['name']} {i}") for i in range(5200)]
    big = tmp_path / "big.yaml"
    dump = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    big.write_text(yaml.dump({"cards": many}, Dumper=dump, sort_keys=False))
    assert big.stat().st_size > 800_000
    t0 = time.perf_counter()
    with pytest.raises(DataError, match="file is more than 160 KiB"):
        load_card_file(big)
    assert time.perf_counter() - t0 < 0.5
    k = int(5200 * MAX_CARD_FILE_BYTES / big.stat().st_size * 0.97)
    while True:         # the cards differ in size: shrink until the file is within the limit
        big.write_text(yaml.dump({"cards": many[:k]}, Dumper=dump, sort_keys=False))
        if big.stat().st_size <= MAX_CARD_FILE_BYTES:
            break
        k = int(k * 0.95)
    assert len(load_card_file(big)) == k > 400


def _section(path: Path, name: str, width: int, lines: int) -> None:
    rows = [" ".join(["."] * (width + 1)) if i % 2 == 0 else " " + " ".join(["."] * width)
            for i in range(lines)]
    sheet, side = name.split("-")
    path.write_text(f"name: {name}\nsheet: {sheet}\nside: {side}\nterrain: |\n"
                    + "".join(f"  {r}\n" for r in rows))


def test_a_map_bigger_than_the_limit_is_refused_before_its_line_of_sight_is_built(tmp_path):
    secs = tmp_path / "sections"
    confs = tmp_path / "configurations"
    secs.mkdir()
    confs.mkdir()
    names = ["Big-1", "Cat-1", "Dog-1", "Eel-1"]
    for n in names:
        _section(secs / f"{n}.yaml", n, 12, 11)           # the largest section allowed
    assert len(load_section(secs / "Big-1.yaml").cells) > 100
    quads = ["TL", "TR", "BL", "BR"]
    (confs / "9_big.yaml").write_text(
        "number: 9\nname: Big\nsections:\n" + "".join(
            f"  - {{section: {n}, quadrant: {q}, rotation: 0}}\n" for n, q in zip(names, quads)))
    with pytest.raises(DataError) as e:
        load_configuration(confs / "9_big.yaml")
    assert f"more than the {MAX_MAP_HEXES} a battle map may have" in str(e.value)
    _section(secs / "Big-1.yaml", "Big-1", 13, 11)
    with pytest.raises(DataError, match="first picture line"):
        load_section(secs / "Big-1.yaml")


def test_the_real_maps_are_within_the_limit():
    for n in range(1, 7):
        assert len(load_configuration(n).terrain) <= MAX_MAP_HEXES


def test_a_file_over_the_size_limit_is_not_even_read_whole(tmp_path):
    p = tmp_path / "a.yaml"
    p.write_bytes(b"a: 1\n" * 100_000)
    with pytest.raises(DataError, match="file is more than 160 KiB"):
        yamlio.read_yaml(p)


def test_json_refuses_duplicates_nan_and_deep_nesting():
    with pytest.raises(DataError, match="duplicate key 'a'") as e:
        bounded.parse_json('{\n"a": 1,\n"a": 2\n}', "x.json")
    assert e.value.line == 3
    for bad in ("NaN", "Infinity", "-Infinity"):
        with pytest.raises(DataError, match="not a number Hexfront accepts"):
            bounded.parse_json('{"a": %s}' % bad, "x.json")
    with pytest.raises(DataError, match="nested more than"):
        bounded.parse_json("[" * 20000 + "]" * 20000, "x.json")


def test_short_never_expands_anything():
    assert bounded.short("x" * 10_000).endswith("(10,000 characters)")
    assert bounded.short(list(range(10**6))) == "a list of 1,000,000 item(s)"
    assert "digits long" in bounded.short(10 ** 5000)
    assert len(bounded.short(10 ** 5000)) < 60
