"""`python -m service arena`: JSON that parses, the same figures for any --jobs, clear errors with exit 2."""

from __future__ import annotations

import json

import pytest

from service.__main__ import main
from service.replay.audit import audit


def run(capsys, *args: str) -> tuple[int, str, str]:
    status = main(["arena", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_json_output_parses_and_counts_the_rounds(capsys):
    status, out, _ = run(capsys, "--ruleset", "cardavia-chan", "--policies", "advice,baseline,advice,baseline",
                         "--deals", "2", "--seed", "3", "--json")
    assert status == 0
    report = json.loads(out)
    assert (report["deals"], report["rounds"], report["measure"]) == (2, 8, "settlement")
    assert [p["policy"] for p in report["per_policy"]] == ["advice", "baseline"]
    # advice sits in 2 of the 4 seats in each of 4 rotations of 2 deals: 16 seat-rounds; baseline the same
    assert [p["rounds"] for p in report["per_policy"]] == [16, 16]
    assert [(p["a"], p["b"]) for p in report["pairs"]] == [("advice", "baseline")]


def test_flowers_without_payments_scores_wins(capsys):
    status, out, _ = run(capsys, "--ruleset", "cardavia-flowers", "--policies", "random,baseline,baseline,baseline",
                         "--deals", "1", "--json")
    report = json.loads(out)
    assert status == 0 and report["measure"] == "win"
    # each round has at most one winner: over its four seats the win scores sum to at most 1
    total = sum(p["score"]["mean"] * p["rounds"] for p in report["per_policy"])
    assert 0 < total <= report["rounds"] + 1e-9


@pytest.mark.slow  # over 2 s on 2 cores
def test_the_same_figures_for_any_jobs(capsys):
    args = ("--ruleset", "bga-taiwan", "--policies", "random,baseline,advice,baseline", "--deals", "3",
            "--seed", "5", "--json")
    one = run(capsys, *args, "--jobs", "1")[1]
    again = run(capsys, *args, "--jobs", "1")[1]
    two = run(capsys, *args, "--jobs", "2")[1]
    assert one == again == two


def test_logs_are_written_by_deal_and_rotation_and_audit_clean(capsys, tmp_path):
    status, out, _ = run(capsys, "--ruleset", "bga-taiwan", "--policies", "advice,baseline,baseline,baseline",
                         "--deals", "2", "--logs", str(tmp_path), "--json")
    assert status == 0
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == [f"deal{d:05d}-rotation{r}.json" for d in range(2) for r in range(4)]
    for path in tmp_path.iterdir():
        found = audit(json.loads(path.read_text(encoding="utf-8")))
        assert found.valid and found.recorded_result_matches is True


def test_a_table_without_json(capsys):
    status, out, _ = run(capsys, "--ruleset", "bga-taiwan", "--policies", "random,baseline,advice,baseline",
                         "--deals", "2")
    assert status == 0
    assert "95% interval" in out and "random - baseline" in out and "settlement delta" in out
    assert "too narrow to trust" in out  # 2 deals: the normal intervals are flagged


def test_the_table_trusts_its_intervals_from_30_deals():
    from service.arena.cli import FEW_DEALS, table

    report = {"ruleset": "cardavia-chan", "deals": FEW_DEALS, "rotations": 4, "rounds": 4 * FEW_DEALS, "seed": 0,
              "policies": ["advice", "baseline", "advice", "baseline"], "measure_description": "points",
              "per_policy": [], "pairs": []}
    assert "too narrow" not in table(report)
    assert "too narrow" in table({**report, "deals": FEW_DEALS - 1})


@pytest.mark.parametrize("args, message", [
    (("--policies", "advice,baseline,wizard,baseline"), "unknown policy 'wizard'"),
    (("--policies", "advice,py:bench.nowhere:Bot,advice,baseline"), "cannot import 'bench.nowhere'"),
    (("--policies", "advice,py:bench.baselines.advice_v1:Nope,advice,baseline"), "has no callable 'Nope'"),
    (("--policies", "advice,py:bench.baselines.advice_v1,advice,baseline"), "py:MODULE:FACTORY"),
    (("--policies", "advice,baseline,baseline"), "exactly 4 policies"),
    (("--policies", "advice,baseline,baseline,baseline,random"), "exactly 4 policies"),
    (("--policies", "advice,baseline,advice,baseline", "--budget", "2"), "--budget"),
    (("--policies", "advice,baseline,advice,baseline", "--options", "[1]"), "JSON object"),
    (("--policies", "advice,baseline,advice,baseline", "--options", '{"payment": "all"}'), "payment"),
    (("--policies", "advice,baseline,advice,baseline", "--deals", "0"), "--deals"),
])
def test_bad_arguments_exit_2_with_the_reason(capsys, args, message):
    status, out, err = run(capsys, "--ruleset", "cardavia-flowers", *args)
    assert status == 2 and out == ""
    assert message in err


def test_an_unknown_ruleset_exits_2(capsys):
    status, _, err = run(capsys, "--ruleset", "mahjong", "--policies", "advice,baseline,advice,baseline")
    assert status == 2 and "unknown rule-set" in err


def test_a_python_policy_plays_by_its_name_in_every_process(capsys):
    """`py:MODULE:FACTORY` (docs/bots.md#python-policies): the frozen advice of bench/baselines, loaded by its name
    in this process and in each spawned worker, gives the same figures for any --jobs."""
    v1 = "py:bench.baselines.advice_v1:AdviceV1"
    args = ("--ruleset", "cardavia-chan", "--policies", f"advice,{v1},advice,{v1}", "--deals", "3", "--json")
    one = run(capsys, *args, "--jobs", "1")
    two = run(capsys, *args, "--jobs", "2")
    assert one[0] == two[0] == 0 and one[1] == two[1]
    assert [p["policy"] for p in json.loads(one[1])["per_policy"]] == ["advice", v1]


def test_a_registered_deterministic_policy_is_played_once_per_repeated_rotation(monkeypatch):
    """`deterministic_policy` adds a policy to this process's registry, deterministic, without replacing any
    module attribute."""
    from service.arena import policies
    from service.arena.advice import Advice
    from service.arena.cli import deterministic_policy
    from service.arena.duplicate import Arena, distinct_rotations

    monkeypatch.setitem(policies.POLICIES, "mine", None)  # replaced below; removed at teardown
    deterministic_policy("mine", lambda seating: Advice())
    assert policies.is_deterministic("mine") and "mine" not in policies.DETERMINISTIC
    assert distinct_rotations(Arena("bga-taiwan", ("mine", "advice", "mine", "advice"))) == [0, 1, 0, 1]
