"""How long does GET /healthz take while every worker computes answers?

Starts gunicorn as `python -m service serve` runs it (bench/slowloris.py: deploy/gunicorn.conf.py, overridden by its
environment variables, e.g. GUNICORN_WORKER_CLASS=gthread) on a free loopback port, or targets --url. N keep-alive
clients (one process each, bench/load.py) send POST /v1/discards back to back for --seconds, with seeded 21-card
hands of the three rule-sets, near a win and random (3-15 ms of CPU a call); with --get they GET that path instead
(`/v1/drills?ruleset=cardavia-chan&difficulty=hard&seed=1`: some 45 ms a call). Meanwhile /healthz is probed every
--interval seconds on a fresh connection, as an orchestrator's probe connects, each probe in its own thread with a
5 s timeout. Prints p50, p95 and max of the probes and of the heavy calls, the heavy calls' rate, and the probes
over 1 s and over 3 s (the liveness probe's timeout in deploy/k8s/api.yaml); a failed probe counts as its timeout.

Usage: python bench/healthz_load.py [--clients 32] [--seconds 20] [--interval 0.5] [--get PATH]
                                    [--url http://127.0.0.1:PORT] [--json]
Bounded in clients and time; loopback only.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import sys
import threading
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # run from a checkout: this tree's service

from bench.load import latencies  # noqa: E402
from bench.search import RULESETS, hands_for, percentile  # noqa: E402
from bench.slowloris import LOOPBACK, PROBE_TIMEOUT, gunicorn, probe  # noqa: E402

#: Probe latencies worth counting: a second (the finding's mark) and the liveness probe's timeout.
MARKS = (1.0, 3.0)


def discard_bodies(seed: int, per_kind: int = 10) -> list[bytes]:
    """POST /v1/discards bodies: seeded hands of every rule-set, near a win and random, interleaved."""
    rng = random.Random(seed)
    bodies = [{"ruleset": ruleset, "hand": hand} for ruleset in RULESETS for kind in ("near", "random")
              for hand in hands_for(ruleset, kind, rng, per_kind)]
    rng.shuffle(bodies)
    return [json.dumps(body).encode() for body in bodies]


def figures(seconds: list[float]) -> dict[str, float]:
    """p50, p95 and max in milliseconds."""
    return {"p50_ms": percentile(seconds, 0.5) * 1000, "p95_ms": percentile(seconds, 0.95) * 1000,
            "max_ms": max(seconds) * 1000}


def measure(base: str, clients: int, seconds: float, interval: float, seed: int, path: str | None = None) -> dict:
    """Probe /healthz every `interval` s while `clients` clients send /v1/discards (or GET `path`) for `seconds`."""
    bodies = [] if path else discard_bodies(seed)
    heavy: dict = {}

    def load() -> None:
        heavy["lat"], heavy["errors"] = latencies(base, path or "/v1/discards", bodies, seconds, clients)

    loader = threading.Thread(target=load)
    loader.start()
    time.sleep(min(2.0, seconds / 4))  # let every client connect and start computing
    with ThreadPoolExecutor(max_workers=64) as pool:
        futures = []
        while loader.is_alive():
            futures.append(pool.submit(probe, base))
            time.sleep(interval)
        results = [f.result() for f in futures]
    loader.join()
    probes = [PROBE_TIMEOUT if r is None else r for r in results]
    return {"clients": clients, "seconds": seconds,
            "healthz": {"probes": len(probes), "failed": sum(r is None for r in results),
                        **{f"over_{mark:g}s": sum(p > mark for p in probes) for mark in MARKS}, **figures(probes)},
            "heavy": {"path": path or "POST /v1/discards", "requests": len(heavy["lat"]), "errors": heavy["errors"],
                         "rps": len(heavy["lat"]) / seconds, **figures(heavy["lat"])}}


def main() -> None:
    """Parse arguments, start gunicorn unless --url is given, measure and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--interval", type=float, default=0.5)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--get", metavar="PATH", help="the heavy calls GET this path instead of POST /v1/discards")
    parser.add_argument("--url", help="target this server instead of starting gunicorn")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    if not 1 <= args.clients <= 256 or not 1 <= args.seconds <= 600:
        raise SystemExit("--clients 1-256 and --seconds 1-600")
    if args.url and urllib.parse.urlsplit(args.url).hostname not in LOOPBACK:
        raise SystemExit("loopback only")
    with contextlib.nullcontext(args.url) if args.url else gunicorn() as base:
        result = measure(base, args.clients, args.seconds, args.interval, args.seed, args.get)
    result["target"] = args.url or (f"gunicorn, {os.environ.get('GUNICORN_WORKER_CLASS', 'default')} worker class, "
                                    f"{os.environ.get('WEB_CONCURRENCY', 'default')} processes, {os.cpu_count()} cores")
    if args.json:
        print(json.dumps(result))
        return
    probes, heavy = result["healthz"], result["heavy"]
    print(f"{args.clients} clients sending {heavy['path']} for {args.seconds:g} s, /healthz probed every "
          f"{args.interval:g} s on a fresh connection ({result['target']}):")
    print(f"  /healthz       {probes['probes']} probes: p50 {probes['p50_ms']:.1f} ms, p95 {probes['p95_ms']:.1f} ms, "
          f"max {probes['max_ms']:.1f} ms; over 1 s: {probes['over_1s']}, over 3 s: {probes['over_3s']}, "
          f"failed: {probes['failed']}")
    print(f"  heavy calls    {heavy['requests']} requests ({heavy['rps']:.0f}/s, {heavy['errors']} errors): "
          f"p50 {heavy['p50_ms']:.1f} ms, p95 {heavy['p95_ms']:.1f} ms, max {heavy['max_ms']:.1f} ms")


if __name__ == "__main__":
    main()
