"""Fair dice (issue 16): nobody can know a roll before committing or re-roll it,
and a reload replays the same rolls.  The dice plug in through the rules' own
dice object (game.rules.dice.Dice); the rules code is unchanged."""
import hashlib

import pytest

from game.net.dice import (ChainVerifier, CommitRevealDice, DiceError, HashChain, RollNeeded,
                           SeededDice, TableDice, audit_seed, derive_roll, offline_rolls,
                           seed_commitment)
from game.net.headless import spec_for
from game.net.session import apply_action, armies_from_names, build_game, replay_record
from game.rules.dice import Dice


def chain(tag, n=64):
    return HashChain(hashlib.sha256(tag.encode()).digest(), length=n)


def test_net_dice_are_the_rules_dice_object():
    assert isinstance(TableDice(), Dice) and isinstance(SeededDice(1), Dice)


def test_a_forged_or_changed_contribution_is_refused():
    honest = chain("honest")
    v = ChainVerifier(honest.root)
    v.accept(0, honest.reveal(0))
    with pytest.raises(DiceError, match="does not match"):
        v.accept(1, chain("cheat").reveal(1))           # a value not in the committed chain
    with pytest.raises(DiceError, match="out of order"):
        v.accept(5, honest.reveal(5))                   # skipping ahead
    v.accept(1, honest.reveal(1))                       # the honest value still goes in


def test_a_modified_client_cannot_predict_the_next_roll_before_the_other_reveals():
    """The cheater knows its own chain, the honest root and every revealed value;
    the next roll still depends on the honest player's unrevealed value: for the
    same public knowledge, different honest secrets give every face."""
    cheat = chain("cheater")
    faces = set()
    for i in range(60):
        honest = chain(f"honest-{i}")
        faces.add(derive_roll(3, cheat.values[4], honest.values[4]))
    assert faces == {1, 2, 3, 4, 5, 6}
    # and the cheater cannot choose its own contribution after seeing the other's:
    # its value for roll 3 is fixed by its committed root
    v = ChainVerifier(cheat.root)
    for k in range(3):
        v.accept(k, cheat.reveal(k))
    with pytest.raises(DiceError):
        v.accept(3, hashlib.sha256(b"a better value").hexdigest())


def test_an_honest_machine_reveals_only_the_rolls_its_own_rules_need():
    """Commit-reveal per roll: a machine reveals roll k's part only when its own
    engine asks for roll k while applying an action both already have."""
    spec = spec_for(0, 11, turn_limit=1)
    a, b = spec.chain("Axis"), spec.chain("Allies")
    dice = CommitRevealDice("Axis", a, b.root)
    cards = armies_from_names(spec.armies, "standard", spec.options)
    with pytest.raises(RollNeeded) as need:
        build_game("standard", spec.config, spec.options, cards, dice)
    assert need.value.k == 0 and dice.sent == 0          # nothing revealed by asking
    dice.my_reveal(0)
    dice.their_reveal(0, b.reveal(0))
    game = build_game("standard", spec.config, spec.options, cards, dice)
    assert dice.sent == 1 and len(dice.table) == 1        # the coin flip, and no more
    assert dice.table == offline_rolls(a, b, 1)
    with pytest.raises(DiceError, match="in order"):
        dice.my_reveal(5)
    assert game.state.phase.value == "setup_order"


def test_a_refused_roll_request_leaves_the_position_untouched():
    """RollNeeded goes through Game.apply like any failure: the position and the dice
    cursor are restored, and the same action applied again with the roll gives the
    same result as a local game (a reload replays the same rolls)."""
    spec = spec_for(2, 5, turn_limit=2)
    rolls = offline_rolls(spec.chain("Axis"), spec.chain("Allies"), 400)
    from game.net.headless import _play_local
    ref = _play_local(spec, TableDice(rolls))
    # replay step by step, feeding rolls only when asked
    dice = TableDice(rolls[:1])
    game = build_game("standard", spec.config, spec.options,
                      armies_from_names(spec.armies, "standard", spec.options), dice)
    for act in ref.history:
        while True:
            before = game.state_hash()
            try:
                apply_action(game, act)
                break
            except RollNeeded as need:
                assert game.state_hash() == before and dice.pos <= need.k == len(dice.table)
                dice.add(rolls[need.k])
    assert game.state_hash() == ref.state_hash()
    again = replay_record("standard", spec.config, spec.options, spec.armies,
                          list(ref.history), list(dice.table))
    assert again.state_hash() == ref.state_hash()          # a reload: the same rolls


def test_relay_seed_commitment_audit():
    seed, salt = 12345, "ab" * 16
    d = SeededDice(seed)
    rolls = [d.d6() for _ in range(50)]
    c = seed_commitment(seed, salt)
    assert audit_seed(c, seed, salt, rolls) is None
    assert "does not match" in audit_seed(c, seed + 1, salt, rolls)
    bad = list(rolls)
    bad[10] = bad[10] % 6 + 1
    assert "roll 11" in audit_seed(c, seed, salt, bad)


def test_seeded_dice_record_is_restored_with_the_position():
    d = SeededDice(3)
    st = d.getstate()
    d.d6(), d.d6()
    d.setstate(st)
    assert d.record == [] and d.d6() == Dice(3).d6()
