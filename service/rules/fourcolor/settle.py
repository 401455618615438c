"""Round settlement for Four Color Cards (docs/rules.md#fc-settlement and docs/rules.md#fl-settlement)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..analysis import KIND_NAMES
from ..breakdown import Line
from ..errors import ImpossibleCount, NotAWin
from ..text import Text, paid, text
from .cards import COPIES, FLOWER_BASE, character_of, code
from .hand import FourColorHand
from .hu import HuResult, evaluate_hu
from .melds import Meld, MeldRules


@dataclass(frozen=True)
class Settlement:
    """Hu points, their breakdown and the per-seat deltas (summing to zero)."""

    points: int
    melds: tuple[Meld, ...]
    breakdown: tuple[Line, ...]
    deltas: tuple[int, ...]
    lucky_bonus: int = 0
    bonuses: tuple[str, ...] = ()  # named bonuses: Four Color Cards has none


def _meld_lines(result: HuResult, rules: MeldRules) -> list[Line]:
    """One line per meld with the value it scores."""
    lines = []
    for meld in result.melds or ():
        where = "concealed" if meld.concealed else "exposed"
        shown = {"kind": KIND_NAMES.get(meld.kind, meld.kind), "cards": " ".join(meld.codes())}
        said = text("concealed {kind} {cards}", **shown) if meld.concealed else text("exposed {kind} {cards}", **shown)
        lines.append(Line(f"{where}_meld", said, meld.points(rules)))
    return lines


def _won(hand: FourColorHand, rules: MeldRules, concealed_win: bool) -> HuResult:
    """The hu evaluation, or NotAWin naming the hand."""
    result = evaluate_hu(hand, rules, concealed_win)
    if not result.hu:
        raise NotAWin(text("hand, exposed melds and winning card do not split completely into melds"), "hand")
    return result


def lucky_bonus(hand: FourColorHand, lucky: int | None, match: str = "identical") -> tuple[int, Text]:
    """+1 per card matching the lucky card over hand, exposed melds and winning card (docs/rules.md#fc-lucky,
    docs/rules.md#fc-lucky-match): the identical card (`match` "identical", at most 3), or any card of its
    character ("character", at most 15)."""
    if lucky is None:
        return 0, text("no lucky card (no stock left): no bonus")
    concealed = hand.concealed.cards()
    exposed = [c for m in hand.exposed for c in m.cards]
    winning = [] if hand.public_card is None else [hand.public_card]
    if (concealed + exposed + winning).count(lucky) >= COPIES:
        # docs/rules.md#fc-lucky: the turned-up card is one of the 4 copies, so the winner holds "at most 3"
        # identical ones.
        raise ImpossibleCount(text("{card} is turned up as the lucky card but the winner already holds all {COPIES} "
                                   "copies", card=code(lucky), COPIES=COPIES), "lucky_card")
    if match == "character":
        # Option lucky_match "character": every colour of the lucky card's character counts (4 x 4 - 1 = 15).
        counts = [sum(c < FLOWER_BASE and character_of(c) == character_of(lucky) for c in part)
                  for part in (concealed, exposed, winning)]
    else:
        counts = [part.count(lucky) for part in (concealed, exposed, winning)]
    total = sum(counts)
    shown = {"card": code(lucky), "hand": counts[0], "exposed": counts[1], "winning": counts[2], "total": total}
    if match == "character":
        return total, text("lucky card {card}: {hand} in hand + {exposed} exposed + {winning} winning card = {total} "
                           "of its character: +{total}", **shown)
    return total, text("lucky card {card}: {hand} in hand + {exposed} exposed + {winning} winning card = {total} "
                       "identical: +{total}", **shown)


def settle_bga(hand: FourColorHand, rules: MeldRules, options: Mapping[str, Any], seats: int, winner: int,
               lucky: int | None) -> Settlement:
    """bga-taiwan: h = exposed + concealed + lucky; opponents pay (h - T) + stake, or the caller pays T + stake."""
    result = _won(hand, rules, options["winning_meld_concealed"])
    lines = _meld_lines(result, rules)
    bonus, lucky_line = lucky_bonus(hand, lucky, options.get("lucky_match", "identical"))
    lines.append(Line("lucky_card", lucky_line, bonus))
    h = (result.points or 0) + bonus
    lines.append(Line("total", text("hu points h = {exposed} exposed + {concealed} concealed + {lucky} lucky = {h}",
                                    exposed=result.exposed_points, concealed=result.concealed_points, lucky=bonus,
                                    h=h), h))
    threshold, stake = options["threshold"], options["stake"]
    if h >= threshold:
        if options["win_payment"] == "flat":
            pay = threshold + stake
            rule = text("h = {h} >= {threshold} (flat): each opponent pays {threshold} + {stake} = {pay}", h=h,
                        threshold=threshold, stake=stake, pay=pay)
        else:
            pay = h - threshold + stake
            rule = text("h = {h} >= {threshold}: each opponent pays ({h} - {threshold}) + {stake} = {pay}", h=h,
                        threshold=threshold, stake=stake, pay=pay)
    else:
        pay = -(threshold + stake)
        rule = text("h = {h} < {threshold}: the caller pays each opponent {threshold} + {stake} = {pay}", h=h,
                    threshold=threshold, stake=stake, pay=-pay)
    lines.append(Line("payment_rule", rule, pay))
    # docs/rules.md#fc-payment-per-opponent: the excess and the stake are paid by each opponent.
    deltas, payments = _pay_each(seats, winner, pay)
    return Settlement(h, result.melds or (), tuple(lines + payments), deltas, bonus)


def settle_flowers(hand: FourColorHand, rules: MeldRules, options: Mapping[str, Any], seats: int,
                   winner: int, lucky: int | None = None) -> Settlement:
    """cardavia-flowers: the winner's meld total; no payments unless `payment` asks each loser to pay it (there
    is no lucky card: `lucky` is always None)."""
    result = _won(hand, rules, True)
    lines = _meld_lines(result, rules)
    total = result.points or 0
    lines.append(Line("total", text("meld total = {total}", total=total), total))
    if options["payment"] == "none":
        lines.append(Line("payment_rule", text("no payments between players (option payment = none)"), 0))
        return Settlement(total, result.melds or (), tuple(lines), (0,) * seats)
    lines.append(Line("payment_rule", text("each loser pays the total {total}", total=total), total))
    deltas, payments = _pay_each(seats, winner, total)
    return Settlement(total, result.melds or (), tuple(lines + payments), deltas)


def bga_win_pays(points: int, options: Mapping[str, Any]) -> bool:
    """Whether a hu of these points makes the opponents pay the winner (docs/rules.md#fc-threshold: h >= threshold,
    and a positive payment)."""
    threshold: int = options["threshold"]
    stake: int = options["stake"]
    pay = threshold + stake if options["win_payment"] == "flat" else points - threshold + stake
    return points >= threshold and pay > 0


def flowers_win_pays(points: int, options: Mapping[str, Any]) -> bool:
    """Whether a win of these points is paid (docs/rules.md#fl-payment): any win worth a point, when anyone pays."""
    return options["payment"] == "none" or points > 0


def bga_payments(options: Mapping[str, Any]) -> bool:
    """bga-taiwan: every hu is paid one way or the other."""
    return True


def flowers_payments(options: Mapping[str, Any]) -> bool:
    """cardavia-flowers: payments only under option payment `each_loser_pays` (docs/rules.md#fl-payment)."""
    payment: str = options["payment"]
    return payment != "none"


def _pay_each(seats: int, winner: int, pay: int) -> tuple[tuple[int, ...], list[Line]]:
    """Every opponent pays `pay` to the winner (negative: the winner pays each opponent)."""
    deltas = [-pay] * seats
    deltas[winner] = pay * (seats - 1)
    lines = []
    for seat in range(seats):
        if seat != winner:
            if pay >= 0:
                lines.append(Line("payment", paid(seat, winner, pay), pay))
            else:
                lines.append(Line("payment", paid(winner, seat, -pay), -pay))
    return tuple(deltas), lines


def match_totals(rounds: list[list[int]], seats: int, start: int = 20) -> list[list[int]]:
    """Running totals of a match: every player starts with `start` points (docs/rules.md#fc-match)."""
    totals, current = [], [start] * seats
    for deltas in rounds:
        current = [a + b for a, b in zip(current, deltas)]
        totals.append(current)
    return totals
