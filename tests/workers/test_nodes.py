"""Two nodes on one Redis, on the real clock: each a `python -m service serve` (its API, its two workers) in a
session of its own on its own port, both on a private Redis the test starts. A stream of small searches and replays
goes to both APIs, with webhooks to a receiver in the test; mid-work every process of one node is SIGKILLed (a
machine lost). Every job an API accepted (202) finishes exactly once, with one result and one success webhook; the
surviving API answers every request throughout; the dead node's jobs are back (finished on the survivor) within
BACK_WITHIN of the kill: the workers' intervals (the session's short ones, tests/conftest.py WORKER_CLOCK) bound when
they are found, plus the time they take to run again. The figures are printed (`pytest -s`)."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC
from pathlib import Path
from typing import Any

import psutil
import pytest
from redis import Redis
from rq import Worker
from rq.job import JobStatus
from rq.results import Result

from service.jobs.queues import (
    DELIVER_WEBHOOK,
    QUEUE_REPLAYS,
    QUEUE_SEARCHES,
    QUEUE_WEBHOOKS,
    QUEUES,
    SERIALIZER,
    SPECS,
    fetch,
    queue,
)
from tests.support.jobs import WEBHOOK_SECRET, batch, search_body
from tests.support.ports import free_port
from tests.support.processes import ROOT, running, wait_for
from tests.support.receivers import Receiver, receiving
from workers.webhooks import SIGNATURE_HEADER, verify
from workers.worker import WorkerClock

pytestmark = pytest.mark.slow  # two serves, their workers and a kill on the real clock: about two minutes

STARTUP = 120  # two serves at once, each gunicorn and worker building its tables on 2 shared cores
#: The dead node's jobs finished on the survivor this soon after the kill: found abandoned, then run again.
BACK_WITHIN = WorkerClock.from_environment().abandoned_within + 30
WORKERS = 2  # per node
STREAM_BEFORE = 10.0  # seconds of submissions to both nodes before the kill (at least)
STREAM_AFTER = 10.0  # and to the survivor after it (within the time its jobs take to come back)
GAP = 0.4  # seconds between submissions while both nodes live


@dataclass
class Node:
    """One `python -m service serve`: its process (the leader of its own session), its API and its log."""

    name: str
    process: subprocess.Popen
    base: str
    log: Path

    def tree(self) -> list[psutil.Process]:
        """Every process of the node: serve and all it started (each child leads a process group of its own, all
        in serve's session)."""
        found = []
        for process in psutil.process_iter():
            with contextlib.suppress(psutil.Error, OSError):
                if os.getsid(process.pid) == self.process.pid:
                    found.append(process)
        return found

    def worker_pids(self) -> set[int]:
        """The pids of its `python -m workers` processes."""
        pids = set()
        for process in self.tree():
            with contextlib.suppress(psutil.Error):
                if process.cmdline()[1:3] == ["-m", "workers"]:
                    pids.add(process.pid)
        return pids

    def kill(self) -> None:
        """A machine lost: stop every process of the node at once (none can react to another's death: a stopped
        worker cannot put its job back, a stopped serve cannot restart anything), then SIGKILL each of its process
        groups."""
        groups = {os.getpgid(p.pid) for p in self.tree()}
        for group in groups:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(group, signal.SIGSTOP)
        groups |= {os.getpgid(p.pid) for p in self.tree()}  # anything started meanwhile
        for group in groups:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(group, signal.SIGKILL)
        self.process.wait(timeout=10)
        wait_for(lambda: not any(running(p) for p in self.tree()), 10, f"{self.name} gone")


@contextlib.contextmanager
def node(name: str, tmp_path: Path, redis_url: str) -> Iterator[Node]:
    """A serve with one gunicorn process and WORKERS workers on `redis_url`, webhooks to loopback allowed, no limit
    on active jobs; stopped with SIGTERM afterwards (SIGKILL for whatever is left)."""
    base = f"http://127.0.0.1:{free_port()}"
    environ = {k: v for k, v in os.environ.items() if k != "PROMETHEUS_MULTIPROC_DIR"}
    environ.update({"REDIS_URL": redis_url, "BIND": base.removeprefix("http://"), "WEB_CONCURRENCY": "1",
                    "LONGCARDS_WORKERS": str(WORKERS), "LONGCARDS_DATA_DIR": str(tmp_path / name),
                    "LONGCARDS_WEBHOOK_SECRET": WEBHOOK_SECRET, "LONGCARDS_WEBHOOK_ALLOW_PRIVATE": "true",
                    "LONGCARDS_MAX_ACTIVE_JOBS": "0", "LONGCARDS_STOP_GRACE": "2"})
    log = tmp_path / f"{name}.log"
    with log.open("wb") as out:
        process = subprocess.Popen([sys.executable, "-m", "service", "serve"], cwd=ROOT, env=environ, stdout=out,
                                   stderr=subprocess.STDOUT, start_new_session=True)
    this = Node(name, process, base, log)
    try:
        yield this
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=30)
        for leftover in this.tree():
            with contextlib.suppress(psutil.Error):
                leftover.kill()
        if process.poll() is None:
            process.kill()
            process.wait()


