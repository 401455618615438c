"""Every setting the service reads, in one table: its environment variable, what a value must be, its default.

The app reads its settings with `load()` (defaults, then the environment, then `create_app(config)`'s overrides);
`python -m service serve`, the workers and gunicorn's configuration check the whole environment once with
`check_environment(role=...)` before they start anything (the workers leave out the API's own rule between
settings). A value the service cannot run with stops it at start with one message naming each bad setting and what
it expects; the value of a secret setting is never repeated in that message. docs/configuration.md lists the same
table (a test keeps the two equal).

Nothing is read at import time.
"""

from __future__ import annotations

import ipaddress
import os
import re
import tempfile
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

PREFIX = "LONGCARDS_"
#: Where Redis is (service/redisconf.py): names shared with the workers, read without the prefix.
REDIS_SETTINGS = ("REDIS_URL", "REDIS_SENTINELS", "REDIS_SENTINEL_MASTER", "REDIS_SENTINEL_PASSWORD")
#: The first path segments of the service's own routes: the API docs may not be served over any of them (their
#: paths are open without a key). A test checks that every route of the app starts with one of these.
RESERVED_SEGMENTS = ("v1", "ui", "problems", "healthz", "readyz", "metrics", "openapi.json", "static",
                     "favicon.ico", "embed", "oembed")
#: The rules page lives under /docs whatever DOCS_URL is (answers cite it by that path).
RULES_PATHS = ("/docs/rules", "/docs/rules.md")


#: The processes that check the environment at start: `api` (gunicorn with deploy/gunicorn.conf.py, and the app
#: itself), `worker` (`python -m workers`) and `serve` (`python -m service serve`, which starts both). Every process
#: refuses a malformed value of any setting; a rule between settings that concerns the API alone (API keys required)
#: stops only the processes that run the API.
Role = Literal["api", "worker", "serve"]
ROLES: tuple[Role, ...] = ("api", "worker", "serve")
API_ROLES: tuple[Role, ...] = ("api", "serve")


class ConfigError(RuntimeError):
    """A setting the service cannot start with (its processes exit with CONFIG_EXIT and the message)."""


#: The exit code of a process that refuses its configuration (serve, check-config, gunicorn's configuration file):
#: starting it again changes nothing.
CONFIG_EXIT = 2


TRUE, FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off", "")


@dataclass(frozen=True)
class Setting:
    """One setting: the environment variable, the app's config key (None: read by serve, gunicorn or the workers,
    not by the app), its default, what a value must be (`expects`, for messages and docs/configuration.md) and the
    parser of its text, which raises ValueError on anything else. A secret's value is never shown."""

    env: str
    default: Any
    expects: str
    parse: Callable[[str], Any]
    key: str | None = None
    secret: bool = False
    safe_errors: bool = False  # the parser's messages never repeat the value: shown for a secret too
    shown_default: str | None = None  # the default as docs/configuration.md writes it, when not `default` itself

    def read(self, raw: str) -> Any:
        """The value of `raw`; ConfigError naming the variable and what it expects (never a secret's value)."""
        try:
            return self.parse(raw)
        except ValueError as error:
            hidden = self.secret or "@" in raw  # a secret, or a URL with a password where none belongs
            value = "" if hidden else f"={raw!r}"
            said = str(error)
            shown = said and (self.safe_errors or not hidden and raw.strip() not in said)
            why = f" ({said})" if shown else ""
            raise ConfigError(f"{self.env}{value} is not valid{why}: expects {self.expects}") from None


# Parsers: each takes the environment's text and returns the value, or raises ValueError saying what is wrong.

def boolean(raw: str) -> bool:
    """true/false, yes/no, on/off, 1/0 (empty: false)."""
    word = raw.strip().lower()
    if word not in TRUE + FALSE:
        raise ValueError("")
    return word in TRUE


def whole(low: int, high: int) -> Callable[[str], int]:
    """A whole number from `low` to `high`."""
    def parse(raw: str) -> int:
        if not re.fullmatch(r"[+-]?\d+", raw.strip()) or not low <= int(raw) <= high:
            raise ValueError("")
        return int(raw)
    return parse


def decimal(low: float, high: float) -> Callable[[str], float]:
    """A number from `low` to `high`."""
    def parse(raw: str) -> float:
        try:
            value = float(raw.strip())
        except ValueError:
            raise ValueError("") from None
        if not low <= value <= high:  # NaN fails too
            raise ValueError("")
        return value
    return parse


