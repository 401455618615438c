"""`python -m service serve` for real: a worker child killed is started again while the API keeps answering;
the embedded Redis keeps its data and socket under the run directory (or the socket in a short temporary
directory when that path is too long, said on stdout), with gunicorn's control socket beside it. Ctrl-C at the
terminal (SIGINT to serve's whole process group) and SIGTERM to serve alone stop everything within 5 s, leaving no
process behind; a job running at the stop, or when serve is killed outright, goes back on its queue and the next
serve finishes it. The measured times are printed (`pytest -s`)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest
from redis import Redis
from redis.exceptions import RedisError
from rq import Queue, Worker

from service.jobs.queues import QUEUE_SEARCHES, QUEUES, SERIALIZER, fetch
from service.runtime.serve import METRIC_FILE
from tests.support.jobs import batch, search_body
from tests.support.ports import free_port
from tests.support.processes import ROOT, running, wait_for
from tests.support.redis import RedisServer

pytestmark = pytest.mark.slow  # each test starts `python -m service serve` and waits for its workers

STARTUP = 90  # gunicorn and each worker build the evaluation tables first, on 2 shared cores
STOPS_WITHIN = 5  # seconds from the stop signal until every process of an idle serve is gone


SERVE = [sys.executable, "-m", "service", "serve"]


def serve_environ(base: str, run_dir: Path, workers: int, **env: str) -> dict[str, str]:
    """serve's environment: one gunicorn process listening at `base`, `workers` RQ workers, the run directory, and
    neither the test process's REDIS_URL nor its metrics directory (unless `env` gives them)."""
    environ = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "PROMETHEUS_MULTIPROC_DIR")}
    return {**environ, "BIND": base.removeprefix("http://"), "WEB_CONCURRENCY": "1",
            "LONGCARDS_WORKERS": str(workers), "LONGCARDS_DATA_DIR": str(run_dir), **env}


