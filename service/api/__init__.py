"""HTTP API: flask-smorest blueprints, one package per resource, errors as problem+json.

Answers: a view returns its answer and `@blp.response(code, Schema)` serialises it (flask-smorest's way), except
on the per-move hand endpoints, where dumping through marshmallow costs more than the engine does
(`bench/serialisation.py`, µs to encode one answer as built / through its schema: /v1/hu 11 / 104,
/v1/melds 33 / 588, /v1/discards 66 / 2,168; /v1/audits 35 / 446, under 6% of its request). /v1/hu, /v1/melds
and /v1/discards build their answers to the response schema and send them as they are (orjson, `jsonify`);
the schemathesis suite checks those answers against the schema. Every other view returns objects.
"""

from __future__ import annotations

import http
import json

from apispec.ext.marshmallow import MarshmallowPlugin, OpenAPIConverter
from apispec.ext.marshmallow.common import resolve_schema_cls
from flask import Flask
from flask_smorest import Api as SmorestApi
from flask_smorest.utils import prepare_response

from .. import i18n
from ..http.errors import PROBLEM_TYPE, ProblemSchema, handle_http_exception
from .common import CARD_COMPONENTS, Card, OneOf, card_components


class Converter(OpenAPIConverter):
    """apispec's converter, spelling a nullable nested schema the OpenAPI 3.0 way: `allOf: [$ref]` + `nullable`.

    apispec writes `anyOf: [{type: object, nullable: true}, {$ref}]`, which any object satisfies: generated
    clients then type the field as a bare dict, and the game-log JSON Schema accepted any `result` object.
    """

    def field2nullable(self, field, ret) -> dict:
        """`nullable`, with a `$ref` moved under `allOf` (a `$ref`'s siblings are ignored in OpenAPI 3.0)."""
        if field.allow_none and self.openapi_version.major == 3 and self.openapi_version.minor == 0:
            if "$ref" in ret:
                return {"allOf": [{"$ref": ret.pop("$ref")}], "nullable": True}
            if "allOf" in ret:  # apispec already moved the $ref there (the field has a description or default)
                return {"nullable": True}
        return super().field2nullable(field, ret)

    def field2property(self, field) -> dict:
        """The property apispec makes of a field; a card code refers to its family's card component (either
        family's: `anyOf` both), no inline enum of its own; a `OneOf` to its schemas' components."""
        ret = super().field2property(field)
        if isinstance(field, Card):
            ret.pop("type", None)
            names = [field.component] if field.component else list(CARD_COMPONENTS)
            ret["allOf" if len(names) == 1 else "anyOf"] = [{"$ref": f"#/components/schemas/{n}"} for n in names]
        if isinstance(field, OneOf):
            ret["oneOf"] = [self.resolve_nested_schema(schema) for schema in field.schemas]
        return ret


class DescribedSchemas(MarshmallowPlugin):
    """The marshmallow plugin, describing each schema component by its class docstring (unless Meta says), and
    each property's default in words rather than as a `default` keyword (`without_defaults`)."""

    Converter = Converter

    def schema_helper(self, name, _, schema=None, **kwargs):
        """The component as MarshmallowPlugin makes it, with a `description`, and no `default` on a property."""
        json_schema = super().schema_helper(name, _, schema=schema, **kwargs)
        doc = resolve_schema_cls(schema).__doc__ if schema is not None else None  # its own, not a base class's
        if json_schema is not None and doc and "description" not in json_schema:
            json_schema["description"] = " ".join(doc.split())
        if json_schema is not None:
            without_defaults(json_schema)
        return json_schema


def without_defaults(json_schema: dict) -> None:
    """Move each property's `default` (a field's `load_default`: what the server assumes when a body leaves it out)
    into its description, as `default: <value>` (nothing for a null default: left out means null).

    A property that may be left out is one not in `required`, which is how openapi-python-client reads it. But
    openapi-typescript (7, default settings: `defaultNonNullable`) types every property carrying a `default` as
    always present, unless the schema is written inline under a `requestBody`; ours are components referred to
    from the body, so a `default` would make TypeScript callers send every such field (`card_source`, `seat_role`
    and `public_card` of /v1/hu's body, `seats` of /v1/discards', ...). Parameters (query strings) keep theirs."""
    for prop in json_schema.get("properties", {}).values():
        if "default" not in prop:
            continue
        value = prop.pop("default")
        described = prop.get("description", "")
        if value is None or "Default" in described:
            continue
        shown = f"`{value if isinstance(value, str) else json.dumps(value)}`"
        if not described:
            prop["description"] = f"Default: {shown}."
        elif described.endswith("."):
            prop["description"] = f"{described} Default: {shown}."
        else:
            prop["description"] = f"{described}; default: {shown}"


