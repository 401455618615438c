"""What every rated decision of a replay review must satisfy, as docs/advice.md ("Decision review") prices it."""

from __future__ import annotations

import pytest


def priced_as_documented(d: dict) -> None:
    """One rated decision (discard or claim, exact) is priced as docs/advice.md says: with values where the model
    applies (the advised value minus the played one, never negative; a decision ranked 1 or worth the advised
    option agrees and costs 0), else by the one-card expected gains of its ranking."""
    assert d["expected_loss"] >= 0
    if d["rank"] == 1:
        assert d["agreed"] and d["expected_loss"] == 0
    if d["loss_unit"] == "expected_gain":
        assert d["value"] is None and d["best_value"] is None and d["agreed"] == (d["rank"] == 1)
        played = next(r for r in d["ranking"] if r["rank"] == d["rank"])
        assert d["expected_loss"] == pytest.approx(
            max(0.0, d["ranking"][0]["expected_gain"] - played["expected_gain"]), abs=2e-4)
        return
    assert d["loss_unit"] in ("points", "wins") and d["best_value"] == d["ranking"][0]["value"]
    if d["agreed"]:
        assert d["expected_loss"] == 0 and (d["rank"] == 1 or d["value"] == d["best_value"])
    else:
        assert d["expected_loss"] == round(max(0.0, d["best_value"] - d["value"]), 4)
