"""Schemas of the jobs' results, as `GET /v1/jobs/{id}` shows them once finished: the deep search
(workers/searches.py, service/search/montecarlo.py) and the replay analysis (workers/replays.py,
service/replay/summary.py, reviewers.py, decisions.py). They document the answers; the workers build them."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields

from ...search.shaping import DEALINGS
from ..audits.schemas import OutcomeSchema
from ..common import READER_LANGUAGE, EchoSchema, card_field

OBJECTIVES = ["expected_settlement", "win_probability"]
STOPS = ["samples", "time_budget", "leader_clear"]
#: The unit of a decision's `expected_loss`: a value model's (points; wins where nobody pays) or, where no model
#: applies, the one-card expected gain; totals over decisions of different units are `mixed`.
LOSS_UNITS = ["points", "wins", "expected_gain"]
TOTAL_UNITS = [*LOSS_UNITS, "mixed"]
LOSS = ("exact mode: the advised option's value minus the value of the option played (never clipped; the values "
        "never rise along the ranking, so it is never negative, and more than 0 unless `agreed`), in "
        "`loss_unit` (where no value model applies: the difference of their one-card expected gains); deep mode, a "
        "discard: the search's best candidate's objective minus the actual discard's")


def loss_unit_field() -> fields.String:
    """A decision's `loss_unit` (its own enum list: the spec then repeats it rather than aliasing one list)."""
    return fields.String(required=True, metadata={"enum": list(LOSS_UNITS)})


VALUE = ("the option's value (docs/advice.md#value), in the rule-set's unit, as /v1/discards and /v1/claims show "
         "it; null where no value model applies (other options, 2-3 seats)")


class IntervalSchema(ma.Schema):
    """An estimate and its confidence interval (at the search's `confidence`)."""

    mean = fields.Float(required=True)
    low = fields.Float(required=True)
    high = fields.Float(required=True)


class SearchCandidateSchema(ma.Schema):
    """What the playouts of one candidate discard say."""

    card = card_field(required=True)
    exact_rank = fields.Integer(required=True, allow_none=True, metadata={
        "description": "its rank in the exact ranking (null: not a legal discard the ranking lists)"})
    playouts = fields.Integer(required=True)
    win_probability = fields.Nested(IntervalSchema, required=True)
    expected_settlement = fields.Nested(IntervalSchema, required=True, metadata={"description": "points"})
    pay_probability = fields.Nested(IntervalSchema, required=True)
    mean_winning_points = fields.Float(required=True, allow_none=True, metadata={"description": "null: no win"})
    eliminated_after = fields.Integer(required=True, allow_none=True, metadata={
        "description": "deals played when it was dropped as clearly behind; null: still in play"})
    versus_first = fields.Nested(IntervalSchema, required=True, allow_none=True, metadata={
        "description": "its objective minus the first candidate's, deal by deal (null for the first)"})


class SearchTimingSchema(ma.Schema):
    """What the search cost (the only part that differs between equal searches)."""

    elapsed_seconds = fields.Float(required=True)
    playouts_per_second = fields.Float(required=True)


class SearchResultSchema(EchoSchema):
    """The result of a finished search job (`kind` search): the candidates best first, why the search stopped,
    and what it cost."""

    objective = fields.String(required=True, metadata={"enum": OBJECTIVES})
    stopped = fields.String(required=True, metadata={"enum": STOPS})
    best = card_field(required=True)
    candidates = fields.List(fields.Nested(SearchCandidateSchema), required=True)
    deals = fields.Integer(required=True)
    playouts = fields.Integer(required=True)
    samples = fields.Integer(required=True)
    seed = fields.Integer(required=True)
    confidence = fields.Float(required=True)
    min_samples = fields.Integer(required=True)
    check_every = fields.Integer(required=True)
    policies = fields.Dict(keys=fields.String(), values=fields.String(), required=True, metadata={
        "description": "the policy each kind of player follows in the playouts"})
    dealing = fields.String(metadata={"enum": list(DEALINGS), "description": "how the other seats' hands were "
                                      "dealt (absent from results of versions before it was chosen: uniform)"})
    analyses = fields.Integer(required=True, metadata={"description": "distinct player hands analysed exactly"})
    timing = fields.Nested(SearchTimingSchema, required=True)


class LogViolationSchema(ma.Schema):
    """One illegal move of a replayed log: the event index (null for the result), the seat, a stable code."""

    event = fields.Integer(required=True, allow_none=True)
    seat = fields.Integer(required=True, allow_none=True)
    code = fields.String(required=True)
    message = fields.String(required=True)


class RankedDiscardSchema(ma.Schema):
    """One discard of the exact ranking at a decision."""

    card = card_field(required=True)
    rank = fields.Integer(required=True)
    distance = fields.Integer(required=True)
    expected_gain = fields.Float(required=True)
    value = fields.Float(required=True, allow_none=True, metadata={"description": VALUE})


