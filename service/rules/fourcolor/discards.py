"""Exact discard analysis of a Four Color Cards hand (docs/rules.md#fourcolor): for each legal discard the distance
it leaves, the cards it waits on and the unseen cards that bring it closer (`discard_distances.py`), with the points
and the player's settlement on each wait, ranked by the order the caller gives (`analysis.ranked_discards`).

A discard decision is made with 21 cards in hand and exposed melds; Generals, and in cardavia-flowers flowers,
are never discarded (docs/rules.md#fc-generals-discard, docs/rules.md#fl-discard). A hu may be claimed on any other
player's discard and on any card turned up from the stock (docs/rules.md#fc-hu; flowers: the drawer's win, then
other players' wins, docs/rules.md#fl-priority), so a wait on any other card is won either way, and a wait on a
General or a flower only on a stock card. The settlement does not depend on where the winning card came from
(docs/rules.md#fc-settlement: h counts the melds and the lucky card), so a wait has one gain.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..analysis import ClaimOption, DiscardAnalysis, DiscardOption, Order, Wait, ranked_discards
from ..errors import ImpossibleCount
from ..text import Text, ntext, text
from .cards import COPIES, FLOWER_BASE, GENERAL, LIMITS, N_FLOWERS, N_KINDS, Tally, code
from .discard_distances import DiscardDistances
from .distance import limits_of
from .evaluate import evaluator_for
from .hand import FourColorHand
from .hu import evaluate_hu
from .melds import MeldRules
from .paying import ranking_figures
from .settle import settle_bga, settle_flowers
from .takeable import ANY_ROUTE_WEIGHT, improving_reach

ANY_ROUTE = ("discard", "stock")
STOCK_ONLY = ("stock",)
_GAINS: dict[tuple[Any, ...], dict[int, int]] = {}  # (options, seats, flowers) -> {hu points: the winner's delta}


class Gains:
    """Points of each wait and the player's settlement delta on it (docs/rules.md#fc-settlement)."""

    def __init__(self, hand: FourColorHand, rules: MeldRules, options: Mapping[str, Any], seats: int,
                 flowers: bool) -> None:
        self.hand, self.rules, self.options, self.seats, self.flowers = hand, rules, options, seats, flowers
        self.concealed_win = options.get("winning_meld_concealed", True)
        # docs/rules.md#fl-payment: where nobody pays the objective is the win rate, not the points
        self.by_wins = flowers and options.get("payment") == "none"
        self.evaluator = evaluator_for(rules)
        self.exposed_points = sum(m.points(rules) for m in hand.exposed)
        # The deltas depend on h, the options and the seats alone: one settlement per h and table.
        self._gains = _GAINS.setdefault((tuple(sorted(options.items())), seats, flowers), {})

    def wait(self, rest: Tally, card: int, unseen: int) -> Wait:
        """The wait on `card` of the concealed cards `rest`, with no lucky card (it is not known in advance)."""
        won = FourColorHand(rest, self.hand.exposed, card)
        if self.concealed_win:
            best = self.evaluator.evaluate(won.with_public())[0]
            points = None if best is None else self.exposed_points + best.points
        else:
            points = evaluate_hu(won, self.rules, False).points
        if points is None:
            raise AssertionError(f"{code(card)} was found as a wait but does not win")
        gain = self._gains.get(points)
        if gain is None:
            if len(self._gains) > 1000:
                self._gains.clear()
            self._gains[points] = gain = self._gain(won, points)
        return Wait(card, unseen, routes(card), points, gain)

    def _gain(self, won: FourColorHand, points: int) -> int:
        """The winner's delta (seat 0) of the settlement of `won`; the points where nobody pays."""
        if not self.flowers:
            return settle_bga(won, self.rules, self.options, self.seats, 0, None).deltas[0]
        if self.options["payment"] == "none":
            return points  # docs/rules.md#fl-settlement: no payments, so the ranking counts the points
        return settle_flowers(won, self.rules, self.options, self.seats, 0).deltas[0]


