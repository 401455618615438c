"""A variant of the advice's ranking played head to head against the advice (or another policy) on the arena's
duplicate deals: how the tries of docs/advice.md#strength are rerun.

Usage: .venv/bin/python bench/variants.py --ruleset R --variant NAME[:WEIGHT] [--against advice] [--deals N]
                                          [--seed S] [--jobs J] [--json]

The seats play `variant,B,variant,B` (B: `--against`). The variant is the advice (`service/arena/advice.py`) with
the ranking order of `service/rules/analysis.py` swapped for the one below while it decides; every figure the
order reads is the engine's own. Variants (WEIGHT: a number, default 1):
- `shipped`: the advice unchanged: every figure equals the advice's (a check of the harness).
- `danger:W`: a discard's unseen copies, times W, count against the cards that lower the paying distance (the
  second term of `analysis.hand_key`; 0 where every win pays, so in Chắn and cardavia-flowers against nothing and
  before the distance's other terms): a safer discard bought with fewer lowering cards.
- `danger-late:W`: the same against the unseen improving cards instead (a later term).
- `margin:W`: a claim that leaves the same paying distance as passing is made only when it adds at least W unseen
  lowering cards (the advice claims when the hand is strictly better by the whole order).
- `waits-first`: a waiting hand's waiting copies before its one-card expected gain (more wins, poorer ones).
- `more-unseen`: between equal hands the discard with more unseen copies (the advice: fewer).
- `mix:W`: the unseen improving cards, times W, counted with the lowering cards.
- `rich:T`: between discards at the same paying distance, the fewer replacements from a win of at least T points
  (a richer win) first, then the lowering cards (the advice: the lowering cards, and T not counted). Carried in
  the options' `reach`, 0 in bga-taiwan.
- `tempo:C`: the paying distance and its lowering cards read together as a time to a paying win, in public
  cards per unseen card: 1 / lowering copies for the next step, (d - 1) / C for each later one (C: the lowering
  copies of a typical step), 1 / WAITS for the wait; a waiting hand 1 / its paying waiting copies. So a hand one
  step further with many lowering cards can rank before one a step nearer with few. The lowering cards are counted
  at the least paying distance and the next (the advice: the least only); equal times rank as the advice does.
  Measured with engine 0.3.2, before the advice counted the rich win.
- `richer:T`: a second, richer win after the advice's rich win (engine 0.4.0: threshold + 5 points): between
  discards at the same paying distance and rich distance, the fewer replacements from a win of at least T points
  first, then the lowering cards. Carried in the options' `reach`, 0 in bga-taiwan.
- `rich-far`: the rich win counted only for hands not yet waiting on a paying win (paying distance >= 1); a
  waiting hand ranks by its waits' expected gain, as before engine 0.4.0.
- `live`: a hand waiting only on wins that pay with no unseen copy left (every copy of each such wait is in
  sight) counts one replacement further, as the structural distance does not.
- `bonus:W` (Chắn): between discards at the same distance and expected gain, the one that keeps more of the
  Tôm and Lèo sets first (the kept hand and pairs: W points per full set, 1 per distinct card of the best
  unfinished set of each kind), then the improving cards. Claims rank as the advice does.
- `bonus-late:W` (Chắn): the same count after the improving cards, before the fewer unseen copies;
  `bonus-first:W`: before the expected gain.
- `bonus-leo:W` (Chắn): as `bonus:3`, but a full Lèo set (5 points in a win, against the Tôm's 4) counts W.
- `bonus-mix:C` (Chắn, engine 0.5.0 on): the engine's `sets_kept` traded against the improving cards instead of
  before them: at the same distance and expected gain, the most unseen improving cards + C x `sets_kept`.
- `red:W` (Chắn, engine 0.5.0 on): W added to the discard's `sets_kept` when the seat's cards it leaves keep a
  red-card bonus in reach: no red card (Bạch định, 7 points) or 7 or 8 red cards (Tám đỏ, 8 points: exactly eight
  in the win); `red-graded:W`: W / 2 as well one red card further (1, 6 or 9); `red-first:W`: the same count
  before the expected gain instead.
- `gate:W` (Chắn): a waiting seat whose turn it is (role `next`) compares passing, which turns up the next stock
  card at his own gate, with a capture that keeps him waiting, with the passing hand's expected gain raised by W x
  3 (Ù chì: one point more from each of three losers) x its waiting copies / the unseen cards: the card at his own
  gate is his first and worth more (the advice compares the hands alone).
- `ca-keep` (Chắn): between discards at the same distance, one that does not make the seat a player who has
  discarded both suits of a Cạ first (rule 6 then bars every later Cạ capture of his; the distance and the
  improving cards do not see it); `ca-first`: the same before the distance.
- `kept-claims` (Chắn, engine 0.5.0 on): claims compared with passing on the Tôm and Lèo sets kept as well (the
  advice compares them on the hand alone): a capture by its follow-up discard's `sets_kept`, passing by what the
  hand as it stands keeps, after the expected gain.
- `legal-improving` (Chắn): the improving cards counted without the faces the seat may no longer capture (rule
  4: those he discarded, the discard itself included, or played from his hand into a Cạ), for discards and claims.

The spec reaches the worker processes (`--jobs`, spawned: each imports this file again) in the environment.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

from service.arena.advice import Advice
from service.arena.cli import check_head_to_head, deterministic_policy, head_to_head, head_to_head_arguments, table
from service.replay.decisions import SeatView
from service.rules import analysis
from service.rules.analysis import ClaimAnalysis, ClaimOption, DiscardOption, paying_of
from service.rules.chan import cards as chan_cards
from service.rules.chan import scoring as chan_scoring
from service.rules.chan.captures import History
from service.rules.chan.discards import kept_of_set
from service.rules.fourcolor import discards as fourcolor_discards
from service.rules.fourcolor import paying

ENV = "ARENA_VARIANT"
NAME = "variant"
Key = Callable[[Any], tuple[float, ...]]
SHIPPED_RANK, SHIPPED_HAND = analysis.rank_key, analysis.hand_key
SHIPPED_FIGURES = fourcolor_discards.ranking_figures
SHIPPED_REACH = fourcolor_discards._reach


def _waiting(option: DiscardOption | ClaimOption) -> int:
    return sum(w.unseen for w in option.waits)


def _lowering(option: DiscardOption | ClaimOption) -> int:
    return option.paying_improving or 0


#: `tempo`: the waiting copies of a typical wait.
WAITS = 6.0


def tempo_time(o: DiscardOption | ClaimOption, typical: float) -> float:
    """`tempo`'s time to a paying win of the hand an option leaves (the module docstring)."""
    d = paying_of(o)
    if d <= 0:
        return 1 / max(sum(w.unseen for w in o.waits if w.gain > 0), 0.5)
    lowering = o.improving_unseen if o.paying is None else o.paying_improving
    if lowering is None:  # not counted: beyond the two least paying distances, a typical step
        return d / typical + 1 / WAITS
    return 1 / max(lowering, 0.5) + (d - 1) / typical + 1 / WAITS


