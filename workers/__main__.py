"""`python -m workers [--burst] [QUEUE ...]`: an RQ worker on REDIS_URL with the JSON serializer and the
scheduler (retry back-off needs it)."""

from __future__ import annotations

import argparse
import logging

from rq import Worker

from .queues import QUEUES, SERIALIZER, connect


def main(argv: list[str] | None = None) -> None:
    """Run one worker until stopped (or, with --burst, until the queues are empty)."""
    parser = argparse.ArgumentParser(prog="python -m workers")
    parser.add_argument("queues", nargs="*", default=list(QUEUES))
    parser.add_argument("--burst", action="store_true", help="stop when the queues are empty")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s worker %(levelname)s %(message)s")
    connection = connect()
    worker = Worker(args.queues, connection=connection, serializer=SERIALIZER)
    worker.work(with_scheduler=True, burst=args.burst)


if __name__ == "__main__":
    main()
