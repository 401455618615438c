"""The search policy: legal (its rounds audit clean), reproducible with a samples cap, and skipping the search
when the advice has one option or one clearly ahead."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from service.arena import search as search_policy
from service.arena.duplicate import Arena, play_round
from service.arena.seat import analyse
from service.replay.audit import audit

RULESETS = ("bga-taiwan", "cardavia-flowers", "cardavia-chan")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_search_rounds_audit_clean_and_replay_exactly(ruleset):
    # 10 deals per decision finish long before the 0.5 s budget: the samples cap decides, so a round replays
    arena = Arena(ruleset, ("search", "advice", "baseline", "random"), seed=4, samples=10)
    for rotation in range(4):
        log = play_round(arena, 0, rotation)
        found = audit(log)
        assert found.valid and found.recorded_result_matches is True, found.violations
        assert play_round(arena, 0, rotation) == log


def clear(options) -> bool:
    """The documented skip rule: one option, or the first leaves a smaller distance than the second."""
    return len(options) == 1 or options[0].distance < options[1].distance


def test_the_search_runs_only_without_a_clear_leader(monkeypatch):
    seen, asked = [], []

    def watched(view, *args, **kwargs):
        found = analyse(view, *args, **kwargs)
        seen.append(found.options)
        return found

    def fake_search(position, candidates, **limits):
        asked.append((seen[-1], candidates))
        return SimpleNamespace(candidates=[SimpleNamespace(card=candidates[-1])])

    monkeypatch.setattr(search_policy, "search", fake_search)
    monkeypatch.setattr(search_policy, "analyse", watched)
    play_round(Arena("bga-taiwan", ("search",) * 4, seed=1, samples=10), 0, 0)
    # asked exactly for the decisions without a clear leader, each over the advice's top 3
    assert [options for options, _ in asked] == [options for options in seen if not clear(options)]
    assert all(c == [o.card for o in options[:search_policy.CANDIDATES]] for options, c in asked)
    assert asked and len(asked) < len(seen)  # both kinds of decision happened
