"""Exact discard analysis, shared by both families: what a discard leaves the player waiting on, how far the
hand is from a win, and the ranking of every legal discard (POST /v1/discards, the decision review).

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

from dataclasses import dataclass


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


@dataclass(frozen=True)
class DiscardAnalysis:
    """The ranking of every legal discard of a hand, best first, and the distance of the hand as it stands."""

    options: tuple[DiscardOption, ...]
    distance_now: int  # distance of the whole hand to a complete win (0: the hand already wins as it stands)
    unseen_total: int


def rank_key(option: DiscardOption) -> tuple[float, ...]:
    """The ranking order (RULES-independent): fewest replacements first, then the one-card expected gain,
    then the number of unseen improving cards, then the most waiting copies."""
    waiting = sum(w.unseen for w in option.waits)
    return (option.distance, -option.expected_gain, -option.improving_unseen, -waiting)


def ranked(options: list[DiscardOption], describe) -> tuple[DiscardOption, ...]:
    """Sort by `rank_key` (then card order), give equal keys equal ranks, attach `describe(option)` as reason."""
    from dataclasses import replace

    options = sorted(options, key=lambda o: (rank_key(o), o.card))
    out: list[DiscardOption] = []
    previous, rank = None, 0
    for i, option in enumerate(options):
        key = rank_key(option)
        if key != previous:
            rank, previous = i + 1, key
        out.append(replace(option, rank=rank, reason=describe(option)))
    return tuple(out)
