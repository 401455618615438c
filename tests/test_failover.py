"""The service survives the loss of its Redis primary, for real: a primary, a replica and three Sentinels
(tests/support/sentinel.py), `python -m service serve` reaching them through REDIS_SENTINELS, a stream of small
searches and replays, and the primary SIGKILLed mid-stream. Measured and printed (`pytest -s`): the submissions
refused (503 with Retry-After, sent again with the same Idempotency-Key until accepted) and failed (anything else:
none may be), how long /readyz said not ready and when the API was ready again (target <= 30 s), when the
Sentinels promoted the replica, when the rate limit counted on the promoted replica again, and the accepted
jobs lost (target 0: every 202 job finishes with a result, those accepted after the failover included, so the
workers work on the promoted primary, and a replay that was running on a worker at the kill). A game stored
before the kill (POST /v1/shares, acknowledged by the replica) reads back the same bytes after it."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import psutil
import pytest

from tests.support.jobs import batch, search_body
from tests.support.ports import free_port
from tests.support.processes import ROOT, wait_for
from tests.support.sentinel import RedisGroup, redis_group

pytestmark = pytest.mark.slow

STARTUP = 75  # gunicorn and two workers build the evaluation tables first, on 2 shared cores
READY_AGAIN_WITHIN = 30  # seconds from the kill until /readyz answers 200 again
STREAM_AFTER_READY = 3  # seconds the stream goes on once the API is ready again
LONG_REPLAY = 12  # logs, each reviewed: a replay of a few seconds (0.1-0.3 s a log), running at the kill
DRAIN = 40  # seconds every accepted job has to finish
DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # never through an http_proxy


def call(method: str, url: str, body: Any = None, headers: dict[str, str] | None = None,
         timeout: float = 15) -> tuple[int | None, dict[str, str], Any]:
    """Status, headers and JSON body of one request; (None, {}, error) when no HTTP answer came."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method,
                                     headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with DIRECT.open(request, timeout=timeout) as response:
            return response.status, dict(response.headers), json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        with error:
            raw = error.read()
            return error.code, dict(error.headers), json.loads(raw) if raw else None
    except OSError as error:
        return None, {}, repr(error)


@dataclass
class Stream:
    """Submissions sent one after another until stopped; a refused one is sent again with its key."""

    base: str
    stop: threading.Event = field(default_factory=threading.Event)
    accepted: dict[str, tuple[str, float]] = field(default_factory=dict)  # key -> (job id, when)
    refused: list[tuple[float, int, dict[str, str], Any]] = field(default_factory=list)
    slowest_refusal: float = 0.0
    failed: list[tuple[float, int | None, Any]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def run(self) -> None:
        """Alternate small searches and one-log replays, each under its own Idempotency-Key."""
        logs, number = batch(1), 0
        while not self.stop.is_set():
            key = f"stream-{number}"
            path, body = ("/v1/searches", search_body(samples=20, time_budget=0.2, seed=number)) if number % 2 else \
                ("/v1/replays", {"logs": logs})
            sent = time.monotonic()
            status, headers, answer = call("POST", self.base + path, body, {"Idempotency-Key": key})
            with self.lock:
                if status == 202:
                    self.accepted[key] = (answer["id"], time.monotonic())
                    number += 1
                elif status == 503:
                    self.refused.append((time.monotonic(), status, headers, answer))
                    self.slowest_refusal = max(self.slowest_refusal, time.monotonic() - sent)
                else:
                    self.failed.append((time.monotonic(), status, answer))
            # About five jobs a second, what two workers keep up with; after a 503 the same key again.
            time.sleep(0.2)


@dataclass
class Readiness:
    """GET /readyz polled until stopped: (began, ended, status) of each."""

    base: str
    stop: threading.Event = field(default_factory=threading.Event)
    probes: list[tuple[float, float, int | None]] = field(default_factory=list)

    def run(self) -> None:
        while not self.stop.is_set():
            began = time.monotonic()
            status, _, _ = call("GET", self.base + "/readyz", timeout=10)
            self.probes.append((began, time.monotonic(), status))
            time.sleep(0.1)

    def ready_again(self, since: float) -> float | None:
        """When the first probe begun after `since` answered 200."""
        return next((ended for began, ended, status in list(self.probes) if began > since and status == 200), None)


@contextlib.contextmanager
def serving(group: RedisGroup, run_dir: Path, log: Path) -> Iterator[str]:
    """`python -m service serve` (one gunicorn process, two workers) on the group's Sentinels; its base URL once
    /readyz is 200. It and everything it started are killed afterwards."""
    base = f"http://127.0.0.1:{free_port()}"
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "PROMETHEUS_MULTIPROC_DIR")}
    env.update(group.env, BIND=base.removeprefix("http://"), WEB_CONCURRENCY="1", LONGCARDS_WORKERS="2",
               LONGCARDS_DATA_DIR=str(run_dir), LONGCARDS_MAX_ACTIVE_JOBS="0", LONGCARDS_RATE_LIMIT="100000/hour")
    with log.open("wb") as out:
        process = subprocess.Popen([sys.executable, "-m", "service", "serve"], cwd=ROOT, env=env, stdout=out,
                                   stderr=subprocess.STDOUT, start_new_session=True)
    try:
        wait_for(lambda: call("GET", base + "/readyz", timeout=2)[0] == 200, STARTUP,
                 f"the service to be ready ({log.read_text()[-2000:]})", 0.25)
        yield base
    finally:  # killed outright: how serve stops is tests/test_serve.py's business, not this test's
        children = psutil.Process(process.pid).children(recursive=True) if process.poll() is None else []
        process.kill()
        process.wait(timeout=10)
        for child in children:
            with contextlib.suppress(psutil.NoSuchProcess):
                child.kill()
        psutil.wait_procs(children, timeout=10)


