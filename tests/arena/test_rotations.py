"""Repeated deterministic policies: a rotation that seats them as an earlier one does replays it move for move, so
it is counted from that round, not played again; the figures are exactly those of every rotation played."""

from __future__ import annotations

import json

import pytest

import service.arena.duplicate as duplicate
from service.__main__ import main
from service.arena.duplicate import Arena, distinct_rotations, play_round
from service.arena.policies import DETERMINISTIC, POLICIES

RULESETS = ("bga-taiwan", "cardavia-flowers", "cardavia-chan")
V1, SEARCH = "py:bench.baselines.advice_v1:AdviceV1", "py:service.arena.search:Search"  # loaded by name


@pytest.mark.parametrize(("policies", "stands"), [
    (("advice", "baseline", "advice", "baseline"), [0, 1, 0, 1]),
    (("advice", "advice", "advice", "advice"), [0, 0, 0, 0]),
    (("advice", "baseline", "efficiency", "value"), [0, 1, 2, 3]),
    (("advice", "advice", "baseline", "baseline"), [0, 1, 2, 3]),
    (("random", "baseline", "random", "baseline"), [0, 1, 2, 3]),  # random draws per rotation
    (("search", "advice", "search", "advice"), [0, 1, 2, 3]),  # so does the search
    ((V1, "advice", V1, "advice"), [0, 1, 0, 1]),  # a Python policy whose class says it is deterministic
    ((SEARCH, "advice", SEARCH, "advice"), [0, 1, 2, 3]),  # one that does not say it
])
def test_only_rotations_of_deterministic_policies_seated_alike_stand_for_each_other(policies, stands):
    assert distinct_rotations(Arena("bga-taiwan", policies)) == stands


def test_every_policy_says_whether_it_is_deterministic():
    assert DETERMINISTIC <= set(POLICIES)
    assert set(POLICIES) - DETERMINISTIC == {"random", "search"}


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("policy", sorted(DETERMINISTIC))
@pytest.mark.slow  # over 2 s on 2 cores
def test_a_deterministic_policys_repeated_rotation_replays_the_round(ruleset, policy):
    arena = Arena(ruleset, (policy, "efficiency", policy, "efficiency"), seed=5)
    for index in range(2):
        assert play_round(arena, index, 2) == play_round(arena, index, 0)
        assert play_round(arena, index, 3) == play_round(arena, index, 1)


def test_random_play_differs_between_rotations_seated_alike():
    arena = Arena("cardavia-chan", ("random", "advice", "random", "advice"), seed=5)
    assert any(play_round(arena, index, 2) != play_round(arena, index, 0) for index in range(3))


def report(capsys, policies: str, ruleset: str, *more: str) -> str:
    """The arena's JSON output."""
    assert main(["arena", "--ruleset", ruleset, "--policies", policies, "--deals", "6", "--seed", "13", "--json",
                 *more]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize(("policies", "played"), [("advice,baseline,advice,baseline", 2),
                                                  ("advice,baseline,efficiency,value", 4)])
@pytest.mark.slow  # over 2 s on 2 cores
def test_the_figures_are_those_of_every_rotation_played(capsys, monkeypatch, tmp_path, ruleset, policies, played):
    calls: list[int] = []
    real = duplicate.play_round

    def counted(arena, index, rotation):
        calls.append(rotation)
        return real(arena, index, rotation)

    monkeypatch.setattr(duplicate, "play_round", counted)
    deduplicated = report(capsys, policies, ruleset, "--logs", str(tmp_path / "some"))
    assert len(calls) == 6 * played  # A,B,A,B: half the rounds
    monkeypatch.setattr(duplicate, "distinct_rotations", lambda arena: list(range(len(arena.policies))))
    everything = report(capsys, policies, ruleset, "--logs", str(tmp_path / "all"))
    assert len(calls) == 6 * played + 6 * 4
    assert deduplicated == everything
    assert json.loads(deduplicated)["rounds"] == 24
    for path in (tmp_path / "all").iterdir():  # every rotation's log, the same as played in full
        assert (tmp_path / "some" / path.name).read_text(encoding="utf-8") == path.read_text(encoding="utf-8")
