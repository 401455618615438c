"""Every answer of the API to a fixed, seeded sample of requests, recorded from one checkout and compared with the
recording of another: a change that should leave every answer as it was (a refactor) is checked by recording the
tree before it and the tree after it.

Usage:
    .venv/bin/python bench/answers.py record OUT.json [--root DIR]
    .venv/bin/python bench/answers.py compare A.json B.json

`record` imports `service` from the checkout at DIR (default: this repository) and from nowhere else: DIR goes first
on sys.path, and every module of `service` loaded must come from DIR (`service.__file__` checked), else it stops.
The settings of the environment are left out (every `LONGCARDS_*`, `REDIS_*` and `PROMETHEUS_MULTIPROC_DIR`
variable, in this process only), and the app is built by `create_app({"TESTING": True, "REDIS_URL": R})`, R a Unix
socket that does not exist: no Redis is used; the job endpoints and /readyz answer their Redis-down problems (503),
at once and the same every time. The requests go through the Flask test client, in process, one after the other.

The sample is the same whatever DIR is: it is made from this repository's openapi.yaml and README.md and from
seeded random sources, never from the checkout recorded (a few requests are made of an earlier answer, marked `<-`
in their label: the audits of simulated logs, the replay of the README's tour, a drill's own request, a conditional
GET with the ETag just answered; the hash of what they sent is recorded, so a different earlier answer shows twice).
It holds:
- every GET and POST path of openapi.yaml: the pages, the probes, /openapi.json, the API docs, every problem type,
  the rule-sets, the game-log schema, and the POST bodies of the spec's examples and of the README's tour;
- per rule-set, hands drawn from a seeded deck and hands built of melds (POST /v1/hu, /v1/melds, /v1/settlements),
  positions for /v1/discards and /v1/claims, match totals, seeded simulations (their logs audited), drills (their
  requests answered);
- bad inputs: malformed JSON, bodies that are no object, wrong media types, bytes that are not UTF-8, wrong types
  and ranges, unknown card codes and rule-sets and options, empty and oversized bodies, unknown paths, wrong methods;
- Accept-Language variants (vi, zh-Hant, it, pt, uk, and odd headers), `?lang=`, the language cookie;
- gzip and other Accept-Encoding values, conditional GETs (If-None-Match), client request ids, the job endpoints.

Recorded per request: its label, method, path (with the query), the headers sent, the SHA-256 of the body sent (and
of the whole request: method, path, headers, body), the status, every header of the answer but those excluded below
(among them Content-Type, Content-Language, Vary, ETag, Cache-Control, Retry-After, Allow, Location), and the body:
parsed JSON when it is JSON (gzip decoded first, the compressed bytes' SHA-256 beside it), text when it is text,
else its SHA-256 and length.

Left out, because they legitimately differ from one request to the next:
- the `X-Request-ID` header (a new random id per request), unless the request sent a sane id of its own, which is
  echoed and then recorded;
- `request_id` in a problem body (the same id), on the same condition; and the SHA-256 of the gzip bytes of a body it
  was taken out of;
- the `Date` header (the clock); the service sends no timing header, but `Server-Timing` and `X-Response-Time` would
  be left out too;
- the `Expires=` date of a `Set-Cookie` (the language switch's cookie: a year from the clock; `Max-Age` is kept).
The methods of `Allow` are recorded sorted: the service lists a set, in the order of its process's string hashing
(PYTHONHASHSEED), which differs from one run to the next. Nothing else is left out, reordered or rounded.

`compare` prints how many requests were compared and each difference (label, method and path, field, before,
after), and a request one recording has and the other has not; it exits 1 on any difference, else 0. The order of an
answer's headers and of a JSON object's keys counts too (`(key order)`): the service keeps its answers' documented
field order, and an answer is compared as the bytes a client reads.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import logging
import os
import platform
import random
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
#: Where the app is told Redis is: a Unix socket that does not exist, so every Redis call fails at once.
NO_REDIS = "unix:///nonexistent/longcards-bench-answers.sock"
#: Answer headers left out (lower case): they differ on every request.
VARYING_HEADERS = ("date", "server-timing", "x-response-time")
REQUEST_ID = "x-request-id"
EXPIRES = re.compile(r"Expires=[^;]*(; )?", re.I)
SANE_ID = re.compile(r"[\x21-\x7e]{1,128}")
LANGUAGES = ("vi", "zh-Hant", "it", "pt", "uk")
SEED = 20261206

FOURCOLOR = [color + rank for color in "rygw" for rank in "GAECHPS"]
FLOWERS = ["F1", "F2", "F3", "F4", "F5"]
CHAN = [value + suit for value in "23456789" for suit in "msc"] + ["CC"]
#: Per rule-set: its cards, its resting hand size, the seat counts it allows, an option value to try.
RULESETS: dict[str, tuple[list[str], int, tuple[int, ...], dict[str, Any]]] = {
    "bga-taiwan": (FOURCOLOR, 20, (2, 3, 4), {"threshold": 6, "stake": 2}),
    "cardavia-flowers": (FOURCOLOR + FLOWERS, 20, (4,), {"mixed_group_points": "zero"}),
    "cardavia-chan": (CHAN, 19, (4,), {"tom_set": "3m-3s-7c"}),
}
#: Every problem code (service/http/problems.py), and one that is none.
PROBLEM_CODES = (
    "malformed_json unsupported_media_type invalid_request invalid_field unknown_ruleset unknown_option "
    "invalid_option unknown_card impossible_card_count too_many_cards invalid_meld invalid_seat missing_public_card "
    "no_drill_position not_a_win not_in_ruleset deltas_not_zero_sum inconsistent_context wrong_card_count "
    "illegal_discard no_legal_discard duplicate_candidate review_too_long invalid_log wrong_deal_size "
    "webhooks_disabled invalid_callback_url idempotency_key_reused missing_api_key invalid_api_key rate_limited "
    "too_many_active_jobs malformed_request request_line_too_long header_fields_too_large expectation_failed "
    "unsupported_transfer_coding payload_too_large not_found method_not_allowed job_not_found job_not_cancelable "
    "job_failed jobs_unavailable not_replicated not_ready internal_error no_such_problem").split()


@dataclass
class Call:
    """One request of the sample."""

    label: str
    method: str
    path: str
    body: bytes | None = None
    headers: dict[str, str] = field(default_factory=dict)


def encode(body: Any) -> bytes:
    """A JSON body as sent: compact, UTF-8."""
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()


def post(label: str, path: str, body: Any, **headers: str) -> Call:
    """A JSON POST."""
    return Call(label, "POST", path, encode(body), {"Content-Type": "application/json", **headers})


def get(label: str, path: str, **headers: str) -> Call:
    """A GET."""
    return Call(label, "GET", path, None, dict(headers))


# --- what the sample is made of: this repository's spec and README, seeded random sources -------------------------

def spec_examples() -> dict[str, Any]:
    """The request body example of each POST path of this repository's openapi.yaml."""
    import yaml

    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    found = {}
    for path, operations in spec["paths"].items():
        body = operations.get("post", {}).get("requestBody", {}).get("content", {}).get("application/json", {})
        if "example" in body:
            found[path] = body["example"]
    return found


