"""Exact distance of a Four Color Cards hand to a win: how many of its cards must be replaced.

`distance(H)`: the fewest cards of the concealed hand H (n cards) that must be replaced by other cards so that H
plus one more card splits completely into melds (docs/rules.md#fc-hu); 0 means H is waiting. `complete_distance(H)`:
the same for H itself (0: H already splits completely). Exposed melds never change (docs/rules.md#fc-hu: "exposed melds
stay as they are") but use up copies: a target holds at most 4 minus the exposed copies of a chess card and one of
each flower not exposed. The distance is structural, like mahjong's shanten: cards seen elsewhere are not counted.

Method. With N the target size (n + 1, or n), distance = n - max |H & T| over complete hands T of N cards within
the limits. Melds never mix colours except Soldier groups, a command is G+A+E and a field C+H+P of one colour
(docs/rules.md#fc-melds), so a target is a union of independent groups: per colour its G/A/E and its C/H/P, the
Soldiers of all colours, the flowers. For a group's held counts h and target counts t: kept = sum(min(h, t)),
dropped U = |h| - kept, missing M = |t| - kept. A group's table gives, for each U, the M of its targets (every t
within the limits that splits into the group's melds); tables are memoised per group key (held + limits, with
interchangeable cards in a canonical order: `canonical`) and joined across groups by U. The distance is the least
U whose joined M fits: M <= U + N - n.

Fast tables keep the least M for each U: the relaxation |T| <= N, a lower bound of the distance. It is exact
when a relaxed target can be padded with P = N - |T| cards of complete melds. P >= 2: pairs, and a triple for odd
P, of the 20 A/E/C/H/P kinds; at most 21 - P cards are in play (target and exposed melds), so at most (21 - P) / 3
kinds have three copies or more in play and (21 - P) / 2 two or more, which leaves kinds enough. P = 1: a
General, or in cardavia-flowers a flower (16 Generals and 5 flowers do not fit in the 20 cards in play). A
General is left unless all 16 are in play, which needs held + exposed Generals + M >= 16: only then (or beyond
21 cards) the exact tables decide: bitsets of every M of every target, padding included, and M = U + N - n.
"""

from __future__ import annotations

from collections.abc import Sequence

from .algebra import MAX_CARDS, Algebra, Exact, Fast, Pair
from .cards import COPIES, FLOWER_BASE, GENERAL, N_FLOWERS, N_KINDS, SOLDIER, Tally
from .group_tables import FLOWER_GROUP, SOLDIER_GROUP, memo_of, soldier_counts
from .melds import Meld, MeldRules

ALL_GENERALS = 4 * COPIES
DISTANCE_LIMIT = 1 << 14  # hands' distances (a few group keys each) kept before that memo starts again


def limits_of(exposed: Sequence[Meld], flowers: bool) -> tuple[int, ...]:
    """Copies of each card (28 chess cards, 5 flowers) a concealed hand may hold beside its exposed melds."""
    limits = [COPIES] * N_KINDS + [int(flowers)] * N_FLOWERS
    for meld in exposed:
        for card in meld.cards:
            limits[card] -= 1
    return tuple(limits)


def place(card: int) -> tuple[int, int]:
    """The group of a card and its position in the group's key."""
    if card >= FLOWER_BASE:
        return FLOWER_GROUP, 0
    colour, char = divmod(card, 7)
    return (SOLDIER_GROUP, colour) if char == SOLDIER else (colour, char)


def members(group: int) -> range | tuple[int, ...]:
    """The cards of a group."""
    if group == FLOWER_GROUP:
        return range(FLOWER_BASE, FLOWER_BASE + N_FLOWERS)
    if group == SOLDIER_GROUP:
        return tuple(c * 7 + SOLDIER for c in range(4))
    return range(group * 7, group * 7 + 6)


def group_keys(tally: Tally, limits: Sequence[int], flowers: bool) -> list[tuple[int, ...]]:
    """The key of each group of a hand: its held counts, then the copies the limits allow of each (per colour the
    G..P, then the Soldiers of the four colours, then with `flowers` the flowers held and allowed)."""
    n = tally.counts
    keys = [tuple(n[c * 7:c * 7 + 6]) + tuple(limits[c * 7:c * 7 + 6]) for c in range(4)]
    keys.append((n[6], n[13], n[20], n[27]) + tuple(limits[c * 7 + SOLDIER] for c in range(4)))
    if flowers:
        keys.append((bin(tally.flowers).count("1"), sum(limits[FLOWER_BASE:])))
    return keys


