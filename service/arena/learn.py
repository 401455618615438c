"""`python -m service learn`: fit a rule-set's base value (service/advice/value.py) from advice-against-advice play
(docs/advice.md#value); with `--loss`, the loss (service/advice/loss.py) on paired branches (`learn_loss.py`).

Every seat of every round plays the advice (`value.Chooser`); each discard and each answer to a public card that is
not a win is recorded with the features of the option played, and its target is the seat's realised settlement of
that round in the objective's unit (its delta; 1 for a win, 0 otherwise where nobody pays). The weights of each
distance are the least-squares fit of its decisions, shrunk towards the fit of all decisions (ridge, `SHRINK`), so
a distance with few decisions borrows from the rest. Then the calibration map (`calibrate`): the decisions cut by
their linear score into `BINS` groups of equal size, each group's mean score and mean target a knot, neighbours
pooled until the targets rise strictly (pool adjacent violators), so that the map bends the scores onto what the
seats realised without ever reordering two options. numpy is imported here only (the `learn` extra).

Training deals are those of `--seed` (default 1); the arena judges on seeds 7001 and up, which training never uses.
The loss is fitted on the base values it is written beside: a model file's loss block is kept when the base is
fitted again, and the command then says to fit the loss again too.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..advice.value import DISTANCES, FEATURES, FORMAT, ValueModel, bucket, features, model_path, parse
from ..rules.analysis import WIN_KINDS, ClaimAnalysis, ClaimOption, DiscardAnalysis, DiscardOption
from ..rules.errors import DomainError
from ..rules.registry import all_rulesets, get_ruleset
from .duplicate import SEATS, Arena, play_with, seat_results
from .learn_loss import CLAIM_SEED, KINDS, LOSS_SEED, learn_loss
from .parallel import in_order
from .value import Chooser, ValueTiebreak

#: Ridge strength pulling each distance's weights towards the weights of every decision.
SHRINK = 50.0
#: Groups of equal size the calibration map is fitted on (before pooling).
BINS = 20
#: Deals a training process plays at a time (`--jobs`): the progress bar moves by this many.
CHUNK = 50
TRAIN_SEED = 1
#: An exploring seat plays a random one of the advice's first `TOP` options.
TOP = 3


class Explorer(Chooser):
    """The advice, except that with probability `epsilon` a decision plays a random one of its first `TOP` options
    (never around a win): the fit then sees what follows options the advice itself would not play."""

    def __init__(self, record: Any, epsilon: float, rng: random.Random) -> None:
        super().__init__(record)
        self.epsilon, self.rng = epsilon, rng

    def pick(self, analysis: DiscardAnalysis) -> DiscardOption:
        """The advice's first discard, or now and then one of its first `TOP`."""
        if self.rng.random() < self.epsilon:
            return self.rng.choice(analysis.options[:TOP])
        return analysis.options[0]

    def order(self, analysis: ClaimAnalysis) -> Sequence[ClaimOption]:
        """The advice's order, or now and then one of its first `TOP` answers put first (no win in the way)."""
        options = analysis.options
        if any(o.kind in WIN_KINDS for o in options[:TOP]) or self.rng.random() >= self.epsilon:
            return options
        chosen = self.rng.choice(options[:TOP])
        return (chosen, *(o for o in options if o is not chosen))


@dataclass
class Decisions:
    """Recorded decisions: each one's distance bucket, features and target; how many rounds they came from."""

    buckets: list[int] = field(default_factory=list)
    rows: list[tuple[float, ...]] = field(default_factory=list)
    targets: list[float] = field(default_factory=list)
    rounds: int = 0


