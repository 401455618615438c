"""Rule-set registry: every rule-set by id; callers look it up here.

The families define their rule-set objects (service/rules/*/rulesets.py); `RULESETS` lists them, typed as
`RuleSet`, so the type checker holds each to the protocol (service/rules/protocol.py). A new variant is a new object
listed here; nothing outside its family's package names it. Tests may register a variant for a while.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from .chan.rulesets import CARDAVIA_CHAN
from .errors import UnknownRuleset, shown
from .fourcolor.rulesets import BGA_TAIWAN, CARDAVIA_FLOWERS
from .protocol import RuleSet
from .protocol import check_extras as check_extras_in
from .text import text

__all__ = ["ENGINE_VERSION", "RULESETS", "RuleSet", "all_rulesets", "check_extras", "get_ruleset", "register",
           "registered", "unregister"]

ENGINE_VERSION = "0.7.0"

#: Every rule-set the service plays.
RULESETS: tuple[RuleSet, ...] = (BGA_TAIWAN, CARDAVIA_FLOWERS, CARDAVIA_CHAN)

_REGISTRY: dict[str, RuleSet] = {ruleset.id: ruleset for ruleset in RULESETS}


def register(ruleset: RuleSet) -> RuleSet:
    """Add a rule-set under its id (a variant played for a while, as in tests)."""
    _REGISTRY[ruleset.id] = ruleset
    return ruleset


def unregister(ruleset_id: str) -> None:
    """Remove a rule-set (a variant registered for a while, as in tests)."""
    _REGISTRY.pop(ruleset_id, None)


@contextmanager
def registered(ruleset: RuleSet) -> Iterator[RuleSet]:
    """A rule-set registered for the duration of a `with` block."""
    register(ruleset)
    try:
        yield ruleset
    finally:
        unregister(ruleset.id)


def get_ruleset(ruleset_id: object) -> RuleSet:
    """The rule-set registered under `ruleset_id`, or UnknownRuleset naming the field."""
    if not isinstance(ruleset_id, str) or ruleset_id not in _REGISTRY:
        known = ", ".join(sorted(_REGISTRY))
        raise UnknownRuleset(text("unknown rule-set {ruleset_id}; known: {known}",
                                  ruleset_id=shown(ruleset_id), known=known), "ruleset")
    return _REGISTRY[ruleset_id]


def all_rulesets() -> list[RuleSet]:
    """Every registered rule-set, by id."""
    return [_REGISTRY[k] for k in sorted(_REGISTRY)]


def check_extras(ruleset: RuleSet, lucky_card: object, context: object) -> None:
    """A settlement's `lucky_card` and `context` only where the rule-set has them; else NotInRuleset naming the
    registered rule-sets that have the field."""
    check_extras_in(ruleset, lucky_card, context, all_rulesets())
