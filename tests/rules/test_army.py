"""Army building - rulebook: Building an Army, Choosing Sides, Scenarios (Assault
Scenario, Historical Army Limits, Year Restrictions); ruling 12. Army files."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from game.data.armies import (ARMIES_DIR, army_to_dict, dump_army, list_armies, load_army,
                              parse_army, sample_army, save_army)
from game.data.units import card
from game.rules.army import (ASSAULT_ATTACKER_BUDGET, ASSAULT_DEFENDER_BUDGET, Army,
                             budget_for, limits_for, validate_army)
from game.rules.cards import UnitCard
from game.rules.errors import DataError

ROOT = Path(__file__).resolve().parents[2]


def make(name: str, nationality: str, cost: int = 10, year: int = 1940) -> UnitCard:
    """An inline test card (only the fields army building looks at matter)."""
    return UnitCard(name=name, nationality=nationality, cost=cost, year=year, type="Soldier",
                    subtype=None, speed=1, defense_front=4, defense_rear=4,
                    attack={"Soldier": {"short": 8, "medium": 6, "long": None},
                            "Vehicle": {"short": 2, "medium": None, "long": None}})


GER, ITA, JAP = make("Ger", "Germany"), make("Ita", "Italy"), make("Jap", "Japan")
USA, UK, FRA, SOV = (make("Usa", "United States"), make("Brit", "United Kingdom"),
                     make("Fra", "France"), make("Sov", "Soviet Union"))


# --- standard army limits ----------------------------------------------------------------
def test_standard_army_within_limits_is_legal():
    """rulebook: Building an Army - up to 100 points, at most 15 units."""
    army = Army("Ok", "Axis", [make(f"u{i}", "Germany", cost=10) for i in range(10)])
    assert army.points == 100
    assert validate_army(army) == []


def test_points_limit():
    """rulebook: Building an Army - 'You can spend up to 100 points'."""
    army = Army("Tiger Heaven", "Axis", [make("Big", "Germany", cost=52)] * 2)
    assert validate_army(army) == ["Army 'Tiger Heaven': 104 points, the limit is 100"]


def test_unit_limit():
    """rulebook: Building an Army - 'may not have more than 15 units'."""
    army = Army("Horde", "Allies", [make("Rifle", "United States", cost=3)] * 16)
    assert validate_army(army) == ["Army 'Horde': 16 units, the limit is 15"]
    assert validate_army(Army("Fifteen", "Allies", army.cards[:15])) == []


def test_duplicates_are_allowed():
    """rulebook: Building an Army - no limit on copies of a card."""
    assert validate_army(Army("Copies", "Axis", [GER] * 5)) == []


def test_only_own_side_units():
    """rulebook: Choosing Sides - only Axis units in an Axis army (and Allied in Allied)."""
    problems = validate_army(Army("Mixed", "Axis", [GER, USA, SOV]))
    assert problems == [
        "Usa is American, an Allied unit: only Axis units can be in an Axis army",
        "Sov is Soviet, an Allied unit: only Axis units can be in an Axis army"]
    problems = validate_army(Army("Mixed", "Allies", [UK, JAP, JAP]))
    assert problems == ["Jap is Japanese, an Axis unit: only Allied units can be in an "
                        "Allied army"]          # one sentence per card, not per copy


def test_unknown_side_and_empty_army():
    problems = validate_army(Army("Nobody", "Neutral", []))
    assert "Army 'Nobody': side 'Neutral' is neither Axis nor Allies" in problems
    assert "Army 'Nobody' has no units: add at least one" in problems


def test_every_problem_is_reported_at_once():
    cards = [make("Heavy", "Germany", cost=10)] * 15 + [USA, SOV]
    problems = validate_army(Army("All wrong", "Axis", cards), historical=True, year=1939)
    assert "Army 'All wrong': 170 points, the limit is 100" in problems
    assert "Army 'All wrong': 17 units, the limit is 15" in problems
    assert any(p.startswith("Usa is American") for p in problems)
    assert any(p.startswith("Sov is Soviet: historical limits") for p in problems)
    assert any(p.startswith("Heavy is from 1940") for p in problems)


# --- scenario budgets --------------------------------------------------------------------
def test_assault_budgets():
    """rulebook: Assault Scenario - attacker up to 120 points, defender 80; 15 units each."""
    assert budget_for("standard") == 100
    assert budget_for("assault", "attacker") == ASSAULT_ATTACKER_BUDGET == 120
    assert budget_for("assault", "defender") == ASSAULT_DEFENDER_BUDGET == 80
    with pytest.raises(ValueError):
        budget_for("assault")
    army = Army("Attackers", "Allies", [make("Tank", "United States", cost=30)] * 4)
    assert validate_army(army, **limits_for("assault", "attacker")) == []
    assert validate_army(army) == ["Army 'Attackers': 120 points, the limit is 100"]
    assert validate_army(army, **limits_for("assault", "defender")) == [
        "Army 'Attackers': 120 points, the limit is 80"]


def test_limits_from_game_options():
    """ruling 12: historical and year limits are options, off by default."""
    assert limits_for() == {"budget": 100, "max_units": 15, "historical": False, "year": None}
    assert limits_for(options={"historical": True, "year": 1942}) == {
        "budget": 100, "max_units": 15, "historical": True, "year": 1942}
    assert limits_for(options={"budget": 150})["budget"] == 150


# --- historical army limits (the four rules) ------------------------------------------------
def test_historical_rule_1_german_and_italian_together():
    """rulebook: Historical Army Limits - German and Italian units can go in the same army."""
    assert validate_army(Army("Axis partners", "Axis", [GER, ITA]), historical=True) == []


def test_historical_rule_2_soviet_alone():
    """rulebook: Historical Army Limits - Soviet units can't be with any other nationality."""
    kv1 = card("KV-1")
    problems = validate_army(Army("Mixed", "Allies", [kv1, USA, UK]), historical=True)
    assert problems == ["KV-1 is Soviet: historical limits forbid Soviet units with other "
                        "nationalities (this army also has American and British units)"]
    assert validate_army(Army("Red Army", "Allies", [kv1, SOV]), historical=True) == []


