"""The policy of every seat in playouts: greedy on the exact discard analysis, memoised by hand.

- He wins whenever his gain is positive: bga-taiwan never a hu under the threshold (the caller would pay each
  opponent, docs/rules.md#fc-settlement); where nobody pays (flowers, payment none) every win; Chắn every win.
- He claims a meld (Chắn: a capture or a Chíu) only when, after the best discard, his distance to a win goes
  down. A General (flowers: or flower) he turns up and must take goes into the meld that leaves the best hand.
- He discards the top-ranked option of the exact analysis (`analyse_discards`).

The searching player and the other seats play it alike, each with a `Planner` of his own: its analyses count
unseen copies as that seat saw them when the search began (`exact.py`), so a hand (with its exposed melds; Chắn:
and its history) always gets the same answer: each is analysed once per search and every later playout that
reaches it reads the memo. That is what makes the player's side fast: his hands repeat. The other seats' hands
are dealt afresh on every deal; theirs repeat only between the candidates played on one deal, until play parts.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..advice.ranking import rank_key
from ..rules.chan.captures import History
from ..rules.chan.discards import Distances, history_key
from .exact import HOPELESS, Exact
from .top import Top

#: Hands met in play the memo keeps before it starts again (about 5 KB each).
MEMO_LIMIT = 20_000
#: The same for another seat (a quick planner): his hands repeat only between the candidates of one deal.
QUICK_MEMO_LIMIT = 2_000


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
    plan: Plan | Later | None = None


class Later(NamedTuple):
    """The hand a claim leaves, planned only if the claim is taken (`Planner.resolve`)."""

    counts: tuple[int, ...]
    exposed: tuple[Any, ...]
    history: History | None


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


def with_meld(exposed: tuple[Any, ...], meld: Any) -> tuple[Any, ...]:
    """Exposed melds after one more, in a canonical order: the same melds taken in another order are the same
    hand to analyse (one memo entry)."""
    return tuple(sorted(exposed + (meld,), key=lambda m: (m.kind, m.cards)))


def discarded(history: History | None, card: int) -> History | None:
    """Chắn: his history once he discarded `card` (Four Color: none)."""
    if history is None:
        return None
    return History(history.discarded | {card}, history.passed_identical, history.played_into_ca,
                   history.captured_ca, history.dead_hand)


class Planner:
    """Memoised plans of one seat's hands for one search; `quick`: the hands met in play are planned with the quick
    form of the top option (`Exact.top`), as for the other seats, whose hands are seldom met twice."""

    def __init__(self, exact: Exact, quick: bool = False) -> None:
        self.exact, self.quick = exact, quick
        self.limit = min(MEMO_LIMIT, QUICK_MEMO_LIMIT) if quick else MEMO_LIMIT
        self.plans: dict[tuple, Plan] = {}
        self.tops: dict[tuple, Plan] = {}
        self.rests: dict[tuple, Hold] = {}  # hands at rest as a round starts (the other seats' dealt hands)
        self.firsts: dict[tuple, Top] = {}  # top options by the hand and what of the history they depend on
        self.reaches: dict[tuple, int] = {}
        self.distances: dict[tuple, Distances] = {}  # Chắn: of hands whose claim was decided but not yet planned
        self.analyses = 0

    def plan(self, counts: tuple[int, ...], exposed: tuple[Any, ...], history: History | None = None) -> Plan:
        """The plan of a hand that must discard (memoised by the hand, its exposed melds and its history)."""
        key = (counts, exposed, history)
        found = self.plans.get(key)
        if found is None:
            found = self.plans[key] = self._plan(counts, exposed, history, every=True)
        return found

    def top(self, counts: tuple[int, ...], exposed: tuple[Any, ...], history: History | None = None) -> Plan:
        """The plan of a hand met in play: its top discard and the hand it leaves (memoised). Only the discards
        tied at the least distance are ranked (`top.py`, Chắn `top_discard`)."""
        key = (counts, exposed, history)
        found = self.plans.get(key) or self.tops.get(key)
        if found is None:
            if len(self.tops) >= self.limit:
                self.forget()
            found = self.tops[key] = self._top(counts, exposed, history)
        return found

    def rest(self, counts: tuple[int, ...], exposed: tuple[Any, ...], history: History | None = None) -> Hold:
        """A hand at rest, between turns (memoised): its distance, waits and improving cards."""
        key = (counts, exposed, history)
        found = self.rests.get(key)
        if found is None:
            if len(self.rests) >= self.limit:
                self.rests.clear()  # only speed depends on the memo
            top = self.exact.rest(counts, exposed, history)
            found = self.rests[key] = Hold(counts, exposed, top.distance, top.waits, top.improving, history)
        return found

    def resolve(self, plan: Plan | Later) -> Plan:
        """The plan of a claim being taken."""
        return self.top(*plan) if isinstance(plan, Later) else plan

    def forget(self) -> None:
        """Drop the hands met in play (a long search stays within memory; only speed depends on the memo)."""
        self.tops.clear()
        self.rests.clear()
        self.firsts.clear()
        self.exact.waits.clear()
        self.reaches.clear()
        self.distances.clear()

    def reach(self, counts: tuple[int, ...], exposed: tuple[Any, ...], history: History | None = None) -> int:
        """The distance the best discard of this hand leaves (memoised): cheap next to a plan."""
        key = (counts, exposed, history and history_key(history))
        found = self.reaches.get(key)
        if found is None:
            reach = self.exact.reach(counts, exposed, history)
            if isinstance(reach, Distances):
                self.distances[key], reach = reach, reach.least
            found = self.reaches[key] = reach
        return found

    def choose(self, options: list[tuple[Answer, tuple[int, ...], tuple[Any, ...], History | None]], distance: int,
               forced: bool, key_of: Callable[[Plan], tuple[float, ...]]) -> Answer | None:
        """The claim among `options` (answer, hand it leaves, exposed melds, history) whose best discard leaves the
        best hand, if it lowers `distance` (or the take is `forced`). Only the claims that reach the least distance
        (`reach`, cheap) are analysed, and the analysis has the last word."""
        if not options:
            return None
        reach = [self.reach(counts, exposed, history) for _, counts, exposed, history in options]
        least = min(reach)
        if not forced and least >= distance:
            return None
        if self.exact.exact_reach and reach.count(least) == 1:
            # Chắn distances are exact: the one claim at the least distance is taken; its plan waits for the take
            answer, counts, exposed, history = options[reach.index(least)]
            return Answer(answer.priority, answer.kind, answer.meld, answer.used, Later(counts, exposed, history))
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

    def _top(self, counts: tuple[int, ...], exposed: tuple[Any, ...], history: History | None) -> Plan:
        """A plan with the top discard only; the top option is shared by the histories it does not depend on."""
        key = (counts, exposed, history and history_key(history))
        top = self.firsts.get(key)
        if top is None:
            self.analyses += 1
            top = self.firsts[key] = self.exact.top(counts, exposed, history, self.distances.pop(key, None),
                                                    self.quick)
        if top.card is None:
            return Plan(counts, exposed, history, None, {}, HOPELESS)
        rest = list(counts)
        rest[top.card] -= 1
        hold = Hold(tuple(rest), exposed, top.distance, top.waits, top.improving, discarded(history, top.card))
        return Plan(counts, exposed, history, top.card, {top.card: hold}, top.key)

    def _plan(self, counts: tuple[int, ...], exposed: tuple[Any, ...], history: History | None,
              every: bool = False) -> Plan:
        """Run the analysis once and turn the top option (`every`: each option) into the resting hand it leaves."""
        self.analyses += 1
        analysis = self.exact.analyse(counts, exposed, history)
        holds = {}
        for option in analysis.options if every else analysis.options[:1]:
            rest = list(counts)
            rest[option.card] -= 1
            holds[option.card] = Hold(tuple(rest), exposed, option.distance,
                                      {w.card: w.gain for w in option.waits},
                                      frozenset(c for c, _ in option.improving), discarded(history, option.card))
        if not analysis.options:
            return Plan(counts, exposed, history, None, holds, HOPELESS)
        top = analysis.options[0]
        ranking = tuple((o.card, o.rank) for o in analysis.options)
        return Plan(counts, exposed, history, top.card, holds, rank_key(top), ranking)


class OutOfTime(Exception):
    """A playout stopped at its search's time budget, before the end of the round (`Turns.tick`)."""


