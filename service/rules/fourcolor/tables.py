"""Table-driven decomposition of Four Color Cards hands.

Melds never mix colours except the Soldier groups (docs/rules.md#fc-melds), so a hand splits into four
independent one-colour problems once we fix how many Soldiers each colour sends to cross-colour groups.
A colour is a state of 7 counts 0..4 (5**7 = 78,125 states); `ColourTable` holds, for every state, the best
concealed points of splitting it completely into one-colour melds, the number of distinct splits and the
choice that reaches the best. Soldier is the lowest base-5 digit, so sending t Soldiers away is `state - t`.
`SoldierTable` lists, for each vector of Soldier counts per colour, the ways to form cross-colour Soldier
groups. Evaluating a hand is then a few list look-ups per feasible Soldier export: O(1) per hand.
Tables are built once per `MeldRules` profile (about a second) and cached for the process.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product
from typing import Any

from .melds import MeldRules, colour_patterns

N_STATES = 5 ** 7
WEIGHTS = tuple(5 ** (6 - k) for k in range(7))  # G .. S; Soldier weight 1


#: A pattern multiset of `ColourTable._combos`: (state delta, character vector, points, pattern ids).
Combo = tuple[int, tuple[int, ...], int, tuple[int, ...]]


def state_digits(state: int) -> tuple[int, ...]:
    """The 7 character counts (G .. S) of a colour state."""
    return tuple(state // w % 5 for w in WEIGHTS)


class ColourTable:
    """Best points, number of splits and best choice for every one-colour state."""

    def __init__(self, rules: MeldRules) -> None:
        self.patterns = colour_patterns(rules)
        self.combos = self._combos(rules)
        self.best = [-1] * N_STATES
        self.ways = [0] * N_STATES
        self.choice: list[tuple[int, int, tuple[int, ...]] | None] = [None] * N_STATES
        self._fill()

    def _combos(self, rules: MeldRules) -> list[list[list[tuple[int, tuple[int, ...], int, tuple[int, ...]]]]]:
        """combos[x][n]: multisets of patterns led by character x that use exactly n copies of x."""
        led: list[list[int]] = [[] for _ in range(7)]
        for pid, (_, vec) in enumerate(self.patterns):
            led[next(k for k in range(7) if vec[k])].append(pid)
        combos: list[list[list[Combo]]] = [[[] for _ in range(5)] for _ in range(7)]
        for x in range(7):
            self._extend(combos[x], led[x], x, 0, (), [0] * 7, rules)
        return combos

    def _extend(self, out: list[list[Combo]], pids: list[int], x: int, start: int, chosen: tuple[int, ...],
                vec: list[int], rules: MeldRules) -> None:
        """Depth-first enumeration of pattern multisets (non-decreasing pattern ids) for `_combos`."""
        if chosen:
            delta = sum(v * w for v, w in zip(vec, WEIGHTS))
            pts = sum(rules.value(self.patterns[p][0], True) for p in chosen)
            out[vec[x]].append((delta, tuple(vec), pts, chosen))
        for i in range(start, len(pids)):
            pv = self.patterns[pids[i]][1]
            new = [a + b for a, b in zip(vec, pv)]
            if max(new) <= 4:
                self._extend(out, pids, x, i, chosen + (pids[i],), new, rules)

    def _fill(self) -> None:
        """Dynamic programme over states in increasing order (removing cards lowers the index)."""
        best, ways, choice, combos = self.best, self.ways, self.choice, self.combos
        best[0], ways[0] = 0, 1
        for state in range(1, N_STATES):
            digits = state_digits(state)
            x = next(k for k in range(7) if digits[k])
            top, total, pick = -1, 0, None
            for delta, vec, pts, chosen in combos[x][digits[x]]:
                rest = state - delta
                if rest < 0 or best[rest] < 0 or any(d < v for d, v in zip(digits, vec)):
                    continue
                total += ways[rest]
                if pts + best[rest] > top:
                    top, pick = pts + best[rest], (delta, pts, chosen)
            best[state], ways[state], choice[state] = top, total, pick

    def split(self, state: int) -> list[tuple[str, tuple[int, ...]]]:
        """The best split of a colour state as (kind, character vector) patterns."""
        out: list[tuple[str, tuple[int, ...]]] = []
        while state:
            pick = self.choice[state]
            if pick is None:
                raise ValueError(f"colour state {state} does not split into melds")
            delta, _, chosen = pick
            out.extend(self.patterns[p] for p in chosen)
            state -= delta
        return out


class SoldierTable:
    """Cross-colour Soldier groups: for each Soldier-count vector, every feasible export with its best groups."""

    def __init__(self, rules: MeldRules) -> None:
        s3, s4 = rules.value("soldiers3", True), rules.value("soldiers4", True)
        by_export: dict[tuple[int, ...], list[Any]] = {}  # export -> [best points, ways, best groups]
        # n4 soldiers4 groups; a[m] soldiers3 groups missing colour m.
        for n4, a0, a1, a2, a3 in product(range(5), repeat=5):
            missing = (a0, a1, a2, a3)
            export = tuple(n4 + sum(missing) - missing[c] for c in range(4))
            if max(export) > 4:
                continue
            pts = n4 * s4 + sum(missing) * s3
            entry = by_export.setdefault(export, [-1, 0, None])
            entry[1] += 1
            if pts > entry[0]:
                entry[0], entry[2] = pts, (n4, missing)
        self.by_soldiers: list[list[tuple[int, int, int, int, int, int, tuple[int, tuple[int, ...]]]]] = []
        for counts in product(range(5), repeat=4):
            rows = [
                (*export, pts, ways, groups)
                for export, (pts, ways, groups) in by_export.items()
                if all(e <= c for e, c in zip(export, counts))
            ]
            rows.sort(key=lambda r: -r[4])
            self.by_soldiers.append(rows)


@lru_cache(maxsize=16)
def tables_for(rules: MeldRules) -> tuple[ColourTable, SoldierTable]:
    """The cached tables of a meld profile (built on first use)."""
    return ColourTable(rules), SoldierTable(rules)
