"""The search policy: legal (its rounds audit clean), reproducible with a samples cap, skipping the search when the
advice has one option or one clearly ahead, and leaving the advice's first discard only for a leader whose paired
difference from it is above zero at 95%."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from service.arena import search as search_policy
from service.arena.duplicate import Arena, play_round
from service.arena.seat import analyse
from service.replay.audit import audit

RULESETS = ("bga-taiwan", "cardavia-flowers", "cardavia-chan")


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.slow  # over 2 s on 2 cores
def test_search_rounds_audit_clean_and_replay_exactly(ruleset, monkeypatch):
    # the samples cap decides, never the clock (a budget far beyond what 10 deals take, even on a loaded machine),
    # so a round replays
    monkeypatch.setattr(search_policy, "MAX_BUDGET", 60.0)
    arena = Arena(ruleset, ("search", "advice", "baseline", "random"), seed=4, samples=10, budget=60.0)
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
        return SimpleNamespace(candidates=[SimpleNamespace(card=candidates[-1], versus_first=None)])

    monkeypatch.setattr(search_policy, "search", fake_search)
    monkeypatch.setattr(search_policy, "analyse", watched)
    play_round(Arena("bga-taiwan", ("search",) * 4, seed=1, samples=10), 0, 0)
    # asked exactly for the decisions without a clear leader, each over the advice's top 3
    assert [options for options, _ in asked] == [options for options in seen if not clear(options)]
    assert all(c == [o.card for o in options[:search_policy.CANDIDATES]] for options, c in asked)
    assert asked and len(asked) < len(seen)  # both kinds of decision happened


@pytest.mark.parametrize("low, follows_the_search", [(0.25, True), (0.0, False), (-1.5, False)])
def test_the_leader_replaces_the_advice_only_when_surely_ahead(monkeypatch, low, follows_the_search):
    asked, decided = [], []

    def fake_search(position, candidates, **limits):
        asked.append(candidates)
        ahead = SimpleNamespace(mean=low + 1.0, low=low, high=low + 2.0)  # the leader minus the advice's first
        return SimpleNamespace(candidates=[SimpleNamespace(card=candidates[-1], versus_first=ahead)])

    original = search_policy.Search.discard

    def discard(self, view):
        before = len(asked)
        card = original(self, view)
        if len(asked) > before:
            decided.append((asked[-1], card))
        return card

    monkeypatch.setattr(search_policy, "search", fake_search)
    monkeypatch.setattr(search_policy.Search, "discard", discard)
    play_round(Arena("bga-taiwan", ("search",) * 4, seed=1, samples=10), 0, 0)
    assert decided
    for candidates, card in decided:
        assert card == (candidates[-1] if follows_the_search else candidates[0])
