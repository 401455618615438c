"""Off-path calibration of the value loss the review charges, against the loss realised by playing both options:
of a discard (`--kind discards`, the default) or of an answer to a public card (`--kind claims`).

Over advice-against-advice rounds of a seed never trained on (default 7011; the loss is fitted on seed 3): the loss
the review charges for discarding another option than the advice's first one, against the loss that discard realised
when the round was played on from there, in ten deciles of prediction.

Why: the review (service/replay/decisions.py, `Pricing.price`) charges a discard the value of the advised option
minus the value of the option played (service/advice/value.py: the first option's base value minus the loss of the
option played). The on-path calibration (bench/calibration.py) compares the value of the option the advice *played*
with what the seat realised; it never checks the value of the options the advice did not play, which is exactly what
the review charges a player for. Here both options are played out and their difference is what the prediction is
judged on.

How, per rule-set, deal by deal (deal k of the seed is the arena's deal k, `duplicate.dealt`; the branches are
service/arena/branches.py's, which the loss is fitted on too):

- The round is played with the advice (`arena.advice.Advice`) in every seat by the arena's round driver
  (`duplicate.play_with`), every discard decision kept: the seat, its how-many-th discard, its view
  (`branches.played`).
- One decision is drawn at random (seeded by the rule-set, seed and deal) among the round's discards of every
  seat; the other option is drawn at random among the options whose value (as /v1/discards shows it, 4
  decimals) differs from the first option's. A decision with no such option is passed over for the next drawn
  one (a round with none gives no decision): one decision per round keeps the decisions independent.
- Both branches are played to the end of the round on the same true deal (the same hands, the same stock in the
  same order: the arena's deal k again), with the advice in every seat; the deciding seat discards the first
  option in one branch and the other option in the other. The advice and the driver draw on no random source, so
  each branch replays the round move for move up to the decision (checked: the seat sees the same hand there).
  Where the advice itself discarded its first option (not a discard it planned with a claim), the round already
  played is the first branch.
- Predicted loss: value(first) - value(other), the values as the review reads them (`Pricing`, 4 decimals): the
  `expected_loss` the review reports, never clipped. Realised loss: the deciding seat's settlement in the first
  branch minus the other's (its delta in points; cardavia-flowers, where nobody pays: won 1, else 0).

Claims (`--kind claims`): one claim decision per round is drawn (seeded likewise, on its own draw) among those
where the seat has a choice between pass and a claim: a drawer's forced take, a decision where a win is offered,
and a claim that can never take the card (`preempted`: it is worth the pass) are left out. The pair is the advice's
first answer against pass when the advice claims, and against a claim drawn at random (of another value) when it
passes. The other answer is played in its branch with the follow-up discard the claim analysis names; a claim may
still lose the card to a higher claim, and the branch realises what then happens.

The criterion (bench/criterion.py): the slope of realised on predicted loss with its 95% interval, the
squared-error gain over the best constant with its interval, predicted - realised with its interval; met when the
slope is at least 0.85 with 1 inside its interval and the gain is above 0 at 95%. The same figures for a constant
predictor (the mean predicted loss every time) are printed beside them: it fails. `bench/reliability.py` draws the
deciles of the `--json` output.

Printed per rule-set: the deciles of predicted loss (decisions, mean predicted, mean realised with its 95% normal
interval, calibrated when the mean prediction lies inside the interval or within 10% of the value range: the rule of
bench/calibration.py); the overall mean predicted and realised loss with their intervals and their paired difference;
the mean expected_loss; and the share of pairs the review prices 0 while the other option realised less than the
first (realised loss > 0: none, since an option of another value costs more than 0). `--jobs` plays deals in that
many processes: the same figures for any `--jobs`, every deal being seeded by its number.

    .venv/bin/python bench/counterfactual.py [--kind discards|claims] [--ruleset R ...] [--decisions N] [--seed S]
                                             [--jobs J] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # run from a checkout: measure this tree's engine

from bench import criterion  # noqa: E402
from bench.calibration import deciles, interval, one, positive, summary  # noqa: E402
from service.arena.branches import answer_key, drawn, first_found, has_choice, paying  # noqa: E402
from service.arena.seat import analyse  # noqa: E402
from service.replay.decisions import Pricing  # noqa: E402
from service.rules.registry import all_rulesets  # noqa: E402


def pricing_of(ruleset: str, view: Any) -> Pricing:
    """How the review prices this view's options; an error where no value model applies."""
    pricing = Pricing.of(view.ruleset, view.options, view.seats)
    if pricing.model is None:
        raise RuntimeError(f"{ruleset}: no value model applies (see service/advice/value.py)")
    return pricing


