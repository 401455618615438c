"""`python -m workers [--burst] [QUEUE ...]`: an RQ worker on REDIS_URL with the JSON serializer and the
scheduler (retry back-off needs it)."""

from __future__ import annotations

import argparse
import logging

from rq import Worker

from service.rules.warm import warm_tables

from . import replays, searches  # noqa: F401 - imported once here, not again in every forked work horse
from .queues import QUEUES, SERIALIZER, connect

#: RQ's default is 10 minutes; a job whose worker died is found at the first clean-up after its started-registry
#: entry expires, so a shorter interval brings it back (retried or failed) sooner, at one cheap scan a minute.
MAINTENANCE_SECONDS = 60


def main(argv: list[str] | None = None) -> None:
    """Run one worker until stopped (or, with --burst, until the queues are empty)."""
    parser = argparse.ArgumentParser(prog="python -m workers")
    parser.add_argument("queues", nargs="*", default=list(QUEUES))
    parser.add_argument("--burst", action="store_true", help="stop when the queues are empty")
    parser.add_argument("--maintenance-interval", type=int, default=MAINTENANCE_SECONDS,
                        help="seconds between registry clean-ups, which requeue the jobs of dead workers")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s worker %(levelname)s %(message)s")
    # Each job runs in a fork of this process: tables built here are shared copy-on-write, while tables built
    # in a work horse die with it, and every replay job would pay seconds to build them again.
    logging.getLogger(__name__).info("evaluation tables built in %.2f s", warm_tables())
    connection = connect()
    worker = Worker(args.queues, connection=connection, serializer=SERIALIZER,
                    maintenance_interval=args.maintenance_interval)
    worker.work(with_scheduler=True, burst=args.burst)


if __name__ == "__main__":
    main()
