"""Exact discard analysis for Chắn (RULES.md 2): per legal discard, the distance it leaves, its waits, the
improving cards, and the ranking.

Distances are those of `distance` (the method is described there): structural, so unseen copies only weigh waits
and improving cards. Its per-value shift tables, forward passes and scans are reused here with the faces a
discard may take flagged.

A card y improves a hand at distance d >= 1 (after y some legal discard leaves d - 1) exactly when a target at d
replacements misses y, drops a card that is a legal discard, and misses another card that may come (Chi chi
only with 6 Chắn). A backward pass marks the states after each value that still reach such a target; an
option of a value then counts when the states before it meet them. The one case left, a target d - 1 away
missing only Chi chi with more than 6 Chắn, is tested for Chi chi as defined.

Cost: a 20-card hand takes one forward pass; each discard redoes the values from its own on (forward) and up to
it (backward).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from ..analysis import DiscardAnalysis, DiscardOption, Wait, rank_key, ranked
from ..errors import DomainError, ImpossibleCount
from .captures import History
from .cards import CHI_CHI, COPIES, N_FACES, check_copies, code, parse_card, value_of
from .distance import (
    UNREACHABLE,
    Frame,
    Layout,
    check_size,
    complete_distance,
    distance,
    fewest_replacements,
    forward,
    frame_of,
    layout,
    scan,
    value_options,
    value_shifts,
    value_tables,
)
from .hand import MAX_CARDS, ChanHand, WinResult, evaluate_win
from .pairs import Pair, pair_up
from .scoring import find_bonuses, score

# `distance`, `complete_distance` and UNREACHABLE stay importable from here
__all__ = ["UNREACHABLE", "Distances", "analyse_discards", "complete_distance", "distance", "history_key",
           "least_distance", "legal_faces", "top_discard", "unseen_cards"]

PAYERS = 3  # RULES.md 2 "Payment": each of the three losers pays the score


def _forbidden(history: History) -> frozenset[int]:
    """Faces never to be discarded whatever the count: rule 3 (identical capture passed up) and rule 6 (having
    captured a Cạ, the other suits of a discarded face)."""
    out = set(history.passed_identical)
    if history.captured_ca:
        for face in history.discarded - {CHI_CHI}:
            out.update(f for f in range(face - face % 3, face - face % 3 + 3) if f != face)
    return frozenset(out)


def history_key(history: History) -> tuple:
    """What of his history the analysis of a hand depends on: the faces he may never discard (rules 3, 6), whether
    he captured a Cạ (rule 6 then grows with each discard) and a dead hand. Histories with one key get one
    analysis."""
    return _forbidden(history), history.captured_ca, history.dead_hand


def legal_faces(counts: Sequence[int], forbidden: frozenset[int]) -> list[int]:
    """`captures.legal_discards` given `_forbidden` of the history: an odd count (rule 2), not forbidden (3, 6)."""
    return [f for f in range(N_FACES) if counts[f] & 1 and f not in forbidden]


def _legal_mask(counts: Sequence[int], forbidden: frozenset[int]) -> int:
    """Faces a discard may take (rule 2: an odd count; rules 3, 6: not forbidden) as a bit mask."""
    return sum(1 << f for f, n in enumerate(counts) if n & 1 and f not in forbidden)


def _goal(last: tuple[int, int], lay: Layout, chi_chi: tuple, d: int) -> tuple[int, int, bool]:
    """The targets T at d replacements (d >= 1) that make a missing y improve: T drops a legal discard (the
    flag, from the suited values or Chi chi) and keeps a card to come besides y (Chi chi only with 4 Cạ, i.e.
    6 Chắn). Returns the suited states (unflagged, flagged) that complete such a T for a suited y, and whether
    the states after every suited value `last` complete one that misses Chi chi (y = Chi chi)."""
    goal0 = goal1 = 0
    chi_chi_missed = False
    every, top = (1 << lay.cap + 1) - 1, 1 << lay.cap
    for u_c, m_c, _, flag_c, _ in chi_chi:
        u_s, m_s = d - u_c, d + 1 - m_c
        if u_s < 0 or not 0 <= m_s <= lay.bound + 1:
            continue
        at = u_s * lay.u_stride + m_s * lay.m_stride
        cas = (every if m_s >= 2 else top) << at  # a second suited card missing, or 4 Cạ
        goal1 |= cas
        goal0 |= cas if flag_c else 0
        states = last[1] | (last[0] if flag_c else 0)
        chi_chi_missed |= bool(m_c and states >> at & (every if m_s else top))
    return goal0, goal1, chi_chi_missed


def _back(need: tuple[int, int], table: tuple, valid: int) -> tuple[int, int]:
    """The states before one value from which one of its options reaches `need`."""
    plain, flagged, _ = table
    n0, n1 = need
    r0 = r1 = 0
    for shift in plain:
        r0 |= n0 >> shift
        r1 |= n1 >> shift
    for shift in flagged:
        back = n1 >> shift
        r0 |= back
        r1 |= back
    return r0 & valid, r1 & valid


def _needs(tables: list, lay: Layout, goal: list[int], shared: list | None = None, value: int = 7) -> list:
    """needs[g]: the states after values 0..g from which values g+1.. reach `goal`. `shared` holds them for
    tables that differ from these at `value` only, so needs[value..] are taken from it."""
    needs = list(shared) if shared else [goal] * len(tables)
    for g in range(value, 0, -1):
        needs[g - 1] = _back(needs[g], tables[g], lay.valid)
    return needs


def _improving(pre: list, tables: list, needs: list) -> int:
    """Suited faces (mask) some option joins into a goal state: the missing faces of those targets."""
    faces = 0
    for v, (p0, p1) in enumerate(pre[:-1]):
        n0, n1 = needs[v]
        for shift, flag, missing in tables[v][2]:
            if missing << 3 * v & ~faces and (
                    (p0 | p1) & n1 >> shift if flag else p0 & n0 >> shift | p1 & n1 >> shift):
                faces |= missing << 3 * v
    return faces


class _Pass(NamedTuple):
    """One hand's tables at one bound and the states after each prefix of the values."""

    lay: Layout
    tables: list
    chi_chi: tuple
    pre: list