def request(base: str, method: str, path: str, body: Any = None,
            headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """One HTTP exchange on a fresh connection: status, headers, body (OSError when nothing answers)."""
    host, port = base.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=20)
    try:
        data = None if body is None else json.dumps(body).encode()
        connection.request(method, path, body=data, headers={"Content-Type": "application/json", **(headers or {})})
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def answers(base: str) -> bool:
    """Whether the API answers /healthz."""
    with contextlib.suppress(OSError):
        return request(base, "GET", "/healthz")[0] == 200
    return False


@dataclass
class Stream:
    """Submissions to the nodes in turn (to the live ones only), and probes of the survivor's API throughout."""

    nodes: list[Node]
    hook: str
    accepted: dict[str, tuple[str, float]] = field(default_factory=dict)  # job id -> (node, time submitted)
    refused: list[tuple[str, Any]] = field(default_factory=list)  # (node, status or error) of any other answer
    probes: Counter = field(default_factory=Counter)  # survivor answers by status (or error)
    bad_probes: list[Any] = field(default_factory=list)
    dead: set[str] = field(default_factory=set)
    turn: threading.Lock = field(default_factory=threading.Lock)  # held while a submission is in flight
    stop: threading.Event = field(default_factory=threading.Event)
    count: int = 0

    def body(self, n: int) -> tuple[str, dict]:
        """The n-th request: a small search or a replay of two logs (audits only), two of each in turn (so each
        of two nodes gets both), every one different."""
        if n // 2 % 2:
            return "/v1/searches", search_body(samples=150, time_budget=0.5, seed=n, callback_url=self.hook)
        return "/v1/replays", {"logs": batch(n % 30 + 2)[-2:], "review": {"mode": "none"}, "callback_url": self.hook}

    def submit(self) -> None:
        """Until stopped: one submission every GAP seconds, to the next live node."""
        while not self.stop.is_set():
            with self.turn:
                live = [n for n in self.nodes if n.name not in self.dead]
                target = live[self.count % len(live)]
                path, body = self.body(self.count)
                self.count += 1
                try:
                    status, _, raw = request(target.base, "POST", path, body, {"Idempotency-Key": f"s{self.count}"})
                    if status == 202:
                        self.accepted[json.loads(raw)["id"]] = (target.name, time.time())
                    else:
                        self.refused.append((target.name, status))
                except OSError as error:
                    self.refused.append((target.name, repr(error)))
            # The same load per live node: half as many submissions once one is dead, so a survivor's delay is the
            # death's, not a backlog's.
            time.sleep(GAP * len(self.nodes) / (len(self.nodes) - len(self.dead)))

    def probe(self, survivor: Node) -> None:
        """Until stopped: the survivor's /healthz, /readyz and a job's status, one every 0.2 s."""
        paths = ["/healthz", "/readyz", "/v1/jobs/none"]
        n = 0
        while not self.stop.is_set():
            path = paths[n % len(paths)]
            if path == "/v1/jobs/none" and self.accepted:
                path = f"/v1/jobs/{next(iter(self.accepted))}"
            n += 1
            try:
                status, headers, _ = request(survivor.base, "GET", path)
                self.probes[status] += 1
                if status >= 500 and not (status == 503 and headers.get("retry-after")):
                    self.bad_probes.append((path, status))
            except OSError as error:
                self.probes["error"] += 1
                self.bad_probes.append((path, repr(error)))
            time.sleep(0.2)