class DeepRatingSchema(ma.Schema):
    """Deep review: the search of the decision's position over the best exact candidates and the actual discard."""

    objective = fields.String(required=True, metadata={"enum": OBJECTIVES})
    best = card_field(required=True)
    values = fields.Dict(keys=fields.String(), values=fields.Float(), required=True, metadata={
        "description": "card code -> the objective's mean"})
    expected_loss = fields.Float(required=True)
    deals = fields.Integer(required=True)
    stopped = fields.String(required=True, metadata={"enum": STOPS})


class DiscardDecisionSchema(ma.Schema):
    """One discard of a seat, rated against the exact ranking (and, deep, a search)."""

    event = fields.Integer(required=True)
    seat = fields.Integer(required=True)
    card = card_field(required=True)
    rank = fields.Integer(required=True)
    best = fields.List(card_field(), required=True, metadata={"description": "the discards ranked 1"})
    agreed = fields.Boolean(required=True, metadata={
        "description": "worth the advised discard's value (equal to 4 decimals): then `expected_loss` is 0"})
    options = fields.Integer(required=True)
    distance = fields.Integer(required=True)
    best_distance = fields.Integer(required=True)
    value = fields.Float(required=True, allow_none=True, metadata={"description": f"of the discard made: {VALUE}"})
    best_value = fields.Float(required=True, allow_none=True, metadata={
        "description": "the value of the advised discard (the first ranked)"})
    expected_loss = fields.Float(required=True, metadata={"description": LOSS})
    loss_unit = loss_unit_field()
    reason = fields.String(required=True, metadata={"description": READER_LANGUAGE})
    deep = fields.Nested(DeepRatingSchema, required=True, allow_none=True)
    ranking = fields.List(fields.Nested(RankedDiscardSchema), required=True)


class RankedAnswerSchema(ma.Schema):
    """One answer of the claim analysis at a decision: pass, a claim, or a win."""

    kind = fields.String(required=True)
    cards = fields.List(card_field(), required=True)
    rank = fields.Integer(required=True)
    distance = fields.Integer(required=True)
    expected_gain = fields.Float(required=True)
    gain = fields.Integer(required=True, allow_none=True)
    value = fields.Float(required=True, allow_none=True, metadata={"description": VALUE})


class ClaimDecisionSchema(ma.Schema):
    """A seat's answer to a public card on which it had a legal claim or win, rated against the claim analysis."""

    event = fields.Integer(required=True)
    seat = fields.Integer(required=True)
    card = card_field(required=True)
    role = fields.String(required=True)
    answer = fields.String(required=True)
    cards = fields.List(card_field(), required=True)
    rank = fields.Integer(required=True)
    best = fields.String(required=True)
    best_cards = fields.List(card_field(), required=True)
    agreed = fields.Boolean(required=True, metadata={
        "description": "worth the advised option's value (equal to 4 decimals): then `expected_loss` is 0"})
    options = fields.Integer(required=True)
    value = fields.Float(required=True, allow_none=True, metadata={"description": f"of the answer made: {VALUE}"})
    best_value = fields.Float(required=True, allow_none=True, metadata={"description": "the value of the advice"})
    expected_loss = fields.Float(required=True, metadata={"description": LOSS})
    loss_unit = loss_unit_field()
    reason = fields.String(required=True, metadata={"description": READER_LANGUAGE})
    ranking = fields.List(fields.Nested(RankedAnswerSchema), required=True)


class DecisionTotalsSchema(ma.Schema):
    """Rated decisions: their count, agreements, agreement rate (null: none), total and mean expected loss, and
    the unit of their losses."""

    decisions = fields.Integer(required=True)
    agreed = fields.Integer(required=True)
    agreement_rate = fields.Float(required=True, allow_none=True)
    expected_loss = fields.Float(required=True, metadata={"description": "the sum of the decisions' losses"})
    mean_loss = fields.Float(required=True, metadata={
        "description": "expected_loss / decisions, 4 decimals; 0 without decisions"})
    loss_unit = fields.String(required=True, allow_none=True, metadata={"enum": TOTAL_UNITS, "description": (
        "the unit of the losses (without decisions: the unit they would have); `mixed` when they differ (a deep "
        "review's discards beside claims where no value model applies, or a player's games of different units); "
        "null only in a player's totals when none of his games was reviewed")})


class CostlyDiscardSchema(ma.Schema):
    """One of the costliest discards of a seat."""

    event = fields.Integer(required=True)
    card = card_field(required=True)
    best = fields.List(card_field(), required=True)
    expected_loss = fields.Float(required=True)
    loss_unit = loss_unit_field()


class CostlyAnswerSchema(ma.Schema):
    """One of the costliest answers of a seat to a public card."""

    event = fields.Integer(required=True)
    card = card_field(required=True)
    answer = fields.String(required=True)
    best = fields.String(required=True)
    expected_loss = fields.Float(required=True)
    loss_unit = loss_unit_field()


class ClaimReviewSchema(DecisionTotalsSchema):
    """A seat's rated claim decisions and the costliest of them."""

    costliest = fields.List(fields.Nested(CostlyAnswerSchema), required=True)


