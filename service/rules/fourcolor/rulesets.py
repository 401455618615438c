"""The two Four Color Cards rule-sets, `bga-taiwan` and `cardavia-flowers`: data plus small functions.

Every optional decision of docs/rules.md#decisions is an `Option` here, defaulting as written there.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..analysis import DiscardAnalysis, Order
from ..errors import DomainError, InvalidSeat
from ..options import Decision, Option, resolve_options
from ..protocol import RuleSet, check_extras, check_seats
from ..text import text
from .cards import ALL_CODES, CHESS_CODES, card_parser, check_copies, code, deck, discardable, parse_card
from .claims import ROLES, Claim, bga_claims, bga_class, flowers_claims, flowers_class, must_take
from .discards import analyse_discards, unseen_counts
from .evaluate import legal_melds
from .hand import MAX_CARDS, FourColorHand, parse_hand
from .hu import HuResult, evaluate_hu
from .melds import Meld, MeldRules
from .settle import (
    Settlement,
    bga_payments,
    bga_win_pays,
    flowers_payments,
    flowers_win_pays,
    settle_bga,
    settle_flowers,
)

#: Cards a seat holds (hand + exposed) between turns (docs/rules.md#fc-deal); the player to discard holds one more.
RESTING_SIZE = 20
EVENT_TYPES = ("discard", "draw", "claim", "hu")

BGA_OPTIONS = (
    Option("threshold", 10, text("Hu points needed before the opponents pay the winner."),
           "docs/rules.md#fc-threshold: threshold 10 (decision)", minimum=0, maximum=1000,
           label=text("Threshold")),
    Option("stake", 1, text("Added to every payment: the opponents pay the winner's points over the threshold plus "
                            "the stake; a winner under the threshold pays each opponent the threshold plus the "
                            "stake."),
           "docs/rules.md#fc-threshold: stake 1 (decision)", minimum=0, maximum=1000, label=text("Stake")),
    Option("win_payment", "excess", text("What each opponent pays a winner at or over the threshold: the points "
                                         "over it plus the stake, or a flat threshold plus stake (the Ukrainian "
                                         "rule text)."),
           "docs/rules.md#fc-win-payment: option win_payment (decision)", choices=("excess", "flat"),
           label=text("Win payment"), choice_labels=(text("points over the threshold"), text("flat"))),
    Option("winning_meld_concealed", True, text("The meld completed by the winning card counts at its concealed "
                                                "value; unticked, at its exposed value."),
           "docs/rules.md#fc-concealed: concealed values (decision)", label=text("Winning meld counts as concealed")),
    Option("same_colour_soldier_sets", True, text("Three or four Soldiers of one colour form a triple or quad."),
           "docs/rules.md#fc-soldier-sets: same-colour Soldier triples and quads are allowed in bga-taiwan (decision)",
           label=text("Soldier triples and quads of one colour")),
    Option("lucky_match", "identical", text("Which cards the lucky card turned up after a hu rewards, 1 point each "
                                            "over the hand, the exposed melds and the winning card: the identical "
                                            "card (same colour and character, at most 3), or every card of its "
                                            "character in any colour (at most 15)."),
           "docs/rules.md#fc-lucky-match: identical card by default; option lucky_match character (decision)",
           choices=("identical", "character"), label=text("Lucky card matches"),
           choice_labels=(text("the identical card"), text("its character in any colour"))),
    Option("general_triple", False, text("Three identical Generals form a triple (scored as a triple); unticked, "
                                         "they are three General melds, never a triple."),
           "docs/rules.md#fc-general-triple: three identical Generals are three general melds (decision)",
           label=text("Three Generals form a triple")),
)

BGA_DECISIONS = (
    Decision("payment_per_opponent", "Each opponent pays the winner (h - threshold) + stake, and a caller under the "
             "threshold pays each opponent threshold + stake. Seed 000 reads literally as one total (the excess plus "
             "1 per opponent), which does not split into whole points among the losers; seed 001 has the stake paid "
             "by each opponent, so the excess is read the same way. Option win_payment chooses what each opponent "
             "pays when h >= threshold.", "docs/rules.md#fc-payment-per-opponent (decision)", option="win_payment"),
    Decision("all_generals_end", "A player who must discard but holds only Generals (or nothing) ends the round, "
             "settled as his hu: a hand of Generals alone is all melds. The seeds say only that the round ends and "
             "the points are counted; the rules give no other reading, so this is fixed, not an option.",
             "docs/rules.md#fc-generals-end (decision)"),
)

FLOWERS_OPTIONS = (
    Option("mixed_group_points", "by_size", text("What mixed groups score: by their size (a Command, a Field or "
                                                 "three Soldiers 1, four Soldiers 2, as the rule text scores "
                                                 "groups), or nothing."),
           "docs/rules.md#fl-mixed-groups (decision): mixed groups scored by size; option: mixed groups score 0",
           choices=("by_size", "zero"), label=text("Mixed groups score"),
           choice_labels=(text("by their size"), text("nothing"))),
    Option("payment", "none", text("Whether anyone pays: the winner's total is only shown, or each loser pays the "
                                   "winner's total."),
           "docs/rules.md#fl-payment: no payments (decision)", choices=("none", "each_loser_pays"),
           label=text("Payment"), choice_labels=(text("nobody pays"), text("each loser pays the winner's total"))),
    Option("must_take_drawn_general", True, text("The drawer of a General or flower must meld it (unless a higher "
                                                 "claim takes it), since Generals and flowers can never be "
                                                 "discarded."),
           "docs/rules.md#fl-must-take: Generals and flowers can never be discarded (decision where the seed is "
           "silent on an unclaimed drawn General or flower)", label=text("A drawn General or flower must be taken")),
)


@lru_cache(maxsize=64)
def _bga_melds(soldier_sets: bool, general_triple: bool) -> MeldRules:
    """bga-taiwan meld table (exposed / concealed)."""
    points = (("general", 1, 1), ("pair", 0, 0), ("triple", 1, 3), ("quad", 6, 8), ("general_quad", 8, 6),
              ("command", 2, 2), ("field", 1, 1), ("soldiers3", 3, 3), ("soldiers4", 5, 5))
    return MeldRules(points, general_quad=True, general_triple=general_triple, soldier_pairs=False,
                     soldier_sets=soldier_sets, flowers=False)


@lru_cache(maxsize=8)
def _flowers_melds(mixed: str) -> MeldRules:
    """cardavia-flowers meld table: no exposed/concealed difference; 4 Generals are 4 singles."""
    m = 1 if mixed == "by_size" else 0
    points = (("general", 1, 1), ("flower", 3, 3), ("pair", 0, 0), ("triple", 1, 1), ("quad", 2, 2),
              ("command", m, m), ("field", m, m), ("soldiers3", m, m), ("soldiers4", 2 * m, 2 * m))
    return MeldRules(points, general_quad=False, general_triple=False, soldier_pairs=True,
                     soldier_sets=True, flowers=True)


@dataclass(frozen=True)
class FourColorRuleSet:
    """A Four Color Cards rule-set: options, meld table, claim policy, settlement; every difference between the
    variants is a field here."""

    id: str
    title: str
    source: str
    options: tuple[Option, ...]
    min_seats: int
    max_seats: int
    priorities: Mapping[str, int]
    melds_of: Callable[[Mapping[str, Any]], MeldRules]
    #: Non-winning claims on a public card, and the class of a meld kind claimed by a seat role.
    claims_of: Callable[[FourColorHand, str, MeldRules, Mapping[str, Any]], list[Claim]]
    class_of: Callable[[str, str], str | None]
    #: The settlement of a hu and its payment rule: whether a win of h points is paid, whether anyone pays.
    settlement: Callable[..., Settlement]
    win_pays: Callable[[int, Mapping[str, Any]], bool]
    payments: Callable[[Mapping[str, Any]], bool]
    has_flowers: bool = False
    #: A lucky card is turned up after a hu (docs/rules.md#fc-lucky).
    lucky_card: bool = False
    #: The option that turns the drawer's must-take rule off, if any (docs/rules.md#fl-must-take).
    must_take_option: str | None = None
    #: The dealer is dealt one card more and starts by discarding (docs/rules.md#fc-deal); else he draws first.
    dealer_extra_card: bool = True
    #: A search's shaped deals: swaps per other seat and turn played (docs/advice.md#shaped-deals: tuned with
    #: bench/calibration.py --truth --steps on seed 6004).
    shaping_swaps: float = 0.0
    decisions: tuple[Decision, ...] = ()
    family: str = "fourcolor"
    game: str = "Four Color Cards"
    resting_size: int = RESTING_SIZE
    takes_context: bool = False
    event_types: tuple[str, ...] = EVENT_TYPES

    def resolve_options(self, given: Mapping[str, Any] | None) -> Mapping[str, Any]:
        """Defaults merged with `given`; raises InvalidOption."""
        return resolve_options(self.options, given)

    def meld_rules(self, options: Mapping[str, Any]) -> MeldRules:
        """The meld profile under these options."""
        return self.melds_of(options)

    def parse(self, options: Mapping[str, Any], hand: Sequence[object], exposed: Sequence[Mapping[str, object]] = (),
              public_card: object = None, extra: Mapping[str, object] | None = None) -> FourColorHand:
        """Validate a hand request."""
        return parse_hand(self.meld_rules(options), hand, exposed, public_card, extra)

    def legal_melds(self, hand: FourColorHand, options: Mapping[str, Any]) -> list[Meld]:
        """Every meld that the concealed cards can form."""
        return legal_melds(hand.concealed, self.meld_rules(options))

    def legal_claims(self, hand: FourColorHand, role: str, options: Mapping[str, Any]) -> tuple[list[Claim], bool]:
        """Legal claims on the public card for a seat role, and whether the drawer must take it."""
        if role not in ROLES:
            raise InvalidSeat(text("seat_role must be one of {roles}", roles=', '.join(ROLES)), "seat_role")
        if hand.public_card is None:
            raise DomainError(text("claims are made on a public card; give public_card"), "public_card",
                              code="missing_public_card")
        claims = self.claims_of(hand, role, self.meld_rules(options), options)
        forced = must_take(hand, role, self.has_flowers) and self.must_take_on(options)
        claims.sort(key=lambda c: (-c.priority, c.kind, c.meld.cards if c.meld else ()))
        return claims, forced

    def must_take_on(self, options: Mapping[str, Any]) -> bool:
        """Whether the drawer's must-take rule holds under these options."""
        return self.must_take_option is None or bool(options[self.must_take_option])

    def claim_class(self, kind: str, role: str) -> tuple[str, int] | None:
        """Priority class and rank of a non-winning claim of meld `kind` by a seat `role`, or None if barred."""
        cls = self.class_of(kind, role)
        return None if cls is None else (cls, self.priorities[cls])

    def hu(self, hand: FourColorHand, options: Mapping[str, Any]) -> HuResult:
        """Hu status with the best decomposition."""
        concealed_win = options.get("winning_meld_concealed", True)
        return evaluate_hu(hand, self.meld_rules(options), concealed_win)

    def check_seats(self, seats: int, winner: int | None = None) -> None:
        """Seat count within the rule-set's range, winner a seat index."""
        check_seats(self.id, self.min_seats, self.max_seats, seats, winner)

    def settle(self, hand: FourColorHand, options: Mapping[str, Any], seats: int, winner: int,
               lucky_card: object = None, context: Mapping[str, Any] | None = None) -> Settlement:
        """Round settlement of a hu; raises NotAWin for a hand that does not win."""
        self.check_seats(seats, winner)
        check_extras(self, lucky_card, context)
        lucky = None if lucky_card is None else parse_card(lucky_card, "lucky_card", False)
        return self.settle_hand(hand, self.meld_rules(options), options, seats, winner, lucky)

    def settle_hand(self, hand: FourColorHand, rules: MeldRules, options: Mapping[str, Any], seats: int, winner: int,
                    lucky: int | None = None) -> Settlement:
        """The settlement of a hand already checked (replays and playouts); `lucky` only where there is one."""
        return self.settlement(hand, rules, options, seats, winner, lucky if self.lucky_card else None)

    def objective(self, options: Mapping[str, Any]) -> str:
        """What a search ranks discards on: the expected settlement, or the win probability where nobody pays
        (docs/rules.md#fl-payment: no payments, a decision)."""
        return "expected_settlement" if self.payments(options) else "win_probability"

    def analyse_discards(self, hand: FourColorHand, options: Mapping[str, Any], visible: Sequence[object],
                         seats: int, history: object, ranking: Order) -> DiscardAnalysis:
        """Rank every legal discard of a hand that must discard by `ranking`; `visible` are the cards seen
        elsewhere (Four Color Cards has no `history`)."""
        if hand.public_card is not None or hand.card_count() != MAX_CARDS:
            raise DomainError(text("a discard decision is made with {cards} cards over hand and exposed melds (20 "
                                   "+ the card just taken, or the dealer's 21) and no public card; got {count}",
                                   cards=MAX_CARDS, count=hand.card_count()), "hand", code="wrong_card_count")
        self.check_seats(seats)
        seen = [self.parse_card(text, f"visible.{i}") for i, text in enumerate(visible)]
        flowers = self.has_flowers
        return analyse_discards(hand, self.meld_rules(options), options, unseen_counts(hand, seen, flowers), seats,
                                flowers, ranking)

    def history_of(self, raw: object) -> None:
        """Four Color Cards keeps no history of a player's moves."""
        return None

    def parse_card(self, text: object, field: str) -> int:
        """One card code of this deck, or InvalidCard naming `field`."""
        return parse_card(text, field, self.has_flowers)

    def card_parser(self) -> Callable[..., int]:
        """A fast card parser for long lists (`parse(text, *field_parts)`)."""
        return card_parser(self.has_flowers)

    def card_code(self, card: int) -> str:
        """The code of a card."""
        return code(card)

    def card_codes(self) -> tuple[str, ...]:
        """Every card code of the family (index = card)."""
        return ALL_CODES

    def deck(self) -> list[int]:
        """Every card of the deck, sorted (docs/rules.md#fc-cards; flowers: one of each)."""
        return deck(self.has_flowers)

    def deal_sizes(self, seats: int, dealer: int) -> list[int]:
        """Cards dealt to each seat (docs/rules.md#fc-deal: dealer 21, others 20; flowers: 20 each)."""
        extra = int(self.dealer_extra_card)
        return [self.resting_size + extra if s == dealer else self.resting_size for s in range(seats)]

    def check_copies(self, located: Sequence[tuple[int, str]]) -> None:
        """No card more often than the deck holds; the error names the field of the surplus copy."""
        check_copies(located)

    def parse_exposed(self, options: Mapping[str, Any], items: Sequence[Mapping[str, object]]) -> tuple[Meld, ...]:
        """Exposed melds alone (another seat's), validated."""
        return tuple(self.parse(options, [], items).exposed)

    def discardable(self, cards: Sequence[int], history: object = None) -> list[int]:
        """The cards of a concealed hand that may be discarded: never a General or a flower."""
        return discardable(cards)

    def describe(self) -> dict[str, Any]:
        """Cards, hand sizes, meld kinds with points, claim priorities and options for /v1/rulesets."""
        defaults = self.resolve_options(None)
        deck = self.deck()
        return {
            "id": self.id, "game": self.game, "title": self.title, "family": self.family,
            "source": self.source, "seats": {"min": self.min_seats, "max": self.max_seats},
            "hand_size": {"resting": self.resting_size, "turn": self.resting_size + 1},
            "cards": list(ALL_CODES if self.has_flowers else CHESS_CODES),
            "copies": {self.card_code(card): deck.count(card) for card in sorted(set(deck))},
            "melds": self.meld_rules(defaults).table(),
            "claim_priorities": [{"class": k, "rank": v} for k, v in self.priorities.items()],
            "seat_roles": list(ROLES),
            "options": [o.describe() for o in self.options],
            "decisions": [d.describe() for d in self.decisions],
        }


