"""Exact distance of a Chắn hand to a win (docs/rules.md#chan-win): how many of its concealed cards must be replaced.

`distance`: the fewest replacements so that the hand plus one more card wins (0: it is waiting);
`complete_distance`: the same for the hand as it stands (0: it wins). The distance is structural, like mahjong's
shanten: it counts replacements in the player's own hand and looks at no card seen elsewhere. A target hand may
hold at most 4 copies of a face minus the copies in his exposed pairs.

How it is computed. docs/rules.md#chan-pairs makes the pairing forced: each face gives count // 2 Chắn and the odd
faces of one value must be exactly two, which form the value's single Cạ (Chi chi: an even count). Ten pairs
with at least 6 Chắn is therefore at most 4 Cạ, exposed ones included, and exactly 6 Chắn is exactly 4 Cạ. A
winning target T (hand + the card to come) is so a choice per value of complete counts, each value independent
but for two sums: the Cạ and the cards. For one value's counts (at most 5^3 targets, cached) we keep the
distinct (u, m, Cạ, flag) options, u = hand cards T drops, m = cards T adds. Those sums run through bitsets
over (u, m, Cạ): one bit per reachable state, an option is a shift, so joining a value to the values before it
is a few big-int shifts. The replacements to a target T are u(T) (m(T) = u(T) + 1); a target whose only
missing card is Chi chi costs one more unless it has exactly 6 Chắn (the Chi chi winning-card rule).

The flag (the target drops a card of a face given as a legal discard) and the missing faces of each option serve
the discard analysis (`discards`), which reuses these tables, passes and scans.

Cost: a join is at most 125 shifts of ints of (2B + 1)(2B + 3)(Cạ cap + 2) bits for a bound B >= d; a hand takes
one forward pass per bound tried.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import product
from typing import NamedTuple

from .cards import CHI_CHI, COPIES, N_FACES
from .hand import MAX_CARDS
from .pairs import Pair

#: The distance of a hand no replacement can make win (its exposed pairs already hold five Cạ).
UNREACHABLE = 99
MAX_CA = 4  # docs/rules.md#chan-win: 10 pairs with at least 6 Chắn leave at most 4 Cạ
VALUES = range(8)  # the suited values 2-9 as groups of faces 3v, 3v+1, 3v+2; Chi chi is the ninth group


#: One value's complete targets: (u, m, Cạ, flag, missing faces) each (`value_options`).
Options = tuple[tuple[int, ...], ...]
#: One value's options as shifts: (unflagged shifts, flagged shifts, (shift, flag, missing) marks) (`value_shifts`).
Shifts = tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, int, int], ...]]


class Frame(NamedTuple):
    """What the exposed pairs fix for every target: copy limits, the Cạ still allowed, the concealed size."""

    limits: tuple[int, ...]
    cap: int
    size: int


class Layout(NamedTuple):
    """Bit positions of the states (u <= bound, m <= bound + 1, Cạ <= cap); fields padded so sums never carry."""

    bound: int
    cap: int
    m_stride: int
    u_stride: int
    valid: int


def frame_of(exposed: Sequence[Pair]) -> Frame:
    """Copy limits, Cạ cap and concealed size of a win, from the exposed pairs."""
    limits = [COPIES] * N_FACES
    for pair in exposed:
        for c in pair.cards:
            limits[c] -= 1
    cap = MAX_CA - sum(1 for p in exposed if p.kind == "ca")
    return Frame(tuple(limits), cap, MAX_CARDS - sum(len(p.cards) for p in exposed))


@lru_cache(maxsize=64)
def layout(bound: int, cap: int) -> Layout:
    """The bit layout of a bound."""
    m_stride = cap + 2
    u_stride = m_stride * (2 * bound + 3)
    valid = sum(1 << (u * u_stride + m * m_stride + ca)
                for u in range(bound + 1) for m in range(bound + 2) for ca in range(cap + 1))
    return Layout(bound, cap, m_stride, u_stride, valid)


@lru_cache(maxsize=1 << 16)
def value_options(held: tuple[int, ...], limits: tuple[int, ...], legal: int) -> Options:
    """(u, m, Cạ, flag, missing faces) of every complete target of one value's faces; flag: the target drops a
    card of a face in `legal` (a bit mask); missing faces are ORed over the targets sharing the first four."""
    best: dict[tuple[int, int, int, int], int] = {}
    for target in product(*(range(n + 1) for n in limits)):
        odd = sum(n & 1 for n in target)
        if odd & 1 or (odd and len(target) == 1):
            continue  # one or three odd suits leave a card unpaired; Chi chi pairs only with Chi chi
        u = m = flag = missing = 0
        for i, (want, have) in enumerate(zip(target, held)):
            if want > have:
                m += want - have
                missing |= 1 << i
            elif want < have:
                u += have - want
                flag |= legal >> i & 1
        key = (u, m, odd // 2, flag)
        best[key] = best.get(key, 0) | missing
    return tuple((*key, missing) for key, missing in best.items())


@lru_cache(maxsize=1 << 16)
def value_shifts(held: tuple[int, ...], limits: tuple[int, ...], legal: int, bound: int, cap: int) -> Shifts:
    """One value's options as bit shifts: (unflagged shifts, flagged shifts, (shift, flag, missing) marks of the
    options that miss a card: what improving cards are read from)."""
    lay = layout(bound, cap)
    plain: list[int] = []
    flagged: list[int] = []
    marks: list[tuple[int, int, int]] = []
    for u, m, ca, flag, missing in value_options(held, limits, legal):
        if u <= bound and m <= bound + 1 and ca <= cap:
            shift = u * lay.u_stride + m * lay.m_stride + ca
            (flagged if flag else plain).append(shift)
            if missing:
                marks.append((shift, flag, missing))
    return tuple(plain), tuple(flagged), tuple(marks)


def value_tables(counts: Sequence[int], frame: Frame, legal: int, bound: int) -> tuple[list[Shifts], Options]:
    """The suited values' shift tables and the Chi chi options of a hand; `legal`: faces it may discard (mask)."""
    tables = [value_shifts(tuple(counts[3 * v:3 * v + 3]), frame.limits[3 * v:3 * v + 3], legal >> 3 * v & 7,
                           bound, frame.cap) for v in VALUES]
    chi_chi = value_options((counts[CHI_CHI],), (frame.limits[CHI_CHI],), legal >> CHI_CHI & 1)
    return tables, chi_chi