def two_levels(tally: Any, rules: Any, exposed: Any, discards: Sequence[int], threshold: int,
               unseen: Sequence[int], lowering: bool = True, rich: bool = True
               ) -> tuple[dict[int, int], dict[int, int], dict[int, int]]:
    """`paying.ranking_figures`, with the lowering cards also counted at the paying distance after the least."""
    distances, found, richer = SHIPPED_FIGURES(tally, rules, exposed, discards, threshold, unseen, lowering, rich)
    after = min(distances.values(), default=0) + 1
    following = [x for x, d in distances.items() if d == after]
    if lowering and following and after <= paying.LOWERING_MOST:
        hand = paying._Hand(tally, rules, exposed, threshold)
        found = {**found, **paying._improving(hand, following, unseen, after)}
    return distances, found, richer


#: `bonus`: the copies of each Chắn face the deciding seat holds over hand and pairs (None outside a discard).
HELD: list[int] | None = None
#: `bonus`: the faces of the round's Tôm set (its `tom_set` option).
TOM = "3m-3c-7c"


#: `gate`: what a win at one's own gate (Ù chì) adds to the winner's settlement: one point more from each loser.
GATE_GAIN = 3


#: `ca-keep`: the faces the deciding seat discarded, or None where no discard can bar his Cạ captures any more.
DISCARDED: frozenset[int] | None = None


#: `legal-improving`: the faces the deciding seat may no longer capture (rule 4), or None outside a Chắn decision.
BARRED: frozenset[int] | None = None


def legal_improving(o: DiscardOption | ClaimOption) -> int:
    """`legal-improving`: the unseen improving cards of faces the seat may still capture once the option is played
    (its discard, or a claim's follow-up discard, barred too)."""
    if BARRED is None:
        return o.improving_unseen
    own = o.card if isinstance(o, DiscardOption) else (o.follow.card if o.follow is not None else -1)
    return sum(n for f, n in o.improving if f != own and f not in BARRED)


