"""bench/noise.py: a re-deal keeps the deciding seat's hand and the hands that answered the public card, and deals
the rest of the hidden cards and the stock still to come afresh, in the same numbers; two re-deals of a decision
give the ceiling the value's skill is measured against."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from bench.noise import redeal
from service.arena.duplicate import SEATS, Arena, dealt
from service.replay.families import replay_family
from service.rules.registry import get_ruleset

ROOT = Path(__file__).resolve().parents[2]


def driver_of(ruleset: str):
    """A round driver of deal 0 of seed 11, before any move, five stock cards already drawn."""
    rs = get_ruleset(ruleset)
    arena = Arena(ruleset, ("advice",) * SEATS, 11)
    driver = replay_family(rs).round(rs, arena.options, dealt(arena, 0), [None] * SEATS)
    driver.drawn = 5
    return driver


def hidden(driver, seat: int) -> list:
    """What seat `seat` holds, as sorted card codes or face counts."""
    if driver.rs.family == "chan":
        return list(driver.counts[seat])
    return sorted(driver.hands[seat].cards())


@pytest.mark.parametrize("ruleset", ["bga-taiwan", "cardavia-flowers", "cardavia-chan"])
def test_a_redeal_shuffles_only_what_the_kept_seats_cannot_see(ruleset):
    driver = driver_of(ruleset)
    before = {s: hidden(driver, s) for s in range(SEATS)}
    drawn = list(driver.stock[:5])
    pool = Counter(driver.stock[5:])
    redeal(driver, [0, 2], random.Random(3))
    assert hidden(driver, 0) == before[0] and hidden(driver, 2) == before[2]  # kept
    assert driver.stock[:5] == drawn  # the cards already turned up stay
    after_pool = Counter(driver.stock[5:])
    if driver.rs.family == "chan":
        from service.rules.chan.cards import CODES
        for s in (1, 3):
            assert sum(driver.counts[s]) == sum(before[s]) and driver.dealt[s] == driver.counts[s]
            pool.update({CODES[f]: n for f, n in enumerate(before[s]) if n})
            after_pool.update({CODES[f]: n for f, n in enumerate(driver.counts[s]) if n})
    else:
        from service.rules.fourcolor.cards import code
        for s in (1, 3):
            assert len(hidden(driver, s)) == len(before[s])
            pool.update(code(c) for c in before[s])
            after_pool.update(code(c) for c in hidden(driver, s))
    assert after_pool == pool  # the same cards, dealt anew
    assert any(hidden(driver, s) != before[s] for s in (1, 3))


@pytest.mark.slow  # plays 3 decisions x 2 re-deals x 2 options of each kind
@pytest.mark.parametrize("kind", ["discards", "claims"])
def test_the_noise_bench_measures_a_ceiling_and_the_values_share_of_it(kind):
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "noise.py"), "--kind", kind, "--ruleset",
                           "cardavia-chan", "--decisions", "3", "--json"], capture_output=True, text=True,
                          timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    out = json.loads(done.stdout)["cardavia-chan"]
    assert out["decisions"] == 3 and out["redeals"] == 2 and out["variance"] >= 0
    assert set(out["ceiling"]) == {"mean", "low", "high"} and "skill" in out
