"""Who a policy plays for in the arena, and the random sources that follow from it."""

from __future__ import annotations

import random
from dataclasses import dataclass

#: The search policy's time per decision: the default and the most allowed (seconds).
MAX_BUDGET = 0.5
DEFAULT_SAMPLES = 200


@dataclass(frozen=True)
class Seating:
    """The arena's seed, the deal, the rotation and the seat a policy plays; the search's limits per decision."""

    seed: int
    deal: int
    rotation: int
    seat: int
    budget: float = MAX_BUDGET
    samples: int = DEFAULT_SAMPLES

    def rng(self, purpose: str, *more: object) -> random.Random:
        """A random source for this seat of this round and `purpose` (a string seed hashes the same in every
        process, whatever PYTHONHASHSEED)."""
        tail = "/".join(str(m) for m in more)
        return random.Random(f"arena/{purpose}/{self.seed}/{self.deal}/{self.rotation}/{self.seat}/{tail}")
