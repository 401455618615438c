"""The hand and drill embed views as answers (service/ui/embed_views.py): open without a key, their answers computed
into the page (the same as the API's), a query the API refuses answered by a page of its status in the reader's
language; framable by the sites of EMBED_ORIGINS only (CSP `frame-ancestors`, X-Frame-Options only when no site may),
and no cookie set."""

from __future__ import annotations

import html
import json
import re

import pytest

from service.api.examples import AUDIT_LOG
from service.app import create_app
from service.http.auth import entry

KEY = "embed-test-key-0123456789abcdef"
HAND = "ruleset=bga-taiwan&seats=4&seat=0&hand=rG,rA,rE,yC,yC,wS,wS,wS,gH,gH,gH,yP,yP,yP,rS,yS,gS,wA,wA,wE,wE"
DRILL = "ruleset=cardavia-chan&difficulty=easy&seed=7&kind=discard"
DATA = re.compile(r'<script type="application/json" id="embed-data">(.*?)</script>', re.S)


@pytest.fixture
def framed():
    """The app with API keys on, whose embed views one site may frame."""
    return create_app({"TESTING": True, "API_KEYS": entry("embed", KEY),
                       "EMBED_ORIGINS": "https://club.example"}).test_client()


def data_of(answer) -> dict:
    """The view's data block."""
    found = DATA.search(answer.get_data(as_text=True))
    assert found, answer.get_data(as_text=True)[:500]
    return json.loads(found.group(1))


def test_a_hand_is_its_answers_in_the_page_without_a_key(framed):
    answer = framed.get(f"/embed/hand?{HAND}")
    assert answer.status_code == 200 and answer.mimetype == "text/html"
    data = data_of(answer)
    assert data["state"]["hand"] == HAND.split("hand=")[1].split(",") and data["state"]["seat"] == 0
    assert data["hu"]["hu"] is True and data["hu"]["points"] == 14
    assert data["settlement"]["deltas"] == [15, -5, -5, -5]
    assert data["discards"]["discards"][0]["rank"] == 1 and data["claims"] is None
    # the same as the API answers a client with a key
    body = {"ruleset": "bga-taiwan", "options": {}, "hand": data["state"]["hand"], "exposed": [], "public_card": None}
    direct = framed.post("/v1/hu", json=body, headers={"Authorization": f"Bearer {KEY}"}).get_json()
    assert {k: v for k, v in direct.items() if k != "engine_version"} == \
        {k: v for k, v in data["hu"].items() if k != "engine_version"}
    assert "/ui?ruleset=bga-taiwan&amp;seats=4" in answer.get_data(as_text=True)  # "Open in Long Cards"


def test_a_public_card_asks_for_the_claims(framed):
    hand = ",".join(AUDIT_LOG["hands"][2])
    data = data_of(framed.get(f"/embed/hand?ruleset=bga-taiwan&seats=3&seat=2&from=1&public=gE&hand={hand}"))
    assert data["claims"]["size"] == data["claims"]["total"] == 20
    assert {c["kind"] for c in data["claims"]["advice"]["choices"]} == {"pair", "pass", "triple"}
    assert data["discards"] is None


@pytest.mark.parametrize(("query", "code", "field"), [
    ("ruleset=bga-taiwan&hand=rG,rA,zz", "unknown_card", "hand.2"),
    ("ruleset=nope&hand=rG", "unknown_ruleset", "ruleset"),
    ("ruleset=bga-taiwan&hand=rG&seat=x", "invalid_request", "seat"),
    ("ruleset=bga-taiwan&hand=rG&from=first", "invalid_request", "from_seat"),
    ("ruleset=bga-taiwan&hand=rG&opt.threshold=high", "invalid_option", "options.threshold"),
    ("ruleset=bga-taiwan", "wrong_card_count", "hand"),
], ids=["card", "ruleset", "seat", "from", "option", "no_cards"])
def test_a_hand_the_api_refuses_is_a_422_page_naming_the_field(framed, query, code, field):
    answer = framed.get(f"/embed/hand?{query}&lang=vi")
    assert answer.status_code == 422 and answer.mimetype == "text/html"
    problem = data_of(answer)["problem"]
    assert problem["code"] == code and field in problem["errors"]
    page = html.unescape(answer.get_data(as_text=True))
    assert '<html lang="vi"' in page and "Không thể hiển thị tay bài này" in page  # in the reader's language
    assert answer.headers["Content-Language"] == "vi"
    assert "bga-taiwan" not in " ".join(sum(problem["errors"].values(), []))  # no rule-set id for a player


def test_a_drill_is_dealt_and_ranked_in_the_page(framed):
    answer = framed.get(f"/embed/drill?{DRILL}&n=2")
    assert answer.status_code == 200
    data = data_of(answer)
    assert data["family"] == "chan" and data["drill"]["index"] == 2 and data["drill"]["kind"] == "discard"
    assert [o["rank"] for o in data["ranked"]["discards"]][0] == 1
    assert "/ui/drill?ruleset=cardavia-chan&amp;difficulty=easy&amp;seed=7&amp;kind=discard&amp;n=2" \
        in answer.get_data(as_text=True)
    assert data_of(framed.get(f"/embed/drill?{DRILL}&index=3&n=2"))["drill"]["index"] == 3  # `index` first


def test_a_drill_the_api_refuses_is_a_422_page(framed):
    answer = framed.get("/embed/drill?seed=x&lang=uk")
    assert answer.status_code == 422
    problem = data_of(answer)["problem"]
    assert problem["errors"].keys() == {"seed"}
    assert "Цю вправу неможливо показати" in html.unescape(answer.get_data(as_text=True))


@pytest.mark.parametrize("path", [f"/embed/hand?{HAND}", f"/embed/drill?{DRILL}", "/embed/hand?ruleset=nope"])
def test_the_views_are_framed_by_the_listed_sites_only_and_set_no_cookie(framed, path):
    answer = framed.get(path + "&lang=it", headers={"Cookie": "longcards_lang=uk"})
    policy = answer.headers["Content-Security-Policy"]
    assert policy.endswith("frame-ancestors https://club.example") and "script-src 'self'" in policy
    assert "unsafe-inline" not in policy
    assert "X-Frame-Options" not in answer.headers and "Set-Cookie" not in answer.headers
    assert '<html lang="it"' in answer.get_data(as_text=True)  # the host's choice, never the service's cookie
    assert answer.headers["Cache-Control"] == "no-cache"


def test_without_listed_sites_no_site_may_frame_them(client):
    answer = client.get(f"/embed/hand?{HAND}")
    assert answer.status_code == 200
    assert answer.headers["Content-Security-Policy"].endswith("frame-ancestors 'none'")
    assert answer.headers["X-Frame-Options"] == "DENY"
    assert client.get("/ui").headers["X-Frame-Options"] == "DENY"  # the service's own pages never are framable


def test_the_listed_sites_are_named_as_a_browser_sends_their_origin():
    """Several sites, an IPv6 one among them, are named in `frame-ancestors` exactly as configured (the CORS
    setting's IPv6 origins are matched as patterns, never written so into a policy)."""
    listed = "https://club.example,http://[::1]:8080"
    answer = create_app({"TESTING": True, "EMBED_ORIGINS": listed}).test_client().get(f"/embed/hand?{HAND}")
    assert answer.headers["Content-Security-Policy"].endswith("frame-ancestors https://club.example http://[::1]:8080")
