"""The arena's figures checked against values worked by hand on tiny made-up tables."""

from __future__ import annotations

import math

import pytest

from service.arena.duplicate import SeatResult
from service.arena.stats import interval, per_deal, summary


def test_interval_of_three_values_by_hand():
    # values 1, 2, 6: mean 3; deviations -2, -1, 3; squares 4 + 1 + 9 = 14; sd = sqrt(14 / 2) = sqrt(7)
    # half-width 1.96 * sqrt(7) / sqrt(3) = 1.96 * 1.527525 = 2.993949
    found = interval([1.0, 2.0, 6.0])
    assert found.mean == pytest.approx(3.0)
    assert found.high - found.mean == pytest.approx(2.993949, abs=1e-6)
    assert found.low == pytest.approx(3.0 - 2.993949, abs=1e-6)
    assert found.excludes_zero()  # [0.006051, 5.993949]: wholly above 0, barely


def test_an_interval_wholly_above_zero_excludes_it():
    # values 4, 6: mean 5, sd = sqrt((1 + 1) / 1) = 1.414214, half = 1.96 * 1.414214 / 1.414214 = 1.96
    found = interval([4.0, 6.0])
    assert (found.low, found.high) == (pytest.approx(3.04), pytest.approx(6.96))
    assert found.excludes_zero()


def test_one_value_has_no_interval():
    found = interval([2.5])
    assert (found.mean, found.low, found.high) == (2.5, None, None)
    assert not found.excludes_zero()


def rounds(*deltas_by_rotation, names, winners):
    """Results of one deal: per rotation the seats' deltas, the names seated, the winner seat."""
    return [[SeatResult(names[r][s], d, s == winners[r], 10 if s == winners[r] else 0) for s, d in enumerate(row)]
            for r, row in enumerate(deltas_by_rotation)]


# Two made-up deals of A, B, B, B over 4 seats in 2 rotations only (enough to check the arithmetic):
# rotation 0 seats A B B B, rotation 1 seats B A B B.
NAMES = [["A", "B", "B", "B"], ["B", "A", "B", "B"]]
DEAL1 = rounds([9, -3, -3, -3], [-3, 9, -3, -3], names=NAMES, winners=[0, 1])
DEAL2 = rounds([-4, 12, -4, -4], [-2, -2, 6, -2], names=NAMES, winners=[1, 2])


def test_per_deal_values_are_means_over_the_seats_a_policy_played():
    # deal 1: A played 9 and 9 -> 9; B played -3 x 6 -> -3. deal 2: A played -4 and -2 -> -3;
    # B played 12, -4, -4, -2, 6, -2 -> 6 / 6 = 1.
    assert per_deal([DEAL1, DEAL2], ["A", "B"], "settlement") == [{"A": 9.0, "B": -3.0}, {"A": -3.0, "B": 1.0}]


def test_summary_by_hand():
    found = summary([DEAL1, DEAL2], ["A", "B"], "settlement")
    a, b = found["per_policy"]
    # A per deal 9, -3: mean 3, sd = sqrt((36 + 36) / 1) = 8.485281, half = 1.96 * 8.485281 / sqrt(2) = 11.76
    assert a["score"]["mean"] == 3.0
    assert a["score"]["low"] == pytest.approx(3 - 11.76) and a["score"]["high"] == pytest.approx(3 + 11.76)
    # A's 4 rounds: won in deal 1 twice (9, 9), paid in deal 2 twice (-4, -2)
    assert (a["win_rate"], a["pay_rate"], a["mean_win_points"], a["rounds"]) == (0.5, 0.5, 10.0, 4)
    # B's 12 rounds: won twice (12 and 6, deal 2); paid the 10 others
    assert (b["win_rate"], b["pay_rate"], b["rounds"]) == (pytest.approx(2 / 12, abs=1e-6),
                                                           pytest.approx(10 / 12, abs=1e-6), 12)
    (pair,) = found["pairs"]
    # differences A - B per deal: 9 - (-3) = 12, -3 - 1 = -4: mean 4, sd = sqrt((64 + 64) / 1) = 11.313708,
    # half = 1.96 * 11.313708 / sqrt(2) = 15.68: [-11.68, 19.68], which holds 0
    assert (pair["a"], pair["b"]) == ("A", "B")
    assert pair["difference"]["mean"] == 4.0
    assert pair["difference"]["low"] == pytest.approx(-11.68) and pair["difference"]["high"] == pytest.approx(19.68)
    assert pair["excludes_zero"] is False


def test_the_win_measure_counts_wins_not_points():
    found = summary([DEAL1, DEAL2], ["A", "B"], "win")
    a, b = found["per_policy"]
    # A wins both rounds of deal 1 (1.0) and none of deal 2 (0.0); B: deal 1 0/6, deal 2 2/6
    assert a["score"]["mean"] == 0.5
    assert b["score"]["mean"] == pytest.approx((0 + 2 / 6) / 2, abs=1e-6)
    assert math.isclose(found["pairs"][0]["difference"]["mean"], 0.5 - 1 / 6, abs_tol=1e-6)
