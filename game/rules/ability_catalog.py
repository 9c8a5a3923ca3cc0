"""Every special ability Hexfront knows: id -> name, parameter, rule text.

This is the one place that lists ability ids.  Card files name abilities by
id (``close_assault: 7``); the loader (``game.data.units``) refuses an id that
is not here, checks the parameter against :attr:`AbilitySpec.value_range` and
the card type against :attr:`AbilitySpec.unit_type`, and fills in the printed
name and the rule text from the templates below (``{n}`` is the parameter).

The rule texts are Hexfront's own wording, written so the ability hooks
(``game.rules.abilities``) can be implemented from them: what triggers the
ability, what it changes, in which phase, against what.  Where a card refers
to something the first edition does not have (aircraft, hedges, trenches,
obstacles) the text says that part does not apply.

General principles (rulebook: Special Abilities) hold for all of them:
abilities trump rules; "can't" beats "can"; abilities of the same name don't
add together; only the highest commander bonus to one roll applies; a
disrupted commander's commander abilities don't work; extra actions happen as
part of the unit's activation and can't be saved.
"""
from __future__ import annotations

from dataclasses import dataclass

from game.rules.cards import Ability, SOLDIER, VEHICLE

__all__ = ["AbilitySpec", "CATALOG", "ABILITY_IDS", "spec", "display_name",
           "rule_text", "make_ability", "COMMANDER_ABILITIES"]


@dataclass(frozen=True)
class AbilitySpec:
    """What Hexfront knows about one ability id."""

    id: str
    name: str                                  # printed name; "{n}" = the parameter
    takes_value: bool                          # "Close Assault N" takes one, "Blast" doesn't
    text: str                                  # rule text template; "{n}" = the parameter
    value_range: tuple[int, int] | None = None  # allowed parameter values (inclusive)
    unit_type: str | None = None               # only cards of this type may carry it
    commander: bool = False                    # a commander ability (rulebook: Commander Abilities)
    not_in_first_edition: str = ""             # what on the printed card doesn't apply here

    def fill(self, template: str, value: object) -> str:
        return template.replace("{n}", "" if value is None else str(value))


_COMMANDER_TAIL = (" Commander ability: it does not work while this commander is disrupted,"
                   " and it does not add to another ability of the same name.")