def choice(*words: str) -> Callable[[str], str]:
    """One of `words`."""
    def parse(raw: str) -> str:
        if raw.strip() not in words:
            raise ValueError("")
        return raw.strip()
    return parse


def anything(raw: str) -> str:
    """Any text."""
    return raw


#: The shortest webhook secret accepted: a shorter one is guessed, and redaction searches for it in text the
#: service does not write itself (service/redaction.py).
WEBHOOK_SECRET_LENGTH = 16


def webhook_secret(raw: str) -> str:
    """A webhook secret: at least WEBHOOK_SECRET_LENGTH characters, not only whitespace (never repeated)."""
    if not raw.strip():
        raise ValueError("only whitespace")
    if len(raw) < WEBHOOK_SECRET_LENGTH:
        raise ValueError(f"shorter than {WEBHOOK_SECRET_LENGTH} characters")
    return raw


def path_text(raw: str) -> str:
    """A file system path (not empty, no NUL)."""
    if not raw.strip() or "\0" in raw:
        raise ValueError("")
    return raw


# What the service does with a path, checked by the processes that do it (PATH_CHECKS). Writing is tried with a file
# made and removed again: permission bits tell root nothing, nor what /proc or a read-only mount refuses.

def _writable(directory: str, given: str) -> None:
    """ValueError unless a file can be created in the existing `directory` (`given`: the path as set)."""
    try:
        handle, probe = tempfile.mkstemp(dir=directory, prefix=".longcards-check-")
    except OSError as error:
        where = "it" if directory == given else directory
        raise ValueError(f"cannot create files in {where}: {error.strerror}") from None
    os.close(handle)
    os.unlink(probe)


def writable_directory(raw: str) -> None:
    """An existing directory to create files in, not the working directory (files of their own only)."""
    path = os.path.abspath(raw)
    if not os.path.isdir(path):
        raise ValueError("not a directory" if os.path.exists(path) else "no such directory")
    if os.path.samefile(path, os.getcwd()):
        raise ValueError("the working directory: give the files a directory of their own")
    _writable(path, path)


def creatable_directory(raw: str) -> None:
    """A directory to create files in, or to create with its missing parents."""
    path = existing = os.path.abspath(raw)
    while not os.path.lexists(existing):
        existing = os.path.dirname(existing)
    if not os.path.isdir(existing):
        raise ValueError(f"{'it' if existing == path else existing} is not a directory")
    _writable(existing, path)


def log_file(raw: str) -> None:
    """`-` (standard output), or a file to append to: an existing one, or one to create in an existing directory
    (gunicorn creates no directory)."""
    if raw == "-":
        return
    path = os.path.abspath(raw)
    if os.path.isdir(path):
        raise ValueError("it is a directory")
    if os.path.exists(path):
        try:  # never blocks on a FIFO without a reader, never changes the file
            os.close(os.open(path, os.O_WRONLY | os.O_APPEND | os.O_NONBLOCK))
        except OSError as error:
            raise ValueError(f"cannot append to it: {error.strerror}") from None
        return
    parent = os.path.dirname(path)
    if not os.path.isdir(parent):
        raise ValueError(f"{parent} is not a directory")
    _writable(parent, path)


HOSTNAME = re.compile(r"(?=.{1,253}$)[A-Za-z0-9_]([A-Za-z0-9_-]{0,62})(\.[A-Za-z0-9_]([A-Za-z0-9_-]{0,62}))*\.?")


def host_and_port(entry: str) -> tuple[str, int]:
    """`host:port`, the host a name, an IPv4 address or an IPv6 address in brackets; ValueError otherwise."""
    host, colon, port = entry.strip().rpartition(":")
    if not colon or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError("")
    if host.startswith("[") and host.endswith("]"):
        ipaddress.IPv6Address(host[1:-1])  # ValueError when it is not one
        return host[1:-1], int(port)
    if not HOSTNAME.fullmatch(host):
        raise ValueError("")
    return host, int(port)


def bind_address(raw: str) -> str:
    """gunicorn's BIND: `host:port`, `unix:/path` or `fd://N`."""
    text = raw.strip()
    if text.startswith("unix:") and len(text) > 5 or re.fullmatch(r"fd://\d+", text):
        return text
    host, colon, port = text.rpartition(":")
    if not colon or not port.isdigit() or int(port) > 65535:
        raise ValueError("")
    if int(port) == 0:  # the kernel would pick one, which nobody is told: serve could never report it ready
        raise ValueError("port 0 is a port chosen at random")
    if host.startswith("[") and host.endswith("]"):
        ipaddress.IPv6Address(host[1:-1])
    elif host and not HOSTNAME.fullmatch(host):
        raise ValueError("")
    return text


