"""Where the service's Redis is, and the one way every part of the service connects to it: the API's jobs, health
and metrics, the rate limits, the workers and their schedulers.

`REDIS_URL` names one server. With `REDIS_SENTINELS` (`host:port,host:port,...`) and `REDIS_SENTINEL_MASTER` (the name
the Sentinels monitor) every connection asks the Sentinels which server is the primary, each time it connects: after
a failover the next connection reaches the promoted replica, without a restart. `REDIS_URL` then gives only the
primary's password, user name and database number (its host and port are not used), and
`REDIS_SENTINEL_PASSWORD` the Sentinels' own password, if they have one (`requirepass` in sentinel.conf).
Read when a connection is made, never at import.
"""

from __future__ import annotations

import os
import urllib.parse
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from redis import Redis
from redis.sentinel import Sentinel

from .config import ConfigError, host_ports
from .redaction import url as shown_url

#: Used when neither `REDIS_URL` nor Sentinel is configured.
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"


class RedisSettingError(ConfigError):
    """A Redis setting the service cannot connect with (gunicorn prints a RuntimeError's message and exits 1)."""


def sentinel_addresses(text: str) -> tuple[tuple[str, int], ...]:
    """`host:port,host:port` (a host name, an IPv4 address or an IPv6 address in brackets) as (host, port) pairs;
    RedisSettingError naming the variable on anything else (a URL, an unclosed bracket)."""
    try:
        return host_ports(text)
    except ValueError as error:
        raise RedisSettingError(f"REDIS_SENTINELS: {error}") from None


@dataclass(frozen=True)
class RedisSettings:
    """Where Redis is: one URL, or Sentinels and the name of the primary they watch (the URL then gives only the
    password, user and database)."""

    url: str = DEFAULT_REDIS_URL
    sentinels: tuple[tuple[str, int], ...] = ()
    master: str | None = None
    sentinel_password: str | None = None

    @classmethod
    def read(cls, settings: Mapping[str, Any] | None = None, url: str | None = None) -> RedisSettings:
        """The settings in `settings` (an app's config, or the environment when None); `url` replaces REDIS_URL."""
        source = os.environ if settings is None else settings
        sentinels = str(source.get("REDIS_SENTINELS") or "").strip()
        master = str(source.get("REDIS_SENTINEL_MASTER") or "").strip() or None
        url = url or source.get("REDIS_URL") or DEFAULT_REDIS_URL
        if not sentinels:
            return cls(url=url)
        if not master:
            raise RedisSettingError("REDIS_SENTINELS is set but REDIS_SENTINEL_MASTER (the name the Sentinels "
                                    "monitor) is not")
        return cls(url=url, sentinels=sentinel_addresses(sentinels), master=master,
                   sentinel_password=source.get("REDIS_SENTINEL_PASSWORD") or None)

    @property
    def uses_sentinel(self) -> bool:
        """Whether the primary is found through Sentinels."""
        return bool(self.sentinels)

    def primary_options(self) -> dict[str, Any]:
        """The password, user name and database of the primary, from REDIS_URL (Sentinel mode)."""
        parts = urllib.parse.urlsplit(self.url)
        query = dict(urllib.parse.parse_qsl(parts.query))
        db = parts.path.strip("/") if parts.scheme in ("redis", "rediss") else query.get("db", "")
        return {"username": urllib.parse.unquote(parts.username) if parts.username else None,
                "password": urllib.parse.unquote(parts.password) if parts.password else None,
                "db": int(db) if db.isdigit() else 0}

    def sentinel_options(self, **timeouts: Any) -> dict[str, Any]:
        """How to talk to the Sentinels: their password (None: none, never the primary's) and the timeouts."""
        return {"password": self.sentinel_password, **{k: v for k, v in timeouts.items() if k.startswith("socket_")}}

    def client(self, **options: Any) -> Redis:
        """A client of the primary (redis-py's `Sentinel.master_for` with Sentinels: it asks them for the primary on
        every new connection, and drops connections to a primary that was demoted); `options` are redis-py's."""
        if not self.uses_sentinel:
            return Redis.from_url(self.url, **options)
        sentinel = Sentinel(list(self.sentinels), sentinel_kwargs=self.sentinel_options(**options))
        return sentinel.master_for(str(self.master), **self.primary_options(), **options)

    def limits_storage(self, **options: Any) -> tuple[str, dict[str, Any]]:
        """The `limits` library's storage URI and options for the same Redis (Flask-Limiter, the failed-login
        limit): `redis+sentinel://` with Sentinels, reading from the primary only (a replica may lag behind)."""
        if not self.uses_sentinel:
            # limits spells unix sockets `redis+unix://`
            return ("redis+" + self.url if self.url.startswith("unix://") else self.url), options
        hosts = ",".join(f"[{host}]:{port}" if ":" in host else f"{host}:{port}" for host, port in self.sentinels)
        primary = {k: v for k, v in self.primary_options().items() if v is not None}
        return f"redis+sentinel://{hosts}/{self.master}", {
            **primary, **options, "use_replicas": False, "sentinel_kwargs": self.sentinel_options(**options)}

    def describe(self) -> str:
        """Where Redis is, for a log line (no password, in the user information or the query)."""
        if self.uses_sentinel:
            hosts = ",".join(f"{host}:{port}" for host, port in self.sentinels)
            return f"the primary {self.master!r} of the Sentinels {hosts}"
        parts = urllib.parse.urlsplit(self.url)
        return shown_url(urllib.parse.urlunsplit(parts._replace(netloc=parts.netloc.rpartition("@")[2])))


def failure(error: BaseException, settings: Mapping[str, Any] | None = None) -> str:
    """A Redis failure for a log line: the error's class and where Redis is (no password, never the error's text:
    redis-py's can hold a connection's repr with its password)."""
    try:
        where = RedisSettings.read(settings).describe()
    except ConfigError:
        where = "an unusable Redis setting"
    return f"{type(error).__name__} from {where}"
