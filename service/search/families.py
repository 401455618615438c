"""The search layer's one choice by game family: the playout table, the playout and the exact analysis every seat
plans with, in one small object per family, picked by the rule-set's `family` here and nowhere else in the
layer."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..rules.registry import RuleSet
from . import chan, fourcolor
from .chan_table import ChanTable
from .deal import Deal, Outcome, sample_deal
from .exact import ChanExact, Exact, FourColorExact
from .fourcolor_table import FourColorTable
from .player import Planner
from .position import Position
from .shaping import Distance, shaped_deal

#: A family's playout table: the position, every seat's planner and what every playout of a search shares.
Table = FourColorTable | ChanTable


@dataclass(frozen=True)
class SearchFamily:
    """How one game family is searched."""

    table: Callable[[Position, list[Planner]], Table]  # built once per search, with a planner per seat
    playout: Callable[..., Outcome]  # (table, candidate, deal, rng, log=None, expired=None): the rest of the round
    exact: Callable[[Position, int], Exact]  # a seat's adapter to the exact analysis, with that seat's view
    seat_distance: Callable[[Any], Distance]  # (table) -> a seat's structural distance holding given cards


FOURCOLOR = SearchFamily(FourColorTable, fourcolor.playout, FourColorExact, fourcolor.seat_distance)
CHAN = SearchFamily(ChanTable, chan.playout, ChanExact, chan.seat_distance)
FAMILIES = {"fourcolor": FOURCOLOR, "chan": CHAN}


def search_family(ruleset: RuleSet) -> SearchFamily:
    """The search's parts for the rule-set's game family."""
    return FAMILIES[ruleset.family]


def table_of(position: Position) -> Table:
    """The playout table of a position, with a fresh planner per seat (one per search: its memo is the search's)."""
    family = search_family(position.ruleset)
    return family.table(position, [Planner(family.exact(position, s), quick=s != position.seat)
                                   for s in range(position.seats)])


def deal_for(table: Table, rng: random.Random, dealing: str = "shaped", per_turn: float | None = None) -> Deal:
    """A deal of the search's unseen cards: `shaped` (the other seats' hands shaped by the play so far,
    `shaping.py`, with `per_turn` swaps per turn played, default the rule-set's `shaping_swaps`) or `uniform`
    (`deal.sample_deal`)."""
    if dealing == "uniform":
        return sample_deal(table.position, rng)
    return shaped_deal(table.position, rng, search_family(table.position.ruleset).seat_distance(table), per_turn)


def play(table: Table, candidate: int, deal: Deal, rng: random.Random, log: list[dict] | None = None) -> Outcome:
    """One playout of the table's family: the rest of the round after the player discards `candidate`."""
    return search_family(table.position.ruleset).playout(table, candidate, deal, rng, log)
