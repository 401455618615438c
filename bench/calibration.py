"""Calibration of the value model (docs/advice.md#value) or of the deep search (docs/advice.md, "Deep search"):
over advice-against-advice rounds of a seed never trained on (default 7003), what was predicted for the option a
seat played against the settlement that seat realised in that round, in ten deciles of prediction.

Value model (the default): the value the shipped model predicted for every discard and every answer to a public
card that is not a win.

Search (`--search`): one discard decision per round, drawn at random (seeded by the seed and the deal) among the
round's discards of every seat; the position that seat saw is searched (`service/search/montecarlo.py`) with the
advice's discard as the one candidate, `--samples` deals within `--budget` seconds, and its prediction is the
search's objective for it: the expected settlement, or the win probability where nobody pays (cardavia-flowers).
One decision per round keeps the decisions independent (a round won before any discard gives none). Besides the
deciles: the mean prediction against the mean realised, each with its 95% interval, and their paired difference.
`--pairs FILE` keeps every decision in a JSON-lines file (gzip-compressed when FILE ends in .gz) as it is found,
and a later run reads back the deals already there: a stopped run resumes, and a run over a kept file searches
nothing, leaves the file as it was and redraws the figures in seconds. The searched decisions behind the
full-size figures of docs/advice.md are kept in bench/pairs/ (its README lists them; under 30 bytes a decision
compressed).

Where a search's prediction goes wrong (`--truth`): one discard per advice round again (drawn among the round
log's discards), and the mean outcome of the playouts of the advice's discard on three kinds of deal: the true
deal (every other seat's true hand and the true stock: one playout, as the playouts draw on no random source), the
true hands with the stock reshuffled from the cards left (`--samples` times) and the search's own sampled deals
(`--samples`, dealt as `--dealing` says: shaped by the play so far, the search's default, or uniform), each against
what the seat realised. The first two differ from the realised only by the playouts'
policies, the last also by dealing the other seats' hands at random. `--steps` adds deals shaped with other swaps
per turn than the rule-set's `shaping_swaps` (deal i from the random source of the search's deal i): how the
rule-sets' rates were tuned
(docs/advice.md, "Shaped deals"). Every kind is also given minus the true hands with the stock reshuffled, a paired
difference free of most of the round's luck.

Each decile: its decisions, mean prediction, realised mean with a 95% normal interval (value model: clustered by
round, since the decisions of one round share its settlements and are not independent), and whether the mean
prediction lies inside that interval or within 10% of the value range (the mean prediction of the top decile
minus that of the bottom one).

    .venv/bin/python bench/calibration.py [--ruleset R ...] [--decisions N] [--seed S] [--json]
    .venv/bin/python bench/calibration.py --search [--ruleset R ...] [--decisions N] [--samples S] [--budget B]
                                          [--jobs J] [--pairs FILE]
    .venv/bin/python bench/calibration.py --truth [--ruleset R ...] [--decisions N] [--samples S] [--steps 4,8,12]
    .venv/bin/python bench/calibration.py --kept [DIR]
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import json
import multiprocessing
import os
import random
import statistics
import sys
import tempfile
import time
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # run from a checkout: measure this tree's engine

from service.advice.value import load_model  # noqa: E402
from service.arena.advice import Advice  # noqa: E402
from service.arena.duplicate import SEATS, Arena, play_round, play_with, seat_results  # noqa: E402
from service.arena.learn import Decisions, play_recorded  # noqa: E402
from service.replay.decisions import SeatView  # noqa: E402
from service.rules.errors import DomainError  # noqa: E402
from service.rules.registry import all_rulesets, get_ruleset  # noqa: E402
from service.search.deal import Deal, Outcome, deal_rng  # noqa: E402
from service.search.families import deal_for, play, table_of  # noqa: E402
from service.search.montecarlo import search  # noqa: E402
from service.search.position import Position, position_of  # noqa: E402
from service.search.shaping import DEALINGS  # noqa: E402
from tests.testbed.replayed import drawn_position  # noqa: E402

DECILES = 10
Z = 1.96
TOLERANCE = 0.10


def deciles(pairs: list[tuple[float, float]], groups: int = DECILES,
            rounds: Sequence[int] | None = None) -> list[dict[str, Any]]:
    """(prediction, realised) pairs sorted by prediction and cut into `groups` groups of (nearly) equal size:
    each group's size, mean prediction, realised mean and its 95% interval, and whether it is calibrated. Fewer
    pairs than groups give one group per pair; none give no group.

    `rounds` names the round each pair came from. The decisions of one round share its settlement (a seat's
    decisions all carry the same target), so they are not independent: the interval is then clustered by round
    (the variance of the mean is the sum over rounds of the squared sum of that round's deviations, over n^2,
    times G / (G - 1) for G rounds). Without `rounds` every pair is its own round, which is the usual normal
    interval (the sample standard deviation over sqrt(n))."""
    order = sorted(range(len(pairs)), key=lambda i: pairs[i][0])
    n = len(order)
    groups = min(groups, n)
    if not groups:
        return []
    cuts = [round(i * n / groups) for i in range(groups + 1)]
    rows = []
    for low, high in zip(cuts, cuts[1:]):
        part = order[low:high]
        predicted = statistics.fmean(pairs[i][0] for i in part)
        mean = statistics.fmean(pairs[i][1] for i in part)
        deviations: dict[int, float] = {}
        for i in part:
            key = rounds[i] if rounds is not None else i
            deviations[key] = deviations.get(key, 0.0) + pairs[i][1] - mean
        clusters = len(deviations)
        variance = (sum(d * d for d in deviations.values()) / len(part) ** 2 * clusters / (clusters - 1)
                    if clusters > 1 else 0.0)
        half = Z * variance ** 0.5
        rows.append({"decisions": len(part), "rounds": clusters, "predicted": predicted, "realised": mean,
                     "low": mean - half, "high": mean + half})
    span = rows[-1]["predicted"] - rows[0]["predicted"]
    for row in rows:
        row["inside"] = row["low"] <= row["predicted"] <= row["high"]
        row["near"] = abs(row["predicted"] - row["realised"]) <= TOLERANCE * abs(span)
        row["calibrated"] = row["inside"] or row["near"]
    return rows


def pairs_of(ruleset: str, decisions: int, seed: int) -> tuple[list[tuple[float, float]], list[int]]:
    """(prediction, realised) of at least `decisions` decisions of advice rounds of `seed`, and the round (deal)
    each came from. The prediction is the value of the option played as the answers show it: the advice plays its
    first option, worth its base value kept inside the objective's range (service/advice/value.py)."""
    model = load_model(ruleset)
    found = Decisions()
    rounds: list[int] = []
    deal = 0
    while len(found.targets) < decisions:
        play_recorded(ruleset, seed, deal, found)
        rounds += [deal] * (len(found.targets) - len(rounds))
        deal += 1
    predicted = [model.bounded(model.score(b, row)) for b, row in zip(found.buckets, found.rows)]
    return list(zip(predicted, found.targets)), rounds


