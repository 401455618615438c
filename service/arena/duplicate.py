"""Duplicate deals: deal i of a seed is the same deal whatever the policies, played once per rotation of the
policies over the seats (rotation r: seat s plays `policies[(s + r) % seats]`), so every policy plays every seat
of every deal.

A deal is dealt by the family's own dealing (`replay.families`: `deal`) from a random source seeded by the arena's
seed and the deal's number only; each round is played by the family's round driver (`round`) with one policy per
seat, and every seat's score is read from the recorded result.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..replay.families import replay_family
from ..replay.players import Dealt
from ..rules.registry import get_ruleset
from .bots import DEFAULT_TIMEOUT
from .external import play_watched
from .parallel import in_order
from .policies import is_deterministic, make
from .seating import MAX_BUDGET, Seating

SEATS = 4


@dataclass(frozen=True)
class Arena:
    """What is played: the rule-set and its options, one policy name per seat, the seed and the search limits;
    `logs` is a folder to write every round's log to (None: none written); `bot_timeout` is an external bot's
    time per decision (seconds)."""

    ruleset: str
    policies: tuple[str, ...]
    seed: int = 0
    options: dict[str, Any] = field(default_factory=dict)
    budget: float = MAX_BUDGET
    samples: int = 200
    logs: str | None = None
    bot_timeout: float = DEFAULT_TIMEOUT


@dataclass(frozen=True)
class SeatResult:
    """One seat of one round: the policy that played it, its settlement delta, whether it won, the points."""

    policy: str
    delta: int
    won: bool
    points: int


def dealt(arena: Arena, index: int) -> Dealt:
    """Deal `index` of the arena's seed: the same for any policies."""
    rs = get_ruleset(arena.ruleset)
    return replay_family(rs).deal(rs, random.Random(f"arena/deal/{arena.seed}/{index}"), SEATS)


def seating_of(arena: Arena, rotation: int) -> list[str]:
    """The policy of each seat in a rotation: seat s plays policies[(s + rotation) % seats]."""
    n = len(arena.policies)
    return [arena.policies[(s + rotation) % n] for s in range(n)]


def play_round(arena: Arena, index: int, rotation: int) -> dict:
    """The log of deal `index` played in `rotation`."""
    names = seating_of(arena, rotation)
    return play_with(arena, index, [make(name, Seating(arena.seed, index, rotation, s, arena.budget, arena.samples))
                                    for s, name in enumerate(names)])


def play_with(arena: Arena, index: int, players: Sequence[Any]) -> dict:
    """The log of deal `index` played by these players, one per seat (the family's round driver)."""
    rs = get_ruleset(arena.ruleset)
    driver = replay_family(rs).round(rs, arena.options, dealt(arena, index), list(players))
    return play_watched(driver, players, arena.bot_timeout)


def seat_results(log: dict, names: Sequence[str]) -> list[SeatResult]:
    """Every seat's score of a round's log (a draw: nobody wins, every delta 0)."""
    result = log["result"]
    deltas = result.get("deltas") or [0] * len(names)
    winner = result.get("winner")
    return [SeatResult(name, deltas[s], s == winner, result.get("points", 0) if s == winner else 0)
            for s, name in enumerate(names)]


def distinct_rotations(arena: Arena) -> list[int]:
    """Which rotation's round stands for each rotation: itself, or an earlier rotation that seats the same
    policies in the same seats when every one of them is deterministic (`policies.is_deterministic`): that round
    replays the earlier one move for move (A,B,A,B: rotations 2 and 3 replay 0 and 1)."""
    first: dict[tuple[str, ...], int] = {}
    stands = []
    for rotation in range(len(arena.policies)):
        names = tuple(seating_of(arena, rotation))
        if all(is_deterministic(n) for n in names):
            stands.append(first.setdefault(names, rotation))
        else:
            stands.append(rotation)
    return stands


def play_deal(arena: Arena, index: int) -> list[list[SeatResult]]:
    """Every rotation of deal `index`: the seats' results per rotation (each log written when `arena.logs`). A
    rotation that replays an earlier one (`distinct_rotations`) is not played again: it counts that round's
    results, and its log is that round's log, so every figure is the one of all rotations played."""
    rounds: list[list[SeatResult]] = []
    logs: dict[int, dict] = {}
    for rotation, played in enumerate(distinct_rotations(arena)):
        if played == rotation:
            logs[rotation] = play_round(arena, index, rotation)
        log = logs[played]
        if arena.logs is not None:
            path = Path(arena.logs) / f"deal{index:05d}-rotation{rotation}.json"
            path.write_text(json.dumps(log, ensure_ascii=False), encoding="utf-8")
        rounds.append(seat_results(log, seating_of(arena, rotation)))
    return rounds


def _play(job: tuple[Arena, int]) -> list[list[SeatResult]]:
    """A worker's deal (a module-level function, so a process pool can call it)."""
    return play_deal(*job)


def play_deals(arena: Arena, deals: int, jobs: int = 1) -> Iterator[list[list[SeatResult]]]:
    """Every deal's rotations, in deal order, played in `jobs` processes: the same results for any `jobs` (each
    deal is seeded by its number alone)."""
    # every deal done, an error, a bot that broke the protocol or the caller stopped reading: the processes end
    # normally, and their external bots get `end` (bots.py, `parallel.in_order`)
    yield from in_order(_play, ((arena, i) for i in range(deals)), jobs, 2 * jobs)
