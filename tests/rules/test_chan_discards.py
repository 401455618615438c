"""Exact discard analysis for Chắn (docs/rules.md#chan): distance, waits, claims, points and improving cards.

A Chắn player discards from 20 cards (hand + exposed). After the discard his 19 cards are *waiting* (distance 0)
when some next card makes 10 pairs with at least 6 Chắn (with Chi chi as that card: exactly 6 Chắn and 4 Cạ).
Worked example of the distance (`test_worked_distance_example`): 3 Chắn, 6 Cạ and a single 9c. A win needs at
most 4 Cạ; one replacement turns at most one Cạ into a Chắn (4m-4s -> 4m-4m), and the next card can only pair
the single, so one replacement leaves 5 Cạ: not waiting. Two (4s -> 4m, 5s -> 5m) leave 5 Chắn, 4 Cạ and 9c,
waiting on 9c: distance 2.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from service.advice.ranking import SHIPPED, rank_key
from service.rules.chan import samples
from service.rules.chan.captures import History, forbidden_faces, legal_discards, legal_faces, parse_history
from service.rules.chan.cards import CHI_CHI, CODE_INDEX, N_FACES, code, tally, value_of
from service.rules.chan.discards import Distances, analyse_discards, least_distance, sets_kept, top_discard
from service.rules.chan.distance import UNREACHABLE, complete_distance, distance
from service.rules.chan.hand import ChanHand, evaluate_win
from service.rules.chan.improving import lowest_discards, rest_distance, shared_tables
from service.rules.chan.pairs import Pair, pair_up
from service.rules.errors import DomainError
from service.rules.registry import get_ruleset

RS = get_ruleset("cardavia-chan")
OPTIONS = RS.resolve_options(None)
DECK = [face for face in range(N_FACES) for _ in range(4)]

# 5 Chắn (2m 3s 4c 6m 7s) + 4 Cạ (2s-2c 4m-4s 5m-5s 6s-6c) + 9c + 8m; no red card but 8m
ONE = "2m 2m 3s 3s 4c 4c 6m 6m 7s 7s 2s 2c 4m 4s 5m 5s 6s 6c 9c 8m"
# as ONE with the Chắn 7s a triple instead of 9c: discarding 8m leaves three 7s waiting for the fourth
CHIU = "2m 2m 3s 3s 4c 4c 6m 6m 7s 7s 7s 2s 2c 4m 4s 5m 5s 6s 6c 8m"
# 4 Chắn + 6 Cạ (a 7m-7c more) + 9c + 8m: after 8m, 9c only makes 5 Chắn and 5 Cạ
FEW = "2m 2m 3s 3s 4c 4c 6m 6m 2s 2c 4m 4s 5m 5s 6s 6c 7m 7c 9c 8m"
# ONE with Chi chi for 9c: after 8m, Chi chi makes exactly 6 Chắn and 4 Cạ
CC_SIX = "2m 2m 3s 3s 4c 4c 6m 6m 7s 7s 2s 2c 4m 4s 5m 5s 6s 6c CC 8m"
# 7 Chắn (2m 3s 4c 6m 7s 8c 9m) + 2 Cạ + CC + 8m: after 8m, Chi chi would make 8 Chắn
CC_SEVEN = "2m 2m 3s 3s 4c 4c 6m 6m 7s 7s 8c 8c 9m 9m 2s 2c 4m 4s CC 8m"


def analyse(hand: str, visible=(), history=None, exposed=()):
    """The analysis through the rule-set, as a request would run it."""
    parsed = RS.parse(OPTIONS, hand.split(), list(exposed))
    return RS.analyse_discards(parsed, OPTIONS, list(visible), 4, parse_history(history), SHIPPED)


def option(analysis, card: str):
    """The option of one discard."""
    return next(o for o in analysis.options if o.card == CODE_INDEX[card])


def waits_of(found) -> list[tuple]:
    """Waits as comparable rows."""
    return [(code(w.card), w.unseen, w.claims, w.points, w.gain) for w in found.waits]


# (hand, visible, discard, distance, waits: (card, unseen, claims, points, gain))
WAIT_CASES = [
    # 9c makes a 6th Chắn, 4 Cạ: Bạch định (no red card) 7 + Bạch thủ (6 Chắn, won into a Chắn) dịch 1 = 8;
    # 9m or 9s would make a 5th Cạ. Two 8m seen elsewhere, one in his hand: unseen 9c 3
    pytest.param(ONE, ["8m", "8m"], "8m", 0, [("9c", 3, ("stock",), 8, 24)], id="waiting_on_one_face"),
    # 8m-8m is red: Bạch thủ alone, 4; one 8m unseen
    pytest.param(ONE, ["8m", "8m"], "9c", 0, [("8m", 1, ("stock",), 4, 12)], id="waiting_on_the_other_single"),
    # the fourth 7s (a Chíu = 2 Chắn) wins on a turned-up stock card or at once by a Chíu, even on a discard
    pytest.param(CHIU, [], "8m", 0, [("7s", 1, ("stock", "chiu"), 8, 24)], id="chiu_claim_with_three_held"),
    pytest.param(FEW, [], "8m", 1, [], id="too_few_chan_is_not_waiting"),
    # Chi chi as the winning card with exactly 6 Chắn and 4 Cạ; Bạch thủ 4 (Chi chi is red: no Bạch định)
    pytest.param(CC_SIX, [], "8m", 0, [("CC", 3, ("stock",), 4, 12)], id="chi_chi_wins_with_six_chan"),
    pytest.param(CC_SEVEN, [], "8m", 1, [], id="chi_chi_never_wins_with_more_chan"),
    # without Chi chi the single 8m waits for any 8: a Chắn, or a Cạ with the 8c of the triple (Ù xuông, 2)
    pytest.param(CC_SEVEN, [], "CC", 0, [("8m", 3, ("stock",), 2, 6), ("8s", 4, ("stock",), 2, 6),
                                         ("8c", 2, ("stock",), 2, 6)], id="chi_chi_discarded_waits_on_any_8"),
]


@pytest.mark.parametrize(("hand", "visible", "discard", "expected_distance", "expected_waits"), WAIT_CASES)
def test_waits(hand, visible, discard, expected_distance, expected_waits):
    found = option(analyse(hand, visible), discard)
    assert found.distance == expected_distance
    assert waits_of(found) == expected_waits
    if expected_distance == 0:  # waiting: the improving cards are the waits with copies unseen
        assert [(code(c), n) for c, n in found.improving] == [(w[0], w[1]) for w in expected_waits if w[1]]


# (hand, history, the discards offered)
OFFER_CASES = [
    # rule 2: the Chắn 2m 3s 4c 6m 7s are never broken; every odd card may go
    pytest.param(ONE, None, "2s 2c 4m 4s 5m 5s 6s 6c 8m 9c", id="rule2_identical_pairs_never_offered"),
    # rule 2: a triple may lose one card and keep its pair
    pytest.param(CHIU, None, "2s 2c 4m 4s 5m 5s 6s 6c 7s 8m", id="rule2_triple_may_lose_one"),
    pytest.param(ONE, {"passed_identical": ["9c"]}, "2s 2c 4m 4s 5m 5s 6s 6c 8m", id="rule3_passed_face_not_offered"),
    # rule 6: having captured a Cạ, the other suits of a discarded 5c may not go
    pytest.param(ONE, {"captured_ca": True, "discarded": ["5c"]}, "2s 2c 4m 4s 6s 6c 8m 9c",
                 id="rule6_no_second_card_of_a_ca"),
    # docs/rules.md#chan-dead-hand: a dead hand only draws, so it has no discard to choose
    pytest.param(ONE, {"dead_hand": True}, "", id="dead_hand_has_no_discard"),
]


@pytest.mark.parametrize(("hand", "history", "offered"), OFFER_CASES)
def test_offered_discards(hand, history, offered):
    assert sorted(code(o.card) for o in analyse(hand, (), history).options) == sorted(offered.split())


def test_ranking_prefers_the_richer_wait():
    """Both singles leave a hand waiting; 9c is worth more and has more copies unseen, so 8m goes first."""
    found = analyse(ONE, ["8m", "8m"])
    assert [code(o.card) for o in found.options[:2]] == ["8m", "9c"]
    assert [o.rank for o in found.options[:2]] == [1, 2]
    assert all(rank_key(a) <= rank_key(b) for a, b in zip(found.options, found.options[1:]))
    assert found.distance_now == 1 and found.unseen_total == 100 - 20 - 2
    assert option(found, "8m").expected_gain == pytest.approx(3 * 24 / 78)
    assert "Ù chì" in option(found, "8m").reason


def test_worked_distance_example():
    """The module docstring's example: 3 Chắn, 6 Cạ and a single is 2 replacements from waiting."""
    hand = tally(CODE_INDEX[c] for c in "2m 2m 3s 3s 4c 4c 4m 4s 5m 5s 6s 6c 7m 7c 8s 8c 9m 9s 9c".split())
    assert distance(hand) == 2
    hand[CODE_INDEX["4s"]] -= 1
    hand[CODE_INDEX["4m"]] += 1
    assert distance(hand) == 1
    hand[CODE_INDEX["5s"]] -= 1
    hand[CODE_INDEX["5m"]] += 1
    assert distance(hand) == 0


