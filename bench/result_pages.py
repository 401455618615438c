"""What reading one page of a large replay result costs the API: time and memory of
`GET /v1/jobs/{id}?logs_offset=I&logs_limit=1` on a finished 200-log replay job, beside the whole result.

Usage: .venv/bin/python bench/result_pages.py [--logs 200] [--requests 40] [--redis-url URL] [--json]
Runs a private redis-server on a free loopback port (or uses --redis-url, whose database must be empty), submits
one replay of `--logs` simulated logs through the app (in process, `app.test_client()`), lets `python -m workers
--burst` run it, then reads pages of one log each at spread offsets: wall time per request (median and worst, no
tracing), the Python heap's peak during one request (tracemalloc, the request's own allocations) and how far the
process's peak resident size (ru_maxrss) grew over all the page reads, which come first in a fresh process. The
whole result is read last, for reference (its time, heap peak and answer size).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from jobs import simulated_logs, start_redis  # noqa: E402

from service.app import create_app  # noqa: E402
from service.jobs.queues import connect  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def finished_job(client, url: str, logs: list[dict], log_dir: str) -> str:
    """Submit the replay and run it with a burst worker; the finished job's id."""
    created = client.post("/v1/replays", json={"logs": logs})
    if created.status_code != 202:
        raise SystemExit(f"submission refused: {created.status_code} {created.get_data(as_text=True)[:300]}")
    job_id = created.get_json()["id"]
    with open(os.path.join(log_dir, "worker.log"), "ab") as log:
        worker = subprocess.run([sys.executable, "-m", "workers", "--burst"], cwd=ROOT, stdout=log,
                                stderr=subprocess.STDOUT, env={**os.environ, "REDIS_URL": url}, timeout=900)
    [listed] = client.get("/v1/jobs?limit=1").get_json()["jobs"]  # the list leaves results out
    status = listed["status"]
    if worker.returncode != 0 or status != "finished":
        raise SystemExit(f"the job did not finish ({status}); worker exit {worker.returncode}")
    return job_id


def traced(client, path: str) -> tuple[int, int]:
    """The heap's peak growth (bytes) during one request, and the answer's size."""
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        body = client.get(path).get_data()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return peak - base, len(body)


def timed(client, path: str) -> float:
    """Seconds of one request."""
    start = time.perf_counter()
    client.get(path).get_data()
    return time.perf_counter() - start


def maxrss_mb() -> float:
    """This process's peak resident size so far, MB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measure(client, job_id: str, logs: int, requests: int) -> dict:
    """Page reads first (time, heap, RSS growth), then the whole result."""
    offsets = [(i * 37) % logs for i in range(requests)]
    pages = [f"/v1/jobs/{job_id}?logs_offset={o}&logs_limit=1" for o in offsets]
    rss_before = maxrss_mb()
    times = [timed(client, path) for path in pages]
    rss_after = maxrss_mb()
    heaps, sizes = zip(*(traced(client, path) for path in pages[:10]))
    whole = f"/v1/jobs/{job_id}"
    whole_times = [timed(client, whole) for _ in range(3)]
    whole_heap, whole_size = traced(client, whole)
    return {"logs": logs, "requests": requests, "page_ms_median": statistics.median(times) * 1e3,
            "page_ms_max": max(times) * 1e3, "page_heap_peak_mb": max(heaps) / 2**20,
            "page_bytes_max": max(sizes), "page_rss_growth_mb": rss_after - rss_before,
            "whole_ms_median": statistics.median(whole_times) * 1e3, "whole_heap_peak_mb": whole_heap / 2**20,
            "whole_bytes": whole_size}


def main() -> None:
    """CLI."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--logs", type=int, default=200)
    parser.add_argument("--requests", type=int, default=40)
    parser.add_argument("--redis-url", help="use this Redis database (it must be empty) instead of a private server")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    pool = simulated_logs(120)
    logs = [pool[i % len(pool)] for i in range(args.logs)]
    with tempfile.TemporaryDirectory(prefix="bench-pages-") as scratch:
        server, url = (None, args.redis_url) if args.redis_url else start_redis(scratch)
        connection = connect(url)
        app = create_app({"REDIS_URL": url, "MAX_CONTENT_LENGTH": 8 * 2**20})
        try:
            if args.redis_url and connection.dbsize():
                raise SystemExit(f"{url} is not empty; give an empty database (this benchmark flushes it)")
            client = app.test_client()
            job_id = finished_job(client, url, logs, scratch)
            figures = measure(client, job_id, args.logs, args.requests)
            connection.flushdb()
        finally:
            connection.close()
            redis_client = app.extensions.get("longcards_redis")
            if redis_client is not None:
                redis_client.close()
            if server is not None:
                server.terminate()
                server.wait(timeout=10)
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print(f"one finished replay of {figures['logs']} logs; {figures['requests']} reads of one log each")
    print(f"page (logs_limit=1): median {figures['page_ms_median']:.1f} ms, worst {figures['page_ms_max']:.1f} ms, "
          f"heap peak {figures['page_heap_peak_mb']:.2f} MB, peak RSS growth over all page reads "
          f"{figures['page_rss_growth_mb']:.1f} MB, answer {figures['page_bytes_max'] / 1024:.1f} KB")
    print(f"whole result: median {figures['whole_ms_median']:.0f} ms, heap peak {figures['whole_heap_peak_mb']:.1f} "
          f"MB, answer {figures['whole_bytes'] / 2**20:.2f} MB")


if __name__ == "__main__":
    main()
