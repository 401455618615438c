"""The position of a deep search: what the player knows when he must discard, validated into engine values.

docs/rules.md#fc-deal and docs/rules.md#chan-deal: a Four Color Cards player holds 20 cards (hand + exposed melds)
between turns and 21 when he must discard; a Chắn player 19 and 20. So the other seats' concealed hands have 20 (Chắn:
19) cards minus their exposed ones. Everything else the player has not seen (the deck minus his cards, the visible cards
and every exposed meld) is either in those hands or in the stock; with `stock_remaining` only that many of them are in
the stock, the rest out of play (cards the player did not note). """

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..rules.chan.captures import History
from ..rules.errors import DomainError, ImpossibleCount, InvalidSeat
from ..rules.protocol import RuleSet
from ..rules.registry import all_rulesets
from ..rules.text import text


@dataclass(frozen=True)
class Position:
    """The player's view at his discard: his cards, what he has seen, the table, and the derived unseen cards."""

    ruleset: RuleSet
    options: Mapping[str, Any]
    hand: tuple[int, ...]  # concealed cards, sorted
    exposed: tuple[Any, ...]  # his exposed melds (Four Color `Meld`, Chắn `Pair`)
    visible: tuple[int, ...]  # discards and turned-up cards seen, outside every exposed meld
    seats: int
    seat: int
    opponents: tuple[tuple[Any, ...], ...]  # exposed melds of every seat by seat index (his own seat: ())
    stock_remaining: int | None
    history: History | None  # Chắn: his earlier moves (capture rules 3-6); None for Four Color
    unseen: tuple[int, ...]  # the deck minus everything above, sorted
    concealed_sizes: tuple[int, ...]  # cards in each seat's concealed hand (his own: len(hand))
    stock_size: int  # unseen cards in the stock; the others not in a hand are out of play

    @property
    def family(self) -> str:
        """`fourcolor` or `chan`."""
        return self.ruleset.family

    def code(self, card: int) -> str:
        """The code of a card of this rule-set."""
        return self.ruleset.card_code(card)

    def card(self, text: object, field: str = "candidates") -> int:
        """Parse a card code of this rule-set, naming `field` when it is not one."""
        return self.ruleset.parse_card(text, field)

    def legal_discards(self) -> list[int]:
        """The cards he may discard now (never a General or flower; Chắn capture rules 2, 3, 6, none from a dead
        hand)."""
        return self.ruleset.discardable(self.hand, self.history)

    def seen(self) -> list[int]:
        """Every card he has seen outside his own: the visible cards and the other seats' exposed melds."""
        return list(self.visible) + [c for melds in self.opponents for m in melds for c in m.cards]


def parse_position(ruleset: RuleSet, options: Mapping[str, Any], payload: Mapping[str, Any]) -> Position:
    """Validate a search request's position; every error is a DomainError naming the field (dotted path)."""
    hand_cards = _list(payload.get("hand"), "hand")
    exposed_raw = _list(payload.get("exposed", []), "exposed")
    hand = ruleset.parse(options, hand_cards, exposed_raw)
    concealed = hand.concealed_cards()
    _check_count(ruleset, concealed, hand.exposed)
    seats, seat = _seats(ruleset, payload)
    visible = tuple(ruleset.parse_card(t, f"visible.{i}") for i, t in enumerate(_list(payload.get("visible", []),
                                                                                 "visible")))
    opponents = _opponents(ruleset, options, payload.get("opponents", []), seats, seat)
    located = [(ruleset.parse_card(t, f"hand.{i}"), f"hand.{i}") for i, t in enumerate(hand_cards)]
    located += [(c, f"exposed.{i}.cards") for i, m in enumerate(hand.exposed) for c in m.cards]
    located += [(c, f"visible.{i}") for i, c in enumerate(visible)]
    located += [(c, f"opponents.{i}.exposed.{j}.cards") for i, (_, melds) in enumerate(opponents)
                for j, m in enumerate(melds) for c in m.cards]
    ruleset.check_copies(located)
    by_seat: list[tuple[Any, ...]] = [()] * seats
    for s, melds in opponents:
        by_seat[s] = melds
    sizes, unseen, stock = _rest(ruleset, concealed, by_seat, seat, [c for c, _ in located],
                                 payload.get("stock_remaining"))
    history = _history(ruleset, payload.get("history"))
    return Position(ruleset, options, tuple(sorted(concealed)), tuple(hand.exposed), visible, seats, seat,
                    tuple(tuple(m) for m in by_seat), payload.get("stock_remaining"), history, unseen, sizes, stock)


