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
from functools import cache, lru_cache
from itertools import product
from typing import Any

from .algebra import INF, MAX_CARDS, Algebra, Exact, Fast, Pair
from .cards import COPIES, FLOWER_BASE, GENERAL, N_FLOWERS, N_KINDS, SOLDIER, Tally
from .melds import Meld, MeldRules

ALL_GENERALS = 4 * COPIES
_IDENTICAL = (0, 2, 3, 4)  # copies of an A/E/C/H/P in pairs, triples, quads (docs/rules.md#fc-melds)
SOLDIER_GROUP, FLOWER_GROUP = 4, 5
_SPAN = 8  # two-state tables are cut or padded to this many entries (more only for larger distances)


def limits_of(exposed: Sequence[Meld], flowers: bool) -> tuple[int, ...]:
    """Copies of each card (28 chess cards, 5 flowers) a concealed hand may hold beside its exposed melds."""
    limits = [COPIES] * N_KINDS + [int(flowers)] * N_FLOWERS
    for meld in exposed:
        for card in meld.cards:
            limits[card] -= 1
    return tuple(limits)




def _reach(sizes: Sequence[int]) -> tuple[int, ...]:
    """Copy counts (at most 4) that identical melds of these sizes add up to; 0 is no meld."""
    reach = {0}
    for _ in range(COPIES):
        reach |= {r + s for r in reach for s in sizes if r + s <= COPIES}
    return tuple(sorted(reach))


def soldier_counts(rules: MeldRules) -> tuple[int, ...]:
    """Same-colour Soldier counts that form melds: pairs only in flowers, triples/quads by option
    (docs/rules.md#fc-soldier-sets)."""
    return _reach(((2,) if rules.soldier_pairs else ()) + ((3, 4) if rules.soldier_sets else ()))


@cache
def _triad_targets(lim: tuple[int, int, int], general: bool) -> tuple[tuple[int, int, int], ...]:
    """Targets of one colour's G/A/E (`general`) or C/H/P within `lim`: k commands or fields plus identical melds;
    a General is a meld by itself, so any number of them (docs/rules.md#fc-melds)."""
    out = set()
    for k in range(min(lim) + 1):
        choices = [[k + i for i in _IDENTICAL if k + i <= cap] for cap in lim]
        if general:
            choices[0] = list(range(k, lim[0] + 1))
        out.update(product(*choices))
    return tuple(sorted(out))


@cache
def _exports() -> frozenset[tuple[int, ...]]:
    """Soldiers per colour that n4 soldiers4 and soldiers3 groups (each missing one colour) take together."""
    exports = set()
    for n4, *missing in product(range(COPIES + 1), repeat=5):
        export = tuple(n4 + sum(missing) - missing[c] for c in range(4))
        if max(export) <= COPIES:
            exports.add(export)
    return frozenset(exports)