class Watched(Advice):
    """The advice, keeping every discard decision: the seat's view and the card discarded."""

    def __init__(self, into: list[tuple[SeatView, int]]) -> None:
        super().__init__()
        self.into = into

    def discard(self, view: SeatView) -> int:
        card = super().discard(view)
        self.into.append((view, card))
        return card


def interval(values: Sequence[float]) -> dict[str, float]:
    """Mean and 95% normal interval."""
    mean = statistics.fmean(values)
    half = Z * statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else 0.0
    return {"mean": mean, "low": mean - half, "high": mean + half}


def searchable(seen: list[tuple[SeatView, int]]) -> tuple[int, tuple[SeatView, int, Position] | None]:
    """The first decision whose position a search takes, with that position, and how many before it none does
    (e.g. another seat with every card in exposed melds: no search request can say that)."""
    for skipped, (view, card) in enumerate(seen):
        try:
            return skipped, (view, card, position_of(view.ruleset, view.options, view.hand, view.exposed,
                                                     view.visible, view.seats, view.seat, view.opponents,
                                                     view.stock_remaining, view.history))
        except DomainError:
            continue
    return len(seen), None


def search_one(ruleset: str, seed: int, deal: int, samples: int, budget: float, dealing: str) -> dict[str, Any]:
    """Deal `deal`'s drawn discard decision, searched: its prediction and realised settlement (None where the round
    has no decision a search takes), what the search cost and how many drawn decisions no search took."""
    rs = get_ruleset(ruleset)
    arena = Arena(ruleset, ("advice",) * SEATS, seed)
    objective = rs.objective(rs.resolve_options({}))
    seen: list[tuple[SeatView, int]] = []
    log = play_with(arena, deal, [Watched(seen) for _ in range(SEATS)])
    results = seat_results(log, ["advice"] * SEATS)
    random.Random(f"calibration/search/{ruleset}/{seed}/{deal}").shuffle(seen)
    skipped, drawn = searchable(seen)
    record: dict[str, Any] = {"ruleset": ruleset, "seed": seed, "deal": deal, "samples": samples, "budget": budget,
                              "dealing": dealing, "skipped": skipped, "predicted": None, "realised": None,
                              "deals": 0, "playouts": 0, "seconds": 0.0}
    if drawn is None:
        return record
    view, card, position = drawn
    found = search(position, [card], samples=samples, time_budget=budget, seed=deal, min_samples=samples,
                   dealing=dealing)
    row = found.candidates[0]
    if objective == "expected_settlement":
        record.update(predicted=row.expected_settlement.mean, realised=float(results[view.seat].delta))
    else:
        record.update(predicted=row.win_probability.mean, realised=float(results[view.seat].won))
    record.update(deals=found.deals, playouts=found.playouts, seconds=found.elapsed)
    return record


