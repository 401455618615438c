"""Texts for people in the reader's language (service/i18n.py): the API follows `lang`, then `Accept-Language`,
and says the language in `Content-Language`; advice reasons, hand reasons, problem titles, details and field
messages, `/problems/{code}` and the pages are translated; codes, card codes and field names never change."""

from __future__ import annotations

import pickle

import pytest

from service import catalogs
from service.app import create_app
from service.i18n import MAX_ACCEPT_LANGUAGE, MAX_LANGUAGE_TAGS, best_of, supported
from service.rules.text import Text, ntext, read_texts, stored, text
from tests.support.pages import planted

LANGUAGES = ["en", "vi", "zh-Hant", "it", "pt", "uk"]
# bga-taiwan, 21 cards (the hand of tests/api/test_discards.py): melds worth 12 points once the loose yA or wC is
# paired (docs/rules.md#fc-melds); with two yA visible, discarding yA waits on wC, 3 copies unseen.
BGA_HAND = ["rG", "rA", "rE", "yC", "yH", "yP", "gC", "gC", "gC", "wA", "wA", "wA", "rS", "yS", "gS", "wE", "wE",
            "gH", "gH", "yA", "wC"]
# bga-taiwan, 20 cards between turns (tests/api/test_claims.py): the triple rC on a discard, then wA, waits on yP.
PAIR_C = ["rG", "rA", "rE", "yG", "yA", "yE", "gC", "gH", "gP", "wC", "wH", "wP", "rC", "rC", "yS", "gS", "wS",
          "yC", "yH", "wA"]


def discards(client, query="", **headers):
    """POST /v1/discards of the hand whose best discard yA waits on wC: 3 unseen copies, a 12-point win."""
    return client.post(f"/v1/discards{query}", json={"ruleset": "bga-taiwan", "hand": BGA_HAND,
                                                    "visible": ["yA", "yA"], "seats": 4, "seat": 2}, headers=headers)


@pytest.mark.parametrize(("query", "header", "expected"), [
    ("", None, "en"),
    ("", "vi-VN,vi;q=0.9,en;q=0.5", "vi"),
    ("", "fr-FR, uk;q=0.8, en;q=0.2", "uk"),  # French is not offered: the next choice
    ("", "zh-TW", "zh-Hant"),
    ("", "zh-CN", "zh-Hant"),  # the only Chinese there is
    ("", "pt-BR", "pt"),
    ("", "de", "en"),
    ("?lang=it", "vi", "it"),  # the parameter wins
    ("?lang=zh_Hant", None, "zh-Hant"),
    ("?lang=xx", "pt", "pt"),  # an unknown parameter is ignored, not an error
])
def test_the_language_follows_lang_then_accept_language(client, query, header, expected):
    response = discards(client, query, **({"Accept-Language": header} if header else {}))
    assert response.status_code == 200
    assert response.headers["Content-Language"] == expected


@pytest.mark.parametrize(("lang", "reason"), [
    ("en", "waiting on wC: 3 unseen copies, best win 12 points"),
    ("vi", "chờ wC: 3 lá chưa lộ, thắng cao nhất 12 điểm"),
    ("zh-Hant", "聽 wC：未現 3 張，最高胡 12 點"),
    ("it", "in attesa di wC: 3 copie non viste, vittoria migliore 12 punti"),
    ("pt", "à espera de wC: 3 cópias não vistas, melhor vitória 12 pontos"),
    ("uk", "чекає на wC: 3 небачені копії, найкращий виграш 12 оч."),  # 3: the "few" form
])
def test_an_advice_reason_is_in_the_readers_language(client, lang, reason):
    """The best discard's reason (docs/rules.md#fc-melds: 12 points; 4 wC less the one in hand: 3 unseen) in each
    language, with the plural form the count takes; the card codes and figures stay as they are."""
    body = discards(client, f"?lang={lang}").get_json()
    best = next(d for d in body["discards"] if d["card"] == "yA")
    assert best["reason"] == reason
    assert body["best"] == ["yA"]  # nothing but the texts changes


