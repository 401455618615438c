"""Every problem code the service answers: its HTTP status, what it means and how to fix the request.

`GET /problems/{code}` serves these entries; a problem's `type` is that URI. The error table of docs/api.md lists the
same codes (a test keeps them equal).
"""

from __future__ import annotations

from typing import NamedTuple

from ..i18n import N_


class Problem(NamedTuple):
    """One problem type: status (and another status some endpoint answers), when it happens, how to fix it."""

    status: int
    when: str
    fix: str
    other_status: int | None = None


#: The HTTP status phrases (a problem's `title`), marked for the catalogs.
PHRASES = {
    400: N_("Bad Request"), 401: N_("Unauthorized"), 403: N_("Forbidden"), 404: N_("Not Found"),
    405: N_("Method Not Allowed"), 409: N_("Conflict"), 410: N_("Gone"), 413: N_("Request Entity Too Large"),
    414: N_("Request-URI Too Long"), 415: N_("Unsupported Media Type"), 417: N_("Expectation Failed"),
    422: N_("Unprocessable Entity"), 429: N_("Too Many Requests"), 431: N_("Request Header Fields Too Large"),
    500: N_("Internal Server Error"), 501: N_("Not Implemented"), 503: N_("Service Unavailable"),
}


def uri(code: str) -> str:
    """The `type` URI of a problem code (served by GET /problems/{code})."""
    return f"/problems/{code}"


_FIX_FIELD = N_("Correct the field named in `errors` and send the request again.")
_RULESETS = N_("GET /v1/rulesets lists the rule-sets, their cards and options.")

