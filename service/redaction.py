"""Secrets kept out of everything the service says: API answers, job errors, webhooks, log lines.

A secret is taken out where the service formats it: Redis is described without its password (`url`, used by
service/redisconf.py `describe`), the access log shows a request's query without the parameters that carry a key
(`request_target`, service/runtime/access_log.py), the webhook secret only signs.

What the service repeats without formatting it (a job's exception, a library's log line or traceback) goes through
`redact`, which changes nothing but what has a secret's shape or is a known secret:
- a URL's password: `scheme://user:pass@host` -> `scheme://user:***@host` (the quotes and the rest of the line kept);
- a password in redis-py's description of a connection (`Connection(host=h,port=1,password=...,db=0)`) or in the
  repr of a dict of options (`'password': '...'`);
- each known secret (`known`) of at least SEARCHED characters, whole or cut: a prefix of it of SEARCHED characters
  or more that ends at an ellipsis or at the end of a line, as a truncated repr leaves it.
A shorter secret (a short Redis password: the webhook secret is refused below 16 characters, service/config.py) is
taken out by its shapes only: searched for in every line it would take a common word (`worker`, `true`) out of
unrelated ones.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qsl, unquote, unquote_plus, urlsplit

from .config import SETTINGS

MASK = "***"
#: The shortest known secret `redact` searches for, and the shortest cut prefix of one it takes out.
SEARCHED = 8
#: The ends of a cut text: what a truncated repr or a cut line ends with.
ELLIPSES = ("...", "\u2026")

#: A URL's password: the userinfo `user:pass` between `scheme://` and `@` (no space, quote or bracket in it).
URL_PASSWORD = re.compile(r"(?P<head>\b[A-Za-z][A-Za-z0-9+.-]*://[^\s/?#@:'\"<>]*:)[^\s/?#@'\"<>]+(?=@)")
#: A URL cut inside its userinfo: `scheme://user:pa...`.
CUT_URL_PASSWORD = re.compile(r"(?P<head>\b[A-Za-z][A-Za-z0-9+.-]*://[^\s/?#@:'\"<>]*:)[^\s/?#@'\"<>]*?"
                              r"(?=\.\.\.|\u2026)")
#: redis-py's description of a connection: `Connection(name=value,...)>` (a pool's repr holds its options).
CONNECTION = re.compile(r"(?P<head>Connection\()(?P<options>[^\n]*?)(?=\)>)")
#: The password among those options: up to the next `,name=` or the end.
CONNECTION_PASSWORD = re.compile(r"(?P<head>(?:^|,)password=).*?(?=,[A-Za-z_]+=|$)")
#: A password in the repr of a dict of options: `'password': 'text'`.
OPTION_PASSWORD = re.compile(r"(?P<head>(?P<q>['\"])password(?P=q):\s*(?P<v>['\"]))(?:\\.|[^\\\n])*?(?P=v)")
#: Query parameters that carry a key of this service when a client puts one in a URL (the API takes keys only in
#: headers: such a request is refused, and its key is kept out of the access log). Compared in lower case with
#: `-` read as `_`. Any other parameter, `password` included, is the request's own content and stays visible.
CREDENTIAL_PARAMETERS = frozenset({"api_key", "apikey", "x_api_key", "key", "access_token", "token", "auth",
                                   "authorization", "bearer"})
#: A query parameter: after `?` or `&` (or at the start of a bare query), up to the next `&`, `#`, space or quote
#: (a request line quoted in a message keeps its closing quote).
PARAMETER = re.compile(r"(?P<head>(?:^|[?&;])(?P<name>[^=&;#\s?'\"]+)=)(?P<value>[^&;#\s'\"]*)")


def known(config: Mapping[str, Any] | None = None, environ: Mapping[str, str] | None = None) -> list[str]:
    """The secrets in force that `redact` searches for, longest first: the secret settings' values (the webhook
    secret, the Sentinels' password) and the password of REDIS_URL (from its userinfo or its `password` query
    parameter, as written and decoded), each of at least SEARCHED characters. API keys are never held (only their
    hashes are)."""
    env = os.environ if environ is None else environ
    settings = [setting for setting in SETTINGS if setting.secret and setting.key != "API_KEYS"]
    values = [(setting.env, env.get(setting.env)) for setting in settings]
    if config is not None:
        values += [(setting.env, config.get(setting.key)) for setting in settings if setting.key]
    found: set[str] = set()
    for name, value in values:
        if value:
            found.update(url_passwords(str(value)) if name == "REDIS_URL" else [str(value)])
    return sorted((secret for secret in found if len(secret) >= SEARCHED), key=len, reverse=True)


def url_passwords(url: str) -> list[str]:
    """The passwords a URL holds (its userinfo's, its `password` query parameter's), as written and decoded."""
    try:
        parts = urlsplit(url.strip())
        password = parts.password
    except ValueError:
        return []
    raw = [password] if password else []
    raw += [value for name, value in parse_qsl(parts.query, keep_blank_values=False) if name == "password"]
    return [*raw, *(unquote(value) for value in raw)]


def url(text: str) -> str:
    """A URL as the service shows it: its userinfo's password and its `password` query parameter masked."""
    text = URL_PASSWORD.sub(lambda m: m["head"] + MASK, text)
    return PARAMETER.sub(lambda m: m["head"] + MASK if m["name"] == "password" and m["value"] else m[0], text)


