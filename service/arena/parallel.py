"""Work spread over processes and read back in order, which the reader may stop at any time.

The arena, the value model's training and the calibrations play deals side by side in this one way. The processes
are spawned, not forked: a fork of a process running threads (a server, a test session) may inherit a lock held for
ever. A stop never kills a process mid-answer either: `multiprocessing.Pool.terminate` does, and a worker killed
while it holds the lock of the queue the answers come back on leaves the pool's own threads waiting on that lock
for ever, so the stop hangs. Here a stop cancels the tasks not yet started and waits for the running ones to end.
"""

from __future__ import annotations

import multiprocessing
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import TypeVar

Task = TypeVar("Task")
Answer = TypeVar("Answer")


def in_order(work: Callable[[Task], Answer], tasks: Iterable[Task], jobs: int, ahead: int) -> Iterator[Answer]:
    """`work(task)` for every task, in the tasks' order, in `jobs` spawned processes (`jobs` 1: in this process),
    with at most `ahead` tasks handed out beyond the answer being read (`tasks` may be endless). `work` and the
    tasks are pickled: a module-level function and plain data.

    Stopping (the reader stops reading, an answer raises, Ctrl-C) cancels the tasks not yet started and waits for
    the few already taken (one per process, and the one queued next): every process then ends normally and its
    exit hooks run (the arena's external bots are told `end`)."""
    if jobs <= 1:
        yield from map(work, tasks)
        return
    pool = ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"))
    try:
        pending: deque[Future[Answer]] = deque()
        for task in tasks:
            pending.append(pool.submit(work, task))
            if len(pending) > ahead:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
