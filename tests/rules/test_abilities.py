"""Special abilities (issue 5): every ability id the roster uses is implemented
through the hook registry, each has a test (the situation files in
tests/situations/abilities/ and the tests below), extra actions show up in
Game.legal_actions, and the exact odds count what abilities bring."""
from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from tests.rules.engine_kit import at, card, officer, position, rect_map, rifles, tank
from game.data.situations import load_situation
from game.data.units import load_roster
from game.rules.army import playable_editions
from game.rules import abilities, ability_hooks  # noqa: F401  (registers the hooks)
from game.rules.ability_catalog import CATALOG
from game.rules.actions import Attack, Board, EndPhase, Move
from game.rules.cards import Ability
from game.rules.dice import LoadedDice
from game.rules.engine import TRANSPORT_IDS, Game
from game.rules.odds import attack_odds
from game.situations import run_situation
from game.rules.state import Phase

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "tests" / "situations" / "abilities"
FILES = sorted(FOLDER.glob("*.yaml"))
#: every card playable in some edition (a card whose abilities aren't all implemented is
#: refused in every battle: game.rules.army.card_refusal)
ROSTER = {c.id: c for c in load_roster().values() if playable_editions(c)}
MAP = rect_map(10, 6)

#: abilities the engine itself implements (transport rules, bridges) rather than hooks
ENGINE_ABILITIES = set(TRANSPORT_IDS) | {"bridge_demolition"}


def _ab(ability_id, value=None):
    from game.rules.ability_catalog import make_ability
    return make_ability(ability_id, value)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_ability_situation(path):
    """Each ability situation file (it names its abilities in ``rule:``) passes."""
    sit = load_situation(path)
    assert sit.rule.startswith("ability:")
    result = run_situation(sit)
    assert result.ok, "\n".join(result.problems)


def test_every_roster_ability_is_hooked_and_tested():
    """Every ability id on the playable cards has a hook (or is an engine rule) and is
    named by at least one ability situation file's ``rule:`` line."""
    used = {a.id for c in ROSTER.values() for a in c.abilities}
    assert len(ROSTER) >= 47 + 100
    hooked = {h.ability_id for hs in abilities.HOOKS.values() for h in hs if h.ability_id}
    tested_text = " ".join(load_situation(p).rule for p in FILES)
    missing_hooks = sorted(used - hooked - ENGINE_ABILITIES - ability_hooks.IN_RULE_HOOKS)
    assert not missing_hooks, missing_hooks
    untested = sorted(a for a in used | {"transport"}
                      if CATALOG[a].name.replace(" {n}", " N") not in tested_text)
    assert not untested, untested
    for point, hs in abilities.HOOKS.items():
        for h in hs:
            assert h.ability_id is None or h.ability_id in CATALOG, (point, h.ability_id)


def test_no_ability_logic_keyed_on_unit_names():
    """No card name appears in the ability code (every module of the abilities package)."""
    for path in sorted((ROOT / "game" / "rules" / "abilities").glob("*.py")):
        src = path.read_text(encoding="utf-8")
        for c in ROSTER.values():
            assert c.name not in src, (path.name, c.name)


def test_each_ability_is_specified_and_hooked_in_one_module():
    """The abilities package: an ability's spec and its id-keyed hooks live in the
    same module, and each id is specified once."""
    import importlib
    home = {}
    for name in abilities.MODULES:
        mod = importlib.import_module(f"game.rules.abilities.{name}")
        for s in getattr(mod, "SPECS", ()):
            assert s.id not in home, s.id
            home[s.id] = name
    assert set(home) == set(CATALOG)
    for point, hs in abilities.HOOKS.items():
        for h in hs:
            if h.ability_id is not None and h.fn.__module__.startswith("game.rules.abilities."):
                assert h.fn.__module__.rsplit(".", 1)[1] == home[h.ability_id], \
                    (point, h.ability_id, h.fn.__module__)


# --- legal actions: extra actions, mode attacks ---------------------------------------------
def _assault(dice=()):
    return position(MAP, phase=Phase.ASSAULT_FIRST, dice=list(dice) or [1] * 200)


