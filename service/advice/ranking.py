"""The advice's order: how the discards of a hand and the answers to a public card rank, best first (`Ranking`,
and the order as it ships, `SHIPPED`), and the words of a claim option's reason. The rules say what each option is
(service/rules/analysis.py: its distance, waits, gains); this says which is best.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..rules.analysis import (
    KIND_NAMES,
    WIN_KINDS,
    ClaimOption,
    DiscardOption,
    paying_of,
    ranked_by,
    ranked_discards,
)
from ..rules.text import Text, ntext, text


def hand_key(option: DiscardOption | ClaimOption) -> tuple[float, ...]:
    """What a hand left at rest is worth to the ranking: fewest replacements from a win that pays first
    (`paying_of`: in bga-taiwan a win under the threshold costs the winner, docs/rules.md#fc-settlement, so a
    complete hand that scores too little is no win; the duplicate arena measured it against the frozen advice,
    docs/advice.md#strength), then fewest replacements from a rich win (bga-taiwan: every point over the
    threshold is paid by each opponent, docs/advice.md#paying-distance-bga-taiwan; else 0), then the most unseen
    cards that lower the paying distance (bga-taiwan, counted at the least paying distance; else 0), then fewest
    replacements from any win, then the family's `reach` (Four Color Cards: the improving cards weighted by how
    often they can be claimed, and where the objective is the win rate the waiting copies weighted by how many
    public cards may bring them; Chắn: 0), then the one-card expected gain, then (a Chắn discard) the most kept of
    the Tôm and Lèo sets (`sets_kept`: they add to the score of any win, docs/advice.md#tôm-and-lèo-sets; a claim
    is compared on its hand alone, 0), then the number of unseen improving cards, then the most waiting copies."""
    waiting = sum(w.unseen for w in option.waits)
    kept = (option.sets_kept or 0) if isinstance(option, DiscardOption) else 0
    return (paying_of(option), option.rich or 0, -(option.paying_improving or 0), option.distance, -option.reach,
            -option.expected_gain, -kept, -option.improving_unseen, -waiting)


class Ranking:
    """An order of the advice: how the discards of a hand (`discard`) and the answers to a public card (`claim`)
    rank, both by what the hand each option leaves at rest is worth (`hand`); the rules' discard analyses take it
    as their `Order`. The advice ranks by `SHIPPED`; the analyses (`ranked`, `ranked_claims`, `analyse.py`'s
    `analyse_discards` and `analyse_claims`) and the arena's `Advice` take another as their `ranking`, so a variant
    of the order (bench/variants.py) is a subclass passed in, never a module attribute replaced. Overriding `hand`
    changes both orders. `preempts`: whether a claim that can never take the card is answered as the pass it comes
    to (`fourcolor_claims.preempted_at`; an order frozen before engine 0.7.0 did not know it)."""

    preempts = True

    def hand(self, option: DiscardOption | ClaimOption) -> tuple[float, ...]:
        """What a hand left at rest is worth (`hand_key`)."""
        return hand_key(option)

    def discard(self, option: DiscardOption) -> tuple[float, ...]:
        """The discard ranking order: the hand the discard leaves (`hand`), then, between discards that leave
        equally good hands, the card with fewer unseen copies: the fewer copies others may hold, the fewer can
        pair it into a meld, a capture or a win (a freshly dealt hand often has many discards tied on the hand
        alone). The duplicate arena measured this tie-break against card order (docs/advice.md#strength)."""
        return (*self.hand(option), option.card_unseen)

    def claim(self, option: ClaimOption) -> tuple[float, ...]:
        """The claim ranking order: a win that gains comes first (the more it gains, the better); then pass and
        every claim by the value of the hand each leaves at rest (`hand`, the discard ranking's order), pass before
        a claim that is no better (a claim is advised only when strictly better than passing); last a win that
        costs the caller (docs/rules.md#fc-settlement: a hu under the threshold pays every opponent)."""
        if option.kind in WIN_KINDS:
            gain = option.gain or 0
            return (0 if gain > 0 else 2, -gain)
        return (1, *self.hand(option), 0 if option.kind == "pass" else 1)


#: The advice's order as it ships.
SHIPPED = Ranking()


def rank_key(option: DiscardOption) -> tuple[float, ...]:
    """The shipped discard ranking order (`Ranking.discard`)."""
    return SHIPPED.discard(option)


def claim_rank_key(option: ClaimOption) -> tuple[float, ...]:
    """The shipped claim ranking order (`Ranking.claim`)."""
    return SHIPPED.claim(option)


def ranked(options: list[DiscardOption], describe: Callable[[DiscardOption], str],
           ranking: Ranking = SHIPPED) -> tuple[DiscardOption, ...]:
    """Sort by `ranking.discard` (then card order), give equal keys equal ranks, attach `describe(option)` as
    reason."""
    return ranked_discards(options, describe, ranking)


def ranked_claims(options: list[ClaimOption], describe: Callable[[ClaimOption], str],
                  ranking: Ranking = SHIPPED) -> tuple[ClaimOption, ...]:
    """Sort by `ranking.claim` (then kind and cards), give equal keys equal ranks, attach `describe(option)`."""
    return ranked_by(options, ranking.claim, lambda o: (o.kind, o.cards), describe)


def describe_answer(option: ClaimOption, code: Any, standing: str) -> Text:
    """The reason of pass or a claim (a win's reason is its family's), given where the hand it leaves stands."""
    if option.kind == "pass":
        return text("pass: the hand stays {standing}", standing=standing)
    cards = " ".join(code(c) for c in option.cards)
    kind = KIND_NAMES.get(option.kind, option.kind)
    if option.follow is None:
        return text("{kind} {cards}: no legal discard follows", kind=kind, cards=cards)
    return text("{kind} {cards}, then discard {card}: {standing}", kind=kind, cards=cards,
                card=code(option.follow.card), standing=standing)


def standing(option: ClaimOption, waits: str, claimable: Text | str = "") -> Text:
    """Where the hand an option leaves stands, in words: waiting on `waits` (its waits as its family writes card
    codes) with their unseen copies and one-card expected gain, or the replacements it still needs and the unseen
    cards that improve it, then `claimable` (a family's clause on a far hand's reach, else nothing)."""
    if option.distance == 0:
        gain = f"{option.expected_gain:.2f}"
        return text("waiting on {cards} ({unseen} unseen), one-card expected gain {gain}", cards=waits,
                    unseen=sum(w.unseen for w in option.waits), gain=gain)
    return text("{replacements}, {improving}{claimable}",
                replacements=ntext("{n} replacement from waiting", "{n} replacements from waiting", option.distance),
                improving=ntext("{n} unseen card improves it", "{n} unseen cards improve it", option.improving_unseen),
                claimable=claimable)