def test_historical_rule_3_japanese_alone():
    """rulebook: Historical Army Limits - Japanese units can't be with any other nationality."""
    problems = validate_army(Army("Mixed", "Axis", [JAP, GER, ITA]), historical=True)
    assert problems == ["Jap is Japanese: historical limits forbid Japanese units with other "
                        "nationalities (this army also has German and Italian units)"]
    assert validate_army(Army("Japan", "Axis", [JAP, JAP]), historical=True) == []


def test_historical_rule_4_us_uk_france_together():
    """rulebook: Historical Army Limits - US, UK and French units can go in the same army."""
    assert validate_army(Army("Western Allies", "Allies", [USA, UK, FRA]), historical=True) == []


def test_historical_limits_are_off_by_default():
    """ruling 12: the rulebook's own sample army mixes US, UK and Soviet units."""
    sample = sample_army("Allies")
    assert validate_army(sample) == []
    assert validate_army(sample, historical=True) == [
        "KV-1 is Soviet: historical limits forbid Soviet units with other nationalities "
        "(this army also has American and British units)"]


# --- year restriction -----------------------------------------------------------------------
def test_year_restriction():
    """rulebook: Year Restrictions - only units introduced by that year are legal."""
    army = Army("Late war", "Axis", [card("Panzer IV Ausf. G"), card("Panther Ausf. A")])
    assert validate_army(army, year=1943) == []
    assert validate_army(army, year=1942) == [
        "Panther Ausf. A is from 1943: the year limit 1942 allows only units introduced by 1942"]
    assert len(validate_army(army, year=1941)) == 2


# --- army files -----------------------------------------------------------------------------
def test_rulebook_sample_army_file():
    """rulebook: Sample Army (Allies) - eight units, 100 points."""
    army = load_army(ARMIES_DIR / "sample_allies.yaml")
    assert army.side == "Allies" and army.points == 100 and army.size == 8
    assert [c.name for c in army.cards] == [
        "M4A1 Sherman", "6-Pounder Antitank Gun", '"Red Devil" Captain', "Bazooka",
        "M1 Garand Rifle", "Vickers Machine-Gun Team", "KV-1", "M3 Stuart"]


