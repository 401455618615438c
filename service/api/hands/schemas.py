"""Schemas of POST /v1/melds and POST /v1/hu."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from ..common import (
    CHAN_CARD,
    READER_LANGUAGE,
    BoundedList,
    EchoSchema,
    HandRequestSchema,
    MeldSchema,
    card_field,
)

ROLES = ["drawer", "next", "other", "discarder"]


class JsonBoolean(fields.Boolean):
    """`true` or `false` only (marshmallow's Boolean also takes 0, 1, "yes" ...)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise self.make_error("invalid")
        return value


def faces(description: str) -> BoundedList:
    """A Chắn history's list of faces (ChanCard codes). Not documented as ChanCard items: outside Chắn the
    engine ignores a history (POST /v1/claims), so an enum there would promise a refusal it does not make."""
    return BoundedList(fields.String(), load_default=list, validate=validate.Length(max=100),
                       metadata={"description": description + "; ChanCard codes"})


class HistorySchema(ma.Schema):
    """Chắn: the player's own earlier moves that capture rules 3-6 depend on (faces as card codes)."""

    discarded = faces("faces he discarded (rule 4: he cannot capture them; rule 6: two suits of one value "
                      "discarded forbid Cạ captures)")
    passed_identical = faces("faces whose identical capture he passed up (rule 3: never discard them or use them in "
                             "a Cạ)")
    played_into_ca = faces("faces he played from hand into a Cạ (rule 4: he cannot capture them)")
    captured_ca = JsonBoolean(load_default=False, metadata={
        "description": "he has captured a Cạ (rule 6: he may never discard both cards of a Cạ)"})
    dead_hand = JsonBoolean(load_default=False, metadata={
        "description": "a dealer with neither a legal opening discard nor a heavenly win: only draws"})


def seat_role_field(description: str) -> fields.String:
    """The seat's role on the public card."""
    return fields.String(load_default=None, allow_none=True, validate=validate.OneOf(ROLES),
                         metadata={"description": description})


def card_source_field(description: str) -> fields.String:
    """Where the public card comes from."""
    return fields.String(load_default=None, allow_none=True, validate=validate.OneOf(["stock", "discard"]),
                         metadata={"description": description})


class HuRequestSchema(HandRequestSchema):
    """A hand; with `public_card` and the seat's `seat_role` or `card_source`, whether the rules let this seat win
    on that card too."""

    seat_role = seat_role_field(
        "with public_card: drawer (turned it up), next (seat after the discarder or drawer), other, discarder. "
        "Given (or card_source given), `hu` is true only when a win on the card is among this seat's legal claims "
        "(docs/rules.md#fc-claims, docs/rules.md#chan-win-stock); else reason `win_not_open`. Without public_card: "
        "422 `missing_public_card`. Default: other.")
    card_source = card_source_field(
        "cardavia-chan: where the public card comes from (a win needs a turned-up stock card, or a Chíu completing "
        "it). Given (or seat_role given), `hu` asks the claim question as seat_role says; without public_card: 422 "
        "`missing_public_card`. Default: discard.")

    #: A request without the claim question is a plain hand request (the hot path).
    PLAIN_DEFAULTS = {"seat_role": None, "card_source": None}


class MeldsRequestSchema(HandRequestSchema):
    """A hand; with `public_card`, also the claims on it for `seat_role`."""

    seat_role = seat_role_field("with public_card: drawer (turned it up), next (seat after the discarder or drawer), "
                                "other, discarder. Default: other.")
    card_source = card_source_field("cardavia-chan: where the public card comes from (a win needs a turned-up stock "
                                    "card). Default: discard.")
    history = fields.Nested(HistorySchema, load_default=None, allow_none=True, metadata={
        "description": "cardavia-chan: what the player did earlier in the round (capture rules 3-6)"})


class ClaimSchema(ma.Schema):
    """A legal claim on the public card: the meld it exposes (or hu) with its priority."""

    kind = fields.String(required=True, metadata={"description": "`hu` or the meld kind"})
    cards = fields.List(card_field(), required=True, allow_none=True,
                        metadata={"description": "meld cards including the public card; null for hu"})
    priority_class = fields.String(required=True)
    priority = fields.Integer(required=True, metadata={"description": "higher wins; ties go by seat order"})
    points = fields.Integer(required=True, metadata={"description": "exposed meld value, or hu points"})
    melds = fields.List(fields.Nested(MeldSchema), required=True, allow_none=True,
                        metadata={"description": "for hu / win: the best decomposition (Chắn: the pairing)"})
    discards = fields.List(card_field(component=CHAN_CARD), required=True, allow_none=True, metadata={
        "description": "cardavia-chan: legal discards after this capture or Chíu (rules 2, 3, 6, 7)"})
    by_chiu = fields.Boolean(required=True, allow_none=True, metadata={
        "description": "cardavia-chan win: completed by a Chíu (the only win on a discard)"})


class MeldsResponseSchema(EchoSchema):
    """Every meld the concealed hand can form, and the claims on the public card if one was given."""

    melds = fields.List(fields.Nested(MeldSchema), required=True)
    public_card = card_field(required=True, allow_none=True)
    seat_role = fields.String(required=True, allow_none=True)
    card_source = fields.String(required=True, allow_none=True)
    claims = fields.List(fields.Nested(ClaimSchema), required=True, allow_none=True)
    legal_discards = fields.List(card_field(component=CHAN_CARD), required=True, allow_none=True, metadata={
        "description": "cardavia-chan without public_card: the faces the player may discard now"})
    must_take = fields.Boolean(required=True, allow_none=True, metadata={
        "description": "the drawer must take this card (a General) unless a higher claim takes it"})


class ReasonSchema(ma.Schema):
    """One reason a hand does not win."""

    code = fields.String(required=True, metadata={"enum": [
        "incomplete_melds", "card_count", "unpaired_cards", "too_few_chan", "chi_chi_rule", "win_not_open"]})
    message = fields.String(required=True, metadata={"description": READER_LANGUAGE})


class HuResponseSchema(EchoSchema):
    """Hu (win) status with the best decomposition; `points` and `melds` are null when hu is false."""

    hu = fields.Boolean(required=True)
    points = fields.Integer(required=True, allow_none=True, metadata={
        "description": "Four Color Cards: exposed + concealed meld points; Chắn: the score from the cards alone "
                       "(bonuses that need the win context come with /v1/settlements)"})
    exposed_points = fields.Integer(required=True, allow_none=True)
    concealed_points = fields.Integer(required=True, allow_none=True)
    melds = fields.List(fields.Nested(MeldSchema), required=True, allow_none=True)
    decompositions = fields.Integer(required=True, metadata={"description": "distinct complete splits"})
    card_count = fields.Integer(required=True)
    public_card = card_field(required=True, allow_none=True)
    reasons = fields.List(fields.Nested(ReasonSchema), required=True, metadata={
        "description": "why the hand does not win (empty when it does)"})
    chan_count = fields.Integer(required=True, allow_none=True, metadata={"description": "Chắn: Chắn pairs"})
    ca_count = fields.Integer(required=True, allow_none=True, metadata={"description": "Chắn: Cạ pairs"})
    unpaired = fields.List(card_field(component=CHAN_CARD), required=True, allow_none=True, metadata={
        "description": "Chắn: cards no pair can take"})