def spec_paths() -> dict[str, list[str]]:
    """Each path of openapi.yaml with its methods."""
    import yaml

    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    return {path: [m for m in ops if m in ("get", "post", "delete")] for path, ops in spec["paths"].items()}


CURL = re.compile(r"curl -s\w*\s+'?localhost:8000(/[^\s']*)'?(.*?)(?=curl -s|\Z)", re.S)


def readme_tour() -> list[tuple[str, str, Any, dict[str, str]]]:
    """The README's curl commands: (method, path, body or `@file`, headers)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    found = []
    for block in re.findall(r"^```sh\n(.*?)^```", text, re.M | re.S):
        for path, rest in CURL.findall(block.replace("\\\n", " ")):
            rest = rest.split("|")[0]
            headers = dict(h.split(": ", 1) for h in re.findall(r"-H '([^']*)'", rest))
            headers.pop("content-type", None)
            data = re.search(r"-d '(.*?)'", rest, re.S)
            file = re.search(r"-d @(\S+)", rest)
            body = json.loads(data.group(1)) if data else "@" + file.group(1) if file else None
            found.append(("POST" if body is not None else "GET", path, body, headers))
    return found


def copies(ruleset: str) -> Counter:
    """How many copies of each card the rule-set's deck holds."""
    cards = RULESETS[ruleset][0]
    return Counter({card: 1 if card.startswith("F") else 4 for card in cards})


def deck(ruleset: str) -> list[str]:
    """The rule-set's deck, every copy."""
    return [card for card, n in copies(ruleset).items() for _ in range(n)]


def drawn(rng: random.Random, ruleset: str, size: int, count: int = 1) -> list[list[str]]:
    """`count` disjoint sets of cards drawn from one shuffled deck, the first `size` cards, the rest one each."""
    cards = deck(ruleset)
    rng.shuffle(cards)
    return [cards[:size]] + [[card] for card in cards[size:size + count - 1]]


def fourcolor_melds(rng: random.Random, ruleset: str) -> list[tuple[str, list[str]]]:
    """A meld of the four-color games, at random."""
    color = rng.choice("rygw")
    colors = rng.sample("rygw", 3)
    card = rng.choice(FOURCOLOR)
    choices = [("command", [color + "G", color + "A", color + "E"]), ("field", [color + "C", color + "H", color + "P"]),
               ("triple", [card] * 3), ("pair", [card] * 2), ("quad", [card] * 4),
               ("soldiers3", [c + "S" for c in colors]), ("general", [color + "G"])]
    if ruleset == "cardavia-flowers":
        choices.append(("flower", [rng.choice(FLOWERS)]))
    return [rng.choice(choices)]


def chan_melds(rng: random.Random, ruleset: str) -> list[tuple[str, list[str]]]:
    """A pair of Chắn at random: a Chắn (two identical cards) or a Cạ (one value, two suits)."""
    value = rng.choice("23456789")
    first, second = rng.sample("msc", 2)
    card = rng.choice(CHAN)
    return [rng.choice([("chan", [card, card]), ("ca", [value + first, value + second])])]


def built(rng: random.Random, ruleset: str, size: int) -> list[tuple[str, list[str]]]:
    """Melds of `size` cards in all, within the deck's copies (a card drawn at random fills what is left)."""
    limit = copies(ruleset)
    make = chan_melds if ruleset == "cardavia-chan" else fourcolor_melds
    for _ in range(100):
        melds: list[tuple[str, list[str]]] = []
        used: Counter = Counter()
        for _ in range(200):
            left = size - sum(len(cards) for _, cards in melds)
            if left == 0:
                return melds
            kind, cards = make(rng, ruleset)[0]
            if len(cards) <= left and all(used[c] + cards.count(c) <= limit[c] for c in set(cards)):
                melds.append((kind, cards))
                used.update(cards)
        spare = [c for c in limit.elements() if used[c] < limit[c]]
        if left <= 2 and len(spare) >= left:
            rng.shuffle(spare)
            return melds + [("loose", spare[:left])] if left else melds
    raise RuntimeError("no hand built")


def flatten_melds(melds: list[tuple[str, list[str]]]) -> list[str]:
    """The cards of some melds, in one list."""
    return [card for _, cards in melds for card in cards]


# --- the sample ---------------------------------------------------------------------------------------------------

