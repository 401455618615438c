"""What the job layer refuses, as its own exceptions: the API maps each to its problem (service/api/jobs/errors.py),
this package knows nothing of HTTP. An input the job layer rejects (a webhook address, an idempotency key reused
with another body) is a `DomainError` of service/rules/errors.py, as the engine's are; an unreachable Redis, or one
that refuses writes (`refused`), is redis-py's own error."""

from __future__ import annotations

import re

from redis.exceptions import ExecAbortError, MasterDownError, OutOfMemoryError, ReadOnlyError, ResponseError

#: The error answers of a Redis that is up but takes no write now, by their code: full (OOM: `maxmemory` reached
#: under `noeviction`), unable to save (MISCONF: `stop-writes-on-bgsave-error` after a failed save), a replica
#: (READONLY: a primary demoted under its clients), loading its data (LOADING), a replica cut off from its primary
#: (MASTERDOWN), and a transaction it discarded for one of these (EXECABORT).
REFUSALS = ("OOM", "MISCONF", "READONLY", "LOADING", "MASTERDOWN", "EXECABORT")
#: redis-py's classes of the codes it knows (it cuts the code off their text).
REFUSAL_CLASSES = ((OutOfMemoryError, "OOM"), (ReadOnlyError, "READONLY"), (MasterDownError, "MASTERDOWN"),
                   (ExecAbortError, "EXECABORT"))
#: A code left in the text: at its start, after a pipeline's "caused error: ", or after the "-" of the error of a
#: command a Lua script called ("Error running script ... -OOM command not allowed ...").
REFUSAL_TEXT = re.compile(rf"(?:^|: |-)({'|'.join(REFUSALS)}) ")


def refused(error: BaseException) -> str | None:
    """The code (REFUSALS) if `error` is Redis refusing a command it takes when it is a primary with room and a
    working disk, else None: any other error answer is a bug, and a lost connection is no answer at all."""
    if not isinstance(error, ResponseError):
        return None
    for cls, code in REFUSAL_CLASSES:
        if isinstance(error, cls):
            return code
    found = REFUSAL_TEXT.search(str(error))
    return found.group(1) if found else None


class JobError(Exception):
    """A job request the job layer cannot carry out."""


class JobNotFound(JobError):
    """No job with this id is visible to the caller (another caller's job, an expired one, an id no job can have)."""

    def __init__(self, job_id: str) -> None:
        super().__init__(job_id)
        self.job_id = job_id


class TooManyActiveJobs(JobError):
    """The caller already has `active` jobs queued or running, and at most `limit` at once (MAX_ACTIVE_JOBS); it may
    try again after `retry_after` seconds."""

    def __init__(self, active: int, limit: int, retry_after: int) -> None:
        super().__init__(f"{active} jobs of this caller are queued or running; at most {limit} at once")
        self.active, self.limit, self.retry_after = active, limit, retry_after


class NotReplicated(JobError):
    """Fewer than `wanted` replicas acknowledged a submission within `timeout_ms` (service/jobs/replication.py): the
    job may exist, and the same request sent again (same idempotency key or body) answers it, after `retry_after`
    seconds."""

    def __init__(self, wanted: int, acknowledged: int, timeout_ms: int, retry_after: int) -> None:
        super().__init__(f"{acknowledged} of {wanted} Redis replicas acknowledged the job within {timeout_ms} ms")
        self.wanted, self.acknowledged, self.timeout_ms = wanted, acknowledged, timeout_ms
        self.retry_after = retry_after