#: Databases a Redis server has unless its configuration says otherwise (redis.conf's `databases 16`): a number
#: past them is refused by every command of the API (500 each) and of the workers.
REDIS_DATABASES = 16


def redis_url(raw: str) -> str:
    """A Redis URL redis-py accepts: `redis://`, `rediss://` (with a host) or `unix://` (with a path), its database
    (`/N`, or `?db=N`) from 0 to 15. Its messages never repeat any part of the URL (it may hold a password)."""
    from urllib.parse import parse_qsl, urlsplit

    from redis.connection import parse_url

    text = raw.strip()
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 - ValueError on a port that is not a number
    except ValueError:
        raise ValueError("") from None
    if parts.scheme in ("redis", "rediss") and not parts.hostname or parts.scheme == "unix" and not parts.path:
        raise ValueError("")
    # redis-py reads `/abc` as database 0 and `/1/2` as 12: only a plain number is taken.
    databases = [parts.path[1:]] if parts.scheme != "unix" and parts.path not in ("", "/") else []
    databases += [number for name, number in parse_qsl(parts.query) if name == "db"]
    if not all(re.fullmatch(r"[0-9]{1,9}", number) and int(number) < REDIS_DATABASES for number in databases):
        raise ValueError(f"the database is a number from 0 to {REDIS_DATABASES - 1}, as Redis has by default")
    try:
        parse_url(text)  # ValueError on any other scheme
    except ValueError:
        raise ValueError("") from None
    return text


def host_ports(text: str) -> tuple[tuple[str, int], ...]:
    """`host:port,host:port,...` as (host, port) pairs; ValueError naming the entry that is not one (never an entry
    holding a password)."""
    addresses = []
    for entry in (part.strip() for part in text.split(",")):
        if not entry:
            continue
        try:
            addresses.append(host_and_port(entry))
        except ValueError:
            shown = "an entry with a password" if "@" in entry else repr(entry)
            raise ValueError(f"{shown} is not host:port") from None
    if not addresses:
        raise ValueError("names no host:port")
    return tuple(addresses)


def sentinel_list(raw: str) -> str:
    """`host:port,host:port,...` (the Sentinels of service/redisconf.py)."""
    host_ports(raw)
    return raw.strip()


def master_name(raw: str) -> str:
    """The name a Sentinel monitors: no spaces."""
    if not re.fullmatch(r"\S+", raw.strip()):
        raise ValueError("")
    return raw.strip()


def rate_limits(raw: str) -> str:
    """`N/period` with N from 1, several separated by `;` (the `limits` library's notation); `off` (or empty): none,
    read as ""."""
    from limits import parse_many

    text = raw.strip()
    if text.lower() in ("", "off"):
        return ""
    if any(limit.amount < 1 for limit in parse_many(text)):
        raise ValueError("a limit of 0 refuses every request; off: no limit")
    return text


def docs_path(raw: str) -> str:
    """Where the API docs are served: a path of one or more segments, clear of every route of the service."""
    text = raw.strip().rstrip("/")
    if not re.fullmatch(r"(/[A-Za-z0-9._~-]+)+", text) or any(s in (".", "..") for s in text.split("/")):
        raise ValueError("")
    first = text.split("/")[1]
    if first in RESERVED_SEGMENTS:
        raise ValueError(f"/{first} is the service's own")
    if any(text == p or text.startswith(p + "/") for p in RULES_PATHS):
        raise ValueError("the rules page is there")
    return text


def cors_origins(raw: str) -> str:
    """Origins, comma-separated, or `*`."""
    from .http.cors import origins

    origins(raw)
    return raw.strip()


def api_keys(raw: str) -> str:
    """`name:sha256hex` entries, comma-separated."""
    from .http.auth import parse_keys

    try:
        parse_keys(raw)
    except ConfigError as error:
        raise ValueError(str(error).removeprefix("LONGCARDS_API_KEYS ")) from None
    return raw


def _cores() -> int:
    return os.cpu_count() or 1