def test_ukrainian_counts_take_their_three_plural_forms():
    from service.catalogs import po_path, read

    catalog = read(po_path("uk", "messages"), "uk", "messages")
    assert catalog.num_plurals == 3
    forms = catalog["{n} replacement from waiting"].string
    assert [catalog.plural_expr and f.split()[1] for f in forms] == ["заміна", "заміни", "замін"]


def test_a_problem_is_in_vietnamese_with_its_code_unchanged(client):
    response = client.post("/v1/hu", json={"ruleset": "bga-taiwan"}, headers={"Accept-Language": "vi"})
    body = response.get_json()
    assert response.status_code == 422 and response.mimetype == "application/problem+json"
    assert response.headers["Content-Language"] == "vi"
    assert body["code"] == "invalid_request" and body["type"] == "/problems/invalid_request"
    assert body["title"] == "Không xử lý được nội dung"
    assert body["detail"] == "trường không hợp lệ: hand"
    assert body["errors"] == {"hand": ["là bắt buộc"]}


def test_an_engine_refusal_is_in_vietnamese_as_the_catalog_says_it(client):
    """An unknown card code is refused by the rules engine; its detail and field message are the Vietnamese
    catalog's translation of the engine's message, with the code quoted as the English quotes it."""
    from babel.messages.pofile import read_po

    from service.i18n import TRANSLATIONS

    message = "{card} is not a card code (colour r/y/g/w + character G/A/E/C/H/P/S)"
    with open(TRANSLATIONS / "vi" / "LC_MESSAGES" / "messages.po", "rb") as po:
        entry = read_po(po).get(message)
    assert entry is not None and entry.string, "the vi catalog translates the engine's unknown-card message"
    expected = entry.string.format(card="'rX'")
    response = client.post("/v1/hu", json={"ruleset": "bga-taiwan", "hand": ["rX"]},
                           headers={"Accept-Language": "vi"})
    body = response.get_json()
    assert response.status_code == 422 and body["code"] == "unknown_card"
    assert response.headers["Content-Language"] == "vi"
    assert body["detail"] == expected != "'rX' is not a card code (colour r/y/g/w + character G/A/E/C/H/P/S)"
    assert body["errors"] == {"hand.0": [expected]}


def test_a_not_found_problem_in_italian(client):
    response = client.get("/v1/nothing-here?lang=it")
    body = response.get_json()
    assert response.status_code == 404 and body["code"] == "not_found"
    assert body["title"] == "Non trovato" and body["detail"].startswith("L'URL richiesto non è stato trovato")


def test_a_chan_win_reason_in_traditional_chinese(client):
    """A Chắn hand that cannot win keeps its reason codes; the messages name Chắn in its own word."""
    response = client.post("/v1/hu?lang=zh-Hant", json={"ruleset": "cardavia-chan", "hand": ["2m", "3s", "CC"]})
    body = response.get_json()
    assert response.status_code == 200 and response.headers["Content-Language"] == "zh-Hant"
    messages = {r["code"]: r["message"] for r in body["reasons"]}
    assert messages["card_count"] == "胡牌需要 20 張成 10 對；這裡有 3 張"
    assert messages["too_few_chan"] == "0 個 Chắn；胡牌至少需要 6 個"