def _pass(counts: Sequence[int], frame: Frame, legal: int, bound: int, base: _Pass | None = None,
          changed: int = CHI_CHI) -> _Pass:
    """The tables of `counts`; with `base` (a hand differing from it in face `changed` only) reuse its prefix."""
    lay = layout(bound, frame.cap)
    chi_chi = value_options((counts[CHI_CHI],), (frame.limits[CHI_CHI],), legal >> CHI_CHI & 1)
    if base is None:
        tables, _ = value_tables(counts, frame, legal, bound)
        return _Pass(lay, tables, chi_chi, forward(tables, lay.valid))
    if changed == CHI_CHI:
        return _Pass(lay, base.tables, chi_chi, base.pre)
    v, at = changed // 3, changed - changed % 3
    tables = list(base.tables)
    tables[v] = value_shifts(tuple(counts[at:at + 3]), frame.limits[at:at + 3], legal >> at & 7, bound, frame.cap)
    return _Pass(lay, tables, chi_chi, base.pre[:v] + forward(tables[v:], lay.valid, base.pre[v]))


class _Shared(NamedTuple):
    """What every discard of one hand reuses: the exposed pairs' frame, the hand's pass, the needs by goal."""

    frame: Frame
    base: _Pass
    needs: dict


class _Rest(NamedTuple):
    """The hand a discard leaves: its distance, fewest dropped cards, pass, and whether the pass reused the base."""

    d: int
    u_min: int
    found: _Pass
    reused: bool


def _rest_distance(rest: list[int], after: History, shared: _Shared, changed: int) -> _Rest:
    """Distance of the hand a discard of `changed` leaves, `after` his history."""
    frame, base = shared.frame, shared.base
    legal = _legal_mask(rest, _forbidden(after))
    suited = sum(rest) - rest[CHI_CHI]
    bound = base.lay.bound
    while True:
        found = _pass(rest, frame, legal, bound, base, changed)
        d, u_min = scan(found.pre[-1][0] | found.pre[-1][1], found.lay, found.chi_chi, 1, suited)
        if d <= bound or bound > frame.size:
            return _Rest(d, u_min, found, base is not None)
        bound, base = max(2 * bound, d), None


