"""Security headers: every answer, errors included, says nosniff, may not be framed and sends no referrer; the pages
and the docs get a Content-Security-Policy allowing their own files only and no inline script, and their HTML holds
none (the browser tests, tests/ui, run them under it)."""

from __future__ import annotations

import json
from html.parser import HTMLParser

import pytest

from service.app import create_app

PAGES = ("/ui", "/ui/replay", "/ui/replay/" + "A" * 24)  # the viewer, and the viewer opened at a stored game
DOCS = "/docs/"


@pytest.fixture
def client(redis_url):
    return create_app({"TESTING": True, "REDIS_URL": redis_url}).test_client()


def policy(response) -> dict[str, str]:
    """The answer's Content-Security-Policy, directive by directive."""
    return dict(d.strip().split(" ", 1) for d in response.headers["Content-Security-Policy"].split(";"))


@pytest.mark.parametrize(("method", "path", "body", "status"), [
    ("GET", "/ui", None, 200),
    ("GET", "/ui/replay", None, 200),
    ("GET", "/ui/static/lab.js", None, 200),
    ("GET", DOCS, None, 200),
    ("GET", "/docs/swagger-ui-bundle.js", None, 200),
    ("GET", "/", None, 302),
    ("GET", "/healthz", None, 200),
    ("GET", "/openapi.json", None, 200),
    ("GET", "/v1/rulesets", None, 200),
    ("POST", "/v1/hu", {"ruleset": "bga-taiwan", "hand": ["rG", "rA", "rE"]}, 200),
    ("POST", "/v1/hu", {"ruleset": "bga-taiwan", "hand": ["rG", 7]}, 422),
    ("GET", "/problems/not_found", None, 200),
    ("GET", "/nowhere", None, 404),
    ("DELETE", "/healthz", None, 405),
])
def test_every_answer_carries_the_security_headers(client, method, path, body, status):
    response = client.open(path, method=method, json=body)
    assert response.status_code == status
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert policy(response)["frame-ancestors"] == "'none'"
    response.close()


@pytest.mark.parametrize("path", [*PAGES, DOCS])
def test_the_pages_and_the_docs_load_from_this_server_only_and_run_no_inline_script(client, path):
    directives = policy(client.get(path))
    assert directives["default-src"] == "'none'"
    for name in ("script-src", "connect-src", "font-src"):
        assert directives[name] == "'self'", name
    assert directives["style-src"] == ("'self' 'unsafe-inline'" if path == DOCS else "'self'")
    assert directives["img-src"] == ("'self' data:" if path == DOCS else "'self'")
    assert directives["base-uri"] == "'none'"


@pytest.mark.parametrize("path", ["/healthz", "/v1/rulesets", "/openapi.json", "/problems/not_found"])
def test_other_answers_may_load_nothing(client, path):
    """JSON, the spec and the problem pages (HTML when a browser asks) run nothing."""
    response = client.get(path, headers={"Accept": "text/html"} if path.startswith("/problems/") else {})
    assert policy(response)["default-src"] == "'none'" and "script-src" not in policy(response)


class Markup(HTMLParser):
    """What a page's HTML holds that a policy without 'unsafe-inline' would refuse."""

    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[dict[str, str | None]] = []
        self.inline: list[str] = []
        self.data: dict[str, str] = {}
        self._in: dict[str, str | None] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        self.inline += [f"<{tag} {name}>" for name in found if name.startswith("on") or name == "style"]
        if tag == "style":
            self.inline.append("<style>")
        if tag == "script":
            self.scripts.append(found)
            self._in = found

    def handle_data(self, data: str) -> None:
        if self._in is not None and data.strip():
            if self._in.get("type") == "application/json":
                self.data[str(self._in.get("id"))] = data
            else:
                self.inline.append(f"<script> {data.strip()[:40]}")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in = None


@pytest.mark.parametrize("path", [*PAGES, DOCS])
def test_the_pages_hold_no_inline_script_handler_or_style(client, path):
    markup = Markup()
    markup.feed(client.get(path).get_data(as_text=True))
    assert markup.inline == []
    assert markup.scripts and all(s.get("src") or s.get("type") == "application/json" for s in markup.scripts)
    assert all(s["src"].startswith(("/ui/static/", "/docs/")) for s in markup.scripts if s.get("src"))


def test_the_docs_page_takes_its_settings_from_a_data_block(client):
    """Swagger UI's settings are data the page's script file reads, pointing at this server's spec, with no
    validator badge fetched from elsewhere."""
    markup = Markup()
    markup.feed(client.get(DOCS).get_data(as_text=True))
    settings = json.loads(markup.data["docs-settings"])
    assert settings["url"] == "/openapi.json" and settings["validatorUrl"] is None
    assert {"src": "/ui/static/docs.js"} in markup.scripts
