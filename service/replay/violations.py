"""Violations an audit reports: a stable code per rule, the RULES.md line it enforces, and the event at fault."""

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
    "not_in_hand": ("RULES.md 1, 2 Deal and turn: a player discards (and pairs) only cards from his hand", True),
    "general_discard": ("RULES.md 1 Deal and turn: Generals can never be discarded", True),
    "flower_discard": ("RULES.md 1 flowers: Generals and flowers can never be discarded", True),
    "out_of_turn": ("RULES.md 1, 2 Deal and turn: play runs in seat order; the taker discards after his meld", False),
    "draw_out_of_order": (
        "RULES.md 1, 2 Deal and turn: the next player turns up the next stock card when the card goes untaken",
        False,
    ),
    "draw_mismatch": ("CONTRACT.md Game logs: a draw that shows a card other than the next stock card", True),
    "stock_exhausted": ("RULES.md 1, 2: stock exhausted with no win, the round is a draw", False),
    "false_hu": ("RULES.md 1, 2: a win needs hand + card to split into melds (Chắn: 10 pairs, >= 6 Chắn)", False),
    "invalid_meld": (
        "RULES.md 1 Melds, 2 Pairs: the claimed cards must form the named meld or pair with the public card",
        True,
    ),
    "ineligible_claim": (
        "RULES.md 1, 2: who may claim what (chi-type only drawer and next; flowers limits; Chắn captures on one's "
        "turn)",
        True,
    ),
    "own_discard_claim": ("RULES.md 1 Deal and turn: quad/triple by any player except the one who discarded it", True),
    "lower_priority_claim": (
        "RULES.md 1, 2: claim priority (hu > quad/triple > chi; win > Chíu > capture), ties by seat order",
        False,
    ),
    "general_not_taken": ("RULES.md 1 Deal and turn: a player who turns up a General must take it", True),
    "claim_without_public_card": ("RULES.md 1, 2 Deal and turn: claims are made on a public card", False),
    "event_after_end": ("RULES.md 1, 2: a win or a draw ends the round", False),
    "result_mismatch": ("CONTRACT.md Game logs: `result` is what the source recorded", True),
    "opening_not_discard": ("RULES.md 1 Deal and turn: the dealer starts by discarding (or declares hu)", False),
    "chan_capture_rule_1": (
        "RULES.md 2 Capture rule 1: with an identical card in hand the capture must be a Chắn",
        True,
    ),
    "chan_capture_rule_2": (
        "RULES.md 2 Capture rule 2: never break an identical pair to discard or to form a Cạ",
        True,
    ),
    "chan_capture_rule_3": (
        "RULES.md 2 Capture rule 3: a passed-up identical face is never discarded or used in a Cạ",
        True,
    ),
    "chan_capture_rule_4": ("RULES.md 2 Capture rule 4: a face discarded or played into a Cạ cannot be captured", True),
    "chan_capture_rule_5": (
        "RULES.md 2 Capture rule 5: no Cạ at a value the hand holds a Cạ, nor with one unpaired card",
        True,
    ),
    "chan_capture_rule_6": ("RULES.md 2 Capture rule 6: Cạ discards and Cạ captures after a Cạ", True),
    "chan_capture_rule_7": ("RULES.md 2 Capture rule 7: a capture must leave a legal discard", True),
    "false_chiu": ("RULES.md 2 Deal and turn: Chíu needs three identical cards in hand", True),
    "win_on_discard": ("RULES.md 2 Deal and turn: a win is only possible on a turned-up stock card, or by Chíu", True),
    "dead_hand_move": ("RULES.md 2 Deal and turn: a dead hand only draws and can neither capture nor win", True),
}


def table() -> str:
    """The violation codes as a Markdown table (README)."""
    rows = [f"| `{k}` | {rule} | {'goes on' if cont else 'stops'} |" for k, (rule, cont) in CODES.items()]
    return "\n".join(["| code | rule it enforces | replay after it |", "|---|---|---|", *rows])


def rule_of(code: str) -> str:
    """The RULES.md line a violation code enforces."""
    return CODES[code][0]
