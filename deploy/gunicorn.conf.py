"""Gunicorn settings for the API. Every value can be overridden by the environment variable named beside it."""

import multiprocessing
import os

from service.http.fairness import Balancer, take_turns
from service.http.recycling import ceiling_mb, check

bind = os.environ.get("BIND", "127.0.0.1:8000")
# CPU-bound requests: processes, not threads, carry the load (threads only contend for the GIL).
# One process per core: under gevent a process serves its connections in turn (service/http/fairness.py), so more
# processes than cores only add the kernel's switching between them (16 clients: p99 of /v1/discards 27 ms with 2
# processes on 2 cores against 67 ms with 4, same run; docs/reliability.md#fair-latency).
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count()))
# gevent: each connection is a greenlet, so a client that sends its request slowly holds a few kilobytes, not a
# worker. With gthread a thread blocks reading such a request to its end: a few dozen slow clients (slowloris)
# take every thread and /healthz goes unanswered. Requests still run one at a time per process (CPU-bound).
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "gevent")
worker_connections = int(os.environ.get("GUNICORN_WORKER_CONNECTIONS", "1000"))
threads = int(os.environ.get("GUNICORN_THREADS", "1"))  # gthread only
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
# Under gevent also the deadline for reading a request's line and headers: a client that has not sent them in
# this many seconds is disconnected.
keepalive = int(os.environ.get("GUNICORN_KEEPALIVE", "5"))
# A worker is replaced when its peak memory passes LONGCARDS_WORKER_MAX_MEMORY_MB (service/http/recycling.py), so
# memory a large request grew it by goes back to the system. Replacing workers every N requests did that too, but
# under load it replaced one every few seconds, each time moving its clients at once (docs/reliability.md#fair-latency);
# GUNICORN_MAX_REQUESTS stays available, off by default.
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "0"))
max_requests_jitter = int(os.environ.get("GUNICORN_MAX_REQUESTS_JITTER", "0"))
max_memory_mb = ceiling_mb()
# Build the evaluation tables once in the master; forked workers share them copy-on-write.
preload_app = True
accesslog = os.environ.get("GUNICORN_ACCESSLOG") or None
# gunicorn's default line plus the answer's X-Request-ID (the client's or the one the API made), which problem
# answers also carry as `request_id`, and the time taken in microseconds.
access_log_format = '%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s" rid=%({x-request-id}o)s %(D)sus'
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOGLEVEL", "info")
# The control socket of `gunicornc`. gunicorn's default ($XDG_RUNTIME_DIR or ~/.gunicorn) is one path shared by every
# gunicorn of the user, so `python -m service serve` puts it under .run/ instead.
if os.environ.get("GUNICORN_CONTROL_SOCKET"):
    control_socket = os.environ["GUNICORN_CONTROL_SOCKET"]


# Fair turns for CPU-bound requests (service/http/fairness.py, docs/reliability.md#fair-latency): a process
# holding more than its share of the busy connections closes one after its answer, and under gevent each request
# lets the other ready connections of its process run before the next one is read.
balancer = Balancer()


def pre_fork(server, worker):
    """Give the worker about to be forked its slot in the shared table of requests in progress."""
    balancer.assign(server.WORKERS, worker)


def pre_request(worker, req):
    """Note the request's connection as busy; close it after the answer if this process holds more than its share."""
    balancer.begin(worker, req)


def post_request(worker, req, environ, resp):
    """The request is done: replace this worker if it grew past the memory ceiling; give the other ready
    connections of this process their turn."""
    check(worker, max_memory_mb)
    take_turns()


def on_starting(server):
    """Warm the default rule profiles' tables before workers fork."""
    from service.rules.warm import warm_tables

    seconds = warm_tables()
    server.log.info("evaluation tables built in %.2f s", seconds)


def child_exit(server, worker):
    """Free the worker's slot of requests in progress; tell prometheus_client a worker died, so its per-process
    metric files stop counting as live."""
    balancer.release(worker)
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
