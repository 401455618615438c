"""The committed openapi.yaml is exactly what the app serves, and the docs page is served locally."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from marshmallow import missing

from service.__main__ import main, openapi_document, render
from service.api import DescribedSchemas
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
    those with a JSON body document 400, 413 and 415, those under /v1 401 and 403 unless they are open (`security`
    empty: a stored game and its rounds)."""
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
            if path.startswith("/v1") and op.get("security") != []:
                assert {"401", "403", "429"} <= set(answers), (path, method)
            elif path.startswith("/v1"):  # open without a key (a stored game): no key problem to answer
                assert "429" in answers and not {"401"} & set(answers), (path, method)
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


def _refs(node: object) -> Iterator[str]:
    """The names of the schema components a node of the document refers to."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                yield value.rsplit("/", 1)[-1]
            else:
                yield from _refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from _refs(value)


def _request_components() -> set[str]:
    """Every schema component a request body uses, directly or through another component."""
    schemas = DOC["components"]["schemas"]
    todo = [name for _, _, op in OPERATIONS.values() for name in _refs(op.get("requestBody", {}))]
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo += _refs(schemas[name])
    return seen


def test_a_request_field_that_may_be_left_out_is_optional_for_every_generator():
    """In every component a request body uses, a property is `required` exactly when its marshmallow field is
    `required=True` (so none with a `load_default`), and none carries a `default`: openapi-typescript 7, by
    default, types a component's property with a `default` as always present, and TypeScript callers of /v1/hu
    then had to send `card_source` and `seat_role` (the default goes into the description instead)."""
    app = create_app()
    plugin = next(p for p in app.extensions["longcards_api"].spec.plugins if isinstance(p, DescribedSchemas))
    classes = {name: key[0] for key, name in plugin.converter.refs.items()}
    components = DOC["components"]["schemas"]
    checked = []
    for name in sorted(_request_components()):
        if name not in classes:  # the card components: enums of codes, no fields
            assert "properties" not in components[name], name
            continue
        fields = {field.data_key or key: field for key, field in classes[name]().fields.items()}
        needed = sorted(key for key, field in fields.items() if field.required and field.load_default is missing)
        assert sorted(components[name].get("required", [])) == needed, name
        with_default = [key for key, prop in components[name]["properties"].items() if "default" in prop]
        assert with_default == [], name
        checked.append(name)
    hu = components["HandRequest"]
    assert {"card_source", "seat_role", "public_card"} <= set(hu["properties"]) - set(hu["required"])
    assert components["DiscardsRequest"]["properties"]["seats"]["description"].endswith("; default: `4`")
    assert {"HandRequest", "ClaimsRequest", "SearchRequest", "GameLog", "ChanContext"} <= set(checked)


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
