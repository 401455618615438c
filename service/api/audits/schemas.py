"""Schemas of POST /v1/audits and the published game-log schema."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from ...replay.log import MAX_EVENTS
from ...rules.registry import all_rulesets
from ..common import BoundedList, EchoSchema, RulesetRequestSchema, card_field, card_list, integer, is_str

EVENT_KINDS = sorted({t for ruleset in all_rulesets() for t in ruleset.event_types})


class LogEventSchema(ma.Schema):
    """One event of a round, in order."""

    seat = integer(required=True, validate=validate.Range(min=0, max=3))
    type = fields.String(required=True, validate=validate.OneOf(EVENT_KINDS), metadata={
        "description": "Four Color Cards: discard, draw, claim, hu. Chắn: discard, capture, draw, chiu, win, pass"})
    card = card_field("the card discarded, drawn (may be omitted when `stock` is given) or captured",
                      load_default=None, allow_none=True)
    meld = fields.String(load_default=None, allow_none=True, metadata={
        "description": "claim / capture: the meld or pair kind formed with the public card"})
    cards = card_list(load_default=None, allow_none=True, validate=validate.Length(min=1, max=4), metadata={
        "description": "claim / capture: every card of the meld or pair, the public card included"})


EVENT_FIELDS = frozenset(LogEventSchema._declared_fields)
SEATS = range(4)


def plain_event(event: object) -> bool:
    """An event LogEventSchema would load unchanged (the log parser checks it against the log, naming the field):
    known keys, a seat 0-3, a known type, card and meld strings, 1-4 card strings. Logs hold thousands."""
    if type(event) is not dict or not event.keys() <= EVENT_FIELDS or type(event.get("seat")) is not int:
        return False
    card, meld, cards = event.get("card"), event.get("meld"), event.get("cards")
    return (event["seat"] in SEATS and event.get("type") in EVENT_KINDS and (card is None or type(card) is str)
            and (meld is None or type(meld) is str)
            and (cards is None or (type(cards) is list and 1 <= len(cards) <= 4 and all(map(is_str, cards)))))


class LogResultSchema(ma.Schema):
    """What the source recorded as the round's result."""

    type = fields.String(validate=validate.OneOf(["hu", "win", "draw"]))
    winner = integer(allow_none=True)
    points = integer(allow_none=True)
    deltas = BoundedList(integer(), allow_none=True, validate=validate.Length(max=4))


class GameLogSchema(RulesetRequestSchema):
    """One round: the deal, the stock in draw order, the events, and the recorded result (docs/rules.md#logs)."""

    seats = integer(required=True, validate=validate.Range(min=2, max=4))
    dealer = integer(load_default=0, validate=validate.Range(min=0, max=3))
    hands = BoundedList(card_list(validate=validate.Length(max=21)), required=True,
                        validate=validate.Length(min=2, max=4), metadata={"description": "each seat's initial deal"})
    stock = card_list(load_default=None, allow_none=True, validate=validate.Length(max=117), metadata={
        "description": "the undealt cards in the order they are turned up"})
    events = BoundedList(fields.Nested(LogEventSchema), plain=plain_event, required=True,
                         validate=validate.Length(max=MAX_EVENTS))
    result = fields.Nested(LogResultSchema, load_default=None, allow_none=True)


class ViolationSchema(ma.Schema):
    """One illegal move: the event index (null for the result), the seat, a stable code and the rule."""

    event = fields.Integer(required=True, allow_none=True)
    seat = fields.Integer(required=True, allow_none=True)
    code = fields.String(required=True)
    message = fields.String(required=True)
    rule = fields.String(required=True, metadata={
        "description": "the rule the code enforces: its docs/rules.md anchor, then the rule in short"})


class OutcomeLineSchema(ma.Schema):
    """One settlement step."""

    step = fields.String(required=True)
    text = fields.String(required=True)
    points = fields.Integer(required=True)


class OutcomeSchema(ma.Schema):
    """The recomputed outcome: hu/win (winner, points, deltas, breakdown), draw, or incomplete."""

    type = fields.String(required=True, metadata={"enum": ["hu", "win", "draw", "incomplete"]})
    winner = fields.Integer(allow_none=True)
    points = fields.Integer(allow_none=True)
    deltas = fields.List(fields.Integer(), allow_none=True)
    breakdown = fields.List(fields.Nested(OutcomeLineSchema))


class AuditArgsSchema(ma.Schema):
    """What the audit answers besides the violations and the outcome."""

    tables = fields.Boolean(load_default=False, metadata={
        "description": "true: also the table after every event (`tables`), for a replay viewer"})


class ExposedSchema(ma.Schema):
    """A meld or pair a seat has laid open."""

    kind = fields.String(required=True)
    cards = fields.List(card_field(), required=True)


class OfferSchema(ma.Schema):
    """The card on offer: where it came from, the seat it came from (Chắn: the gate it lies at), the claims
    listed on it and not yet resolved (they are resolved by the next event of another kind)."""

    card = card_field(required=True)
    source = fields.String(required=True, metadata={"enum": ["discard", "draw", "stock"]})
    seat = fields.Integer(required=True)
    claims = fields.Integer(required=True)


class TableSchema(ma.Schema):
    """The table after one event, as a referee sees it."""

    event = fields.Integer(required=True)
    hands = fields.List(fields.List(card_field()), required=True, metadata={
        "description": "every seat's concealed cards, sorted"})
    exposed = fields.List(fields.List(fields.Nested(ExposedSchema)), required=True)
    public = fields.Nested(OfferSchema, required=True, allow_none=True)
    to_discard = fields.Integer(required=True, allow_none=True, metadata={"description": "the seat to discard"})
    stock = fields.Integer(required=True, metadata={"description": "stock cards left"})


class AuditResponseSchema(EchoSchema):
    """The audit of one log."""

    valid = fields.Boolean(required=True, metadata={"description": "no violation at all"})
    violations = fields.List(fields.Nested(ViolationSchema), required=True)
    outcome = fields.Nested(OutcomeSchema, required=True)
    recorded_result_matches = fields.Boolean(required=True, allow_none=True, metadata={
        "description": "null when the log records no result"})
    events = fields.Integer(required=True)
    tables = fields.List(fields.Nested(TableSchema), metadata={
        "description": "with `?tables=true`: the table after each replayed event (none after a violation that "
                       "stops the replay)"})
