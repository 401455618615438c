"""GET /oembed (service/ui/oembed.py): oEmbed 1.0 answers for the embed views, checked against the specification's
fields (https://oembed.com, section 2.3.4: `type` and `version` always, `html`, `width` and `height` for `rich`), and
the URLs a provider must refuse."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from urllib.parse import urlsplit

import pytest

from service.api.examples import AUDIT_LOG
from service.app import create_app

HOST = "http://localhost"
HAND = f"{HOST}/ui?ruleset=bga-taiwan&seats=4&seat=0&hand=rG,rA,rA,rE&lang=vi"
DRILL = f"{HOST}/ui/drill?ruleset=bga-taiwan&difficulty=easy&seed=3"
#: The oEmbed 1.0 fields of a `rich` answer: the required ones, then the optional ones this provider sends.
REQUIRED = {"type", "version", "html", "width", "height"}
SENT = REQUIRED | {"title", "provider_name", "provider_url", "cache_age"}


@pytest.fixture
def shares_client(redis_db, redis_url):
    """A client of an app whose stored games go to the test Redis."""
    return create_app({"TESTING": True, "REDIS_URL": redis_url}).test_client()


class Frames(HTMLParser):
    """The iframes of an HTML fragment, as attribute dicts; any other element is noted."""

    def __init__(self) -> None:
        super().__init__()
        self.frames: list[dict[str, str | None]] = []
        self.others: list[str] = []

    def handle_starttag(self, tag, attrs):
        (self.frames.append(dict(attrs)) if tag == "iframe" else self.others.append(tag))


def rich(answer: dict, width: int, height: int) -> dict[str, str | None]:
    """Check a `rich` oEmbed answer against the specification and the bounds asked; its one iframe's attributes."""
    assert SENT <= answer.keys() and REQUIRED <= answer.keys()
    assert answer["version"] == "1.0" and answer["type"] == "rich"
    assert isinstance(answer["width"], int) and isinstance(answer["height"], int)
    assert 0 < answer["width"] <= width and 0 < answer["height"] <= height
    parser = Frames()
    parser.feed(answer["html"])
    assert len(parser.frames) == 1 and parser.others == []
    frame = parser.frames[0]
    assert frame["width"] == str(answer["width"]) and frame["height"] == str(answer["height"])
    assert frame["title"] == answer["title"] and answer["title"]
    return frame


def test_a_hand_url_answers_the_iframe_of_the_hand_embed_within_the_bounds_asked(client):
    answer = client.get("/oembed", query_string={"url": HAND, "maxwidth": 500, "maxheight": 400})
    assert answer.status_code == 200 and answer.mimetype == "application/json"
    frame = rich(answer.get_json(), 500, 400)
    src = urlsplit(frame["src"] or "")
    assert (src.scheme, src.netloc, src.path) == ("http", "localhost", "/embed/hand")
    assert "hand=rG%2CrA%2CrA%2CrE" in src.query and "lang=vi" in src.query  # the hand and the reader's language kept
    assert answer.get_json()["provider_name"] == "Long Cards" and answer.get_json()["provider_url"] == f"{HOST}/"


def test_a_drill_url_and_an_embed_url_itself_are_embeddable(client):
    drill = rich(client.get("/oembed", query_string={"url": DRILL}).get_json(), 10_000, 10_000)
    assert urlsplit(drill["src"] or "").path == "/embed/drill"
    embed = f"{HOST}/embed/hand?ruleset=cardavia-chan&seats=4&hand=2v,2v"
    hand = rich(client.get("/oembed", query_string={"url": embed}).get_json(), 10_000, 10_000)
    assert urlsplit(hand["src"] or "").path == "/embed/hand"


