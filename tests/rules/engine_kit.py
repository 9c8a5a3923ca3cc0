"""Small building blocks for engine tests (and the ability / AI helpers' tests):
inline unit cards, tiny battle maps built in code, and a random-play driver.

Maps are rectangles of whole hexes: ``rect_map(width, height)`` has rows
``r = 0..height-1`` and, in each row, ``width`` hexes left to right.  Terrain
is given as a dict ``{(col, row): "forest"}`` in those rectangle coordinates
(``at(col, row)`` converts to a :class:`Hex`).
"""
from __future__ import annotations

import random

from game.rules.board import BattleMap
from game.rules.cards import Ability, UnitCard
from game.rules.hexes import Hex, Hexside
from game.rules.terrain import Terrain


def at(col: int, row: int) -> Hex:
    """Rectangle coordinates -> axial hex (pointy-top, rows shifted)."""
    return Hex(col - (row // 2), row)


def rect_map(width: int = 16, height: int = 11, terrain: dict | None = None, *,
             roads: list[tuple[tuple[int, int], tuple[int, int]]] = (),
             streams: list[tuple[tuple[int, int], tuple[int, int]]] = (),
             bridges: list[tuple[tuple[int, int], tuple[int, int]]] = (),
             objective: tuple[int, int] | None = None, half_hexes: bool = True,
             name: str = "test map") -> BattleMap:
    terr = {at(c, r): Terrain.CLEAR for r in range(height) for c in range(width)}
    for (c, r), t in (terrain or {}).items():
        terr[at(c, r)] = Terrain.parse(t) if isinstance(t, str) else t
    halves = set()
    if half_hexes:
        for r in range(height):
            halves.add(at(-1, r))
            halves.add(at(width, r))
    def hx(x):
        return x if isinstance(x, Hex) else at(*x)

    def side(pair):
        return Hexside.between(hx(pair[0]), hx(pair[1]))
    rd = frozenset(side(p) for p in list(roads) + list(bridges))
    st = frozenset(side(p) for p in list(streams) + list(bridges))
    br = frozenset(side(p) for p in bridges)
    return BattleMap(name=name, terrain=terr, half_hexes=frozenset(halves) - set(terr),
                     roads=rd, streams=st, bridges=br,
                     objective=at(*objective) if objective else None)


def card(name: str, type_: str = "Soldier", *, speed: int = 2, front: int = 4,
         rear: int | None = None, soldier=(6, 4, 2), vehicle=(2, 1, None), cost: int = 10,
         nation: str = "Germany", subtype: str | None = None, abilities=(),
         commander_bonus: int | None = None) -> UnitCard:
    bands = ("short", "medium", "long")
    abil = tuple(a if isinstance(a, Ability) else Ability(*a) if isinstance(a, tuple)
                 else Ability(a) for a in abilities)
    return UnitCard(name=name, nationality=nation, cost=cost, year=1942, type=type_,
                    subtype=subtype, speed=speed, defense_front=front,
                    defense_rear=front if rear is None else rear,
                    attack={"Soldier": dict(zip(bands, soldier)),
                            "Vehicle": dict(zip(bands, vehicle))},
                    abilities=abil, commander_bonus=commander_bonus)


def tank(nation: str = "Germany", **kw) -> UnitCard:
    base = dict(speed=4, front=5, rear=3, soldier=(8, 6, 4), vehicle=(10, 8, 6), cost=20,
                subtype="Tank")
    base.update(kw)
    return card(kw.pop("name", f"{nation} tank"), "Vehicle", nation=nation,
                **{k: v for k, v in base.items() if k != "name"})


def rifles(nation: str = "Germany", **kw) -> UnitCard:
    base = dict(speed=1, front=4, soldier=(6, 4, 2), vehicle=(1, None, None), cost=5)
    base.update(kw)
    return card(kw.pop("name", f"{nation} rifles"), "Soldier", nation=nation,
                **{k: v for k, v in base.items() if k != "name"})


def halftrack(nation: str = "Germany", **kw) -> UnitCard:
    base = dict(speed=4, front=3, rear=3, soldier=(6, 4, 2), vehicle=(2, 1, None), cost=9,
                subtype="Halftrack", abilities=("transport",))
    base.update(kw)
    return card(kw.pop("name", f"{nation} halftrack"), "Vehicle", nation=nation,
                **{k: v for k, v in base.items() if k != "name"})


def officer(nation: str = "Germany", bonus: int = 2, **kw) -> UnitCard:
    base = dict(speed=2, front=4, soldier=(3, 2, 1), vehicle=(None, None, None), cost=8,
                subtype="Commander", commander_bonus=bonus)
    base.update(kw)
    return card(kw.pop("name", f"{nation} officer"), "Soldier", nation=nation,
                **{k: v for k, v in base.items() if k != "name"})


AXIS_ARMY = [tank("Germany", name="Panzer"), rifles("Germany", name="Grenadiers"),
             rifles("Germany", name="Grenadiers 2"), officer("Germany", name="Leutnant"),
             halftrack("Germany", name="SdKfz 251")]
ALLIED_ARMY = [tank("United States", name="Sherman"), rifles("United States", name="GIs"),
               rifles("United States", name="GIs 2"), officer("United States", bonus=1,
                                                             name="Captain"),
               tank("United States", name="Stuart", speed=5, front=4, rear=2, cost=15)]


def play_random(game, rng: random.Random, max_actions: int = 20000, check=None):
    """Play random legal actions until the game is over; ``check(game)`` runs after
    every action (invariants).  Returns the number of actions applied."""
    n = 0
    while not game.over and n < max_actions:
        acts = game.legal_actions()
        assert acts, f"no legal action in {game.state.phase} (to act: {game.state.to_act})"
        # bias: deployment first, end phases less often than acting
        act = rng.choice(acts)
        game.apply(act)
        n += 1
        if check is not None:
            check(game)
    return n


def position(bm, *, phase=None, dice=None, turn: int = 1, first: str = "Axis",
             scenario: str = "standard"):
    """A :class:`Game` on a hand-built state (no units yet), in ``phase``
    (default: the first player's movement phase), with ``dice``: a list of
    faces (LoadedDice) or a Dice object."""
    from game.rules.dice import Dice, LoadedDice
    from game.rules.engine import Game
    from game.rules.state import GameState, Phase
    st = GameState.blank(bm, scenario, phase=phase or Phase.MOVEMENT_FIRST, turn=turn,
                         first_player=first)
    if dice is None:
        d = LoadedDice([])
    elif isinstance(dice, Dice):
        d = dice
    else:
        d = LoadedDice(dice)
    return Game(st, d)


def quick_policy(rng: random.Random, end_bias: float = 0.25):
    """A random player that ends its phases now and then (shorter games)."""
    from game.rules.actions import EndPhase

    def choose(game):
        acts = game.legal_actions()
        ends = [a for a in acts if isinstance(a, EndPhase)]
        others = [a for a in acts if not isinstance(a, EndPhase)]
        if ends and (not others or rng.random() < end_bias):
            return ends[0]
        return rng.choice(others)
    return choose


def _ability_lets_enter(st, u) -> bool:
    """An ability lifts the terrain's refusal (Amphibious in later-edition water): the
    rules' own step into the unit's hex from a neighbour is allowed."""
    from game.rules.movement import step
    return any(n in st.battle_map.terrain and step(st, u, n, u.hex, bonus_left=False,
                                                   speed_one=False).reason is None
               for n in u.hex.neighbors())


def check_invariants(game) -> None:
    """Invariants any reachable state must satisfy (stacking, terrain, counters,
    transports, decisions, outcome); raise AssertionError naming what broke.
    Used by the property tests and by bench/fuzz_games.py, engine_bench.py,
    abilities_bench.py."""
    from game.rules import abilities
    from game.rules.movement import impassable
    from game.rules.state import COUNTERS, DefensiveFirePrompt, DismountPlacement, Phase
    st = game.state
    bm = st.battle_map
    per_hex: dict = {}
    for u in st.units.values():
        if u.destroyed:
            continue
        if u.card.is_aircraft:          # later edition: off the map but in its flight..turn end
            if u.hex is not None:
                assert u.hex in bm.terrain, f"{u.uid} flies outside the map at {u.hex}"
                assert not (st.phase.is_movement or st.phase.is_deploy
                            or st.phase == Phase.INITIATIVE), \
                    f"Aircraft {u.uid} still on the map in {st.phase.value}"
                assert "damaged" not in u.pending and not u.damaged, f"{u.uid}: a damaged Aircraft"
                others = [o for o in st.units.values() if o is not u and o.hex == u.hex
                          and o.side == u.side and o.card.is_aircraft and not o.destroyed]
                assert not others, f"two Aircraft of {u.side} in {u.hex}"
            continue
        if u.hex is None:
            from game.rules.abilities.roster_reserves import reserve_kind
            if reserve_kind(u.card) is not None:    # rulings 21-23: waits in reserve
                continue
            assert st.phase.is_deploy or st.phase in (
                Phase.SETUP_ORDER, Phase.SETUP_END, Phase.SETUP_OBJECTIVE), \
                f"{u.uid} is off the map in {st.phase.value}"
            continue
        assert u.hex in bm.terrain, f"{u.uid} stands outside the map at {u.hex}"
        assert 0 <= u.facing <= 5, f"{u.uid} faces {u.facing}"
        assert all(p in COUNTERS for p in u.pending), f"{u.uid} counters {u.pending}"
        assert len(u.pending) <= 3 and len(set(u.pending)) == len(u.pending), \
            f"{u.uid} doubled counters {u.pending}"
        if u.is_soldier:
            assert not u.damaged and "damaged" not in u.pending, f"{u.uid}: a damaged Soldier"
        if st.phase.is_movement or st.phase == Phase.INITIATIVE:
            assert not u.pending, f"{u.uid} keeps face-down counters after the casualty phase"
        if u.carrier is not None:
            c = st.units.get(u.carrier)
            assert c is not None and c.on_map and c.hex == u.hex and u.is_soldier, \
                f"{u.uid} aboard {u.carrier} which is not with it"
            continue
        if impassable(u, bm.terrain[u.hex]):
            assert any(bm.is_road(u.hex, n, st.destroyed_bridges) for n in u.hex.neighbors()) \
                or _ability_lets_enter(st, u), \
                f"{u.uid} stands in {bm.terrain[u.hex].value} it can't enter"
        if st.moving is not None and st.moving.uid == u.uid:
            continue                    # a mover may pass through a full hex
        if isinstance(st.pending, DismountPlacement) and st.pending.uid == u.uid:
            continue                    # overstacked by dismounting: the opponent places it
        if abilities.has_hooks("stacking_counts") and not abilities.apply(
                "stacking_counts", True, state=st, unit=u, hex=u.hex):
            continue
        per_hex.setdefault(u.hex, []).append(u)
    for h, us in per_hex.items():
        for side in ("Axis", "Allies"):
            n = sum(1 for u in us if u.side == side)
            assert n <= 2, f"{n} {side} units stacked in {h}"
        v = sum(1 for u in us if u.is_vehicle)
        assert v <= 1, f"{v} Vehicles in {h}"
    if game.over:
        assert st.outcome is not None, "game over without an outcome"
    else:
        assert st.outcome is None, "an outcome before the game is over"
        assert st.to_act in ("Axis", "Allies"), f"nobody to act in {st.phase.value}"
    if isinstance(st.pending, DefensiveFirePrompt):
        assert st.moving is not None and st.moving.uid == st.pending.mover, "stray prompt"


def play_game(game, choose, max_actions: int = 20000, check=None) -> int:
    n = 0
    while not game.over and n < max_actions:
        game.apply(choose(game))
        n += 1
        if check is not None:
            check(game)
    return n
