"""The criterion bench/counterfactual.py judges a value by (bench/criterion.py), on made-up data whose answer is
known: a value that predicts the expected loss meets it, one that overcharges large losses by half does not, and a
constant never does, whatever the noise of single rounds."""

from __future__ import annotations

import random

import pytest

from bench import criterion


def made_up(n: int, scale: float, offset: float = 0.0, seed: int = 4) -> list[tuple[float, float]]:
    """n (predicted, realised) pairs: predictions spread over [0, 4], each realised loss `scale` times its
    prediction plus `offset` plus one round's noise (sd 3, wider than the predictions' spread)."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        p = rng.uniform(0, 4)
        out.append((p, scale * p + offset + rng.gauss(0, 3)))
    return out


def test_a_value_that_predicts_the_expected_loss_meets_the_criterion():
    figures = criterion.judged(made_up(4000, 1.0))
    assert figures["verdict"] is True
    assert figures["slope"]["low"] <= 1 <= figures["slope"]["high"] and figures["gain"]["low"] > 0
    assert figures["bias"]["low"] <= 0 <= figures["bias"]["high"]


def test_a_value_that_overcharges_large_losses_by_half_fails_on_its_slope():
    figures = criterion.judged(made_up(4000, 0.5))
    assert figures["verdict"] is False and figures["slope"]["high"] < 0.85


def test_a_value_priced_two_points_too_high_gains_nothing_over_a_constant():
    """The order is right (slope 1) but every price is 2 points too high: the squared error is worse than the
    best constant's, so the criterion fails and the bias says why."""
    figures = criterion.judged(made_up(4000, 1.0, offset=-2.0))
    assert figures["verdict"] is False and figures["gain"]["high"] < 0 and figures["bias"]["low"] > 1.5


@pytest.mark.parametrize("scale", [1.0, 0.5, 0.0])
def test_a_constant_never_meets_it(scale):
    """A constant has no slope, and its squared error is never below the best constant's."""
    figures = criterion.constant(made_up(4000, scale))
    assert figures["slope"] is None and figures["gain"]["mean"] <= 0 and figures["verdict"] is False