def basics() -> Iterator[Call]:
    """Every GET path of the spec (and the docs, /openapi.json), every problem type, the spec's and README's bodies."""
    yield get("home", "/")
    for path in ("/docs/rules", "/docs/rules.md", "/healthz", "/readyz", "/ui", "/ui/", "/ui/drill", "/ui/replay",
                 "/openapi.json", "/docs", "/docs/", "/v1/rulesets", "/v1/schemas/game-log"):
        yield get(path, path)
    for ruleset in [*RULESETS, "no-such-ruleset"]:
        yield get(f"ruleset {ruleset}", f"/v1/rulesets/{ruleset}")
    for code in PROBLEM_CODES:
        yield get(f"problem {code}", f"/problems/{code}")
    for path, example in spec_examples().items():
        yield post(f"spec example {path}", path, example)
    yield post("spec example /v1/audits tables", "/v1/audits?tables=true", spec_examples()["/v1/audits"])
    yield get("spec example drill", "/v1/drills?ruleset=bga-taiwan&difficulty=easy&seed=7&index=0")


def tour(answers: dict[str, Any]) -> Iterator[Call]:
    """The README's commands, a replay of its simulated rounds (`-d @rounds.json`) made of the answer before."""
    last: Any = None
    for index, (method, path, body, headers) in enumerate(readme_tour()):
        label = f"README {index} {method} {path.split('?')[0]}"
        if isinstance(body, str) and body.startswith("@"):
            logs = (last or {}).get("logs") if isinstance(last, dict) else None
            yield post(label + " <- logs of the simulation before", path, {"logs": logs})
        elif body is None:
            yield get(label, path, **headers)
        else:
            yield post(label, path, body, **headers)
        last = answers.get(label)
    claims = next(body for method, path, body, _ in readme_tour() if path == "/v1/claims")
    yield post("README claims in vi", "/v1/claims", claims, **{"Accept-Language": "vi"})


def per_ruleset(answers: dict[str, Any]) -> Iterator[Call]:
    """Seeded hands, positions, matches, simulations (audited) and drills (answered), per rule-set."""
    for number, (ruleset, (_cards, resting, seat_counts, option)) in enumerate(RULESETS.items()):
        rng = random.Random(SEED + number)
        chan = ruleset == "cardavia-chan"
        # POST /v1/hu: hands drawn at random, with and without a public card
        for i in range(20):
            hand, public = drawn(rng, ruleset, resting, 2)
            body: dict[str, Any] = {"ruleset": ruleset, "hand": hand, "public_card": public[0]}
            if i % 5 == 4:
                body = {"ruleset": ruleset, "hand": hand + public}
            if i % 7 == 3:
                body["options"] = option
            yield post(f"{ruleset} hu drawn {i}", "/v1/hu", body)
        # POST /v1/hu and /v1/settlements: hands built of melds (many of them wins), some melds exposed
        for i in range(16):
            melds = built(rng, ruleset, resting + 1)
            rng.shuffle(melds)
            exposed = []
            if not chan and i % 3 == 1:
                exposable = [m for m in melds if m[0] in ("triple", "command", "field", "soldiers3", "quad")]
                if exposable:
                    exposed = [exposable[0]]
                    melds.remove(exposable[0])
            cards = flatten_melds(melds)
            rng.shuffle(cards)
            public = cards.pop()
            body = {"ruleset": ruleset, "hand": cards, "public_card": public}
            if exposed:
                body["exposed"] = [{"kind": kind, "cards": meld} for kind, meld in exposed]
            yield post(f"{ruleset} hu built {i}", "/v1/hu", body)
            seats = rng.choice(seat_counts)
            settle = {**body, "seats": seats, "winner": rng.randrange(seats)}
            if ruleset == "bga-taiwan" and i % 2:
                settle["lucky_card"] = rng.choice(FOURCOLOR)
            if chan and i % 2:
                settle["context"] = {name: True for name in rng.sample(
                    ["by_chiu", "dealt_quad", "heavenly", "own_gate", "dealt_pair_became_quad"], rng.randrange(3))}
            if i % 4 == 2:
                settle["options"] = option
            yield post(f"{ruleset} settlement built {i}", "/v1/settlements", settle)
        # POST /v1/melds: hands of any size, with or without a public card and a seat role
        for i in range(10):
            hand, public = drawn(rng, ruleset, rng.randrange(3, resting + 1), 2)
            body = {"ruleset": ruleset, "hand": hand}
            if i % 2:
                body.update(public_card=rng.choice(hand + public), seat_role=rng.choice(
                    ["drawer", "next", "other", "discarder"]))
            if i % 3 == 2:
                body["card_source"] = rng.choice(["stock", "discard"])
            yield post(f"{ruleset} melds {i}", "/v1/melds", body)
        # POST /v1/discards: turn-size hands, with the cards seen elsewhere
        for i in range(12):
            hand, *seen = drawn(rng, ruleset, resting + 1, 1 + rng.randrange(6))
            seats = rng.choice(seat_counts)
            body = {"ruleset": ruleset, "hand": hand, "seats": seats, "seat": rng.randrange(seats),
                    "visible": [c for [c] in seen]}
            if i % 6 == 5:
                body["options"] = option
            yield post(f"{ruleset} discards {i}", "/v1/discards", body)
        # POST /v1/claims: the public card often one the hand holds
        for i in range(12):
            hand, *rest = drawn(rng, ruleset, resting, 8)
            seats = rng.choice(seat_counts)
            seat = rng.randrange(seats)
            matching = [c for [c] in rest if c in hand]
            public = matching[0] if matching and i % 3 else rest[0][0]
            body = {"ruleset": ruleset, "hand": hand, "public_card": public, "seats": seats, "seat": seat,
                    "from_seat": (seat - 1) % seats, "card_source": "discard"}
            if i % 4 == 3:
                body.update(card_source="stock", from_seat=rng.randrange(seats))
            if i % 5 == 4:
                body["visible"] = [c for [c] in rest[1:4]]
            yield post(f"{ruleset} claims {i}", "/v1/claims", body)
        # POST /v1/matches: zero-sum rounds, and one that is not
        for i in range(4):
            seats = rng.choice(seat_counts)
            rounds = []
            for _ in range(rng.randrange(1, 6)):
                deltas = [rng.randrange(-9, 10) for _ in range(seats - 1)]
                rounds.append(deltas + [-sum(deltas)])
            if i == 3:
                rounds[0][0] += 1
            body = {"ruleset": ruleset, "seats": seats, "rounds": rounds}
            if i == 1:
                body["start"] = 100
            yield post(f"{ruleset} match {i}", "/v1/matches", body)
        # POST /v1/simulations, and each log audited (POST /v1/audits, the first with the tables)
        for i, policy in enumerate(("greedy", "random")):
            seats = seat_counts[i % len(seat_counts)]
            label = f"{ruleset} simulation {i}"
            yield post(label, "/v1/simulations", {"ruleset": ruleset, "seed": 11 + i, "seats": seats,
                                                  "policy": policy, "rounds": 2})
            logs = (answers.get(label) or {}).get("logs") or []
            for j, log in enumerate(logs):
                path = "/v1/audits?tables=true" if i == j == 0 else "/v1/audits"
                yield post(f"{ruleset} audit <- simulation {i} log {j}", path, log)
        # GET /v1/drills, and each drill's own request answered
        for i, (difficulty, kind) in enumerate((("easy", "any"), ("medium", "discard"), ("hard", "claim"))):
            label = f"{ruleset} drill {difficulty} {kind}"
            yield get(label, f"/v1/drills?ruleset={ruleset}&difficulty={difficulty}&seed={5 + i}&index={i}"
                             f"&kind={kind}")
            asked = (answers.get(label) or {}).get("request") if isinstance(answers.get(label), dict) else None
            if asked:
                yield post(f"{ruleset} drill {difficulty} {kind} <- its request", asked["path"], asked["body"])