def test_a_stored_game_url_answers_its_replay_embed_and_a_deleted_one_is_not_embeddable(shares_client):
    stored = shares_client.post("/v1/shares", json={"logs": [AUDIT_LOG], "title": "Round 1 <b>disputed</b>"})
    assert stored.status_code == 201, stored.get_json()
    page = stored.get_json()["url"]
    assert urlsplit(page).path == f"/ui/replay/{stored.get_json()['id']}"
    answer = shares_client.get("/oembed", query_string={"url": page + "?theme=dark", "maxwidth": 800})
    assert answer.status_code == 200, answer.get_json()
    frame = rich(answer.get_json(), 800, 10_000)
    assert frame["src"] == f"{HOST}/embed/replay/{stored.get_json()['id']}?theme=dark"
    assert answer.get_json()["title"] == "Round 1 <b>disputed</b>"
    assert "<b>" not in answer.get_json()["html"]  # the title is escaped inside the iframe's attribute
    assert shares_client.delete(f"/v1/shares/{stored.get_json()['id']}").status_code == 204
    gone = shares_client.get("/oembed", query_string={"url": page})
    assert gone.status_code == 404 and gone.get_json()["code"] == "not_embeddable"


@pytest.mark.parametrize("url", [
    "http://evil.example/ui?ruleset=bga-taiwan",          # another host
    "https://localhost/ui?ruleset=bga-taiwan",            # another scheme than the service's
    "javascript:alert(document.domain)//http://localhost/ui",
    "data:text/html,<script>alert(1)</script>",
    f"{HOST}/v1/jobs",                                     # a page of the service with no embed view
    f"{HOST}/ui",                                          # the lab without a hand
    f"{HOST}/embed/replay/not-a-share-id",
    f"{HOST}/embed/replay/{'A' * 24}",                   # well formed, never stored
    "//localhost/ui?ruleset=bga-taiwan",
    "",
], ids=["other host", "other scheme", "javascript", "data", "no embed view", "lab without hand", "malformed share",
        "unknown share", "scheme-relative", "empty"])
def test_a_url_the_provider_does_not_embed_is_refused_without_an_iframe(shares_client, url):
    answer = shares_client.get("/oembed", query_string={"url": url}, headers={"Accept-Language": "vi"})
    body = answer.get_json()
    assert answer.status_code in (404, 422) and answer.mimetype == "application/problem+json"
    assert body["code"] == ("invalid_request" if url == "" else "not_embeddable")
    assert "iframe" not in answer.get_data(as_text=True)
    assert body["title"] != ("Not Found" if answer.status_code == 404 else "Unprocessable Entity")  # in Vietnamese


def test_a_10_kb_url_is_refused_naming_the_field_before_it_is_parsed(client):
    answer = client.get("/oembed", query_string={"url": HAND + "&x=" + "a" * 10_000})
    assert answer.status_code == 422
    assert list(answer.get_json()["errors"]) == ["url"]


def test_xml_is_not_implemented_and_says_so(client):
    answer = client.get("/oembed", query_string={"url": HAND, "format": "xml"})
    assert answer.status_code == 501 and answer.get_json()["code"] == "format_not_implemented"


def test_oembed_needs_no_key_when_keys_are_on():
    keyed = create_app({"TESTING": True, "API_KEYS": "site:" + "0" * 64}).test_client()
    assert keyed.get("/oembed", query_string={"url": HAND}).status_code == 200
    assert keyed.post("/v1/hu", json={}).status_code == 401  # the API itself still asks for one


def test_the_share_page_carries_the_oembed_discovery_link(shares_client):
    stored = shares_client.post("/v1/shares", json={"logs": [AUDIT_LOG]}).get_json()
    page = shares_client.get(urlsplit(stored["url"]).path).get_data(as_text=True)
    link = re.search(r'<link rel="alternate" type="application/json\+oembed" href="([^"]+)"', page)
    assert link, "no discovery link"
    discovered = shares_client.get(link.group(1).replace("&amp;", "&"))
    assert discovered.status_code == 200 and rich(discovered.get_json(), 10_000, 10_000)
