"""The value model's training (`python -m service learn`), the `value` policy and the calibration bench's arithmetic."""

from __future__ import annotations

import json
import random

import pytest

from bench.calibration import deciles
from service.__main__ import main
from service.advice.loss import CLAIM_LOSS_FEATURES, LOSS_FEATURES
from service.advice.value import DISTANCES, FEATURES, model_path, parse
from service.arena.branches import (
    _claim_training_pairs,
    _training_pairs,
    answer_from,
    answer_record,
    deals_in_order,
)
from service.arena.duplicate import Arena, play_round
from service.arena.learn import TOP, Decisions, Explorer, calibrate, play_recorded
from service.arena.learn_loss import OTHERS
from service.arena.value import Chooser

RULESETS = ("bga-taiwan", "cardavia-flowers", "cardavia-chan")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_tiny_training_run_writes_a_valid_model(ruleset, tmp_path, capsys):
    out = tmp_path / "model.json"
    assert main(["learn", "--ruleset", ruleset, "--deals", "3", "--seed", "5", "--out", str(out)]) == 0
    document = json.loads(out.read_text(encoding="utf-8"))
    model = parse(document, ruleset)
    assert len(model.weights) == DISTANCES and all(len(row) == len(FEATURES) for row in model.weights)
    assert document["training"]["command"] == f"python -m service learn --ruleset {ruleset} --deals 3 --seed 5"
    assert document["data"]["rounds"] == 3 and document["data"]["decisions"] == sum(document["data"]["per_distance"])
    assert model.knots and document["calibration"]["bins"] == 20
    assert "wrote" in capsys.readouterr().out


def tiny_fit(flag: str, decisions: int, out) -> tuple[dict, dict, dict]:
    """`learn --ruleset cardavia-chan <flag> --decisions N --seed 5 --out out`: the document written, the shipped
    one, and the block the flag fits (checked: its features, weights and command)."""
    assert main(["learn", "--ruleset", "cardavia-chan", flag, "--decisions", str(decisions), "--seed", "5",
                 "--out", str(out)]) == 0
    document = json.loads(out.read_text(encoding="utf-8"))
    shipped = json.loads(model_path("cardavia-chan").read_text(encoding="utf-8"))
    block = document["loss" if flag == "--loss" else "claim_loss"]
    names = LOSS_FEATURES if flag == "--loss" else CLAIM_LOSS_FEATURES
    assert block["features"] == list(names) and len(block["weights"]) == len(names)
    training = block["training"]
    assert training["command"] == f"python -m service learn --ruleset cardavia-chan {flag} --decisions {decisions} " \
                                  "--seed 5"
    assert training["seed"] == 5 and training["decisions"] == decisions
    assert decisions <= training["rows"] <= decisions * OTHERS
    return document, shipped, block


@pytest.mark.parametrize(("flag", "key", "decisions"), [("--loss", "loss", 4), ("--claims", "claim_loss", 3)])
def test_a_tiny_loss_run_writes_its_block_beside_the_rest(flag, key, decisions, tmp_path, capsys):
    """`--loss` plays paired branches of discard decisions of its seed, `--claims` of claim decisions (one decision
    a round, the first option and up to three ranked below it), and each writes its block beside the shipped base
    and the other block, left as they were; fitting the base again keeps both blocks and says to fit them again."""
    out = tmp_path / "model.json"
    document, shipped, block = tiny_fit(flag, decisions, out)
    other = "claim_loss" if key == "loss" else "loss"
    assert document["weights"] == shipped["weights"] and document.get(other) == shipped.get(other)
    assert getattr(parse(document, "cardavia-chan"), key) == tuple(block["weights"])
    assert f"wrote the {key}" in capsys.readouterr().out
    assert main(["learn", "--ruleset", "cardavia-chan", "--deals", "2", "--seed", "5", "--out", str(out)]) == 0
    again = json.loads(out.read_text(encoding="utf-8"))
    assert again[key] == block and again["weights"] != shipped["weights"]
    assert "fit it again with `python -m service learn --ruleset cardavia-chan --loss`" in capsys.readouterr().out
    assert main(["learn", "--ruleset", "cardavia-chan", flag, "--decisions", "0"]) == 2


