"""The replay layer's one choice by game family: each family's turn state machine (the audit's), reviewing replay,
dealing, round driver and test-bed players, in one small object per family, picked by the rule-set's `family` here
and nowhere else in the layer (or in the layers above that drive rounds: the arena, the simulations endpoint)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..rules.chan.captures import History
from ..rules.registry import RuleSet, get_ruleset
from . import simulate_chan, simulate_fourcolor
from .chan import ChanReplay
from .decisions import ReviewSettings
from .fourcolor import FourColorReplay
from .log import GameLog
from .players import Dealt, Player, SimulatedPlayer, SimulatedStyle
from .reviewing import ChanReviewer, FourColorReviewer, Reviewer

#: A family's round driver: plays a deal with one player per seat (`play()` returns the round's log).
RoundDriver = simulate_fourcolor.FourColorRound | simulate_chan.ChanRound
#: What a deal of the search carries besides the hands and the stock: every seat's history and initial deal (Chắn).
SeatRecords = tuple[tuple[History, ...] | None, tuple[tuple[int, ...], ...] | None]


@dataclass(frozen=True)
class ReplayFamily:
    """How one game family replays, reviews, deals and plays a round."""

    replay: Callable[[GameLog], FourColorReplay | ChanReplay]  # the turn state machine the audit runs
    reviewer: Callable[[GameLog, ReviewSettings | None, Callable[[], None] | None], Reviewer]
    deal: Callable[[RuleSet, random.Random, int], Dealt]  # a shuffled deal for so many seats
    round: Callable[[RuleSet, Mapping[str, Any] | None, Dealt, Sequence[Player]], RoundDriver]
    simulated: SimulatedStyle  # how the test bed's players play
    records: Callable[[Reviewer], SeatRecords]  # a reviewer's seat records a deal of the search carries


def _no_records(replay: Reviewer) -> SeatRecords:
    """Four Color Cards keeps no history and needs no initial deal."""
    return None, None


def _chan_records(replay: Reviewer) -> SeatRecords:
    """Every seat's history (capture rules 3-6) and initial deal (a Chíu on a dealt triple)."""
    assert isinstance(replay, ChanReviewer)  # the Chắn family's records are asked of its own reviewer
    return tuple(replay.history), tuple(tuple(c) for c in replay.dealt)


FOURCOLOR = ReplayFamily(FourColorReplay, FourColorReviewer, simulate_fourcolor.deal, simulate_fourcolor.FourColorRound,
                         simulate_fourcolor.SIMULATED, _no_records)
CHAN = ReplayFamily(ChanReplay, ChanReviewer, simulate_chan.deal, simulate_chan.ChanRound, simulate_chan.SIMULATED,
                    _chan_records)
FAMILIES = {"fourcolor": FOURCOLOR, "chan": CHAN}


def replay_family(ruleset: RuleSet) -> ReplayFamily:
    """The replay layer's parts for the rule-set's game family."""
    return FAMILIES[ruleset.family]


def simulate(ruleset_id: str, seed: int, seats: int = 4, policy: str = "greedy",
             options: Mapping[str, Any] | None = None) -> dict:
    """One simulated round's log, the audit's test bed: seeded `greedy` or `random` players in every seat
    (`players.SimulatedPlayer`); every log it writes audits clean with its recorded result."""
    ruleset = get_ruleset(ruleset_id)
    family = replay_family(ruleset)
    rng = random.Random(seed)
    dealt = family.deal(ruleset, rng, seats)
    player = SimulatedPlayer(rng, policy == "greedy", family.simulated)
    # one player per hand dealt: a Chắn deal is always for four, whatever `seats` asks
    return family.round(ruleset, options, dealt, [player] * len(dealt.hands)).play()
