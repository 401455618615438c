"""The top option of the exact discard ranking of a Four Color Cards hand, without ranking every option.

`analyse_discards` (`rules/fourcolor/discards.py`) ranks every legal discard by the advice's order
(`advice/ranking.py`, `rank_key`): in bga-taiwan the paying distance it leaves (`paying.py`), the distance to a
rich win and the unseen cards that lower the paying distance, then the distance it leaves, then the one-card
expected gain, the unseen improving cards, the unseen waiting copies, the unseen copies of the
discarded card, then card order. Playouts need only the top, on hands that are mostly met once, so this computes
the distance (and in bga-taiwan the paying distance) of every legal discard (one `DiscardDistances`) and the rest
of the key only for the discards tied at the least of these: their waits and gains (distance 0) or their
improving cards (distance 1 or more). It is the first option of `analyse_discards`, and the tests hold the two
together. Its quick form (the other seats' play in playouts) ranks tied far discards on their unseen copies alone,
and in bga-taiwan leaves out the rich win and the cards that lower the paying distance.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from ..rules.fourcolor.cards import GENERAL, N_FLOWERS, N_KINDS, Tally
from ..rules.fourcolor.discard_distances import DiscardDistances
from ..rules.fourcolor.discards import pays_by_points, routes
from ..rules.fourcolor.hand import FourColorHand
from ..rules.fourcolor.hu import evaluate_hu
from ..rules.fourcolor.melds import Meld, MeldRules
from ..rules.fourcolor.paying import ranking_figures
from ..rules.fourcolor.settle import settle_bga, settle_flowers
from ..rules.fourcolor.takeable import ANY_ROUTE_WEIGHT, improving_reach


class Top(NamedTuple):
    """The top-ranked discard (None: no legal discard), the distance it leaves, its waits (card -> gain), its
    improving cards and its ranking key."""

    card: int | None
    distance: int
    waits: dict[int, int]
    improving: frozenset[int]
    key: tuple[float, ...]


class TopRanker:
    """Top options of hands under one rule profile and one view of the unseen cards."""

    def __init__(self, rules: MeldRules, options: Mapping[str, Any], seats: int, flowers: bool) -> None:
        self.rules, self.options, self.seats, self.flowers = rules, options, seats, flowers
        self.concealed_win = options.get("winning_meld_concealed", True)
        self.by_wins = flowers and options.get("payment") == "none"
        self.rich = not flowers and pays_by_points(options)
        self.gains: dict[tuple[int, ...], int] = {}

    def top(self, tally: Tally, exposed: tuple[Meld, ...], unseen: Sequence[int],
            discards: Sequence[int] | None = None, quick: bool = False) -> Top:
        """The first option of the exact ranking of a hand that must discard (among `discards` when given).
        `quick`: discards tied at a distance of 1 or more are not ranked on their improving cards; the one with the
        fewest unseen copies (then card order) is taken and only its improving cards are found (the other seats'
        play in playouts, where a hand is seldom met twice)."""
        legal = [c for c in range(N_KINDS) if tally.counts[c] and c % 7 != GENERAL] if discards is None else list(
            discards)
        if not legal:
            return Top(None, 0, {}, frozenset(), (float("inf"),))
        plan = DiscardDistances.of(tally, self.rules, exposed, legal)
        if self.flowers:
            least = min(plan.after[x] for x in legal)
            first: tuple[int, ...] = (least, 0, 0)
        else:  # the paying distance first (`ranking.hand_key`), the rich win, its lowering cards, the distance
            paying, lowering, rich = ranking_figures(tally, self.rules, exposed, legal, self.options["threshold"],
                                                     unseen, lowering=not quick, rich=self.rich and not quick)
            fewest = min(paying.values())
            legal = [x for x in legal if paying[x] == fewest]
            richest = min((rich.get(x, 0) for x in legal), default=0)
            legal = [x for x in legal if rich.get(x, 0) == richest]
            most = max((lowering.get(x, 0) for x in legal), default=0)
            legal = [x for x in legal if lowering.get(x, 0) == most]
            least = min(plan.after[x] for x in legal)
            first = (fewest, richest, -most)
        tied = [x for x in legal if plan.after[x] == least]
        total = sum(unseen)
        if least == 0:
            found = [self._waiting(plan, tally, exposed, x, unseen, total, first) for x in tied]
        else:
            if quick:
                tied = [min(tied, key=lambda x: (unseen[x], x))]
            plan.after = {x: least for x in tied}  # the improving cards of the tied discards alone
            improves = plan.improving([c for c in range(N_KINDS + N_FLOWERS) if unseen[c]])
            found = [self._far(tally, x, least, improves[x], unseen, first) for x in tied]
        return min(found, key=lambda t: (t.key, t.card))

    def _far(self, tally: Tally, x: int, least: int, improves: Sequence[int], unseen: Sequence[int],
             paying: tuple[int, ...]) -> Top:
        """A discard that leaves the hand `least` replacements from waiting (`paying`: the replacements from a win
        that pays and minus the cards that lower them): its improving cards and its key."""
        rest = tally.copy()
        rest.remove(x)
        improving = [(y, unseen[y]) for y in improves]
        reach = improving_reach(rest, improving, self.rules, self.flowers) if self.flowers else 0.0
        key = (*paying, least, -reach, -0.0, 0, -sum(n for _, n in improving), 0, unseen[x])  # `rank_key`
        return Top(x, least, {}, frozenset(improves), key)

    def _waiting(self, plan: DiscardDistances, tally: Tally, exposed: tuple[Meld, ...], x: int,
                 unseen: Sequence[int], total: int, paying: tuple[int, ...]) -> Top:
        """A discard that leaves the hand waiting (`paying` as for `_far`): its waits with their gains and its
        key."""
        rest = tally.copy()
        rest.remove(x)
        waits = {c: self.gain(FourColorHand(rest, exposed, c)) for c in plan.waits(x)}
        expected = sum(unseen[c] * max(g, 0) for c, g in waits.items()) / total if total else 0.0
        waiting = sum(unseen[c] for c in waits)
        reach = sum(unseen[c] * (1.0 if stock_only(c) else ANY_ROUTE_WEIGHT) for c in waits) if self.by_wins else 0.0
        return Top(x, 0, waits, frozenset(c for c in waits if unseen[c]),
                   (*paying, 0, -reach, -expected, 0, -waiting, -waiting, unseen[x]))  # `rank_key`

    def gain(self, won: FourColorHand) -> int:
        """The winner's settlement of a win without the lucky card; the points where nobody pays (as the exact
        analysis counts it: docs/rules.md#fc-settlement)."""
        points = evaluate_hu(won, self.rules, self.concealed_win).points
        assert points is not None  # `won` is a win
        found = self.gains.get((points,))
        if found is None:
            if not self.flowers:
                found = settle_bga(won, self.rules, self.options, self.seats, 0, None).deltas[0]
            elif self.options["payment"] == "none":
                found = points
            else:
                found = settle_flowers(won, self.rules, self.options, self.seats, 0).deltas[0]
            self.gains[(points,)] = found
        return found


def stock_only(card: int) -> bool:
    """A wait only a stock card may bring (a General or a flower: never discarded)."""
    return len(routes(card)) == 1
