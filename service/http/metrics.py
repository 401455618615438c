"""Prometheus metrics at GET /metrics: requests and their latency per endpoint, and whatever collectors the app
factory adds (the job gauges of service/jobs/metrics.py).

Request metrics live in prometheus_client's default registry; under gunicorn (`PROMETHEUS_MULTIPROC_DIR` set)
every worker writes them to that directory and a scrape sums them. The added collectors are read when scraped.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

from flask import Flask, Response, current_app, request
from prometheus_client import REGISTRY, CollectorRegistry, Counter, Histogram, multiprocess
from prometheus_client.exposition import choose_encoder
from prometheus_client.registry import Collector

METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
UNMATCHED = "<unmatched>"  # paths no route matches: one label value, whatever the path
REQUESTS = Counter("longcards_http_requests", "HTTP requests answered", ["method", "endpoint", "status"])
LATENCY = Histogram(
    "longcards_http_request_duration_seconds", "Time to answer an HTTP request, by endpoint", ["method", "endpoint"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
#: The label children already made, by (method, endpoint, status): `labels()` takes a lock and builds a key each call.
_children: dict[tuple[str, str, str], tuple[Any, Any]] = {}


def observe(method: str, endpoint: str, status: str, seconds: float) -> None:
    """Count one answered request and its latency, labelled by route rule (not the raw path); called by the
    envelope (service/http/envelope.py) for every request when metrics are on."""
    if method not in METHODS:
        method = "other"
    key = (method, endpoint, status)
    children = _children.get(key)
    if children is None:
        children = _children[key] = (REQUESTS.labels(method, endpoint, status), LATENCY.labels(method, endpoint))
    children[0].inc()
    children[1].observe(seconds)


def scrape() -> Response:
    """GET /metrics: this process's (or every gunicorn worker's) request metrics and the app's collectors."""
    registry = CollectorRegistry()
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        multiprocess.MultiProcessCollector(registry)
    else:
        registry.register(REGISTRY)
    for collector in current_app.extensions["longcards_collectors"]:
        registry.register(collector)
    encode, content_type = choose_encoder(request.headers.get("Accept", ""))
    return Response(encode(registry), content_type=content_type)


def init_app(app: Flask, collectors: Iterable[Collector] = ()) -> None:
    """Serve /metrics with the request metrics (the envelope counts and times every request, refused ones too) and
    `collectors`, read at each scrape."""
    if not app.config.get("METRICS", True):
        return
    app.extensions["longcards_collectors"] = tuple(collectors)
    app.add_url_rule("/metrics", "metrics", scrape, methods=["GET"])