def pair(price: dict[str, Any], first: float, other: float) -> dict[str, Any]:
    """A pair's figures: the values as the review reads them, the loss it charges (never clipped) and the one the
    two branches realised."""
    return {"first_value": price["best_value"], "other_value": price["value"],
            "predicted": price["best_value"] - price["value"], "expected_loss": price["expected_loss"],
            "agreed": price["agreed"], "first": first, "other": other, "realised": first - other}


def decide(ruleset: str, seed: int, deal: int) -> dict[str, Any]:
    """Deal `deal`'s drawn decision, both branches played: the record of the pair (`predicted` None when the round
    has no discard with an option of another value)."""
    round_ = drawn(ruleset, seed, deal, "counterfactual")
    record: dict[str, Any] = {"deal": deal, "predicted": None}
    for passed, decision in enumerate(round_.decisions):
        seat, at, view, discarded = decision
        analysis = analyse(view)
        pricing = pricing_of(ruleset, view)
        first = analysis.options[0]
        first_value = pricing.value(first)
        rest = [o for o in analysis.options[1:] if pricing.value(o) != first_value]
        if not rest:
            continue
        other = round_.rng.choice(rest)
        record.update(seat=seat, discard=at, passed=passed, options=len(analysis.options), rank=other.rank,
                      first_card=first.card, other_card=other.card,
                      breaks_wait=first.distance <= 0 < other.distance, followed=discarded != first.card,
                      **pair(pricing.price(first, other, analysis.unseen_total),
                             round_.settled(decision, first.card), round_.settled(decision, other.card)))
        break
    return record


def decide_claim(ruleset: str, seed: int, deal: int) -> dict[str, Any]:
    """Deal `deal`'s drawn claim decision, both answers played: the record of the pair (`predicted` None when the
    round has no claim decision with a choice between pass and a claim of another value)."""
    round_ = drawn(ruleset, seed, deal, "counterfactual")
    record: dict[str, Any] = {"deal": deal, "predicted": None}
    for passed, decision in enumerate(round_.claims):
        seat, number, view, card, analysis, given = decision
        if not has_choice(analysis):
            continue
        pricing = pricing_of(ruleset, view)
        first = analysis.options[0]
        first_value = pricing.value(first)
        rest = [o for o in analysis.options[1:] if not o.preempted and pricing.value(o) != first_value
                and (o.kind == "pass") != (first.kind == "pass")]
        if not rest:
            continue
        other = round_.claim_rng.choice(rest)
        record.update(seat=seat, claim=number, passed=passed, options=len(analysis.options), rank=other.rank,
                      first_key=answer_key(first), other_key=answer_key(other),
                      first_kind=first.kind, other_kind=other.kind, followed=given != answer_key(first),
                      **pair(pricing.price(first, other, analysis.unseen_total),
                             round_.answered(decision, answer_key(first)),
                             round_.answered(decision, answer_key(other))))
        break
    return record


KINDS = {"discards": decide, "claims": decide_claim}


def _decide(job: tuple[str, str, int, int]) -> dict[str, Any]:
    kind, *rest = job
    return KINDS[kind](*rest)


def records_of(ruleset: str, decisions: int, seed: int, jobs: int = 1,
               kind: str = "discards") -> tuple[list[dict[str, Any]], int]:
    """The records of the first `decisions` deals of `seed` that give a decision of `kind` (deals in order: the
    same for any `jobs`), and how many deals were played."""
    return first_found(_decide, lambda d: (kind, ruleset, seed, d), jobs, decisions,
                       lambda record: record["predicted"] is not None)


