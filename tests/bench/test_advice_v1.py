"""`advice-v1` (bench/baselines/advice_v1.py) is the advice frozen: loaded by its name, as the arena loads it, it
makes the moves `advice` made when it was frozen, recorded in `advice_v1_moves.json` (every decision of the two
advice seats in a few rounds per rule-set against `efficiency` and `baseline`). The recording was made with
`advice` at the time (engine 0.1.0), so a passing test says the freeze is faithful, and it keeps passing whatever
later becomes of the advice."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from service.arena.duplicate import Arena, distinct_rotations, play_with, seating_of
from service.arena.policies import check_names, is_deterministic, make
from service.arena.seating import Seating

FIXTURE = Path(__file__).with_name("advice_v1_moves.json")
RULESETS = ("bga-taiwan", "cardavia-flowers", "cardavia-chan")
SEED, DEALS, ROTATIONS = 4242, 4, 2
ADVICE_V1 = "py:bench.baselines.advice_v1:AdviceV1"


class Recorded:
    """A player that notes every move it makes: a discard as "d<card>", an answer to a public card as "c<index
    in legal>" ("c-1": pass)."""

    def __init__(self, player: Any, seat: int, moves: list[str]) -> None:
        self.player, self.seat, self.moves = player, seat, moves

    def discard(self, view: Any) -> int:
        card = self.player.discard(view)
        self.moves.append(f"{self.seat}d{card}")
        return card

    def claim(self, view: Any, card: int, source: str, role: str, legal: Any, forced: bool) -> Any:
        answer = self.player.claim(view, card, source, role, legal, forced)
        index = -1 if answer is None else next(i for i, c in enumerate(legal) if c is answer)
        self.moves.append(f"{self.seat}c{index}")
        return answer


def moves_of(policy: str, ruleset: str) -> dict[str, list[str]]:
    """The moves of `policy` in the seats it plays, per round "deal/rotation", against efficiency and baseline."""
    arena = Arena(ruleset, (policy, "efficiency", policy, "baseline"), seed=SEED)
    found = {}
    for index in range(DEALS):
        for rotation in range(ROTATIONS):
            moves: list[str] = []
            players = []
            for seat, name in enumerate(seating_of(arena, rotation)):
                player = make(name, Seating(SEED, index, rotation, seat))
                players.append(Recorded(player, seat, moves) if name == policy else player)
            play_with(arena, index, players)
            found[f"{index}/{rotation}"] = moves
    return found


@pytest.mark.parametrize("ruleset", RULESETS)
def test_advice_v1_makes_the_recorded_moves_of_the_advice(ruleset):
    recorded = json.loads(FIXTURE.read_text(encoding="utf-8"))[ruleset]
    assert moves_of(ADVICE_V1, ruleset) == recorded


def test_advice_v1_is_a_deterministic_arena_policy_by_its_name():
    """The arena takes its name, and plays its repeated rotations once, as for the service's deterministic
    policies."""
    check_names([ADVICE_V1, "advice", ADVICE_V1, "advice"], 4)
    assert is_deterministic(ADVICE_V1)
    assert distinct_rotations(Arena("cardavia-chan", (ADVICE_V1, "advice", ADVICE_V1, "advice"))) == [0, 1, 0, 1]


def test_the_recording_holds_a_few_hundred_decisions_of_every_kind():
    recorded = json.loads(FIXTURE.read_text(encoding="utf-8"))
    moves = [m for rounds in recorded.values() for r in rounds.values() for m in r]
    assert len(moves) >= 300
    answers = {m[2:] for m in moves if m[1] == "c"}
    assert "-1" in answers and len(answers) > 1  # passes and claims
