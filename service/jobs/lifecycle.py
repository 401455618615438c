"""How a job's run is claimed, how a cancel stops it, and how every job ends with an expiry.

A field of the job's hash, RUN_FIELD, says who holds the job, and only Lua scripts (atomic in Redis) change it:

- a worker claims a job before it runs it (`claim_start`: the field becomes `run`, the status `started`), unless a
  cancel came first (`cancel`, `stop`): then the job is never run; or unless the job is no longer `queued`
  (`taken`): another worker claimed it first, or it has ended, and this worker's copy of it (one put back by the
  sweep of service/jobs/waiting.py while a live worker held it) is dropped unrun;
- a worker claims the job's end before it stores a result and queues the success webhook (`claim_finish`:
  `finish`) or before it records a failure and queues the failure webhook (`claim_end`: `ending`), unless a stop
  was asked for first: then the job ends `stopped`, with no result and no webhook;
- a cancel (`request_cancel`) of a job no worker has started cancels it there and then (`cancel`, status
  `canceled`: the job will never start); of a running job asks it to stop (`stop`, and the worker is told to kill
  the job's process; the job functions also look at the field between decisions and deals); of a job whose end is
  claimed, or that has ended, is refused.

So a job answered as canceled never runs, a job told to stop never stores a result nor sends its success webhook,
and a job counts among its caller's active jobs (service/jobs/submit.py) until its status says it has really
ended. Each end gives every key of the job the job's TTL (`expire_job`), so nothing a job leaves outlives it; a
heartbeat that reaches Redis after the end cannot bring back the execution the end deleted (`drop_late_heartbeat`).
"""

from __future__ import annotations

from typing import Any, cast

from redis import Redis
from rq.command import send_command
from rq.executions import ExecutionRegistry
from rq.job import Job
from rq.queue import Queue
from rq.registry import CanceledJobRegistry, DeferredJobRegistry, ScheduledJobRegistry
from rq.results import Result
from rq.utils import current_timestamp, now, utcformat

from .pages import logs_key
from .waiting import WAITING, untrack

#: The job hash's field naming who holds the job: run, finish, ending, cancel or stop (absent: nobody yet).
RUN_FIELD = "longcards_run"
#: The meta entry naming the idempotency key that answers with this job (it expires with the job).
IDEMPOTENCY_META = "idempotency_key"
#: Statuses of a job that has ended (RQ's).
ENDED = ("finished", "failed", "stopped", "canceled")

#: KEYS: the job's hash, WAITING. ARGV: RUN_FIELD, the worker's name, the job id. A status other than `queued` is
#: another copy's (a re-queued job is made `queued` again first), but for a canceled job: its cancel is finished.
CLAIM_START = """
local status = redis.call('HGET', KEYS[1], 'status')
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('ZREM', KEYS[2], ARGV[3])
  return 'gone'
end
local state = redis.call('HGET', KEYS[1], ARGV[1])
if status == 'canceled' and state == 'cancel' then return state end
if status ~= 'queued' then return 'taken' end
if state == 'cancel' or state == 'stop' then return state end
redis.call('HSET', KEYS[1], ARGV[1], 'run', 'status', 'started', 'worker_name', ARGV[2])
redis.call('ZREM', KEYS[2], ARGV[3])
return 'run'
"""

CLAIM = """
local state = redis.call('HGET', KEYS[1], ARGV[1])
if state == 'stop' or state == 'cancel' then return state end
if redis.call('EXISTS', KEYS[1]) == 0 then return 'gone' end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return ARGV[2]
"""

REQUEST_CANCEL = """
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return {'gone', ''} end
if status == 'finished' or status == 'failed' or status == 'stopped' or status == 'canceled' then
  return {'ended', status}
end
local state = redis.call('HGET', KEYS[1], ARGV[1])
if status == 'started' then
  if state == 'finish' or state == 'ending' then return {'ending', state} end
  redis.call('HSET', KEYS[1], ARGV[1], 'stop')
  return {'stop', redis.call('HGET', KEYS[1], 'worker_name') or ''}
end
redis.call('HSET', KEYS[1], ARGV[1], 'cancel', 'status', 'canceled', 'ended_at', ARGV[2])
redis.call('ZREM', KEYS[2], ARGV[3])
return {'canceled', status}
"""


#: KEYS: an execution's hash, the job's set of executions. ARGV: the execution's id. RQ's monitor heartbeats the
#: execution while the work horse runs: if it wakes as the horse records the job's end, its heartbeat recreates the
#: execution the end deleted, as a hash of one field (no `id`) and a set that lives 60 s past the heartbeat's TTL,
#: longer than a short-lived job itself. Drop what it recreated; an execution still running keeps its heartbeat.
LATE_HEARTBEAT = """
if redis.call('HEXISTS', KEYS[1], 'id') == 1 then return 0 end
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[1])
return 1
"""


class JobStopped(Exception):
    """The job was asked to stop (a cancel): it ends `stopped`, with no result and no webhook."""


