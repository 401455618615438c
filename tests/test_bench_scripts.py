"""The in-process benchmarks of bench/ still run against today's engine (a refactor that breaks one fails here,
not in the hands of whoever next measures): each runs on a tiny workload and prints its figures as JSON."""

from __future__ import annotations

import ast
import contextlib
import gzip
import json
import signal
import subprocess
import sys
import time
import zlib
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("script, args", [
    ("discards.py", ["--positions", "3"]),
    ("claims.py", ["--positions", "3"]),
    ("review.py", ["--rounds", "1"]),
    ("audit.py", ["--rounds", "2"]),
    ("arena.py", ["--deals", "1"]),
    ("drills.py", ["--drills", "1"]),
    ("calibration.py", ["--ruleset", "cardavia-chan", "--decisions", "40"]),
    ("budget.py", ["--searches", "1", "--budgets", "0.05", "--rulesets", "cardavia-chan", "--kinds", "near"]),
])
@pytest.mark.slow  # over 2 s on 2 cores
def test_bench_runs_and_prints_json(script, args):
    assert printed_json(script, args)


def printed_json(script: str, args: list[str]) -> dict | list:
    """Run a bench script with --json; the JSON it printed."""
    done = subprocess.run([sys.executable, str(ROOT / "bench" / script), *args, "--json"], capture_output=True,
                          text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(("{", "[")))  # a table may come first
    return json.loads("\n".join(lines[start:]))


@pytest.mark.slow
def test_capacity_bench_measures_every_figure_its_doc_uses():
    """bench/capacity.py --tiny: gunicorn, burst workers, idle workers and a private Redis, for real; every figure
    docs/capacity.md quotes is there, and the jobs it ran each finished with one webhook (the script checks)."""
    figures = printed_json("capacity.py", ["--tiny"])
    endpoints = {row["endpoint"] for row in figures["api"]}
    assert {"/healthz", "/v1/hu", "/v1/melds", "/v1/claims", "/v1/discards", "/v1/settlements",
            "/v1/audits"} <= endpoints
    assert all(row["errors"] == 0 and row["rps_per_core"] > 0 for row in figures["api"])
    assert [row["redis_commands"] for row in figures["api"] if row["endpoint"] == "/v1/hu"] == [0]
    for row in figures["jobs"]:
        assert row["jobs_per_core_s"] > 0 and row["run_commands"] > 0 and row["memory_per_job"] > 0
        assert row["result_bytes"] > 0 and row["webhook_bytes"] > row["result_bytes"]
    assert figures["idle"]["commands_per_s_per_worker"] > 0
    assert set(figures["derived"]["per_kind"]) == {row["kind"] for row in figures["jobs"]}


def test_the_truth_bench_plays_every_rate_asked_for_against_the_true_hands():
    """bench/calibration.py --truth --steps: how the rule-sets' shaping rates are tuned (docs/advice.md#shaped-deals):
    one row per rate, each against what the seats realised and against the true hands with the stock reshuffled,
    whose difference with itself is exactly zero."""
    figures = printed_json("calibration.py", ["--truth", "--ruleset", "cardavia-chan", "--decisions", "6",
                                              "--samples", "3", "--seed", "6004", "--steps", "5,15"])["cardavia-chan"]
    assert figures["decisions"] > 0
    for name in ("shaped, 5 swaps per turn", "shaped, 15 swaps per turn", "sampled deals (the search's)"):
        assert set(figures[name]) == {"outcome", "minus_realised", "minus_true_hands"}
    assert figures["true hands, stock reshuffled"]["minus_true_hands"]["mean"] == 0


def test_the_shaping_bench_times_every_way_of_dealing():
    """bench/shaping.py: per group of turns played, the mean distance and the milliseconds a deal of each way."""
    figures = printed_json("shaping.py", ["--ruleset", "cardavia-chan", "--rounds", "10", "--deals", "2",
                                          "--steps", "5,15"])["cardavia-chan"]
    for group in figures["groups"]:
        assert set(group["ms"]) == {"uniform", "5.0", "15.0"} and all(ms > 0 for ms in group["ms"].values())
        assert set(group["shaped"]) == {"5.0", "15.0"}


