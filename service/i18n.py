"""Texts for people in the reader's language: the locale of a request and the gettext catalogs behind it.

The locale is chosen per request, and only when a text is translated: a `lang` query parameter naming a supported
language wins, then (pages only) the `longcards_lang` cookie the language switch sets, then the best match of
`Accept-Language`, then English. Catalogs are gettext files under `service/translations/<lang>/LC_MESSAGES/`: the
domain `messages` holds the server's texts (advice reasons, problems, templates), `pages` the pages' scripts' texts
(`t()` in static/*.js), delivered to a page as a JSON block of base.html. `python -m service i18n` extracts,
updates and compiles them (docs/ui.md#languages).

Templates translate through Flask-Babel (its `_()` in Jinja, with this module's locale selector); the API
translates its texts (`localize`, `_`, `ngettext`) with the catalogs loaded once per process. An answer with
translated texts says their language in `Content-Language` (the envelope, service/http/envelope.py, adds it);
nothing runs on a request that translates nothing.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from babel.support import NullTranslations, Translations
from flask import Flask, has_request_context, request
from flask_babel import Babel

from .rules.text import Text

#: The languages texts are written in, by their names in their own language; English is the source language.
LANGUAGES: dict[str, str] = {"en": "English", "vi": "Tiếng Việt", "zh_Hant": "繁體中文", "it": "Italiano",
                             "pt": "Português", "uk": "Українська"}
DEFAULT = "en"
#: The BCP 47 tag of each language (`<html lang>`, `Content-Language`), where it differs from the catalog's name.
TAGS = {"zh_Hant": "zh-Hant"}
#: How much of an `Accept-Language` header is read: its first characters (a WSGI header is Latin-1, so bytes) and
#: tags; browsers send a handful of tags in well under 100 bytes, and the rest is ignored, whatever its qualities.
MAX_ACCEPT_LANGUAGE = 512
MAX_LANGUAGE_TAGS = 10
COOKIE = "longcards_lang"
#: The blueprints of the pages, which follow the switch's cookie (the pages and the API docs page).
PAGES = ("ui", "swagger_ui")
TRANSLATIONS = Path(__file__).resolve().parent / "translations"
DOMAINS = ("messages", "pages")


def tag(language: str) -> str:
    """The BCP 47 tag of a supported language (`zh_Hant` -> `zh-Hant`)."""
    return TAGS.get(language, language)


@lru_cache(maxsize=256)
def supported(asked: str) -> str | None:
    """The supported language a language tag asks for (`vi-VN` -> `vi`; any Chinese -> `zh_Hant`, the only
    Chinese the catalogs have), or None."""
    primary = asked.strip().replace("_", "-").split("-")[0].lower()
    if primary == "zh":
        return "zh_Hant"
    return primary if primary in LANGUAGES else None


def best_of(header: str) -> str:
    """The supported language an `Accept-Language` header prefers most (English when none), of its first
    MAX_ACCEPT_LANGUAGE characters and MAX_LANGUAGE_TAGS tags: a long header costs no more than a short one."""
    if len(header) > MAX_ACCEPT_LANGUAGE:
        # A tag the limit cuts is dropped ("vi-VN" cut to "vi" is not what was asked); one more character keeps a
        # tag ending right at the limit.
        header = header[:MAX_ACCEPT_LANGUAGE + 1].rpartition(",")[0]
    return best_of_tags(",".join(header.split(",", MAX_LANGUAGE_TAGS)[:MAX_LANGUAGE_TAGS]))


@lru_cache(maxsize=256)
def best_of_tags(header: str) -> str:
    """`best_of` a header already cut to its head; clients send the same few headers again and again, so the answer
    is remembered."""
    if not header:
        return DEFAULT
    from werkzeug.datastructures import LanguageAccept
    from werkzeug.http import parse_accept_header

    for asked, _quality in parse_accept_header(header, LanguageAccept):
        found = supported(asked)
        if found:
            return found
    return DEFAULT


def select_locale() -> str:
    """The request's language: `?lang=`, then (pages) the switch's cookie, then `Accept-Language`, then English.
    Read from the WSGI environment first: most API requests have no query, no cookie and one header to match."""
    environ = request.environ
    if environ.get("QUERY_STRING"):
        asked = request.args.get("lang")
        if asked and (found := supported(asked)):
            return found
    if environ.get("HTTP_COOKIE") and request.blueprint in PAGES and (cookie := request.cookies.get(COOKIE)) \
            and (found := supported(cookie)):
        return found
    return best_of(environ.get("HTTP_ACCEPT_LANGUAGE", ""))


#: Where the request's language is kept in its WSGI environment once a text asked for it: the envelope
#: (service/http/envelope.py) then says it in `Content-Language`.
ENVIRON_KEY = "longcards.language"


def language() -> str:
    """The language of the current request (English outside one)."""
    if not has_request_context():
        return DEFAULT
    environ = request.environ
    found = environ.get(ENVIRON_KEY)
    if found is None:
        found = environ[ENVIRON_KEY] = select_locale()
    return str(found)


def chosen() -> str | None:
    """The current request's language if one of its texts asked for it (its answer is in that language)."""
    return request.environ.get(ENVIRON_KEY) if has_request_context() else None