def test_double_shot_second_attack_is_legal_and_cannot_be_saved():
    """ability: Double Shot; rulebook: Extra or Additional Actions - the second attack
    is offered right after the first and is gone once another unit acts."""
    g = _assault()
    mg = g.add_unit(ROSTER["mg-42-machine-gun-team"], "Axis", at(1, 2))
    other = g.add_unit(rifles("Germany"), "Axis", at(1, 4))
    t = g.add_unit(rifles("United States"), "Allies", at(3, 2))
    g.apply(Attack("Axis", mg.uid, t.uid))
    acts = g.legal_actions()
    assert Attack("Axis", mg.uid, t.uid) in acts
    assert g.check(Attack("Axis", mg.uid, t.uid)) is None
    g.apply(Attack("Axis", other.uid, t.uid))
    assert Attack("Axis", mg.uid, t.uid) not in g.legal_actions()
    assert "acted" in g.check(Attack("Axis", mg.uid, t.uid))


def test_strike_and_fade_move_is_legal_after_the_attack():
    """ability: Strike and Fade N - after attacking, moves of up to N hexes are legal."""
    g = _assault()
    car = g.add_unit(ROSTER["sd-kfz-222"], "Axis", at(1, 2), facing=0)
    t = g.add_unit(rifles("United States"), "Allies", at(3, 2))
    g.apply(Attack("Axis", car.uid, t.uid))
    moves = [a for a in g.legal_actions() if isinstance(a, Move) and a.uid == car.uid]
    assert moves and max(len(m.path) for m in moves) == 2
    assert all(g.check(m) is None for m in moves[:12])
    # the reach query explains the fade's own limit, not "already acted" (its move is open)
    assert g.why_not_reach(car.uid, moves[0].path[-1]) == ""
    far = at(5, 2)                          # 4 hexes: within its speed, not its fade
    assert "too far" in g.why_not_reach(car.uid, far) and "acted" not in g.why_not_reach(car.uid, far)
    g.apply(next(m for m in moves if len(m.path) == 2))
    assert not [a for a in g.legal_actions() if getattr(a, "uid", None) == car.uid]
    assert g.why_not_reach(car.uid, far) != ""


def test_mode_attacks_appear_in_legal_actions_and_overrun_is_no_attack():
    """ability: Close Assault N, Hand to Hand N, Overrun - mode attacks are listed; the
    printed Overrun gives no attack after the move into the Soldiers' hex (it disrupts
    one of them on the way in instead)."""
    g = _assault()
    ari = g.add_unit(ROSTER["arisaka-rifleman"], "Axis", at(2, 2))
    tiger = g.add_unit(ROSTER["tiger-i"], "Axis", at(6, 4), facing=3)
    gi = g.add_unit(rifles("United States"), "Allies", at(2, 2))
    sh = g.add_unit(tank("United States"), "Allies", at(2, 2))
    gi2 = g.add_unit(rifles("United States", soldier=(1, None, None)), "Allies", at(5, 4))
    acts = g.legal_actions()
    assert Attack("Axis", ari.uid, gi.uid, "hand_to_hand") in acts
    assert Attack("Axis", ari.uid, sh.uid, "close_assault") in acts
    assert Attack("Axis", ari.uid, gi2.uid, "hand_to_hand") not in acts
    g.apply(Move("Axis", tiger.uid, (at(5, 4),), 3))
    while g.state.pending is not None:          # the GI may shoot; it holds
        g.apply(g.legal_actions()[-1])
    acts = g.legal_actions()
    assert gi2.disrupted
    assert not [a for a in acts if getattr(a, "uid", None) == tiger.uid]


def test_fighting_platform_and_exposed_transport_in_legal_actions():
    """ability: Fighting Platform; Exposed Transport - the passenger's attack and
    attacks on an exposed passenger are legal actions."""
    g = _assault()
    ht = g.add_unit(ROSTER["sd-kfz-251"], "Axis", at(1, 2))
    rider = g.add_unit(rifles("Germany"), "Axis", carrier=ht.uid)
    kv = g.add_unit(ROSTER["kv-1"], "Allies", at(3, 2), facing=3)
    gi = g.add_unit(rifles("United States"), "Allies", carrier=kv.uid)
    acts = g.legal_actions()
    assert Attack("Axis", rider.uid, gi.uid) in acts
    assert Attack("Axis", ht.uid, gi.uid) in acts