def test_claim_branches_set_the_first_answer_against_the_answers_below_it():
    """Each record is one claim decision with a choice (no forced take, no win offered): its first answer, and
    answers ranked below it that can take the card, each with the seat's realised settlement; an answer read back
    from its record is the answer written; the same records for one process and two."""
    jobs = lambda d: ("cardavia-chan", 5, d, 2)  # noqa: E731
    one = [r for _, r in zip(range(4), deals_in_order(_claim_training_pairs, jobs, 1))]
    two = [r for _, r in zip(range(4), deals_in_order(_claim_training_pairs, jobs, 2))]
    assert one == two
    found = [r for r in one if r["decision"] is not None]
    assert found
    for record in found:
        answers = [record["first"], *record["others"]]
        assert record["first"]["rank"] == 1 and all(o["rank"] > 1 and not o["preempted"] for o in record["others"])
        assert all(a["kind"] not in ("win", "hu") for a in answers)
        for answer in answers:
            read = answer_from({k: v for k, v in answer.items() if k != "realised"})
            assert answer_record(read) == {k: v for k, v in answer.items() if k != "realised"}


def test_paired_branches_are_the_same_in_one_process_and_in_two():
    """Every deal is seeded by its number: the records of the first deals are the same for any number of
    processes, and each option's branch replays the round up to the decision (else `branch` raises)."""
    one = [r for _, r in zip(range(6), deals_in_order(_training_pairs, lambda d: ("cardavia-chan", 5, d, 2), 1))]
    two = [r for _, r in zip(range(6), deals_in_order(_training_pairs, lambda d: ("cardavia-chan", 5, d, 2), 2))]
    assert one == two and all(r["decision"] is not None for r in one)
    assert all(1 <= len(r["others"]) <= 2 and all(o["rank"] > 1 for o in r["others"]) for r in one)


@pytest.mark.slow  # over 2 s on 2 cores
def test_training_on_two_processes_writes_the_same_model(tmp_path):
    """120 deals are three chunks of 50 or fewer: joined in deal order, two processes fit the very weights and map
    one does (only the time taken differs)."""
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    assert main(["learn", "--ruleset", "cardavia-chan", "--deals", "120", "--seed", "5", "--out", str(one)]) == 0
    assert main(["learn", "--ruleset", "cardavia-chan", "--deals", "120", "--seed", "5", "--jobs", "2",
                 "--out", str(two)]) == 0
    first, second = (json.loads(path.read_text(encoding="utf-8")) for path in (one, two))
    assert first["data"]["rounds"] == 120
    for key in ("weights", "calibration", "data", "version"):
        assert first[key] == second[key]
    assert main(["learn", "--ruleset", "cardavia-chan", "--deals", "3", "--jobs", "0"]) == 2


def test_the_calibration_knots_by_hand():
    """Four groups of one: (0, 0), (1, 2), (2, 1), (3, 3). The third falls below the second, so the two are pooled
    into (1.5, 1.5): the targets then rise strictly, and so do the scores."""
    assert calibrate([3.0, 0.0, 2.0, 1.0], [3.0, 0.0, 1.0, 2.0], bins=4) == [[0.0, 0.0], [1.5, 1.5], [3.0, 3.0]]
    # equal targets are pooled too (the map must rise strictly); groups of two: (0.5, 1), (2.5, 1) -> one knot
    assert calibrate([0.0, 1.0, 2.0, 3.0], [0.0, 2.0, 2.0, 0.0], bins=2) == [[1.5, 1.0]]
    # fewer decisions than bins: one group each
    assert calibrate([2.0, 1.0, 0.0], [5.0, 3.0, 1.0]) == [[0.0, 1.0], [1.0, 3.0], [2.0, 5.0]]


def test_learn_refuses_wrong_arguments(capsys):
    assert main(["learn", "--ruleset", "no-such-rules", "--deals", "3"]) == 2
    assert main(["learn", "--ruleset", "bga-taiwan", "--deals", "0"]) == 2


def test_recorded_advice_plays_the_advice_and_every_target_is_its_seat_settlement():
    """The recording seats play exactly as `advice` does; a seat's decisions all carry that seat's delta."""
    found = Decisions()
    play_recorded("bga-taiwan", 11, 0, found)
    log = play_round(Arena("bga-taiwan", ("advice",) * 4, 11), 0, 0)
    assert found.rounds == 1 and len(found.rows) == len(found.targets) > 10
    assert set(found.targets) <= set(map(float, log["result"].get("deltas") or [0]))
    assert isinstance(Chooser(), Chooser)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_value_policy_plays_whole_rounds(ruleset):
    log = play_round(Arena(ruleset, ("value", "advice", "value", "advice"), 7002), 0, 0)
    assert "result" in log


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_value_tiebreak_policy_plays_whole_rounds(ruleset):
    log = play_round(Arena(ruleset, ("value-tiebreak", "advice", "value-tiebreak", "advice"), 7002), 0, 0)
    assert "result" in log