def _search_one(job: tuple[str, int, int, int, float, str]) -> dict[str, Any]:
    return search_one(*job)


def records_of(store: Path) -> tuple[list[dict[str, Any]], bool]:
    """The records of a JSON-lines file (gzip-compressed when its name ends in .gz) and whether it was cut short
    (a killed run: a last line or a compressed stream that ends early). What was read before the cut is kept."""
    found: list[dict[str, Any]] = []
    cut = False
    try:
        with (gzip.open(store, "rt") if store.suffix == ".gz" else store.open()) as lines:
            for line in lines:
                try:
                    record = json.loads(line)
                except json.JSONDecodeError:
                    cut = True
                    continue
                if isinstance(record, dict):
                    found.append(record)
    except (EOFError, gzip.BadGzipFile, zlib.error):
        cut = True
    return found, cut


def kept(store: Path | None, ruleset: str, seed: int, samples: int, budget: float, dealing: str
         ) -> dict[int, dict[str, Any]]:
    """The decisions an earlier run already wrote to `store` with the same rule-set, seed, samples, budget and
    dealing, by deal (a line cut short by a killed run is dropped: that deal is searched again)."""
    if store is None or not store.exists():
        return {}
    same = {"ruleset": ruleset, "seed": seed, "samples": samples, "budget": budget, "dealing": dealing}
    return {int(r["deal"]): r for r in records_of(store)[0] if all(r.get(k) == v for k, v in same.items())}


def appending(store: Path) -> IO[str]:
    """`store` opened to append records. A compressed file that a killed run cut short is first rewritten with
    the records it holds (a new compressed stream cannot follow a broken one); a plain file needs no repair, as
    `kept` skips a broken line."""
    if store.suffix != ".gz":
        return store.open("a")
    if store.exists():
        records, cut = records_of(store)
        if cut:
            repaired = store.with_name(store.name + ".tmp")
            with gzip.open(repaired, "wt") as out:
                out.writelines(json.dumps(r) + "\n" for r in records)
            os.replace(repaired, store)
    return gzip.open(store, "at")


