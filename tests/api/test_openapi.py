"""The committed openapi.yaml is exactly what the app serves, and the docs page is served locally."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from service.__main__ import main, openapi_document, render

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


def test_docs_page_is_local(client):
    """Swagger UI and its assets come from this server, no CDN."""
    page = client.get("/docs/")
    assert page.status_code == 200
    assets = re.findall(r'(?:src|href)="([^"]+)"', page.get_data(as_text=True))
    assert assets and all(a.startswith("/docs/") for a in assets), assets
    bundle = client.get("/docs/swagger-ui-bundle.js")
    assert bundle.status_code == 200 and len(bundle.get_data()) > 100_000
    bundle.close()
