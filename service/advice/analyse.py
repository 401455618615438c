"""The advice's analyses of a decision, what POST /v1/discards and POST /v1/claims answer, the arena's advice plays
and the review rates against: every legal discard of a hand, and every answer to a public card, ranked best first
by the advice's order (`ranking.SHIPPED`) unless another is given.

The rule-set analyses a hand's discards under the order it is given (`RuleSet.analyse_discards`); the answers to a
public card are the advice's own, one module per game family (`fourcolor_claims.py`, `chan_claims.py`): the
advice layer's one choice by game family, an `AdviceFamily` per family picked by the rule-set's `family` here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..rules.analysis import ClaimAnalysis, DiscardAnalysis
from ..rules.protocol import RuleSet
from . import chan_claims, fourcolor_claims
from .ranking import SHIPPED, Ranking
from .value import model_for, valued_claims, valued_discards


@dataclass(frozen=True)
class AdviceFamily:
    """How one game family's answers to a public card are analysed."""

    #: (ruleset, hand, options, role, visible, seats, source, history, ranking): pass, every legal claim and a win.
    claims: Callable[..., ClaimAnalysis]


FOURCOLOR = AdviceFamily(fourcolor_claims.analyse_ruleset_claims)
CHAN = AdviceFamily(chan_claims.analyse_ruleset_claims)
FAMILIES = {"fourcolor": FOURCOLOR, "chan": CHAN}


def advice_family(ruleset: RuleSet) -> AdviceFamily:
    """The advice's parts for the rule-set's game family."""
    return FAMILIES[ruleset.family]


def analyse_discards(ruleset: RuleSet, hand: Any, options: Mapping[str, Any], visible: Sequence[object], seats: int,
                     history: Any = None, ranking: Ranking = SHIPPED) -> DiscardAnalysis:
    """The exact analysis of every legal discard of `hand` (the rule-set's, `RuleSet.analyse_discards`), ranked by
    `ranking` (the advice's order unless another is given), each option valued where the rule-set's model applies
    (`value.valued_discards`)."""
    return valued_discards(model_for(ruleset, options, seats),
                           ruleset.analyse_discards(hand, options, visible, seats, history, ranking))


def analyse_claims(ruleset: RuleSet, hand: Any, options: Mapping[str, Any], role: str, visible: Sequence[object],
                   seats: int, source: str = "discard", history: Any = None, ranking: Ranking = SHIPPED
                   ) -> ClaimAnalysis:
    """Pass, every legal claim on the hand's public card (with its follow-up discard) and a win, ranked best first
    by `ranking` (the advice's, `ranking.claim_rank_key`, unless another is given); `hand` is the seat's resting
    hand with `public_card` set, the card came from `source` (Chắn: stock or discard; Four Color Cards: the role
    implies it) and `history` is the player's earlier moves where the family keeps them (Chắn); each answer valued
    where the rule-set's model applies (`value.valued_claims`)."""
    return valued_claims(model_for(ruleset, options, seats),
                         advice_family(ruleset).claims(ruleset, hand, options, role, visible, seats, source, history,
                                                       ranking))
