"""Each owner's recent jobs: a Redis sorted set of job ids scored by submission time, newest first, trimmed.

`GET /v1/jobs` pages through it with a cursor (the score and id of the last job shown), so jobs submitted
meanwhile never shift a page. Jobs that expired are dropped from the set when a page meets them.
"""

from __future__ import annotations

import re
import time
from typing import Any

from redis import Redis
from rq.job import Job

from .queues import SERIALIZER, JobView

PREFIX = "longcards:jobs:"
#: Jobs remembered per owner; older ones fall out of the list (the jobs themselves live their own TTL).
KEEP = 1000
#: The list outlives the longest-lived job (a failed one is kept 7 days).
TTL = 7 * 24 * 3600
CURSOR = re.compile(r"(\d{1,12}(?:\.\d{1,9})?):([A-Za-z0-9_-]{1,64})")


class BadCursor(ValueError):
    """A cursor this API did not give."""


def index_key(owner: str) -> str:
    """The sorted set of an owner's jobs."""
    return PREFIX + owner


def remember(pipe: Any, owner: str, job_id: str) -> None:
    """Add a new job to its owner's list (in the submission's transaction), keeping the newest KEEP."""
    key = index_key(owner)
    pipe.zadd(key, {job_id: time.time()})
    pipe.zremrangebyrank(key, 0, -KEEP - 1)
    pipe.expire(key, TTL)


def cursor_of(score: float, job_id: str) -> str:
    """The cursor after a job (exact: repr keeps every bit of the score)."""
    return f"{score!r}:{job_id}"


def parse_cursor(text: str) -> tuple[float, str]:
    """A cursor's score and job id."""
    match = CURSOR.fullmatch(text)
    if not match:
        raise BadCursor(text)
    return float(match.group(1)), match.group(2)


def _ids_after(connection: Redis, key: str, limit: int, cursor: str | None) -> list[tuple[str, float]]:
    """Up to limit + 1 (id, score) pairs after the cursor, newest first (ties: the set's descending id order)."""
    top: float | str = "+inf"
    after = None
    if cursor:
        top, after = parse_cursor(cursor)
    found: list[tuple[str, float]] = []
    offset = 0
    while len(found) <= limit:
        batch = connection.zrevrangebyscore(key, top, "-inf", start=offset, num=limit + 1, withscores=True)
        if not batch:
            break
        offset += len(batch)
        for member, score in batch:
            job_id = member.decode()
            if after is not None and score == top and job_id >= after:
                continue  # shown on an earlier page
            found.append((job_id, score))
    return found[:limit + 1]


def page(connection: Redis, owner: str, limit: int, cursor: str | None) -> tuple[list[Job], str | None]:
    """The owner's jobs after the cursor, newest first, and the cursor of the next page (None at the end)."""
    key = index_key(owner)
    found = _ids_after(connection, key, limit, cursor)
    shown = found[:limit]
    jobs = JobView.fetch_many([job_id for job_id, _ in shown], connection=connection, serializer=SERIALIZER)
    gone = [job_id for (job_id, _), job in zip(shown, jobs) if job is None]
    if gone:
        connection.zrem(key, *gone)
    following = cursor_of(shown[-1][1], shown[-1][0]) if len(found) > limit else None
    return [job for job in jobs if job is not None], following
