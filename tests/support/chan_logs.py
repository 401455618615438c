"""Chắn logs for the audit tests: simulated logs, an independent walk over a legal log's state, the capture
rules read from docs/rules.md#chan, and a deal builder for hand-written logs.

The walk does not use the replay or the rules engine: it tracks each seat's concealed cards, exposed pairs and
history (discards, Cạ, passed identical captures) from the log alone. In a legal log the claim that took a
public card is the one whose seat discards next, so no priority logic is needed here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache

from service.replay.families import simulate

CHAN = "cardavia-chan"
SEATS = 4
POLICIES = ("greedy", "random")
FACES = tuple(f"{v}{s}" for v in range(2, 10) for s in "msc") + ("CC",)
RED = {"8m", "9m", "8s", "9s", "CC"}


@cache
def simulated(policy: str, seeds: int) -> tuple[dict, ...]:
    """Simulated logs for seeds 0..seeds-1 (cached: several tests scan the same logs)."""
    return tuple(simulate(CHAN, seed, SEATS, policy) for seed in range(seeds))


def same_value(a: str, b: str) -> bool:
    """Two different suits of one value: a Cạ (Chi chi forms none, docs/rules.md#chan-pairs)."""
    return a != b and "CC" not in (a, b) and a[0] == b[0]


@dataclass
class Seat:
    """What one seat holds and did: concealed cards, exposed pair kinds, and the history rules 3-6 read."""

    hand: Counter
    exposed: list[str] = field(default_factory=list)
    discarded: set[str] = field(default_factory=set)
    into_ca: set[str] = field(default_factory=set)  # hand cards he played into a Cạ (rule 4)
    passed: set[str] = field(default_factory=set)  # faces whose identical capture he passed up (rule 3)
    captured_ca: bool = False

    def copy(self) -> Seat:
        """An independent copy."""
        return Seat(self.hand.copy(), self.exposed[:], set(self.discarded), set(self.into_ca), set(self.passed),
                    self.captured_ca)


def odd_faces(hand: Counter) -> list[str]:
    """Faces held an odd number of times: the cards outside Chắn (docs/rules.md#chan-pairs)."""
    return [f for f, n in hand.items() if n % 2]


def unpaired(hand: Counter) -> int:
    """Cards no pair takes once every identical pair is made and odd cards meet by value."""
    by_value = Counter("CC" if f == "CC" else f[0] for f in odd_faces(hand))
    return sum(n if v == "CC" else n % 2 for v, n in by_value.items())


def wins(seat: Seat, card: str) -> bool:
    """docs/rules.md#chan-win: 20 cards in 10 pairs, at least 6 Chắn; won on Chi chi exactly 6 Chắn and 4 Cạ."""
    hand = seat.hand + Counter([card])
    if sum(hand.values()) + 2 * len(seat.exposed) + 2 * seat.exposed.count("chiu") != 20 or unpaired(hand):
        return False
    chan = sum(n // 2 for n in hand.values()) + sum({"chan": 1, "chiu": 2}.get(k, 0) for k in seat.exposed)
    ca = len(odd_faces(hand)) // 2 + seat.exposed.count("ca")
    return chan >= 6 and (card != "CC" or (chan, ca) == (6, 4))


def legal_discards(seat: Seat) -> list[str]:
    """Rules 2, 3, 6: an odd face, not passed up, and after a Cạ capture not the second card of a Cạ."""
    return [f for f in odd_faces(seat.hand) if f not in seat.passed
            and not (seat.captured_ca and any(same_value(f, d) for d in seat.discarded))]


def broken_rules(seat: Seat, card: str, mate: str) -> set[int]:
    """Every capture rule 1-7 that pairing the public `card` with hand card `mate` breaks."""
    hand, ca, out = seat.hand, mate != card, set()
    if ca and hand[card]:
        out.add(1)
    if ca and hand[mate] % 2 == 0:
        out.add(2)
    if ca and {card, mate} & seat.passed:
        out.add(3)
    if card in seat.discarded | seat.into_ca:
        out.add(4)
    odd_suits = [f for f in odd_faces(hand) if same_value(f, card) or f == card]
    if ca and (len(odd_suits) >= 2 or unpaired(hand) == 1):
        out.add(5)
    if ca and any(same_value(a, b) for a in seat.discarded for b in seat.discarded):
        out.add(6)
    after = seat.copy()
    after.hand[mate] -= 1
    after.captured_ca |= ca
    if not legal_discards(after):
        out.add(7)
    return out


@dataclass
class Moment:
    """The state just before event `index` (claims on the card already taken are applied)."""

    index: int
    event: dict
    seats: list[Seat]
    public: tuple[str, str, int] | None  # (card, "discard" | "stock", the gate it lies at)
    to_act: int | None  # who considers a discard (or turned up the stock card)
    claims: list[dict]
    drawn: int

    def capturers(self) -> list[int]:
        """Who may capture the public card: the gate owner and the next player on a stock card, else the
        player to act on the discard (docs/rules.md#chan-turn)."""
        assert self.public is not None and self.to_act is not None
        _, source, gate = self.public
        return [gate, (gate + 1) % SEATS] if source == "stock" else [self.to_act]


def walk(log: dict) -> Iterator[Moment]:
    """Every event of a legal Chắn log with the state before it."""
    seats = [Seat(Counter(h)) for h in log["hands"]]
    public: tuple[str, str, int] | None = None
    to_act = resume = None
    claims: list[dict] = []
    drawn = 0
    for index, event in enumerate(log["events"]):
        kind, who = event["type"], event["seat"]
        if kind not in ("capture", "chiu", "win") and claims:
            taken = [c for c in claims if c["seat"] == who and kind == "discard"]
            if taken:
                resume = take(seats, public, to_act, taken[0])
                public = None
            claims = []
        yield Moment(index, event, [s.copy() for s in seats], public, to_act, list(claims), drawn)
        if kind in ("capture", "chiu", "win"):
            claims.append(event)
        elif kind == "discard":
            seats[who].hand[event["card"]] -= 1
            seats[who].discarded.add(event["card"])
            public, to_act = (event["card"], "discard", who), (who + 1) % SEATS if resume is None else resume
            resume = None
        elif kind == "draw":
            if public is not None:  # the card moved on untaken: identical captures were passed up (rule 3)
                passers = [public[2], (public[2] + 1) % SEATS] if public[1] == "stock" else [to_act]
                for seat in passers:
                    pass_up(seats[seat], public[0])
            public, to_act = (event.get("card") or log["stock"][drawn], "stock", who), who
            drawn += 1


def pass_up(seat: Seat, card: str) -> None:
    """Rule 3: an identical capture he could have made and did not."""
    if seat.hand[card] and not broken_rules(seat, card, card):
        seat.passed.add(card)


def take(seats: list[Seat], public: tuple[str, str, int] | None, to_act: int | None, claim: dict) -> int | None:
    """Apply the claim that took the card; the interrupted gate an out-of-turn Chíu's discard goes back to."""
    assert public is not None
    card, source, gate = public
    seat = seats[claim["seat"]]
    if source == "stock" and claim["seat"] != gate:  # the next player takes only a card the drawer passed
        pass_up(seats[gate], card)
    if claim["type"] == "chiu":
        seat.hand[card] -= 3
        seat.exposed.append("chiu")
        return to_act if to_act != claim["seat"] else None
    mate = next((c for c in claim["cards"] if c != card), card)
    seat.hand[mate] -= 1
    seat.exposed.append(claim["meld"])
    if mate != card:
        seat.captured_ca = True
        seat.into_ca.add(mate)
    return None


def deal(hands: dict[int, str], stock: str = "", dealer: int = 0, events: list | None = None) -> dict:
    """A hand-written log: the cards named for some seats and the head of the stock (space-separated codes);
    the rest of each hand avoids the values that seat was given, so filler never pairs with them."""
    left = Counter({f: 4 for f in FACES}) - Counter(" ".join([*hands.values(), stock]).split())
    out = []
    for seat in range(SEATS):
        given = hands.get(seat, "").split()
        values = {f[0] for f in given}
        need = (20 if seat == dealer else 19) - len(given)
        # One copy per face first, spread over the deck, so filler seats hold few pairs.
        spare = [f for f in sorted(left, key=lambda f: (-left[f], FACES.index(f))) if f[0] not in values]
        filler = [f for f in spare if left[f]][:need]
        assert len(filler) == need, f"not enough spare cards for seat {seat}"
        left -= Counter(filler)
        out.append(given + filler)
    tail = [f for f in FACES for _ in range(left[f])]
    return {"ruleset": CHAN, "options": {}, "seats": SEATS, "dealer": dealer, "hands": out,
            "stock": stock.split() + tail, "events": events or []}