def test_claim_advice_names_the_meld_in_the_readers_language(client):
    """Four Color claim advice in Vietnamese (the hand of tests/api/test_claims.py: the triple rC, then wA, waits on
    yP with 4 unseen; passing stays one replacement away): the claim's kind in its Tứ Sắc name (khạp), the codes
    as they are."""
    response = client.post("/v1/claims?lang=vi", json={
        "ruleset": "bga-taiwan", "hand": PAIR_C, "public_card": "rC", "card_source": "discard", "from_seat": 0,
        "seat": 2, "seats": 4})
    body = response.get_json()
    assert response.status_code == 200, body
    triple, passing = body["choices"]
    assert triple["kind"] == "triple" and passing["kind"] == "pass"
    assert triple["reason"].startswith(
        "khạp rC rC rC, rồi đánh wA: chờ yP (4 lá chưa lộ), lời dự tính sau một lá bốc ")
    assert passing["reason"].startswith("bỏ qua: tay bài vẫn còn 1 lá phải thay mới vào chờ, ")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_problem_types_are_described_in_every_language(client, lang):
    english = client.get("/problems/unknown_card").get_json()
    response = client.get(f"/problems/unknown_card?lang={lang}")
    body = response.get_json()
    assert response.headers["Content-Language"] == lang and "Accept-Language" in response.headers["Vary"]
    assert body["code"] == "unknown_card" and body["status"] == 422 and body["type"] == "/problems/unknown_card"
    assert (body["when"] == english["when"]) == (lang == "en")
    assert (body["fix"] == english["fix"]) == (lang == "en")


def test_a_problem_page_in_vietnamese(client):
    response = client.get("/problems/not_a_win", headers={"Accept": "text/html", "Accept-Language": "vi"})
    page = response.get_data(as_text=True)
    assert response.status_code == 200 and response.headers["Content-Language"] == "vi"
    assert '<html lang="vi">' in page and "<code>not_a_win</code>" in page
    assert "Tính tiền cho một tay bài không thắng." in page and "Cách sửa:" in page
    assert '<a href="/docs">Tài liệu API</a>' in page  # markup kept around the translated words


def test_cached_answers_differ_by_language(client):
    english = client.get("/problems/unknown_card")
    vietnamese = client.get("/problems/unknown_card?lang=vi")
    assert english.headers["ETag"] != vietnamese.headers["ETag"]
    again = client.get("/problems/unknown_card?lang=vi", headers={"If-None-Match": vietnamese.headers["ETag"]})
    assert again.status_code == 304


def test_an_answer_without_texts_says_no_language(client):
    """A winning hand's answer holds no text: nothing is translated and no Content-Language is sent."""
    response = client.post("/v1/hu", json={"ruleset": "bga-taiwan", "hand": ["rG", "rA", "rE"]},
                           headers={"Accept-Language": "vi"})
    assert response.status_code == 200 and response.get_json()["hu"] is True
    assert "Content-Language" not in response.headers
    assert "Content-Language" not in client.get("/healthz").headers


def test_a_page_in_traditional_chinese_has_its_lang_the_switch_and_its_catalog(client):
    response = client.get("/ui?lang=zh-Hant")
    page = response.get_data(as_text=True)
    assert response.status_code == 200 and response.headers["Content-Language"] == "zh-Hant"
    assert '<html lang="zh-Hant">' in page
    for name in ("English", "Tiếng Việt", "繁體中文", "Italiano", "Português", "Українська"):
        assert f">{name}</a>" in page
    assert 'href="?lang=zh-Hant" data-lang="zh-Hant" lang="zh-Hant" hreflang="zh-Hant" aria-current="true"' in page
    assert ">手牌實驗室</a>" in page and ">API 金鑰</summary>" in page  # base.html's texts
    assert '<script type="application/json" id="i18n-catalog">' in page and '"網路錯誤"' in page
    assert "<script>" not in page  # a data block, never an inline script (the pages' CSP allows none)
    # a `?lang=` shows this page in it and is not remembered (a shared link may carry one): the switch's click
    # keeps a choice, in the cookie the next page (no parameter) opens in
    assert "Set-Cookie" not in response.headers
    assert '<html lang="en">' in client.get("/ui/replay").get_data(as_text=True)
    client.set_cookie("longcards_lang", "zh-Hant")
    assert '<html lang="zh-Hant">' in client.get("/ui/replay").get_data(as_text=True)
    assert '<html lang="vi">' in client.get("/ui/replay?lang=vi").get_data(as_text=True)


