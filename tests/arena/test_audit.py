"""Every arena round audits clean with its recorded result: the policies only ever make the moves the engine
offers, and the driver records them as the replay reads them."""

from __future__ import annotations

import pytest

from service.arena.duplicate import Arena, play_round
from service.replay.audit import audit

RULESETS = ("bga-taiwan", "cardavia-flowers", "cardavia-chan")
MIXES = (("random",) * 4, ("baseline",) * 4, ("advice",) * 4, ("random", "baseline", "advice", "baseline"))
DEALS = 3


@pytest.mark.parametrize("mix", MIXES, ids=lambda m: "-".join(m))
@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.slow  # over 2 s on 2 cores
def test_arena_logs_audit_clean(ruleset, mix):
    arena = Arena(ruleset, mix, seed=11)
    for index in range(DEALS):
        for rotation in range(4):
            log = play_round(arena, index, rotation)
            found = audit(log)
            assert found.violations == (), (index, rotation, found.violations)
            assert found.recorded_result_matches is True


@pytest.mark.parametrize("options", [{"payment": "each_loser_pays"}, {"must_take_drawn_general": False}])
def test_flowers_options_audit_clean(options):
    arena = Arena("cardavia-flowers", ("random", "baseline", "advice", "baseline"), seed=5, options=options)
    for rotation in range(4):
        log = play_round(arena, 0, rotation)
        assert log["options"] == {**log["options"], **options}
        found = audit(log)
        assert found.valid and found.recorded_result_matches is True, found.violations
