"""Fair turns for CPU-bound requests in gunicorn's workers (wired by deploy/gunicorn.conf.py's hooks;
docs/reliability.md#fair-latency).

Two things made a 1 ms answer wait a second under load with gevent workers (each connection a greenlet, one
request computing at a time per process):

- **A connection kept its turn.** After answering, the greenlet reads the keep-alive connection's next request;
  on loopback it has often arrived already, so the read returns at once and the same client is served again while
  the other connections' requests wait, ready, for a switch to the event loop that never comes. `take_turns`
  (after every request) waits until the loop is idle, `gevent.idle()`: every connection that was ready runs first,
  so the ready requests of one process are served in turn, whoever sent them.
- **Processes held unequal shares of the clients.** A keep-alive connection stays with the process that accepted
  it, and a burst of connections is accepted unevenly (8, 3, 1 and 4 of 16 over four processes, seen). Each
  process has an equal share of the CPU, so a client of the crowded one waits several times longer.
  `Balancer.begin` counts each process's busy connections (those that sent a request within the last `WINDOW`
  seconds) in memory shared by all of them and, when a process holds more than its fair share (the total divided
  by the processes, rounded up), answers the request with `Connection: close`; the client reconnects and whichever
  process takes it next (an idle one, waiting in `accept`, first) serves it. Connections that never finish a
  request (slow or idle clients) are not counted, so they never cause a close.

With gthread workers the threads of a process already take turns (the interpreter switches threads every few
milliseconds): `take_turns` does nothing there; the balance still applies.
"""

from __future__ import annotations

import math
import multiprocessing
import sys
import threading
import time
from typing import Any

#: Slots of the shared table: more than any process count gunicorn is asked to run (a slot is freed with its worker).
SLOTS = 256
#: Seconds since its last request within which a connection counts as busy.
WINDOW = 1.0
#: Seconds a process waits after closing a connection for balance before it closes another: the client needs a
#: moment to reconnect and be counted elsewhere, and closing on every request would cost a connection each.
COOLDOWN = 1.0


class Balancer:
    """Busy connections per worker process, in memory shared by the master and every worker it forks; each process
    also remembers when each of its connections last sent a request."""

    def __init__(self, slots: int = SLOTS, window: float = WINDOW, cooldown: float = COOLDOWN) -> None:
        self.counts = multiprocessing.RawArray("i", slots)
        self.used = multiprocessing.RawValue("i", 0)  # slots ever given: only these are summed, per request
        self.window, self.cooldown = window, cooldown
        self.last_close = -cooldown  # when this process last closed a connection for balance
        self.lock = threading.Lock()  # gthread: the threads of one process share its connections' table
        self.seen: dict[int, float] = {}  # this process's connections (by their reader) -> last request

    def assign(self, workers: dict[int, Any], worker: Any) -> None:
        """Master, before forking `worker`: give it the first slot no live worker holds, cleared."""
        used = {getattr(w, "fair_slot", None) for w in workers.values()}
        worker.fair_slot = next(i for i in range(len(self.counts)) if i not in used)
        self.counts[worker.fair_slot] = 0
        self.used.value = max(self.used.value, worker.fair_slot + 1)
        self.seen = {}  # the child starts with no connections

    def release(self, worker: Any) -> None:
        """Master, once `worker` exited: its slot counts nothing (a killed worker leaves no connections behind)."""
        slot = getattr(worker, "fair_slot", None)
        if slot is not None:
            self.counts[slot] = 0

    def begin(self, worker: Any, req: Any, now: float | None = None) -> None:
        """Worker, a request parsed: its connection is busy; close it after the answer when this process holds more
        than its fair share of the busy connections of all processes."""
        slot = getattr(worker, "fair_slot", None)
        if slot is None:
            return
        now = time.monotonic() if now is None else now
        key = id(req.unreader)  # one reader per connection, whatever its address (a unix socket has none)
        with self.lock:
            for old in [k for k, t in self.seen.items() if now - t > self.window]:
                del self.seen[old]
            self.seen[key] = now
            mine = len(self.seen)
            self.counts[slot] = mine
            total = sum(self.counts[:self.used.value])  # not all 256 slots: 13 µs a request
            if now - self.last_close >= self.cooldown and over_share(mine, total, max(1, int(worker.cfg.workers))):
                self.last_close = now
                req.must_close = True  # gunicorn then answers `Connection: close` and ends the keep-alive loop
                del self.seen[key]
                self.counts[slot] = mine - 1


def over_share(mine: int, total: int, processes: int) -> bool:
    """Whether a process with `mine` of `total` busy connections holds more than its fair share: the total spread
    over the processes, rounded up (16 over 4: 4 each; 17 over 4: 5)."""
    return mine > math.ceil(total / processes)


def take_turns() -> None:
    """After a request: under gevent, let every other ready connection of this process run first (the module
    docstring). Elsewhere nothing: threads are switched by the interpreter."""
    gevent = sys.modules.get("gevent")
    if gevent is not None and _patched():
        gevent.idle()


def _patched() -> bool:
    """Whether this process runs under gevent's monkey-patching (gunicorn's gevent worker patches at start)."""
    monkey = sys.modules.get("gevent.monkey")
    return bool(monkey is not None and monkey.is_module_patched("socket"))