def busy_jobs(connection: Redis, pids: set[int]) -> dict[str, str]:
    """The jobs the workers with these pids run now: job id -> worker name."""
    running = {}
    for worker in Worker.all(connection=connection, serializer=SERIALIZER):
        job_id = worker.get_current_job_id()
        if worker.pid in pids and job_id:
            running[job_id] = worker.name
    return running


def scheduler_holder(connection: Redis, nodes: list[Node]) -> Node | None:
    """The node whose worker's scheduler holds the replays queue's lock (the first worker to start takes every
    queue's), if one does yet."""
    scheduler = connection.get(f"rq:scheduler-lock:{QUEUE_REPLAYS}")
    pid = scheduler and connection.hget(f"rq:scheduler:{scheduler.decode()}", "pid")
    return next((n for n in nodes if pid and int(pid) in {p.pid for p in n.tree()}), None)


def size(connection: Redis, registry: Any) -> int:
    """How many entries a registry holds, read with ZCARD: RQ's `count` would first clean it up, taking the dead
    node's jobs as abandoned in this process, with RQ's plain job class, instead of the workers doing it."""
    return int(connection.zcard(registry.key))


def settled(connection: Redis, accepted: list[str]) -> bool:
    """Every accepted job has ended, and no webhook delivery is queued, running or waiting for a retry."""
    if any(fetch(job_id, connection).get_status() not in ("finished", "failed") for job_id in accepted):
        return False
    hooks = queue(QUEUE_WEBHOOKS, connection)
    return (not hooks.count and not size(connection, hooks.scheduled_job_registry)
            and not any(size(connection, queue(name, connection).started_job_registry) for name in QUEUES))


def deliveries(receiver: Receiver) -> Counter:
    """Success webhooks by job id; every delivery must carry a valid signature."""
    counted: Counter = Counter()
    for headers, body in list(receiver.requests):
        assert verify(WEBHOOK_SECRET, headers[SIGNATURE_HEADER], body), headers
        payload = json.loads(body)
        counted[(payload["id"], payload["status"])] += 1
    return counted


def ended(connection: Redis, job_id: str) -> float:
    """The job's end as a unix time."""
    return fetch(job_id, connection).ended_at.replace(tzinfo=UTC).timestamp()