def position_of(ruleset: RuleSet, options: Mapping[str, Any], hand: Sequence[int], exposed: Sequence[Any],
                visible: Sequence[int], seats: int, seat: int, opponents: Sequence[Sequence[Any]],
                stock_remaining: int | None, history: History | None) -> Position:
    """A position from engine values (a replayed seat's view: `opponents` are the exposed melds by seat index),
    under the same checks as `parse_position`; the field an error names is that of the request it would be."""
    _check_count(ruleset, list(hand), exposed)
    by_seat = [tuple(() if s == seat else opponents[s]) for s in range(seats)]
    for s, melds in enumerate(by_seat):
        if _size(melds) >= ruleset.resting_size:
            raise ImpossibleCount(text("seat {seat} cannot have {exposed} exposed cards: a seat holds {resting_size} "
                                       "between turns", seat=s,
                                       exposed=_size(melds), resting_size=ruleset.resting_size), "opponents")
    known = [*hand, *(c for m in exposed for c in m.cards), *visible]
    known += [c for melds in by_seat for m in melds for c in m.cards]
    surplus = Counter(known) - Counter(ruleset.deck())
    if surplus:
        raise ImpossibleCount(text("{surplus} cards beyond the deck's copies (counted over hand, exposed melds, "
                                   "visible cards and the other seats' melds)",
                                   surplus=sum(surplus.values())), "visible")
    sizes, unseen, stock = _rest(ruleset, list(hand), by_seat, seat, known, stock_remaining)
    return Position(ruleset, options, tuple(sorted(hand)), tuple(exposed), tuple(visible), seats, seat, tuple(by_seat),
                    stock_remaining, history, unseen, sizes, stock)


def _check_count(ruleset: RuleSet, concealed: list[int], exposed: Sequence[Any]) -> None:
    """A player about to discard holds one card more than a seat between turns."""
    if len(concealed) + _size(exposed) != ruleset.resting_size + 1:
        raise ImpossibleCount(text("a player about to discard holds {cards} cards (hand + exposed); these are {count}",
                                   cards=ruleset.resting_size + 1,
                                   count=len(concealed) + _size(exposed)), "hand", code="wrong_card_count")


def _rest(ruleset: RuleSet, concealed: list[int], by_seat: Sequence[Sequence[Any]], seat: int, known: list[int],
          stock_remaining: object) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """The concealed hand sizes by seat, the unseen cards and the unseen cards in the stock."""
    sizes = [len(concealed) if s == seat else ruleset.resting_size - _size(by_seat[s]) for s in range(len(by_seat))]
    unseen = _unseen(ruleset, known)
    in_hands = sum(sizes) - len(concealed)
    if len(unseen) < in_hands:
        raise DomainError(text("only {n_unseen} cards are unseen but the other seats hold {in_hands} concealed cards: "
                               "too many visible cards",
                               n_unseen=len(unseen), in_hands=in_hands), "visible", code="impossible_card_count")
    return tuple(sizes), tuple(unseen), _stock_remaining(stock_remaining, len(unseen) - in_hands)


def _size(melds: Sequence[Any]) -> int:
    """Cards in some exposed melds."""
    return sum(len(m.cards) for m in melds)


def _list(value: object, field: str) -> list[Any]:
    """A JSON array, or a DomainError naming the field."""
    if not isinstance(value, list):
        raise DomainError(text("{field} must be an array", field=field), field, code="invalid_field")
    return value


