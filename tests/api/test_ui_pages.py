"""The browser pages as files: served by the app, open without an API key (the API they call is not), and
complete in themselves: nothing is fetched from another host."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from service.api.examples import AUDIT_LOG
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


SHARE_ID = "A" * 24


def test_a_stored_games_viewer_names_the_game_and_its_oembed_address(keyed):
    """`/ui/replay/{id}` is the viewer with the game's id for its script, open without a key, and its head names the
    oEmbed address of the page (discovery); the viewer's own page names none."""
    html = keyed.get(f"/ui/replay/{SHARE_ID}").get_data(as_text=True)
    assert f'<main id="main" data-share="{SHARE_ID}">' in html
    found = re.findall(r'<link rel="alternate" type="application/json\+oembed" href="([^"]+)" title="[^"]+">', html)
    assert found == [f"http://localhost/oembed?url=http%3A%2F%2Flocalhost%2Fui%2Freplay%2F{SHARE_ID}"]
    assert "json+oembed" not in keyed.get("/ui/replay").get_data(as_text=True)
    assert '<main id="main">' in keyed.get("/ui/replay").get_data(as_text=True)


def test_a_stored_games_viewer_answers_the_games_status(redis_db, redis_url):
    """The viewer at a stored game answers 200 while the game lives, 404 for an id never stored, 410 once deleted
    (a link preview or a crawler learns it without running the page's script); the page is the viewer each time."""
    client = create_app({"TESTING": True, "REDIS_URL": redis_url}).test_client()
    stored = client.post("/v1/shares", json={"logs": [AUDIT_LOG]}).get_json()
    assert client.get(f"/ui/replay/{stored['id']}").status_code == 200
    assert client.get(f"/ui/replay/{SHARE_ID}").status_code == 404
    assert client.delete(f"/v1/shares/{stored['id']}").status_code == 204
    gone = client.get(f"/ui/replay/{stored['id']}")
    assert gone.status_code == 410 and f'data-share="{stored["id"]}"' in gone.get_data(as_text=True)


def test_the_host_script_is_javascript_cacheable_and_open(keyed):
    """`/embed/longcards.js` is loaded by other sites' pages: a script by its type (the answers say nosniff), kept an
    hour and revalidated by its ETag, asked for without a key."""
    with keyed.get("/embed/longcards.js") as answer:
        assert answer.status_code == 200 and answer.mimetype == "text/javascript"
        assert answer.headers["Cache-Control"] == "public, max-age=3600" and answer.headers["ETag"]
        assert "window.LongCards" in answer.get_data(as_text=True)
        tag = answer.headers["ETag"]
    with keyed.get("/embed/longcards.js", headers={"If-None-Match": tag}) as again:
        assert again.status_code == 304


@pytest.fixture
def shares_client(redis_db, redis_url):
    """A client of an app whose stored games go to the test Redis."""
    return create_app({"TESTING": True, "REDIS_URL": redis_url, "EMBED_ORIGINS": "https://blog.example"}).test_client()


def test_the_stored_games_embed_view_holds_the_game_and_answers_its_status(shares_client):
    """The embed view renders the stored game and the rule-sets into the page (no round trip for the first paint),
    framable by EMBED_ORIGINS, without a cookie; a game never stored is 404, a malformed id too (Redis is not asked),
    a deleted one 410, each a page of its own."""
    stored = shares_client.post("/v1/shares", json={"logs": [AUDIT_LOG], "title": "Round 1"}).get_json()
    answer = shares_client.get(f"/embed/replay/{stored['id']}?lang=vi&theme=dark")
    assert answer.status_code == 200 and "Set-Cookie" not in answer.headers
    assert "frame-ancestors https://blog.example" in answer.headers["Content-Security-Policy"]
    html = answer.get_data(as_text=True)
    data = json.loads(re.search(r'<script type="application/json" id="embed-data">(.*?)</script>', html, re.S)[1])
    assert data["share"]["id"] == stored["id"]
    assert [log["events"] for log in data["share"]["logs"]] == [AUDIT_LOG["events"]]
    assert {r["id"] for r in data["rulesets"]} >= {"bga-taiwan", "cardavia-chan"}
    assert '<html lang="vi"' in html and 'data-theme="dark"' in html
    assert f'href="/ui/replay/{stored["id"]}"' in html  # "Open in Long Cards": the full viewer
    assert '<script type="module" src="/ui/static/embed-replay.js">' in html
    for path in (f"/embed/replay/{SHARE_ID}", "/embed/replay/not%3Fan-id"):
        gone = shares_client.get(path)
        assert gone.status_code == 404 and gone.mimetype == "text/html", path
        assert '"code":"share_not_found"' in gone.get_data(as_text=True), path
    assert shares_client.delete(f"/v1/shares/{stored['id']}").status_code == 204
    deleted = shares_client.get(f"/embed/replay/{stored['id']}")
    assert deleted.status_code == 410 and '"code":"share_deleted"' in deleted.get_data(as_text=True)
