"""A replay result stored so that a page of it reads only that page.

The worker stores a finished replay's per-log entries as a Redis list, one JSON entry per log
(`longcards:result:<job id>:logs`), and hands RQ only the result's head: the same dict with `logs` replaced by
their number (the summary and the review mode, a few KB). Both are written in the transaction that marks the job
finished, with the job's result TTL. A page (`logs_offset`, `logs_limit`) is then one LRANGE of those entries and
the head; the whole result, the head and every entry. Answers are the same, key for key and byte for byte, as the
result stored whole. Results stored whole (searches, and replays finished before this storage) are paged from
the whole result.
"""

from __future__ import annotations

import json
from typing import Any, TypeGuard, cast

from redis import Redis
from rq.job import Job

PREFIX = "longcards:result:"


def logs_key(job_id: str) -> str:
    """The list of a job's per-log entries."""
    return f"{PREFIX}{job_id}:logs"


def pageable(result: Any) -> TypeGuard[dict[str, Any]]:
    """A replay result: a dict whose `logs` is the list of per-log entries."""
    return isinstance(result, dict) and isinstance(result.get("logs"), list)


def store(pipe: Any, job_id: str, result: dict[str, Any], ttl: int) -> dict[str, Any]:
    """Queue on `pipe` the writes of a replay result's entries (one JSON value per log, expiring in `ttl` seconds);
    the head to store in their place: the result with `logs` their number, in the same place among its keys."""
    key, logs = logs_key(job_id), result["logs"]
    pipe.delete(key)
    if logs:
        pipe.rpush(key, *(json.dumps(entry) for entry in logs))
        if ttl > 0:
            pipe.expire(key, ttl)
    return {**result, "logs": len(logs)}


def read(connection: Redis, job: Job, offset: int = 0, limit: int | None = None) -> Any:
    """A finished job's result, or with `limit` only its per-log entries offset..offset+limit and `logs_page`
    (offset, limit, total); the rest of the result always whole."""
    head = job.return_value()
    if not (isinstance(head, dict) and isinstance(head.get("logs"), int) and not isinstance(head["logs"], bool)):
        return paged(head, offset, limit)
    last = -1 if limit is None else offset + limit - 1
    raw = cast("list[bytes]", connection.lrange(logs_key(job.id), 0 if limit is None else offset, last))
    result = {**head, "logs": [json.loads(entry) for entry in raw]}
    if limit is not None:
        result["logs_page"] = {"offset": offset, "limit": limit, "total": head["logs"]}
    return result


def paged(result: Any, offset: int, limit: int | None) -> Any:
    """A result stored whole, with only the per-log entries offset..offset+limit when it is a replay result and a
    limit is given."""
    if limit is None or not pageable(result):
        return result
    logs = result["logs"]
    return {**result, "logs": logs[offset:offset + limit],
            "logs_page": {"offset": offset, "limit": limit, "total": len(logs)}}