def search_pairs(ruleset: str, decisions: int, seed: int, samples: int, budget: float, dealing: str = "shaped",
                 jobs: int = 1, store: Path | None = None) -> tuple[list[tuple[float, float]], dict[str, Any]]:
    """(search prediction, realised) of one discard decision in each of `decisions` advice rounds of `seed`
    (the k-th decision is deal k's); what the searches cost and how many drawn decisions no search takes (another
    drawn in their place). `jobs` processes search deals side by side; with `store`, every decision is appended
    to that JSON-lines file as it is found, and the deals an earlier run wrote there are not searched again, so a
    long calibration can be stopped and resumed. Each search is seeded by its deal: the same decisions whatever
    `jobs` is, as long as no search meets `budget`."""
    records = {deal: r for deal, r in kept(store, ruleset, seed, samples, budget, dealing).items() if deal < decisions}
    todo = [(ruleset, seed, deal, samples, budget, dealing) for deal in range(decisions) if deal not in records]
    with contextlib.ExitStack() as stack:
        # opened only with rounds to search: a redraw from a complete file leaves it byte for byte as it was
        out = stack.enter_context(appending(store)) if store is not None and todo else None
        pool = stack.enter_context(multiprocessing.Pool(jobs)) if jobs > 1 and len(todo) > 1 else None
        for record in (pool.imap_unordered(_search_one, todo) if pool is not None else map(_search_one, todo)):
            records[record["deal"]] = record
            if out is not None:
                out.write(json.dumps(record) + "\n")
                out.flush()
    done = [records[deal] for deal in sorted(records) if records[deal]["predicted"] is not None]
    pairs = [(float(r["predicted"]), float(r["realised"])) for r in done]
    seconds = sum(r["seconds"] for r in done)
    cost = {"deals_per_search": sum(r["deals"] for r in done) / len(pairs), "seconds": round(seconds, 1),
            "playouts_per_second": round(sum(r["playouts"] for r in done) / seconds) if seconds else 0,
            "skipped": sum(r["skipped"] for r in records.values()), "resumed": decisions - len(todo)}
    return pairs, cost


TRUTHS = ("true deal", "true hands, stock reshuffled", "sampled deals (the search's)")


def truth_rows(ruleset: str, decisions: int, seed: int, samples: int, dealing: str = "shaped",
               steps: Sequence[float] = ()) -> list[tuple[float, ...]]:
    """Per round of `decisions` advice rounds of `seed`, one discard: the mean playout outcome of the advice's
    discard on each kind of deal of `TRUTHS`, then on deals shaped with each of `steps` swaps per turn (the
    tuning of `shaping_swaps`), then the seat's realised settlement."""
    rs = get_ruleset(ruleset)
    arena = Arena(ruleset, ("advice",) * SEATS, seed)
    paying = rs.objective(rs.resolve_options({})) == "expected_settlement"

    def value(outcome: Outcome) -> float:
        return float(outcome.delta) if paying else float(outcome.won)

    rows = []
    for deal in range(decisions):
        log = play_round(arena, deal, 0)
        results = seat_results(log, ["advice"] * SEATS)
        drawn = drawn_position(log, f"calibration/truth/{ruleset}/{seed}/{deal}")
        if drawn is None:
            continue  # no discard, or a position no search request can state
        k, position, true = drawn
        event = log["events"][k]
        card, table = position.card(event["card"]), table_of(position)
        left = list(position.unseen)
        for hand in true.hands:
            for c in hand:
                left.remove(c)
        reshuffled, sampled = [], []
        tried: list[list[float]] = [[] for _ in steps]
        for i in range(samples):
            rng = deal_rng(deal, i)
            rng.shuffle(left)
            stock = Deal(true.hands, tuple(left[:len(true.stock)]), true.histories, true.dealt)
            reshuffled.append(value(play(table, card, stock, rng)))
            sampled.append(value(play(table, card, deal_for(table, rng, dealing), rng)))
            for outcomes, per_turn in zip(tried, steps):
                rng = deal_rng(deal, i)
                outcomes.append(value(play(table, card, deal_for(table, rng, "shaped", per_turn), rng)))
        realised = results[event["seat"]]
        rows.append((value(play(table, card, true, random.Random(0))), statistics.fmean(reshuffled),
                     statistics.fmean(sampled), *(statistics.fmean(o) for o in tried),
                     float(realised.delta) if paying else float(realised.won)))
    return rows


def summary(pairs: list[tuple[float, float]]) -> dict[str, dict[str, float]]:
    """Mean prediction and mean realised with their intervals, and the paired difference prediction - realised."""
    return {"predicted": interval([p for p, _ in pairs]), "realised": interval([r for _, r in pairs]),
            "difference": interval([p - r for p, r in pairs])}


def one(x: dict[str, float]) -> str:
    """A mean and its interval."""
    return f"{x['mean']:+.3f} [{x['low']:+.3f}, {x['high']:+.3f}]"


