"""Card-code parsing shared by the families: a dict look-up first, the full check only for a bad code."""

from __future__ import annotations

from collections.abc import Callable, Mapping


def fast_parser(index: Mapping[str, int], slow: Callable[[object, str], int]) -> Callable[..., int]:
    """Parse through `index`, falling back to `slow` (which raises naming the field). The field is given
    as parts, joined only on that slow path: logs hold hundreds of cards."""
    def parse(text: object, *field: object) -> int:
        card = index.get(text) if type(text) is str else None
        return slow(text, ".".join(map(str, field))) if card is None else card

    return parse