def bars_ca(card: int) -> int:
    """`ca-keep`: 1 when discarding `card` would make the seat one who discarded both suits of a Cạ (rule 6, as the
    capture rules read it: `History.discarded_a_ca`; DISCARDED alone holds no such pair)."""
    return 0 if DISCARDED is None else int(History(DISCARDED | {card}).discarded_a_ca())


def bonus_kept(card: int, full: float, leo: float | None = None) -> float:
    """`bonus`: what of the Tôm and Lèo sets the seat's cards keep once `card` is discarded: `full` per full set
    (`leo` per full Lèo set, when given), plus the distinct cards of the best unfinished set of each kind (0
    outside a Chắn decision)."""
    if HELD is None:
        return 0.0
    held = list(HELD)
    held[card] -= 1
    return (kept_of_set(held, chan_scoring.TOM_SETS[TOM], full)
            + kept_of_set(held, chan_scoring.LEO, full if leo is None else leo))


def red_kept(card: int, weight: float, graded: bool = False) -> float:
    """`red`: `weight` when the seat's cards once `card` is discarded keep a red-card bonus in reach: no red card
    (Bạch định) or 7-8 red cards (Tám đỏ: exactly eight in the win, the winning card included); `graded`: half of
    it one red card further (1, 6 or 9); else 0 (and 0 outside a Chắn decision)."""
    if HELD is None:
        return 0.0
    reds = sum(HELD[f] for f in chan_cards.RED) - (card in chan_cards.RED)
    if reds == 0 or reds in (7, 8):
        return weight
    return weight / 2 if graded and reds in (1, 6, 9) else 0.0


