"""The jobs waiting for a worker, and the sweep that finds one a worker took and lost.

A worker listening on several queues takes a job with BLPOP, and the job is then in no queue until the worker
claims it (service/jobs/lifecycle.py `claim_start`): milliseconds, or as long as Redis refuses the claim's write.
A worker killed outright in between would leave the job `queued` for ever, in no queue, counting against its
owner's active jobs. So every job the service queues is recorded in one sorted set, WAITING (job id -> when it was
queued, or last seen in its queue), in the same step as the push (`track`: the submission's script, the enqueue's
transaction, a retry's, a put-back's script); its entry goes when the job is claimed, canceled or failed unrun.

`sweep`, run by the workers' clean-up at most once per clean-up interval whichever worker runs it, reads the old
entries and the lists of their jobs' queues once, and puts a job still `queued` that is in no queue (nor a
single-queue worker's intermediate list) and has been so for `older_than` seconds back at the front of its queue.
A job a live worker still holds then has two copies: whichever is claimed first runs, the other's claim answers
`taken` and that copy is dropped unrun. Entries of jobs gone, started or ended are pruned.
"""

from __future__ import annotations

import logging
import time
from typing import Any, cast

from redis import Redis
from rq.intermediate_queue import IntermediateQueue
from rq.job import Job
from rq.queue import Queue
from rq.utils import as_text, utcparse

log = logging.getLogger(__name__)

#: The sorted set of the jobs on a queue or taken from one and not yet claimed: job id -> unix time it was queued.
WAITING = "longcards:waiting"
#: Held for a clean-up interval by the worker whose clean-up sweeps: the others skip the sweep meanwhile.
SWEEP_LOCK = "longcards:waiting:sweep"
#: The statuses of a job that waits to be run: queued, or waiting for its retry's back-off or for another job.
WAITS = (b"queued", b"scheduled", b"deferred")

#: A job taken from its queue and not claimed goes back at the front of it, unless it is no longer `queued`. From
#: the sweep (ARGV[3], the time before which it was queued) only if it is still in no list and queued that long ago.
#: KEYS: the job's hash, its queue, the queue's intermediate list, WAITING. ARGV: job id, now[, stale before].
PUT_BACK = """
if redis.call('HGET', KEYS[1], 'status') ~= 'queued' then return 0 end
if ARGV[3] then
  local at = redis.call('ZSCORE', KEYS[4], ARGV[1])
  if not at or tonumber(at) > tonumber(ARGV[3]) then return 0 end
  if redis.call('LPOS', KEYS[2], ARGV[1]) or redis.call('LPOS', KEYS[3], ARGV[1]) then return 0 end
end
redis.call('LREM', KEYS[2], 0, ARGV[1])
redis.call('LPUSH', KEYS[2], ARGV[1])
redis.call('ZADD', KEYS[4], ARGV[2], ARGV[1])
return 1
"""

#: Drop the entries of jobs that no longer wait (gone, started or ended), each checked as it is dropped.
#: KEYS: WAITING. ARGV: the job hash prefix, then job ids.
PRUNE = """
local waits = {queued = true, scheduled = true, deferred = true}
for index = 2, #ARGV do
  local status = redis.call('HGET', ARGV[1] .. ARGV[index], 'status')
  if not status or not waits[status] then redis.call('ZREM', KEYS[1], ARGV[index]) end
end
return 0
"""


def track(pipe: Any, job_id: str) -> None:
    """Record on `pipe`, the transaction that queues the job, that the job waits for a worker from now."""
    pipe.zadd(WAITING, {job_id: time.time()})


def untrack(pipe: Any, job_id: str) -> None:
    """Drop the job from the waiting jobs on `pipe` (it ended without being claimed)."""
    pipe.zrem(WAITING, job_id)


def put_back(connection: Redis, job_id: str, queue_key: str, stale_before: float | None = None) -> bool:
    """Put a job taken from its queue and never claimed back at the front of that queue (once), unless it is no
    longer `queued` (a cancel ended it meanwhile); with `stale_before`, only if it is in no list and was queued
    before then. Whether it went back."""
    args: list[Any] = [job_id, time.time()] + ([] if stale_before is None else [stale_before])
    return bool(connection.register_script(PUT_BACK)(keys=[
        Job.key_for(job_id), queue_key, IntermediateQueue.get_intermediate_queue_key(queue_key), WAITING], args=args))


def sweep(connection: Redis, older_than: float, every: int) -> list[str]:
    """Put back at the front of its queue every job still `queued` that has been in no list for `older_than`
    seconds, unless another worker swept less than `every` seconds ago; the ids put back. One ZRANGEBYSCORE, one
    HMGET per old entry and, when a job may be lost, one LRANGE per list of its queue."""
    if not connection.set(SWEEP_LOCK, 1, nx=True, ex=max(every, 1)):
        return []
    now = time.time()
    cutoff = now - older_than
    entries = cast("list[tuple[bytes, float]]", connection.zrangebyscore(WAITING, "-inf", cutoff, withscores=True))
    if not entries:
        return []
    with connection.pipeline(transaction=False) as pipe:
        for raw, _at in entries:
            pipe.hmget(Job.key_for(as_text(raw)), ["status", "origin", "enqueued_at"])
        fields = pipe.execute()
    done: list[str] = []
    queued: dict[str, str] = {}  # job id -> its queue's key
    since: dict[str, float] = {}
    for (raw, at), (status, origin, enqueued) in zip(entries, fields):
        if status not in WAITS:
            done.append(as_text(raw))
        elif status == b"queued" and origin:
            queued[as_text(raw)] = Queue.redis_queue_namespace_prefix + as_text(origin)
            since[as_text(raw)] = max(at, _time(enqueued))  # a retry's back-off ends in its queue
    if done:
        connection.register_script(PRUNE)(keys=[WAITING], args=[Job.redis_job_namespace_prefix, *done])
    listed = _listed(connection, set(queued.values()))
    seen = {job_id: now for job_id in queued if job_id in listed}
    if seen:  # waiting in its queue: not looked at again before `older_than` has passed
        connection.zadd(WAITING, cast("dict[Any, Any]", seen), xx=True, gt=True)
    swept = []
    for job_id, queue_key in queued.items():
        if job_id not in seen and since[job_id] <= cutoff and put_back(
                connection, job_id, queue_key, stale_before=cutoff):
            log.warning("job %s was queued but in no queue for over %.0f s (its worker was lost while it held it): "
                        "put back at the front of queue %s", job_id, older_than,
                        queue_key.removeprefix(Queue.redis_queue_namespace_prefix))
            swept.append(job_id)
    return swept


def _listed(connection: Redis, queue_keys: set[str]) -> set[str]:
    """The ids in these queues and their intermediate lists, read once."""
    if not queue_keys:
        return set()
    with connection.pipeline(transaction=False) as pipe:
        for key in queue_keys:
            pipe.lrange(key, 0, -1)
            pipe.lrange(IntermediateQueue.get_intermediate_queue_key(key), 0, -1)
        lists = pipe.execute()
    return {as_text(job_id) for ids in lists for job_id in ids}


def _time(stamp: bytes | None) -> float:
    """A job hash's time field as unix time (0 when absent)."""
    return utcparse(as_text(stamp)).timestamp() if stamp else 0.0
