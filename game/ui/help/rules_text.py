"""The first-edition rules in Hexfront's own words, organised like the rulebook
(issue 17: rules help).  Content as data: :data:`CHAPTERS` lists chapters of
:class:`Section` (an id the rest of the game links to, a title, paragraphs and
search words).  The terrain chart, the hits table, the counters table and the
range bands are not written here: :func:`sections` builds them from the values
in ``game.rules`` (TERRAIN_RULES, hits_for, counters_for, range_band,
BASE_SUCCESS, ROLL_NEED), so they can't drift from what the game plays.  The
abilities chapter is built from the rules' ability catalog.

No pygame here: the help scene (game/ui/help/scene.py) draws it, and
:mod:`game.ui.help.links` finds the section a refusal or an odds line belongs to.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from game.rules.combat import BASE_SUCCESS, counters_for, hits_for
from game.rules.hexes import MAX_RANGE, range_band
from game.rules.movement import ROLL_NEED
from game.rules.terrain import TERRAIN_RULES, Terrain

__all__ = ["Section", "CHAPTERS", "sections", "section", "search", "terrain_rows",
           "hits_rows", "counter_rows", "range_rows"]


@dataclass(frozen=True)
class Section:
    id: str
    title: str
    paragraphs: tuple
    chapter: str = ""
    words: tuple = ()                      # extra search words
    table: tuple = field(default=())       # rows (first row = header) for a chart

    def text(self) -> str:
        rows = [" | ".join(str(c) for c in r) for r in self.table]
        return "\n".join(list(self.paragraphs) + rows)


def S(id: str, title: str, *paragraphs: str, words: tuple = ()) -> Section:
    return Section(id, title, tuple(paragraphs), words=words)


# --- the rules, chapter by chapter (the rulebook's order) ------------------------------------
_BASICS = [
    S("goal", "How to win",
      "Two players fight: one commands an Axis army, the other an Allied army. In the standard "
      "battle, whoever controls the objective at the end of turn 7 wins.",
      "You control the objective when you alone have a unit adjacent to it (a unit in the "
      "objective hex counts as adjacent). If nobody wins at the end of turn 7, check again at "
      "the end of every following turn: the first player to end a turn in control wins.",
      "If nobody has won when turn 10 ends, add up the point costs of each side's units still "
      "on the battle map; the higher total wins. Still level: play on until a turn ends with one "
      "side controlling the objective or ahead on points.",
      words=("victory", "objective", "control", "points", "turn 7", "turn 10", "win")),
    S("sides", "Choosing sides",
      "One player is the Axis (Germany, Italy, Japan), the other the Allies (France, the Soviet "
      "Union, the United Kingdom, the United States). Only units of the side's countries may be "
      "in its army. When the players can't agree, a coin flip decides and the winner chooses.",
      words=("axis", "allies", "nationality", "coin")),
    S("map", "The battle map",
      "Four double-sided map sections make the battle map in one of six configurations (a die "
      "roll picks one). The half-hexes along the edges are impassable: nobody deploys or moves "
      "there, and nothing leaves the map. A whole hex formed where two sections meet is an "
      "ordinary hex.",
      words=("configuration", "half-hex", "edge", "sections")),
    S("cards", "Reading a stat card",
      "Each unit has a card: nationality, name, cost, year, type, speed, defense, attack values "
      "and special abilities. The type is Soldier or Vehicle (sometimes with a subtype such as "
      "Tank or Artillery); it decides which attack values are used against the unit and how it "
      "copes with terrain.",
      "Speed is how many hexes the unit moves in one move. Defense is how many successes an "
      "attacker needs to hit it; a Vehicle with two numbers (front/rear) uses the first against "
      "attacks from its front and the second against all others.",
      "Attack values give the number of dice rolled against Soldiers and against Vehicles at "
      "short, medium and long range. Grey cards are Axis, green cards Allied.",
      words=("stat card", "speed", "defense", "attack value", "cost", "year", "type")),
    S("army", "Building an army",
      "A standard army costs up to 100 points and has at most 15 units. Build it in secret; it "
      "is revealed at deployment, and the player who deploys second may not change it after "
      "seeing the other army.",
      words=("points", "budget", "15 units", "army building")),
]

_SEQUENCE = [
    S("sequence", "Sequence of play",
      "Every turn runs the same phases: initiative (both players); the first player's movement "
      "phase; the second player's movement phase; the first player's assault phase; the second "
      "player's assault phase; the casualty phase (both players); then the turn ends.",
      words=("phases", "turn order", "sequence")),
    S("initiative", "Initiative",
      "At the start of each turn both players roll two dice and add the best initiative bonus "
      "of a commander in their army (a disrupted commander adds nothing; no commander adds 0). "
      "The higher total wins; on equal totals the better bonus wins; with equal bonuses too, "
      "roll again.",
      "The winner chooses to be first or second player this turn. Going second lets you react "
      "to the opponent's moves; since hits only take effect in the casualty phase, going first "
      "does not let you shoot before the other side can answer.",
      words=("initiative", "first player", "second player", "commander bonus")),
    S("movement-phase", "Movement phases",
      "In your movement phase you may move any, all or none of your units, one at a time, each "
      "up to its speed. Nobody attacks in a movement phase except with defensive fire.",
      words=("move", "movement phase")),
    S("assault-phase", "Assault phases",
      "In your assault phase each of your units may either move (as in the movement phase) or "
      "attack one enemy unit - not both. You may also leave a unit idle.",
      "Hits scored in an assault phase are marked with face-down counters and take effect only "
      "in the casualty phase: a unit hit in the first player's assault phase still acts "
      "normally in the second player's assault phase.",
      words=("assault", "attack phase", "activate")),
    S("casualty", "Casualty phase",
      "Both players do these steps in order: remove the face-up Disrupted counters already on "
      "the map (Damaged counters stay); turn the new face-down counters face up; remove units "
      "with a Destroyed counter; a Vehicle with a single Damaged counter is now damaged; a unit "
      "with a Disrupted counter is now disrupted.",
      words=("casualty", "flip", "counters", "face-down", "recover")),
    S("order", "Several things at once",
      "When several things could happen at the same moment, the player whose turn it is decides "
      "their order - for example, you activate your units in any order you like.",
      words=("simultaneous", "order")),
]

_MOVEMENT = [
    S("speed", "Speed and movement",
      "A unit moves up to its speed in hexes, and may move again in the assault phase instead of "
      "attacking, so it can cover twice its speed in a turn. Difficult terrain shortens the "
      "move.",
      words=("speed", "hexes", "move")),
    S("stacking", "Stacking",
      "A unit may only end its move in a hex with room for it. Friendly units: at most two in a "
      "hex, of which at most one Vehicle. With enemy units in the hex: up to two units of each "
      "army, but only one of the (up to four) units may be a Vehicle.",
      "The limit counts only where a move ends: you may move through full hexes.",
      "A unit is never forced to stop where it would break the limit: if it is stopped there "
      "(say, by defensive fire), it goes back along its path to the last hex where it may "
      "legally stop.",
      words=("stack", "full", "overstacked", "two units", "room")),
    S("facing", "Vehicle facing",
      "A Vehicle ends every move facing one of the six sides of its hex. Attacks from its front "
      "use its front defense, all others its rear defense. An attacker in the same hex, or "
      "exactly to the Vehicle's left or right, attacks the rear.",
      "Turning in place is a move of zero hexes. A disrupted unit can't change facing; a unit "
      "that attacks in the assault phase can't turn in that phase. A Vehicle whose move is "
      "stopped (a failed movement roll, say) ends facing the hex it tried to enter.",
      words=("facing", "front", "rear", "turn", "front arc", "rear defense")),
]

_COMBAT = [
    S("attack", "Making an attack",
      "To attack, the unit needs the target within range, in its line of sight, and an attack "
      "value against the target's type. Count the range, roll the attack dice, compare the "
      "successes with the target's defense, and the target may make a cover roll if it stands "
      "in defensive terrain.",
      "You may pick any enemy unit that qualifies, not only the nearest, and shoot through "
      "other units (yours or the enemy's) freely. With two enemies in one hex, choose which one "
      "to fire at.",
      words=("attack", "target", "fire", "shoot", "odds")),
    S("range", "Range and attack dice",
      "Count the hexes to the target: the target's hex counts, the attacker's does not. The "
      "target's type picks the row of attack values (against Soldiers or against Vehicles) and "
      "the range picks the column. Beyond long range there is no attack.",
      words=("range", "short", "medium", "long", "distance", "dice", "out of range")),
    S("rolling", "Rolling the attack",
      "Roll as many dice as the attack value. Each die showing "
      f"{BASE_SUCCESS} or more is a success. A disrupted or damaged attacker takes -1 on each die (so one more pip is "
      "needed); disrupted and damaged together is still only -1.",
      "Compare the successes with the target's defense (see the hits table). Hits scored in "
      "your assault phase become face-down counters next to the target, and add up even when "
      "they come from several attackers.",
      words=("successes", "hits", "roll", "dice", "penalty", "hit")),
    S("los", "Line of sight",
      "A unit may attack only what it can see. Draw a line between the centres of the two "
      "hexes: if it passes through any part of a hex of town, hill or forest, the view is "
      "blocked. A line running exactly along the edge of such a hex is not blocked, and the "
      "terrain in the attacker's and the target's own hexes never blocks.",
      "In the battle, hold L to see what a hex can see.",
      words=("line of sight", "see", "blocked", "sight", "visible", "los")),
    S("effects", "Attack effects: disrupted, damaged, destroyed",
      "Disrupted: a unit with a face-up Disrupted counter takes -1 on each attack die and -1 on "
      "defense, can't move and can't fire defensively. It recovers at the start of the next "
      "casualty phase, so disruption normally lasts a full turn.",
      "Damaged: a Vehicle with a face-up Damaged counter takes -1 on each attack die, -1 on "
      "defense and -1 on speed. A damaged Vehicle that would get another Damaged counter gets "
      "Destroyed instead. Soldiers never get Damaged counters: their second hit destroys them.",
      "A Vehicle both disrupted and damaged suffers each penalty only once. Destroyed units "
      "leave the map when the counters are flipped in the casualty phase.",
      words=("disrupted", "damaged", "destroyed", "counter", "penalty", "recovery")),
]

_DEFENSIVE = [
    S("df-provoke", "Provoking defensive fire",
      "A unit provokes defensive fire when it moves from one hex adjacent to an enemy unit into "
      "another hex adjacent to that same enemy (the enemy's own hex counts as adjacent).",
      "Soldiers never provoke defensive fire from Vehicles - they can walk around a tank, or "
      "into its hex, and that tank can't shoot at them - but enemy Soldiers see them fine.",
      "Each unit fires defensively at most once per phase, and never has to: you may hold fire "
      "for a more dangerous mover later in the phase. When several of your units may fire, you "
      "may see one shot's result before deciding on the next.",
      words=("defensive fire", "provoke", "adjacent", "hold fire", "once per phase")),
    S("df-attack", "Defensive-fire attacks",
      "A defensive shot works like an attack, except that its best result is disruption and it "
      "takes effect at once. You choose to shoot while the mover is in the hex it leaves or in "
      "the hex it enters; a moving Vehicle points towards the hex it enters (or away from the "
      "one it leaves), which decides front or rear defense.",
      "If the shot scores at least the mover's defense in successes, the mover is disrupted "
      "immediately with a face-up Disrupted counter and its move ends in its current hex. "
      "Several disruptions don't add up. Shots at the hex being left come before shots at the "
      "hex being entered.",
      "A successful cover roll against defensive fire cancels the shot completely.",
      words=("defensive fire", "stop", "stopped", "disrupt", "immediate")),
]

_TERRAIN = [
    S("double-cost", "Double-cost terrain",
      "A Vehicle entering a hill or forest hex spends two hexes of movement, so a Vehicle with "
      "only one hex left can't enter one. Exception: a speed-1 Vehicle in the movement phase may "
      "still enter (a forest still needs its movement roll); this exception doesn't apply in "
      "the assault phase.",
      words=("double cost", "hill", "forest", "vehicle", "movement cost")),
    S("movement-roll", "Movement rolls",
      "Crossing a stream needs a movement roll, and so does a Vehicle entering a forest. Roll "
      f"one die: {ROLL_NEED} or more and the unit moves on; less, and it stops in the hex "
      "it was trying to leave. A step that needs two rolls (a Vehicle crossing a stream into a "
      "forest) must pass both.",
      "A failed attempt to leave a hex does not provoke defensive fire, even where succeeding "
      "would have.",
      words=("movement roll", "stream", "forest", "fail", "roll to enter")),
    S("impassable", "Impassable terrain",
      "Vehicles can't enter marshes or ponds; Soldiers can't enter ponds.",
      words=("impassable", "marsh", "pond", "can't enter")),
    S("roads", "Roads",
      "Moving along a road, every hex costs one hex whatever the terrain, and no movement roll "
      "is needed, even across a stream or into a forest. Along a road a unit may even enter an "
      "impassable hex, leaving it only along the road.",
      "Road bonus: each phase, the first hex a Vehicle moves along a road is free. Roads don't "
      "change cover.",
      words=("road", "road bonus", "bridge", "free hex")),
    S("cover", "Cover",
      "A unit attacked in a forest, hill or town hex (and a Soldier in a marsh) may make a cover "
      "roll, one per attack. Success limits the attack to disruption: a face-down Disrupted "
      "counter, and none at all if the unit already has one. Against defensive fire a "
      "successful cover roll cancels the shot.",
      "An attacker in the target's own hex gives the target -1 on its cover roll.",
      words=("cover", "cover roll", "defensive terrain", "negate")),
    S("terrain-types", "Terrain types",
      "Clear: open ground, no effect. Forest: woods, orchards, thick brush. Hill: rough, rocky "
      "or rolling ground. Town: buildings of any kind. Marsh: swamp and bog. Pond: water no one "
      "wades through. Stream: a small river, 30-40 feet wide, that takes a roll to cross. Road: "
      "dirt, gravel or paved.",
      words=("terrain", "clear", "forest", "hill", "town", "marsh", "pond", "stream", "road")),
]

_ABILITIES_RULES = [
    S("abilities", "Special abilities",
      "Most abilities are explained on the cards (the abilities section below has each text). "
      "A bonus or penalty to each attack die changes every die's roll. Some abilities are "
      "drawbacks.",
      "An ability beats a general rule; when one ability says a unit can and another says it "
      "can't, \"can't\" wins (an attack that ignores cover gets no cover roll, whatever the "
      "target's ability). Extra actions happen during that unit's activation and can't be "
      "saved. Abilities of the same name don't add together.",
      words=("ability", "special", "trump", "can't", "extra action")),
    S("commanders", "Commander abilities",
      "Commander abilities help other units and usually the commander too, other commanders "
      "included. They don't work while the commander is disrupted, and when several commanders "
      "give a bonus to the same roll or value only the highest counts.",
      words=("commander", "initiative bonus", "leader")),
]

_SCENARIOS = [
    S("standard", "Standard battle",
      "Each side builds an army of up to 100 points and 15 units; a die roll picks the map. A "
      "coin flip winner chooses to be first or second player. The first player picks an end of "
      "the map and deploys within five hexes of it (half-hexes don't count), then the second "
      "player deploys at the other end. Units may deploy in difficult terrain but not in hexes "
      "they can't enter. Victory as in How to win.",
      words=("standard", "deploy", "deployment", "five hexes", "setup")),
    S("assault-scenario", "Assault battle",
      "An attacker with up to 120 points faces a defender with 80 (both at most 15 units). The "
      "defender chooses the configuration, an objective hex not next to the map edge or a "
      "half-hex, and an end; it deploys first anywhere on its half of the map, then the "
      "attacker deploys within five hexes of its end. The attacker wins by controlling the "
      "objective at the end of turn 10; otherwise the defender wins.",
      words=("assault scenario", "attacker", "defender", "120", "80")),
    S("history", "Historical armies and years",
      "Optional limits: German and Italian units may fight together; Soviet units only with "
      "Soviets; Japanese units only with Japanese; United States, United Kingdom and French "
      "units may mix. A scenario year allows only units introduced by that year.",
      words=("historical", "year", "nationality", "limits")),
    S("glossary", "Words used",
      "Adjacent: one hex away or in the same hex. Friendly: in your army; enemy: in the "
      "opponent's. Attack value: dice rolled against a target type at a range. Cover roll: the "
      "roll a unit in defensive terrain makes when attacked.",
      words=("adjacent", "friendly", "enemy", "glossary")),
]


# --- charts built from the rules' own values ---------------------------------------------
def _cover(n: int | None) -> str:
    return "no" if n is None else f"{n}+"


def terrain_rows() -> tuple:
    rows = [("Terrain", "Vehicle moves", "Soldier moves", "Vehicle cover", "Soldier cover",
             "Blocks sight")]
    for t in Terrain:
        r = TERRAIN_RULES[t]
        if not r.vehicle_can_enter:
            vm = "can't enter"
        else:
            vm = "normal" if r.vehicle_cost == 1 else f"costs {r.vehicle_cost} hexes"
            if r.vehicle_roll:
                vm += f", roll {ROLL_NEED}+"
        sm = "normal" if r.soldier_can_enter else "can't enter"
        rows.append((t.title, vm, sm, _cover(r.vehicle_cover) if r.vehicle_can_enter else "-",
                     _cover(r.soldier_cover) if r.soldier_can_enter else "-",
                     "yes" if r.blocks_los else "no"))
    rows.append(("Stream", f"roll {ROLL_NEED}+ to cross", f"roll {ROLL_NEED}+ to cross", "no",
                 "no", "no"))
    rows.append(("Road", "1 hex each; first hex free each phase", "1 hex each",
                 "as the hex", "as the hex", "as the hex"))
    return tuple(rows)


def hits_rows() -> tuple:
    """Hits for each number of successes against defenses 2 to 6 (hits_for)."""
    defenses = (2, 3, 4, 5, 6)
    rows = [("Successes",) + tuple(f"def {d}" for d in defenses)]
    for s in range(0, 13):
        rows.append((str(s),) + tuple(str(hits_for(s, d)) for d in defenses))
    return tuple(rows)


def counter_rows() -> tuple:
    rows = [("Hits this phase", "Vehicle gets", "Soldier gets")]
    for n in (1, 2, 3):
        v = counters_for(True, False, [], n)
        s = counters_for(False, False, [], n)
        rows.append((f"{n}", ", ".join(c.capitalize() for c in v),
                     ", ".join(c.capitalize() for c in s)))
    return tuple(rows)


def range_rows() -> tuple:
    bands: dict[str, list[int]] = {}
    for d in range(0, MAX_RANGE + 2):
        b = range_band(d)
        bands.setdefault(b.capitalize() if b else "No attack", []).append(d)
    rows = [("Range", "Hexes")]
    for name, ds in bands.items():
        rows.append((name, f"{ds[0]}-{ds[-1]}" if name != "No attack" else f"{ds[0]} or more"))
    return tuple(rows)


def _charts() -> dict[str, Section]:
    return {
        "range": Section("range-table", "Range bands",
                         ("The three ranges, counted as the rules count them.",),
                         words=("range", "short", "medium", "long"), table=range_rows()),
        "hits": Section("hits-table", "Hits table",
                        (f"An attack die succeeds on {BASE_SUCCESS} or more (one more with a "
                         "-1 penalty). Fewer successes than the defense miss; equal scores "
                         "1 hit; more scores 2; twice the defense or more scores 3.",),
                        words=("hits", "successes", "defense", "table"), table=hits_rows()),
        "counters": Section("counters-table", "Hit counters",
                            ("The face-down counters a unit gets for the hits of one phase "
                             "(from any number of attackers).",),
                            words=("counter", "disrupted", "damaged", "destroyed"),
                            table=counter_rows()),
        "terrain": Section("terrain-chart", "Terrain chart",
                           ("What each terrain does, from the rules the game plays.",),
                           words=("terrain", "cover", "movement", "line of sight"),
                           table=terrain_rows()),
    }


def _ability_sections() -> list[Section]:
    from game.rules.abilities import spec as ability_spec
    from game.rules import abilities
    from game.rules.queries import plain_text
    abilities.load()
    out = []
    for aid, sp in sorted(ability_spec.CATALOG.items(), key=lambda kv: kv[1].name):
        name = sp.name.replace("{n}", "N").strip()
        text = sp.text.replace("{n}", "N")
        if sp.not_in_first_edition:
            text += " " + sp.not_in_first_edition
        out.append(Section("ability:" + aid, name, (plain_text(text),),
                           words=(aid.replace("_", " "),)))
    return out


CHAPTERS: tuple = (
    ("The game", _BASICS),
    ("Sequence of play", _SEQUENCE),
    ("Movement and position", _MOVEMENT),
    ("Attack and defense", _COMBAT),
    ("Defensive fire", _DEFENSIVE),
    ("Terrain", _TERRAIN),
    ("Special abilities", _ABILITIES_RULES),
    ("Scenarios", _SCENARIOS),
)

_CACHE: list[Section] = []
_LATER: list[Section] = []


def sections(edition: str = "first") -> list[Section]:
    """Every section in rulebook order, each tagged with its chapter; the charts sit in
    their chapters and the ability texts form the last chapter.  ``edition="later"``:
    the later edition's chapters (game.ui.help.later_text) come first."""
    if edition == "later":
        if not _LATER:
            from game.ui.help.later_text import LATER_CHAPTERS
            for chapter, secs in LATER_CHAPTERS:
                _LATER.extend(Section(s.id, s.title, s.paragraphs, chapter, s.words, s.table)
                              for s in secs)
        return _LATER + sections()
    if _CACHE:
        return _CACHE
    charts = _charts()
    after = {"range": charts["range"], "rolling": charts["hits"], "effects": charts["counters"],
             "terrain-types": charts["terrain"]}
    out: list[Section] = []
    for chapter, secs in CHAPTERS:
        for s in secs:
            out.append(Section(s.id, s.title, s.paragraphs, chapter, s.words, s.table))
            extra = after.get(s.id)
            if extra is not None:
                out.append(Section(extra.id, extra.title, extra.paragraphs, chapter,
                                   extra.words, extra.table))
    for s in _ability_sections():
        out.append(Section(s.id, s.title, s.paragraphs, "Ability texts", s.words))
    _CACHE.extend(out)
    return out


def section(sid: str) -> Section | None:
    for s in sections("later" if sid.startswith("later:") else "first"):
        if s.id == sid:
            return s
    return None


def search(query: str, edition: str = "first") -> list[Section]:
    """Sections matching every word of ``query`` (title, words and text), best first:
    title matches before text matches."""
    words = [w for w in query.lower().split() if w]
    if not words:
        return list(sections(edition))
    scored = []
    for i, s in enumerate(sections(edition)):
        title = s.title.lower()
        tags = " ".join(s.words).lower()
        body = s.text().lower()
        if all(w in title or w in tags or w in body for w in words):
            score = sum(3 if w in title else 2 if w in tags else 1 for w in words)
            scored.append((-score, i, s))
    return [s for _, _, s in sorted(scored)]
