"""Unit cards: the roster loader, its validation, the 47-card roster, the CLI.

Rulebook: How to Read a Stat Card; Building an Army (the sample army's costs).
"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from game.data import units
from game.data.units import (UnknownCardError, card, filter_cards, find_card, format_table,
                             load_card_file, load_roster, nation_from_text)
from game.rules.ability_catalog import CATALOG, COMMANDER_ABILITIES, display_name, rule_text
from game.rules.abilities.spec import PENDING
from game.rules.cards import ALLIED_NATIONS, AXIS_NATIONS, SOLDIER, VEHICLE, UnitCard
from game.rules.errors import DataError

ROOT = Path(__file__).resolve().parents[2]
FACTS = ROOT / "tests" / "fixtures" / "source" / "units_facts.yaml"   # copy of shared/data (facts)

RULEBOOK_UNITS = ["M4A1 Sherman", "6-Pounder Antitank Gun", '"Red Devil" Captain', "Bazooka",
                  "M1 Garand Rifle", "Vickers Machine-Gun Team", "KV-1", "M3 Stuart",
                  "Panzer IV Ausf. G", "PAK 38 Antitank Gun", "MG-42 Machine-Gun Team",
                  "sIG 33", "Type 95 Ha-Go", "ZIS-2 57mm Antitank Gun"]
SAMPLE_ARMY_COSTS = {"M4A1 Sherman": 21, "6-Pounder Antitank Gun": 9, '"Red Devil" Captain': 7,
                     "Bazooka": 4, "M1 Garand Rifle": 4, "Vickers Machine-Gun Team": 8,
                     "KV-1": 32, "M3 Stuart": 15}

GOOD = """\
cards:
  - name: Test Tank
    nationality: Germany
    cost: 20
    year: 1942
    type: Vehicle
    subtype: Tank
    speed: 4
    defense: {front: 5, rear: 3}
    vs_soldier: [7, 7, 6]
    vs_vehicle: [15, 13, "-"]
    abilities:
      - extended_range: 10
      - sideskirts
  - name: Test Rifle
    nationality: United States
    cost: 4
    year: 1942
    type: Soldier
    speed: 1
    defense: 4
    vs_soldier: [8, 6, "-"]
    vs_vehicle: [2, "-", "-"]
    abilities:
      - close_assault: 7
      - {id: coordinated_fire, name: Stars & Stripes}