class PassedUpSchema(ma.Schema):
    """A public card on which a seat made no claim though it had legal ones."""

    event = fields.Integer(required=True)
    passed = fields.String(required=True, metadata={"enum": ["win", "claim"]})
    claims = fields.List(fields.String(), required=True, metadata={"description": "the legal claim kinds"})


class SeatReviewSchema(DecisionTotalsSchema):
    """A seat's review: its discards (with the costliest), its claim decisions, both together, what it passed."""

    costliest = fields.List(fields.Nested(CostlyDiscardSchema), required=True)
    claims = fields.Nested(ClaimReviewSchema, required=True)
    overall = fields.Nested(DecisionTotalsSchema, required=True)
    passed_wins = fields.List(fields.Integer(), required=True)
    passed_claims = fields.List(fields.Integer(), required=True)
    passes = fields.List(fields.Nested(PassedUpSchema), required=True)


class SeatReportSchema(ma.Schema):
    """One seat of a replayed log: its claims, what it passed up, violations, result and (reviewed) decisions."""

    seat = fields.Integer(required=True)
    player = fields.String(required=True)
    claims = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True, metadata={
        "description": "claim, capture or win kind -> how many"})
    claims_made = fields.Integer(required=True)
    wins_passed_up = fields.Integer(required=True)
    claims_passed_up = fields.Integer(required=True)
    violations = fields.Integer(required=True)
    delta = fields.Integer(required=True)
    won = fields.Boolean(required=True)
    review = fields.Nested(SeatReviewSchema, required=True, allow_none=True, metadata={
        "description": "null when the review mode is none"})
    decisions = fields.List(fields.Nested(DiscardDecisionSchema), required=True, allow_none=True)
    claim_decisions = fields.List(fields.Nested(ClaimDecisionSchema), required=True, allow_none=True)


class ReplayLogSchema(ma.Schema):
    """One log of a replay batch: its audit and its seats."""

    index = fields.Integer(required=True)
    valid = fields.Boolean(required=True)
    recorded_result_matches = fields.Boolean(required=True, allow_none=True)
    violations = fields.List(fields.Nested(LogViolationSchema), required=True)
    outcome = fields.Nested(OutcomeSchema, required=True)
    seats = fields.List(fields.Nested(SeatReportSchema), required=True)


class CostlyDecisionSchema(ma.Schema):
    """One of a player's costliest decisions across the batch: a discard or an answer to a public card."""

    game = fields.Integer(required=True, metadata={"description": "the `index` of the log it was made in"})
    kind = fields.String(required=True, metadata={"enum": ["discard", "claim"]})
    event = fields.Integer(required=True)
    card = card_field(required=True)
    answer = fields.String(metadata={"description": "a claim decision: what he answered"})
    best = fields.Raw(required=True, metadata={
        "description": "a discard: the advised cards (a list); a claim decision: the advised answer"})
    expected_loss = fields.Float(required=True)
    loss_unit = loss_unit_field()


class PlayerTotalsSchema(DecisionTotalsSchema):
    """One player's totals across the batch: games, points and their running total, wins, violations, and his
    rated discards, claim decisions and both together."""

    games = fields.Integer(required=True)
    points = fields.Integer(required=True)
    wins = fields.Integer(required=True)
    violations = fields.Integer(required=True)
    trajectory = fields.List(fields.Integer(), required=True, metadata={
        "description": "his running total after each of his games"})
    claims = fields.Nested(DecisionTotalsSchema, required=True)
    overall = fields.Nested(DecisionTotalsSchema, required=True)
    costliest = fields.List(fields.Nested(CostlyDecisionSchema), required=True, metadata={
        "description": "his five costliest decisions across the batch, discards and claims together, costliest "
                       "first (those that cost)"})


class ReplaySummarySchema(ma.Schema):
    """The batch across games."""

    games = fields.Integer(required=True)
    valid = fields.Integer(required=True)
    outcomes = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True, metadata={
        "description": "outcome type -> logs"})
    players = fields.Dict(keys=fields.String(), values=fields.Nested(PlayerTotalsSchema), required=True)


class LogsPageSchema(ma.Schema):
    """Which per-log entries a result paged with `logs_limit` holds."""

    offset = fields.Integer(required=True)
    limit = fields.Integer(required=True)
    total = fields.Integer(required=True)


class ReplayResultSchema(ma.Schema):
    """The result of a finished replay job (`kind` replay): every log's entry, the review mode and one summary."""

    logs = fields.List(fields.Nested(ReplayLogSchema), required=True)
    review = fields.String(required=True, metadata={"enum": ["none", "exact", "deep"]})
    engine_version = fields.String(required=True, metadata={"description": (
        "the engine's version, the review's and every value model that priced a log of the batch, joined by `+` "
        "(e.g. `0.7.0+review-3+value-3/bga-taiwan/seed1-deals4000/loss/seed3-decisions5000/claims/"
        "seed5-decisions5000`)")})
    summary = fields.Nested(ReplaySummarySchema, required=True)
    logs_page = fields.Nested(LogsPageSchema, metadata={"description": "with `logs_limit` only"})


#: The result schema of each job kind (`Job.kind`).
RESULTS = {"search": SearchResultSchema, "replay": ReplayResultSchema}
