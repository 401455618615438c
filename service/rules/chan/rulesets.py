"""The `cardavia-chan` rule-set: options, parsing, pairs, claims, win and settlement."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..analysis import DiscardAnalysis
from ..errors import DomainError, shown
from ..options import Option, resolve_options
from ..registry import register
from .captures import PRIORITY, ROLES, ChanClaim, History, legal_claims, legal_discards
from .cards import CODES
from .discards import analyse_discards, unseen_cards
from .hand import ChanHand, WinResult, evaluate_win, parse_hand
from .pairs import KINDS, Pair
from .scoring import BONUSES, CONTEXT_BONUS, U_XUONG, ChanSettlement, settle

CHAN_OPTIONS = (
    Option("tom_set", "3m-3c-7c", "The three cards of a Tôm: '3m-3c-7c' as the seed reads, or the traditional "
           "'3m-3s-7c'.", "docs/rules.md#chan-tom: Tôm (decision)", choices=("3m-3c-7c", "3m-3s-7c")),
)
CONTEXT_FLAGS = (*CONTEXT_BONUS, "by_chiu")


@dataclass(frozen=True)
class ChanRuleSet:
    """Chắn as on Cardavia."""

    id: str = "cardavia-chan"
    title: str = "Chắn (Vietnam), as on Cardavia"
    source: str = "docs/rules.md#chan; seed 002 (it)"
    family: str = "chan"
    game: str = "Chắn"
    options: tuple[Option, ...] = CHAN_OPTIONS

    def resolve_options(self, given: Mapping[str, Any] | None) -> Mapping[str, Any]:
        """Defaults merged with `given`; raises InvalidOption."""
        return resolve_options(self.options, given)

    def meld_rules(self, options: Mapping[str, Any]) -> None:
        """Chắn pairs carry no points: there is no meld profile."""
        return None

    def parse(self, options: Mapping[str, Any], hand: Sequence[object], exposed: Sequence[Mapping[str, object]] = (),
              public_card: object = None, extra: Mapping[str, object] | None = None) -> ChanHand:
        """Validate a hand request."""
        return parse_hand(hand, exposed, public_card)

    def legal_melds(self, hand: ChanHand, options: Mapping[str, Any]) -> list[Pair]:
        """Every pair the concealed cards can form: Chắn, Chíu, and Cạ from odd cards only (docs/rules.md#chan-pairs: an
        identical pair is never split to form a Cạ; a triple may give one card)."""
        counts, out = hand.counts, []
        for face, n in enumerate(counts):
            if n >= 2:
                out.append(Pair("chan", (face, face)))
            if n == 4:
                out.append(Pair("chiu", (face,) * 4))
        for face in range(24):
            for mate in range(face + 1, face // 3 * 3 + 3):
                if counts[face] % 2 and counts[mate] % 2:
                    out.append(Pair("ca", (face, mate)))
        return out

    def legal_claims(self, hand: ChanHand, role: str, options: Mapping[str, Any], source: str = "discard",
                     history: History | None = None) -> list[ChanClaim]:
        """Captures, Chíu and wins on the public card, highest priority first."""
        claims = legal_claims(hand, role, source, history or History())
        return sorted(claims, key=lambda c: -c.priority)

    def legal_discards(self, hand: ChanHand, history: History) -> list[int]:
        """Faces the player may discard now (rules 2, 3, 6)."""
        return legal_discards(hand.counts, history)

    def analyse_discards(self, hand: ChanHand, options: Mapping[str, Any], visible: Sequence[object],
                         history: History, seats: int = 4) -> DiscardAnalysis:
        """The exact analysis of every legal discard of a 20-card hand; `visible`: codes of the cards seen
        outside his own."""
        self.check_seats(seats)
        return analyse_discards(hand, options, unseen_cards(hand, visible), history)

    def hu(self, hand: ChanHand, options: Mapping[str, Any]) -> WinResult:
        """The win test with the pairing and the reasons it fails."""
        return evaluate_win(hand)

    def settle(self, hand: ChanHand, options: Mapping[str, Any], seats: int, winner: int,
               context: Mapping[str, Any] | None = None) -> ChanSettlement:
        """Score and payments of a win."""
        context = dict(context or {})
        for name, value in context.items():
            if name not in CONTEXT_FLAGS:
                raise DomainError(f"unknown context flag {shown(name)}; known: {', '.join(CONTEXT_FLAGS)}",
                                  f"context.{name}", code="unknown_context")
            if not isinstance(value, bool):
                raise DomainError(f"context.{name} must be true or false", f"context.{name}", code="unknown_context")
        return settle(hand, context, options, seats, winner)

    def check_seats(self, seats: int, winner: int | None = None) -> None:
        """Chắn is played by 4."""
        from ..errors import InvalidSeat

        if seats != 4:
            raise InvalidSeat("cardavia-chan is played by 4 players", "seats")
        if winner is not None and not 0 <= winner < seats:
            raise InvalidSeat(f"winner must be a seat index 0..{seats - 1}", "winner")

    def describe(self) -> dict[str, Any]:
        """Cards, pair kinds, bonuses, claim priorities and options for /v1/rulesets."""
        return {
            "id": self.id, "game": self.game, "title": self.title, "family": self.family, "source": self.source,
            "seats": {"min": 4, "max": 4}, "cards": list(CODES),
            "melds": [{"kind": k, "exposed": 0, "concealed": 0} for k in KINDS],
            "bonuses": [{"name": k, "main": m, "dich": d, "condition": t} for k, (m, d, t) in BONUSES.items()],
            "base_points": U_XUONG,
            "claim_priorities": [{"class": k, "rank": v} for k, v in PRIORITY.items()],
            "seat_roles": list(ROLES),
            "options": [o.describe() for o in self.options],
        }


CARDAVIA_CHAN = register(ChanRuleSet())