"""


def write(tmp_path: Path, text: str, name: str = "cards.yaml") -> Path:
    folder = tmp_path / "cards"
    folder.mkdir(exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")
    return folder


def load_error(tmp_path: Path, text: str) -> DataError:
    folder = write(tmp_path, text)
    with pytest.raises(DataError) as exc:
        load_roster(folder, reload=True)
    return exc.value


def mutate(old: str, new: str) -> str:
    assert old in GOOD
    return GOOD.replace(old, new, 1)


# --- the shipped roster -----------------------------------------------------------------
LATER_SETS = units.LATER_SETS          # the cards tools/roster_import.py wrote (issue 19)


def base_set() -> dict[str, UnitCard]:
    """The 47 cards Hexfront shipped first (before the later sets' cards)."""
    return {n: c for n, c in load_roster().items() if c.set_name != LATER_SETS}


def test_roster_has_all_47_units_by_nation():
    """issue 5: 47 units - Germany 16, UK 8, Soviet 7, US 7, Japan 5, France 2, Italy 2."""
    roster = base_set()
    assert len(roster) == 47
    counts: dict[str, int] = {}
    for c in roster.values():
        counts[c.nationality] = counts.get(c.nationality, 0) + 1
    assert counts == {"Germany": 16, "United Kingdom": 8, "Soviet Union": 7,
                      "United States": 7, "Japan": 5, "France": 2, "Italy": 2}


def test_rulebook_units_present():
    """rulebook: the units it names (sample army, line-of-sight and defensive-fire examples)."""
    roster = load_roster()
    for name in RULEBOOK_UNITS:
        assert name in roster, name


def test_sample_army_costs_match_the_rulebook_table():
    """rulebook: Building an Army - Sample Army (Allies) costs, total 100 (cost policy)."""
    roster = load_roster()
    for name, cost in SAMPLE_ARMY_COSTS.items():
        assert roster[name].cost == cost, name
    assert sum(SAMPLE_ARMY_COSTS.values()) == 100


def test_rulebook_type_lines():
    """rulebook: Type - 'the Panzer IV Ausf. G is a Vehicle-Tank, the 6-Pounder a Soldier-Artillery'."""
    assert card("Panzer IV Ausf. G").type_line == "Vehicle - Tank"
    assert card("6-Pounder Antitank Gun").type_line == "Soldier - Artillery"
    sherman = card("M4A1 Sherman")
    assert sherman.speed == 4          # rulebook: Speed and Movement example
    assert card("PAK 38 Antitank Gun").dice(VEHICLE, "short") == 11   # defensive fire example


def test_rulebook_ability_examples():
    """rulebook: Special Abilities - sIG 33 Bombardment vs Type 95 Ha-Go Forest Camouflage."""
    assert card("sIG 33").has("bombardment")
    assert card("Type 95 Ha-Go").has("forest_camouflage")
    assert "ignore cover" in card("sIG 33").ability("bombardment").text


def test_every_card_is_consistent():
    """rulebook: How to Read a Stat Card - every field present and in range."""
    for c in load_roster().values():
        assert c.type in (SOLDIER, VEHICLE)
        assert c.nationality in AXIS_NATIONS + ALLIED_NATIONS
        assert 1 <= c.cost <= 150 and 1930 <= c.year <= 1945
        if c.is_soldier:
            assert c.defense_front == c.defense_rear
        assert c.defense_front >= c.defense_rear
        if c.speed == 0:
            assert any(c.has(a) for a in units.STANDS_STILL), c.name
        assert not (c.speed and c.has("relocate")), c.name
        assert (c.commander_bonus is not None) == ("Commander" in (c.subtype or "")), c.name
        for a in c.abilities:
            assert (a.id in CATALOG or a.id in PENDING) and a.name and a.text
        assert c.notes
        if c.set_name != LATER_SETS:
            assert c.flavor and (c.speed == 0) == c.has("relocate")


def test_commanders_have_initiative_bonuses():
    """rulebook: Initiative Phase - commanders' initiative bonus is on the card."""
    bonuses = {c.name: c.commander_bonus for c in base_set().values() if c.is_commander}
    assert bonuses == {'"Red Devil" Captain': 2, "Inspiring Lieutenant": 2,
                       "SS-Hauptsturmführer": 3, "Panzer IV Ausf. H Commander": 3,
                       "Commissar": 1, "SNLF Captain": 2}


def test_dash_means_no_attack():
    """rulebook: Attack vs. Soldiers/Vehicles - a dash: the unit can't attack at that range."""
    bazooka = card("Bazooka")
    assert bazooka.dice(SOLDIER, "short") == 4 and bazooka.dice(SOLDIER, "medium") is None
    assert card("Type 89 Mortar").dice(VEHICLE, "short") is None


def test_printed_ability_names_and_parameters():
    garand = card("M1 Garand Rifle")
    assert [a.name for a in garand.abilities] == ["Close Assault 7", "Stars & Stripes"]
    assert garand.ability("close_assault").value == 7
    assert card("sIG 33").ability("enhanced_range").value == 16
    assert card("Panther Ausf. A").ability("extended_range").name == "Extended Range 12"


@pytest.mark.skipif(not FACTS.exists(), reason="shared facts file not present")
def test_cards_follow_the_facts_file():
    """Every number on every card is the facts file's (S1 values where sources conflict);
    cost follows the policy: original 2005 cost where known, else the facts' cost."""
    facts = yaml.safe_load(FACTS.read_text(encoding="utf-8"))
    policy_exceptions = {"SS-Panzer IV Ausf. F2": 32,     # publisher preview S10 (README)
                         "KV-1": 32, "M3 Stuart": 15}      # rulebook sample army
    renamed = {"ZIS-2 57mm antitank gun": "ZIS-2 57mm Antitank Gun",
               "PaK 40 Anti-Tank Gun": "PaK 40 Antitank Gun"}
    roster = load_roster()
    assert len(facts) == 47

    def dice(v):
        return None if v == "-" else v
    for f in facts:
        c = roster[renamed.get(f["name"], f["name"])]
        assert c.year == f["year"], c.name
        assert c.speed == f["speed"], c.name
        assert (c.defense_front, c.defense_rear) == (f["defense"]["front"], f["defense"]["rear"])
        for key, t in (("attack_vs_soldier", SOLDIER), ("attack_vs_vehicle", VEHICLE)):
            assert c.attack[t] == {b: dice(v) for b, v in f[key].items()}, (c.name, key)
        want = policy_exceptions.get(c.name, f.get("cost_base_set_2005") or f["cost"])
        assert c.cost == want, c.name
        assert c.commander_bonus == f["commander_initiative"], c.name
        n_abilities = len(f["special_abilities"])
        assert len(c.abilities) == n_abilities, c.name


# --- the ability catalog -----------------------------------------------------------------
def test_catalog_covers_every_ability_the_issue_lists():
    """issue 5: every listed ability has an id, a name and a rule text."""
    wanted = {"close_assault", "double_shot", "suppressive_fire", "extended_range",
              "enhanced_range", "relocate", "sideskirts", "seasoned_crew", "blast",
              "bombardment", "fixed_howitzer", "open_back", "forest_camouflage",
              "weak_suspension", "forest_runner", "transport", "exposed_transport",
              "gun_transport", "fighting_platform", "heavy_armor", "superior_armor",
              "superior_frontal_armor", "armor_piercing_rounds", "excellent_suspension",
              "all_guns_blazing", "strike_and_fade", "additional_hull_mounted_cannon",
              "hull_mounted_flamethrower", "tall_silhouette", "pinpointer", "coordinated_fire",
              "tally_ho", "exert_will", "fanatic", "ruthless", "command_ruthless",
              "bravery_enforcement", "ss_determination", "command_dependent", "guard_crew",
              "bridge_demolition", "trench_crossing", "high_gear", "inaccurate", "shrapnel",
              "large", "no_turret", "overlapping_fire", "overrun", "surprise_fire",
              "battlefield_awareness", "highly_flammable", "hand_to_hand"}
    assert wanted <= set(CATALOG)
    base = {a.id for c in base_set().values() for a in c.abilities}
    assert base == wanted - {"transport"}               # Transport: no Base Set card has it
    used = {a.id for c in load_roster().values() for a in c.abilities}
    assert used <= set(CATALOG) | set(PENDING)


def test_catalog_names_and_texts():
    assert display_name("close_assault", 7) == "Close Assault 7"
    assert display_name("blast") == "Blast"
    assert "{n}" not in rule_text("superior_armor", 2)
    assert "5 to 10 hexes" in rule_text("extended_range", 10)
    base = {a.id for c in base_set().values() for a in c.abilities}
    assert COMMANDER_ABILITIES & base == {"pinpointer", "tally_ho", "exert_will",
                                          "command_ruthless", "bravery_enforcement"}
    for spec in CATALOG.values():
        assert spec.id == spec.id.lower() and " " not in spec.id
        assert spec.takes_value == ("{n}" in spec.name) == (spec.value_range is not None)
        assert len(spec.text) > 60


def test_first_edition_gaps_are_stated():
    """issue 5: abilities that mention trenches or obstacles say what doesn't apply; the
    Aircraft clauses say they are the later edition's (which has Aircraft)."""
    for aid, word in (("trench_crossing", "trench"), ("bridge_demolition", "Obstacles")):
        assert "not apply" in rule_text(aid) and word in rule_text(aid)
    for aid in ("bombardment", "blast", "hull_mounted_flamethrower", "flamethrower",
                "top_mounted_rockets"):
        assert "Aircraft" in rule_text(aid) and "(later edition" in rule_text(aid)


# --- validation ---------------------------------------------------------------------------
def test_parse_card_for_inline_cards():
    from game.data.yamlio import Checker
    c = Checker("situation.yaml")
    data = yaml.safe_load(GOOD)["cards"][0]
    made = units.parse_card(c, data)
    assert made is not None and made.name == "Test Tank" and c.problems == []
    bad = dict(data, speed=-1)
    assert units.parse_card(c, bad) is None
    assert c.problems and c.problems[0].field == "speed"


def test_good_file_loads(tmp_path):
    roster = load_roster(write(tmp_path, GOOD.replace("    speed: 1\n", "    speed: 1\n    rarity: null\n")), reload=True)
    tank, rifle = roster["Test Tank"], roster["Test Rifle"]
    assert isinstance(tank, UnitCard)
    assert (tank.defense_front, tank.defense_rear) == (5, 3)
    assert tank.dice(VEHICLE, "long") is None
    assert rifle.ability("coordinated_fire").name == "Stars & Stripes"
    assert tank.side == "Axis" and rifle.side == "Allies"


@pytest.mark.parametrize("old,new,field,words", [
    ("      - sideskirts\n", "      - side_skirts\n", "abilities[2]", "unknown ability id 'side_skirts'"),
    ("      - extended_range: 10", "      - extended_range: 5", "abilities[1]", "9-20"),
    ("      - extended_range: 10", "      - extended_range", "abilities[1]", "needs a whole number"),
    ("      - sideskirts\n", "      - sideskirts: 2\n", "abilities[2]", "takes no value"),
    ("      - close_assault: 7", "      - heavy_armor", "abilities[1]", "Vehicles only"),
    ("    speed: 4\n", "    speed: fast\n", "speed", "expected a whole number 0-10"),
    ("    cost: 20", "    cost: 0", "cost", "1-150"),
    ("    year: 1942\n    type: Vehicle", "    year: 1950\n    type: Vehicle", "year", "1930-1945"),
    ("nationality: Germany", "nationality: Prussia", "nationality", "expected one of"),
    ("    subtype: Tank", "    subtype: Tnak", "subtype", "expected one of"),
    ("    type: Vehicle", "    type: Boat", "type", "Soldier, Vehicle"),
    ("    defense: 4\n", "    defense: {front: 4, rear: 3}\n", "defense", "one defense number"),
    ("    defense: {front: 5, rear: 3}", "    defense: {front: 3, rear: 5}", "defense", "rear defense 5 is higher"),
    ("    vs_soldier: [7, 7, 6]", "    vs_soldier: [7, 7]", "vs_soldier", "three values"),
    ("    vs_soldier: [7, 7, 6]", "    vs_soldier: [7, x, 6]", "vs_soldier", "medium range"),
    ("    speed: 4\n", "    speed: 4\n    armour: 3\n", "armour", "unknown field"),
    ("    speed: 1\n", "    speed: 1\n    commander: 2\n", "commander", "only commanders"),
    ("    speed: 4\n", "    speed: 0\n", "speed", "Relocate"),
    ("      - close_assault: 7\n", "      - close_assault: 7\n      - close_assault: 8\n", "abilities[2]", "listed twice"),
])
def test_bad_field_is_reported_with_file_entry_and_field(tmp_path, old, new, field, words):
    """Bad data -> DataError naming file, entry and field (common rules)."""
    err = load_error(tmp_path, mutate(old, new))
    report = err.report()
    match = [p for p in (err.problems or [err]) if p.field == field]
    assert match, report
    assert words in str(match[0]), report
    assert "cards.yaml" in str(match[0]) and "entry 'Test " in str(match[0])
    assert match[0].line is not None


def test_every_problem_is_reported_at_once(tmp_path):
    text = mutate("    speed: 4\n", "    speed: fast\n").replace("cost: 4", "cost: -1")
    err = load_error(tmp_path, text)
    fields = {p.field for p in err.problems}
    assert {"speed", "cost"} <= fields
    assert "more problem" in str(err)


def test_duplicate_names_across_files(tmp_path):
    folder = write(tmp_path, GOOD, "a.yaml")
    write(tmp_path, GOOD, "b.yaml")
    with pytest.raises(DataError) as exc:
        load_roster(folder, reload=True)
    assert "already in" in exc.value.report() and "b.yaml" in exc.value.report()


def test_yaml_syntax_error_names_the_line(tmp_path):
    err = load_error(tmp_path, GOOD.replace("    speed: 4", "    speed: [4"))
    assert err.line is not None and "YAML syntax error" in str(err)


def test_wrong_top_level_shapes(tmp_path):
    assert "expected a list of cards" in str(load_error(tmp_path, "cards: 3\n"))
    assert "unknown field" in str(load_error(tmp_path, GOOD + "units: []\n"))
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(DataError, match="no card files"):
        load_roster(empty, reload=True)
    with pytest.raises(DataError, match="folder not found"):
        load_roster(tmp_path / "nowhere", reload=True)


def test_every_shipped_card_file_loads_on_its_own():
    for f in sorted((ROOT / "units" / "cards").glob("*.yaml")):
        assert load_card_file(f)


# --- lookup and cache ------------------------------------------------------------------------
def test_card_lookup_is_forgiving_but_exact_when_unknown():
    assert card("kv-1").name == "KV-1"
    assert card("ZIS-2 57mm antitank gun").name == "ZIS-2 57mm Antitank Gun"
    assert card("panzer-iv-ausf-g").name == "Panzer IV Ausf. G"
    assert card("SS-Hauptsturmfuhrer").name == "SS-Hauptsturmführer"
    assert card("red devil captain").name == '"Red Devil" Captain'

    assert find_card("Maus") is None
    with pytest.raises(UnknownCardError) as exc:
        card("Tigr I")
    assert "did you mean 'Tiger I'" in str(exc.value)
    assert isinstance(exc.value, KeyError) and isinstance(exc.value, DataError)


def test_roster_is_cached(tmp_path, monkeypatch):
    folder = write(tmp_path, GOOD)
    first = load_roster(folder, reload=True)
    calls = []
    monkeypatch.setattr(units, "_load_folder", lambda p: calls.append(p) or {})
    assert load_roster(folder) == first and calls == []
    first.clear()                         # callers get a copy
    assert len(load_roster(folder)) == 2
    load_roster(folder, reload=True)
    assert calls


# --- listing -----------------------------------------------------------------------------------
def test_filters():
    roster = list(load_roster().values())
    assert {c.nationality for c in filter_cards(roster, nation="US")} == {"United States"}
    assert {c.nationality for c in filter_cards(roster, nation="soviet")} == {"Soviet Union"}
    tanks = filter_cards(roster, type="Tank")
    assert tanks and all(c.subtype == "Tank" for c in tanks)
    assert all(c.is_vehicle for c in filter_cards(roster, type="vehicle"))
    assert all(c.year <= 1940 for c in filter_cards(roster, year=1940))
    assert "Tiger I" not in {c.name for c in filter_cards(roster, year=1941)}
    assert all(c.side == "Axis" for c in filter_cards(roster, side="Axis"))
    assert nation_from_text("Ger") == "Germany" and nation_from_text("U") is None
    with pytest.raises(ValueError, match="unknown nationality"):
        filter_cards(roster, nation="Atlantis")


def test_table_lists_the_filtered_cards():
    text = format_table(filter_cards(base_set().values(), nation="Germany", type="Vehicle",
                                     year=1942))
    assert "Panzer IV Ausf. G" in text and "Tiger I" in text
    assert "Panther" not in text and "Mauser" not in text
    assert re.search(r"\b7 unit\(s\)", text), text


def test_cli_prints_the_roster():
    """`python -m game.roster --nation X --type Vehicle --year 1942` prints a table."""
    out = subprocess.run([sys.executable, "-m", "game.roster", "--nation", "Soviet Union",
                          "--type", "Vehicle", "--year", "1942"], cwd=ROOT, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "KV-1" in out.stdout and "T-34/76" in out.stdout and "T-34/85" not in out.stdout
    bad = subprocess.run([sys.executable, "-m", "game.roster", "--nation", "Atlantis"],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "unknown nationality" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_cli_reports_bad_data_without_a_traceback(tmp_path, capsys):
    folder = write(tmp_path, mutate("    speed: 4\n", "    speed: fast\n"))
    assert units.main(["--folder", str(folder)]) == 2
    err = capsys.readouterr().err
    assert "field 'speed'" in err and "Traceback" not in err


def test_readme_lists_the_roster_and_every_ability():
    """units/README.md: the roster table and every ability with its rule text are current
    (regenerate with `python -m game.data.units --markdown` / `--abilities`)."""
    readme = (ROOT / "units" / "README.md").read_text(encoding="utf-8")
    cards = list(load_roster().values())
    assert units.roster_markdown(cards) in readme
    assert units.abilities_markdown(cards, include_unused=True) in readme
    for spec in CATALOG.values():
        assert f"(`{spec.id}`" in readme


def test_readme_cost_policy_table_matches_the_cards():
    """units/README.md: Cost policy - the table of changed costs is the cards' costs."""
    readme = (ROOT / "units" / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Cost policy", 1)[1].split("## ", 1)[0]
    rows = re.findall(r"^\| (.+?) \| (\d+) \| (\d+) \|$", section, flags=re.M)
    assert len(rows) == 9
    for name, ours, _later in rows:
        assert card(name).cost == int(ours), name


def test_readme_card_example_is_a_valid_card():
    from game.data.yamlio import Checker
    readme = (ROOT / "units" / "README.md").read_text(encoding="utf-8")
    block = readme.split("```yaml\n", 1)[1].split("```", 1)[0]
    checker = Checker("units/README.md")
    made = units.parse_card(checker, yaml.safe_load(block)["cards"][0])
    assert checker.problems == [] and made is not None
    assert made.cost == card(made.name).cost


def test_roster_listing_says_where_each_card_plays(capsys):
    """issue 19: `python -m game.roster` lists every card (the later edition's too) with
    the battles it can be chosen for; --edition keeps only the playable ones."""
    from game.rules.army import playable_editions
    refused = [c.name for c in load_roster().values() if not playable_editions(c)]
    assert units.main([]) == 0
    out = capsys.readouterr().out
    assert "Play" in out.splitlines()[0]
    assert re.search(r"Romanian Infantry .* both ", out)
    assert all(re.search(r"^" + re.escape(n) + r" .* not yet ", out, flags=re.M)
               for n in refused)
    assert units.main(["--edition", "first"]) == 0
    first = capsys.readouterr().out
    listed = {ln.split("  ")[0] for ln in first.splitlines()}
    assert "Romanian Infantry" in listed and not listed & set(refused)
    assert units.main(["--type", "Aircraft"]) == 0
    assert re.search(r" later ", capsys.readouterr().out)
