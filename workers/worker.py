"""The service's RQ worker: it runs only the service's own job functions, waits out Redis outages and a Redis that
refuses writes instead of dying (a job it has taken but not yet claimed is held until Redis takes the claim), finds the
jobs of dead workers within a minute and its own jobs whose end a failover lost at its next clean-up, and
queues them again at once, puts back a job a lost worker took from its queue and never claimed
(service/jobs/waiting.py), and registers itself again when Redis lost its data. It claims a job before running it and
before recording its end (service/jobs/lifecycle.py), so a canceled job never runs and a stopped one stores nothing; a
replay's result is stored page by page (service/jobs/pages.py), and a job's success webhook is queued in the transaction
that records its result; every job expires with its TTL whatever its end. It never loses the job it runs when it is
stopped: a warm shutdown may wait a bounded time for it, and a cold shutdown puts it back at the front of its queue."""

from __future__ import annotations

import logging
import os
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, TypeVar, cast

from redis import Redis
from redis.backoff import ExponentialBackoff, NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError
from redis.retry import Retry
from rq import SimpleWorker, Worker, worker_registration
from rq.exceptions import AbandonedJobError
from rq.executions import Execution
from rq.job import Job, JobStatus
from rq.queue import Queue
from rq.utils import as_text, now
from rq.worker.base import BaseWorker

from service.config import process_setting
from service.jobs.errors import refused
from service.jobs.lifecycle import (
    JobStopped,
    claim_end,
    claim_finish,
    claim_start,
    drop_late_heartbeat,
    expire_job,
    finish_cancel,
    job_ttl,
    prune_canceled,
    stop_requested,
)
from service.jobs.pages import pageable, store
from service.jobs.queues import CALLBACKS, SPECS, connect
from service.jobs.waiting import put_back, sweep, track, untrack
from service.redisconf import failure

log = logging.getLogger(__name__)

#: The only functions a job may name, and the only callbacks it may carry (the service's job names,
#: service/jobs/queues.py): anything that can write to Redis could otherwise make a worker import and call any
#: function on its path (`os.makedirs`, `subprocess.run`...).
JOB_FUNCTIONS = frozenset(SPECS)
JOB_CALLBACKS = frozenset(CALLBACKS)



@dataclass(frozen=True)
class WorkerClock:
    """A worker's intervals, in seconds (the settings LONGCARDS_JOB_HEARTBEAT, LONGCARDS_HEARTBEAT_GRACE,
    LONGCARDS_WORKER_POLL and LONGCARDS_CLEANUP_INTERVAL, docs/configuration.md).

    A running job heartbeats every `heartbeat` s; its started-registry entry expires `heartbeat + grace` s after the
    last one. An idle worker blocks on its queues for `poll` s, then heartbeats and cleans the registries (a busy
    one cleans them between jobs), at most every `cleanup` s. So the job of a worker killed mid-job is found
    abandoned at most `abandoned_within` = heartbeat + grace + poll s after the kill (55 s by default), and then
    queued again at once at the front of its queue (ServiceJob.retry), or failed with no retries left. Any worker
    on the same Redis finds it, whichever machine it runs on. RQ's lock on a queue's clean-up lasts 899 s unless
    its worker releases it, so a worker lost while it cleaned would keep every other from finding abandoned jobs
    for a quarter of an hour; a clean-up takes milliseconds, and a lock older than `cleanup` s is cut to it."""

    heartbeat: int = 10
    grace: int = 30
    poll: int = 15
    cleanup: int = 10

    @classmethod
    def from_environment(cls) -> WorkerClock:
        """The intervals the environment sets, else the defaults (ConfigError on a bad value)."""
        return cls(*(process_setting(name) for name in (
            "LONGCARDS_JOB_HEARTBEAT", "LONGCARDS_HEARTBEAT_GRACE", "LONGCARDS_WORKER_POLL",
            "LONGCARDS_CLEANUP_INTERVAL")))

    @property
    def worker_ttl(self) -> int:
        """RQ's worker TTL: it blocks on the queues for `worker_ttl - 15` s (RQ's dequeue timeout) = `poll`."""
        return self.poll + 15

    @property
    def abandoned_within(self) -> int:
        """The most seconds between a worker's death mid-job and an idle worker finding the job abandoned."""
        return self.heartbeat + self.grace + self.poll