@pytest.mark.slow  # over 2 s on 2 cores
def test_the_search_calibration_resumes_and_splits_without_changing_a_figure(tmp_path):
    """bench/calibration.py --search --jobs --pairs: a run split over two processes that writes its decisions to a
    file, then a longer run that reads them back (a line cut short by a killed run is searched again), gives the
    very figures of one uninterrupted run in one process: every search is seeded by its deal."""
    pairs = tmp_path / "pairs.jsonl"
    common = ["--search", "--ruleset", "cardavia-chan", "--samples", "5", "--seed", "6004"]
    first = printed_json("calibration.py", [*common, "--decisions", "10", "--jobs", "2", "--pairs", str(pairs)])
    assert first["cardavia-chan"]["cost"]["resumed"] == 0
    lines = pairs.read_text().splitlines()
    assert sorted(json.loads(line)["deal"] for line in lines) == list(range(10))
    pairs.write_text("\n".join(lines[:9]) + "\n" + lines[9][:20])  # the last decision cut short
    resumed = printed_json("calibration.py", [*common, "--decisions", "12", "--pairs", str(pairs)])["cardavia-chan"]
    whole = printed_json("calibration.py", [*common, "--decisions", "12"])["cardavia-chan"]
    assert resumed["cost"]["resumed"] == 9
    assert resumed["decisions"] == whole["decisions"] > 0
    assert resumed["deciles"] == whole["deciles"] and resumed["difference"] == whole["difference"]
    other_seed = printed_json("calibration.py", [*common[:-1], "6005", "--decisions", "10", "--pairs", str(pairs)])
    assert other_seed["cardavia-chan"]["cost"]["resumed"] == 0  # records of another seed are not read back


@pytest.mark.slow  # over 2 s on 2 cores
def test_the_calibration_cuts_fewer_decisions_than_deciles_into_one_group_each():
    """Fewer decisions than ten give one group per decision (every decision counted once), not a crash."""
    few = printed_json("calibration.py", ["--search", "--ruleset", "cardavia-flowers", "--samples", "3",
                                          "--decisions", "4"])["cardavia-flowers"]
    assert 1 <= len(few["deciles"]) <= 4
    assert sum(group["decisions"] for group in few["deciles"]) == few["decisions"]
    assert all(group["decisions"] == 1 for group in few["deciles"])


@pytest.mark.slow  # two runs: about 2 s on 2 cores
def test_the_counterfactual_calibration_plays_both_options_and_splits_without_changing_a_figure():
    """bench/counterfactual.py: each decision's predicted loss is the first option's value minus the other's, its
    realised loss the first branch's settlement minus the other's; every pair has options of different values;
    the figures are the same in one process and in two (every deal seeded by its number)."""
    args = ["--ruleset", "cardavia-chan", "--decisions", "12", "--seed", "6004"]
    one = printed_json("counterfactual.py", args)["cardavia-chan"]
    two = printed_json("counterfactual.py", [*args, "--jobs", "2"])["cardavia-chan"]
    assert one["decisions"] == 12 and one["rounds"] >= 12
    assert sum(group["decisions"] for group in one["deciles"]) == 12
    assert 0 <= one["priced_zero_costly"] <= one["priced_zero"] <= 1
    assert {k: v for k, v in one.items() if k != "seconds"} == {k: v for k, v in two.items() if k != "seconds"}


@pytest.mark.slow  # plays about 10 rounds and their branches
def test_the_claim_counterfactual_pairs_pass_against_a_claim_and_judges_by_the_criterion():
    """bench/counterfactual.py --kind claims: every pair sets pass against a claim (the advice's first answer
    against pass, or pass against a claim), forced takes and offered wins left out; the criterion's figures come
    for the value and for a constant, which never meets it."""
    out = printed_json("counterfactual.py", ["--kind", "claims", "--ruleset", "cardavia-chan", "--decisions", "4",
                                             "--seed", "6004"])["cardavia-chan"]
    assert out["kind"] == "claims" and out["decisions"] == 4
    assert sum(part["decisions"] for part in out["answers"].values()) <= 4
    assert set(out["criterion"]) == {"slope", "gain", "bias", "verdict"}
    assert out["constant"]["slope"] is None and out["constant"]["verdict"] is False