def bad_inputs() -> Iterator[Call]:
    """Malformed and wrong requests."""
    ok = {"ruleset": "bga-taiwan", "hand": ["rG", "rA", "rE", "yC", "yC"], "public_card": "yC"}
    json_type = {"Content-Type": "application/json"}
    for path in ("/v1/hu", "/v1/discards", "/v1/claims", "/v1/audits", "/v1/simulations", "/v1/searches"):
        yield Call(f"malformed JSON {path}", "POST", path, b'{"ruleset": "bga-taiwan", "hand": [', json_type)
    for name, raw in (("array", b"[]"), ("string", b'"rG"'), ("null", b"null"), ("number", b"42"),
                      ("NaN", b'{"ruleset": "bga-taiwan", "hand": ["rG"], "seats": NaN}'),
                      ("duplicate keys", b'{"ruleset": "bga-taiwan", "ruleset": "cardavia-chan", "hand": ["2m"]}'),
                      ("trailing text", encode(ok) + b" x"), ("empty", b""), ("whitespace", b"   \n"),
                      ("not UTF-8", b'{"ruleset": "bga-taiwan", "hand": ["\xff"]}'),
                      ("UTF-16", json.dumps(ok).encode("utf-16")),
                      ("UTF-8 BOM", b"\xef\xbb\xbf" + encode(ok)),
                      ("padded to 1.5 MB", b" " * 1_500_000 + encode(ok) + b" " * 10)):
        yield Call(f"hu body {name}", "POST", "/v1/hu", raw, json_type)
    for name, content_type in (("text/plain", "text/plain"), ("form", "application/x-www-form-urlencoded"),
                               ("upper case", "Application/JSON"), ("charset", "application/json; charset=utf-8"),
                               ("+json", "application/vnd.api+json"), ("none", "")):
        headers = {"Content-Type": content_type} if content_type else {}
        yield Call(f"hu content type {name}", "POST", "/v1/hu", encode(ok), headers)
    yield Call("hu empty body, no type", "POST", "/v1/hu", None, {})
    yield Call("hu oversized", "POST", "/v1/hu", b"[" + b"0," * (1024 * 1024) + b"0]", json_type)
    yield Call("audits oversized", "POST", "/v1/audits", b" " * (2 * 1024 * 1024 + 1), json_type)
    wrong = {
        "hand a string": {**ok, "hand": "rG"}, "hand numbers": {**ok, "hand": [1, 2]},
        "ruleset a number": {**ok, "ruleset": 5}, "public card a list": {**ok, "public_card": ["yC"]},
        "exposed a string": {**ok, "exposed": "triple"},
        "exposed bad kind": {**ok, "exposed": [{"kind": "bogus", "cards": ["wS", "wS", "wS"]}]},
        "exposed not a meld": {**ok, "exposed": [{"kind": "triple", "cards": ["wS", "wA", "wS"]}]},
        "unknown option": {**ok, "options": {"nope": 1}}, "option wrong type": {**ok, "options": {"threshold": "10"}},
        "option out of range": {**ok, "options": {"threshold": -1}}, "options a list": {**ok, "options": []},
        "unknown field": {**ok, "foo": 1}, "missing hand": {"ruleset": "bga-taiwan"}, "missing ruleset": {"hand": []},
        "empty hand": {**ok, "hand": []}, "unknown ruleset": {**ok, "ruleset": "mahjong"},
        "too many cards": {**ok, "hand": FOURCOLOR[:25]}, "five copies": {**ok, "hand": ["rG"] * 5},
        "unknown card": {**ok, "hand": ["rG", "xx"]}, "lower case card": {**ok, "hand": ["rg"]},
        "rank unknown": {**ok, "hand": ["rZ"]}, "flower F6": {**ok, "ruleset": "cardavia-flowers", "hand": ["F6"]},
        "flower in bga-taiwan": {**ok, "hand": ["F1", "rG"]}, "chan card in bga-taiwan": {**ok, "hand": ["2m"]},
        "four-color card in chan": {"ruleset": "cardavia-chan", "hand": ["rG", "2m"]},
        "empty card code": {**ok, "hand": [""]}, "long card code": {**ok, "hand": ["rG" * 500]},
        "public card unknown": {**ok, "public_card": "zz"}, "public card null": {**ok, "public_card": None},
        "hand null": {**ok, "hand": None}, "deep nesting": {**ok, "options": {"a": [[[[[[[[{}]]]]]]]]}},
    }
    for name, body in wrong.items():
        yield post(f"hu {name}", "/v1/hu", body)
    discards = {"ruleset": "bga-taiwan", "hand": FOURCOLOR[:21], "seats": 4, "seat": 0}
    for name, body in {"seats a string": {**discards, "seats": "4"}, "seats 5": {**discards, "seats": 5},
                       "seat 7": {**discards, "seat": 7}, "seat true": {**discards, "seat": True},
                       "seat 1.5": {**discards, "seat": 1.5}, "seat huge": {**discards, "seat": 10 ** 30},
                       "chan with 3 seats": {"ruleset": "cardavia-chan", "hand": CHAN[:20], "seats": 3},
                       "hand too small": {**discards, "hand": FOURCOLOR[:5]},
                       "visible too many": {**discards, "visible": ["rG"] * 4},
                       "visible unknown": {**discards, "visible": ["qq"]}}.items():
        yield post(f"discards {name}", "/v1/discards", body)
    claims = {"ruleset": "bga-taiwan", "hand": FOURCOLOR[:20], "public_card": "rG", "seats": 4, "seat": 2,
              "from_seat": 1}
    for name, body in {"no public card": {k: v for k, v in claims.items() if k != "public_card"},
                       "from own seat": {**claims, "from_seat": 2}, "from seat 9": {**claims, "from_seat": 9},
                       "bad source": {**claims, "card_source": "pocket"}}.items():
        yield post(f"claims {name}", "/v1/claims", body)
    yield post("settlement not a win", "/v1/settlements",
               {"ruleset": "bga-taiwan", "hand": FOURCOLOR[:20], "public_card": "rG", "seats": 4, "winner": 0})
    yield post("settlement winner 5", "/v1/settlements", {**spec_examples()["/v1/settlements"], "winner": 5})
    yield post("settlement chan bad context", "/v1/settlements",
               {"ruleset": "cardavia-chan", "hand": CHAN[:19], "public_card": "CC", "seats": 4, "winner": 0,
                "context": {"chiu_on_dealt_triple": True}})
    yield post("match not zero-sum", "/v1/matches", {"ruleset": "bga-taiwan", "seats": 3, "rounds": [[1, 1, 1]]})
    yield post("match wrong width", "/v1/matches", {"ruleset": "bga-taiwan", "seats": 3, "rounds": [[1, -1]]})
    yield post("simulation 21 rounds", "/v1/simulations", {"ruleset": "bga-taiwan", "rounds": 21})
    yield post("simulation bad policy", "/v1/simulations", {"ruleset": "bga-taiwan", "policy": "advice-v1"})
    yield post("simulation chan 2 seats", "/v1/simulations", {"ruleset": "cardavia-chan", "seats": 2})
    log = spec_examples()["/v1/audits"]
    yield post("audit no hands", "/v1/audits", {k: v for k, v in log.items() if k != "hands"})
    yield post("audit illegal discard", "/v1/audits",
               {**log, "events": [{"card": "rG", "seat": 1, "type": "discard"}] + log["events"][1:]})
    yield post("audit truncated", "/v1/audits", {**log, "events": log["events"][:3]})
    yield post("audit bad event", "/v1/audits", {**log, "events": [{"type": "teleport", "seat": 0}]})
    for query in ("", "ruleset=mahjong", "ruleset=bga-taiwan&difficulty=impossible", "ruleset=bga-taiwan&seed=-1",
                  "ruleset=bga-taiwan&seed=x", "ruleset=bga-taiwan&index=100000000", "ruleset=bga-taiwan&kind=hu"):
        yield get(f"drill query {query or 'none'}", f"/v1/drills?{query}")
    for path in ("/v1/nope", "/v2/hu", "/v1/hu/", "/v1", "/V1/HU", "/problems/", "/ui/nope", "/docs/nope.js",
                 "/static/nope.css", "/favicon.png", "/v1/rulesets/", "/v1/%E1%BB%A5", "/v1/jobs/"):
        yield get(f"unknown path {path}", path)
    for method, path in (("GET", "/v1/hu"), ("PUT", "/v1/hu"), ("DELETE", "/v1/hu"), ("PATCH", "/v1/discards"),
                         ("POST", "/v1/rulesets"), ("DELETE", "/v1/rulesets/bga-taiwan"), ("POST", "/healthz"),
                         ("POST", "/v1/drills"), ("PUT", "/v1/jobs/abc"), ("DELETE", "/"), ("GET", "/v1/replays"),
                         ("GET", "/v1/searches"), ("TRACE", "/v1/hu"), ("OPTIONS", "/v1/hu"),
                         ("OPTIONS", "/v1/rulesets"), ("HEAD", "/v1/rulesets"), ("HEAD", "/healthz"),
                         ("HEAD", "/ui"), ("HEAD", "/v1/drills?ruleset=bga-taiwan")):
        body = encode(ok) if method in ("PUT", "PATCH", "POST") else None
        yield Call(f"method {method} {path}", method, path, body, json_type if body else {})
    yield post("hu with a query", "/v1/hu?x=1", ok)
    yield post("hu with a sane request id", "/v1/hu", ok, **{"X-Request-ID": "bench-answers-1"})
    yield post("problem with a sane request id", "/v1/hu", {**ok, "hand": ["xx"]},
               **{"X-Request-ID": "bench-answers-2"})
    yield post("hu with an insane request id", "/v1/hu", ok, **{"X-Request-ID": "two words"})


