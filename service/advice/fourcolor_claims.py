"""Claim advice for Four Color Cards (docs/rules.md#fc-claims, docs/rules.md#fl-claims): for a public card, pass,
every legal claim with the discard that should follow it, and hu, ranked by `ranking.claim_rank_key`.

A claim exposes its meld (the public card included) and the claimant then discards (docs/rules.md#fc-claims), so
a claim's figures are those of the top option of the exact discard ranking of the hand after the claim, which is
its `follow`. Passing leaves the hand as it stands. Every option is counted on the same unseen cards: the deck
minus the player's cards, the public card and the visible cards (the public card is gone from the stock whoever
takes it). A hu is certain: its gain is the settlement delta of the win (docs/rules.md#fc-settlement; no lucky
card, it is not known in advance; cardavia-flowers without payments: its points).

A claim that can never take the card is answered for what happens instead (`preempted_at`): a turned-up General
(cardavia-flowers: or flower) must be taken by its drawer, who can always take it alone, and a tie in priority goes
to the drawer (docs/rules.md#fc-must-take, #fc-priority, #fl-must-take, #fl-priority). So another seat's claim of no
higher priority than the drawer's single meld loses the card for certain: the hand stays as it is, and the option
carries the pass's figures and value, ranked after the pass (`ClaimOption.preempted`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..rules.analysis import KIND_NAMES, WIN_DISTANCE, ClaimAnalysis, ClaimOption, option_at_rest
from ..rules.errors import DomainError
from ..rules.fourcolor.cards import code, is_flower
from ..rules.fourcolor.claims import Claim, must_take
from ..rules.fourcolor.discards import Gains, analyse_discards, at_rest, claimable, unseen_counts
from ..rules.fourcolor.hand import MAX_CARDS, FourColorHand
from ..rules.fourcolor.melds import MeldRules
from ..rules.fourcolor.rulesets import FourColorRuleSet, fourcolor_ruleset
from ..rules.protocol import RuleSet
from ..rules.text import Text, text
from .ranking import SHIPPED, Ranking, describe_answer, ranked_claims, standing


def claim_unseen(hand: FourColorHand, visible: Sequence[int], flowers: bool) -> list[int]:
    """Unseen copies for a claim decision: the deck minus hand, exposed melds, the public card and `visible`. The
    hand must be a claim decision's: 20 cards over hand and exposed melds (docs/rules.md#fc-deal) plus the public
    card."""
    if hand.public_card is None or hand.card_count() != MAX_CARDS:
        raise DomainError(text("a claim decision is made with {cards} cards over hand and exposed melds plus the "
                               "public card; got {count}", cards=MAX_CARDS - 1,
                               count=hand.card_count()), "hand", code="wrong_card_count")
    return unseen_counts(FourColorHand(hand.with_public(), hand.exposed, None), visible, flowers)


def after_claim(hand: FourColorHand, claim: Claim) -> FourColorHand:
    """The hand once the claim's meld (public card included) is exposed: 21 cards, about to discard."""
    assert claim.meld is not None and hand.public_card is not None
    concealed = hand.concealed.copy()
    used = list(claim.meld.cards)
    used.remove(hand.public_card)
    for card in used:
        concealed.remove(card)
    return FourColorHand(concealed, (*hand.exposed, claim.meld), None)


def analyse_ruleset_claims(ruleset: RuleSet, hand: FourColorHand, options: Mapping[str, Any], role: str,
                           visible: Sequence[object], seats: int, source: str, history: object,
                           ranking: Ranking) -> ClaimAnalysis:
    """Rank pass, every legal claim on the public card (with its follow-up discard) and hu for a seat `role` of a
    Four Color Cards rule-set, by `ranking`; `hand` is his resting hand (20 cards over hand and exposed melds) with
    the public card. The role implies the source: Four Color Cards takes neither `source` nor `history`."""
    family = fourcolor_ruleset(ruleset)
    family.check_seats(seats)
    seen = [family.parse_card(text, f"visible.{i}") for i, text in enumerate(visible)]
    unseen = claim_unseen(hand, seen, family.has_flowers)
    claims, forced = family.legal_claims(hand, role, options)
    return analyse_claims(hand, family.meld_rules(options), options, claims, forced, unseen, seats,
                          family.has_flowers, ranking,
                          preempted_at(family, hand, role, options) if ranking.preempts else 0)


