"""What choosing the language of a long `Accept-Language` costs: `i18n.best_of` alone, then `POST /v1/hu`.

In process (no network). `best_of` is timed on HEADERS distinct headers of each size, more than its cache keeps and
read in turn, so that every call misses it (a client may send a new header each time), best of the rounds; then
`POST /v1/hu` (app.test_client) with an empty header, with a header of the largest size under
another name (what the test client itself spends on a long header) and with distinct headers of the largest size.
Each header lists unsupported languages only, so nothing stops the reading early. Prints microseconds per call.

    .venv/bin/python bench/accept_language.py [--sizes 32,512,8192] [--headers 2000] [--rounds 5]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from service import i18n  # noqa: E402
from service.app import create_app  # noqa: E402

#: A hand that does not win: its answer gives reasons, in the reader's language, so the language is chosen.
BODY = {"ruleset": "bga-taiwan", "hand": ["rG", "rA"]}


def headers(size: int, count: int) -> list[str]:
    """`count` distinct `Accept-Language` headers of `size` characters, tags of no supported language."""
    made = []
    for n in range(count):
        parts, length = [f"x{n}"], len(f"x{n}")
        while length < size:
            tag = f"fr-F{len(parts) % 10};q=0.{len(parts) % 9 + 1}"
            parts.append(tag)
            length += len(tag) + 2
        made.append(", ".join(parts)[:size])
    return made


def per_call(run: Callable[[str], object], values: list[str], rounds: int) -> float:
    """Microseconds per call of `run` over `values`, best of `rounds`."""
    best = float("inf")
    for _ in range(rounds):
        started = time.perf_counter()
        for value in values:
            run(value)
        best = min(best, time.perf_counter() - started)
    return best / len(values) * 1e6


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="32,512,8192")
    parser.add_argument("--headers", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]
    for size in sizes:
        # More distinct headers than the cache keeps, read in turn: each call misses it.
        values = headers(size, args.headers)
        print(f"best_of, {size:>5}-character header: {per_call(i18n.best_of, values, args.rounds):8.1f} us")
    client = create_app({"TESTING": True}).test_client()

    def hu(name: str) -> Callable[[str], object]:
        """POST /v1/hu with a header of this name."""
        def post(header: str) -> object:
            response = client.post("/v1/hu", json=BODY, headers={name: header})
            assert response.status_code == 200
            return response
        return post

    count = max(args.headers // 4, 300)  # more than best_of's cache keeps
    long = headers(sizes[-1], count)
    for name, values in (("Accept-Language", [""] * count), ("X-Filler", long), ("Accept-Language", long)):
        print(f"POST /v1/hu, {len(values[0]):>5}-character {name}: {per_call(hu(name), values, args.rounds):8.1f} us")


if __name__ == "__main__":
    main()