def worker_stacks(log: Path) -> str:
    """Every worker process of this test's serve (and work horse) writes the stacks of its threads to the serve log
    (SIGUSR2: workers/__main__.py); the log's end, to say where a worker that never ended its job was waiting."""
    for child in psutil.Process().children(recursive=True):
        with contextlib.suppress(psutil.Error):
            if "workers" in child.cmdline():
                child.send_signal(signal.SIGUSR2)
    time.sleep(1)
    return log.read_text(errors="replace")[-8000:]


def counted(group: RedisGroup) -> int:
    """Requests the rate limit has counted on the replica the Sentinels promote (a fixed window of an hour, from the
    first request: it does not start again during the test)."""
    node = group.node("replica")
    try:
        return sum(int(node.get(key) or 0) for key in node.keys("LIMITS:LIMITER/longcards/*"))
    finally:
        node.close()


def raw(url: str) -> tuple[int | None, bytes]:
    """Status and body bytes of a GET; (None, b"") when no HTTP answer came."""
    try:
        with DIRECT.open(url, timeout=15) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        with error:
            return error.code, error.read()
    except OSError:
        return None, b""


def finished(base: str, job_id: str) -> bool:
    """The job has finished with a result."""
    status, _, answer = call("GET", f"{base}/v1/jobs/{job_id}")
    return status == 200 and answer["status"] == "finished" and answer["result"] is not None


