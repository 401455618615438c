"""Exact discard analysis, shared by both families: what a discard leaves the player waiting on, how far the
hand is from a win, and every legal discard ranked by the order it is given (`Order`: the advice gives its own,
service/advice/ranking.py, for POST /v1/discards and the decision review).

Terms:
- *distance*: the fewest cards of the hand (after the discard) that must be replaced by other cards so that
  one more public card can complete a win; 0 means the hand is waiting (the analogue of mahjong's tenpai).
- *wait*: a card that, as the next public card, completes a win for this player.
- *unseen*: copies of a card the player has not seen (deck minus his own cards minus every visible card).
- *gain*: what the player's settlement would be on a win (his delta; where a rule-set has no payments, the
  points of the win), the value the ranking and the expected loss are counted in.
- *expected gain*: the expected gain on the next card turned up from the stock. To the player the stock is a random
  order of the unseen cards, so that card is each unseen card with probability unseen copies / all unseen cards,
  whatever route a wait has: exact for a wait that only the stock can bring (a General, a flower: never
  discarded). Another player's discard is his choice, not a draw, so the discard route is not counted.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from .text import Text, text


@dataclass(frozen=True)
class Wait:
    """One card that completes a win, how many copies are unseen, how it can be taken and what it is worth."""

    card: int
    unseen: int
    claims: tuple[str, ...]  # how the card can be won: "discard", "stock", "chiu" (Chắn: a Chíu-completed win)
    points: int  # points of the win (Four Color: exposed + concealed meld points; Chắn: the score)
    gain: int  # the player's settlement delta on that win (points where nobody pays)


@dataclass(frozen=True)
class DiscardOption:
    """Everything the exact analysis says about one legal discard."""

    card: int
    distance: int
    waits: tuple[Wait, ...]
    improving: tuple[tuple[int, int], ...]  # (card, unseen copies) of cards that lower the distance by one
    improving_unseen: int  # sum of unseen copies of the improving cards
    expected_gain: float  # sum over waits of unseen * max(gain, 0) / every unseen card: the next stock card
    rank: int = 0  # 1 = best; equal keys share a rank
    reason: str = ""
    card_unseen: int = 0  # unseen copies of the discarded card itself: the fewer, the fewer players can use it
    reach: float = 0.0  # the cards that move the hand on, weighted by how often they can be had (family's; 0: none)
    paying: int | None = None  # bga-taiwan: replacements from a win that pays (None: every win pays; `distance`)
    paying_improving: int | None = None  # bga-taiwan, at the least paying distance: unseen cards that lower it
    rich: int | None = None  # bga-taiwan, at the least paying distance: replacements from a rich win (`paying.RICHER`
    #                          points over the threshold; None: not counted, or richer wins pay no more)
    sets_kept: int | None = None  # Chắn: what of the Tôm and Lèo sets the cards left keep (`chan.discards.sets_kept`);
    #                               None: Four Color Cards
    value: float | None = None  # the advice's value of the option (service/advice/value.py); None: not valued


@dataclass(frozen=True)
class DiscardAnalysis:
    """The ranking of every legal discard of a hand, best first, and the distance of the hand as it stands."""

    options: tuple[DiscardOption, ...]
    distance_now: int  # distance of the whole hand to a complete win (0: the hand already wins as it stands)
    unseen_total: int


def paying_of(option: DiscardOption | ClaimOption) -> int:
    """The replacements from a win that pays: the paying distance where a win can cost (bga-taiwan, under the
    threshold), else the distance (every win pays)."""
    return option.distance if option.paying is None else option.paying


class Order(Protocol):
    """How the discards of a hand rank: a sort key per option, the least first. The rules rank by an order they
    are given, never one of their own: the advice's is `service/advice/ranking.py`'s `SHIPPED`."""

    def discard(self, option: DiscardOption) -> tuple[float, ...]:
        """The sort key of a discard."""
        ...


def ranked_by(options: list[Any], key: Any, then: Any, describe: Any) -> tuple[Any, ...]:
    """Sort by `key` (then `then`), give equal keys equal ranks (1 = best), attach `describe(option)` as reason."""
    from dataclasses import replace

    out: list[Any] = []
    previous, rank = None, 0
    for i, option in enumerate(sorted(options, key=lambda o: (key(o), then(o)))):
        found = key(option)
        if found != previous:
            rank, previous = i + 1, found
        out.append(replace(option, rank=rank, reason=describe(option)))
    return tuple(out)


def ranked_discards(options: list[DiscardOption], describe: Callable[[DiscardOption], str],
                    order: Order) -> tuple[DiscardOption, ...]:
    """Sort by `order.discard` (then card order), give equal keys equal ranks, attach `describe(option)` as
    reason."""
    return ranked_by(options, order.discard, lambda o: o.card, describe)


@dataclass(frozen=True)
class ClaimOption:
    """One answer to a public card: pass, a legal claim (with the discard that should follow it), or a win."""

    kind: str  # "pass"; "hu" (Four Color) / "win" (Chắn); else the meld kind of the claim
    cards: tuple[int, ...]  # the exposed meld's cards; () for pass and for a win
    claim: Any  # the engine's legal-claim object this option stands for (None for pass)
    follow: DiscardOption | None  # the top option of the exact ranking of the hand after the claim
    distance: int  # of the hand the option leaves at rest (pass: the hand as it stands); a win: -1
    waits: tuple[Wait, ...]
    improving: tuple[tuple[int, int], ...]
    improving_unseen: int
    expected_gain: float  # as DiscardOption; a win: its gain, it is certain
    gain: int | None = None  # a win: the player's settlement delta (points where nobody pays)
    priority: int = 0  # the claim's priority class (pass 0)
    forced: bool = False
    rank: int = 0  # 1 = best
    reason: str = ""
    reach: float = 0.0  # as DiscardOption
    paying: int | None = None  # as DiscardOption (a win: None)
    paying_improving: int | None = None  # as DiscardOption
    rich: int | None = None  # as DiscardOption
    sets_kept: int | None = None  # as DiscardOption, of the hand left at rest (the value reads it; the order does not)
    value: float | None = None  # as DiscardOption
    #: a claim the rules give to another seat for certain (a turned-up General goes to its drawer,
    #: docs/rules.md#fc-must-take): what happens is a pass, and its figures and value are the pass's
    preempted: bool = False


@dataclass(frozen=True)
class ClaimAnalysis:
    """Every answer to a public card, best first: options[0] is the advice."""

    options: tuple[ClaimOption, ...]
    forced: bool  # a drawn General (flowers: or flower) that must be taken: only the forced takes, no pass
    unseen_total: int = 0  # every unseen card the options are counted on (the value model's denominator)


WIN_KINDS = ("hu", "win")
WIN_DISTANCE = -1


#: The meld and pair kinds as a claim's reason and a settlement's breakdown name them (the kind codes of
#: docs/rules.md#fc-melds and the Chắn pairs).
KIND_NAMES: dict[str, Text] = {
    "general": text("General"), "flower": text("flower"), "pair": text("pair"), "triple": text("triple"),
    "quad": text("quad"), "general_quad": text("four Generals"), "command": text("command"), "field": text("field"),
    "soldiers3": text("three Soldiers"), "soldiers4": text("four Soldiers"),
    "chan": text("Chắn"), "ca": text("Cạ"), "chiu": text("Chíu"),
}


def option_at_rest(kind: str, rest: DiscardOption | None, fallback_distance: int, follows: bool = True,
                   **fields: Any) -> ClaimOption:
    """A non-winning option whose figures are those of the hand it leaves at rest: `rest` (for a claim, the
    follow-up discard, kept as `follow` when `follows`), or with no legal discard after a claim
    `fallback_distance` and no waits."""
    if rest is None:
        return ClaimOption(kind, distance=fallback_distance, waits=(), improving=(), improving_unseen=0,
                           expected_gain=0.0, follow=None, **fields)
    return ClaimOption(kind, distance=rest.distance, waits=rest.waits, improving=rest.improving,
                       improving_unseen=rest.improving_unseen, expected_gain=rest.expected_gain, reach=rest.reach,
                       paying=rest.paying, paying_improving=rest.paying_improving, rich=rest.rich,
                       sets_kept=rest.sets_kept, follow=rest if follows else None,
                       **fields)
