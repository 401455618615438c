"""The arena's policies, by name: each decides every move of one seat in one round, from that seat's view only.

A policy is made for one seat of one round (`make`): it may remember what it did earlier in the round, and its
random source is seeded from the arena's seed, the deal, the rotation and the seat, so a round replays exactly.
Every policy answers `discard(view)` with one of the legal discards and `claim(view, card, source, role, legal,
forced)` with one of `legal` or None (never None when `forced`); the round driver checks both.

Adding a policy to the service is one entry in `POLICIES`: a name and a factory taking the `Seating`. A policy that
lives outside the service (a frozen baseline, a variant of the advice under bench/) is named `py:MODULE:FACTORY`
instead: the arena imports MODULE and calls its FACTORY with the `Seating` (docs/bots.md#python-policies); an
outside program is named `external:COMMAND` (docs/bots.md).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from ..replay.decisions import SeatView
from ..replay.players import Player
from .advice import Advice
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
    "efficiency": lambda seating: Efficiency(),
    "search": lambda seating: Search(seating),
    "value": lambda seating: Value(),
    "value-tiebreak": lambda seating: ValueTiebreak(),
}

#: The policies of `POLICIES` whose moves follow from the seat's view alone: nothing random, nothing timed. A
#: rotation that seats only deterministic policies exactly as another rotation does replays it move for move
#: (`duplicate.distinct_rotations`). `random` and `search` draw from `Seating.rng`, which is seeded by the rotation
#: too (and the search may stop on the clock). A factory says it of its own policy (`is_deterministic`).
DETERMINISTIC = frozenset({"baseline", "advice", "efficiency", "value", "value-tiebreak"})

#: How a policy that lives outside the service is named: `py:MODULE:FACTORY` (`factory_of`).
PYTHON = "py:"
EXAMPLE = "py:bench.baselines.advice_v1:AdviceV1"


@dataclass(frozen=True)
class Deterministic:
    """A factory of players whose moves follow from the seat's view alone (`is_deterministic`): the factory it
    wraps, marked so. A class can say it itself with a class attribute `deterministic = True`."""

    make: Callable[[Seating], Player]
    deterministic: ClassVar[bool] = True

    def __call__(self, seating: Seating) -> Player:
        return self.make(seating)


def is_python(name: str) -> bool:
    """Whether `name` names a policy outside the service, `py:MODULE:FACTORY`."""
    return name.startswith(PYTHON)


def factory_of(name: str) -> Callable[[Seating], Player]:
    """The factory a `py:MODULE:FACTORY` name names: MODULE imported (as Python imports any: from the repository's
    root, `bench.` modules are found), FACTORY a callable attribute of it, called with each seat's `Seating`;
    ValueError saying what is wrong."""
    module_name, colon, attribute = name.removeprefix(PYTHON).partition(":")
    if not (module_name and colon and attribute):
        raise ValueError(f"policy {name!r}: name a Python policy py:MODULE:FACTORY, e.g. {EXAMPLE}")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise ValueError(f"policy {name!r}: cannot import {module_name!r} ({error}); run from the repository's "
                         "root, or put its folder on PYTHONPATH") from None
    found = getattr(module, attribute, None)
    if not callable(found):
        raise ValueError(f"policy {name!r}: {module_name!r} has no callable {attribute!r}")
    return found


def factory(name: str) -> Callable[[Seating], Player]:
    """The factory of a policy of `POLICIES` or of a `py:MODULE:FACTORY` name (KeyError for an unknown name)."""
    return factory_of(name) if is_python(name) else POLICIES[name]


def is_deterministic(name: str) -> bool:
    """Whether policy `name` plays from the seat's view alone: one of `DETERMINISTIC`, or one whose factory says so
    (a `deterministic` attribute that is True: `Deterministic`, or a class's own); an outside bot never is."""
    if is_external(name):
        return False
    return name in DETERMINISTIC or getattr(factory(name), "deterministic", False) is True


def make(name: str, seating: Seating) -> Player:
    """The player of policy `name` for this seat (KeyError for an unknown name; `check_names` says it first);
    `external:COMMAND` is an outside bot's (docs/bots.md), `py:MODULE:FACTORY` a Python policy's."""
    if is_external(name):
        return ExternalPlayer(command_of(name), seating)
    return factory(name)(seating)


def check_names(names: Sequence[str], seats: int) -> None:
    """Exactly `seats` names, each a known policy, an outside bot or a Python policy that can be loaded; else
    ValueError saying what is wrong."""
    for name in names:
        if is_python(name):
            factory_of(name)
    unknown = [n for n in names if n not in POLICIES and not is_python(n) and not (is_external(n) and command_of(n))]
    if unknown:
        raise ValueError(f"unknown polic{'y' if len(unknown) == 1 else 'ies'} {', '.join(map(repr, unknown))}; "
                         f"known: {', '.join(sorted(POLICIES))}, external:COMMAND, py:MODULE:FACTORY")
    if len(names) != seats:
        raise ValueError(f"give exactly {seats} policies, one per seat (repeats allowed); got {len(names)}")