def test_complete_distance_of_a_winning_hand():
    """A hand that wins as it stands is 0 away; swapping a card of a Chắn for a stray makes it 1."""
    hand = tally(CODE_INDEX[c] for c in (ONE.replace("8m", "9c")).split())
    assert evaluate_win(ChanHand(tuple(hand), (), None)).hu and complete_distance(hand) == 0
    hand[CODE_INDEX["2m"]] -= 1
    hand[CODE_INDEX["8s"]] += 1
    assert complete_distance(hand) == 1


def test_five_exposed_ca_can_never_win():
    """Five exposed Cạ leave at most 5 Chắn: no replacement helps."""
    exposed = [{"kind": "ca", "cards": [f"{v}m", f"{v}s"]} for v in range(2, 7)]
    found = analyse("2c 2c 3c 3c 4c 4c 5c 5c 7m 8m", exposed=exposed)
    assert found.distance_now == UNREACHABLE
    assert {(o.distance, o.waits, o.improving) for o in found.options} == {(UNREACHABLE, (), ())}


@pytest.mark.parametrize(("hand", "visible", "public", "seats", "error", "field"), [
    pytest.param(ONE, ["8m", "9x"], None, 4, "unknown_card", "visible.1", id="visible_code_checked"),
    pytest.param(ONE, ["9c", "9c", "9c", "9c"], None, 4, "impossible_card_count", "visible.3",
                 id="fifth_copy_named"),
    pytest.param(ONE.rsplit(" ", 1)[0], [], "8m", 4, "unexpected_public_card", "public_card", id="no_public_card"),
    pytest.param(ONE.rsplit(" ", 1)[0], [], None, 4, "wrong_card_count", "hand", id="twenty_cards"),
    pytest.param(ONE, [], None, 3, "invalid_seat", "seats", id="four_players"),
])
def test_request_errors(hand, visible, public, seats, error, field):
    parsed = RS.parse(OPTIONS, hand.split(), [], public)
    with pytest.raises(DomainError) as raised:
        RS.analyse_discards(parsed, OPTIONS, visible, seats, History(), SHIPPED)
    assert (raised.value.code, raised.value.field) == (error, field)


