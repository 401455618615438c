"""Texts for people in the reader's language: the locale of a request and the gettext catalogs behind it.

The locale is chosen per request, and only when a text is translated: a `lang` query parameter naming a supported
language wins, then the best match of `Accept-Language`, then English. Templates translate with `_()`; the pages'
scripts with `t()` from `static/i18n.js`.
"""

from __future__ import annotations

from flask import Flask, request
from flask_babel import Babel

#: The languages texts are written in; English is the source language of every message.
LANGUAGES: tuple[str, ...] = ("en",)
DEFAULT = "en"


def select_locale() -> str:
    """The request's language: `?lang=`, then `Accept-Language`, then English."""
    asked = request.args.get("lang", "")
    if asked in LANGUAGES:
        return asked
    return request.accept_languages.best_match(LANGUAGES) or DEFAULT


def init_app(app: Flask) -> None:
    """Install the catalogs and the locale selector (nothing runs per request until a text is translated)."""
    Babel(app, locale_selector=select_locale, default_locale=DEFAULT)
