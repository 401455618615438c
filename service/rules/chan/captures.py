"""Captures, Chíu, wins and discards on a public card (docs/rules.md#chan-turn, docs/rules.md#chan-captures).

Rules 3-6 depend on what the player did before, so the request carries it as a `History`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import cast

from ..errors import DomainError, InvalidSeat
from ..text import text
from .cards import CHI_CHI, code, parse_card, value_of
from .hand import ChanHand, evaluate_win
from .pairs import Pair, holds_ca_at, unpaired

ROLES = ("drawer", "next", "other", "discarder")
SOURCES = ("stock", "discard")
#: docs/rules.md#chan-priority: "a win on a turned-up stock card, then Chíu, then normal captures".
PRIORITY = {"win": 3, "chiu": 2, "capture": 1}


@dataclass(frozen=True)
class History:
    """What the player did earlier in the round, as capture rules 3-6 need it (faces as card indices)."""

    discarded: frozenset[int] = frozenset()
    passed_identical: frozenset[int] = frozenset()
    played_into_ca: frozenset[int] = frozenset()
    captured_ca: bool = False
    dead_hand: bool = False

    def discarded_a_ca(self) -> bool:
        """Rule 6: he discarded two suits of one value (both cards of a Cạ)."""
        return _discarded_a_ca(self.discarded)


@lru_cache(maxsize=1 << 12)
def _discarded_a_ca(discarded: frozenset[int]) -> bool:
    """`History.discarded_a_ca` of these discards (memoised: play meets the same discards again)."""
    return any(_ca_mates(face, discarded) for face in discarded)


@lru_cache(maxsize=1 << 12)
def forbidden_faces(history: History) -> frozenset[int]:
    """Faces never to be discarded whatever the count: rule 3 (identical capture passed up) and rule 6 (having
    captured a Cạ, the other suits of a discarded face): the faces `discard_rule_broken` refuses at an odd count.
    Memoised: play meets the same histories again."""
    if not history.captured_ca:
        return frozenset(history.passed_identical)
    out = set(history.passed_identical)
    for face in history.discarded - {CHI_CHI}:
        out.update(f for f in range(face - face % 3, face - face % 3 + 3) if f != face)
    return frozenset(out)


def legal_faces(counts: Sequence[int], forbidden: frozenset[int]) -> list[int]:
    """`legal_discards` given `forbidden_faces` of the history: an odd count (rule 2), not forbidden (3, 6)."""
    return [f for f, n in enumerate(counts) if n & 1 and f not in forbidden]


def parse_history(raw: Mapping[str, object] | None) -> History:
    """Validate the `history` object of a request."""
    raw = raw or {}

    def faces(name: str) -> frozenset[int]:
        items = cast(Iterable[object], raw.get(name) or [])  # the request schema made it a list
        return frozenset(parse_card(t, f"history.{name}.{i}") for i, t in enumerate(items))

    return History(faces("discarded"), faces("passed_identical"), faces("played_into_ca"),
                   bool(raw.get("captured_ca", False)), bool(raw.get("dead_hand", False)))


def history_json(history: History) -> dict[str, object]:
    """A history as a request carries it (the inverse of `parse_history`), faces as codes in card order."""
    return {"discarded": [code(c) for c in sorted(history.discarded)],
            "passed_identical": [code(c) for c in sorted(history.passed_identical)],
            "played_into_ca": [code(c) for c in sorted(history.played_into_ca)],
            "captured_ca": history.captured_ca, "dead_hand": history.dead_hand}


@dataclass(frozen=True)
class ChanClaim:
    """A legal claim on the public card: its kind, the pair it exposes, its priority and what may follow."""

    kind: str  # "win", "chiu", "chan" or "ca"
    pair: Pair | None
    priority_class: str
    priority: int
    discards: tuple[int, ...] = ()
    by_chiu: bool = False


def _ca_mates(face: int, faces: frozenset[int]) -> bool:
    """True when `faces` holds a card of the same value in another suit (a Cạ with `face`)."""
    return face != CHI_CHI and any(
        f != CHI_CHI and f != face and value_of(f) == value_of(face) for f in faces)


NOT_IN_HAND = "not_in_hand"
NO_PAIR = "invalid_meld"
RULE_PREFIX = "chan_capture_rule_"


def rule_code(rule: int) -> str:
    """The violation code of capture rule `rule` (1-7)."""
    return f"{RULE_PREFIX}{rule}"


def rule_number(code: str) -> int | None:
    """The capture rule a violation code names (None: `not_in_hand` or `invalid_meld`)."""
    return int(code.removeprefix(RULE_PREFIX)) if code.startswith(RULE_PREFIX) else None


def discard_rule_broken(counts: Sequence[int], face: int, history: History) -> str | None:
    """The code of what a discard of `face` breaks (`not_in_hand`, or a capture rule's), or None when it is legal.

    Rule 2: never break an identical pair (a triple may lose one card). Rule 3: not a face whose identical
    capture he passed up. Rule 6: having captured a Cạ, never discard both cards of a Cạ.
    """
    if counts[face] == 0:
        return NOT_IN_HAND
    if counts[face] % 2 == 0:
        return rule_code(2)
    if face in history.passed_identical:
        return rule_code(3)
    if history.captured_ca and _ca_mates(face, history.discarded):
        return rule_code(6)
    return None


def legal_discards(counts: Sequence[int], history: History) -> list[int]:
    """Faces the player may discard from these cards (rules 2, 3, 6): those `discard_rule_broken` allows, read
    from the memoised `forbidden_faces` of the history."""
    return legal_faces(counts, forbidden_faces(history))


def capture_rule_broken(counts: Sequence[int], card: int, mate: int, history: History) -> str | None:
    """The code of the first capture rule (1-7) that pairing the public `card` with hand card `mate` breaks, or
    None; `not_in_hand` when the hand does not hold `mate`, `invalid_meld` when the two cards form no pair."""
    return _capture_check(counts, card, mate, history)[0]


def _capture_check(counts: Sequence[int], card: int, mate: int, history: History) -> tuple[str | None, list[int]]:
    """`capture_rule_broken` and, for a legal capture, the legal discards it leaves (what rule 7 looked at)."""
    if counts[mate] == 0:
        return NOT_IN_HAND, []
    if mate != card and (CHI_CHI in (card, mate) or value_of(card) != value_of(mate)):
        return NO_PAIR, []
    if card in history.discarded or card in history.played_into_ca:
        return rule_code(4), []
    if mate == card:
        after = _after(counts, [card], history, False)
        return (None if after else rule_code(7)), after
    if counts[card]:
        return rule_code(1), []  # an identical card in hand: the capture must be a Chắn
    if counts[mate] % 2 == 0:
        return rule_code(2), []  # the Cạ would break an identical pair
    if card in history.passed_identical or mate in history.passed_identical:
        return rule_code(3), []
    if holds_ca_at(counts, value_of(card)) or len(unpaired(counts)) == 1:
        return rule_code(5), []
    if history.discarded_a_ca():
        return rule_code(6), []
    after = _after(counts, [mate], history, True)
    return (None if after else rule_code(7)), after


def legal_claims(hand: ChanHand, role: str, source: str, history: History) -> list[ChanClaim]:
    """Every legal claim on the public card for a seat role; the card came from `source` (stock or discard)."""
    if role not in ROLES:
        raise InvalidSeat(text("seat_role must be one of {roles}", roles=', '.join(ROLES)), "seat_role")
    if source not in SOURCES:
        raise DomainError(text("card_source must be one of {sources}", sources=", ".join(SOURCES)), "card_source",
                          code="invalid_source")
    card = hand.public_card
    if card is None:
        raise DomainError(text("claims are made on a public card; give public_card"), "public_card",
                          code="missing_public_card")
    if history.dead_hand or (role == "discarder" and source == "discard"):
        # A dead hand only draws; nobody claims his own discard. A turned-up stock card is nobody's discard:
        # "any player may win on it" (docs/rules.md#chan-win-stock), the seat that discarded before the draw included.
        return []
    claims: list[ChanClaim] = []
    chiu = hand.counts[card] == 3
    if (source == "stock" or chiu) and evaluate_win(hand).hu:
        # A win only on a turned-up stock card (anyone), or completed at once by a Chíu.
        cls = "win" if source == "stock" else "chiu"
        claims.append(ChanClaim("win", None, cls, PRIORITY[cls], by_chiu=source != "stock"))
    return claims + meld_claims(hand, role, source, history)


def meld_claims(hand: ChanHand, role: str, source: str, history: History) -> list[ChanClaim]:
    """The claims of `legal_claims` that expose a pair (Chíu, captures), without its win test: what a player
    who knows the card does not win him needs."""
    card = hand.public_card
    if card is None or history.dead_hand or (role == "discarder" and source == "discard"):
        return []
    counts = list(hand.counts)
    claims: list[ChanClaim] = []
    if counts[card] == 3:
        claims.append(ChanClaim("chiu", Pair("chiu", (card,) * 4, False), "chiu", PRIORITY["chiu"],
                                tuple(_after(counts, [card] * 3, history, False))))
    if role in ("drawer", "next"):
        claims += _captures(counts, card, history)
    return claims


def _captures(counts: list[int], card: int, history: History) -> list[ChanClaim]:
    """Normal captures by the player whose turn it is: every pairing `capture_rule_broken` allows."""
    if counts[card]:
        mates = [card]
    elif card == CHI_CHI:
        mates = []
    else:
        base = (value_of(card) - 2) * 3
        mates = [m for m in range(base, base + 3) if m != card]
    out = []
    for mate in mates:
        broken, discards = _capture_check(counts, card, mate, history)
        if broken is None:
            kind = "chan" if mate == card else "ca"
            out.append(ChanClaim(kind, Pair(kind, tuple(sorted((card, mate))), False), "capture", PRIORITY["capture"],
                                 tuple(discards)))
    return out


def _after(counts: Sequence[int], used: list[int], history: History, ca: bool) -> list[int]:
    """Legal discards once `used` hand cards have gone into the exposed pair."""
    rest = list(counts)  # a ChanHand tuple too: capture_rule_broken takes any Sequence
    for c in used:
        rest[c] -= 1
    if ca:
        history = History(history.discarded, history.passed_identical, history.played_into_ca, True,
                          history.dead_hand)
    return legal_discards(rest, history)
