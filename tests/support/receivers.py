"""A local webhook receiver: an http.server on 127.0.0.1 in a thread that records every request it gets."""

from __future__ import annotations

import contextlib
import ssl
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, HTTPServer


@dataclass
class Receiver:
    """Records each request (method, headers, body) and answers the next of `answers` (then 200); a 3xx answer
    carries `Location: location`."""

    answers: list[int] = field(default_factory=list)
    location: str = ""
    requests: list[tuple[dict[str, str], bytes]] = field(default_factory=list)
    methods: list[str] = field(default_factory=list)
    url: str = ""
    port: int = 0


@contextlib.contextmanager
def receiving(tls: ssl.SSLContext | None = None) -> Iterator[Receiver]:
    """A receiver on a free port of 127.0.0.1 (HTTPS with a server context `tls`), shut down and closed afterwards."""
    record = Receiver()

    class Handler(BaseHTTPRequestHandler):
        def answer(self) -> None:
            """Record the request and send the next answer."""
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            record.requests.append((dict(self.headers), body))
            record.methods.append(self.command)
            status = record.answers.pop(0) if record.answers else 200
            self.send_response(status)
            if 300 <= status < 400:
                self.send_header("Location", record.location)
            self.send_header("Content-Length", "0")
            self.end_headers()

        do_POST = do_GET = answer  # noqa: N815 - http.server's names

        def log_message(self, *args) -> None:
            """Keep the test output quiet."""

    server = HTTPServer(("127.0.0.1", 0), Handler)
    if tls is not None:
        server.socket = tls.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    record.port = server.server_port
    record.url = f"{'https' if tls else 'http'}://127.0.0.1:{server.server_port}/hook"
    try:
        yield record
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
