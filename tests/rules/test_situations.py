"""Every situation file in tests/situations/ runs clean through the real engine
(issue 4: situation files), and the runner reports mismatches and bad files clearly."""
from __future__ import annotations

from pathlib import Path

import pytest

from game.data.situations import load_situation, parse_situation
from game.data.yamlio import parse_yaml
from game.rules.errors import DataError
from game.situations import main, run_situation

FOLDER = Path(__file__).resolve().parent.parent / "situations"
FILES = sorted(FOLDER.glob("*.yaml"))


def test_there_are_situation_files():
    """The rulebook's worked examples are situation files."""
    names = {p.stem for p in FILES}
    for example in ("rulebook_sherman_vs_panzer", "rulebook_defensive_fire_sherman_pak38",
                    "rulebook_two_attackers_simultaneous", "rulebook_line_of_sight_diagram"):
        assert example in names


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_situation(path):
    """Each file names its rule (``rule:``) and passes."""
    sit = load_situation(path)
    result = run_situation(sit)
    assert result.ok, "\n".join(result.problems)


SHERMAN = FOLDER / "rulebook_sherman_vs_panzer.yaml"


def _doc(text):
    return parse_yaml(text, "test.yaml")


def test_mismatch_is_reported_with_expected_and_got(tmp_path, capsys):
    """The runner exits non-zero at the first mismatch with a clear diff."""
    bad = tmp_path / "bad.yaml"
    bad.write_text(SHERMAN.read_text().replace("hits: 2}", "hits: 3}")
                   .replace("pending: [disrupted, damaged]", "pending: [disrupted]"),
                   encoding="utf-8")
    assert main([str(bad)]) == 1
    out = capsys.readouterr().out
    assert "FAIL" in out and "step 1" in out
    assert "unit panzer pending: expected [disrupted], got [disrupted, damaged]" in out
    assert "event not found: HitsScored {target: panzer, hits: 3}" in out
    assert "HitsScored: 2 hits on Panzer IV" in out          # the step's events are shown


def test_runner_ok_exit_status(capsys):
    assert main(["-q", str(SHERMAN)]) == 0
    assert "1 situation(s) ok" in capsys.readouterr().out


def test_expected_refusal_and_unexpected_success():
    """``refused:`` passes when the rules refuse with that reason, fails otherwise."""
    base = """
name: t
map: {rows: [". . . .", ". h . .", ". . . ."]}
phase: assault_first
active: Axis
units:
  a: {card: {name: A, nationality: Germany, cost: 5, year: 1942, type: Soldier, speed: 1,
             defense: 4, vs_soldier: [6, 4, 2], vs_vehicle: [1, "-", "-"]}, hex: A2}
  b: {card: {name: B, nationality: United States, cost: 5, year: 1942, type: Soldier,
             speed: 1, defense: 4, vs_soldier: [6, 4, 2], vs_vehicle: [1, "-", "-"]}, hex: C2}
dice: [6, 6, 6, 6]
actions:
  - attack: {unit: a, target: b}
    refused: "REASON"
"""
    ok = run_situation(parse_situation(_doc(base.replace("REASON", "line of sight"))))
    assert ok.ok
    wrong = run_situation(parse_situation(_doc(base.replace("REASON", "out of range"))))
    assert not wrong.ok and "the reason differs" in wrong.problems[0]
    allowed = run_situation(parse_situation(_doc(
        base.replace('". h . ."', '". . . ."').replace("REASON", "line of sight"))))
    assert not allowed.ok and "but it was allowed" in allowed.problems[0]


def test_bad_file_names_file_entry_and_field():
    """Bad data -> DataError naming the file, the entry and the field (never a traceback)."""
    with pytest.raises(DataError) as exc:
        parse_situation(_doc("""
name: broken
map: {rows: [". q"]}
units:
  a: {card: No Such Tank, hex: Z9, facing: up, pending: [dead]}
actions:
  - attack: {unit: a, target: nobody}
  - fly: {unit: a}
expect: {units: {ghost: {hex: A1}}}
"""), "broken.yaml")
    text = exc.value.report()
    assert "broken.yaml:3: entry 'map': field 'rows': row 1, column B: unknown terrain letter 'q'" in text
    assert "entry 'unit a': field 'card': no unit card named 'No Such Tank'" in text
    assert "entry 'unit a': field 'hex': Z9 is not a hex of the map" in text
    assert "field 'facing'" in text and "field 'pending'" in text
    assert "entry 'step 1': field 'attack': target: no unit 'nobody'" in text
    assert "entry 'step 2'" in text and "fly" in text
    assert "no unit 'ghost'" in text


def test_missing_file_is_a_data_error(tmp_path, capsys):
    assert main([str(tmp_path / "nope.yaml")]) == 1
    assert "file not found" in capsys.readouterr().out


def test_dice_running_out_is_reported():
    """A step that needs more dice than the file lists says so."""
    sit = load_situation(SHERMAN)
    sit.dice = sit.dice[:5]
    result = run_situation(sit)
    assert not result.ok and "dice ran out" in result.problems[0]


