"""`python -m service.runtime.keeper --url URL --within SECONDS -- redis-server ARGS...`: the embedded Redis of
`python -m service serve`, kept up until its clients are gone, however serve ends.

serve's children get SIGTERM from the kernel at the same moment when serve dies without stopping them (`kill -9`,
the OOM killer: `PR_SET_PDEATHSIG`, service/runtime/lifetime.py). A worker then has its stop grace to finish its job or
put it back at the front of its queue, which needs Redis: a Redis that stopped at once would cost the job a retry. So
serve starts Redis under this keeper:

- SIGTERM (serve died): wait until no client but the keeper is connected to Redis (the workers, their schedulers
  and gunicorn have ended), at most `--within` seconds, then stop Redis;
- SIGINT (serve's own ordered stop, sent once the workers and gunicorn are gone): stop Redis now;
- Redis ending by itself ends the keeper with Redis's exit code, so serve starts both again.

Redis is stopped with SIGTERM (it writes its append-only file) and killed if it has not exited after `--stop`
seconds. Redis itself gets SIGTERM if the keeper is killed outright.
"""

from __future__ import annotations

import argparse
import signal
import subprocess
import threading
import time
from typing import Any, cast

from redis import Redis
from redis.exceptions import RedisError

from .lifetime import exec_hook

POLL = 0.1  # seconds between two looks at Redis's clients


def other_clients(probe: Redis) -> int:
    """Clients connected to Redis besides `probe` (CLIENT LIST counts the asking connection)."""
    return max(0, len(cast("list[Any]", probe.client_list())) - 1)


def drain(url: str, seconds: float, server: subprocess.Popen) -> None:
    """Wait until Redis has no other client, it ends, it stops answering, or `seconds` have passed."""
    deadline = time.monotonic() + seconds
    probe = Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)
    try:
        while time.monotonic() < deadline and server.poll() is None and other_clients(probe) > 0:
            time.sleep(POLL)
    except RedisError:
        pass
    finally:
        probe.close()


def main(argv: list[str] | None = None) -> int:
    """Run Redis until a stop signal; stop it as the signal asks; Redis's exit code."""
    parser = argparse.ArgumentParser(prog="python -m service.runtime.keeper")
    parser.add_argument("--url", required=True, help="Redis's own URL (its unix socket)")
    parser.add_argument("--within", type=float, required=True,
                        help="on SIGTERM, the longest wait for Redis's clients to leave (seconds)")
    parser.add_argument("--stop", type=float, default=10.0, help="seconds Redis has to exit after SIGTERM")
    parser.add_argument("command", nargs="+", help="the redis-server command line")
    args = parser.parse_args(argv)
    stopped: list[int] = []
    signalled = threading.Event()

    def on_signal(signum: int, _frame: object) -> None:
        stopped.append(signum)
        signalled.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    server = subprocess.Popen(args.command, preexec_fn=exec_hook(signal.SIGTERM))
    while server.poll() is None and not signalled.wait(POLL):
        pass
    if server.poll() is not None:
        return server.returncode
    if stopped[0] == signal.SIGTERM:
        drain(args.url, args.within, server)
    server.terminate()
    try:
        return server.wait(timeout=args.stop)
    except subprocess.TimeoutExpired:
        server.kill()
        return server.wait()


if __name__ == "__main__":
    raise SystemExit(main())
