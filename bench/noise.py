"""The noise ceiling of the off-path check: how much of a realised loss any value could predict.

bench/counterfactual.py judges a predicted loss against one pair of branches, whose realised loss is one round's
luck as much as the decision's worth. Here each decision of counterfactual.py (the same draw: the same seed, deal,
decision and pair of options) is played out on `--redeals` fresh deals of what the deciding seat cannot see: at the
decision, the other seats' concealed cards and the stock still to come are shuffled together and dealt back in the
same numbers (seeded by the deal and the re-deal), then both options are played to the end of the round with the
advice in every seat. Two re-deals of one decision share only what the seat knows, so over the decisions:

- the **ceiling**: the covariance of the realised losses of two re-deals of one decision is the variance of the
  loss that the seat's knowledge determines, the most any predictor can explain; as a share of a single pair's
  variance it is the most of the squared error any value can remove (a perfect value's gain over the best
  constant, as bench/criterion.py counts it);
- the **skill**: the value's squared-error gain over the best constant on these same pairs, as a share of the
  ceiling (1: as good as the seat's knowledge allows).

A re-deal is uniform over the hidden cards, so it forgets what the others' play tells of their hands: the ceiling
is the one of a seat that reads nothing from the others' play (a little lower than the true one). On a public card
the seats that answered it before the deciding seat keep their hands (their answers stand). In Chắn a re-dealt
seat's dealt hand, which some bonuses read, is what it holds after the re-deal.

    .venv/bin/python bench/noise.py [--kind discards|claims] [--ruleset R ...] [--decisions N] [--seed S]
                                    [--redeals K] [--jobs J] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # run from a checkout: measure this tree's engine

from bench import criterion  # noqa: E402
from bench.calibration import positive  # noqa: E402
from bench.counterfactual import KINDS  # noqa: E402
from service.arena.branches import Brancher, first_found, outcome, paying  # noqa: E402
from service.arena.duplicate import SEATS, Arena, dealt  # noqa: E402
from service.arena.external import play_watched  # noqa: E402
from service.replay.families import replay_family  # noqa: E402
from service.rules.registry import all_rulesets, get_ruleset  # noqa: E402


class Offer:
    """The seats asked so far about the public card on the table (shared by the players of one round)."""

    def __init__(self) -> None:
        self.key: tuple[int, ...] = ()
        self.asked: list[int] = []


class Tracked(Brancher):
    """The advice for one seat, noting in the round's `Offer` that it was asked about the public card."""

    def __init__(self, seat: int, offer: Offer, **kwargs: Any) -> None:
        super().__init__(seat, **kwargs)
        self.offer = offer
        self.driver: Any = None

    def offer_key(self, card: int) -> tuple[int, ...]:
        """What tells one public card's offer from the next: nothing moves while one card is answered."""
        return card, self.driver.drawn, len(self.driver.shown)

    def claim(self, view: Any, card: int, source: str, role: str, legal: Any, forced: bool) -> Any:
        key = self.offer_key(card)
        if key != self.offer.key:
            self.offer.key, self.offer.asked = key, []
        self.offer.asked.append(self.seat)
        return super().claim(view, card, source, role, legal, forced)


class Redealer(Tracked):
    """The deciding seat: at its decision it deals afresh the cards it cannot see, but the hands of the seats that
    already answered the public card (their answers stand), before it answers."""

    def __init__(self, seat: int, offer: Offer, rng: random.Random, **kwargs: Any) -> None:
        super().__init__(seat, offer, **kwargs)
        self.rng = rng

    def discard(self, view: Any) -> int:
        if self.count == self.at:
            redeal(self.driver, [self.seat], self.rng)
        return super().discard(view)

    def claim(self, view: Any, card: int, source: str, role: str, legal: Any, forced: bool) -> Any:
        if self.claims == self.claim_at:
            answered = self.offer.asked if self.offer_key(card) == self.offer.key else []
            redeal(self.driver, [self.seat, *answered], self.rng)
        return super().claim(view, card, source, role, legal, forced)


def redeal(driver: Any, kept: list[int], rng: random.Random) -> None:
    """Shuffle the concealed cards of every seat but `kept` and the stock still to come together, and deal them
    back in the same numbers (a Four Color Cards or a Chắn round driver, between two moves)."""
    others = [s for s in range(driver.seats) if s not in kept]
    rest = driver.stock[driver.drawn:]
    if driver.rs.family == "chan":
        from service.rules.chan.cards import CODES

        hidden = [face for s in others for face, n in enumerate(driver.counts[s]) for _ in range(n)]
        sizes = [sum(driver.counts[s]) for s in others]
        pool = hidden + [CODES.index(c) for c in rest]
        rng.shuffle(pool)
        for s, size in zip(others, sizes):
            counts = [0] * len(driver.counts[s])
            for face in pool[:size]:
                counts[face] += 1
            driver.counts[s], driver.dealt[s], pool = counts, list(counts), pool[size:]
        driver.stock[driver.drawn:] = [CODES[face] for face in pool]
        return
    from service.rules.fourcolor.cards import code

    cards = [code(c) for s in others for c in driver.hands[s].cards()]
    sizes = [len(driver.hands[s].cards()) for s in others]
    pool = cards + list(rest)
    rng.shuffle(pool)
    for s, size in zip(others, sizes):
        driver.hands[s] = driver.rs.parse(driver.options, pool[:size]).concealed
        pool = pool[size:]
    driver.stock[driver.drawn:] = pool


