"""Schemas shared by the hand endpoints: the hand request, melds, and the echo of rule-set and options."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any, ClassVar

import marshmallow as ma
from marshmallow import fields, validate

from ..advice.value import engine_version
from ..rules.chan.cards import CODES as CHAN_CODES
from ..rules.chan.pairs import KINDS as PAIR_KINDS
from ..rules.fourcolor.cards import ALL_CODES
from ..rules.fourcolor.melds import KINDS, Meld
from ..rules.registry import RuleSet, all_rulesets, get_ruleset

RULESET_IDS = tuple(r.id for r in all_rulesets())
CARD_CODES = ALL_CODES + CHAN_CODES
MELD_KINDS = KINDS + PAIR_KINDS

#: The description of a text for people in an answer.
READER_LANGUAGE = ("a text for people, in the reader's language (`lang`, else `Accept-Language`; "
                   "docs/api.md#languages); never parse it: the other fields say the same as data")


#: The card-code components of the spec, one per game family (their enums, named after the cards, are built in
#: `card_components`).
FOURCOLOR_CARD, CHAN_CARD = "FourColorCard", "ChanCard"
CARD_COMPONENTS = (FOURCOLOR_CARD, CHAN_CARD)


class Card(fields.String):
    """A card code, documented as one family's card component (`component` None: either family's, the rule-set
    says which). Loaded as a string: the engine checks the code against the rule-set and names the field."""

    def __init__(self, component: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.component = component


def card_field(description: str = "canonical card code of the rule-set", component: str | None = None,
               **kwargs: Any) -> Card:
    """A card code; checked against the rule-set by the engine, which names the field at fault."""
    return Card(component, metadata={"description": description}, **kwargs)


class OneOf(fields.Raw):
    """A value sent as it is, documented as one of `schemas` (`oneOf` of their components)."""

    def __init__(self, schemas: list[type[ma.Schema]], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.schemas = schemas


def card_components() -> dict[str, dict[str, Any]]:
    """The card-code schema components: Four Color codes named as they read (`RG`, `F1`), Chắn codes as
    `CARD_2M` ... `CARD_9C` and `CHI_CHI` (a generated client cannot name an enum member `2m`)."""
    chan_names = [f"CARD_{code.upper()}" if code != "CC" else "CHI_CHI" for code in CHAN_CODES]
    return {
        FOURCOLOR_CARD: {"type": "string", "enum": list(ALL_CODES), "x-enum-varnames": [c.upper() for c in ALL_CODES],
                          "description": "A Four Color Cards code: colour r, y, g, w and piece G, A, E, C, H, P, S "
                                         "(`rG`: red General); flowers F1-F5 in cardavia-flowers."},
        CHAN_CARD: {"type": "string", "enum": list(CHAN_CODES), "x-enum-varnames": chan_names,
                     "description": "A Chắn code: value 2-9 and suit Vạn `m`, Sách `s` or Văn `c` (`2m`), or Chi chi "
                                    "`CC`."},
    }


#: A list stops checking its items after this many invalid ones (the rest would only cost time to report).
MAX_ITEM_ERRORS = 50


class BoundedList(fields.List):
    """A list whose length limits (its `validate.Length`) are checked before any item is deserialised, and
    whose items are checked only until MAX_ITEM_ERRORS of them are invalid: a long list of bad items costs
    no more than a short one. Every list of every request schema is one (a test enforces it).

    `plain`, when given, is a quick test of an item that is already what the inner field would load it to (and
    that the engine checks again, naming the field): a list of such items passes as it is, the per-item
    deserialisation left for lists with a doubtful item. Large valid requests are the point."""

    def __init__(self, inner: Any, *, plain: Callable[[Any], bool] | None = None, **kwargs: Any) -> None:
        super().__init__(inner, **kwargs)
        self.plain = plain
        self.lengths = [v for v in self.validators if isinstance(v, validate.Length)]
        if not any(v.max is not None or v.equal is not None for v in self.lengths):
            raise ValueError("a request list needs validate.Length(max=...)")

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> list[Any]:
        if not isinstance(value, list):
            raise self.make_error("invalid")
        for length in self.lengths:
            length(value)
        if self.plain is not None and all(map(self.plain, value)):
            return value
        result: list[Any] = []
        errors: dict[Any, Any] = {}
        for index, item in enumerate(value):
            try:
                result.append(self.inner.deserialize(item, **kwargs))
            except ma.ValidationError as error:
                errors[index] = error.messages
                if len(errors) == MAX_ITEM_ERRORS and index + 1 < len(value):
                    errors["_schema"] = [f"{MAX_ITEM_ERRORS} invalid items; items after {index} were not checked"]
                    break
        if errors:
            raise ma.ValidationError(errors)
        return result


def is_str(item: Any) -> bool:
    """A string (a card code the engine will check)."""
    return type(item) is str


class CardList(BoundedList):
    """A list of card codes. Strings pass straight through (the engine checks codes and names the field);
    only non-strings fall back to per-item errors. Hand requests are the hot path."""

    def __init__(self, inner: Any, **kwargs: Any) -> None:
        super().__init__(inner, plain=is_str, **kwargs)


class BoundedDict(fields.Dict):
    """A JSON object whose number of keys (its `validate.Length`) is checked before any key or value is."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> dict[Any, Any]:
        if isinstance(value, dict):
            for length in self.validators:
                if isinstance(length, validate.Length):
                    length(value)
        return super()._deserialize(value, attr, data, **kwargs)


class Number(fields.Float):
    """A JSON number, strictly: marshmallow's Float would also take the string "4.5"."""

    def _validated(self, value: Any) -> float:
        if not isinstance(value, (int, float)):
            raise self.make_error("invalid", input=value)
        return super()._validated(value)