class Turns:
    """Base of a family's playout round: every seat's hand at rest as play goes on, and, when `log` is a list,
    every move appended as a game-log event (docs/rules.md#logs)."""

    log: list[dict] | None
    show: Callable[[int], str]
    holds: list[Hold]  # by seat; the player's set as play begins, by his first discard
    expired: Callable[[], bool] | None  # whether the search's time budget is spent (None: play to the end)

    def tick(self) -> None:
        """Called once per turn (every card drawn from the stock): raises `OutOfTime` once `expired` says so, so a
        search overruns its time budget by at most one turn of play, not by a whole deal of every candidate."""
        if self.expired is not None and self.expired():
            raise OutOfTime

    def record(self, seat: int, kind: str, card: int | None = None, **more: Any) -> None:
        """Append one event (a no-op unless the playout is being recorded)."""
        if self.log is not None:
            event: dict[str, Any] = {"seat": seat, "type": kind}
            if card is not None:
                event["card"] = self.show(card)
            event.update(more)
            self.log.append(event)

    def follow(self, seat: int, plan: Plan) -> int:
        """After his claim a seat discards the top of his plan (`Planner.resolve`d); the hand it leaves is his new
        hand."""
        assert plan.discard is not None  # a claim is taken only where a discard follows it (`Planner.choose`)
        self.holds[seat] = plan.holds[plan.discard]
        self.record(seat, "discard", plan.discard)
        return plan.discard
