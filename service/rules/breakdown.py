"""The settlement breakdown both game families give: one line per step a player can follow."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Line:
    """One step of a settlement: what it is (`step`), in words, and its points."""

    step: str
    text: str
    points: int
