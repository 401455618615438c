"""The hand and drill embed views (`/embed/hand`, `/embed/drill`): a hand of the hand lab with its answers, and one
drill to answer, for another site's page (service/ui/embed.py frames them and fits them to the host page).

Both are computed here, with the very requests the pages send (`api_answer`: the API's own answers, validation
and problems, in the reader's language), and rendered into the page as a JSON data block (`#embed-data`): the
view's script draws them with the pages' own renderers (lab-panels.js, claims.js, drill-view.js) and asks nothing,
so the first paint needs no round trip and a visitor's browser sends no API request. A query the API refuses is a
page of the refusal's status saying why, each field by its name on the page, in the reader's language.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from flask import Response, request
from werkzeug.datastructures import MultiDict

from ..http.errors import problem, readable
from ..i18n import _
from ..rules.roles import seat_role
from .embed import api_answer, blp, embed_page

#: The embed views' own parameters (the host page's choice of language, theme and faces), not the view's query.
VIEW_PARAMS = ("theme", "faces")


class Refused(Exception):
    """A question of the view that the API answered with a problem: the view answers that (its status, a page
    saying why)."""

    def __init__(self, answer: dict[str, Any]) -> None:
        super().__init__(answer.get("code"))
        self.answer = answer

    @classmethod
    def invalid(cls, field: str, message: str, code: str = "invalid_request") -> Refused:
        """A field of the query refused before any question is asked: the problem the API gives for such a field
        (422 naming it, `message` in the reader's language)."""
        return cls(problem(422, code, _("invalid fields: {fields}", fields=field), {field: [message]}).get_json())


def ask(method: str, path: str, *, body: Any = None, query: dict[str, Any] | None = None) -> Any:
    """The API's answer to a question of the view; Refused with its problem when it answers one."""
    status, answer = api_answer(method, path, body=body, query=query)
    if status >= 400:
        raise Refused(answer if isinstance(answer, dict) else {"status": status})
    return answer


def rulesets() -> list[dict[str, Any]]:
    """GET /v1/rulesets: every rule-set with its family, hand sizes and options (the first is the pages' default)."""
    return list(ask("GET", "/v1/rulesets")["rulesets"])


def view(name: str, data: dict[str, Any], open_url: str) -> Response:
    """The view `ui/embed/<name>` drawing `data`, or the page of its problem (`data["problem"]`) at its status."""
    status = int(data["problem"].get("status") or 500) if "problem" in data else 200
    return embed_page(name, status, data=data, open_url=open_url)


def page_query(args: MultiDict[str, str], rename: dict[str, str] | None = None) -> str:
    """The query of the service's own page for this view: the view's query (its `lang` kept, so the page opens in
    the language read here), less the embed's own parameters, some renamed (`rename`)."""
    kept = [((rename or {}).get(name, name), value) for name, value in args.items(multi=True)
            if name not in VIEW_PARAMS]
    return urlencode(kept)


# -- the hand ------------------------------------------------------------------------------------------------------
def whole(args: MultiDict[str, str], name: str, field: str, default: int) -> int:
    """A whole number of the query (its default when absent); a refusal naming `field` (the API's name) otherwise."""
    raw = args.get(name, "")
    if raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise Refused.invalid(field, readable("Not a valid integer.")) from None


def codes(args: MultiDict[str, str], name: str) -> list[str]:
    """A list of card codes, comma-separated (`hand=rG,rA,rE`)."""
    return [code for code in args.get(name, "").split(",") if code]


def option_value(option: dict[str, Any], raw: str) -> Any:
    """A rule option's value from the query, typed as the lab types it; anything else as given, for the API to
    name (`options.NAME`)."""
    if option.get("type") == "integer":
        try:
            return int(raw)
        except ValueError:
            return raw
    if option.get("type") == "boolean" and raw in ("true", "false"):
        return raw == "true"
    return raw


def ruleset_of(wanted: str, known: list[dict[str, Any]]) -> dict[str, Any]:
    """The rule-set `wanted` (GET /v1/rulesets' entry); Refused with the API's own refusal of another, its field's
    message naming no rule-set id (a player reads it)."""
    for rs in known:
        if rs["id"] == wanted:
            return rs
    _status, answer = api_answer("POST", "/v1/hu", body={"ruleset": wanted, "hand": []})
    raise Refused({**answer, "errors": {"ruleset": [_("not one of the rule-sets of this service")]}})


def lab_state(args: MultiDict[str, str], known: list[dict[str, Any]]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The lab the query holds (lab-state.js `fromQuery`, seats from 0) and its rule-set; the rule-set defaults to
    the first, as in the lab, and an unknown one is the API's refusal."""
    rs = ruleset_of(args.get("ruleset") or known[0]["id"], known)
    options = {o["name"]: option_value(o, args[f"opt.{o['name']}"]) for o in rs["options"]
               if f"opt.{o['name']}" in args}
    exposed = []
    for part in filter(None, args.get("exposed", "").split("|")):
        kind, _colon, cards = part.partition(":")
        exposed.append({"kind": kind, "cards": [code for code in cards.split(".") if code]})
    seats = whole(args, "seats", "seats", rs["seats"]["max"]) or rs["seats"]["max"]
    seat = whole(args, "seat", "seat", 0)
    source_seat = whole(args, "from", "from_seat", (seat + seats - 1) % seats)  # by default: I am next
    state = {"ruleset": rs["id"], "options": options, "seats": seats, "seat": seat, "hand": codes(args, "hand"),
             "exposed": exposed, "visible": codes(args, "visible"), "public": args.get("public") or None,
             "from": source_seat, "source": args.get("source") or "discard"}
    return state, rs


def hand_answers(state: dict[str, Any], rs: dict[str, Any]) -> dict[str, Any]:
    """What the lab's panels show for this hand, asked as the lab asks (lab-requests.js, claims.js): hu and, for a
    win, its settlement; with a public card the claim advice (a hand between turns) or the legal claims; with a
    hand on its turn the ranked discards."""
    base = {"ruleset": state["ruleset"], "options": state["options"], "hand": state["hand"],
            "exposed": state["exposed"]}
    held = len(state["hand"]) + sum(len(meld["cards"]) for meld in state["exposed"])
    public = state["public"]
    if not held and not public:
        raise Refused.invalid("hand", _("no card given"), "wrong_card_count")
    table = {"visible": state["visible"], "seats": state["seats"], "seat": state["seat"]}
    context = {"seat_role": seat_role(state["seat"], state["from"], state["source"], state["seats"]),
               "card_source": state["source"]}
    request_hu = {**base, "public_card": public}
    hu = ask("POST", "/v1/hu", body={**request_hu, **(context if public else {})})
    settlement = ask("POST", "/v1/settlements", body={**request_hu, "seats": state["seats"], "winner": state["seat"]}
                     ) if hu["hu"] else None
    claims: dict[str, Any] | None = None
    if public:
        size = rs["hand_size"]["resting"]  # a claim is decided between turns; the public card is not counted
        claims = {"size": size, "total": held}
        if held == size:
            claims["advice"] = ask("POST", "/v1/claims", body={**request_hu, **table, "from_seat": state["from"],
                                                                "card_source": state["source"]})
        else:
            claims["legal"] = ask("POST", "/v1/melds", body={**request_hu, **context})
    discards = ask("POST", "/v1/discards", body={**base, **table}) if held == rs["hand_size"]["turn"] else None
    return {"hu": hu, "settlement": settlement, "claims": claims, "discards": discards}


@blp.get("/embed/hand")
def hand() -> Response:
    """A hand of the lab (the lab's query) with its hu and points, its claims or its ranked discards."""
    args = request.args
    try:
        known = rulesets()
        state, rs = lab_state(args, known)
        data = {"state": state, "ruleset": {k: rs[k] for k in ("id", "family", "hand_size", "cards")},
                **hand_answers(state, rs)}
    except Refused as refused:
        data = {"problem": refused.answer}
    return view("hand.html", data, f"/ui?{page_query(args)}")


# -- the drill -----------------------------------------------------------------------------------------------------
@blp.get("/embed/drill")
def drill() -> Response:
    """One drill of a set (GET /v1/drills' query; `n`, the drill page's name of `index`, taken too) to answer,
    graded in the page with the options its own request ranks."""
    args = request.args
    try:
        known = rulesets()
        query = {"ruleset": args.get("ruleset") or known[0]["id"], "difficulty": args.get("difficulty") or "easy",
                 "kind": args.get("kind") or "any", "seed": args.get("seed") or 1,
                 "index": args.get("index") or args.get("n") or 0}
        dealt = ask("GET", "/v1/drills", query=query)
        ranked = ask("POST", dealt["request"]["path"], body=dealt["request"]["body"])
        family = next(r["family"] for r in known if r["id"] == dealt["ruleset"])
        data = {"drill": dealt, "ranked": ranked, "family": family}
    except Refused as refused:
        data = {"problem": refused.answer}
    return view("drill.html", data, f"/ui/drill?{page_query(args, {'index': 'n'})}")
