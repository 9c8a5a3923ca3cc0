"""The later edition's rules in Hexfront's own words (issue 15), shown by the rules
help (F1) when the battle is played in the later edition, after a chapter saying
what changes and before the first edition's chapters (which still hold for
everything the later edition does not change).  Organised like the later
rulebook: the game, the sequence of play A-K, Aircraft (flight, Antiair,
airstrike), the new terrain with its chart, the battlefield.

Numbers come from the rules the game plays (movement-roll needs, cover of a
hedge or cliff side, deployment depth, the terrain table), so the text can't drift
from them.  No pygame here.
"""
from __future__ import annotations

from game.rules.families.setup import DEPLOY_DEPTH
from game.rules.later.combat import SOLDIER_SIDE_COVER, VEHICLE_SIDE_COVER
from game.rules.later.terrain import BRUSHCUTTERS_NEED, CLIFF_NEED, HEDGE_NEED
from game.rules.movement import ROLL_NEED
from game.rules.terrain import TERRAIN_RULES, Terrain

from game.ui.editions import roll_table
from game.ui.help.rules_text import S, Section

__all__ = ["LATER_CHAPTERS", "later_terrain_rows"]

_D = DEPLOY_DEPTH["later"]
_D1 = DEPLOY_DEPTH["first"]


def _cover(n: int | None) -> str:
    return "no" if n is None else f"{n}+"


def later_terrain_rows() -> tuple:
    """The later edition's own terrain, from the rules' table and side rules."""
    rows = [("Terrain", "Vehicle moves", "Soldier moves", "Vehicle cover", "Soldier cover",
             "Blocks sight")]
    for t in Terrain:
        if not t.later_only:
            continue
        r = TERRAIN_RULES[t]
        vm = ("can't enter" if not r.vehicle_can_enter else
              "normal" if r.vehicle_cost == 1 else f"costs {r.vehicle_cost} hexes")
        sm = "normal" if r.soldier_can_enter else "can't enter"
        if t is Terrain.BLUFFS:
            vm += "; never across a cliff side"
            sm += f"; roll {CLIFF_NEED}+ across a cliff side"
        rows.append((t.title, vm, sm, _cover(r.vehicle_cover) if r.vehicle_can_enter else "-",
                     _cover(r.soldier_cover) if r.soldier_can_enter else "-",
                     "yes" if r.blocks_los else "no"))
    rows.append(("Hedge (hexside)", f"roll {HEDGE_NEED}+ to cross (road: no roll)",
                 f"roll {HEDGE_NEED}+ to cross (road: no roll)", f"{VEHICLE_SIDE_COVER}+ through it",
                 f"{SOLDIER_SIDE_COVER}+ through it", "no"))
    rows.append(("Cliff (bluffs side)", "can't cross", f"roll {CLIFF_NEED}+ to cross",
                 f"{VEHICLE_SIDE_COVER}+ through it", f"{SOLDIER_SIDE_COVER}+ through it",
                 "the bluffs hex does"))
    return tuple(rows)


_WHAT = [
    S("later:changes", "What the later edition changes",
      "The later edition plays like the first with a few additions: a third kind of unit, "
      "the Aircraft, with its own two phases (flight and airstrike) in each turn; ground units "
      "with Antiair that can shoot at enemy Aircraft; new terrain (hedges, bluffs with their "
      "cliffs, shell holes, water); units with a defense of 0; and its own battlefield of two "
      "map sections with three configurations.",
      "Everything it does not change is as in the first edition: stacking, facing, the hits "
      "table, cover rolls, defensive fire, the scenarios, how to win. Those chapters follow "
      "this one.",
      f"Deployment is closer: each player sets up within {_D} whole hexes of their end "
      f"({_D1} in the first edition). Aircraft are not deployed at all.",
      words=("later edition", "second edition", "differences", "new")),
]

_SEQUENCE = [
    S("later:sequence", "Sequence of play (A to K)",
      "A Initiative. B First player's movement. C Second player's movement. D First player's "
      "flight. E Second player's flight. F First player's airstrike. G Second player's "
      "airstrike. H First player's assault. I Second player's assault. J Casualty. K End of "
      "turn.",
      "Commanders that have not been deployed yet also count for the initiative bonus.",
      "In the end-of-turn phase every Aircraft still over the map flies away first, keeping "
      "any face-up counters; then the players check who has won.",
      words=("phases", "turn", "order", "flight", "airstrike", "initiative")),
]