def test_relocate_speed_only_in_the_assault_phase():
    """ability: Relocate N - no move in the movement phase, N hexes in the assault phase."""
    g = position(MAP, phase=Phase.MOVEMENT_FIRST)
    pak = g.add_unit(ROSTER["pak-38-antitank-gun"], "Axis", at(1, 2))
    assert g.reachable(pak.uid) == {}
    g.state.phase = Phase.ASSAULT_FIRST
    g.state.touch()
    far = max(h.distance(pak.hex) for h in g.reachable(pak.uid))
    assert far == 2


# --- commander principles ------------------------------------------------------------------------
def _cmd(ability_id, nation="Germany", **kw):
    return officer(nation, abilities=(_ab(ability_id),), **kw)


def test_disrupted_commander_abilities_do_not_work():
    """rulebook: Commander Abilities and Disruption (Pinpointer, Tally-Ho!)."""
    bm = rect_map(10, 3, {(5, 1): "forest"})
    g = position(bm, phase=Phase.ASSAULT_FIRST)
    cap = g.add_unit(_cmd("pinpointer"), "Axis", at(2, 1))
    gren = g.add_unit(rifles("Germany"), "Axis", at(3, 1))
    t = g.add_unit(rifles("United States"), "Allies", at(5, 1))
    assert attack_odds(g.state, gren.uid, t.uid).cover_need == 5
    cap.disrupted = True
    assert attack_odds(g.state, gren.uid, t.uid).cover_need == 4


def test_same_named_commander_bonuses_do_not_add():
    """rulebook: Special Abilities of the Same Name Don't Add Together (Tally-Ho!) and
    Command Ruthless does not add to the unit's own Ruthless."""
    g = position(MAP, phase=Phase.MOVEMENT_FIRST)
    g.add_unit(_cmd("tally_ho"), "Axis", at(2, 2))
    g.add_unit(_cmd("tally_ho"), "Axis", at(2, 3))
    gren = g.add_unit(rifles("Germany", speed=1), "Axis", at(3, 2))
    assert max(h.distance(gren.hex) for h in g.reachable(gren.uid)) == 2
    g2 = _assault()
    g2.add_unit(_cmd("command_ruthless"), "Axis", at(2, 2))
    ss = g2.add_unit(ROSTER["ss-panzergrenadier"], "Axis", at(3, 2))
    t = g2.add_unit(rifles("United States"), "Allies", at(4, 2), disrupted=True)
    assert attack_odds(g2.state, ss.uid, t.uid).need == 3


def test_initiative_uses_the_best_non_disrupted_commander():
    """rulebook: Initiative - the best bonus of a non-disrupted commander."""
    g = position(MAP)
    g.add_unit(next(c for c in ROSTER.values() if c.name.startswith("SS-Haupt")), "Axis", at(1, 1))
    c2 = g.add_unit(ROSTER["snlf-captain"], "Axis", at(1, 2))
    assert g.initiative_bonus("Axis") == 3
    g.state.units["axis-1"].disrupted = True
    assert g.initiative_bonus("Axis") == c2.card.commander_bonus == 2


# --- exact odds -----------------------------------------------------------------------------------
def _brute_force(g: Game, a_uid: str, t_uid: str, n_dice: int, extra: int):
    """Every sequence of ``n_dice`` attack dice and ``extra`` more dice (cover roll,
    Highly Flammable), each resolved through the real engine on a copy."""
    counts = {"none": 0, "disrupted": 0, "damaged": 0, "destroyed": 0}
    rank = {"disrupted": 1, "damaged": 2, "destroyed": 3}
    names = ["none", "disrupted", "damaged", "destroyed"]
    total = 0
    for faces in itertools.product(range(1, 7), repeat=n_dice + extra):
        c = g.copy()
        c.dice = LoadedDice(list(faces))
        c.apply(Attack(c.state.units[a_uid].side, a_uid, t_uid))
        tu = c.state.units[t_uid]
        if tu.destroyed:            # destroyed at once (flamethrower, Highly Flammable)
            counts["destroyed"] += 1
        else:
            counts[names[max([0] + [rank[p] for p in tu.pending])]] += 1
        total += 1
    return {k: v / total for k, v in counts.items()}