_SPECS: tuple[AbilitySpec, ...] = (
    # --- attacks -----------------------------------------------------------------
    AbilitySpec(
        "close_assault", "Close Assault {n}", True,
        "When this Soldier attacks an enemy Vehicle in its own hex (in its assault phase or"
        " with defensive fire), it may roll {n} attack dice instead of its printed short-range"
        " anti-Vehicle value. That attack ignores cover: the target makes no cover roll."
        " Against Vehicles in other hexes it uses its printed values. Defensive fire has no"
        " choice to make: it uses Close Assault whenever {n} is at least the printed value.",
        value_range=(1, 30), unit_type=SOLDIER),
    AbilitySpec(
        "hand_to_hand", "Hand to Hand {n}", True,
        "When this Soldier attacks an enemy Soldier in its own hex (in its assault phase or"
        " with defensive fire), it may roll {n} attack dice instead of its printed short-range"
        " anti-Soldier value. That attack ignores cover: the target makes no cover roll."
        " Defensive fire uses Hand to Hand whenever {n} is at least the printed value.",
        value_range=(1, 30), unit_type=SOLDIER),
    AbilitySpec(
        "double_shot", "Double Shot", False,
        "When this unit is activated to attack in its own assault phase it makes two attacks,"
        " one after the other, each against the same or another target and each following the"
        " normal attack rules; it can't move between them. When it fires defensively it makes"
        " two attacks against the moving unit at the same stage (the hex it leaves or the hex"
        " it enters); if the first one stops the mover, the second is not made."),
    AbilitySpec(
        "suppressive_fire", "Suppressive Fire", False,
        "This unit is not limited to one defensive-fire attack per phase: while it is not"
        " disrupted it may fire defensively at every enemy move that provokes it. It still"
        " fires at most once at each provoking move (twice with Double Shot)."),
    AbilitySpec(
        "all_guns_blazing", "All Guns Blazing", False,
        "In its own assault phase, after this unit makes its attack, it may make one extra"
        " attack as part of the same activation. The extra attack must target an enemy Soldier"
        " (the same target or another) and follows the normal attack rules. Not with defensive"
        " fire.", unit_type=VEHICLE),
    AbilitySpec(
        "additional_hull_mounted_cannon", "Additional Hull-Mounted Cannon", False,
        "In its own assault phase, as part of the same activation as its normal attack (before"
        " or after it), this Vehicle may make one extra attack with 12 dice at short range,"
        " 10 at medium and 8 at long range. The extra attack may only target an enemy Vehicle"
        " in this Vehicle's front arc (ruling 1); the usual penalties (disrupted, damaged)"
        " apply to it. Not with defensive fire.", unit_type=VEHICLE),
    AbilitySpec(
        "hull_mounted_flamethrower", "Hull-Mounted Flamethrower", False,
        "When this Vehicle attacks a unit at short range (its own hex or an adjacent hex) whose"
        " hex centre lies in its front arc (ruling 1; a unit in its own hex is behind it), the"
        " attack ignores cover, and if three or more of its attack dice show a natural 6 the"
        " target gets a Destroyed counter whatever the successes. With defensive fire only the"
        " ignoring of cover applies (defensive fire can only disrupt). Units behind it get an"
        " ordinary attack.",
        unit_type=VEHICLE,
        not_in_first_edition="The printed card's lines about Aircraft and Obstacles do not"
                             " apply: first edition has neither."),
    AbilitySpec(
        "blast", "Blast", False,
        "When this unit attacks (in its assault phase or with defensive fire) it also attacks"
        " every other unit in the target's hex, friendly units included: roll a separate attack"
        " for each unit with this unit's value against that unit's type at that range, each unit"
        " makes its own cover roll and takes its own hits. Soldiers aboard a transport are"
        " attacked only if the transport has Exposed Transport. With defensive fire the other"
        " units in the hex can only be disrupted (face-up, at once) and only the mover is"
        " stopped.",
        not_in_first_edition="The printed card's exception for Aircraft does not apply: first"
                             " edition has no Aircraft."),
    AbilitySpec(
        "bombardment", "Bombardment", False,
        "This unit's attacks ignore cover: its targets never make cover rolls, even when another"
        " ability (Forest Camouflage) would let them succeed automatically (\"can't\" beats"
        " \"can\").",
        not_in_first_edition="The printed card's rule that it can't attack Aircraft does not"
                             " apply: first edition has no Aircraft."),
    AbilitySpec(
        "extended_range", "Extended Range {n}", True,
        "Against Vehicles, this unit's long range is 5 to {n} hexes instead of 5 to 8, with its"
        " long-range anti-Vehicle value (line of sight still needed). Against Soldiers its long"
        " range stays 5 to 8.", value_range=(9, 20)),
    AbilitySpec(
        "enhanced_range", "Enhanced Range {n}", True,
        "This unit's long range is 5 to {n} hexes instead of 5 to 8, against Soldiers and"
        " Vehicles alike, with its long-range values (line of sight still needed).",
        value_range=(9, 20)),
    AbilitySpec(
        "seasoned_crew", "Seasoned Crew", False,
        "Units this unit attacks suffer -1 on their cover rolls (added to the -1 for an attacker"
        " in the same hex). It applies to defensive fire too."),
    AbilitySpec(
        "inaccurate", "Inaccurate {n}", True,
        "This unit suffers -{n} on each attack die on every attack, defensive fire included.",
        value_range=(1, 3)),
    AbilitySpec(
        "shrapnel", "Shrapnel {n}", True,
        "When this unit attacks a Soldier, each success it rolls counts as {n} successes.",
        value_range=(2, 4)),
    AbilitySpec(
        "ruthless", "Ruthless", False,
        "This unit gets +1 on each attack die when it attacks a unit that is disrupted or"
        " damaged (a face-up Disrupted or Damaged counter), in its assault phase or with"
        " defensive fire."),
    AbilitySpec(
        "coordinated_fire", "Coordinated Fire", False,
        "While a friendly commander that is not disrupted is adjacent to this Soldier (in its"
        " hex or the next hex), this Soldier rolls one extra attack die on each attack, in its"
        " assault phase and with defensive fire. Several commanders still give one die.",
        unit_type=SOLDIER),
    AbilitySpec(
        "overlapping_fire", "Overlapping Fire", False,
        "In its own assault phase, when this unit attacks an enemy unit that another friendly"
        " unit has already attacked earlier in the same phase, it gets +1 on each attack die."),
    AbilitySpec(
        "surprise_fire", "Surprise Fire", False,
        "The first attack this unit makes in the game (in its assault phase or with defensive"
        " fire) gets +1 on each attack die. Later attacks are normal."),
    AbilitySpec(
        "armor_piercing_rounds", "Armor-Piercing Rounds", False,
        "Once per game, in its own assault phase, before rolling an attack against an enemy"
        " Vehicle, this unit may declare Armor-Piercing Rounds: if that attack scores exactly"
        " two hits it scores three instead. The ability is used up when declared, whatever the"
        " result. Not with defensive fire (which can only disrupt)."),
    AbilitySpec(
        "overrun", "Overrun", False,
        "In its own assault phase this Vehicle may move and then attack as one activation: if"
        " the move ends in a hex holding enemy Soldiers and no enemy Vehicle, it immediately"
        " attacks one enemy Soldier in that hex at short range. The move follows the normal"
        " rules (defensive fire, stacking); if the Vehicle is stopped before it reaches that"
        " hex there is no attack.", unit_type=VEHICLE),
    AbilitySpec(
        "fixed_howitzer", "Fixed Howitzer", False,
        "This Vehicle can only attack units whose hex centre lies in its front arc (ruling 1),"
        " in its assault phase and with defensive fire. A unit in its own hex is never in its"
        " front arc.", unit_type=VEHICLE),
    AbilitySpec(
        "no_turret", "No Turret", False,
        "This Vehicle can only attack units whose hex centre lies in its front arc (ruling 1)."
        " In its own assault phase, when it is activated to attack, it may first turn to any"
        " facing in its hex; that turn is part of the attack, is not a move and provokes no"
        " defensive fire. With defensive fire it can't turn first.", unit_type=VEHICLE),
    AbilitySpec(
        "command_dependent", "Command Dependent", False,
        "Unless a friendly commander that is not disrupted is adjacent to this unit (in its hex"
        " or the next hex), this unit suffers -1 on each attack die."),
    # --- defense ---------------------------------------------------------------------
    AbilitySpec(
        "sideskirts", "Sideskirts", False,
        "Both of this Vehicle's defense values are 1 higher against any attack made by a unit"
        " that has Close Assault, whichever attack values that unit uses.", unit_type=VEHICLE),
    AbilitySpec(
        "heavy_armor", "Heavy Armor", False,
        "The first Damaged counter this Vehicle would receive in the game is not placed (a"
        " Disrupted counter from the same attack still is); count further hits as if it had"
        " never been there, so the next one is a Damaged counter again. Later Damaged counters"
        " work normally; Destroyed counters are never ignored.", unit_type=VEHICLE),
    AbilitySpec(
        "superior_armor", "Superior Armor {n}", True,
        "An attack on this Vehicle scores two hits only if its successes reach the defense plus"
        " {n} (normally the defense plus 1); successes at least equal to the defense but below"
        " that score one hit. Three hits still need double the defense.",
        value_range=(1, 5), unit_type=VEHICLE),
    AbilitySpec(
        "superior_frontal_armor", "Superior Frontal Armor {n}", True,
        "Like Superior Armor {n}, but only against attacks on this Vehicle's front defense: such"
        " an attack scores two hits only if its successes reach the front defense plus {n}."
        " Attacks on its rear defense are normal.", value_range=(1, 5), unit_type=VEHICLE),
    AbilitySpec(
        "open_back", "Open Back", False,
        "When an enemy attacks this Vehicle's rear defense, the attacker may roll its anti-Soldier"
        " value for that range instead of its anti-Vehicle value (its choice, before rolling;"
        " Hexfront always takes the larger, since more dice are never worse)."
        " The attack is still against the rear defense and the target is still a Vehicle.",
        unit_type=VEHICLE),
    AbilitySpec(
        "forest_camouflage", "Forest Camouflage", False,
        "While this unit is in a forest hex it automatically succeeds at its cover rolls against"
        " long-range attacks (no die is rolled). Attacks that ignore cover still ignore it."),
    AbilitySpec(
        "tall_silhouette", "Tall Silhouette", False,
        "This Vehicle always fails its cover rolls (none is rolled), in every terrain.",
        unit_type=VEHICLE),
    AbilitySpec(
        "highly_flammable", "Highly Flammable", False,
        "Whenever this Vehicle receives a Damaged counter, the attacking player rolls one die:"
        " on 5 or 6 that counter becomes a Destroyed counter instead.", unit_type=VEHICLE),
    AbilitySpec(
        "battlefield_awareness", "Battlefield Awareness", False,
        "Attacks from a unit whose hex centre lies exactly on the line through this Vehicle's"
        " hex centre square to its facing (\"directly to the right or left\", ruling 1) are"
        " against its front defense instead of its rear defense. Attacks from behind that line"
        " or from its own hex are still against the rear.", unit_type=VEHICLE),
    AbilitySpec(
        "guard_crew", "Guard Crew", False,
        "Being damaged does not give this Vehicle the -1 penalty on attack dice (it still loses"
        " 1 speed and 1 defense). Being disrupted still gives -1 on attack dice.",
        unit_type=VEHICLE),
    AbilitySpec(
        "fanatic", "Fanatic", False,
        "This unit ignores face-up Disrupted counters: while it has one it still moves, attacks"
        " and fires defensively, without the -1 penalties on attack dice and defense, and it"
        " counts as not disrupted (its commander abilities keep working). A defensive-fire hit"
        " still ends the move it is making."),
    AbilitySpec(
        "ss_determination", "SS Determination", False,
        "Whenever this unit would get a face-up Disrupted counter (from defensive fire, or when"
        " its face-down Disrupted counter is flipped in the casualty phase), roll one die: on 4"
        " or higher that Disrupted counter is removed. A defensive-fire hit still ends the move"
        " it is making. Damaged and Destroyed counters are not affected."),
    # --- movement ----------------------------------------------------------------------
    AbilitySpec(
        "relocate", "Relocate {n}", True,
        "This unit's printed speed is 0, so it can't move in the movement phase. In its own"
        " assault phase it has speed {n}; moving uses its activation, so in that phase it"
        " either moves or attacks, never both. Terrain, movement rolls and defensive fire"
        " apply to that move as usual.", value_range=(1, 5)),
    AbilitySpec(
        "strike_and_fade", "Strike and Fade {n}", True,
        "In its own assault phase, after this unit attacks, it may move up to {n} hexes as part"
        " of the same activation, following every movement rule (terrain costs, movement rolls,"
        " defensive fire, stacking). It can't attack after moving."
        , value_range=(1, 5)),
    AbilitySpec(
        "high_gear", "High Gear {n}", True,
        "When every hex of a move is entered along a road (ruling 5), this Vehicle has +{n}"
        " speed for that move, in the movement or the assault phase, on top of the road bonus.",
        value_range=(1, 5), unit_type=VEHICLE),
    AbilitySpec(
        "weak_suspension", "Weak Suspension", False,
        "This Vehicle must succeed at a movement roll (4 or higher) to enter a hill hex, unless"
        " it enters it along a road. A failed roll stops it in the hex it was leaving; a stream"
        " crossing into the hill needs its own roll as well.", unit_type=VEHICLE),
    AbilitySpec(
        "excellent_suspension", "Excellent Suspension", False,
        "Entering a hill hex costs this Vehicle one hex of movement instead of two. Cover and"
        " line of sight of hills are unchanged.", unit_type=VEHICLE),
    AbilitySpec(
        "forest_runner", "Forest Runner", False,
        "This Vehicle needs no movement roll to enter a forest hex. Entering a forest still"
        " costs it two hexes of movement, and crossing a stream still needs its roll.",
        unit_type=VEHICLE),
    AbilitySpec(
        "trench_crossing", "Trench Crossing", False,
        "This Vehicle crosses streams without a movement roll (it still needs the forest roll"
        " to enter a forest).", unit_type=VEHICLE,
        not_in_first_edition="The printed card's part about trenches does not apply: first"
                             " edition has no trenches."),
    AbilitySpec(
        "bridge_demolition", "Bridge Demolition", False,
        "Instead of moving or attacking in its own assault phase, this Soldier may try to"
        " destroy a bridge on a side of its hex: roll one die, on 4 or higher the bridge is"
        " destroyed for the rest of the game. The road is then broken there, and units must make"
        " movement rolls to cross that stream.", unit_type=SOLDIER,
        not_in_first_edition="The printed card's part about Obstacles does not apply: first"
                             " edition has no Obstacles."),
    AbilitySpec(
        "large", "Large", False,
        "This unit can never be carried by a transport, not even one with Gun Transport."),
    # --- transport ---------------------------------------------------------------------
    AbilitySpec(
        "transport", "Transport", False,
        "This Vehicle can carry one friendly Soldier that is not Artillery. In the movement"
        " phase a Soldier in the same hex may use its move to board it, and a Soldier that"
        " started its movement phase aboard may use its move to dismount into the carrier's hex;"
        " if that breaks the stacking limit the opponent places the Soldier in one of the"
        " nearest legal hexes. While aboard, the Soldier can't move, attack, fire defensively or"
        " be attacked, and doesn't count for stacking; it is destroyed with its carrier and is"
        " unaffected when the carrier is disrupted or damaged. A Soldier may start the game"
        " aboard.", unit_type=VEHICLE),
    AbilitySpec(
        "exposed_transport", "Exposed Transport", False,
        "Transport, with one difference: the carried Soldier can be attacked. Enemy units may"
        " attack it as if it stood in the carrier's hex (its own defense, and its own cover roll"
        " if that hex gives cover). Otherwise as Transport: one non-Artillery Soldier, boards or"
        " dismounts with its move in the movement phase, can't act while aboard, doesn't count"
        " for stacking, is destroyed with its carrier, may start the game aboard.",
        unit_type=VEHICLE),
    AbilitySpec(
        "gun_transport", "Gun Transport", False,
        "Transport (one Soldier, who can't be attacked while aboard), and the Soldier it carries"
        " may also be Artillery, as long as that Soldier does not have Large. Boarding and"
        " dismounting happen in the movement phase as for any transport.", unit_type=VEHICLE),
    AbilitySpec(
        "fighting_platform", "Fighting Platform", False,
        "A non-Artillery Soldier carried by this Vehicle may attack in its own assault phase"
        " (its activation, from the carrier's hex, with its own values) if the carrier has not"
        " moved in that phase; after such an attack the carrier can't move in that phase. The"
        " carried Soldier may also fire defensively as if it stood in the carrier's hex.",
        unit_type=VEHICLE),
    # --- commanders ----------------------------------------------------------------------
    AbilitySpec(
        "pinpointer", "Pinpointer", False,
        "When a friendly Soldier adjacent to this commander (in its hex or the next hex, the"
        " commander itself included) attacks, the target suffers -1 on its cover roll."
        + _COMMANDER_TAIL, commander=True),
    AbilitySpec(
        "tally_ho", "Tally-Ho!", False,
        "A friendly non-Artillery Soldier that starts its move in its side's movement phase"
        " adjacent to this commander (in its hex or the next hex, the commander itself included)"
        " has +1 speed for that move. Not in the assault phase." + _COMMANDER_TAIL,
        commander=True),
    AbilitySpec(
        "exert_will", "Exert Will", False,
        "At the start of its side's movement phase, remove the face-up Disrupted counters from"
        " every friendly Soldier adjacent to this commander (in its hex or the next hex)."
        + _COMMANDER_TAIL, commander=True),
    AbilitySpec(
        "command_ruthless", "Command Ruthless", False,
        "Friendly units adjacent to this commander (in its hex or the next hex, the commander"
        " itself included) have Ruthless: +1 on each attack die against disrupted or damaged"
        " units. A unit that has Ruthless of its own gets +1, not +2." + _COMMANDER_TAIL,
        commander=True),
    AbilitySpec(
        "bravery_enforcement", "Bravery Enforcement", False,
        "Friendly Soldiers adjacent to this commander (in its hex or the next hex, the commander"
        " itself excluded) don't suffer the -1 penalty on attack dice for being disrupted. They"
        " still can't move or fire defensively and still have -1 defense." + _COMMANDER_TAIL,
        commander=True),
)

