"""A seat's view turned into the engine values the analyses take: the family's hand and the cards seen.

Both game families are served by the rule-set's own methods (`analyse_discards`, `settle`, `legal_claims`); only
the hand object differs by family (Four Color Cards: a tally of cards; Chắn: counts of each face), and a claim's
cards leave the hand differently (docs/rules.md#fc-claims, docs/rules.md#chan-captures).
"""

from __future__ import annotations

from typing import Any

from ..replay.decisions import SeatView
from ..rules.analysis import DiscardAnalysis
from ..rules.chan.captures import History
from ..rules.chan.cards import tally as chan_counts
from ..rules.chan.claim_advice import after_claim as chan_after_claim
from ..rules.chan.claim_advice import history_after as chan_history_after
from ..rules.chan.distance import distance as chan_distance
from ..rules.chan.hand import ChanHand
from ..rules.fourcolor.cards import Tally
from ..rules.fourcolor.claim_advice import after_claim as fc_after_claim
from ..rules.fourcolor.distance import distance as fc_distance
from ..rules.fourcolor.hand import FourColorHand


def is_chan(view: SeatView) -> bool:
    """Whether the view is of a Chắn table."""
    return view.ruleset.family == "chan"


def hand_of(view: SeatView, cards: Any = None, exposed: tuple[Any, ...] | None = None,
            public: int | None = None) -> Any:
    """The family's hand of these concealed `cards` (default: the view's) and `exposed` melds, with `public`."""
    cards = view.hand if cards is None else cards
    exposed = view.exposed if exposed is None else exposed
    if is_chan(view):
        return ChanHand(tuple(chan_counts(cards)), exposed, public)
    return FourColorHand(Tally.of(cards), exposed, public)


def seen_codes(view: SeatView) -> list[str]:
    """Every card the seat saw outside its own, as codes: the visible public cards and the other seats' melds."""
    code = view.ruleset.card_code
    return [code(c) for c in view.visible] + [code(c) for melds in view.opponents for m in melds for c in m.cards]


def analyse(view: SeatView, cards: Any = None, exposed: tuple[Any, ...] | None = None,
            history: Any = None) -> DiscardAnalysis:
    """The rule-set's `analyse_discards` of a hand that must discard (default: the view's own)."""
    hand = hand_of(view, cards, exposed)
    history = view.history if history is None else history
    return view.ruleset.analyse_discards(hand, view.options, seen_codes(view), seats=view.seats, history=history)


def resting_distance(view: SeatView) -> int:
    """The distance of the seat's hand between turns (fewest cards to replace so that one more card wins): the
    family's structural distance."""
    if is_chan(view):
        return chan_distance(chan_counts(view.hand), view.exposed)
    return fc_distance(Tally.of(view.hand), view.ruleset.meld_rules(view.options), view.exposed)


def after_claim(view: SeatView, card: int, claim: Any) -> tuple[list[int], tuple[Any, ...], Any]:
    """The concealed cards, exposed melds and history a claim of public `card` leaves (it must then discard): the
    engine's own (`claim_advice.after_claim` of the family; Chắn: `history_after`, a Cạ capture marking rules 4
    and 6)."""
    hand = hand_of(view, public=card)
    if is_chan(view):
        after = chan_after_claim(hand, claim)
        return after.concealed_cards(), after.exposed, chan_history_after(claim, hand, view.history or History())
    left = fc_after_claim(hand, claim)
    return left.concealed_cards(), left.exposed, None


def win_gain(view: SeatView, card: int | None, cards: Any = None, exposed: tuple[Any, ...] | None = None) -> float:
    """The seat's settlement delta on a win of its hand with `card` (None: the hand as it is), as the rule-set
    settles it without a lucky card or a win context; where nobody pays, 1."""
    if view.ruleset.objective(view.options) != "expected_settlement":
        return 1.0
    settled = view.ruleset.settle(hand_of(view, cards, exposed, card), view.options, view.seats, view.seat)
    return settled.deltas[view.seat]