def languages() -> Iterator[Call]:
    """Texts in the reader's language."""
    examples = spec_examples()
    claims = next(body for method, path, body, _ in readme_tour() if path == "/v1/claims")
    no_win = {"ruleset": "bga-taiwan", "hand": ["rG", "rA"]}
    chan_no_win = {"ruleset": "cardavia-chan", "hand": CHAN[:19], "public_card": "CC"}
    log = examples["/v1/audits"]
    for language in LANGUAGES:
        said = {"Accept-Language": language}
        yield post(f"{language} hu no win", "/v1/hu", no_win, **said)
        yield post(f"{language} hu chan no win", "/v1/hu", chan_no_win, **said)
        yield post(f"{language} hu example", "/v1/hu", examples["/v1/hu"], **said)
        yield post(f"{language} claims README", "/v1/claims", claims, **said)
        yield post(f"{language} discards example", "/v1/discards", examples["/v1/discards"], **said)
        yield post(f"{language} unknown card", "/v1/hu", {**no_win, "hand": ["xx"]}, **said)
        yield post(f"{language} invalid fields", "/v1/discards", {"ruleset": 1, "hand": "x", "seats": "y"}, **said)
        yield Call(f"{language} malformed JSON", "POST", "/v1/hu", b"{", {"Content-Type": "application/json", **said})
        yield post(f"{language} settlement not a win", "/v1/settlements",
                   {**examples["/v1/settlements"], "hand": ["rG", "rA", "rE", "yC", "yH"]}, **said)
        yield post(f"{language} audit violation", "/v1/audits",
                   {**log, "events": [{"card": "rG", "seat": 1, "type": "discard"}] + log["events"][1:]}, **said)
        yield get(f"{language} problem type", "/problems/unknown_card", **said)
        yield get(f"{language} ruleset", "/v1/rulesets/cardavia-chan", **said)
        yield get(f"{language} drill", "/v1/drills?ruleset=cardavia-chan&difficulty=easy&seed=3", **said)
        yield get(f"{language} readyz", "/readyz", **said)
        yield get(f"{language} jobs", "/v1/jobs", **said)
        yield get(f"{language} lab", "/ui", **said)
        yield Call(f"{language} wrong method", "GET", "/v1/hu", None, said)
    for header in ("fr, vi", "zh-TW", "zh", "pt-BR;q=0.9, en;q=0.8", "uk;q=0, it", "*", "xx", "vi-VN",
                   "fr, " * 2048 + "vi", ""):
        yield post(f"Accept-Language {header[:30]!r}", "/v1/hu", no_win, **{"Accept-Language": header})
    for query in ("lang=uk", "lang=zh-Hant", "lang=zz", "lang=vi&lang=it"):
        yield post(f"hu ?{query}", f"/v1/hu?{query}", no_win, **{"Accept-Language": "pt"})
        yield get(f"problem ?{query}", f"/problems/not_a_win?{query}")
    yield get("lab ?lang=it", "/ui?lang=it")
    yield get("lab cookie vi", "/ui", Cookie="longcards_lang=vi")
    yield get("drill page cookie uk", "/ui/drill", Cookie="longcards_lang=uk")
    yield post("hu cookie vi (an API: no)", "/v1/hu", no_win, Cookie="longcards_lang=vi")
    yield get("rules page in pt", "/docs/rules", **{"Accept-Language": "pt"})