def test_the_switch_cookie_does_not_change_the_apis_language(client):
    """The cookie is the pages' memory; an API client says its language itself."""
    client.set_cookie("longcards_lang", "uk")
    assert '<html lang="uk">' in client.get("/ui").get_data(as_text=True)
    assert discards(client).headers["Content-Language"] == "en"


@pytest.mark.parametrize(("asked", "expected"), [("vi", "vi"), ("VI-vn", "vi"), ("zh-Hant-TW", "zh_Hant"),
                                                 ("zh_Hant", "zh_Hant"), ("uk-UA", "uk"), ("en-GB", "en"),
                                                 ("ru", None), ("", None), ("*", None)])
def test_supported(asked, expected):
    assert supported(asked) == expected


def test_best_of_a_header_by_quality():
    assert best_of("en;q=0.1, it;q=0.9") == "it"
    assert best_of("not a header;;;") == "en"


#: A header cut so that `vi-VN` straddles the limit: only `vi` of it would be left.
CUT = "fr," + " " * (MAX_ACCEPT_LANGUAGE - 5) + "vi-VN"


@pytest.mark.parametrize(("header", "expected"), [
    pytest.param(", ".join(["fr"] * (MAX_LANGUAGE_TAGS - 1) + ["vi"]), "vi", id="the last tag read"),
    pytest.param(", ".join(["fr"] * MAX_LANGUAGE_TAGS + ["vi"]), "en", id="a tag past the count"),
    pytest.param(", ".join(["fr"] * MAX_LANGUAGE_TAGS + ["vi;q=1"]), "en", id="a preferred tag past the count"),
    pytest.param("fr," + " " * MAX_ACCEPT_LANGUAGE + "vi", "en", id="a tag past the length"),
    pytest.param("fr," + " " * (MAX_ACCEPT_LANGUAGE - 5) + "vi, de", "vi", id="a tag ending at the length"),
    pytest.param(CUT, "en", id="a tag cut by the length"),
    pytest.param("x" * 8192, "en", id="one huge tag"),
])
def test_only_the_head_of_a_long_accept_language_is_read(header, expected):
    """A header is read up to its first MAX_ACCEPT_LANGUAGE characters and MAX_LANGUAGE_TAGS tags (a long one costs
    no more than a short one); a tag the length cuts is no tag."""
    assert best_of(header) == expected


def test_a_long_accept_language_is_cut_in_an_answer():
    """POST /v1/hu reads only the head of its `Accept-Language`: `vi` past the first tags of an 8 KB header is not
    read."""
    client = create_app({"TESTING": True}).test_client()
    body = {"ruleset": "bga-taiwan", "hand": ["rG", "rA"]}  # no win: its reasons are translated
    assert client.post("/v1/hu", json=body, headers={"Accept-Language": "fr, vi"}).headers["Content-Language"] == "vi"
    response = client.post("/v1/hu", json=body, headers={"Accept-Language": "fr, " * 2048 + "vi"})
    assert response.status_code == 200 and response.headers["Content-Language"] == "en"


def test_texts_are_english_strings_that_remember_their_message():
    """The engine's texts compare and serialise as the English (deterministic answers); the message, parameters
    and plural survive pickling and the JSON of a stored job result."""
    reason = text("{replacements}; {improving}", replacements=ntext("{n} replacement from waiting",
                                                                    "{n} replacements from waiting", 2),
                  improving="x")
    assert reason == "2 replacements from waiting; x" and isinstance(reason, str)
    assert pickle.loads(pickle.dumps(reason)).params == reason.params
    assert Text.from_json(reason.as_json()) == reason
    assert text("No rule-set has this id (GET /v1/rulesets/{id}: 404).") == \
        "No rule-set has this id (GET /v1/rulesets/{id}: 404)."  # no parameters: braces are kept


