"""Oversized and malformed requests are refused fast, with a short answer: long lists of invalid items, long
strings, deep nesting, huge and non-integer numbers."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from unittest import mock

import pytest
from marshmallow import fields

from service.api.audits.schemas import GameLogSchema, LogEventSchema
from service.api.common import MAX_ITEM_ERRORS, BoundedDict, BoundedList, Number
from service.api.discards.schemas import DiscardsRequestSchema
from service.api.hands.schemas import MeldsRequestSchema
from service.api.replays.schemas import ReplayRequestSchema
from service.api.searches.schemas import SearchRequestSchema
from service.api.settlements.schemas import MatchRequestSchema, SettlementRequestSchema
from service.http.errors import MAX_REPORTED_ERRORS

REQUEST_SCHEMAS = (GameLogSchema, DiscardsRequestSchema, MeldsRequestSchema, ReplayRequestSchema,
                   SearchRequestSchema, MatchRequestSchema, SettlementRequestSchema)
HAND = ["rG", "rA", "rE", "yC", "yC"]


@contextlib.contextmanager
def fields_read() -> Iterator[list[int]]:
    """Counts the values marshmallow's fields deserialise within the block (every field of every item of every
    list goes through `Field.deserialize`): the work a request's checks do, whatever the machine's speed. What
    the worst bodies cost in time is measured by bench/oversized.py."""
    count = [0]
    deserialize = fields.Field.deserialize

    def counted(self: fields.Field, *args: object, **kwargs: object) -> object:
        count[0] += 1
        return deserialize(self, *args, **kwargs)

    with mock.patch.object(fields.Field, "deserialize", counted):
        yield count


def post(client, path: str, body: object) -> tuple[object, int]:
    """POST a JSON body (a str is sent as is); the response and the number of field values its checks read."""
    data = body if isinstance(body, str) else json.dumps(body)
    with fields_read() as count:
        response = client.post(path, data=data, content_type="application/json")
    return response, count[0]


#: The fields of one event of a game log.
EVENT_FIELDS = len(LogEventSchema().fields)


@pytest.mark.parametrize(("path", "body", "field"), [
    ("/v1/replays", {"logs": [{}] * 100_000}, "logs"),
    ("/v1/audits", {"ruleset": "bga-taiwan", "seats": 4, "hands": [[]] * 4, "events": [{}] * 100_000}, "events"),
    ("/v1/hu", {"ruleset": "bga-taiwan", "hand": [1] * 300_000}, "hand"),
    ("/v1/matches", {"ruleset": "bga-taiwan", "seats": 2, "rounds": [["x"]] * 100_000}, "rounds"),
    ("/v1/hu", {"ruleset": "bga-taiwan", "hand": HAND, "options": {str(i): i for i in range(100_000)}}, "options"),
])
def test_a_long_list_is_refused_before_its_items_are_checked(client, path, body, field):
    """(Checking every item first took 2-7 s for these on a 2-core machine.) Only the request's own fields are
    read (a few), none of the list's 100,000 items or more."""
    response, read = post(client, path, body)
    assert response.status_code == 422
    assert list(response.json["errors"]) == [field]
    assert read < 50
    assert len(response.data) < 1000


def test_a_log_of_invalid_events_reports_a_capped_list(client):
    """2,000 empty events (the most a log may hold): 50 are checked and reported, not 4,000 errors."""
    body = {"ruleset": "bga-taiwan", "seats": 4, "hands": [[]] * 4, "events": [{}] * 2000}
    response, read = post(client, "/v1/audits", body)
    assert response.status_code == 422
    errors = response.json["errors"]
    assert len(errors) == MAX_REPORTED_ERRORS
    assert "events" not in errors or "not checked" in errors["events"][0]
    assert response.json["errors_omitted"] > 0
    assert len(response.json["detail"]) < 400
    empty = post(client, "/v1/audits", {**body, "events": []})[1]
    assert read <= empty + MAX_ITEM_ERRORS * (1 + EVENT_FIELDS)  # each field of 50 events, not of 2,000