def test_two_nodes_lose_one_and_every_accepted_job_finishes_once(redis_server, tmp_path):
    server, connection = redis_server
    with receiving() as receiver, node("a", tmp_path, server.url) as a, node("b", tmp_path, server.url) as b:
        nodes = [a, b]
        began = time.monotonic()
        wait_for(lambda: answers(a.base) and answers(b.base), STARTUP, "both APIs", 0.5)
        wait_for(lambda: Worker.count(connection=connection) == 2 * WORKERS, STARTUP, "every worker", 0.5)
        # The worst case: the lost node holds the scheduler locks (retries wait for a live scheduler).
        holder = wait_for(lambda: scheduler_holder(connection, nodes), 30, "a node holding the scheduler lock")
        victim, survivor = (a, b) if holder is a else (b, a)
        print(f"\nboth nodes ready after {time.monotonic() - began:.0f} s; {victim.name} holds the scheduler locks "
              "and will be killed")
        stream = Stream(nodes, receiver.url)
        threads = [threading.Thread(target=stream.submit, daemon=True),
                   threading.Thread(target=stream.probe, args=(survivor,), daemon=True)]
        for thread in threads:
            thread.start()
        time.sleep(STREAM_BEFORE)
        victim_pids = victim.worker_pids()
        # Mid-work: both of the victim's workers run a search or a replay at the kill (one will do after 20 s: on a
        # quiet machine these jobs take tens of milliseconds), and no submission is in flight to the victim as it
        # dies. Not a webhook delivery: a delivery is at least once, and a worker lost between the receiver's
        # answer and the note of it on the job sends it twice (docs/reliability.md).
        deadline = time.monotonic() + 60
        while True:
            with stream.turn:
                running = busy_jobs(connection, victim_pids)
                analyses = all(fetch(j, connection).func_name != DELIVER_WEBHOOK for j in running)
                if analyses and len(running) >= (WORKERS if time.monotonic() < deadline - 40 else 1):
                    stream.dead.add(victim.name)
                    killed = time.time()
                    victim.kill()
                    break
            if time.monotonic() > deadline:
                pytest.fail("the victim's workers ran no job for a minute")
            time.sleep(0.02)
        running.update(busy_jobs(connection, victim_pids))  # a job taken in the instant before the stop
        print(f"killed {victim.name} with {len(stream.accepted)} jobs accepted, running {sorted(running)}")
        time.sleep(STREAM_AFTER)
        stream.stop.set()
        for thread in threads:
            thread.join(timeout=30)
        accepted = list(stream.accepted)
        wait_for(lambda: settled(connection, accepted), BACK_WITHIN + 60, "every accepted job to end", 0.5)
        time.sleep(1)  # a duplicate delivery would be on its way now

    assert not stream.refused, stream.refused
    assert not stream.bad_probes, (stream.bad_probes, stream.probes)
    # Every accepted job finished once: one result, a success, nothing failed or left running.
    for job_id in accepted:
        job = fetch(job_id, connection)
        results = Result.all(job, serializer=SERIALIZER)
        assert job.get_status() == JobStatus.FINISHED, (job_id, job.get_status(), job.latest_result())
        assert [r.type for r in results] == [Result.Type.SUCCESSFUL], (job_id, results)
    for name in QUEUES:
        jobs = queue(name, connection)
        assert not size(connection, jobs.started_job_registry) and not size(connection, jobs.failed_job_registry), name
    finished = {j.decode() for name in (QUEUE_REPLAYS, QUEUE_SEARCHES)
                for j in connection.zrange(queue(name, connection).finished_job_registry.key, 0, -1)}
    assert set(accepted) <= finished
    # One success webhook per accepted job, and nothing else.
    counted = deliveries(receiver)
    assert {job_id for job_id, _ in counted} == set(accepted)
    assert all(status == "finished" for _, status in counted), counted
    duplicates = {key: n for key, n in counted.items() if n != 1}
    assert not duplicates, duplicates
    # The dead node's jobs: taken again (a retry spent) and finished on the survivor within the target. A job
    # whose end was recorded in the instant between the look and the kill finished on the victim.
    running = {job_id: worker for job_id, worker in running.items() if ended(connection, job_id) > killed}
    assert running, "the victim ran no job at the kill"
    back = {job_id: ended(connection, job_id) - killed for job_id in running}
    for job_id in running:
        job = fetch(job_id, connection)
        assert job.worker_name not in running.values(), (job_id, job.worker_name)
        assert job.retries_left == SPECS[job.func_name].retries - 1, (job_id, job.func_name, job.retries_left)
    print(f"{len(accepted)} jobs accepted ({sum(n == victim.name for n, _ in stream.accepted.values())} by the "
          f"victim), {sum(counted.values())} webhooks; survivor probes {dict(stream.probes)}")
    kinds = Counter(fetch(job_id, connection).func_name.rpartition(".")[2] for job_id in running)
    print(f"the dead node's {len(running)} jobs ({dict(kinds)}) finished on the survivor {min(back.values()):.1f}-"
          f"{max(back.values()):.1f} s after the kill (target {BACK_WITHIN} s)")
    for label, chosen in (("before", lambda t: t < killed), ("after", lambda t: t >= killed)):
        jobs = [fetch(j, connection) for j, (n, t) in stream.accepted.items()
                if n == survivor.name and chosen(t) and j not in running]
        waits = [(job.started_at - job.enqueued_at).total_seconds() for job in jobs]
        times = [(job.ended_at - job.enqueued_at).total_seconds() for job in jobs]
        if jobs:
            print(f"jobs submitted to the survivor {label} the kill: {len(jobs)}; queued median "
                  f"{statistics.median(waits):.2f} s (max {max(waits):.2f}), submission to end median "
                  f"{statistics.median(times):.2f} s (max {max(times):.2f})")
    assert max(back.values()) <= BACK_WITHIN
