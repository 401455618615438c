"""What the turn state machines of both game families share: violations, the discard turn and the stock."""

from __future__ import annotations

from typing import Any

from ..rules.text import Text, text
from .log import Event, GameLog
from .violations import CODES, Violation


class Stop(Exception):
    """Replay cannot go on: the state no longer makes sense."""


class TurnReplay:
    """Base of a family's replay: subclasses keep the hands and decide claims; this keeps the bookkeeping."""

    def __init__(self, log: GameLog) -> None:
        self.log, self.options, self.seats = log, log.options, log.seats
        self.violations: list[Violation] = []
        self.outcome: dict[str, Any] | None = None
        self.drawn = 0
        self.to_discard: int | None = None
        self.losers: set[int] = set()

    def flag(self, event: Event | None, code_: str, message: Text) -> None:
        """Record a violation; stop when the state no longer makes sense."""
        self.violations.append(Violation(None if event is None else event.index,
                                         None if event is None else event.seat, code_, message))
        if not CODES[code_][1]:
            raise Stop(code_)

    def discarded_card(self, event: Event, waiting: Text) -> int:
        """The card of a discard, after checking it is this seat's turn to discard (`waiting`: what the table
        waits for instead when nobody is to discard)."""
        if self.to_discard is None:
            self.flag(event, "out_of_turn", text("nobody is to discard now: {waiting}", waiting=waiting))
        if event.seat != self.to_discard:
            if event.seat in self.losers:
                self.flag(event, "lower_priority_claim",
                          text("seat {seat}'s claim lost to seat {winner}'s higher-priority claim", seat=event.seat,
                               winner=self.to_discard))
            self.flag(event, "out_of_turn", text("seat {due} is to discard, not seat {seat}", due=self.to_discard,
                                                   seat=event.seat))
        if event.card is None:
            self.flag(event, "not_in_hand", text("a discard needs a card"))
            raise Stop("not_in_hand")
        return event.card

    def discarding(self, event: Event, card: int) -> None:
        """Hook: the seat to discard is about to discard `card`, still in his hand (review subclasses)."""

    def stock_card(self, event: Event, show: Any) -> int:
        """The card a draw turns up: the next stock card; a different card shown is `draw_mismatch`."""
        stock = self.log.stock
        if stock is not None and self.drawn >= len(stock):
            self.flag(event, "stock_exhausted", text("the stock is exhausted: the round is a draw"))
        card = event.card if event.card is not None else (stock[self.drawn] if stock is not None else None)
        if card is None:
            self.flag(event, "draw_mismatch", text("a draw needs a card when the log has no stock"))
            raise Stop("draw_mismatch")
        if stock is not None and card != stock[self.drawn]:
            self.flag(event, "draw_mismatch", text("drew {card} but the next stock card is {next}",
                                                        card=show(card), next=show(stock[self.drawn])))
        self.drawn += 1
        return card