_AIRCRAFT = [
    S("later:aircraft", "Aircraft",
      "Aircraft are the third unit type, next to Soldiers and Vehicles. They start each turn "
      "off the map, fly in during their owner's flight phase, may attack in their owner's "
      "airstrike phase, and leave at the end of the turn.",
      "Attacks on an Aircraft use the attacker's anti-Soldier value for the range, at -1 on "
      "each die (a disrupted or damaged attacker then succeeds only on a 6). Units with "
      "Antiair, and some aces, take no -1.",
      "An Aircraft is never damaged and never has cover: its first hit disrupts it, a second "
      "hit destroys it. Line of sight to and from an Aircraft is never blocked.",
      "Aircraft never count for control of the objective, take no room in a hex, and never "
      "fire defensively at Soldiers or Vehicles.",
      words=("aircraft", "plane", "air", "fighter", "minus one", "never damaged")),
    S("later:flight", "Flight phase",
      "In your flight phase, place each of your Aircraft over any whole hex of the battle map, "
      "even one with enemy units in it. Each army may have only one Aircraft over a hex. An "
      "Aircraft with a face-up Disrupted counter sits the turn out and can't be placed; its "
      "counter comes off in the casualty phase.",
      "Placing an Aircraft is not a move: nothing fires at it except Antiair.",
      "On the screen: pick the Aircraft in the side panel, then click the hex. Hexes where "
      "enemy Antiair could shoot at it are shaded red; pointing at one shows each shot's exact "
      "chance.",
      words=("flight", "place", "placing", "aircraft", "fly")),
    S("later:antiair", "Antiair fire",
      "When an Aircraft is placed in or next to an enemy unit with Antiair, that unit may make "
      "its defensive-fire attack of the phase against it, right away, one unit at a time. It "
      "is resolved like any defensive fire: a success disrupts the Aircraft at once, and cover "
      "never helps an Aircraft.",
      "A disrupted unit, or one that has already fired defensively this phase, can't shoot. "
      "The defender may also hold fire.",
      "On the screen: the defender picks the firing unit on the map (or with Tab) and presses "
      "Fire [F] or Hold fire [H]; the button and the side panel show the exact chance.",
      words=("antiair", "flak", "anti-aircraft", "defensive fire", "aa")),
    S("later:airstrike", "Airstrike phase",
      "In your airstrike phase each of your Aircraft over the map may make one attack, as in "
      "the assault phase, against any enemy unit within its range. Only Aircraft attack in an "
      "airstrike phase.",
      "Airstrike hits are placed face down and revealed in the casualty phase together with "
      "the assault phase's, so hits from both add up. Hedges and cliffs give no cover against "
      "an Aircraft's attack.",
      "Ground units may attack enemy Aircraft over the map in their assault phase.",
      words=("airstrike", "air strike", "bomb", "attack", "aircraft")),
    S("later:defense0", "Defense 0",
      "A unit whose defense is 0 (after the -1 for being disrupted or damaged) is destroyed by "
      "a single hit. An attack still needs at least one success to hit it. Defensive fire only "
      "disrupts, and a successful cover roll still limits the result to a disruption.",
      words=("defense 0", "zero", "destroyed", "one hit")),
]

_TERRAIN = [
    S("later:hedges", "Hedges",
      "Hedges run along hexsides. Crossing one needs a movement roll at -1 "
      f"({HEDGE_NEED}+); a unit with Brushcutters rolls at +1 instead ({BRUSHCUTTERS_NEED}+). "
      "Moving along a road that crosses a hedge needs no roll.",
      "A hedge doesn't block line of sight, but a target behind one has cover when the sight "
      f"line crosses that hedge into its hex ({SOLDIER_SIDE_COVER}+ for Soldiers, "
      f"{VEHICLE_SIDE_COVER}+ for Vehicles).",
      words=("hedge", "hedgerow", "bocage", "brushcutters", "hexside")),
    S("later:bluffs", "Bluffs and cliffs",
      "A bluffs hex is open ground with cliffs along some of its sides. A Soldier entering or "
      f"leaving through a cliff side needs a movement roll of {CLIFF_NEED}+; a Vehicle can't "
      "cross a cliff side at all.",
      "A bluffs hex between attacker and target blocks line of sight. A target in a bluffs hex "
      "has cover when the sight line enters its hex through a cliff side. When both attacker "
      "and target stand on bluffs, the bluffs and cliffs between them neither block nor give "
      "cover.",
      words=("bluff", "bluffs", "cliff", "cliffs", "climb", "hill")),
    S("later:shell-holes", "Shell holes",
      "Shell holes give Soldiers cover; for Vehicles, movement and line of sight the hex is "
      "clear terrain.",
      words=("shell holes", "crater", "cover")),
    S("later:water", "Water",
      "Water can't be entered by Soldiers or Vehicles (unless a card says otherwise) and does "
      "not block line of sight.",
      words=("water", "river", "lake", "impassable")),
    S("later:rolls", "Several movement rolls into one hex",
      "When entering a hex needs more than one movement roll, roll for the hexside first "
      "(hedge, stream, cliff), then for the hex itself; once one roll fails, no more are made. "
      f"A plain movement roll needs {ROLL_NEED}+.",
      words=("movement roll", "several rolls", "stream", "hedge", "forest")),
]

_BATTLEFIELD = [
    S("later:battlefield", "The battlefield",
      "Two double-sided map sections of larger hexes (Map 1 to Map 4), seven by ten hexes "
      f"each, laid side by side. A die picks the configuration: {roll_table('later')}. No "
      "published source shows these maps hex by hex, so the three "
      "layouts are Hexfront's own, made to fit their names.",
      f"Each player deploys within {_D} whole hexes of their end.",
      words=("map", "configuration", "river line", "village skirmish", "hill 203", "deploy")),
]

#: (chapter title, sections), in the later rulebook's order
LATER_CHAPTERS: tuple = (
    ("Later edition", _WHAT),
    ("Later edition: sequence of play", _SEQUENCE),
    ("Later edition: Aircraft", _AIRCRAFT),
    ("Later edition: terrain", _TERRAIN + [
        Section("later:terrain-chart", "Later terrain chart",
                ("The later edition's own terrain and hexside terrain, from the rules the "
                 "game plays (the first edition's terrain chart still holds for the rest).",),
                words=("terrain", "chart", "hedge", "cliff", "bluffs", "water", "shell holes"),
                table=later_terrain_rows())]),
    ("Later edition: the battlefield", _BATTLEFIELD),
)
