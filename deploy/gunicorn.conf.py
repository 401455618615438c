"""Gunicorn settings for the API. Every value can be overridden by the environment variable named beside it
(service/config.py says what each may be)."""

import os
import sys

from service.config import CONFIG_EXIT, ConfigError, check_environment, value, writable_directory
from service.runtime.fairness import Balancer, take_turns
from service.runtime.recycling import check

# Every setting of the service is checked once, before gunicorn starts anything (docs/configuration.md): a bad
# value ends gunicorn here with the message naming it, never a worker that fails to boot again and again.
# It exits with CONFIG_EXIT, which `python -m service serve` does not restart it for: a path that went bad since serve's
# own check (the access log's directory removed) stops serve with this message.
try:
    SETTINGS = check_environment(role="api")
except ConfigError as error:
    print(f"gunicorn: {error}", file=sys.stderr, flush=True)
    sys.exit(CONFIG_EXIT)
# An empty value is unset (docs/configuration.md); prometheus_client looks only at whether the variable is there, and
# would write its files into the working directory.
if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    os.environ.pop("PROMETHEUS_MULTIPROC_DIR", None)


def setting(name):
    """A setting's value as checked above, its default when unset."""
    return value(SETTINGS, name)


bind = setting("BIND")
# CPU-bound requests: processes, not threads, carry the load (threads only contend for the GIL).
# One process per core: under gevent a process serves its connections in turn (service/runtime/fairness.py), so more
# processes than cores only add the kernel's switching between them (16 clients: p99 of /v1/discards 27 ms with 2
# processes on 2 cores against 67 ms with 4, same run; docs/reliability.md#fair-latency).
workers = setting("WEB_CONCURRENCY")
worker_connections = setting("GUNICORN_WORKER_CONNECTIONS")
threads = setting("GUNICORN_THREADS")  # gthread only
# gevent: each connection is a greenlet, so a client that sends its request slowly holds a few kilobytes, not a
# worker. With gthread a thread blocks reading such a request to its end: a few dozen slow clients (slowloris)
# take every thread and /healthz goes unanswered. Requests still run one at a time per process (CPU-bound).
# gevent, gthread and sync run as gunicorn's workers that answer a request gunicorn cannot parse (a control
# character in a header, a request line or header fields over the limits ...) as the app answers its errors:
# problem+json with the security headers and an X-Request-ID (service/runtime/gunicorn_errors.py,
# docs/reliability.md#malformed-requests); no other class is accepted. gunicorn runs sync with more than one thread
# as gthread; so does this.
PROBLEM_WORKERS = {name: f"service.runtime.gunicorn_errors.{cls}" for name, cls in (
    ("gevent", "ProblemGeventWorker"), ("gthread", "ProblemThreadWorker"), ("sync", "ProblemSyncWorker"))}
_named = setting("GUNICORN_WORKER_CLASS")
worker_class = PROBLEM_WORKERS["gthread" if _named == "sync" and threads > 1 else _named]
timeout = setting("GUNICORN_TIMEOUT")
# Under gevent also the deadline for reading a request's line and headers: a client that has not sent them in
# this many seconds is disconnected.
keepalive = setting("GUNICORN_KEEPALIVE")
# A worker is replaced when its peak memory passes LONGCARDS_WORKER_MAX_MEMORY_MB (service/runtime/recycling.py), so
# memory a large request grew it by goes back to the system. Replacing workers every N requests did that too, but
# under load it replaced one every few seconds, each time moving its clients at once (docs/reliability.md#fair-latency);
# GUNICORN_MAX_REQUESTS stays available, off by default.
max_requests = setting("GUNICORN_MAX_REQUESTS")
max_requests_jitter = setting("GUNICORN_MAX_REQUESTS_JITTER")
max_memory_mb = setting("LONGCARDS_WORKER_MAX_MEMORY_MB")
# Build the evaluation tables once in the master; forked workers share them copy-on-write.
preload_app = True
accesslog = setting("GUNICORN_ACCESSLOG") or None
# gunicorn's default line plus the answer's X-Request-ID (the client's or the one the API made), which problem
# answers also carry as `request_id`, and the time taken in microseconds.
access_log_format = '%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s" rid=%({x-request-id}o)s %(D)sus'
# A key a client put in the query (`?api_key=...`, refused: keys go in headers) is masked in the access log, the
# rest of the request line kept as sent (service/runtime/access_log.py).
logger_class = "service.runtime.access_log.AccessLogger"
errorlog = "-"
loglevel = setting("GUNICORN_LOGLEVEL")
# The control socket of `gunicornc`. gunicorn's default ($XDG_RUNTIME_DIR or ~/.gunicorn) is one path shared by every
# gunicorn of the user, so `python -m service serve` puts it under .run/ instead.
if "GUNICORN_CONTROL_SOCKET" in SETTINGS:
    control_socket = SETTINGS["GUNICORN_CONTROL_SOCKET"]


# Fair turns for CPU-bound requests (service/runtime/fairness.py, docs/reliability.md#fair-latency): a process
# holding more than its share of the busy connections closes one after its answer, and under gevent each request
# lets the other ready connections of its process run before the next one is read.
balancer = Balancer()


def pre_fork(server, worker):
    """Give the worker about to be forked its slot in the shared table of requests in progress."""
    balancer.assign(server.WORKERS, worker)


def post_fork(server, worker):
    """A worker that cannot write its metrics would answer no request (each dies recording itself): when the metrics
    directory went away since the check above, it fails to boot, which stops gunicorn (and serve) with the reason."""
    metrics = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if metrics:
        try:
            writable_directory(metrics)
        except ValueError as error:
            server.log.error("PROMETHEUS_MULTIPROC_DIR=%r cannot be used: %s", metrics, error)
            sys.exit(server.WORKER_BOOT_ERROR)


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
    from service.advice.warm import warm_tables

    seconds = warm_tables()
    server.log.info("evaluation tables built in %.2f s", seconds)


def child_exit(server, worker):
    """Free the worker's slot of requests in progress; tell prometheus_client a worker died, so its per-process
    metric files stop counting as live."""
    balancer.release(worker)
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
