"""Schemas of POST /v1/searches: the position the player must discard from, and how long to search."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from ...search.shaping import DEALINGS
from ..common import BoundedList, ExposedMeldSchema, Number, card_list, integer
from ..discards.schemas import DiscardsRequestSchema

MAX_SAMPLES = 200_000
MAX_TIME_BUDGET = 60.0


class OpponentSchema(ma.Schema):
    """Another seat's exposed melds (his concealed cards are unknown and dealt from the unseen cards)."""

    seat = integer(required=True, validate=validate.Range(min=0, max=3))
    exposed = BoundedList(fields.Nested(ExposedMeldSchema), load_default=list, validate=validate.Length(max=21))


class SearchRequestSchema(DiscardsRequestSchema):
    """A position to search: the player's cards, what he has seen, the other seats' melds, the search limits."""

    opponents = BoundedList(fields.Nested(OpponentSchema), load_default=list, validate=validate.Length(max=3),
                            metadata={"description": "exposed melds of the other seats (their cards are not repeated "
                                                     "in `visible`)"})
    stock_remaining = integer(load_default=None, allow_none=True, validate=validate.Range(min=0, max=117),
                                     metadata={"description": "cards left in the stock; default: every unseen card "
                                                              "not in an opponent's hand"})
    candidates = card_list(load_default=None, allow_none=True, validate=validate.Length(min=1, max=21), metadata={
        "description": "discards to compare; default: the four best of the exact ranking"})
    samples = integer(load_default=5000, validate=validate.Range(min=1, max=MAX_SAMPLES), metadata={
        "description": "deals to play out (each candidate is played on the same deals)"})
    time_budget = Number(load_default=5.0, validate=validate.Range(min=0.05, max=MAX_TIME_BUDGET), metadata={
        "description": "seconds of search at most: the answer is the best so far with its intervals"})
    seed = integer(load_default=0, validate=validate.Range(min=0, max=2**63 - 1), metadata={
        "description": "same seed, same samples: same answer"})
    dealing = fields.String(load_default="shaped", validate=validate.OneOf(DEALINGS), metadata={
        "description": "how the other seats' unseen hands are dealt: `shaped` (each improved towards a win by the "
                       "turns played so far, as hands at a table are) or `uniform` (at random from the unseen "
                       "cards)"})
    callback_url = fields.Url(load_default=None, allow_none=True, schemes={"http", "https"}, require_tld=False,
                              metadata={"description": "POSTed the result when the job ends, signed (docs/jobs.md)"})
