"""A frozen baseline's moves, recorded: every decision of the seats a policy plays in a few duplicate rounds per
rule-set against `efficiency` and `baseline` (tests/bench/: `advice-v1`, `advice-v2`)."""

from __future__ import annotations

from typing import Any

from service.arena.duplicate import Arena, play_with, seating_of
from service.arena.policies import make
from service.arena.seating import Seating

RULESETS = ("bga-taiwan", "cardavia-flowers", "cardavia-chan")
SEED, DEALS, ROTATIONS = 4242, 4, 2


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
