"""A seat's view turned into the engine values the analyses take: the family's hand and the cards seen.

Both game families are served by the advice's analyses and the rule-set's own methods (`settle`, `legal_claims`); only
the hand object differs by family (Four Color Cards: a tally of cards; Chắn: counts of each face), how far a hand
is from a win, and how a claim's cards leave the hand (docs/rules.md#fc-claims, docs/rules.md#chan-captures): the
arena's one choice by game family, a `SeatFamily` per family picked by the rule-set's `family` here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..advice.analyse import analyse_discards
from ..advice.chan_claims import after_claim as chan_after_claim
from ..advice.chan_claims import history_after as chan_history_after
from ..advice.fourcolor_claims import after_claim as fc_after_claim
from ..advice.ranking import SHIPPED, Ranking
from ..replay.decisions import SeatView
from ..rules.analysis import DiscardAnalysis, DiscardOption
from ..rules.chan.captures import History
from ..rules.chan.cards import tally as chan_counts
from ..rules.chan.distance import distance as chan_distance
from ..rules.chan.hand import ChanHand
from ..rules.fourcolor.cards import Tally
from ..rules.fourcolor.distance import distance as fc_distance
from ..rules.fourcolor.hand import FourColorHand
from ..rules.registry import RuleSet

#: What a claim leaves: the concealed cards, the exposed melds and (Chắn) the history.
AfterClaim = tuple[list[int], tuple[Any, ...], Any]


@dataclass(frozen=True)
class SeatFamily:
    """How one game family holds a seat's hand in the arena."""

    hand: Callable[[Any, tuple[Any, ...], int | None], Any]  # (cards, exposed, public): the family's hand
    distance: Callable[[SeatView], int]  # the resting hand's structural distance to a win
    after_claim: Callable[[SeatView, Any, Any], AfterClaim]  # (view, hand with the card, claim)
    claim_cards: Callable[[Any], tuple[int, ...]]  # a claim's meld or pair, the public card among them (a win: ())


def _fc_hand(cards: Any, exposed: tuple[Any, ...], public: int | None) -> FourColorHand:
    """Four Color Cards: a tally of the cards."""
    return FourColorHand(Tally.of(cards), exposed, public)


def _chan_hand(cards: Any, exposed: tuple[Any, ...], public: int | None) -> ChanHand:
    """Chắn: the counts of each face."""
    return ChanHand(tuple(chan_counts(cards)), exposed, public)


def _chan_distance(view: SeatView) -> int:
    """Chắn: the distance of the concealed faces and the exposed pairs."""
    return chan_distance(chan_counts(view.hand), view.exposed)


def _fc_distance(view: SeatView) -> int:
    """Four Color Cards: the distance under the rule-set's meld rules."""
    return fc_distance(Tally.of(view.hand), view.ruleset.meld_rules(view.options), view.exposed)


def _fc_after_claim(view: SeatView, hand: Any, claim: Any) -> AfterClaim:
    """Four Color Cards: the advice's `fourcolor_claims.after_claim`; no history."""
    after = fc_after_claim(hand, claim)
    return after.concealed_cards(), after.exposed, None


def _chan_after_claim(view: SeatView, hand: Any, claim: Any) -> AfterClaim:
    """Chắn: the engine's `after_claim`, and `history_after` (a Cạ capture marking rules 4 and 6)."""
    after = chan_after_claim(hand, claim)
    return after.concealed_cards(), after.exposed, chan_history_after(claim, hand, view.history or History())


def _fc_claim_cards(claim: Any) -> tuple[int, ...]:
    """Four Color Cards: the meld the claim exposes (a hu: none)."""
    return () if claim.meld is None else tuple(claim.meld.cards)


def _chan_claim_cards(claim: Any) -> tuple[int, ...]:
    """Chắn: the pair the capture or Chíu exposes (a win: none)."""
    return () if claim.pair is None else tuple(claim.pair.cards)


FOURCOLOR = SeatFamily(_fc_hand, _fc_distance, _fc_after_claim, _fc_claim_cards)
CHAN = SeatFamily(_chan_hand, _chan_distance, _chan_after_claim, _chan_claim_cards)
FAMILIES = {"fourcolor": FOURCOLOR, "chan": CHAN}