def encodings(answers: dict[str, Any]) -> Iterator[Call]:
    """Compressed answers and conditional GETs."""
    examples = spec_examples()
    claims = next(body for method, path, body, _ in readme_tour() if path == "/v1/claims")
    gz = {"Accept-Encoding": "gzip"}
    for path in ("/v1/rulesets", "/v1/rulesets/bga-taiwan", "/v1/schemas/game-log", "/openapi.json", "/ui",
                 "/docs/rules", "/ui/replay", "/healthz", "/v1/drills?ruleset=bga-taiwan&seed=2"):
        yield get(f"gzip {path}", path, **gz)
    for path, body in (("/v1/discards", examples["/v1/discards"]), ("/v1/claims", claims),
                       ("/v1/simulations", examples["/v1/simulations"]), ("/v1/hu", examples["/v1/hu"]),
                       ("/v1/audits?tables=true", examples["/v1/audits"]), ("/v1/melds", examples["/v1/melds"])):
        yield post(f"gzip {path}", path, body, **gz)
    yield post("gzip problem", "/v1/hu", {"ruleset": "bga-taiwan", "hand": ["xx"] * 300}, **gz)
    for value in ("br", "gzip;q=0", "identity", "deflate, gzip;q=0.5", "*"):
        yield get(f"Accept-Encoding {value}", "/v1/rulesets", **{"Accept-Encoding": value})
        yield post(f"Accept-Encoding {value} discards", "/v1/discards", examples["/v1/discards"],
                   **{"Accept-Encoding": value})
    for path, headers in (("/v1/rulesets", {}), ("/v1/rulesets", gz), ("/v1/schemas/game-log", {}),
                          ("/v1/rulesets/cardavia-chan", {"Accept-Language": "vi"}),
                          ("/v1/drills?ruleset=cardavia-flowers&seed=4", {})):
        label = f"conditional {path} {headers}"
        yield get(label, path, **headers)
        etag = answers.get(label + " ETag")
        yield get(label + " <- its ETag", path, **headers, **({"If-None-Match": etag} if etag else {}))
    yield get("If-None-Match other", "/v1/rulesets", **{"If-None-Match": '"not-this-one"'})
    yield get("If-None-Match *", "/v1/rulesets", **{"If-None-Match": "*"})
    yield get("If-None-Match weak *", "/v1/rulesets/bga-taiwan", **{"If-None-Match": 'W/"x", *'})


