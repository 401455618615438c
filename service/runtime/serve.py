"""`python -m service serve`: the whole service on one machine, supervised.

Every setting is checked first (service/config.py): a bad one ends serve at once with exit code 2 and the message,
nothing started. Then it starts a private Redis when neither `REDIS_URL` nor `REDIS_SENTINELS` is set
(service/runtime/localredis.py: data and socket under `.run/redis/`, run under service/runtime/keeper.py so that it
outlives the workers however serve ends), N RQ workers (`python -m workers`) and gunicorn serving the API (its
control socket `.run/gunicorn.ctl`). A child that dies is started again after a back-off (1 s, doubling to 30 s;
back to 1 s once it has run a minute), with a line on stdout, except gunicorn ending with its codes for a worker
that cannot boot, an app that cannot load or a configuration it refuses (a path that went bad since serve's own
check): serve stops then, exit code 1. Otherwise everything stops only on
SIGINT or SIGTERM. With `REDIS_URL` set it uses that server, with `REDIS_SENTINELS` the primary the Sentinels name
(service/redisconf.py).

Each child runs in a process group of its own, so a Ctrl-C at the terminal (SIGINT to serve's group) reaches serve
alone, which stops the children in order: gunicorn and the workers first (a worker waits at most `stop_grace`
seconds for its running job, then puts it back at the front of its queue), Redis once they are gone, and then
whatever is left in each child's group. Each child also gets SIGTERM if serve dies without stopping it
(`PR_SET_PDEATHSIG`), and the workers' own children die with them (workers/__main__.py).

One serve runs on a data directory at a time (service/runtime/datalock.py): a second one exits at once with code 2,
naming the running one, and touches nothing of it.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from redis import Redis
from redis.exceptions import RedisError

from ..config import CONFIG_EXIT, ConfigError, check_environment, value
from ..redisconf import RedisSettings
from .datalock import DataDirInUse, lock_data_dir
from .lifetime import exec_hook
from .localredis import RedisServer, socket_path

ROOT = Path(__file__).resolve().parents[2]
RESTART_DELAY = (1.0, 30.0)
STABLE_SECONDS = 60  # a child that ran this long restarts after the shortest delay again
STOP_GRACE = 10.0  # seconds a worker's running job may go on after the stop signal, then it goes back on its queue
#: Seconds beyond the grace for a worker's cold shutdown and gunicorn's graceful one, then SIGKILL.
STOP_MARGIN = 5.0
REDIS_STOP_SECONDS = 10.0  # Redis saves its data on SIGTERM; SIGKILL after this long
#: An RQ worker ignores a second stop signal within 1 s of the first (the duplicates of a worker pool), so a second
#: Ctrl-C is passed on no sooner than this after the first SIGTERM.
HURRY_AFTER = 1.2
#: gunicorn's exit codes when a worker cannot boot and when the app cannot load.
GUNICORN_WORKER_BOOT_ERROR, GUNICORN_APP_LOAD_ERROR = 3, 4
#: The files prometheus_client's multiprocess mode writes, one per metric type and process (its values.py): the only
#: files serve removes from the metrics directory, which may hold others.
METRIC_FILE = re.compile(r"(counter|histogram|summary|gauge_[a-z]+)_[0-9]+\.db")


def say(message: str) -> None:
    """One line on stdout, flushed (serve's log)."""
    print(f"serve: {message}", flush=True)


def spawn(argv: list[str], **popen: Any) -> subprocess.Popen:
    """A child in a process group of its own (a Ctrl-C at the terminal reaches serve only, which stops the children
    in order), sent SIGTERM by the kernel if serve dies without stopping it."""
    return subprocess.Popen(argv, process_group=0, preexec_fn=exec_hook(signal.SIGTERM), **popen)


def sweep(process: subprocess.Popen) -> None:
    """SIGKILL whatever is left in an ended child's process group (its group is its pid): what it started and did
    not take down with it."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)


@dataclass
class Child:
    """A supervised process: how to start it, the running one, and when to start it again."""

    name: str
    launch: Callable[[], subprocess.Popen]
    process: subprocess.Popen | None = None
    started: float = 0.0
    delay: float = RESTART_DELAY[0]
    due: float | None = 0.0  # monotonic time of the next start, None while running
    fatal: tuple[int, ...] = ()  # exit codes that no restart can mend: serve stops instead
    failed: int | None = None  # the fatal exit code it ended with

    def start(self) -> None:
        """Start it now; a failed start is tried again after the back-off."""
        self.started = time.monotonic()
        try:
            self.process, self.due = self.launch(), None
        except (OSError, RuntimeError) as error:
            self.schedule(f"could not start ({error})")

    def schedule(self, why: str) -> None:
        """Start it again after the back-off, which doubles while it keeps dying young."""
        now = time.monotonic()
        if now - self.started >= STABLE_SECONDS:
            self.delay = RESTART_DELAY[0]
        say(f"{self.name} {why}; restarting in {self.delay:.0f} s")
        self.due, self.delay = now + self.delay, min(self.delay * 2, RESTART_DELAY[1])

    def running(self) -> subprocess.Popen | None:
        """The process while it runs (it may have just died), None while a start is due."""
        return self.process if self.due is None else None

    def check(self) -> None:
        """Start it if due; notice if it died."""
        process = self.running()
        if process is None:
            if self.due is not None and time.monotonic() >= self.due:
                self.start()
        elif process.poll() is not None:
            sweep(process)
            if process.returncode in self.fatal:
                self.failed, self.due = process.returncode, None
                self.process = None
                return
            self.schedule(f"(pid {process.pid}) exited with {process.returncode} after "
                          f"{time.monotonic() - self.started:.0f} s")


class Stopping:
    """The signal handler of SIGINT and SIGTERM: the first stops serve in order, a second one hurries the stop."""

    def __init__(self) -> None:
        self.signals = 0

    def __call__(self, *_: Any) -> None:
        self.signals += 1

    def __bool__(self) -> bool:
        return self.signals > 0


def wait_for_exit(children: list[tuple[str, subprocess.Popen]], seconds: float, stopping: Stopping) -> None:
    """Wait until every process has exited; on a second stop signal send each SIGINT (gunicorn: quick shutdown; a
    worker: cold shutdown, its job back on its queue), no sooner than HURRY_AFTER; SIGKILL the ones still running
    after `seconds`."""
    began = time.monotonic()
    hurried = False
    while any(process.poll() is None for _, process in children) and time.monotonic() < began + seconds:
        if not hurried and stopping.signals > 1 and time.monotonic() >= began + HURRY_AFTER:
            hurried = True
            say("stopping at once")
            for _, process in children:
                if process.poll() is None:
                    process.send_signal(signal.SIGINT)
        time.sleep(0.05)
    for name, process in children:
        if process.poll() is None:
            say(f"{name} (pid {process.pid}) did not stop within {seconds:.0f} s: killed")
            process.kill()
            process.wait()


def stop_all(children: list[Child], grace: float, stopping: Stopping) -> None:
    """SIGTERM gunicorn and the workers (gunicorn finishes its requests, a worker its job for at most `grace` s
    before putting it back on its queue), then SIGINT Redis's keeper once they are gone (it stops Redis at once);
    SIGKILL any that overstays; finally kill what is left in each child's process group."""
    running = [(c.name, p) for c in children if (p := c.running()) is not None]
    served = [(name, process) for name, process in running if name != "redis"]
    redis = [(name, process) for name, process in running if name == "redis"]
    for phase, seconds, signum in ((served, grace + STOP_MARGIN, signal.SIGTERM),
                                   (redis, REDIS_STOP_SECONDS, signal.SIGINT)):  # the keeper: stop Redis now
        for _, process in phase:
            if process.poll() is None:
                process.send_signal(signum)
        wait_for_exit(phase, seconds, stopping)
    for _, process in running:
        sweep(process)


def run_dir_socket(run_dir: Path, name: str) -> Path:
    """A socket of serve under `run_dir`, or in a short temporary directory when that path is too long."""
    path = socket_path(run_dir / name)
    if path.parent != run_dir:
        say(f"{run_dir / name} is too long for a unix socket ({len(str(run_dir / name))} bytes, at most 107): "
            f"using {path}")
    return path


def children_of(env: dict[str, str], workers: int, run_dir: Path, stop_grace: float = STOP_GRACE,
                stopping: Stopping | None = None) -> list[Child]:
    """Redis (when neither REDIS_URL nor REDIS_SENTINELS is set), the workers and gunicorn, in start order; `env`
    gets the embedded Redis's REDIS_URL. None of them when a stop signal came while an earlier serve's Redis was
    stopping; NotStarted when it did not stop in time."""
    children = []
    if not env.get("REDIS_URL") and not env.get("REDIS_SENTINELS"):
        server = RedisServer(run_dir / "redis", persist=True)
        if server.socket_moved:
            say(f"{server.data_dir / 'redis.sock'} is too long for a unix socket: using {server.socket}")
        env["REDIS_URL"] = server.url
        say(f"embedded Redis at {server.url}, data in {server.data_dir}")
        wait = stop_grace + STOP_MARGIN + REDIS_STOP_SECONDS
        if not wait_for_earlier(server, wait, Stopping() if stopping is None else stopping):
            return []
        # Under its keeper, Redis outlives the workers even when serve is killed outright (service/runtime/keeper.py).
        keeper = [sys.executable, "-m", "service.runtime.keeper", "--url", server.url,
                  "--within", str(stop_grace + STOP_MARGIN), "--stop", str(REDIS_STOP_SECONDS), "--"]
        children.append(Child("redis", lambda: server.start(spawn=lambda argv, **popen: spawn(keeper + argv,
                                                                                               **popen))))
    else:
        say(f"Redis: {RedisSettings.read(env).describe()}")
    python = sys.executable
    worker = [python, "-m", "workers", "--stop-grace", str(stop_grace)]
    for i in range(workers):
        children.append(Child(f"worker-{i + 1}", lambda: spawn(worker, env=env)))
    env["GUNICORN_CONTROL_SOCKET"] = str(run_dir_socket(run_dir, "gunicorn.ctl"))
    # gunicorn runs in ROOT: it gets the paths serve checked, absolute. Unset (or empty): `metrics/` of the data
    # directory, serve's own (its lock keeps any other serve out of it), used again by the next start.
    metrics = Path(env.get("PROMETHEUS_MULTIPROC_DIR") or run_dir / "metrics").absolute()
    metrics.mkdir(exist_ok=True)
    env["PROMETHEUS_MULTIPROC_DIR"] = str(metrics)
    if env.get("GUNICORN_ACCESSLOG") not in (None, "", "-"):
        env["GUNICORN_ACCESSLOG"] = os.path.abspath(env["GUNICORN_ACCESSLOG"])

    def gunicorn() -> subprocess.Popen:
        for stale in metrics.glob("*.db"):  # files of a gunicorn that died would be summed into /metrics
            if METRIC_FILE.fullmatch(stale.name):
                stale.unlink(missing_ok=True)
        return spawn([str(Path(python).with_name("gunicorn")), "--config", str(ROOT / "deploy" / "gunicorn.conf.py"),
                      "service.app:create_app()"], env=env, cwd=ROOT)

    # gunicorn's exit codes for a worker that cannot boot, an app that cannot load and a configuration refused by
    # deploy/gunicorn.conf.py: starting it again changes nothing
    children.append(Child("gunicorn", gunicorn,
                          fatal=(CONFIG_EXIT, GUNICORN_WORKER_BOOT_ERROR, GUNICORN_APP_LOAD_ERROR)))
    return children


class NotStarted(Exception):
    """serve stops before it starts anything; the message says why."""


def wait_for_earlier(server: RedisServer, seconds: float, stopping: Stopping) -> bool:
    """When the Redis of an earlier serve on the same data still answers (that serve was killed, and its keeper
    waits for its workers to end), wait for it to stop, at most `seconds`: two servers must never write the same
    append-only file. True once it has stopped, False on a stop signal meanwhile; NotStarted after `seconds`."""
    probe = Redis.from_url(server.url, socket_connect_timeout=1, socket_timeout=1)
    deadline = time.monotonic() + seconds
    said = False
    try:
        while True:
            try:
                probe.ping()
            except (RedisError, OSError):
                return True
            if stopping:
                return False
            if time.monotonic() > deadline:
                raise NotStarted(f"the Redis at {server.socket} of an earlier serve on this data is still running "
                                 f"after {seconds:.0f} s")
            if not said:
                say("the Redis of an earlier serve on this data is still stopping (that serve has ended): waiting "
                    "for it")
                said = True
            time.sleep(0.2)
    finally:
        probe.close()


def site_of(bind: str) -> str | None:
    """The base URL a browser on this machine reaches gunicorn's `BIND` at; None for a unix socket."""
    if bind.startswith(("unix:", "fd://")):
        return None
    host, _, port = bind.rpartition(":")
    host = {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "[::]": "[::1]"}.get(host, host)
    return f"http://{host}:{port}"


def answers(site: str) -> bool:
    """Whether the API answers `/healthz` yet (a short probe: the supervising loop must not stall)."""
    direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # never through an http_proxy
    try:
        with direct.open(f"{site}/healthz", timeout=0.5) as response:
            return response.status == 200
    except urllib.error.HTTPError as error:
        error.close()
        return False
    except OSError:  # not listening yet
        return False


def report_ready(site: str, env: dict[str, str]) -> None:
    """Say where the pages and the docs are, once the API answers."""
    say("ready")
    say(f"hand lab:      {site}/ui")
    say(f"replay viewer: {site}/ui/replay")
    say(f"drills:        {site}/ui/drill")
    say(f"rules:         {site}/docs/rules")
    say(f"API docs:      {site}{env.get('LONGCARDS_DOCS_URL', '/docs')}")
    say(f"OpenAPI spec:  {site}/openapi.json")


def serve(workers: int | None = None, data_dir: str | None = None, stop_grace: float | None = None) -> int:
    """Run Redis (if needed), the workers and gunicorn, restarting any that dies, until SIGINT or SIGTERM. Every
    setting is checked first: 2, with the message, when one cannot be used; 1 when gunicorn cannot load the app."""
    env = dict(os.environ)
    try:
        settings = check_environment(env, role="serve")
    except ConfigError as error:
        print(f"serve: not started: {error}", file=sys.stderr, flush=True)
        return 2
    workers = workers if workers is not None else value(settings, "LONGCARDS_WORKERS")
    stop_grace = stop_grace if stop_grace is not None else value(settings, "LONGCARDS_STOP_GRACE")
    run_dir = Path(data_dir or env.get("LONGCARDS_DATA_DIR") or ROOT / ".run").absolute()
    try:  # checked above; this is what can still go wrong since
        run_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        print(f"serve: not started: cannot create {run_dir} (LONGCARDS_DATA_DIR): {error.strerror}", file=sys.stderr,
              flush=True)
        return CONFIG_EXIT
    try:  # one serve per data directory: a second one stops here, having touched nothing of the first one's
        lock = lock_data_dir(run_dir)
    except (DataDirInUse, OSError) as error:
        reason = error if isinstance(error, DataDirInUse) else f"cannot lock {run_dir}: {error.strerror}"
        print(f"serve: not started: {reason}", file=sys.stderr, flush=True)
        return CONFIG_EXIT
    stopping = Stopping()
    failed = 0
    signal.signal(signal.SIGTERM, stopping)
    signal.signal(signal.SIGINT, stopping)
    try:
        children = children_of(env, workers, run_dir, stop_grace, stopping)
    except NotStarted as refusal:
        print(f"serve: not started: {refusal}", file=sys.stderr, flush=True)
        return CONFIG_EXIT
    site = site_of(env.get("BIND", "127.0.0.1:8000"))  # deploy/gunicorn.conf.py's default
    try:
        while not stopping:
            for child in children:
                if not stopping:
                    child.check()
            if any(child.failed is not None for child in children):
                break
            if site and children[-1].due is None and answers(site):
                report_ready(site, env)
                site = None
            time.sleep(0.2)
        for child in children:
            if child.failed is not None:
                print(f"serve: {child.name} exited with {child.failed}: it cannot start as configured (its message "
                      "is above); stopping", file=sys.stderr, flush=True)
                failed = 1
        say(f"stopping (a running job has {stop_grace:.0f} s to end, then it goes back on its queue; "
            "Ctrl-C again to stop at once)")
    finally:
        began = time.monotonic()
        stop_all(children, stop_grace, stopping)
        say(f"stopped in {time.monotonic() - began:.1f} s")
        lock.close()  # the data directory is free once everything on it has stopped
    return failed
