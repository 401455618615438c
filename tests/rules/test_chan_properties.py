"""Property tests of the Chắn engine (STYLE.md "Tests"; docs/rules.md#chan-pairs, docs/rules.md#chan-scoring,
docs/rules.md#chan-captures).

Any cards within the deck either win or fail with a stated reason; the pairing covers hand + exposed pairs +
winning card exactly with legal pairs and never splits an identical pair; a hand built from 10 pairs with
>= 6 Chắn and no split pair wins (Chi chi rule aside) and scores what docs/rules.md#chan-bonuses gives; deltas sum to 0.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.rules.chan import samples
from service.rules.chan.captures import History, legal_claims, legal_discards
from service.rules.chan.cards import CHI_CHI, CODE_INDEX, N_FACES, RED, code, value_of
from service.rules.chan.hand import ChanHand, evaluate_win
from service.rules.registry import get_ruleset

CHAN = "cardavia-chan"
REASONS = {"card_count", "unpaired_cards", "too_few_chan", "chi_chi_rule"}
DECK = [face for face in range(N_FACES) for _ in range(4)]  # 100 cards
#: docs/rules.md#chan-scoring table: bonus -> (main, dịch)
TABLE = {"u_chi": (3, 1), "thien_u": (3, 1), "tom": (4, 1), "bach_thu": (4, 1), "leo": (5, 2), "thien_khai": (5, 2),
         "chiu_u": (5, 2), "bon": (5, 2), "bach_dinh": (7, 4), "tam_do": (8, 5), "kinh_tu_chi": (12, 9),
         "thap_thanh": (12, 9)}
TOM_SETS = {"3m-3c-7c": ("3m", "3c", "7c"), "3m-3s-7c": ("3m", "3s", "7c")}
FLAGS = {"own_gate": "u_chi", "heavenly": "thien_u", "chiu_on_dealt_triple": "chiu_u", "dealt_quad": "thien_khai",
         "dealt_pair_became_quad": "bon"}


def legal_pair(kind: str, cards: tuple[int, ...]) -> bool:
    """docs/rules.md#chan-pairs, restated: Chắn two identical, Chíu four identical, Cạ same value other suit, no CC."""
    if kind == "chan":
        return len(cards) == 2 and cards[0] == cards[1]
    if kind == "chiu":
        return len(cards) == 4 and len(set(cards)) == 1
    a, b = cards
    return kind == "ca" and CHI_CHI not in cards and a != b and value_of(a) == value_of(b)


