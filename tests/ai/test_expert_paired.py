"""The paired comparison of two A players on the same seeded games
(game.ai.expert_paired): the tool for telling a changed Expert policy from the old
one when the armies decide most games."""
import re

import pytest

from game.ai import expert_paired
from game.ai.tactics import ExpertPolicy
from game.ai.veteran import VeteranAI


def test_sign_test_is_exact_and_two_sided():
    assert expert_paired.sign_test(0, 0) == 1.0
    assert expert_paired.sign_test(5, 5) == 1.0
    # 8 of 8 discordant games one way: 2 / 2**8
    assert expert_paired.sign_test(8, 0) == pytest.approx(2 / 256)
    assert expert_paired.sign_test(0, 8) == expert_paired.sign_test(8, 0)
    # 8 to 5 (the Danger trial): far from telling the two apart
    assert expert_paired.sign_test(8, 5) > 0.5


def test_expert_policy_level_is_the_plain_plan_alone():
    p = expert_paired.make("expert-policy", 3)
    assert isinstance(p, ExpertPolicy)
    assert isinstance(expert_paired.make("veteran", 3), VeteranAI)


def test_paired_run_prints_both_records_and_the_discordant_games(capsys):
    rc = expert_paired.main(["--a1", "expert-policy", "--a2", "veteran", "--b", "random",
                             "--games", "2", "--turn-limit", "1"])
    out = capsys.readouterr().out
    assert rc == 0
    assert re.search(r"expert-policy\s+vs random: [WLD]{2}\s+\d/2", out), out
    assert re.search(r"same outcome in \d of 2 games; only expert-policy won \d, only veteran "
                     r"won \d; sign test p = [01]\.\d{3}", out), out