def preempted_at(family: FourColorRuleSet, hand: FourColorHand, role: str, options: Mapping[str, Any]) -> int:
    """The priority at or below which a claim of seat `role` can never take the public card; 0 where nothing is
    certain. A General or a flower is never discarded (docs/rules.md#fc-generals-discard), so a public one was
    turned up from the stock; where its drawer must take it, he can always take it alone (a `general` or `flower`
    meld) and wins a tie in priority, so a claim of another seat takes it only with a higher priority."""
    card = hand.public_card
    if role == "drawer" or card is None or not family.must_take_on(options):
        return 0
    if not must_take(hand, "drawer", family.has_flowers):  # were this seat its drawer, must it take the card?
        return 0
    single = family.claim_class("flower" if is_flower(card) else "general", "drawer")
    return 0 if single is None else single[1]


def analyse_claims(hand: FourColorHand, rules: MeldRules, options: Mapping[str, Any], claims: Sequence[Claim],
                   forced: bool, unseen: Sequence[int], seats: int, flowers: bool, ranking: Ranking = SHIPPED,
                   preempted: int = 0) -> ClaimAnalysis:
    """Rank pass (unless the drawer must take the card: then only the legal takes, docs/rules.md#fc-must-take),
    every legal claim and hu by `ranking` (a claim's follow-up discard too); a claim of priority `preempted` or
    lower never takes the card (`preempted_at`) and is answered as the pass it comes to."""
    found: list[ClaimOption] = []
    rest = None
    if not forced:
        rest = at_rest(FourColorHand(hand.concealed, hand.exposed, None), rules, options, unseen, seats, flowers)
        found.append(option_at_rest("pass", rest, rest.distance, follows=False, cards=(), claim=None))
    gains = Gains(hand, rules, options, seats, flowers)
    for claim in claims:
        if claim.meld is not None and claim.priority <= preempted and rest is not None:
            found.append(option_at_rest(claim.kind, rest, rest.distance, follows=False, cards=claim.meld.cards,
                                        claim=claim, priority=claim.priority, preempted=True))
            continue
        if claim.meld is None:  # hu: hand + public card split into melds
            assert hand.public_card is not None  # claims are made on a public card
            gain = gains.wait(hand.concealed, hand.public_card, 0).gain
            found.append(ClaimOption(claim.kind, (), claim, None, WIN_DISTANCE, (), (), 0, float(gain), gain,
                                     claim.priority, forced))
            continue
        analysis = analyse_discards(after_claim(hand, claim), rules, options, unseen, seats, flowers, ranking)
        top = analysis.options[0] if analysis.options else None
        found.append(option_at_rest(claim.kind, top, analysis.distance_now, cards=claim.meld.cards, claim=claim,
                                    priority=claim.priority, forced=forced))
    return ClaimAnalysis(ranked_claims(found, describe, ranking), forced, sum(unseen))


def describe(option: ClaimOption) -> Text:
    """The reason shown with an option."""
    if option.claim is not None and option.claim.meld is None:
        gain = option.gain or 0
        if gain > 0:
            return text("hu for {points} points: the settlement wins {gain}", points=option.claim.points, gain=gain)
        return text("hu for {points} points: the settlement costs {cost}", points=option.claim.points, cost=-gain)
    if option.preempted:
        cards = " ".join(code(c) for c in option.cards)
        return text("{kind} {cards} cannot take the card: a turned-up General or flower goes to its drawer, who "
                    "must take it and wins a tie in priority; the hand stays {standing}",
                    kind=KIND_NAMES.get(option.kind, option.kind), cards=cards, standing=_standing(option))
    return describe_answer(option, code, _standing(option))


def _standing(option: ClaimOption) -> Text:
    """How far the hand an option leaves is from a win (waits listed with commas; a far hand's reach)."""
    return standing(option, ", ".join(code(w.card) for w in option.waits), claimable(option))
