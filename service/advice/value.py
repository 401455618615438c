"""The value of an option: the expected settlement of the seat (points; where nobody pays the chance to win, inside
[0, 1]: `ruleset.objective(options)`) of playing that option and then playing on as the advice does; the one number
every option list is ordered by (docs/advice.md#value). `values_of` values a ranked list:

- the first option is worth its *base value*: the expected settlement of the hand it leaves at rest, learned from
  the advice's own play (`ValueModel.base`, `python -m service learn`), the value the on-path calibration checks
  (bench/calibration.py); a win is worth what it settles; where nobody pays it is kept inside [0, 1];
- every other option is worth the first one's value minus its loss (service/advice/loss.py), learned from paired
  branches (`python -m service learn --loss`) and checked off the advice's path (bench/counterfactual.py): 0 for an
  option tied with the first, never less than the loss of an option ranked above it. The values fall as the ranks
  rise, so the advice's order (service/advice/ranking.py) and the order by value are one order.

Base features (`features`): only what the exact analysis already computed for the option, so a value costs
microseconds. With U the unseen cards the option is counted on (`unseen_total`) and a wait's gain floored at 0:
- `bias`: 1;
- `expected_gain`: the option's one-card expected gain (sum over waits of unseen * gain / U);
- `wait_share`: waiting copies / U, the chance the next card is a wait;
- `wait_gain`: the mean gain of a waiting copy (0 without waits);
- `costly_share`: waiting copies whose win costs the seat / U (bga-taiwan: a hu under the threshold pays);
- `improving_share`: unseen improving cards / U;
- `stage`: U / 100, how much of the round is left (the unseen cards are the stock and the others' hands);
- `expected_gain_stage`, `wait_share_stage`: the two shares times `stage` (more cards left, more draws at them);
- `card_unseen`: unseen copies of the discarded card (a claim: of its follow-up discard; pass: 0);
- `sets_kept`: Chắn, what the hand keeps of the Tôm and Lèo sets (`chan.discards.sets_kept`: each full set adds to
  the score of any win); 0 in Four Color Cards.

Base model (`ValueModel.base`): piecewise linear, one weight vector per distance (0, 1, 2, and 3 for 3 or more),
then one calibration map over every distance (`calibrated`): a strictly increasing piecewise-linear function through
knots (linear score, mean realised), fitted when the model is trained, which bends the linear scores where the realised
settlement is not linear in them (the best hands are worth more than a straight line says). Being strictly
increasing, the map never reorders two options. Read from the rule-set's JSON file shipped in
service/advice/models/, with the loss's weights (format 4). A win option is worth what it settles (`win_value`).
"""

from __future__ import annotations

import json
import math
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

from ..rules.analysis import WIN_KINDS, ClaimAnalysis, ClaimOption, DiscardAnalysis, DiscardOption
from ..rules.protocol import RuleSet
from ..rules.registry import ENGINE_VERSION
from .loss import (
    CLAIM_LOSS_FEATURES,
    LOSS_FEATURES,
    card_unseen,
    claim_loss_features,
    loss_features,
    losses,
    waiting,
)

FEATURES = ("bias", "expected_gain", "wait_share", "wait_gain", "costly_share", "improving_share", "stage",
            "expected_gain_stage", "wait_share_stage", "card_unseen", "sets_kept")
#: Distances with their own weights; the last stands for itself and every greater distance.
DISTANCES = 4
MODELS = Path(__file__).resolve().parent / "models"
FORMAT = 4  # 2: a calibration map after the linear scores; 3: the `sets_kept` feature; 4: the loss
TRAINED_SEATS = 4  # the arena plays four seats: a model speaks of that table only
#: The unit a value is counted in (and a loss priced in values), by the objective it estimates.
UNITS = {"expected_settlement": "points", "win_probability": "wins"}


class ModelMissing(FileNotFoundError):
    """A rule-set has no value model file (or an unreadable one): never valued as zero."""


