"""Claim advice for Chắn (docs/rules.md#chan-turn, docs/rules.md#chan-captures, docs/rules.md#chan-chiu): for a public
card, pass, every legal capture and Chíu with the discard that should follow it, and a win, ranked by
`ranking.claim_rank_key`.

Legality is the engine's `legal_claims` (capture rules 1-7, Chíu, wins only on a turned-up stock card or completed
by a Chíu). A capture or a Chíu exposes its pair and the player then discards, so its figures are those of the top
option of the exact discard ranking of the hand after it (his history updated: a Cạ capture marks the Cạ captured
and its hand card played into a Cạ, rules 4 and 6). Passing leaves the hand as it stands; passing up an identical
capture forbids that face from then on (rule 3), so the hand at rest is counted under that history. Every option
counts the same unseen cards: the deck minus his cards, the public card and the visible cards. A win is certain:
its gain is the settlement delta, Ù chì included on a stock card at his own gate (docs/rules.md#chan-bonuses).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from ..rules.analysis import WIN_DISTANCE, ClaimAnalysis, ClaimOption, option_at_rest
from ..rules.chan.captures import ChanClaim, History
from ..rules.chan.cards import code
from ..rules.chan.discards import analyse_discards, at_rest, count_unseen
from ..rules.chan.distance import UNREACHABLE
from ..rules.chan.hand import MAX_CARDS, ChanHand
from ..rules.chan.rulesets import chan_ruleset
from ..rules.chan.scoring import settle
from ..rules.errors import DomainError
from ..rules.protocol import RuleSet
from ..rules.text import Text, text
from .ranking import SHIPPED, Ranking, describe_answer, ranked_claims, standing

SEATS = 4


def claim_unseen(hand: ChanHand, visible: Sequence[object]) -> list[int]:
    """Unseen copies for a claim decision: the deck minus hand, exposed pairs, the public card and `visible`
    (codes); more copies than the deck holds raises naming the field of the surplus copy."""
    if hand.public_card is None or hand.card_count() != MAX_CARDS:
        raise DomainError(text("a claim decision is made with {cards} cards over hand and exposed pairs plus the "
                               "public card; got {count}", cards=MAX_CARDS - 1,
                               count=hand.card_count()), "hand", code="wrong_card_count")
    return count_unseen(hand, visible)


def history_after(claim: ChanClaim | None, hand: ChanHand, history: History) -> History:
    """His history once he has made `claim` (None: passed). A Cạ capture: captured a Cạ, its hand card played into
    a Cạ (rules 4, 6). A pass that leaves an identical capture untaken: that face passed up (rule 3)."""
    card = hand.public_card
    if claim is None:
        return replace(history, passed_identical=history.passed_identical | {card}) if card is not None else history
    if claim.kind == "ca" and claim.pair is not None:
        mate = next(c for c in claim.pair.cards if c != card)
        return replace(history, captured_ca=True, played_into_ca=history.played_into_ca | {mate})
    return history


def after_claim(hand: ChanHand, claim: ChanClaim) -> ChanHand:
    """The hand once the claim's pair (public card included) is exposed: 20 cards, about to discard."""
    assert claim.pair is not None and hand.public_card is not None
    counts = list(hand.counts)
    used = list(claim.pair.cards)
    used.remove(hand.public_card)
    for c in used:
        counts[c] -= 1
    return ChanHand(tuple(counts), (*hand.exposed, claim.pair), None)


def analyse_ruleset_claims(ruleset: RuleSet, hand: ChanHand, options: Mapping[str, Any], role: str,
                           visible: Sequence[object], seats: int, source: str, history: History | None,
                           ranking: Ranking) -> ClaimAnalysis:
    """Rank pass, every legal capture and Chíu on the public card (with its follow-up discard) and a win for a
    seat `role` of the Chắn rule-set, by `ranking`; `hand` is his resting hand (19 cards over hand and exposed
    pairs) with the public card, which came from `source` (stock or discard)."""
    family = chan_ruleset(ruleset)
    family.check_seats(seats)
    history = history or History()
    unseen = claim_unseen(hand, visible)
    claims = family.legal_claims(hand, role, options, source, history)
    return analyse_claims(hand, options, claims, role, source, unseen, history, ranking)


def analyse_claims(hand: ChanHand, options: Mapping[str, Any], claims: Sequence[ChanClaim], role: str, source: str,
                   unseen: Sequence[int], history: History, ranking: Ranking = SHIPPED) -> ClaimAnalysis:
    """Rank pass, every legal capture or Chíu (with its follow-up discard) and a win on the public card, by
    `ranking` (the follow-up discards too)."""
    rest = ChanHand(hand.counts, hand.exposed, None)
    passes_identical = any(c.kind == "chan" for c in claims)
    after_pass = history_after(None, hand, history) if passes_identical else history
    held = at_rest(rest, options, unseen, after_pass)
    found = [option_at_rest("pass", held, held.distance, follows=False, cards=(), claim=None)]
    for claim in claims:
        if claim.pair is None:
            context = {"own_gate": source == "stock" and role == "drawer", "by_chiu": claim.by_chiu}
            gain = settle(hand, context, options, SEATS, 0).deltas[0]
            found.append(ClaimOption("win", (), claim, None, WIN_DISTANCE, (), (), 0, float(gain), gain,
                                     claim.priority))
            continue
        analysis = analyse_discards(after_claim(hand, claim), options, unseen, history_after(claim, hand, history),
                                    ranking)
        top = analysis.options[0] if analysis.options else None
        found.append(option_at_rest(claim.kind, top, UNREACHABLE if top is None else analysis.distance_now,
                                    cards=claim.pair.cards, claim=claim, priority=claim.priority))
    return ClaimAnalysis(ranked_claims(found, describe, ranking), False, sum(unseen))


def describe(option: ClaimOption) -> Text:
    """The reason shown with an option."""
    if option.kind == "win":
        if option.claim.by_chiu:
            return text("win by Chíu: the settlement gains {gain}", gain=option.gain)
        return text("win: the settlement gains {gain}", gain=option.gain)
    return describe_answer(option, code, _standing(option))


def _standing(option: ClaimOption) -> Text:
    """How far the hand an option leaves is from a win (waits listed with spaces; a hand no replacement can make
    win says so)."""
    if option.distance >= UNREACHABLE:
        return text("unable to win")
    return standing(option, " ".join(code(w.card) for w in option.waits))
