"""Violations an audit reports: a stable code per rule, the docs/rules.md rule it enforces, and the event at fault."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Violation:
    """One illegal move (or inconsistency) at an event of the log."""

    event: int | None
    seat: int | None
    code: str
    message: str


#: code -> (the rule it enforces, whether replay can go on after it)
CODES: dict[str, tuple[str, bool]] = {
    "not_in_hand": (
        "docs/rules.md#fc-turn, docs/rules.md#chan-turn: a player discards (and pairs) only cards from his hand",
        True,
    ),
    "general_discard": ("docs/rules.md#fc-generals-discard: Generals can never be discarded", True),
    "flower_discard": ("docs/rules.md#fl-discard: Generals and flowers can never be discarded", True),
    "out_of_turn": (
        "docs/rules.md#fc-turn, docs/rules.md#chan-turn: play runs in seat order; the taker discards after his meld",
        False,
    ),
    "draw_out_of_order": (
        "docs/rules.md#fc-no-claim, docs/rules.md#chan-turn: the next player turns up the next stock card when the "
        "card goes untaken",
        False,
    ),
    "draw_mismatch": ("docs/rules.md#logs-draw: a draw that shows a card other than the next stock card", True),
    "stock_exhausted": (
        "docs/rules.md#fc-stock-exhausted, docs/rules.md#chan-stock-exhausted: stock exhausted with no win, the round"
        " is a draw",
        False,
    ),
    "false_hu": (
        "docs/rules.md#fc-hu, docs/rules.md#chan-win: a win needs hand + card to split into melds (Chắn: 10 pairs, >="
        " 6 Chắn)",
        False,
    ),
    "invalid_meld": (
        "docs/rules.md#fc-melds, docs/rules.md#chan-pairs: the claimed cards must form the named meld or pair with "
        "the public card",
        True,
    ),
    "ineligible_claim": (
        "docs/rules.md#fc-claims, docs/rules.md#fl-claims, docs/rules.md#chan-turn: who may claim what (chi-type only"
        " drawer and next; flowers limits; Chắn captures on one's turn)",
        True,
    ),
    "own_discard_claim": ("docs/rules.md#fc-claims: quad/triple by any player except the one who discarded it", True),
    "lower_priority_claim": (
        "docs/rules.md#fc-priority, docs/rules.md#fl-priority, docs/rules.md#chan-priority: claim priority (hu > "
        "quad/triple > chi; win > Chíu > capture), ties by seat order",
        False,
    ),
    "general_not_taken": ("docs/rules.md#fc-must-take: a player who turns up a General must take it", True),
    "claim_without_public_card": (
        "docs/rules.md#fc-claims, docs/rules.md#chan-turn: claims are made on a public card",
        False,
    ),
    "event_after_end": ("docs/rules.md#logs-end: a win or a draw ends the round", False),
    "result_mismatch": ("docs/rules.md#logs-result: `result` is what the source recorded", True),
    "opening_not_discard": ("docs/rules.md#fc-deal: the dealer starts by discarding (or declares hu)", False),
    "chan_capture_rule_1": (
        "docs/rules.md#chan-capture-1: with an identical card in hand the capture must be a Chắn",
        True,
    ),
    "chan_capture_rule_2": (
        "docs/rules.md#chan-capture-2: never break an identical pair to discard or to form a Cạ",
        True,
    ),
    "chan_capture_rule_3": (
        "docs/rules.md#chan-capture-3: a passed-up identical face is never discarded or used in a Cạ",
        True,
    ),
    "chan_capture_rule_4": (
        "docs/rules.md#chan-capture-4: a face discarded or played into a Cạ cannot be captured",
        True,
    ),
    "chan_capture_rule_5": (
        "docs/rules.md#chan-capture-5: no Cạ at a value the hand holds a Cạ, nor with one unpaired card",
        True,
    ),
    "chan_capture_rule_6": ("docs/rules.md#chan-capture-6: Cạ discards and Cạ captures after a Cạ", True),
    "chan_capture_rule_7": ("docs/rules.md#chan-capture-7: a capture must leave a legal discard", True),
    "false_chiu": ("docs/rules.md#chan-chiu: Chíu needs three identical cards in hand", True),
    "win_on_discard": (
        "docs/rules.md#chan-win-stock: a win is only possible on a turned-up stock card, or by Chíu",
        True,
    ),
    "dead_hand_move": ("docs/rules.md#chan-dead-hand: a dead hand only draws and can neither capture nor win", True),
}


def table() -> str:
    """The violation codes as a Markdown table (docs/api.md)."""
    rows = [f"| `{k}` | {rule} | {'goes on' if cont else 'stops'} |" for k, (rule, cont) in CODES.items()]
    return "\n".join(["| code | rule it enforces | replay after it |", "|---|---|---|", *rows])


def rule_of(code: str) -> str:
    """The rule a violation code enforces, citing its docs/rules.md anchor."""
    return CODES[code][0]
