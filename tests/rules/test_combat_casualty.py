"""The casualty phase (rulebook: Casualty Phase, Attack Effects, glossary: transport)."""
from __future__ import annotations

from game.rules.board import BattleMap
from game.rules.cards import UnitCard
from game.rules.combat import casualty_phase
from game.rules.events import (CountersFlipped, DisruptionRemoved, UnitDamaged, UnitDestroyed,
                               UnitDisrupted)
from game.rules.hexes import Hex, hexes_within
from game.rules.state import GameState, Phase, Unit
from game.rules.terrain import Terrain

_ATT = {"Soldier": {"short": 4, "medium": 3, "long": None},
        "Vehicle": {"short": 4, "medium": 3, "long": None}}
SOLDIER = UnitCard("Rifles", "United States", 4, 1942, "Soldier", None, 1, 4, 4, _ATT)
TANK = UnitCard("Tank", "United States", 20, 1942, "Vehicle", "Tank", 4, 5, 3, _ATT)
_MAP = BattleMap("tiny", {h: Terrain.CLEAR for h in hexes_within(Hex(0, 0), 2)})


def _state(*units):
    st = GameState.blank(_MAP, phase=Phase.CASUALTY)
    for u in units:
        st.units[u.uid] = u
    return st


def _kinds(events):
    return [type(e).__name__ for e in events]


def test_casualty_steps_in_rulebook_order():
    """rulebook: Casualty Phase - remove face-up Disrupted, flip new counters, remove
    Destroyed units, apply Damaged, apply Disrupted (in that order)."""
    old = Unit("old", SOLDIER, "Allies", Hex(0, 0), disrupted=True)
    dead = Unit("dead", SOLDIER, "Allies", Hex(1, 0), pending=["disrupted", "destroyed"])
    hurt = Unit("hurt", TANK, "Axis", Hex(0, 1), pending=["disrupted", "damaged"])
    ev = casualty_phase(_state(old, dead, hurt))
    assert _kinds(ev) == ["DisruptionRemoved", "CountersFlipped", "CountersFlipped",
                          "UnitDestroyed", "UnitDamaged", "UnitDisrupted"]
    assert [e.uid for e in ev if isinstance(e, UnitDisrupted)] == ["hurt"]


def test_disruption_lasts_until_next_casualty_phase():
    """rulebook: Recovery - a face-up Disrupted counter goes at the start of the next
    casualty phase; a new face-down Disrupted then makes the unit disrupted again."""
    a = Unit("a", SOLDIER, "Allies", Hex(0, 0), disrupted=True)
    b = Unit("b", SOLDIER, "Allies", Hex(1, 0), disrupted=True, pending=["disrupted"])
    casualty_phase(_state(a, b))
    assert not a.disrupted
    assert b.disrupted and b.pending == []


def test_destroyed_units_leave_the_map():
    """rulebook: If a unit has a Destroyed counter, it's destroyed - removed from the map
    (kept in the state for the record)."""
    u = Unit("u", TANK, "Axis", Hex(0, 0), pending=["disrupted", "damaged", "destroyed"])
    st = _state(u)
    casualty_phase(st)
    assert u.destroyed and not u.on_map and not u.damaged and not u.disrupted
    assert st.live_units() == []


def test_soldier_aboard_destroyed_transport_dies_with_it():
    """glossary: transport - if the transport Vehicle is destroyed, any Soldier on it is
    destroyed too; disrupted or damaged, the Soldier is unaffected."""
    car = Unit("car", TANK, "Allies", Hex(0, 0), pending=["disrupted", "damaged", "destroyed"])
    rider = Unit("rider", SOLDIER, "Allies", Hex(0, 0), carrier="car")
    car2 = Unit("car2", TANK, "Allies", Hex(1, 0), pending=["disrupted", "damaged"])
    rider2 = Unit("rider2", SOLDIER, "Allies", Hex(1, 0), carrier="car2")
    ev = casualty_phase(_state(car, rider, car2, rider2))
    assert rider.destroyed and [e.uid for e in ev if isinstance(e, UnitDestroyed)] == [
        "car", "rider"]
    assert car2.damaged and car2.disrupted
    assert not rider2.destroyed and not rider2.disrupted


def test_damaged_stays_and_disrupted_goes():
    """rulebook: Remove current face-up Disrupted counters. Don't remove existing Damaged
    counters."""
    u = Unit("u", TANK, "Axis", Hex(0, 0), disrupted=True, damaged=True)
    ev = casualty_phase(_state(u))
    assert u.damaged and not u.disrupted
    assert _kinds(ev) == ["DisruptionRemoved"]


def test_counters_flipped_event_lists_them():
    """rulebook: Flip over new hit counters."""
    u = Unit("u", TANK, "Axis", Hex(0, 0), pending=["disrupted"])
    ev = casualty_phase(_state(u))
    flips = [e for e in ev if isinstance(e, CountersFlipped)]
    assert flips[0].counters == ("disrupted",)
    assert u.disrupted and not u.damaged
    assert not any(isinstance(e, (UnitDamaged, DisruptionRemoved)) for e in ev)