def figures(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Deciles of predicted loss, the overall means and the share of zero-priced costly moves."""
    pairs = [(r["predicted"], r["realised"]) for r in records]
    zero = [r for r in records if r["expected_loss"] == 0]
    return {"deciles": deciles(pairs), **summary(pairs),
            "expected_loss": interval([r["expected_loss"] for r in records]),
            "priced_zero": len(zero) / len(records),
            "priced_zero_costly": sum(r["realised"] > 0 for r in zero) / len(records),
            "priced_zero_realised": interval([r["realised"] for r in zero]) if zero else None,
            "followed": sum(r["followed"] for r in records),
            "criterion": criterion.judged(pairs), "constant": criterion.constant(pairs),
            "constant_deciles_calibrated": sum(r["calibrated"] for r in deciles(
                [(statistics.fmean(p for p, _ in pairs), r) for _, r in pairs]))}


def by_answer(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Groups of pairs, each with its mean predicted and realised loss and its slope. Claims: where the advice
    claims (against pass) and where it passes (against a claim). Discards: a waiting hand kept against one broken,
    and the smaller and the larger half of the predicted losses."""
    if "first_kind" in records[0]:
        groups = (("advice claims", [r for r in records if r["first_kind"] != "pass"]),
                  ("advice passes", [r for r in records if r["first_kind"] == "pass"]))
    else:
        middle = statistics.median(r["predicted"] for r in records)
        groups = (("a wait kept against one broken", [r for r in records if r["breaks_wait"]]),
                  ("the smaller half of predictions", [r for r in records if r["predicted"] < middle]),
                  ("the larger half of predictions", [r for r in records if r["predicted"] >= middle]))
    out = {}
    for name, chosen in groups:
        if len(chosen) > 2:
            pairs = [(r["predicted"], r["realised"]) for r in chosen]
            out[name] = {"decisions": len(chosen), **summary(pairs), "slope": criterion.slope(pairs)}
    return out


def table(ruleset: str, out: dict[str, Any]) -> str:
    """One rule-set's figures as text."""
    rows = out["deciles"]
    calibrated = sum(r["calibrated"] for r in rows)
    lines = [f"{ruleset} ({out['kind']}): {out['decisions']} decisions of {out['rounds']} rounds, seed {out['seed']} "
             f"({out['seconds']} s); loss in {out['unit']}",
             f"{'decile':>6} {'n':>6} {'predicted':>10} {'realised':>10}  {'95% interval':<22} calibrated"]
    for i, r in enumerate(rows, 1):
        how = "inside" if r["inside"] else ("within 10%" if r["near"] else "no")
        lines.append(f"{i:>6} {r['decisions']:>6} {r['predicted']:>+10.4f} {r['realised']:>+10.4f}  "
                     f"[{r['low']:+.4f}, {r['high']:+.4f}]".ljust(60) + f" {how}")
    lines.append(f"{calibrated} of {len(rows)} deciles calibrated")
    lines.append(f"loss: predicted {one(out['predicted'])}; realised {one(out['realised'])}; "
                 f"difference {one(out['difference'])}")
    zero = out["priced_zero_realised"]
    lines.append(f"expected_loss (as reviewed) {one(out['expected_loss'])}; priced 0: "
                 f"{out['priced_zero']:.1%} of pairs (realised {one(zero) if zero else '-'}); priced 0 yet costly "
                 f"(realised > 0): {out['priced_zero_costly']:.1%}")
    for name, part in out.get("answers", {}).items():
        lines.append(f"{name} ({part['decisions']}): predicted {one(part['predicted'])}; realised "
                     f"{one(part['realised'])}; difference {one(part['difference'])}; slope "
                     f"{criterion.one(part['slope'])}")
    lines += criterion.lines("the value", out["criterion"])
    lines += criterion.lines("a constant (the mean prediction)", out["constant"])
    lines.append(f"(the constant passes {out['constant_deciles_calibrated']} of {len(rows)} deciles by the old "
                 f"rule: inside, or within 10% of the range)")
    return "\n".join(lines)


def main() -> int:
    """Measure every asked rule-set and print the tables (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", action="append", help="rule-set id (repeatable; default: every one)")
    parser.add_argument("--decisions", type=positive, default=3000, help="pairs to play out, one per round")
    parser.add_argument("--seed", type=int, default=7011, help="arena seed of the deals (never trained on)")
    parser.add_argument("--jobs", type=positive, default=1, help="processes playing deals side by side")
    parser.add_argument("--kind", choices=sorted(KINDS), default="discards", help="the decisions judged")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    out: dict[str, Any] = {}
    for ruleset in args.ruleset or [r.id for r in all_rulesets()]:
        started = time.monotonic()
        records, rounds = records_of(ruleset, args.decisions, args.seed, args.jobs, args.kind)
        if len(records) < 3:
            raise SystemExit(f"{ruleset}: {len(records)} {args.kind} decisions in {rounds} rounds: too few to judge")
        unit = "points" if paying(ruleset) else "wins"
        out[ruleset] = {"kind": args.kind, "seed": args.seed, "rounds": rounds, "decisions": len(records),
                        "unit": unit, **figures(records), "seconds": round(time.monotonic() - started, 1)}
        out[ruleset]["answers"] = by_answer(records)
        if not args.json:
            print(table(ruleset, out[ruleset]), end="\n\n", flush=True)
    if args.json:
        print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
