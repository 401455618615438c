"""Replace a gunicorn worker whose memory grew past a ceiling (wired by deploy/gunicorn.conf.py's `post_request`;
docs/reliability.md#fair-latency).

A request may grow a worker by a few tens of MB at most (docs/reliability.md#limits), and Python rarely gives such
memory back to the system. Replacing workers every N requests returned it, but under load it replaced a worker every
few seconds, and each replacement sent its clients' connections elsewhere at once (the p99 of `/v1/hu` was 8 times
that with no replacement, in the same run). A worker is now replaced only when its peak resident memory passes
`LONGCARDS_WORKER_MAX_MEMORY_MB` (default 512, read with every setting in service/config.py; a worker starts near
100): after the request that took it there, gunicorn lets it finish what it is serving and starts a fresh one from
the preloaded master.
"""

from __future__ import annotations

import resource
import sys
from typing import Any


def peak_mb() -> float:
    """This process's peak resident memory in MB (Linux counts KB, macOS bytes)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def check(worker: Any, limit_mb: int) -> bool:
    """After a request: when the worker's peak memory passed `limit_mb`, ask gunicorn to replace it gracefully
    (as its own `max_requests` does) and say so in its log. True when it was asked."""
    if limit_mb <= 0 or not getattr(worker, "alive", False):
        return False
    peak = peak_mb()
    if peak <= limit_mb:
        return False
    worker.log.info("worker %s reached %.0f MB (LONGCARDS_WORKER_MAX_MEMORY_MB=%d): replacing it",
                    worker.pid, peak, limit_mb)
    worker.alive = False
    return True
