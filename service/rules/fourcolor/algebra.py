"""The two table algebras of the Four Color distance (`distance.py`): for each dropped count U of a group (or of
joined groups), `Fast` keeps the least missing count M and joins by (min, +); `Exact` keeps the set of every M as
a bitset and joins by set sums. Two-state tables (`Pair`) carry a second table: one legal card removed.
"""

from __future__ import annotations

from collections.abc import Sequence

INF = 1 << 20
Pair = tuple[Sequence[int], Sequence[int]]  # two-state tables: nothing removed / one legal card removed
MAX_CARDS = 21  # a player's cards with the public card (docs/rules.md#fc-turn)
_BITS = (1 << (MAX_CARDS + 2)) - 1  # exact tables: missing counts 0..22 as bits


class Fast:
    """Tables of the least missing count for each dropped count; (min, +) joins."""

    empty, unit = INF, 0

    @staticmethod
    def table(pairs: set[tuple[int, int]], size: int) -> tuple[int, ...]:
        """Least M for each U in 0..size."""
        table = [INF] * (size + 1)
        for u, m in pairs:
            table[u] = min(table[u], m)
        return tuple(table)

    @staticmethod
    def join(a: Sequence[int], b: Sequence[int], cap: int) -> list[int]:
        """(min, +) convolution of two tables, cut to `cap` entries."""
        out = [INF] * min(len(a) + len(b) - 1, cap)
        n = len(out)
        for i, x in enumerate(a[:n]):
            if x < INF:
                for j, y in enumerate(b[:n - i]):
                    if x + y < out[i + j]:
                        out[i + j] = x + y
        return out

    @staticmethod
    def merge(a: Sequence[int], b: Sequence[int]) -> list[int]:
        """Either table (same length)."""
        return [min(x, y) for x, y in zip(a, b)]

    @staticmethod
    def entry(a: Sequence[int], b: Sequence[int], t: int) -> int:
        """Entry t of the join of two tables."""
        return min([a[i] + b[t - i] for i in range(max(0, t - len(b) + 1), min(t + 1, len(a)))], default=INF)

    @staticmethod
    def fits(value: int, u: int, slack: int) -> bool:
        """A relaxed target dropping u cards fits the target size (padding does the rest)."""
        return value <= u + slack

    @staticmethod
    def join2(r: Pair, g: Pair, cap: int) -> Pair:
        """Two-state join (tables of `cap` entries): no removal in either, or the one removal in one of them."""
        (r0, r1), (g0, g1) = r, g
        s0, s1 = [INF] * cap, [INF] * cap
        for i in range(cap):
            a0, a1 = r0[i], r1[i]
            if a0 < INF or a1 < INF:
                for j in range(cap - i):
                    v, w = a0 + g0[j], min(a0 + g1[j], a1 + g0[j])
                    if v < s0[i + j]:
                        s0[i + j] = v
                    if w < s1[i + j]:
                        s1[i + j] = w
        return s0, s1

    @staticmethod
    def pair_fits(r: Pair, g: Pair, t: int, slack: int) -> bool:
        """Whether entry t of the one-removal state of joining two two-state tables fits."""
        (r0, r1), (g0, g1), bound = r, g, t + slack
        for u in range(t + 1):
            if r1[u] + g0[t - u] <= bound or r0[u] + g1[t - u] <= bound:
                return True
        return False


class Exact:
    """Tables of the set of missing counts (a bitset) for each dropped count; set-sum joins."""

    empty, unit = 0, 1

    @staticmethod
    def table(pairs: set[tuple[int, int]], size: int) -> tuple[int, ...]:
        """Bitset of the M for each U in 0..size."""
        table = [0] * (size + 1)
        for u, m in pairs:
            table[u] |= 1 << m
        return tuple(x & _BITS for x in table)

    @staticmethod
    def sums(x: int, y: int) -> int:
        """The bitset of every a + b, a in x, b in y."""
        out = 0
        while x:
            low = x & -x
            out |= y * low
            x ^= low
        return out & _BITS

    @classmethod
    def join(cls, a: Sequence[int], b: Sequence[int], cap: int) -> list[int]:
        """Set-sum convolution of two tables, cut to `cap` entries."""
        out = [0] * min(len(a) + len(b) - 1, cap)
        n = len(out)
        for i, x in enumerate(a[:n]):
            if x:
                for j, y in enumerate(b[:n - i]):
                    if y:
                        out[i + j] |= cls.sums(x, y)
        return out

    @staticmethod
    def merge(a: Sequence[int], b: Sequence[int]) -> list[int]:
        """Either table (same length)."""
        return [x | y for x, y in zip(a, b)]

    @classmethod
    def entry(cls, a: Sequence[int], b: Sequence[int], t: int) -> int:
        """Entry t of the join of two tables."""
        out = 0
        for i in range(max(0, t - len(b) + 1), min(t + 1, len(a))):
            out |= cls.sums(a[i], b[t - i])
        return out

    @staticmethod
    def fits(value: int, u: int, slack: int) -> bool:
        """Some target dropping u cards has exactly the target size."""
        return bool(value >> (u + slack) & 1)

    @classmethod
    def join2(cls, r: Pair, g: Pair, cap: int) -> Pair:
        """Two-state join (tables of `cap` entries): no removal in either, or the one removal in one of them."""
        (r0, r1), (g0, g1) = r, g
        return cls.join(r0, g0, cap), cls.merge(cls.join(r0, g1, cap), cls.join(r1, g0, cap))

    @classmethod
    def pair_fits(cls, r: Pair, g: Pair, t: int, slack: int) -> bool:
        """Whether entry t of the one-removal state of joining two two-state tables fits."""
        (r0, r1), (g0, g1) = r, g
        out = 0
        for u in range(t + 1):
            out |= cls.sums(r1[u], g0[t - u]) | cls.sums(r0[u], g1[t - u])
        return cls.fits(out, t, slack)


Algebra = type[Fast] | type[Exact]