# --- agreement with brute force on random hands ----------------------------------------------------------


def independent_win(counts: list[int], exposed: tuple[Pair, ...], card: int | None) -> bool:
    """docs/rules.md#chan-pairs by search, not by the engine's parity tables: pair the first card left with an
    identical card or, within the odd card of each face (a pair is never split), a Cạ mate; 10 pairs, >= 6
    Chắn, and won on Chi chi exactly 6 Chắn and 4 Cạ."""
    odd = [n % 2 for n in counts]
    exposed_chan = sum({"chan": 1, "chiu": 2}.get(p.kind, 0) for p in exposed)
    exposed_ca = sum(p.kind == "ca" for p in exposed)

    def outcomes(left: list[int], spare: list[int]) -> set[tuple[int, int]]:
        face = next((f for f in range(N_FACES) if left[f]), None)
        if face is None:
            return {(0, 0)}
        found = set()
        if left[face] >= 2:
            left[face] -= 2
            found |= {(chan + 1, ca) for chan, ca in outcomes(left, spare)}
            left[face] += 2
        for mate in range(N_FACES):
            if (mate != face and CHI_CHI not in (face, mate) and value_of(mate) == value_of(face) and left[mate]
                    and spare[face] and spare[mate]):
                left[face] -= 1
                left[mate] -= 1
                spare[face] -= 1
                spare[mate] -= 1
                found |= {(chan, ca + 1) for chan, ca in outcomes(left, spare)}
                left[face] += 1
                left[mate] += 1
                spare[face] += 1
                spare[mate] += 1
        return found

    if sum(counts) + sum(len(p.cards) for p in exposed) != 20:
        return False
    for chan, ca in outcomes(list(counts), odd):
        chan, ca = chan + exposed_chan, ca + exposed_ca
        if chan >= 6 and (card != CHI_CHI or (chan, ca) == (6, 4)):
            return True
    return False


