"""Four Color Cards logs for the replay tests: a pool of simulated logs, an independent walk over a log's state, and
single-event mutations.

The walk does not use the replay: it tracks every seat's concealed cards from the log alone. In a legal log
the claim that took a public card is the one whose seat discards next (docs/rules.md#logs; docs/rules.md#fc-turn:
"the claimant exposes the meld, then discards one card from hand"), so no priority logic is needed here.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from service.replay.families import simulate

BGA, FLOWERS = "bga-taiwan", "cardavia-flowers"
POLICIES = ("greedy", "random")
#: (rule-set, seats) pairs the simulator plays: bga-taiwan 2-4 players, flowers 4 (docs/rules.md#fc-deal).
TABLES = ((BGA, 2), (BGA, 3), (BGA, 4), (FLOWERS, 4))


@cache
def simulated(ruleset_id: str, seats: int, policy: str, seeds: int) -> tuple[dict, ...]:
    """Simulated logs for seeds 0..seeds-1 (cached: several tests scan the same logs)."""
    return tuple(simulate(ruleset_id, seed, seats, policy) for seed in range(seeds))


def pool(seeds: int = 60) -> Iterator[dict]:
    """Every simulated log of every table and policy."""
    for ruleset_id, seats in TABLES:
        for policy in POLICIES:
            yield from simulated(ruleset_id, seats, policy, seeds)


def is_general(card: str) -> bool:
    """A General (`rG`, `yG`, ...)."""
    return card[1] == "G"


def is_flower(card: str) -> bool:
    """A flower card F1..F5."""
    return card[0] == "F"


@dataclass
class Moment:
    """The state just before event `index`: concealed cards per seat, the public card, pending claims."""

    index: int
    event: dict
    hands: list[Counter]
    public: tuple[str, str, int] | None  # (card, "discard" | "draw", seat it came from)
    claims: list[tuple[int, dict]] = field(default_factory=list)  # claims already made on the public card
    drawn: int = 0  # stock cards turned up so far


def walk(log: dict) -> Iterator[Moment]:
    """Every event of a legal log with the state before it."""
    hands = [Counter(h) for h in log["hands"]]
    public: tuple[str, str, int] | None = None
    claims: list[tuple[int, dict]] = []
    drawn = 0
    for index, event in enumerate(log["events"]):
        if event["type"] not in ("claim", "hu") and claims:
            won = [c for _, c in claims if c["seat"] == event["seat"] and c["type"] == "claim"]
            if event["type"] == "discard" and won:
                used = list(won[0]["cards"])
                used.remove(public[0])
                hands[event["seat"]] -= Counter(used)
        yield Moment(index, event, [h.copy() for h in hands], public, list(claims), drawn)
        if event["type"] in ("claim", "hu"):
            claims.append((index, event))
            continue
        claims = []
        if event["type"] == "discard":
            hands[event["seat"]][event["card"]] -= 1
            public = (event["card"], "discard", event["seat"])
        elif event["type"] == "draw":
            public = (event.get("card") or log["stock"][drawn], "draw", event["seat"])
            drawn += 1


def role(seat: int, public: tuple[str, str, int], seats: int) -> str:
    """drawer / discarder / next / other (docs/rules.md#fc-claims: chi-type only for the drawer and the next player)."""
    _, source, origin = public
    if seat == origin:
        return "drawer" if source == "draw" else "discarder"
    return "next" if seat == (origin + 1) % seats else "other"


def mutated(log: dict, index: int, event: dict | None = None, insert: dict | None = None) -> dict:
    """A copy of `log` without its recorded result, event `index` replaced by `event` or `insert` put
    before it (index == len(events): appended)."""
    out = copy.deepcopy(log)
    out["result"] = None
    if insert is not None:
        out["events"].insert(index, insert)
    else:
        out["events"][index] = event
    return out


def first(found: Iterator[Any]) -> Any:
    """The first candidate a scan finds (the scan must find one)."""
    for item in found:
        return item
    raise AssertionError("no simulated log offers this mutation")