def routes(card: int) -> tuple[str, ...]:
    """How a wait on `card` can be won: a General or a flower is never discarded
    (docs/rules.md#fc-generals-discard), so only a stock card can be it; any other card comes as another player's
    discard or a stock card."""
    return STOCK_ONLY if card >= FLOWER_BASE or card % 7 == GENERAL else ANY_ROUTE


def unseen_counts(hand: FourColorHand, visible: Sequence[int], flowers: bool) -> list[int]:
    """Copies of each card (28 chess cards, 5 flowers) the player has not seen: the deck minus his hand, his
    exposed melds and the visible cards; a visible card beyond the deck's copies raises naming `visible.<i>`."""
    left = [COPIES] * N_KINDS + [int(flowers)] * N_FLOWERS
    for card in hand.concealed.cards() + [c for m in hand.exposed for c in m.cards]:
        left[card] -= 1
    for i, card in enumerate(visible):
        if left[card] <= 0:
            raise ImpossibleCount(text("{card} is seen more often than the deck holds ({limit}), counted over hand, "
                                       "exposed melds and visible cards",
                                       card=code(card), limit=LIMITS[card]), f"visible.{i}")
        left[card] -= 1
    return left


def analyse_discards(hand: FourColorHand, rules: MeldRules, options: Mapping[str, Any], unseen: Sequence[int],
                     seats: int, flowers_variant: bool, ranking: Order) -> DiscardAnalysis:
    """Rank every legal discard of a hand that must discard (by `ranking`): distance, waits, gains, improving
    cards."""
    tally = hand.concealed
    legal = [c for c in range(N_KINDS) if tally.counts[c] and c % 7 != GENERAL]
    plan = DiscardDistances.of(tally, rules, hand.exposed, legal)
    gains = Gains(hand, rules, options, seats, flowers_variant)
    improves = plan.improving([c for c in range(N_KINDS + N_FLOWERS) if unseen[c]])
    paying, lowering, rich = _paying(tally, gains, legal, unseen)
    found = [_option(plan, x, gains, unseen, improves, paying, lowering, rich) for x in legal]
    return DiscardAnalysis(ranked_discards(found, describe, ranking), plan.now, sum(unseen))


def _paying(tally: Tally, gains: Gains, discards: Sequence[int], unseen: Sequence[int]
            ) -> tuple[Mapping[int, int], Mapping[int, int], Mapping[int, int]]:
    """The paying distance after each discard, the cards that lower it and the distance to a rich win where a win
    can cost (bga-taiwan: under the threshold, docs/rules.md#fc-settlement; `paying.ranking_figures`), the last
    only where each point over the threshold is paid (`win_payment` excess); elsewhere every win pays: nothing."""
    if gains.flowers:
        return {}, {}, {}
    return ranking_figures(tally, gains.rules, gains.hand.exposed, discards, gains.options["threshold"], unseen,
                           rich=pays_by_points(gains.options))


def pays_by_points(options: Mapping[str, Any]) -> bool:
    """Whether a richer win is paid more (bga-taiwan: `win_payment` excess, docs/rules.md#fc-win-payment)."""
    return bool(options.get("win_payment", "excess") == "excess")


def at_rest(hand: FourColorHand, rules: MeldRules, options: Mapping[str, Any], unseen: Sequence[int], seats: int,
            flowers_variant: bool) -> DiscardOption:
    """The figures of a hand at rest (20 cards over hand and exposed melds, no public card) as the discard
    analysis gives them for the hand a discard leaves: planned as the hand plus one card x with room beside the
    exposed melds, then discarding x, which leaves this very hand. Its `card` is that x, meaningless here."""
    limits = limits_of(hand.exposed, rules.flowers)
    x = next(c for c in range(N_KINDS) if hand.concealed.counts[c] < limits[c])
    grown = hand.concealed.copy()
    grown.add(x)
    plan = DiscardDistances.of(grown, rules, hand.exposed, [x])
    gains = Gains(hand, rules, options, seats, flowers_variant)
    improves = plan.improving([c for c in range(N_KINDS + N_FLOWERS) if unseen[c]])
    return _option(plan, x, gains, unseen, improves, *_paying(grown, gains, [x], unseen))


