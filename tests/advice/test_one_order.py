"""One order: every option list is ordered by its values as well as by the advice's key, the advice is the option of
highest value, and the review charges exactly the fall of value from the first option, never clipped (docs/advice.md
#value). Checked on every decision, discard and answer to a public card, of simulated rounds of each rule-set
played by greedy seats (their moves are often not the advice's), as the exact review prices them."""

from __future__ import annotations

from typing import Any

import pytest

from service.replay.decisions import ReviewSettings
from service.replay.families import simulate
from service.replay.reviewers import review
from service.rules.registry import all_rulesets

RULESETS = [r.id for r in all_rulesets()]


def decisions(ruleset: str, seeds: int) -> list[dict[str, Any]]:
    """Every priced decision (discards and claims) of every seat of `seeds` simulated 4-seat rounds."""
    out: list[dict[str, Any]] = []
    for seed in range(seeds):
        found, seats = review(simulate(ruleset, seed, 4, "greedy"), ReviewSettings("exact"))
        assert found.valid, found.violations
        for seat in seats:
            out += seat["decisions"] + seat["claim_decisions"]
    return out


@pytest.mark.parametrize("ruleset", RULESETS)
def test_values_fall_as_the_ranks_rise_and_the_review_charges_the_fall(ruleset):
    found = decisions(ruleset, 4)
    assert len(found) > 40
    charged = 0
    for decision in found:
        values = [o["value"] for o in decision["ranking"]]
        ranks = [o["rank"] for o in decision["ranking"]]
        assert all(v is not None for v in values)
        assert values == sorted(values, reverse=True), decision  # one order: by rank and by value
        assert ranks == sorted(ranks)
        assert all(v == values[0] for v, rank in zip(values, ranks) if rank == 1)  # ties of the first lose nothing
        assert decision["best_value"] == values[0]
        loss = decision["expected_loss"]
        assert loss == round(decision["best_value"] - decision["value"], 4) >= 0  # never clipped, never below 0
        assert decision["agreed"] == (loss == 0)  # agreed exactly on the tie; otherwise it costs more than 0
        charged += loss > 0
    assert charged > 0  # greedy seats stray from the advice and are charged for it


def test_a_chance_to_win_stays_inside_zero_and_one():
    """cardavia-flowers values a chance to win (nobody pays): every value of every option lies in [0, 1]."""
    for decision in decisions("cardavia-flowers", 4):
        assert all(0 <= o["value"] <= 1 for o in decision["ranking"]), decision
