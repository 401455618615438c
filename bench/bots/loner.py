#!/usr/bin/env python3
"""An example arena bot over the bot protocol (docs/bots.md), in plain Python with the standard library only.

It plays a simple heuristic in every rule-set: it discards the legal card it holds the fewest copies of (a loner
pairs with nothing), the one most seen on the table among those (fewest copies left to pair it with), then the
first in code order; it wins whenever it can, and otherwise takes the first claim offered (the engine lists the
highest priority first). It decides from each request alone, so it plays the same for any --jobs.

    python -m service arena --ruleset cardavia-chan \\
        --policies advice,external:bench/bots/loner.py,advice,external:bench/bots/loner.py
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from typing import Any

PROTOCOL = 1
WINS = ("hu", "win")


def discard(request: dict[str, Any]) -> str:
    """The loneliest legal card: fewest copies held, most copies seen, then code order."""
    view = request["view"]
    held = Counter(view["hand"])
    seen = Counter(view["visible"])
    for seat in view["melds"]:
        for meld in seat:
            seen.update(meld["cards"])
    return min(request["legal"], key=lambda card: (held[card], -seen[card], card))


def claim(request: dict[str, Any]) -> int | None:
    """A win when one is offered, else the first claim offered (or pass when none is)."""
    claims = request["claims"]
    wins = [i for i, c in enumerate(claims) if c["kind"] in WINS]
    if wins:
        return wins[0]
    return 0 if claims else None


def answer(request: dict[str, Any]) -> dict[str, Any] | None:
    """The answer line to one message (None: the message wants none)."""
    if request["type"] == "discard":
        return {"id": request["id"], "discard": discard(request)}
    if request["type"] == "claim":
        return {"id": request["id"], "claim": claim(request)}
    if request["type"] == "hello" and request["protocol"] != PROTOCOL:
        sys.exit(f"loner: protocol {request['protocol']} is not {PROTOCOL}")
    return None


def main() -> int:
    """Answer every request until the end of the run (or the end of input)."""
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "end":
            return 0
        reply = answer(message)
        if reply is not None:
            print(json.dumps(reply), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
