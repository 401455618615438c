"""Engine results as API answers: the API layer's one choice by game family, one `HandAnswers` per family (views
stay thin), picked by the rule-set's `family` here and nowhere else in the layer."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...i18n import _, localize
from ...rules.chan.rulesets import chan_ruleset
from ...rules.chan.scoring import win_points
from ...rules.fourcolor.rulesets import fourcolor_ruleset
from ...rules.protocol import RuleSet
from ..common import meld_json


def fourcolor_claims(ruleset: RuleSet, options: dict, hand: Any, payload: dict) -> dict[str, Any]:
    """Claims on the public card for Four Color Cards."""
    rules = ruleset.meld_rules(options)
    claims, forced = fourcolor_ruleset(ruleset).legal_claims(hand, payload["seat_role"] or "other", options)
    return {"must_take": forced, "legal_discards": None, "claims": [
        {"kind": c.kind, "cards": c.meld.codes() if c.meld else None, "priority_class": c.priority_class,
         "priority": c.priority, "points": c.points,
         "melds": [meld_json(m, rules) for m in c.hu_melds] if c.hu_melds else None,
         "discards": None, "by_chiu": None}
        for c in claims]}


def chan_claims(ruleset: RuleSet, options: dict, hand: Any, payload: dict) -> dict[str, Any]:
    """Captures, Chíu and wins on the public card for Chắn, each with the legal discards after it."""
    history = ruleset.history_of(payload.get("history"))
    claims = chan_ruleset(ruleset).legal_claims(hand, payload["seat_role"] or "other", options,
                                                payload["card_source"] or "discard", history)
    win = ruleset.hu(hand, options)
    return {"must_take": False, "legal_discards": None, "card_source": payload["card_source"] or "discard", "claims": [
        {"kind": c.kind, "cards": c.pair.codes() if c.pair else None, "priority_class": c.priority_class,
         "priority": c.priority, "points": win_points(hand, win, options) if c.kind == "win" else 0,
         "melds": [meld_json(p, None) for p in win.pairs] if c.kind == "win" else None,
         "discards": [ruleset.card_code(d) for d in c.discards] if c.kind != "win" else None,
         "by_chiu": c.by_chiu if c.kind == "win" else None}
        for c in claims]}


def fourcolor_win_closed(ruleset: RuleSet, options: dict, hand: Any, role: str, source: str) -> str | None:
    """Why the rules let this seat no hu on the public card (None: a hu is among its legal claims; anyone but the
    discarder may hu, docs/rules.md#fc-claims)."""
    claims, _forced = fourcolor_ruleset(ruleset).legal_claims(hand, role, options)
    if any(c.kind == "hu" for c in claims):
        return None
    return _("no hu on your own discard (docs/rules.md#fc-claims)")


def chan_win_closed(ruleset: RuleSet, options: dict, hand: Any, role: str, source: str) -> str | None:
    """Why the rules let this seat no win on the public card (None: a win is among its legal claims: only on a
    turned-up stock card, or by a Chíu completing it, docs/rules.md#chan-win-stock)."""
    if any(c.kind == "win" for c in chan_ruleset(ruleset).legal_claims(hand, role, options, source)):
        return None
    return _("a win only on a card turned up from the stock, or by a Chíu completing it "
             "(docs/rules.md#chan-win-stock)")


def fourcolor_discards(ruleset: RuleSet, hand: Any, payload: dict) -> None:
    """Four Color Cards lists no discards without a claim: any card but a General or a flower may go."""
    return None


def chan_discards(ruleset: RuleSet, hand: Any, payload: dict) -> list[str]:
    """Legal discards of the concealed hand as it stands (e.g. the dealer's opening)."""
    history = ruleset.history_of(payload.get("history"))
    return [ruleset.card_code(f) for f in chan_ruleset(ruleset).legal_discards(hand, history)]


def fourcolor_hu(ruleset: RuleSet, options: dict, hand: Any) -> dict[str, Any]:
    """Hu answer for Four Color Cards."""
    rules = ruleset.meld_rules(options)
    result = ruleset.hu(hand, options)
    return {
        "hu": result.hu, "points": result.points, "exposed_points": result.exposed_points,
        "concealed_points": result.concealed_points,
        "melds": [meld_json(m, rules) for m in result.melds] if result.melds is not None else None,
        "decompositions": result.decompositions, "card_count": result.card_count,
        "public_card": ruleset.card_code(hand.public_card) if hand.public_card is not None else None,
        "reasons": [] if result.hu else [
            {"code": "incomplete_melds", "message": _("hand and public card do not split completely into melds")}],
        "chan_count": None, "ca_count": None, "unpaired": None,
    }


def chan_hu(ruleset: RuleSet, options: dict, hand: Any) -> dict[str, Any]:
    """Win answer for Chắn: the pairing, Chắn/Cạ counts, unpaired cards and every reason it fails."""
    result = ruleset.hu(hand, options)
    return {
        "hu": result.hu, "points": win_points(hand, result, options), "exposed_points": None,
        "concealed_points": None,
        "melds": [meld_json(p, None) for p in result.pairs] if result.hu else None,
        "decompositions": 1 if result.hu else 0, "card_count": result.card_count,
        "public_card": ruleset.card_code(hand.public_card) if hand.public_card is not None else None,
        "reasons": [{"code": c, "message": localize(m)} for c, m in result.reasons],
        "chan_count": result.chan, "ca_count": result.ca,
        "unpaired": [ruleset.card_code(c) for c in result.unpaired],
    }


@dataclass(frozen=True)
class HandAnswers:
    """How one game family answers POST /v1/melds and POST /v1/hu."""

    claims: Callable[[RuleSet, dict, Any, dict], dict[str, Any]]  # the claims on a public card
    discards: Callable[[RuleSet, Any, dict], list[str] | None]  # the legal discards without a public card
    hu: Callable[[RuleSet, dict, Any], dict[str, Any]]  # the win answer
    win_closed: Callable[[RuleSet, dict, Any, str, str], str | None]  # why this role may not win on the card


FOURCOLOR = HandAnswers(fourcolor_claims, fourcolor_discards, fourcolor_hu, fourcolor_win_closed)
CHAN = HandAnswers(chan_claims, chan_discards, chan_hu, chan_win_closed)
FAMILIES = {"fourcolor": FOURCOLOR, "chan": CHAN}


def answers_for(ruleset: RuleSet) -> HandAnswers:
    """The answer builders of the rule-set's game family."""
    return FAMILIES[ruleset.family]
