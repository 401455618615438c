"""What dumping an answer through its response schema costs, per endpoint, against sending it as built.

In process (app.test_client, no network): per endpoint, REQUESTS requests with the answer sent as built
(`jsonify(answer)`) and REQUESTS with it dumped through the response schema first (`jsonify(Schema().dump(answer))`,
which is what flask-smorest's `@blp.response` does with a returned object). The two alternate in rounds so that
drift on a shared machine hits both alike. Prints microseconds per request of each and the schema's extra share,
then the serialisation alone (the same answers encoded as built or dumped first, best of the rounds), which a
loaded machine blurs far less than whole requests.

    .venv/bin/python bench/serialisation.py [--requests 2000] [--rounds 4]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import flask

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from audit import simulated  # noqa: E402
from hu_bodies import bodies  # noqa: E402

from service.api.audits import routes as audits  # noqa: E402
from service.api.audits.schemas import AuditResponseSchema  # noqa: E402
from service.api.discards import routes as discards  # noqa: E402
from service.api.discards.schemas import DiscardsResponseSchema  # noqa: E402
from service.api.hands import routes as hands  # noqa: E402
from service.api.hands.schemas import HuResponseSchema, MeldsResponseSchema  # noqa: E402
from service.app import create_app  # noqa: E402


@contextmanager
def dumped(module: Any, schema: Any) -> Iterator[None]:
    """The view's `jsonify(answer)` made `jsonify(schema.dump(answer))`: the schema path of a hand-built view."""
    module.jsonify = lambda answer: flask.jsonify(schema.dump(answer))
    try:
        yield
    finally:
        module.jsonify = flask.jsonify


@contextmanager
def built(module: Any, name: str) -> Iterator[None]:
    """A view returning an object made to send its answer as built (a Response passes flask-smorest untouched)."""
    real = getattr(module, name)
    setattr(module, name, lambda *args: flask.jsonify(real(*args)))
    try:
        yield
    finally:
        setattr(module, name, real)


@contextmanager
def as_is() -> Iterator[None]:
    """The app unchanged."""
    yield


def timed(client: Any, path: str, payloads: list[dict], n: int) -> float:
    """Seconds for n POSTs cycling through the payloads (each must answer 200)."""
    start = time.perf_counter()
    for i in range(n):
        response = client.post(path, json=payloads[i % len(payloads)])
        if response.status_code != 200:
            raise SystemExit(f"{path}: {response.status_code} {response.get_data(as_text=True)[:300]}")
    return time.perf_counter() - start


def compare(client: Any, path: str, payloads: list[dict], hand: Callable, schema: Callable, n: int,
            rounds: int) -> tuple[float, float]:
    """Microseconds per request sent as built and dumped through the schema, n requests each in `rounds` turns."""
    spent = {"hand": 0.0, "schema": 0.0}
    timed(client, path, payloads, 50)  # warm-up: tables, caches
    for _ in range(rounds):
        for variant, patch in (("hand", hand), ("schema", schema)):
            with patch():
                spent[variant] += timed(client, path, payloads, n // rounds)
    return spent["hand"] / n * 1e6, spent["schema"] / n * 1e6


def encoding(app: Any, client: Any, path: str, payloads: list[dict], schema: Any, n: int,
             rounds: int) -> tuple[float, float]:
    """Microseconds to encode one of the endpoint's answers as built and through the schema (best round)."""
    answers = [client.post(path, json=p).get_json() for p in payloads]
    best = {"hand": float("inf"), "schema": float("inf")}
    with app.app_context():
        for _ in range(rounds):
            for variant, encode in (("hand", flask.jsonify), ("schema", lambda a: flask.jsonify(schema.dump(a)))):
                start = time.perf_counter()
                for i in range(n):
                    encode(answers[i % len(answers)])
                best[variant] = min(best[variant], (time.perf_counter() - start) / n * 1e6)
    return best["hand"], best["schema"]


def discard_bodies(n: int) -> list[dict]:
    """/v1/discards bodies: the 21 cards of the /v1/hu bodies' hands, seat 0 of 3, nothing seen."""
    return [{"ruleset": b["ruleset"], "hand": [*b["hand"], b["public_card"]], "seats": 3, "seat": 0}
            for b in bodies(n)]


def main() -> None:
    """Measure each endpoint and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--only", help="one endpoint, e.g. /v1/melds")
    args = parser.parse_args()
    app = create_app({"TESTING": True})
    client = app.test_client()
    cases = [
        ("/v1/hu", bodies(200), HuResponseSchema(), as_is, lambda: dumped(hands, HuResponseSchema())),
        ("/v1/melds", bodies(200), MeldsResponseSchema(), as_is, lambda: dumped(hands, MeldsResponseSchema())),
        ("/v1/discards", discard_bodies(200), DiscardsResponseSchema(), as_is,
         lambda: dumped(discards, DiscardsResponseSchema())),
        ("/v1/audits", simulated("bga-taiwan", 20), AuditResponseSchema(), lambda: built(audits, "audit_json"), as_is),
    ]
    print(f"{'endpoint':<14} {'request as built':>17} {'via schema':>11} {'extra':>6}   {'encode as built':>16} "
          f"{'via schema':>11} {'extra per request':>18}   ({args.requests} each, {args.rounds} rounds; µs)")
    for path, payloads, schema, hand, via in cases:
        if args.only and path != args.only:
            continue
        as_built, via_schema = compare(client, path, payloads, hand, via, args.requests, args.rounds)
        plain, dumped_first = encoding(app, client, path, payloads, schema, args.requests, args.rounds)
        print(f"{path:<14} {as_built:>17.0f} {via_schema:>11.0f} {via_schema / as_built - 1:>6.0%}   {plain:>16.1f} "
              f"{dumped_first:>11.1f} {(dumped_first - plain) / as_built:>18.1%}")


if __name__ == "__main__":
    main()
