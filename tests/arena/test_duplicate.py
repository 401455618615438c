"""Duplicate deals: the same deal in every rotation and for any policies; every policy in every seat once per
rotation set; the driver refuses a move it did not offer."""

from __future__ import annotations

from collections import Counter

import pytest

from service.arena.duplicate import Arena, dealt, play_round, seating_of
from service.arena.policies import POLICIES
from service.replay.players import IllegalMove
from service.replay.simulate_chan import ChanRound
from service.replay.simulate_fourcolor import FourColorRound
from service.rules.registry import get_ruleset

RULESETS = ("bga-taiwan", "cardavia-flowers", "cardavia-chan")


@pytest.mark.parametrize("policies", [("random", "baseline", "advice", "baseline"),
                                      ("advice", "baseline", "baseline", "baseline"),
                                      ("random", "random", "advice", "baseline")])
def test_every_policy_sits_in_every_seat_once_per_rotation_set(policies):
    arena = Arena("bga-taiwan", policies)
    seatings = [seating_of(arena, r) for r in range(4)]
    # rotation r: seat s plays policies[(s + r) % 4], so over the 4 rotations each entry of the list visits each
    # seat exactly once: a name given k times sits k times in each seat.
    for seat in range(4):
        assert Counter(names[seat] for names in seatings) == Counter(policies)
    for r, names in enumerate(seatings):
        assert Counter(names) == Counter(policies)  # each rotation seats every given policy
        assert names == [policies[(s + r) % 4] for s in range(4)]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_deal_is_the_same_whatever_the_rotation_and_the_policies(ruleset):
    one = Arena(ruleset, ("random", "baseline", "advice", "baseline"), seed=7)
    other = Arena(ruleset, ("advice", "advice", "random", "random"), seed=7)
    assert dealt(one, 3) == dealt(other, 3)
    assert dealt(one, 3) != dealt(one, 4)  # the deal's number matters
    assert dealt(one, 3) != dealt(Arena(ruleset, one.policies, seed=8), 3)  # and the seed
    logs = [play_round(one, 3, r) for r in range(4)] + [play_round(other, 3, r) for r in range(4)]
    frames = {(log["dealer"], str(log["hands"]), str(log["stock"])) for log in logs}
    assert len(frames) == 1


def test_the_registry_names_every_policy():
    assert {"random", "baseline", "advice", "efficiency", "search"} <= set(POLICIES)


class Cheat:
    """Discards a General (never legal in Four Color Cards) or passes a forced take."""

    def __init__(self, what: str) -> None:
        self.what = what

    def discard(self, view):
        if self.what == "discard":
            return next(c for c in range(28) if c % 7 == 6)  # a General: never discardable
        return view.ruleset.discardable(view.hand, view.history)[0]

    def claim(self, view, card, source, role, legal, forced):
        return None if self.what == "claim" else legal[0] if forced else None


@pytest.mark.parametrize("what", ["discard", "claim"])
def test_the_driver_refuses_a_move_it_did_not_offer(what):
    rs = get_ruleset("cardavia-flowers")  # the dealer draws first: claims come before any discard
    arena = Arena(rs.id, ("random",) * 4)
    with pytest.raises(IllegalMove):
        for index in range(20):  # a forced take of a drawn General or flower comes within a few deals
            FourColorRound(rs, None, dealt(arena, index), [Cheat(what)] * 4).play()


def test_a_chan_claim_outside_the_legal_ones_is_refused():
    class Stranger(Cheat):
        def claim(self, view, card, source, role, legal, forced):
            return object()

    rs = get_ruleset("cardavia-chan")
    arena = Arena(rs.id, ("random",) * 4)
    with pytest.raises(IllegalMove):
        for index in range(20):
            ChanRound(rs, None, dealt(arena, index), [Stranger("none")] * 4).play()