def test_a_batch_of_invalid_logs_stops_after_the_cap(client):
    """200 logs of 2,000 invalid events each: at most 50 logs x 50 events are looked at."""
    log = {"ruleset": "bga-taiwan", "seats": 4, "hands": [[]] * 4, "events": [{}] * 2000}
    response, read = post(client, "/v1/replays", {"logs": [log] * 200})
    assert response.status_code == 422
    assert len(response.json["errors"]) == MAX_REPORTED_ERRORS
    assert "logs.0.events.0.seat" in response.json["errors"]
    per_log = post(client, "/v1/replays", {"logs": [{**log, "events": []}]})[1]  # with the request's own fields
    assert read <= MAX_ITEM_ERRORS * (per_log + MAX_ITEM_ERRORS * (1 + EVENT_FIELDS))  # 50 x 50, not 200 x 2,000


@pytest.mark.parametrize("field", ["hand", "public_card", "ruleset"])
def test_a_huge_string_is_not_echoed(client, field):
    body = {"ruleset": "bga-taiwan", "hand": HAND}
    body[field] = ["x" * 1_000_000] if field == "hand" else "x" * 1_000_000
    response, _ = post(client, "/v1/hu", body)
    assert response.status_code == 422
    assert len(response.data) < 1000
    assert "..." in response.json["detail"]


def test_a_huge_option_name_is_not_echoed(client):
    response, _ = post(client, "/v1/hu", {"ruleset": "bga-taiwan", "hand": HAND, "options": {"o" * 500_000: 1}})
    assert response.status_code == 422
    assert response.json["code"] == "unknown_option"
    assert len(response.data) < 1000


@pytest.mark.parametrize("body", [
    "[" * 100_000 + "]" * 100_000,
    '{"ruleset": "bga-taiwan", "hand": ' + "[" * 100_000 + "]" * 100_000 + "}",
    '{"ruleset": "bga-taiwan", "hand": [], "options": {"threshold": ' + "9" * 1_000_000 + "}}",
    '{"ruleset": "bga-taiwan", "hand": [], "options": {"threshold": 1e400}}',
])
def test_deep_nesting_and_huge_numbers_are_400(client, body):
    """Refused by the JSON parser: no field is read."""
    response, read = post(client, "/v1/hu", body)
    assert response.status_code == 400
    assert response.json["code"] == "malformed_json"
    assert read == 0


def test_nesting_within_the_parser_limit_is_422(client):
    """The hand's first item is refused without looking inside it."""
    body = '{"ruleset": "bga-taiwan", "hand": ' + "[" * 1000 + "]" * 1000 + "}"
    response, read = post(client, "/v1/hu", body)
    assert response.status_code == 422
    assert list(response.json["errors"]) == ["hand.0"]
    assert read < 20


POSITION = {"ruleset": "bga-taiwan", "hand": HAND}
LOG = {"ruleset": "bga-taiwan", "seats": 2, "hands": [[], []], "events": []}


