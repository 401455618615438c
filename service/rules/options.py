"""Rule options: every optional decision of docs/rules.md#decisions is a named, documented, validated option, or,
where the rules give no alternative, a named and documented fixed decision."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from .errors import InvalidOption, shown
from .text import text

KIND_PHRASES = {"boolean": "true or false", "integer": "an integer", "string": "a string"}


@dataclass(frozen=True)
class Option:
    """One named rule option with its default and the decision it implements (a docs/rules.md anchor).

    `name` and `choices` are codes (a request's `options`); `label`, `doc` and `choice_labels` (one per choice, in
    its order) are texts for people, which /v1/rulesets answers in the reader's language."""

    name: str
    default: Any
    doc: str
    rule: str
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    label: str = ""
    choice_labels: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if (self.choice_labels is not None) != (self.choices is not None) or (
                self.choices is not None and len(self.choice_labels or ()) != len(self.choices)):
            raise ValueError(f"option {self.name}: one label per choice")

    @property
    def type(self) -> str:
        """JSON type of the option's value."""
        if isinstance(self.default, bool):
            return "boolean"
        if isinstance(self.default, int):
            return "integer"
        return "string"

    def validate(self, value: Any) -> Any:
        """Return `value` if it is allowed for this option, else raise InvalidOption naming it."""
        field = f"options.{self.name}"
        kind = self.type
        ok = (
            (kind == "boolean" and isinstance(value, bool))
            or (kind == "integer" and isinstance(value, int) and not isinstance(value, bool))
            or (kind == "string" and isinstance(value, str))
        )
        if not ok:
            raise InvalidOption(text("option {name} must be {kind}",
                                     name=repr(self.name), kind=KIND_PHRASES[kind]), field)
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(repr(c) for c in self.choices)
            raise InvalidOption(text("option {name} must be one of {allowed}",
                                     name=repr(self.name), allowed=allowed), field)
        if self.minimum is not None and value < self.minimum:
            raise InvalidOption(text("option {name} must be >= {minimum}",
                                     name=repr(self.name), minimum=self.minimum), field)
        if self.maximum is not None and value > self.maximum:
            raise InvalidOption(text("option {name} must be <= {maximum}",
                                     name=repr(self.name), maximum=self.maximum), field)
        return value

    def describe(self) -> dict[str, Any]:
        """JSON description for /v1/rulesets."""
        out: dict[str, Any] = {
            "name": self.name, "label": self.label or self.name, "type": self.type, "default": self.default,
            "doc": self.doc, "rule": self.rule,
        }
        if self.choices is not None:
            out["choices"] = list(self.choices)
            out["choice_labels"] = list(self.choice_labels or self.choices)
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        return out


@dataclass(frozen=True)
class Decision:
    """A decision of docs/rules.md#decisions that is not itself an option: fixed where the rules give no
    alternative reading, or refined by the option named in `option`."""

    name: str
    doc: str
    rule: str
    option: str | None = None

    def describe(self) -> dict[str, Any]:
        """JSON description for /v1/rulesets."""
        return {"name": self.name, "doc": self.doc, "rule": self.rule, "option": self.option}


def resolve_options(declared: tuple[Option, ...], given: Mapping[str, Any] | None) -> Mapping[str, Any]:
    """Merge `given` over the defaults; unknown names and bad values raise InvalidOption."""
    if not given:
        return _defaults(declared)
    known = {o.name: o for o in declared}
    resolved = {o.name: o.default for o in declared}
    for name, value in (given or {}).items():
        if name not in known:
            raise InvalidOption(text("unknown option {name}",
                                     name=shown(name)), f"options.{name}", code="unknown_option")
        resolved[name] = known[name].validate(value)
    return MappingProxyType(resolved)


@lru_cache(maxsize=32)
def _defaults(declared: tuple[Option, ...]) -> Mapping[str, Any]:
    """The default options of a rule-set (shared, read-only)."""
    return MappingProxyType({o.name: o.default for o in declared})
