"""`python -m workers [--burst] [--stop-grace SECONDS] [QUEUE ...]`: a worker of the service (workers/worker.py) on
REDIS_URL with the JSON serializer and the scheduler (retry back-off needs it), until SIGTERM or SIGINT.

Its scheduler and work horses die with it (`PR_SET_PDEATHSIG`, service/runtime/lifetime.py): a worker killed outright
leaves no process behind to go on taking the scheduler lock or running a job whose worker is gone."""

from __future__ import annotations

import argparse
import faulthandler
import logging
import signal
import threading

from redis.exceptions import RedisError

from service.advice.warm import warm_tables
from service.config import ConfigError, check_environment
from service.jobs.queues import QUEUES, SERIALIZER
from service.redaction import redact_logs
from service.redisconf import failure
from service.runtime.lifetime import forks_die_with_parent

from . import replays, searches  # noqa: F401 - imported once here, not again in every forked work horse
from .worker import ServiceWorker, worker_connection

log = logging.getLogger(__name__)
#: Seconds before a worker that stopped on a Redis failure (Redis gone for minutes) starts again: doubling to 30.
RESTART_BACKOFF = (1.0, 30.0)


def main(argv: list[str] | None = None) -> None:
    """Run workers until stopped (or, with --burst, until the queues are empty); one that stops on a Redis
    failure is replaced after a back-off, so a long outage never ends the process."""
    parser = argparse.ArgumentParser(prog="python -m workers")
    parser.add_argument("queues", nargs="*", default=list(QUEUES))
    parser.add_argument("--burst", action="store_true", help="stop when the queues are empty")
    parser.add_argument("--stop-grace", type=float, default=None, metavar="SECONDS",
                        help="on SIGTERM/SIGINT wait at most this long for the running job, then put it back at the "
                             "front of its queue (default: wait for it to end)")
    args = parser.parse_args(argv)
    try:  # a setting the worker cannot run with stops it here, before it takes any job
        check_environment(role="worker")
    except ConfigError as error:
        raise SystemExit(f"python -m workers: {error}") from None
    redact_logs()  # RQ logs a failed job's traceback: no secret in it
    logging.basicConfig(level=logging.INFO, format="%(asctime)s worker %(levelname)s %(message)s")
    # SIGUSR2 writes the stack of every thread to stderr (the log), in the worker and in its work horses: how an
    # operator sees where a worker that logs nothing is waiting (docs/reliability.md).
    faulthandler.register(signal.SIGUSR2, all_threads=True)
    forks_die_with_parent(signal.SIGKILL)  # the scheduler process and the work horses
    # Each job runs in a fork of this process: tables built here are shared copy-on-write, while tables built
    # in a work horse die with it, and every replay job would pay seconds to build them again.
    log.info("evaluation tables built in %.2f s", warm_tables())
    stop = threading.Event()
    delay = RESTART_BACKOFF[0]
    while True:
        worker = None
        try:
            worker = ServiceWorker(args.queues, connection=worker_connection(), serializer=SERIALIZER,
                                   stop_grace=args.stop_grace)
            worker.work(with_scheduler=True, burst=args.burst)
        except RedisError as error:  # Redis did not come back within the connection's retries
            log.warning("worker could not reach Redis: %s", failure(error))
        if args.burst or (worker is not None and worker.stop_signalled):
            return
        # RQ's loop ends on a Redis error it cannot wait out; a stop signal ends the process.
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, lambda *_: stop.set())
        log.warning("worker stopped on a Redis failure; a new one starts in %.0f s", delay)
        if stop.wait(delay):
            return
        delay = min(delay * 2, RESTART_BACKOFF[1])


if __name__ == "__main__":
    main()
