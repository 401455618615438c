"""Texts for people that the engine writes (the reasons of advice and of a failed win): English, with the message
id and parameters kept so the API can say the same in the reader's language.

A `Text` is the English string itself (a `str`: compared, joined, stored and sent as before), plus `message` (the
English message id, `{name}` placeholders), `params`, and for a counted message its `plural` and count `n`. The
engine stays pure and its outputs deterministic: it never knows the reader's language; the API layer translates
(service/i18n.py `localize`). `text()` and `ntext()` are also the markers the message extraction looks for
(`python -m service i18n extract`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

#: A function of a message id (and plural id and count) answering the translated message.
Gettext = Callable[[str], str]
Ngettext = Callable[[str, str, int], str]


#: The parameters of a text that name a seat: a seat number (an int), shown counted from 0 or from 1 (`render`).
SEAT_PARAMS = frozenset({"seat", "due", "winner", "payer", "payee", "dealer", "drawer", "discarder", "claimer"})


class Text(str):
    """An English text for people with what it takes to translate it: message id, parameters, plural and count."""

    message: str
    params: Mapping[str, Any]
    plural: str | None
    n: int | None

    def __new__(cls, message: str, params: Mapping[str, Any] | None = None, plural: str | None = None,
                n: int | None = None) -> Text:
        """The text rendered in English (the source language of every message)."""
        params = dict(params or {})
        chosen = plural if plural is not None and n != 1 else message
        # a message without parameters is never formatted: its braces (`{id}` in a path) are its own
        english = chosen.format(**{k: str(v) for k, v in params.items()}) if params else chosen
        self = super().__new__(cls, english)
        self.message, self.params, self.plural, self.n = message, params, plural, n
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle by the message and its parameters (a str subclass otherwise re-creates from the English only)."""
        return (Text, (self.message, self.params, self.plural, self.n))

    def render(self, gettext: Gettext, ngettext: Ngettext, seats_from: int = 0) -> str:
        """The text translated by the given catalog functions, nested texts among the parameters too; the seats it
        names (SEAT_PARAMS) counted from `seats_from` (0 as the API's fields count them, 1 as players do)."""
        found = gettext(self.message) if self.plural is None else ngettext(self.message, self.plural, self.n or 0)
        if not self.params:
            return found
        values = {k: v.render(gettext, ngettext, seats_from) if isinstance(v, Text)
                  else str(v + seats_from) if k in SEAT_PARAMS and type(v) is int else str(v)
                  for k, v in self.params.items()}
        try:
            return found.format(**values)
        except (KeyError, IndexError, ValueError):  # a translation with a broken placeholder: the English instead
            return str(self)

    def as_json(self) -> dict[str, Any]:
        """The message id and parameters as JSON (stored with a job's result, translated when it is read)."""
        params = {k: v.as_json() if isinstance(v, Text) else v for k, v in self.params.items()}
        out: dict[str, Any] = {"message": self.message, "params": params}
        if self.plural is not None:
            out["plural"], out["n"] = self.plural, self.n
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Text:
        """The text `as_json` wrote."""
        params = {k: cls.from_json(v) if isinstance(v, dict) else v for k, v in (data.get("params") or {}).items()}
        return cls(str(data["message"]), params, data.get("plural"), data.get("n"))


def text(message: str, **params: Any) -> Text:
    """A text for people: the English `message` with its `{name}` placeholders filled from `params`."""
    return Text(message, params)


def ntext(one: str, many: str, n: int, **params: Any) -> Text:
    """A counted text: `one` when `n` is 1, else `many` (other languages have their own plural forms); `n` is
    also the `{n}` parameter."""
    return Text(one, {"n": n, **params}, many, n)


def paid(payer: int, payee: int, amount: int) -> Text:
    """A payment line of a settlement."""
    return text("seat {payer} pays seat {payee}: {amount}", payer=payer, payee=payee, amount=amount)


#: What names the stored message of a text field `name` of a job's result: `name` + this suffix.
STORED = "_i18n"


def stored(name: str, value: str) -> dict[str, Any]:
    """A text field as a stored result keeps it: `name` the English, and `name_i18n` its message (None when it is
    no message), read in another language by `read_texts`."""
    return {name: str(value), name + STORED: value.as_json() if isinstance(value, Text) else None}


def read_texts(value: Any, localize: Callable[[Text], str]) -> Any:
    """A stored result as a reader gets it: each text field with a stored message `localize`d, the messages left
    out."""
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if key.endswith(STORED) and key[:-len(STORED)] in value:
                if item:
                    out[key[:-len(STORED)]] = localize(Text.from_json(item))
            else:
                out.setdefault(key, read_texts(item, localize))
        return out
    if isinstance(value, list):
        return [read_texts(v, localize) for v in value]
    return value