@contextlib.contextmanager
def serve_process(log: Path, environ: dict[str, str]) -> Iterator[subprocess.Popen]:
    """`python -m service serve` with `environ`, its output in `log`; whatever is left of it killed afterwards."""
    with log.open("wb") as out:
        process = subprocess.Popen(SERVE, cwd=ROOT, env=environ, stdout=out, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    try:
        yield process
    finally:
        if process.poll() is None:
            for child in psutil.Process(process.pid).children(recursive=True):
                with contextlib.suppress(psutil.NoSuchProcess):
                    child.kill()
            process.kill()
            process.wait()


@contextlib.contextmanager
def serving(log: Path, run_dir: Path, workers: int, **env: str) -> Iterator[tuple[subprocess.Popen, str]]:
    """A `python -m service serve` with one gunicorn process on a free loopback port; SIGTERMed afterwards unless
    the test stopped it, and it must then stop with every child."""
    base = f"http://127.0.0.1:{free_port()}"
    with serve_process(log, serve_environ(base, run_dir, workers, **env)) as process:
        wait_for(lambda: status(base, "/healthz") == 200, STARTUP, f"the API ({log.read_text()[-2000:]})", 0.2)
        yield process, base
        if process.poll() is None:
            children = psutil.Process(process.pid).children(recursive=True)
            process.send_signal(signal.SIGTERM)
            assert process.wait(timeout=40) == 0, log.read_text()[-3000:]
            gone, alive = psutil.wait_procs(children, timeout=10)
            assert not alive, f"left running: {alive}"


def status(base: str, path: str) -> int | None:
    """The HTTP status of a GET, or None when nothing answers."""
    try:
        with urllib.request.urlopen(base + path, timeout=5) as response:
            return response.status
    except urllib.error.HTTPError as error:
        error.close()
        return error.code
    except OSError:
        return None


def post(url: str, body: dict) -> tuple[int, dict]:
    """Status and JSON answer of a JSON POST."""
    call = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(call, timeout=10) as response:
        return response.status, json.loads(response.read())


def job_status(base: str, job_id: str) -> str | None:
    """The job's status as GET /v1/jobs/{id} says, None when the API does not answer."""
    try:
        with urllib.request.urlopen(f"{base}/v1/jobs/{job_id}", timeout=5) as response:
            return json.loads(response.read())["status"]
    except OSError:
        return None


def embedded_redis(run_dir: Path) -> Redis:
    """A client of the embedded Redis of a serve with this run directory."""
    return Redis.from_url(f"unix://{run_dir / 'redis' / 'redis.sock'}?db=0")


def ready_with_scheduler(serve: subprocess.Popen, redis: Redis, workers: int) -> bool:
    """Every worker is registered and a scheduler process holds every queue's lock."""
    with contextlib.suppress(OSError, psutil.Error, RedisError):
        return (Worker.count(connection=redis) == workers and len(worker_children(serve)) == workers
                and all(redis.exists(f"rq:scheduler-lock:{name}") for name in QUEUES)
                and any(worker.children() for worker in worker_children(serve)))
    return False


def stop_and_time(serve: subprocess.Popen, how: str, within: float) -> float:
    """Stop serve by `how` (`ctrl-c`: SIGINT to its whole process group, as a terminal sends it; `sigterm`: to serve
    alone; `second ctrl-c`: SIGINT to the group twice, 1.5 s apart; `kill -9`: SIGKILL to serve alone, so its
    children get SIGTERM from the kernel all at once); seconds until serve and every process it had started are
    gone, which must be within `within`."""
    tree = [psutil.Process(serve.pid), *psutil.Process(serve.pid).children(recursive=True)]
    began = time.monotonic()
    if how == "sigterm":
        serve.send_signal(signal.SIGTERM)
    elif how == "kill -9":
        serve.send_signal(signal.SIGKILL)
    else:
        os.killpg(serve.pid, signal.SIGINT)
    if how == "second ctrl-c":
        time.sleep(1.5)
        os.killpg(serve.pid, signal.SIGINT)
    wait_for(lambda: serve.poll() is not None and not any(running(p) for p in tree), within,
             f"serve and its {len(tree) - 1} processes to end ({how}); left: "
             f"{[(p.pid, p.name()) for p in tree if running(p)]}", 0.02)
    assert serve.returncode == (-signal.SIGKILL if how == "kill -9" else 0)
    return time.monotonic() - began


def worker_children(serve: subprocess.Popen) -> list[psutil.Process]:
    """serve's running `python -m workers` children."""
    found = []
    for process in psutil.Process(serve.pid).children():
        with contextlib.suppress(psutil.ZombieProcess, psutil.NoSuchProcess):
            if process.cmdline()[1:3] == ["-m", "workers"]:
                found.append(process)
    return found


def test_serve_restarts_a_killed_worker_and_the_api_keeps_answering(tmp_path):
    server = RedisServer(tmp_path / "redis")
    server.start()
    connection = Redis.from_url(server.url)
    log = tmp_path / "serve.log"
    try:
        with serving(log, tmp_path / "run", 2, REDIS_URL=server.url) as (serve, base):
            wait_for(lambda: Worker.count(connection=connection) == 2, STARTUP, "two workers")
            first = worker_children(serve)
            victim = first[0]
            for process in [*victim.children(recursive=True), victim]:
                process.kill()
            killed = time.monotonic()
            assert status(base, "/healthz") == 200 and status(base, "/readyz") == 200  # the other worker is alive
            [new] = wait_for(lambda: [p for p in worker_children(serve) if p not in first], 30, "a new worker")
            started = time.monotonic() - killed
            wait_for(lambda: new.pid in {w.pid for w in Worker.all(connection=connection)}, STARTUP,
                     "the new worker to register")
            print(f"\nworker restarted {started:.1f} s after the kill, registered {time.monotonic() - killed:.1f} s")
            assert len(worker_children(serve)) == 2 and serve.poll() is None
            assert status(base, "/healthz") == 200 and status(base, "/readyz") == 200
            assert re.search(rf"worker-\d \(pid {victim.pid}\) exited with -9 .*restarting in 1 s", log.read_text())
    finally:
        connection.close()
        server.stop()


def read(url: str) -> bytes:
    """The body of a GET."""
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.read()


def test_serve_keeps_the_embedded_redis_the_control_socket_and_the_metrics_under_the_run_dir(tmp_path):
    """Everything serve writes is under its run directory, kept for the next start: no temporary directory is
    left behind by each start. A stored game is kept too: the next serve on the run directory answers the same
    bytes for it."""
    run_dir = tmp_path / "run"
    temporary = set(Path(tempfile.gettempdir()).glob("longcards-metrics-*"))
    with serving(tmp_path / "serve.log", run_dir, 0) as (serve, base):
        assert status(base, "/healthz") == 200
        created, share = post(f"{base}/v1/shares", {"logs": batch(2), "title": "kept"})
        assert created == 201
        stored = read(f"{base}/v1/shares/{share['id']}")
        assert status(base, "/metrics") == 200
        assert any(METRIC_FILE.fullmatch(path.name) for path in (run_dir / "metrics").iterdir())
        redis = Redis.from_url(f"unix://{run_dir / 'redis' / 'redis.sock'}")
        redis.set("kept", "yes")
        redis.close()
        # gunicorn binds its control socket from a thread it starts once the workers are up, so the API can answer
        # a moment before the socket is there.
        wait_for(lambda: (run_dir / "gunicorn.ctl").is_socket(), 30, "gunicorn's control socket", 0.05)
    assert list((run_dir / "redis").glob("appendonly*"))  # the append-only file (a directory from Redis 7)
    with serving(tmp_path / "again.log", run_dir, 0) as (serve, again):
        redis = Redis.from_url(f"unix://{run_dir / 'redis' / 'redis.sock'}")
        assert redis.get("kept") == b"yes"
        redis.close()
        # the same bytes but for its links, which name the port of the serve that answers
        assert read(f"{again}/v1/shares/{share['id']}") == stored.replace(base.encode(), again.encode())
    assert set(Path(tempfile.gettempdir()).glob("longcards-metrics-*")) == temporary


def test_serve_moves_a_socket_whose_path_is_too_long_and_says_so(tmp_path):
    run_dir = tmp_path / ("deep-" * 20)
    log = tmp_path / "serve.log"
    with serving(log, run_dir, 0):
        said = log.read_text()
        url = re.search(r"embedded Redis at (unix://\S+),", said).group(1)
        assert "is too long for a unix socket" in said and str(run_dir) not in url
        redis = Redis.from_url(url)
        assert redis.ping() and redis.config_get("dir")["dir"] == str(run_dir / "redis")
        redis.close()


def test_serve_says_where_the_pages_and_the_docs_are_once_ready(session_serve):
    """The session's serve (tests/support/serving.py), once ready, says where everything is, once."""
    base, log = session_serve.base, session_serve.log
    wait_for(lambda: "OpenAPI spec" in log.read_text(), 30, "the ready report")
    said = log.read_text()
    for line in (f"serve: hand lab:      {base}/ui\n", f"serve: replay viewer: {base}/ui/replay\n",
                 f"serve: drills:        {base}/ui/drill\n", f"serve: rules:         {base}/docs/rules\n",
                 f"serve: API docs:      {base}/docs\n", f"serve: OpenAPI spec:  {base}/openapi.json\n"):
        assert line in said, said[-2000:]
    assert said.count("serve: ready\n") == 1
    for page in ("/ui", "/ui/replay", "/ui/drill", "/docs/rules", "/docs", "/openapi.json"):
        assert status(base, page) == 200, page


@pytest.mark.parametrize("how", ["ctrl-c", "sigterm"])
def test_serve_stops_within_5_s_and_leaves_no_process_behind(tmp_path, how):
    """An idle serve with the embedded Redis, two workers (one with its scheduler process) and gunicorn: Ctrl-C at
    the terminal or SIGTERM to serve ends serve and every process it started within 5 s."""
    log = tmp_path / "serve.log"
    run_dir = tmp_path / "run"
    with serving(log, run_dir, 2) as (serve, base):
        redis = embedded_redis(run_dir)
        wait_for(lambda: ready_with_scheduler(serve, redis, 2), STARTUP, "two workers and their scheduler")
        redis.close()
        names = [" ".join(p.cmdline()) for p in psutil.Process(serve.pid).children(recursive=True)]
        assert sum(n.split()[0].endswith("redis-server") for n in names) == 1, names
        assert sum("gunicorn" in n for n in names) == 2 and sum("service.runtime.keeper" in n for n in names) == 1
        seconds = stop_and_time(serve, how, STOPS_WITHIN)
        print(f"\nserve stopped by {how} in {seconds:.2f} s, all {len(names) + 1} processes gone")
    assert "serve: stopped in" in log.read_text()


@pytest.mark.parametrize("how", ["grace", "second ctrl-c", "kill -9"])
def test_a_job_running_when_serve_stops_goes_back_on_its_queue_and_the_next_serve_finishes_it(tmp_path, how):
    """Ctrl-C while a search runs: with a 2 s grace (or a 600 s one cut short by a second Ctrl-C) serve stops
    within 15 s, the job is stored back first in its queue with its retries untouched, and a serve started again
    on the same run directory finishes it. The same when serve itself is killed outright: its children get SIGTERM
    together, and the embedded Redis (under its keeper) outlives the worker that puts the job back."""
    run_dir = tmp_path / "run"
    grace = "600" if how == "second ctrl-c" else "2"
    with serving(tmp_path / "serve.log", run_dir, 1, LONGCARDS_STOP_GRACE=grace) as (serve, base):
        redis = embedded_redis(run_dir)
        wait_for(lambda: ready_with_scheduler(serve, redis, 1), STARTUP, "the worker and its scheduler")
        redis.close()
        status, job = post(f"{base}/v1/searches", search_body(samples=200_000, time_budget=10))
        assert status == 202
        wait_for(lambda: job_status(base, job["id"]) == "started", 60, "the search to start")
        seconds = stop_and_time(serve, how, 15)
        print(f"\nserve stopped with a job running ({how}) in {seconds:.2f} s")
    stored = RedisServer(run_dir / "redis", persist=True)
    stored.start()
    redis = Redis.from_url(stored.url)
    try:
        back = fetch(job["id"], redis)
        log = (tmp_path / "serve.log").read_text()[-6000:]
        assert (back.get_status(), back.retries_left) == ("queued", 3), log
        assert Queue(QUEUE_SEARCHES, connection=redis, serializer=SERIALIZER).job_ids == [job["id"]]
    finally:
        redis.close()
        stored.stop()
    with serving(tmp_path / "again.log", run_dir, 1) as (serve, base):
        began = time.monotonic()
        wait_for(lambda: job_status(base, job["id"]) == "finished", 120, "the search to finish", 0.5)
        print(f"finished {time.monotonic() - began:.1f} s after the next serve answered")
        with urllib.request.urlopen(f"{base}/v1/jobs/{job['id']}", timeout=5) as response:
            answer = json.loads(response.read())
        assert answer["retries_left"] == 3 and answer["result"]["candidates"]


def untouched(control: Path, metrics: Path, redis: Redis) -> tuple:
    """What a second serve must leave as it is: the control socket (the same file), the metric files and the Redis
    server (the same process, with the first serve's data)."""
    files = sorted((f.name, f.stat().st_ino) for f in metrics.iterdir())
    assert files, "no metric files yet: nothing to compare"
    return (control.is_socket() and control.stat().st_ino, files, redis.info("server")["run_id"], redis.get("first"))


@pytest.mark.parametrize("redis_url", [False, True], ids=["embedded Redis", "REDIS_URL"])
def test_a_second_serve_on_the_same_data_dir_stops_at_once_naming_the_first(tmp_path, redis_url):
    """A serve runs on the data directory: a second one on it (another port) exits with 2 and one line naming the
    first one's pid, whether or not REDIS_URL is set, before starting anything; the first one's Redis, control
    socket and metric files are as they were, and it goes on answering."""
    run_dir, metrics, log = tmp_path / "run", tmp_path / "metrics", tmp_path / "first.log"
    metrics.mkdir()
    env = {"PROMETHEUS_MULTIPROC_DIR": str(metrics)}
    server = RedisServer(tmp_path / "redis")
    if redis_url:
        server.start()
        env["REDIS_URL"] = server.url
    try:
        with serving(log, run_dir, 0, **env) as (first, base):
            wait_for(lambda: "serve: ready" in log.read_text(), 30, "serve: ready")
            control = run_dir / "gunicorn.ctl"
            wait_for(control.is_socket, 30, "gunicorn's control socket", 0.05)
            redis = Redis.from_url(server.url if redis_url else f"unix://{run_dir / 'redis' / 'redis.sock'}?db=0")
            redis.set("first", "kept")
            before = untouched(control, metrics, redis)
            began = time.monotonic()
            second = subprocess.run(SERVE, cwd=ROOT, capture_output=True, text=True, timeout=30,
                                    env=serve_environ(f"127.0.0.1:{free_port()}", run_dir, 0, **env))
            print(f"\nthe second serve ended in {time.monotonic() - began:.2f} s")
            said = (second.stdout + second.stderr).splitlines()
            assert second.returncode == 2 and len(said) == 1, said
            assert said[0].startswith("serve: not started: another serve") and f"(pid {first.pid})" in said[0], said
            assert str(run_dir) in said[0]
            assert untouched(control, metrics, redis) == before
            assert status(base, "/healthz") == 200
            redis.close()
    finally:
        server.stop()


def test_serve_waits_for_the_redis_of_a_killed_serve_and_a_stop_signal_ends_the_wait(tmp_path):
    """The Redis of a serve that was killed outlives it while its keeper waits for the workers to end
    (service/runtime/keeper.py): the next serve on the data directory waits for it to stop, saying so, and a SIGTERM
    meanwhile ends that serve at once (exit 0, no traceback), that Redis left be; once that Redis stops, the next
    serve starts on the data."""
    run_dir = tmp_path / "run"
    earlier = RedisServer(run_dir / "redis", persist=True)  # as the killed serve's keeper runs it
    earlier.start()
    try:
        log = tmp_path / "stopped.log"
        with serve_process(log, serve_environ(f"127.0.0.1:{free_port()}", run_dir, 0)) as waiting:
            wait_for(lambda: "still stopping" in log.read_text() or waiting.poll() is not None, STARTUP,
                     "serve to wait for the earlier Redis")
            assert waiting.poll() is None, log.read_text()
            waiting.send_signal(signal.SIGTERM)
            assert waiting.wait(timeout=10) == 0, log.read_text()
        assert "Traceback" not in log.read_text() and earlier.process.poll() is None
        base = f"http://127.0.0.1:{free_port()}"
        log = tmp_path / "started.log"
        with serve_process(log, serve_environ(base, run_dir, 0)) as starting:
            wait_for(lambda: "still stopping" in log.read_text(), STARTUP, "serve to wait for the earlier Redis")
            earlier.stop()
            wait_for(lambda: status(base, "/healthz") == 200, STARTUP, f"the API ({log.read_text()[-2000:]})", 0.2)
            starting.send_signal(signal.SIGTERM)
            assert starting.wait(timeout=40) == 0, log.read_text()[-3000:]
    finally:
        earlier.stop()
