"""How much a discard could still gain, and from what knowledge: policies that see what no seat sees, played head to
head against the advice on the arena's duplicate deals, beside a public-information policy that tries to learn
the same thing from the play (docs/advice.md#ceilings).

Usage: .venv/bin/python bench/ceilings.py --ruleset R --policy NAME [--scope tie|distance] [--against advice]
                                          [--deals N] [--seed S] [--jobs J] [--json]

The seats play `ceiling,B,ceiling,B` (B: `--against`). The ceiling policy is the advice (`service/arena/advice.py`)
with one change: among the discards its order leaves level, it picks by what the policy knows, and between equal
picks as the advice would. Level means, by `--scope`: `tie`, the same `ranking.hand_key` (the hand the discard
leaves is equally good by every term of the order: only the advice's tie-break, the fewer unseen copies of the
card, parts them); `distance`, the same paying distance and distance (the expected gain and the improving cards
may differ). Its claims are the advice's. Policies:
- `next-hand` (sees the other seats' hands): the discard the fewest other seats could take, by their legal claims
  on it from the hands they really hold (Chắn: only the next seat may capture a discard; a Chíu aside).
- `stock` (sees the stock): the discard whose hand wants a card turned up soonest from the stock still to come
  (a waiting hand its waits, else its improving cards).
- `passes` (public): what the play shows of the other seats. Chắn: the next seat cannot capture a face it
  discarded or played into a Cạ (rule 4) nor, as its concealed hand only ever loses cards, one it let pass when it
  had the right to capture it (it holds no single of that face, or its one single is that face and a capture
  would leave it no discard, rule 7: either way it cannot take that face); the discard it can be seen not to take
  first, then the advice's order. Four Color Cards: a seat that let a card go by without a hu since its last claim
  does not win on it now (its hand is the same); the discard the fewest other seats may win on, so seen, first.

A policy reads the round being played from its driver (every family's `round`, watched from here); the arena's
own policies never do. The spec reaches the worker processes (`--jobs`, spawned: each imports this file again) in
the environment.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from service.advice import ranking
from service.arena.advice import Advice
from service.arena.cli import check_head_to_head, deterministic_policy, head_to_head, head_to_head_arguments, table
from service.arena.seat import analyse
from service.replay import families
from service.replay.decisions import SeatView
from service.rules.analysis import DiscardOption, paying_of
from service.rules.chan.cards import CODE_INDEX

ENV = "ARENA_CEILING"
NAME = "ceiling"
KINDS = ("next-hand", "stock", "passes")
SCOPES = ("tie", "distance")

#: The round driver playing now in this process (rounds are played one at a time per process).
CURRENT: list[Any] = [None]


def watch() -> None:
    """Have every family's round driver recorded in CURRENT as it is made (once per process)."""
    for name, family in list(families.FAMILIES.items()):
        if getattr(family.round, "watched", False):
            continue

        def made(rs: Any, options: Mapping[str, Any] | None, dealt: Any, players: Sequence[Any],
                 _make: Callable[..., Any] = family.round) -> Any:
            CURRENT[0] = _make(rs, options, dealt, players)
            return CURRENT[0]

        made.watched = True  # type: ignore[attr-defined]
        families.FAMILIES[name] = replace(family, round=made)


def is_chan(driver: Any) -> bool:
    return bool(driver.rs.family == "chan")


def index_of(driver: Any, card_code: str, memo: dict[str, int]) -> int:
    """A card code as the engine's card value."""
    if card_code not in memo:
        memo[card_code] = (CODE_INDEX[card_code] if is_chan(driver)
                           else driver.rs.parse(driver.options, [card_code]).concealed.cards()[0])
    return memo[card_code]


def takers(driver: Any, seat: int, card: int) -> int:
    """How many other seats hold a legal claim on `card` discarded by `seat` (their real hands)."""
    found = 0
    for s in range(driver.seats):
        if s == seat:
            continue
        if is_chan(driver):
            role = driver.role(s, "discard", seat, (seat + 1) % driver.seats)
            found += bool(driver.offered(s, card, "discard", role))
        else:
            found += bool(driver.offered(s, card, driver.role(s, "discard", seat))[0])
    return found


def soonest(driver: Any, option: DiscardOption, memo: dict[str, int]) -> int:
    """How many stock cards come before the first one the hand `option` leaves wants (its waits, or else its
    improving cards); past the stock's end when none does."""
    wanted = {w.card for w in option.waits} or {card for card, _ in option.improving}
    rest = driver.stock[driver.drawn:]
    return next((i for i, c in enumerate(rest) if index_of(driver, c, memo) in wanted), len(rest))


