"""Schemas of POST /v1/discards: a hand about to discard, what the player has seen, and the ranking."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from ..common import (
    READER_LANGUAGE,
    BoundedList,
    EchoSchema,
    ExposedMeldSchema,
    RulesetRequestSchema,
    card_field,
    card_list,
    integer,
)
from ..hands.schemas import HistorySchema

MAX_VISIBLE = 120


LOWERING_DESCRIPTION = ("bga-taiwan, for the discards that leave the least paying distance (1 to 4): unseen "
                        "copies of the cards that bring the hand one replacement closer to a win that pays, the "
                        "ranking's third key; null for the other discards, for a hand already waiting on a win "
                        "that pays, and where every win pays")
RICH_DESCRIPTION = ("bga-taiwan, where each opponent pays every point over the threshold (win_payment `excess`, the "
                    "default), for the discards that leave the least paying distance: fewest cards to replace before "
                    "one more card wins with at least the threshold's points plus 5 (15 by default: each opponent "
                    "then pays 6, against 1 at the threshold), counted as `paying_distance` is; the ranking's second "
                    "key, before `paying_improving`; 6 means 6 or more. Null for the other discards, where every win "
                    "pays and under a flat win payment")
PAYING_DESCRIPTION = ("bga-taiwan: fewest cards to replace before one more card wins with at least the threshold's "
                      "points (exposed melds at their exposed values, the concealed ones at their concealed values, "
                      "no lucky card), the ranking's first key: a win under the threshold costs the winner; 6 means "
                      "6 or more; 0 = waiting on a win that pays. Null where every win pays (cardavia-flowers, "
                      "cardavia-chan): there `distance` comes first")


class DiscardsRequestSchema(RulesetRequestSchema):
    """A hand that must discard now (Four Color Cards: 21 cards with the exposed melds; Chắn: 20)."""

    hand = card_list(required=True, validate=validate.Length(max=64), metadata={
        "description": "concealed cards, including the card just taken (or the dealer's full deal)"})
    exposed = BoundedList(fields.Nested(ExposedMeldSchema), load_default=list, validate=validate.Length(max=21))
    visible = card_list(load_default=list, validate=validate.Length(max=MAX_VISIBLE), metadata={
        "description": "every other card the player has seen: discards, turned-up stock cards and the other "
                       "players' exposed melds (a claimed card once, inside its meld). Unseen copies = the deck "
                       "minus the player's own cards minus these."})
    seats = integer(load_default=4, validate=validate.Range(min=2, max=4), metadata={
        "description": "players at the table (settlement of each wait depends on it)"})
    seat = integer(load_default=0, validate=validate.Range(min=0, max=3), metadata={
        "description": "the player's seat: waits list the seats whose discards they can be won on"})
    history = fields.Nested(HistorySchema, load_default=None, allow_none=True, metadata={
        "description": "cardavia-chan: the player's earlier moves (capture rules 3 and 6 bar some discards)"})


class WaitSchema(ma.Schema):
    """A card that completes a win after this discard."""

    card = card_field(required=True)
    unseen = fields.Integer(required=True, metadata={"description": "copies the player has not seen"})
    claims = fields.List(fields.String(metadata={"enum": ["discard", "stock", "chiu"]}), required=True, metadata={
        "description": "how the card can be won: another player's `discard`, a turned-up `stock` card, a `chiu` "
                       "(Chắn: holding three, even on a discard). Generals and flowers are never discarded, so "
                       "a wait on one is `stock` only"})
    from_seats = fields.List(fields.Integer(), required=True, metadata={
        "description": "seats whose discard of this card the player can win on (empty for a stock-only wait)"})
    points = fields.Integer(required=True, metadata={
        "description": "points of the win (Four Color Cards: exposed + concealed melds, no lucky card; Chắn: the "
                       "score on another player's stock card; Ù chì on one's own gate adds to it)"})
    gain = fields.Integer(required=True, metadata={
        "description": "the player's settlement on that win (negative: a bga-taiwan hu under the threshold "
                       "costs the caller); the points where the rule-set has no payments"})


class CardCountSchema(ma.Schema):
    """A card and how many copies are unseen."""

    card = card_field(required=True)
    unseen = fields.Integer(required=True)


#: The `value` of an option, in /v1/discards and /v1/claims.
VALUE_DESCRIPTION = (
    "the option's value (docs/advice.md#value): the seat's expected settlement of the round in the rule-set's "
    "unit (points; the chance to win, in [0, 1], where nobody pays) if it plays this option and then plays on as "
    "the advice does; a win: its settlement (1 where nobody pays). The values never rise along the ranking: the "
    "first option is worth most, options ranked 1 as much as it. Learned at 4 seats under the default options; "
    "null under other options or seat counts, where the model does not apply")


class DiscardOptionSchema(ma.Schema):
    """One legal discard with what it leaves."""

    card = card_field(required=True)
    unseen = fields.Integer(required=True, metadata={
        "description": "copies of the discarded card the player has not seen: between discards that leave equally "
                       "good hands, the one with fewer unseen copies ranks first"})
    rank = fields.Integer(required=True, metadata={"description": "1 = best; equal rankings share a rank"})
    reason = fields.String(required=True, metadata={"description": READER_LANGUAGE})
    distance = fields.Integer(required=True, metadata={
        "description": "fewest cards to replace before one more card wins; 0 = waiting"})
    paying_distance = fields.Integer(required=True, allow_none=True, metadata={"description": PAYING_DESCRIPTION})
    paying_improving = fields.Integer(required=True, allow_none=True, metadata={"description": LOWERING_DESCRIPTION})
    rich_distance = fields.Integer(required=True, allow_none=True, metadata={"description": RICH_DESCRIPTION})
    waits = fields.List(fields.Nested(WaitSchema), required=True)
    improving = fields.List(fields.Nested(CardCountSchema), required=True, metadata={
        "description": "cards that bring the hand one replacement closer (when waiting: the waits)"})
    improving_unseen = fields.Integer(required=True)
    expected_gain = fields.Float(required=True, metadata={
        "description": "sum over waits of unseen copies x gain (when positive) / all unseen cards: the expected "
                       "gain on the next card turned up from the stock, where every unseen card is equally likely "
                       "(exact for every wait, stock-only ones included; discards are the other players' choice "
                       "and are not counted)"})
    sets_kept = fields.Integer(required=True, allow_none=True, metadata={
        "description": "Chắn: what the cards left (hand and exposed pairs) keep of the Tôm and Lèo sets, each of which "
                       "adds to the score of any win: 3 per full set (no card serving twice) plus 1 per distinct card "
                       "of the best unfinished set, for the round's Tôm set and for the Lèo; between discards that "
                       "leave the same distance and expected gain, the more kept ranks first "
                       "(docs/advice.md#tôm-and-lèo-sets). Null in Four Color Cards"})
    value = fields.Float(required=True, allow_none=True, metadata={"description": VALUE_DESCRIPTION})


class DiscardsResponseSchema(EchoSchema):
    """Every legal discard, best first."""

    distance = fields.Integer(required=True, metadata={
        "description": "the hand as it stands: fewest cards to replace for a complete win (0: it wins now)"})
    unseen_total = fields.Integer(required=True)
    best = fields.List(card_field(), required=True, metadata={"description": "the discards ranked 1"})
    discards = fields.List(fields.Nested(DiscardOptionSchema), required=True, metadata={
        "description": "empty when no card may be discarded (only Generals and flowers; Chắn: rules 2, 3, 6)"})
