"""Playouts: every one is a legal end of the round (the audit replays it), ends, and settles within the rules.

A position is cut out of a simulated round at a discard; the playout of that discard on the round's true deal and
stock, appended to the events before it, is a whole round log that `service.replay.audit` must find legal, with
the player's delta equal to the audit's recomputed settlement.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.replay.audit import audit
from service.rules.chan.captures import History, forbidden_faces, legal_faces
from service.rules.chan.cards import N_FACES
from service.search import chan
from service.search.chan_table import ChanTable
from service.search.deal import deal_rng, sample_deal
from service.search.fourcolor_table import FourColorTable
from service.search.position import Position
from tests.support.search import (
    BGA,
    CHAN,
    RULESETS,
    discards,
    play,
    played_table,
    position_before,
    position_of,
    sample_position,
    simulated,
    table_of,
)

SEEDS = range(12)


@pytest.mark.parametrize("policy", ["greedy", "random"])
@pytest.mark.parametrize("ruleset_id", RULESETS)
@pytest.mark.slow  # over 2 s on 2 cores
def test_a_playout_on_the_true_deal_audits_clean(ruleset_id: str, policy: str) -> None:
    for seed in SEEDS:
        log = simulated(ruleset_id, seed, policy)
        for k in discards(log)[1::7][:3]:
            payload, deal = position_before(log, k)
            position = position_of(payload)
            table = table_of(position)
            for candidate in position.legal_discards()[:2]:
                events: list[dict] = []
                outcome = play(table, candidate, deal, seed, events)
                found = audit({**log, "events": log["events"][:k] + events, "result": None})
                assert found.valid, (seed, k, found.violations[:3])
                deltas = found.outcome.get("deltas") or [0] * position.seats
                assert outcome.delta == deltas[position.seat]
                assert outcome.won == (found.outcome.get("winner") == position.seat)


def delta_bound(position: Position) -> int:
    """The largest settlement a player can make or lose: bga-taiwan at most 2 points per card (quads) over 21
    cards + 3 lucky; Chắn a score under 100; flowers with payments at most 3 points per card."""
    if position.family == "chan":
        return 3 * 100
    if position.ruleset.id == "cardavia-flowers":
        return 0 if position.options["payment"] == "none" else 3 * 3 * 21
    options = position.options
    return (position.seats - 1) * max(45 - options["threshold"], options["threshold"]) + options["stake"] * 3


#: One table per rule-set across hypothesis examples: the player's memo is what a search shares between deals.
TABLES: dict[str, FourColorTable | ChanTable] = {}


@pytest.mark.parametrize("ruleset_id", RULESETS)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_every_playout_ends_within_the_settlement_range(ruleset_id: str, seed: int) -> None:
    position = position_of(sample_position(ruleset_id)[0])
    table = TABLES.setdefault(ruleset_id, table_of(position))
    deal = sample_deal(position, deal_rng(seed, 0))
    for candidate in position.legal_discards()[:3]:
        events: list[dict] = []
        outcome = play(table, candidate, deal, seed, events)  # returns: the round ended
        assert abs(outcome.delta) <= delta_bound(position)
        assert outcome.points > 0 if outcome.won else outcome.points == 0
        assert sum(e["type"] == "draw" for e in events) <= len(deal.stock)
        assert events[0] == {"seat": position.seat, "type": "discard", "card": position.code(candidate)}


def test_flowers_with_payments_settles_each_losers_payment() -> None:
    payload = {**sample_position("cardavia-flowers")[0], "options": {"payment": "each_loser_pays"}}
    position = position_of(payload)
    table = table_of(position)
    outcomes = [play(table, position.legal_discards()[0], sample_deal(position, deal_rng(2, i)), i)
                for i in range(60)]
    assert any(o.delta for o in outcomes)
    assert all(o.delta == 3 * o.points for o in outcomes if o.won)


def test_chan_wins_pay_three_times_the_score() -> None:
    position = position_of(sample_position(CHAN)[0])
    table = table_of(position)
    outcomes = [play(table, c, sample_deal(position, deal_rng(4, i)), i)
                for i in range(40) for c in position.legal_discards()[:2]]
    assert all(o.delta == 3 * o.points for o in outcomes if o.won)
    assert all(o.delta <= 0 for o in outcomes if not o.won)


@pytest.mark.parametrize("ruleset_id", [r for r in RULESETS if r != CHAN])
def test_no_seat_discards_a_general_or_a_flower_in_playouts(ruleset_id: str) -> None:
    """docs/rules.md#fc-generals-discard, #fl-discard: Generals (flowers: and flowers) are never
    discarded, so a wait on one comes only from the stock;
    the playouts' opponents, who hold such cards in most deals, never offer one as a discard."""
    position = position_of(sample_position(ruleset_id)[0])
    table = table_of(position)
    discarded, held = [], 0
    for i in range(40):
        deal = sample_deal(position, deal_rng(7, i))
        held += sum(c % 7 == 0 or c >= 28 for hand in deal.hands for c in hand)
        for candidate in position.legal_discards()[:2]:
            events: list[dict] = []
            play(table, candidate, deal, i, events)
            discarded += [e["card"] for e in events if e["type"] == "discard"]
    assert held and len(discarded) > 100
    assert not [c for c in discarded if c[1] == "G" or c[0] == "F"]


