"""A seat's role on a public card, as `legal_claims` takes it, from where the card came from.

Both families name the same roles (docs/rules.md#fc-claims, docs/rules.md#chan-turn): the seat the card came from is
its `drawer` (a turned-up stock card) or its `discarder`; the seat after it in seat order is `next` (the player
whose turn it is); every other seat is `other`.
"""

from __future__ import annotations

SOURCES = ("discard", "stock")


def seat_role(seat: int, origin: int, source: str, seats: int) -> str:
    """The role of `seat` on a card that came from seat `origin` as a `source` card (discard or stock)."""
    if seat == origin:
        return "drawer" if source == "stock" else "discarder"
    return "next" if seat == (origin + 1) % seats else "other"