def play_recorded(ruleset: str, seed: int, deal: int, into: Decisions, players: Any = None) -> None:
    """Play deal `deal` of `seed` with the advice in every seat (or `players(record)`, one per seat) and add each
    decision with its seat's realised settlement."""
    pending: list[tuple[int, int, tuple[float, ...]]] = []

    def record(seat: int, option: DiscardOption | ClaimOption, unseen_total: int) -> None:
        pending.append((seat, bucket(option.distance), features(option, unseen_total)))

    arena = Arena(ruleset, ("advice",) * SEATS, seed)
    seats = [Chooser(record) for _ in range(SEATS)] if players is None else [players(record) for _ in range(SEATS)]
    log = play_with(arena, deal, seats)
    results = seat_results(log, ["advice"] * SEATS)
    paying = get_ruleset(ruleset).objective(get_ruleset(ruleset).resolve_options({})) == "expected_settlement"
    for seat, where, row in pending:
        into.buckets.append(where)
        into.rows.append(row)
        into.targets.append(float(results[seat].delta) if paying else float(results[seat].won))
    into.rounds += 1


def play_deals(task: tuple[str, int, int, int, float, str]) -> Decisions:
    """Every decision of deals `low` to `high` (excluded) of `seed`, as `collect` plays them."""
    ruleset, seed, low, high, explore, policy = task
    found = Decisions()
    for deal in range(low, high):
        if policy == "value-tiebreak":
            play_recorded(ruleset, seed, deal, found, lambda record: ValueTiebreak(record=record))
        elif explore > 0:
            rng = random.Random(f"explore/{ruleset}/{seed}/{deal}")
            play_recorded(ruleset, seed, deal, found, lambda record, rng=rng: Explorer(record, explore, rng))
        else:
            play_recorded(ruleset, seed, deal, found)
    return found


def collect(ruleset: str, deals: int, seed: int, explore: float = 0.0, policy: str = "advice",
            jobs: int = 1) -> Decisions:
    """Every decision of `deals` rounds of `seed`, every seat playing `policy` (`value-tiebreak`: with the shipped
    model) or exploring with probability `explore` (a progress bar on a terminal). `jobs` processes play `CHUNK`
    deals at a time; the chunks are joined in deal order, so the decisions are the same whatever `jobs` is."""
    from tqdm import tqdm

    tasks = [(ruleset, seed, low, min(low + CHUNK, deals), explore, policy) for low in range(0, deals, CHUNK)]
    found = Decisions()
    with tqdm(total=deals, unit="deal", file=sys.stderr, disable=not sys.stderr.isatty()) as bar:
        for part in in_order(play_deals, tasks, jobs, 2 * jobs):
            found.buckets += part.buckets
            found.rows += part.rows
            found.targets += part.targets
            found.rounds += part.rounds
            bar.update(part.rounds)
    return found


def fit(data: Decisions) -> list[list[float]]:
    """Each distance's weights: least squares shrunk towards the fit of every decision (`SHRINK`)."""
    import numpy as np

    x = np.asarray(data.rows, dtype=float)
    y = np.asarray(data.targets, dtype=float)
    where = np.asarray(data.buckets)
    ridge = np.eye(len(FEATURES)) * 1e-6
    pooled = np.linalg.solve(x.T @ x + ridge, x.T @ y)
    out = []
    for b in range(DISTANCES):
        xb, yb = x[where == b], y[where == b]
        shrink = np.eye(len(FEATURES)) * SHRINK
        weights = np.linalg.solve(xb.T @ xb + shrink, xb.T @ yb + shrink @ pooled)
        out.append([round(float(w), 6) for w in weights])
    return out


