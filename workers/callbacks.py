"""The connection that takes a webhook where it may go.

Delivery resolves and checks the callback's host again (service/jobs/callbacks.py) and connects to the addresses
it checked (the Host header and TLS server name stay the URL's host), so a second DNS answer cannot redirect it,
and redirects are never followed. Unless private addresses are allowed (`LONGCARDS_WEBHOOK_ALLOW_PRIVATE`) every
address must be public.
"""

from __future__ import annotations

import http.client
import os
import socket
import ssl
from collections.abc import Mapping
from urllib.parse import urlsplit

from service.jobs.callbacks import Address, CallbackRefused, endpoint, resolve

ALLOW_PRIVATE_ENV = "LONGCARDS_WEBHOOK_ALLOW_PRIVATE"
#: Refused deliveries raise the service's own refusal (re-exported for the webhook job).
__all__ = ["ALLOW_PRIVATE_ENV", "CallbackRefused", "allow_private", "post"]

def allow_private(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether callbacks may go to loopback, private and link-local addresses (the workers' setting)."""
    return environ.get(ALLOW_PRIVATE_ENV, "").strip().lower() in ("1", "true", "yes", "on")


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
        self.addresses, self.connect_timeout = addresses, timeout

    def connect(self) -> None:
        """Connect to a checked address instead of resolving the host again."""
        self.sock = connect(self.addresses, self.connect_timeout)


def tls_context() -> ssl.SSLContext:
    """The TLS settings of deliveries: the system's trusted CAs, certificates and host names checked."""
    return ssl.create_default_context()


class PinnedHTTPSConnection(http.client.HTTPSConnection):
    """HTTPS to checked addresses; the Host header, TLS server name and certificate check use the URL's host."""

    def __init__(self, host: str, port: int, addresses: list[Address], timeout: float) -> None:
        self.tls = tls_context()
        super().__init__(host, port, timeout=timeout, context=self.tls)
        self.addresses, self.connect_timeout = addresses, timeout

    def connect(self) -> None:
        """Connect to a checked address, then start TLS for the URL's host."""
        self.sock = self.tls.wrap_socket(connect(self.addresses, self.connect_timeout), server_hostname=self.host)


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
