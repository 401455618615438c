"""The project's flask-smorest Blueprint: request bodies are decoded with orjson (same errors, less time)."""

from __future__ import annotations

from typing import Any

import flask_smorest
import orjson
from webargs import core
from webargs.flaskparser import FlaskParser, is_json_request


class Parser(FlaskParser):
    """webargs' Flask parser with orjson decoding; invalid JSON still raises json.JSONDecodeError (400)."""

    def _raw_load_json(self, req: Any) -> Any:
        if not is_json_request(req):
            return core.missing
        data = req.get_data(cache=True)
        if not data:
            return core.missing
        return orjson.loads(data)


class Blueprint(flask_smorest.Blueprint):
    """flask_smorest.Blueprint using `Parser`."""

    ARGUMENTS_PARSER = Parser()
