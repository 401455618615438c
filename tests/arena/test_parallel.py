"""service/arena/parallel.py `in_order`, with real spawned processes: answers come back in the tasks' order, and a
reader that stops early, or an answer that raises, ends the processes without hanging, even while they are sending
answers large enough to hold the answer queue's lock for a while (the moment `multiprocessing.Pool.terminate` kills
a process holding that lock, and hangs for ever)."""

from __future__ import annotations

import itertools
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from service.arena.parallel import in_order
from tests.support.parallel_tasks import broken, square

pytestmark = pytest.mark.slow  # each case spawns two processes

ROOT = Path(__file__).resolve().parents[2]
#: Read two answers of sixteen tasks and stop, twenty times; print each round's seconds.
STOPS = """
import itertools, time
from service.arena.parallel import in_order
from tests.support.parallel_tasks import LARGE, large
for _ in range(20):
    started = time.monotonic()
    read = list(itertools.islice(in_order(large, range(16), 2, 4), 2))
    assert [len(answer) for answer in read] == [LARGE, LARGE]
    print(round(time.monotonic() - started, 2), flush=True)
"""


def test_answers_come_in_order_from_an_endless_list_of_tasks():
    answers = list(itertools.islice(in_order(square, itertools.count(), 2, 4), 40))
    assert [n for n, _ in answers] == [n * n for n in range(40)]
    workers = {pid for _, pid in answers}
    # Other processes did the work, two at the most (on a loaded machine one may do it all before the other starts).
    assert os.getpid() not in workers and 1 <= len(workers) <= 2
    assert list(in_order(square, range(5), 1, 4)) == [(n * n, os.getpid()) for n in range(5)]  # one: this process


def test_a_reader_that_stops_while_large_answers_are_sent_is_not_left_waiting():
    """Twenty early stops in a process of their own, so that a hang fails this test rather than the session (with
    `Pool.terminate`, one of the twenty rounds hangs in most tries)."""
    stops = subprocess.Popen([sys.executable, "-c", STOPS], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, start_new_session=True)
    try:
        out, err = stops.communicate(timeout=240)  # within the 300 s of a slow test: a hang never ends
    except subprocess.TimeoutExpired:
        os.killpg(stops.pid, signal.SIGKILL)
        out, err = stops.communicate()
        pytest.fail(f"the stops hung after: {out!r}")
    assert stops.returncode == 0, err[-2000:]
    rounds = [float(line) for line in out.split()]
    assert len(rounds) == 20, rounds


def test_an_answer_that_raises_reaches_the_reader_after_the_answers_before_it():
    read: list[int] = []
    with pytest.raises(ValueError, match="deal 3 broke"):
        for answer in in_order(broken, range(100), 2, 4):
            read.append(answer)
    assert read == [0, 1, 2]