def limits_of(exposed: tuple[Pair, ...]) -> list[int]:
    """Copies a hand may still hold of each face."""
    limits = [4] * N_FACES
    for pair in exposed:
        for c in pair.cards:
            limits[c] -= 1
    return limits


def waiting(hand: tuple[int, ...], exposed: tuple[Pair, ...], limits: list[int]) -> bool:
    """Some next card within the deck wins: only the value of the unpaired cards can pair them all."""
    values = {value_of(c) for c in pair_up(hand).unpaired}
    if len(values) != 1:
        return False
    value = values.pop()
    return any(hand[y] < limits[y] and evaluate_win(ChanHand(hand, exposed, y)).hu
               for y in ((CHI_CHI,) if value == 0 else range(3 * value - 6, 3 * value - 3)))


def wins_as_it_stands(hand: tuple[int, ...], exposed: tuple[Pair, ...], _limits=None) -> bool:
    """The 20 cards win with no card to come."""
    return evaluate_win(ChanHand(hand, exposed, None)).hu


def brute_distance(hand: list[int], exposed: tuple[Pair, ...], most: int, goal) -> int:
    """Fewest single-card replacements (breadth first, at most `most`) to a hand meeting `goal`; most + 1 if
    none is that close."""
    limits = limits_of(exposed)
    level, seen = {tuple(hand)}, {tuple(hand)}
    for k in range(most + 1):
        if any(goal(h, exposed, limits) for h in level):
            return k
        grown = set()
        for h in level:
            for out in (f for f in range(N_FACES) if h[f]):
                for into in (f for f in range(N_FACES) if f != out and h[f] < limits[f]):
                    new = list(h)
                    new[out] -= 1
                    new[into] += 1
                    if (key := tuple(new)) not in seen:
                        seen.add(key)
                        grown.add(key)
        level = grown
    return most + 1


def random_exposed(rng: random.Random, pairs: int, left: list[int]) -> tuple[Pair, ...]:
    """Random exposed pairs within the deck: Chắn, Chíu (two pairs) and Cạ."""
    out: list[Pair] = []
    while sum(len(p.cards) for p in out) < 2 * pairs:
        face = rng.randrange(N_FACES)
        roll = rng.random()
        if roll < 0.15 and left[face] == 4 and sum(len(p.cards) for p in out) + 4 <= 2 * pairs:
            out.append(Pair("chiu", (face,) * 4, False))
            left[face] -= 4
        elif roll < 0.6 and left[face] >= 2:
            out.append(Pair("chan", (face, face), False))
            left[face] -= 2
        elif face != CHI_CHI:
            mate = face - face % 3 + (face + rng.randint(1, 2)) % 3
            if left[face] and left[mate]:
                out.append(Pair("ca", tuple(sorted((face, mate))), False))
                left[face] -= 1
                left[mate] -= 1
    return tuple(out)