def _rest_faces(rest: list[int], after: History, shared: _Shared, changed: int, at: _Rest) -> int:
    """Improving faces (mask) of the hand a discard of `changed` leaves at distance `at.d`."""
    d, found = at.d, at.found
    if d == 0 or d == UNREACHABLE:
        return 0
    *goal, chi_chi_missed = _goal(found.pre[-1], found.lay, found.chi_chi, d)
    if not at.reused:
        needs = _needs(found.tables, found.lay, goal)
    else:
        key = (d, found.chi_chi)
        if key not in shared.needs:
            shared.needs[key] = _needs(shared.base.tables, found.lay, goal)
        needs = _needs(found.tables, found.lay, goal, shared.needs[key], changed // 3 if changed < CHI_CHI else 0)
    faces = _improving(found.pre, found.tables, needs)
    if chi_chi_missed or at.u_min == d - 1 and _chi_chi_improves(rest, shared.frame, after, d):
        faces |= 1 << CHI_CHI
    return faces


def _chi_chi_improves(rest: list[int], frame: Frame, after: History, d: int) -> bool:
    """Chi chi as the next card, tested as defined: the rare case where a target d - 1 cards away misses only
    Chi chi and has more than 6 Chắn, so that a card the hand keeps must be the card to come."""
    if rest[CHI_CHI] >= frame.limits[CHI_CHI]:
        return False
    grown = list(rest)
    grown[CHI_CHI] += 1
    for z in legal_faces(grown, _forbidden(after)):
        grown[z] -= 1
        lower = fewest_replacements(grown, frame, 1) == d - 1
        grown[z] += 1
        if lower:
            return True
    return False


def _waits(rest: list[int], exposed: tuple[Pair, ...], frame: Frame, options: Mapping[str, Any],
           unseen: Sequence[int]) -> tuple[Wait, ...]:
    """Every card that, as the next card, wins: only the value of the unpaired cards can pair them all."""
    values = {value_of(c) for c in pair_up(rest).unpaired}
    if len(values) != 1:
        return ()
    value = values.pop()
    out = []
    for y in (CHI_CHI,) if value == 0 else range(3 * value - 6, 3 * value - 3):
        if rest[y] >= frame.limits[y]:
            continue
        won = ChanHand(tuple(rest), exposed, y)
        win = evaluate_win(won)
        if win.hu:
            points = _points(won, win, options)
            # RULES.md 2: a win only on a turned-up stock card, or completed at once by a Chíu on three held
            claims = ("stock", "chiu") if rest[y] == 3 else ("stock",)
            out.append(Wait(y, unseen[y], claims, points, PAYERS * points))
    return tuple(out)


def _points(hand: ChanHand, win: WinResult, options: Mapping[str, Any]) -> int:
    """The score of a win from the cards alone: someone else's stock card, so no Ù chì (own gate: it adds)."""
    counts = hand.with_public()
    for pair in hand.exposed:
        for c in pair.cards:
            counts[c] += 1
    return score(find_bonuses(hand, counts, win.chan, win.pairs, {}, options))[0]


def unseen_cards(hand: ChanHand, visible: Sequence[object]) -> list[int]:
    """Copies of each face the player has not seen: the deck minus his cards and the `visible` codes (discards,
    turned-up cards, other seats' pairs). The hand must be a discard decision: 20 cards, no public card."""
    if hand.public_card is not None:
        raise DomainError("a discard is analysed on the player's own 20 cards: give no public_card", "public_card",
                          code="unexpected_public_card")
    if hand.card_count() != MAX_CARDS:
        raise ImpossibleCount(f"a Chắn player discards from {MAX_CARDS} cards (hand + exposed); these are "
                              f"{hand.card_count()}", "hand", code="wrong_card_count")
    located = [(c, "hand") for c, n in enumerate(hand.counts) for _ in range(n)]
    located += [(c, f"exposed.{i}.cards") for i, p in enumerate(hand.exposed) for c in p.cards]
    located += [(parse_card(t, f"visible.{i}"), f"visible.{i}") for i, t in enumerate(visible)]
    check_copies(located)
    unseen = [COPIES] * N_FACES
    for c, _ in located:
        unseen[c] -= 1
    return unseen


def _shared(counts: list[int], exposed: tuple[Pair, ...], history: History) -> tuple[_Shared | None, int]:
    """The tables every discard of a 20-card hand reuses, at a bound one above the hand's complete distance, and
    that distance."""
    frame = frame_of(exposed)
    check_size(counts, frame, 0)
    bound, now, shared = 1, UNREACHABLE, None
    while frame.cap >= 0:
        base = _pass(counts, frame, _legal_mask(counts, _forbidden(history)), bound)
        now, _ = scan(base.pre[-1][0] | base.pre[-1][1], base.lay, base.chi_chi, 0, sum(counts) - counts[CHI_CHI])
        shared = _Shared(frame, base, {})
        if now < bound or bound > frame.size:
            break  # a discard leaves at most one replacement more: within the bound
        bound = now + 1 if now < UNREACHABLE else 2 * bound + 1
    return shared, now


def _after(history: History, x: int) -> History:
    """His history once he has discarded `x`."""
    return History(history.discarded | {x}, history.passed_identical, history.played_into_ca, history.captured_ca,
                   history.dead_hand)


def _option(x: int, rest: list[int], after: History, hand: ChanHand, shared: _Shared | None, at: _Rest | None,
            options: Mapping[str, Any], unseen: Sequence[int], total: int) -> DiscardOption:
    """One discard's option: at distance 0 its waits, else its improving cards."""
    d = at.d if at else UNREACHABLE
    waits = _waits(rest, hand.exposed, shared.frame, options, unseen) if d == 0 else ()
    if d == 0:
        improving = tuple((w.card, w.unseen) for w in waits if w.unseen)
    else:
        faces = _rest_faces(rest, after, shared, x, at) if at else 0
        improving = tuple((y, unseen[y]) for y in range(N_FACES) if faces >> y & 1 and unseen[y])
    expected = sum(w.unseen * max(w.gain, 0) for w in waits) / total if total else 0.0
    return DiscardOption(x, d, waits, improving, sum(n for _, n in improving), expected)


def analyse_discards(hand: ChanHand, options: Mapping[str, Any], unseen: Sequence[int], history: History
                     ) -> DiscardAnalysis:
    """Every legal discard of a 20-card hand (capture rules 2, 3, 6; a dead hand has none: RULES.md 2, it can
    neither capture nor win), ranked by `analysis.rank_key`.

    Per discard: the distance of the hand it leaves; at distance 0 its waits, each claimable on a turned-up
    stock card at any gate and, with three held, by a Chíu (RULES.md 2 "Deal and turn"), worth its score from
    the cards alone on another gate's stock card (on his own gate Ù chì adds to it) and three times that from
    the losers; otherwise the unseen faces y after which a legal discard (his history then includes this one)
    leaves distance d - 1.
    """
    counts = list(hand.counts)
    shared, now = _shared(counts, hand.exposed, history)
    total = sum(unseen)
    found = []
    for x in [] if history.dead_hand else legal_faces(counts, _forbidden(history)):
        rest = list(counts)
        rest[x] -= 1
        after = _after(history, x)
        at = _rest_distance(rest, after, shared, x) if shared else None
        found.append(_option(x, rest, after, hand, shared, at, options, unseen, total))
    return DiscardAnalysis(ranked(found, _describe), now, total)


class Distances:
    """The distance of every legal discard of a 20-card hand, kept for those tied at the least: what deciding a
    claim needs (`least`), and the start of its top option (`top`)."""

    def __init__(self, counts: Sequence[int], exposed: tuple[Pair, ...], history: History) -> None:
        counts = list(counts)
        self.tied: list[tuple[int, list[int], History, _Rest | None]] = []
        self.least = UNREACHABLE
        legal = [] if history.dead_hand else legal_faces(counts, _forbidden(history))
        self.shared = _shared(counts, exposed, history)[0] if legal else None
        least = UNREACHABLE + 1
        for x in legal:
            rest = list(counts)
            rest[x] -= 1
            after = _after(history, x)
            at = _rest_distance(rest, after, self.shared, x) if self.shared else None
            d = at.d if at else UNREACHABLE
            if d < least:
                self.tied, least = [], d
            if d == least:
                self.tied.append((x, rest, after, at))
        self.least = min(least, UNREACHABLE)

    def top(self, hand: ChanHand, options: Mapping[str, Any], unseen: Sequence[int]) -> DiscardOption | None:
        """The first option of `analyse_discards` of `hand` (these cards), None when it has no legal discard."""
        if not self.tied:
            return None
        total = sum(unseen)
        found = [_option(x, rest, after, hand, self.shared, at, options, unseen, total)
                 for x, rest, after, at in self.tied]
        return min(found, key=lambda o: (rank_key(o), o.card))


def top_discard(hand: ChanHand, options: Mapping[str, Any], unseen: Sequence[int], history: History
                ) -> DiscardOption | None:
    """The first option of `analyse_discards` (None: no legal discard), without ranking every option: the
    distance of every legal discard, then waits or improving cards only for those tied at the least distance
    (the rest of the ranking key). Its `rank` and `reason` are left empty."""
    return Distances(hand.counts, hand.exposed, history).top(hand, options, unseen)


def least_distance(counts: Sequence[int], exposed: tuple[Pair, ...], history: History) -> int:
    """The least distance a legal discard of a 20-card hand leaves (UNREACHABLE also when it has none): the
    first term of the top option's ranking key, without its waits or improving cards."""
    return Distances(counts, exposed, history).least


def _describe(option: DiscardOption) -> str:
    """A readable reason for an option's place."""
    cards = " ".join(code(c) for c, _ in option.improving)
    if option.distance == UNREACHABLE:
        return f"discard {code(option.card)}: no replacement can make this hand win"
    if option.distance:
        step = "replacement" if option.distance == 1 else "replacements"
        return (f"discard {code(option.card)}: {option.distance} {step} from waiting; {option.improving_unseen} "
                f"unseen cards bring it one closer ({cards or 'none'})")
    best = max(option.waits, key=lambda w: w.points)
    chiu = [code(w.card) for w in option.waits if "chiu" in w.claims]
    return (f"discard {code(option.card)}: waiting on {' '.join(code(w.card) for w in option.waits)} "
            f"({sum(w.unseen for w in option.waits)} unseen), won on a turned-up stock card"
            + (f" or at once by a Chíu on {' '.join(chiu)}" if chiu else "")
            + f"; best {best.points} points, {best.gain} from the three losers on another gate's stock card "
            f"(on his own gate Ù chì adds to it); one-card expected gain {option.expected_gain:.2f}")
