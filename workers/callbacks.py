"""Where a webhook may go, and the connection that takes it there.

A callback URL is http or https; its host is resolved when the job is submitted and again at every delivery, and
unless private addresses are allowed (`LONGCARDS_WEBHOOK_ALLOW_PRIVATE`) every address must be public. IPv6 forms
that carry an IPv4 address inside them (IPv4-mapped and -compatible, NAT64, 6to4, Teredo) are refused outright:
whatever they embed can reach an IPv4 network the service should not probe. Delivery connects to the addresses
it checked (the Host header and TLS server name stay the URL's host), so a second DNS answer cannot redirect it,
and redirects are never followed.
"""

from __future__ import annotations

import http.client
import ipaddress
import os
import socket
import ssl
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

ALLOW_PRIVATE_ENV = "LONGCARDS_WEBHOOK_ALLOW_PRIVATE"
#: IPv6 prefixes whose addresses embed an IPv4 address.
EMBEDDED_IPV4 = tuple(ipaddress.IPv6Network(prefix) for prefix in (
    "::ffff:0:0/96",  # IPv4-mapped
    "::/96",  # IPv4-compatible (deprecated; holds :: and ::1 too)
    "::ffff:0:0:0/96",  # IPv4-translated (SIIT)
    "64:ff9b::/96",  # NAT64, well-known prefix
    "64:ff9b:1::/48",  # NAT64, local use
    "2002::/16",  # 6to4
    "2001::/32",  # Teredo
))

Address = tuple[int, Any]  # (address family, socket address) as getaddrinfo gives them


class CallbackRefused(ValueError):
    """A callback URL that is not http(s), does not resolve, or resolves to an address webhooks may not reach."""


def allow_private(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether callbacks may go to loopback, private and link-local addresses (the workers' setting)."""
    return environ.get(ALLOW_PRIVATE_ENV, "").strip().lower() in ("1", "true", "yes", "on")


def lookup(host: str, port: int) -> list[Address]:
    """The host's TCP addresses, in the resolver's order."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys((family, sockaddr) for family, _, _, _, sockaddr in infos))


def refusal(address: str) -> str | None:
    """Why a webhook may not go to this address, or None when it is a public one."""
    ip = ipaddress.ip_address(address.split("%")[0])
    if isinstance(ip, ipaddress.IPv6Address) and any(ip in prefix for prefix in EMBEDDED_IPV4):
        return f"{ip} is an IPv6 form that embeds an IPv4 address"
    if not ip.is_global:
        return f"{ip} is not a public address"
    return None


def endpoint(url: str) -> tuple[str, str, int]:
    """Scheme, host and port of an http(s) URL."""
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        raise CallbackRefused(f"{url!r} has an invalid port") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise CallbackRefused(f"{url!r} is not an http or https URL")
    return parts.scheme, parts.hostname, port or (443 if parts.scheme == "https" else 80)


def resolve(url: str, private: bool = False) -> list[Address]:
    """The addresses a webhook to `url` may connect to; refused when the host does not resolve or any address
    is not public (unless `private`)."""
    _, host, port = endpoint(url)
    try:
        addresses = lookup(host, port)
    except (OSError, UnicodeError):
        raise CallbackRefused(f"host {host!r} does not resolve") from None
    if not addresses:
        raise CallbackRefused(f"host {host!r} does not resolve")
    if not private:
        for _, sockaddr in addresses:
            reason = refusal(sockaddr[0])
            if reason:
                raise CallbackRefused(f"host {host!r} resolves to {reason}")
    return addresses


def connect(addresses: list[Address], timeout: float) -> socket.socket:
    """A TCP connection to the first of the checked addresses that answers."""
    error: OSError = OSError("no address")
    for family, sockaddr in addresses:
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.settimeout(timeout)
        try:
            sock.connect(sockaddr)
            return sock
        except OSError as failed:
            sock.close()
            error = failed
    raise error


class PinnedHTTPConnection(http.client.HTTPConnection):
    """HTTP to checked addresses; the Host header is the URL's host."""

    def __init__(self, host: str, port: int, addresses: list[Address], timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self.addresses = addresses

    def connect(self) -> None:
        """Connect to a checked address instead of resolving the host again."""
        self.sock = connect(self.addresses, self.timeout)


def tls_context() -> ssl.SSLContext:
    """The TLS settings of deliveries: the system's trusted CAs, certificates and host names checked."""
    return ssl.create_default_context()


class PinnedHTTPSConnection(http.client.HTTPSConnection):
    """HTTPS to checked addresses; the Host header, TLS server name and certificate check use the URL's host."""

    def __init__(self, host: str, port: int, addresses: list[Address], timeout: float) -> None:
        self.tls = tls_context()
        super().__init__(host, port, timeout=timeout, context=self.tls)
        self.addresses = addresses

    def connect(self) -> None:
        """Connect to a checked address, then start TLS for the URL's host."""
        self.sock = self.tls.wrap_socket(connect(self.addresses, self.timeout), server_hostname=self.host)


def post(url: str, body: bytes, headers: Mapping[str, str], timeout: float, private: bool = False) -> int:
    """POST `body` to `url` at the addresses checked now (no redirect is followed); the answer's status."""
    scheme, host, port = endpoint(url)
    addresses = resolve(url, private)
    parts = urlsplit(url)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    kind = PinnedHTTPSConnection if scheme == "https" else PinnedHTTPConnection
    conn = kind(host, port, addresses, timeout)
    try:
        conn.request("POST", target, body=body, headers=dict(headers))
        with conn.getresponse() as response:
            response.read()
            return response.status
    finally:
        conn.close()