def chan_passed(driver: Any, seat: int, memo: dict[str, int]) -> set[int]:
    """The faces `seat` is seen unable to capture: offered to it with the right to capture them (the next seat on a
    discard; the drawer and the next seat on a stock card) and let pass, rule 4 not barring the capture. It holds no
    single of such a face, or waits on it (a capture would leave it no discard, rule 7); its hand only loses cards,
    so this lasts the round. The card on offer now is not yet passed."""
    found: set[int] = set()
    offer: tuple[int, set[int]] | None = None
    took: set[int] = set()

    def close() -> None:
        if offer is not None and seat in offer[1] and seat not in took:
            found.add(offer[0])

    for event in driver.events:
        kind = event["type"]
        if kind in ("discard", "draw"):
            close()
            at = event["seat"]
            rights = {(at + 1) % driver.seats} if kind == "discard" else {at, (at + 1) % driver.seats}
            offer, took = (index_of(driver, event["card"], memo), rights), set()
        elif kind in ("capture", "chiu", "win"):
            took.add(event["seat"])
    history = driver.history[seat]
    return {f for f in found if f not in history.discarded and f not in history.played_into_ca}


def fc_safe(driver: Any, memo: dict[str, int]) -> list[set[int]]:
    """Per seat, the cards it let go by without a hu since its last claim (every public card it was offered: any
    other seat's discard, every stock card)."""
    safe: list[set[int]] = [set() for _ in range(driver.seats)]
    for event in driver.events:
        kind = event["type"]
        if kind in ("discard", "draw"):
            card = index_of(driver, event["card"], memo)
            for s in range(driver.seats):
                if not (kind == "discard" and s == event["seat"]):
                    safe[s].add(card)
        elif kind == "claim":
            safe[event["seat"]] = set()
    return safe


def level(option: DiscardOption, scope: str) -> tuple[float, ...]:
    """What `scope` compares of a discard's place in the advice's order."""
    return ranking.hand_key(option) if scope == "tie" else (paying_of(option), option.distance)


class Ceiling(Advice):
    """The advice, choosing among its level discards by what the policy knows (the module docstring)."""

    def __init__(self, kind: str, scope: str) -> None:
        super().__init__()
        self.kind, self.scope = kind, scope
        self.memo: dict[str, int] = {}

    def discard(self, view: SeatView) -> int:
        planned = self.follow.take(view)
        options = analyse(view).options
        top = level(options[0], self.scope)
        group = [o for o in options if level(o, self.scope) == top]
        if len(group) == 1:
            return options[0].card if planned is None else planned
        return min(group, key=self.knowledge(view)).card  # the first of equals: the advice's order among them

    def knowledge(self, view: SeatView) -> Callable[[DiscardOption], float]:
        driver = CURRENT[0]
        if self.kind == "next-hand":
            return lambda o: takers(driver, view.seat, o.card)
        if self.kind == "stock":
            return lambda o: soonest(driver, o, self.memo)
        if is_chan(driver):
            nxt = (view.seat + 1) % driver.seats
            history = driver.history[nxt]
            barred = chan_passed(driver, nxt, self.memo) | history.discarded | history.played_into_ca
            return lambda o: 0 if o.card in barred else 1
        safe = fc_safe(driver, self.memo)
        return lambda o: sum(1 for s in range(driver.seats) if s != view.seat and o.card not in safe[s])


def parse(spec: str) -> tuple[str, str]:
    """KIND[:SCOPE] as (kind, scope); ValueError saying what is wrong."""
    kind, _, scope = spec.partition(":")
    scope = scope or "tie"
    if kind not in KINDS:
        raise ValueError(f"unknown policy {kind!r}; known: {', '.join(KINDS)}")
    if scope not in SCOPES:
        raise ValueError(f"unknown scope {scope!r}; known: {', '.join(SCOPES)}")
    return kind, scope


def register() -> None:
    """Make `ceiling` a deterministic arena policy playing the spec in the environment (none: nothing)."""
    spec = os.environ.get(ENV)
    if not spec:
        return
    kind, scope = parse(spec)
    watch()
    deterministic_policy(NAME, lambda seating: Ceiling(kind, scope))


register()  # in a worker process too: a spawned worker imports this file again, with the parent's environment


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--policy", required=True, choices=KINDS)
    parser.add_argument("--scope", default="tie", choices=SCOPES)
    head_to_head_arguments(parser)
    args = parser.parse_args()
    try:
        check_head_to_head(args)
    except ValueError as error:
        print(f"ceilings: {error}", file=sys.stderr)
        return 2
    os.environ[ENV] = f"{args.policy}:{args.scope}"
    register()
    report = head_to_head(NAME, args)
    report["ceiling"] = {"policy": args.policy, "scope": args.scope}
    print(json.dumps(report, indent=2) if args.json else f"ceiling {args.policy} ({args.scope})\n{table(report)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
