"""The committed openapi.yaml is exactly what the app serves, and the docs page is served locally."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from service.__main__ import main, openapi_document, render
from service.api.examples import EXAMPLES
from service.app import create_app

SPEC = Path(__file__).resolve().parents[2] / "openapi.yaml"


def test_served_spec_equals_committed_file(client):
    """A schema change without regenerating openapi.yaml fails here (python -m service openapi)."""
    served = client.get("/openapi.json").get_json()
    assert served == yaml.safe_load(SPEC.read_text(encoding="utf-8"))


def test_committed_file_is_rendered_text(tmp_path):
    """The file is byte-for-byte the rendering, so reviews see real diffs only."""
    assert SPEC.read_text(encoding="utf-8") == render(openapi_document())
    stale = tmp_path / "openapi.yaml"
    stale.write_text("openapi: 0\n", encoding="utf-8")
    assert main(["openapi", "--check", str(stale)]) == 1
    assert main(["openapi", str(stale)]) == 0
    assert main(["openapi", "--check", str(stale)]) == 0


def test_every_error_response_is_problem_json():
    """Documented error responses use application/problem+json."""
    doc = yaml.safe_load(SPEC.read_text(encoding="utf-8"))
    for name in ("UNPROCESSABLE_ENTITY", "DEFAULT_ERROR"):
        assert list(doc["components"]["responses"][name]["content"]) == ["application/problem+json"]


def test_every_error_answer_of_every_operation_is_a_problem():
    """Each operation's 4xx/5xx answers carry the Problem body (a generated client parses them, never None);
    those with a JSON body document 400, 413 and 415, those under /v1 401 and 403."""
    doc = yaml.safe_load(SPEC.read_text(encoding="utf-8"))
    problem = {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
    for path, item in doc["paths"].items():
        for method, op in item.items():
            if method not in ("get", "post", "delete") or path.startswith("/ui"):
                continue
            answers = op["responses"]
            for status, answer in answers.items():
                if status == "default" or int(status) >= 400:
                    if "$ref" in answer:
                        answer = doc["components"]["responses"][answer["$ref"].rsplit("/", 1)[-1]]
                    assert answer["content"] == problem, (path, method, status)
            if "requestBody" in op:
                assert {"400", "413", "415", "422"} <= set(answers), (path, method)
            if path.startswith("/v1"):
                assert {"401", "403", "429"} <= set(answers), (path, method)
    assert "409" in doc["paths"]["/v1/jobs/{job_id}"]["delete"]["responses"]


def test_docs_page_is_local(client):
    """Swagger UI and its assets come from this server, no CDN: its files, and the pages' script that sets it up."""
    page = client.get("/docs/")
    assert page.status_code == 200
    assets = re.findall(r'(?:src|href)="([^"]+)"', page.get_data(as_text=True))
    assert assets and all(a.startswith(("/docs/", "/ui/static/")) for a in assets), assets
    bundle = client.get("/docs/swagger-ui-bundle.js")
    assert bundle.status_code == 200 and len(bundle.get_data()) > 100_000
    bundle.close()


DOC = yaml.safe_load(SPEC.read_text(encoding="utf-8"))
OPERATIONS = {op["operationId"]: (path, method, op) for path, item in DOC["paths"].items()
              for method, op in item.items() if method in ("get", "post", "delete")}


def test_every_operation_is_named_and_summarised():
    """Generated clients name their functions after operationIds: each one snake_case and unique."""
    operations = [op for item in DOC["paths"].values() for method, op in item.items()
                  if method in ("get", "post", "delete")]
    names = [op.get("operationId", "") for op in operations]
    assert all(re.fullmatch(r"[a-z]+(_[a-z]+)*", name) for name in names), names
    assert len(set(names)) == len(names) == len(OPERATIONS)
    assert all(op.get("summary") for op in operations)


def test_every_request_body_has_the_tested_example():
    """The examples shown are exactly those test_examples_are_answered sends."""
    with_body = {name: op for name, (_, _, op) in OPERATIONS.items() if "requestBody" in op}
    assert set(with_body) == set(EXAMPLES)
    for name, op in with_body.items():
        assert op["requestBody"]["content"]["application/json"]["example"] == EXAMPLES[name], name


def test_every_schema_is_described():
    """Schema components carry their description (from the marshmallow schema's docstring)."""
    undescribed = [name for name, schema in DOC["components"]["schemas"].items() if not schema.get("description")]
    assert undescribed == []


def _pascal(*words: str) -> str:
    """`meld_kind` -> `MeldKind`, as generators spell class names."""
    return "".join(part[0].upper() + part[1:] for word in words for part in re.split(r"[_\W]+", word) if part)


def test_inline_enums_do_not_collide_with_schema_names():
    """A client generator names an inline enum `<Schema><Property>`: that must not be another schema's name
    (a `MeldKind` schema beside `Meld.kind` made openapi-python-client drop Meld and everything using it)."""
    schemas = DOC["components"]["schemas"]
    names = {_pascal(name) for name in schemas}
    assert len(names) == len(schemas)
    for name, schema in schemas.items():
        for prop, field in schema.get("properties", {}).items():
            if "enum" in field or "enum" in field.get("items", {}):
                assert _pascal(name, prop) not in names, f"{name}.{prop}"


@pytest.fixture
def jobs_client(redis_db, redis_url):
    """A client of an app whose job endpoints reach the test Redis."""
    return create_app({"TESTING": True, "REDIS_URL": redis_url}).test_client()


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_examples_are_answered(jobs_client, name):
    """Each documented example, sent as is, is accepted (2xx)."""
    path, method, _ = OPERATIONS[name]
    response = jobs_client.open(path, method=method.upper(), json=EXAMPLES[name])
    assert 200 <= response.status_code < 300, response.get_data(as_text=True)
