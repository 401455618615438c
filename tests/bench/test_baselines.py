"""The frozen baselines of bench/baselines/ (`advice-v1`, the advice at engine 0.1.0; `advice-v2`, at engine
0.5.0): loaded by its name, as the arena loads it, each makes the moves `advice` made when it was frozen, recorded in
`<name>_moves.json` beside this file (every decision of the two advice seats in a few rounds per rule-set against
`efficiency` and `baseline`). Each recording was made with `advice` at the time, so a passing test says the freeze is
faithful, and it keeps passing whatever later becomes of the advice."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from service.arena.duplicate import Arena, distinct_rotations
from service.arena.policies import check_names, is_deterministic
from tests.support.recorded import RULESETS, moves_of

#: Each baseline's policy name and the file of the moves recorded from `advice` when it was frozen.
BASELINES = {
    "advice_v1": "py:bench.baselines.advice_v1:AdviceV1",
    "advice_v2": "py:bench.baselines.advice_v2:AdviceV2",
}


def recording(baseline: str) -> dict:
    return json.loads(Path(__file__).with_name(f"{baseline}_moves.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("baseline", BASELINES)
def test_a_baseline_makes_the_recorded_moves_of_the_advice(baseline, ruleset):
    assert moves_of(BASELINES[baseline], ruleset) == recording(baseline)[ruleset]


@pytest.mark.parametrize("baseline", BASELINES)
def test_a_baseline_is_a_deterministic_arena_policy_by_its_name(baseline):
    """The arena takes its name, and plays its repeated rotations once, as for the service's deterministic
    policies."""
    name = BASELINES[baseline]
    check_names([name, "advice", name, "advice"], 4)
    assert is_deterministic(name)
    assert distinct_rotations(Arena("cardavia-chan", (name, "advice", name, "advice"))) == [0, 1, 0, 1]


@pytest.mark.parametrize("baseline", BASELINES)
def test_the_recording_holds_a_few_hundred_decisions_of_every_kind(baseline):
    moves = [m for rounds in recording(baseline).values() for r in rounds.values() for m in r]
    assert len(moves) >= 300
    answers = {m[2:] for m in moves if m[1] == "c"}
    assert "-1" in answers and len(answers) > 1  # passes and claims
