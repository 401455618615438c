"""Compressed answers (flask-compress): gzip for JSON, problem documents, the docs bundle and the spec when the
client accepts it, from `COMPRESS_MIN_SIZE` bytes on; every answer says `Vary: Accept-Encoding`."""

from __future__ import annotations

from flask import Flask, Response, request
from flask_compress import Compress

#: Media types worth compressing: the API's answers, the spec and the Swagger UI files.
MIMETYPES = ["application/json", "application/problem+json", "text/html", "text/css", "text/javascript",
             "application/javascript", "text/plain"]

#: The docs blueprint (service/ui/docs.py): it serves the Swagger UI files from disk.
DOCS_BLUEPRINT = "swagger_ui"


def buffer_static(response: Response) -> Response:
    """Read a static file of the docs into memory so it is gzipped like any answer: flask-compress would
    otherwise stream it with only brotli, zstd or deflate."""
    if request.blueprint == DOCS_BLUEPRINT and response.is_streamed and response.status_code == 200:
        response.direct_passthrough = False
        response.make_sequence()
    return response


def init_app(app: Flask) -> None:
    """Install compression; gzip only: every HTTP client speaks it."""
    for name, value in (("COMPRESS_MIMETYPES", MIMETYPES), ("COMPRESS_ALGORITHM", ["gzip"]),
                        ("COMPRESS_MIN_SIZE", 1024), ("COMPRESS_LEVEL", 6)):
        app.config.setdefault(name, value)
    Compress(app)
    app.after_request(buffer_static)  # after_request hooks run last-registered first: this one before compression
