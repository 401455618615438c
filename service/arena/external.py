"""`external:COMMAND`: a policy played by an outside program over the bot protocol (docs/bots.md).

The seat's player turns each decision into a request with the seat's whole view in card codes and the moves the
engine offers, reads the bot's answer and hands the engine the move it names; an answer that is not among those
offered stops the run (`BotError`, naming the bot, the deal, the rotation, the seat and the decision). The bot's
process (`bots.bot_for`) lives for the run; every round begins with a `start_round` and ends with an `end_round`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from ..replay.decisions import SeatView
from .bots import PROTOCOL, BotError, BotProcess, bot_for, drop
from .seat import claim_cards
from .seating import Seating

PREFIX = "external:"


def is_external(name: str) -> bool:
    """Whether a policy name is an outside program's (`external:COMMAND`)."""
    return name.startswith(PREFIX)


def command_of(name: str) -> str:
    """The command of an `external:COMMAND` policy; ValueError when it is empty."""
    command = name.removeprefix(PREFIX).strip()
    if not command:
        raise ValueError(f"policy {name!r} names no command: write external:COMMAND, e.g. external:./mybot")
    return command


class ExternalPlayer:
    """One seat of one round played by an outside bot."""

    def __init__(self, command: str, seating: Seating) -> None:
        self.command, self.seating = command, seating
        self.bot: BotProcess | None = None
        self.driver: Any = None
        self.timeout = 0.0
        self.decisions = 0

    def begin(self, driver: Any, timeout: float) -> None:
        """The round starts: greet the seat's bot if it is new, and tell it the round."""
        self.driver, self.timeout = driver, timeout
        rs, seat = driver.rs, self.seating.seat
        code = rs.card_code
        hello = {"type": "hello", "protocol": PROTOCOL, "ruleset": rs.id, "options": dict(driver.options),
                 "seats": driver.seats, "seat": seat, "deck": [code(c) for c in rs.deck()]}
        self.bot = self.guarded(lambda: bot_for(self.command, seat, hello))
        self.send({"type": "start_round", "seed": self.seating.seed, "deal": self.seating.deal,
                   "rotation": self.seating.rotation, "dealer": driver.dealer, "seat": seat})

    def end(self, log: dict[str, Any]) -> None:
        """The round is over: tell the bot its result and the whole log."""
        self.send({"type": "end_round", "deal": self.seating.deal, "rotation": self.seating.rotation,
                   "result": log["result"], "log": log})

    def discard(self, view: SeatView) -> int:
        """The bot's discard, one of the legal ones."""
        code = view.ruleset.card_code
        legal = sorted(set(view.ruleset.discardable(view.hand, view.history)))
        codes = [code(c) for c in legal]
        answer = self.ask({"type": "discard", "view": view_json(view), "legal": codes})
        chosen = answer.get("discard")
        if not isinstance(chosen, str) or chosen not in codes:
            raise self.error(f"answered discard {chosen!r}, not one of the legal discards {codes}")
        return legal[codes.index(chosen)]

    def claim(self, view: SeatView, card: int, source: str, role: str, legal: Sequence[Any], forced: bool) -> Any:
        """The bot's answer to the public card: one of the offered claims, or None to pass where passing is
        allowed."""
        code = view.ruleset.card_code
        offered = [{"kind": c.kind, "cards": [code(x) for x in claim_cards(view, c)]} for c in legal]
        answer = self.ask({"type": "claim", "view": view_json(view), "card": code(card), "source": source,
                           "from": self.origin(), "role": role, "claims": offered, "pass": not forced})
        if "claim" not in answer:
            raise self.error("answered a claim request without 'claim'")
        index = answer["claim"]
        if index is None and not forced:
            return None
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(legal):
            allowed = f"0..{len(legal) - 1}" + ("" if forced else " or null")
            raise self.error(f"answered claim {index!r}, not {allowed}" + (" (the take is forced)" if forced else ""))
        return legal[index]

    def origin(self) -> int:
        """The seat that put the card on offer: the last draw or discard of the round so far."""
        return next(e["seat"] for e in reversed(self.driver.events) if e["type"] in ("draw", "discard"))

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        """Ask the bot for its next decision of the round."""
        self.decisions += 1
        bot = self.bot
        if bot is None:
            raise RuntimeError("a round with an external player is played through `play_watched`")
        return self.guarded(lambda: bot.ask({**request, "decision": self.decisions}, self.timeout))

    def send(self, message: dict[str, Any]) -> None:
        """Tell the bot something it does not answer."""
        bot = self.bot
        assert bot is not None
        self.guarded(lambda: bot.send(message))

    def guarded(self, action: Any) -> Any:
        """Run a protocol step; a bot that fails it is killed and the error says where."""
        try:
            return action()
        except BotError as error:
            if self.bot is not None:
                drop(self.bot)
            raise self.error(str(error)) from None

    def error(self, what: str) -> BotError:
        """The run-stopping error of this bot at this decision; the bot is killed."""
        if self.bot is not None and self.bot.process.poll() is None:
            drop(self.bot)
        s = self.seating
        return BotError(f"bot {self.command!r} (deal {s.deal}, rotation {s.rotation}, seat {s.seat}, decision "
                        f"{self.decisions}): {what}")


def view_json(view: SeatView) -> dict[str, Any]:
    """The seat's view in card codes: its hand, every seat's exposed melds, the visible cards, the stock left and
    its history."""
    code = view.ruleset.card_code
    melds = [view.exposed if s == view.seat else view.opponents[s] for s in range(view.seats)]
    return {"seat": view.seat, "hand": [code(c) for c in view.hand],
            "melds": [[{"kind": m.kind, "cards": [code(c) for c in m.cards]} for m in seat] for seat in melds],
            "visible": [code(c) for c in view.visible], "stock_remaining": view.stock_remaining,
            "history": history_json(view.history, code)}


def history_json(history: Any, code: Any) -> dict[str, Any] | None:
    """The seat's history field by field (sets of cards as sorted codes), or None where none is kept."""
    if history is None or not dataclasses.is_dataclass(history):
        return None
    out: dict[str, Any] = {}
    for f in dataclasses.fields(history):
        value = getattr(history, f.name)
        out[f.name] = [code(c) for c in sorted(value)] if isinstance(value, (set, frozenset, tuple)) else value
    return out


def play_watched(driver: Any, players: Sequence[Any], timeout: float) -> dict:
    """Play the round's driver to its log, telling every external player when the round begins and ends."""
    outside = [p for p in players if isinstance(p, ExternalPlayer)]
    for player in outside:
        player.begin(driver, timeout)
    log = driver.play()
    for player in outside:
        player.end(log)
    return dict(log)