class Api(SmorestApi):
    """flask-smorest Api whose documented and served errors are RFC 9457 problem documents."""

    ERROR_SCHEMA = ProblemSchema

    def handle_http_exception(self, error):
        """Serve HTTP errors as problem+json."""
        return handle_http_exception(error)

    def _register_responses(self) -> None:
        """Document every error status with the problem schema and its media type."""
        for status in http.HTTPStatus:
            response: dict = {"description": status.phrase}
            if not (100 <= status < 200) and status not in (204, 304):
                response["schema"] = self.ERROR_SCHEMA
            prepare_response(response, self.spec, PROBLEM_TYPE)
            self.spec.components.response(status.name, response, lazy=True)
        response = {"description": "Default error response", "schema": self.ERROR_SCHEMA}
        prepare_response(response, self.spec, PROBLEM_TYPE)
        self.spec.components.response(self.DEFAULT_ERROR_RESPONSE_NAME, response, lazy=True)


def register_blueprints(app: Flask) -> Api:
    """Create the Api and register every resource blueprint."""
    from .audits.routes import blp as audits
    from .claims.routes import blp as claims
    from .discards.routes import blp as discards
    from .drills.routes import blp as drills
    from .hands.routes import blp as hands
    from .health.routes import blp as health
    from .jobs.routes import blp as jobs
    from .problems.routes import blp as problems
    from .replays import routes as _replays  # noqa: F401 - adds POST /v1/replays to the jobs blueprint (one `jobs` tag)
    from .rulesets.routes import blp as rulesets
    from .searches.routes import blp as searches
    from .settlements.routes import blp as settlements
    from .shares.routes import blp as shares
    from .simulations.routes import blp as simulations

    api = Api(app, spec_kwargs={"info": {"description": API_DESCRIPTION}, "security": SECURITY,
                                "marshmallow_plugin": DescribedSchemas()})
    api.spec.components.security_scheme(
        "ApiKeyBearer", {"type": "http", "scheme": "bearer", "description": "Authorization: Bearer <API key>"})
    api.spec.components.security_scheme(
        "ApiKeyHeader", {"type": "apiKey", "in": "header", "name": "X-API-Key", "description": "the API key"})
    languages = ", ".join(f"`{i18n.tag(code)}` ({name})" for code, name in i18n.LANGUAGES.items())
    api.spec.components.parameter("Lang", "query", {
        "name": "lang",
        "description": f"The language of the answer's texts for people (advice `reason`s, the `message`s of a hand's "
                       f"`reasons`, problem `title`, `detail` and `errors` messages): {languages}; it wins over "
                       f"`Accept-Language`. Codes, card codes and field names never change. The answer says its "
                       f"language in `Content-Language`.",
        "required": False, "schema": {"type": "string", "example": "vi"}})
    api.spec.components.parameter("AcceptLanguage", "header", {
        "name": "Accept-Language",
        "description": "The languages the reader prefers (RFC 9110): the best supported one is used, else English; "
                       "any Chinese is answered in Traditional Chinese (`zh-Hant`).",
        "required": False, "schema": {"type": "string", "example": "vi, en;q=0.5"}})
    api.spec.components.parameter("SeatsFrom", "header", {
        "name": i18n.SEATS_HEADER,
        "description": "`1`: the answer's texts for people name seats as players count them, from 1 (seat 0 is "
                       "\"seat 1\"); the fields (`seat`, `winner`, ...) always count from 0. Absent or any other "
                       "value: texts count from 0 too, as the fields do.",
        "required": False, "schema": {"type": "string", "example": "1"}})
    for name, component in card_components().items():
        api.spec.components.schema(name, component)
    # POST /v1/hu's body keeps the name generated clients know it by (`HandRequest`), its claim fields optional
    from .hands.schemas import HuRequestSchema

    api.spec.components.schema("HandRequest", schema=HuRequestSchema)
    for blueprint in (health, rulesets, hands, settlements, audits, simulations, discards, claims, drills, jobs,
                      searches, shares, problems):
        api.register_blueprint(blueprint)
    return api


#: Either key header; `{}` because keys are off unless the deployment configures them (LONGCARDS_API_KEYS).
SECURITY: list[dict[str, list[str]]] = [{"ApiKeyBearer": []}, {"ApiKeyHeader": []}, {}]

API_DESCRIPTION = """\
Rules engine for the long-card games Four Color Cards (bga-taiwan, cardavia-flowers) and Chắn (cardavia-chan).
Every request that evaluates cards names a `ruleset` and may pass `options`; every answer echoes the rule-set,
the fully resolved options and the `engine_version`. Cards are canonical, case-sensitive codes (`rG`, `F3`).
Errors are RFC 9457 problem documents (`application/problem+json`) with a stable `code` and, for invalid input,
`errors` mapping dotted field paths (`hand.3`, `exposed.0.cards`) to messages.
When the deployment configures API keys, every operation but `/healthz`, `/readyz` and the reads of a stored game
(`GET /v1/shares/{id}` and its rounds: the unguessable id is the capability) needs one, as
`Authorization: Bearer <key>` or `X-API-Key: <key>` (401 `missing_api_key`, 403 `invalid_api_key`), and a job is
visible only to the key that created it. A rate limit, when configured, answers 429 `rate_limited` with
`Retry-After`.
"""