def request_target(text: str) -> str:
    """A request line, target or query string (`GET /v1/x?api_key=k HTTP/1.1`) with the value of every query
    parameter that carries a key (CREDENTIAL_PARAMETERS) masked; the rest as it came."""
    def masked(match: re.Match[str]) -> str:
        name = unquote_plus(match["name"]).lower().replace("-", "_")
        return match["head"] + MASK if name in CREDENTIAL_PARAMETERS and match["value"] else match[0]

    return PARAMETER.sub(masked, text) if "=" in text else text


def redact(text: str, config: Mapping[str, Any] | None = None) -> str:
    """`text` (a job's error, a library's text) without a password in any of its shapes and without the known
    secrets in force (`known`, of the app's `config` and the environment), cut ones included."""
    return _redacted(text, known(config))


def _redacted(text: str, secrets: list[str]) -> str:
    """`text` without passwords in their shapes and without `secrets` (whole, or cut at an ellipsis or a line end)."""
    for secret in secrets:
        if secret[:SEARCHED] in text:
            text = _without(text, secret)
    if "://" in text:
        text = URL_PASSWORD.sub(lambda m: m["head"] + MASK, text)
        text = CUT_URL_PASSWORD.sub(lambda m: m["head"] + MASK, text)
    if "password" in text:
        text = CONNECTION.sub(lambda m: m["head"] + CONNECTION_PASSWORD.sub(
            lambda p: p["head"] + MASK, m["options"]), text)
        text = OPTION_PASSWORD.sub(lambda m: m["head"] + MASK + m["v"], text)
    return text


def _without(said: str, secret: str) -> str:
    """`said` with each occurrence of `secret` masked, and each prefix of it of SEARCHED characters or more that
    ends where the text is cut (an ellipsis, a line end, the end)."""
    start, pieces = 0, []
    at = said.find(secret[:SEARCHED])
    while at >= 0:
        length = SEARCHED
        while length < len(secret) and at + length < len(said) and said[at + length] == secret[length]:
            length += 1
        rest = said[at + length:at + length + 3]
        if length == len(secret) or not rest or rest[0] in "\r\n" or rest.startswith(ELLIPSES):
            pieces += [said[start:at], MASK]
            start = at + length
            at = said.find(secret[:SEARCHED], start)
        else:
            at = said.find(secret[:SEARCHED], at + 1)
    return "".join(pieces) + said[start:]


_redacting = False  # the log record factory redacts (installed once per process)
_logged_secrets: list[str] = []  # the known secrets it searches for: longest first


def redact_logs(config: Mapping[str, Any] | None = None) -> None:
    """From now on every log record of this process (the service's, gunicorn's, RQ's, any library's) is redacted
    as `redact` does, its message and its traceback alike: a library's exception text can hold a password that no
    line of the service would write. Installed once per process; each call adds the known secrets in force now
    (`config`, the environment)."""
    global _redacting
    # Sorted here, once per app, not for every record: a secret inside a longer one is taken out after it.
    _logged_secrets[:] = sorted(set(_logged_secrets) | set(known(config)), key=len, reverse=True)
    if _redacting:
        return
    _redacting = True
    make = logging.getLogRecordFactory()
    formatter = logging.Formatter()

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = make(*args, **kwargs)
        try:
            message = record.getMessage()
        except Exception:  # a malformed call: logging reports it when the record is emitted
            return record
        clean = _redacted(message, _logged_secrets)
        if clean != message:
            record.msg, record.args = clean, None
        if record.exc_info and not record.exc_text:
            record.exc_text = _redacted(formatter.formatException(record.exc_info), _logged_secrets)
        if record.stack_info:
            record.stack_info = _redacted(record.stack_info, _logged_secrets)
        return record

    logging.setLogRecordFactory(factory)