SETTINGS: tuple[Setting, ...] = (
    # -- where it listens and how gunicorn runs it (deploy/gunicorn.conf.py)
    Setting("BIND", "127.0.0.1:8000", "host:port (a port from 1 to 65535), unix:PATH or fd://N", bind_address),
    Setting("WEB_CONCURRENCY", None, "a whole number from 1 to 256", whole(1, 256), shown_default="cores"),
    Setting("GUNICORN_WORKER_CLASS", "gevent", "gevent, gthread or sync", choice("gevent", "gthread", "sync")),
    Setting("GUNICORN_WORKER_CONNECTIONS", 1000, "a whole number from 1 to 100000", whole(1, 100000)),
    Setting("GUNICORN_THREADS", 1, "a whole number from 1 to 1000", whole(1, 1000)),
    Setting("GUNICORN_TIMEOUT", 30, "a whole number of seconds from 1 to 3600", whole(1, 3600)),
    Setting("GUNICORN_KEEPALIVE", 5, "a whole number of seconds from 1 to 300", whole(1, 300)),
    Setting("GUNICORN_LOGLEVEL", "info", "debug, info, warning, error or critical",
            choice("debug", "info", "warning", "error", "critical")),
    Setting("GUNICORN_ACCESSLOG", "", "a file to append to or to create in an existing directory, - for standard "
            "output", path_text, shown_default="off"),
    Setting("GUNICORN_MAX_REQUESTS", 0, "a whole number from 0 (off) to 10000000", whole(0, 10_000_000)),
    Setting("GUNICORN_MAX_REQUESTS_JITTER", 0, "a whole number from 0 to 10000000", whole(0, 10_000_000)),
    Setting("GUNICORN_CONTROL_SOCKET", None, "a file path", path_text, shown_default="gunicorn's own"),
    Setting("LONGCARDS_WORKER_MAX_MEMORY_MB", 512, "a whole number of MB from 0 (never) to 1048576",
            whole(0, 1 << 20)),
    Setting("PROMETHEUS_MULTIPROC_DIR", None, "an existing writable directory, not the working directory", path_text,
            shown_default="unset: one process"),
    # -- python -m service serve and the workers
    Setting("LONGCARDS_WORKERS", 2, "a whole number from 0 (the API alone) to 64", whole(0, 64)),
    Setting("LONGCARDS_STOP_GRACE", 10.0, "seconds from 0 to 3600", decimal(0, 3600), shown_default="10"),
    Setting("LONGCARDS_JOB_HEARTBEAT", 10, "a whole number of seconds from 1 to 300", whole(1, 300)),
    Setting("LONGCARDS_HEARTBEAT_GRACE", 30, "a whole number of seconds from 1 to 3600", whole(1, 3600)),
    Setting("LONGCARDS_WORKER_POLL", 15, "a whole number of seconds from 1 to 300", whole(1, 300)),
    Setting("LONGCARDS_CLEANUP_INTERVAL", 10, "a whole number of seconds from 1 to 3600", whole(1, 3600)),
    Setting("LONGCARDS_DATA_DIR", ".run", "a writable directory, or one serve can create", path_text),
    # -- Redis (the API, the workers, serve)
    Setting("REDIS_URL", None, "redis://[:PASSWORD@]HOST[:PORT][/DB], rediss://... or unix://PATH[?db=DB], "
            "DB from 0 to 15", redis_url, key="REDIS_URL", secret=True, safe_errors=True,
            shown_default="unset: serve starts a private Redis"),
    Setting("REDIS_SENTINELS", None, "host:port,host:port,... (an IPv6 address in brackets)", sentinel_list,
            key="REDIS_SENTINELS", shown_default="unset: the one Redis of REDIS_URL"),
    Setting("REDIS_SENTINEL_MASTER", None, "a name without spaces; required with REDIS_SENTINELS", master_name,
            key="REDIS_SENTINEL_MASTER", shown_default="none"),
    Setting("REDIS_SENTINEL_PASSWORD", None, "any text", anything, key="REDIS_SENTINEL_PASSWORD", secret=True,
            shown_default="none"),
    Setting("LONGCARDS_SUBMIT_REPLICAS", -1, "a whole number from -1 (one with REDIS_SENTINELS, else none) to 16",
            whole(-1, 16), key="SUBMIT_REPLICAS"),
    # The longest wait is below the Redis client's socket timeout (5 s), which would otherwise cut the WAIT off.
    Setting("LONGCARDS_SUBMIT_REPLICA_WAIT_MS", 1000, "a whole number of ms from 1 to 4000", whole(1, 4000),
            key="SUBMIT_REPLICA_WAIT_MS"),
    Setting("LONGCARDS_JOB_RESULT_TTL", 24 * 3600, "a whole number of seconds from 1 to 2592000 (30 days)",
            whole(1, 30 * 86400), key="JOB_RESULT_TTL"),
    Setting("LONGCARDS_MAX_ACTIVE_JOBS", 20, "a whole number from 0 (no limit) to 100000", whole(0, 100_000),
            key="MAX_ACTIVE_JOBS"),
    Setting("LONGCARDS_SHARE_MAX_BYTES", 1024 * 1024, "a whole number of bytes from 1024 to 67108864",
            whole(1024, 64 * 1024 * 1024), key="SHARE_MAX_BYTES"),
    Setting("LONGCARDS_MAX_SHARES", 1000, "a whole number from 0 (no limit) to 10000000", whole(0, 10_000_000),
            key="MAX_SHARES"),
    Setting("LONGCARDS_SHARE_RETENTION_DAYS", 365, "a whole number of days from 0 (until deleted) to 36500",
            whole(0, 36_500), key="SHARE_RETENTION_DAYS"),
    Setting("LONGCARDS_WEBHOOK_SECRET", None, "text of 16 characters or more, not only whitespace; unset: webhooks "
            "off", webhook_secret, key="WEBHOOK_SECRET", secret=True, safe_errors=True,
            shown_default="unset: webhooks off"),
    Setting("LONGCARDS_WEBHOOK_ALLOW_PRIVATE", False, "true or false", boolean, key="WEBHOOK_ALLOW_PRIVATE"),
    # -- the HTTP API
    Setting("LONGCARDS_API_KEYS", "", "name:sha256hex entries, comma-separated; empty: no keys", api_keys,
            key="API_KEYS", secret=True, safe_errors=True, shown_default="empty: no keys"),
    Setting("LONGCARDS_REQUIRE_AUTH", False, "true or false", boolean, key="REQUIRE_AUTH"),
    Setting("LONGCARDS_RATE_LIMIT", "", "N/PERIOD with N from 1, several separated by ; (600/minute), or off",
            rate_limits, key="RATE_LIMIT", shown_default="off"),
    Setting("LONGCARDS_AUTH_FAIL_LIMIT", "20/minute", "N/PERIOD with N from 1, several separated by ;, or off",
            rate_limits, key="AUTH_FAIL_LIMIT"),
    Setting("LONGCARDS_TRUSTED_PROXIES", 0, "a whole number from 0 to 10", whole(0, 10), key="TRUSTED_PROXIES"),
    Setting("LONGCARDS_CORS_ORIGINS", "", "scheme://host[:port] origins, comma-separated, or *; empty: none",
            cors_origins, key="CORS_ORIGINS", shown_default="empty: none"),
    Setting("LONGCARDS_EMBED_ORIGINS", "", "scheme://host[:port] origins, comma-separated, or *; empty: none",
            cors_origins, key="EMBED_ORIGINS", shown_default="empty: none"),
    # A batch of 200 logs is about 1 MB.
    Setting("LONGCARDS_MAX_CONTENT_LENGTH", 2 * 1024 * 1024, "a whole number of bytes from 64 to 268435456",
            whole(64, 256 * 1024 * 1024), key="MAX_CONTENT_LENGTH"),
    Setting("LONGCARDS_DOCS_URL", "/docs", "a path such as /docs, clear of /v1, /ui, /problems, the probes, "
            "/metrics, /openapi.json and the rules page", docs_path, key="DOCS_URL"),
    Setting("LONGCARDS_METRICS", True, "true or false", boolean, key="METRICS"),
)
BY_ENV = {setting.env: setting for setting in SETTINGS}
#: Paths checked for what a process does with them, by the processes that do it (a worker writes no access log).
PATH_CHECKS: dict[str, tuple[tuple[Role, ...], Callable[[str], None]]] = {
    "GUNICORN_ACCESSLOG": (API_ROLES, log_file),
    "PROMETHEUS_MULTIPROC_DIR": (API_ROLES, writable_directory),
    "LONGCARDS_DATA_DIR": (("serve",), creatable_directory),  # serve creates it
}
BY_KEY = {setting.key: setting for setting in SETTINGS if setting.key}

