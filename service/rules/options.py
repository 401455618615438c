"""Rule options: every [D] decision of RULES.md is a named, documented, validated option."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from .errors import InvalidOption, shown


@dataclass(frozen=True)
class Option:
    """One named rule option with its default and the RULES.md decision it implements."""

    name: str
    default: Any
    doc: str
    rule: str
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None

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
            raise InvalidOption(f"option {self.name!r} must be a {kind}", field)
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(repr(c) for c in self.choices)
            raise InvalidOption(f"option {self.name!r} must be one of {allowed}", field)
        if self.minimum is not None and value < self.minimum:
            raise InvalidOption(f"option {self.name!r} must be >= {self.minimum}", field)
        if self.maximum is not None and value > self.maximum:
            raise InvalidOption(f"option {self.name!r} must be <= {self.maximum}", field)
        return value

    def describe(self) -> dict[str, Any]:
        """JSON description for /v1/rulesets."""
        out: dict[str, Any] = {
            "name": self.name, "type": self.type, "default": self.default,
            "doc": self.doc, "rule": self.rule,
        }
        if self.choices is not None:
            out["choices"] = list(self.choices)
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        return out


def resolve_options(declared: tuple[Option, ...], given: Mapping[str, Any] | None) -> Mapping[str, Any]:
    """Merge `given` over the defaults; unknown names and bad values raise InvalidOption."""
    if not given:
        return _defaults(declared)
    known = {o.name: o for o in declared}
    resolved = {o.name: o.default for o in declared}
    for name, value in (given or {}).items():
        if name not in known:
            raise InvalidOption(f"unknown option {shown(name)}", f"options.{name}", code="unknown_option")
        resolved[name] = known[name].validate(value)
    return MappingProxyType(resolved)


@lru_cache(maxsize=32)
def _defaults(declared: tuple[Option, ...]) -> Mapping[str, Any]:
    """The default options of a rule-set (shared, read-only)."""
    return MappingProxyType({o.name: o.default for o in declared})
