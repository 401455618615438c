"""Gunicorn settings for the API. Every value can be overridden by the environment variable named beside it."""

import multiprocessing
import os

bind = os.environ.get("BIND", "127.0.0.1:8000")
# CPU-bound requests: processes, not threads, carry the load (threads only contend for the GIL).
workers = int(os.environ.get("WEB_CONCURRENCY", 2 * multiprocessing.cpu_count()))
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "gthread")
threads = int(os.environ.get("GUNICORN_THREADS", "1"))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
keepalive = int(os.environ.get("GUNICORN_KEEPALIVE", "5"))
# Recycle a worker after this many requests (staggered by the jitter, so they do not all restart at once):
# memory a large request made the worker grow by goes back to the system, and a gthread worker's request is
# never cut by `timeout`, so requests themselves are kept bounded (README "Limits").
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "1000"))
max_requests_jitter = int(os.environ.get("GUNICORN_MAX_REQUESTS_JITTER", "100"))
# Build the evaluation tables once in the master; forked workers share them copy-on-write.
preload_app = True
accesslog = os.environ.get("GUNICORN_ACCESSLOG") or None
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOGLEVEL", "info")


def on_starting(server):
    """Warm the default rule profiles' tables before workers fork."""
    from service.rules.warm import warm_tables

    seconds = warm_tables()
    server.log.info("evaluation tables built in %.2f s", seconds)


def child_exit(server, worker):
    """Tell prometheus_client a worker died, so its per-process metric files stop counting as live."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