#: How long every Redis command of a worker waits for Redis to come back, or to take writes again, before it gives
#: up: 0.5, 1, 2, 4, then 5 s apart, about two minutes in all.
REDIS_RETRIES = 25
REDIS_BACKOFF = ExponentialBackoff(cap=5, base=0.25)
#: Seconds between two tries to claim a job the worker holds while Redis cannot record the claim (on top of the
#: connection's own wait).
CLAIM_RETRY = 1.0
T = TypeVar("T")
#: Seconds the scheduler process has to release its locks and exit when the worker stops, before it is killed.
SCHEDULER_STOP_SECONDS = 5


class ForeignJobError(Exception):
    """The job names a function or callback that is not one of the service's jobs; it is failed, never run."""


def refusal(job: Job) -> str | None:
    """Why the job must not run (a foreign function or callback), or None."""
    if job.func_name not in JOB_FUNCTIONS or job.instance is not None:
        return f"{job.func_name!r} is not a job function of this service"
    for name in (job._success_callback_name, job._failure_callback_name, job._stopped_callback_name):
        if name and name not in JOB_CALLBACKS:
            return f"callback {name!r} is not a callback of this service"
    return None


class ServiceJob(Job):
    """A job that resolves only the service's job functions and callbacks."""

    @property
    def func(self) -> Any:
        """The job function; ForeignJobError for any other."""
        reason = refusal(self)
        if reason:
            raise ForeignJobError(reason)
        return super().func

    @property
    def should_retry(self) -> bool:
        """A refused job is failed at once, whatever retries it asks for."""
        return refusal(self) is None and super().should_retry

    @property
    def success_callback(self) -> Any:
        return super().success_callback if self._callback_allowed(self._success_callback_name) else None

    @property
    def failure_callback(self) -> Any:
        return super().failure_callback if self._callback_allowed(self._failure_callback_name) else None

    @property
    def stopped_callback(self) -> Any:
        return super().stopped_callback if self._callback_allowed(self._stopped_callback_name) else None

    @staticmethod
    def _callback_allowed(name: str | None) -> bool:
        """A foreign callback is never imported (the job itself is refused)."""
        return not name or name in JOB_CALLBACKS

    def perform(self) -> Any:
        """Run the job function, unless a stop was asked for since the worker took it; its return value stands only
        if the job claims its end before a stop does (else JobStopped: no result, no success webhook)."""
        if stop_requested(self.connection, self.id):
            raise JobStopped("stopped on request before it began")
        result = super().perform()
        if not claim_finish(self.connection, self.id):
            raise JobStopped("stopped on request: its result is dropped")
        return result

    def execute_failure_callback(self, death_penalty_class: Any, *exc_info: Any) -> None:
        """The failure webhook of a job that failed, never of one that was stopped (the end is claimed first). RQ
        calls this first when it finds a job abandoned, then retries it: the job remembers why (`retry`)."""
        self.abandoned = bool(exc_info) and exc_info[0] is AbandonedJobError
        if claim_end(self.connection, self.id):
            super().execute_failure_callback(death_penalty_class, *exc_info)

    def execute_success_callback(self, death_penalty_class: Any, result: Any) -> None:
        """Nothing yet: the success webhook is queued in the transaction that records the result
        (`_handle_success`). Queued here, before it, a worker lost in between would leave a webhook queued for a
        job that then runs again and sends a second one."""

    def retry(self, queue: Queue, pipeline: Any) -> None:
        """A job whose worker died goes back at the front of its queue at once, a retry fewer: the back-off is for a
        job that raised, and waiting for it would also wait for a live scheduler (a dead node's scheduler lock
        lasts 61 s). Any other failure is retried after its back-off, by the scheduler. Either way it waits again."""
        track(pipeline, self.id)
        if not getattr(self, "abandoned", False):
            super().retry(queue, pipeline)
            return
        self.retries_left = (self.retries_left or 1) - 1
        queue._enqueue_job(self, pipeline=pipeline, at_front=True)
        log.warning("job %s was abandoned by its worker: queued again at once, %s retries left", self.id,
                    self.retries_left)

    def _handle_success(self, result_ttl: int, pipeline: Any, *args: Any, **kwargs: Any) -> None:
        """Store a replay result page by page, in the transaction that marks the job finished (RQ keeps its head);
        every key of the job expires with the result; its success webhook is queued in that transaction too."""
        result = self._result
        if pageable(result):
            self._result = store(pipeline, self.id, result, result_ttl)
        super()._handle_success(result_ttl, pipeline, *args, **kwargs)
        expire_job(pipeline, self, result_ttl)
        if self.success_callback is not None:  # the webhook, in the same transaction (a result and its webhook)
            self.success_callback(self, self.connection, result, pipeline=pipeline)

    def _handle_failure(self, exc_string: str, pipeline: Any, *args: Any, **kwargs: Any) -> None:
        """A failed or stopped job, and every key it has, expire like a result (RQ would keep its hash for ever)."""
        super()._handle_failure(exc_string, pipeline, *args, **kwargs)
        expire_job(pipeline, self, job_ttl(self))
        untrack(pipeline, self.id)  # one failed before its claim (RQ's intermediate list's clean-up) still waited


