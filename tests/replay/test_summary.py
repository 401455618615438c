"""A batch's summary (`service/replay/summary.py`): seat names, each player's totals across games, and the
progress a batch starts from."""

from __future__ import annotations

import pytest

from service.replay.summary import initial_progress, player_totals, seat_names
from tests.support.fourcolor_logs import BGA, simulated


def seat(player: str, delta: int | None, won: bool = False, violations: int = 0, review: dict | None = None) -> dict:
    """One seat's statistics as the review gives them, named by player."""
    return {"player": player, "delta": delta, "won": won, "violations": violations, "review": review}


def entry(*seats: dict, index: int = 0) -> dict:
    """A log entry holding only its index in the batch and its seats."""
    return {"index": index, "seats": list(seats)}


@pytest.mark.parametrize(("players", "index", "seats", "names"), [
    pytest.param([["ann", "bao", "cam"]], 0, 3, ["ann", "bao", "cam"], id="names_given_for_the_log"),
    pytest.param([["ann", "bao", "cam"]], 1, 3, ["seat 0", "seat 1", "seat 2"], id="fewer_name_lists_than_logs"),
    pytest.param(None, 0, 4, ["seat 0", "seat 1", "seat 2", "seat 3"], id="no_names_at_all"),
])
def test_seat_names(players, index, seats, names):
    assert seat_names(players, index, seats) == names


def reviewed(discards: tuple, claims: tuple = (0, 0, 0.0), unit: str = "points") -> dict:
    """A seat's review summary from (decisions, agreed, expected loss) of its discards and of its claim
    decisions, with both together as `overall`, every loss in `unit` (as `decisions.seat_summary` gives it)."""
    figures = [{**dict(zip(("decisions", "agreed", "expected_loss"), f, strict=True)), "loss_unit": unit}
               for f in (discards, claims)]
    overall = {k: figures[0][k] + figures[1][k] for k in ("decisions", "agreed", "expected_loss")}
    return {**figures[0], "claims": figures[1], "overall": {**overall, "loss_unit": unit}}


def test_player_totals_run_across_games_in_order():
    """Points add up game after game (the trajectory is the running total); a player seated twice in a batch
    is one player; agreement is over every reviewed discard, null without any; the mean loss is the total over the
    decisions (0 without any); claim decisions are totalled apart, and both together as `overall`."""
    totals = player_totals([
        entry(seat("ann", 6, won=True, review=reviewed((4, 3, 0.25), (2, 1, 0.5))),
              seat("bao", -6, violations=1, review=reviewed((2, 0, 1.5)))),
        entry(seat("bao", 3, won=True, review=reviewed((3, 3, 0.0))),
              seat("ann", -3, review=reviewed((1, 1, 0.125), (1, 1, 0.0))),
              seat("cam", None)),
    ])
    assert list(totals) == ["ann", "bao", "cam"]
    assert totals["ann"] == {"games": 2, "points": 3, "wins": 1, "violations": 0, "trajectory": [6, 3],
                             "decisions": 5, "agreed": 4, "expected_loss": 0.375, "agreement_rate": 0.8,
                             "mean_loss": 0.075, "loss_unit": "points",
                             "claims": {"decisions": 3, "agreed": 2, "expected_loss": 0.5, "agreement_rate": 0.6667,
                                        "mean_loss": 0.1667, "loss_unit": "points"},
                             "overall": {"decisions": 8, "agreed": 6, "expected_loss": 0.875,
                                         "agreement_rate": 0.75, "mean_loss": 0.1094, "loss_unit": "points"},
                             "costliest": []}
    assert totals["bao"]["trajectory"] == [-6, -3] and totals["bao"]["agreement_rate"] == 0.6
    assert totals["bao"]["mean_loss"] == 0.3 and totals["bao"]["claims"]["mean_loss"] == 0
    assert totals["bao"]["claims"]["agreement_rate"] is None and totals["bao"]["overall"]["agreement_rate"] == 0.6
    nothing = {"decisions": 0, "agreed": 0, "expected_loss": 0.0, "agreement_rate": None, "mean_loss": 0.0,
               "loss_unit": None}
    assert totals["cam"] == {"games": 1, "points": 0, "wins": 0, "violations": 0, "trajectory": [0], **nothing,
                             "claims": nothing, "overall": nothing, "costliest": []}


def costly(event: int, loss: float, claim: bool = False) -> dict:
    """One of a seat's costliest decisions as its review lists it."""
    if claim:
        return {"event": event, "card": "rC", "answer": "pass", "best": "triple", "expected_loss": loss,
                "loss_unit": "points"}
    return {"event": event, "card": "wA", "best": ["yA"], "expected_loss": loss, "loss_unit": "points"}


def test_a_players_costliest_decisions_span_his_games_discards_and_claims():
    """His five costliest decisions across every game, discards and claim decisions together, costliest first
    (an equal loss: the earlier game, then the earlier event), each naming its game and kind; another player's
    are not his."""
    first = reviewed((3, 0, 3.0), (1, 0, 0.9))
    first["costliest"] = [costly(4, 1.5), costly(9, 1.0), costly(12, 0.5)]
    first["claims"]["costliest"] = [costly(7, 0.9, claim=True)]
    second = reviewed((2, 0, 2.5))
    second["costliest"] = [costly(3, 1.5), costly(8, 1.0)]
    other = reviewed((1, 0, 9.0))
    other["costliest"] = [costly(5, 9.0)]
    totals = player_totals([entry(seat("ann", 0, review=first), seat("bao", 0, review=other), index=0),
                            entry(seat("ann", 0, review=second), index=1)])
    found = totals["ann"]["costliest"]
    assert [(d["game"], d["kind"], d["event"], d["expected_loss"]) for d in found] == [
        (0, "discard", 4, 1.5), (1, "discard", 3, 1.5), (0, "discard", 9, 1.0), (1, "discard", 8, 1.0),
        (0, "claim", 7, 0.9)]
    assert found[4]["answer"] == "pass" and found[4]["best"] == "triple" and found[0]["best"] == ["yA"]
    assert [d["event"] for d in totals["bao"]["costliest"]] == [5]


def test_a_players_loss_unit_is_that_of_his_games():
    """Games priced in one unit keep it (a game without decisions of that kind does not count); games priced in
    different units (a four-seat game in points, a three-seat one by expected gain) are `mixed`."""
    totals = player_totals([
        entry(seat("ann", 0, review=reviewed((2, 1, 0.5), unit="points")),
              seat("bao", 0, review=reviewed((2, 1, 0.5), unit="points"))),
        entry(seat("ann", 0, review=reviewed((0, 0, 0.0), unit="expected_gain")),
              seat("bao", 0, review=reviewed((1, 0, 0.25), unit="expected_gain"))),
    ])
    assert totals["ann"]["loss_unit"] == "points" and totals["ann"]["mean_loss"] == 0.25
    assert totals["ann"]["claims"]["loss_unit"] == "mixed"  # no claim decision anywhere: both games' units
    assert totals["bao"]["loss_unit"] == totals["bao"]["overall"]["loss_unit"] == "mixed"
    assert totals["bao"]["mean_loss"] == round(0.75 / 3, 4)


def test_initial_progress_counts_events_logs_and_discards():
    logs = list(simulated(BGA, 3, "greedy", 2))
    progress = initial_progress(logs)
    discards = sum(1 for log in logs for event in log["events"] if event["type"] == "discard")
    assert progress == {"events_done": 0, "events_total": sum(len(log["events"]) for log in logs), "logs_done": 0,
                        "logs_total": 2, "decisions_done": 0, "decisions_total": discards}
    assert discards > 0