def calibrate(scores: Sequence[float], targets: Sequence[float], bins: int = BINS) -> list[list[float]]:
    """The calibration map's knots: the decisions sorted by linear score and cut into `bins` groups of (nearly)
    equal size, each group a knot (mean score, mean target); then neighbouring knots pooled, weighted by their
    decisions, until the targets rise strictly (pool adjacent violators: the least-squares non-decreasing fit of
    the groups, its ties pooled too). The pooled scores rise strictly as well, each block lying above the one
    before. O(n log n) for n decisions."""
    ordered = sorted(zip(scores, targets), key=lambda pair: pair[0])
    n = len(ordered)
    groups = min(bins, n)  # fewer decisions than bins: one group each
    cuts = [round(i * n / groups) for i in range(groups + 1)] if groups else []
    blocks: list[list[float]] = []  # [sum of scores, sum of targets, decisions]
    for low, high in zip(cuts, cuts[1:]):
        blocks.append([sum(s for s, _ in ordered[low:high]), sum(t for _, t in ordered[low:high]), high - low])
        while len(blocks) > 1 and blocks[-2][1] / blocks[-2][2] >= blocks[-1][1] / blocks[-1][2]:
            last = blocks.pop()
            blocks[-1] = [a + b for a, b in zip(blocks[-1], last)]
    knots: list[list[float]] = []
    for s, t, k in blocks:
        knot = [round(s / k, 6), round(t / k, 6)]
        if not knots or (knot[0] > knots[-1][0] and knot[1] > knots[-1][1]):  # rounding may tie two close knots
            knots.append(knot)
    return knots


def document(ruleset: str, data: Decisions, deals: int, seed: int, seconds: float,
             explore: float = 0.0, policy: str = "advice") -> dict[str, Any]:
    """The model file's JSON document: weights, calibration map, provenance and a summary of the data."""
    weights = fit(data)
    linear = ValueModel(ruleset, "", "", tuple(tuple(row) for row in weights), {})
    knots = calibrate([linear.linear(b, row) for b, row in zip(data.buckets, data.rows)], data.targets)
    objective = get_ruleset(ruleset).objective(get_ruleset(ruleset).resolve_options({}))
    per = [sum(1 for b in data.buckets if b == d) for d in range(DISTANCES)]
    return {
        "format": FORMAT, "ruleset": ruleset, "version": f"value-{FORMAT}/{ruleset}/seed{seed}-deals{deals}",
        "objective": objective, "options": {}, "features": list(FEATURES),
        "distances": "weights[d] for distance d; the last row for that distance and more",
        "weights": weights,
        "calibration": {"about": "value = the map through these knots (linear score, mean realised) of the linear "
                                 "score: linear between knots, slope 1 beyond the first and the last",
                        "bins": BINS, "knots": knots},
        "training": {"command": f"python -m service learn --ruleset {ruleset} --deals {deals} --seed {seed}"
                                + (f" --explore {explore}" if explore else "")
                                + (f" --policy {policy}" if policy != "advice" else ""),
                     "seed": seed, "deals": deals, "shrink": SHRINK,
                     "policy": f"advice in every seat, one of its first {TOP} options with probability {explore}"
                               if explore else f"{policy} in every seat",
                     "seconds": round(seconds, 1),
                     "judged_on": "seeds 7001 and up (arena 7002, calibration 7003), never trained on"},
        "data": {"decisions": len(data.targets), "rounds": data.rounds, "per_distance": per,
                 "target_mean": round(statistics.fmean(data.targets), 4),
                 "target_sd": round(statistics.pstdev(data.targets), 4)},
    }


def add_parser(sub: Any) -> None:
    """The `learn` subcommand's arguments."""
    learn = sub.add_parser("learn", help="fit a rule-set's value model (base, or --loss) from advice-against-advice "
                                         "rounds")
    learn.add_argument("--ruleset", required=True, help=f"one of {', '.join(r.id for r in all_rulesets())}")
    learn.add_argument("--deals", type=int, default=2000, help="rounds to play (the advice in every seat)")
    learn.add_argument("--seed", type=int, default=None,
                       help=f"training deals' seed (default {TRAIN_SEED}, --loss {LOSS_SEED}; judging uses 7001+)")
    learn.add_argument("--explore", type=float, default=0.0,
                       help="chance that a seat plays a random one of the advice's first options (default 0)")
    learn.add_argument("--policy", choices=("advice", "value-tiebreak"), default="advice",
                       help="what every seat plays (value-tiebreak: with the shipped model)")
    learn.add_argument("--jobs", type=int, default=1, help="processes playing side by side (the same model)")
    learn.add_argument("--out", default=None, help="model file to write (default: the shipped one)")
    learn.add_argument("--loss", action="store_true",
                       help="fit the loss on paired branches instead, beside the file's base (seed default "
                            f"{LOSS_SEED})")
    learn.add_argument("--claims", action="store_true",
                       help="fit the answers' own loss on paired branches of claim decisions instead, beside the "
                            f"file's base (seed default {CLAIM_SEED})")
    learn.add_argument("--decisions", type=int, default=5000,
                       help="--loss, --claims: decisions to branch, one per round (default 5000)")


