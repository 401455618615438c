"""POST /v1/audits (replay a log, report violations, recompute the outcome) and GET /v1/schemas/game-log."""

from __future__ import annotations

from typing import Any

from flask import current_app
from flask.views import MethodView

from ...i18n import localize
from ...replay.audit import audit
from ...replay.trace import audit_with_tables
from ...replay.violations import rule_of
from ...rules.registry import get_ruleset
from ...rules.text import read_texts
from ..blueprint import Blueprint
from ..caching import cached
from ..common import CARD_CODES, CARD_COMPONENTS, echo
from ..examples import AUDIT_LOG
from .schemas import AuditArgsSchema, AuditResponseSchema, GameLogSchema

blp = Blueprint("audits", __name__, url_prefix="/v1", description="Game-log audits")


def audit_json(raw: dict, tables: bool = False) -> dict:
    """The audit answer of a log document (DomainError for a frame that cannot be replayed); with `tables`, the
    table after every event too."""
    found, table_list = audit_with_tables(raw) if tables else (audit(raw), None)
    ruleset = get_ruleset(raw["ruleset"])
    answer = echo(ruleset, dict(ruleset.resolve_options(raw.get("options"))))
    answer.update(
        valid=found.valid,
        violations=[{"event": v.event, "seat": v.seat, "code": v.code, "message": localize(v.message),
                     "rule": rule_of(v.code)} for v in found.violations],
        outcome=read_texts(dict(found.outcome), localize), recorded_result_matches=found.recorded_result_matches,
        events=found.events,
    )
    if table_list is not None:
        answer["tables"] = table_list
    return answer


@blp.route("/audits")
class Audits(MethodView):
    """Synchronous audit of one round."""

    @blp.doc(operationId="audit_log")
    @blp.arguments(GameLogSchema(), example=AUDIT_LOG)
    @blp.arguments(AuditArgsSchema(), location="query")
    @blp.response(200, AuditResponseSchema())
    def post(self, payload: dict, args: dict):
        """Replay a game log under its rules: every violation, the recomputed outcome, the recorded result check
        (`?tables=true`: and the table after every event)."""
        return audit_json(payload, args["tables"])


@blp.route("/schemas/game-log")
class GameLogJsonSchema(MethodView):
    """The game-log format as a JSON Schema."""

    @cached
    @blp.doc(operationId="get_game_log_schema")
    @blp.response(200)
    @blp.alt_response(304, description="If-None-Match names the current ETag")
    def get(self):
        """JSON Schema (draft 2020-12) of a game log, generated from the same schema /v1/audits validates with."""
        spec = current_app.extensions["longcards_api"].spec.to_dict()
        return json_schema(spec, "GameLog")


def json_schema(spec: dict, name: str) -> dict:
    """A component of the OpenAPI document as a self-contained JSON Schema (refs kept under $defs)."""
    components = {key: inline_cards(value) for key, value in spec["components"]["schemas"].items()}

    def convert(node: object) -> object:
        if isinstance(node, dict):
            out: dict[str, Any] = {k: convert(v) for k, v in node.items() if k != "nullable"}
            if "$ref" in out:
                out["$ref"] = out["$ref"].replace("#/components/schemas/", "#/$defs/")
            return nullable(out) if node.get("nullable") else out
        if isinstance(node, list):
            return [convert(v) for v in node]
        return node

    wanted: dict[str, Any] = {}
    todo = [name]
    while todo:
        current = todo.pop()
        if current in wanted:
            continue
        wanted[current] = convert(components[current])
        todo += [r.rsplit("/", 1)[-1] for r in _refs(components[current])]
    root = dict(wanted.pop(name))
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "/v1/schemas/game-log",
            "title": "Game log", **root, "$defs": wanted}


def nullable(node: dict) -> dict:
    """OpenAPI 3.0's `nullable: true` in JSON Schema: null added to the type, or beside a referenced schema.
    Without either the node admits any value, null included, as it is."""
    if "type" in node:
        node = {**node, "type": [node["type"], "null"]}
        if "enum" in node and None not in node["enum"]:
            node["enum"] = [*node["enum"], None]
        return node
    if "allOf" in node:
        rest = {k: v for k, v in node.items() if k != "allOf"}
        return {**rest, "anyOf": [{"allOf": node["allOf"]}, {"type": "null"}]}
    return node


#: A card of either family as the spec refers to it.
EITHER_CARD = [{"$ref": f"#/components/schemas/{name}"} for name in CARD_COMPONENTS]


def inline_cards(node: object) -> object:
    """A card field as the game-log schema has always shown it: a string of the codes of both families, inline
    (the spec refers to the FourColorCard and ChanCard components instead)."""
    if isinstance(node, list):
        return [inline_cards(v) for v in node]
    if not isinstance(node, dict):
        return node
    if node.get("anyOf") != EITHER_CARD:
        return {k: inline_cards(v) for k, v in node.items()}
    codes: list[str | None] = list(CARD_CODES)
    if node.get("nullable"):
        codes.append(None)
    return {"type": "string", **{k: v for k, v in node.items() if k != "anyOf"}, "enum": codes}


def _refs(node: object) -> list[str]:
    """Every $ref under a node."""
    if isinstance(node, dict):
        found = [node["$ref"]] if "$ref" in node else []
        return found + [r for v in node.values() for r in _refs(v)]
    if isinstance(node, list):
        return [r for v in node for r in _refs(v)]
    return []