def features(option: DiscardOption | ClaimOption, unseen_total: int) -> tuple[float, ...]:
    """The feature vector (`FEATURES` order) of the hand `option` leaves at rest, counted on `unseen_total`."""
    total = max(unseen_total, 1)
    copies = waiting(option)
    costly = sum(w.unseen for w in option.waits if w.gain <= 0)
    gained = sum(w.unseen * max(w.gain, 0) for w in option.waits)
    stage = total / 100
    wait_share = copies / total
    return (1.0, option.expected_gain, wait_share, gained / copies if copies else 0.0, costly / total,
            option.improving_unseen / total, stage, option.expected_gain * stage, wait_share * stage,
            float(card_unseen(option)), float(option.sets_kept or 0))


def bucket(distance: int) -> int:
    """The weight vector a distance uses: itself, capped at `DISTANCES - 1` (a negative distance counts as 0)."""
    return min(max(distance, 0), DISTANCES - 1)


@dataclass(frozen=True)
class ValueModel:
    """One rule-set's fitted base weights (`weights[bucket(distance)]`, `FEATURES` order), its calibration map
    (`knots`: (linear score, value) pairs, both strictly increasing; none: the linear score itself), the loss's
    weights (`loss`, `LOSS_FEATURES` order; none: every loss 0) and where they came from."""

    ruleset: str
    version: str
    objective: str  # "expected_settlement" or "win_probability": the unit of every value
    weights: tuple[tuple[float, ...], ...]
    meta: dict[str, Any]
    knots: tuple[tuple[float, float], ...] = ()
    loss: tuple[float, ...] = ()
    claim_loss: tuple[float, ...] = ()  # the answers' own (`CLAIM_LOSS_FEATURES` order); none: the discards' loss

    def base(self, option: DiscardOption | ClaimOption, unseen_total: int) -> float:
        """The base value of `option`: the expected settlement of the hand it leaves at rest as the advice's own
        play realised it, kept inside the objective's range (a win: what it settles, `win_value`)."""
        if isinstance(option, ClaimOption) and option.kind in WIN_KINDS:
            return self.win_value(option)
        return self.bounded(self.score(bucket(option.distance), features(option, unseen_total)))

    def bounded(self, value: float) -> float:
        """`value` inside the objective's range: [0, 1] for a chance to win; any number of points."""
        return min(max(value, 0.0), 1.0) if self.objective == "win_probability" else value

    def score(self, where: int, row: tuple[float, ...]) -> float:
        """The value of a feature vector `row` of distance bucket `where`: its linear score, calibrated."""
        return calibrated(self.knots, self.linear(where, row))

    def linear(self, where: int, row: tuple[float, ...]) -> float:
        """The linear score of a feature vector `row` of distance bucket `where`, before the calibration map."""
        return sum(w * x for w, x in zip(self.weights[where], row))

    def win_value(self, option: ClaimOption) -> float:
        """A win is certain: its settlement delta, or 1 (a win) where nobody pays."""
        if self.objective != "expected_settlement":
            return 1.0
        return float(option.gain or 0)


def calibrated(knots: Sequence[tuple[float, float]], raw: float) -> float:
    """The map through `knots` at `raw`: linear between the two knots around it; beyond the first or the last knot
    the linear score's own slope (1) from that knot; no knots: `raw` itself. Strictly increasing, continuous,
    O(log knots)."""
    if not knots:
        return raw
    if raw <= knots[0][0]:
        return knots[0][1] + raw - knots[0][0]
    if raw >= knots[-1][0]:
        return knots[-1][1] + raw - knots[-1][0]
    i = bisect_right(knots, raw, key=lambda k: k[0])  # knots[i - 1].x <= raw < knots[i].x
    (x0, y0), (x1, y1) = knots[i - 1], knots[i]
    return y0 + (y1 - y0) * (raw - x0) / (x1 - x0)


def parse_knots(document: dict[str, Any], ruleset: str) -> tuple[tuple[float, float], ...]:
    """The calibration map's knots of a model document; ValueError unless at least one pair of finite numbers,
    strictly increasing in both."""
    try:
        knots = tuple((float(x), float(y)) for x, y in document["calibration"]["knots"])
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"value model of {ruleset!r}: calibration.knots must be [score, value] pairs") from error
    if not knots or not all(math.isfinite(v) for knot in knots for v in knot):
        raise ValueError(f"value model of {ruleset!r}: calibration.knots must be finite and not empty")
    if any(a[0] >= b[0] or a[1] >= b[1] for a, b in zip(knots, knots[1:])):
        raise ValueError(f"value model of {ruleset!r}: calibration.knots must rise strictly in both numbers")
    return knots