@pytest.mark.parametrize("option, value", [("--decisions", "0"), ("--samples", "-3"), ("--jobs", "two")])
def test_the_calibration_refuses_a_count_below_one_naming_the_option(option, value):
    run = subprocess.run([sys.executable, str(ROOT / "bench" / "calibration.py"), "--search", option, value],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert run.returncode == 2
    assert option in run.stderr and value in run.stderr


@pytest.mark.slow  # searches 80 rounds twice, and a third run it kills
def test_a_killed_search_calibration_resumes_from_its_compressed_pairs(tmp_path):
    """bench/calibration.py --search --pairs FILE.gz, killed (SIGKILL) while it writes: the compressed file it
    leaves is read back up to the cut, repaired, and the resumed run gives the figures of an uninterrupted run."""
    pairs = tmp_path / "pairs.jsonl.gz"
    common = ["--search", "--ruleset", "cardavia-flowers", "--samples", "5", "--seed", "6004", "--decisions", "80"]
    script = [sys.executable, str(ROOT / "bench" / "calibration.py"), *common]
    running = subprocess.Popen([*script, "--pairs", str(pairs), "--json"], cwd=ROOT, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and len(read_back(pairs)) < 10:
            time.sleep(0.05)
        running.send_signal(signal.SIGKILL)
    finally:
        running.wait(timeout=30)
    assert running.returncode == -signal.SIGKILL  # killed, not finished
    written = read_back(pairs)
    assert 10 <= len(written) < 80
    resumed = printed_json("calibration.py", [*common, "--pairs", str(pairs)])["cardavia-flowers"]
    whole = printed_json("calibration.py", common)["cardavia-flowers"]
    assert resumed["cost"]["resumed"] >= len(written)
    assert resumed["decisions"] == whole["decisions"] > 0
    assert resumed["deciles"] == whole["deciles"] and resumed["difference"] == whole["difference"]
    with gzip.open(pairs, "rt") as lines:  # repaired: one whole compressed file, every deal once
        assert sorted(json.loads(line)["deal"] for line in lines) == list(range(80))


def read_back(pairs: Path) -> list[dict]:
    """The records a (possibly running or killed) calibration has written to a compressed pairs file so far."""
    records: list[dict] = []
    if not pairs.exists():
        return records
    try:
        with gzip.open(pairs, "rt") as lines:
            for line in lines:
                with contextlib.suppress(json.JSONDecodeError):
                    records.append(json.loads(line))
    except (EOFError, gzip.BadGzipFile, zlib.error):
        pass
    return records


KEPT = sorted((ROOT / "bench" / "pairs").glob("*.jsonl.gz"))


def test_the_repository_keeps_searched_decisions():
    """bench/pairs/ holds the decisions behind the published full-size search calibrations (its README)."""
    assert any(p.name == "cardavia-flowers-7003.jsonl.gz" for p in KEPT)


@pytest.mark.parametrize("kept", KEPT, ids=[p.name for p in KEPT])
def test_a_kept_pairs_file_is_whole_and_what_its_name_says(kept):
    """Each kept file is one whole compressed stream (no run was cut short in it) of the rounds 0, 1, ... n-1 of
    the rule-set and seed its name gives, all searched with the same settings; a round either has a decision
    (a prediction and a realised settlement) or has none (both null)."""
    from service.rules.registry import all_rulesets

    ruleset, seed = kept.name.removesuffix(".jsonl.gz").rsplit("-", 1)
    assert ruleset in {r.id for r in all_rulesets()} and seed.isdigit()
    with gzip.open(kept, "rt") as lines:  # a stream cut short raises EOFError, a line cut short JSONDecodeError
        records = [json.loads(line) for line in lines]
    assert records
    assert sorted(r["deal"] for r in records) == list(range(len(records)))
    assert {(r["ruleset"], r["seed"]) for r in records} == {(ruleset, int(seed))}
    assert len({(r["samples"], r["budget"], r["dealing"]) for r in records}) == 1
    for r in records:
        assert (r["predicted"] is None) == (r["realised"] is None), r["deal"]
        if r["predicted"] is not None and ruleset == "cardavia-flowers":  # wins: a chance, and won or not
            assert 0 <= r["predicted"] <= 1 and r["realised"] in (0, 1), r["deal"]


@pytest.mark.slow  # over 2 s on 2 cores
def test_the_kept_calibrations_are_checked_by_a_bench_command_that_searches_nothing(tmp_path):
    """bench/calibration.py --kept DIR (bench/pairs/ by default: the published figures, checked there rather than in
    every test run) redraws each kept file from a copy with the settings it was searched with: every round read
    back, the file untouched, and exit 0 only when every check passes."""
    kept = tmp_path / "cardavia-flowers-6004.jsonl.gz"
    printed_json("calibration.py", ["--search", "--ruleset", "cardavia-flowers", "--samples", "3", "--seed", "6004",
                                    "--decisions", "12", "--pairs", str(kept)])
    before = kept.read_bytes()
    run = subprocess.run([sys.executable, str(ROOT / "bench" / "calibration.py"), "--kept", str(tmp_path), "--json"],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    figures = json.loads(run.stdout)[kept.name]
    assert kept.read_bytes() == before
    assert figures["rounds"] == 12 and figures["checks"]["every round read back"]
    assert figures["checks"]["file untouched"]
    assert run.returncode == (0 if all(figures["checks"].values()) else 1), run.stderr
    empty = subprocess.run([sys.executable, str(ROOT / "bench" / "calibration.py"), "--kept", str(tmp_path / "none")],
                           capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert empty.returncode == 1 and "no <rule-set>-<seed>.jsonl.gz file" in empty.stderr


def test_the_shipped_variant_plays_exactly_as_the_advice():
    """bench/variants.py, the harness of the ranking's variants (bench/README.md): its `shipped` variant is the
    advice itself, so over the same deals every figure is the advice's and their paired difference is exactly 0."""
    report = printed_json("variants.py", ["--ruleset", "cardavia-chan", "--variant", "shipped", "--deals", "6",
                                          "--jobs", "2"])
    variant, advice = report["per_policy"]
    assert (variant["policy"], advice["policy"]) == ("py:bench.variants:shipped", "advice")
    assert variant["rounds"] == advice["rounds"] == 48
    assert variant["win_rate"] == advice["win_rate"] and variant["score"]["mean"] == 0
    assert report["pairs"][0]["difference"]["mean"] == 0


@pytest.mark.slow  # over 2 s on 2 cores
def test_a_variant_plays_its_own_order_in_every_worker_process():
    """A variant that changes the order plays other moves than the advice, and the same ones in one process as in
    two spawned workers (each loads the variant's policy by its name)."""
    args = ["--ruleset", "bga-taiwan", "--variant", "more_unseen", "--deals", "4"]
    alone = printed_json("variants.py", [*args, "--jobs", "1"])
    split = printed_json("variants.py", [*args, "--jobs", "2"])
    assert alone["variant"] == "more_unseen"
    assert alone["per_policy"] == split["per_policy"] and alone["pairs"] == split["pairs"]
    assert alone["pairs"][0]["difference"]["mean"] != 0


@pytest.mark.parametrize("variant, named", [("bolder", "'bolder'"), ("danger:4", "'danger:4'")])
def test_the_variant_harness_refuses_an_unknown_variant_naming_it(variant, named):
    run = subprocess.run([sys.executable, str(ROOT / "bench" / "variants.py"), "--ruleset", "bga-taiwan",
                          "--variant", variant], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert run.returncode == 2
    assert named in run.stderr


def test_every_variant_is_a_policy_the_arena_loads_by_its_name():
    """Each ranking of `VARIANTS` has its deterministic policy, `py:bench.variants:NAME`: the advice ranking by it."""
    import importlib

    from service.arena.policies import check_names, factory_of, is_deterministic

    variants = importlib.import_module("bench.variants")  # the module the arena loads the policies from
    for name in variants.VARIANTS:
        policy = variants.policy_name(name)
        check_names([policy], 1)
        assert is_deterministic(policy) and factory_of(policy)(None).ranking is variants.VARIANTS[name]


def service_names(tree: ast.Module) -> set[str]:
    """The names a file binds by importing from the service: `import service.x` (`service`), `import service.x as
    y`, `from service.x import y` (a module, a class, a function or a value alike)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.asname or a.name.split(".")[0] for a in node.names if a.name.split(".")[0] == "service"}
        elif isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").split(".")[0] == "service":
            names |= {a.asname or a.name for a in node.names}
    return names


def patches(source: str) -> list[str]:
    """Where `source` assigns to an attribute of something it imported from the service (`analysis.rank_key = ...`,
    `duplicate.make = ...`, `Advice.discard = ...`, `setattr(analysis, ...)`), by line."""
    tree = ast.parse(source)
    imported = service_names(tree)

    def base(node: ast.expr) -> str | None:
        while isinstance(node, ast.Attribute):
            node = node.value
        return node.id if isinstance(node, ast.Name) else None

    found = []
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = [t for target in node.targets for t in (target.elts if isinstance(target, ast.Tuple)
                                                               else [target])]
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("setattr", "delattr"):
            targets = [ast.Attribute(value=node.args[0], attr="?")] if node.args else []
        found += [f"line {node.lineno}: {ast.unparse(t)}" for t in targets
                  if isinstance(t, ast.Attribute) and base(t) in imported]
    return found


def test_bench_never_replaces_an_attribute_of_the_service():
    """bench/ plugs into the service as a policy the arena loads by name or a ranking the advice takes, never by
    replacing a module's (or a class's) attribute while the service runs: a change of the service then breaks
    nothing silently."""
    found = {str(path.relative_to(ROOT)): hits for path in sorted((ROOT / "bench").rglob("*.py"))
             if (hits := patches(path.read_text(encoding="utf-8")))}
    assert not found, found


def test_the_patch_check_sees_every_way_of_replacing_an_attribute():
    source = ("from service.rules import analysis\nfrom service.arena.advice import Advice as A\n"
              "import service.arena.duplicate\nfrom pathlib import Path\n"
              "analysis.rank_key = len\nA.discard, x = None, 1\nservice.arena.duplicate.make += 1\n"
              "setattr(analysis, 'hand_key', len)\nPath.x = 1\nlocal = analysis.rank_key\n")
    assert patches(source) == ["line 5: analysis.rank_key", "line 6: A.discard", "line 7: service.arena.duplicate.make",
                               "line 8: analysis.?"]


def _bench_module(name: str) -> Any:
    """bench/NAME.py as a module (bench/ is no package), loaded afresh: its globals start unset."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(f"{name}_under_test", ROOT / "bench" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_ceiling_harness_plays_its_policy_and_names_it():
    """bench/ceilings.py (docs/advice.md#ceilings) plays its policy in two seats against the advice and says which."""
    report = printed_json("ceilings.py", ["--ruleset", "cardavia-chan", "--policy", "passes", "--deals", "2"])
    assert report["ceiling"] == {"policy": "passes", "scope": "tie"}
    assert [p["policy"] for p in report["per_policy"]] == ["ceiling", "advice"]
    assert report["per_policy"][0]["rounds"] == 2 * 4 * 2  # deals x rotations x its seats


def test_the_ceiling_harness_refuses_an_unknown_opponent_naming_it():
    run = subprocess.run([sys.executable, str(ROOT / "bench" / "ceilings.py"), "--ruleset", "bga-taiwan",
                          "--policy", "stock", "--against", "bolder"], capture_output=True, text=True, cwd=ROOT,
                         timeout=120)
    assert run.returncode == 2
    assert "bolder" in run.stderr


def _chan_round(index: int) -> Any:
    """A Chắn round driver on deal `index` of the arena's seed 6001, not played."""
    from service.arena.duplicate import Arena, dealt
    from service.replay.simulate_chan import ChanRound
    from service.rules.registry import get_ruleset

    return ChanRound(get_ruleset("cardavia-chan"), None, dealt(Arena("cardavia-chan", ("advice",) * 4, 6001, {}),
                                                               index), [])


def test_the_next_hand_ceiling_counts_who_may_take_a_chan_discard_by_the_capture_rules():
    """Only the next seat captures a discard (docs/rules.md#chan-turn), a Chíu aside (#chan-chiu). A face the next
    seat holds one card of can be captured into a Chắn (#chan-pairs); a face of whose value he holds no card, and of
    which no seat holds three, nobody can take."""
    from service.rules.chan.cards import CHI_CHI, N_FACES

    ceilings = _bench_module("ceilings")
    checked = {"single": 0, "none": 0}
    for index in range(6):
        driver = _chan_round(index)
        nxt = driver.counts[(driver.dealer + 1) % 4]
        for face in range(N_FACES):
            mates = [face] if face == CHI_CHI else list(range(face // 3 * 3, face // 3 * 3 + 3))
            triples = any(driver.counts[s][face] == 3 for s in range(4) if s != driver.dealer)
            if nxt[face] == 1 and not triples:
                assert ceilings.takers(driver, driver.dealer, face) == 1, (index, face)
                checked["single"] += 1
            elif not any(nxt[m] for m in mates) and not triples:
                assert ceilings.takers(driver, driver.dealer, face) == 0, (index, face)
                checked["none"] += 1
    assert checked["single"] and checked["none"]


def test_the_stock_ceiling_counts_the_stock_cards_before_the_first_one_a_hand_wants():
    from service.rules.analysis import DiscardOption, Wait
    from service.rules.chan.cards import CODE_INDEX

    ceilings = _bench_module("ceilings")
    driver = _chan_round(0)
    third = CODE_INDEX[driver.stock[2]]
    earlier = {CODE_INDEX[c] for c in driver.stock[:2]}
    improving = DiscardOption(card=0, distance=1, waits=(), improving=((third, 1),), improving_unseen=1,
                              expected_gain=0.0)
    waiting = DiscardOption(card=0, distance=0, waits=(Wait(third, 1, ("stock",), 2, 6),), improving=(),
                            improving_unseen=0, expected_gain=0.1)
    assert third not in earlier  # the deal: 2c, 9c, then 4m
    assert ceilings.soonest(driver, improving, {}) == 2
    assert ceilings.soonest(driver, waiting, {}) == 2
    driver.drawn = 3  # once it is turned up, a hand wanting only it waits past the stock's end (or a later copy)
    later = [i for i, c in enumerate(driver.stock[3:]) if CODE_INDEX[c] == third]
    assert ceilings.soonest(driver, improving, {}) == (later[0] if later else len(driver.stock) - 3)


def test_the_public_chan_ceiling_reads_a_pass_as_a_face_the_seat_cannot_capture():
    """A seat offered a card it had the right to capture (the next seat on a discard, docs/rules.md#chan-turn) that
    lets it pass cannot capture that face, for good: a Chắn hand only loses cards. The card on offer now, and a face
    rule 4 bars him from capturing anyway, say nothing."""
    from dataclasses import replace

    from service.rules.chan.cards import CODE_INDEX

    ceilings = _bench_module("ceilings")
    driver = _chan_round(0)
    driver.events = [{"seat": 0, "type": "discard", "card": "5s"}, {"seat": 1, "type": "draw", "card": "7m"},
                     {"seat": 1, "type": "capture", "meld": "chan", "cards": ["7m", "7m"]},
                     {"seat": 1, "type": "discard", "card": "2c"}, {"seat": 2, "type": "draw", "card": "9c"}]
    assert ceilings.chan_passed(driver, 1, {}) == {CODE_INDEX["5s"]}  # he captured 7m
    # the next seat on seat 1's stock card let 7m go; 9c, turned up at his own gate, is still on offer
    assert ceilings.chan_passed(driver, 2, {}) == {CODE_INDEX["7m"], CODE_INDEX["2c"]}
    assert ceilings.chan_passed(driver, 0, {}) == set()  # never offered a card he could capture
    driver.history[1] = replace(driver.history[1], discarded=frozenset({CODE_INDEX["5s"]}))
    assert ceilings.chan_passed(driver, 1, {}) == set()


def test_the_public_four_color_ceiling_reads_a_card_let_go_without_hu_as_safe_until_the_seat_claims():
    """A hu is claimed by any player but the discarder (docs/rules.md#fc-claims): a seat that let a card go by
    holds no winning wait on it until its hand changes, by its next claim."""
    from service.arena.duplicate import Arena, dealt
    from service.replay.simulate_fourcolor import FourColorRound
    from service.rules.registry import get_ruleset

    ceilings = _bench_module("ceilings")
    rs = get_ruleset("bga-taiwan")
    driver = FourColorRound(rs, None, dealt(Arena("bga-taiwan", ("advice",) * 4, 6001, {}), 0), [None] * 4)
    first, second = driver.stock[0], driver.stock[1]
    driver.events = [{"seat": 0, "type": "discard", "card": first}, {"seat": 1, "type": "draw", "card": second},
                     {"seat": 2, "type": "claim", "meld": "triple", "cards": [second] * 3}]
    memo: dict[str, int] = {}
    a, b = ceilings.index_of(driver, first, memo), ceilings.index_of(driver, second, memo)
    safe = ceilings.fc_safe(driver, memo)
    assert safe[0] == {b} and safe[1] == safe[3] == {a, b} and safe[2] == set()


def test_the_ceiling_harness_refuses_an_unknown_policy_or_scope():
    ceilings = _bench_module("ceilings")
    assert ceilings.parse("stock") == ("stock", "tie")
    assert ceilings.parse("passes:distance") == ("passes", "distance")
    with pytest.raises(ValueError, match="'psychic'"):
        ceilings.parse("psychic")
    with pytest.raises(ValueError, match="'wide'"):
        ceilings.parse("stock:wide")
