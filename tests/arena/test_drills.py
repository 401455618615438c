"""The drills' dealer: its recording players play exactly as the advice does, and a drill stopped at its position
holds the position a full round would have offered at that point."""

from __future__ import annotations

import random

import pytest

from service.arena import drills
from service.arena.advice import Advice
from service.replay.families import replay_family
from service.rules.registry import get_ruleset


def full_round(ruleset_id: str, players_of, seed: str) -> dict:
    """The log of a deal played to its end by these players."""
    ruleset = get_ruleset(ruleset_id)
    family = replay_family(ruleset)
    dealt = family.deal(ruleset, random.Random(seed), drills.SEATS)
    driver = family.round(ruleset, None, dealt, [players_of() for _ in dealt.hands])
    return driver.play()


@pytest.mark.parametrize("ruleset_id", ["bga-taiwan", "cardavia-chan"])
def test_recording_players_play_the_advice_move_for_move(ruleset_id):
    collector = drills.Collector(get_ruleset(ruleset_id), "hard", "any", enough=10**9)
    recorded = full_round(ruleset_id, lambda: drills.Recording(collector), "same-deal")
    assert recorded == full_round(ruleset_id, Advice, "same-deal")
    assert collector.found and all(c.distance >= 2 for c in collector.found)


def test_a_stopped_round_keeps_the_position_a_full_round_offers_there():
    ruleset = get_ruleset("cardavia-flowers")
    everything = drills.Collector(ruleset, "medium", "any", enough=10**9)
    drills.play(ruleset, everything, random.Random("drill/stop"))
    stopped = drills.Collector(ruleset, "medium", "any", enough=2)
    drills.play(ruleset, stopped, random.Random("drill/stop"))
    assert len(everything.found) >= 2 and len(stopped.found) == 2
    def seen(found):
        return [(c.kind, c.event, c.view) for c in found]
    assert seen(stopped.found) == seen(everything.found[:2])