def parse(document: dict[str, Any], ruleset: str) -> ValueModel:
    """A model from its JSON document; ValueError naming what is wrong."""
    if document.get("format") != FORMAT or document.get("ruleset") != ruleset:
        raise ValueError(f"value model of {ruleset!r}: format {FORMAT} for this rule-set expected")
    if tuple(document.get("features", ())) != FEATURES:
        raise ValueError(f"value model of {ruleset!r}: features {document.get('features')} != {list(FEATURES)}")
    weights = tuple(tuple(float(w) for w in row) for row in document["weights"])
    if len(weights) != DISTANCES or any(len(row) != len(FEATURES) for row in weights):
        raise ValueError(f"value model of {ruleset!r}: {DISTANCES} rows of {len(FEATURES)} weights expected")
    if document.get("objective") not in ("expected_settlement", "win_probability"):
        raise ValueError(f"value model of {ruleset!r}: unknown objective {document.get('objective')!r}")
    knots = parse_knots(document, ruleset)
    loss = parse_loss(document, ruleset)
    claim_loss = parse_loss(document, ruleset, "claim_loss", CLAIM_LOSS_FEATURES)
    meta = {k: v for k, v in document.items()
            if k not in ("weights", "features", "calibration", "loss", "claim_loss")}
    version = str(document["version"])
    for key in ("loss", "claim_loss"):
        if key in document:
            version += "/" + str(document[key].get("version", key))
    return ValueModel(ruleset, version, str(document["objective"]), weights, meta, knots, loss, claim_loss)


def parse_loss(document: dict[str, Any], ruleset: str, key: str = "loss",
               names: tuple[str, ...] = LOSS_FEATURES) -> tuple[float, ...]:
    """The weights of a loss block `key` of a model document (none without it: `loss`, every loss 0;
    `claim_loss`, the answers priced by the discards' loss); ValueError unless one finite weight per feature of
    `names`, in that order."""
    block = document.get(key)
    if block is None:
        return ()
    if not isinstance(block, dict) or tuple(block.get("features", ())) != names:
        raise ValueError(f"value model of {ruleset!r}: {key}.features must be {list(names)}")
    try:
        weights = tuple(float(w) for w in block["weights"])
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"value model of {ruleset!r}: {key}.weights must be numbers") from error
    if len(weights) != len(names) or not all(math.isfinite(w) for w in weights):
        raise ValueError(f"value model of {ruleset!r}: {len(names)} finite {key} weights expected")
    return weights


Option = DiscardOption | ClaimOption


def values_of(model: ValueModel, options: Sequence[Option], unseen_total: int) -> tuple[float, ...]:
    """The value of every option of a ranked list (best first), in the list's order; never rising along it.

    A win is worth what it settles. The options that leave a hand at rest (a discard; pass or a claim) are worth the
    base value of the first of them minus each one's loss against it (`loss.losses`). A claim that can never take
    the card (`ClaimOption.preempted`, ranked after the pass) is worth what happens instead: the pass. Then each
    value is at most the one before it (a hand kept ranked below a win that gains is worth no more than that win; a
    win that costs, ranked last, no more than the hands above it). O(options)."""
    def kind(option: Option) -> str:
        if not isinstance(option, ClaimOption):
            return "rest"
        return "win" if option.kind in WIN_KINDS else "preempted" if option.preempted else "rest"

    kinds = [kind(o) for o in options]
    resting = [o for o, k in zip(options, kinds) if k == "rest"]
    answers = any(isinstance(o, ClaimOption) for o in options)
    weights, row = (model.claim_loss, claim_loss_features) if answers and model.claim_loss else \
        (model.loss, loss_features)
    kept: list[float] = []
    if resting:
        base = [model.base(o, unseen_total) for o in resting]
        lost = losses(weights, resting, base, unseen_total, row) if weights else [0.0] * len(resting)
        kept = [model.bounded(base[0] - loss) for loss in lost]
    at_rest = iter(kept)  # the hands at rest, in the list's order
    out: list[float] = []
    passing: float | None = None
    for option, k in zip(options, kinds):
        if k == "win":
            value = model.base(option, unseen_total)
        elif k == "preempted" and passing is not None:
            value = passing
        else:
            value = next(at_rest) if k == "rest" else model.base(option, unseen_total)
        out.append(min(value, out[-1]) if out else value)
        if isinstance(option, ClaimOption) and option.kind == "pass":
            passing = out[-1]
    return tuple(out)


