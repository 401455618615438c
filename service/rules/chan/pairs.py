"""Pairs of Chắn and the pairing of a hand (docs/rules.md#chan-pairs).

Chắn = two identical cards; Cạ = same value, different suits (never with Chi chi); Chíu = four identical
cards = two Chắn. An identical pair is never split to form a Cạ; a triple may give its third card to a Cạ.
So the pairing of concealed cards is forced: every face gives count // 2 Chắn (four identical: one Chíu), and
the odd cards left must meet an odd card of the same value in another suit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from ..errors import InvalidMeld, shown
from ..text import text
from .cards import CHI_CHI, N_FACES, code, parse_card, value_of

KINDS = ("chan", "ca", "chiu")
_CHAN_WORTH = {"chan": 1, "chiu": 2}  # docs/rules.md#chan-pairs: "Chíu = four identical cards = two Chắn"


@dataclass(frozen=True)
class Pair:
    """A Chắn, a Cạ or a Chíu (four identical, counting as two Chắn)."""

    kind: str
    cards: tuple[int, ...]
    concealed: bool = True

    @property
    def chan(self) -> int:
        """How many Chắn this is worth."""
        return _CHAN_WORTH.get(self.kind, 0)

    def codes(self) -> list[str]:
        """The cards as codes."""
        return [code(c) for c in self.cards]

    def points(self, _rules: object = None) -> int:
        """Pairs carry no points of their own: Chắn scores by bonuses (docs/rules.md#chan-scoring)."""
        return 0


class Pairing(NamedTuple):
    """The forced pairing of some cards: its pairs, the cards no pair can take, its Chắn worth and Cạ count."""

    pairs: tuple[Pair, ...]
    unpaired: tuple[int, ...]
    chan: int = 0
    ca: int = 0


def classify(cards: Sequence[int]) -> str | None:
    """The pair kind these cards form, or None."""
    if len(cards) == 4 and len(set(cards)) == 1:
        return "chiu"
    if len(cards) != 2:
        return None
    a, b = cards
    if a == b:
        return "chan"
    if CHI_CHI not in (a, b) and value_of(a) == value_of(b):
        return "ca"  # same value, different suits; Chi chi pairs only with Chi chi (docs/rules.md#chan-chi-chi)
    return None


def _pair_faces(faces: Sequence[int], counts: Sequence[int]
                ) -> tuple[tuple[Pair, ...], tuple[Pair, ...], tuple[int, ...], int, int]:
    """The forced pairing of one value's faces: (Chắn/Chíu, Cạ, unpaired, Chắn worth, Cạ count)."""
    same = tuple(_CHIU[f] if n == 4 else _CHAN[f] for f, n in zip(faces, counts) if n >= 2)
    odd = [f for f, n in zip(faces, counts) if n % 2]
    ca = (Pair("ca", (odd[0], odd[1])),) if len(odd) >= 2 and CHI_CHI not in odd else ()
    loose = tuple(odd[2 * len(ca):])  # Chi chi forms no Cạ; three odd suits leave one
    return same, ca, loose, sum(p.chan for p in same), len(ca)


_CHAN = tuple(Pair("chan", (f, f)) for f in range(N_FACES))
_CHIU = tuple(Pair("chiu", (f,) * 4) for f in range(N_FACES))
#: Per value (2-9): the forced pairing of every count triple (m, s, c), each 0-4, at index m * 25 + s * 5 + c.
_BY_VALUE = tuple(
    tuple(_pair_faces((base, base + 1, base + 2), (m, s, c)) for m in range(5) for s in range(5) for c in range(5))
    for base in range(0, CHI_CHI, 3))
_BY_CHI_CHI = tuple(_pair_faces((CHI_CHI,), (n,)) for n in range(5))


def pair_up(counts: Sequence[int]) -> Pairing:
    """The forced pairing of a count vector (at most 4 copies of a face): identical pairs first (four: a Chíu),
    then the odd cards of a value into one Cạ; Chắn/Chíu in face order, then Cạ by value; Chi chi pairs only
    with Chi chi. Read from per-value tables, so one call is nine lookups."""
    same: list[Pair] = []
    ca: list[Pair] = []
    cc_same, _, loose, chan, n_ca = _BY_CHI_CHI[counts[CHI_CHI]]
    unpaired = list(loose)
    suits = iter(counts)  # zip takes m, s, c of each value in turn (faces 0-23; Chi chi, 24, is read above)
    for table, m, s, c in zip(_BY_VALUE, suits, suits, suits):
        v_same, v_ca, v_loose, v_chan, v_n_ca = table[m * 25 + s * 5 + c]
        if v_chan or v_ca or v_loose:
            same += v_same
            ca += v_ca
            unpaired += v_loose
            chan += v_chan
            n_ca += v_n_ca
    return Pairing(tuple(same) + cc_same + tuple(ca), tuple(unpaired), chan, n_ca)


_LOOSE_BY_VALUE = tuple(tuple(entry[2] for entry in table) for table in _BY_VALUE)
_LOOSE_CHI_CHI = tuple(entry[2] for entry in _BY_CHI_CHI)


def unpaired(counts: Sequence[int]) -> tuple[int, ...]:
    """`pair_up(counts).unpaired`, without building the pairs."""
    loose = _LOOSE_CHI_CHI[counts[CHI_CHI]]
    suits = iter(counts)
    for table, m, s, c in zip(_LOOSE_BY_VALUE, suits, suits, suits):
        v_loose = table[m * 25 + s * 5 + c]
        if v_loose:
            loose += v_loose
    return loose


def parse_exposed(items: Sequence[Mapping[str, object]]) -> tuple[Pair, ...]:
    """Exposed pairs of a request: each must form exactly its `kind`."""
    out = []
    for i, item in enumerate(items):
        field = f"exposed.{i}"
        kind = item.get("kind")
        if kind not in KINDS:
            raise InvalidMeld(text("unknown pair kind {kind}; Chắn has: {kinds}", kind=shown(kind),
                                   kinds=", ".join(KINDS)),
                              f"{field}.kind")
        raw = item.get("cards")
        if not isinstance(raw, (list, tuple)) or not raw:
            raise InvalidMeld(text("a pair needs a non-empty list of cards"), f"{field}.cards")
        cards = tuple(sorted(parse_card(t, f"{field}.cards.{j}") for j, t in enumerate(raw)))
        found = classify(cards)
        if found != kind:
            what = f"a {found}" if found else "no pair"
            raise InvalidMeld(text("{cards} is {what}, not a {kind}",
                                   cards=' '.join(code(c) for c in cards), what=what, kind=kind), f"{field}.cards")
        out.append(Pair(str(kind), cards, concealed=False))
    return tuple(out)


def holds_ca_at(counts: Sequence[int], value: int) -> bool:
    """True when the hand's odd cards of `value` span two suits: it already holds a Cạ there (rule 5)."""
    return sum(1 for s in range(3) if counts[(value - 2) * 3 + s] % 2) >= 2
