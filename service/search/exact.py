"""The search's adapter to the engine's exact analysis, one class per game family: for hands of the position's
rule-set as one seat sees the table, the ranking of every legal discard by the advice's order (`analyse`), its
first option alone (`top`), how close the best discard gets (`reach`) and the figures of a hand at rest (`rest`),
all given the unseen copies instead of visible codes.

Each seat of a search has its own view (`seat`): the searching player's, or, for the other seats' play in the
playouts, what that seat saw when the search began: every visible card and every other seat's exposed melds (the
player's included), never the player's concealed hand."""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..advice.ranking import SHIPPED, rank_key
from ..rules.analysis import DiscardAnalysis
from ..rules.chan.captures import History
from ..rules.chan.cards import N_FACES
from ..rules.chan.discards import Distances, at_rest
from ..rules.chan.discards import analyse_discards as chan_analyse
from ..rules.chan.hand import ChanHand
from ..rules.fourcolor.cards import GENERAL, N_FLOWERS, N_KINDS, Tally
from ..rules.fourcolor.discards import analyse_discards as fc_analyse
from ..rules.fourcolor.distance import complete_distance as fc_complete_distance
from ..rules.fourcolor.distance import limits_of
from ..rules.fourcolor.hand import FourColorHand
from .position import Position
from .top import Top, TopRanker

#: The ranking key of a hand that cannot be improved on, or must not be entered (no legal continuation).
HOPELESS = (float("inf"),)


class Exact:
    """What both families' adapters share: the copies of each card the player has not seen."""

    #: Cards of the family, by index (the length of a hand's count vector).
    faces: int = 0
    #: Whether `reach` is the exact distance the best discard leaves (Chắn), not a bound (Four Color Cards).
    exact_reach: bool = False

    def __init__(self, position: Position, seat: int | None = None) -> None:
        self.ruleset, self.options, self.seats = position.ruleset, position.options, position.seats
        seat = position.seat if seat is None else seat
        left = Counter(self.ruleset.deck())
        left.subtract(position.visible)
        for other in range(position.seats):
            if other != seat:
                melds = position.exposed if other == position.seat else position.opponents[other]
                left.subtract(c for meld in melds for c in meld.cards)
        self.outside = [left[c] for c in range(self.faces)]
        self.waits: dict[tuple, tuple] = {}  # Chắn: the winning cards and points of resting hands (`Distances.top`)

    def unseen(self, counts: tuple[int, ...], exposed: tuple[Any, ...]) -> list[int]:
        """Copies of each card the seat has not seen, holding this hand: the deck minus what he saw minus it."""
        out = list(self.outside)
        for card, n in enumerate(counts):
            out[card] -= n
        for meld in exposed:
            for card in meld.cards:
                out[card] -= 1
        return out

    def analyse(self, counts: tuple[int, ...], exposed: tuple[Any, ...], history: History | None) -> DiscardAnalysis:
        """The ranking of every legal discard of a hand that must discard by the advice's order (the engine
        functions behind the rule-sets' `analyse_discards`)."""
        raise NotImplementedError

    def top(self, counts: tuple[int, ...], exposed: tuple[Any, ...], history: History | None,
            distances: Distances | None = None, quick: bool = False) -> Top:
        """The first option of the ranking alone (`quick`: discards tied at a distance of 1 or more ranked on
        their unseen copies alone, then card order, without their improving cards)."""
        raise NotImplementedError

    def reach(self, counts: tuple[int, ...], exposed: tuple[Any, ...], history: History | None) -> int | Distances:
        """The distance the best discard of a hand that must discard leaves (`exact_reach`: exactly)."""
        raise NotImplementedError

    def rest(self, counts: tuple[int, ...], exposed: tuple[Any, ...], history: History | None) -> Top:
        """A hand at rest (between turns) as the top option of the ranking gives the hand it leaves: its
        distance, waits (with their gains) and improving cards; its card is meaningless."""
        raise NotImplementedError


