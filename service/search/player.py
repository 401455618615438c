"""The searching player's policy in playouts: greedy on the exact discard analysis, memoised by hand.

- He wins whenever his gain is positive: bga-taiwan never a hu under the threshold (the caller would pay each
  opponent, RULES.md 1 "Settlement"); where nobody pays (flowers, payment none) every win; Chắn every win.
- He claims a meld (Chắn: a capture or a Chíu) only when, after the best discard, his distance to a win goes
  down. A General (flowers: or flower) he turns up and must take goes into the meld that leaves the best hand.
- He discards the top-ranked option of the exact analysis (`analyse_discards`).

The analysis counts unseen copies as the player saw them when the search began, so a hand (with its exposed
melds; Chắn: and its history) always gets the same answer: each is analysed once per search and every later
playout that reaches it reads the memo. That is what makes playouts fast: the player's hands repeat.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..rules.analysis import DiscardAnalysis, rank_key
from ..rules.chan.captures import History
from ..rules.chan.cards import N_FACES
from ..rules.chan.discards import analyse_discards as chan_analyse
from ..rules.chan.discards import complete_distance as chan_complete_distance
from ..rules.chan.hand import ChanHand
from ..rules.fourcolor.cards import N_FLOWERS, N_KINDS, Tally
from ..rules.fourcolor.discards import analyse_discards as fc_analyse
from ..rules.fourcolor.distance import complete_distance as fc_complete_distance
from ..rules.fourcolor.hand import FourColorHand
from .position import Position, deck
from .top import Top, TopRanker

#: The ranking key of a hand that cannot be improved on, or must not be entered (no legal continuation).
HOPELESS = (float("inf"),)
#: Hands met in play the memo keeps before it starts again (about 5 KB each).
MEMO_LIMIT = 20_000


@dataclass(eq=False)
class Hold:
    """The player's resting hand after a discard: distance, waits (card -> gain), improving cards, history, and his
    answers to public cards, filled in as playouts ask them."""

    counts: tuple[int, ...]
    exposed: tuple[Any, ...]
    distance: int
    waits: dict[int, int]
    improving: frozenset[int]
    history: History | None = None
    answers: dict[tuple, Any] = field(default_factory=dict)


class Answer(NamedTuple):
    """A claim on the public card: priority, kind (`hu`/`win`, or the meld kind), the exposed meld (Chắn: pair),
    the hand cards it uses and, for the player, the plan of the hand it leaves."""

    priority: int
    kind: str
    meld: Any = None
    used: tuple[int, ...] = ()
    plan: Plan | None = None


@dataclass(eq=False)
class Plan:
    """The player must discard from this hand: the top-ranked discard, the hand each legal discard leaves, and
    the ranking key of the top option (what comparing claims looks at)."""

    counts: tuple[int, ...]
    exposed: tuple[Any, ...]
    history: History | None
    discard: int | None
    holds: dict[int, Hold]
    key: tuple[float, ...]
    ranking: tuple[tuple[int, int], ...] = ()  # (card, rank) of every legal discard, best first


class Exact:
    """The one adapter between the search and the engine's exact analysis, for hands of this position's rule-set
    as the player sees the table: `analyse_discards` and `complete_distance` of the family."""

    def __init__(self, position: Position) -> None:
        self.ruleset, self.options, self.seats = position.ruleset, position.options, position.seats
        self.chan = position.family == "chan"
        left = Counter(deck(self.ruleset.id))
        left.subtract(position.seen())
        self.outside = [left[c] for c in range(N_FACES if self.chan else N_KINDS + N_FLOWERS)]
        if not self.chan:
            self.rules = self.ruleset.meld_rules(self.options)
            self.flowers = self.ruleset.id == "cardavia-flowers"
            self.ranker = TopRanker(self.rules, self.options, self.seats, self.flowers)

    def unseen(self, counts: tuple[int, ...], exposed: tuple[Any, ...]) -> list[int]:
        """Copies of each card the player has not seen, holding this hand: the deck minus what he saw minus it."""
        out = list(self.outside)
        for card, n in enumerate(counts):
            out[card] -= n
        for meld in exposed:
            for card in meld.cards:
                out[card] -= 1
        return out

    def analyse(self, counts: tuple[int, ...], exposed: tuple[Any, ...], history: History | None) -> DiscardAnalysis:
        """The ranking of every legal discard of a hand that must discard (the engine functions behind the
        rule-sets' `analyse_discards`, given the unseen copies instead of the visible codes to parse again)."""
        unseen = self.unseen(counts, exposed)
        if self.chan:
            return chan_analyse(ChanHand(counts, exposed, None), self.options, unseen, history or History())
        return fc_analyse(FourColorHand(tally(counts), exposed, None), self.rules, self.options, unseen, self.seats,
                          self.flowers)

    def top(self, counts: tuple[int, ...], exposed: tuple[Any, ...]) -> Top:
        """Four Color Cards: the first option of the ranking alone (`top.py`)."""
        return self.ranker.top(tally(counts), exposed, self.unseen(counts, exposed))

    def reach(self, counts: tuple[int, ...], exposed: tuple[Any, ...]) -> int:
        """The distance the best discard of a hand that must discard can leave: one replacement fewer than the
        hand's own distance to a complete win (the card that would be replaced goes), 0 for a complete hand."""
        if self.chan:
            return max(0, chan_complete_distance(counts, exposed) - 1)
        return max(0, fc_complete_distance(tally(counts), self.rules, exposed) - 1)


def with_meld(exposed: tuple[Any, ...], meld: Any) -> tuple[Any, ...]:
    """Exposed melds after one more, in a canonical order: the same melds taken in another order are the same
    hand to analyse (one memo entry)."""
    return tuple(sorted(exposed + (meld,), key=lambda m: (m.kind, m.cards)))


def tally(counts: Any) -> Tally:
    """An engine tally of a Four Color 33-count vector (28 chess cards, then the 5 flowers)."""
    return Tally(list(counts[:28]), sum(1 << i for i, n in enumerate(counts[28:]) if n))


class Planner:
    """Memoised plans of the player's hands for one search."""

    def __init__(self, position: Position) -> None:
        self.exact = Exact(position)
        self.plans: dict[tuple, Plan] = {}
        self.tops: dict[tuple, Plan] = {}
        self.reaches: dict[tuple, int] = {}
        self.analyses = 0

    def plan(self, counts: tuple[int, ...], exposed: tuple[Any, ...], history: History | None = None) -> Plan:
        """The plan of a hand that must discard (memoised by the hand, its exposed melds and its history)."""
        key = (counts, exposed, history)
        found = self.plans.get(key)
        if found is None:
            found = self.plans[key] = self._plan(counts, exposed, history, every=True)
        return found

    def top(self, counts: tuple[int, ...], exposed: tuple[Any, ...], history: History | None = None) -> Plan:
        """The plan of a hand met in play: its top discard and the hand it leaves (memoised). Four Color Cards
        ranks only the discards tied at the least distance (`top.py`); Chắn runs the whole analysis."""
        key = (counts, exposed, history)
        found = self.plans.get(key) or self.tops.get(key)
        if found is None:
            if len(self.tops) >= MEMO_LIMIT:
                self.forget()
            found = self.tops[key] = self._plan(counts, exposed, history) if self.exact.chan else self._top(
                counts, exposed)
        return found

    def forget(self) -> None:
        """Drop the hands met in play (a long search stays within memory; only speed depends on the memo)."""
        self.tops.clear()
        self.reaches.clear()

    def reach(self, counts: tuple[int, ...], exposed: tuple[Any, ...]) -> int:
        """The distance the best discard of this hand can leave (memoised): a cheap bound before a plan."""
        key = (counts, exposed)
        found = self.reaches.get(key)
        if found is None:
            found = self.reaches[key] = self.exact.reach(counts, exposed)
        return found

    def choose(self, options: list[tuple[Answer, tuple[int, ...], tuple[Any, ...], History | None]], distance: int,
               forced: bool, key_of: Callable[[Plan], tuple[float, ...]]) -> Answer | None:
        """The claim among `options` (answer, hand it leaves, exposed melds, history) whose best discard leaves the
        best hand, if it lowers `distance` (or the take is `forced`). Only the claims that reach the least distance
        (`reach`, cheap) are analysed, and the analysis has the last word."""
        if not options:
            return None
        reach = [self.reach(counts, exposed) for _, counts, exposed, _ in options]
        least = min(reach)
        if not forced and least >= distance:
            return None
        best: tuple[tuple[float, ...], Answer] | None = None
        for (answer, counts, exposed, history), r in zip(options, reach):
            if r == least:
                plan = self.top(counts, exposed, history)
                key = key_of(plan)
                if best is None or key < best[0]:
                    best = (key, answer._replace(plan=plan))
        if best is None or not (forced or best[0][0] < distance):
            return None
        return best[1]

    def _top(self, counts: tuple[int, ...], exposed: tuple[Any, ...]) -> Plan:
        """A Four Color plan with the top discard only."""
        self.analyses += 1
        top = self.exact.top(counts, exposed)
        if top.card is None:
            return Plan(counts, exposed, None, None, {}, HOPELESS)
        rest = list(counts)
        rest[top.card] -= 1
        return Plan(counts, exposed, None, top.card,
                    {top.card: Hold(tuple(rest), exposed, top.distance, top.waits, top.improving)}, top.key)

    def _plan(self, counts: tuple[int, ...], exposed: tuple[Any, ...], history: History | None,
              every: bool = False) -> Plan:
        """Run the analysis once and turn the top option (`every`: each option) into the resting hand it leaves."""
        self.analyses += 1
        analysis = self.exact.analyse(counts, exposed, history)
        holds = {}
        for option in analysis.options if every else analysis.options[:1]:
            rest = list(counts)
            rest[option.card] -= 1
            after = history
            if history is not None:
                after = History(history.discarded | {option.card}, history.passed_identical,
                                history.played_into_ca, history.captured_ca, history.dead_hand)
            holds[option.card] = Hold(tuple(rest), exposed, option.distance,
                                      {w.card: w.gain for w in option.waits},
                                      frozenset(c for c, _ in option.improving), after)
        if not analysis.options:
            return Plan(counts, exposed, history, None, holds, HOPELESS)
        top = analysis.options[0]
        ranking = tuple((o.card, o.rank) for o in analysis.options)
        return Plan(counts, exposed, history, top.card, holds, rank_key(top), ranking)


class Turns:
    """Base of a family's playout round: the player's hand as play goes on, and, when `log` is a list, every move
    appended as a CONTRACT.md log event."""

    log: list[dict] | None
    show: Callable[[int], str]
    hold: Hold | None

    def record(self, seat: int, kind: str, card: int | None = None, **more: Any) -> None:
        """Append one event (a no-op unless the playout is being recorded)."""
        if self.log is not None:
            event: dict[str, Any] = {"seat": seat, "type": kind}
            if card is not None:
                event["card"] = self.show(card)
            event.update(more)
            self.log.append(event)

    def follow(self, seat: int, plan: Plan) -> int:
        """After his claim the player discards the top of his plan; the hand it leaves is his new hand."""
        self.hold = plan.holds[plan.discard]
        self.record(seat, "discard", plan.discard)
        return plan.discard
