"""The seats of a played round: the deal, the players who decide, and what each seat is shown.

A round driver (`simulate_fourcolor.FourColorRound`, `simulate_chan.ChanRound`) owns the rules: it asks the
engine what is legal, sends every decision a seat makes to that seat's `Player` with the seat's `SeatView`, checks
the answer against what it offered, and writes the round as a game log (docs/rules.md#logs). A player only chooses.

What a seat is shown (`Table.view`): its concealed cards and exposed melds, every public card seen outside an
exposed meld (a claimed card lies in its claimant's meld), the other seats' exposed melds, the cards left in the
stock and (Chắn) its own history. When it answers a public card, that card is given apart and is not among the
visible cards.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

from ..rules.protocol import RuleSet
from .decisions import SeatView


class Dealt(NamedTuple):
    """A deal: the dealer, each seat's cards and the stock, as card codes in the order the log records them."""

    dealer: int
    hands: tuple[tuple[str, ...], ...]
    stock: tuple[str, ...]


def shuffled_deal(deck: Sequence[str], ruleset: RuleSet, rng: Any, seats: int) -> Dealt:
    """`deck` (card codes) shuffled by `rng`, then a dealer drawn by it, and the rule-set's deal sizes cut from the
    top in seat order; the rest is the stock."""
    cards = list(deck)
    rng.shuffle(cards)
    dealer = rng.randrange(seats)
    hands, at = [], 0
    for n in ruleset.deal_sizes(seats, dealer):
        hands.append(tuple(cards[at:at + n]))
        at += n
    return Dealt(dealer, tuple(hands), tuple(cards[at:]))


class Player(Protocol):
    """Whoever decides for a seat. Both methods get the seat's view; neither changes it."""

    def discard(self, view: SeatView) -> int:
        """The card to discard: one of `view.ruleset.discardable(view.hand, view.history)`."""

    def claim(self, view: SeatView, card: int, source: str, role: str, legal: Sequence[Any],
              forced: bool) -> Any | None:
        """One of the `legal` claims (the engine's objects) on public `card`, or None to pass; when `forced` the
        drawer must take the card and passing is not allowed."""


class IllegalMove(RuntimeError):
    """A player answered with a move the round did not offer (a bug in that player, never in the game)."""


def checked_claim(player: Player, view: SeatView, card: int, source: str, role: str, legal: Sequence[Any],
                  forced: bool) -> Any | None:
    """The player's claim, checked: one of `legal` (the same object), or None unless the take is forced."""
    choice = player.claim(view, card, source, role, legal, forced)
    if choice is None and not forced:
        return None
    if not any(choice is c for c in legal):
        raise IllegalMove(f"seat {view.seat} answered {choice!r}, not one of the {len(legal)} legal claims"
                          + (" (the take is forced)" if forced else ""))
    return choice


def checked_discard(player: Player, view: SeatView, legal: Sequence[int]) -> int:
    """The player's discard, checked against the legal discards."""
    card = player.discard(view)
    if card not in legal:
        raise IllegalMove(f"seat {view.seat} discarded {card!r}, not a legal discard {sorted(set(legal))}")
    return card


class Table:
    """Mixin of a round driver: the public cards seen so far and each seat's view. The driver keeps `rs`,
    `options`, `seats`, `exposed`, `stock`, `drawn` and says how it holds a seat's cards (`concealed`) and history
    (`history_of`)."""

    rs: RuleSet
    options: Any
    seats: int
    exposed: list[list[Any]]
    stock: Sequence[str]
    drawn: int

    def init_table(self) -> None:
        self.shown: list[int] = []  # public cards seen and not claimed

    def concealed(self, seat: int) -> list[int]:
        """The seat's concealed cards, sorted."""
        raise NotImplementedError

    def history_of(self, seat: int) -> Any:
        """The seat's history as its rules keep it (None where none is kept)."""
        return None

    def view(self, seat: int, public: int | None = None) -> SeatView:
        """What the seat knows now; `public` is the card it is answering, given apart from the visible cards."""
        visible = list(self.shown)
        if public is not None and public in visible:
            visible.remove(public)
        opponents = tuple(() if s == seat else tuple(melds) for s, melds in enumerate(self.exposed))
        return SeatView(self.rs, self.options, tuple(self.concealed(seat)), tuple(self.exposed[seat]),
                        tuple(visible), self.seats, seat, opponents, len(self.stock) - self.drawn,
                        self.history_of(seat))


@dataclass(frozen=True)
class SimulatedStyle:
    """What the test bed's players do differently by family: the kind of a win claim, how often `random` takes a
    claim it may pass, the cards a discard is drawn from and the loose cards `greedy` prefers to let go."""

    win: str  # the claim kind of a win ("hu", Chắn "win")
    take_odds: float  # `random` makes a claim with this probability
    discards: Callable[[SeatView], list[int]]  # the cards a discard is drawn from (repeats weigh the odds)
    loose: Callable[[SeatView], set[int]]  # cards in no meld of the hand (Chắn: unpaired)


class SimulatedPlayer:
    """The test bed's players, sharing the round's random source: `greedy` always wins and makes the first legal
    claim and discards a loose card; `random` always wins, takes a forced card as the engine lists it first,
    otherwise claims or passes at random and discards at random."""

    def __init__(self, rng: Any, greedy: bool, style: SimulatedStyle) -> None:
        self.rng, self.greedy, self.style = rng, greedy, style

    def claim(self, view: SeatView, card: int, source: str, role: str, legal: Sequence[Any], forced: bool) -> Any:
        """A win when there is one; else the first claim (greedy or forced) or a random one or none."""
        wins = [c for c in legal if c.kind == self.style.win]
        if wins:
            return wins[0]
        if forced or self.greedy:
            return legal[0]
        return self.rng.choice(legal) if self.rng.random() < self.style.take_odds else None

    def discard(self, view: SeatView) -> int:
        """A random legal discard (greedy: a loose one where there is one)."""
        options = self.style.discards(view)
        if self.greedy:
            loose = self.style.loose(view)
            options = [c for c in options if c in loose] or options
        return self.rng.choice(options)
