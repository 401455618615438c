"""Exact discard analysis for Chắn (docs/rules.md#chan): per legal discard, the distance it leaves, its waits, the
improving cards, and the ranking.

Distances are those of `distance` (the method is described there): structural, so unseen copies only weigh waits
and improving cards. The distance each discard leaves and its improving cards come from `improving` (its method
is described there), which reuses those tables with the faces a discard may take flagged.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..analysis import DiscardAnalysis, DiscardOption, Order, Wait, ranked_discards
from ..errors import DomainError, ImpossibleCount
from ..text import Text, ntext, text
from .captures import History, forbidden_faces, legal_faces
from .cards import CHI_CHI, COPIES, N_FACES, check_copies, code, parse_card, value_of
from .distance import UNREACHABLE, Frame, complete_distance, distance, frame_of
from .hand import MAX_CARDS, ChanHand, evaluate_win
from .improving import (
    Rest,
    Shared,
    improving_faces,
    lowest_discards,
    rest_distance,
    shared_tables,
)
from .pairs import Pair, unpaired
from .scoring import LEO, TOM_SETS, full_sets, set_faces, win_points

# `distance`, `complete_distance` and UNREACHABLE stay importable from here
__all__ = ["UNREACHABLE", "Distances", "analyse_discards", "at_rest", "complete_distance", "distance", "history_key",
           "least_distance", "legal_faces", "top_discard", "unseen_cards"]

PAYERS = 3  # docs/rules.md#chan-payment: each of the three losers pays the score
#: `sets_kept`: what a full Tôm or Lèo set counts, against 1 per distinct card of an unfinished one. Tuned in the
#: duplicate arena (docs/advice.md#tôm-and-lèo-sets): 2 kept fewer points, 5 and more order the same as 5.
FULL_SET = 3


#: A hand's winning cards: (card, the claims that take it, its points).
Winning = tuple[tuple[int, tuple[str, ...], int], ...]
#: `_waits`' memo (one per options): the winning cards by the hand (concealed counts, exposed pairs).
WaitsMemo = dict[tuple[tuple[int, ...], tuple[Pair, ...]], Winning]


def history_key(history: History) -> tuple[frozenset[int], bool, bool]:
    """What of his history the analysis of a hand depends on: the faces he may never discard (rules 3, 6), whether
    he captured a Cạ (rule 6 then grows with each discard) and a dead hand. Histories with one key get one
    analysis."""
    return forbidden_faces(history), history.captured_ca, history.dead_hand


def _waits(rest: list[int], exposed: tuple[Pair, ...], frame: Frame, options: Mapping[str, Any],
           unseen: Sequence[int], memo: WaitsMemo | None = None) -> tuple[Wait, ...]:
    """Every card that, as the next card, wins: only the value of the unpaired cards can pair them all. `memo`
    (one per `options`) keeps the winning cards and their points by the hand, which is all they depend on."""
    if memo is None:
        found = _winning(rest, exposed, frame, options)
    else:
        key = (tuple(rest), exposed)
        cached = memo.get(key)
        if cached is None:
            cached = memo[key] = _winning(rest, exposed, frame, options)
        found = cached
    return tuple(Wait(y, unseen[y], claims, points, PAYERS * points) for y, claims, points in found)


def _winning(rest: list[int], exposed: tuple[Pair, ...], frame: Frame, options: Mapping[str, Any]
             ) -> Winning:
    """The cards that win as the next card, each with the claims that take it and its points."""
    values = {value_of(c) for c in unpaired(rest)}
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
            points = win_points(won, win, options) or 0  # a wait wins: never None
            # docs/rules.md#chan-win-stock: a win only on a turned-up stock card, or completed at once by a Chíu
            # on three held
            claims = ("stock", "chiu") if rest[y] == 3 else ("stock",)
            out.append((y, claims, points))
    return tuple(out)


def unseen_cards(hand: ChanHand, visible: Sequence[object]) -> list[int]:
    """Copies of each face the player has not seen: the deck minus his cards and the `visible` codes (discards,
    turned-up cards, other seats' pairs). The hand must be a discard decision: 20 cards, no public card."""
    if hand.public_card is not None:
        raise DomainError(text("a discard is analysed on the player's own 20 cards: give no public_card"),
                               "public_card",
                          code="unexpected_public_card")
    if hand.card_count() != MAX_CARDS:
        raise ImpossibleCount(text("a Chắn player discards from {cards} cards (hand + exposed); these are {count}",
                                   cards=MAX_CARDS, count=hand.card_count()), "hand", code="wrong_card_count")
    return count_unseen(hand, visible)


def count_unseen(hand: ChanHand, visible: Sequence[object]) -> list[int]:
    """Copies of each face not seen: the deck minus the hand, its exposed pairs, its public card (if any) and the
    `visible` codes; more copies than the deck holds raises naming the field of the surplus copy."""
    located = [(c, "hand") for c, n in enumerate(hand.counts) for _ in range(n)]
    located += [(c, f"exposed.{i}.cards") for i, p in enumerate(hand.exposed) for c in p.cards]
    if hand.public_card is not None:
        located.append((hand.public_card, "public_card"))
    located += [(parse_card(t, f"visible.{i}"), f"visible.{i}") for i, t in enumerate(visible)]
    check_copies(located)
    unseen = [COPIES] * N_FACES
    for c, _ in located:
        unseen[c] -= 1
    return unseen


def sets_kept(rest: Sequence[int], exposed: tuple[Pair, ...], options: Mapping[str, Any]) -> int:
    """What of the Tôm and Lèo sets (docs/rules.md#chan-bonuses: each full set adds to the score of any win) the
    cards `rest` and `exposed` keep: for the round's Tôm set (`tom_set`) and for the Lèo set, `FULL_SET` per full
    set (no card serving twice) plus 1 per distinct face of it held beyond the full sets (the best unfinished
    set). Example: 3m 3m 3c 7c 8s keeps a full Tôm set and the 3m of a second (3 + 1) and one card of a Lèo (1)."""
    held = list(rest)
    for pair in exposed:
        for c in pair.cards:
            held[c] += 1
    return int(kept_of_set(held, TOM_SETS[options["tom_set"]]) + kept_of_set(held, LEO))


def kept_of_set(held: Sequence[int], faces: tuple[str, str, str], full: float = FULL_SET) -> float:
    """What the counts `held` keep of one kind of set (a `TOM_SETS` value or `LEO`): `full` per full set
    (`scoring.full_sets`), plus 1 per distinct face of it held beyond the full sets."""
    sets = full_sets(held, faces)
    return full * sets + sum(1 for f in set_faces(faces) if held[f] > sets)


def _after(history: History, x: int) -> History:
    """His history once he has discarded `x`."""
    return History(history.discarded | {x}, history.passed_identical, history.played_into_ca, history.captured_ca,
                   history.dead_hand)


def _option(x: int, rest: list[int], after: History, hand: ChanHand, shared: Shared | None, at: Rest | None,
            options: Mapping[str, Any], unseen: Sequence[int], total: int, memo: WaitsMemo | None = None,
            faces: int | None = None, d: int | None = None) -> DiscardOption:
    """One discard's option: at distance 0 its waits, else its improving cards (`faces`, when the caller found
    them already; `d`, the distance it leaves, when the caller knows it: at 0 no pass is needed)."""
    d = (at.d if at else UNREACHABLE) if d is None else d
    waits: tuple[Wait, ...] = ()
    improving: tuple[tuple[int, int], ...]
    if d == 0:
        assert shared is not None  # a hand at distance 0 was measured
        waits = _waits(rest, hand.exposed, shared.frame, options, unseen, memo)
        improving = tuple((w.card, w.unseen) for w in waits if w.unseen)
    else:
        if faces is None:
            faces = improving_faces(rest, after, shared, x, at) if at and shared else 0
        found = []
        while faces:  # the set bits, lowest face first
            y = (faces & -faces).bit_length() - 1
            faces &= faces - 1
            if unseen[y]:
                found.append((y, unseen[y]))
        improving = tuple(found)
    expected = sum(w.unseen * max(w.gain, 0) for w in waits) / total if total else 0.0
    return DiscardOption(x, d, waits, improving, sum(n for _, n in improving), expected, card_unseen=unseen[x],
                         sets_kept=sets_kept(rest, hand.exposed, options))


def analyse_discards(hand: ChanHand, options: Mapping[str, Any], unseen: Sequence[int], history: History,
                     ranking: Order) -> DiscardAnalysis:
    """Every legal discard of a 20-card hand (capture rules 2, 3, 6; a dead hand has none:
    docs/rules.md#chan-dead-hand, it can neither capture nor win), ranked by `ranking` (the advice's:
    `service/advice/ranking.py`).

    Per discard: the distance of the hand it leaves; at distance 0 its waits, each claimable on a turned-up
    stock card at any gate and, with three held, by a Chíu (docs/rules.md#chan-turn), worth its score from
    the cards alone on another gate's stock card (on his own gate Ù chì adds to it) and three times that from
    the losers; otherwise the unseen faces y after which a legal discard (his history then includes this one)
    leaves distance d - 1.
    """
    counts = list(hand.counts)
    shared, now = shared_tables(counts, hand.exposed, history)
    total = sum(unseen)
    found = []
    for x in [] if history.dead_hand else legal_faces(counts, forbidden_faces(history)):
        rest = list(counts)
        rest[x] -= 1
        after = _after(history, x)
        at = rest_distance(rest, shared, x) if shared else None
        found.append(_option(x, rest, after, hand, shared, at, options, unseen, total))
    return DiscardAnalysis(ranked_discards(found, _describe, ranking), now, total)


def at_rest(hand: ChanHand, options: Mapping[str, Any], unseen: Sequence[int], history: History) -> DiscardOption:
    """The figures of a hand at rest (19 cards over hand and exposed pairs, no public card) as the analysis gives
    them for the hand a discard leaves: planned as the hand plus one face x with room beside the exposed pairs,
    then discarding x under this very `history`, which leaves this hand. Its `card` is that x, meaningless here.
    A dead hand can never win (docs/rules.md#chan-dead-hand)."""
    counts = list(hand.counts)
    total = sum(unseen)
    if history.dead_hand:
        return DiscardOption(-1, UNREACHABLE, (), (), 0, 0.0)
    limits = frame_of(hand.exposed).limits
    x = next(f for f in range(N_FACES) if counts[f] < limits[f])
    counts[x] += 1
    shared, _ = shared_tables(counts, hand.exposed, history)
    rest = list(hand.counts)
    # the faces this hand may discard under this very history: x was never discarded, so rule 6 does not grow
    legal = (shared.odd ^ 1 << x) & ~shared.forbid if shared else 0
    at = rest_distance(rest, shared, x, legal) if shared else None
    return _option(x, rest, history, hand, shared, at, options, unseen, total)


class Distances:
    """The distance of every legal discard of a 20-card hand, kept for those tied at the least: what deciding a
    claim needs (`least`), and the start of its top option (`top`). When some discard leaves the hand's complete
    distance minus one (nearly always), those are the tied ones (`lowest_discards`), and their own passes wait
    for `top` to need their improving cards."""

    def __init__(self, counts: Sequence[int], exposed: tuple[Pair, ...], history: History) -> None:
        counts = list(counts)
        self.tied: list[tuple[int, list[int], Rest | None]] = []
        self.least = UNREACHABLE
        self.history = history
        legal = [] if history.dead_hand else legal_faces(counts, forbidden_faces(history))
        self.shared, now = shared_tables(counts, exposed, history) if legal else (None, UNREACHABLE)
        lowest = lowest_discards(counts, self.shared, now, legal) if self.shared else []
        if lowest:  # every discard leaves at least now - 1: these are the tied ones, the others need no pass
            self.least = now - 1
            for x in lowest:
                rest = list(counts)
                rest[x] -= 1
                self.tied.append((x, rest, None))
            return
        least = UNREACHABLE + 1
        for x in legal:
            rest = list(counts)
            rest[x] -= 1
            at = rest_distance(rest, self.shared, x) if self.shared else None
            d = at.d if at else UNREACHABLE
            if d < least:
                self.tied, least = [], d
            if d == least:
                self.tied.append((x, rest, at))
        self.least = min(least, UNREACHABLE)

    def top(self, hand: ChanHand, options: Mapping[str, Any], unseen: Sequence[int], ranking: Order,
            memo: WaitsMemo | None = None, quick: bool = False) -> DiscardOption | None:
        """The first option of `analyse_discards` of `hand` (these cards) by `ranking`, None when it has no legal
        discard. Discards tied at a distance of 1 or more are compared here on what the advice's order compares
        them on (below): `ranking` is that order, or one that agrees with it there. `memo` (one per `options`) keeps
        the waits' points by the hand they are of (`_waits`). `quick`: discards tied at a distance of 1 or more are
        not ranked on their improving cards; the one that keeps the most of the Tôm and Lèo sets, then has the
        fewest unseen copies (then card order) is taken, with its own improving cards (the deep search's other
        seats)."""
        if not self.tied:
            return None
        total = sum(unseen)
        if 0 < self.least < UNREACHABLE:
            # Tied at d >= 1 the options differ only in the Tôm and Lèo sets they keep, their unseen improving
            # cards, then the unseen copies of the card (the advice's key: d, no gain, -sets_kept,
            # -improving_unseen, no waits, card_unseen), then card order: rank the improving masks and build the
            # first option alone.
            best: tuple[tuple[int, int, int, int], int, tuple[int, list[int], History, Rest]] | None = None
            assert self.shared is not None  # ties under UNREACHABLE were measured with the shared tables
            kept = {x: sets_kept(rest, hand.exposed, options) for x, rest, _ in self.tied}
            tied = [min(self.tied, key=lambda t: (-kept[t[0]], unseen[t[0]], t[0]))] if quick else self.tied
            for x, rest, at in tied:
                at = at or rest_distance(rest, self.shared, x)  # a pass left for the tied discards alone
                after = _after(self.history, x)
                faces = improving_faces(rest, after, self.shared, x, at)
                key = (-kept[x], -_unseen_of(faces, unseen), unseen[x], x)
                if best is None or key < best[0]:
                    best = (key, faces, (x, rest, after, at))
            assert best is not None
            x, rest, after, at = best[2]
            return _option(x, rest, after, hand, self.shared, at, options, unseen, total, memo, best[1])
        found = [_option(x, rest, _after(self.history, x), hand, self.shared, at, options, unseen, total, memo,
                         d=self.least) for x, rest, at in self.tied]
        return min(found, key=lambda o: (ranking.discard(o), o.card))


def _unseen_of(faces: int, unseen: Sequence[int]) -> int:
    """Unseen copies of the faces of a mask."""
    n = 0
    while faces:
        low = faces & -faces
        n += unseen[low.bit_length() - 1]
        faces ^= low
    return n


def top_discard(hand: ChanHand, options: Mapping[str, Any], unseen: Sequence[int], history: History,
                ranking: Order) -> DiscardOption | None:
    """The first option of `analyse_discards` by `ranking` (None: no legal discard; `Distances.top`), without
    ranking every option: the distance of every legal discard, then waits or improving cards only for those tied
    at the least distance (the rest of the ranking key). Its `rank` and `reason` are left empty."""
    return Distances(hand.counts, hand.exposed, history).top(hand, options, unseen, ranking)


def least_distance(counts: Sequence[int], exposed: tuple[Pair, ...], history: History) -> int:
    """The least distance a legal discard of a 20-card hand leaves (UNREACHABLE also when it has none): the
    first term of the top option's ranking key, without its waits or improving cards."""
    return Distances(counts, exposed, history).least


def _describe(option: DiscardOption) -> Text:
    """A readable reason for an option's place: the hand it leaves, then what it keeps of the Tôm and Lèo sets (when
    it keeps any: the ranking's key after the expected gain)."""
    found = _leaves(option)
    if not option.sets_kept or option.distance == UNREACHABLE:
        return found
    return text("{reason}; Tôm and Lèo kept: {kept} (a full set counts {full}, each card of an unfinished one 1)",
                reason=found, kept=option.sets_kept, full=FULL_SET)


def _leaves(option: DiscardOption) -> Text:
    """What the reason says of the hand an option leaves."""
    cards = " ".join(code(c) for c, _ in option.improving)
    if option.distance == UNREACHABLE:
        return text("discard {card}: no replacement can make this hand win", card=code(option.card))
    if option.distance:
        return text("discard {card}: {replacements}; {closer}", card=code(option.card),
                    replacements=ntext("{n} replacement from waiting", "{n} replacements from waiting",
                                       option.distance),
                    closer=ntext("{n} unseen card brings it one closer ({cards})",
                                 "{n} unseen cards bring it one closer ({cards})", option.improving_unseen,
                                 cards=cards or text("none")))
    best = max(option.waits, key=lambda w: w.points)
    chiu = [code(w.card) for w in option.waits if "chiu" in w.claims]
    waits = " ".join(code(w.card) for w in option.waits)
    unseen = sum(w.unseen for w in option.waits)
    gain = f"{option.expected_gain:.2f}"
    if chiu:
        return text("discard {card}: waiting on {waits} ({unseen} unseen), won on a turned-up stock card or at once by "
                    "a Chíu on {chiu}; best {points} points, {gain} from the three losers on another gate's stock card "
                    "(on his own gate Ù chì adds to it); one-card expected gain {expected}", card=code(option.card),
                    waits=waits, unseen=unseen, chiu=" ".join(chiu), points=best.points, gain=best.gain,
                    expected=gain)
    return text("discard {card}: waiting on {waits} ({unseen} unseen), won on a turned-up stock card; best {points} "
                "points, {gain} from the three losers on another gate's stock card (on his own gate Ù chì adds to "
                "it); one-card expected gain {expected}", card=code(option.card), waits=waits, unseen=unseen,
                points=best.points, gain=best.gain, expected=gain)