def valued_discards(model: ValueModel | None, analysis: DiscardAnalysis) -> DiscardAnalysis:
    """The analysis with every option's `value` set (`values_of`); as it is where no model applies."""
    if model is None or not analysis.options:
        return analysis
    values = values_of(model, analysis.options, analysis.unseen_total)
    return replace(analysis, options=tuple(replace(o, value=v) for o, v in zip(analysis.options, values)))


def valued_claims(model: ValueModel | None, analysis: ClaimAnalysis) -> ClaimAnalysis:
    """The analysis with every answer's `value` set (`values_of`; a claim's follow-up discard carries the value of
    the claim, the hand it leaves at rest being the same); as it is where no model applies."""
    if model is None or not analysis.options:
        return analysis
    values = values_of(model, analysis.options, analysis.unseen_total)
    return replace(analysis, options=tuple(
        replace(o, value=v, follow=None if o.follow is None else replace(o.follow, value=v))
        for o, v in zip(analysis.options, values)))


def model_path(ruleset: str) -> Path:
    """Where the rule-set's shipped model lives."""
    return MODELS / f"{ruleset}.json"


def shipped_model(ruleset: str) -> ValueModel | None:
    """The rule-set's shipped model, None when it ships none. Whether the file exists is looked up once per path,
    not on every answer (the files ship with the package); one that exists but does not load is `ModelMissing`."""
    return _shipped(ruleset, MODELS)  # keyed by the folder, not a path joined on every answer


@cache
def _shipped(ruleset: str, models: Path) -> ValueModel | None:
    """`shipped_model` of the rule-set's file in `models`."""
    return load_model(ruleset) if (models / f"{ruleset}.json").exists() else None


def engine_version(ruleset: RuleSet) -> str:
    """The engine version a rule-set's answers carry: `ENGINE_VERSION`, then `+` and the version of the value model
    its answers' `value` fields come from, base, loss and claim loss
    (`0.7.0+value-3/bga-taiwan/seed1-deals4000/loss/seed3-decisions5000/claims/seed5-decisions5000`;
    docs/advice.md#value), so an answer names the model that valued it; a review joins more parts the same way
    (replay/summary.py). A rule-set without a shipped model: the plain version. A model file that exists but does
    not load is `ModelMissing`."""
    model = shipped_model(ruleset.id)
    return ENGINE_VERSION if model is None else f"{ENGINE_VERSION}+{model.version}"


def model_for(ruleset: RuleSet, options: Mapping[str, Any], seats: int) -> ValueModel | None:
    """The rule-set's model where it speaks of this game: the options it was trained under (resolved) at the table
    size it was trained on (4 seats, the arena's); else None, since other options or seats change the unit or the
    play (a payment where nobody paid, a threshold, fewer opponents). A rule-set shipped without a model (a new
    variant) has none either; a model file that exists but does not load is still `ModelMissing`."""
    model = shipped_model(ruleset.id)
    if model is None:
        return None
    trained = ruleset.resolve_options(model.meta.get("options") or {})
    if dict(options) != dict(trained) or seats != model.meta.get("seats", TRAINED_SEATS):
        return None
    return model


def unit_of(objective: str) -> str:
    """The unit of a value of this objective (`ruleset.objective(options)`): points, or wins where nobody pays."""
    return UNITS[objective]


def shown_value(option: DiscardOption | ClaimOption) -> float | None:
    """An option's value as answers show it (4 decimals), or None where no model applies."""
    return None if option.value is None else round(option.value, 4)


@cache
def load_model(ruleset: str) -> ValueModel:
    """The rule-set's shipped model (read once); ModelMissing when there is no readable, valid file."""
    path = model_path(ruleset)
    try:
        return parse(json.loads(path.read_text(encoding="utf-8")), ruleset)
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise ModelMissing(f"no valid value model for rule-set {ruleset!r} at {path}: {error}; train one with "
                           f"`python -m service learn --ruleset {ruleset}`") from error
