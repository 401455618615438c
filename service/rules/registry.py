"""Rule-set registry: every rule-set registers itself by id; callers look it up here."""

from __future__ import annotations

from typing import Any, Protocol

from .errors import UnknownRuleset, shown

ENGINE_VERSION = "0.1.0"


class RuleSet(Protocol):
    """What every registered rule-set offers (families add their own operations)."""

    id: str
    family: str

    def resolve_options(self, given: dict[str, Any] | None) -> dict[str, Any]:
        """Defaults merged with `given`; raises InvalidOption."""

    def describe(self) -> dict[str, Any]:
        """Cards, meld kinds, points and options for /v1/rulesets."""


_REGISTRY: dict[str, RuleSet] = {}


def register(ruleset: RuleSet) -> RuleSet:
    """Add a rule-set under its id (import time of its module; no I/O)."""
    _REGISTRY[ruleset.id] = ruleset
    return ruleset


def get_ruleset(ruleset_id: object) -> RuleSet:
    """The rule-set registered under `ruleset_id`, or UnknownRuleset naming the field."""
    _load()
    if not isinstance(ruleset_id, str) or ruleset_id not in _REGISTRY:
        known = ", ".join(sorted(_REGISTRY))
        raise UnknownRuleset(f"unknown rule-set {shown(ruleset_id)}; known: {known}", "ruleset")
    return _REGISTRY[ruleset_id]


def all_rulesets() -> list[RuleSet]:
    """Every registered rule-set, by id."""
    _load()
    return [_REGISTRY[k] for k in sorted(_REGISTRY)]


def _load() -> None:
    """Import the rule-set packages once so they register (cheap; tables are built lazily)."""
    if not _REGISTRY:
        from .chan import rulesets as _chan  # noqa: F401
        from .fourcolor import rulesets  # noqa: F401