def seat_family(ruleset: RuleSet) -> SeatFamily:
    """The arena's seat parts for the rule-set's game family."""
    return FAMILIES[ruleset.family]


def hand_of(view: SeatView, cards: Any = None, exposed: tuple[Any, ...] | None = None,
            public: int | None = None) -> Any:
    """The family's hand of these concealed `cards` (default: the view's) and `exposed` melds, with `public`."""
    cards = view.hand if cards is None else cards
    exposed = view.exposed if exposed is None else exposed
    return seat_family(view.ruleset).hand(cards, exposed, public)


def seen_codes(view: SeatView) -> list[str]:
    """Every card the seat saw outside its own, as codes: the visible public cards and the other seats' melds."""
    code = view.ruleset.card_code
    return [code(c) for c in view.visible] + [code(c) for melds in view.opponents for m in melds for c in m.cards]


def analyse(view: SeatView, cards: Any = None, exposed: tuple[Any, ...] | None = None,
            history: Any = None, ranking: Ranking = SHIPPED) -> DiscardAnalysis:
    """The advice's `analyse_discards` of a hand that must discard (default: the view's own), ranked by
    `ranking` (default: the advice's order)."""
    hand = hand_of(view, cards, exposed)
    history = view.history if history is None else history
    return analyse_discards(view.ruleset, hand, view.options, seen_codes(view), seats=view.seats, history=history,
                            ranking=ranking)


def resting_distance(view: SeatView) -> int:
    """The distance of the seat's hand between turns (fewest cards to replace so that one more card wins): the
    family's structural distance."""
    return seat_family(view.ruleset).distance(view)


def after_claim(view: SeatView, card: int, claim: Any) -> AfterClaim:
    """The concealed cards, exposed melds and history a claim of public `card` leaves (it must then discard): the
    claim advice's own (`after_claim` of the family's, `fourcolor_claims.py` or `chan_claims.py`; Chắn:
    `history_after`, a Cạ capture marking rules 4 and 6)."""
    return seat_family(view.ruleset).after_claim(view, hand_of(view, public=card), claim)


def claim_cards(view: SeatView, claim: Any) -> tuple[int, ...]:
    """The cards of the meld or pair a legal claim exposes, the public card among them (a win: none)."""
    return seat_family(view.ruleset).claim_cards(claim)


def win_gain(view: SeatView, card: int | None, cards: Any = None, exposed: tuple[Any, ...] | None = None) -> float:
    """The seat's settlement delta on a win of its hand with `card` (None: the hand as it is), as the rule-set
    settles it without a lucky card or a win context; where nobody pays, 1."""
    if view.ruleset.objective(view.options) != "expected_settlement":
        return 1.0
    settled = view.ruleset.settle(hand_of(view, cards, exposed, card), view.options, view.seats, view.seat)
    return settled.deltas[view.seat]


class FollowUp:
    """The discard a seat chose together with a claim, kept for the hand that claim leaves: the next discard plays
    it, and a claim a higher one beat (the seat's hand is then another) leaves it unused."""

    def __init__(self) -> None:
        self.planned: tuple[int, tuple[int, ...]] | None = None

    def plan(self, view: SeatView, card: int, claim: Any, discard: int) -> None:
        """Keep `discard` for the hand that taking public `card` with `claim` leaves."""
        self.planned = (discard, tuple(sorted(after_claim(view, card, claim)[0])))

    def take(self, view: SeatView) -> int | None:
        """The planned discard when the seat holds the hand it was planned for; the plan is spent either way."""
        planned, self.planned = self.planned, None
        return planned[0] if planned is not None and planned[1] == view.hand else None

    def discard(self, view: SeatView, pick: Callable[[Sequence[DiscardOption]], DiscardOption | None]) -> int:
        """The planned discard (`take`), else the card `pick` chooses among the seat's analysed discards."""
        planned = self.take(view)
        if planned is not None:
            return planned
        best = pick(analyse(view).options)
        assert best is not None  # the round asks only a seat that may discard
        return best.card
