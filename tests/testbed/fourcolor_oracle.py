"""A plain recursive search for Four Color Cards decompositions: the slow oracle the table evaluator and the
discard analysis are checked against (tests/rules) and measured against (bench/hand_eval.py).

It shares only the definition of a meld with the engine (`classify`): its melds are found by trying every
multiset of one to four chess cards, never by the engine's own meld generator (`evaluate.melds_with`,
`legal_melds`), so a card combination that generator forgets is not forgotten here as well."""

from __future__ import annotations

from functools import cache
from itertools import combinations_with_replacement

from service.rules.fourcolor.cards import N_KINDS, Tally
from service.rules.fourcolor.melds import MeldRules, classify

Meld = tuple[int, ...]


@cache
def melds_by_card(rules: MeldRules) -> tuple[tuple[Meld, ...], ...]:
    """For each chess card, every meld (sorted card indices) that contains it: each multiset of one to four chess
    cards that `classify` accepts under `rules`."""
    every = [m for n in range(1, 5) for m in combinations_with_replacement(range(N_KINDS), n)
             if classify(m, rules) is not None]
    return tuple(tuple(m for m in every if card in m) for card in range(N_KINDS))


def melds_containing(counts: list[int], x: int, rules: MeldRules) -> list[Meld]:
    """The melds that use card x and whose cards are all in `counts`."""
    return [m for m in melds_by_card(rules)[x] if all(m.count(c) <= counts[c] for c in set(m))]


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
    for meld in melds_containing(counts, x, rules):
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