def test_flamethrower_odds_are_exact():
    """ability: Hull-Mounted Flamethrower - three natural 6s destroy at once; the odds
    count it (checked against every possible roll)."""
    g = _assault()
    croc = g.add_unit(tank("United Kingdom", soldier=(4, 2, 1),
                           abilities=(_ab("hull_mounted_flamethrower"),)), "Axis", at(2, 2))
    t = g.add_unit(rifles("United States", front=5), "Allies", at(3, 2))
    odds = attack_odds(g.state, croc.uid, t.uid)
    assert odds.cover_need is None and odds.dice == 4
    exact = _brute_force(g, croc.uid, t.uid, 4, 0)
    assert odds.p_destroyed == pytest.approx(exact["destroyed"])
    assert odds.p_none == pytest.approx(exact["none"])
    assert odds.p_destroyed > 0   # 4 dice can't reach 2 hits against 5: only the 6s destroy


def test_highly_flammable_odds_are_exact():
    """ability: Highly Flammable - a Damaged counter burns on 3+ (destroyed at once); the
    odds count it."""
    g = _assault()
    a = g.add_unit(tank("United States", vehicle=(3, 2, 1)), "Allies", at(2, 2))
    t = g.add_unit(tank("Italy", front=1, rear=1, abilities=(_ab("highly_flammable"),)),
                   "Axis", at(3, 2), facing=3)
    g.state.phase = Phase.ASSAULT_SECOND
    g.state.touch()
    odds = attack_odds(g.state, a.uid, t.uid)
    exact = _brute_force(g, a.uid, t.uid, 3, 1)
    for k in ("none", "disrupted", "damaged", "destroyed"):
        assert getattr(odds, "p_" + k) == pytest.approx(exact[k]), k


def test_superior_armor_and_heavy_armor_odds_match_every_roll():
    """ability: Superior Armor N; Heavy Armor - the odds use the same hooks as the attack."""
    g = _assault()
    a = g.add_unit(tank("Germany", vehicle=(4, 3, 2)), "Axis", at(2, 2))
    t = g.add_unit(tank("Soviet Union", front=2, rear=2,
                        abilities=(_ab("superior_armor", 2), _ab("heavy_armor"))),
                   "Allies", at(3, 2), facing=3)
    odds = attack_odds(g.state, a.uid, t.uid)
    exact = _brute_force(g, a.uid, t.uid, 4, 0)
    for k in ("none", "disrupted", "damaged", "destroyed"):
        assert getattr(odds, "p_" + k) == pytest.approx(exact[k]), k


def test_targets_list_mode_attacks_with_their_odds():
    """Game.targets offers Close Assault as its own entry with its dice and no cover
    (in the unit's own assault phase, where the mode can be used)."""
    bm = rect_map(6, 3, {(2, 1): "forest"})
    g = position(bm, phase=Phase.ASSAULT_SECOND)
    baz = g.add_unit(ROSTER["bazooka"], "Allies", at(2, 1))
    pz = g.add_unit(ROSTER["panzer-iv-ausf-f2"], "Axis", at(2, 1))
    infos = {i.mode: i for i in g.targets(baz.uid) if i.target == pz.uid}
    assert infos["close_assault"].dice == 10 and not infos["close_assault"].cover
    assert infos["normal"].dice == 9 and infos["normal"].cover


def test_large_and_gun_transport_boarding():
    """ability: Large; Gun Transport; transport - Artillery boards only a Gun Transport,
    and a Large unit boards nothing."""
    g = position(MAP)
    ht = g.add_unit(ROSTER["sd-kfz-251"], "Axis", at(1, 1))
    pak = g.add_unit(ROSTER["pak-38-antitank-gun"], "Axis", at(1, 1))
    assert Board("Axis", pak.uid, ht.uid) in g.legal_actions()
    big = g.add_unit(ROSTER["pak-40-antitank-gun"], "Axis", at(2, 1))
    ht2 = g.add_unit(ROSTER["sd-kfz-251"], "Axis", at(2, 1))
    assert "Large" in g.check(Board("Axis", big.uid, ht2.uid))


