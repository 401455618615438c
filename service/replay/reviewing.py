"""The reviewing replays of both families: the turn state machines with the review's hooks filled in (each time a
card was offered, every seat that made no claim is asked what it could have claimed, every seat's answer is rated
when it had a legal claim or win, and each discard is rated; `decisions.py`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..advice.analyse import analyse_claims, analyse_discards
from ..rules.analysis import ClaimAnalysis, DiscardAnalysis
from ..rules.chan import cards as chan_cards
from ..rules.chan.captures import History
from ..rules.chan.hand import ChanHand
from ..rules.chan.rulesets import chan_ruleset
from ..rules.fourcolor import cards as fc_cards
from .chan import ChanReplay
from .decisions import DecisionReview, ReviewSettings
from .fourcolor import FourColorReplay
from .log import GameLog


class FourColorReviewer(DecisionReview, FourColorReplay):
    """Four Color Cards replay that also counts hu and claims passed up and rates every discard."""

    show = staticmethod(fc_cards.code)

    def __init__(self, log: GameLog, settings: ReviewSettings | None = None, progress: Callable | None = None) -> None:
        super().__init__(log)
        self.init_decisions(settings, progress)

    def offered(self, public: Any, claims: list) -> None:
        made = answers(claims)
        for seat in range(self.seats):
            role = self.role(seat, public)
            self.rate_claim(seat, public.card, role, "stock" if public.source == "draw" else "discard",
                            made.get(seat))
            if seat in made:
                continue
            legal, _ = self.ruleset.legal_claims(self.hand_of(seat, public.card), role, self.options)
            self.record_pass(seat, {c.kind for c in legal})

    def analyse_claim(self, seat: int, card: int, role: str, source: str, visible: list[int]) -> ClaimAnalysis:
        return analyse_claims(self.ruleset, self.hand_of(seat, card), self.options, role,
                              [fc_cards.code(c) for c in visible], self.seats, source)

    def concealed(self, seat: int) -> list[int]:
        return self.hands[seat].cards()

    def analyse(self, seat: int) -> DiscardAnalysis:
        visible = [fc_cards.code(c) for c in self.visible_to(seat)]
        return analyse_discards(self.ruleset, self.hand_of(seat, None), self.options, visible, self.seats)


class ChanReviewer(DecisionReview, ChanReplay):
    """Chắn replay that also counts wins and captures passed up and rates every discard."""

    show = staticmethod(chan_cards.code)

    def __init__(self, log: GameLog, settings: ReviewSettings | None = None, progress: Callable | None = None) -> None:
        super().__init__(log)
        self.init_decisions(settings, progress)
        self.ruleset = chan_ruleset(log.ruleset)

    def offered(self, public: Any, claims: list) -> None:
        made = answers(claims)
        source = "stock" if public.source == "stock" else "discard"
        for seat in range(self.seats):
            if self.history[seat].dead_hand:
                continue
            role = self.role(seat, public)
            self.rate_claim(seat, public.card, role, source, made.get(seat))
            if seat in made:
                continue
            legal = self.ruleset.legal_claims(self.chan_hand(seat, public.card), role, self.options, source,
                                              self.history[seat])
            self.record_pass(seat, {c.kind for c in legal})

    def analyse_claim(self, seat: int, card: int, role: str, source: str, visible: list[int]) -> ClaimAnalysis:
        return analyse_claims(self.ruleset, self.chan_hand(seat, card), self.options, role,
                              [chan_cards.code(c) for c in visible], self.seats, source, self.history[seat])

    def chan_hand(self, seat: int, card: int | None) -> ChanHand:
        return ChanHand(tuple(self.counts[seat]), tuple(self.exposed[seat]), card)

    def concealed(self, seat: int) -> list[int]:
        return [face for face, n in enumerate(self.counts[seat]) for _ in range(n)]

    def history_of(self, seat: int) -> History:
        return self.history[seat]

    def analyse(self, seat: int) -> DiscardAnalysis:
        visible = [chan_cards.code(c) for c in self.visible_to(seat)]
        return analyse_discards(self.ruleset, self.chan_hand(seat, None), self.options, visible, self.seats,
                                self.history[seat])


def answers(claims: list) -> dict[int, Any]:
    """Each claiming seat's first claim or win on the card."""
    made: dict[int, Any] = {}
    for event in claims:
        made.setdefault(event.seat, event)
    return made


#: A reviewing replay of either family.
Reviewer = FourColorReviewer | ChanReviewer
