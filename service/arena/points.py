"""Experimental `points` policies: the advice, but at equal distance (the hand not yet waiting) the discard that
keeps more concealed meld points in the hand (`kept_points.py`) is preferred. Variant by name."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from ..replay.decisions import SeatView
from ..rules.analysis import WIN_KINDS, ClaimAnalysis, ClaimOption, DiscardAnalysis, DiscardOption
from ..rules.fourcolor.cards import Tally
from ..rules.fourcolor.claim_advice import after_claim, claim_unseen
from ..rules.fourcolor.discards import analyse_discards
from ..rules.fourcolor.evaluate import melds_with
from ..rules.fourcolor.hand import FourColorHand
from ..rules.fourcolor.kept_points import kept_points_for
from .value import Chooser


class Points(Chooser):
    """Advice order, with the kept points as a key at distance >= 1 (variant: where in the key)."""

    def __init__(self, variant: str | None = None) -> None:
        super().__init__(None)
        self.variant = variant or os.environ.get("POINTS_VARIANT", "before")
        self.view: SeatView | None = None
        self.card = 0

    def discard(self, view: SeatView) -> int:
        self.view = view
        return super().discard(view)

    def claim(self, view: SeatView, card: int, source: str, role: str, legal: Sequence[Any], forced: bool) -> Any:
        self.view, self.card = view, card
        return super().claim(view, card, source, role, legal, forced)

    def order(self, analysis: ClaimAnalysis) -> Sequence[ClaimOption]:
        view = self.view
        assert view is not None
        v = self.variant
        if view.ruleset.family != "fourcolor" or not v.startswith("claim"):
            return analysis.options
        rules = view.ruleset.meld_rules(view.options)
        kept = kept_points_for(rules)
        public = self.card
        base = FourColorHand(Tally.of(view.hand), view.exposed, public)

        def points(o: ClaimOption) -> int:
            if o.claim is None:
                return kept.of(Tally.of(view.hand)) + sum(m.points(rules) for m in view.exposed)
            after = after_claim(base, o.claim)
            t = after.concealed.copy()
            if o.follow is not None:
                t.remove(o.follow.card)
            return kept.of(t) + sum(m.points(rules) for m in after.exposed)

        def key(o: ClaimOption) -> tuple[float, ...]:
            if o.kind in WIN_KINDS:
                gain = o.gain or 0
                return (0 if gain > 0 else 2, -gain)
            waiting = sum(w.unseen for w in o.waits)
            tail = (-o.improving_unseen, -waiting, 0 if o.kind == "pass" else 1)
            if o.distance == 0:
                return (1, 0, -o.expected_gain, 0, *tail)
            if v == "claim-first":
                return (1, o.distance, 0, -points(o), *tail)
            if v == "claim-after":
                return (1, o.distance, 0, -o.improving_unseen, -points(o), -waiting, 0 if o.kind == "pass" else 1)
            raise ValueError(v)

        return sorted(analysis.options, key=key)

    def pick(self, analysis: DiscardAnalysis) -> DiscardOption:
        view = self.view
        assert view is not None
        best = analysis.options[0]
        v = self.variant
        if view.ruleset.family != "fourcolor" or v.startswith("claim"):
            return best
        if best.distance == 0:
            if not v.startswith("waits"):
                return best
            ratio = float(v[len("waits"):] or 2.4)

            def routed(o: DiscardOption) -> float:
                return sum(w.unseen * max(w.gain, 0) * (ratio if "discard" in w.claims else 1.0) for w in o.waits)

            zero = [o for o in analysis.options if o.distance == 0]
            return min(zero, key=lambda o: (-routed(o), -o.expected_gain, -o.improving_unseen, o.card_unseen, o.card))
        kept = kept_points_for(view.ruleset.meld_rules(view.options))
        tally = Tally.of(view.hand)
        same = [o for o in analysis.options if o.distance == best.distance]

        def points(o: DiscardOption) -> int:
            t = tally.copy()
            t.remove(o.card)
            return kept.of(t)

        if v.startswith("waits"):
            return best
        if v.startswith("routes"):
            rules = view.ruleset.meld_rules(view.options)
            ruleset: Any = view.ruleset
            chi = float(v[len("routes"):] or 0.5)

            def weight(t: Tally, y: int) -> float:
                t2 = t.copy()
                t2.add(y)
                kinds = {m.kind for m in melds_with(t2, y, rules)}
                w = 0.0
                for role, share in (("drawer", 0.25), ("next", 0.25), ("other", 0.5)):
                    if any(ruleset.claim_class(k, role) is not None for k in kinds):
                        w += share
                return w if w >= 1.0 else w * chi / 0.5

            def weighted(o: DiscardOption) -> float:
                t = tally.copy()
                t.remove(o.card)
                return sum(n * weight(t, y) for y, n in o.improving)

            return min(same, key=lambda o: (-weighted(o), -o.improving_unseen, o.card_unseen, o.card))
        if v.startswith("look"):
            # look-first / look-after / look-only: at distance 1, the gain of the waiting hands the improving cards
            # lead to (each by its best claim, then the advice's best discard)
            if best.distance != 1:
                return best
            score = {o.card: lookahead(view, tally, o) for o in same}
            if v == "look-first":
                return min(same, key=lambda o: (-score[o.card], -o.improving_unseen, o.card_unseen, o.card))
            if v == "look-after":
                return min(same, key=lambda o: (-o.improving_unseen, -score[o.card], o.card_unseen, o.card))
            raise ValueError(v)
        if v == "before":
            return min(same, key=lambda o: (-points(o), -o.improving_unseen, o.card_unseen, o.card))
        if v == "after":
            return min(same, key=lambda o: (-o.improving_unseen, -points(o), o.card_unseen, o.card))
        raise ValueError(v)


def lookahead(view: SeatView, tally: Tally, option: DiscardOption) -> float:
    """Sum over improving cards y of unseen copies x the mean over routes (next / other player) of the best
    expected-gain numerator of a waiting hand reached by claiming y and discarding as the advice does."""
    rs: Any = view.ruleset
    rules = rs.meld_rules(view.options)
    rest = tally.copy()
    rest.remove(option.card)
    seen = [c for c in view.visible] + [c for melds in view.opponents for m in melds for c in m.cards]
    total = 0.0
    for y, n in option.improving:
        if not n:
            continue
        hand = FourColorHand(rest, view.exposed, y)
        unseen = claim_unseen(hand, seen, rs.has_flowers)
        value = 0.0
        for role, share in (("next", 0.5), ("other", 0.5)):
            claims, _ = rs.legal_claims(hand, role, view.options)
            top = 0.0
            for claim in claims:
                if claim.meld is None:
                    continue
                a = analyse_discards(after_claim(hand, claim), rules, view.options, unseen, view.seats,
                                     rs.has_flowers)
                if a.options and a.options[0].distance == 0:
                    top = max(top, sum(w.unseen * max(w.gain, 0) for w in a.options[0].waits))
            value += share * top
        total += n * value
    return total