def run(args: argparse.Namespace) -> int:
    """Play, fit and write the model file; exit 2 on wrong arguments."""
    try:
        ruleset = get_ruleset(args.ruleset).id
        if args.deals < 1:
            raise ValueError("--deals must be at least 1")
        if args.jobs < 1:
            raise ValueError("--jobs must be at least 1")
        if not 0 <= args.explore <= 1:
            raise ValueError("--explore must lie in [0, 1]")
    except (ValueError, DomainError) as error:
        print(f"learn: {getattr(error, 'message', error)}", file=sys.stderr)
        return 2
    path = Path(args.out) if args.out else model_path(ruleset)
    if args.loss or args.claims:
        return run_loss(ruleset, path, args, "claims" if args.claims else "discards")
    started = time.monotonic()
    seed = TRAIN_SEED if args.seed is None else args.seed
    data = collect(ruleset, args.deals, seed, args.explore, args.policy, args.jobs)
    found = document(ruleset, data, args.deals, seed, time.monotonic() - started, args.explore, args.policy)
    kept = {kind.key: block for kind in KINDS.values() if (block := kept_loss(path, kind.key)) is not None}
    found.update(kept)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(found, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {path}: {found['data']['decisions']} decisions of {data.rounds} rounds "
          f"in {found['training']['seconds']} s")
    print(f"the loss was fitted on the former base values: fit it again with `python -m service learn --ruleset "
          f"{ruleset} --loss`" + (" and `--claims`" if "claim_loss" in kept else "") if "loss" in kept else
          f"no loss yet (every option would be worth the first): `python -m service learn --ruleset {ruleset} --loss`")
    return 0


def kept_loss(path: Path, key: str = "loss") -> dict[str, Any] | None:
    """The loss block `key` (`loss`, `claim_loss`) of the model file at `path`, if it has one."""
    try:
        block = json.loads(path.read_text(encoding="utf-8")).get(key)
    except (OSError, ValueError, AttributeError):
        return None
    return block if isinstance(block, dict) else None


def run_loss(ruleset: str, path: Path, args: argparse.Namespace, kind: str = "discards") -> int:
    """Fit the loss of `kind` (the discards' `loss`, the answers' `claim_loss`) beside the base of the model file
    at `path` (a new file: beside the shipped base) and write it there; exit 2 without a valid base."""
    if args.decisions < 1:
        print("learn: --decisions must be at least 1", file=sys.stderr)
        return 2
    try:
        document = json.loads((path if path.exists() else model_path(ruleset)).read_text(encoding="utf-8"))
        model = parse(document, ruleset)
    except (OSError, ValueError, KeyError, TypeError) as error:
        print(f"learn: {KINDS[kind].flag} needs a base model at {path}: {error}", file=sys.stderr)
        return 2
    seed = KINDS[kind].seed if args.seed is None else args.seed
    key = KINDS[kind].key
    document[key] = learn_loss(model, args.decisions, seed, args.jobs, kind)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    training = document[key]["training"]
    print(f"wrote the {key} of {path}: {training['rows']} branches of {training['decisions']} decisions in "
          f"{training['seconds']} s")
    return 0
