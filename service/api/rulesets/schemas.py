"""Schemas of the rule-set description."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields

from ..common import card_field


class MeldValueSchema(ma.Schema):
    """A meld kind and its points (Chắn: a pair kind; pairs carry no points, bonuses score)."""

    kind = fields.String(required=True)
    exposed = fields.Integer(required=True)
    concealed = fields.Integer(required=True)


class PrioritySchema(ma.Schema):
    """A claim priority class; higher rank wins."""

    class_ = fields.String(required=True, data_key="class", attribute="class")
    rank = fields.Integer(required=True)


class OptionSchema(ma.Schema):
    """A rule option: name, type, default, allowed values and the decision it implements (a docs/rules.md anchor)."""

    name = fields.String(required=True, metadata={"description": "The option's code, as a request's `options` "
                                                                 "names it."})
    label = fields.String(required=True, metadata={"description": "The option's name for people, in the reader's "
                                                                  "language."})
    type = fields.String(required=True, metadata={"enum": ["boolean", "integer", "string"]})
    default = fields.Raw(required=True)
    doc = fields.String(required=True, metadata={"description": "What the option decides, in the reader's "
                                                                "language."})
    rule = fields.String(required=True)
    choices = fields.List(fields.Raw(), metadata={"description": "The values allowed (codes)."})
    choice_labels = fields.List(fields.String(), metadata={"description": "Each choice's name for people, in the "
                                                                          "reader's language, in the order of "
                                                                          "`choices`."})
    minimum = fields.Integer()
    maximum = fields.Integer()


class DecisionSchema(ma.Schema):
    """A decision of the rules that is no option of its own: fixed, or refined by the option it names."""

    name = fields.String(required=True)
    doc = fields.String(required=True)
    rule = fields.String(required=True)
    option = fields.String(required=True, allow_none=True, metadata={
        "description": "the option that refines this decision; null: fixed, the rules give no alternative"})


class BonusSchema(ma.Schema):
    """A Chắn bonus: main value, dịch value and condition."""

    name = fields.String(required=True)
    main = fields.Integer(required=True)
    dich = fields.Integer(required=True)
    condition = fields.String(required=True)


class SeatsSchema(ma.Schema):
    """Allowed player counts."""

    min = fields.Integer(required=True)
    max = fields.Integer(required=True)


class HandSizeSchema(ma.Schema):
    """Cards a seat holds, counted over its concealed hand and its exposed melds (the public card not counted)."""

    resting = fields.Integer(required=True, metadata={
        "description": "between turns: what a claim on a public card is decided with (the dealt hand of a seat "
                       "other than the dealer)", "example": 20})
    turn = fields.Integer(required=True, metadata={
        "description": "on his turn, about to discard: one more than `resting` (what a discard is decided with)",
        "example": 21})


class RulesetSchema(ma.Schema):
    """One rule-set."""

    engine_version = fields.String(metadata={
        "description": "the engine version this rule-set's answers carry: the engine's, then `+` and "
                       "the version of the value model behind its `value` fields (docs/advice.md#value)",
        "example": "0.7.0+value-3/bga-taiwan/seed1-deals4000/loss/seed3-decisions5000/claims/seed5-decisions5000"})
    id = fields.String(required=True)
    game = fields.String(required=True)
    title = fields.String(required=True)
    family = fields.String(required=True)
    source = fields.String(required=True)
    seats = fields.Nested(SeatsSchema, required=True)
    hand_size = fields.Nested(HandSizeSchema, required=True)
    cards = fields.List(card_field(), required=True)
    copies = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True, metadata={
        "description": "copies of each card of `cards` in the deck (e.g. Four Color Cards: 4 of each chess card, "
                       "1 of each flower)", "example": {"rG": 4, "rA": 4, "F1": 1}})
    melds = fields.List(fields.Nested(MeldValueSchema), required=True)
    bonuses = fields.List(fields.Nested(BonusSchema), metadata={"description": "cardavia-chan only"})
    base_points = fields.Integer(metadata={"description": "cardavia-chan: Ù xuông, a win with no bonus"})
    claim_priorities = fields.List(fields.Nested(PrioritySchema), required=True)
    seat_roles = fields.List(fields.String(), required=True)
    options = fields.List(fields.Nested(OptionSchema), required=True)
    decisions = fields.List(fields.Nested(DecisionSchema), metadata={
        "description": "Four Color Cards: decisions of the rules that are no option of their own (bga-taiwan: "
                       "payment per opponent, the all-Generals end)"})


class RulesetListSchema(ma.Schema):
    """Every rule-set."""

    engine_version = fields.String(required=True)
    rulesets = fields.List(fields.Nested(RulesetSchema), required=True)