def test_stored_texts_are_read_in_the_readers_language():
    """A job stores the English reason and its message; reading puts it in the reader's language and leaves
    the message out."""
    kept = {"logs": [{"decisions": [{"event": 4, **stored("reason", text("unable to win")), "rank": 2}]}],
            "reason": "plain", "line": {**stored("text", "no message"), "points": 1}}
    assert list(kept["logs"][0]["decisions"][0]) == ["event", "reason", "reason_i18n", "rank"]
    read = read_texts(kept, lambda t: f"<{t.message}>")
    assert read == {"logs": [{"decisions": [{"event": 4, "reason": "<unable to win>", "rank": 2}]}],
                    "reason": "plain", "line": {"text": "no message", "points": 1}}
    assert list(read["logs"][0]["decisions"][0]) == ["event", "reason", "rank"]  # the field keeps its place
    assert read_texts(kept, str)["logs"][0]["decisions"][0] == {"event": 4, "reason": "unable to win", "rank": 2}


def test_a_settlement_line_by_line_in_italian(client):
    """The README's hand (exposed triple wS 1, concealed command 2, concealed triple yC 3: 6 points,
    docs/rules.md#fc-melds), settled under the threshold of 10: the caller pays each opponent 10 + 1."""
    response = client.post("/v1/settlements?lang=it", json={
        "ruleset": "bga-taiwan", "seats": 4, "winner": 2, "hand": ["rG", "rA", "rE", "yC", "yC"],
        "exposed": [{"kind": "triple", "cards": ["wS", "wS", "wS"]}], "public_card": "yC"})
    body = response.get_json()
    assert response.status_code == 200, body
    lines = [line["text"] for line in body["breakdown"]]
    # the Italian rule text's words: a terra (exposed), in mano (concealed), tripletta, Gruppo di Comando
    assert "tripletta a terra wS wS wS" in lines and "Gruppo di Comando in mano rG rA rE" in lines
    assert "nessuna carta fortunata (mazzo esaurito): nessun bonus" in lines
    assert "punti hu h = 1 a terra + 5 in mano + 0 carta fortunata = 6" in lines
    assert "h = 6 < 10: chi dichiara paga a ogni avversario 10 + 1 = 11" in lines
    assert "il posto 2 paga al posto 0: 11" in lines
    assert body["deltas"] == [11, 11, -33, 11]


def test_a_settlement_line_in_portuguese_agrees_with_every_kind(client):
    """The same hand in Portuguese: "à vista" (exposed) and "na mão" (concealed) do not take a gender, so they
    agree with a feminine kind (trinca) and a masculine one (the Commander's set, named after the General) alike,
    as the Portuguese rules say a meld is exposed or formed in hand."""
    response = client.post("/v1/settlements?lang=pt", json={
        "ruleset": "bga-taiwan", "seats": 4, "winner": 2, "hand": ["rG", "rA", "rE", "yC", "yC"],
        "exposed": [{"kind": "triple", "cards": ["wS", "wS", "wS"]}], "public_card": "yC"})
    lines = [line["text"] for line in response.get_json()["breakdown"]]
    assert "trinca à vista wS wS wS" in lines
    assert "General-Conselheiro-Elefante na mão rG rA rE" in lines
    assert not any("exposta" in line or "oculta" in line for line in lines), lines


def test_chan_bonus_conditions_in_vietnamese(client):
    english = client.get("/v1/rulesets/cardavia-chan").get_json()["bonuses"]
    vietnamese = client.get("/v1/rulesets/cardavia-chan?lang=vi").get_json()["bonuses"]
    assert [b["name"] for b in english] == [b["name"] for b in vietnamese]
    conditions = {b["name"]: b["condition"] for b in vietnamese}
    assert conditions["bach_dinh"] == "Bạch định: không có lá đỏ nào"
    assert conditions["u_chi"] == "Ù chì: Ù lá nọc lật ở cửa mình"


