"""`advice-v2` (bench/baselines/advice_v2.py) is the advice frozen at engine 0.5.0: loaded by its name, as the arena
loads it, it makes the moves `advice` made when it was frozen, recorded in `advice_v2_moves.json` (every decision of
the two advice seats in a few rounds per rule-set against `efficiency` and `baseline`). The recording was made with
`advice` at the time, so a passing test says the freeze is faithful, and it keeps passing whatever later becomes of
the advice."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from service.arena.duplicate import Arena, distinct_rotations
from service.arena.policies import check_names, is_deterministic
from tests.support.recorded import RULESETS, moves_of

FIXTURE = Path(__file__).with_name("advice_v2_moves.json")
ADVICE_V2 = "py:bench.baselines.advice_v2:AdviceV2"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_advice_v2_makes_the_recorded_moves_of_the_advice(ruleset):
    recorded = json.loads(FIXTURE.read_text(encoding="utf-8"))[ruleset]
    assert moves_of(ADVICE_V2, ruleset) == recorded


def test_advice_v2_is_a_deterministic_arena_policy_by_its_name():
    check_names([ADVICE_V2, "advice", ADVICE_V2, "advice"], 4)
    assert is_deterministic(ADVICE_V2)
    assert distinct_rotations(Arena("cardavia-chan", (ADVICE_V2, "advice", ADVICE_V2, "advice"))) == [0, 1, 0, 1]


def test_the_recording_holds_a_few_hundred_decisions_of_every_kind():
    recorded = json.loads(FIXTURE.read_text(encoding="utf-8"))
    moves = [m for rounds in recorded.values() for r in rounds.values() for m in r]
    assert len(moves) >= 300
    answers = {m[2:] for m in moves if m[1] == "c"}
    assert "-1" in answers and len(answers) > 1  # passes and claims