def test_fighting_platform_passenger_fires_defensively():
    """ability: Fighting Platform - the carried Soldier may fire defensively as if it
    stood in the carrier's hex (a plain transport's passenger may not)."""
    from game.rules.state import DefensiveFirePrompt
    g = position(MAP, phase=Phase.MOVEMENT_FIRST, first="Allies", dice=[1] * 40)
    ht = g.add_unit(ROSTER["sd-kfz-251"], "Axis", at(3, 2))
    rider = g.add_unit(rifles("Germany"), "Axis", carrier=ht.uid)
    a, b = [n for n in ht.hex.neighbors() if n.distance(ht.hex.neighbor(0)) <= 1][:2]
    gi = g.add_unit(rifles("United States"), "Allies", a)
    g.apply(Move("Allies", gi.uid, (b,), None))
    p = g.state.pending
    assert isinstance(p, DefensiveFirePrompt) and p.eligible == (rider.uid,)


def test_blast_hits_exposed_passengers_only():
    """ability: Blast; Exposed Transport - a passenger is attacked by Blast only when its
    carrier has Exposed Transport."""
    from game.rules.events import DiceRolled
    from tests.rules.engine_kit import halftrack
    g = _assault([6] * 60)
    sig = g.add_unit(ROSTER["sig-33"], "Axis", at(1, 2), facing=0)
    kv = g.add_unit(ROSTER["kv-1"], "Allies", at(3, 2), facing=3)
    g.add_unit(rifles("United States"), "Allies", carrier=kv.uid)
    ev = g.apply(Attack("Axis", sig.uid, kv.uid))
    assert sum(isinstance(e, DiceRolled) for e in ev) == 2
    g2 = _assault([6] * 60)
    sig2 = g2.add_unit(ROSTER["sig-33"], "Axis", at(1, 2), facing=0)
    ht = g2.add_unit(halftrack("United States"), "Allies", at(3, 2), facing=3)
    g2.add_unit(rifles("United States"), "Allies", carrier=ht.uid)
    ev = g2.apply(Attack("Axis", sig2.uid, ht.uid))
    assert sum(isinstance(e, DiceRolled) for e in ev) == 1


def test_exert_will_needs_an_undisrupted_commander():
    """ability: Exert Will; rulebook: Commander Abilities and Disruption."""
    cmd = officer("Germany", abilities=(_ab("exert_will"),))
    for disrupted, expect in ((False, False), (True, True)):
        g = position(MAP, phase=Phase.ASSAULT_SECOND, dice=[6, 6, 1, 1])
        c = g.add_unit(cmd, "Axis", at(2, 2), pending=["disrupted"] if disrupted else [])
        s = g.add_unit(rifles("Germany"), "Axis", at(3, 2), pending=["disrupted"])
        g.add_unit(rifles("United States"), "Allies", at(8, 2))
        g.apply(EndPhase("Allies"))                   # casualty, end of turn, initiative
        from game.rules.actions import ChooseOrder
        g.apply(ChooseOrder("Axis", True))            # Axis movement phase begins
        assert g.state.phase == Phase.MOVEMENT_FIRST
        assert c.disrupted is disrupted
        assert s.disrupted is expect


def test_double_shot_from_a_fighting_platform():
    """ability: Double Shot; Fighting Platform - a passenger with Double Shot makes both
    attacks from the platform."""
    g = _assault()
    ht = g.add_unit(ROSTER["sd-kfz-251"], "Axis", at(1, 2))
    mg = g.add_unit(ROSTER["mg-42-machine-gun-team"], "Axis", carrier=ht.uid)
    t = g.add_unit(rifles("United States"), "Allies", at(3, 2))
    g.apply(Attack("Axis", mg.uid, t.uid))
    assert Attack("Axis", mg.uid, t.uid) in g.legal_actions()
    g.apply(Attack("Axis", mg.uid, t.uid))
    assert "all the attacks" in g.check(Attack("Axis", mg.uid, t.uid))
    assert "passenger fired" in g.check(Move("Axis", ht.uid, (at(1, 3),), 0))