def test_an_audit_violation_is_in_the_readers_language(client):
    # a discard of a card the seat was never dealt breaks not_in_hand there (tests/support/pages.py)
    log, index, card = planted()
    seat = log["events"][index]["seat"]
    english = client.post("/v1/audits", json=log).get_json()["violations"]
    vietnamese_answer = client.post("/v1/audits", json=log, headers={"Accept-Language": "vi"})
    vietnamese = vietnamese_answer.get_json()["violations"]
    assert vietnamese_answer.headers["Content-Language"] == "vi"
    assert [(v["event"], v["seat"], v["code"]) for v in english] == [(index, seat, "not_in_hand")]
    assert english[0]["message"] == f"{card} is not in seat {seat}'s hand"  # the English as it always was
    assert {k: v for k, v in vietnamese[0].items() if k != "message"} == {k: v for k, v in english[0].items()
                                                                          if k != "message"}
    vi_catalog = catalogs.read(catalogs.po_path("vi", "messages"), "vi", "messages")
    found = vi_catalog.get("{card} is not in seat {seat}'s hand")
    assert found is not None and found.string and not found.fuzzy, "the message awaits its Vietnamese translation"
    assert vietnamese[0]["message"] == found.string.format(card=card, seat=seat)


def test_texts_count_seats_from_one_when_asked_and_fields_never_change(client):
    """X-Seats-From: 1 (what the pages send): a text names the seat as players count, the API's seat 2 as "seat 3",
    in English and in Vietnamese; the fields keep the API's seats, from 0; without it texts count from 0 too."""
    log, index, card = planted()
    seat = log["events"][index]["seat"]
    plain = client.post("/v1/audits", json=log).get_json()["violations"]
    counted = client.post("/v1/audits", json=log, headers={"X-Seats-From": "1"}).get_json()["violations"]
    vietnamese = client.post("/v1/audits", json=log, headers={"X-Seats-From": "1", "Accept-Language": "vi"})
    assert plain[0]["message"] == f"{card} is not in seat {seat}'s hand"
    assert counted[0]["message"] == f"{card} is not in seat {seat + 1}'s hand"
    assert counted[0]["seat"] == plain[0]["seat"] == seat
    vi_catalog = catalogs.read(catalogs.po_path("vi", "messages"), "vi", "messages")
    found = vi_catalog.get("{card} is not in seat {seat}'s hand")
    assert vietnamese.get_json()["violations"][0]["message"] == found.string.format(card=card, seat=seat + 1)


def test_a_settlement_names_payers_as_players_count_when_asked():
    """A payment line's payer and payee are seats too (`paid`): seat 0 pays seat 2 reads "seat 1 pays seat 3"."""
    line = text("seat {payer} pays seat {payee}: {amount}", payer=0, payee=2, amount=5)
    assert line.render(lambda m: m, lambda one, many, n: one if n == 1 else many, 1) == "seat 1 pays seat 3: 5"
    assert line.render(lambda m: m, lambda one, many, n: one if n == 1 else many) == "seat 0 pays seat 2: 5"
    assert str(text("{amount} points", amount=3).render(lambda m: m, lambda o, m, n: o, 1)) == "3 points"  # no seat


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_rule_options_are_named_in_the_readers_language_with_their_codes_unchanged(client, lang):
    """The lab shows a rule option by its name, its choices and its description: words for people, which follow the
    reader's language, while the option's code and its choices' codes (what a request sends) never change."""
    english = {r["id"]: r for r in client.get("/v1/rulesets").get_json()["rulesets"]}
    response = client.get(f"/v1/rulesets?lang={lang}")
    assert response.headers["Content-Language"] == lang
    for ruleset in response.get_json()["rulesets"]:
        for option, source in zip(ruleset["options"], english[ruleset["id"]]["options"], strict=True):
            assert (option["name"], option.get("choices")) == (source["name"], source.get("choices"))
            assert option["label"] != source["label"] and option["doc"] != source["doc"], (lang, option["name"])
            if "choices" in option:
                assert len(option["choice_labels"]) == len(option["choices"])
                assert all(mine != theirs for mine, theirs in zip(option["choice_labels"], source["choice_labels"],
                                                                 strict=True)), (lang, option["name"])
    # English names the option for people, not by its code
    threshold = english["bga-taiwan"]["options"][0]
    assert (threshold["name"], threshold["label"]) == ("threshold", "Threshold")
