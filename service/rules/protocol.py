"""The rule-set seam: what every rule-set object offers (`RuleSet`) and the checks the families share.

The rule-set object is the one seam between a variant and the rest of the service: the API, the search and the
replay ask it (never its id) how to parse cards, hands and options, what a hu, a claim, a settlement and a deck
are, what a search ranks discards on, and the exact analysis of a hand's discards under an order it is given (the
advice, service/advice/, gives its own, and ranks the answers to a public card itself). The families import this
module; the registry imports the families and lists their objects as `RuleSet`s, so the type checker holds every
family to this protocol.

A family's own hand, meld, history and settlement types appear here as `Any`: each family has its own, and the
callers hand back to a rule-set only what it gave them. Keeping the protocol non-generic keeps the registry a plain
`tuple[RuleSet, ...]`; the families' methods are precisely typed in their own modules.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol

from .analysis import DiscardAnalysis, Order
from .errors import InvalidSeat, NotInRuleset
from .text import text


class RuleSet(Protocol):
    """What every registered rule-set offers; families add their own operations."""

    # Read-only: the families are frozen dataclasses.
    @property
    def id(self) -> str:
        """The rule-set's id (`bga-taiwan`)."""

    @property
    def family(self) -> str:
        """The game family (`fourcolor`, `chan`)."""

    @property
    def game(self) -> str:
        """The game's name."""

    @property
    def resting_size(self) -> int:
        """Cards a seat holds (hand + exposed) between turns; the player about to discard holds one more."""

    @property
    def has_flowers(self) -> bool:
        """The deck holds flower cards."""

    @property
    def lucky_card(self) -> bool:
        """A lucky card is turned up after a hu (the settlement takes `lucky_card`)."""

    @property
    def shaping_swaps(self) -> float:
        """Swaps per other seat and turn played that a search's shaped deal improves a hand by
        (service/search/shaping.py; 0: uniform deals)."""

    @property
    def takes_context(self) -> bool:
        """A win's context flags are part of the settlement (the settlement takes `context`)."""

    @property
    def event_types(self) -> tuple[str, ...]:
        """The event types of a game log."""

    def resolve_options(self, given: Mapping[str, Any] | None) -> Mapping[str, Any]:
        """Defaults merged with `given`; raises InvalidOption."""

    def describe(self) -> dict[str, Any]:
        """Cards, meld kinds, points and options for /v1/rulesets."""

    def meld_rules(self, options: Mapping[str, Any]) -> Any:
        """The meld profile under these options (None where melds carry no points)."""

    def parse(self, options: Mapping[str, Any], hand: Sequence[object], exposed: Sequence[Mapping[str, object]] = (),
              public_card: object = None, extra: Mapping[str, object] | None = None) -> Any:
        """Validate a hand request into the family's hand."""

    def parse_exposed(self, options: Mapping[str, Any], items: Sequence[Mapping[str, object]]) -> tuple[Any, ...]:
        """Exposed melds alone (another seat's), validated."""

    def parse_card(self, text: object, field: str) -> int:
        """One card code of the deck, or InvalidCard naming `field`."""

    def card_parser(self) -> Callable[..., int]:
        """A fast card parser for long lists: `parse(text, *field_parts)`."""

    def card_code(self, card: int) -> str:
        """The code of a card."""

    def card_codes(self) -> Sequence[str]:
        """Every card code of the family, indexed by card."""

    def deck(self) -> list[int]:
        """Every card of the deck, sorted."""

    def deal_sizes(self, seats: int, dealer: int) -> list[int]:
        """Cards dealt to each seat."""

    def check_copies(self, located: Sequence[tuple[int, str]]) -> None:
        """No card more often than the deck holds; the error names the field of the surplus copy."""


    def check_seats(self, seats: int, winner: int | None = None) -> None:
        """Seat count within the rule-set's range, winner a seat index; raises InvalidSeat."""

    def history_of(self, raw: object) -> Any:
        """A player's earlier moves as the claims and discards need them (None where none are kept)."""

    def legal_melds(self, hand: Any, options: Mapping[str, Any]) -> list[Any]:
        """Every meld (pair) the concealed cards can form."""

    def discardable(self, cards: Sequence[int], history: Any = None) -> list[int]:
        """The cards of a concealed hand that may be discarded at a turn in play."""

    def hu(self, hand: Any, options: Mapping[str, Any]) -> Any:
        """The win test with the best decomposition."""

    def settle(self, hand: Any, options: Mapping[str, Any], seats: int, winner: int, lucky_card: object = None,
               context: Mapping[str, Any] | None = None) -> Any:
        """Points and per-seat deltas of a win (`melds`, `lucky_bonus`, `bonuses`, `breakdown`, `deltas`)."""

    def analyse_discards(self, hand: Any, options: Mapping[str, Any], visible: Sequence[object], seats: int,
                         history: Any, ranking: Order) -> DiscardAnalysis:
        """The exact analysis of every legal discard, ranked by `ranking` (the advice's entry point,
        service/advice/analyse.py, gives its order)."""

    def objective(self, options: Mapping[str, Any]) -> str:
        """What a search ranks discards on: `expected_settlement`, or `win_probability` where nobody pays."""


def check_seats(ruleset_id: str, least: int, most: int, seats: int, winner: int | None = None) -> None:
    """`seats` within least..most players, `winner` a seat index; else InvalidSeat naming the field."""
    if not least <= seats <= most:
        span = f"{least}" if least == most else f"{least}-{most}"
        raise InvalidSeat(text("{ruleset_id} is played by {span} players", ruleset_id=ruleset_id, span=span), "seats")
    if winner is not None and not 0 <= winner < seats:
        raise InvalidSeat(text("winner must be a seat index 0..{last}", last=seats - 1), "winner")


def check_extras(ruleset: RuleSet, lucky_card: object, context: object, known: Iterable[RuleSet] = ()) -> None:
    """A settlement's `lucky_card` and `context` only where the rule-set has them; else NotInRuleset naming the
    rule-sets among `known` that have the field (the registry passes all of them), or `ruleset` itself."""
    for field, given, has in (("lucky_card", lucky_card, "lucky_card"), ("context", context, "takes_context")):
        if given is not None and not getattr(ruleset, has):
            where = ", ".join(r.id for r in known if getattr(r, has))
            raise NotInRuleset(text("{field} exists only in {where}", field=field, where=where) if where
                                else text("{ruleset} has no {field}", ruleset=ruleset.id, field=field), field)