@lru_cache(maxsize=4096)
def _soldier_targets(lim: tuple[int, ...], same: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Soldier targets (per colour) within `lim`: soldiers3/soldiers4 across colours plus same-colour melds."""
    return tuple(t for t in product(*(range(cap + 1) for cap in lim))
                 if any(all(a - e in same for a, e in zip(t, export)) for export in _exports()))


_CODE = 64  # (dropped, missing) of a group coded as dropped * 64 + missing: both are at most 16 (Soldiers)


def _pairs(held: Sequence[int], targets: Sequence[Sequence[int]]) -> set[tuple[int, int]]:
    """(dropped, missing) of every target of three or four positions; each position's part looked up by its held
    and target counts and the parts added as codes."""
    parts = [[(h - min(h, t)) * _CODE + t - min(h, t) for t in range(COPIES + 1)] for h in held]
    if len(parts) == 3:
        a, b, c = parts
        codes = {a[x] + b[y] + c[z] for x, y, z in targets}
    else:
        a, b, c, d = parts
        codes = {a[w] + b[x] + c[y] + d[z] for w, x, y, z in targets}
    return {divmod(code, _CODE) for code in codes}


@lru_cache(maxsize=4096)
def _triad(alg: Algebra, held: tuple[int, ...], lim: tuple[int, ...], general: bool) -> tuple[int, ...]:
    """The table of one colour's G/A/E (`general`) or C/H/P."""
    return alg.table(_pairs(held, _triad_targets(lim, general)), sum(held))


def canonical(group: int, key: tuple[int, ...]) -> tuple[int, ...]:
    """The key with its interchangeable positions sorted (each held count with its limit): the four Soldier
    colours, a colour's A and E, its C, H and P. Targets and legal discards treat them alike, so the tables are
    equal."""
    if group == SOLDIER_GROUP:
        pairs = sorted(zip(key[:4], key[4:]))
        return tuple(h for h, _ in pairs) + tuple(cap for _, cap in pairs)
    if group == FLOWER_GROUP:
        return key
    (a, ac), (e, ec) = sorted(((key[1], key[7]), (key[2], key[8])))
    (c, cc), (h, hc), (p, pc) = sorted(zip(key[3:6], key[9:]))
    return key[0], a, e, c, h, p, key[6], ac, ec, cc, hc, pc


def _build_table(alg: Algebra, group: int, key: tuple[int, ...], same: tuple[int, ...]) -> tuple[int, ...]:
    """The table of a group (0-3 a colour's G..P, 4 the Soldiers, 5 the flowers) from its key (held + limits)."""
    if group < SOLDIER_GROUP:
        return tuple(alg.join(_triad(alg, key[:3], key[6:9], True), _triad(alg, key[3:6], key[9:], False), INF))
    if group == SOLDIER_GROUP:
        return alg.table(_pairs(key[:4], _soldier_targets(key[4:], same)), sum(key[:4]))
    held, free = key[0], key[1] - key[0]
    return alg.table({(u, m) for u in range(held + 1) for m in range(free + 1)}, held)


MEMO_LIMIT = 1 << 16  # entries of one memo; a full memo starts again
DISTANCE_LIMIT = 1 << 14  # hands' distances (a few group keys each) kept before that memo starts again


class Memo:
    """The group tables of one algebra and one Soldier profile, keyed by the group key alone: its length tells the
    group (12 a colour, 8 the Soldiers, 2 the flowers) and the four colours share their tables. Keys and tables
    are tuples of ints (a two-state table a pair of them), which the garbage collector stops tracking, so a large
    memo adds next to nothing to its full collections."""

    def __init__(self, alg: Algebra, same: tuple[int, ...]) -> None:
        self.alg, self.same = alg, same
        self.tables: dict[tuple[int, ...], tuple[int, ...]] = {}
        self.reduced: dict[tuple[int, ...], tuple[int, ...]] = {}
        self.fitted: dict[tuple[int, ...], Pair] = {}
        self.heads: dict[tuple[int, ...], tuple[int, int]] = {}
        self.distances: dict[tuple, int | None] = {}  # (group keys..., slack) -> distance

    @staticmethod
    def store(memo: dict, key: tuple[int, ...], value: Any) -> Any:
        """Remember `value` (emptying a full memo first) and return it."""
        if len(memo) >= MEMO_LIMIT:
            memo.clear()
        memo[key] = value
        return value

    def table(self, group: int, key: tuple[int, ...]) -> tuple[int, ...]:
        """The table of a group, built once per canonical key."""
        found = self.tables.get(key)
        if found is None:
            canon = canonical(group, key)
            found = self.tables.get(canon)
            if found is None:
                found = self.store(self.tables, canon, _build_table(self.alg, group, canon, self.same))
            self.store(self.tables, key, found)
        return found

    def without_one(self, group: int, key: tuple[int, ...]) -> tuple[int, ...]:
        """Either table of the group with one legal discard (never a General or a flower,
        docs/rules.md#fc-generals-discard) removed."""
        found = self.reduced.get(key)
        if found is None:
            found = ()
            if group != FLOWER_GROUP:
                alg = self.alg
                positions, held = (range(4), key[:4]) if group == SOLDIER_GROUP else (range(1, 6), key[:6])
                out = [alg.empty] * sum(held)
                for p in positions:
                    if key[p]:
                        out = alg.merge(out, self.table(group, shifted(key, p, -1)))
                found = tuple(out)
            self.store(self.reduced, key, found)
        return found

    def head(self, group: int, key: tuple[int, ...]) -> tuple[int, int]:
        """Entry 0 of the group's two-state tables: the table's, and the change one legal removal makes to it."""
        found = self.heads.get(key)
        if found is None:
            table, reduced = self.pair(group, key, _SPAN)
            found = self.store(self.heads, key, (table[0], reduced[0] - table[0]))
        return found

    def pair(self, group: int, key: tuple[int, ...], span: int) -> Pair:
        """The two-state tables of a group (as is, one legal discard removed), cut or padded to `span` entries
        (at least `_SPAN`: the usual spans share one entry per key, keyed by the key alone)."""
        memo_key = key if span <= _SPAN else key + (span,)
        found = self.fitted.get(memo_key)
        if found is None:
            span, empty = max(span, _SPAN), (self.alg.empty,)
            table, reduced = self.table(group, key), self.without_one(group, key)
            found = self.store(self.fitted, memo_key, (table[:span] + empty * (span - len(table)),
                                                       reduced[:span] + empty * (span - len(reduced))))
        return found


_MEMOS: dict[tuple[bool, tuple[int, ...]], Memo] = {}


def memo_of(exact: bool, same: tuple[int, ...]) -> Memo:
    """The shared memo of an algebra and a Soldier profile."""
    found = _MEMOS.get((exact, same))
    if found is None:
        found = _MEMOS[exact, same] = Memo(Exact if exact else Fast, same)
    return found


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


def shifted(key: tuple[int, ...], position: int, delta: int) -> tuple[int, ...]:
    """The key with one card more (delta 1) or fewer (-1) at `position`."""
    return key[:position] + (key[position] + delta,) + key[position + 1:]


class Groups:
    """Group keys and tables of hands under one meld profile and one set of copy limits."""

    def __init__(self, rules: MeldRules, limits: Sequence[int], exact: bool = False) -> None:
        self.alg: Algebra = Exact if exact else Fast
        self.rules, self.limits, self.exact = rules, tuple(limits), exact
        self.same = soldier_counts(rules)
        self.memo = memo_of(exact, self.same)
        self.count = 6 if rules.flowers else 5
        self._colour = [tuple(limits[c * 7:c * 7 + 6]) for c in range(4)]
        self._soldier = tuple(limits[c * 7 + SOLDIER] for c in range(4))
        self._flowers = sum(limits[FLOWER_BASE:])
        self.exposed_generals = ALL_GENERALS - sum(limits[c * 7 + GENERAL] for c in range(4))

    def keys(self, tally: Tally) -> list[tuple[int, ...]]:
        """The key of each group of a hand."""
        n = tally.counts
        keys = [tuple(n[c * 7:c * 7 + 6]) + self._colour[c] for c in range(4)]
        keys.append((n[6], n[13], n[20], n[27]) + self._soldier)
        if self.count > FLOWER_GROUP:
            keys.append((bin(tally.flowers).count("1"), self._flowers))
        return keys

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
        memo, key = self.memo.distances, (*keys, slack)
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
