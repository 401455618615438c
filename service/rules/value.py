"""The value of a position: the expected settlement of the seat for the hand an option leaves at rest, in the
rule-set's unit (points; the win probability where nobody pays: `ruleset.objective(options)`), learned from play
(`python -m service learn`, docs/advice.md#value).

Features (`features`): only what the exact analysis already computed for the option, so a value costs
microseconds. With U the unseen cards the option is counted on (`unseen_total`) and a wait's gain floored at 0:
- `bias`: 1;
- `expected_gain`: the option's one-card expected gain (sum over waits of unseen * gain / U);
- `wait_share`: waiting copies / U, the chance the next card is a wait;
- `wait_gain`: the mean gain of a waiting copy (0 without waits);
- `costly_share`: waiting copies whose win costs the seat / U (bga-taiwan: a hu under the threshold pays);
- `improving_share`: unseen improving cards / U;
- `stage`: U / 100, how much of the round is left (the unseen cards are the stock and the others' hands);
- `expected_gain_stage`, `wait_share_stage`: the two shares times `stage` (more cards left, more draws at them);
- `card_unseen`: unseen copies of the discarded card (a claim: of its follow-up discard; pass: 0).

Model (`ValueModel`): piecewise linear, one weight vector per distance (0, 1, 2, and 3 for 3 or more), read from
the rule-set's JSON file shipped in service/rules/models/. A win option is worth what it settles (`win_value`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from .analysis import WIN_KINDS, ClaimOption, DiscardOption
from .protocol import RuleSet

FEATURES = ("bias", "expected_gain", "wait_share", "wait_gain", "costly_share", "improving_share", "stage",
            "expected_gain_stage", "wait_share_stage", "card_unseen")
#: Distances with their own weights; the last stands for itself and every greater distance.
DISTANCES = 4
MODELS = Path(__file__).resolve().parent / "models"
FORMAT = 1
TRAINED_SEATS = 4  # the arena plays four seats: a model speaks of that table only
#: The unit a value is counted in (and a loss priced in values), by the objective it estimates.
UNITS = {"expected_settlement": "points", "win_probability": "wins"}


class ModelMissing(FileNotFoundError):
    """A rule-set has no value model file (or an unreadable one): never valued as zero."""


def features(option: DiscardOption | ClaimOption, unseen_total: int) -> tuple[float, ...]:
    """The feature vector (`FEATURES` order) of the hand `option` leaves at rest, counted on `unseen_total`."""
    total = max(unseen_total, 1)
    waiting = sum(w.unseen for w in option.waits)
    costly = sum(w.unseen for w in option.waits if w.gain <= 0)
    gained = sum(w.unseen * max(w.gain, 0) for w in option.waits)
    stage = total / 100
    wait_share = waiting / total
    if isinstance(option, DiscardOption):
        card_unseen = option.card_unseen
    else:
        card_unseen = option.follow.card_unseen if option.follow is not None else 0
    return (1.0, option.expected_gain, wait_share, gained / waiting if waiting else 0.0, costly / total,
            option.improving_unseen / total, stage, option.expected_gain * stage, wait_share * stage,
            float(card_unseen))


def bucket(distance: int) -> int:
    """The weight vector a distance uses: itself, capped at `DISTANCES - 1` (a negative distance counts as 0)."""
    return min(max(distance, 0), DISTANCES - 1)


@dataclass(frozen=True)
class ValueModel:
    """One rule-set's fitted weights (`weights[bucket(distance)]`, `FEATURES` order) and where they came from."""

    ruleset: str
    version: str
    objective: str  # "expected_settlement" or "win_probability": the unit of every value
    weights: tuple[tuple[float, ...], ...]
    meta: dict[str, Any]

    def value(self, option: DiscardOption | ClaimOption, unseen_total: int) -> float:
        """The expected settlement of the seat after `option` (a win: what it settles, `win_value`)."""
        if isinstance(option, ClaimOption) and option.kind in WIN_KINDS:
            return self.win_value(option)
        return self.score(bucket(option.distance), features(option, unseen_total))

    def score(self, where: int, row: tuple[float, ...]) -> float:
        """The value of a feature vector `row` of distance bucket `where`."""
        return sum(w * x for w, x in zip(self.weights[where], row))

    def win_value(self, option: ClaimOption) -> float:
        """A win is certain: its settlement delta, or 1 (a win) where nobody pays."""
        if self.objective != "expected_settlement":
            return 1.0
        return float(option.gain or 0)


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
    meta = {k: v for k, v in document.items() if k not in ("weights", "features")}
    return ValueModel(ruleset, str(document["version"]), str(document["objective"]), weights, meta)


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


def shown_value(model: ValueModel | None, option: DiscardOption | ClaimOption, unseen_total: int) -> float | None:
    """An option's value as answers show it (4 decimals), or None where no model applies."""
    return None if model is None else round(model.value(option, unseen_total), 4)


@cache
def load_model(ruleset: str) -> ValueModel:
    """The rule-set's shipped model (read once); ModelMissing when there is no readable, valid file."""
    path = model_path(ruleset)
    try:
        return parse(json.loads(path.read_text(encoding="utf-8")), ruleset)
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise ModelMissing(f"no valid value model for rule-set {ruleset!r} at {path}: {error}; train one with "
                           f"`python -m service learn --ruleset {ruleset}`") from error
