"""The game-log frame of docs/rules.md#logs, validated into engine values.

Structural errors (unknown cards, impossible counts, wrong deal sizes) raise DomainError naming the field:
such a log cannot be replayed at all. Illegal moves are not errors here; the audit reports them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..rules.errors import DomainError, ImpossibleCount, InvalidSeat, shown
from ..rules.protocol import RuleSet
from ..rules.registry import get_ruleset

MAX_EVENTS = 2000


class Event(NamedTuple):
    """One event of the log, its cards parsed (a tuple: logs hold thousands of events)."""

    index: int  # type: ignore[assignment]  # the event's place in the log, shadowing tuple.index
    seat: int
    type: str
    card: int | None = None
    meld: str | None = None
    cards: tuple[int, ...] | None = None


@dataclass(frozen=True)
class GameLog:
    """A validated round log."""

    ruleset: RuleSet
    options: Mapping[str, Any]
    seats: int
    dealer: int
    hands: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...] | None
    events: tuple[Event, ...]
    result: Mapping[str, Any] | None


class LogError(DomainError):
    """A log that cannot be replayed: its frame is malformed."""

    code = "invalid_log"


def deal_sizes(ruleset: RuleSet, seats: int, dealer: int) -> list[int]:
    """Cards dealt to each seat (docs/rules.md#fc-deal: bga dealer 21 / 20; flowers 20; Chắn dealer 20 / 19)."""
    return ruleset.deal_sizes(seats, dealer)


def parse_log(raw: Mapping[str, Any]) -> GameLog:
    """Validate a log document into a GameLog; raise DomainError naming the first bad field."""
    ruleset = get_ruleset(raw.get("ruleset"))
    options = ruleset.resolve_options(raw.get("options"))
    seats, dealer = raw.get("seats"), raw.get("dealer", 0)
    if not isinstance(seats, int) or isinstance(seats, bool):
        raise InvalidSeat("seats must be an integer", "seats")
    ruleset.check_seats(seats)
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < seats:
        raise InvalidSeat(f"dealer must be a seat index 0..{seats - 1}", "dealer")
    card = ruleset.card_parser()
    hands = _hands(raw.get("hands"), ruleset, seats, dealer, card)
    stock = None
    if raw.get("stock") is not None:
        cards = _list(raw["stock"], "stock")
        if len(cards) > sum(_deck_limits(ruleset).values()):  # before any card is parsed
            raise ImpossibleCount(f"a stock of {len(cards)} cards; the deck has fewer", "stock")
        stock = tuple(card(t, "stock", i) for i, t in enumerate(cards))
    _check_deck(ruleset, hands, stock)
    raw_events = _list(raw.get("events"), "events")
    if len(raw_events) > MAX_EVENTS:  # checked before any work: a huge log is refused at once
        raise LogError(f"{len(raw_events)} events; at most {MAX_EVENTS} per round", "events", code="too_many_events")
    events = tuple(_event(i, e, ruleset, seats, card) for i, e in enumerate(raw_events))
    result = _result(raw.get("result"), seats)
    return GameLog(ruleset, options, seats, dealer, hands, stock, events, result)


def _is_int(value: object) -> bool:
    """A JSON integer, strictly (not 1.0, "1" or true)."""
    return type(value) is int


def _result(result: object, seats: int) -> Mapping[str, Any] | None:
    """The recorded result: an object whose `winner` and `points` are integers or null, `deltas` one integer
    per seat or null."""
    if result is None:
        return None
    if not isinstance(result, Mapping):
        raise LogError("result must be an object", "result")
    for name in ("winner", "points"):
        if result.get(name) is not None and not _is_int(result[name]):
            raise LogError(f"result.{name} must be an integer", f"result.{name}")
    deltas = result.get("deltas")
    if deltas is not None and not (isinstance(deltas, list) and len(deltas) == seats and all(map(_is_int, deltas))):
        raise LogError(f"result.deltas must be {seats} integers, one per seat", "result.deltas")
    return result


def _list(value: object, field: str) -> Sequence[Any]:
    """A JSON array, or LogError."""
    if not isinstance(value, list):
        raise LogError(f"{field} must be an array", field)
    return value


def _hands(raw: object, ruleset: RuleSet, seats: int, dealer: int, card: Callable) -> tuple[tuple[int, ...], ...]:
    """The initial deal, one hand per seat, of the sizes the rules deal."""
    hands = _list(raw, "hands")
    if len(hands) != seats:
        raise LogError(f"hands has {len(hands)} entries for {seats} seats", "hands")
    sizes = deal_sizes(ruleset, seats, dealer)
    out = []
    for s, hand in enumerate(hands):
        codes = _list(hand, f"hands.{s}")
        if len(codes) != sizes[s]:  # before any card is parsed
            raise LogError(f"seat {s} was dealt {len(codes)} cards; {ruleset.id} deals {sizes[s]}", f"hands.{s}",
                           code="wrong_deal_size")
        out.append(tuple(card(t, "hands", s, i) for i, t in enumerate(codes)))
    return tuple(out)


def _deck_codes(ruleset: RuleSet) -> Sequence[str]:
    """Every card code of the log's game family."""
    return ruleset.card_codes()


def _deck_limits(ruleset: RuleSet) -> dict[str, int]:
    """Copies of each card code in the deck (flowers: one)."""
    return {c: (1 if c.startswith("F") else 4) for c in _deck_codes(ruleset)}


def _check_deck(ruleset: RuleSet, hands: tuple[tuple[int, ...], ...], stock: tuple[int, ...] | None) -> None:
    """No card more often than the deck holds, over every hand and the stock."""
    codes, limits = _deck_codes(ruleset), _deck_limits(ruleset)
    everything = [c for h in hands for c in h] + list(stock or ())
    if all(everything.count(c) <= limits[codes[c]] for c in set(everything)):
        return
    seen: dict[int, int] = {}
    located = [(c, f"hands.{s}.{i}") for s, h in enumerate(hands) for i, c in enumerate(h)]
    located += [(c, f"stock.{i}") for i, c in enumerate(stock or ())]
    for c, field in located:
        seen[c] = seen.get(c, 0) + 1
        if seen[c] > limits[codes[c]]:
            raise ImpossibleCount(f"{codes[c]} appears {seen[c]} times over the deal and the stock; the deck has "
                                  f"{limits[codes[c]]}", field)


def _event(i: int, raw: object, ruleset: RuleSet, seats: int, card: Callable) -> Event:
    """One event: a known type for the family, a seat, and well-formed cards."""
    if not isinstance(raw, Mapping):
        raise LogError("an event must be an object", f"events.{i}")
    kind, seat = raw.get("type"), raw.get("seat")
    one, cards, meld = raw.get("card"), raw.get("cards"), raw.get("meld")
    if (kind in ruleset.event_types and type(seat) is int and 0 <= seat < seats
            and (meld is None or type(meld) is str) and (cards is None or type(cards) is list)):
        return Event(i, seat, kind, None if one is None else card(one, "events", i, "card"), meld,
                     None if cards is None else tuple(card(t, "events", i, "cards", j) for j, t in enumerate(cards)))
    field = f"events.{i}"
    if kind not in ruleset.event_types:
        raise LogError(f"unknown event type {shown(kind)}; {ruleset.id} has {', '.join(ruleset.event_types)}",
                       f"{field}.type")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < seats:
        raise LogError(f"seat must be a seat index 0..{seats - 1}", f"{field}.seat")
    if meld is not None and not isinstance(meld, str):
        raise LogError("meld must be a string", f"{field}.meld")
    raise LogError("cards must be an array", f"{field}.cards")