def keys(kind: str, weight: float) -> tuple[Key, Key]:
    """The variant's discard order (`rank_key`) and hand order (`hand_key`); ValueError naming an unknown kind."""
    if kind in ("shipped", "margin", "gate"):
        return SHIPPED_RANK, SHIPPED_HAND
    if kind == "danger":
        def rank(o: DiscardOption) -> tuple[float, ...]:
            return (paying_of(o), -_lowering(o) + weight * o.card_unseen, o.distance, -o.reach, -o.expected_gain,
                    -o.improving_unseen, -_waiting(o), o.card_unseen)
        return rank, SHIPPED_HAND
    if kind == "danger-late":
        def rank(o: DiscardOption) -> tuple[float, ...]:
            return (paying_of(o), -_lowering(o), o.distance, -o.reach, -o.expected_gain,
                    -o.improving_unseen + weight * o.card_unseen, -_waiting(o), o.card_unseen)
        return rank, SHIPPED_HAND
    if kind == "more-unseen":
        return (lambda o: (*SHIPPED_HAND(o), -o.card_unseen)), SHIPPED_HAND
    if kind == "waits-first":
        def hand(o: DiscardOption | ClaimOption) -> tuple[float, ...]:
            return (paying_of(o), -_lowering(o), o.distance, -o.reach, -_waiting(o), -o.expected_gain,
                    -o.improving_unseen)
        return (lambda o: (*hand(o), o.card_unseen)), hand
    if kind == "mix":
        def hand(o: DiscardOption | ClaimOption) -> tuple[float, ...]:
            return (paying_of(o), -_lowering(o) - weight * o.improving_unseen, o.distance, -o.reach,
                    -o.expected_gain, -o.improving_unseen, -_waiting(o))
        return (lambda o: (*hand(o), o.card_unseen)), hand
    if kind == "rich":
        def hand(o: DiscardOption | ClaimOption) -> tuple[float, ...]:
            return (paying_of(o), -o.reach, -_lowering(o), o.distance, -o.expected_gain, -o.improving_unseen,
                    -_waiting(o))
        return (lambda o: (*hand(o), o.card_unseen)), hand
    if kind == "richer":
        def hand(o: DiscardOption | ClaimOption) -> tuple[float, ...]:
            return (paying_of(o), o.rich or 0, -o.reach, -_lowering(o), o.distance, -o.expected_gain,
                    -o.improving_unseen, -_waiting(o))
        return (lambda o: (*hand(o), o.card_unseen)), hand
    if kind == "rich-far":
        def hand(o: DiscardOption | ClaimOption) -> tuple[float, ...]:
            key = SHIPPED_HAND(o)
            return key if key[0] > 0 else (key[0], 0, *key[2:])
        return (lambda o: (*hand(o), o.card_unseen)), hand
    if kind == "live":
        def hand(o: DiscardOption | ClaimOption) -> tuple[float, ...]:
            key = SHIPPED_HAND(o)
            dead = key[0] == 0 and not any(w.unseen and w.gain > 0 for w in o.waits)
            return (key[0] + 1, *key[1:]) if dead else key
        return (lambda o: (*hand(o), o.card_unseen)), hand
    if kind in ("bonus", "bonus-late", "bonus-first"):
        late, first = kind == "bonus-late", kind == "bonus-first"

        def rank(o: DiscardOption) -> tuple[float, ...]:
            kept = -bonus_kept(o.card, weight)
            return (o.distance, kept if first else 0, -o.expected_gain, 0 if late or first else kept,
                    -o.improving_unseen, kept if late else 0, -_waiting(o), o.card_unseen)
        return rank, SHIPPED_HAND
    if kind in ("red", "red-graded"):
        graded = kind == "red-graded"

        def rank(o: DiscardOption) -> tuple[float, ...]:
            key = SHIPPED_HAND(o)
            return (*key[:6], key[6] - red_kept(o.card, weight, graded), *key[7:], o.card_unseen)
        return rank, SHIPPED_HAND
    if kind == "red-first":
        def rank(o: DiscardOption) -> tuple[float, ...]:
            key = SHIPPED_HAND(o)
            return (*key[:5], -red_kept(o.card, weight), *key[5:], o.card_unseen)
        return rank, SHIPPED_HAND
    if kind == "bonus-leo":
        def rank(o: DiscardOption) -> tuple[float, ...]:
            return (o.distance, -o.expected_gain, -bonus_kept(o.card, 3, weight), -o.improving_unseen, -_waiting(o),
                    o.card_unseen)
        return rank, SHIPPED_HAND
    if kind == "bonus-mix":
        def rank(o: DiscardOption) -> tuple[float, ...]:
            return (o.distance, -o.expected_gain, -(o.improving_unseen + weight * (o.sets_kept or 0)),
                    -_waiting(o), o.card_unseen)
        return rank, SHIPPED_HAND
    if kind in ("ca-keep", "ca-first"):
        first = kind == "ca-first"

        def rank(o: DiscardOption) -> tuple[float, ...]:
            key = SHIPPED_RANK(o)
            return (bars_ca(o.card), *key) if first else (key[0], bars_ca(o.card), *key[1:])
        return rank, SHIPPED_HAND
    if kind == "kept-claims":
        def hand(o: DiscardOption | ClaimOption) -> tuple[float, ...]:
            key = SHIPPED_HAND(o)
            if isinstance(o, DiscardOption):
                return key
            return (*key[:6], -(o.sets_kept or 0), *key[7:])  # pass: the hand as it stands; a claim: its follow-up
        return (lambda o: (*hand(o), o.card_unseen)), hand
    if kind == "legal-improving":
        def hand(o: DiscardOption | ClaimOption) -> tuple[float, ...]:
            key = SHIPPED_HAND(o)
            return (*key[:6], -legal_improving(o), *key[7:])
        return (lambda o: (*hand(o), o.card_unseen)), hand
    if kind == "tempo":
        def hand(o: DiscardOption | ClaimOption) -> tuple[float, ...]:
            return (tempo_time(o, weight), *SHIPPED_HAND(o))
        return (lambda o: (*hand(o), o.card_unseen)), hand
    raise ValueError(f"unknown variant {kind!r}; known: bonus, bonus-first, bonus-late, bonus-leo, bonus-mix, "
                     "ca-first, ca-keep, danger, danger-late, gate, kept-claims, legal-improving, margin, mix, live, "
                     "more-unseen, red, red-first, red-graded, rich, rich-far, richer, shipped, tempo, waits-first")


def parse(spec: str) -> tuple[str, float]:
    """NAME[:WEIGHT] as (name, weight); ValueError saying what is wrong."""
    kind, _, raw = spec.partition(":")
    try:
        weight = float(raw) if raw else 1.0
    except ValueError:
        raise ValueError(f"the weight of {spec!r} is not a number") from None
    keys(kind, weight)  # an unknown kind raises here
    return kind, weight


