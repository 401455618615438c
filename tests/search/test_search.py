"""The Monte Carlo driver: reproducible, stops for the documented reasons, intervals that cover the truth, and
candidates clearly behind dropped at fixed deal counts."""

from __future__ import annotations

import itertools
import os
import time
from dataclasses import replace
from typing import Any

import pytest

from service.rules.errors import DomainError
from service.search import player
from service.search.deal import deal_rng, sample_deal
from service.search.montecarlo import CHECK_EVERY, search
from tests.support.search import RULESETS, SMALL_UNSEEN, SMALL_WAITS, position_of, sample_position, small_position

TIMING = "timing"


def without_timing(answer: dict[str, Any]) -> dict[str, Any]:
    """The answer without its timing, the one part two equal searches may differ in."""
    return {k: v for k, v in answer.items() if k != TIMING}


@pytest.mark.parametrize("ruleset_id", RULESETS)
@pytest.mark.slow  # over 2 s on 2 cores
def test_the_same_seed_gives_the_same_answer_and_another_seed_another(ruleset_id: str) -> None:
    position = position_of(sample_position(ruleset_id)[0])
    first = search(position, None, samples=40, time_budget=60, seed=5, min_samples=1000).to_json()
    again = search(position, None, samples=40, time_budget=60, seed=5, min_samples=1000).to_json()
    other = search(position, None, samples=40, time_budget=60, seed=6, min_samples=1000).to_json()
    assert without_timing(first) == without_timing(again)
    assert first["candidates"] != other["candidates"]
    assert first["deals"] == 40 and first["stopped"] == "samples"
    assert first["playouts"] == 40 * len(first["candidates"]) and len(first["candidates"]) <= 4


@pytest.mark.slow  # over 2 s on 2 cores
def test_the_answer_is_json_with_card_codes_best_first() -> None:
    position = position_of(sample_position("bga-taiwan")[0])
    answer = search(position, None, samples=30, time_budget=60, seed=1).to_json()
    assert answer["objective"] == "expected_settlement"
    assert answer["best"] == answer["candidates"][0]["card"] and isinstance(answer["best"], str)
    means = [c["expected_settlement"]["mean"] for c in answer["candidates"]]
    assert means == sorted(means, reverse=True)
    row = answer["candidates"][0]
    assert set(row) == {"card", "exact_rank", "playouts", "win_probability", "expected_settlement",
                        "pay_probability", "mean_winning_points", "eliminated_after", "versus_first"}
    assert row["eliminated_after"] is None and row["playouts"] == answer["deals"] == 30
    assert answer["confidence"] == 0.95 and answer["min_samples"] == 200 and answer["check_every"] == CHECK_EVERY
    assert row["win_probability"]["low"] <= row["win_probability"]["mean"] <= row["win_probability"]["high"]
    assert answer["policies"] == {"player": "greedy-exact-analysis", "opponents": "greedy-exact-analysis"}
    assert set(answer[TIMING]) == {"elapsed_seconds", "playouts_per_second"}


def test_flowers_without_payments_ranks_on_the_win_probability() -> None:
    position = position_of(sample_position("cardavia-flowers")[0])
    answer = search(position, None, samples=20, time_budget=60, seed=1).to_json()
    assert answer["objective"] == "win_probability"
    assert all(c["expected_settlement"]["mean"] == 0 for c in answer["candidates"])  # nobody pays


def exact_win_probability() -> float:
    """The small position's win probability over every order of its seven unseen cards: the first three are the
    opponent's, the next two the stock; the player wins when a wait is turned up (nobody else claims or wins)."""
    orders = list(itertools.permutations(SMALL_UNSEEN))
    return sum(any(card in SMALL_WAITS for card in order[3:5]) for order in orders) / len(orders)


def test_the_interval_covers_the_exact_win_probability() -> None:
    position = position_of(small_position())
    wins_on = {i: any(position.code(c) in SMALL_WAITS for c in sample_deal(position, deal_rng(3, i)).stock)
               for i in range(1500)}
    answer = search(position, [position.card("yH")], samples=1500, time_budget=60, seed=3, dealing="uniform")
    row = answer.candidates[0]
    assert exact_win_probability() == pytest.approx(11 / 21)
    assert row.win_probability.low <= exact_win_probability() <= row.win_probability.high
    assert row.win_probability.mean == sum(wins_on.values()) / 1500  # each playout won exactly when it could
    assert row.pay_probability.mean == 0 and row.mean_winning_points >= 16  # 16 hu points + the lucky card


