"""External bots in the arena (docs/bots.md): the example bot plays every rule-set to logs that audit clean, the
protocol's messages carry what it documents, the figures do not depend on --jobs, and every way a bot can break
the protocol stops the run with exit status 2, a message naming the bot and the decision, and no bot left behind."""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from service.__main__ import main
from service.replay.audit import audit
from service.rules.registry import all_rulesets

ROOT = Path(__file__).resolve().parents[2]
LONER = f"external:{shlex.quote(sys.executable)} {ROOT / 'bench' / 'bots' / 'loner.py'}"

#: A bot that plays the first legal move, records every message and its pid, and breaks the protocol in the way
#: its second argument says at its first request of that kind.
BROKEN = '''
import json, os, sys, time
record, mode = sys.argv[1], sys.argv[2]
with open(record + ".pids", "a") as f:
    f.write(f"{os.getpid()}\\n")
for line in sys.stdin:
    m = json.loads(line)
    with open(record, "a") as f:
        f.write(line)
    if m["type"] == "end":
        break
    if m["type"] not in ("discard", "claim"):
        continue
    print("thinking", file=sys.stderr, flush=True)
    if m["type"] == "discard":
        answer = {"id": m["id"], "discard": m["legal"][0]}
        if mode == "illegal":
            answer["discard"] = "zz"
        if mode == "no_answer_key":
            del answer["discard"]
    else:
        answer = {"id": m["id"], "claim": None if m["pass"] else 0}
        if mode == "claim_index":
            answer["claim"] = len(m["claims"])
    if mode == "wrong_id":
        answer["id"] += 1
    if mode == "malformed":
        print("{not json", flush=True)
        continue
    if mode == "exit":
        sys.exit(3)
    if mode == "slow":
        time.sleep(60)
    print(json.dumps(answer), flush=True)
'''


def bot(tmp_path: Path, mode: str) -> tuple[str, Path]:
    """The policy name of a bot written to `tmp_path` that breaks the protocol by `mode` ("none": never)."""
    source = tmp_path / f"bot_{mode}.py"
    source.write_text(BROKEN, encoding="utf-8")
    record = tmp_path / f"{mode}.jsonl"
    return f"external:{shlex.quote(sys.executable)} {source} {record} {mode}", record


def run(capfd, *args: str) -> tuple[int, str, str]:
    status = main(["arena", *args])
    out, err = capfd.readouterr()
    return status, out, err


def running(pid: int) -> bool:
    """Whether a process still runs: it exists and is not a zombie (a bot of a `--jobs` worker is left to be
    reaped by init, which in a container may never do it)."""
    stat = Path(f"/proc/{pid}/stat")
    if stat.parent.parent.is_dir():
        try:
            return stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"
        except FileNotFoundError:
            return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def assert_gone(record: Path) -> None:
    """Every bot process that wrote to this record has exited."""
    pids = [int(p) for p in record.with_name(record.name + ".pids").read_text().split()]
    assert pids and not [pid for pid in pids if running(pid)]


@pytest.mark.parametrize("ruleset", [r.id for r in all_rulesets()])
@pytest.mark.slow  # over 2 s on 2 cores
def test_the_example_bot_plays_every_ruleset_to_logs_that_audit_clean(capfd, tmp_path, ruleset):
    status, out, err = run(capfd, "--ruleset", ruleset, "--policies", f"advice,{LONER},baseline,{LONER}",
                           "--deals", "2", "--seed", "4", "--logs", str(tmp_path), "--json")
    assert status == 0, err
    report = json.loads(out)
    assert [p["policy"] for p in report["per_policy"]] == ["advice", LONER, "baseline"]
    assert report["per_policy"][1]["rounds"] == 2 * 4 * 2  # two seats of every rotation of every deal
    logs = sorted(tmp_path.iterdir())
    assert len(logs) == 8
    for path in logs:
        found = audit(json.loads(path.read_text(encoding="utf-8")))
        assert found.valid and found.recorded_result_matches is True


def test_the_messages_carry_the_view_the_moves_and_the_round(capfd, tmp_path):
    name, record = bot(tmp_path, "none")
    status, _, err = run(capfd, "--ruleset", "cardavia-chan", "--policies", f"{name},advice,advice,advice",
                         "--deals", "2", "--seed", "9", "--json")
    assert status == 0 and "thinking" in err  # the bot's standard error is passed through
    messages = [json.loads(line) for line in record.read_text().splitlines()]
    hellos = [m for m in messages if m["type"] == "hello"]
    # one process per seat for the whole run: each greeted once, the bot plays seat 0, 3, 2, 1 in rotations 0-3
    assert sorted(h["seat"] for h in hellos) == [0, 1, 2, 3]
    assert all(h["protocol"] == 1 and h["ruleset"] == "cardavia-chan" and h["seats"] == 4 and len(h["deck"]) == 100
               for h in hellos)
    assert [m["type"] for m in messages].count("start_round") == 8 == [m["type"] for m in messages].count("end_round")
    assert [m["type"] for m in messages].count("end") == 4
    claims = [m for m in messages if m["type"] == "claim"]
    discards = [m for m in messages if m["type"] == "discard"]
    assert claims and discards
    for m in claims:
        assert m["role"] in ("drawer", "next", "other", "discarder") and m["source"] in ("stock", "discard")
        assert 0 <= m["from"] < 4 and m["pass"] is True and m["claims"]
        assert all(c["kind"] in ("win", "chiu", "chan", "ca") for c in m["claims"])
        assert all(m["card"] in c["cards"] for c in m["claims"] if c["kind"] != "win")
    view = discards[0]["view"]
    assert set(view) == {"seat", "hand", "melds", "visible", "stock_remaining", "history"}
    assert len(view["melds"]) == 4 and set(view["history"]) >= {"discarded", "passed_identical", "dead_hand"}
    assert set(discards[0]["legal"]) <= set(view["hand"])
    for seat in range(4):  # each seat's process numbers its requests 1, 2, 3, ... over the whole run
        ids = [m["id"] for m in messages if m["type"] in ("claim", "discard") and m["view"]["seat"] == seat]
        assert ids == list(range(1, len(ids) + 1))
    ended = next(m for m in messages if m["type"] == "end_round")
    assert audit(ended["log"]).valid and ended["result"] == ended["log"]["result"]
    assert_gone(record)