def redealt(ruleset: str, seed: int, deal: int, record: dict[str, Any], kind: str, answer: Any,
            redeal_index: int) -> float:
    """The deciding seat's settlement of the recorded decision of deal `deal` when it plays `answer` (a card, or
    an answer's key) after re-deal `redeal_index` of what it cannot see."""
    arena = Arena(ruleset, ("advice",) * SEATS, seed)
    rs = get_ruleset(ruleset)
    rng = random.Random(f"noise/{ruleset}/{seed}/{deal}/{redeal_index}")
    seat = record["seat"]
    offer = Offer()
    players: list[Tracked] = []
    for s in range(SEATS):
        if s != seat:
            players.append(Tracked(s, offer))
        elif kind == "discards":
            players.append(Redealer(s, offer, rng, at=record["discard"], card=answer))
        else:
            players.append(Redealer(s, offer, rng, claim_at=record["claim"], answer=answer))
    driver = replay_family(rs).round(rs, arena.options, dealt(arena, deal), players)
    for player in players:
        player.driver = driver
    return outcome(play_watched(driver, players, arena.bot_timeout), seat, paying(ruleset))


def noisy(ruleset: str, seed: int, deal: int, kind: str, redeals: int) -> dict[str, Any]:
    """counterfactual.py's record of deal `deal`, with the realised loss of its pair on each re-deal."""
    record = KINDS[kind](ruleset, seed, deal)
    if record["predicted"] is None:
        return record
    if kind == "discards":
        first, other = record["first_card"], record["other_card"]
    else:
        first, other = ((key[0], tuple(key[1])) for key in (record["first_key"], record["other_key"]))
    record["redealt"] = [redealt(ruleset, seed, deal, record, kind, first, k)
                         - redealt(ruleset, seed, deal, record, kind, other, k) for k in range(redeals)]
    return record


def _noisy(job: tuple[str, int, int, str, int]) -> dict[str, Any]:
    return noisy(*job)


def figures(records: list[dict[str, Any]]) -> dict[str, Any]:
    """The ceiling and the value's skill (the module docstring)."""
    losses = [r["redealt"] for r in records]
    k = len(losses[0])
    flat = [x for row in losses for x in row]
    variance = statistics.pvariance(flat)
    means = [statistics.fmean(row[j] for row in losses) for j in range(k)]
    products = [(row[a] - means[a]) * (row[b] - means[b]) for row in losses for a in range(k) for b in range(a + 1, k)]
    ceiling = criterion.mean_interval(products)
    pairs = [(r["predicted"], x) for r in records for x in r["redealt"]]
    gain = criterion.gain(pairs)
    return {"decisions": len(records), "redeals": k, "variance": variance, "ceiling": ceiling,
            "ceiling_share": ceiling["mean"] / variance if variance else 0.0, "gain": gain,
            "skill": gain["mean"] / ceiling["mean"] if ceiling["mean"] > 0 else None,
            "criterion": criterion.judged(pairs)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kind", choices=sorted(KINDS), default="discards")
    parser.add_argument("--ruleset", action="append", help="rule-set id (repeatable; default: every one)")
    parser.add_argument("--decisions", type=positive, default=1000)
    parser.add_argument("--seed", type=int, default=9711)
    parser.add_argument("--redeals", type=positive, default=2, help="fresh deals of the hidden cards a decision")
    parser.add_argument("--jobs", type=positive, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.redeals < 2:
        parser.error("--redeals must be at least 2: the ceiling is the covariance of two re-deals")
    out: dict[str, Any] = {}
    for ruleset in args.ruleset or [r.id for r in all_rulesets()]:
        started = time.monotonic()
        records, rounds = first_found(_noisy, lambda d, r=ruleset: (r, args.seed, d, args.kind, args.redeals),
                                      args.jobs, args.decisions, lambda record: record["predicted"] is not None)
        out[ruleset] = {"kind": args.kind, "seed": args.seed, "rounds": rounds, **figures(records),
                        "seconds": round(time.monotonic() - started, 1)}
        if not args.json:
            o = out[ruleset]
            skill = "-" if o["skill"] is None else f"{o['skill']:.0%}"
            print(f"{ruleset} ({args.kind}): {o['decisions']} decisions x {o['redeals']} re-deals, seed {args.seed} "
                  f"({o['seconds']} s)\n  a pair's variance {o['variance']:.4f}; the ceiling (covariance of two "
                  f"re-deals) {criterion.one(o['ceiling'], 4)}, {o['ceiling_share']:.1%} of it\n  the value's "
                  f"gain over the best constant {criterion.one(o['gain'], 4)}: skill {skill} of the ceiling\n",
                  flush=True)
    if args.json:
        print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
