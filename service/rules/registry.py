"""Rule-set registry: every rule-set registers itself by id; callers look it up here.

The rule-set object is the one seam between a variant and the rest of the service: the API, the search and the
replay ask it (never its id) how to parse cards, hands and options, what a hu, a claim, a settlement and a deck
are, and what a search ranks discards on. A new variant is a new registered object; nothing outside its family's
package names it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, Protocol

from .analysis import ClaimAnalysis, DiscardAnalysis
from .errors import InvalidSeat, NotInRuleset, UnknownRuleset, shown

ENGINE_VERSION = "0.1.0"


class RuleSet(Protocol):
    """What every registered rule-set offers; families add their own operations."""

    id: str
    family: str
    game: str
    #: Cards a seat holds (hand + exposed) between turns; the player about to discard holds one more.
    resting_size: int
    has_flowers: bool
    #: A lucky card is turned up after a hu (the settlement takes `lucky_card`).
    lucky_card: bool
    #: A win's context flags are part of the settlement (the settlement takes `context`).
    takes_context: bool
    #: The event types of a game log.
    event_types: tuple[str, ...]

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
                         history: Any = None) -> DiscardAnalysis:
        """The exact ranking of every legal discard."""

    def analyse_claims(self, hand: Any, options: Mapping[str, Any], role: str, visible: Sequence[object], seats: int,
                       source: str = "discard", history: Any = None) -> ClaimAnalysis:
        """Pass, every legal claim on the hand's public card (with its follow-up discard) and a win, ranked best
        first by `analysis.claim_rank_key`; `hand` is the seat's resting hand with `public_card` set."""

    def objective(self, options: Mapping[str, Any]) -> str:
        """What a search ranks discards on: `expected_settlement`, or `win_probability` where nobody pays."""


_REGISTRY: dict[str, RuleSet] = {}
_LOADED = False


def register(ruleset: RuleSet) -> RuleSet:
    """Add a rule-set under its id (import time of its module; no I/O)."""
    _REGISTRY[ruleset.id] = ruleset
    return ruleset


def unregister(ruleset_id: str) -> None:
    """Remove a rule-set (a variant registered for a while, as in tests)."""
    _REGISTRY.pop(ruleset_id, None)


@contextmanager
def registered(ruleset: RuleSet) -> Iterator[RuleSet]:
    """A rule-set registered for the duration of a `with` block."""
    _load()
    register(ruleset)
    try:
        yield ruleset
    finally:
        unregister(ruleset.id)


def get_ruleset(ruleset_id: object) -> RuleSet:
    """The rule-set registered under `ruleset_id`, or UnknownRuleset naming the field."""
    _load()
    if not isinstance(ruleset_id, str) or ruleset_id not in _REGISTRY:
        known = ", ".join(sorted(_REGISTRY))
        raise UnknownRuleset(f"unknown rule-set {shown(ruleset_id)}; known: {known}", "ruleset")
    return _REGISTRY[ruleset_id]


def all_rulesets() -> list[RuleSet]:
    """Every registered rule-set, by id."""
    _load()
    return [_REGISTRY[k] for k in sorted(_REGISTRY)]


def check_seats(ruleset_id: str, least: int, most: int, seats: int, winner: int | None = None) -> None:
    """`seats` within least..most players, `winner` a seat index; else InvalidSeat naming the field."""
    if not least <= seats <= most:
        span = f"{least}" if least == most else f"{least}-{most}"
        raise InvalidSeat(f"{ruleset_id} is played by {span} players", "seats")
    if winner is not None and not 0 <= winner < seats:
        raise InvalidSeat(f"winner must be a seat index 0..{seats - 1}", "winner")


def check_extras(ruleset: RuleSet, lucky_card: object, context: object) -> None:
    """A settlement's `lucky_card` and `context` only where the rule-set has them; else NotInRuleset."""
    for field, given, has in (("lucky_card", lucky_card, "lucky_card"), ("context", context, "takes_context")):
        if given is not None and not getattr(ruleset, has):
            where = ", ".join(r.id for r in all_rulesets() if getattr(r, has))
            raise NotInRuleset(f"{field} exists only in {where}", field)


def _load() -> None:
    """Import the rule-set packages once so they register (cheap; tables are built lazily), whichever family's
    module was imported first."""
    global _LOADED
    if not _LOADED:
        from .chan import rulesets as _chan  # noqa: F401
        from .fourcolor import rulesets  # noqa: F401

        _LOADED = True