def _integer(value: object, field: str) -> int:
    """An integer (not a boolean), or a DomainError naming the field."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise DomainError(text("{field} must be an integer", field=field), field, code="invalid_field")
    return value


def _seats(ruleset: RuleSet, payload: Mapping[str, Any]) -> tuple[int, int]:
    """The seat count of the table and the player's seat."""
    seats = _integer(payload.get("seats", 4), "seats")
    ruleset.check_seats(seats)
    seat = _integer(payload.get("seat", 0), "seat")
    if not 0 <= seat < seats:
        raise InvalidSeat(text("seat must be a seat index 0..{last}", last=seats - 1), "seat")
    return seats, seat


def _opponents(ruleset: RuleSet, options: Mapping[str, Any], raw: object, seats: int, seat: int
               ) -> list[tuple[int, tuple[Any, ...]]]:
    """The other seats' exposed melds: (seat, melds) per entry, each seat at most once, never the player's."""
    out: list[tuple[int, tuple[Any, ...]]] = []
    for i, item in enumerate(_list(raw, "opponents")):
        if not isinstance(item, Mapping):
            raise DomainError(text("an opponent must be an object with seat and exposed"), f"opponents.{i}",
                              code="invalid_field")
        other = _integer(item.get("seat"), f"opponents.{i}.seat")
        if not 0 <= other < seats or other == seat or any(other == s for s, _ in out):
            raise InvalidSeat(text("opponents.{i}.seat must be another seat index 0..{last}, each once (the player is "
                                   "seat {seat})", i=i, last=seats - 1, seat=seat), f"opponents.{i}.seat")
        melds = _exposed(ruleset, options, _list(item.get("exposed", []), f"opponents.{i}.exposed"), i)
        if _size(melds) >= ruleset.resting_size:
            raise ImpossibleCount(text("seat {other} cannot have {exposed} exposed cards: a seat holds {resting_size} "
                                       "between turns", other=other, exposed=_size(melds),
                                       resting_size=ruleset.resting_size), f"opponents.{i}.exposed")
        out.append((other, melds))
    return out


def _exposed(ruleset: RuleSet, options: Mapping[str, Any], items: list[Any], i: int) -> tuple[Any, ...]:
    """One opponent's exposed melds, errors re-named under `opponents.i.`."""
    try:
        if any(not isinstance(m, Mapping) for m in items):
            j = next(j for j, m in enumerate(items) if not isinstance(m, Mapping))
            raise DomainError(text("an exposed meld must be an object with kind and cards"), f"exposed.{j}",
                              code="invalid_meld")
        return ruleset.parse_exposed(options, items)
    except DomainError as error:
        field = "exposed" if error.field == "hand" else error.field
        raise type(error)(error.message, f"opponents.{i}.{field}", code=error.code) from None


def _unseen(ruleset: RuleSet, known: list[int]) -> list[int]:
    """The deck minus the known cards (the copies are checked), sorted."""
    left = Counter(ruleset.deck())
    left.subtract(known)
    return sorted(left.elements())


def _stock_remaining(value: object, most: int) -> int:
    """Cards in the stock: `stock_remaining` when given (at most the unseen cards outside the hands)."""
    if value is None:
        return most
    n = _integer(value, "stock_remaining")
    if not 0 <= n <= most:
        raise DomainError(text("stock_remaining must be 0..{most}: only {most} unseen cards are outside the other "
                               "seats' hands", most=most), "stock_remaining", code="impossible_card_count")
    return n


def _history(ruleset: RuleSet, raw: object) -> History | None:
    """Chắn: the player's history (capture rules 3-6); Four Color has none."""
    if ruleset.history_of(None) is None:
        if raw:
            where = ", ".join(r.id for r in all_rulesets() if r.history_of(None) is not None)
            raise DomainError(text("history is a {where} field", where=where), "history", code="invalid_field")
        return None
    if raw is not None and not isinstance(raw, Mapping):
        raise DomainError(text("history must be an object"), "history", code="invalid_field")
    for name in ("discarded", "passed_identical", "played_into_ca"):
        if raw and raw.get(name) is not None and not isinstance(raw.get(name), list):
            raise DomainError(text("history.{name} must be an array",
                                   name=name), f"history.{name}", code="invalid_field")
    return ruleset.history_of(raw)
