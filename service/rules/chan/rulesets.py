"""The `cardavia-chan` rule-set: options, parsing, pairs, claims, win and settlement."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from ..analysis import DiscardAnalysis, Order
from ..codes import fast_parser
from ..errors import DomainError, shown
from ..options import Option, resolve_options
from ..protocol import RuleSet, check_extras, check_seats
from ..text import text
from .captures import PRIORITY, ROLES, ChanClaim, History, legal_claims, legal_discards, parse_history
from .cards import CODE_INDEX, CODES, COPIES, N_FACES, check_copies, code, parse_card, tally
from .discards import analyse_discards, unseen_cards
from .hand import ChanHand, WinResult, evaluate_win, parse_hand
from .pairs import KINDS, Pair, parse_exposed
from .scoring import BONUSES, CONTEXT_BONUS, U_XUONG, ChanSettlement, settle

CHAN_OPTIONS = (
    Option("tom_set", "3m-3c-7c", text("The three cards of a Tôm: Tam vạn, Tam văn and Thất văn as the rule text "
                                       "reads, or the traditional Tam vạn, Tam sách and Thất văn."),
           "docs/rules.md#chan-tom: Tôm (decision)", choices=("3m-3c-7c", "3m-3s-7c"), label=text("Tôm cards"),
           choice_labels=(text("as the rule text reads"), text("traditional"))),
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
    #: docs/rules.md#chan-deal: 19 cards between turns, the dealer is dealt 20 and starts by discarding.
    resting_size: int = 19
    has_flowers: bool = False
    lucky_card: bool = False
    #: A search's shaped deals: swaps per other seat and turn played (docs/advice.md#shaped-deals: tuned with
    #: bench/calibration.py --truth --steps on seed 6004).
    shaping_swaps: float = 15.0
    takes_context: bool = True
    event_types: tuple[str, ...] = ("discard", "capture", "draw", "chiu", "win", "pass")

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

    def discardable(self, cards: Sequence[int], history: History | None = None) -> list[int]:
        """The cards of a concealed hand he may discard at his turn in play (rules 2, 3, 6;
        docs/rules.md#chan-dead-hand: a dead hand "only draws and can neither capture nor win": it never discards)."""
        history = history or History()
        return [] if history.dead_hand else legal_discards(tally(cards), history)

    def analyse_discards(self, hand: ChanHand, options: Mapping[str, Any], visible: Sequence[object], seats: int,
                         history: History | None, ranking: Order) -> DiscardAnalysis:
        """The exact analysis of every legal discard of a 20-card hand, ranked by `ranking`; `visible`: codes of
        the cards seen outside his own."""
        self.check_seats(seats)
        return analyse_discards(hand, options, unseen_cards(hand, visible), history or History(), ranking)

    def history_of(self, raw: object) -> History:
        """The player's earlier moves (capture rules 3-6), from a request's `history` (none: a clean one)."""
        return parse_history(cast(Mapping[str, object], raw)) if raw else History()  # an object, by the schema

    def objective(self, options: Mapping[str, Any]) -> str:
        """Every Chắn win is paid: a search ranks discards on the expected settlement."""
        return "expected_settlement"

    def parse_card(self, text: object, field: str) -> int:
        """One Chắn card code, or InvalidCard naming `field`."""
        return parse_card(text, field)

    def card_parser(self) -> Callable[..., int]:
        """A fast card parser for long lists (`parse(text, *field_parts)`)."""
        return fast_parser(CODE_INDEX, parse_card)

    def card_code(self, card: int) -> str:
        """The code of a card."""
        return code(card)

    def card_codes(self) -> tuple[str, ...]:
        """Every card code (index = card)."""
        return CODES

    def deck(self) -> list[int]:
        """Every card of the deck, sorted (docs/rules.md#chan-cards: four copies of each face)."""
        return [c for c in range(N_FACES) for _ in range(COPIES)]

    def deal_sizes(self, seats: int, dealer: int) -> list[int]:
        """Cards dealt to each seat (docs/rules.md#chan-deal: dealer 20, others 19)."""
        return [self.resting_size + 1 if s == dealer else self.resting_size for s in range(seats)]

    def check_copies(self, located: Sequence[tuple[int, str]]) -> None:
        """At most 4 copies of a face; the error names the field of the surplus copy."""
        check_copies(list(located))

    def parse_exposed(self, options: Mapping[str, Any], items: Sequence[Mapping[str, object]]) -> tuple[Pair, ...]:
        """Exposed pairs alone (another seat's), validated."""
        return parse_exposed(items)

    def hu(self, hand: ChanHand, options: Mapping[str, Any]) -> WinResult:
        """The win test with the pairing and the reasons it fails."""
        return evaluate_win(hand)

    def settle(self, hand: ChanHand, options: Mapping[str, Any], seats: int, winner: int,
               lucky_card: object = None, context: Mapping[str, Any] | None = None) -> ChanSettlement:
        """Score and payments of a win."""
        check_extras(self, lucky_card, None)
        context = dict(context or {})
        for name, value in context.items():
            if name not in CONTEXT_FLAGS:
                raise DomainError(text("unknown context flag {name}; known: {flags}", name=shown(name),
                                       flags=", ".join(CONTEXT_FLAGS)),
                                  f"context.{name}", code="unknown_context")
            if not isinstance(value, bool):
                raise DomainError(text("context.{name} must be true or false",
                                       name=name), f"context.{name}", code="unknown_context")
        return settle(hand, context, options, seats, winner)

    def check_seats(self, seats: int, winner: int | None = None) -> None:
        """Chắn is played by 4."""
        check_seats(self.id, 4, 4, seats, winner)

    def describe(self) -> dict[str, Any]:
        """Cards, hand sizes, pair kinds, bonuses, claim priorities and options for /v1/rulesets."""
        return {
            "id": self.id, "game": self.game, "title": self.title, "family": self.family, "source": self.source,
            "seats": {"min": 4, "max": 4},
            "hand_size": {"resting": self.resting_size, "turn": self.resting_size + 1},
            "cards": list(CODES), "copies": dict.fromkeys(CODES, COPIES),
            "melds": [{"kind": k, "exposed": 0, "concealed": 0} for k in KINDS],
            "bonuses": [{"name": k, "main": m, "dich": d, "condition": t} for k, (m, d, t) in BONUSES.items()],
            "base_points": U_XUONG,
            "claim_priorities": [{"class": k, "rank": v} for k, v in PRIORITY.items()],
            "seat_roles": list(ROLES),
            "options": [o.describe() for o in self.options],
        }


def chan_ruleset(ruleset: RuleSet) -> ChanRuleSet:
    """`ruleset` as the Chắn rule-set it is, for code that serves this family alone."""
    if not isinstance(ruleset, ChanRuleSet):
        raise TypeError(f"{ruleset.id} is not a Chắn rule-set")
    return ruleset


CARDAVIA_CHAN = ChanRuleSet()