def fourcolor_ruleset(ruleset: RuleSet) -> FourColorRuleSet:
    """`ruleset` as the Four Color Cards rule-set it is, for code that serves this family alone."""
    if not isinstance(ruleset, FourColorRuleSet):
        raise TypeError(f"{ruleset.id} is not a Four Color Cards rule-set")
    return ruleset


BGA_TAIWAN = FourColorRuleSet(
    id="bga-taiwan", title="Four Color Cards, Taiwanese rules as on Board Game Arena",
    source="docs/rules.md#fourcolor; seeds 000 (it), 001 (uk)", options=BGA_OPTIONS, min_seats=2, max_seats=4,
    priorities={"hu": 3, "quad_triple": 2, "chi": 1},
    melds_of=lambda o: _bga_melds(o["same_colour_soldier_sets"], o["general_triple"]), decisions=BGA_DECISIONS,
    claims_of=bga_claims, class_of=bga_class, settlement=settle_bga, win_pays=bga_win_pays, payments=bga_payments,
    lucky_card=True, shaping_swaps=12.0,
)

CARDAVIA_FLOWERS = FourColorRuleSet(
    id="cardavia-flowers", title="Sì Sè Pái with Wei-Hwa Huang's five flower cards, as on Cardavia",
    source="docs/rules.md#fl-deal (flowers variant); seed 003 (pt)", options=FLOWERS_OPTIONS, min_seats=4,
    max_seats=4, priorities={"drawer_hu": 5, "hu": 4, "quad_triple": 3, "drawer_meld": 2, "next_mixed": 1},
    melds_of=lambda o: _flowers_melds(o["mixed_group_points"]),
    claims_of=flowers_claims, class_of=flowers_class, settlement=settle_flowers, win_pays=flowers_win_pays,
    payments=flowers_payments, has_flowers=True, must_take_option="must_take_drawn_general", dealer_extra_card=False,
    shaping_swaps=6.0,
)