@lru_cache(maxsize=len(LANGUAGES))
def catalog(lang: str, domain: str = "messages") -> NullTranslations:
    """A language's compiled catalog of a domain, loaded once per process (English: none, the ids are English)."""
    return Translations.load(str(TRANSLATIONS), [lang], domain=domain)


def localize(value: Any) -> Any:
    """A text in the request's language: a `Text` translated through the `messages` catalog; anything else as is
    (a plain string stays as it is: it is no message)."""
    if not isinstance(value, Text):
        return value
    lang = language()
    base = seats_from()
    if lang == DEFAULT and base == 0:
        return str(value)
    found = catalog(lang)
    return value.render(found.gettext, found.ngettext, base)


#: The request header asking texts for people to count seats as players do, from 1 (`X-Seats-From: 1`); fields
#: keep the API's seats, from 0. The pages send it.
SEATS_HEADER = "X-Seats-From"


def seats_from() -> int:
    """Where the current request's texts start counting seats: 1 when it asked (SEATS_HEADER), else 0."""
    return 1 if has_request_context() and request.headers.get(SEATS_HEADER, "").strip() == "1" else 0


def _(message: str, **params: Any) -> str:
    """The English `message` (`{name}` placeholders filled from `params`) in the request's language."""
    if not params and language() == DEFAULT:
        return message  # nothing to fill, nothing to translate
    return localize(Text(message, params))


def ngettext(one: str, many: str, n: int, **params: Any) -> str:
    """A counted message in the request's language; `n` is also the `{n}` parameter."""
    return localize(Text(one, {"n": n, **params}, many, n))


def N_(message: str) -> str:
    """Mark an English message for extraction without translating it here (tables built at import)."""
    return message


@lru_cache(maxsize=len(LANGUAGES))
def page_catalog(lang: str) -> dict[str, Any]:
    """The `pages` catalog of a language as the pages' `t()` reads it: messages by id (a list of plural forms for a
    counted message) and the language's tag; English has none (the ids are the English texts)."""
    messages: dict[str, Any] = {}
    if lang != DEFAULT:
        for key, value in getattr(catalog(lang, "pages"), "_catalog", {}).items():
            if isinstance(key, tuple):  # (msgid, plural index) of a counted message
                forms = messages.setdefault(key[0], [])
                forms.extend([""] * (key[1] + 1 - len(forms)))
                forms[key[1]] = value
            elif key and value:
                messages[key] = value
    return {"lang": tag(lang), "messages": messages}


def template_globals() -> dict[str, Any]:
    """What base.html needs to speak the reader's language: its tag, the switch's entries, the pages' catalog."""
    lang = language()
    return {"lang": lang, "lang_tag": tag(lang), "lang_name": LANGUAGES[lang], "languages": [(code, tag(code), name)
                                                               for code, name in LANGUAGES.items()],
            "page_catalog": page_catalog(lang)}


def init_app(app: Flask) -> None:
    """Install the catalogs and the locale selector (nothing runs per request until a text is translated)."""
    Babel(app, locale_selector=select_locale, default_locale=DEFAULT, default_domain="messages",
          default_translation_directories=str(TRANSLATIONS))
