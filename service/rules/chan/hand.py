"""A Chắn hand as requests give it, and the win test (docs/rules.md#chan-pairs and docs/rules.md#chan-turn).

A hand wins when hand + exposed pairs + the winning card make 10 pairs with at least 6 Chắn; with Chi chi as
the winning card, exactly 6 Chắn and 4 Cạ.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from ..errors import ImpossibleCount
from ..text import text
from .cards import CHI_CHI, check_copies, code, parse_card, tally
from .pairs import Pair, pair_up, parse_exposed

MAX_CARDS = 20
PAIRS_TO_WIN = 10
MIN_CHAN = 6


@dataclass(frozen=True)
class ChanHand:
    """Validated cards of one player: concealed counts, exposed pairs and the public card (if any)."""

    counts: tuple[int, ...]
    exposed: tuple[Pair, ...]
    public_card: int | None

    def card_count(self) -> int:
        """Cards in hand + exposed + public."""
        return sum(self.counts) + sum(len(p.cards) for p in self.exposed) + (self.public_card is not None)

    def concealed_cards(self) -> list[int]:
        """The concealed cards, one int per card, sorted."""
        return [face for face, n in enumerate(self.counts) for _ in range(n)]

    def with_public(self) -> list[int]:
        """Concealed counts plus the public card."""
        counts = list(self.counts)
        if self.public_card is not None:
            counts[self.public_card] += 1
        return counts

    def all_counts(self) -> list[int]:
        """Copies of each face over every card of the player: concealed, exposed pairs and the public card (what
        the bonuses of a win count)."""
        counts = self.with_public()
        for pair in self.exposed:
            for c in pair.cards:
                counts[c] += 1
        return counts


class WinResult(NamedTuple):
    """Whether the cards win, the pairing, the Chắn/Cạ counts and, if not, why (stable reason codes).

    Immutable like a frozen dataclass, and cheap to build: the win test is the engine's hot path."""

    hu: bool
    pairs: tuple[Pair, ...]
    chan: int
    ca: int
    unpaired: tuple[int, ...]
    reasons: tuple[tuple[str, str], ...]
    card_count: int


def parse_hand(hand: Sequence[object], exposed: Sequence[Mapping[str, object]] = (), public_card: object = None
               ) -> ChanHand:
    """Validate a Chắn hand request: codes, at most 4 copies over everything, at most 20 cards."""
    concealed = [parse_card(t, f"hand.{i}") for i, t in enumerate(hand)]
    pairs = parse_exposed(exposed)
    public = None if public_card is None else parse_card(public_card, "public_card")
    located = [(c, f"hand.{i}") for i, c in enumerate(concealed)]
    located += [(c, f"exposed.{i}.cards") for i, p in enumerate(pairs) for c in p.cards]
    located += [] if public is None else [(public, "public_card")]
    check_copies(located)
    result = ChanHand(tuple(tally(concealed)), pairs, public)
    if result.card_count() > MAX_CARDS:
        raise ImpossibleCount(text("{count} cards over hand, exposed pairs and public card; a Chắn player has at most "
                                   "{most}",
                                   count=result.card_count(), most=MAX_CARDS), "hand", code="too_many_cards")
    return result


def evaluate_win(hand: ChanHand) -> WinResult:
    """The win test on hand + exposed pairs + public (winning) card, with every reason it fails."""
    pairing = pair_up(hand.with_public())
    exposed = hand.exposed
    pairs = exposed + pairing.pairs
    chan, ca = pairing.chan, pairing.ca
    if exposed:
        chan += sum(p.chan for p in exposed)
        ca += sum(1 for p in exposed if p.kind == "ca")
    reasons: list[tuple[str, str]] = []
    cards = hand.card_count()
    if cards != 2 * PAIRS_TO_WIN:
        reasons.append(("card_count", text("a win needs 20 cards in 10 pairs; these are {cards}", cards=cards)))
    if pairing.unpaired:
        shown = " ".join(code(c) for c in pairing.unpaired)
        reasons.append(("unpaired_cards", text("{cards} pair with nothing (identical pairs are never split)",
                                               cards=shown)))
    if chan < MIN_CHAN:
        reasons.append(("too_few_chan", text("{chan} Chắn; a win needs at least {least}", chan=chan, least=MIN_CHAN)))
    if hand.public_card == CHI_CHI and not pairing.unpaired and (chan, ca) != (MIN_CHAN, 4):
        reasons.append(("chi_chi_rule", text("won on Chi chi the hand needs exactly 6 Chắn and 4 Cạ, not {chan} and "
                                             "{ca}", chan=chan, ca=ca)))
    return WinResult(not reasons, pairs, chan, ca, pairing.unpaired, tuple(reasons), cards)