def test_sample_axis_army_has_equal_points():
    axis, allies = sample_army("Axis"), sample_army("Allies")
    assert axis.side == "Axis" and axis.points == allies.points == 100
    assert validate_army(axis) == []


def test_every_shipped_army_is_legal_and_the_readme_table_is_right():
    readme = (ROOT / "units" / "README.md").read_text(encoding="utf-8")
    armies = list_armies()
    assert len(armies) >= 8
    assert {a.side for _, a in armies} == {"Axis", "Allies"}
    for path, army in armies:
        assert validate_army(army) == [], path.name
        row = re.search(rf"\| `armies/{re.escape(path.name)}` \| [^|]+ \| (\w+) \| (\d+) \| "
                        rf"(\d+) \| (passes|fails)[^|]* \| (\d+) \|", readme)
        assert row, f"{path.name} missing from units/README.md"
        side, points, size, hist, year = row.groups()
        assert (side, int(points), int(size)) == (army.side, army.points, army.size), path.name
        assert (validate_army(army, historical=True) == []) == (hist == "passes"), path.name
        earliest = max(c.year for c in army.cards)
        assert int(year) == earliest, path.name
    assert all(a.side == "Axis" for _, a in list_armies("Axis"))


def test_army_file_round_trip(tmp_path):
    army = Army("Round trip", "Axis", [card("Tiger I"), card("Mauser Kar 98k"),
                                      card("Mauser Kar 98k"), card("MG-42 Machine-Gun Team"),
                                      card("Mauser Kar 98k")], description="test")
    path = save_army(army, tmp_path / "sub" / "army.yaml")
    assert army_to_dict(army)["units"] == ["Tiger I", {"name": "Mauser Kar 98k", "count": 2},
                                           "MG-42 Machine-Gun Team", "Mauser Kar 98k"]
    again = load_army(path)
    assert [c.name for c in again.cards] == [c.name for c in army.cards]
    assert (again.name, again.side, again.description) == ("Round trip", "Axis", "test")
    assert dump_army(army).startswith("# Hexfront army: 75 points, 5 unit(s)")


def test_duplicates_by_repeating_or_count(tmp_path):
    (tmp_path / "a.yaml").write_text(
        "name: Copies\nside: Allies\nunits:\n  - Bazooka\n  - Bazooka\n"
        "  - {name: M1 Garand Rifle, count: 3}\n  - name: kv-1\n", encoding="utf-8")
    army = load_army(tmp_path / "a.yaml")
    assert army.counts() == {"Bazooka": 2, "M1 Garand Rifle": 3, "KV-1": 1}
    assert army.points == 8 + 12 + 32


def test_unknown_card_names_are_clear_errors(tmp_path):
    (tmp_path / "bad.yaml").write_text(
        "name: Typos\nside: Axis\nunits:\n  - Tigr I\n  - {name: Panzer IV, count: 0}\n"
        "  - 42\n", encoding="utf-8")
    with pytest.raises(DataError) as exc:
        load_army(tmp_path / "bad.yaml")
    report = exc.value.report()
    lines = report.splitlines()
    assert len(lines) == 3, report
    assert "bad.yaml:4: entry 'Typos': field 'units[1]': no unit card named 'Tigr I'; " \
           "did you mean 'Tiger I'" in lines[0]
    assert "field 'units[2]'" in lines[1] and "count" in lines[1]
    assert "field 'units[3]'" in lines[2]


def test_bad_army_shapes(tmp_path):
    with pytest.raises(DataError, match="field 'side'"):
        parse_army({"name": "X", "side": "Martians", "units": []})
    with pytest.raises(DataError, match="field 'units'.*is missing"):
        parse_army({"name": "X", "side": "Axis"})
    with pytest.raises(DataError, match="unknown field"):
        parse_army({"name": "X", "side": "Axis", "units": [], "budget": 3})
    with pytest.raises(DataError, match="neither Axis nor Allies"):
        save_army(Army("X", "Neutral", []), tmp_path / "x.yaml")
    with pytest.raises(DataError, match="file not found"):
        load_army(tmp_path / "missing.yaml")