@pytest.mark.parametrize(("path", "body", "field"), [
    ("/v1/settlements", {**POSITION, "seats": 4.5, "winner": 0}, "seats"),
    ("/v1/discards", {**POSITION, "seats": 4.5}, "seats"),
    ("/v1/discards", {**POSITION, "seats": "4"}, "seats"),
    ("/v1/discards", {**POSITION, "seat": 1.0}, "seat"),
    ("/v1/discards", {**POSITION, "seat": 10**20}, "seat"),
    ("/v1/searches", {**POSITION, "samples": "100"}, "samples"),
    ("/v1/searches", {**POSITION, "samples": 100.5}, "samples"),
    ("/v1/searches", {**POSITION, "seed": 1.5}, "seed"),
    ("/v1/searches", {**POSITION, "time_budget": "2"}, "time_budget"),
    ("/v1/searches", {**POSITION, "stock_remaining": "40"}, "stock_remaining"),
    ("/v1/searches", {**POSITION, "opponents": [{"seat": 1.5}]}, "opponents.0.seat"),
    ("/v1/matches", {"ruleset": "bga-taiwan", "seats": 2, "rounds": [[1.5, -1.5]]}, "rounds.0.0"),
    ("/v1/audits", {**LOG, "dealer": "0"}, "dealer"),
    ("/v1/audits", {**LOG, "result": {"type": "draw", "deltas": [0.5, -0.5]}}, "result.deltas.0"),
    ("/v1/replays", {"logs": [LOG], "review": {"samples": 10.5}}, "review.samples"),
    ("/v1/replays", {"logs": [LOG], "review": {"time_budget": "1"}}, "review.time_budget"),
])
def test_numbers_are_strict(client, path, body, field):
    response, _ = post(client, path, body)
    assert response.status_code == 422
    assert field in response.json["errors"]


def _fields(schema: type, seen: set[type] | None = None):
    """Every field of a schema and of the schemas it nests, with its path."""
    seen = seen if seen is not None else set()
    if schema in seen:
        return
    seen.add(schema)
    for name, field in schema._declared_fields.items():
        yield f"{schema.__name__}.{name}", field
        while isinstance(field, fields.List):
            field = field.inner
            yield f"{schema.__name__}.{name}[]", field
        if isinstance(field, fields.Nested):
            yield from _fields(type(field.schema), seen)


def test_every_request_list_is_bounded_and_every_number_strict():
    """Lists check their length before their items; integers refuse 4.5 and "4"; floats refuse strings."""
    for schema in REQUEST_SCHEMAS:
        for path, field in _fields(schema):
            if isinstance(field, fields.List):
                assert isinstance(field, BoundedList), path
            if isinstance(field, fields.Dict):
                assert isinstance(field, BoundedDict), path
            if isinstance(field, fields.Integer):
                assert field.strict, path
            if isinstance(field, fields.Float):
                assert isinstance(field, Number), path


def test_a_bounded_list_checks_items_until_the_cap():
    items = BoundedList(fields.Integer(strict=True), validate=__import__("marshmallow").validate.Length(max=500))
    with pytest.raises(Exception) as caught:
        items.deserialize(["x"] * 400)
    messages = caught.value.messages
    assert len([k for k in messages if isinstance(k, int)]) == MAX_ITEM_ERRORS
    assert "not checked" in messages["_schema"][0]


def test_a_batch_of_long_valid_logs_is_validated_without_loading_each_event():
    """200 logs of 275 events (about the most 2 MiB holds): well-formed events are not loaded one by one
    (that took 1.3 s and more), the log parser checks them after."""
    from service.replay.families import simulate

    log = simulate("bga-taiwan", 1, 4, "greedy")
    log = {**log, "events": log["events"] + [{"seat": 0, "type": "draw"}] * (275 - len(log["events"]))}
    body = {"logs": [log] * 200}
    with fields_read() as read:
        loaded = ReplayRequestSchema().load(body)
    assert loaded["logs"][0]["events"] == log["events"]
    assert read[0] < 200 * 275  # fewer values read than the batch has events: no event is loaded field by field


@pytest.mark.parametrize(("event", "field"), [
    ({"seat": 0, "type": "draw", "extra": 1}, "events.1.extra"),
    ({"seat": True, "type": "draw"}, "events.1.seat"),
    ({"seat": 0, "type": "draw", "cards": []}, "events.1.cards"),
    ({"seat": 0, "type": "teleport"}, "events.1.type"),
])
def test_a_doubtful_event_is_checked_by_the_schema(client, event, field):
    body = {"ruleset": "bga-taiwan", "seats": 2, "hands": [[], []], "events": [{"seat": 0, "type": "draw"}, event]}
    response, _ = post(client, "/v1/audits", body)
    assert response.status_code == 422
    assert field in response.json["errors"]