def _run(connection: Any, source: str, job_id: str, *args: str) -> Any:
    """Run one of the scripts on a job's hash (and the waiting jobs' set, with the job id last)."""
    return connection.register_script(source)(keys=[Job.key_for(job_id), WAITING], args=[RUN_FIELD, *args, job_id])


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def claim_start(connection: Redis, job_id: str, worker_name: str) -> str:
    """A worker takes the job: `run` (it may run it; it no longer waits), `cancel` / `stop` (a cancel came first),
    `taken` (it is not `queued`: another worker claimed it first, or it has ended; not run) or `gone`."""
    return _text(_run(connection, CLAIM_START, job_id, worker_name))


def claim_finish(connection: Redis, job_id: str) -> bool:
    """The job function returned: may its result be stored and its success webhook queued? False once a stop was
    asked for."""
    return _text(_run(connection, CLAIM, job_id, "finish")) == "finish"


def claim_end(connection: Redis, job_id: str) -> bool:
    """The job raised (or its process died): may its failure be recorded, retried or its webhook queued? False
    once a stop was asked for (the job then ends stopped)."""
    return _text(_run(connection, CLAIM, job_id, "ending")) == "ending"


def stop_requested(connection: Redis, job_id: str) -> bool:
    """Whether a cancel asked this job to stop (the job functions look between decisions and deals)."""
    state = connection.hget(Job.key_for(job_id), RUN_FIELD)
    return state in (b"stop", b"cancel")


def drop_late_heartbeat(connection: Redis, job_id: str, execution_key: str, execution_id: str) -> bool:
    """After a heartbeat of the execution `execution_id` of job `job_id`: drop the execution if that heartbeat came
    after the job's end had deleted it (LATE_HEARTBEAT). True if it did."""
    keys = [execution_key, ExecutionRegistry.key_template.format(job_id)]
    return bool(connection.register_script(LATE_HEARTBEAT)(keys=keys, args=[execution_id]))


def request_cancel(connection: Redis, job: Job, ttl: int) -> tuple[str, str]:
    """Cancel a job, atomically against the worker's claims. Answers what was done:

    - (`canceled`, its status before): it had not started, and never will; its status is `canceled` now, it has
      left its queue and expires in `ttl` seconds;
    - (`stop`, worker): it runs; the worker was told to stop it (it ends `stopped` shortly, with no result);
    - (`ending`, finish | ending): its end is being recorded, too late to stop it;
    - (`ended`, status): it had already ended;
    - (`gone`, ''): it has expired.
    """
    outcome, detail = (_text(part) for part in cast("list[Any]", _run(
        connection, REQUEST_CANCEL, job.id, utcformat(now()))))
    if outcome == "canceled":
        finish_cancel(connection, job, ttl)
    elif outcome == "stop" and detail:
        # The worker kills the job's process if it runs it now; if not yet, the job sees the field when it starts.
        send_command(connection, detail, "stop-job", job_id=job.id)
    return outcome, detail


def finish_cancel(connection: Redis, job: Job, ttl: int, status: str | None = None) -> None:
    """A canceled job leaves its queue and the scheduled and deferred registries for RQ's canceled registry (until
    its TTL has passed: `prune_canceled`), and expires with its TTL (with `status`, it is recorded with that status,
    ended now). Safe to repeat."""
    with connection.pipeline() as pipe:
        if status is not None:
            pipe.hset(job.key, mapping={"status": status, "ended_at": utcformat(now())})
        queue = Queue(job.origin, connection=connection)
        pipe.lrem(queue.key, 1, job.id)
        pipe.lrem(queue.intermediate_queue_key, 1, job.id)
        untrack(pipe, job.id)
        ScheduledJobRegistry(job.origin, connection=connection).remove(job.id, pipeline=pipe)
        DeferredJobRegistry(job.origin, connection=connection).remove(job.id, pipeline=pipe)
        CanceledJobRegistry(job.origin, connection=connection).add(job, ttl=max(ttl, 0), pipeline=pipe)
        expire_job(pipe, job, ttl)
        pipe.execute()


def prune_canceled(connection: Redis, queue: str) -> None:
    """Drop from a queue's canceled registry the jobs whose TTL has passed (RQ never prunes that registry)."""
    connection.zremrangebyscore(CanceledJobRegistry(queue, connection=connection).key, 0, current_timestamp())


def job_ttl(job: Job) -> int:
    """How long a job is kept once it has ended (the result TTL it was queued with)."""
    ttl = job.result_ttl if job.result_ttl is not None else job.failure_ttl
    return int(ttl) if ttl else 0


def expire_job(pipe: Any, job: Job, ttl: int) -> None:
    """Queue on `pipe` the expiry of every key the job has: its hash, RQ's result stream, executions and dependency
    sets, its stored result pages and the idempotency key that names it. Nothing if `ttl` is not positive."""
    if ttl <= 0:
        return
    keys = [job.key, job.dependents_key, job.dependencies_key, Result.get_key(job.id), f"rq:executions:{job.id}",
            logs_key(job.id)]
    idempotency = (job.meta or {}).get(IDEMPOTENCY_META)
    if idempotency:
        keys.append(idempotency)
    for key in keys:
        pipe.expire(key, ttl)