def integer(**kwargs: Any) -> fields.Integer:
    """A JSON integer, strictly: 4.5 and "4" are refused (422), never truncated or converted."""
    return fields.Integer(strict=True, **kwargs)


def card_list(**kwargs: Any) -> CardList:
    """A documented list of card codes."""
    return CardList(card_field(), **kwargs)


class ExposedMeldSchema(ma.Schema):
    """A meld already on the table (Chắn: an exposed pair, `chan`, `ca` or `chiu`)."""

    kind = fields.String(required=True, metadata={"enum": list(MELD_KINDS)})
    cards = card_list(required=True, validate=validate.Length(min=1, max=4))


#: Rule options a request may name (every rule-set has fewer).
MAX_OPTIONS = 16


class RulesetRequestSchema(ma.Schema):
    """`ruleset` and `options`, common to every evaluating request."""

    ruleset = fields.String(required=True, metadata={"enum": list(RULESET_IDS)})
    options = BoundedDict(keys=fields.String(), values=fields.Raw(allow_none=True), load_default=dict,
                          validate=validate.Length(max=MAX_OPTIONS),
                          metadata={"description": "rule options; see GET /v1/rulesets for names and defaults"})


class HandRequestSchema(RulesetRequestSchema):
    """A player's cards: concealed `hand`, `exposed` melds, and the `public_card` on offer, if any.

    The hand endpoints are the hot path: a plain request (only these fields, strings where strings are due, no
    exposed meld) is loaded by `plain` in one pass to exactly what marshmallow would load it to; anything else,
    and every request with an error, goes through marshmallow, which names the field at fault."""

    hand = card_list(required=True, validate=validate.Length(max=64))
    exposed = BoundedList(fields.Nested(ExposedMeldSchema), load_default=list, validate=validate.Length(max=21))
    public_card = card_field(load_default=None, allow_none=True)

    #: The fields `plain` knows; a request with any other goes through marshmallow.
    PLAIN_FIELDS = frozenset({"ruleset", "options", "hand", "exposed", "public_card"})
    #: The defaults of a subclass's own fields, all optional, that a plain request loads to; a subclass that does
    #: not declare its own (one with a required field of its own) never takes the plain path.
    PLAIN_DEFAULTS: ClassVar[dict[str, Any] | None] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "PLAIN_DEFAULTS" not in cls.__dict__:
            cls.PLAIN_DEFAULTS = None

    def load(self, data: Any, *, many: bool | None = None, partial: Any = None, unknown: Any = None) -> Any:
        """Marshmallow's load, or `plain`'s when it applies."""
        defaults = self.PLAIN_DEFAULTS
        if many is None and partial is None and unknown is None and defaults is not None:
            loaded = plain_hand_request(data)
            if loaded is not None:
                return {**loaded, **defaults} if defaults else loaded
        return super().load(data, many=many, partial=partial, unknown=unknown)


def plain_hand_request(data: Any) -> dict[str, Any] | None:
    """A hand request loaded as marshmallow would load it when nothing in it needs marshmallow's care, else None.
    O(cards + options)."""
    if not isinstance(data, dict) or not HandRequestSchema.PLAIN_FIELDS.issuperset(data):
        return None
    ruleset, hand = data.get("ruleset"), data.get("hand")
    options = data.get("options", {})
    public_card = data.get("public_card")
    if not (isinstance(ruleset, str) and isinstance(hand, list) and len(hand) <= 64 and all(map(is_str, hand))
            and isinstance(options, dict) and len(options) <= MAX_OPTIONS and all(map(is_str, options))
            and data.get("exposed", ()) in ((), []) and (public_card is None or isinstance(public_card, str))):
        return None
    return {"ruleset": ruleset, "options": dict(options), "hand": hand, "exposed": [], "public_card": public_card}


class MeldSchema(ma.Schema):
    """One meld with its points as it stands (exposed or concealed value)."""

    kind = fields.String(required=True, metadata={"enum": list(MELD_KINDS)})
    cards = fields.List(card_field(), required=True)
    points = fields.Integer(required=True)
    concealed = fields.Boolean(required=True)


class EchoSchema(ma.Schema):
    """The rule-set, its fully resolved options and the engine version, echoed by every answer."""

    ruleset = fields.String(required=True)
    options = BoundedDict(keys=fields.String(), values=fields.Raw(), required=True)
    engine_version = fields.String(required=True, metadata={
        "description": "the engine's version, then `+` and the version of the rule-set's value "
                       "model (docs/advice.md#value), e.g. "
                       "`0.7.0+value-3/bga-taiwan/seed1-deals4000/loss/seed3-decisions5000/claims/seed5-decisions5000`"})


def resolve(payload: dict[str, Any]) -> tuple[RuleSet, dict[str, Any]]:
    """The rule-set of a request and its resolved options (errors name `ruleset` / `options.<name>`)."""
    ruleset = get_ruleset(payload["ruleset"])
    return ruleset, dict(ruleset.resolve_options(payload.get("options")))


def echo(ruleset: RuleSet, options: dict[str, Any]) -> dict[str, Any]:
    """The echo part of an answer."""
    return {"ruleset": ruleset.id, "options": options, "engine_version": engine_version(ruleset)}


@lru_cache(maxsize=8192)
def meld_json(meld: Meld, rules: Any) -> dict[str, Any]:
    """A meld as the API shows it (cached: melds are immutable and shared; callers never mutate the dict)."""
    return {"kind": meld.kind, "cards": meld.codes(), "points": meld.points(rules), "concealed": meld.concealed}
