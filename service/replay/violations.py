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


#: code -> (RULES.md line it enforces, whether replay can go on after it)
CODES: dict[str, tuple[str, bool]] = {
    "not_in_hand": ("1 Deal and turn: the claimant discards one card from hand", True),
    "general_discard": ("1 Deal and turn: Generals can never be discarded", True),
    "flower_discard": ("1 flowers: Generals and flowers can never be discarded", True),
    "out_of_turn": ("1 Deal and turn: play runs in seat order; the claimant discards after his meld", False),
    "draw_out_of_order": ("1 Deal and turn: if nobody claims, the next player turns up the next stock card", False),
    "draw_mismatch": ("CONTRACT Game logs: a draw that shows a card other than the next stock card", True),
    "stock_exhausted": ("1 Deal and turn: stock exhausted with no hu, the round is a draw", False),
    "false_hu": ("1 Deal and turn: hu needs the hand plus the public card to split entirely into melds", False),
    "invalid_meld": ("1 Melds: the claimed cards must form the named meld with the public card", True),
    "ineligible_claim": ("1 Deal and turn: who may claim what (chi-type only drawer and next; flowers limits)", True),
    "own_discard_claim": ("1 Deal and turn: quad/triple by any player except the one who discarded it", True),
    "lower_priority_claim": ("1 Deal and turn: priority hu > quad/triple > chi-type; ties by seat order", False),
    "general_not_taken": ("1 Deal and turn: a player who turns up a General must take it", True),
    "claim_without_public_card": ("1 Deal and turn: claims are made on a public card", False),
    "event_after_end": ("1 Deal and turn: a hu or a draw ends the round", False),
    "result_mismatch": ("CONTRACT Game logs: `result` is what the source recorded", True),
    "opening_not_discard": ("1 Deal and turn: the dealer starts by discarding (or declares hu)", False),
    "chan_capture_rule_1": ("2 Capture rule 1: with an identical card in hand the capture must be a Chắn", True),
    "chan_capture_rule_2": ("2 Capture rule 2: never break an identical pair to discard or to form a Cạ", True),
    "chan_capture_rule_3": ("2 Capture rule 3: a passed-up identical face is never discarded or used in a Cạ",
                            True),
    "chan_capture_rule_4": ("2 Capture rule 4: a face discarded or played into a Cạ cannot be captured", True),
    "chan_capture_rule_5": ("2 Capture rule 5: no Cạ at a value the hand holds a Cạ, nor with one unpaired card",
                            True),
    "chan_capture_rule_6": ("2 Capture rule 6: Cạ discards and Cạ captures after a Cạ", True),
    "chan_capture_rule_7": ("2 Capture rule 7: a capture must leave a legal discard", True),
    "false_chiu": ("2 Deal and turn: Chíu needs three identical cards in hand", True),
    "win_on_discard": ("2 Deal and turn: a win is only possible on a turned-up stock card, or by Chíu", True),
    "dead_hand_move": ("2 Deal and turn: a dead hand only draws and can neither capture nor win", True),
}


def rule_of(code: str) -> str:
    """The RULES.md line a violation code enforces."""
    return CODES[code][0]