def jobs() -> Iterator[Call]:
    """The job endpoints, Redis down: what is refused before Redis, and the 503 of the rest."""
    examples = spec_examples()
    replay, search = examples["/v1/replays"], examples["/v1/searches"]
    yield post("replay example (Redis down)", "/v1/replays", replay)
    yield post("replay Idempotency-Key", "/v1/replays", replay, **{"Idempotency-Key": "bench-answers"})
    yield post("replay webhook (webhooks off)", "/v1/replays", {**replay, "callback_url": "https://example.com/h"})
    yield post("replay no logs", "/v1/replays", {"logs": []})
    yield post("replay bad log", "/v1/replays", {"logs": [{"ruleset": "bga-taiwan"}]})
    yield post("replay deep too long", "/v1/replays",
               {**replay, "logs": replay["logs"] * 20, "review": {"mode": "deep", "time_budget": 30}})
    yield post("search example (Redis down)", "/v1/searches", search)
    yield post("search duplicate candidate", "/v1/searches", {**search, "candidates": ["gS", "gS"]})
    yield post("search samples 0", "/v1/searches", {**search, "samples": 0})
    yield post("search webhook private", "/v1/searches", {**search, "callback_url": "http://127.0.0.1/h"})
    for method, path in (("GET", "/v1/jobs"), ("GET", "/v1/jobs?limit=0"), ("GET", "/v1/jobs?cursor=zz"),
                         ("GET", "/v1/jobs/abc"), ("GET", "/v1/jobs/abc?logs_limit=-1"), ("DELETE", "/v1/jobs/abc")):
        yield Call(f"jobs {method} {path}", method, path)


def sample(answers: dict[str, Any]) -> Iterator[Call]:
    """The whole sample, in order; `answers` holds the answers so far (by label) for the requests made of them."""
    yield from basics()
    yield from tour(answers)
    yield from per_ruleset(answers)
    yield from bad_inputs()
    yield from languages()
    yield from encodings(answers)
    yield from jobs()


# --- record -------------------------------------------------------------------------------------------------------

def isolate(root: Path) -> Any:
    """`service` of the checkout at `root`, and nothing of another checkout; the environment's settings left out."""
    for name in [n for n in os.environ if n.startswith(("LONGCARDS_", "REDIS_")) or n == "PROMETHEUS_MULTIPROC_DIR"]:
        del os.environ[name]
    if any(name == "service" or name.startswith("service.") for name in sys.modules):
        raise SystemExit("service was imported before its checkout was chosen")
    sys.path.insert(0, str(root))
    import service

    where = Path(service.__file__).resolve()
    if not where.is_relative_to(root):
        raise SystemExit(f"service imported from {where}, not from {root}")
    return service


def foreign_modules(root: Path) -> list[str]:
    """Modules of `service` (or `workers`) loaded from anywhere but `root`."""
    found = []
    for name, module in list(sys.modules.items()):
        if name.split(".")[0] in ("service", "workers") and getattr(module, "__file__", None):
            if not Path(module.__file__).resolve().is_relative_to(root):
                found.append(f"{name}: {module.__file__}")
    return found


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def recorded(call: Call, response: Any) -> dict[str, Any]:
    """What is kept of one answer (the module docstring says what is left out, and why)."""
    sent_id = call.headers.get("X-Request-ID", "")
    own_id = bool(sent_id and SANE_ID.fullmatch(sent_id))
    headers: dict[str, Any] = {}
    for name, value in response.headers.items():
        lowered = name.lower()
        if lowered in VARYING_HEADERS or lowered == REQUEST_ID and not own_id:
            continue
        if lowered == "allow":  # a set of methods, in the order of this process's string hashing
            value = ", ".join(sorted(m.strip() for m in value.split(",")))
        if lowered == "set-cookie":  # a cookie's expiry is a date: the clock's
            value = EXPIRES.sub("", value)
        headers[name] = value if name not in headers else [*([headers[name]] if isinstance(headers[name], str)
                                                             else headers[name]), value]
    raw = response.get_data()
    encoding = response.headers.get("Content-Encoding", "")
    data = gzip.decompress(raw) if encoding == "gzip" and raw else raw
    kind = response.headers.get("Content-Type", "").split(";")[0].strip().lower()
    body: Any
    removed = False
    if kind.endswith("json") and data:
        body = json.loads(data)
        if isinstance(body, dict) and "request_id" in body and kind == "application/problem+json" and not own_id:
            body = {k: v for k, v in body.items() if k != "request_id"}
            removed = True
    elif kind.startswith("text/") or kind in ("application/javascript", "image/svg+xml"):
        body = data.decode("utf-8", errors="replace")
    else:
        body = {"sha256": sha256(data), "length": len(data)} if data else None
    request = json.dumps([call.method, call.path, sorted(call.headers.items()), sha256(call.body or b"")])
    answer: dict[str, Any] = {
        "label": call.label, "method": call.method, "path": call.path,
        "request_headers": {k: (v if len(v) <= 200 else f"{v[:60]}... ({len(v)} characters)")
                            for k, v in call.headers.items()},
        "request_body_sha256": sha256(call.body or b""), "request_body_length": len(call.body or b""),
        "request_sha256": sha256(request.encode()),
        "status": response.status_code, "headers": headers, "body": body,
    }
    if encoding:
        answer["encoded_sha256"] = None if removed else sha256(raw)
    return answer


