"""Whether predicted losses mean something: the criterion bench/counterfactual.py judges a value model by.

Each record pairs a predicted loss p (the value of the advice's first option minus the other option's, as the
review charges it) with the loss realised r (the deciding seat's settlement in the first option's branch minus the
other's). A single r is one round's luck, so the test is on the whole set:

- `slope`: the least-squares slope of r on p with its 95% interval (heteroscedasticity-robust, HC0: the variance
  of r differs a lot between decisions). A perfect value has slope 1; a value that overcharges large losses by a
  fifth has 0.8; a constant has no slope at all (its predictions do not vary), so it fails;
- `gain`: the squared-error gain over the best constant, mean((r - c)^2 - (r - p)^2) with c the mean of r on the
  very same data (the constant that does best there, a bar no fitted constant can beat), with its 95% interval and
  as a share of mean((r - c)^2). Above 0 at 95% means the predictions order and size the losses better than any
  constant; a constant predictor scores at most 0, so it fails;
- `bias`: mean(p - r) with its 95% interval (the review's prices too high on average when positive).

`verdict` says whether a slope at least `SLOPE_FLOOR` with 1 inside its interval and a gain above 0 at 95% were
met. `constant` gives the same figures for the constant predictor that says the mean predicted loss every time,
on the same records: the demonstration that the criterion is not passed by a constant.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Any

Z = 1.959963984540054  # the two-sided 95% normal quantile
SLOPE_FLOOR = 0.85


def mean_interval(values: Sequence[float]) -> dict[str, float]:
    """Mean and 95% normal interval (the sample standard deviation over sqrt(n))."""
    mean = statistics.fmean(values)
    half = Z * statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else 0.0
    return {"mean": mean, "low": mean - half, "high": mean + half}


def slope(pairs: Sequence[tuple[float, float]]) -> dict[str, float] | None:
    """Least-squares slope of realised on predicted with its HC0-robust 95% interval; None when the predictions do
    not vary (a constant) or there are fewer than 3 pairs."""
    n = len(pairs)
    if n < 3:
        return None
    p_mean = statistics.fmean(p for p, _ in pairs)
    r_mean = statistics.fmean(r for _, r in pairs)
    sxx = sum((p - p_mean) ** 2 for p, _ in pairs)
    if sxx <= 1e-12 * n:
        return None
    b = sum((p - p_mean) * (r - r_mean) for p, r in pairs) / sxx
    a = r_mean - b * p_mean
    variance = sum(((p - p_mean) * (r - a - b * p)) ** 2 for p, r in pairs) / sxx ** 2 * n / (n - 2)
    half = Z * variance ** 0.5
    return {"mean": b, "low": b - half, "high": b + half}


def gain(pairs: Sequence[tuple[float, float]]) -> dict[str, float]:
    """The squared-error gain over the best constant (the mean realised), per decision, with its interval and its
    share of the constant's squared error."""
    c = statistics.fmean(r for _, r in pairs)
    differences = [(r - c) ** 2 - (r - p) ** 2 for p, r in pairs]
    out = mean_interval(differences)
    baseline = statistics.fmean((r - c) ** 2 for _, r in pairs)
    out["share"] = out["mean"] / baseline if baseline else 0.0
    return out


def judged(pairs: Sequence[tuple[float, float]]) -> dict[str, Any]:
    """Slope, gain, bias and the verdict of one set of (predicted, realised) pairs."""
    s = slope(pairs)
    g = gain(pairs)
    return {"slope": s, "gain": g, "bias": mean_interval([p - r for p, r in pairs]),
            "verdict": s is not None and s["mean"] >= SLOPE_FLOOR and s["low"] <= 1 <= s["high"] and g["low"] > 0}


def constant(pairs: Sequence[tuple[float, float]]) -> dict[str, Any]:
    """`judged` for the predictor that says the mean predicted loss every time, on the same realised losses."""
    k = statistics.fmean(p for p, _ in pairs)
    return judged([(k, r) for _, r in pairs])


def one(x: dict[str, float] | None, digits: int = 3) -> str:
    """A figure and its interval, or `none`."""
    if x is None:
        return "none (the predictions do not vary)"
    return f"{x['mean']:+.{digits}f} [{x['low']:+.{digits}f}, {x['high']:+.{digits}f}]"


def lines(name: str, figures: dict[str, Any]) -> list[str]:
    """The figures of `judged` as text lines."""
    g = figures["gain"]
    return [f"{name}: slope {one(figures['slope'])}; squared-error gain over the best constant {one(g, 4)} "
            f"({g['share']:+.1%}); predicted - realised {one(figures['bias'])}; criterion "
            f"{'met' if figures['verdict'] else 'NOT met'}"]
