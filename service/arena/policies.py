"""The arena's policies, by name: each decides every move of one seat in one round, from that seat's view only.

A policy is made for one seat of one round (`make`): it may remember what it did earlier in the round, and its
random source is seeded from the arena's seed, the deal, the rotation and the seat, so a round replays exactly.
Every policy answers `discard(view)` with one of the legal discards and `claim(view, card, source, role, legal,
forced)` with one of `legal` or None (never None when `forced`); the round driver checks both.

Adding a policy is one entry in `POLICIES`: a name and a factory taking the `Seating`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from ..replay.decisions import SeatView
from ..replay.players import Player
from .advice import Advice
from .advice_v1 import AdviceV1
from .baseline import Baseline
from .efficiency import Efficiency
from .external import ExternalPlayer, command_of, is_external
from .search import Search
from .seating import Seating
from .value import Value, ValueTiebreak


class RandomPolicy:
    """`random`: a discard uniform among the legal discards; a claim uniform among passing and each legal claim;
    a forced take uniform among the forced options (no pass)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def discard(self, view: SeatView) -> int:
        return self.rng.choice(view.ruleset.discardable(view.hand, view.history))

    def claim(self, view: SeatView, card: int, source: str, role: str, legal: Sequence[Any], forced: bool) -> Any:
        choices: list[Any] = list(legal) if forced else [None, *legal]
        return self.rng.choice(choices)


#: Every policy by name: a factory of the seat's player. Documented in each class (and in
#: docs/advice.md#arena-how-strong-the-advice-plays).
POLICIES: dict[str, Callable[[Seating], Player]] = {
    "random": lambda seating: RandomPolicy(seating.rng("random")),
    "baseline": lambda seating: Baseline(),
    "advice": lambda seating: Advice(),
    "advice-v1": lambda seating: AdviceV1(),
    "efficiency": lambda seating: Efficiency(),
    "search": lambda seating: Search(seating),
    "value": lambda seating: Value(),
    "value-tiebreak": lambda seating: ValueTiebreak(),
}

#: The policies whose moves follow from the seat's view alone: nothing random, nothing timed. A rotation that seats
#: only these exactly as another rotation does replays it move for move (`duplicate.distinct_rotations`). `random`
#: and `search` draw from `Seating.rng`, which is seeded by the rotation too (and the search may stop on the clock).
DETERMINISTIC = frozenset({"baseline", "advice", "advice-v1", "efficiency", "value", "value-tiebreak"})


def make(name: str, seating: Seating) -> Player:
    """The player of policy `name` for this seat (KeyError for an unknown name; `check_names` says it first);
    `external:COMMAND` is an outside bot's (docs/bots.md)."""
    if is_external(name):
        return ExternalPlayer(command_of(name), seating)
    return POLICIES[name](seating)


def check_names(names: Sequence[str], seats: int) -> None:
    """Exactly `seats` names, each a known policy; else ValueError saying what is wrong."""
    unknown = [n for n in names if n not in POLICIES and not (is_external(n) and command_of(n))]
    if unknown:
        raise ValueError(f"unknown polic{'y' if len(unknown) == 1 else 'ies'} {', '.join(map(repr, unknown))}; "
                         f"known: {', '.join(sorted(POLICIES))}, external:COMMAND")
    if len(names) != seats:
        raise ValueError(f"give exactly {seats} policies, one per seat (repeats allowed); got {len(names)}")