#: The app's configuration before the environment: every keyed setting's default, and the keys only code sets.
DEFAULTS: dict[str, Any] = {
    "API_TITLE": "Long Cards hand evaluation and replay service",
    "API_VERSION": "1.0.0",
    "OPENAPI_VERSION": "3.0.3",
    "OPENAPI_URL_PREFIX": "/",
    "OPENAPI_JSON_PATH": "openapi.json",
    **{key: setting.default for key, setting in BY_KEY.items()},
}


def _check_together(values: Mapping[str, Any], role: Role) -> list[str]:
    """What is wrong with settings that are each valid but not together, for the process of `role`."""
    problems = []
    if values.get("REDIS_SENTINELS") and not values.get("REDIS_SENTINEL_MASTER"):
        problems.append("REDIS_SENTINELS is set but REDIS_SENTINEL_MASTER (the name the Sentinels monitor) is not")
    # The API's own rule: a worker answers no request, and its pods are not given the API's keys
    # (deploy/k8s/worker.yaml).
    if role in API_ROLES and values.get("LONGCARDS_REQUIRE_AUTH") and \
            not str(values.get("LONGCARDS_API_KEYS") or "").strip():
        from .http.auth import NO_KEYS_REQUIRED

        problems.append(NO_KEYS_REQUIRED)
    return problems