def _option(plan: DiscardDistances, x: int, gains: Gains, unseen: Sequence[int],
            improves: Mapping[int, Sequence[int]], paying: Mapping[int, int],
            lowering: Mapping[int, int], rich: Mapping[int, int]) -> DiscardOption:
    """The figures of the discard of x: at distance 0 its waits, else its improving cards; its paying distance
    and its distance to a rich win where a win can cost."""
    d, total = plan.after[x], sum(unseen)
    waits: tuple[Wait, ...] = ()
    improving: tuple[tuple[int, int], ...]
    if d == 0:
        rest = plan.tally.copy()
        rest.remove(x)
        waits = tuple(gains.wait(rest, c, unseen[c]) for c in plan.waits(x))
        improving = tuple((w.card, w.unseen) for w in waits if w.unseen)
    else:
        improving = tuple((y, unseen[y]) for y in improves[x])
    expected = sum(w.unseen * max(w.gain, 0) for w in waits) / total if total else 0.0
    return DiscardOption(x, d, waits, improving, sum(n for _, n in improving), expected, card_unseen=unseen[x],
                         reach=_reach(plan, x, d, waits, improving, gains), paying=paying.get(x),
                         paying_improving=lowering.get(x), rich=rich.get(x))


def _reach(plan: DiscardDistances, x: int, d: int, waits: Sequence[Wait], improving: Sequence[tuple[int, int]],
           gains: Gains) -> float:
    """The hand's `reach` (`takeable.py`): at distance 1 or more its improving cards weighted by how often they
    can be claimed; waiting, where the objective is the win rate, its waiting copies weighted by the public cards
    that may bring them (the points of a wait do not count there); else 0 (the expected gain ranks waits).
    cardavia-flowers only, where no pair may be claimed (docs/rules.md#fl-claims): in bga-taiwan the arena found
    it level with the ranking without it (docs/advice.md#strength), so there it is 0 and the ranking unchanged."""
    if not gains.flowers:
        return 0.0
    if d == 0:
        if not gains.by_wins:
            return 0.0
        return sum(w.unseen * (ANY_ROUTE_WEIGHT if w.claims == ANY_ROUTE else 1.0) for w in waits)
    rest = plan.tally.copy()
    rest.remove(x)
    return improving_reach(rest, improving, gains.rules, gains.flowers)


def describe(option: DiscardOption) -> Text:
    """The reason shown with an option."""
    if option.distance == 0:
        shown = ", ".join(code(w.card) for w in option.waits)
        copies = sum(w.unseen for w in option.waits)
        best = max(w.points for w in option.waits)
        waiting = ntext("waiting on {cards}: {n} unseen copy, best win {points} points",
                        "waiting on {cards}: {n} unseen copies, best win {points} points", copies, cards=shown,
                        points=best)
        paying = claimable(option)
        return text("{waiting}{paying}", waiting=waiting, paying=paying) if paying else waiting
    return text("{replacements}; {improving}{claimable}",
                replacements=ntext("{n} replacement from waiting", "{n} replacements from waiting", option.distance),
                improving=ntext("{n} unseen card improves it", "{n} unseen cards improve it", option.improving_unseen),
                claimable=claimable(option))


def claimable(option: DiscardOption | ClaimOption) -> Text | str:
    """A clause of the reason: the reach of a far hand where it ranks (cardavia-flowers); in bga-taiwan the
    replacements from a win that pays when they are more than from any win; else nothing."""
    if option.distance > 0 and option.reach:
        reach = f"{option.reach:.2f}"
        return text(", {reach} counted by who may claim them", reach=reach)
    if option.paying is not None and option.paying != option.distance:
        return ntext(", {n} replacement from a win that pays", ", {n} replacements from a win that pays",
                     option.paying)
    return ""