CATALOG: dict[str, AbilitySpec] = {s.id: s for s in _SPECS}
ABILITY_IDS: frozenset[str] = frozenset(CATALOG)
COMMANDER_ABILITIES: frozenset[str] = frozenset(s.id for s in _SPECS if s.commander)


def spec(ability_id: str) -> AbilitySpec:
    """The catalog entry for an id; KeyError with a readable message if unknown."""
    try:
        return CATALOG[ability_id]
    except KeyError:
        raise KeyError(f"unknown ability id '{ability_id}'") from None


def display_name(ability_id: str, value: object = None) -> str:
    """The printed name, e.g. ``display_name('close_assault', 7) == 'Close Assault 7'``."""
    s = spec(ability_id)
    return s.fill(s.name, value).strip()


def rule_text(ability_id: str, value: object = None) -> str:
    """The full rule text with the parameter filled in (and the first-edition note)."""
    s = spec(ability_id)
    text = s.fill(s.text, value)
    if s.not_in_first_edition:
        text += " " + s.not_in_first_edition
    return text


def make_ability(ability_id: str, value: object = None, name: str | None = None,
                 text: str | None = None) -> Ability:
    """An :class:`Ability` with the catalog's name and text unless given."""
    return Ability(id=ability_id, value=value,
                   name=name or display_name(ability_id, value),
                   text=text or rule_text(ability_id, value))
