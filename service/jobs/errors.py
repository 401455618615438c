"""What the job layer refuses, as its own exceptions: the API maps each to its problem (service/api/jobs/errors.py),
this package knows nothing of HTTP. An input the job layer rejects (a webhook address, an idempotency key reused
with another body) is a `DomainError` of service/rules/errors.py, as the engine's are; an unreachable Redis is
redis-py's own error."""

from __future__ import annotations


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
