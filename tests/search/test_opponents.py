"""The other seats of the playouts play the searching player's policy with their own view: they win when it pays
them, claim a meld only when it brings them closer to a win, and discard so as to stay as close to a win as any
legal discard leaves them (docs/advice.md, "Deep search"). Their play draws on no random source."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from service.replay.audit import audit
from service.rules.fourcolor import cards as fc_cards
from service.rules.fourcolor.cards import Tally
from service.rules.fourcolor.distance import distance as fc_distance
from service.rules.fourcolor.hand import FourColorHand
from service.rules.fourcolor.hu import evaluate_hu
from service.rules.registry import get_ruleset
from service.search import chan, fourcolor
from service.search.deal import Deal, deal_rng, sample_deal
from service.search.montecarlo import search
from tests.support.search import (
    BGA,
    RULESETS,
    discards,
    play,
    position_before,
    position_of,
    sample_position,
    simulated,
    table_of,
)

ROUNDS = {"fourcolor": fourcolor.Round, "chan": chan.Round}


def checked_round(family: str, seen: list[tuple[int, int, int]]) -> Any:
    """The family's playout round, checking every discard after a claim against the exact analysis of the hand it
    is made from (the seat's own view): it leaves the least distance of any legal discard. `seen` collects (seat,
    distance left, least distance) of each."""

    class Checked(ROUNDS[family]):  # type: ignore[misc, valid-type]
        def follow(self, seat: int, plan: Any) -> int:
            analysis = self.table.planners[seat].exact.analyse(plan.counts, plan.exposed, plan.history)
            least = min(o.distance for o in analysis.options)
            left = next(o.distance for o in analysis.options if o.card == plan.discard)
            seen.append((seat, left, least))
            return super().follow(seat, plan)

    return Checked


@pytest.mark.parametrize("ruleset_id", RULESETS)
@pytest.mark.slow  # over 2 s on 2 cores
def test_every_seat_discards_so_as_to_stay_as_close_to_a_win_as_it_can(ruleset_id: str) -> None:
    position = position_of(sample_position(ruleset_id)[0])
    table = table_of(position)
    seen: list[tuple[int, int, int]] = []
    Round = checked_round(position.family, seen)
    for i in range(30):
        deal = sample_deal(position, deal_rng(11, i))
        for candidate in position.legal_discards()[:2]:
            Round(table, deal, random.Random(i), None).play(candidate)
    others = [(left, least) for seat, left, least in seen if seat != position.seat]
    assert len(others) > 100
    assert all(left == least for left, least in others)


def fc_position(hand: list[str], other: list[str], seats: int = 2) -> tuple[Any, Deal]:
    """A bga-taiwan position of seat 0 holding `hand` (21 cards) and the deal in which seat 1 holds `other` (20
    cards): nothing seen yet, the rest of the deck in the stock in card order."""
    left = Counter(fc_cards.code(c) for c in get_ruleset(BGA).deck())
    left.subtract(hand + other)
    assert min(left.values()) >= 0
    position = position_of({"ruleset": BGA, "hand": hand, "seats": seats, "seat": 0})
    stock = tuple(sorted(position.card(c) for c in left.elements()))
    return position, Deal(((), tuple(position.card(c) for c in other)), stock)


#: Seat 1 holds five melds (a command, two fields, a triple, three Soldiers), a General, the pair yA yA and two
#: loose cards, rC and gE: one replacement from waiting. Taking yA into a triple and discarding a loose card
#: leaves him waiting; discarding any card of a meld would not.
LOOSE = "rG rA rE yC yH yP gC gH gP wA wA wA rS yS gS wG yA yA rC gE".split()


def test_another_seat_claims_a_meld_that_brings_him_closer_and_discards_a_loose_card() -> None:
    rules = get_ruleset(BGA).meld_rules(get_ruleset(BGA).resolve_options(None))
    player = "yA rH rH yE yE gA gA wC wC wH wH yG gG rP rP wE wE wS wS gG wP".split()
    position, deal = fc_position(player, LOOSE)
    code = position.card
    assert fc_distance(Tally.of([code(c) for c in LOOSE]), rules) == 1  # rC and gE meld with nothing he holds
    log: list[dict] = []
    play(table_of(position), code("yA"), deal, 0, log)
    assert log[0] == {"seat": 0, "type": "discard", "card": "yA"}
    assert log[1] == {"seat": 1, "type": "claim", "meld": "triple", "cards": ["yA", "yA", "yA"]}
    assert log[2]["seat"] == 1 and log[2]["type"] == "discard" and log[2]["card"] in ("rC", "gE")
    triple = tuple(get_ruleset(BGA).parse_exposed(position.options, [{"kind": "triple", "cards": ["yA"] * 3}]))
    after = [c for c in LOOSE if c != "yA"]

    def left(discard: str) -> int:
        kept = list(after)
        kept.remove(discard)
        return fc_distance(Tally.of([code(c) for c in kept]), rules, triple)

    assert left(log[2]["card"]) == 0  # waiting on the other loose card's mate
    assert all(left(c) >= 1 for c in after if c not in ("rC", "gE", "wG"))  # a card of a meld breaks it


#: Seat 1 holds nothing but melds: seven pairs (no points) and two fields, waiting on the third copy of any of
#: his pairs; won on rA the hand is worth 5 hu points, under the threshold of 10.
POOR = "rA rA rE rE yA yA yE yE gA gA gE gE wA wA rC rH rP yC yH yP".split()
#: Four concealed triples, three Soldiers, a General and two pairs: won on gA, 19 hu points.
RICH = "rA rA rA rE rE rE yA yA yA yE yE yE rS yS gS wG gA gA gE gE".split()


@pytest.mark.parametrize(("other", "wins"), [(POOR, False), (RICH, True)], ids=["under", "over"])
def test_another_seat_calls_a_bga_hu_only_at_or_over_the_threshold(other: list[str], wins: bool) -> None:
    """docs/rules.md#fc-threshold: a hu under the threshold makes its caller pay each opponent; the other seats,
    like the player, never call one."""
    player = "gA rS wS wS wC wC wH wH wP wP gC gC gH gH yS yS rG yG gG wE rP".split()
    if other is POOR:
        player[0] = "rA"
    position, deal = fc_position(player, other)
    card = position.card(player[0])
    options = position.options
    won = FourColorHand(Tally.of([position.card(c) for c in other]), (), card)
    points = evaluate_hu(won, position.ruleset.meld_rules(options), options["winning_meld_concealed"]).points
    assert points is not None and (points >= options["threshold"]) == wins
    log: list[dict] = []
    play(table_of(position), card, deal, 0, log)
    assert (log[1] == {"seat": 1, "type": "hu"}) == wins


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_the_other_seats_moves_audit_clean_and_every_hu_called_pays(ruleset_id: str) -> None:
    """Playouts of positions cut out of simulated rounds, on their true deals, appended to the events before them:
    the audit replays every move of every seat, the other seats' claims (Chắn: Cạ captures too) and discards
    among them, and finds none illegal. bga-taiwan: every hu called gains its winner (never under the threshold,
    docs/rules.md#fc-threshold)."""
    moves: Counter[str] = Counter()
    hus = 0
    for seed in range(8):
        log = simulated(ruleset_id, seed)
        for k in discards(log)[2::6][:3]:
            payload, deal = position_before(log, k)
            position = position_of(payload)
            table = table_of(position)
            for candidate in position.legal_discards()[:2]:
                events: list[dict] = []
                play(table, candidate, deal, seed, events)
                found = audit({**log, "events": log["events"][:k] + events, "result": None})
                assert found.valid, (seed, k, found.violations[:3])
                for event in events[1:]:
                    if event["seat"] != position.seat:
                        moves[event.get("meld") or event["type"]] += 1
                if events[-1]["type"] == "hu" and ruleset_id == BGA:
                    hus += 1
                    assert found.outcome["deltas"][events[-1]["seat"]] > 0
    claims = sum(n for move, n in moves.items() if move not in ("discard", "draw", "hu", "win"))
    assert claims > 20 and moves["discard"] > 20
    if ruleset_id == BGA:
        assert hus > 10
    if position.family == "chan":
        assert moves["ca"] > 0  # the old opponents never captured a Cạ


@pytest.mark.parametrize("ruleset_id", RULESETS)
@pytest.mark.slow  # over 2 s on 2 cores
def test_the_other_seats_play_draws_on_no_random_source(ruleset_id: str) -> None:
    """A playout is fixed by the deal: the same log whatever seeds the random source, so a search with a fixed
    seed gives the same answer, and another seed only other deals."""
    position = position_of(sample_position(ruleset_id)[0])
    table = table_of(position)
    for i in range(10):
        deal = sample_deal(position, deal_rng(17, i))
        for candidate in position.legal_discards()[:2]:
            logs = []
            for seed in (1, 2):
                log: list[dict] = []
                logs.append((play(table, candidate, deal, seed, log), log))
            assert logs[0] == logs[1]
    first = search(position, None, samples=30, time_budget=60, seed=4, min_samples=1000).to_json()
    again = search(position, None, samples=30, time_budget=60, seed=4, min_samples=1000).to_json()
    assert {k: v for k, v in first.items() if k != "timing"} == {k: v for k, v in again.items() if k != "timing"}
