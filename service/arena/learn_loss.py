"""`python -m service learn --ruleset R --loss`: fit the loss of a rule-set's model (service/advice/loss.py) on
paired branches of training deals (docs/advice.md#value).

Per training deal (`branches.training_pairs`): one discard decision of an advice-against-advice round drawn at
random, the advice's first option and up to `OTHERS` options ranked below it each played on to the end of the round
from the same true deal, the advice in every seat. Each option below the first gives one row: its loss features
against the first (`loss.loss_features`, with the base values of the model file being trained) and its target, the
seat's settlement after the first option minus after this one. The weights are the least-squares fit of the rows,
with a light ridge (`RIDGE`) on every weight but the bias. The decisions of a deal share its rows' first branch, so
rows are not independent; the fit does not need them to be, the figures of bench/counterfactual.py (a seed never
trained on, one decision and one option per round) are what judges it.

Training deals are those of `--seed` (default `LOSS_SEED`); bench/counterfactual.py judges on seed 7011 and the arena
on 7001 and up, which training never uses. numpy is imported here only (the `learn` extra).

`python -m service learn --ruleset R --claims` fits the answers' own loss the same way (`claim_loss`,
`CLAIM_LOSS_FEATURES`), on claim decisions (`branches.claim_training_pairs`: pass and every claim that can take the
card, the answer played with the follow-up discard its analysis names) of `CLAIM_SEED`.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

from ..advice.loss import CLAIM_LOSS_FEATURES, LOSS_FEATURES, Features, claim_loss_features, loss_features
from ..advice.value import ValueModel
from .branches import _claim_training_pairs, _training_pairs, answer_from, first_found, option_from

#: Options ranked below the first that are played out per decision.
OTHERS = 3
LOSS_SEED = 3
CLAIM_SEED = 5


class LossKind(NamedTuple):
    """One kind of decision a loss is fitted on."""

    key: str  # the model file's block
    names: tuple[str, ...]  # its features
    read: Callable[[dict[str, Any]], Any]  # an option read back from a training record
    row: Features  # the loss features of an option against the first
    records: Callable[[tuple[str, int, int, int]], dict[str, Any]]  # a deal's training record
    flag: str  # the command's flag
    seed: int  # the training seed by default
    version: str  # the block's version prefix
    judged_on: str  # the seed of its off-path check


KINDS = {
    "discards": LossKind("loss", LOSS_FEATURES, option_from, loss_features, _training_pairs, "--loss", LOSS_SEED,
                         "loss", "seed 7011 (bench/counterfactual.py)"),
    "claims": LossKind("claim_loss", CLAIM_LOSS_FEATURES, answer_from, claim_loss_features, _claim_training_pairs,
                       "--claims", CLAIM_SEED, "claims", "seed 9711 (bench/counterfactual.py --kind claims)"),
}
#: Ridge strength on every weight but the bias (the features are on the scale of points and shares).
RIDGE = 1.0


def rows_of(model: ValueModel, record: dict[str, Any],
            kind: str = "discards") -> Iterator[tuple[tuple[float, ...], float]]:
    """The (features, realised loss) rows of one decision's record, valued by `model`'s base values."""
    read, row = KINDS[kind].read, KINDS[kind].row
    total = record["unseen_total"]
    first = read({k: v for k, v in record["first"].items() if k != "realised"})
    first_value = model.base(first, total)
    for other in record["others"]:
        option = read({k: v for k, v in other.items() if k != "realised"})
        yield (row(first, option, first_value, model.base(option, total), total),
               record["first"]["realised"] - other["realised"])


def collect_pairs(ruleset: str, decisions: int, seed: int, jobs: int,
                  kind: str = "discards") -> tuple[list[dict[str, Any]], int]:
    """The records of the first `decisions` deals of `seed` that give a decision of `kind`, and how many deals
    were played (a progress bar on a terminal)."""
    from tqdm import tqdm

    work = KINDS[kind].records
    with tqdm(total=decisions, unit="decision", file=sys.stderr, disable=not sys.stderr.isatty()) as bar:
        return first_found(work, lambda deal: (ruleset, seed, deal, OTHERS), jobs, decisions,
                           lambda record: record["decision"] is not None, lambda: bar.update(1))


def fit_loss(rows: list[tuple[tuple[float, ...], float]]) -> list[float]:
    """The loss weights (in the rows' feature order): least squares, ridge `RIDGE` on all but the bias."""
    import numpy as np

    x = np.asarray([r for r, _ in rows], dtype=float)
    y = np.asarray([t for _, t in rows], dtype=float)
    ridge = np.eye(x.shape[1]) * RIDGE
    ridge[0, 0] = 0.0
    return [round(float(w), 6) for w in np.linalg.solve(x.T @ x + ridge, x.T @ y)]


def loss_block(model: ValueModel, records: list[dict[str, Any]], deals: int, seed: int,
               seconds: float, kind: str = "discards") -> dict[str, Any]:
    """The model file's block of `kind` (`loss`, `claim_loss`): features, weights, provenance and a summary of the
    rows."""
    about = KINDS[kind]
    rows = [row for record in records for row in rows_of(model, record, kind)]
    targets = [t for _, t in rows]
    return {
        "about": "loss of an option ranked below the first = max(0, weights . features), raised to the largest loss "
                 "ranked above it; value = value of the first option - loss",
        "version": f"{about.version}/seed{seed}-decisions{len(records)}",
        "features": list(about.names), "weights": fit_loss(rows),
        "training": {"command": f"python -m service learn --ruleset {model.ruleset} {about.flag} "
                                f"--decisions {len(records)} --seed {seed}",
                     "seed": seed, "deals": deals, "decisions": len(records), "rows": len(rows),
                     "others": OTHERS, "ridge": RIDGE, "seconds": round(seconds, 1),
                     "base": str(model.meta.get("version", model.version)),
                     "judged_on": f"{about.judged_on} and the arena's 7001 and up, never trained on"},
        "data": {"target_mean": round(statistics.fmean(targets), 4),
                 "target_sd": round(statistics.pstdev(targets), 4)},
    }


def learn_loss(model: ValueModel, decisions: int, seed: int, jobs: int, kind: str = "discards") -> dict[str, Any]:
    """Play `decisions` paired decisions of `kind` of `seed` and fit that loss block of `model`'s file."""
    started = time.monotonic()
    records, deals = collect_pairs(model.ruleset, decisions, seed, jobs, kind)
    return loss_block(model, records, deals, seed, time.monotonic() - started, kind)
