"""The baseline is frozen: its key orders discards as the ranking key the advice used when it was frozen, on real
positions of played rounds, and it does not follow the live key (which since breaks the frozen key's ties by the
discarded card's unseen copies instead of card order, in cardavia-flowers ranks by the reach of a hand before its
improving cards, in bga-taiwan ranks by the paying distance first, then the distance to a rich win, and in Chắn
ranks by the Tôm and Lèo sets kept after the expected gain)."""

from __future__ import annotations

import pytest

from service.advice.ranking import rank_key
from service.arena import baseline
from service.arena.baseline import Baseline, frozen_order, frozen_rank_key
from service.arena.duplicate import Arena, play_with
from service.arena.seat import analyse
from service.rules.analysis import DiscardOption, Wait, paying_of


class Spy(Baseline):
    """The baseline, keeping every discard analysis it met."""

    def __init__(self, seen: list) -> None:
        super().__init__()
        self.seen = seen

    def discard(self, view):
        self.seen.append(analyse(view))
        return super().discard(view)


def baseline_positions(ruleset: str) -> list:
    """Every discard analysis the baseline met in three rounds of seed 2."""
    seen: list = []
    for index in range(3):
        play_with(Arena(ruleset, ("baseline",) * 4, seed=2), index, [Spy(seen) for _ in range(4)])
    assert len(seen) > 20
    return seen


def live_frozen(option: DiscardOption) -> tuple[float, ...]:
    """The frozen key with the Tôm and Lèo sets kept (Chắn) after its expected gain, where the live key has them."""
    key = frozen_rank_key(option)
    return (*key[:2], -(option.sets_kept or 0), *key[2:])


@pytest.mark.parametrize("ruleset", ("bga-taiwan", "cardavia-chan"))
def test_live_ranking_refines_the_frozen_key(ruleset):
    seen = baseline_positions(ruleset)
    reordered = 0
    for analysis in seen:
        # the live ranking never puts a discard the frozen key ranks worse ahead of a better one at the same paying
        # distance, distance to a rich win and count of cards lowering it (in bga-taiwan these come first; elsewhere
        # the distance) and, after the expected gain, the same Tôm and Lèo sets kept (Chắn; elsewhere None)...
        keys = [(paying_of(o), o.rich or 0, -(o.paying_improving or 0), *live_frozen(o)) for o in analysis.options]
        assert keys == sorted(keys)
        # ...it only orders the frozen key's ties differently (by unseen copies of the card, not card order)
        frozen = [o.card for o in frozen_order(analysis.options)]
        live = [o.card for o in analysis.options]
        assert sorted(frozen) == sorted(live)
        reordered += frozen != live
        for o in analysis.options:
            tied = [t for t in analysis.options
                    if (paying_of(t), t.rich, t.paying_improving, live_frozen(t))
                    == (paying_of(o), o.rich, o.paying_improving, live_frozen(o))]
            assert [t.card_unseen for t in tied] == sorted(t.card_unseen for t in tied)
    assert reordered, "no tie was met: the positions do not test the tie-break"


def test_flowers_live_ranking_leaves_the_frozen_key():
    # cardavia-flowers ranks far hands by the improving cards that can be claimed (the reach) before their count:
    # the live order follows the live key, the baseline keeps its own, and the two first choices differ somewhere
    seen = baseline_positions("cardavia-flowers")
    first_differs = 0
    for analysis in seen:
        assert [rank_key(o) for o in analysis.options] == sorted(rank_key(o) for o in analysis.options)
        frozen = frozen_order(analysis.options)
        assert [frozen_rank_key(o) for o in frozen] == sorted(frozen_rank_key(o) for o in frozen)
        first_differs += frozen[0].card != analysis.options[0].card
    assert first_differs, "no position where the reach changes the first choice"


def option(card: int, distance: int, gain: float = 0.0, improving: int = 0, waiting: int = 0) -> DiscardOption:
    waits = (Wait(99, waiting, ("discard",), 10, 10),) if waiting else ()
    return DiscardOption(card, distance, waits, (), improving, gain)


@pytest.mark.parametrize("better, worse", [
    pytest.param(option(5, 1), option(1, 2, gain=9.0, improving=30, waiting=4), id="fewer_replacements_first"),
    pytest.param(option(5, 0, gain=0.5), option(1, 0, gain=0.2, waiting=9), id="then_more_expected_gain"),
    pytest.param(option(5, 2, improving=12), option(1, 2, improving=8, waiting=9), id="then_more_improving"),
    pytest.param(option(5, 0, waiting=3), option(1, 0, waiting=2), id="then_more_waiting_copies"),
    pytest.param(option(1, 2), option(5, 2), id="then_the_lower_card"),
])
def test_frozen_key_case_table(better, worse):
    assert frozen_order([worse, better]) == [better, worse]
    assert frozen_rank_key(better) <= frozen_rank_key(worse)


def test_the_baseline_owns_its_key():
    # a copy, not the live function: a later change of service.rules.analysis.rank_key leaves it alone
    assert "rank_key" not in vars(baseline)


def test_bga_live_ranking_puts_the_paying_distance_first():
    # bga-taiwan ranks by the replacements from a win that pays before the frozen key: on real positions the first
    # choices of the two differ somewhere beyond a tie of the frozen key, and where they do the live one is nearer
    # a paying win, or as near with more unseen cards that bring it nearer
    seen = baseline_positions("bga-taiwan")
    first_differs = 0
    for analysis in seen:
        frozen = frozen_order(analysis.options)
        if frozen_rank_key(frozen[0]) != frozen_rank_key(analysis.options[0]):
            first_differs += 1
            live, old = analysis.options[0], frozen[0]
            assert (paying_of(live), -(live.paying_improving or 0)) < (paying_of(old), -(old.paying_improving or 0))
    assert first_differs, "no position where the paying distance changes the first choice"