class ClaimingWorker(BaseWorker):
    """What every worker of the service does around RQ's handling of a job: claim it before running it (a job a
    cancel came first for is dropped, never run), and claim its end before a failure is recorded (a job a cancel
    asked to stop ends `stopped`, never retried). Its intervals are its `clock`, by default the environment's."""

    job_class = ServiceJob

    def __init__(self, *args: Any, clock: WorkerClock | None = None, **kwargs: Any) -> None:
        self.clock = clock or WorkerClock.from_environment()
        kwargs = {"job_monitoring_interval": self.clock.heartbeat, "worker_ttl": self.clock.worker_ttl,
                  "maintenance_interval": self.clock.cleanup, **kwargs}
        super().__init__(*args, **kwargs)

    #: RQ has taken a job from a queue and not yet handed it to `execute_job` (`reorder_queues`).
    taking = False

    def reorder_queues(self, reference_queue: Queue) -> None:
        """RQ calls this as soon as it has taken a job from `reference_queue` (then it heartbeats, then it runs the
        job): from here until the job is claimed it is in no queue, in this worker's hands only."""
        self.taking = True
        super().reorder_queues(reference_queue)

    def heartbeat(self, timeout: int | None = None, pipeline: Any = None) -> None:
        """RQ's heartbeat, but for the one it sends between taking a job and running it: a Redis refusing that write
        would end the worker with the job in its hands, and the claim that follows at once writes anyway."""
        if self.taking and pipeline is None:
            return
        super().heartbeat(timeout, pipeline)

    def execute_job(self, job: Job, queue: Queue) -> None:
        """Run the job if this worker may; drop it if a cancel came first, or if it is a copy of a job no longer
        queued (put back by the sweep while a live worker held it: whichever claimed first runs it)."""
        claim = self.claim(job, queue)
        if claim == "run":
            super().execute_job(job, queue)
            return
        if claim == "taken":
            log.warning("job %s was claimed by another worker or has ended: this copy of it is dropped", job.id)
            self.connection.lrem(queue.intermediate_queue_key, 1, job.id)
            return
        log.info("job %s was canceled before it began: not run", job.id)
        if claim != "gone":
            # A stop asked for while an earlier attempt ran, and the job queued again since: it ends stopped.
            finish_cancel(self.connection, job, job_ttl(job), JobStatus.STOPPED if claim == "stop" else None)

    def claim(self, job: Job, queue: Queue) -> str:
        """`claim_start` of a job this worker has just taken from its queue. While Redis cannot record the claim
        (unreachable, or refusing writes: full, unable to save, read-only) the job is in no queue, only in this
        worker's hands: the worker keeps it and tries again until Redis takes the claim, and a stop meanwhile (or any
        other failure) puts it back at the front of its queue first."""
        since = time.monotonic()
        try:
            while True:
                try:
                    claim = claim_start(self.connection, job.id, self.name)
                except RedisError as error:
                    if not waits_out(error):
                        raise
                    log.warning("worker %s holds job %s and cannot claim it (%s): it keeps it and tries again",
                                self.name, job.id, failure(error))
                    time.sleep(CLAIM_RETRY)
                    continue
                if time.monotonic() - since > CLAIM_RETRY:
                    log.warning("worker %s claimed job %s after %.0f s", self.name, job.id, time.monotonic() - since)
                return claim
        except BaseException:
            self.put_back(job, queue)
            raise
        finally:
            self.taking = False

    def put_back(self, job: Job, queue: Queue) -> None:
        """Put a job this worker took and never claimed back at the front of its queue; one that cannot be put back
        now is put back by a worker's sweep later (service/jobs/waiting.py)."""
        try:
            if put_back(self.connection, job.id, queue.key):
                log.warning("worker %s put job %s back at the front of queue %s unclaimed", self.name, job.id,
                            queue.name)
        except RedisError as error:
            log.error("worker %s could not put job %s back on queue %s (%s): a sweep will", self.name, job.id,
                      queue.name, failure(error))

    def clean_registries(self) -> None:
        """RQ's registry clean-ups (a clean-up lock left by a lost worker cut to the clock's `cleanup` first, and
        this worker's own lost ends expired first), the canceled registries' jobs whose TTL has passed (RQ
        keeps them), and the jobs a lost worker took and never claimed, put back after heartbeat + grace."""
        for queue in self.queues:
            if cast(int, self.connection.ttl(queue.registry_cleaning_key)) > self.clock.cleanup:
                self.connection.expire(queue.registry_cleaning_key, self.clock.cleanup)
            self.expire_lost_ends(queue)
        super().clean_registries()
        for queue in self.queues:
            prune_canceled(self.connection, queue.name)
        sweep(self.connection, self.clock.heartbeat + self.clock.grace, self.clock.cleanup)

    def expire_lost_ends(self, queue: Queue) -> None:
        """A started-registry entry of this worker's own, seen between two of its jobs (RQ cleans registries only
        then), is a job whose end was lost: its result went to a Redis primary that died before its replica had
        it, and the promoted replica still says the job runs here. Its entry is expired now, so the clean-up that
        follows finds the job abandoned and queues it again at once (ServiceJob.retry), instead of waiting for
        the entry's last heartbeat to age by the clock's heartbeat + grace. One ZRANGE and one HGET per running
        job of the queue (a registry holds at most one entry per worker)."""
        registry = queue.started_job_registry
        for entry in cast(list[bytes], self.connection.zrange(registry.key, 0, -1)):
            composite = as_text(entry)
            execution = Execution.from_composite_key(composite, self.connection)
            if as_text(cast(bytes | None, self.connection.hget(execution.key, "worker_name")) or b"") != self.name:
                continue
            self.connection.zadd(registry.key, {entry: 0}, xx=True)
            log.warning("job %s is still recorded as running on worker %s, which has ended it: its end was lost "
                        "(a failover?); found abandoned now", registry.parse_job_id(composite), self.name)

    def handle_exception(self, job: Job, *exc_info: Any) -> None:
        """A job that stopped on request is no error to log with its traceback."""
        if isinstance(exc_info[1], JobStopped):
            self.log.info("job %s: %s", job.id, exc_info[1])
            return
        super().handle_exception(job, *exc_info)

    def handle_job_failure(self, job: Job, queue: Queue, started_job_registry: Any = None,
                           exc_string: str = "") -> None:
        """A job asked to stop ends `stopped`, with no retry: RQ does so for the job whose process it killed on a
        stop command; a job that saw the stop itself (or failed meanwhile) is marked here."""
        if self._stopped_job_id != job.id and not claim_end(self.connection, job.id):
            self._stopped_job_id = job.id
        super().handle_job_failure(job, queue, started_job_registry=started_job_registry, exc_string=exc_string)