def oracle_win(concealed: Counter, exposed: list[tuple[str, tuple[int, ...]]], public: int | None) -> tuple:
    """The win test restated by parity (docs/rules.md#chan-win): identical cards pair first, so a value's cards all
    pair iff its count is even (Chi chi: only with Chi chi); Chắn = sum of count // 2; Cạ = odd faces of a value //
    2."""
    counts = concealed + Counter([] if public is None else [public])
    total = sum(counts.values()) + sum(len(c) for _, c in exposed)
    by_value, odd = Counter(), Counter()
    for face, n in counts.items():
        by_value[value_of(face)] += n
        odd[value_of(face)] += n % 2
    complete = all(n % 2 == 0 for n in by_value.values())
    chan = sum(n // 2 for n in counts.values()) + sum({"chan": 1, "chiu": 2}.get(k, 0) for k, _ in exposed)
    ca = sum(n // 2 for v, n in odd.items() if v) + sum(k == "ca" for k, _ in exposed)  # value 0: Chi chi
    won = total == 20 and complete and chan >= 6 and (public != CHI_CHI or (chan, ca) == (6, 4))
    return won, chan, ca


# --- strategies ------------------------------------------------------------------------------------------


@st.composite
def any_cards(draw: st.DrawFn) -> tuple[list[int], int | None]:
    """Up to 20 cards drawn from the 100-card deck; the last one is the public card or not."""
    picked = draw(st.lists(st.integers(0, len(DECK) - 1), unique=True, max_size=20))
    cards = [DECK[i] for i in picked]
    if cards and draw(st.booleans()):
        return cards[:-1], cards[-1]
    return cards, None


@st.composite
def built_pairs(draw: st.DrawFn) -> list[tuple[int, int]]:
    """Ten pairs within the deck: 0-4 Cạ at distinct values (so no face goes into two Cạ: no identical pair is
    split), then 6-10 Chắn drawn as distinct slots (face, first or second Chắn: two of a face make a Chíu)."""
    n_ca = draw(st.integers(0, 4))
    values = draw(st.lists(st.integers(2, 9), unique=True, min_size=n_ca, max_size=n_ca))
    suits = draw(st.lists(st.sampled_from([(0, 1), (0, 2), (1, 2)]), min_size=n_ca, max_size=n_ca))
    cas = [((v - 2) * 3 + a, (v - 2) * 3 + b) for v, (a, b) in zip(values, suits)]
    in_ca = {c for pair in cas for c in pair}
    slots = [s for s in range(2 * N_FACES) if not (s % 2 and s // 2 in in_ca)]  # 2 Chắn + a Cạ: a fifth copy
    chan = draw(st.lists(st.sampled_from(slots), unique=True, min_size=10 - n_ca, max_size=10 - n_ca))
    return [(s // 2, s // 2) for s in chan] + cas


@st.composite
def built_hands(draw: st.DrawFn) -> tuple[list[int], list[tuple[str, tuple[int, ...]]], int | None, list]:
    """A hand from built pairs: some pairs exposed, one concealed card as the winning card (or none)."""
    pairs = draw(built_pairs())
    exposed_flags = draw(st.lists(st.booleans(), min_size=10, max_size=10))
    exposed = [("chan" if a == b else "ca", (a, b)) for (a, b), e in zip(pairs, exposed_flags) if e]
    concealed = [c for (a, b), e in zip(pairs, exposed_flags) if not e for c in (a, b)]
    public = None
    if concealed and draw(st.booleans()):
        public = concealed.pop(draw(st.integers(0, len(concealed) - 1)))
    return concealed, exposed, public, pairs


def parse(concealed, exposed, public):
    """Parse through the rule-set, as a request would."""
    rs = get_ruleset(CHAN)
    request = [{"kind": k, "cards": [code(c) for c in cards]} for k, cards in exposed]
    return rs.parse(rs.resolve_options(None), [code(c) for c in concealed], request,
                    None if public is None else code(public))


# --- properties -----------------------------------------------------------------------------------------


@settings(max_examples=400, deadline=None)
@given(any_cards())
@pytest.mark.slow  # over 2 s on 2 cores
def test_any_cards_win_or_state_a_reason(drawn):
    """Any cards within the deck limits win, or fail with at least one stated reason, each reason true."""
    concealed, public = drawn
    result = evaluate_win(parse(concealed, [], public))
    codes = [r for r, _ in result.reasons]
    assert result.hu is (not codes)
    assert set(codes) <= REASONS and len(codes) == len(set(codes))
    assert ("card_count" in codes) is (result.card_count != 20)
    assert ("unpaired_cards" in codes) is bool(result.unpaired)
    assert ("too_few_chan" in codes) is (result.chan < 6)
    assert (result.hu, result.chan, result.ca) == oracle_win(Counter(concealed), [], public)


@settings(max_examples=400, deadline=None)
@given(any_cards())
def test_pairing_covers_the_cards_exactly(drawn):
    """Pairs + unpaired cards are hand + winning card as a multiset; every pair is legal; no Chắn is split."""
    concealed, public = drawn
    result = evaluate_win(parse(concealed, [], public))
    all_cards = Counter(concealed) + Counter([] if public is None else [public])
    assert Counter(c for p in result.pairs for c in p.cards) + Counter(result.unpaired) == all_cards
    assert all(legal_pair(p.kind, p.cards) for p in result.pairs)
    # identical pairs first: a face gives at most its odd card to a Cạ or to the unpaired cards
    loose = Counter(c for p in result.pairs if p.kind == "ca" for c in p.cards) + Counter(result.unpaired)
    assert all(loose[f] == all_cards[f] % 2 for f in range(N_FACES))


@settings(max_examples=400, deadline=None)
@given(built_hands())
def test_hand_built_from_pairs_wins(built):
    """Ten pairs, >= 6 Chắn, no identical pair split: a win (won on Chi chi: only with 6 Chắn + 4 Cạ)."""
    concealed, exposed, public, pairs = built
    n_chan = sum(a == b for a, b in pairs)
    result = evaluate_win(parse(concealed, exposed, public))
    assert (result.chan, result.ca) == (n_chan, 10 - n_chan)
    assert result.hu is (public != CHI_CHI or n_chan == 6)
    assert [r for r, _ in result.reasons] == ([] if result.hu else ["chi_chi_rule"])
    assert result.hu is oracle_win(Counter(concealed), exposed, public)[0]
    exposed_cards = Counter(c for _, cards in exposed for c in cards)
    assert Counter(c for p in result.pairs for c in p.cards) == Counter(c for pair in pairs for c in pair)
    assert Counter(c for p in result.pairs if not p.concealed for c in p.cards) == exposed_cards


def oracle_score(cards: Counter, pairs: list[tuple[int, int]], public: int | None, context: dict, tom: str) -> int:
    """docs/rules.md#chan-scoring, restated from the table."""
    bonuses = [bonus for flag, bonus in FLAGS.items() if context.get(flag)]
    bonuses += ["tom"] * min(cards[CODE_INDEX[c]] for c in TOM_SETS[tom])
    bonuses += ["leo"] * min(cards[CODE_INDEX[c]] for c in ("8s", "9m", "CC"))
    n_chan = sum(a == b for a, b in pairs)
    ca_values = {value_of(a) for a, b in pairs if a != b}
    if public is not None and n_chan == 6 and value_of(public) not in ca_values:
        bonuses.append("bach_thu")
    red = sum(n for c, n in cards.items() if c in RED)
    bonuses += ["bach_dinh"] * (red == 0) + ["tam_do"] * (red == 8)
    bonuses += ["kinh_tu_chi"] * (cards[CHI_CHI] == 4 and red == 4) + ["thap_thanh"] * (n_chan == 10)
    if not bonuses:
        return 2
    if "thap_thanh" in bonuses:
        return sum(TABLE[b][0] for b in bonuses)
    main = max(bonuses, key=lambda b: TABLE[b])
    return TABLE[main][0] + sum(TABLE[b][1] for b in bonuses) - TABLE[main][1]


@settings(max_examples=300, deadline=None)
@given(built_hands(), st.integers(0, 3), st.sets(st.sampled_from(sorted(FLAGS))),
       st.sampled_from(sorted(TOM_SETS)))
def test_settlement(built, winner, flags, tom):
    """Score as the table gives it; each loser pays it, the winner gets 3x; deltas sum to zero."""
    concealed, exposed, public, pairs = built
    if public == CHI_CHI and sum(a == b for a, b in pairs) != 6:
        return  # not a win (Chi chi rule)
    cards = Counter(c for pair in pairs for c in pair)
    # keep the flags the cards allow (scoring refuses the others as inconsistent_context)
    context = {f: True for f in flags}
    if public is None:
        context.pop("own_gate", None)  # Ù chì is won on a stock card
    else:
        context.pop("heavenly", None)  # Thiên ù: the dealer's own 20 cards
    if 4 not in cards.values():
        context.pop("dealt_quad", None)  # Thiên khai, Bòn: four identical cards
        context.pop("dealt_pair_became_quad", None)
    if "chiu_on_dealt_triple" in context:
        if public is not None and Counter(concealed)[public] == 3:
            context["by_chiu"] = True
        else:
            del context["chiu_on_dealt_triple"]  # Chíu ù: the winning card is the fourth of a concealed triple
    rs = get_ruleset(CHAN)
    o = rs.resolve_options({"tom_set": tom})
    result = rs.settle(parse(concealed, exposed, public), o, seats=4, winner=winner, context=context)
    assert result.points == oracle_score(cards, pairs, public, context, tom)
    assert sum(result.deltas) == 0
    assert result.deltas[winner] == 3 * result.points
    assert all(d == -result.points for s, d in enumerate(result.deltas) if s != winner)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, len(DECK) - 1), unique=True, min_size=1, max_size=20),
       st.sampled_from(["drawer", "next", "other"]), st.sampled_from(["stock", "discard"]),
       st.frozensets(st.integers(0, N_FACES - 1), max_size=3), st.frozensets(st.integers(0, N_FACES - 1), max_size=3),
       st.booleans())
def test_claims_respect_capture_rules(picked, role, source, discarded, passed, captured_ca):
    """Every capture exposes a legal pair and leaves a legal discard (rule 7); Chíu needs three identical;
    captures only for drawer and next; legal discards never break an identical pair (rule 2) nor a passed face."""
    cards = [DECK[i] for i in picked]
    counts = Counter(cards[:-1])
    hand = ChanHand(tuple(counts[f] for f in range(N_FACES)), (), cards[-1])
    history = History(discarded, passed, frozenset(), captured_ca)
    for claim in legal_claims(hand, role, source, history):
        if claim.kind in ("chan", "ca"):
            assert role in ("drawer", "next")
            assert legal_pair(claim.kind, claim.pair.cards) and cards[-1] in claim.pair.cards
            assert claim.discards and cards[-1] not in discarded  # rules 7 and 4
        if claim.kind == "chiu":
            assert counts[cards[-1]] == 3
        if claim.kind == "win":
            assert evaluate_win(hand).hu and (source == "stock" or claim.by_chiu)
    for face in legal_discards(hand.counts, history):
        assert counts[face] % 2 == 1 and face not in passed


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32))
def test_sample_hands(seed):
    """The benchmark's winning hands win; its near misses are 20 cards within the deck."""
    rng = random.Random(seed)
    hand, win = samples.winning_hand(rng)
    assert evaluate_win(parse(hand, [], win)).hu
    hand, win = samples.near_miss(rng)
    assert len(hand) == 19 and max(Counter(hand + [win]).values()) <= 4
