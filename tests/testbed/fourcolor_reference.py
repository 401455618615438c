"""A plain recursive search for Four Color Cards decompositions: the slow oracle the tables are checked
against (tests) and measured against (bench/hand_eval.py). It shares only meld legality (`classify`)."""

from __future__ import annotations

from itertools import combinations

from service.rules.fourcolor.cards import N_KINDS, SOLDIER, Tally
from service.rules.fourcolor.melds import MeldRules, classify


def _melds_containing(counts: list[int], x: int, rules: MeldRules) -> list[tuple[int, ...]]:
    """Candidate melds (card tuples) that use card x and fit in `counts`."""
    out = [(x,) * n for n in range(1, counts[x] + 1)]
    colour, char = divmod(x, 7)
    for group in ((0, 1, 2), (3, 4, 5)):
        if char in group and all(counts[colour * 7 + k] for k in group):
            out.append(tuple(colour * 7 + k for k in group))
    if char == SOLDIER:
        others = [c * 7 + SOLDIER for c in range(4) if c != colour and counts[c * 7 + SOLDIER]]
        for size in (2, 3):
            out += [tuple(sorted((x, *rest))) for rest in combinations(others, size)]
    return [m for m in out if classify(m, rules) is not None]


def search(tally: Tally, rules: MeldRules) -> tuple[int, int]:
    """(best concealed points or -1, number of distinct complete splits) by exhaustive recursion."""
    flower_pts = rules.value("flower", True) if rules.flowers else 0
    flowers = bin(tally.flowers).count("1")
    best, ways = _search(tally.counts[:], 0, None, rules)
    return (best + flowers * flower_pts if best >= 0 else -1), ways


def _search(counts: list[int], start: int, floor: tuple | None, rules: MeldRules) -> tuple[int, int]:
    """Recursion: the first card left must be in some meld; melds using it come in (size, cards) order."""
    x = next((i for i in range(start, N_KINDS) if counts[i]), -1)
    if x < 0:
        return 0, 1
    best, ways = -1, 0
    for meld in _melds_containing(counts, x, rules):
        key = (len(meld), meld)
        if floor is not None and key < floor:
            continue
        for card in meld:
            counts[card] -= 1
        # Multisets, not sequences: later melds that still use x come at or after this one in that order.
        sub_best, sub_ways = _search(counts, x, key if counts[x] else None, rules)
        for card in meld:
            counts[card] += 1
        if sub_best >= 0:
            ways += sub_ways
            best = max(best, sub_best + rules.value(classify(meld, rules), True))
    return best, ways