# --- format additions (issue 12) and situation-file faults (issue 13) ------------------------
_BASE = """
name: t
map: {{rows: [". . . . .", ". . . . .", ". . . . ."]}}
phase: {phase}
units:
{units}
{rest}
"""
_GI = "{name: GI, nationality: United States, cost: 5, year: 1942, type: Soldier, speed: 1, " \
      "defense: 4, vs_soldier: [6, 4, 2], vs_vehicle: [1, 0, 0]}"


def _sit(units: str, rest: str = "", phase: str = "movement_first"):
    return parse_situation(_doc(_BASE.format(units=units, rest=rest, phase=phase)))


def _problems(units: str, rest: str = "", phase: str = "movement_first") -> str:
    with pytest.raises(DataError) as err:
        _sit(units, rest, phase)
    return err.value.report()


def test_an_odds_tolerance_that_is_a_list_is_a_clean_error():
    """issue 13: `tolerance: [0.1]` names the field instead of crashing game.check."""
    rep = _problems(f"  a: {{card: {_GI}, hex: A1}}\n  b: {{card: {_GI}, side: Axis, hex: B1}}",
                    "expect:\n  odds:\n    - {attacker: a, target: b, p_none: 0.5, "
                    "tolerance: [0.1]}")
    assert "tolerance" in rep and "expected a number" in rep


def test_a_unit_aboard_itself_or_two_units_aboard_each_other_are_clean_errors():
    rep = _problems(f"  a: {{card: {_GI}, aboard: a}}\n  z: {{card: {_GI}, hex: C1}}")
    assert "aboard itself" in rep
    rep = _problems(f"  a: {{card: {_GI}, aboard: b}}\n  b: {{card: {_GI}, aboard: a}}")
    assert "aboard each other" in rep


def test_stacking_limits_are_checked_in_situations():
    """rulebook: Stacking - 40 Soldiers of one side in one hex are refused."""
    units = "\n".join(f"  s{i}: {{card: {_GI}, hex: B2}}" for i in range(40))
    rep = _problems(units)
    assert "stacking limit" in rep and "unit s2" in rep


def test_rule_text_has_no_length_limit_and_several_disrupted_counters_are_allowed():
    sit = parse_situation(_doc(_BASE.format(
        units=f"  a: {{card: {_GI}, hex: A1, disrupted: 2}}", phase="movement_first",
        rest="rule: \"" + "ruling 7; " * 100 + "\"")))
    assert len(sit.rule) > 300 and sit.units[0].disrupted is True


def test_reserves_half_hexes_los_between_hexes_and_bare_refusals():
    text = """
name: additions
rule: "docs/situations.md: reserves, half-hexes, los between hexes, refused: true"
map: {rows: ["/ . f . /", "/ . . . /"]}
phase: deploy_first
first_player: Axis
units:
  r: {card: %s, side: Axis, reserve: true}
actions:
  - move: {unit: r, path: [B1]}
    refused: true
expect:
  los: [[B1, D1, false], [B2, D2, true]]
  units: {r: {on_map: false}}
""" % _GI
    sit = parse_situation(_doc(text))
    assert sit.units[0].hex is None
    assert sit.battle_map.half_hexes and not sit.battle_map.is_playable(parse_hex("A1"))
    result = run_situation(sit)
    assert result.ok, "\n".join(result.problems)


def test_a_situation_may_start_in_the_initiative_phase_and_run_it():
    """rulebook: Sequence of Play - `advance` runs the automatic steps (here the
    initiative roll) from the starting phase."""
    text = """
name: initiative
map: {rows: [". . .", ". . ."]}
phase: initiative
dice: [6, 6, 1, 1]
units:
  a: {card: %s, side: Axis, hex: A1}
  b: {card: %s, side: Allies, hex: C2}
actions:
  - advance:
    expect:
      events: [InitiativeRolled]
      pending: OrderChoice
      to_act: Axis
""" % (_GI, _GI)
    result = run_situation(parse_situation(_doc(text)))
    assert result.ok, "\n".join(result.problems)


def parse_hex(label):
    from game.rules.hexes import parse_hex_label
    return parse_hex_label(label)


def test_an_army_validation_situation_reports_a_wrong_expectation():
    """The army-validation step (rulebook: Building an Army): a wrong expectation is a
    mismatch naming the problems."""
    sit = parse_situation(_doc("""
name: wrong
army: {side: Allies, cards: [KV-1, M1 Garand Rifle], options: {historical: true},
       expect: {legal: true, points: 40}}
"""))
    result = run_situation(sit)
    assert not result.ok
    text = "\n".join(result.problems)
    assert "expected legal" in text and "Soviet" in text and "points: expected 40, got 36" in text


def test_odds_with_a_list_as_attacker_and_an_event_field_without_a_name_are_clean_errors():
    """Found by data13's input fuzzer: these were tracebacks, now Checker problems."""
    rep = _problems(f"  a: {{card: {_GI}, hex: A1}}\n  b: {{card: {_GI}, side: Axis, hex: B1}}",
                    "expect:\n  odds:\n    - {attacker: [a], target: b, p_none: 0.5}")
    assert "attacker and target must be unit ids" in rep
    rep = _problems(f"  a: {{card: {_GI}, hex: A1}}",
                    "expect:\n  events:\n    - {kind: UnitMoved, null: 3}")
    assert "event field name must be text" in rep