def test_the_service_survives_the_loss_of_its_redis_primary(tmp_path):
    began = time.monotonic()
    with redis_group(tmp_path / "redis") as group, serving(group, tmp_path / "run", tmp_path / "serve.log") as base:
        started = time.monotonic()
        # A stored game, acknowledged by the replica before its 201: the promoted replica answers the same bytes.
        status, _, share = call("POST", base + "/v1/shares", {"logs": batch(2), "title": "before the failover"})
        assert status == 201, share
        stored = raw(f"{base}/v1/shares/{share['id']}")
        assert stored[0] == 200, stored
        stream, readiness = Stream(base), Readiness(base)
        threads = [threading.Thread(target=task.run, daemon=True) for task in (stream, readiness)]
        for thread in threads:
            thread.start()
        wait_for(lambda: len(stream.accepted) >= 10, 20, "ten accepted submissions before the kill", 0.1)
        # A longer replay, running when the primary dies: its worker must carry it over to the promoted replica.
        status, _, running = call("POST", base + "/v1/replays", {"logs": batch(LONG_REPLAY)})
        assert status == 202, running
        wait_for(lambda: call("GET", f"{base}/v1/jobs/{running['id']}")[2]["status"] == "started", 20,
                 "the long replay to start", 0.05)
        killed, killed_at = time.monotonic(), time.time()
        group.kill("primary")
        promoted = wait_for(lambda: group.primary_port() == group.ports["replica"] and time.monotonic(),
                            READY_AGAIN_WITHIN, "the Sentinels to promote the replica", 0.1)
        ready = wait_for(lambda: readiness.ready_again(killed), READY_AGAIN_WITHIN, "/readyz to answer 200 again", 0.1)
        accepted_before = sum(1 for _, when in stream.accepted.values() if when < killed)
        # Flask-Limiter counts in memory while Redis fails, and tries Redis again after 1, 2, 4... s.
        at_ready = counted(group)
        limits_back = wait_for(lambda: counted(group) > at_ready and time.monotonic(), 20,
                               "the rate limit to count on the promoted replica", 0.2)
        time.sleep(STREAM_AFTER_READY)
        for task in (stream, readiness):
            task.stop.set()
        for thread in threads:
            thread.join(timeout=30)
        with stream.lock:
            accepted, refused, failed = dict(stream.accepted), list(stream.refused), list(stream.failed)
        after = sum(1 for _, when in accepted.values() if when > killed)
        drain_began = time.monotonic()
        unfinished = {key: job_id for key, (job_id, _) in accepted.items()}
        unfinished["long"] = running["id"]
        deadline = time.monotonic() + DRAIN
        while unfinished and time.monotonic() < deadline:
            unfinished = {key: job_id for key, job_id in unfinished.items() if not finished(base, job_id)}
            time.sleep(0.5)
        left = {job_id: call("GET", f"{base}/v1/jobs/{job_id}")[2] for job_id in list(unfinished.values())[:5]}
        stacks = worker_stacks(tmp_path / "serve.log") if unfinished else ""
        not_ready = [status for start, _, status in readiness.probes if start > killed and status != 200]
        long_job = call("GET", f"{base}/v1/jobs/{running['id']}")[2]
        stored_after = raw(f"{base}/v1/shares/{share['id']}")
        across = long_job["ended_at"] is not None and \
            datetime.fromisoformat(long_job["ended_at"]).timestamp() > killed_at
        print(f"\nfailover: replica promoted {promoted - killed:.1f} s after the kill, API ready again after "
              f"{ready - killed:.1f} s ({len(not_ready)} /readyz probes not ready), rate limits counted in Redis again "
              f"after {limits_back - killed:.1f} s; submissions accepted "
              f"{len(accepted)} ({accepted_before} before the kill, {after} after), refused {len(refused)} (503, the "
              f"slowest answered in {stream.slowest_refusal:.2f} s), failed {len(failed)}; the replay running at the "
              f"kill {long_job['status']} (ended after the kill: {across}); the game stored before the kill "
              f"{'read back the same' if stored_after == stored else 'LOST OR CHANGED'}; accepted jobs lost "
              f"{len(unfinished)} (all drained in {time.monotonic() - drain_began:.1f} s); serve ready "
              f"{started - began:.1f} s after the start, test {time.monotonic() - began:.1f} s")
    assert not failed, f"submissions answered neither 202 nor 503: {failed[:5]}"
    for _, status, headers, answer in refused:
        assert status == 503 and int(headers["Retry-After"]) >= 1, headers
        assert headers["Content-Type"].startswith("application/problem+json"), headers
        assert answer["code"] in ("jobs_unavailable", "not_replicated"), answer
    assert ready - killed <= READY_AGAIN_WITHIN
    assert after >= 3, "the API accepted too few jobs after the failover to show it works"
    assert not unfinished, f"accepted jobs lost or never finished: {left}; the workers' stacks and the log:\n{stacks}"
    assert not_ready, "/readyz never said not ready while the primary was gone"
    assert across, "the long replay was not running when the primary died: it shows nothing"
    assert stored_after == stored, f"the game stored before the failover reads otherwise after it: {stored_after[:2]}"