def test_a_clear_leader_stops_the_search_early() -> None:
    position = position_of(small_position())
    keep, breaks = position.card("yH"), position.card("rH")  # waiting on rH/rP, or breaking the wait
    # Dealt uniformly: shaped, the other seat's three cards become the meld rC rH rP, the player's waits with it,
    # in every deal of this tiny position (37 turns played), and neither discard can win.
    result = search(position, [breaks, keep], samples=5000, time_budget=60, seed=1, min_samples=100,
                    dealing="uniform")
    assert result.stopped == "leader_clear"
    assert 100 <= result.deals < 5000
    assert result.candidates[0].card == keep
    assert result.candidates[0].expected_settlement.low > result.candidates[1].expected_settlement.high
    assert result.candidates[1].eliminated_after == result.deals == result.candidates[1].playouts
    assert (result.deals - 100) % CHECK_EVERY == 0  # checks fall on fixed deal counts


def test_a_candidate_clearly_behind_stops_being_played_and_keeps_its_figures() -> None:
    """Discarding rS never wins here (its settlement is zero on every deal); rH and rP keep a slim chance, close
    to each other. rS is dropped at the first check; the other two play every deal."""
    position = position_of(small_position())
    cards = [position.card(c) for c in ("rH", "rP", "rS")]
    seen: list[tuple[int, int]] = []
    result = search(position, cards, samples=300, time_budget=60, seed=1, min_samples=100,
                    progress=lambda done, total: seen.append((done, total)), dealing="uniform")
    assert result.stopped == "samples" and result.deals == 300
    by_card = {position.code(c.card): c for c in result.candidates}
    dropped = by_card["rS"]
    assert dropped.eliminated_after == dropped.playouts == 100 < result.deals
    assert [position.code(c.card) for c in result.candidates][-1] == "rS"
    assert {by_card[c].eliminated_after for c in ("rH", "rP")} == {None}
    assert {by_card[c].playouts for c in ("rH", "rP")} == {300}
    assert result.playouts == 300 + 300 + 100
    assert seen == [(50, 300), (100, 300), (150, 300), (200, 300), (250, 300), (300, 300)]
    # at the drop, the same 100 deals (deal i is always the same deal) put the leader's lower bound above rS's
    # upper bound, and rS's figures are those of its 100 deals
    then = search(position, cards, samples=100, time_budget=60, seed=1, min_samples=10**9, dealing="uniform")
    assert then.candidates[0].expected_settlement.low > dropped.expected_settlement.high
    assert [c for c in then.candidates if c.card == dropped.card] == [replace(dropped, eliminated_after=None)]


@pytest.mark.slow  # over 2 s on 2 cores
def test_elimination_is_reproducible() -> None:
    """A mid-round flowers position (ranked on the win probability): a candidate is dropped, at the same deal
    count with the same figures on every run with the same seed and samples."""
    position = position_of(sample_position("cardavia-flowers")[0])
    first = search(position, None, samples=300, time_budget=120, seed=1, min_samples=100).to_json()
    again = search(position, None, samples=300, time_budget=120, seed=1, min_samples=100).to_json()
    assert first["dealing"] == "shaped"  # the default: the other seats' hands shaped by the play so far
    assert without_timing(first) == without_timing(again)
    dropped = [c for c in first["candidates"] if c["eliminated_after"] is not None]
    assert dropped and all(c["playouts"] == c["eliminated_after"] < first["deals"] for c in dropped)
    assert all((c["eliminated_after"] - 100) % CHECK_EVERY == 0 for c in dropped)
    assert first["playouts"] == sum(c["playouts"] for c in first["candidates"])