PROBLEMS: dict[str, Problem] = {
    "malformed_json": Problem(400, N_("The request body is not valid JSON."), N_("Send one JSON document (UTF-8).")),
    "unsupported_media_type": Problem(
        415, N_("A request body whose Content-Type is absent or not application/json."),
        N_("Send the body as JSON with the header `Content-Type: application/json`.")),
    "invalid_request": Problem(
        422, N_("A field has the wrong type, is missing, is not allowed, or is out of range (schema validation)."),
        N_("Correct the field named in `errors` and send the request again. The API docs (/docs) show each field's "
           "type and range.")),
    "invalid_field": Problem(
        422, N_("A field the rest of the request rules out: `history` outside cardavia-chan, an empty `candidates`."),
        _FIX_FIELD),
    "unknown_ruleset": Problem(422, N_("No rule-set has this id (GET /v1/rulesets/{id}: 404)."), _RULESETS, 404),
    "unknown_option": Problem(422, N_("An option name the rule-set does not have."), _RULESETS),
    "invalid_option": Problem(422, N_("An option value of the wrong type or outside its range."), _RULESETS),
    "unknown_card": Problem(
        422, N_("Not a card code of the rule-set (codes are case-sensitive; flowers only in cardavia-flowers)."),
        _RULESETS),
    "impossible_card_count": Problem(
        422, N_("More copies of a card than the deck has (a fifth copy, a second flower) across hand, exposed melds, "
        "public card and lucky card."), N_("Remove the surplus card named in `errors`.")),
    "too_many_cards": Problem(
        422, N_("More than 21 cards (Chắn: 20) in hand, exposed melds and public card."),
        N_("Send one player's cards.")),
    "invalid_meld": Problem(422, N_("An exposed meld whose cards do not form its `kind`."),
                            N_("Give the meld kind its cards form; GET /v1/rulesets lists the meld kinds.")),
    "invalid_seat": Problem(
        422, N_("A seat count the rule-set does not allow (cardavia-flowers and cardavia-chan: 4), or a winner, seat, "
        "opponent seat or `from_seat` that is not a seat of the table."),
        N_("Give seat indices 0..seats-1 and a seat count the rule-set allows.")),
    "missing_public_card": Problem(
        422, N_("Claims asked for (`seat_role` or `card_source`) without a `public_card`."),
        N_("Add the `public_card` on offer, or leave out `seat_role` and `card_source`.")),
    "no_drill_position": Problem(
        422, N_("No position of the asked difficulty and kind came up in the rounds a drill may play."),
        N_("Ask for the next drill (`index` + 1), another seed, or another difficulty or kind.")),
    "not_a_win": Problem(422, N_("A settlement of a hand that does not win."),
                         N_("Check the hand with POST /v1/hu first; settle only a winning hand.")),
    "not_in_ruleset": Problem(
        422, N_("A field the rule-set has no use for (`lucky_card` outside bga-taiwan, `context` outside Chắn)."),
        N_("Leave the field out.")),
    "deltas_not_zero_sum": Problem(422, N_("A match round whose deltas do not sum to 0."),
                                   N_("Give each round's deltas as a settlement answers them: they sum to 0.")),
    "inconsistent_context": Problem(422, N_("A Chắn win context flag that contradicts the cards or another flag."),
                                    N_("Give only the flags that hold for this win.")),
    "wrong_card_count": Problem(
        422, N_("A discard decision needs 21 cards (Chắn: 20) in hand and exposed melds; a claim decision 20 (Chắn: "
        "19) plus the public card."),
        N_("Send the hand as it is when the player must discard, the card just taken included; for a claim, the hand "
        "between turns and the public card apart.")),
    "illegal_discard": Problem(422, N_("A search candidate that is not a legal discard of the hand."),
                               N_("Give legal discards only (POST /v1/discards lists them), or no candidates.")),
    "no_legal_discard": Problem(
        422, N_("A hand with no legal discard (only Generals and flowers; Chắn: capture rules 2, 3, 6)."),
        N_("Check the hand: a player who must discard holds at least one card he may discard.")),
    "duplicate_candidate": Problem(422, N_("A search candidate given twice."),
                                   N_("Give each candidate discard once.")),
    "review_too_long": Problem(
        422, N_("A deep review whose worst case (discards x `review.time_budget`) exceeds 300 s."),
        N_("Lower `review.time_budget`, send fewer logs, or use the exact review.")),
    "invalid_log": Problem(422, N_("A game log whose frame cannot be replayed."),
                           N_("Correct the log field named in `errors`; GET /v1/schemas/game-log describes "
                              "the format.")),
    "wrong_deal_size": Problem(422, N_("A seat's initial deal of the wrong size for the rule-set and the dealer."),
                               N_("Give each seat the cards it was dealt (the dealer one more).")),
    "webhooks_disabled": Problem(422, N_("A `callback_url` while the service has no webhook secret."),
                                 N_("Leave `callback_url` out and poll the job, or ask the operator to enable "
                                    "webhooks.")),
    "invalid_callback_url": Problem(422, N_("A `callback_url` that does not resolve, resolves to a non-public "
                                    "address, or to an IPv6 form embedding an IPv4 address."),
                                    N_("Give a public http(s) URL.")),
    "idempotency_key_reused": Problem(
        422, N_("An `Idempotency-Key` already used with another request body."),
        N_("Send a new key for a new request; the same key only repeats the same request.")),
    "missing_api_key": Problem(401, N_("API keys are configured and the request carries none."),
                               N_("Send `Authorization: Bearer <key>` or `X-API-Key: <key>`.")),
    "invalid_api_key": Problem(403, N_("The key is not one the service knows."),
                               N_("Check the key; ask for a new one.")),
    "rate_limited": Problem(429, N_("Over the configured rate limit, or too many failed authentications from the "
                                    "address."),
                            N_("Wait the `Retry-After` seconds; `RateLimit-Remaining` shows what is left.")),
    "too_many_active_jobs": Problem(
        429, N_("A job submission while the caller already has the most jobs queued or running that it may have."),
        N_("Wait the `Retry-After` seconds, or for a job to end (GET /v1/jobs lists yours), then submit again.")),
    # Answered by gunicorn's workers before the app reads the request (service/runtime/gunicorn_errors.py), and by the
    # app for a chunked body gunicorn could not read as the app read it (service/http/errors.py).
    "malformed_request": Problem(
        400, N_("A request that is not valid HTTP/1.1: a malformed request line, a control character in a header, a "
                "header that may occur once given twice, a body whose length is ambiguous (`Content-Length` twice, or "
                "with `Transfer-Encoding`), a chunked body that cannot be read."),
        N_("Send the request with an HTTP client library, or correct what `detail` names.")),
    "request_line_too_long": Problem(414, N_("A request line (method, path and query) longer than 4,094 bytes."),
                                     N_("Shorten the path and query; inputs go in a JSON body.")),
    "header_fields_too_large": Problem(
        431, N_("More than 100 header fields, or one longer than 8,190 bytes."),
        N_("Send fewer or shorter headers.")),
    "expectation_failed": Problem(417, N_("An `Expect` header other than `100-continue`."),
                                  N_("Leave the `Expect` header out, or send `Expect: 100-continue`.")),
    "unsupported_transfer_coding": Problem(
        501, N_("A `Transfer-Encoding` the server does not read (it reads `chunked`)."),
        N_("Send the body with `Content-Length`, or with `Transfer-Encoding: chunked`.")),
    "payload_too_large": Problem(413, N_("A request body over the configured maximum size."),
                                 N_("Send a smaller body: fewer logs per job, or one round per log.")),
    "not_found": Problem(404, N_("No resource at this path."), N_("Check the path; /docs lists every endpoint.")),
    "method_not_allowed": Problem(405, N_("A method the path does not serve."),
                                  N_("Use a method the `Allow` header lists.")),
    "job_not_found": Problem(404, N_("No job with this id for this caller (another key's job included), or it "
                             "expired."), N_("Use the id (or `Location`) the submission answered, with the same key.")),
    "share_not_found": Problem(404, N_("No stored game with this id: it never existed, or its retention "
                                       "(`LONGCARDS_SHARE_RETENTION_DAYS`) has passed."),
                               N_("Check the link; ask whoever shared it to store the game again.")),
    "share_deleted": Problem(410, N_("A stored game its owner deleted."),
                             N_("Nothing to read any more; ask whoever shared it to store the game again.")),
    "share_not_yours": Problem(403, N_("DELETE of a stored game another API key (or, without keys, another client "
                                       "address) stored."), N_("Delete it with the key that stored it.")),
    "share_too_large": Problem(413, N_("A game to store over `LONGCARDS_SHARE_MAX_BYTES`: its logs and its "
                                       "analysis as JSON."),
                               N_("Store fewer rounds, or leave the analysis out.")),
    "too_many_shares": Problem(429, N_("A game to store while the caller already keeps `LONGCARDS_MAX_SHARES` "
                                       "stored games."),
                               N_("Delete a stored game you no longer need (DELETE /v1/shares/{id}), then store "
                                  "again.")),
    "job_not_shareable": Problem(409, N_("A game to store with a `job` that is not a finished replay analysis of "
                                         "this caller's."),
                                 N_("Wait for the replay job to finish (GET /v1/jobs/{id}), or store the logs "
                                    "without it.")),
    "not_embeddable": Problem(404, N_("`GET /oembed` of a URL that names no stored game, hand or drill of this "
                                      "service (another host or scheme, a path with no embed view, a stored game "
                                      "that is gone)."),
                              N_("Send the URL of a stored game (`/ui/replay/{id}`), a hand (`/ui?...`) or a drill "
                                 "(`/ui/drill?...`) of this service.")),
    "format_not_implemented": Problem(501, N_("`GET /oembed` with `format=xml`: the provider answers JSON only."),
                                      N_("Ask for `format=json`, or leave `format` out.")),
    "job_not_cancelable": Problem(409, N_("DELETE of a job that has already ended, or whose end (its result or its "
                                       "failure) is being recorded."), N_("Nothing to do: read the job.")),
    "job_failed": Problem(500, N_("A job's `error` when it failed after its retries."),
                          N_("Send the job again; if it fails again, report its id.")),
    "jobs_unavailable": Problem(503, N_("The job queue (Redis) does not answer, or refuses writes (full, unable to "
                                   "save, read-only); nothing was enqueued or changed."),
                                N_("Retry after the `Retry-After` seconds.")),
    "not_replicated": Problem(
        503, N_("No Redis replica acknowledged a new job in time (`LONGCARDS_SUBMIT_REPLICA_WAIT_MS`): the job may "
                "exist, but a failover now could lose it."),
        N_("Send the same request again (same `Idempotency-Key`, else the same body) after the `Retry-After` "
           "seconds: it answers the same job once a replica has it.")),
    "not_ready": Problem(503, N_("/readyz: Redis does not answer or refuses writes, or no worker is alive."),
                         N_("Retry after the `Retry-After` seconds; the operator starts Redis or workers.")),
    "internal_error": Problem(500, N_("A bug in the service; it has been logged."), N_("Report the `request_id`.")),
}


def lookup(code: str) -> Problem | None:
    """The entry of a code, or None."""
    return PROBLEMS.get(code)
