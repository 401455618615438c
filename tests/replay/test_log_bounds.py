"""The game-log parser checks sizes before it parses cards, and reads the log's integers strictly."""

from __future__ import annotations

import pytest

from service.replay.families import simulate
from service.replay.log import parse_log
from service.rules.errors import DomainError


@pytest.fixture(scope="module")
def log() -> dict:
    """A legal simulated bga-taiwan round for two."""
    return simulate("bga-taiwan", 1, 2, "greedy")


class Unread(list):
    """A JSON array whose length may be read, and not one of its items."""

    def __iter__(self):
        raise AssertionError("an item of the list was read")

    def __getitem__(self, index):
        raise AssertionError("an item of the list was read")


@pytest.mark.parametrize(("field", "value", "code"), [
    ("stock", Unread(["rG"] * 500_000), "impossible_card_count"),
    ("hands", [Unread(["rG"] * 500_000), []], "wrong_deal_size"),
])
def test_a_huge_list_is_refused_before_its_cards_are_parsed(log, field, value, code):
    with pytest.raises(DomainError) as caught:
        parse_log({**log, field: value})
    assert caught.value.code == code


@pytest.mark.parametrize(("result", "field"), [
    ({"type": "hu", "winner": 1.0, "points": 10}, "result.winner"),
    ({"type": "hu", "winner": 1, "points": "10"}, "result.points"),
    ({"type": "hu", "winner": 1, "deltas": [10.5, -10.5]}, "result.deltas"),
    ({"type": "hu", "winner": 1, "deltas": [1, -1, 0]}, "result.deltas"),
])
def test_the_recorded_result_has_strict_integers(log, result, field):
    with pytest.raises(DomainError) as caught:
        parse_log({**log, "result": result})
    assert caught.value.field == field


def test_a_simulated_result_parses(log):
    assert parse_log(log).result == log.get("result")