def describe(means: dict[str, dict[str, float]]) -> str:
    """The summary as one line."""
    return "; ".join(f"{name} {one(means[name])}" for name in ("predicted", "realised", "difference"))


def table(ruleset: str, rows: list[dict[str, Any]], rounds: int, seed: int) -> str:
    """One rule-set's deciles as text."""
    total = sum(r["decisions"] for r in rows)
    lines = [f"{ruleset}: {total} decisions of {rounds} rounds, seed {seed}",
             f"{'decile':>6} {'n':>6} {'predicted':>10} {'realised':>10}  {'95% interval':<22} calibrated"]
    for i, r in enumerate(rows, 1):
        how = "inside" if r["inside"] else ("within 10%" if r["near"] else "no")
        lines.append(f"{i:>6} {r['decisions']:>6} {r['predicted']:>+10.4f} {r['realised']:>+10.4f}  "
                     f"[{r['low']:+.4f}, {r['high']:+.4f}]".ljust(60) + f" {how}")
    return "\n".join(lines)


def positive(text: str) -> int:
    """An argument that must be a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is less than 1")
    return value


KEPT = Path(__file__).resolve().parent / "pairs"


def check_kept(folder: Path, as_json: bool) -> int:
    """Redraw the search calibration of every kept file of `folder` (`<rule-set>-<seed>.jsonl.gz`, bench/pairs/ by
    default) from a copy of it, with the settings its records were searched with: every round read back (nothing
    searched), the copy left byte for byte as it was, every decile calibrated. Prints the figures; 1 when a check
    fails, naming the file and the check."""
    out: dict[str, Any] = {}
    failed = []
    for kept_file in sorted(folder.glob("*.jsonl.gz")):
        ruleset, seed = kept_file.name.removesuffix(".jsonl.gz").rsplit("-", 1)
        with gzip.open(kept_file, "rt") as lines:
            records = [json.loads(line) for line in lines]
        first = records[0]
        with tempfile.TemporaryDirectory() as scratch:
            copy = Path(scratch) / kept_file.name
            copy.write_bytes(kept_file.read_bytes())
            pairs, cost = search_pairs(ruleset, len(records), int(seed), first["samples"], first["budget"],
                                       first["dealing"], store=copy)
            untouched = copy.read_bytes() == kept_file.read_bytes()
        rows, means = deciles(pairs), summary(pairs)
        checks = {"every round read back": cost["resumed"] == len(records), "file untouched": untouched,
                  "every decile calibrated": all(row["calibrated"] for row in rows),
                  "every search played all its deals": all(r["deals"] == r["samples"] for r in records
                                                           if r["predicted"] is not None)}
        failed += [f"{kept_file.name}: not {name}" for name, passed in checks.items() if not passed]
        out[kept_file.name] = {"ruleset": ruleset, "seed": int(seed), "rounds": len(records),
                               "decisions": len(pairs), "checks": checks, **means, "deciles": rows}
        if not as_json:
            print(table(ruleset, rows, len(records), int(seed)))
            print(f"{describe(means)}\n{'; '.join(f'{k}: {v}' for k, v in checks.items())}", end="\n\n")
    if as_json:
        print(json.dumps(out, indent=2))
    for line in failed:
        print(f"calibration.py --kept: {line}", file=sys.stderr)
    if not out:
        print(f"calibration.py --kept: no <rule-set>-<seed>.jsonl.gz file in {folder}", file=sys.stderr)
    return 1 if failed or not out else 0


def main() -> int:
    """Measure every asked rule-set and print the tables (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", action="append", help="rule-set id (repeatable; default: every one)")
    parser.add_argument("--decisions", type=positive, default=None,
                        help="decisions to compare (default 20000; with --search 300, one per round)")
    parser.add_argument("--seed", type=int, default=7003)
    parser.add_argument("--search", action="store_true", help="calibrate the deep search, not the value model")
    parser.add_argument("--truth", action="store_true",
                        help="where the search goes wrong: playouts on true, half-true and sampled deals")
    parser.add_argument("--samples", type=positive, default=200, help="--search: deals per search; --truth: per kind")
    parser.add_argument("--budget", type=float, default=5.0, help="--search: seconds per search at most")
    parser.add_argument("--dealing", choices=DEALINGS, default="shaped",
                        help="--search, --truth: how the search deals the other seats' hands")
    parser.add_argument("--steps", default=None,
                        help="--truth: also deals shaped with these swaps per turn, comma-separated (tuning "
                             "shaping_swaps)")
    parser.add_argument("--jobs", type=positive, default=1, help="--search: processes searching side by side")
    parser.add_argument("--pairs", type=Path, default=None,
                        help="--search: JSON-lines file (gzip-compressed if it ends in .gz) each decision is "
                             "appended to as it is found; deals already there (same rule-set, seed, samples, budget, "
                             "dealing) are not searched again")
    parser.add_argument("--kept", type=Path, nargs="?", const=KEPT, default=None, metavar="DIR",
                        help="redraw and check the kept search calibrations of DIR (default bench/pairs): nothing "
                             "searched, the files untouched, every decile calibrated")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.kept is not None:
        return check_kept(args.kept, args.json)
    out: dict[str, Any] = {}
    for ruleset in args.ruleset or [r.id for r in all_rulesets()]:
        if args.truth:
            steps = [float(s) for s in args.steps.split(",")] if args.steps else []
            found = truth_rows(ruleset, args.decisions or 300, args.seed, args.samples, args.dealing, steps)
            realised = [r[-1] for r in found]
            names = [*TRUTHS, *(f"shaped, {s:g} swaps per turn" for s in steps)]
            out[ruleset] = {"seed": args.seed, "rounds": args.decisions or 300, "decisions": len(found),
                            "samples": args.samples, "dealing": args.dealing, "realised": interval(realised),
                            **{name: {"outcome": interval([r[i] for r in found]),
                                      "minus_realised": interval([r[i] - r[-1] for r in found]),
                                      "minus_true_hands": interval([r[i] - r[1] for r in found])}
                               for i, name in enumerate(names)}}
            if not args.json:
                print(f"{ruleset}: {len(found)} decisions of {args.decisions or 300} rounds, seed {args.seed}; "
                      f"realised {one(out[ruleset]['realised'])}")
                for name in names:
                    print(f"  {name:30s} {one(out[ruleset][name]['outcome'])}, minus realised "
                          f"{one(out[ruleset][name]['minus_realised'])}, minus true hands "
                          f"{one(out[ruleset][name]['minus_true_hands'])}")
                print()
            continue
        if args.search:
            started = time.monotonic()
            pairs, cost = search_pairs(ruleset, args.decisions or 300, args.seed, args.samples, args.budget,
                                       args.dealing, args.jobs, args.pairs)
            if not pairs:
                print(f"{ruleset}: no decision to search in {args.decisions or 300} rounds of seed {args.seed}",
                      file=sys.stderr)
                return 1
            rows, means = deciles(pairs), summary(pairs)
            cost["total_seconds"] = round(time.monotonic() - started, 1)
            out[ruleset] = {"seed": args.seed, "rounds": args.decisions or 300, "decisions": len(pairs),
                            "samples": args.samples, "budget": args.budget, "dealing": args.dealing, "cost": cost,
                            **means,
                            "deciles": rows}
            if not args.json:
                print(table(ruleset, rows, args.decisions or 300, args.seed))
                print(f"{describe(means)}\n{cost['deals_per_search']:.0f} deals per search, "
                      f"{cost['playouts_per_second']} playouts/s, {cost['seconds']} s searching, "
                      f"{cost['total_seconds']} s in all ({cost['resumed']} rounds read back from --pairs); "
                      f"{cost['skipped']} drawn decisions no search takes",
                      end="\n\n")
            continue
        pairs, played = pairs_of(ruleset, args.decisions or 20000, args.seed)
        rows = deciles(pairs, rounds=played)
        rounds = played[-1] + 1 if played else 0  # deals 0 .. the last one played
        out[ruleset] = {"seed": args.seed, "rounds": rounds, "decisions": len(pairs),
                        "model": load_model(ruleset).version, "deciles": rows}
        if not args.json:
            print(table(ruleset, rows, rounds, args.seed), end="\n\n")
    if args.json:
        print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