def record(out: Path, root: Path) -> None:
    """Send the sample to the app of the checkout at `root`; write every answer to `out`."""
    root = root.resolve()
    service = isolate(root)
    logging.disable(logging.WARNING)  # the no-key warning, Redis-down warnings; errors still show
    from service.app import create_app

    app = create_app({"TESTING": True, "REDIS_URL": NO_REDIS})
    client = app.test_client()
    answers: dict[str, Any] = {}
    records = []
    for call in sample(answers):
        if any(r["label"] == call.label for r in records):
            raise SystemExit(f"two requests labelled {call.label!r}")
        response = client.open(call.path, method=call.method, data=call.body, headers=call.headers)
        kept = recorded(call, response)
        records.append(kept)
        answers[call.label] = kept["body"]
        if "ETag" in response.headers:
            answers[call.label + " ETag"] = response.headers["ETag"]
        response.close()
    foreign = foreign_modules(root)
    if foreign:
        raise SystemExit("modules of another checkout were imported: " + "; ".join(foreign))
    from service.rules.registry import ENGINE_VERSION

    try:
        commit = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True, timeout=30).stdout.strip()
    except OSError:
        commit = ""
    lane = app.extensions.get("longcards_fastlane")
    meta = {"root": str(root), "commit": commit, "service": service.__file__, "engine_version": ENGINE_VERSION,
            "python": platform.python_version(), "requests": len(records),
            "fast_lane_served": getattr(lane, "served", None)}
    out.write_text(json.dumps({"meta": meta, "answers": records}, ensure_ascii=False, indent=1) + "\n",
                   encoding="utf-8")
    statuses = Counter(r["status"] for r in records)
    paths = sorted({r["path"].split("?")[0] for r in records})
    missed = [f"{method.upper()} {path}" for path, methods in spec_paths().items() for method in methods
              if not any(r["method"] == method.upper() and re.fullmatch(re.sub(r"\{\w+\}", "[^/]+", path),
                                                                         r["path"].split("?")[0]) for r in records)]
    if missed:
        print("operations of openapi.yaml not requested: " + ", ".join(missed))
    print(f"{len(records)} requests to {len(paths)} paths recorded from {root} ({commit or 'no git'}, engine "
          f"{ENGINE_VERSION}) in {out}; statuses {dict(sorted(statuses.items()))}")


# --- compare ------------------------------------------------------------------------------------------------------

def shown(value: Any, limit: int = 160) -> str:
    """A value on one line, cut to `limit` characters."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    text = text.replace("\n", "\\n")
    return text if len(text) <= limit else text[:limit - 3] + "..."


def string_change(before: str, after: str, context: int = 60) -> tuple[str, str]:
    """Two long strings around their first difference."""
    start = next((i for i, (a, b) in enumerate(zip(before, after)) if a != b), min(len(before), len(after)))
    tail = 0
    while tail < min(len(before), len(after)) - start and before[-1 - tail] == after[-1 - tail]:
        tail += 1
    cut = max(0, start - context)
    return (f"@{start}: ...{before[cut:len(before) - tail + context]}...",
            f"@{start}: ...{after[cut:len(after) - tail + context]}...")


def differences(before: Any, after: Any, where: str) -> Iterator[tuple[str, Any, Any]]:
    """(field, before, after) for each place two values differ."""
    if isinstance(before, dict) and isinstance(after, dict):
        for key in list(before) + [k for k in after if k not in before]:
            if key not in after:
                yield f"{where}.{key}", before[key], "(absent)"
            elif key not in before:
                yield f"{where}.{key}", "(absent)", after[key]
            else:
                yield from differences(before[key], after[key], f"{where}.{key}")
        if list(before) != list(after) and set(before) == set(after):
            yield f"{where} (key order)", list(before), list(after)
    elif isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        for i, (b, a) in enumerate(zip(before, after)):
            yield from differences(b, a, f"{where}[{i}]")
    elif before != after or type(before) is not type(after):
        if isinstance(before, str) and isinstance(after, str) and max(len(before), len(after)) > 160:
            before, after = string_change(before, after)
        yield where, before, after


def compare(first: Path, second: Path) -> int:
    """Print every difference between two recordings; 1 if there is any, else 0."""
    a, b = (json.loads(p.read_text(encoding="utf-8")) for p in (first, second))
    before = {r["label"]: r for r in a["answers"]}
    after = {r["label"]: r for r in b["answers"]}
    print(f"before: {a['meta']['root']} ({a['meta']['commit']}, engine {a['meta']['engine_version']}, "
          f"fast lane served {a['meta'].get('fast_lane_served')})")
    print(f"after:  {b['meta']['root']} ({b['meta']['commit']}, engine {b['meta']['engine_version']}, "
          f"fast lane served {b['meta'].get('fast_lane_served')})")
    found = 0
    both = [label for label in before if label in after]
    for label in both:
        old, new = before[label], after[label]
        for name, was, now in differences({k: v for k, v in old.items() if k != "label"},
                                           {k: v for k, v in new.items() if k != "label"}, ""):
            found += 1
            print(f"  {label} | {old['method']} {shown(old['path'], 80)} | {name.lstrip('.')}: "
                  f"{shown(was)} -> {shown(now)}")
    for label in before:
        if label not in after:
            found += 1
            print(f"  {label}: only before")
    for label in after:
        if label not in before:
            found += 1
            print(f"  {label}: only after")
    print(f"{len(both)} requests compared ({len(before)} before, {len(after)} after): {found} difference"
          f"{'' if found == 1 else 's'}")
    return 1 if found else 0


def main() -> None:
    """CLI."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    recording = commands.add_parser("record", help="send the sample to a checkout's app and write its answers")
    recording.add_argument("out", type=Path, help="the JSON file to write")
    recording.add_argument("--root", type=Path, default=ROOT, metavar="DIR", help="the checkout whose service answers "
                           "(default: this repository)")
    comparing = commands.add_parser("compare", help="print the differences between two recordings")
    comparing.add_argument("before", type=Path)
    comparing.add_argument("after", type=Path)
    args = parser.parse_args()
    if args.command == "record":
        record(args.out, args.root)
    else:
        sys.exit(compare(args.before, args.after))


if __name__ == "__main__":
    main()