def test_an_explorer_that_never_explores_records_what_the_advice_records():
    """Epsilon 0: the same decisions, features and targets as the advice in every seat."""
    advice, explorer = Decisions(), Decisions()
    play_recorded("cardavia-chan", 11, 0, advice)
    play_recorded("cardavia-chan", 11, 0, explorer, lambda record: Explorer(record, 0.0, random.Random(1)))
    assert explorer == advice


def test_an_explorer_plays_one_of_the_advice_first_three_discards():
    """Epsilon 1: every discard is one of the analysis' first `TOP` (3), and over a round not always the first."""
    chosen = []

    class Spy(Explorer):
        def pick(self, analysis):
            option = super().pick(analysis)
            chosen.append(analysis.options.index(option))
            return option

    play_recorded("bga-taiwan", 11, 0, Decisions(), lambda record: Spy(record, 1.0, random.Random(3)))
    assert TOP == 3 and chosen and set(chosen) <= {0, 1, 2} and set(chosen) != {0}


def test_learn_records_its_exploration_in_the_command(tmp_path):
    out = tmp_path / "model.json"
    assert main(["learn", "--ruleset", "cardavia-chan", "--deals", "2", "--seed", "5", "--explore", "0.2",
                 "--out", str(out)]) == 0
    training = json.loads(out.read_text(encoding="utf-8"))["training"]
    assert training["command"] == "python -m service learn --ruleset cardavia-chan --deals 2 --seed 5 --explore 0.2"
    assert main(["learn", "--ruleset", "cardavia-chan", "--deals", "2", "--explore", "1.5"]) == 2


def test_learn_may_record_the_value_tiebreak_policy(tmp_path):
    out = tmp_path / "model.json"
    assert main(["learn", "--ruleset", "bga-taiwan", "--deals", "2", "--seed", "5", "--policy", "value-tiebreak",
                 "--out", str(out)]) == 0
    training = json.loads(out.read_text(encoding="utf-8"))["training"]
    assert training["command"].endswith("--seed 5 --policy value-tiebreak")
    assert training["policy"] == "value-tiebreak in every seat"


def test_deciles_of_a_hand_made_table():
    """20 pairs: predictions 0..19, realised = prediction, except the top two realise 0 and 38 (mean 19 against
    a prediction of 18.5, a wide interval); every group of two is calibrated; the interval is the normal one."""
    pairs = [(float(p), float(p)) for p in range(18)] + [(18.0, 0.0), (19.0, 38.0)]
    rows = deciles(pairs)
    assert [r["decisions"] for r in rows] == [2] * 10
    assert [r["predicted"] for r in rows] == [0.5 + 2 * i for i in range(10)]
    assert rows[0]["realised"] == 0.5 and rows[-1]["realised"] == 19.0
    # stdev of (0, 1) is sqrt(.5): the half-width 1.96 * sqrt(.5) / sqrt(2) = .98
    assert rows[0]["low"] == pytest.approx(0.5 - 0.98) and rows[0]["high"] == pytest.approx(0.5 + 0.98)
    assert all(r["calibrated"] for r in rows)
    # the top decile: predicted 18.5, realised 19 with a wide interval: inside it
    assert rows[-1]["inside"]


def test_decisions_of_one_round_widen_the_interval():
    """One group of four: two rounds, each of two decisions sharing a target (0, 0 and 2, 2). Clustered by round,
    the deviations sum to -2 and +2 per round: variance (4 + 4) / 16 * 2 / 1 = 1, half-width 1.96. Counted as four
    independent decisions: stdev sqrt(4 / 3) over sqrt(4), half-width 1.96 * 0.577."""
    pairs = [(0.0, 0.0), (0.0, 0.0), (0.0, 2.0), (0.0, 2.0)]
    clustered, = deciles(pairs, groups=1, rounds=[0, 0, 1, 1])
    independent, = deciles(pairs, groups=1)
    assert clustered["rounds"] == 2 and independent["rounds"] == 4
    assert clustered["high"] - clustered["realised"] == pytest.approx(1.96)
    assert independent["high"] - independent["realised"] == pytest.approx(1.96 * (4 / 3) ** 0.5 / 2)


def test_a_miscalibrated_decile_is_flagged():
    """Realised far from predicted, no spread: neither inside nor within 10% of the range (0..9: 0.9)."""
    pairs = [(float(p), float(p)) for p in range(10)]
    pairs[9] = (9.0, 5.0)
    rows = deciles(pairs)
    assert rows[-1]["low"] == rows[-1]["high"] == 5.0
    assert not rows[-1]["inside"] and not rows[-1]["near"] and not rows[-1]["calibrated"]
    assert rows[0]["calibrated"]
