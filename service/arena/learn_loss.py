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
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Iterator
from typing import Any

from ..advice.loss import LOSS_FEATURES, loss_features
from ..advice.value import ValueModel
from .branches import _training_pairs, first_found, option_from

#: Options ranked below the first that are played out per decision.
OTHERS = 3
LOSS_SEED = 3
#: Ridge strength on every weight but the bias (the features are on the scale of points and shares).
RIDGE = 1.0


def rows_of(model: ValueModel, record: dict[str, Any]) -> Iterator[tuple[tuple[float, ...], float]]:
    """The (features, realised loss) rows of one decision's record, valued by `model`'s base values."""
    total = record["unseen_total"]
    first = option_from({k: v for k, v in record["first"].items() if k != "realised"})
    first_value = model.base(first, total)
    for other in record["others"]:
        option = option_from({k: v for k, v in other.items() if k != "realised"})
        yield (loss_features(first, option, first_value, model.base(option, total), total),
               record["first"]["realised"] - other["realised"])


def collect_pairs(ruleset: str, decisions: int, seed: int, jobs: int) -> tuple[list[dict[str, Any]], int]:
    """The records of the first `decisions` deals of `seed` that give a decision, and how many deals were played
    (a progress bar on a terminal)."""
    from tqdm import tqdm

    with tqdm(total=decisions, unit="decision", file=sys.stderr, disable=not sys.stderr.isatty()) as bar:
        return first_found(_training_pairs, lambda deal: (ruleset, seed, deal, OTHERS), jobs, decisions,
                           lambda record: record["decision"] is not None, lambda: bar.update(1))


def fit_loss(rows: list[tuple[tuple[float, ...], float]]) -> list[float]:
    """The loss weights (`LOSS_FEATURES` order): least squares, ridge `RIDGE` on all but the bias."""
    import numpy as np

    x = np.asarray([r for r, _ in rows], dtype=float)
    y = np.asarray([t for _, t in rows], dtype=float)
    ridge = np.eye(len(LOSS_FEATURES)) * RIDGE
    ridge[0, 0] = 0.0
    return [round(float(w), 6) for w in np.linalg.solve(x.T @ x + ridge, x.T @ y)]


def loss_block(model: ValueModel, records: list[dict[str, Any]], deals: int, seed: int,
               seconds: float) -> dict[str, Any]:
    """The model file's `loss` block: features, weights, provenance and a summary of the rows."""
    rows = [row for record in records for row in rows_of(model, record)]
    targets = [t for _, t in rows]
    return {
        "about": "loss of an option ranked below the first = max(0, weights . features), raised to the largest loss "
                 "ranked above it; value = value of the first option - loss",
        "version": f"loss/seed{seed}-decisions{len(records)}",
        "features": list(LOSS_FEATURES), "weights": fit_loss(rows),
        "training": {"command": f"python -m service learn --ruleset {model.ruleset} --loss "
                                f"--decisions {len(records)} --seed {seed}",
                     "seed": seed, "deals": deals, "decisions": len(records), "rows": len(rows),
                     "others": OTHERS, "ridge": RIDGE, "seconds": round(seconds, 1),
                     "base": str(model.meta.get("version", model.version)),
                     "judged_on": "seed 7011 (bench/counterfactual.py) and the arena's 7001 and up, never trained on"},
        "data": {"target_mean": round(statistics.fmean(targets), 4),
                 "target_sd": round(statistics.pstdev(targets), 4)},
    }


def learn_loss(model: ValueModel, decisions: int, seed: int, jobs: int) -> dict[str, Any]:
    """Play `decisions` paired decisions of `seed` and fit the loss block of `model`'s file."""
    started = time.monotonic()
    records, deals = collect_pairs(model.ruleset, decisions, seed, jobs)
    return loss_block(model, records, deals, seed, time.monotonic() - started)