class Variant(Advice):
    """The advice deciding under the variant's order (swapped in for each decision, then restored)."""

    def __init__(self, kind: str, weight: float) -> None:
        super().__init__()
        self.kind, self.weight = kind, weight
        self.rank, self.hand = keys(kind, weight)
        self.gate = False  # `gate`: the claim being answered is the seat's own turn's (Chắn)

    def _under(self, decide: Callable[[], Any]) -> Any:
        analysis.rank_key, analysis.hand_key = self.rank, self.hand
        if self.kind == "tempo":
            fourcolor_discards.ranking_figures = two_levels
        if self.kind in ("rich", "richer"):
            fourcolor_discards._reach = self.richer
        try:
            return decide()
        finally:
            analysis.rank_key, analysis.hand_key = SHIPPED_RANK, SHIPPED_HAND
            fourcolor_discards.ranking_figures = SHIPPED_FIGURES
            fourcolor_discards._reach = SHIPPED_REACH

    def richer(self, plan: Any, x: int, d: int, waits: Any, improving: Any, gains: Any) -> float:
        """`rich`: minus the paying distance to `weight` points of the hand discarding x leaves (bga-taiwan)."""
        if gains.flowers:
            return SHIPPED_REACH(plan, x, d, waits, improving, gains)
        return -float(paying.paying_distances(plan.tally, gains.rules, gains.hand.exposed, [x], int(self.weight))[x])

    def discard(self, view: SeatView) -> int:
        return self._seen(view, (), lambda: Advice.discard(self, view))

    def claim(self, view: SeatView, card: int, source: str, role: str, legal: Sequence[Any], forced: bool) -> Any:
        self.gate = view.history is not None and role == "next"  # Chắn: passing turns up a card at his own gate
        return self._seen(view, (card,), lambda: Advice.claim(self, view, card, source, role, legal, forced))

    def _seen(self, view: SeatView, public: tuple[int, ...], decide: Callable[[], Any]) -> Any:
        """`_under`, with what the order reads of the seat itself set for the decision: a Chắn discard mostly
        follows a capture, so the claim analysis ranks it (the follow-up), and the public card on offer counts as
        held there (`bonus`, `red`: the seat's cards; `ca-keep`: its discarded faces; `legal-improving`: the faces it
        may no longer capture)."""
        global HELD, TOM, DISCARDED, BARRED
        if view.history is not None:  # Chắn
            if self.kind in ("bonus", "bonus-late", "bonus-first", "bonus-leo", "red", "red-graded",
                             "red-first"):
                HELD, TOM = [0] * 25, view.options["tom_set"]
                for c in (*view.hand, *(c for pair in view.exposed for c in pair.cards), *public):
                    HELD[c] += 1
            if self.kind in ("ca-keep", "ca-first") and not view.history.discarded_a_ca():
                DISCARDED = view.history.discarded
            if self.kind == "legal-improving":
                BARRED = view.history.discarded | view.history.played_into_ca
        try:
            return self._under(decide)
        finally:
            HELD = DISCARDED = BARRED = None

    def answer(self, view: SeatView, card: int, legal: Sequence[Any], analysis_: ClaimAnalysis) -> Any:
        weighed = self.kind == "margin" or (self.kind == "gate" and self.gate)
        found = claim_against_pass(analysis_, legal) if weighed else None
        if found is not None:
            first, passing = found
            if self.kind == "gate" and passing.distance == 0 and first.distance == 0:
                bonus = self.weight * GATE_GAIN * _waiting(passing) / max(analysis_.unseen_total, 1)
                key = SHIPPED_HAND(passing)
                if (*key[:5], key[5] - bonus, *key[6:]) <= SHIPPED_HAND(first):
                    return None
            if (self.kind == "margin" and paying_of(first) == paying_of(passing)
                    and _lowering(first) - _lowering(passing) < self.weight):
                return None
        return super().answer(view, card, legal, analysis_)


def claim_against_pass(analysis_: ClaimAnalysis, legal: Sequence[Any]) -> tuple[ClaimOption, ClaimOption] | None:
    """The advice's answer and passing, when the answer is a legal claim that is no win and passing is offered (what
    `margin` and `gate` weigh again); else None."""
    offered = [o for o in analysis_.options if o.claim is None or any(c == o.claim for c in legal)]
    passing = next((o for o in offered if o.claim is None), None)
    first = offered[0] if offered else None
    if first is None or passing is None or first.claim is None or first.gain is not None:
        return None
    return first, passing


def register() -> None:
    """Make `variant` a deterministic arena policy playing the spec in the environment (none: nothing)."""
    spec = os.environ.get(ENV)
    if not spec:
        return
    kind, weight = parse(spec)
    deterministic_policy(NAME, lambda seating: Variant(kind, weight))


register()  # in a worker process too: a spawned worker imports this file again, with the parent's environment


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", required=True, help="NAME[:WEIGHT] (the module docstring lists them)")
    head_to_head_arguments(parser)
    args = parser.parse_args()
    try:
        parse(args.variant)
        check_head_to_head(args)
    except ValueError as error:
        print(f"variants: {error}", file=sys.stderr)
        return 2
    os.environ[ENV] = args.variant
    register()
    report = head_to_head(NAME, args)
    report["variant"] = args.variant
    print(json.dumps(report, indent=2) if args.json else f"variant {args.variant}\n{table(report)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
