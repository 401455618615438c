"""The group tables of `distance.py`: per group of a hand, the cards missing for each number of cards dropped.

A hand splits into independent groups (per colour its G/A/E and C/H/P, the Soldiers of all colours, the flowers);
this module enumerates each group's targets within the copy limits (`_triad_targets`, `_soldier_targets`), turns
them into the group's table in an algebra (fast: the least M per U; exact: every M), canonicalises interchangeable
cards so that equal tables are built once (`canonical`), and keeps them in the shared `Memo` of each algebra and
Soldier profile, with the two-state tables (as is / one legal discard removed) the discard analysis joins.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache
from itertools import product
from typing import TypeVar

from .algebra import INF, Algebra, Exact, Fast, Pair
from .cards import COPIES
from .melds import MeldRules

K = TypeVar("K")
V = TypeVar("V")

_IDENTICAL = (0, 2, 3, 4)  # copies of an A/E/C/H/P in pairs, triples, quads (docs/rules.md#fc-melds)
SOLDIER_GROUP, FLOWER_GROUP = 4, 5
_SPAN = 8  # two-state tables are cut or padded to this many entries (more only for larger distances)


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
    out: set[tuple[int, int, int]] = set()
    for k in range(min(lim) + 1):
        choices = [[k + i for i in _IDENTICAL if k + i <= cap] for cap in lim]
        if general:
            choices[0] = list(range(k, lim[0] + 1))
        out.update(product(choices[0], choices[1], choices[2]))
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
        # mypy takes a class object for unhashable, but the algebras are cache keys by identity
        return tuple(alg.join(_triad(alg, key[:3], key[6:9], True),  # type: ignore[arg-type]
                              _triad(alg, key[3:6], key[9:], False), INF))  # type: ignore[arg-type]
    if group == SOLDIER_GROUP:
        return alg.table(_pairs(key[:4], _soldier_targets(key[4:], same)), sum(key[:4]))
    held, free = key[0], key[1] - key[0]
    return alg.table({(u, m) for u in range(held + 1) for m in range(free + 1)}, held)


MEMO_LIMIT = 1 << 16  # entries of one memo; a full memo starts again


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
        self.distances: dict[tuple[tuple[int, ...] | int, ...], int | None] = {}  # (group keys..., slack) -> distance

    @staticmethod
    def store(memo: dict[K, V], key: K, value: V) -> V:
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


def shifted(key: tuple[int, ...], position: int, delta: int) -> tuple[int, ...]:
    """The key with one card more (delta 1) or fewer (-1) at `position`."""
    return key[:position] + (key[position] + delta,) + key[position + 1:]