class FourColorExact(Exact):
    """Four Color Cards: `discards.analyse_discards`, `top.py` and the complete distance."""

    faces = N_KINDS + N_FLOWERS

    def __init__(self, position: Position, seat: int | None = None) -> None:
        super().__init__(position, seat)
        self.rules = self.ruleset.meld_rules(self.options)
        self.flowers = self.ruleset.has_flowers
        self.ranker = TopRanker(self.rules, self.options, self.seats, self.flowers)

    def analyse(self, counts: tuple[int, ...], exposed: tuple[Any, ...], history: History | None) -> DiscardAnalysis:
        """The engine's ranking of every legal discard."""
        return fc_analyse(FourColorHand(tally(counts), exposed, None), self.rules, self.options,
                          self.unseen(counts, exposed), self.seats, self.flowers, SHIPPED)

    def top(self, counts: tuple[int, ...], exposed: tuple[Any, ...], history: History | None,
            distances: Distances | None = None, quick: bool = False) -> Top:
        """The first option of the ranking alone (`top.py`)."""
        return self.ranker.top(tally(counts), exposed, self.unseen(counts, exposed), quick=quick)

    def reach(self, counts: tuple[int, ...], exposed: tuple[Any, ...], history: History | None) -> int:
        """A bound: one replacement fewer than the hand's own distance to a complete win (the card that would be
        replaced goes), 0 for a complete hand."""
        return max(0, fc_complete_distance(tally(counts), self.rules, exposed) - 1)

    def rest(self, counts: tuple[int, ...], exposed: tuple[Any, ...], history: History | None) -> Top:
        """The hand plus one chess card y it has room for, planned with y as its only discard: y leaves this
        very hand."""
        room = limits_of(exposed, self.flowers)
        y = next(c for c in range(N_KINDS) if c % 7 != GENERAL and counts[c] < room[c])
        more = list(counts)
        more[y] += 1
        return self.ranker.top(tally(more), exposed, self.unseen(counts, exposed), (y,))


class ChanExact(Exact):
    """Chắn: `discards.analyse_discards` and the `Distances` of the legal discards."""

    faces = N_FACES
    exact_reach = True

    def analyse(self, counts: tuple[int, ...], exposed: tuple[Any, ...], history: History | None) -> DiscardAnalysis:
        """The engine's ranking of every legal discard."""
        return chan_analyse(ChanHand(counts, exposed, None), self.options, self.unseen(counts, exposed),
                            history or History(), SHIPPED)

    def top(self, counts: tuple[int, ...], exposed: tuple[Any, ...], history: History | None,
            distances: Distances | None = None, quick: bool = False) -> Top:
        """The first option alone (`Distances.top`, given the hand's `distances` if `reach` found them)."""
        unseen = self.unseen(counts, exposed)
        distances = distances or Distances(counts, exposed, history or History())
        first = distances.top(ChanHand(counts, exposed, None), self.options, unseen, SHIPPED, self.waits, quick)
        if first is None:
            return Top(None, 0, {}, frozenset(), HOPELESS)
        return Top(first.card, first.distance, {w.card: w.gain for w in first.waits},
                   frozenset(c for c, _ in first.improving), rank_key(first))

    def reach(self, counts: tuple[int, ...], exposed: tuple[Any, ...], history: History | None) -> Distances:
        """Exactly: the `Distances` of the hand's legal discards."""
        return Distances(counts, exposed, history or History())

    def rest(self, counts: tuple[int, ...], exposed: tuple[Any, ...], history: History | None) -> Top:
        """The engine's `at_rest` (a dead hand never wins: no waits, no improving cards)."""
        found = at_rest(ChanHand(counts, exposed, None), self.options, self.unseen(counts, exposed),
                        history or History())
        return Top(found.card, found.distance, {w.card: w.gain for w in found.waits},
                   frozenset(c for c, _ in found.improving), rank_key(found))


def tally(counts: Any) -> Tally:
    """An engine tally of a Four Color 33-count vector (28 chess cards, then the 5 flowers)."""
    return Tally(list(counts[:28]), sum(1 << i for i, n in enumerate(counts[28:]) if n))
