"""The hand requests' fast load path gives exactly what marshmallow gives, and leaves every doubtful request
(and so every error) to marshmallow."""

from __future__ import annotations

import marshmallow as ma
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.api.common import HandRequestSchema, plain_hand_request

SCHEMA = HandRequestSchema()
scalars = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.text(max_size=4))
cards = st.one_of(st.sampled_from(["rG", "yA", "wE", "gS", "F1", "2v", "CC"]), st.text(max_size=3), st.integers(0, 9))
requests = st.fixed_dictionaries(
    {}, optional={
        "ruleset": st.one_of(st.sampled_from(["bga-taiwan", "cardavia-chan"]), scalars),
        "hand": st.one_of(st.lists(cards, max_size=70), scalars),
        "options": st.one_of(st.dictionaries(st.one_of(st.text(max_size=6), st.integers(0, 3).map(str)), scalars,
                                             max_size=18), scalars),
        "exposed": st.one_of(st.just([]), st.lists(st.fixed_dictionaries({"kind": st.just("pong"),
                                                                           "cards": st.lists(cards, max_size=3)}),
                                                   max_size=2), scalars),
        "public_card": st.one_of(cards, st.none()),
        "seat": st.integers(0, 3),
    })


def marshmallow_load(data):
    """The request loaded by marshmallow alone, or its error messages."""
    try:
        return ma.Schema.load(SCHEMA, data)
    except ma.ValidationError as error:
        return ("error", error.messages)


@settings(max_examples=400, deadline=None)
@given(requests)
def test_the_fast_path_loads_what_marshmallow_loads(data):
    """Where the fast path answers, marshmallow loads the same request to the same dict; where marshmallow
    refuses, the fast path stays out of the way."""
    fast = plain_hand_request(data)
    slow = marshmallow_load(data)
    if fast is not None:
        assert fast == slow
    if isinstance(slow, tuple):
        assert fast is None
        with pytest.raises(ma.ValidationError):
            SCHEMA.load(data)
    else:
        assert SCHEMA.load(data) == slow


def test_a_plain_request_takes_the_fast_path_and_defaults_are_filled():
    """A request of strings with no exposed meld loads without marshmallow, with its defaults."""
    loaded = plain_hand_request({"ruleset": "bga-taiwan", "hand": ["rG", "yA"]})
    assert loaded == {"ruleset": "bga-taiwan", "options": {}, "hand": ["rG", "yA"], "exposed": [],
                      "public_card": None}


@pytest.mark.parametrize("data", [
    {"ruleset": "bga-taiwan", "hand": ["rG", 3]},  # a card that is not a string
    {"ruleset": "bga-taiwan", "hand": ["rG"] * 65},  # longer than the schema allows
    {"ruleset": "bga-taiwan", "hand": [], "seat": 1},  # a field the schema does not know
    {"ruleset": "bga-taiwan", "hand": [], "exposed": [{"kind": "pong", "cards": ["rG"] * 3}]},
    {"ruleset": "bga-taiwan", "hand": [], "options": {str(i): 1 for i in range(17)}},
    {"hand": []},
])
def test_doubtful_requests_go_to_marshmallow(data):
    """Anything the fast path cannot vouch for is left to marshmallow."""
    assert plain_hand_request(data) is None


def test_only_the_schemas_that_declare_their_defaults_take_the_fast_path(monkeypatch):
    """POST /v1/hu's request (its claim fields optional) loads a plain body to the plain dict and its defaults,
    exactly as marshmallow does; a request of a subclass with a required field of its own (a settlement) never takes
    the fast path, so a body without that field is refused by name."""
    from service.api.hands.schemas import HuRequestSchema
    from service.api.settlements.schemas import SettlementRequestSchema

    plain = {"ruleset": "bga-taiwan", "hand": ["rG", "yA"]}
    hu = HuRequestSchema()
    assert hu.load(plain) == ma.Schema.load(hu, plain) == {**plain_hand_request(plain), "seat_role": None,
                                                           "card_source": None}
    assert HandRequestSchema.PLAIN_DEFAULTS == {} and SettlementRequestSchema.PLAIN_DEFAULTS is None
    monkeypatch.setattr("service.api.common.plain_hand_request", lambda data: pytest.fail("fast path taken"))
    with pytest.raises(ma.ValidationError) as refused:
        SettlementRequestSchema().load(plain)
    assert "winner" in refused.value.messages
