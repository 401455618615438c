"""Chắn scoring (docs/rules.md#chan-scoring): bonuses with a main value and a dịch value.

Score = the main value of the highest bonus + the dịch of every other bonus (equal mains: the higher dịch is
main); Thập thành adds the main values of every bonus instead; a win with no bonus (Ù xuông) scores 2.
Each of the three losers pays the score; the winner receives three times it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..breakdown import Line
from ..errors import DomainError, InvalidSeat, NotAWin
from ..text import paid, text
from .cards import CHI_CHI, CODE_INDEX, RED, value_of
from .hand import ChanHand, WinResult, evaluate_win
from .pairs import Pair

#: bonus -> (main, dịch, condition) as in the docs/rules.md#chan-bonuses table.
BONUSES: dict[str, tuple[int, int, str]] = {
    "u_chi": (3, 1, text("Ù chì: win on the stock card turned up at one's own gate")),
    "thien_u": (3, 1, text("Thiên ù: the dealer wins with his initial 20 cards")),
    "tom": (4, 1, text("Tôm: one each of the Tôm set's three cards (each full set counts)")),
    "bach_thu": (4, 1, text("Bạch thủ: exactly 6 Chắn, and the winning card forms a Chắn")),
    "leo": (5, 2, text("Lèo: one each of 8s, 9m, CC (each full set counts)")),
    "thien_khai": (5, 2, text("Thiên khai: four identical cards in the initial deal")),
    "chiu_u": (5, 2, text("Chíu ù: win by Chíu on a triple held since the deal")),
    "bon": (5, 2, text("Bòn: a pair held since the deal that becomes four identical cards")),
    "bach_dinh": (7, 4, text("Bạch định: no red card")),
    "tam_do": (8, 5, text("Tám đỏ: exactly eight red cards")),
    "kinh_tu_chi": (12, 9, text("Kính tứ chi: four Chi chi and every other card black")),
    "thap_thanh": (12, 9, text("Thập thành: all ten pairs are Chắn")),
}
U_XUONG = 2
TOM_SETS = {"3m-3c-7c": ("3m", "3c", "7c"), "3m-3s-7c": ("3m", "3s", "7c")}
LEO = ("8s", "9m", "CC")
_INDICES = {faces: tuple(CODE_INDEX[f] for f in faces) for faces in (*TOM_SETS.values(), LEO)}
#: Win context flags of a settlement request and the bonus each one grants.
CONTEXT_BONUS = {"own_gate": "u_chi", "heavenly": "thien_u", "chiu_on_dealt_triple": "chiu_u",
                 "dealt_quad": "thien_khai", "dealt_pair_became_quad": "bon"}


@dataclass(frozen=True)
class ChanSettlement:
    """Score, breakdown, pairs and deltas."""

    points: int
    pairs: tuple[Pair, ...]
    breakdown: tuple[Line, ...]
    deltas: tuple[int, ...]
    bonuses: tuple[str, ...]
    lucky_bonus: int = 0  # Chắn has no lucky card

    @property
    def melds(self) -> tuple[Pair, ...]:
        """The pairs of the win, under the name every settlement gives its melds."""
        return self.pairs


def set_faces(faces: tuple[str, str, str]) -> tuple[int, ...]:
    """The face indices of a Tôm set (a `TOM_SETS` value) or of `LEO`."""
    return _INDICES[faces]


def full_sets(counts: Sequence[int], faces: tuple[str, str, str]) -> int:
    """Full sets of these faces, no card serving twice (docs/rules.md#chan-bonuses: each full set counts)."""
    a, b, c = _INDICES[faces]
    return min(counts[a], counts[b], counts[c])


def find_bonuses(hand: ChanHand, counts: list[int], chan: int, pairs: tuple[Pair, ...], context: Mapping[str, bool],
                 options: Mapping[str, Any]) -> list[str]:
    """Every bonus instance the win earns (Tôm and Lèo once per full set)."""
    found = [bonus for flag, bonus in CONTEXT_BONUS.items() if context.get(flag)]
    found += ["tom"] * full_sets(counts, TOM_SETS[options["tom_set"]])
    if _bach_thu(hand, chan, pairs):
        found.append("bach_thu")
    found += ["leo"] * full_sets(counts, LEO)
    red = sum(counts[c] for c in RED)
    if red == 0:
        found.append("bach_dinh")
    if red == 8:
        found.append("tam_do")
    if counts[CHI_CHI] == 4 and red == 4:
        found.append("kinh_tu_chi")
    if chan == 10:
        found.append("thap_thanh")
    return found


def _bach_thu(hand: ChanHand, chan: int, pairs: tuple[Pair, ...]) -> bool:
    """Exactly 6 Chắn and the winning card forms a Chắn: its face is even in hand + card, no Cạ at its value."""
    win = hand.public_card
    if win is None or chan != 6 or hand.with_public()[win] not in (2, 4):
        return False
    return not any(p.kind == "ca" and value_of(p.cards[0]) == value_of(win) for p in pairs)


def score(bonuses: list[str]) -> tuple[int, list[Line]]:
    """The score of a bonus list with its lines: main + dịch of the rest, Thập thành sums mains."""
    if not bonuses:
        return U_XUONG, [Line("u_xuong", text("Ù xuông: a win with no bonus = {points}", points=U_XUONG), U_XUONG)]
    if "thap_thanh" in bonuses:
        lines = [Line(b, text("{bonus}: main {main} (Thập thành adds every main value)", bonus=BONUSES[b][2],
                              main=BONUSES[b][0]), BONUSES[b][0]) for b in bonuses]
        return sum(BONUSES[b][0] for b in bonuses), lines
    main = max(range(len(bonuses)), key=lambda i: (BONUSES[bonuses[i]][0], BONUSES[bonuses[i]][1]))
    lines = []
    for i, b in enumerate(bonuses):
        m, d, name = BONUSES[b]
        said = text("{bonus}: main {main}", bonus=name, main=m) if i == main else \
            text("{bonus}: dịch {dich}", bonus=name, dich=d)
        lines.append(Line(b, said, m if i == main else d))
    return sum(line.points for line in lines), lines


def settle(hand: ChanHand, context: Mapping[str, bool], options: Mapping[str, Any], seats: int, winner: int
           ) -> ChanSettlement:
    """Score a Chắn win and the payments; NotAWin when the cards do not win."""
    if seats != 4:
        raise InvalidSeat(text("cardavia-chan is played by 4 players"), "seats")
    if not 0 <= winner < seats:
        raise InvalidSeat(text("winner must be a seat index 0..{last}", last=seats - 1), "winner")
    _check_context(hand, context)
    result = evaluate_win(hand)
    if not result.hu:
        reasons = [reason for _, reason in result.reasons]
        why: str = reasons[0] if reasons else ""
        for reason in reasons[1:]:  # the reasons one after another, each translated, the separator too
            why = text("{reasons}; {reason}", reasons=why, reason=reason)
        raise NotAWin(why, "hand")
    bonuses = find_bonuses(hand, hand.all_counts(), result.chan, result.pairs, context, options)
    points, lines = score(bonuses)
    lines.append(Line("total", text("score = {points}", points=points), points))
    lines.append(Line("payment_rule", text("each of the three losers pays {points}; the winner receives {total}",
                                           points=points, total=3 * points), points))
    deltas = [-points] * seats
    deltas[winner] = 3 * points
    lines += [Line("payment", paid(s, winner, points), points) for s in range(seats) if s != winner]
    return ChanSettlement(points, result.pairs, tuple(lines), tuple(deltas), tuple(bonuses))


def win_points(hand: ChanHand, win: WinResult, options: Mapping[str, Any]) -> int | None:
    """Score of a win from the cards alone (bonuses that need the win's context, like Ù chì on one's own gate, are
    not counted); None when the hand does not win."""
    if not win.hu:
        return None
    return score(find_bonuses(hand, hand.all_counts(), win.chan, win.pairs, {}, options))[0]


def _check_context(hand: ChanHand, context: Mapping[str, bool]) -> None:
    """Context flags that contradict the cards or each other."""
    if context.get("heavenly") and hand.public_card is not None:
        raise DomainError(text("a heavenly win (Thiên ù) is on the dealer's initial 20 cards: no public_card"),
                          "context.heavenly", code="inconsistent_context")
    if context.get("heavenly") and context.get("own_gate"):
        raise DomainError(text("a heavenly win is not a win on a stock card"), "context.own_gate",
                          code="inconsistent_context")
    if context.get("chiu_on_dealt_triple") and not context.get("by_chiu"):
        raise DomainError(text("Chíu ù is a win by Chíu: set by_chiu"), "context.chiu_on_dealt_triple",
                          code="inconsistent_context")
    if context.get("own_gate") and hand.public_card is None:
        raise DomainError(text("Ù chì is a win on a turned-up stock card: give it as public_card"), "context.own_gate",
                          code="inconsistent_context")
    if context.get("by_chiu") and (hand.public_card is None or hand.with_public()[hand.public_card] != 4):
        # docs/rules.md#chan-chiu: a Chíu claims the fourth public card with three identical in hand
        raise DomainError(text("a win by Chíu needs three cards in hand identical to the public card"),
                               "context.by_chiu",
                          code="inconsistent_context")
    counts = hand.all_counts()
    for flag in ("dealt_quad", "dealt_pair_became_quad"):
        # docs/rules.md#chan-bonuses: Thiên khai, Bòn: four identical cards, which rule 2 never lets go, so
        # they are among the 20
        if context.get(flag) and 4 not in counts:
            raise DomainError(text("{flag} needs four identical cards among the 20", flag=flag), f"context.{flag}",
                              code="inconsistent_context")

