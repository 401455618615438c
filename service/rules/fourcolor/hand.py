"""A Four Color Cards hand as requests give it: concealed cards, exposed melds and the public card.

Validation follows docs/rules.md#fc-cards: canonical codes only, at most 4 copies of a chess card and 1 of
each flower counted over hand + exposed melds + public card (+ the lucky card when settling), and at most
21 cards in all (20 dealt + the public card, or the dealer's 21).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..errors import ImpossibleCount, InvalidMeld, shown
from ..text import text
from .cards import CODE_INDEX, FLOWER_BASE, Tally, check_copies, code, overfull, parse_card
from .melds import KINDS, Meld, MeldRules, classify

MAX_CARDS = 21


@dataclass(frozen=True)
class FourColorHand:
    """Validated cards of one player: concealed tally, exposed melds, the public card (if any)."""

    concealed: Tally
    exposed: tuple[Meld, ...]
    public_card: int | None

    def with_public(self) -> Tally:
        """Concealed cards plus the public card: what must split into melds for hu."""
        tally = self.concealed.copy()
        if self.public_card is not None:
            tally.add(self.public_card)
        return tally

    def concealed_cards(self) -> list[int]:
        """The concealed cards, one int per card, sorted."""
        return self.concealed.cards()

    def card_count(self) -> int:
        """Cards in hand + exposed + public."""
        exposed = sum(len(m.cards) for m in self.exposed)
        return self.concealed.size() + exposed + (self.public_card is not None)


def parse_hand(
    rules: MeldRules,
    hand: Sequence[object],
    exposed: Sequence[Mapping[str, object]] = (),
    public_card: object = None,
    extra: Mapping[str, object] | None = None,
) -> FourColorHand:
    """Validate a hand request; `extra` names further cards (e.g. the lucky card) that count copies."""
    concealed = _parse_cards(hand, "hand", rules.flowers)
    melds = tuple(_parse_meld(rules, item, f"exposed.{i}") for i, item in enumerate(exposed))
    public = None if public_card is None else parse_card(public_card, "public_card", rules.flowers)
    extras = {name: parse_card(text, name, rules.flowers) for name, text in (extra or {}).items() if text is not None}
    others = [c for m in melds for c in m.cards] + ([] if public is None else [public]) + list(extras.values())
    if overfull(concealed + others):
        # Slow path, only on error: locate the first surplus copy so the message names its field.
        located = [(c, f"hand.{i}") for i, c in enumerate(concealed)]
        located += [(c, f"exposed.{i}.cards") for i, m in enumerate(melds) for c in m.cards]
        located += [] if public is None else [(public, "public_card")]
        located += [(c, name) for name, c in extras.items()]
        check_copies(located)
    total = len(concealed) + len(others) - len(extras)
    if total > MAX_CARDS:
        raise ImpossibleCount(
            text("{total} cards over hand, exposed melds and public card; a player has at most {most}",
                 total=total, most=MAX_CARDS), "hand", code="too_many_cards")
    return FourColorHand(Tally.of(concealed), melds, public)


def _parse_cards(texts: Sequence[object], field: str, flowers: bool) -> list[int]:
    """Card indices of a list of codes; the first bad one raises naming `field.i`."""
    cards: list[int] = []
    for given in texts:
        card = CODE_INDEX.get(given) if type(given) is str else None
        if card is None or (card >= FLOWER_BASE and not flowers):
            card = parse_card(given, f"{field}.{len(cards)}", flowers)  # raises with the reason
        cards.append(card)
    return cards


def _parse_meld(rules: MeldRules, item: Mapping[str, object], field: str) -> Meld:
    """One exposed meld: its cards must form exactly the named kind under these rules."""
    kind = item.get("kind")
    raw = item.get("cards")
    if kind not in KINDS or not rules.allows(str(kind)):
        allowed = ", ".join(k for k in KINDS if rules.allows(k))
        raise InvalidMeld(text("unknown meld kind {kind}; this rule-set has: {allowed}",
                               kind=shown(kind), allowed=allowed), f"{field}.kind")
    if not isinstance(raw, (list, tuple)) or not raw:
        raise InvalidMeld(text("a meld needs a non-empty list of cards"), f"{field}.cards")
    cards = tuple(sorted(parse_card(t, f"{field}.cards.{j}", rules.flowers) for j, t in enumerate(raw)))
    found = classify(cards, rules)
    if found != kind:
        held = " ".join(code(c) for c in cards)
        what = f"a {found}" if found else "no meld"
        raise InvalidMeld(text("{held} is {what}, not a {kind}", held=held, what=what, kind=kind), f"{field}.cards")
    return Meld(str(kind), cards, concealed=False)