def test_the_time_budget_is_honoured() -> None:
    """A search of a million deals with half a second: it stops on the budget, having played some deals, and has
    worked at most 2 s. The budget is read between deals and at every turn of a playout, so it is overrun by about
    one turn and the dealing of one deal; the work is counted in this process's CPU time, which a loaded machine
    (other test processes, a browser) does not stretch as it stretches the wall clock."""
    position = position_of(sample_position("bga-taiwan")[0])
    search(position, None, samples=1, time_budget=60, seed=1)  # the tables a first search builds are not the budget's
    cpu = time.process_time()
    result = search(position, None, samples=10**6, time_budget=0.5, seed=1)
    cpu = time.process_time() - cpu
    assert result.stopped == "time_budget"
    assert result.elapsed >= 0.5
    assert 1 <= result.deals < 10**6 and cpu < 2.0, (
        f"{result.deals} deals in {result.elapsed:.2f} s ({cpu:.2f} s of CPU), load average {os.getloadavg()}")


class StandStill:
    """A clock that reads 0 for its first `still` readings, then far past any budget; it counts its readings."""

    def __init__(self, still: int = 10**9) -> None:
        self.still, self.readings = still, 0

    def __call__(self) -> float:
        self.readings += 1
        return 0.0 if self.readings <= self.still else 1e6


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_a_deal_the_budget_cuts_short_is_dropped_for_every_candidate(ruleset_id: str) -> None:
    position = position_of(sample_position(ruleset_id)[0])
    counting = StandStill()
    whole = search(position, None, samples=2, time_budget=1.0, seed=3, clock=counting)
    assert whole.deals == 2 and len(whole.candidates) > 1
    # the readings: the start, the check after deal 1, one per turn of deal 2's playouts, and the elapsed time
    turns = counting.readings - 3
    assert turns > len(whole.candidates)  # every candidate's playout of deal 2 reads the clock at its turns
    for flip in sorted({*range(0, turns, max(1, turns // 8)), turns - 1}):
        # the budget is spent at turn `flip` of deal 2: that deal is dropped whole, even when the candidates
        # before the one playing at that turn had finished it
        cut = search(position, None, samples=2, time_budget=1.0, seed=3, clock=StandStill(2 + flip))
        assert (cut.stopped, cut.deals) == ("time_budget", 1), flip
        assert [c.playouts for c in cut.candidates] == [1] * len(whole.candidates), flip
    # a budget spent just after deal 2's last turn lets it count
    after = search(position, None, samples=3, time_budget=1.0, seed=3, clock=StandStill(2 + turns))
    assert (after.stopped, after.deals) == ("time_budget", 2)
    assert [c.playouts for c in after.candidates] == [2] * len(whole.candidates)


def test_a_tiny_budget_still_plays_one_deal_per_candidate() -> None:
    position = position_of(small_position())
    ticks = iter(range(10**6))
    result = search(position, None, samples=100, time_budget=1e-9, seed=1, clock=lambda: next(ticks) * 1.0)
    assert result.stopped == "time_budget" and result.deals == 1
    assert all(c.playouts == 1 for c in result.candidates)


def test_a_search_stopped_by_its_budget_ends_its_progress_where_its_result_does() -> None:
    """The progress a job shows (deals done) was the last multiple of 50 when the time budget stopped a search in
    between (500 shown, 529 in the result): the last report is the deals the result counts. The clock is read
    thousands of times; it passes the budget at its 1,000th reading."""
    position = position_of(small_position())
    readings = itertools.count()
    seen: list[tuple[int, int]] = []
    result = search(position, None, samples=5000, time_budget=1.0, seed=1, min_samples=10**6,
                    clock=lambda: 0.0 if next(readings) < 1_000 else 2.0,
                    progress=lambda done, total: seen.append((done, total)))
    assert result.stopped == "time_budget" and result.deals % 50 != 0
    assert seen[-1] == (result.deals, 5000) and seen[-2] == (result.deals // 50 * 50, 5000)


def test_progress_is_reported_every_50_deals() -> None:
    position = position_of(small_position())
    seen: list[tuple[int, int]] = []
    search(position, None, samples=120, time_budget=60, seed=1, min_samples=10**6,
           progress=lambda done, total: seen.append((done, total)))
    assert seen == [(50, 120), (100, 120), (120, 120)]


@pytest.mark.parametrize(("candidates", "field"), [
    (["rG"], "candidates.0"),  # a General is never discarded
    (["yH", "wG"], "candidates.1"),
    (["gA"], "candidates.0"),  # not in the hand
    ([], "candidates"),
])
def test_candidates_must_be_legal_discards(candidates: list[str], field: str) -> None:
    position = position_of(small_position())
    with pytest.raises(DomainError) as caught:
        search(position, [position.card(c) for c in candidates], samples=5, time_budget=5, seed=1)
    assert caught.value.field == field


@pytest.mark.parametrize(("limits", "field"), [
    ({"samples": 0}, "samples"), ({"time_budget": 0}, "time_budget"), ({"confidence": 1.0}, "confidence"),
    ({"min_samples": 0}, "min_samples"),
])
def test_search_limits_are_checked(limits: dict[str, Any], field: str) -> None:
    position = position_of(small_position())
    with pytest.raises(DomainError) as caught:
        search(position, None, **{"samples": 5, "time_budget": 5.0, "seed": 1, **limits})
    assert caught.value.field == field


@pytest.mark.parametrize("payload", [
    {"ruleset": "cardavia-flowers", "hand": [f"{c}G" for c in "rygw" for _ in range(4)] + ["F1", "F2", "F3", "F4",
                                                                                         "F5"]},
    {"ruleset": "cardavia-chan", "hand": "2m 2m 3s 3s 4c 4c 5m 5m 6s 6s 7c 8m 8s 9c 9c CC CC 2s 3m 4m".split(),
     "history": {"dead_hand": True}},
], ids=["only_generals_and_flowers", "chan_dead_hand"])
def test_a_hand_without_a_legal_discard_is_refused(payload: dict[str, Any]) -> None:
    position = position_of({"seats": 4, "seat": 0, **payload})
    with pytest.raises(DomainError) as caught:
        search(position, None, samples=5, time_budget=5, seed=1)
    assert caught.value.field == "hand" and caught.value.code == "no_legal_discard"


def test_forgetting_the_memo_changes_nothing_but_speed(monkeypatch: pytest.MonkeyPatch) -> None:
    position = position_of(sample_position("cardavia-chan")[0])
    remembered = search(position, None, samples=30, time_budget=60, seed=2).to_json()
    monkeypatch.setattr(player, "MEMO_LIMIT", 3)
    forgetful = search(position, None, samples=30, time_budget=60, seed=2).to_json()
    assert without_timing(forgetful) | {"analyses": 0} == without_timing(remembered) | {"analyses": 0}
    assert forgetful["analyses"] > remembered["analyses"]


@pytest.mark.slow  # over 2 s on 2 cores
def test_versus_first_is_the_paired_difference_deal_by_deal() -> None:
    """Each later candidate's `versus_first` is the mean of its settlement minus the first candidate's on each
    deal, recomputed here by playing every deal as the search deals it; its interval is the normal one of those
    differences, far narrower than the candidates' own intervals (the deal's luck cancels)."""
    import math
    import random
    from statistics import NormalDist, stdev

    from service.search.families import deal_for, play, table_of

    position = position_of(sample_position("bga-taiwan")[0])
    result = search(position, None, samples=60, time_budget=60, seed=3, min_samples=10**9)
    first = next(c for c in result.candidates if c.exact_rank == min(x.exact_rank for x in result.candidates))
    assert first.versus_first is None
    table = table_of(position)
    order = [card for card, _ in table.start.ranking[:len(result.candidates)]]
    assert order[0] == first.card
    outcomes: dict[int, list[int]] = {card: [] for card in order}
    for i in range(60):
        rng = deal_rng(3, i)
        deal = deal_for(table, rng)  # the search's own dealing (shaped by default)
        play_seed = rng.getrandbits(64)
        for card in order:
            outcomes[card].append(play(table, card, deal, random.Random(play_seed)).delta)
    z = NormalDist().inv_cdf(0.975)
    for stats in result.candidates:
        if stats.card == first.card:
            continue
        diffs = [b - a for a, b in zip(outcomes[first.card], outcomes[stats.card])]
        mean = sum(diffs) / len(diffs)
        half = z * stdev(diffs) / math.sqrt(len(diffs))
        assert stats.versus_first.mean == pytest.approx(mean)
        assert stats.versus_first.low == pytest.approx(mean - half)
        assert stats.versus_first.mean == pytest.approx(stats.expected_settlement.mean - first.expected_settlement.mean)
