"""The whole roster's abilities (issue 19): what the situation files in
tests/situations/abilities/ don't reach - the new actions show up in
Game.legal_actions (so the AI sees them), deployment lists follow Gliderborne and
Partisan, Recon needs line of sight, Charge's reachable hexes, and every new
ability has a hook and a situation file naming it."""
from __future__ import annotations

from pathlib import Path

from game.data.situations import load_situation
from game.rules import abilities, phases
from game.rules.abilities.spec import CATALOG
from game.rules.actions import Attack, Board, Deploy, Dismount, Move
from game.rules.hexes import hex_label, parse_hex_label as parse_hex
from game.rules.movement import reachable
from game.situations import build_game

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "tests" / "situations" / "abilities"

#: the abilities issue 19's helper abil19 implemented (abilities_order.txt 1-42)
ROSTER_IDS = ("robust", "limited_range", "light_artillery", "steely_resolve", "hard_to_spot",
              "large_transport", "amphibious", "covering_fire", "entrenched", "flanking_attack",
              "large_silhouette", "flamethrower", "mountaineering", "aggression", "charge",
              "crack_shot", "fearless", "fire_hazard", "fixed_gun", "gliderborne", "green",
              "gung_ho", "hard_charger", "lack_of_determination", "light_towing",
              "mechanized_tactics", "mobility", "partisan", "dispersal", "prone_to_breakdown",
              "rocket_salvo", "thin_wheels", "recon", "undermanned", "veteran_crew",
              "indirect_fire", "spotter", "chatting_on_the_radio", "concealed", "camouflaged",
              "experienced_recon", "open_exposed_crew")


def _game(name: str):
    return build_game(load_situation(FOLDER / f"{name}.yaml"))


def test_every_roster_ability_is_hooked_and_named_by_a_situation():
    """Each new id has a spec, a hook (id-keyed or read by a rule hook) and is named in
    the ``rule:`` line of an ability situation file."""
    hooked = {h.ability_id for hs in abilities.HOOKS.values() for h in hs if h.ability_id}
    rule_read = {"covering_fire", "green", "hard_charger", "lack_of_determination"}
    rules = " ".join(load_situation(p).rule for p in sorted(FOLDER.glob("*.yaml")))
    for aid in ROSTER_IDS:
        assert aid in CATALOG, aid
        assert aid in hooked or aid in rule_read, aid
        name = CATALOG[aid].name.replace(" {n}", " N")
        assert name in rules, (aid, name)


def test_aggression_attack_after_a_short_move_is_a_legal_action():
    """ability: Aggression N - after a move of at most N hexes the attack is listed in
    legal_actions; after a longer move it is not."""
    g = _game("aggression")
    g.apply(Move("Allies", "ba64", (parse_hex("B1"), parse_hex("C1"), parse_hex("D1")), 0))
    assert not [a for a in g.legal_actions() if isinstance(a, Attack) and a.uid == "ba64"]
    g.apply(Move("Allies", "ba64b", (parse_hex("B2"), parse_hex("C2")), 0))
    acts = g.legal_actions()
    assert Attack("Allies", "ba64b", "rifles") in acts
    assert not [a for a in acts if isinstance(a, Move) and a.uid == "ba64b"]


def test_rocket_salvo_is_listed_once_per_game():
    """ability: Rocket Salvo - the salvo is an attack mode in legal_actions until used."""
    g = _game("rocket_salvo")
    salvo = Attack("Axis", "nebel", "gi", "rocket_salvo")
    assert salvo in g.legal_actions()
    assert Attack("Axis", "nebel", "far-gi", "rocket_salvo") in g.legal_actions()
    g.apply(salvo)
    st = g.state
    nebel = st.units["nebel"]
    nebel.acted = False                      # a later activation: still no salvo
    assert not [a for a in g.legal_actions()
                if isinstance(a, Attack) and a.mode == "rocket_salvo"]
    assert "once per game" in (g.check(Attack("Axis", "nebel", "far-gi", "rocket_salvo")) or "")


def test_mechanized_tactics_dismount_is_a_legal_action_after_the_ride():
    """ability: Mechanized Tactics - listed once the transport has moved."""
    g = _game("mechanized_tactics")
    g.apply(Board("Axis", "pzgren", "ht"))
    assert Dismount("Axis", "pzgren", parse_hex("B1")) not in g.legal_actions()
    g.apply(Move("Axis", "ht", (parse_hex("C1"), parse_hex("D1")), 0))
    assert Dismount("Axis", "pzgren", parse_hex("D1")) in g.legal_actions()
    g.apply(Board("Axis", "rifles", "ht2"))
    g.apply(Move("Axis", "ht2", (parse_hex("C2"), parse_hex("D2")), 0))
    assert not [a for a in g.legal_actions() if isinstance(a, Dismount) and a.uid == "rifles"]


def test_deployment_lists_follow_gliderborne_and_partisan():
    """ability: Gliderborne; Partisan - the legal Deploy actions of each unit follow its
    own zone (units of the same kind don't share a list)."""
    g = _game("gliderborne_partisan")
    hexes: dict[str, set[str]] = {}

    for a in g.legal_actions():
        if isinstance(a, Deploy) and a.carrier is None:
            hexes.setdefault(a.uid, set()).add(hex_label(a.hex))
    assert "I2" in hexes["locust"] and "J2" not in hexes["locust"] and "H3" not in hexes["locust"]
    assert "L1" in hexes["werwolf"] and "H2" not in hexes["werwolf"]
    assert "G2" not in hexes["rifles"] and "L1" not in hexes["rifles"]
    assert all(g.check(Deploy("Axis", "werwolf", parse_hex(h), 0)) is None
               for h in sorted(hexes["werwolf"]))


def test_recon_needs_line_of_sight():
    """ability: Recon - no line of sight to an enemy, no +1."""
    g = _game("recon")
    st = g.state
    assert phases.initiative_extra(st, "Axis") == 1
    assert phases.initiative_extra(st, "Allies") == 0
    st.units["bmw"].hex = parse_hex("A1")          # the forest at E1/E2 ... behind cover
    st.units["gi"].hex = parse_hex("J1")
    st.touch()
    assert not st.battle_map.can_see(parse_hex("A1"), parse_hex("J1"))
    assert phases.initiative_extra(st, "Axis") == 0


def test_charge_reach_only_stops_closer_to_an_enemy_soldier():
    """ability: Charge - a disrupted unit may stop only in hexes closer to the enemy."""
    g = _game("charge")
    st = g.state
    reach = reachable(st, "cav")
    gi = st.units["gi"].hex
    start = st.units["cav"].hex
    stops = [h for h, r in reach.items() if r.stops]
    assert stops and all(h.distance(gi) < start.distance(gi) for h in stops)
    moves = [a for a in g.legal_actions() if isinstance(a, Move) and a.uid == "cav"]
    assert moves and all(a.path and a.path[-1].distance(gi) < start.distance(gi) for a in moves)