def waits_out(error: BaseException) -> bool:
    """Whether a worker waits for Redis to get over `error`: Redis unreachable, or refusing writes
    (service/jobs/errors.py `refused`); any other error answer is a bug."""
    return isinstance(error, (RedisConnectionError, RedisTimeoutError, OSError)) or refused(error) is not None


class WaitingRetry(Retry):
    """redis-py's retry of a command, which also waits out a Redis that refuses writes (`waits_out`), and raises
    any other error answer at once."""

    def call_with_retry(self, do: Callable[[], T], fail: Callable[[Exception], Any]) -> T:
        self._backoff.reset()
        failures = 0
        while True:
            try:
                return do()
            except self._supported_errors as error:
                if not waits_out(error):
                    raise
                if not failures:
                    refusal = refused(error)
                    log.warning("Redis %s: waiting for it", f"refuses writes ({refusal})" if refusal else
                                f"does not answer ({failure(error)})")
                failures += 1
                fail(error)
                if 0 <= self._retries < failures:
                    raise
                time.sleep(self._backoff.compute(failures))


def worker_connection(url: str | None = None) -> Redis:
    """A Redis client whose commands wait for Redis to answer, or to take writes again (retrying with back-off),
    instead of failing at once."""
    connection = connect(url)
    # OSError too: a refused or missing socket surfaces as one while a pooled connection reconnects.
    connection.set_retry(WaitingRetry(REDIS_BACKOFF, REDIS_RETRIES,
                                      (RedisConnectionError, RedisTimeoutError, OSError, ResponseError)))
    return connection


