"""Where a webhook may go: the check the API makes when a job is submitted and the workers again at every delivery.

A callback URL is http or https without a control character (a NUL byte, a line break: no delivery could carry
it); its host is resolved, and unless private addresses are allowed every address must be public. IPv6 forms that
carry an IPv4 address inside them (IPv4-mapped and -compatible, NAT64, 6to4, Teredo) are refused outright: whatever
they embed can reach an IPv4 network the service should not probe (:: and ::1 embed none: they are refused as not
public). The workers connect to the addresses checked here (workers/callbacks.py).
"""

from __future__ import annotations

import ipaddress
import re
import socket
from typing import Any
from urllib.parse import urlsplit

#: The shared secret webhooks are signed with; without it the API refuses jobs with a callback.
SECRET_ENV = "LONGCARDS_WEBHOOK_SECRET"
#: IPv6 prefixes whose addresses embed an IPv4 address.
EMBEDDED_IPV4 = tuple(ipaddress.IPv6Network(prefix) for prefix in (
    "::ffff:0:0/96",  # IPv4-mapped
    "::/96",  # IPv4-compatible (deprecated; :: and ::1 are not: UNSPECIFIED_AND_LOOPBACK)
    "::ffff:0:0:0/96",  # IPv4-translated (SIIT)
    "64:ff9b::/96",  # NAT64, well-known prefix
    "64:ff9b:1::/48",  # NAT64, local use
    "2002::/16",  # 6to4
    "2001::/32",  # Teredo
))
#: The IPv6 unspecified and loopback addresses: inside ::/96, but they embed no IPv4 address (RFC 4291 2.5.5.1).
UNSPECIFIED_AND_LOOPBACK = (ipaddress.IPv6Address("::"), ipaddress.IPv6Address("::1"))
#: Characters no URL may hold: the C0 controls (NUL, tab, line breaks ...) and DEL.
CONTROL = re.compile(r"[\x00-\x1f\x7f]")

Address = tuple[int, Any]  # (address family, socket address) as getaddrinfo gives them


class CallbackRefused(ValueError):
    """A callback URL that is not http(s), does not resolve, or resolves to an address webhooks may not reach."""


def lookup(host: str, port: int) -> list[Address]:
    """The host's TCP addresses, in the resolver's order."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys((family, sockaddr) for family, _, _, _, sockaddr in infos))


def refusal(address: str) -> str | None:
    """Why a webhook may not go to this address, or None when it is a public one."""
    ip = ipaddress.ip_address(address.split("%")[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip not in UNSPECIFIED_AND_LOOPBACK and \
            any(ip in prefix for prefix in EMBEDDED_IPV4):
        return f"{ip} is an IPv6 form that embeds an IPv4 address"
    if not ip.is_global:
        return f"{ip} is not a public address"
    return None


def endpoint(url: str) -> tuple[str, str, int]:
    """Scheme, host and port of an http(s) URL; refused when it holds a control character."""
    if CONTROL.search(url):
        raise CallbackRefused("the URL holds a control character")
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
