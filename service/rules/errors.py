"""Domain errors of the rules engine: a stable snake_case code, a message and the field at fault."""

from __future__ import annotations

import reprlib

_SHORT = reprlib.Repr()
_SHORT.maxstring = _SHORT.maxother = 40
_SHORT.maxlevel, _SHORT.maxlist, _SHORT.maxdict = 2, 4, 4


def shown(value: object) -> str:
    """`value` as messages quote it: its repr, cut to about 40 characters (a huge input is never echoed)."""
    return _SHORT.repr(value)


class DomainError(Exception):
    """A request the rules reject; `code` is stable, `field` names the offending input (dotted path)."""

    code = "domain_error"
    status = 422

    def __init__(self, message: str, field: str | None = None, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        if code is not None:
            self.code = code


class UnknownRuleset(DomainError):
    """The rule-set id is not registered."""

    code = "unknown_ruleset"


class InvalidOption(DomainError):
    """An option is unknown or its value is out of range."""

    code = "invalid_option"


class InvalidCard(DomainError):
    """A card code is not a card of the rule-set."""

    code = "unknown_card"


class ImpossibleCount(DomainError):
    """More copies of a card (or more cards) than the deck or the game allows."""

    code = "impossible_card_count"


class InvalidMeld(DomainError):
    """An exposed meld whose cards do not form the named kind."""

    code = "invalid_meld"


class InvalidSeat(DomainError):
    """A seat count, seat index or seat role the rule-set does not allow."""

    code = "invalid_seat"


class NotAWin(DomainError):
    """Settlement was asked for a hand that does not win."""

    code = "not_a_win"


class NotInRuleset(DomainError):
    """A request field the rule-set has no use for (a lucky card where there is none, a Chắn win context)."""

    code = "not_in_ruleset"


class DeltasNotZeroSum(DomainError):
    """A round's deltas that do not sum to zero: points only change hands."""

    code = "deltas_not_zero_sum"