class ServiceWorker(ClaimingWorker, Worker):
    """RQ's forking worker with the service's job class and claims, short heartbeats and self-repairing
    registration."""

    job_class = ServiceJob
    max_connection_wait_time = 30.0  # RQ's own back-off while dequeueing, 1 s doubling up to this
    stop_signalled = False  # SIGTERM or SIGINT came (RQ's loop also ends on errors it cannot wait out)

    def __init__(self, queues: Any, connection: Redis, stop_grace: float | None = None, **kwargs: Any) -> None:
        """`stop_grace`: seconds a warm shutdown waits for the running job before a cold one puts it back on its
        queue; None waits for the job to end. A `clock` among `kwargs` sets the intervals (ClaimingWorker)."""
        super().__init__(queues, connection=connection, job_class=ServiceJob, **kwargs)
        self.stop_grace = stop_grace
        self.running: tuple[Job, Queue] | None = None  # the job a work horse runs now, and its queue
        self.stop_timer: threading.Thread | None = None
        self.job_ended = threading.Event()  # the job a warm shutdown waits for has ended, or a cold one began

    def execute_job(self, job: Job, queue: Queue) -> None:
        """Run the job in a work horse, remembering it (a cold shutdown puts it back on its queue)."""
        self.running = (job, queue)
        self.job_ended.clear()
        try:
            super().execute_job(job, queue)
        finally:
            self.running = None
            self.job_ended.set()  # the job ended within the grace: the worker stops warm

    def request_stop(self, signum: int, frame: Any) -> None:
        """Warm shutdown on SIGTERM/SIGINT, remembered so the process ends instead of starting a new worker. While
        a job runs and a `stop_grace` is set, the worker signals itself again after that long: a cold shutdown."""
        self.stop_signalled = True
        if self.stop_grace is not None and self.running is not None and self.stop_timer is None:
            self.stop_timer = threading.Thread(target=self.stop_cold_after, args=(self.stop_grace,), daemon=True,
                                               name="stop-grace")
            self.stop_timer.start()
            log.info("worker %s: stopping once its job ends, at most in %.0f s (then the job goes back on its "
                     "queue)", self.name, self.stop_grace)
        super().request_stop(signum, frame)

    def stop_cold_after(self, grace: float) -> None:
        """Unless the job ends first, signal this process again `grace` s from now, and every half second until
        the cold shutdown begins: RQ ignores a signal that comes within 1 s of the first (the duplicates of a worker
        pool), and on a loaded machine the first handler can set that moment a while after this thread starts, so a
        single timed signal could be ignored and the job then run to its end."""
        if self.job_ended.wait(grace):
            return
        while True:
            os.kill(os.getpid(), signal.SIGTERM)
            if self.job_ended.wait(0.5):
                return

    def request_force_stop(self, signum: int, frame: Any) -> None:
        """Cold shutdown (a second SIGTERM/SIGINT, or the end of `stop_grace`): RQ kills the work horse; the job it
        ran goes back at the front of its queue, its retries untouched, for the next worker to run from the
        start."""
        requested = getattr(self, "_shutdown_requested_date", None)
        if requested is not None and now() - requested < timedelta(seconds=1):
            return  # RQ's own rule: a duplicate of the first signal, not a second one
        self.job_ended.set()  # the grace's signals stop: one cold shutdown runs
        # This runs in a signal handler, often inside RQ's 1 s watch of the work horse: an alarm whose handler raises
        # when it rings. Ringing while RQ killed and reaped the horse, it turned the cold shutdown into "the horse is
        # still running", and the watch then found the horse dead and failed the job (retried later, a retry fewer);
        # ringing during the put-back, it left the job started. The worker is ending: the watch is of no use any more.
        signal.alarm(0)
        signal.signal(signal.SIGALRM, signal.SIG_IGN)
        running = self.running
        try:
            super().request_force_stop(signum, frame)
        except SystemExit:
            if running is not None:
                self.requeue_stopped(*running)
            raise

    def requeue_stopped(self, job: Job, queue: Queue) -> None:
        """Put a job whose work horse was killed back at the front of its queue, unless the horse ended it first.
        Redis is not waited for on the way out: a job that cannot be put back now is found abandoned later."""
        self.connection.set_retry(Retry(NoBackoff(), 0))
        try:
            job.refresh()
            if job.get_status(refresh=False) == JobStatus.QUEUED:  # taken and not yet claimed: Redis refused it
                self.put_back(job, queue)
                return
            if job.get_status(refresh=False) != JobStatus.STARTED:
                return
            job.started_at = job.ended_at = None
            with self.connection.pipeline() as pipeline:
                self.cleanup_execution(job, pipeline)
                # as RQ's registries requeue (enqueue_job would open a transaction in the pipeline)
                queue._enqueue_job(job, pipeline=pipeline, at_front=True)
                track(pipeline, job.id)
                pipeline.execute()
            log.warning("worker %s stopped during job %s: the job is back at the front of queue %s", self.name,
                        job.id, queue.name)
        except RedisError as error:
            log.warning("worker %s stopped during job %s and could not put it back on its queue (%s): it will be "
                        "found abandoned", self.name, job.id, failure(error))

    def stop_scheduler(self) -> None:
        """Stop the scheduler process, killing it if it has not exited within SCHEDULER_STOP_SECONDS (it may be
        waiting for a Redis that is gone); RQ would wait for it for good."""
        process = self.scheduler._process if self.scheduler is not None else None
        if process is None or process.pid is None:
            return
        process.terminate()  # SIGTERM, unless it has already been reaped
        process.join(SCHEDULER_STOP_SECONDS)
        if process.exitcode is None:
            log.warning("worker %s: its scheduler (pid %s) did not stop within %d s: killed", self.name,
                        process.pid, SCHEDULER_STOP_SECONDS)
            process.kill()
            process.join()

    def get_heartbeat_ttl(self, job: Job) -> int:
        """RQ allows 60 s past the next expected heartbeat; the clock's grace is enough and finds dead workers
        sooner."""
        return super().get_heartbeat_ttl(job) - 60 + self.clock.grace

    def heartbeat(self, timeout: int | None = None, pipeline: Any = None) -> None:
        """Extend the worker's key; register again if Redis forgot the worker."""
        super().heartbeat(timeout, pipeline)
        if pipeline is None and not self.taking:
            self.register_if_forgotten()

    def maintain_heartbeats(self, job: Job) -> None:
        """The running job's heartbeats (never bringing back an execution whose end came first), and registration
        again if Redis forgot the worker."""
        super().maintain_heartbeats(job)
        if self.execution is not None:
            drop_late_heartbeat(self.connection, job.id, self.execution.key, self.execution.id)
        self.register_if_forgotten()

    def register_if_forgotten(self) -> None:
        """After Redis restarted without its data the worker set is empty: /readyz and the probes would say no
        worker is alive. Put this worker back (its hash and both registry sets)."""
        if self.birth_date is None or self.connection.sismember(worker_registration.REDIS_WORKER_KEYS, self.key):
            return
        log.warning("worker %s was missing from Redis (data lost?): registering again", self.name)
        with self.connection.pipeline() as pipeline:
            pipeline.hset(self.key, mapping=self.serialize())
            worker_registration.register(self, pipeline)
            pipeline.expire(self.key, self.worker_ttl + 60)
            pipeline.execute()

    def teardown(self) -> None:
        """Leave the registry if Redis answers now; never wait minutes for it on the way out (the key expires)."""
        self.connection.set_retry(Retry(NoBackoff(), 0))
        try:
            super().teardown()
        except RedisError as error:
            log.warning("worker %s stopped without unregistering: %s", self.name, failure(error))


class InProcessWorker(ClaimingWorker, SimpleWorker):
    """The service's jobs run in the worker's own process, no fork (the tests' and benchmarks' burst worker): the
    same job class and claims as ServiceWorker. A stop is seen by the job itself, between its steps."""