def forward(tables: Sequence[Shifts], valid: int, start: tuple[int, int] = (1, 0)) -> list[tuple[int, int]]:
    """States after each prefix of the values: (unflagged, flagged) bitsets, `start` before the first."""
    s0, s1 = start
    out = [start]
    # Both halves in one int, the flagged one `wide` bits up: a state or a shift lies within valid's width, so the
    # unflagged half shifted stays below `wide` and one shift moves both.
    wide = 2 * valid.bit_length()
    for plain, flagged, _ in tables:
        n0 = n1 = 0
        if s1:
            both = s0 | s1 << wide
            for shift in plain:
                n0 |= both << shift
            n1 = n0 >> wide
        else:  # nothing flagged yet (the common start)
            for shift in plain:
                n0 |= s0 << shift
        if flagged:
            either = s0 | s1
            for shift in flagged:
                n1 |= either << shift
        s0, s1 = n0 & valid, n1 & valid
        out.append((s0, s1))
    return out


def scan(states: int, lay: Layout, chi_chi: Options, extra: int, suited: int) -> tuple[int, int]:
    """(fewest replacements, fewest dropped cards) over the suited states joined with Chi chi; the target holds
    `extra` cards more than the hand (1: the card to come). UNREACHABLE when nothing is within the bound."""
    best = u_min = UNREACHABLE
    block = (1 << lay.cap + 1) - 1
    for total in range(min(lay.bound + 1, best)):
        for u_c, m_c, _, _, _ in chi_chi:
            u_s, m_s = total - u_c, total + extra - m_c
            if u_s < 0 or not 0 <= m_s <= lay.bound + 1:
                continue
            found = states >> u_s * lay.u_stride + m_s * lay.m_stride & block
            if not found:
                continue
            u_min = min(u_min, total)
            if extra == 0 or m_s or found >> lay.cap:
                return total, u_min
            if suited > u_s:
                # only Chi chi is missing and Chắn != 6 (docs/rules.md#chan-win: won on Chi chi, exactly 6 Chắn
                # and 4 Cạ): the card to come must be one the hand keeps
                best = min(best, total + 1)
        if total + 1 >= best:
            break
    return best, u_min


def fewest_replacements(counts: Sequence[int], frame: Frame, extra: int) -> int:
    """Fewest replacements to a winning target of len(counts) + extra cards, growing the bound until found."""
    bound = 4
    while frame.cap >= 0:
        tables, chi_chi = value_tables(counts, frame, 0, bound)
        lay = layout(bound, frame.cap)
        cost, _ = scan(forward(tables, lay.valid)[-1][0], lay, chi_chi, extra, sum(counts) - counts[CHI_CHI])
        if cost < UNREACHABLE or bound > frame.size:
            return cost
        bound *= 2
    return UNREACHABLE


def check_size(counts: Sequence[int], frame: Frame, extra: int) -> None:
    """The hand must make 20 cards with its exposed pairs and `extra` more."""
    if sum(counts) + extra != frame.size:
        raise ValueError(f"{sum(counts)} concealed cards + {MAX_CARDS - frame.size} exposed + {extra} is not "
                         f"{MAX_CARDS}")


def distance(counts: Sequence[int], exposed: Sequence[Pair] = ()) -> int:
    """Fewest cards of the concealed hand to replace so that hand + one more card wins (0: waiting).

    Concealed + exposed must be 19 cards. A win is 10 pairs over hand, exposed pairs and that card with at least
    6 Chắn, forced pairing, and exactly 6 Chắn when the card is Chi chi (docs/rules.md#chan-pairs). Structural: a
    target holds at most 4 copies of a face minus the exposed ones, and cards seen elsewhere do not count.
    """
    frame = frame_of(exposed)
    check_size(counts, frame, 1)
    return fewest_replacements(counts, frame, 1)


def complete_distance(counts: Sequence[int], exposed: Sequence[Pair] = ()) -> int:
    """Fewest cards of the concealed hand to replace so that it wins as it stands (0: it wins); concealed +
    exposed must be 20 cards. No card is to come, so the Chi chi winning-card rule has nothing to test."""
    frame = frame_of(exposed)
    check_size(counts, frame, 0)
    return fewest_replacements(counts, frame, 0)
