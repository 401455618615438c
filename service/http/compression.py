"""Compressed answers (flask-compress): gzip for JSON, problem documents, the docs bundle and the spec when the
client accepts it, from `COMPRESS_MIN_SIZE` bytes on; every answer says `Vary: Accept-Encoding` (the envelope,
service/http/envelope.py, adds it)."""

from __future__ import annotations

from flask import Flask, Response, request
from flask_compress import Compress

#: Media types worth compressing: the API's answers, the spec and the Swagger UI files.
MIMETYPES = ["application/json", "application/problem+json", "text/html", "text/css", "text/javascript",
             "application/javascript", "text/plain"]
#: A gzip header's modification time when none is given.
NO_TIME = b"\0\0\0\0"
#: The docs blueprint (service/ui/docs.py): it serves the Swagger UI files from disk.
DOCS_BLUEPRINT = "swagger_ui"


def init_app(app: Flask) -> None:
    """Install compression as one after-request hook; gzip only: every HTTP client speaks it."""
    for name, value in (("COMPRESS_MIMETYPES", MIMETYPES), ("COMPRESS_ALGORITHM", ["gzip"]),
                        ("COMPRESS_MIN_SIZE", 1024), ("COMPRESS_LEVEL", 6), ("COMPRESS_REGISTER", False)):
        app.config.setdefault(name, value)
    compress = Compress(app)
    smallest = int(app.config["COMPRESS_MIN_SIZE"])

    def finish(response: Response) -> Response:
        """Gzip the answer when it is worth it. Most answers are small: they skip flask-compress's checks (the
        Accept-Encoding parse, the media type) at the cost of one length test."""
        if response.is_streamed:
            if request.blueprint == DOCS_BLUEPRINT and response.status_code == 200:
                # a docs file: read it into memory so it is gzipped like any answer (flask-compress would
                # otherwise stream it with only brotli, zstd or deflate)
                response.direct_passthrough = False
                response.make_sequence()
        else:
            length = response.content_length
            if length is not None and length < smallest:
                return response
        response = compress.after_request(response)
        if response.headers.get("Content-Encoding") == "gzip" and not response.is_streamed:
            # gzip writes the time into its header (bytes 4-7): the same answer must be the same bytes under its
            # ETag whatever the second, so the time is left out (0: "none given", RFC 1952).
            data = response.get_data()
            if data[4:8] != NO_TIME:
                response.set_data(data[:4] + NO_TIME + data[8:])
        return response

    app.after_request(finish)
