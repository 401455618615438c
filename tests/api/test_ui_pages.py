"""The browser pages as files: served by the app, open without an API key (the API they call is not), and
complete in themselves: nothing is fetched from another host."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from service.app import create_app
from service.http.auth import entry

UI = Path(__file__).resolve().parents[2] / "service" / "ui"
KEY = "ui-test-key-0123456789abcdef"


@pytest.fixture
def keyed():
    """The app with API keys on."""
    return create_app({"TESTING": True, "API_KEYS": entry("ui", KEY)}).test_client()


@pytest.mark.parametrize(("path", "mimetype"), [
    ("/ui", "text/html"), ("/ui/replay", "text/html"), ("/ui/drill", "text/html"),
    ("/ui/static/lab.js", "text/javascript"), ("/ui/static/replay.js", "text/javascript"),
    ("/ui/static/drill.js", "text/javascript"), ("/ui/static/ui.css", "text/css"),
    ("/ui/static/fonts/glyphs.woff2", "font/woff2"), ("/ui/static/favicon.svg", "image/svg+xml"),
    ("/favicon.ico", "image/svg+xml"),
])
def test_pages_and_their_files_are_served_without_a_key(keyed, path, mimetype):
    with keyed.get(path) as answer:
        assert answer.status_code == 200
        assert answer.mimetype == mimetype
    assert keyed.post("/v1/hu", json={"ruleset": "bga-taiwan", "hand": []}).status_code == 401  # the API is not


def test_ui_slash_goes_to_the_lab(client):
    answer = client.get("/ui/")
    assert answer.status_code == 308 and answer.headers["Location"].endswith("/ui")


def test_the_root_leads_to_the_lab_without_a_key(keyed):
    answer = keyed.get("/")
    assert answer.status_code == 302 and answer.headers["Location"] == "/ui"


def test_the_root_is_documented_like_the_pages(client):
    """The spec lists `/` next to the pages: open without a key, answering a redirect to `/ui`."""
    paths = client.get("/openapi.json").get_json()["paths"]
    root, lab = paths["/"]["get"], paths["/ui"]["get"]
    assert root["security"] == lab["security"] == [] and root["tags"] == lab["tags"] == ["ui"]
    assert list(root["responses"]) == ["302"] and "Location" in root["responses"]["302"]["headers"]


@pytest.mark.parametrize(("path", "script", "title"), [
    ("/ui", "lab.js", "Hand lab · Long Cards"), ("/ui/replay", "replay.js", "Replay viewer · Long Cards"),
    ("/ui/drill", "drill.js", "Drills · Long Cards")])
def test_each_page_has_the_shared_head_and_its_own_script(client, path, script, title):
    """One template gives both pages their head, header and navigation; each marks itself as the current page."""
    answer = client.get(path)
    assert answer.headers["Cache-Control"] == "no-cache"
    html = answer.get_data(as_text=True)
    assert f"<title>{title}</title>" in html and f'<script type="module" src="/ui/static/{script}">' in html
    assert '<link rel="icon" href="/ui/static/favicon.svg"' in html and 'href="/ui/static/ui.css"' in html
    assert re.findall(r'<a href="([^"]+)" aria-current="page">', html) == [path]
    assert "{{" not in html and "{%" not in html


def test_every_module_a_page_imports_is_served(client):
    """Each `import ... from "./x.js"` and each page's script and stylesheet resolve to a served file."""
    wanted = set()
    for page in ("/ui", "/ui/replay", "/ui/drill"):
        wanted |= set(re.findall(r'(?:src|href)="(/ui/static/[^"]+)"', client.get(page).get_data(as_text=True)))
    for module in (UI / "static").glob("*.js"):
        wanted |= {f"/ui/static/{name}" for name in re.findall(r'from "\./([\w.-]+)"', module.read_text("utf-8"))}
    assert {"/ui/static/lab.js", "/ui/static/common.js", "/ui/static/cards.js", "/ui/static/drill-stats.js"} <= wanted
    for path in sorted(wanted):
        with client.get(path) as answer:
            assert answer.status_code == 200, path


def test_nothing_is_loaded_from_another_host():
    """No CDN: the pages, scripts and styles name no http(s) address but the SVG namespace."""
    for path in [*(UI / "templates").rglob("*.html"), *(UI / "static").glob("*.js"), *(UI / "static").glob("*.css")]:
        addresses = set(re.findall(r"https?://[^\s\"'`)]+", path.read_text(encoding="utf-8")))
        assert addresses <= {"http://www.w3.org/2000/svg"}, (path.name, addresses)