@pytest.mark.slow  # over 2 s on 2 cores
def test_the_same_figures_for_any_jobs_with_a_bot(capfd):
    args = ("--ruleset", "bga-taiwan", "--policies", f"{LONER},advice,{LONER},random", "--deals", "3", "--seed", "2",
            "--json")
    one = run(capfd, *args, "--jobs", "1")
    two = run(capfd, *args, "--jobs", "2")
    assert one[0] == two[0] == 0 and one[1] == two[1]


def test_bots_of_worker_processes_are_sent_end_too(capfd, tmp_path):
    """With --jobs 2 every bot process, whichever worker started it, gets `end` as its last message and exits."""
    name, record = bot(tmp_path, "none")
    status, _, _ = run(capfd, "--ruleset", "cardavia-chan", "--policies", f"{name},advice,advice,advice",
                       "--deals", "4", "--seed", "9", "--json", "--jobs", "2")
    assert status == 0
    messages = [json.loads(line) for line in record.read_text().splitlines()]
    pids = record.with_name(record.name + ".pids").read_text().split()
    assert len(pids) >= 4  # one process per seat in each worker that met the bot
    assert [m["type"] for m in messages].count("end") == len(pids)
    assert_gone(record)


@pytest.mark.parametrize("mode, says", [
    ("illegal", "answered discard 'zz', not one of the legal discards"),
    ("no_answer_key", "answered discard None, not one of the legal discards"),
    ("claim_index", "answered claim"),
    ("malformed", "sent a line that is not a JSON object: '{not json'"),
    ("wrong_id", "answered id"),
    ("exit", "exited with status 3 before answering"),
    ("slow", "gave no answer within 0.5 s (--bot-timeout)"),
])
def test_a_bot_that_breaks_the_protocol_stops_the_run(capfd, tmp_path, mode, says):
    name, record = bot(tmp_path, mode)
    started = time.monotonic()
    status, out, err = run(capfd, "--ruleset", "cardavia-chan", "--policies", f"advice,advice,{name},advice",
                           "--deals", "2", "--bot-timeout", "0.5")
    assert status == 2 and out == ""
    assert re.search(rf"^arena: bot '.*bot_{mode}\.py.*' \(deal 0, rotation \d, seat \d, decision \d+\): ", err, re.M)
    assert says in err and "Traceback" not in err
    assert time.monotonic() - started < 20  # the slow bot is not waited for
    assert_gone(record)


@pytest.mark.slow  # over 2 s on 2 cores
def test_an_error_in_a_worker_stops_the_run_the_same_way(capfd, tmp_path):
    name, record = bot(tmp_path, "illegal")
    status, out, err = run(capfd, "--ruleset", "bga-taiwan", "--policies", f"{name},advice,advice,advice",
                           "--deals", "3", "--jobs", "2")
    assert status == 2 and "answered discard 'zz'" in err and "Traceback" not in err
    assert re.search(r"\(deal \d, rotation \d, seat \d, decision \d+\)", err)
    time.sleep(0.5)  # a terminated worker's bots die with it
    assert_gone(record)


def test_a_bot_that_cannot_start_and_an_empty_command(capfd):
    status, _, err = run(capfd, "--ruleset", "bga-taiwan", "--policies", "advice,external:./no-such-bot,advice,advice",
                         "--deals", "1")
    assert status == 2 and "bot './no-such-bot' (deal 0, rotation 0, seat 1, decision 0): cannot be started" in err
    status, _, err = run(capfd, "--ruleset", "bga-taiwan", "--policies", "advice,external:,advice,advice")
    assert status == 2 and "names no command" in err


@pytest.mark.slow  # over 2 s on 2 cores
def test_ctrl_c_leaves_no_bot_behind(tmp_path):
    name, record = bot(tmp_path, "slow")
    arena = subprocess.Popen([sys.executable, "-m", "service", "arena", "--ruleset", "cardavia-chan", "--policies",
                              f"{name},{name},{name},{name}", "--deals", "1", "--bot-timeout", "60"],
                             cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    pids = record.with_name(record.name + ".pids")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not record.exists():  # a bot has been asked a decision
        time.sleep(0.1)
    time.sleep(0.3)
    arena.send_signal(signal.SIGINT)
    _, err = arena.communicate(timeout=30)
    assert arena.returncode == 130 and b"interrupted" in err and b"Traceback" not in err
    assert pids.exists()
    assert_gone(record)