class Groups:
    """Group keys and tables of hands under one meld profile and one set of copy limits."""

    def __init__(self, rules: MeldRules, limits: Sequence[int], exact: bool = False) -> None:
        self.alg: Algebra = Exact if exact else Fast
        self.rules, self.limits, self.exact = rules, tuple(limits), exact
        self.same = soldier_counts(rules)
        self.memo = memo_of(exact, self.same)
        self.count = 6 if rules.flowers else 5
        self.exposed_generals = ALL_GENERALS - sum(limits[c * 7 + GENERAL] for c in range(4))

    def keys(self, tally: Tally) -> list[tuple[int, ...]]:
        """The key of each group of a hand (`group_keys`)."""
        return group_keys(tally, self.limits, self.count > FLOWER_GROUP)

    def table(self, group: int, key: tuple[int, ...]) -> tuple[int, ...]:
        """The group's table."""
        return self.memo.table(group, key)

    def reduced(self, group: int, key: tuple[int, ...]) -> tuple[int, ...]:
        """The group's table with one legal discard removed (the best of each)."""
        return self.memo.without_one(group, key)

    def pair(self, group: int, key: tuple[int, ...], span: int) -> Pair:
        """The group's two-state tables with at least `span` entries; one length for the usual spans, so the memo
        holds one entry per key."""
        return self.memo.pair(group, key, span)

    def head(self, group: int, key: tuple[int, ...]) -> tuple[int, int]:
        """Entry 0 of the group's two-state tables as (entry, change one legal removal makes)."""
        return self.memo.head(group, key)

    def complete(self, group: int, key: tuple[int, ...]) -> bool:
        """True when the group's cards already split into melds."""
        return self.alg.fits(self.table(group, key)[0], 0, 0)

    def joined(self, tables: Sequence[Sequence[int]], cap: int = MAX_CARDS + 2) -> list[int]:
        """The join of several tables."""
        out: list[int] = [self.alg.unit]
        for table in tables:
            out = self.alg.join(out, table, cap)
        return out

    def first_fit(self, joined: Sequence[int], slack: int) -> int | None:
        """The least dropped count whose target fits (the distance), None beyond the table."""
        return next((u for u, v in enumerate(joined) if self.alg.fits(v, u, slack)), None)

    def distance(self, tables: Sequence[Sequence[int]], slack: int) -> int | None:
        """The distance of the hand with these group tables (a short join first: most distances are small)."""
        for cap in (8, MAX_CARDS + 2):
            found = self.first_fit(self.joined(tables, cap), slack)
            if found is not None:
                return found
        return None

    def distance_of(self, keys: Sequence[tuple[int, ...]], slack: int) -> int | None:
        """`distance` of the hand with these group keys, memoised: a claim's hand is measured (`complete_distance`)
        and then planned (`DiscardDistances`) on the same keys."""
        memo = self.memo.distances
        key: tuple[tuple[int, ...] | int, ...] = (*keys, slack)
        found = memo.get(key, -1)
        if found == -1:
            if len(memo) >= DISTANCE_LIMIT:
                memo.clear()
            found = memo[key] = self.distance([self.table(g, k) for g, k in enumerate(keys)], slack)
        return found

    def unsafe(self, generals: int, cards: int, missing: int) -> bool:
        """True when a fast result might not pad (see the module docstring): all Generals could be in play, or
        more than 21 cards."""
        if cards > MAX_CARDS:
            return True
        return not self.rules.flowers and generals + self.exposed_generals + missing >= ALL_GENERALS


def _distance(tally: Tally, rules: MeldRules, exposed: Sequence[Meld], slack: int) -> int:
    """Distance to a target of |tally| + slack cards, fast tables first."""
    limits = limits_of(exposed, rules.flowers)
    cards = tally.size() + sum(len(m.cards) for m in exposed) + slack
    generals = sum(tally.counts[c * 7 + GENERAL] for c in range(4))
    for exact in (False, True):
        groups = Groups(rules, limits, exact)
        found = groups.distance_of(groups.keys(tally), slack)
        if found is None:
            raise ValueError("the hand exceeds the copy limits of the deck")
        if exact or not groups.unsafe(generals, cards, found + slack - 1):
            return found
    raise AssertionError("unreachable")


def distance(concealed: Tally, rules: MeldRules, exposed: Sequence[Meld] = ()) -> int:
    """Fewest concealed cards to replace so that the hand plus one more card splits into melds (0: waiting)."""
    return _distance(concealed, rules, exposed, 1)


def complete_distance(concealed: Tally, rules: MeldRules, exposed: Sequence[Meld] = ()) -> int:
    """Fewest concealed cards to replace so that the hand itself splits into melds (0: it does)."""
    return _distance(concealed, rules, exposed, 0)
