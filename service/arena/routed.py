"""Experimental `routed` policy: the advice's order, but at distance >= 1 the improving cards are counted by how
often they can actually be taken: a public card only ever goes into an exposed meld, and which melds a seat may
claim depends on its role (docs/rules.md#fc-claims, #fl-claims). Weight of an improving card y after discard x:
the share of roles (drawer 1/4, next 1/4, other 1/2) in which a meld with y and the hand's cards may be claimed,
a weight under 1 scaled by CHI / 0.5."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from ..replay.decisions import SeatView
from ..rules.analysis import WIN_KINDS, ClaimOption, DiscardOption
from ..rules.fourcolor.cards import Tally
from ..rules.fourcolor.distance import complete_distance
from ..rules.fourcolor.evaluate import melds_with
from .seat import FollowUp, after_claim, analyse, hand_of, seen_codes

ROLE_SHARES = (("drawer", 0.25), ("next", 0.25), ("other", 0.5))


class Routed:
    """One seat (the module docstring)."""

    def __init__(self, chi: float | None = None, claims: bool | None = None) -> None:
        self.chi = chi if chi is not None else float(os.environ.get("ROUTED_CHI", "0.5"))
        self.claims = claims if claims is not None else os.environ.get("ROUTED_CLAIMS", "1") == "1"
        self.follow = FollowUp()
        self.exact = os.environ.get("ROUTED_EXACT", "0") == "1"
        self.wait = os.environ.get("ROUTED_WAIT", "eg")
        self.ratio = float(os.environ.get("ROUTED_RATIO", "2.4"))

    def _weight(self, view: SeatView, rest: Tally, y: int, d: int = 0) -> float:
        grown = rest.copy()
        grown.add(y)
        rules = view.ruleset.meld_rules(view.options)
        melds = melds_with(grown, y, rules)
        if self.exact:
            good = []
            for m in melds:
                left = grown.copy()
                for c in m.cards:
                    left.remove(c)
                if complete_distance(left, rules, (*view.exposed, m)) - 1 < d:
                    good.append(m)
            melds = good
        kinds = {m.kind for m in melds}
        ruleset: Any = view.ruleset
        w = sum((share for role, share in ROLE_SHARES
                 if any(ruleset.claim_class(k, role) is not None for k in kinds)), 0.0)
        return w if w >= 1.0 else w * self.chi / 0.5

    def _key(self, view: SeatView, rest: Tally, o: DiscardOption | ClaimOption) -> tuple[float, ...]:
        waiting = sum(w.unseen for w in o.waits)
        if o.distance <= 0:
            if self.wait == "count" and view.ruleset.objective(view.options) != "expected_settlement":
                return (o.distance, -waiting, -o.expected_gain, -o.improving_unseen)
            if self.wait == "routed" and view.ruleset.objective(view.options) != "expected_settlement":
                routed = sum(w.unseen * (self.ratio if "discard" in w.claims else 1.0) for w in o.waits)
                return (o.distance, -routed, -o.expected_gain, -o.improving_unseen)
            return (o.distance, -o.expected_gain, -o.improving_unseen, -waiting)
        weighted = sum(n * self._weight(view, rest, y, o.distance) for y, n in o.improving if n)
        return (o.distance, -weighted, -o.improving_unseen, -waiting)

    def _best(self, view: SeatView, cards: Any, options: Sequence[DiscardOption]) -> DiscardOption | None:
        tally = Tally.of(cards)

        def key(o: DiscardOption) -> tuple[float, ...]:
            rest = tally.copy()
            rest.remove(o.card)
            return (*self._key(view, rest, o), o.card_unseen, o.card)

        return min(options, key=key, default=None)

    def discard(self, view: SeatView) -> int:
        planned = self.follow.take(view)
        if planned is not None:
            return planned
        if view.ruleset.family != "fourcolor":
            return analyse(view).options[0].card
        best = self._best(view, view.hand, analyse(view).options)
        assert best is not None
        return best.card

    def claim(self, view: SeatView, card: int, source: str, role: str, legal: Sequence[Any], forced: bool) -> Any:
        analysis = view.ruleset.analyse_claims(hand_of(view, public=card), view.options, role, seen_codes(view),
                                               view.seats, source=source, history=view.history)
        keyed = []
        for option in analysis.options:
            follow = option.follow
            if view.ruleset.family != "fourcolor" or not self.claims:
                key: tuple[Any, ...] = (option.rank,)
            elif option.kind in WIN_KINDS:
                gain = option.gain or 0
                key = (0 if gain > 0 else 2, -gain)
            elif option.claim is None:
                key = (1, *self._key(view, Tally.of(view.hand), option), 0)
            else:
                cards, exposed, _ = after_claim(view, card, option.claim)
                follow = self._best(view, cards, analyse(view, cards, exposed).options)
                if follow is None:
                    key = (1, *self._key(view, Tally.of(cards), option), 1)
                else:
                    rest = Tally.of(cards)
                    rest.remove(follow.card)
                    key = (1, *self._key(view, rest, follow), 1)
            keyed.append((key, option.kind, option.cards, option, follow))
        keyed.sort(key=lambda k: k[:3])
        for _, _, _, option, follow in keyed:
            if option.claim is None:
                return None
            taken = next((c for c in legal if c == option.claim), None)
            if taken is not None:
                if follow is not None:
                    self.follow.plan(view, card, taken, follow.card)
                return taken
        return None