def test_playouts_settle_the_lucky_card_as_the_option_says() -> None:
    """Option lucky_match "character" (docs/rules.md#fc-lucky-match): a playout's settlement is the audit's."""
    character = {"lucky_match": "character"}
    wins = 0
    for seed in SEEDS:
        log = {**simulated(BGA, seed), "options": character}
        for k in discards(log)[1::7][:2]:
            payload, deal = position_before(log, k)
            position = position_of({**payload, "options": character})
            table = table_of(position)
            events: list[dict] = []
            outcome = play(table, position.legal_discards()[0], deal, seed, events)
            found = audit({**log, "events": log["events"][:k] + events, "result": None})
            assert found.valid, (seed, k, found.violations[:3])
            assert outcome.delta == (found.outcome.get("deltas") or [0] * position.seats)[position.seat]
            wins += found.outcome["type"] == "hu"
    assert wins


def test_chan_cards_that_neither_win_nor_improve_draw_no_claim_from_any_seat() -> None:
    """The playout skips a seat's answer (and its memo) on a card that is neither a wait nor an improving card of
    his hand; on every hand a seat met in play, `ChanTable._answer` must say None for each such card, in every
    role and from either source, while some improving card draws a claim."""
    position = position_of(sample_position(CHAN)[0])
    table = played_table(position, 5, 3)
    holds = [(s, h) for s, planner in enumerate(table.planners)
             for plan in [*([table.start] if s == position.seat else []), *planner.tops.values()]
             for h in plan.holds.values()]
    holds += [(s, h) for s, planner in enumerate(table.planners) for h in planner.rests.values()]
    assert len(holds) > 20 and {s for s, _ in holds} == set(range(4))
    claimed = 0
    for seat, hold in holds:
        for x in range(N_FACES):
            for source in ("stock", "discard"):
                for role in ("drawer", "next", "other", "discarder"):
                    answer = table._answer(hold, x, source, role, seat)
                    if x not in hold.waits and x not in hold.improving:
                        assert answer is None
                    claimed += answer is not None and answer.kind != "win"
    assert claimed


def test_chan_seats_discard_only_what_their_histories_allow() -> None:
    """Every seat's discard in a playout is legal under the history he holds at that moment (rule 2: an odd count;
    rules 3 and 6: `forbidden_faces`), and his history then records it, so that rule 6 grows with his discards.
    Half the deals give the other seats a captured Cạ, under which every discard forbids its value's other suits."""
    position = position_of(sample_position(CHAN)[0])
    table = table_of(position)
    checked: list[tuple[int, bool]] = []

    class Checked(chan.Round):
        def follow(self, seat: int, plan: Any) -> int:
            history = plan.history
            forbidden = forbidden_faces(history)
            assert plan.discard in legal_faces(plan.counts, forbidden)
            card = super().follow(seat, plan)
            assert self.holds[seat].history.discarded == history.discarded | {card}
            checked.append((seat, history.captured_ca and bool(history.discarded)))
            return card

    for i in range(40):
        deal = sample_deal(position, deal_rng(9, i))
        if i % 2:
            ca = History(captured_ca=True)
            deal = deal._replace(histories=tuple(None if s == position.seat else ca for s in range(4)))
        for candidate in position.legal_discards()[:2]:
            Checked(table, deal, random.Random(i), None).play(candidate)
    assert {seat for seat, _ in checked} >= set(range(4)) - {position.seat}
    assert any(grown for seat, grown in checked if seat != position.seat)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_a_playout_does_not_depend_on_the_candidates_played_before_it(ruleset_id: str) -> None:
    """Every candidate is played on the same deal, from the seats as dealt (Chắn: built once per deal and copied):
    each playout's log and outcome must be those of the same playout on a table that played nothing before."""
    position = position_of(sample_position(ruleset_id)[0])
    shared = table_of(position)
    candidates = position.legal_discards()[:3]
    for i in range(6):
        deal = sample_deal(position, deal_rng(13, i))
        for candidate in candidates:
            log: list[dict] = []
            alone: list[dict] = []
            assert play(shared, candidate, deal, i, log) == play(table_of(position), candidate, deal, i, alone)
            assert log == alone