def _check_paths(values: Mapping[str, Any], role: Role) -> list[str]:
    """What is wrong with the paths among `values` that the process of `role` will use."""
    problems = []
    for name, (roles, usable) in PATH_CHECKS.items():
        if role in roles and name in values:
            try:  # the setting's own message: named, its value and why
                replace(BY_ENV[name], parse=usable).read(values[name])
            except ConfigError as error:
                problems.append(str(error))
    return problems


def _read_all(env: Mapping[str, str], settings: Iterable[Setting]) -> tuple[dict[str, Any], list[str]]:
    """The value of every setting of `settings` set in `env` (by variable name), and the problems found."""
    values: dict[str, Any] = {}
    problems = []
    for setting in settings:
        raw = env.get(setting.env)
        if not raw:
            continue  # unset: an empty value is unset too, whatever the setting (docs/configuration.md)
        try:
            values[setting.env] = setting.read(raw)
        except ConfigError as error:
            problems.append(str(error))
    return values, problems


def _fail(problems: list[str]) -> None:
    if problems:
        raise ConfigError("; ".join(problems) if len(problems) == 1 else
                          "bad settings:\n" + "\n".join(f"  {line}" for line in problems))


def check_environment(environ: Mapping[str, str] | None = None, role: Role = "serve") -> dict[str, Any]:
    """Every setting of the environment checked at once, before the process of `role` starts anything: the value
    of each one set (by variable name); ConfigError listing every bad one."""
    env = os.environ if environ is None else environ
    values, problems = _read_all(env, SETTINGS)
    _fail(problems + _check_paths(values, role) + _check_together(values, role))
    return values


def value(values: Mapping[str, Any], name: str) -> Any:
    """A setting's value among `values` (what check_environment read), else its default."""
    if name in values:
        return values[name]
    return _cores() if name == "WEB_CONCURRENCY" else BY_ENV[name].default


def process_setting(name: str, environ: Mapping[str, str] | None = None) -> Any:
    """One setting of a process read alone: its value, else its default; ConfigError when it is bad."""
    env = os.environ if environ is None else environ
    values, problems = _read_all(env, [BY_ENV[name]])
    _fail(problems)
    return value(values, name)


def load(overrides: Mapping[str, Any] | None = None, environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The app's configuration: defaults, then the environment, then `overrides` (typed values, or text read as
    the environment's); ConfigError listing every bad setting."""
    env = os.environ if environ is None else environ
    values, problems = _read_all(env, BY_KEY.values())
    config = dict(DEFAULTS)
    config.update({BY_ENV[name].key: value for name, value in values.items()})  # type: ignore[misc]
    for key, value in (overrides or {}).items():
        setting = BY_KEY.get(key)
        if setting is not None and setting.default is None and value == "":
            value = None  # an empty optional value is unset, as in the environment
        elif setting is not None and isinstance(value, (str, int, float)):
            try:  # text is read as the environment's; a number or a flag is checked against the same range
                read = setting.read(value if isinstance(value, str) else str(value))
                value = read if isinstance(value, str) else value
            except ConfigError as error:
                problems.append(str(error))
                continue
        config[key] = value
    by_env = {setting.env: config[key] for key, setting in BY_KEY.items() if config.get(key) not in (None, "")}
    _fail(problems + _check_together(by_env, "api"))
    return config