def small_hand(rng: random.Random, concealed: int) -> tuple[list[int], tuple[Pair, ...]]:
    """A concealed hand of `concealed` cards drawn mostly from few faces, beside random exposed pairs."""
    while True:
        left = [4] * N_FACES
        exposed = random_exposed(rng, (20 - concealed) // 2, left)
        pool = [f for f in set(rng.sample(range(N_FACES), 7)) | {CHI_CHI} for _ in range(left[f])]
        if len(pool) >= concealed:
            return tally(rng.sample(pool, concealed)), exposed


def twenty(rng: random.Random, kind: int) -> list[int]:
    """A 20-card hand: a random deal, a win, or a win with one or two cards swapped."""
    if kind == 0:
        return tally(rng.sample(DECK, 20))
    cards, last = samples.winning_hand(rng) if kind == 1 else samples.near_miss(rng)
    hand = tally(cards + [last])
    for _ in range(kind - 1):
        out = rng.choice([f for f in range(N_FACES) if hand[f]])
        into = rng.choice([f for f in range(N_FACES) if hand[f] < 4])
        hand[out] -= 1
        hand[into] += 1
    return hand


def random_history(rng: random.Random) -> History:
    """No history, or a few discarded and passed-up faces, maybe a captured Cạ (rules 3 and 6)."""
    if rng.random() < 0.5:
        return History()
    return History(frozenset(rng.sample(range(N_FACES), 3)), frozenset(rng.sample(range(N_FACES), 2)),
                   frozenset(), rng.random() < 0.5)


def test_waits_agree_with_every_next_card():
    """On random 20-card hands, every option's waits are exactly the faces that win as the next card, by the
    engine's win test and by the independent search; distance 0 iff there are waits; d = 0 improves by the
    waits with unseen copies; distances agree with `distance` and `complete_distance`."""
    rng = random.Random(20240601)
    for i in range(80):
        hand = twenty(rng, i % 4)
        unseen = [4 - n - rng.randint(0, 1) if n < 4 else 0 for n in hand]
        history = random_history(rng)
        found = analyse_discards(ChanHand(tuple(hand), (), None), OPTIONS, unseen, history, SHIPPED)
        assert found.distance_now == complete_distance(hand)
        assert (found.distance_now == 0) == evaluate_win(ChanHand(tuple(hand), (), None)).hu
        assert [o.card for o in sorted(found.options, key=lambda o: o.card)] == legal_discards(hand, history)
        for o in found.options:
            rest = list(hand)
            rest[o.card] -= 1
            by_engine = [y for y in range(N_FACES) if rest[y] < 4
                         and evaluate_win(ChanHand(tuple(rest), (), y)).hu]
            by_search = [y for y in range(N_FACES) if rest[y] < 4 and independent_win(
                [n + (f == y) for f, n in enumerate(rest)], (), y)]
            assert [w.card for w in o.waits] == by_engine == by_search
            assert o.distance == distance(rest)
            assert (o.distance == 0) == bool(o.waits)
            assert all(w.claims == (("stock", "chiu") if rest[w.card] == 3 else ("stock",)) for w in o.waits)
            if o.distance == 0:
                assert o.improving == tuple((w.card, w.unseen) for w in o.waits if w.unseen)


@pytest.mark.slow  # over 2 s on 2 cores
def test_distance_agrees_with_brute_force():
    """Small concealed hands beside exposed pairs: the distance is the fewest replacements found breadth first
    (up to 2, beyond that 'more than 2'), and the complete distance likewise for the hand with one card more."""
    rng = random.Random(7)
    seen = set()
    for i in range(48):
        hand, exposed = small_hand(rng, (5, 7)[i % 2])
        found = distance(hand, exposed)
        assert min(found, 3) == brute_distance(hand, exposed, 2, waiting)
        seen.add(min(found, 3))
        limits = limits_of(exposed)
        grown = list(hand)
        grown[rng.choice([f for f in range(N_FACES) if grown[f] < limits[f]])] += 1
        assert min(complete_distance(grown, exposed), 3) == brute_distance(grown, exposed, 2, wins_as_it_stands)
        assert (complete_distance(grown, exposed) == 0) == wins_as_it_stands(tuple(grown), exposed)
    assert seen == {0, 1, 2, 3}


def test_improving_cards_as_defined():
    """An improving card y: after it some legal discard (his history including this discard) leaves distance
    d - 1, checked by trying every y and every discard with `distance`."""
    rng = random.Random(11)
    for i in range(15):
        if i % 3 == 0:
            hand, exposed = small_hand(rng, 10)
        else:
            hand, exposed = twenty(rng, (0, 3)[i % 3 - 1]), ()
        limits = limits_of(exposed)
        unseen = [max(limits[f] - hand[f] - rng.randint(0, 1), 0) for f in range(N_FACES)]
        history = random_history(rng)
        found = analyse_discards(ChanHand(tuple(hand), exposed, None), OPTIONS, unseen, history, SHIPPED)
        for o in (o for o in found.options if 0 < o.distance < UNREACHABLE):
            rest = list(hand)
            rest[o.card] -= 1
            after = replace(history, discarded=history.discarded | {o.card})
            expected = []
            for y in (y for y in range(N_FACES) if unseen[y] and rest[y] < limits[y]):
                grown = list(rest)
                grown[y] += 1
                if any(distance([n - (f == z) for f, n in enumerate(grown)], exposed) == o.distance - 1
                       for z in legal_discards(grown, after)):
                    expected.append((y, unseen[y]))
            assert list(o.improving) == expected
            assert o.improving_unseen == sum(n for _, n in expected)


def test_the_top_discard_is_the_first_option():
    """`top_discard` (distances of every discard, the rest of the key for those tied at the least) is the first
    option of the full ranking, and `least_distance` its distance, on random hands, histories and exposed pairs."""
    rng = random.Random(23)
    for i in range(120):
        if i % 4 == 0:
            hand, exposed = small_hand(rng, (10, 12, 14)[i % 3])
        else:
            hand, exposed = twenty(rng, i % 4), ()
        limits = limits_of(exposed)
        unseen = [max(limits[f] - hand[f] - rng.randint(0, 1), 0) for f in range(N_FACES)]
        history = random_history(rng) if i % 5 else replace(random_history(rng), dead_hand=True)
        found = analyse_discards(ChanHand(tuple(hand), exposed, None), OPTIONS, unseen, history, SHIPPED)
        top = top_discard(ChanHand(tuple(hand), exposed, None), OPTIONS, unseen, history, SHIPPED)
        if not found.options:
            assert top is None
            assert least_distance(hand, exposed, history) == UNREACHABLE
            continue
        first = found.options[0]
        assert replace(top, rank=first.rank, reason=first.reason) == first
        assert least_distance(hand, exposed, history) == first.distance


def test_the_top_with_a_memo_of_waits_is_the_first_option():
    """`Distances.top` as the search runs it: discards tied at distance 1 or more ranked on their improving masks
    alone, and the waits' cards and points kept in one memo across hands (the same resting hand met again, with
    other unseen copies), still give the first option of the full ranking on every hand, waiting or not."""
    rng = random.Random(31)
    memo: dict = {}
    hands = []
    for i in range(300):
        hand = twenty(rng, i % 4)
        if i % 3 == 0 and hands:  # a hand met before, under another view of the unseen cards
            hand = list(rng.choice(hands))
        hands.append(tuple(hand))
        unseen = [max(4 - hand[f] - rng.randint(0, 2), 0) for f in range(N_FACES)]
        history = random_history(rng)
        found = analyse_discards(ChanHand(tuple(hand), (), None), OPTIONS, unseen, history, SHIPPED)
        top = Distances(hand, (), history).top(ChanHand(tuple(hand), (), None), OPTIONS, unseen, SHIPPED, memo)
        if not found.options:
            assert top is None
            continue
        first = found.options[0]
        assert replace(top, rank=first.rank, reason=first.reason) == first
    assert memo  # the waiting hands' cards and points were kept


def test_the_quick_top_leaves_the_least_distance():
    """`Distances.top(quick=True)`, the deep search's other seats: the least distance of any legal discard; waiting,
    the first option itself; further, of the discards tied at the least distance the one that keeps the most of the
    Tôm and Lèo sets, then has the fewest unseen copies (then face order), with its own improving cards, on random
    hands and histories."""
    rng = random.Random(37)
    far = 0
    for i in range(200):
        hand = twenty(rng, i % 4)
        unseen = [max(4 - hand[f] - rng.randint(0, 2), 0) for f in range(N_FACES)]
        history = random_history(rng)
        found = analyse_discards(ChanHand(tuple(hand), (), None), OPTIONS, unseen, history, SHIPPED)
        quick = Distances(hand, (), history).top(ChanHand(tuple(hand), (), None), OPTIONS, unseen, SHIPPED,
                                                 quick=True)
        if not found.options:
            assert quick is None
            continue
        assert quick is not None
        least = min(o.distance for o in found.options)
        assert quick.distance == least
        if least == 0 or least == UNREACHABLE:
            continue
        far += 1
        tied = [o for o in found.options if o.distance == least]
        assert quick.card == min(tied, key=lambda o: (-(o.sets_kept or 0), unseen[o.card], o.card)).card
        mine = next(o for o in found.options if o.card == quick.card)
        assert quick.improving == mine.improving
    assert far > 50


def test_the_lowest_discards_are_those_a_full_pass_puts_one_below_the_hands_distance():
    """`lowest_discards` (one backward pass over the hand's tables, then one value per discard) names exactly the
    legal discards whose own pass (`rest_distance`) leaves the hand's complete distance minus one, and no discard
    ever leaves less (swapping the discard for the card to come turns a target of the hand it leaves into one of
    the whole hand): on random deals, wins, near wins, hands beside exposed pairs (Chi chi among few faces) and
    histories."""
    rng = random.Random(37)
    applied = 0
    for i in range(400):
        if i % 4 == 0:
            hand, exposed = small_hand(rng, (10, 12, 14, 16)[i % 8 // 2])
        else:
            hand, exposed = twenty(rng, i % 4), ()
        history = random_history(rng)
        legal = legal_faces(hand, forbidden_faces(history))
        shared, now = shared_tables(list(hand), exposed, history)
        if shared is None or not legal:
            continue
        left = {}
        for x in legal:
            rest = list(hand)
            rest[x] -= 1
            left[x] = rest_distance(rest, shared, x).d
        assert now == complete_distance(hand, exposed)
        assert all(d >= now - 1 for d in left.values())
        lowest = lowest_discards(list(hand), shared, now, legal)
        if 1 <= now < UNREACHABLE:
            applied += bool(lowest)
            assert lowest == [x for x in legal if left[x] == now - 1]
        else:
            assert lowest == []
    assert applied > 150


def test_the_legal_faces_after_a_discard_are_read_from_the_hands_masks():
    """Each discard's pass flags the faces legal once it is made (`Shared.legal_after`, from the hand's odd and
    forbidden faces): exactly `legal_faces` of the hand without it under his history then holding it (rules 2, 3,
    6: having captured a Cạ, the discard's other suits become forbidden)."""
    rng = random.Random(29)
    for i in range(150):
        hand = twenty(rng, i % 4)
        history = random_history(rng)
        shared, _ = shared_tables(list(hand), (), history)
        for x in legal_faces(hand, forbidden_faces(history)):
            rest = list(hand)
            rest[x] -= 1
            after = replace(history, discarded=history.discarded | {x})
            assert shared.legal_after(x) == sum(1 << f for f in legal_faces(rest, forbidden_faces(after)))


# docs/rules.md#chan-bonuses: every full Tôm set (3m 3c 7c by default) and every full Lèo set (8s 9m CC) adds to
# the score of any win. 5 Chắn-able pairs (3s 3c 4m 6c 7s 7c) among singles; one Tôm set (3m + the 3c, 7c pairs)
# and two cards of a Lèo (8s 9m). Discarding 6s, 2m or 8s or 3m each leaves 1 replacement from waiting.
KEEPS_TOM = "2m 3m 3s 3s 3c 3c 4m 4m 5m 5c 6s 6c 6c 7s 7s 7c 7c 8s 9m 9s"


@pytest.mark.parametrize("cards, exposed, tom_set, expected", [
    # one Tôm set (3) and the 3c, 7c of a second (2); Lèo: 8s, 9m of an unfinished one (2)
    ("2m 3m 3s 3s 3c 3c 4m 4m 5m 5c 6c 6c 7s 7s 7c 7c 8s 9m 9s", (), "3m-3c-7c", 7),
    # without the 3m no Tôm set is full: its 3c and 7c (2) and the Lèo's 8s and 9m (2)
    ("2m 3s 3s 3c 3c 4m 4m 5m 5c 6s 6c 6c 7s 7s 7c 7c 8s 9m 9s", (), "3m-3c-7c", 4),
    # the traditional Tôm set 3m 3s 7c: one full (3) and 3s, 7c over it (2); Lèo 2
    ("2m 3m 3s 3s 3c 3c 4m 4m 5m 5c 6c 6c 7s 7s 7c 7c 8s 9m 9s", (), "3m-3s-7c", 7),
    # two full Lèo sets (6) and a third CC (1), nothing of a Tôm set; an exposed pair counts as held
    ("8s 8s 9m 9m CC 2m 2m 4s 4s 5c 5c 6m 6m 2s 2c 4m 4c", ("CC CC",), "3m-3c-7c", 7),
])
def test_sets_kept_counts_full_sets_and_the_best_unfinished_one(cards, exposed, tom_set, expected):
    """`sets_kept` of the cards a discard leaves: 3 per full Tôm or Lèo set, no card serving twice, plus 1 per
    distinct card of the best unfinished set of each kind (docs/advice.md#tôm-and-lèo-sets), exposed pairs
    included."""
    counts = tally([CODE_INDEX[c] for c in cards.split()])
    pairs = tuple(Pair("chan", tuple(CODE_INDEX[c] for c in p.split()), False) for p in exposed)
    assert sets_kept(counts, pairs, {**OPTIONS, "tom_set": tom_set}) == expected


def test_a_discard_that_breaks_the_tom_set_ranks_after_those_that_keep_it():
    """docs/rules.md#chan-bonuses: a full Tôm set adds to the score of whatever win the hand makes. Of the discards
    that leave 1 replacement from waiting, 3m alone breaks the Tôm set (kept 4 against 7 for 6s and 2m, 6 for 8s,
    which breaks the unfinished Lèo): it ranks after all three though it leaves more unseen improving cards."""
    found = analyse(KEEPS_TOM)
    near = [o for o in found.options if o.distance == 1]
    assert sorted(code(o.card) for o in near) == ["2m", "3m", "6s", "8s"]
    kept = {code(o.card): o.sets_kept for o in near}
    assert kept == {"6s": 7, "2m": 7, "8s": 6, "3m": 4}
    breaks = option(found, "3m")
    assert all(o.improving_unseen < breaks.improving_unseen for o in near if o is not breaks)
    assert [code(o.card) for o in near][-1] == "3m" and breaks.rank == 4
    assert "Tôm and Lèo kept: 4" in str(breaks.reason)


def test_sets_kept_is_the_key_after_the_expected_gain():
    """A discard's rank: distance, expected gain, then the Tôm and Lèo sets kept, then unseen improving cards
    (docs/advice.md#exact-ranking-post-v1discards); every option is ranked by it on random hands."""
    rng = random.Random(41)
    for i in range(60):
        hand = twenty(rng, i % 4)
        found = analyse_discards(ChanHand(tuple(hand), (), None), OPTIONS, [4 - n for n in hand], History(), SHIPPED)
        for better, worse in zip(found.options, found.options[1:]):
            assert better.sets_kept == sets_kept([n - (f == better.card) for f, n in enumerate(hand)], (), OPTIONS)
            if (better.distance, better.expected_gain) == (worse.distance, worse.expected_gain):
                assert better.sets_kept >= worse.sets_kept
