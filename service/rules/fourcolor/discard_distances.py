"""Distances after each legal discard of a Four Color Cards hand, its waits and its improving cards.

`DiscardDistances` plans every legal discard of one hand at once on the group tables of `distance.py`: the
distance each discard leaves (the hand's group tables joined without the discard's group), the cards that complete
a waiting hand, and the cards that bring a far hand one replacement closer (two-state joins without one or two
groups, `_Rests`). `discards.py` ranks the discards on these figures; the deep search plans its player on them.
"""

from __future__ import annotations

from collections.abc import Sequence

from .algebra import INF, Fast, Pair
from .cards import GENERAL, N_FLOWERS, N_KINDS, Tally
from .distance import Groups, limits_of, members, place
from .group_tables import shifted
from .melds import Meld, MeldRules


class DiscardDistances:
    """Distance after each legal discard of one hand, its waits and its improving cards, on shared group tables.

    The hand's group tables are joined without each group (a discard changes one group) and, for the improving
    cards, without each pair of groups in a two-state form: no card removed / one legal card removed. A card y
    improves the discard x (distance d) when some legal z leaves hand - x + y - z at distance d - 1: only the
    groups of x and y change, and one entry t = d - 1 of their join with the rest decides it (one replacement
    moves the distance by at most one, so no smaller entry can fit).
    """

    def __init__(self, tally: Tally, rules: MeldRules, limits: Sequence[int], discards: Sequence[int],
                 exact: bool = False) -> None:
        groups = self.groups = Groups(rules, limits, exact)
        self.tally, self.limits = tally, limits
        self.keys = groups.keys(tally)
        self.tables = [groups.table(g, k) for g, k in enumerate(self.keys)]
        now = groups.distance_of(self.keys, 0)
        if now is None:
            raise ValueError("the hand exceeds the copy limits of the deck")
        self.now = now
        self._rest1: dict[int, list[int]] = {}
        self.after = {x: self._after(x) for x in discards}

    @classmethod
    def of(cls, tally: Tally, rules: MeldRules, exposed: Sequence[Meld], discards: Sequence[int]) -> DiscardDistances:
        """Fast tables, or exact ones where a fast result might not pad (`Groups.unsafe`)."""
        limits = limits_of(exposed, rules.flowers)
        plan = cls(tally, rules, limits, discards)
        generals = sum(tally.counts[c * 7 + GENERAL] for c in range(4))
        cards = tally.size() + sum(len(m.cards) for m in exposed)
        if plan.groups.unsafe(generals, cards, max([plan.now - 1, *plan.after.values()])):
            plan = cls(tally, rules, limits, discards, exact=True)
        return plan

    def _after(self, x: int) -> int:
        """Distance of the hand without x: the hand's complete distance d, or d - 1 (one card fewer to keep moves
        it by at most one), so entry d - 1 of one join decides."""
        if not self.now:
            return 0
        groups, (a, p), t = self.groups, place(x), self.now - 1
        rest = self._rest1.get(a)
        if rest is None:
            if not self._rest1:
                self._rests_without_one()
            rest = self._rest1[a]
        own = groups.table(a, shifted(self.keys[a], p, -1))
        return t if groups.alg.fits(groups.alg.entry(rest, own, t), t, 1) else self.now

    def _rests_without_one(self) -> None:
        """The join of the groups without each one (entries 0..d - 1), from prefix and suffix joins."""
        alg, tables, cap = self.groups.alg, self.tables, self.now
        prefix, suffix = [[alg.unit]], [[alg.unit]]
        for table in tables[:-1]:
            prefix.append(alg.join(prefix[-1], table, cap))
        for table in reversed(tables[1:]):
            suffix.append(alg.join(suffix[-1], table, cap))
        for g in range(len(tables)):
            self._rest1[g] = alg.join(prefix[g], suffix[len(tables) - 1 - g], cap)

    def waits(self, x: int) -> list[int]:
        """Cards that complete the hand without x (each within the copies left beside exposed melds)."""
        groups, (a, p) = self.groups, place(x)
        keys = list(self.keys)
        keys[a] = shifted(keys[a], p, -1)
        open_groups = [g for g, key in enumerate(keys) if not groups.complete(g, key)]
        if len(open_groups) > 1:
            return []
        cards = members(open_groups[0]) if open_groups else range(N_KINDS + N_FLOWERS * (groups.count > 5))
        out = []
        for c in cards:
            g, q = place(c)
            if self.tally.count(c) - (c == x) < self.limits[c] and groups.complete(g, shifted(keys[g], q, 1)):
                out.append(c)
        return out

    def improving(self, cards: Sequence[int]) -> dict[int, list[int]]:
        """For each discard that leaves distance 1 or more, the cards among `cards` that improve it."""
        far = [x for x, d in self.after.items() if d]
        if not far:
            return {}
        groups, span = self.groups, max(self.after[x] for x in far)
        if span == 1 and groups.alg is Fast:
            return self._improving_next(far, cards)
        alg, keys = groups.alg, self.keys
        rests = _Rests(groups, [groups.pair(g, k, span) for g, k in enumerate(keys)], span)
        taken = {}
        for y in cards:
            b, q = place(y)
            taken[y] = b, q, groups.pair(b, shifted(keys[b], q, 1), span)
        found: dict[int, list[int]] = {}
        for x in far:
            t, (a, p) = self.after[x] - 1, place(x)
            key_a = shifted(keys[a], p, -1)
            own = groups.pair(a, key_a, span)
            beside: dict[int, Pair] = {}
            out = found[x] = []
            for y in cards:
                b, q, after_y = taken[y]
                if b == a:
                    rest, after_y = rests.without((a,)), groups.pair(a, shifted(key_a, q, 1), span)
                else:
                    near = beside.get(b)
                    if near is None:
                        near = beside[b] = alg.join2(rests.without((min(a, b), max(a, b))), own, span)
                    rest = near
                if alg.pair_fits(rest, after_y, t, 1):
                    out.append(y)
        return found

    def _improving_next(self, far: Sequence[int], cards: Sequence[int]) -> dict[int, list[int]]:
        """`improving` when every discard leaves distance 1 (fast tables): only entry 0 of the joins counts, the
        sum over the groups of their entry 0 plus the least change one removal makes in one group. Cards of
        another group than the discard's with equal figures (entry 0, change) are decided together."""
        groups, keys = self.groups, self.keys
        heads = [groups.head(g, k) for g, k in enumerate(keys)]
        kept, step = [h[0] for h in heads], [h[1] for h in heads]
        total = sum(kept)
        order = sorted(range(len(keys)), key=step.__getitem__)
        places: dict[int, list[tuple[int, int]]] = {}
        figures: dict[int, dict[tuple[int, int], list[int]]] = {}
        for y in cards:
            b, q = place(y)
            y0, more = groups.head(b, shifted(keys[b], q, 1))
            places.setdefault(b, []).append((y, q))
            figures.setdefault(b, {}).setdefault((kept[b] - y0, more), []).append(y)
        position = {y: i for i, y in enumerate(cards)}
        found = {}
        for x in far:
            a, p = place(x)
            key_a = shifted(keys[a], p, -1)
            o0, own = groups.head(a, key_a)
            first, first_group, second = self._two_least(order, step, a)
            hits = []
            rest = total - kept[a]
            for y, q in places.get(a, ()):
                y0, more = groups.head(a, shifted(key_a, q, 1))
                if rest + y0 + min(first, more) <= 1:
                    hits.append(y)
            base = rest + o0
            for b, by_figure in figures.items():
                if b != a:
                    least = min(second if b == first_group else first, own)
                    for (drop, more), ys in by_figure.items():
                        if base - drop + min(least, more) <= 1:
                            hits.extend(ys)
            hits.sort(key=position.__getitem__)
            found[x] = hits
        return found

    @staticmethod
    def _two_least(order: Sequence[int], step: Sequence[int], a: int) -> tuple[int, int, int]:
        """The least step of the groups other than `a` (`order`: the groups by step), its group, and the next
        step: a group b other than `a` leaves the first unless it is b."""
        first = second = INF
        first_group = -1
        for g in order:
            if g != a:
                if first_group < 0:
                    first, first_group = step[g], g
                else:
                    second = step[g]
                    break
        return first, first_group, second


class _Rests:
    """Two-state joins of a hand's groups without one or two of them (memoised)."""

    def __init__(self, groups: Groups, pairs: list[Pair], span: int) -> None:
        self.alg, self.pairs, self.span = groups.alg, pairs, span
        self._found: dict[tuple[int, ...], Pair] = {}

    def without(self, skip: tuple[int, ...]) -> Pair:
        """The join of every group not in `skip` (sorted)."""
        found = self._found.get(skip)
        if found is None:
            if len(skip) == 1:
                other = 1 if skip[0] == 0 else 0
                found = self.alg.join2(self.without(tuple(sorted((skip[0], other)))), self.pairs[other], self.span)
            else:
                alg, span = self.alg, self.span
                found = [alg.unit] + [alg.empty] * (span - 1), [alg.empty] * span
                for g, pair in enumerate(self.pairs):
                    if g not in skip:
                        found = alg.join2(found, pair, span)
            self._found[skip] = found
        return found
